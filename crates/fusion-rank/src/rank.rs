//! The three rankers (BM25, embedding cosine, entity overlap) and their Reciprocal Rank Fusion.

use crate::analyze::analyze;
use crate::ranks::{RRF_K, Ranker, Ranks};
use crate::terms::{Probe, Terms};
use std::cmp::Ordering;

/// BM25 term-frequency saturation.
pub const BM25_K1: f64 = 1.2;
/// BM25 length normalisation.
pub const BM25_B: f64 = 0.75;

/// One text to rank, borrowed from wherever the caller keeps it.
#[derive(Debug, Clone, Copy)]
pub struct Candidate<'a> {
    /// Larger is newer; breaks ties inside every ranker and in the fusion.
    pub recency: i64,
    /// The caller's id; breaks ties left by recency (ascending byte order).
    pub id: &'a str,
    /// Term statistics computed when the text was written (`(&stats).into()` for a
    /// [`TermStats`](crate::TermStats), or [`Terms::from_term_counts`] over stored counts).
    pub terms: Terms<'a>,
    /// The text's embedding, only when made by the same model as the query's (the caller
    /// checks the model id); a vector of another length is left out.
    ///
    /// It must have unit length (or be all zeros): the cosine is then the dot product with
    /// the normalised query, and the per-candidate norm, a quarter of the whole fusion's cost,
    /// is paid once when the vector is stored. Vectors from [`HashingEmbedder`],
    /// [`EmbedPool::embed`] and [`normalize`] have it; debug builds check it.
    ///
    /// [`HashingEmbedder`]: crate::HashingEmbedder
    /// [`EmbedPool::embed`]: crate::EmbedPool::embed
    /// [`normalize`]: crate::normalize
    pub embedding: Option<&'a [f32]>,
    /// Ids of the entities the text mentions.
    pub entities: &'a [String],
}

/// A query made ready for ranking: tokenized once, with its optional embedding and entities.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PreparedQuery {
    /// Distinct query terms ([`PreparedQuery::new`] removes repeats; rankers ignore any left).
    pub terms: Vec<String>,
    /// The query embedding; `None` drops the semantic ranker (budget passed, embedder failed).
    pub embedding: Option<Vec<f32>>,
    /// Distinct entity ids resolved from the query.
    pub entities: Vec<String>,
    /// The period the query names ([`resolve_time`](crate::resolve_time)); `None` leaves the
    /// time ranker's list empty.
    pub period: Option<crate::Period>,
}

impl PreparedQuery {
    /// Analyzes `text` ([`analyze`](crate::analyze)) and keeps each term once, in order of
    /// first appearance.
    pub fn new(text: &str) -> Self {
        PreparedQuery {
            terms: distinct(analyze(text)),
            embedding: None,
            entities: Vec::new(),
            period: None,
        }
    }

    /// Like [`PreparedQuery::new`] with the terms of another [`Analyzer`](crate::Analyzer) (the
    /// one the candidates' term counts were made with).
    pub fn with_analyzer(text: &str, analyzer: crate::Analyzer) -> Self {
        PreparedQuery {
            terms: distinct(analyzer.analyze(text)),
            embedding: None,
            entities: Vec::new(),
            period: None,
        }
    }

    /// Adds the query embedding, which enables the semantic ranker.
    pub fn with_embedding(mut self, embedding: Vec<f32>) -> Self {
        self.embedding = Some(embedding);
        self
    }

    /// Sets the period the query names: the time ranker lists the candidates created in it.
    pub fn with_period(mut self, period: crate::Period) -> Self {
        self.period = Some(period);
        self
    }

    /// Sets the entity ids resolved from the query (repeats removed).
    pub fn with_entities<I, S>(mut self, entities: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.entities = distinct(entities.into_iter().map(Into::into).collect());
        self
    }
}

