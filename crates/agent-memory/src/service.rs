//! `MemoryService`: the facade every host calls. Each operation follows the spec's order of
//! checks, decides with `governance-policy`, verifies sources with `citation-verify`, and reads
//! or writes through the `Backend` (quota, rate limit and supersede in one transaction).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use citation_verify::PassageSource;
use fusion_rank::{
    Analyzer, EmbedError, EmbedPool, Embedder, HashingEmbedder, SEMANTIC_BUDGET, Weights,
};
use governance_policy as policy;
use memory_core::{
    AgentMemoryId, ApiError, ErrorCode, IdGenerator, RandomIdGenerator, RankingData, Scope,
    Settings, StoredEmbedding, Timestamp, WorkspaceId,
};
use serde::Serialize;
use store_trait::{Backend, Owner, ScanQuery};

use crate::audit::{AuditEvent, AuditRecord, AuditSink, NoopAuditSink};
use crate::caller::{AgentCaller, AgentCredential};
use crate::clock::{Clock, SystemClock};
use crate::entity::{DefaultEntityResolver, EntityResolver};
use crate::responses::PurgedResponse;

mod agent;
mod member;

/// How many versions a list page reads from the backend at a time while it looks for visible
/// memories (hidden and out-of-set versions are skipped, so a page may need more than `limit`).
const SCAN_BATCH: usize = 64;

/// The facade: governed agent memories over a [`Backend`].
///
/// `Send + Sync`; calls are synchronous (tokio hosts use [`crate::AsyncService`], feature
/// `tokio`; others call it from their runtime's blocking pool).
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
    /// The host's limits (the contract's by default).
    pub(crate) limits: policy::Limits,
    /// Whether agents' remembers count against `limits.remembers_per_hour`.
    pub(crate) rate_limited: bool,
    /// The latest instant this service wrote a version at (ms), or `i64::MIN`: the backend may
    /// put a keyed write a few milliseconds past the clock (`store_trait::key_instant`), and
    /// [`now`](MemoryService::now) never runs behind it, so a read right after a write sees it.
    written: AtomicI64,
    /// The verdicts of members' history rows, kept between recalls while the host's passages
    /// stand (`PassageSource::generation`).
    pub(crate) verdicts: crate::reverify::VerdictCache,
    /// The stored settings of each workspace as this service last read them: what a remember
    /// checks its caller against before its transaction, which reads them again and answers
    /// only when they are the same (`service::agent`).
    pub(crate) kept_settings: KeptSettings,
}

/// The stored settings of workspaces, as last read (`None` inside: the workspace has none).
/// Only a hint: a remember that used them confirms them in its own transaction.
#[derive(Debug, Default)]
pub(crate) struct KeptSettings(std::sync::Mutex<HashMap<WorkspaceId, Option<Settings>>>);

impl KeptSettings {
    /// Workspaces kept before the map starts over.
    const MAX: usize = 4_096;

    fn get(&self, workspace: &WorkspaceId) -> Option<Option<Settings>> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(workspace)
            .cloned()
    }

    pub(crate) fn keep(&self, workspace: &WorkspaceId, stored: Option<Settings>) {
        let mut kept = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if kept.len() >= Self::MAX && !kept.contains_key(workspace) {
            kept.clear();
        }
        kept.insert(workspace.clone(), stored);
    }
}

impl agent_memory_ops::sealed::Sealed for MemoryService {}
impl agent_memory_ops::ops::Service for MemoryService {
    const INVALID_REQUEST: ErrorCode = ErrorCode::AgentMemoryInvalidRequest;
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
    limits: policy::Limits,
    rate_limited: bool,
}

/// Why a [`MemoryService`] could not be built.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// The embedding worker pool could not start; the [`EmbedError`] is the
    /// [`source`](std::error::Error::source) (printed by whoever prints the chain).
    #[error("the embedding worker pool could not start")]
    EmbedPool(#[from] EmbedError),
    /// A limit given to [`MemoryServiceBuilder::limits`] is outside its bounds.
    #[error("invalid limits: {0}")]
    Limits(#[from] policy::InvalidLimits),
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

    /// The limits of this service: the rate limit, the quota, the longest text and the retention
    /// bounds ([`policy::Limits`]; default the contract's). [`build`](Self::build) refuses
    /// values outside their documented bounds.
    pub fn limits(mut self, limits: policy::Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Whether agents' remembers are held to the hourly rate limit (default `true`). A host
    /// turns it off for a service that only its owner drives — a local command line writing
    /// the owner's own notes — never for one that agents reach. The accepted remembers are
    /// still recorded, so a rate-limited service over the same database counts them.
    pub fn rate_limited(mut self, rate_limited: bool) -> Self {
        self.rate_limited = rate_limited;
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
        self.limits.check()?;
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
            limits: self.limits,
            rate_limited: self.rate_limited,
            written: AtomicI64::new(i64::MIN),
            verdicts: crate::reverify::VerdictCache::default(),
            kept_settings: KeptSettings::default(),
        })
    }
}

