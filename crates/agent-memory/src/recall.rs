//! `recall`: the most recent valid candidates (300 by default; a wider window reads the member's
//! whole history through the backend's recall index), plus, when the query names a period the
//! window does not reach back to, up to another window of that period's versions; re-verified,
//! ranked by BM25, embedding cosine, entity overlap and time, fused with RRF.

use crate::ops::{
    self, Body, GenAiOperation, HttpInput, HttpMethod, HttpRoute, Operation, Tally, route,
};
use crate::telemetry::{self, SemanticSkip};
use std::sync::Arc;

use citation_verify::Verdict;
use fusion_rank::{Candidate, EmbedError, PreparedQuery, Terms};
use governance_policy as policy;
use memory_core::{
    AgentMemory, AgentMemoryId, ApiError, ContextBinding, MemoryView, RecalledMemory, Scope,
    Timestamp,
};
use serde::Serialize;
use store_trait::ScanQuery;

use crate::caller::AgentCaller;
use crate::reverify;
use crate::service::{MemoryService, internal};

/// How many versions one backend scan reads while collecting candidates for a credential bound
/// to a context set, which can filter out any number of them. An unbound credential sees every
/// version, so its one scan asks for exactly the window (at most the default 300: wider windows
/// read the history instead).
const CANDIDATE_BATCH: usize = 128;

/// The period a recall's query named ("last week", "in March", "先週", …), resolved against the
/// recall's reference instant (`asOf`, or now): the time ranker listed the candidates created
/// from `from` (inclusive) to `to` (exclusive).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RecallPeriod {
    /// The period's first instant.
    pub from: Timestamp,
    /// The first instant after the period.
    pub to: Timestamp,
}

/// `recall`: `{ "memories": [...], "hidden": n, "considered": n, "semanticSkipped": bool,
/// "period"? }`.
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
    /// The period the query names, which the time ranker ranked by; absent when it names none
    /// (or the host weighs the time ranker 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub period: Option<RecallPeriod>,
}

impl MemoryService {
    /// `recall`: ranks the member's memories for a query.
    pub fn recall(
        &self,
        caller: &AgentCaller,
        request: &policy::RecallRequest,
    ) -> Result<RecallResponse, ApiError> {
        ops::Recall::run(self, caller, Body::Typed(request))
    }
}

impl Operation for ops::Recall {
    const NAME: &'static str = "recall";
    const HTTP: Option<HttpRoute> = route(
        HttpMethod::Post,
        "/api/agent/v1/memories/recall",
        HttpInput::Body,
        "Rank the member's memories for a query",
    );
    const MCP_TOOL: Option<&'static str> = Some("recall_memories");
    const GEN_AI_OPERATION: Option<GenAiOperation> = Some(GenAiOperation::SearchMemory);
    type Service = MemoryService;
    type Caller = AgentCaller;
    type Request = policy::RecallRequest;
    type Response = RecallResponse;

