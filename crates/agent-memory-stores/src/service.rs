//! [`StoreService`] and its builder, and what the operations of the other modules share: the
//! content and path checks of every write (see the crate docs for their order) and the traces.

use std::sync::Arc;

use memory_core::{
    ApiError, ErrorCode, IdGenerator, MemoryStore, MemoryStoreId, PiiPolicy, RandomIdGenerator,
    Role, StoreMemory, StorePath, Timestamp, WorkspaceId,
};
use store_trait::{Database, Storage, StoreBackend, VacuumReport};

use agent_memory_ops::audit::{AuditEvent, AuditRecord, AuditSink, NoopAuditSink};
use agent_memory_ops::caller::StoreCaller;
use agent_memory_ops::clock::{Clock, SystemClock};
pub(crate) use agent_memory_ops::internal;

/// Content longer than this is refused with `413 MEMORY_TOO_LARGE` before it is masked, whatever
/// the store's policy: masking can shrink text (a long digit run becomes one placeholder), but not
/// by a factor of ten for any text an agent writes, and the cap bounds the masking work.
pub const HARD_INPUT_CAP: usize = 10 * StoreMemory::CONTENT_MAX_BYTES;

/// The memory-store facade over a [`StoreBackend`].
///
/// `Send + Sync`; calls are synchronous (tokio hosts use the facade's `AsyncService`; others
/// call it from their runtime's blocking pool). Its `Debug` output shows no content.
pub struct StoreService {
    pub(crate) backend: Arc<dyn StoreBackend>,
    /// The whole database, for [`vacuum`](Self::vacuum); `None` when the builder got none.
    pub(crate) database: Option<Arc<dyn Database>>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) ids: Arc<dyn IdGenerator>,
    pub(crate) audit: Arc<dyn AuditSink>,
}

impl agent_memory_ops::sealed::Sealed for StoreService {}
impl agent_memory_ops::ops::Service for StoreService {
    const INVALID_REQUEST: ErrorCode = ErrorCode::MemoryInvalidRequest;
}

impl std::fmt::Debug for StoreService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoreService").finish_non_exhaustive()
    }
}

/// Builds a [`StoreService`]; the clock, id generator and audit sink have defaults.
pub struct StoreServiceBuilder {
    backend: Arc<dyn StoreBackend>,
    database: Option<Arc<dyn Database>>,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
    audit: Arc<dyn AuditSink>,
}

impl std::fmt::Debug for StoreServiceBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoreServiceBuilder")
            .finish_non_exhaustive()
    }
}

impl StoreServiceBuilder {
    /// The database the memory stores live in, for [`StoreService::vacuum`] (a vacuum rewrites
    /// the whole database, agent memories included, so it is an operation of the database
    /// rather than of its memory stores). [`StoreService::over`] sets it.
    pub fn database(mut self, database: Arc<dyn Database>) -> Self {
        self.database = Some(database);
        self
    }

    /// Replaces the system clock.
    pub fn clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = clock;
        self
    }

    /// Replaces the time + random id generator.
    pub fn ids(mut self, ids: Arc<dyn IdGenerator>) -> Self {
        self.ids = ids;
        self
    }

    /// Replaces the no-op audit sink (store deletions and redactions are recorded).
    pub fn audit(mut self, audit: Arc<dyn AuditSink>) -> Self {
        self.audit = audit;
        self
    }

    /// The service.
    pub fn build(self) -> StoreService {
        StoreService {
            backend: self.backend,
            database: self.database,
            clock: self.clock,
            ids: self.ids,
            audit: self.audit,
        }
    }
}

pub(crate) fn invalid(message: &'static str) -> ApiError {
    ApiError::new(ErrorCode::MemoryInvalidRequest, message)
}

/// Content ready for the backend: what is stored, and whether a `reject` store refuses it.
pub(crate) struct PreparedContent {
    /// The content to store (masked when the store masks).
    pub(crate) content: String,
    /// True when the store rejects personal data and the masker would change the content.
    pub(crate) personal_data: bool,
}

fn too_large() -> ApiError {
    ApiError::new(
        ErrorCode::MemoryTooLarge,
        "the content is larger than 102400 bytes",
    )
}

/// Applies the store's policy to `raw` and checks the stored size (see the module docs for the
/// order). `policy` is `None` when the store was not found: only the raw size is checked.
pub(crate) fn prepare_content(
    policy: Option<PiiPolicy>,
    raw: String,
) -> Result<PreparedContent, ApiError> {
    if raw.len() > HARD_INPUT_CAP {
        return Err(too_large());
    }
    let prepared = match policy {
        Some(PiiPolicy::Mask) => PreparedContent {
            content: pii_mask::mask(&raw).text,
            personal_data: false,
        },
        Some(PiiPolicy::Reject) => {
            let personal_data =
                raw.len() <= StoreMemory::CONTENT_MAX_BYTES && pii_mask::mask(&raw).text != raw;
            PreparedContent {
                content: raw,
                personal_data,
            }
        }
        Some(PiiPolicy::Allow) | None => PreparedContent {
            content: raw,
            personal_data: false,
        },
    };
    if prepared.content.len() > StoreMemory::CONTENT_MAX_BYTES {
        return Err(too_large());
    }
    Ok(prepared)
}

fn path_personal_data() -> ApiError {
    ApiError::new(
        ErrorCode::MemoryPathPersonalData,
        "the path contains personal data and the store masks or rejects it",
    )
}