pub(crate) use agent_memory_ops::internal;

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
    /// The stored settings `settings` came from (none: the workspace never set them).
    pub(crate) stored: Option<Settings>,
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
            limits: policy::Limits::default(),
            rate_limited: true,
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
    pub(crate) fn ranking_data(&self, text: &str) -> RankingData {
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

    /// The query terms BM25 looks for: `query` masked, the words of a time it names left out,
    /// then analyzed as the stored term counts were (what `recall` matches now; the CLI's
    /// `recall --verbose` prints them).
    pub fn analyzed_query(&self, query: &str) -> Vec<String> {
        self.query_terms(&pii_mask::mask(query).text, self.now()).0
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

    /// The workspace's settings as they apply here: the recorded retention brought into this
    /// service's retention bounds.
    pub(crate) fn settings_of(&self, workspace: &WorkspaceId) -> Result<Settings, ApiError> {
        Ok(self.effective_settings(self.stored_settings(workspace)?))
    }

    /// The workspace's settings as stored (none when it never set them), read now; kept as the
    /// hint a remember starts from.
    fn stored_settings(&self, workspace: &WorkspaceId) -> Result<Option<Settings>, ApiError> {
        let stored = self.backend.settings(workspace).map_err(internal)?;
        self.kept_settings.keep(workspace, stored);
        Ok(stored)
    }

    /// The settings a workspace obeys given the stored ones: the defaults when none are
    /// stored, and the retention inside this service's limits.
    fn effective_settings(&self, stored: Option<Settings>) -> Settings {
        let mut settings = stored.unwrap_or_default();
        settings.retention_days = self.limits.retention_days(settings.retention_days);
        settings
    }

    /// This service's limits.
    pub fn limits(&self) -> &policy::Limits {
        &self.limits
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
        let stored = self.stored_settings(&credential.workspace)?;
        self.authorize_under(credential, required, stored)
    }

    /// [`authorize`](Self::authorize) for a write that confirms the settings it obeyed in its
    /// own transaction: under the settings kept from the last read of the workspace's (read now
    /// when none are kept). A refusal under kept settings is never answered: the settings are
    /// read again and decide. The flag says whether the settings were read now.
    pub(crate) fn authorize_kept<'a>(
        &self,
        caller: &'a AgentCaller,
        required: Scope,
    ) -> Result<(Authorized<'a>, bool), ApiError> {
        let AgentCaller::Resolved(credential) = caller else {
            return self.authorize(caller, required).map(|a| (a, true));
        };
        match self.kept_settings.get(&credential.workspace) {
            Some(stored) => match self.authorize_under(credential, required, stored) {
                Ok(auth) => Ok((auth, false)),
                Err(_) => self.authorize(caller, required).map(|a| (a, true)),
            },
            None => self.authorize(caller, required).map(|a| (a, true)),
        }
    }

    /// The access checks of `credential` under the workspace's stored settings `stored`.
    pub(crate) fn authorize_under<'a>(
        &self,
        credential: &'a AgentCredential,
        required: Scope,
        stored: Option<Settings>,
    ) -> Result<Authorized<'a>, ApiError> {
        let settings = self.effective_settings(stored);
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
            stored,
        })
    }

    /// Checks that `role` may be granted `scopes` (`400 AGENT_MEMORY_SCOPE_NOT_GRANTABLE`); hosts
    /// call it when a member creates a credential.
    pub fn check_grant(&self, role: memory_core::Role, scopes: &[Scope]) -> Result<(), ApiError> {
        policy::grant(role, scopes)
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

/// The filters a cursor is bound to: exact matches and the creation period.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
struct Filters {
    namespace: Option<String>,
    key: Option<String>,
    collection_id: Option<String>,
    created_after: Option<Timestamp>,
    created_before: Option<Timestamp>,
}

impl Filters {
    /// The retention cut-off narrowed by `createdAfter`: a scan returns versions created
    /// strictly after it.
    fn cutoff(&self, expired_cutoff: Timestamp) -> Timestamp {
        self.created_after
            .map_or(expired_cutoff, |t| t.max(expired_cutoff))
    }

    /// Where a scan starts: `createdBefore` as a keyset position (the smallest id at that
    /// instant, so the versions created at it are left out too), or the newest version.
    fn start(&self) -> Option<(Timestamp, AgentMemoryId)> {
        self.created_before.map(|t| (t, AgentMemoryId::smallest()))
    }
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
