//! The one place a storage failure becomes an error answer, for both products.

use memory_core::{ApiError, ErrorCode};

/// The answer to a storage failure: a stable code a person can act on (`STORAGE_FULL`,
/// `STORAGE_READ_ONLY`, `STORAGE_LOCKED`) or `INTERNAL_ERROR`, with a fixed message, never the
/// backend's (it may name files). The storage error stays the answer's
/// [`source`](std::error::Error::source), out of the answer itself.
///
/// This is the one place a storage failure becomes an error answer, so the failure is logged
/// here, at error level: its code, the operating system's error number and the whole chain of
/// causes (`chain`, the first line of each cause's message in turn). `store_trait::Error` and its
/// causes carry no memory content by construction: a JSON failure is kept as
/// `store_trait::JsonError` (its kind and position, not serde's message, which may quote the
/// value) and a PostgreSQL failure as `store_postgres::PgError` (its SQLSTATE, not the server's
/// message). Keeping only first lines is a second fence. The caller's trace adds the ids.
pub fn internal(err: store_trait::Error) -> ApiError {
    use store_trait::StorageFailure;
    let code = match err.failure() {
        StorageFailure::Locked => ErrorCode::StorageLocked,
        StorageFailure::Full => ErrorCode::StorageFull,
        StorageFailure::ReadOnly => ErrorCode::StorageReadOnly,
        _ => ErrorCode::InternalError,
    };
    let os_error = causes(&err)
        .find_map(|e| e.downcast_ref::<std::io::Error>())
        .and_then(std::io::Error::raw_os_error);
    tracing::error!(
        code = code.as_str(),
        failure = ?err.failure(),
        os_error,
        chain = %chain(&err),
        "storage backend failed"
    );
    let answer = match code {
        ErrorCode::InternalError => ApiError::new(code, "the storage backend failed"),
        _ => ApiError::from(code),
    };
    answer.with_source(err)
}

/// `err` and its causes, outermost first.
fn causes<'e>(
    err: &'e (dyn std::error::Error + 'static),
) -> impl Iterator<Item = &'e (dyn std::error::Error + 'static)> {
    std::iter::successors(Some(err), |e| e.source())
}

/// The first line of each message of `err`'s chain of causes, outermost first, joined by `": "`.
fn chain(err: &(dyn std::error::Error + 'static)) -> String {
    causes(err)
        .map(|e| {
            let message = e.to_string();
            message.lines().next().unwrap_or_default().to_owned()
        })
        .collect::<Vec<_>>()
        .join(": ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;

    fn disk_failure() -> store_trait::Error {
        store_trait::Error::storage(
            store_trait::StorageFailure::Other,
            "redb",
            std::io::Error::other("checksum mismatch"),
        )
    }

    #[test]
    fn a_storage_failure_is_the_same_500_and_keeps_the_storage_error_as_its_source() {
        let answer = internal(disk_failure());
        assert_eq!(answer.http_status(), 500);
        assert_eq!(
            serde_json::to_string(&answer).unwrap(),
            r#"{"error":{"code":"INTERNAL_ERROR","message":"the storage backend failed"}}"#
        );
        assert_eq!(
            answer.to_string(),
            "INTERNAL_ERROR: the storage backend failed"
        );
        let source = answer.source().expect("the storage error is kept");
        let storage = source
            .downcast_ref::<store_trait::Error>()
            .expect("the source is the storage error");
        assert_eq!(storage.failure(), store_trait::StorageFailure::Other);
        let io = source.source().expect("and its own cause");
        assert_eq!(io.to_string(), "checksum mismatch");
        assert_eq!(
            chain(&answer),
            "INTERNAL_ERROR: the storage backend failed: storage backend failed: redb: checksum mismatch"
        );
    }

    #[test]
    fn the_logged_chain_keeps_the_first_line_of_each_cause() {
        let failure = store_trait::Error::storage(
            store_trait::StorageFailure::Other,
            "postgres",
            std::io::Error::other("duplicate key\nDETAIL: Key (path)=(/notes/dana) already exists"),
        );
        assert_eq!(
            chain(&failure),
            "storage backend failed: postgres: duplicate key"
        );
    }

    #[test]
    fn a_failure_a_person_can_act_on_keeps_its_code_and_its_source() {
        let full = store_trait::Error::io(
            "writing",
            std::io::Error::from(std::io::ErrorKind::StorageFull),
        );
        let answer = internal(full);
        assert_eq!(answer, ApiError::from(ErrorCode::StorageFull));
        assert!(
            answer
                .source()
                .is_some_and(|s| s.is::<store_trait::Error>())
        );
    }
}