fn distinct(items: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(items.len());
    for item in items {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

/// The first occurrence of each distinct value, in order (quadratic: queries are short).
fn first_occurrences<T: PartialEq>(items: &[T]) -> impl Iterator<Item = &T> {
    items
        .iter()
        .enumerate()
        .filter(|&(i, item)| !items[..i].contains(item))
        .map(|(_, item)| item)
}

/// A candidate listed by one ranker, with that ranker's score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scored {
    /// Index into the candidate slice.
    pub index: usize,
    /// The ranker's score (BM25 score, cosine, or number of shared entities).
    pub score: f64,
}

/// The order inside a ranker and in the fusion: score descending, then newer first, then id
/// ascending, then position in the slice (only for duplicate ids).
fn by_score(candidates: &[Candidate<'_>], a: (f64, usize), b: (f64, usize)) -> Ordering {
    b.0.total_cmp(&a.0).then_with(|| {
        let (ca, cb) = (&candidates[a.1], &candidates[b.1]);
        cb.recency
            .cmp(&ca.recency)
            .then_with(|| ca.id.cmp(cb.id))
            .then(a.1.cmp(&b.1))
    })
}

/// Sorts `list` in [`by_score`] order.
///
/// The main sort runs on (score key, recency key, index) triples with integer comparisons; only
/// runs of equal score and recency (rare, since recency is a creation instant) are then ordered
/// by id. Sorting with the full comparison throughout cost more than the rest of a ranker, and
/// at thousands of candidates the id comparisons of equal scores cost most of the sort.
///
/// When the candidates come newest first (as a whole-history recall hands them), index order is
/// recency order, so the main sort runs on (score key, index) packed in one integer instead.
fn sort_ranking(list: &mut [Scored], candidates: &[Candidate<'_>]) {
    if candidates.windows(2).all(|w| w[0].recency >= w[1].recency) {
        sort_ranking_newest_first(list, candidates);
        return;
    }
    let mut keyed: Vec<(u64, u64, usize)> = list
        .iter()
        .map(|s| {
            let recency = candidates[s.index].recency;
            // Newer first: the sign-flipped recency, inverted.
            (
                descending_f64(s.score),
                !((recency as u64) ^ (1 << 63)),
                s.index,
            )
        })
        .collect();
    keyed.sort_unstable();
    for run in keyed.chunk_by_mut(|a, b| (a.0, a.1) == (b.0, b.1)) {
        if run.len() > 1 {
            run.sort_unstable_by(|a, b| {
                candidates[a.2]
                    .id
                    .cmp(candidates[b.2].id)
                    .then(a.2.cmp(&b.2))
            });
        }
    }
    for (slot, (key, _, index)) in list.iter_mut().zip(keyed) {
        *slot = Scored {
            index,
            score: from_descending_f64(key),
        };
    }
}

/// [`sort_ranking`] of candidates whose recency never increases with their index: among equal
/// scores, ascending index is already newer first, and only runs of equal score and recency
/// are then ordered by id.
fn sort_ranking_newest_first(list: &mut [Scored], candidates: &[Candidate<'_>]) {
    let index = |key: u128| key as u64 as usize;
    let mut keyed: Vec<u128> = list
        .iter()
        .map(|s| u128::from(descending_f64(s.score)) << 64 | s.index as u128)
        .collect();
    keyed.sort_unstable();
    for run in keyed.chunk_by_mut(|&a, &b| {
        a >> 64 == b >> 64 && candidates[index(a)].recency == candidates[index(b)].recency
    }) {
        if run.len() > 1 {
            run.sort_unstable_by(|&a, &b| {
                candidates[index(a)]
                    .id
                    .cmp(candidates[index(b)].id)
                    .then(index(a).cmp(&index(b)))
            });
        }
    }
    for (slot, key) in list.iter_mut().zip(keyed) {
        *slot = Scored {
            index: index(key),
            score: from_descending_f64((key >> 64) as u64),
        };
    }
}

/// An integer whose ascending order is the descending total order of `x`: the usual map
/// (negatives: flip every bit; others: set the sign bit), inverted.
fn descending_f64(x: f64) -> u64 {
    let bits = x.to_bits();
    !(if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    })
}

/// The inverse of [`descending_f64`].
fn from_descending_f64(key: u64) -> f64 {
    let ordered = !key;
    f64::from_bits(if ordered >> 63 == 1 {
        ordered & !(1 << 63)
    } else {
        !ordered
    })
}

/// BM25 over the candidate set, best first; candidates scoring 0 are not listed.
///
/// `N` is the number of candidates, `n(t)` the number containing `t`,
/// `idf(t) = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))`, and a candidate of length `|d|` with
/// frequency `f` of `t` adds `idf(t) · f · (k1 + 1) / (f + k1 · (1 − b + b · |d| / avgdl))`,
/// with `avgdl` the mean length of the candidates. Each distinct term counts once.
pub fn bm25_ranking(terms: &[String], candidates: &[Candidate<'_>]) -> Vec<Scored> {
    bm25_with_coverage(terms, candidates).0
}

/// [`bm25_ranking`] and its coverage: the share of the query's terms, each weighed by its
/// idf, that the best-scored candidate holds (0 when nothing matched; 1 when the best
/// candidate holds every query term). A query term no candidate holds weighs the most, so a
/// query whose distinctive words appear nowhere has a low coverage even when some candidate
/// shares its commonest word. [`Weights::bm25_by_coverage`] scales BM25's weight with it.
pub fn bm25_with_coverage(terms: &[String], candidates: &[Candidate<'_>]) -> (Vec<Scored>, f64) {
    let terms: Vec<Probe<'_>> = first_occurrences(terms).map(|t| Probe::new(t)).collect();
    if terms.is_empty() || candidates.is_empty() {
        return (Vec::new(), 0.0);
    }
    let q = terms.len();
    // One pass finds every frequency; the document frequencies are known only at its end.
    let mut tf = vec![0u32; candidates.len() * q];
    let mut df = vec![0u32; q];
    let mut total_length = 0u64;
    let mut matched = 0usize;
    let by_term = Probe::order(&terms);
    for (row, c) in tf.chunks_exact_mut(q).zip(candidates) {
        total_length += u64::from(c.terms.length());
        c.terms.frequencies(&terms, &by_term, row);
        let mut any = false;
        for (&f, n) in row.iter().zip(df.iter_mut()) {
            *n += u32::from(f > 0);
            any |= f > 0;
        }
        matched += usize::from(any);
    }
    score_rows(
        tf.chunks_exact(q).enumerate(),
        &df,
        total_length,
        matched,
        candidates,
    )
}

/// [`bm25_ranking`] from posting lists instead of each candidate's term counts: `postings` has
/// one list per distinct query term, in the query's order (as [`PreparedQuery::terms`] keeps
/// them), each listing `(candidate index, frequency)` once per candidate that holds the term.
/// Lengths come from the candidates' [`Terms::length`] (see [`Terms::length_only`]).
///
/// Only the candidates some posting names are scored, so no candidate's terms are looked up and
/// the work is the postings' length; what every candidate still costs is adding its length to
/// the total. The statistics and the arithmetic are [`bm25_ranking`]'s, so both give bit-equal
/// scores and the same order for the same data.
/// Entries with an index out of range, a zero frequency or a repeated index are ignored.
pub fn bm25_postings<L: AsRef<[(u32, u32)]>>(
    postings: &[L],
    candidates: &[Candidate<'_>],
) -> Vec<Scored> {
    bm25_postings_with_coverage(postings, candidates).0
}

/// [`bm25_postings`] and its coverage, as [`bm25_with_coverage`] defines it (the same value
/// for the same data).
pub fn bm25_postings_with_coverage<L: AsRef<[(u32, u32)]>>(
    postings: &[L],
    candidates: &[Candidate<'_>],
) -> (Vec<Scored>, f64) {
    let (q, n) = (postings.len(), candidates.len());
    if q == 0 || n == 0 {
        return (Vec::new(), 0.0);
    }
    // Only candidates some posting names get a row of frequencies: `slot[i]` is candidate i's
    // row, `matched[row]` the candidate.
    let mut slot = vec![u32::MAX; n];
    let mut matched: Vec<usize> = Vec::new();
    let mut tf: Vec<u32> = Vec::new();
    let mut df = vec![0u32; q];
    for (j, list) in postings.iter().enumerate() {
        for &(index, f) in list.as_ref() {
            let i = index as usize;
            if i >= n || f == 0 {
                continue;
            }
            let row = match slot[i] {
                u32::MAX => {
                    slot[i] = matched.len() as u32;
                    matched.push(i);
                    tf.resize(tf.len() + q, 0);
                    matched.len() - 1
                }
                row => row as usize,
            };
            let cell = &mut tf[row * q + j];
            if *cell == 0 {
                *cell = f;
                df[j] += 1;
            }
        }
    }
    let total_length = candidates.iter().map(|c| u64::from(c.terms.length())).sum();
    let rows = matched.iter().copied().zip(tf.chunks_exact(q));
    score_rows(rows, &df, total_length, matched.len(), candidates)
}

/// BM25's scores of the candidates `rows` names, each with its frequencies of the `q` =
/// `df.len()` terms, from the document frequencies and the candidates' total length; best
/// first, zeros left out; and the list's coverage (see [`bm25_with_coverage`]).
fn score_rows<'r>(
    rows: impl Iterator<Item = (usize, &'r [u32])>,
    df: &[u32],
    total_length: u64,
    matched: usize,
    candidates: &[Candidate<'_>],
) -> (Vec<Scored>, f64) {
    let n_docs = candidates.len() as f64;
    let idf: Vec<f64> = df
        .iter()
        .map(|&n| {
            let n = f64::from(n);
            (1.0 + (n_docs - n + 0.5) / (n + 0.5)).ln()
        })
        .collect();
    let avg_length = total_length as f64 / n_docs;
    let idf_total: f64 = idf.iter().sum();
    let mut out = Vec::with_capacity(matched);
    // The candidate whose score is best so far and the idf its terms carry.
    let mut best: Option<(usize, f64, f64)> = None;
    for (index, row) in rows {
        if row.iter().all(|&f| f == 0) {
            continue;
        }
        let c = &candidates[index];
        // Length 0 with terms can only come from hand-made stats; read it as average length.
        let relative = if avg_length > 0.0 {
            f64::from(c.terms.length()) / avg_length
        } else {
            1.0
        };
        let norm = BM25_K1 * (1.0 - BM25_B + BM25_B * relative);
        let mut score = 0.0;
        for (&f, &w) in row.iter().zip(&idf) {
            if f > 0 {
                let f = f64::from(f);
                score += w * f * (BM25_K1 + 1.0) / (f + norm);
            }
        }
        if score > 0.0 {
            out.push(Scored { index, score });
            let better = best.is_none_or(|(b, best_score, _)| {
                by_score(candidates, (score, index), (best_score, b)) == Ordering::Less
            });
            if better {
                let matched_idf: f64 = row
                    .iter()
                    .zip(&idf)
                    .filter(|(f, _)| **f > 0)
                    .map(|(_, w)| w)
                    .sum();
                best = Some((index, score, matched_idf));
            }
        }
    }
    sort_ranking(&mut out, candidates);
    let coverage = match best {
        Some((_, _, matched_idf)) if idf_total > 0.0 => (matched_idf / idf_total).min(1.0),
        _ => 0.0,
    };
    (out, coverage)
}

/// Cosine similarity between `query` (any length) and each candidate embedding of the same
/// dimension, best first; candidates without an embedding or with cosine ≤ 0 (or undefined)
/// are not listed. Candidate vectors have unit length (see [`Candidate::embedding`]).
pub fn semantic_ranking(query: &[f32], candidates: &[Candidate<'_>]) -> Vec<Scored> {
    let query_norm = query.iter().map(|x| x * x).sum::<f32>().sqrt();
    if !(query_norm > 0.0 && query_norm.is_finite()) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (index, c) in candidates.iter().enumerate() {
        let Some(e) = c.embedding else { continue };
        if e.len() != query.len() {
            continue;
        }
        debug_assert!(
            {
                let square = dot(e, e);
                square == 0.0 || (square - 1.0).abs() < 1e-3 || !square.is_finite()
            },
            "candidate embedding {index} is not of unit length; store normalised vectors"
        );
        // Also false for NaN from non-finite vectors.
        let cosine = f64::from(dot(query, e)) / f64::from(query_norm);
        if cosine > 0.0 {
            out.push(Scored {
                index,
                score: cosine,
            });
        }
    }
    sort_ranking(&mut out, candidates);
    out
}

/// `a · b` with sixteen independent sums, a shape that the compiler vectorises well.
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut sums = [0f32; 16];
    let (ca, ra) = a.as_chunks::<16>();
    let (cb, rb) = b.as_chunks::<16>();
    for (x, y) in ca.iter().zip(cb) {
        for k in 0..16 {
            sums[k] += x[k] * y[k];
        }
    }
    let tail: f32 = ra.iter().zip(rb).map(|(x, y)| x * y).sum();
    sums.iter().sum::<f32>() + tail
}

/// Number of the query's distinct entity ids that each candidate mentions, best first;
/// candidates sharing none are not listed.
pub fn entity_ranking(entities: &[String], candidates: &[Candidate<'_>]) -> Vec<Scored> {
    let wanted: Vec<&String> = first_occurrences(entities).collect();
    if wanted.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (index, c) in candidates.iter().enumerate() {
        let shared = wanted.iter().filter(|e| c.entities.contains(e)).count();
        if shared > 0 {
            out.push(Scored {
                index,
                score: shared as f64,
            });
        }
    }
    sort_ranking(&mut out, candidates);
    out
}

/// The candidates created in `period` (their [`Candidate::recency`] is the creation instant in
/// milliseconds), newest first; without a period, none. Which words named the period is not
/// this ranker's business: the caller leaves them out of BM25's terms
/// ([`without_spans`](crate::without_spans)).
pub fn time_ranking(period: Option<crate::Period>, candidates: &[Candidate<'_>]) -> Vec<Scored> {
    let Some(period) = period else {
        return Vec::new();
    };
    let mut out: Vec<Scored> = candidates
        .iter()
        .enumerate()
        .filter(|(_, c)| period.contains(c.recency))
        .map(|(index, _)| Scored { index, score: 1.0 })
        .collect();
    // Equal scores: newer first, then the smaller id.
    sort_ranking(&mut out, candidates);
    out
}

/// The rank lists of one query, one per [`Ranker`], each best first.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rankings {
    /// The lists by [`Ranker::slot`].
    lists: [Vec<Scored>; Ranker::COUNT],
    /// BM25's coverage of the query ([`bm25_with_coverage`]).
    pub bm25_coverage: f64,
}

impl Rankings {
    /// Runs every ranker: [`bm25_ranking`] of the query terms, [`semantic_ranking`] of the query
    /// embedding (an empty list without one) and [`entity_ranking`] of the query entities.
    pub fn compute(query: &PreparedQuery, candidates: &[Candidate<'_>]) -> Self {
        Rankings::with_bm25(
            query,
            candidates,
            bm25_with_coverage(&query.terms, candidates),
        )
    }

    /// Like [`Rankings::compute`] with BM25's list and coverage already computed (as
    /// [`bm25_postings_with_coverage`] does from posting lists): runs every other ranker.
    pub fn with_bm25(
        query: &PreparedQuery,
        candidates: &[Candidate<'_>],
        (mut bm25, bm25_coverage): (Vec<Scored>, f64),
    ) -> Self {
        let lists = Ranker::ALL.map(|ranker| match ranker {
            Ranker::Bm25 => std::mem::take(&mut bm25),
            Ranker::Semantic => query
                .embedding
                .as_deref()
                .map_or_else(Vec::new, |q| semantic_ranking(q, candidates)),
            Ranker::Entity => entity_ranking(&query.entities, candidates),
            Ranker::Time => time_ranking(query.period, candidates),
        });
        Rankings {
            lists,
            bm25_coverage,
        }
    }

    /// Rankings from given lists (only their order matters to the fusion); a ranker not named
    /// has an empty list, one named twice keeps its last.
    pub fn from_lists<I>(lists: I, bm25_coverage: f64) -> Self
    where
        I: IntoIterator<Item = (Ranker, Vec<Scored>)>,
    {
        let mut rankings = Rankings {
            lists: Default::default(),
            bm25_coverage,
        };
        for (ranker, list) in lists {
            rankings[ranker] = list;
        }
        rankings
    }

    /// Each ranker with its list, in [`Ranker::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (Ranker, &[Scored])> + '_ {
        Ranker::ALL
            .into_iter()
            .map(|ranker| (ranker, self[ranker].as_slice()))
    }
}

impl std::ops::Index<Ranker> for Rankings {
    type Output = Vec<Scored>;

    fn index(&self, ranker: Ranker) -> &Vec<Scored> {
        &self.lists[ranker.slot()]
    }
}

impl std::ops::IndexMut<Ranker> for Rankings {
    fn index_mut(&mut self, ranker: Ranker) -> &mut Vec<Scored> {
        &mut self.lists[ranker.slot()]
    }
}

/// How much each ranker's list counts in the fusion: a candidate scores
/// `Σ w_r / (RRF_K + rank_r)` over the rankers listing it within their depth.
///
/// - `bm25`, `semantic`, `entity`, `time`: each ranker's weight. A weight of 0 takes a ranker out of the
///   score (its ranks are still reported for the candidates others list).
/// - `bm25_by_coverage`: BM25's weight is multiplied, query by query, by the cube of its
///   coverage ([`bm25_with_coverage`]): full when the best BM25 match holds every query term,
///   almost nothing when it shares only a common word with a question asked in other words — a
///   ranker with no signal for the query then contributes nothing.
/// - `bm25_depth`, `semantic_depth`: ranks past this depth in that ranker's list add nothing to
///   the score (`None`: the whole list counts).
///
/// [`Weights::EQUAL`] is plain Reciprocal Rank Fusion. The defaults ([`Weights::for_embedder`])
/// were chosen by measured recall on the project's evaluation sets (`docs/quality.md`), so
/// that the fused list's recall@10 is not below either ranker's alone on any of them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    /// BM25's weight.
    pub bm25: f64,
    /// The semantic ranker's weight.
    pub semantic: f64,
    /// The entity ranker's weight.
    pub entity: f64,
    /// The time ranker's weight (its list is empty unless the query names a period).
    pub time: f64,
    /// Scale BM25's weight by the cube of its coverage of the query.
    pub bm25_by_coverage: bool,
    /// How deep BM25's list counts.
    pub bm25_depth: Option<u32>,
    /// How deep the semantic ranker's list counts.
    pub semantic_depth: Option<u32>,
}

impl Weights {
    /// Every ranker counts alike, whole lists: the plain fusion of the contract.
    pub const EQUAL: Weights = Weights {
        bm25: 1.0,
        semantic: 1.0,
        entity: 1.0,
        time: 1.0,
        bm25_by_coverage: false,
        bm25_depth: None,
        semantic_depth: None,
    };

    /// The default with an embedder that places texts by meaning (a language model): BM25
    /// counts as much as the model's cosine when its best match holds the query's words, and
    /// fades as that match covers less of them; only its first 50 ranks count.
    pub const LANGUAGE_MODEL: Weights = Weights {
        bm25: 1.0,
        semantic: 1.0,
        entity: 1.0,
        time: 1.0,
        bm25_by_coverage: true,
        bm25_depth: Some(50),
        semantic_depth: None,
    };

    /// The default with an embedder that hashes words and spellings
    /// ([`HashingEmbedder`](crate::HashingEmbedder)): it knows no more than BM25 does, so BM25
    /// leads and the hashing cosine adds 0.3 of a weight from its first 20 ranks.
    pub const HASHING: Weights = Weights {
        bm25: 1.0,
        semantic: 0.3,
        entity: 1.0,
        time: 1.0,
        bm25_by_coverage: false,
        bm25_depth: None,
        semantic_depth: Some(20),
    };

    /// Static weights from their values, whole lists counted, the time ranker at 1; `None` when
    /// one is negative or not finite, or all are 0.
    pub fn new(bm25: f64, semantic: f64, entity: f64) -> Option<Weights> {
        let ok = |w: f64| w.is_finite() && w >= 0.0;
        (ok(bm25) && ok(semantic) && ok(entity) && bm25 + semantic + entity > 0.0).then_some(
            Weights {
                bm25,
                semantic,
                entity,
                ..Weights::EQUAL
            },
        )
    }

    /// One ranker alone (weight 1, the others 0): the fusion returns that ranker's own list.
    pub fn only(ranker: Ranker) -> Weights {
        let mut w = Weights {
            bm25: 0.0,
            semantic: 0.0,
            entity: 0.0,
            time: 0.0,
            ..Weights::EQUAL
        };
        match ranker {
            Ranker::Bm25 => w.bm25 = 1.0,
            Ranker::Semantic => w.semantic = 1.0,
            Ranker::Entity => w.entity = 1.0,
            Ranker::Time => w.time = 1.0,
        }
        w
    }

    /// The default weights for an embedder: [`Weights::LANGUAGE_MODEL`] when it
    /// [understands meaning](crate::Embedder::understands_meaning), else [`Weights::HASHING`].
    pub fn for_embedder(embedder: &dyn crate::Embedder) -> Weights {
        if embedder.understands_meaning() {
            Weights::LANGUAGE_MODEL
        } else {
            Weights::HASHING
        }
    }

    /// The weight of each ranker for one query and how deep its list counts, by
    /// [`Ranker::slot`].
    fn for_query(
        &self,
        rankings: &Rankings,
    ) -> ([f64; Ranker::COUNT], [Option<u32>; Ranker::COUNT]) {
        let weights = Ranker::ALL.map(|ranker| match ranker {
            Ranker::Bm25 if self.bm25_by_coverage => {
                self.bm25 * rankings.bm25_coverage.clamp(0.0, 1.0).powi(3)
            }
            Ranker::Bm25 => self.bm25,
            Ranker::Semantic => self.semantic,
            Ranker::Entity => self.entity,
            Ranker::Time => self.time,
        });
        let depths = Ranker::ALL.map(|ranker| match ranker {
            Ranker::Bm25 => self.bm25_depth,
            Ranker::Semantic => self.semantic_depth,
            Ranker::Entity | Ranker::Time => None,
        });
        (weights, depths)
    }
}

impl Default for Weights {
    /// [`Weights::EQUAL`].
    fn default() -> Self {
        Weights::EQUAL
    }
}

/// One fused result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fused {
    /// Index into the candidate slice.
    pub index: usize,
    /// The Reciprocal Rank Fusion score.
    pub score: f64,
    /// Each ranker's rank of the candidate.
    pub ranks: Ranks,
}

/// Fuses the rank lists (only their order matters) with Reciprocal Rank Fusion and returns
/// the best `limit`: RRF descending, then newer first, then id ascending. Candidates that no
/// list names are not returned; an index out of range or repeated within a list is ignored
/// after its first valid position.
pub fn fuse_rankings(
    candidates: &[Candidate<'_>],
    rankings: &Rankings,
    limit: usize,
) -> Vec<Fused> {
    fuse_weighted(candidates, rankings, &Weights::EQUAL, limit)
}

/// [`fuse_rankings`] with each ranker's list counted by its weight: a candidate scores
/// `Σ w_r / (60 + rank_r)`, and one that only rankers of weight 0 list is not returned. Every
/// ranker's rank is still reported in [`Fused::ranks`].
pub fn fuse_weighted(
    candidates: &[Candidate<'_>],
    rankings: &Rankings,
    weights: &Weights,
    limit: usize,
) -> Vec<Fused> {
    let mut ranks = vec![Ranks::default(); candidates.len()];
    for (ranker, list) in rankings.iter() {
        for (position, scored) in list.iter().enumerate() {
            let Some(r) = ranks.get_mut(scored.index) else {
                continue;
            };
            if r[ranker].is_none() {
                r.set(
                    ranker,
                    Some(u32::try_from(position + 1).unwrap_or(u32::MAX)),
                );
            }
        }
    }
    let (w, depths) = weights.for_query(rankings);
    let depth = depths.map(|d| d.unwrap_or(u32::MAX));
    // One pass: the score and whether a counted list names the candidate, summed in
    // `Ranker::ALL` order (as `Ranks::weighted_score`).
    let mut fused: Vec<Fused> = Vec::with_capacity(ranks.len());
    for (index, r) in ranks.iter().enumerate() {
        let mut score = 0.0;
        let mut listed = false;
        for (ranker, rank) in r.iter() {
            let k = ranker.slot();
            if let Some(rank) = rank
                && rank <= depth[k]
                && w[k] > 0.0
            {
                score += w[k] / (RRF_K + f64::from(rank));
                listed = true;
            }
        }
        if listed {
            fused.push(Fused {
                index,
                score,
                ranks: *r,
            });
        }
    }
    let order = |a: &Fused, b: &Fused| by_score(candidates, (a.score, a.index), (b.score, b.index));
    if limit == 0 {
        return Vec::new();
    }
    if fused.len() > limit {
        // Only the top `limit` need a full sort.
        fused.select_nth_unstable_by(limit - 1, order);
        fused.truncate(limit);
    }
    fused.sort_unstable_by(order);
    fused
}

/// Ranks `candidates` for `query` with every ranker and fuses them: the whole recall
/// ranking in one call. See [`fuse_rankings`] for the order and [`Rankings`] for the lists.
pub fn fuse(query: &PreparedQuery, candidates: &[Candidate<'_>], limit: usize) -> Vec<Fused> {
    fuse_rankings(candidates, &Rankings::compute(query, candidates), limit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TermStats;

    fn stats(text: &str) -> TermStats {
        TermStats::from_text(text)
    }

    #[test]
    fn bm25_lists_only_matching_candidates_and_counts_a_query_term_once() {
        let (a, b) = (stats("red apple"), stats("green pear"));
        let none: [String; 0] = [];
        let cands = [
            Candidate {
                recency: 0,
                id: "a",
                terms: (&a).into(),
                embedding: None,
                entities: &none,
            },
            Candidate {
                recency: 0,
                id: "b",
                terms: (&b).into(),
                embedding: None,
                entities: &none,
            },
        ];
        let once = bm25_ranking(&["red".into()], &cands);
        let twice = bm25_ranking(&["red".into(), "red".into()], &cands);
        assert_eq!(once.len(), 1);
        assert_eq!(once, twice);
        assert!(bm25_ranking(&[], &cands).is_empty());
        assert!(bm25_ranking(&["plum".into()], &cands).is_empty());
    }

    proptest::proptest! {
        /// Both of `sort_ranking`'s paths give exactly the `by_score` order: ties of score,
        /// of recency and of id included, candidates newest first or in any order.
        #[test]
        fn sort_ranking_is_the_by_score_order(
            candidates in proptest::collection::vec((0i64..4, 0usize..3), 0..40),
            newest_first: bool,
            scores in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::sample::select(vec![0.5, 1.0, 2.0, -0.0, 0.0]),
                    -3.0f64..3.0,
                ],
                0..40,
            ),
        ) {
            let mut candidates = candidates;
            if newest_first {
                candidates.sort_by_key(|&(recency, _)| std::cmp::Reverse(recency));
            }
            let ids = ["a", "b", "c"];
            let cands: Vec<Candidate<'_>> = candidates
                .iter()
                .map(|&(recency, id)| Candidate {
                    recency,
                    id: ids[id],
                    terms: Terms::length_only(1),
                    embedding: None,
                    entities: &[],
                })
                .collect();
            let mut list: Vec<Scored> = scores
                .iter()
                .zip(0..cands.len())
                .map(|(&score, index)| Scored { index, score })
                .collect();
            let mut want = list.clone();
            want.sort_by(|a, b| by_score(&cands, (a.score, a.index), (b.score, b.index)));
            sort_ranking(&mut list, &cands);
            let bits = |l: &[Scored]| -> Vec<(usize, u64)> {
                l.iter().map(|s| (s.index, s.score.to_bits())).collect()
            };
            proptest::prop_assert_eq!(bits(&list), bits(&want));
        }
    }

    #[test]
    fn integer_keys_order_like_the_values_reversed() {
        let values = [
            f64::NEG_INFINITY,
            -2.5,
            -0.0,
            0.0,
            1e-300,
            0.5,
            1.0,
            7.0,
            f64::INFINITY,
        ];
        for pair in values.windows(2) {
            assert!(
                descending_f64(pair[0]) > descending_f64(pair[1]),
                "{pair:?}"
            );
        }
        for v in values {
            assert_eq!(
                from_descending_f64(descending_f64(v)).to_bits(),
                v.to_bits()
            );
        }
    }

    #[cfg(debug_assertions)]
    #[test]
    #[should_panic(expected = "not of unit length")]
    fn debug_builds_refuse_a_stored_vector_that_is_not_normalised() {
        let s = stats("x");
        let none: [String; 0] = [];
        let raw = [3f32, 4.0];
        let cands = [Candidate {
            recency: 0,
            id: "raw",
            terms: (&s).into(),
            embedding: Some(&raw),
            entities: &none,
        }];
        semantic_ranking(&[1.0, 0.0], &cands);
    }

    #[test]
    fn dot_handles_a_remainder() {
        let a: Vec<f32> = (0..19).map(|i| i as f32).collect();
        let b = vec![2f32; 19];
        assert_eq!(dot(&a, &b), 342.0);
        assert_eq!(dot(&b, &b), 76.0);
    }

    #[test]
    fn zero_or_mismatched_vectors_are_not_listed() {
        let s = stats("x");
        let none: [String; 0] = [];
        let zero = [0f32; 3];
        let short = [1f32; 2];
        let good = [1f32, 0.0, 0.0];
        let opposite = [-1f32, 0.0, 0.0];
        let cands = [
            Candidate {
                recency: 0,
                id: "zero",
                terms: (&s).into(),
                embedding: Some(&zero),
                entities: &none,
            },
            Candidate {
                recency: 0,
                id: "short",
                terms: (&s).into(),
                embedding: Some(&short),
                entities: &none,
            },
            Candidate {
                recency: 0,
                id: "none",
                terms: (&s).into(),
                embedding: None,
                entities: &none,
            },
            Candidate {
                recency: 0,
                id: "opp",
                terms: (&s).into(),
                embedding: Some(&opposite),
                entities: &none,
            },
            Candidate {
                recency: 0,
                id: "good",
                terms: (&s).into(),
                embedding: Some(&good),
                entities: &none,
            },
        ];
        let ranked = semantic_ranking(&[2.0, 0.0, 0.0], &cands);
        assert_eq!(
            ranked,
            [Scored {
                index: 4,
                score: 1.0
            }]
        );
        assert!(semantic_ranking(&[0.0, 0.0, 0.0], &cands).is_empty());
    }

    #[test]
    fn limit_zero_returns_nothing_and_a_large_limit_everything_listed() {
        let s = stats("alpha");
        let none: [String; 0] = [];
        let cands = [Candidate {
            recency: 0,
            id: "a",
            terms: (&s).into(),
            embedding: None,
            entities: &none,
        }];
        let q = PreparedQuery::new("alpha alpha");
        assert_eq!(q.terms, ["alpha"]);
        assert!(fuse(&q, &cands, 0).is_empty());
        assert_eq!(fuse(&q, &cands, usize::MAX).len(), 1);
    }
}
