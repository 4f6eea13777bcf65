//! The agent operations: `remember`, `list` and `forget` (`recall` is in [`crate::recall`]).

use std::sync::atomic::Ordering;

use governance_policy as policy;
use memory_core::{
    AgentMemory, AgentMemoryId, ApiError, ContextBinding, ErrorCode, MemoryText, MemoryView,
    RankingData, Scope, Settings, SourceState, Timestamp,
};
use store_trait::{Owner, RememberOutcome, RememberWrite, ScanQuery};

use super::{Filters, MemoryService, SCAN_BATCH, internal, not_found, refused, trace_agent};
use crate::audit::AuditEvent;
use crate::caller::AgentCaller;
use crate::cursor::{Cursor, CursorKind};
use crate::ops::{
    self, Body, GenAiOperation, HttpInput, HttpMethod, HttpRoute, Operation, Tally, route,
};
use crate::responses::{
    BatchAnswer, DeletedResponse, ListResponse, RememberBatchResponse, RememberResponse,
};
use crate::telemetry;
use citation_verify::Verdict;

impl MemoryService {
    /// `remember`: stores a masked, cited, possibly superseding memory.
    pub fn remember(
        &self,
        caller: &AgentCaller,
        request: &policy::RememberRequest,
    ) -> Result<RememberResponse, ApiError> {
        ops::Remember::run(self, caller, Body::Typed(request))
    }
}

impl Operation for ops::Remember {
    const NAME: &'static str = "remember";
    const HTTP: Option<HttpRoute> = route(
        HttpMethod::Post,
        "/api/agent/v1/memories/remember",
        HttpInput::Body,
        "Store a memory for the credential's member (the text is masked first)",
    );
    const MCP_TOOL: Option<&'static str> = Some("remember_memory");
    // It creates a memory or supersedes the key's current one.
    const GEN_AI_OPERATION: Option<GenAiOperation> = Some(GenAiOperation::UpdateMemory);
    type Service = MemoryService;
    type Caller = AgentCaller;
    type Request = policy::RememberRequest;
    type Response = RememberResponse;

    /// The checks run under the workspace's settings as this service last read them; the
    /// transaction reads them again and writes only when they are the same, so that the write
    /// and the switch and retention it obeyed are one state. When they moved, the checks run
    /// again under the ones the transaction read. A refusal decided under kept settings is
    /// answered only once settings read now allow the caller (otherwise theirs is the answer),
    /// so the order of checks is the one fresh settings give.
    fn execute(
        service: &MemoryService,
        caller: &AgentCaller,
        input: Body<'_, policy::RememberRequest>,
    ) -> Result<RememberResponse, ApiError> {
        let (mut auth, mut fresh) = service.authorize_kept(caller, Scope::MemoryWrite)?;
        let confirm = |fresh: bool, refusal: ApiError| {
            if fresh {
                return refusal;
            }
            match service.authorize(caller, Scope::MemoryWrite) {
                Err(access) => access,
                Ok(_) => refusal,
            }
        };
        let request = input.read().map_err(|e| confirm(fresh, e))?;
        for _ in 0..SETTINGS_ATTEMPTS {
            match remember_under(service, &auth, &request) {
                Ok(Attempt::Written(response)) => return Ok(*response),
                Ok(Attempt::SettingsMoved(stored)) => {
                    service.kept_settings.keep(&auth.owner.workspace, stored);
                    auth = service.authorize_under(auth.credential, Scope::MemoryWrite, stored)?;
                    fresh = true;
                }
                Err(refusal) => return Err(confirm(fresh, refusal)),
            }
        }
        Err(ApiError::new(
            ErrorCode::InternalError,
            "the workspace settings kept changing during the write",
        ))
    }

    fn tally(r: &RememberResponse) -> Tally<'_> {
        Tally {
            masked: Some(&r.masked),
            superseded: Some(r.superseded),
            ..Tally::default()
        }
    }

    fn trace(caller: &AgentCaller, result: &Result<RememberResponse, ApiError>) {
        if let Ok(r) = result {
            telemetry::remember_accepted(r.superseded);
        }
        trace_agent(Self::NAME, caller, result, |r| {
            tracing::info!(
                op = Self::NAME,
                memory_id = r.memory.id.as_str(),
                version = r.memory.version,
                superseded = r.superseded,
                masked = r.masked.total(),
                citations = r.memory.citations.len(),
            );
        });
    }
}

/// Attempts of a remember whose workspace settings move under it before it answers.
const SETTINGS_ATTEMPTS: usize = 8;