    fn execute(
        service: &MemoryService,
        caller: &AgentCaller,
        input: Body<'_, policy::RecallRequest>,
    ) -> Result<RecallResponse, ApiError> {
        let auth = service.authorize(caller, Scope::MemoryRead)?;
        let request = input.read()?;
        let binding = &auth.credential.binding;
        policy::check_read_filter(binding, request.collection_id.as_deref())?;
        let now = service.read_now(&auth.owner)?;
        let as_of = policy::effective_as_of(request.as_of, now);
        // `createdAfter` narrows the retention cut-off; `createdBefore` is where the scan starts.
        let cutoff = policy::expired_cutoff(now, auth.settings.retention_days);
        let cutoff = request.created_after.map_or(cutoff, |t| t.max(cutoff));
        let before = request.created_before;
        // The query is masked before any ranker, resolver or embedder sees it. Its embedding
        // runs on the pool while the candidates are read and re-verified, instead of after.
        let query = pii_mask::mask(&request.query).text;
        let pending_embedding = service
            .embeddings
            .start_within(&query, service.semantic_budget);

        // The window's most recent versions valid at `asOf` (300 by default), matching the
        // filters, inside the set. A wider window reads the member's whole history through the
        // recall index: the versions shared, the vectors side by side, and the posting lists
        // of the query's terms.
        let window = service.candidate_window;
        let (terms, period) = service.query_terms(&query, as_of);
        let scan = ScanQuery {
            valid_at: as_of,
            expired_cutoff: cutoff,
            namespace: request.namespace.clone(),
            key: None,
            collection_id: request.collection_id.clone(),
            after: before.map(|t| (t, AgentMemoryId::smallest())),
            limit: 0,
        };
        let history = if window.reads_history() {
            Some(
                service
                    .backend
                    .history(&auth.owner, &terms)
                    .map_err(internal)?,
            )
        } else {
            None
        };
        // The history rows of the candidates (history path only).
        let mut rows: Vec<u32> = Vec::new();
        // Candidates are borrowed: from the history, or from the scanned versions.
        let scanned: Vec<Arc<AgentMemory>>;
        let refs: Vec<&AgentMemory> = match &history {
            Some(history) => {
                let mut candidates = Vec::new();
                // Past a full window, only the named period's versions (another window of them).
                let mut past_window = 0usize;
                // The walk reads the rows' heads, side by side; a row's own record only when a
                // filter or a context set asks for its fields.
                let versions = history.versions.rows();
                for (row, head) in history.versions.heads().iter().enumerate() {
                    // Newest first: the first expired version ends the walk.
                    if head.created_at <= cutoff {
                        break;
                    }
                    if candidates.len() >= window.max() {
                        let instant = head.created_at.as_millis();
                        match period {
                            Some(p) if instant >= p.start_ms && past_window < window.max() => {
                                if instant >= p.end_ms {
                                    continue;
                                }
                            }
                            _ => break,
                        }
                    }
                    if before.is_some_and(|t| head.created_at >= t) {
                        continue;
                    }
                    let m = &*versions[row];
                    if scan.matches_instants(head.created_at, head.superseded_at)
                        && scan.matches_filters(m)
                        && policy::visible_through(binding, m)
                    {
                        if candidates.len() >= window.max() {
                            past_window += 1;
                        }
                        candidates.push(m);
                        rows.push(row as u32);
                    }
                }
                candidates
            }
            None => {
                let mut found =
                    service.scan_window(&auth.owner, binding, scan.clone(), window.max())?;
                let more = match (period, found.last()) {
                    (Some(p), Some(last)) if found.len() >= window.max() => {
                        period_past_window(&scan, p, (last.created_at, last.id.clone()))
                    }
                    _ => None,
                };
                if let Some(more) = more {
                    found.extend(service.scan_window(&auth.owner, binding, more, window.max())?);
                }
                scanned = found;
                scanned.iter().map(|m| &**m).collect()
            }
        };

        // Re-verification: one batched lookup, or through the recall index the verdicts kept
        // for the member's history while the host's passages stand (`reverify`). Hidden
        // candidates leave before ranking.
        let verification = match &history {
            Some(history) => service.verdicts.verify_rows(
                service.passages.as_ref(),
                &auth.owner,
                &history.versions,
                &rows,
            ),
            None => Arc::new(reverify::verify(
                service.passages.as_ref(),
                &auth.owner,
                &refs,
            )),
        };
        // The entities of the kept candidates, each once, in order of first appearance.
        let known = &verification.distinct;
        let mut prepared = PreparedQuery {
            terms,
            embedding: None,
            entities: Vec::new(),
            period,
        }
        .with_entities(service.entities.resolve(&query, known));
        // Which known entities the query names (`prepared.entities` holds each id once).
        let named: Vec<bool> = known
            .iter()
            .map(|e| prepared.entities.contains(&e.id))
            .collect();
        let mut kept: Vec<Kept<'_>> = Vec::new();
        // The candidate index of each kept one.
        let mut kept_at: Vec<usize> = Vec::new();
        let mut hidden = 0u64;
        for (i, (memory, verdict)) in refs.iter().zip(&verification.verdicts).enumerate() {
            match verdict {
                Verdict::Hidden => hidden += 1,
                Verdict::Visible(state) => {
                    // A candidate's entities are distinct ids: the ones the query names, counted.
                    let shared = verification
                        .entities_of(i)
                        .iter()
                        .filter(|&&k| named[k as usize])
                        .count();
                    kept.push((memory, *state, shared));
                    kept_at.push(i);
                }
            }
        }

        // The semantic ranker sits out when the query's embedding is not there within the
        // budget (or failed): the one place that is decided, and counted.
        let embedding = match pending_embedding.wait() {
            Ok(vector) => Some(vector),
            Err(err) => {
                telemetry::semantic_skipped(skip_reason(&err));
                None
            }
        };
        let semantic_skipped = embedding.is_none();
        if let Some(vector) = embedding {
            prepared = prepared.with_embedding(vector);
        }
        let model = service.embeddings.model_id();
        let weights = service.weights;
        // Identical texts collapse before the cut: rank a few more than asked for, and all of
        // them when the collapsed list still falls short.
        let mut depth = if service.collapse_duplicates {
            request.limit.saturating_mul(4)
        } else {
            request.limit
        };
        // The history rows of the kept candidates (history path only).
        let kept_rows: Vec<u32> = if history.is_some() {
            kept_at.iter().map(|&i| rows[i]).collect()
        } else {
            Vec::new()
        };
        let memories = loop {
            let fused = match &history {
                None => rank_scanned(&prepared, &kept, model, &weights, depth),
                Some(history) => rank_indexed(
                    &prepared, &kept, &kept_rows, history, model, &weights, depth,
                ),
            };
            let complete = fused.len() < depth || depth >= kept.len();
            if !service.collapse_duplicates {
                break fused.into_iter().map(|f| (f, f.index, 0)).collect();
            }
            let collapsed = collapse_duplicates(&kept, fused, request.limit);
            if collapsed.len() >= request.limit || complete {
                break collapsed;
            }
            depth = kept.len();
        };
        let memories = memories
            .into_iter()
            .map(|(f, shown, duplicates)| {
                let (memory, state, _) = &kept[shown];
                RecalledMemory {
                    view: MemoryView::new(memory, *state),
                    score: f.score,
                    ranks: f.ranks,
                    duplicates,
                }
            })
            .collect();
        Ok(RecallResponse {
            memories,
            hidden,
            considered: kept.len() as u64,
            semantic_skipped,
            period: period.map(|p| RecallPeriod {
                from: Timestamp::from_millis_saturating(p.start_ms),
                to: Timestamp::from_millis_saturating(p.end_ms),
            }),
        })
    }

