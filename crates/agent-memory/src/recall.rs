//! `recall`: the 300 most recent valid candidates, re-verified, ranked by BM25, embedding cosine
//! and entity overlap, fused with RRF.

use crate::input::Input;
use std::sync::Arc;

use citation_verify::Verdict;
use fusion_rank::{Candidate, PreparedQuery, TermStats, Terms};
use governance_policy as policy;
use memory_core::{
    AgentMemory, ApiError, ContextBinding, MemoryView, Ranks, RecalledMemory, Scope,
};
use serde::Serialize;
use store_trait::ScanQuery;

use crate::caller::AgentCaller;
use crate::service::{MemoryService, internal};

/// How many versions one backend scan reads while collecting candidates for a credential bound
/// to a context set, which can filter out any number of them. An unbound credential sees every
/// version, so its scans ask for exactly the candidates it needs, at most [`ALL_BATCH`] at a time.
const CANDIDATE_BATCH: usize = 128;
/// Versions read per scan of an unbound credential: more than the default window, so that
/// `latest(300)` stays one scan.
const ALL_BATCH: usize = 1024;

/// `recall`: `{ "memories": [...], "hidden": n, "considered": n, "semanticSkipped": bool }`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RecallResponse {
    /// The best memories, best first, each with its fused score and per-ranker ranks.
    pub memories: Vec<RecalledMemory>,
    /// Candidates removed because a cited source is gone.
    pub hidden: u64,
    /// Candidates ranked (after hidden ones were removed).
    pub considered: u64,
    /// True when the semantic ranker was dropped (embedder failed or exceeded its budget).
    pub semantic_skipped: bool,
}

impl MemoryService {
    /// `recall`: ranks the member's memories for a query.
    pub fn recall(
        &self,
        caller: &AgentCaller,
        request: &policy::RecallRequest,
    ) -> Result<RecallResponse, ApiError> {
        self.recall_input(caller, Input::Typed(request))
    }

    pub(crate) fn recall_input(
        &self,
        caller: &AgentCaller,
        input: Input<'_, policy::RecallRequest>,
    ) -> Result<RecallResponse, ApiError> {
        let result = self.recall_inner(caller, input);
        crate::service::trace_agent("recall", caller, &result, |r| {
            tracing::info!(
                op = "recall",
                returned = r.memories.len(),
                considered = r.considered,
                hidden = r.hidden,
                semantic_skipped = r.semantic_skipped,
            );
        });
        result
    }

    fn recall_inner(
        &self,
        caller: &AgentCaller,
        input: Input<'_, policy::RecallRequest>,
    ) -> Result<RecallResponse, ApiError> {
        let auth = self.authorize(caller, Scope::MemoryRead)?;
        let request = input.read()?;
        let binding = &auth.credential.binding;
        policy::check_read_filter(binding, request.collection_id.as_deref())?;
        let now = self.read_now(&auth.owner)?;
        let as_of = policy::effective_as_of(request.as_of, now);
        let cutoff = policy::expired_cutoff(now, auth.settings.retention_days);
        // The query is masked before any ranker, resolver or embedder sees it. Its embedding
        // runs on the pool while the candidates are read and re-verified, instead of after.
        let query = pii_mask::mask(&request.query).text;
        let pending_embedding = self.embeddings.start_within(&query, self.semantic_budget);

        // The window's most recent versions valid at `asOf` (300 by default), matching the
        // filters, inside the set.
        // Shared references: the candidates are only read, and copying 300 records cost more
        // than ranking them.
        let window = self.candidate_window.max();
        let mut candidates: Vec<Arc<AgentMemory>> = Vec::new();
        let mut after = None;
        loop {
            // `all` reads in batches too, so that no backend sees an unbounded limit.
            let limit = match binding {
                ContextBinding::Unbound => (window - candidates.len()).min(ALL_BATCH),
                _ => CANDIDATE_BATCH,
            };
            let batch = self
                .backend
                .scan_shared(
                    &auth.owner,
                    &ScanQuery {
                        valid_at: as_of,
                        expired_cutoff: cutoff,
                        namespace: request.namespace.clone(),
                        key: None,
                        collection_id: request.collection_id.clone(),
                        after: after.take(),
                        limit,
                    },
                )
                .map_err(internal)?;
            let exhausted = batch.len() < limit;
            after = batch.last().map(|m| (m.created_at, m.id.clone()));
            candidates.extend(
                batch
                    .into_iter()
                    .filter(|m| policy::visible_through(binding, m)),
            );
            if candidates.len() >= window || exhausted {
                break;
            }
        }
        candidates.truncate(window);

        // One batched re-verification; hidden candidates leave before ranking.
        let refs: Vec<&AgentMemory> = candidates.iter().map(|m| &**m).collect();
        let verification = citation_verify::verify_entity_ids(
            self.passages.as_ref(),
            &auth.owner.workspace,
            &auth.owner.member,
            &refs,
        );
        let mut kept: Vec<(&AgentMemory, memory_core::SourceState, Vec<String>)> = Vec::new();
        let mut hidden = 0u64;
        for ((memory, verdict), ids) in refs
            .iter()
            .zip(&verification.verdicts)
            .zip(verification.entity_ids)
        {
            match verdict {
                Verdict::Hidden => hidden += 1,
                Verdict::Visible(state) => kept.push((memory, *state, ids)),
            }
        }
        // The entities of the kept candidates, each once, in order of first appearance.
        let known = verification.distinct;

        let mut prepared =
            PreparedQuery::new(&query).with_entities(self.entities.resolve(&query, &known));
        let embedding = pending_embedding.wait().ok();
        let semantic_skipped = embedding.is_none();
        if let Some(vector) = embedding {
            prepared = prepared.with_embedding(vector);
        }
        let model = self.embeddings.model_id();
        // The ranker borrows the stored term counts, which remember stores sorted; only counts
        // stored otherwise (by hand, or by another writer) are rebuilt into a lookup structure.
        // memory-core stays free of ranking types.
        let lookups: Vec<Result<Terms<'_>, TermStats>> = kept
            .iter()
            .map(|(memory, _, _)| {
                let r = &memory.ranking;
                Terms::from_sorted(&r.terms, r.length)
                    .ok_or_else(|| TermStats::from_counts(r.terms.clone(), r.length))
            })
            .collect();
        let ranked: Vec<Candidate<'_>> = kept
            .iter()
            .zip(&lookups)
            .map(|((memory, _, entities), lookup)| Candidate {
                recency: memory.created_at.as_millis(),
                id: memory.id.as_str(),
                terms: match lookup {
                    Ok(terms) => *terms,
                    Err(stats) => stats.into(),
                },
                // Vectors of another model are never compared: such a memory sits out the
                // semantic ranker.
                embedding: memory
                    .ranking
                    .embedding
                    .as_ref()
                    .filter(|e| e.model == model)
                    .map(|e| e.vector.as_slice()),
                entities,
            })
            .collect();
        let fused = fusion_rank::fuse(&prepared, &ranked, request.limit);
        let memories = fused
            .into_iter()
            .map(|f| {
                let (memory, state, _) = &kept[f.index];
                RecalledMemory {
                    view: MemoryView::new(memory, *state),
                    score: f.score,
                    ranks: Ranks {
                        bm25: f.ranks.bm25,
                        semantic: f.ranks.semantic,
                        entity: f.ranks.entity,
                    },
                }
            })
            .collect();
        Ok(RecallResponse {
            memories,
            hidden,
            considered: kept.len() as u64,
            semantic_skipped,
        })
    }
}