/// How one attempt of a remember ended.
enum Attempt {
    /// Written (or refused, as an `Err`) under the settings it checked.
    Written(Box<RememberResponse>),
    /// Nothing written: the transaction read other stored settings than the attempt checked.
    SettingsMoved(Option<Settings>),
}

/// One attempt of a remember, from the field checks on, under `auth`'s settings.
fn remember_under(
    service: &MemoryService,
    auth: &super::Authorized<'_>,
    request: &policy::RememberRequest,
) -> Result<Attempt, ApiError> {
    // A host's shorter text limit: still step 5, after the contract's field rules.
    let max = service.limits.text_max_chars;
    if request.text.chars().count() > usize::from(max) {
        return Err(ApiError::out_of_bounds(
            ErrorCode::AgentMemoryInvalidRequest,
            "the length of text",
            1,
            u64::from(max),
        ));
    }
    policy::check_identifiers(
        &request.namespace,
        request.key.as_deref(),
        request.collection_id.as_deref(),
    )?;
    let binding = &auth.credential.binding;
    policy::check_remember_anchor(
        binding,
        request.collection_id.as_deref(),
        !request.citations.is_empty(),
    )?;
    let citations = citation_verify::resolve_citations(
        service.passages.as_ref(),
        &auth.owner.workspace,
        &auth.owner.member,
        &request.citations,
    )?;
    policy::check_cited_documents(binding, &citations)?;
    let key = request
        .key
        .as_deref()
        .map(|k| (request.namespace.as_str(), k));
    if let (Some(set), Some((namespace, key))) = (binding.set(), key) {
        // Read here for the order of checks; the transaction below checks again atomically.
        let current = service
            .backend
            .current_of_key(&auth.owner, namespace, key)
            .map_err(internal)?;
        if current.is_some_and(|c| !policy::memory_in_set(set, &c)) {
            return Err(refused());
        }
    }
    let (text, masked) = MemoryText::mask(&request.text);
    if !text.has_content() {
        return Err(ApiError::new(
            ErrorCode::AgentMemoryEmpty,
            "nothing is left of the text after masking",
        ));
    }

    let now = service.now();
    let cutoff = policy::expired_cutoff(now, auth.settings.retention_days);
    let id = AgentMemoryId::generate(service.ids.as_ref(), now)
        .map_err(|_| ApiError::new(ErrorCode::InternalError, "the id generator failed"))?;
    let mut record = AgentMemory {
        id,
        workspace: auth.owner.workspace.clone(),
        member: auth.owner.member.clone(),
        credential: auth.credential.credential.clone(),
        namespace: request.namespace.clone(),
        key: request.key.clone(),
        text,
        collection_id: request.collection_id.clone(),
        version: 1,
        citations,
        created_at: now,
        superseded_at: None,
        ranking: RankingData::default(),
    };
    record.ranking = service.ranking_data(record.text.as_str());
    // Set when the transaction read other stored settings than `auth` checked.
    let mut moved = None;
    let outcome = service
        .backend
        .remember(
            &auth.owner,
            &auth.credential.credential,
            key,
            policy::window_start(now),
            cutoff,
            &mut |state| {
                // A backend may run the step again (a retried transaction): the last run decides.
                moved = None;
                if state.settings != auth.stored {
                    moved = Some(state.settings);
                    // Refused, so nothing is written; the caller runs the attempt again.
                    return Err(ApiError::new(
                        ErrorCode::InternalError,
                        "the workspace settings moved",
                    ));
                }
                if let (Some(set), Some(current)) = (binding.set(), &state.current)
                    && !policy::memory_in_set(set, current)
                {
                    return Err(refused());
                }
                // The instant of the write is read here, inside the backend's step, so that
                // it is the instant of the decision; for a keyed write the backend still
                // moves it past the key's latest instant (`store_trait::key_instant`), so
                // that a key's versions follow commit order whatever the clock does.
                let at = service.now();
                if service.rate_limited {
                    policy::check_rate(&state.window, at, service.limits.remembers_per_hour)?;
                }
                policy::check_quota(state.stored_versions, service.limits.versions_per_member)?;
                record.created_at = at;
                record.version = if key.is_some() {
                    state.last_version + 1
                } else {
                    1
                };
                Ok(RememberWrite {
                    record: record.clone(),
                    supersede_current: state.current.is_some(),
                })
            },
        )
        .map_err(internal)?;
    if let Some(stored) = moved {
        return Ok(Attempt::SettingsMoved(stored));
    }
    match outcome {
        RememberOutcome::Refused(err) => Err(err),
        RememberOutcome::Written { record, superseded } => {
            service
                .written
                .fetch_max(record.created_at.as_millis(), Ordering::SeqCst);
            let superseded = superseded.is_some_and(|s| s.created_at > cutoff);
            let state = if record.citations.is_empty() {
                SourceState::Uncited
            } else {
                SourceState::Current
            };
            Ok(Attempt::Written(Box::new(RememberResponse {
                memory: MemoryView::new(&record, state),
                superseded,
                masked,
            })))
        }
    }
}