    fn tally(r: &RecallResponse) -> Tally<'_> {
        Tally {
            returned: Some(r.memories.len() as u64),
            considered: Some(r.considered),
            hidden: Some(r.hidden),
            semantic_skipped: Some(r.semantic_skipped),
            ..Tally::default()
        }
    }

    fn trace(caller: &AgentCaller, result: &Result<RecallResponse, ApiError>) {
        if result.is_ok() {
            telemetry::recall_answered();
        }
        crate::service::trace_agent(Self::NAME, caller, result, |r| {
            tracing::info!(
                op = Self::NAME,
                returned = r.memories.len(),
                considered = r.considered,
                hidden = r.hidden,
                semantic_skipped = r.semantic_skipped,
            );
        });
    }
}

/// The metric label of an embedding that did not arrive.
fn skip_reason(err: &EmbedError) -> SemanticSkip {
    match err {
        EmbedError::TimedOut { .. } => SemanticSkip::Timeout,
        EmbedError::Busy => SemanticSkip::Busy,
        EmbedError::Failed(_) => SemanticSkip::Failed,
        // Closed, Spawn, and whatever the pool learns to answer later.
        _ => SemanticSkip::Unavailable,
    }
}

impl MemoryService {
    /// BM25's terms of the masked `query` and the period it names, resolved against
    /// `reference` (the recall's `asOf`, or now). A time the query names ("last week") is the
    /// time ranker's, and its words are not what BM25 matches on; a host that weighs the time
    /// ranker 0 gets every word as a term and no period, as before that ranker existed.
    pub(crate) fn query_terms(
        &self,
        query: &str,
        reference: Timestamp,
    ) -> (Vec<String>, Option<fusion_rank::Period>) {
        let mention = (self.weights.time > 0.0)
            .then(|| fusion_rank::resolve_time(query, reference.as_millis()))
            .flatten();
        match mention {
            Some(m) => (
                PreparedQuery::with_analyzer(
                    &fusion_rank::without_spans(query, &m.spans),
                    self.analyzer,
                )
                .terms,
                Some(m.period),
            ),
            None => (
                PreparedQuery::with_analyzer(query, self.analyzer).terms,
                None,
            ),
        }
    }

