//! redb's failures as storage errors, kept whole as their cause.

use store_trait::{Error, StorageFailure};

/// A redb failure, its cause kept and classified (the lock another process holds, a full disk,
/// a read-only file).
pub(crate) fn backend_error(e: impl Into<::redb::Error>) -> Error {
    let e: ::redb::Error = e.into();
    let failure = match &e {
        ::redb::Error::DatabaseAlreadyOpen => StorageFailure::Locked,
        ::redb::Error::Io(io) => StorageFailure::of_io(io),
        _ => StorageFailure::Other,
    };
    Error::storage(failure, "redb", e)
}