impl MemoryService {
    /// `list`: the member's memories valid at `asOf`, newest first, with keyset pagination.
    pub fn list(
        &self,
        caller: &AgentCaller,
        request: &policy::ListRequest,
    ) -> Result<ListResponse, ApiError> {
        ops::List::run(self, caller, Body::Typed(request))
    }
}

impl Operation for ops::List {
    const NAME: &'static str = "list";
    const HTTP: Option<HttpRoute> = route(
        HttpMethod::Post,
        "/api/agent/v1/memories/list",
        HttpInput::Body,
        "Page through the member's memories, newest first",
    );
    const MCP_TOOL: Option<&'static str> = Some("list_memories");
    const GEN_AI_OPERATION: Option<GenAiOperation> = Some(GenAiOperation::SearchMemory);
    type Service = MemoryService;
    type Caller = AgentCaller;
    type Request = policy::ListRequest;
    type Response = ListResponse;

    fn execute(
        service: &MemoryService,
        caller: &AgentCaller,
        input: Body<'_, policy::ListRequest>,
    ) -> Result<ListResponse, ApiError> {
        let auth = service.authorize(caller, Scope::MemoryRead)?;
        let request = input.read()?;
        let cursor = request.cursor.as_deref().map(Cursor::decode).transpose()?;
        policy::check_read_filter(&auth.credential.binding, request.collection_id.as_deref())?;
        let now = service.read_now(&auth.owner)?;
        let filters = Filters {
            namespace: request.namespace.clone(),
            key: request.key.clone(),
            collection_id: request.collection_id.clone(),
            created_after: request.created_after,
            created_before: request.created_before,
        };
        service.page(
            &auth.owner,
            &auth.settings,
            now,
            CursorKind::Agent,
            filters,
            request.as_of,
            cursor,
            request.limit,
            Some(&auth.credential.binding),
        )
    }

    fn tally(r: &ListResponse) -> Tally<'_> {
        Tally {
            returned: Some(r.memories.len() as u64),
            hidden: Some(r.hidden),
            ..Tally::default()
        }
    }

    fn trace(caller: &AgentCaller, result: &Result<ListResponse, ApiError>) {
        trace_agent(Self::NAME, caller, result, |r| {
            tracing::info!(
                op = Self::NAME,
                returned = r.memories.len(),
                hidden = r.hidden,
                more = r.next_cursor.is_some()
            );
        });
    }
}

