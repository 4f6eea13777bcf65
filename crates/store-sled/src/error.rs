//! sled's failures as storage errors, kept whole as their cause.

use store_trait::{Error, StorageFailure};

/// A sled failure, classified: sled reports the lock another process holds as an I/O error of
/// kind `Other` with this message (sled 0.34, `Config::try_lock`).
pub(crate) fn storage(during: &str, e: &::sled::Error) -> Error {
    let failure = match e {
        ::sled::Error::Io(io) if io.to_string().starts_with("could not acquire lock") => {
            StorageFailure::Locked
        }
        ::sled::Error::Io(io) => StorageFailure::of_io(io),
        _ => StorageFailure::Other,
    };
    Error::storage(failure, format!("sled {during}"), e.clone())
}
