//! `MemoryService`: the facade every host calls. Each operation follows the spec's order of
//! checks, decides with `governance-policy`, verifies sources with `citation-verify`, and reads
//! or writes through the `Backend` (quota, rate limit and supersede in one transaction).

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use citation_verify::{PassageSource, Verdict};
use fusion_rank::{
    Analyzer, EmbedError, EmbedPool, Embedder, HashingEmbedder, SEMANTIC_BUDGET, Weights,
};
use governance_policy as policy;
use memory_core::{
    AgentMemory, AgentMemoryId, ApiError, ContextBinding, ErrorCode, IdGenerator, MemoryText,
    MemoryView, RandomIdGenerator, RankingData, Scope, Settings, SourceState, StoredEmbedding,
    Timestamp, WorkspaceId,
};
use serde::Serialize;
use store_trait::{Backend, Owner, RememberOutcome, RememberWrite, ScanQuery};

use crate::audit::{AuditEvent, AuditRecord, AuditSink, NoopAuditSink};
use crate::caller::{AgentCaller, AgentCredential, MemberCaller};
use crate::clock::{Clock, SystemClock};
use crate::cursor::{Cursor, CursorKind};
use crate::entity::{DefaultEntityResolver, EntityResolver};
use crate::input::Input;
use crate::responses::{DeletedResponse, ListResponse, PurgedResponse, RememberResponse};

/// How many versions a list page reads from the backend at a time while it looks for visible
/// memories (hidden and out-of-set versions are skipped, so a page may need more than `limit`).
const SCAN_BATCH: usize = 64;

/// The facade: governed agent memories over a [`Backend`].
///
/// `Send + Sync`; calls are synchronous (hosts on an async runtime use `spawn_blocking`).
pub struct MemoryService {
    pub(crate) backend: Arc<dyn Backend>,
    pub(crate) passages: Arc<dyn PassageSource>,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
    audit: Arc<dyn AuditSink>,
    pub(crate) embeddings: EmbedPool,
    pub(crate) entities: Arc<dyn EntityResolver>,
    pub(crate) semantic_budget: Duration,
    pub(crate) candidate_window: policy::CandidateWindow,
    pub(crate) weights: Weights,
    pub(crate) collapse_duplicates: bool,
    pub(crate) analyzer: Analyzer,
    /// The latest instant this service wrote a version at (ms), or `i64::MIN`: the backend may
    /// put a keyed write a few milliseconds past the clock (`store_trait::key_instant`), and
    /// [`now`](MemoryService::now) never runs behind it, so a read right after a write sees it.
    written: AtomicI64,
}

impl std::fmt::Debug for MemoryService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemoryService").finish_non_exhaustive()
    }
}

/// Builds a [`MemoryService`]; the clock, id generator and audit sink have defaults.
pub struct MemoryServiceBuilder {
    backend: Arc<dyn Backend>,
    passages: Arc<dyn PassageSource>,
    clock: Arc<dyn Clock>,
    ids: Arc<dyn IdGenerator>,
    audit: Arc<dyn AuditSink>,
    embedder: Arc<dyn Embedder>,
    entities: Arc<dyn EntityResolver>,
    semantic_budget: Duration,
    candidate_window: policy::CandidateWindow,
    weights: Option<Weights>,
    collapse_duplicates: bool,
    analyzer: Analyzer,
    embed_workers: usize,
}

/// Why a [`MemoryService`] could not be built.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// The embedding worker pool could not start; the [`EmbedError`] is the
    /// [`source`](std::error::Error::source) (printed by whoever prints the chain).
    #[error("the embedding worker pool could not start")]
    EmbedPool(#[from] EmbedError),
}

impl MemoryServiceBuilder {
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

    /// Replaces the no-op audit sink.
    pub fn audit(mut self, audit: Arc<dyn AuditSink>) -> Self {
        self.audit = audit;
        self
    }

    /// Replaces the offline hashing embedder (the query and every written memory are embedded
    /// with it; vectors of other models are never compared).
    pub fn embedder(mut self, embedder: Arc<dyn Embedder>) -> Self {
        self.embedder = embedder;
        self
    }

    /// Replaces the default entity resolver.
    pub fn entity_resolver(mut self, entities: Arc<dyn EntityResolver>) -> Self {
        self.entities = entities;
        self
    }