/// Step 3 of the validation order (see the module docs): under `mask` and `reject` a path that
/// holds personal data is refused with `400 MEMORY_PATH_PERSONAL_DATA`. `policy` is `None` when
/// the store was not found (the write answers `404` later); `allow` stores any valid path.
pub(crate) fn check_path(policy: Option<PiiPolicy>, path: &StorePath) -> Result<(), ApiError> {
    match policy {
        Some(PiiPolicy::Mask | PiiPolicy::Reject)
            if pii_mask::contains_personal_data(path.as_str()) =>
        {
            Err(path_personal_data())
        }
        _ => Ok(()),
    }
}

/// A store's `name` or `description` as it is stored: masked, whatever the policy. `valid` is
/// the field's length rule, which the masked text must keep too (a placeholder can be longer
/// than what it replaces); `message` is the refusal's.
pub(crate) fn masked_store_text(
    raw: String,
    valid: fn(&str) -> bool,
    message: &'static str,
) -> Result<String, ApiError> {
    let masked = pii_mask::mask(&raw).text;
    if valid(&masked) {
        Ok(masked)
    } else {
        Err(invalid(message))
    }
}

/// Traces the end of one operation: `on_success` logs ids and counts; a refusal logs its code.
pub(crate) fn trace_op<T>(
    op: &'static str,
    workspace: &WorkspaceId,
    result: &Result<T, ApiError>,
    on_success: impl FnOnce(&T),
) {
    let span = tracing::info_span!("memory_store", workspace = workspace.as_str());
    let _entered = span.enter();
    match result {
        Ok(answer) => on_success(answer),
        // A failure of the host's storage is not a refusal: someone has to act on it.
        Err(err) if err.http_status() >= 500 => tracing::error!(
            op,
            code = err.code().as_str(),
            status = err.http_status(),
            "failed"
        ),
        Err(err) => tracing::info!(
            op,
            code = err.code().as_str(),
            status = err.http_status(),
            "refused"
        ),
    }
}

/// The tally of a page: its entries.
pub(crate) fn page_tally<T>(
    page: &memory_core::store::Page<T>,
) -> agent_memory_ops::ops::Tally<'_> {
    agent_memory_ops::ops::Tally {
        returned: Some(page.data.len() as u64),
        ..agent_memory_ops::ops::Tally::default()
    }
}

/// [`trace_op`] for a list: the page's size and whether another follows.
pub(crate) fn trace_page<T>(
    op: &'static str,
    workspace: &WorkspaceId,
    result: &Result<memory_core::store::Page<T>, ApiError>,
) {
    trace_op(op, workspace, result, |p| {
        tracing::info!(op, count = p.data.len(), more = p.next_cursor.is_some());
    });
}

impl StoreService {
    /// Starts a builder over `backend`.
    pub fn builder(backend: Arc<dyn StoreBackend>) -> StoreServiceBuilder {
        StoreServiceBuilder {
            backend,
            database: None,
            clock: Arc::new(SystemClock),
            ids: Arc::new(RandomIdGenerator::new()),
            audit: Arc::new(NoopAuditSink),
        }
    }

    /// Starts a builder over a whole database: its memory stores, and the database itself for
    /// [`vacuum`](Self::vacuum).
    pub fn over(storage: Arc<dyn Storage>) -> StoreServiceBuilder {
        Self::builder(storage.clone()).database(storage)
    }

    /// The clock the service decides with.
    pub fn now(&self) -> Timestamp {
        self.clock.now()
    }

    /// The first check of every host-side operation: a member below viewer (reads) or editor
    /// (writes) gets `403 MEMORY_STORE_FORBIDDEN`.
    pub(crate) fn authorize(&self, caller: &StoreCaller, write: bool) -> Result<(), ApiError> {
        let needed = if write { Role::Editor } else { Role::Viewer };
        if caller.role() < needed {
            return Err(ApiError::new(
                ErrorCode::MemoryStoreForbidden,
                "the member's role does not allow this memory-store operation",
            ));
        }
        Ok(())
    }

    pub(crate) fn store_of(
        &self,
        workspace: &WorkspaceId,
        id: &MemoryStoreId,
    ) -> Result<Option<MemoryStore>, ApiError> {
        self.backend.get_store(workspace, id).map_err(internal)
    }

    pub(crate) fn record_audit(&self, caller: &StoreCaller, event: AuditEvent) {
        let actor = match caller {
            StoreCaller::Member(m) => Some(m.member.clone()),
            StoreCaller::ApiKey { .. } => None,
        };
        tracing::info!(workspace = caller.workspace().as_str(), event = ?event, "governance event");
        self.audit.record(AuditRecord {
            at: self.now(),
            workspace: caller.workspace().clone(),
            actor,
            event,
        });
    }

    /// `vacuum`: rewrites the database so that removed and redacted content leaves its files
    /// (delegated to the [`Database`]; in memory the report is all zeros). A service built
    /// without its database ([`StoreServiceBuilder::database`]) answers `INTERNAL_ERROR`.
    pub fn vacuum(&self, progress: &dyn Fn(u64, u64)) -> Result<VacuumReport, ApiError> {
        let result = match &self.database {
            Some(database) => database.vacuum(progress).map_err(internal),
            None => Err(ApiError::new(
                ErrorCode::InternalError,
                "this service was built without its database, which a vacuum rewrites",
            )),
        };
        match &result {
            Ok(report) => tracing::info!(
                op = "vacuum",
                entries = report.entries,
                bytes_before = report.bytes_before,
                bytes_after = report.bytes_after,
            ),
            Err(err) => tracing::error!(op = "vacuum", code = err.code().as_str(), "failed"),
        }
        result
    }
}