    /// The `window` most recent versions `scan` matches that `binding` lets the caller see,
    /// newest first, read in batches.
    fn scan_window(
        &self,
        owner: &store_trait::Owner,
        binding: &ContextBinding,
        mut scan: ScanQuery,
        window: usize,
    ) -> Result<Vec<Arc<AgentMemory>>, ApiError> {
        // Shared references: the candidates are only read, and copying 300 records cost more
        // than ranking them.
        let mut candidates: Vec<Arc<AgentMemory>> = Vec::new();
        loop {
            scan.limit = match binding {
                ContextBinding::Unbound => window - candidates.len(),
                _ => CANDIDATE_BATCH,
            };
            let batch = self.backend.scan_shared(owner, &scan).map_err(internal)?;
            let exhausted = batch.len() < scan.limit;
            scan.after = batch.last().map(|m| (m.created_at, m.id.clone()));
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
        Ok(candidates)
    }
}

/// The scan of the named period's versions older than a full window, whose last candidate
/// is `last`: at most another window of them, newest first. `None` when the window already
/// reaches back past the period's start. A question about March finds March's notes however
/// many were written since; a question that names no time never widens the window.
fn period_past_window(
    scan: &ScanQuery,
    period: fusion_rank::Period,
    last: (Timestamp, AgentMemoryId),
) -> Option<ScanQuery> {
    let end = Timestamp::from_millis_saturating(period.end_ms);
    // The period's start is inclusive; the scan's cut-off is exclusive.
    let start_cutoff = Timestamp::from_millis_saturating(period.start_ms.saturating_sub(1));
    // Strictly older than the window's last candidate and than the period's end.
    let after = if last.0 < end {
        last
    } else {
        (end, AgentMemoryId::smallest())
    };
    let expired_cutoff = scan.expired_cutoff.max(start_cutoff);
    (after.0 > expired_cutoff).then(|| ScanQuery {
        expired_cutoff,
        after: Some(after),
        ..scan.clone()
    })
}

/// Collapses identical masked texts of one namespace in the fused order (one member's
/// candidates only): each group answers once, at the position of its best-ranked member, with
/// that member's score and ranks, showing the group's newest version (ties: the larger id) and
/// how many others it stands for. At most `limit` groups.
fn collapse_duplicates(
    kept: &[Kept<'_>],
    fused: Vec<fusion_rank::Fused>,
    limit: usize,
) -> Vec<(fusion_rank::Fused, usize, u32)> {
    let mut out: Vec<(fusion_rank::Fused, usize, u32)> = Vec::new();
    let mut groups: std::collections::HashMap<(&str, &str), usize> =
        std::collections::HashMap::new();
    for f in fused {
        let memory = kept[f.index].0;
        let group = (memory.namespace.as_str(), memory.text.as_str());
        match groups.get(&group) {
            Some(&slot) => {
                let (_, shown, duplicates) = &mut out[slot];
                *duplicates += 1;
                let current = kept[*shown].0;
                if (memory.created_at, &memory.id) > (current.created_at, &current.id) {
                    *shown = f.index;
                }
            }
            None => {
                groups.insert(group, out.len());
                out.push((f, f.index, 0));
            }
        }
    }
    out.truncate(limit);
    out
}

/// A kept candidate: the version, its source state and how many of the query's entities its
/// cited passages mention.
type Kept<'a> = (&'a AgentMemory, memory_core::SourceState, usize);

/// The entity ids the ranker is given for a candidate sharing `shared` of the query's entities:
/// the first `shared` of them. The entity ranker scores by how many of the query's distinct ids
/// a candidate's list contains and reads nothing else of it, so this prefix scores exactly as
/// the candidate's own ids would, without a copy of any id per candidate.
fn entities_for(prepared: &PreparedQuery, shared: usize) -> &[String] {
    &prepared.entities[..shared]
}

/// The embedding of `memory` when `model` made it: vectors of another model are never
/// compared, so such a memory sits out the semantic ranker.
fn same_model<'a>(memory: &'a AgentMemory, model: &str) -> Option<&'a [f32]> {
    memory
        .ranking
        .embedding
        .as_ref()
        .filter(|e| e.model == model)
        .map(|e| e.vector.as_slice())
}