impl MemoryService {
    /// One page of a listing: scans forward until `limit` visible memories or nothing matching
    /// is left, counting hidden ones met on the way.
    ///
    /// `requested_as_of` is the `asOf` as sent. Later pages read at the first page's effective
    /// `asOf`; an `asOf` sent with a cursor must be the one sent with the first page (a future
    /// one is evaluated at now, so comparing effective instants would refuse a repeated request).
    #[allow(clippy::too_many_arguments)] // one private helper shared by two listings
    pub(super) fn page(
        &self,
        owner: &Owner,
        settings: &Settings,
        now: Timestamp,
        kind: CursorKind,
        filters: Filters,
        requested_as_of: Option<Timestamp>,
        cursor: Option<Cursor>,
        limit: usize,
        binding: Option<&ContextBinding>,
    ) -> Result<ListResponse, ApiError> {
        let sent_as_of = requested_as_of.map(Timestamp::as_millis);
        let (as_of, first_sent_as_of, mut after) = match cursor {
            // Every page reads at the first page's `asOf`. Before the first page, a remember of
            // the owner in flight commits, and this clock passes that instant before the next
            // one may start: a remember reads its clock inside its step, so every version
            // committed from then on is newer than the listing's instant, and all its pages
            // read one snapshot whatever commits between them.
            None => {
                let as_of = policy::effective_as_of(requested_as_of, now);
                self.backend
                    .between_writes(owner, &mut || self.wait_past(as_of))
                    .map_err(internal)?;
                (as_of, sent_as_of, filters.start())
            }
            Some(cursor) => {
                let cursor_as_of = cursor.as_of()?;
                if cursor.kind != kind
                    || cursor.namespace != filters.namespace
                    || cursor.key != filters.key
                    || cursor.collection_id != filters.collection_id
                    || cursor.created_after != filters.created_after.map(Timestamp::as_millis)
                    || cursor.created_before != filters.created_before.map(Timestamp::as_millis)
                    || sent_as_of.is_some_and(|t| Some(t) != cursor.sent_as_of)
                {
                    return Err(ApiError::new(
                        ErrorCode::AgentMemoryInvalidRequest,
                        "cursor was made with other filters",
                    ));
                }
                (cursor_as_of, cursor.sent_as_of, Some(cursor.position()?))
            }
        };
        let cutoff = filters.cutoff(policy::expired_cutoff(now, settings.retention_days));
        let mut memories = Vec::new();
        let mut hidden = 0u64;
        let mut last: Option<(Timestamp, AgentMemoryId)> = None;
        let mut more = false;
        'scan: loop {
            let batch = self
                .backend
                .scan(
                    owner,
                    &ScanQuery {
                        valid_at: as_of,
                        expired_cutoff: cutoff,
                        namespace: filters.namespace.clone(),
                        key: filters.key.clone(),
                        collection_id: filters.collection_id.clone(),
                        after: after.clone(),
                        limit: SCAN_BATCH,
                    },
                )
                .map_err(internal)?;
            let exhausted = batch.len() < SCAN_BATCH;
            if let Some(last_read) = batch.last() {
                after = Some((last_read.created_at, last_read.id.clone()));
            }
            let in_set: Vec<&AgentMemory> = batch
                .iter()
                .filter(|m| match binding.and_then(ContextBinding::set) {
                    Some(set) => policy::memory_in_set(set, m),
                    None => true,
                })
                .collect();
            if memories.len() == limit {
                // The page is full: one more matching version means there is a next page.
                if !in_set.is_empty() {
                    more = true;
                }
                if more || exhausted {
                    break;
                }
                continue;
            }
            let verification = citation_verify::verify(
                self.passages.as_ref(),
                &owner.workspace,
                &owner.member,
                &in_set,
            );
            for (i, (memory, verdict)) in in_set.iter().zip(&verification.verdicts).enumerate() {
                if memories.len() == limit {
                    more = i < in_set.len();
                    break 'scan;
                }
                match verdict {
                    Verdict::Hidden => match kind {
                        CursorKind::Agent => hidden += 1,
                        CursorKind::Member => {
                            memories.push(MemoryView::new(memory, SourceState::Unavailable))
                        }
                    },
                    Verdict::Visible(state) => memories.push(MemoryView::new(memory, *state)),
                }
                last = Some((memory.created_at, memory.id.clone()));
            }
            if exhausted {
                break;
            }
        }
        let next_cursor = match (more, last) {
            (true, Some((created_at, id))) => Some(
                Cursor {
                    kind,
                    namespace: filters.namespace,
                    key: filters.key,
                    collection_id: filters.collection_id,
                    created_after: filters.created_after.map(Timestamp::as_millis),
                    created_before: filters.created_before.map(Timestamp::as_millis),
                    as_of: as_of.as_millis(),
                    sent_as_of: first_sent_as_of,
                    created_at: created_at.as_millis(),
                    id: id.into_string(),
                }
                .encode(),
            ),
            _ => None,
        };
        Ok(ListResponse {
            memories,
            hidden,
            next_cursor,
        })
    }

    /// `forget`: removes a memory (a keyed memory's whole key) by id, or a key's versions.
    pub fn forget(
        &self,
        caller: &AgentCaller,
        request: &policy::ForgetRequest,
    ) -> Result<DeletedResponse, ApiError> {
        ops::Forget::run(self, caller, Body::Typed(request))
    }
}

impl Operation for ops::Forget {
    const NAME: &'static str = "forget";
    const HTTP: Option<HttpRoute> = route(
        HttpMethod::Post,
        "/api/agent/v1/memories/forget",
        HttpInput::Body,
        "Forget a memory by id, or every version of a key",
    );
    const MCP_TOOL: Option<&'static str> = Some("forget_memory");
    const GEN_AI_OPERATION: Option<GenAiOperation> = Some(GenAiOperation::DeleteMemory);
    type Service = MemoryService;
    type Caller = AgentCaller;
    type Request = policy::ForgetRequest;
    type Response = DeletedResponse;

