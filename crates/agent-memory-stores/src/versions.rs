//! Host-side operations on versions (`versions.*`).

use memory_core::store::Page;
use memory_core::{ApiError, MemoryVersion};
use store_trait::RedactOutcome;

use super::cursor::StoreCursor;
use super::host::{memory_not_found, store_not_found, version_not_found};
use super::requests::{ListVersionsRequest, VersionIdRequest};
use crate::ops;
use crate::service::{StoreService, internal, page_tally, trace_op, trace_page};
use agent_memory_ops::audit::AuditEvent;
use agent_memory_ops::caller::StoreCaller;
use agent_memory_ops::ops::{
    Body, GenAiOperation, HttpInput, HttpMethod, HttpRoute, Operation, Tally, route,
};

impl StoreService {
    /// `versions.list {memory_store_id, memory_id?, limit?, cursor?}` → a page, newest first.
    /// A `memory_id` with neither a live memory nor any version is `404 MEMORY_NOT_FOUND`.
    pub fn versions_list(
        &self,
        c: &StoreCaller,
        request: &ListVersionsRequest,
    ) -> Result<Page<MemoryVersion>, ApiError> {
        ops::VersionsList::run(self, c, Body::Typed(request))
    }
}

impl Operation for ops::VersionsList {
    const NAME: &'static str = "versions.list";
    const GEN_AI_OPERATION: Option<GenAiOperation> = Some(GenAiOperation::SearchMemory);
    const HTTP: Option<HttpRoute> = route(
        HttpMethod::Get,
        "/v1/memory_stores/{memory_store_id}/memory_versions",
        HttpInput::Query,
        "Page through a store's versions, newest first",
    );
    type Service = StoreService;
    type Caller = StoreCaller;
    type Request = ListVersionsRequest;
    type Response = Page<MemoryVersion>;

    fn execute(
        service: &StoreService,
        c: &StoreCaller,
        input: Body<'_, ListVersionsRequest>,
    ) -> Result<Page<MemoryVersion>, ApiError> {
        service.authorize(c, false)?;
        let body = input.read()?;
        let limit = body.limit;
        let store = &body.memory_store_id;
        let memory = body.memory_id.as_ref();
        let after = body
            .cursor
            .as_deref()
            .map(|s| StoreCursor::decode(s)?.versions_position(store, memory))
            .transpose()?;
        let ws = c.workspace();
        service.store_of(ws, store)?.ok_or_else(store_not_found)?;
        if let Some(m) = memory
            && service
                .backend
                .get_memory(ws, store, m)
                .map_err(internal)?
                .is_none()
            && service
                .backend
                .list_versions(ws, store, Some(m), None, 1)
                .map_err(internal)?
                .is_empty()
        {
            return Err(memory_not_found());
        }
        let data = service
            .backend
            .list_versions(ws, store, memory, after.as_ref(), limit + 1)
            .map_err(internal)?;
        Ok(Page::from_one_more(data, limit, |last| {
            StoreCursor::Versions {
                store: store.as_str().to_owned(),
                memory: memory.map(|m| m.as_str().to_owned()),
                created_at: last.created_at.as_millis(),
                id: last.id.as_str().to_owned(),
            }
            .encode()
        }))
    }

    fn tally(page: &Page<MemoryVersion>) -> Tally<'_> {
        page_tally(page)
    }

    fn trace(c: &StoreCaller, result: &Result<Page<MemoryVersion>, ApiError>) {
        trace_page(Self::NAME, c.workspace(), result);
    }
}

impl StoreService {
    /// `versions.get {memory_store_id, version_id}` → the version (redacted ones too).
    pub fn versions_get(
        &self,
        c: &StoreCaller,
        request: &VersionIdRequest,
    ) -> Result<MemoryVersion, ApiError> {
        ops::VersionsGet::run(self, c, Body::Typed(request))
    }
}

impl Operation for ops::VersionsGet {
    const NAME: &'static str = "versions.get";
    const GEN_AI_OPERATION: Option<GenAiOperation> = Some(GenAiOperation::SearchMemory);
    const HTTP: Option<HttpRoute> = route(
        HttpMethod::Get,
        "/v1/memory_stores/{memory_store_id}/memory_versions/{version_id}",
        HttpInput::None,
        "Read a version",
    );
    type Service = StoreService;
    type Caller = StoreCaller;
    type Request = VersionIdRequest;
    type Response = MemoryVersion;

    fn execute(
        service: &StoreService,
        c: &StoreCaller,
        input: Body<'_, VersionIdRequest>,
    ) -> Result<MemoryVersion, ApiError> {
        service.authorize(c, false)?;
        let body = input.read()?;
        service
            .store_of(c.workspace(), &body.memory_store_id)?
            .ok_or_else(store_not_found)?;
        service
            .backend
            .get_version(c.workspace(), &body.memory_store_id, &body.version_id)
            .map_err(internal)?
            .ok_or_else(version_not_found)
    }

    fn trace(c: &StoreCaller, result: &Result<MemoryVersion, ApiError>) {
        trace_op(Self::NAME, c.workspace(), result, |v| {
            tracing::info!(op = Self::NAME, version_id = v.id.as_str());
        });
    }
}

impl StoreService {
    /// `versions.redact {memory_store_id, version_id}` → the redacted version (idempotent);
    /// a live memory's current version → `409 MEMORY_VERSION_IS_CURRENT`.
    pub fn versions_redact(
        &self,
        c: &StoreCaller,
        request: &VersionIdRequest,
    ) -> Result<MemoryVersion, ApiError> {
        ops::VersionsRedact::run(self, c, Body::Typed(request))
    }
}

impl Operation for ops::VersionsRedact {
    const NAME: &'static str = "versions.redact";
    const GEN_AI_OPERATION: Option<GenAiOperation> = Some(GenAiOperation::UpdateMemory);
    const HTTP: Option<HttpRoute> = route(
        HttpMethod::Post,
        "/v1/memory_stores/{memory_store_id}/memory_versions/{version_id}/redact",
        HttpInput::None,
        "Erase a version's content",
    );
    type Service = StoreService;
    type Caller = StoreCaller;
    type Request = VersionIdRequest;
    type Response = MemoryVersion;

    fn execute(
        service: &StoreService,
        c: &StoreCaller,
        input: Body<'_, VersionIdRequest>,
    ) -> Result<MemoryVersion, ApiError> {
        service.authorize(c, true)?;
        let body = input.read()?;
        let now = service.now();
        let outcome = service
            .backend
            .redact_version(c.workspace(), &body.memory_store_id, &body.version_id, now)
            .map_err(internal)?;
        match outcome {
            // A second redaction keeps the first `redacted_at` and records nothing.
            RedactOutcome::Redacted(version) if version.redacted_at != Some(now) => Ok(version),
            RedactOutcome::Redacted(version) => {
                service.record_audit(
                    c,
                    AuditEvent::MemoryVersionRedacted {
                        memory_store_id: body.memory_store_id.as_str().to_owned(),
                        version_id: version.id.as_str().to_owned(),
                    },
                );
                Ok(version)
            }
            RedactOutcome::Refused(err) => Err(err),
        }
    }

    fn trace(c: &StoreCaller, result: &Result<MemoryVersion, ApiError>) {
        trace_op(Self::NAME, c.workspace(), result, |v| {
            tracing::info!(op = Self::NAME, version_id = v.id.as_str());
        });
    }
}