/// Ranks scanned candidates from their stored term counts and vectors.
fn rank_scanned(
    prepared: &PreparedQuery,
    kept: &[Kept<'_>],
    model: &str,
    weights: &fusion_rank::Weights,
    limit: usize,
) -> Vec<fusion_rank::Fused> {
    // The ranker borrows the stored term counts as they are: sorted by construction.
    let ranked: Vec<Candidate<'_>> = kept
        .iter()
        .map(|(memory, _, shared)| Candidate {
            recency: memory.created_at.as_millis(),
            id: memory.id.as_str(),
            terms: Terms::from_term_counts(&memory.ranking.terms, memory.ranking.length),
            embedding: same_model(memory, model),
            entities: entities_for(prepared, *shared),
        })
        .collect();
    let rankings = fusion_rank::Rankings::compute(prepared, &ranked);
    fusion_rank::fuse_weighted(&ranked, &rankings, weights, limit)
}

/// Ranks candidates of the history (`rows[i]` is kept candidate `i`'s row): BM25 from the
/// query terms' posting lists, cosine over the contiguous vectors, and entity overlap.
fn rank_indexed(
    prepared: &PreparedQuery,
    kept: &[Kept<'_>],
    rows: &[u32],
    history: &store_trait::History,
    model: &str,
    weights: &fusion_rank::Weights,
    limit: usize,
) -> Vec<fusion_rank::Fused> {
    // Every per-row read is from the history's side-by-side columns.
    let vectors = history.versions.vectors();
    let heads = history.versions.heads();
    let ranked: Vec<Candidate<'_>> = kept
        .iter()
        .zip(rows)
        .map(|((_, _, shared), &row)| Candidate {
            recency: heads[row as usize].created_at.as_millis(),
            id: history.versions.id(row as usize),
            terms: Terms::length_only(heads[row as usize].length),
            embedding: vectors
                .get(row as usize)
                .filter(|(m, _)| *m == model)
                .map(|(_, v)| v),
            entities: entities_for(prepared, *shared),
        })
        .collect();
    // Postings name history rows; BM25 wants candidate indices (rows of no candidate drop out).
    let mut candidate_of = vec![u32::MAX; history.versions.rows().len()];
    for (i, &row) in rows.iter().enumerate() {
        candidate_of[row as usize] = i as u32;
    }
    let postings: Vec<Vec<(u32, u32)>> = history
        .postings
        .iter()
        .map(|list| {
            list.iter()
                .filter_map(|&(row, f)| {
                    let i = *candidate_of.get(row as usize)?;
                    (i != u32::MAX).then_some((i, f))
                })
                .collect()
        })
        .collect();
    let bm25 = fusion_rank::bm25_postings_with_coverage(&postings, &ranked);
    let rankings = fusion_rank::Rankings::with_bm25(prepared, &ranked, bm25);
    fusion_rank::fuse_weighted(&ranked, &rankings, weights, limit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The entity ranker lists and orders candidates given the prefix of the query's
        /// entities exactly as it does given each candidate's own entity ids.
        #[test]
        fn the_prefix_of_shared_entities_ranks_as_the_candidates_own_ids(
            query in proptest::sample::subsequence((0..6).collect::<Vec<u8>>(), 0..=6)
                .prop_shuffle(),
            candidates in proptest::collection::vec(
                (proptest::sample::subsequence((0..8).collect::<Vec<u8>>(), 0..=8)
                    .prop_shuffle(), 0..4i64),
                0..24,
            ),
        ) {
            let name = |e: &u8| format!("e{e}");
            let prepared = PreparedQuery::default().with_entities(query.iter().map(name));
            let own: Vec<Vec<String>> = candidates
                .iter()
                .map(|(ids, _)| ids.iter().map(name).collect())
                .collect();
            let ids: Vec<String> = (0..candidates.len()).map(|i| format!("m{i:02}")).collect();
            let candidate = |i: usize, entities| Candidate {
                recency: candidates[i].1,
                id: &ids[i],
                terms: Terms::length_only(1),
                embedding: None,
                entities,
            };
            let with_own: Vec<Candidate<'_>> =
                (0..candidates.len()).map(|i| candidate(i, &own[i])).collect();
            let with_prefix: Vec<Candidate<'_>> = (0..candidates.len())
                .map(|i| {
                    let shared = own[i].iter().filter(|e| prepared.entities.contains(e)).count();
                    candidate(i, entities_for(&prepared, shared))
                })
                .collect();
            prop_assert_eq!(
                fusion_rank::entity_ranking(&prepared.entities, &with_own),
                fusion_rank::entity_ranking(&prepared.entities, &with_prefix)
            );
        }
    }
}