    /// Changes the semantic budget (default 800 ms): query embedding that takes longer is
    /// dropped and recall answers with the other two rankers.
    pub fn semantic_budget(mut self, budget: Duration) -> Self {
        self.semantic_budget = budget;
        self
    }

    /// Which versions recall ranks (default `latest(300)`, the contract's rule): `latest(n)`
    /// for the `n` most recent matching versions, or `all` for every version the member may
    /// see at `asOf`. The response's `considered` says how many were ranked.
    pub fn candidate_window(mut self, window: policy::CandidateWindow) -> Self {
        self.candidate_window = window;
        self
    }

    /// How much each ranker counts in the fusion. The default depends on the embedder
    /// ([`Weights::for_embedder`]: with a language model BM25 fades as its best match covers
    /// less of the query; with the hashing embedder BM25 leads and the hashing cosine adds
    /// 0.3); [`Weights::EQUAL`] is the contract's plain Reciprocal Rank Fusion.
    pub fn weights(mut self, weights: Weights) -> Self {
        self.weights = Some(weights);
        self
    }

    /// Whether recall answers identical masked texts of one namespace once (default `true`):
    /// the newest stands for the others and says how many (`duplicates`). `false` lists every
    /// version, as the seeds' contract did (the `replay` runner keeps it so).
    pub fn collapse_duplicates(mut self, collapse: bool) -> Self {
        self.collapse_duplicates = collapse;
        self
    }

    /// Which terms BM25 counts (default [`Analyzer::Stemmed`], what every storage format
    /// holds). [`Analyzer::Words`] reproduces the seeds' ranking for recorded scenarios; a
    /// database written with it holds term counts the default analyzer does not match.
    pub fn analyzer(mut self, analyzer: Analyzer) -> Self {
        self.analyzer = analyzer;
        self
    }

    /// The service; starts the embedding worker pool.
    pub fn build(self) -> Result<MemoryService, BuildError> {
        let weights = self
            .weights
            .unwrap_or_else(|| Weights::for_embedder(self.embedder.as_ref()));
        Ok(MemoryService {
            weights,
            collapse_duplicates: self.collapse_duplicates,
            analyzer: self.analyzer,
            backend: self.backend,
            passages: self.passages,
            clock: self.clock,
            ids: self.ids,
            audit: self.audit,
            embeddings: EmbedPool::new(self.embedder, self.embed_workers)?,
            entities: self.entities,
            semantic_budget: self.semantic_budget,
            candidate_window: self.candidate_window,
            written: AtomicI64::new(i64::MIN),
        })
    }
}

pub(crate) use crate::stores::internal;

fn not_found() -> ApiError {
    ApiError::new(ErrorCode::AgentMemoryNotFound, "memory not found")
}

fn refused() -> ApiError {
    ApiError::new(
        ErrorCode::AgentContextSetScopeRefused,
        "outside the credential's context set",
    )
}

/// A verified credential allowed to run one agent operation.
pub(crate) struct Authorized<'a> {
    pub(crate) credential: &'a AgentCredential,
    pub(crate) owner: Owner,
    pub(crate) settings: Settings,
}

impl MemoryService {
    /// Starts a builder over `backend` and the host's passage source.
    pub fn builder(
        backend: Arc<dyn Backend>,
        passages: Arc<dyn PassageSource>,
    ) -> MemoryServiceBuilder {
        MemoryServiceBuilder {
            backend,
            passages,
            clock: Arc::new(SystemClock),
            ids: Arc::new(RandomIdGenerator::new()),
            audit: Arc::new(NoopAuditSink),
            embedder: Arc::new(HashingEmbedder::new()),
            entities: Arc::new(DefaultEntityResolver),
            semantic_budget: SEMANTIC_BUDGET,
            candidate_window: policy::CandidateWindow::default(),
            weights: None,
            collapse_duplicates: true,
            analyzer: Analyzer::default(),
            embed_workers: 2,
        }
    }

    /// The embedding of `text` within the semantic budget, or `None` (failed, too slow, or every
    /// worker still stuck on an earlier call).
    pub(crate) fn embed_query(&self, text: &str) -> Option<Vec<f32>> {
        self.embeddings
            .embed_within(text, self.semantic_budget)
            .ok()
    }