    fn execute(
        service: &MemoryService,
        caller: &AgentCaller,
        input: Body<'_, policy::ForgetRequest>,
    ) -> Result<DeletedResponse, ApiError> {
        let auth = service.authorize(caller, Scope::MemoryWrite)?;
        let request = input.read()?.into_owned();
        let binding = &auth.credential.binding;
        let removed = match request {
            policy::ForgetRequest::ById(id) => {
                let id = AgentMemoryId::parse(id).map_err(|_| not_found())?;
                let memory = service
                    .backend
                    .get(&auth.owner, &id)
                    .map_err(internal)?
                    .ok_or_else(not_found)?;
                MemoryService::check_forget_in_set(binding, &memory)?;
                service
                    .backend
                    .forget_id(&auth.owner, &id)
                    .map_err(internal)?
            }
            policy::ForgetRequest::ByKey { namespace, key } => {
                // A key whose current version was purged has only superseded leftovers; there
                // is nothing current to judge the set by, and forgetting them reveals nothing.
                if let Some(current) = service
                    .backend
                    .current_of_key(&auth.owner, &namespace, &key)
                    .map_err(internal)?
                {
                    MemoryService::check_forget_in_set(binding, &current)?;
                }
                service
                    .backend
                    .forget_key(&auth.owner, &namespace, &key)
                    .map_err(internal)?
            }
        };
        if removed.is_empty() {
            return Err(not_found());
        }
        let deleted = removed.len() as u64;
        service.audit(
            &auth.owner.workspace,
            Some(&auth.owner.member),
            AuditEvent::Forget {
                credential: auth.credential.credential.as_str().to_owned(),
                deleted,
            },
        );
        Ok(DeletedResponse { deleted })
    }

    fn tally(r: &DeletedResponse) -> Tally<'_> {
        Tally {
            deleted: Some(r.deleted),
            ..Tally::default()
        }
    }

    fn trace(caller: &AgentCaller, result: &Result<DeletedResponse, ApiError>) {
        trace_agent(Self::NAME, caller, result, |r| {
            tracing::info!(op = Self::NAME, deleted = r.deleted)
        });
    }
}

impl MemoryService {
    fn check_forget_in_set(binding: &ContextBinding, memory: &AgentMemory) -> Result<(), ApiError> {
        match binding {
            ContextBinding::Unbound => Ok(()),
            ContextBinding::Invalid => Err(refused()),
            ContextBinding::Bound(set) if policy::memory_in_set(set, memory) => Ok(()),
            ContextBinding::Bound(_) => Err(refused()),
        }
    }
}

impl MemoryService {
    /// `rememberBatch`: each item a `remember` under the same rules (rate limit and quota
    /// counted item by item), answered on its own; the credential is checked once, first, and
    /// refuses the whole batch when it fails.
    pub fn remember_many(
        &self,
        caller: &AgentCaller,
        request: &policy::RememberBatchRequest,
    ) -> Result<RememberBatchResponse, ApiError> {
        ops::RememberBatch::run(self, caller, Body::Typed(request))
    }
}

impl Operation for ops::RememberBatch {
    const NAME: &'static str = "rememberBatch";
    const HTTP: Option<HttpRoute> = route(
        HttpMethod::Post,
        "/api/agent/v1/memories/remember-batch",
        HttpInput::Body,
        "Store up to 100 memories, each answered on its own",
    );
    type Service = MemoryService;
    type Caller = AgentCaller;
    type Request = policy::RememberBatchRequest;
    type Response = RememberBatchResponse;
    // Each item runs as a `remember`, with its own span (inside this one) and its own counts.
    const GEN_AI_OPERATION: Option<GenAiOperation> = Some(GenAiOperation::UpdateMemory);

    fn execute(
        service: &MemoryService,
        caller: &AgentCaller,
        input: Body<'_, policy::RememberBatchRequest>,
    ) -> Result<RememberBatchResponse, ApiError> {
        service.authorize(caller, Scope::MemoryWrite)?;
        let batch = input.read()?;
        let results = batch
            .items
            .iter()
            .map(|item| {
                BatchAnswer::from_result(match item {
                    Ok(request) => ops::Remember::run(service, caller, Body::Typed(request)),
                    Err(err) => Err(err.clone()),
                })
            })
            .collect();
        Ok(RememberBatchResponse { results })
    }

    fn tally(r: &RememberBatchResponse) -> Tally<'_> {
        Tally {
            returned: Some(r.results.len() as u64),
            ..Tally::default()
        }
    }

    fn trace(caller: &AgentCaller, result: &Result<RememberBatchResponse, ApiError>) {
        trace_agent(Self::NAME, caller, result, |r| {
            tracing::info!(
                op = Self::NAME,
                items = r.results.len(),
                accepted = r.results.iter().filter(|a| a.status == 200).count(),
            );
        });
    }
}
