//! [`Error`]: what a backend answers when it cannot, and [`StorageFailure`], what a person can do
//! about it.

use std::borrow::Cow;

/// Errors of a backend itself (I/O, corruption) or of a caller breaking the trait's contract;
/// never carries memory content.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Stored data this build cannot have written (a value that does not decode, an index that
    /// names nothing): corruption. `source` is the decoder's own error when one refused the
    /// data; its message names a position or a kind, never memory content.
    #[error("storage backend failed: corrupt {what}")]
    Corrupt {
        /// What was found wrong, and where (`key space: …`, `format-3 database: …`).
        what: Cow<'static, str>,
        /// The decoder's error, when one refused the data.
        #[source]
        source: Option<Box<dyn std::error::Error + Send + Sync>>,
    },
    /// The database, its client or the file system under it failed, or a record could not be
    /// encoded: `source` is the cause (the database's, the encoder's or the operating system's
    /// own error), [`Error::failure`] says whether a person can act on it. Never carries memory
    /// content.
    #[error("storage backend failed: {context}")]
    Storage {
        /// What kind of failure (see [`StorageFailure`]).
        failure: StorageFailure,
        /// What the backend was doing.
        context: String,
        /// The cause.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A vacuum swapped the database's files but could not open the new ones (its own error
    /// said why): the handle answers this until the database is opened again.
    #[error(
        "storage backend failed: the database could not be reopened after a vacuum; open it again"
    )]
    Closed,
    /// The [`RememberWrite`](crate::RememberWrite) a `decide` closure returned breaks its contract (another owner,
    /// credential, namespace or key than the call's, an id already stored, a `superseded_at`).
    /// Nothing was written.
    #[error("invalid remember write: {0}")]
    InvalidWrite(&'static str),
    /// A durable backend's file is not in the storage format this build reads (another format
    /// version, or not a store-trait database at all). The open was refused before anything in
    /// the file was changed.
    #[error("unsupported storage format: {0}")]
    Format(String),
    /// The backend does not implement this method (a backend written before the method was
    /// added to [`Backend`](crate::Backend), relying on its default).
    #[error("this storage backend does not implement `{0}`")]
    Unsupported(&'static str),
}

/// The storage failures a person can act on, told apart so that a host can say what to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StorageFailure {
    /// Another process holds the database's lock (redb and sled open a database in one process
    /// at a time; SQLite's write lock stayed taken past its busy timeout): stop it, or wait.
    Locked,
    /// No space left on the device (or the disk quota, or the file-size limit, is used up).
    Full,
    /// The database cannot be written: a read-only file system or mount, no write permission,
    /// or a backend opened read-only.
    ReadOnly,
    /// Anything else (corruption, an I/O error, a bug).
    Other,
}

impl StorageFailure {
    /// The failure an operating-system error stands for.
    pub fn of_io(err: &std::io::Error) -> Self {
        use std::io::ErrorKind;
        match err.kind() {
            ErrorKind::StorageFull | ErrorKind::QuotaExceeded | ErrorKind::FileTooLarge => {
                StorageFailure::Full
            }
            ErrorKind::ReadOnlyFilesystem | ErrorKind::PermissionDenied => StorageFailure::ReadOnly,
            _ => StorageFailure::Other,
        }
    }
}

impl Error {
    /// An [`Error::Corrupt`] found without a decoder's error: an index or a record that
    /// contradicts the rest of the database.
    pub fn corrupt(what: impl Into<Cow<'static, str>>) -> Self {
        Error::Corrupt {
            what: what.into(),
            source: None,
        }
    }

    /// An [`Error::Corrupt`] whose decoder refused the data with `source`.
    pub fn undecodable(
        what: impl Into<Cow<'static, str>>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Self {
        Error::Corrupt {
            what: what.into(),
            source: Some(Box::new(source)),
        }
    }