    /// Ranking data of a masked text, computed once at write time.
    fn ranking_data(&self, text: &str) -> RankingData {
        let (terms, length) = self.analyzer.term_stats(text).into_counts();
        RankingData {
            terms,
            length,
            embedding: self.embed_query(text).map(|vector| StoredEmbedding {
                model: self.embeddings.model_id().to_owned(),
                vector,
            }),
        }
    }

    /// How much each ranker counts in recall's fusion.
    pub fn weights(&self) -> Weights {
        self.weights
    }

    /// Which versions recall ranks.
    pub fn candidate_window(&self) -> policy::CandidateWindow {
        self.candidate_window
    }

    /// The query terms BM25 looks for: `query` masked, then analyzed as the stored term counts
    /// were (what `recall` matches; the CLI's `recall --verbose` prints them).
    pub fn analyzed_query(&self, query: &str) -> Vec<String> {
        fusion_rank::PreparedQuery::with_analyzer(&pii_mask::mask(query).text, self.analyzer).terms
    }

    /// The clock the service decides with: the host's clock, or the latest instant this service
    /// wrote a version at when that is later (a burst of writes to one key within a millisecond
    /// takes the following milliseconds; reading at the clock would not see them yet).
    pub fn now(&self) -> Timestamp {
        let clock = self.clock.now();
        let written = self.written.load(Ordering::SeqCst);
        if written > clock.as_millis() {
            Timestamp::from_millis_saturating(written)
        } else {
            clock
        }
    }

    /// The instant a read of `owner` without `asOf` reads at: the clock, or the instant of the
    /// owner's newest version when that is later. A key's versions written while a clock stands
    /// still take the millisecond after their predecessor, so another facade or process over the
    /// same backend may have written a version a little ahead of this clock; reading "now" must
    /// still show it.
    /// Waits until this facade's clock reads later than `instant`: at most a few milliseconds
    /// for a running clock, and not at all for one that stands still (a replay's), where no
    /// other writer runs meanwhile.
    fn wait_past(&self, instant: Timestamp) {
        let started = std::time::Instant::now();
        let first = self.now();
        while self.now() <= instant {
            let waited = started.elapsed();
            if waited > Duration::from_millis(50)
                || (waited > Duration::from_millis(3) && self.now() == first)
            {
                return;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
    }

    pub(crate) fn read_now(&self, owner: &Owner) -> Result<Timestamp, ApiError> {
        let now = self.now();
        let newest = self
            .backend
            .scan(
                owner,
                &ScanQuery::new(
                    Timestamp::MAX,
                    Timestamp::from_millis_saturating(i64::MIN),
                    1,
                ),
            )
            .map_err(internal)?;
        Ok(newest.first().map_or(now, |m| {
            if m.created_at > now {
                m.created_at
            } else {
                now
            }
        }))
    }

    fn settings_of(&self, workspace: &WorkspaceId) -> Result<Settings, ApiError> {
        Ok(self
            .backend
            .settings(workspace)
            .map_err(internal)?
            .unwrap_or_default())
    }

    fn audit(
        &self,
        workspace: &WorkspaceId,
        actor: Option<&memory_core::MemberId>,
        event: AuditEvent,
    ) {
        // Audit events carry ids and counts only, so they can be traced as they are.
        tracing::info!(workspace = workspace.as_str(), actor = actor.map(|a| a.as_str()), event = ?event, "governance event");
        self.audit.record(AuditRecord {
            at: self.now(),
            workspace: workspace.clone(),
            actor: actor.cloned(),
            event,
        });
    }

    /// Steps 1–4 of the order of checks.
    pub(crate) fn authorize<'a>(
        &self,
        caller: &'a AgentCaller,
        required: Scope,
    ) -> Result<Authorized<'a>, ApiError> {
        let AgentCaller::Resolved(credential) = caller else {
            return Err(ApiError::new(
                ErrorCode::AgentCredentialInvalid,
                "the credential is not valid",
            ));
        };
        let settings = self.settings_of(&credential.workspace)?;
        let state = match (credential.active, credential.role) {
            (true, Some(role)) => policy::CredentialState::Valid {
                role,
                scopes: &credential.scopes,
            },
            _ => policy::CredentialState::Invalid,
        };
        policy::check_agent_access(&policy::AgentAccess {
            retaining: credential.workspace_retaining,
            settings: &settings,
            credential: state,
            required,
        })?;
        Ok(Authorized {
            credential,
            owner: Owner {
                workspace: credential.workspace.clone(),
                member: credential.member.clone(),
            },
            settings,
        })
    }

    /// Checks that `role` may be granted `scopes` (`400 AGENT_MEMORY_SCOPE_NOT_GRANTABLE`); hosts
    /// call it when a member creates a credential.
    pub fn check_grant(&self, role: memory_core::Role, scopes: &[Scope]) -> Result<(), ApiError> {
        policy::grant(role, scopes)
    }

    /// `remember`: stores a masked, cited, possibly superseding memory.
    pub fn remember(
        &self,
        caller: &AgentCaller,
        request: &policy::RememberRequest,
    ) -> Result<RememberResponse, ApiError> {
        self.remember_input(caller, Input::Typed(request))
    }

    pub(crate) fn remember_input(
        &self,
        caller: &AgentCaller,
        input: Input<'_, policy::RememberRequest>,
    ) -> Result<RememberResponse, ApiError> {
        let result = self.remember_inner(caller, input);
        trace_agent("remember", caller, &result, |r| {
            tracing::info!(
                op = "remember",
                memory_id = r.memory.id.as_str(),
                version = r.memory.version,
                superseded = r.superseded,
                masked = r.masked.total(),
                citations = r.memory.citations.len(),
            );
        });
        result
    }

    fn remember_inner(
        &self,
        caller: &AgentCaller,
        input: Input<'_, policy::RememberRequest>,
    ) -> Result<RememberResponse, ApiError> {
        let auth = self.authorize(caller, Scope::MemoryWrite)?;
        let request = input.read()?;
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
            self.passages.as_ref(),
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
            let current = self
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

        let now = self.now();
        let cutoff = policy::expired_cutoff(now, auth.settings.retention_days);
        let id = AgentMemoryId::generate(self.ids.as_ref(), now)
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
        record.ranking = self.ranking_data(record.text.as_str());
        let outcome = self
            .backend
            .remember(
                &auth.owner,
                &auth.credential.credential,
                key,
                policy::window_start(now),
                cutoff,
                &mut |state| {
                    if let (Some(set), Some(current)) = (binding.set(), &state.current)
                        && !policy::memory_in_set(set, current)
                    {
                        return Err(refused());
                    }
                    // The instant of the write is read here, inside the backend's step, so that
                    // it is the instant of the decision; for a keyed write the backend still
                    // moves it past the key's latest instant (`store_trait::key_instant`), so
                    // that a key's versions follow commit order whatever the clock does.
                    let at = self.now();
                    policy::check_rate(&state.window, at)?;
                    policy::check_quota(state.stored_versions)?;
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
        match outcome {
            RememberOutcome::Refused(err) => Err(err),
            RememberOutcome::Written { record, superseded } => {
                self.written
                    .fetch_max(record.created_at.as_millis(), Ordering::SeqCst);
                let superseded = superseded.is_some_and(|s| s.created_at > cutoff);
                let state = if record.citations.is_empty() {
                    SourceState::Uncited
                } else {
                    SourceState::Current
                };
                Ok(RememberResponse {
                    memory: MemoryView::new(&record, state),
                    superseded,
                    masked,
                })
            }
        }
    }

    /// `list`: the member's memories valid at `asOf`, newest first, with keyset pagination.
    pub fn list(
        &self,
        caller: &AgentCaller,
        request: &policy::ListRequest,
    ) -> Result<ListResponse, ApiError> {
        self.list_input(caller, Input::Typed(request))
    }

    pub(crate) fn list_input(
        &self,
        caller: &AgentCaller,
        input: Input<'_, policy::ListRequest>,
    ) -> Result<ListResponse, ApiError> {
        let result = self.list_inner(caller, input);
        trace_agent("list", caller, &result, |r| {
            tracing::info!(
                op = "list",
                returned = r.memories.len(),
                hidden = r.hidden,
                more = r.next_cursor.is_some()
            );
        });
        result
    }

    fn list_inner(
        &self,
        caller: &AgentCaller,
        input: Input<'_, policy::ListRequest>,
    ) -> Result<ListResponse, ApiError> {
        let auth = self.authorize(caller, Scope::MemoryRead)?;
        let request = input.read()?;
        let cursor = request.cursor.as_deref().map(Cursor::decode).transpose()?;
        policy::check_read_filter(&auth.credential.binding, request.collection_id.as_deref())?;
        let now = self.read_now(&auth.owner)?;
        let filters = Filters {
            namespace: request.namespace.clone(),
            key: request.key.clone(),
            collection_id: request.collection_id.clone(),
        };
        self.page(
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

    /// One page of a listing: scans forward until `limit` visible memories or nothing matching
    /// is left, counting hidden ones met on the way.
    ///
    /// `requested_as_of` is the `asOf` as sent. Later pages read at the first page's effective
    /// `asOf`; an `asOf` sent with a cursor must be the one sent with the first page (a future
    /// one is evaluated at now, so comparing effective instants would refuse a repeated request).
    #[allow(clippy::too_many_arguments)] // one private helper shared by two listings
    fn page(
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
                (as_of, sent_as_of, None)
            }
            Some(cursor) => {
                let cursor_as_of = cursor.as_of()?;
                if cursor.kind != kind
                    || cursor.namespace != filters.namespace
                    || cursor.key != filters.key
                    || cursor.collection_id != filters.collection_id
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
        let cutoff = policy::expired_cutoff(now, settings.retention_days);
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
        self.forget_input(caller, Input::Typed(request))
    }

    pub(crate) fn forget_input(
        &self,
        caller: &AgentCaller,
        input: Input<'_, policy::ForgetRequest>,
    ) -> Result<DeletedResponse, ApiError> {
        let result = self.forget_inner(caller, input);
        trace_agent("forget", caller, &result, |r| {
            tracing::info!(op = "forget", deleted = r.deleted)
        });
        result
    }

    fn forget_inner(
        &self,
        caller: &AgentCaller,
        input: Input<'_, policy::ForgetRequest>,
    ) -> Result<DeletedResponse, ApiError> {
        let auth = self.authorize(caller, Scope::MemoryWrite)?;
        let request = input.read()?.into_owned();
        let binding = &auth.credential.binding;
        let removed = match request {
            policy::ForgetRequest::ById(id) => {
                let id = AgentMemoryId::parse(id).map_err(|_| not_found())?;
                let memory = self
                    .backend
                    .get(&auth.owner, &id)
                    .map_err(internal)?
                    .ok_or_else(not_found)?;
                Self::check_forget_in_set(binding, &memory)?;
                self.backend.forget_id(&auth.owner, &id).map_err(internal)?
            }
            policy::ForgetRequest::ByKey { namespace, key } => {
                // A key whose current version was purged has only superseded leftovers; there
                // is nothing current to judge the set by, and forgetting them reveals nothing.
                if let Some(current) = self
                    .backend
                    .current_of_key(&auth.owner, &namespace, &key)
                    .map_err(internal)?
                {
                    Self::check_forget_in_set(binding, &current)?;
                }
                self.backend
                    .forget_key(&auth.owner, &namespace, &key)
                    .map_err(internal)?
            }
        };
        if removed.is_empty() {
            return Err(not_found());
        }
        let deleted = removed.len() as u64;
        self.audit(
            &auth.owner.workspace,
            Some(&auth.owner.member),
            AuditEvent::Forget {
                credential: auth.credential.credential.as_str().to_owned(),
                deleted,
            },
        );
        Ok(DeletedResponse { deleted })
    }

    fn check_forget_in_set(binding: &ContextBinding, memory: &AgentMemory) -> Result<(), ApiError> {
        match binding {
            ContextBinding::Unbound => Ok(()),
            ContextBinding::Invalid => Err(refused()),
            ContextBinding::Bound(set) if policy::memory_in_set(set, memory) => Ok(()),
            ContextBinding::Bound(_) => Err(refused()),
        }
    }

    /// The workspace's settings (owner only).
    pub fn settings_get(&self, caller: &MemberCaller) -> Result<Settings, ApiError> {
        policy::require_owner(Some(caller.role))?;
        self.settings_of(&caller.workspace)
    }

    /// Merges the fields sent into the settings (owner only); a shorter retention purges what it
    /// expires in the same call.
    pub fn settings_put(
        &self,
        caller: &MemberCaller,
        patch: &policy::SettingsPatch,
    ) -> Result<Settings, ApiError> {
        self.settings_put_input(caller, Input::Typed(patch))
    }

    pub(crate) fn settings_put_input(
        &self,
        caller: &MemberCaller,
        input: Input<'_, policy::SettingsPatch>,
    ) -> Result<Settings, ApiError> {
        policy::require_owner(Some(caller.role))?;
        let patch = input.read()?;
        let settings = patch.apply(self.settings_of(&caller.workspace)?);
        self.backend
            .put_settings(&caller.workspace, &settings)
            .map_err(internal)?;
        let cutoff = policy::expired_cutoff(self.now(), settings.retention_days);
        let purged = self
            .backend
            .purge_expired(&caller.workspace, cutoff)
            .map_err(internal)?;
        self.audit(
            &caller.workspace,
            Some(&caller.member),
            AuditEvent::SettingsChanged {
                agent_memories_enabled: settings.agent_memories_enabled,
                retention_days: settings.retention_days,
                purged,
            },
        );
        Ok(settings)
    }

    /// Owner delete-all: removes every agent memory of the workspace without reading them.
    pub fn owner_delete_all(&self, caller: &MemberCaller) -> Result<DeletedResponse, ApiError> {
        policy::require_owner(Some(caller.role))?;
        let deleted = self
            .backend
            .delete_workspace(&caller.workspace)
            .map_err(internal)?;
        self.audit(
            &caller.workspace,
            Some(&caller.member),
            AuditEvent::OwnerDeleteAll { deleted },
        );
        Ok(DeletedResponse { deleted })
    }

    /// All of the member's own current, unexpired memories, newest first, as [`member_list`]
    /// shows them (hidden ones as `unavailable`), read in one backend read: one consistent
    /// snapshot, whatever other processes commit meanwhile. The quota bounds its size (5,000
    /// versions per member and workspace). `agent-memory export` writes this.
    ///
    /// [`member_list`]: MemoryService::member_list
    pub fn member_export(&self, caller: &MemberCaller) -> Result<Vec<MemoryView>, ApiError> {
        let settings = self.settings_of(&caller.workspace)?;
        let owner = Owner {
            workspace: caller.workspace.clone(),
            member: caller.member.clone(),
        };
        let now = self.read_now(&owner)?;
        let cutoff = policy::expired_cutoff(now, settings.retention_days);
        let memories = self
            .backend
            .scan(&owner, &ScanQuery::new(now, cutoff, usize::MAX))
            .map_err(internal)?;
        let refs: Vec<&AgentMemory> = memories.iter().collect();
        let verification = citation_verify::verify(
            self.passages.as_ref(),
            &owner.workspace,
            &owner.member,
            &refs,
        );
        Ok(memories
            .iter()
            .zip(&verification.verdicts)
            .map(|(memory, verdict)| match verdict {
                Verdict::Hidden => MemoryView::new(memory, SourceState::Unavailable),
                Verdict::Visible(state) => MemoryView::new(memory, *state),
            })
            .collect())
    }

    /// The member's own current, unexpired memories, hidden ones shown as `unavailable`; allowed
    /// at any time, also while agent memories are disabled.
    pub fn member_list(
        &self,
        caller: &MemberCaller,
        request: &policy::MemberListRequest,
    ) -> Result<ListResponse, ApiError> {
        self.member_list_input(caller, Input::Typed(request))
    }

    pub(crate) fn member_list_input(
        &self,
        caller: &MemberCaller,
        input: Input<'_, policy::MemberListRequest>,
    ) -> Result<ListResponse, ApiError> {
        let request = input.read()?;
        let cursor = request.cursor.as_deref().map(Cursor::decode).transpose()?;
        let settings = self.settings_of(&caller.workspace)?;
        let owner = Owner {
            workspace: caller.workspace.clone(),
            member: caller.member.clone(),
        };
        let now = self.read_now(&owner)?;
        self.page(
            &owner,
            &settings,
            now,
            CursorKind::Member,
            Filters::default(),
            None,
            cursor,
            request.limit,
            None,
        )
    }

    /// The member deletes one of their memories (its whole key) or, without an id, all of them.
    pub fn member_delete(
        &self,
        caller: &MemberCaller,
        request: &policy::MemberDeleteRequest,
    ) -> Result<DeletedResponse, ApiError> {
        self.member_delete_input(caller, Input::Typed(request))
    }

    pub(crate) fn member_delete_input(
        &self,
        caller: &MemberCaller,
        input: Input<'_, policy::MemberDeleteRequest>,
    ) -> Result<DeletedResponse, ApiError> {
        let request = input.read()?.into_owned();
        let owner = Owner {
            workspace: caller.workspace.clone(),
            member: caller.member.clone(),
        };
        let deleted = match request.memory_id {
            Some(id) => {
                let id = AgentMemoryId::parse(id).map_err(|_| not_found())?;
                let removed = self.backend.forget_id(&owner, &id).map_err(internal)?;
                if removed.is_empty() {
                    return Err(not_found());
                }
                removed.len() as u64
            }
            None => self.backend.delete_owner(&owner).map_err(internal)?,
        };
        self.audit(
            &caller.workspace,
            Some(&caller.member),
            AuditEvent::MemberDelete { deleted },
        );
        Ok(DeletedResponse { deleted })
    }

    /// Retention purge of one workspace at the clock's now; hosts call it periodically.
    pub fn purge_expired(&self, workspace: &WorkspaceId) -> Result<PurgedResponse, ApiError> {
        let settings = self.settings_of(workspace)?;
        let cutoff = policy::expired_cutoff(self.now(), settings.retention_days);
        let purged = self
            .backend
            .purge_expired(workspace, cutoff)
            .map_err(internal)?;
        self.audit(workspace, None, AuditEvent::Purge { purged });
        Ok(PurgedResponse { purged })
    }

    /// The host deleted a document: every version citing it is removed.
    pub fn on_document_deleted(
        &self,
        workspace: &WorkspaceId,
        document_id: &str,
    ) -> Result<PurgedResponse, ApiError> {
        let purged = self
            .backend
            .purge_document(workspace, document_id)
            .map_err(internal)?;
        self.audit(
            workspace,
            None,
            AuditEvent::SourceDeletionPurge {
                source: "document",
                purged,
            },
        );
        Ok(PurgedResponse { purged })
    }

    /// The host deleted a collection: every version anchored in it or citing a passage in it is
    /// removed.
    pub fn on_collection_deleted(
        &self,
        workspace: &WorkspaceId,
        collection_id: &str,
    ) -> Result<PurgedResponse, ApiError> {
        let purged = self
            .backend
            .purge_collection(workspace, collection_id)
            .map_err(internal)?;
        self.audit(
            workspace,
            None,
            AuditEvent::SourceDeletionPurge {
                source: "collection",
                purged,
            },
        );
        Ok(PurgedResponse { purged })
    }

    /// The host removed a member: their agent memories in the workspace are purged.
    pub fn on_member_removed(
        &self,
        workspace: &WorkspaceId,
        member: &memory_core::MemberId,
    ) -> Result<PurgedResponse, ApiError> {
        let owner = Owner {
            workspace: workspace.clone(),
            member: member.clone(),
        };
        let purged = self.backend.delete_owner(&owner).map_err(internal)?;
        self.audit(
            workspace,
            Some(member),
            AuditEvent::MemberRemovedPurge { purged },
        );
        Ok(PurgedResponse { purged })
    }

    /// The workspace stopped retaining data: every agent memory in it is purged.
    pub fn on_workspace_stopped_retaining(
        &self,
        workspace: &WorkspaceId,
    ) -> Result<PurgedResponse, ApiError> {
        let purged = self.backend.delete_workspace(workspace).map_err(internal)?;
        self.audit(
            workspace,
            None,
            AuditEvent::WorkspaceStoppedRetainingPurge { purged },
        );
        Ok(PurgedResponse { purged })
    }
}

/// The exact-match filters a cursor is bound to.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
struct Filters {
    namespace: Option<String>,
    key: Option<String>,
    collection_id: Option<String>,
}

/// Traces an agent operation under a span of the caller's ids: `on_success` logs the answer's
/// ids and counts, a refusal logs its stable code. Never memory text, queries, namespaces or keys.
pub(crate) fn trace_agent<T>(
    op: &'static str,
    caller: &AgentCaller,
    result: &Result<T, ApiError>,
    on_success: impl FnOnce(&T),
) {
    let span = match caller {
        AgentCaller::Resolved(c) => tracing::info_span!(
            "agent_memory",
            workspace = c.workspace.as_str(),
            member = c.member.as_str(),
            credential = c.credential.as_str(),
        ),
        AgentCaller::Unresolved => tracing::info_span!("agent_memory", credential = "unresolved"),
    };
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