    /// An [`Error::Storage`] of kind [`StorageFailure::Other`]: a failure nobody but a developer
    /// can act on (a record the encoder refused, a client's protocol error), caused by `source`.
    pub fn other(
        context: impl Into<String>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Self {
        Error::storage(StorageFailure::Other, context, source)
    }

    /// A [`Error::Storage`] caused by `source`.
    pub fn storage(
        failure: StorageFailure,
        context: impl Into<String>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Self {
        Error::Storage {
            failure,
            context: context.into(),
            source: Box::new(source),
        }
    }

    /// A [`Error::Storage`] caused by an operating-system error, classified by its kind.
    pub fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        Error::storage(StorageFailure::of_io(&source), context, source)
    }

    /// What kind of storage failure this is ([`StorageFailure::Other`] for everything that is not
    /// an [`Error::Storage`]).
    pub fn failure(&self) -> StorageFailure {
        match self {
            Error::Storage { failure, .. } => *failure,
            _ => StorageFailure::Other,
        }
    }
}

/// A JSON encoding or decoding failure, kept without serde's message.
///
/// serde_json's message can quote the value it refused (`invalid type: string "…"`,
/// ``unknown variant `…` ``), and a stored value is memory content; storage errors are logged,
/// so they carry none. What this keeps — the kind of failure and where in the value it
/// happened — is everything else serde_json reports. Every JSON failure of a key space becomes
/// one of these (`JsonError::from`) before it is a storage error's cause.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JsonError {
    category: serde_json::error::Category,
    line: usize,
    column: usize,
}

impl JsonError {
    /// Whether the value was not valid JSON, well-formed but of the wrong shape, cut short, or
    /// unreadable.
    pub fn category(&self) -> serde_json::error::Category {
        self.category
    }

    /// The one-based line and column serde_json stopped at (0 when it reports none).
    pub fn position(&self) -> (usize, usize) {
        (self.line, self.column)
    }
}

impl From<serde_json::Error> for JsonError {
    fn from(e: serde_json::Error) -> Self {
        JsonError {
            category: e.classify(),
            line: e.line(),
            column: e.column(),
        }
    }
}

impl std::fmt::Display for JsonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use serde_json::error::Category;
        let what = match self.category {
            Category::Io => "an I/O failure",
            Category::Syntax => "invalid JSON",
            Category::Data => "JSON of the wrong shape",
            Category::Eof => "JSON cut short",
        };
        write!(f, "{what} at line {} column {}", self.line, self.column)
    }
}

impl std::error::Error for JsonError {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every message in `err`'s chain, as a log of the chain would print them.
    fn chain(err: &dyn std::error::Error) -> String {
        let mut out = err.to_string();
        let mut next = err.source();
        while let Some(cause) = next {
            out.push_str(" <- ");
            out.push_str(&cause.to_string());
            next = cause.source();
        }
        out
    }

    #[test]
    fn a_json_failure_keeps_its_kind_and_position_but_not_the_value_serde_quoted() {
        let refused = r#"{"n": "call Dana at home"}"#;
        let serde_err = serde_json::from_str::<std::collections::BTreeMap<String, u32>>(refused)
            .unwrap_err();
        assert!(serde_err.to_string().contains("call Dana"), "serde quotes it");
        let json = JsonError::from(serde_err);
        assert_eq!(json.category(), serde_json::error::Category::Data);
        assert_eq!(json.position().0, 1);
        let err = Error::undecodable("key space: a record", json);
        let printed = chain(&err);
        assert!(!printed.contains("Dana"), "{printed}");
        assert!(printed.contains("JSON of the wrong shape at line 1 column"), "{printed}");
    }

    #[test]
    fn a_storage_error_prints_its_cause_once() {
        let err = Error::io("writing the log", std::io::Error::other("disk on fire"));
        assert_eq!(err.to_string(), "storage backend failed: writing the log");
        assert_eq!(
            chain(&err),
            "storage backend failed: writing the log <- disk on fire"
        );
    }
}
