//! A member's whole history as recall over a window wider than the default reads it: every
//! stored version newest first, their vectors side by side, the index statistics, and the
//! posting lists of the query's terms ([`Backend::history`](crate::Backend::history)).
//!
//! The key-space backends (`store-kv`) decode every version of the member and take the vectors
//! and, through [`MemberHistory::postings_from_rows`], the posting lists from the versions'
//! records, keeping only the statistics (and a generation) in a key of their own; PostgreSQL
//! keeps an inverted index and the vectors in tables written in the same transaction as the
//! version they derive from. This module is the shape a read hands out, and
//! [`MemberHistory::from_versions`], the same data derived from the versions themselves, which
//! backends without an index answer and the conformance suite compares every answer with.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, PoisonError};

use memory_core::{AgentMemory, AgentMemoryId, Timestamp};

/// The terms the recall index holds for `memory`, each once with its frequency: the stored term
/// counts with repeats added up (as ranking from the counts themselves reads them) and zero
/// counts left out. PostgreSQL's index and [`MemberHistory::derived_postings`] read a version's
/// terms through this one function, and [`MemberHistory::postings_from_rows`] counts them alike.
pub fn indexed_terms(memory: &AgentMemory) -> BTreeMap<&str, u32> {
    let mut terms: BTreeMap<&str, u32> = BTreeMap::new();
    for (term, count) in &memory.ranking.terms {
        if count > 0 {
            let total = terms.entry(term).or_insert(0);
            *total = total.saturating_add(count);
        }
    }
    terms
}

/// `memory` as this build's analyzer indexes it: the term counts and length computed again from
/// its masked text with [`fusion_rank::TermStats::from_text`] (what the facade stores at write
/// time); everything else, the embedding included, as it was. Every backend's upgrade from an
/// earlier analyzer ([`fusion_rank::ANALYZER_VERSION`]) rewrites its versions through it.
pub fn reanalyzed(memory: &AgentMemory) -> AgentMemory {
    let (terms, length) = fusion_rank::TermStats::from_text(memory.text.as_str()).into_counts();
    let mut out = memory.clone();
    out.ranking.terms = terms;
    out.ranking.length = length;
    out
}

/// What the recall index counts over one member's stored versions (expired, superseded and
/// hidden ones included, until a forget, purge or deletion removes them).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IndexStats {
    /// Stored versions.
    pub documents: u64,
    /// The sum of their lengths in tokens.
    pub total_length: u64,
}

/// Every stored version's embedding in one buffer: row `r`'s vector is a slice of it, so
/// cosine over thousands of versions walks memory in order and decodes nothing.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VectorTable {
    models: Vec<String>,
    /// Per row: the model's index in `models`, the start and the length in `data`.
    slots: Vec<Option<(u32, u32, u32)>>,
    data: Vec<f32>,
}

impl VectorTable {
    /// Appends the next row's vector (`None`: the version has no embedding). Public so that a
    /// backend outside this crate that keeps its own vectors (PostgreSQL's vectors table) can
    /// build the table [`MemberHistory::from_parts`] takes, one push per row in row order.
    pub fn push(&mut self, vector: Option<(&str, &[f32])>) {
        let slot = vector.and_then(|(model, values)| {
            let m = match self.models.iter().position(|m| m == model) {
                Some(m) => m,
                None => {
                    self.models.push(model.to_owned());
                    self.models.len() - 1
                }
            };
            let start = u32::try_from(self.data.len()).ok()?;
            let len = u32::try_from(values.len()).ok()?;
            self.data.extend_from_slice(values);
            Some((u32::try_from(m).ok()?, start, len))
        });
        self.slots.push(slot);
    }

    /// Row `row`'s model and vector, if it has one.
    pub fn get(&self, row: usize) -> Option<(&str, &[f32])> {
        let (model, start, len) = (*self.slots.get(row)?)?;
        let start = start as usize;
        Some((
            self.models[model as usize].as_str(),
            &self.data[start..start + len as usize],
        ))
    }

    /// Rows.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// True when there are no rows.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }
}

/// What a whole-history recall reads of a row before it ranks: the version's instants and
/// length. [`MemberHistory`] keeps them for every row side by side, so walking thousands of rows
/// reads memory in order instead of one record per row wherever the allocator put it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowHead {
    /// The version's `created_at`.
    pub created_at: Timestamp,
    /// The version's `superseded_at`.
    pub superseded_at: Option<Timestamp>,
    /// The version's length in tokens (`ranking.length`).
    pub length: u32,
}

impl RowHead {
    /// The head of `memory`.
    pub fn of(memory: &AgentMemory) -> Self {
        RowHead {
            created_at: memory.created_at,
            superseded_at: memory.superseded_at,
            length: memory.ranking.length,
        }
    }
}

/// One member's stored versions, newest first (scan order: `created_at` desc, then `id` desc),
/// with their vectors and index statistics. Shared: a backend may hand the same one to every
/// read until a step changes the member's versions.
#[derive(Debug, Default)]
pub struct MemberHistory {
    rows: Vec<Arc<AgentMemory>>,
    /// Every row's head, row-aligned: derived from the rows when the history is built, so they
    /// cannot disagree. Mapping a posting to its row searches these, and recall's walk over the
    /// rows reads them instead of chasing every row's record.
    heads: Vec<RowHead>,
    /// Every row's id, one after another: row `r`'s is `ids[id_ends[r - 1]..id_ends[r]]`.
    ids: String,
    id_ends: Vec<usize>,
    vectors: VectorTable,
    stats: IndexStats,
    /// Posting lists already derived for this history, by term: they cannot change while the
    /// history stands, so a term's list is derived once per history.
    postings: Mutex<HashMap<String, Postings>>,
}

/// One term's posting list: `(row, frequency)`, rows ascending.
pub type Postings = Arc<[(u32, u32)]>;

/// Equal rows, vectors and statistics (the postings read so far are a cache).
impl PartialEq for MemberHistory {
    fn eq(&self, other: &Self) -> bool {
        self.rows == other.rows && self.vectors == other.vectors && self.stats == other.stats
    }
}

impl Clone for MemberHistory {
    fn clone(&self) -> Self {
        Self::from_parts(self.rows.clone(), self.vectors.clone(), self.stats)
    }
}

impl MemberHistory {
    /// Terms whose posting lists one history keeps.
    const CACHED_TERMS: usize = 4_096;

    /// The posting lists of `terms`, in the order asked, derived from the rows' stored term
    /// counts (what [`indexed_terms`] gives for each row: repeats added up, zero counts left
    /// out), rows ascending, and kept for the next call. The key-space backends answer every
    /// posting list this way: the versions they decode for the history already hold their term
    /// counts, so no inverted index is written beside them.
    ///
    /// The terms not kept yet are derived together in one pass over the rows, each row's counts
    /// (sorted by construction, each term once) merged with the sorted asked terms.
    pub fn postings_from_rows(&self, terms: &[String]) -> Vec<Postings> {
        let lock = || self.postings.lock().unwrap_or_else(PoisonError::into_inner);
        let mut missing: Vec<&str> = {
            let kept = lock();
            terms
                .iter()
                .map(String::as_str)
                .filter(|t| !kept.contains_key(*t))
                .collect()
        };
        missing.sort_unstable();
        missing.dedup();
        let mut derived: Vec<Vec<(u32, u32)>> = vec![Vec::new(); missing.len()];
        // With every term kept (every recall after the first, mostly), no row is touched.
        let rows = if missing.is_empty() {
            &[][..]
        } else {
            &self.rows[..]
        };
        for (row, m) in rows.iter().enumerate() {
            let mut asked = missing.iter().enumerate().peekable();
            for (term, count) in &m.ranking.terms {
                while asked.next_if(|(_, t)| **t < term).is_some() {}
                match asked.peek() {
                    None => break,
                    Some(&(at, t)) if *t == term && count > 0 => {
                        derived[at].push((row as u32, count));
                    }
                    Some(_) => {}
                }
            }
        }
        let derived: HashMap<&str, Postings> = missing
            .into_iter()
            .zip(derived)
            .map(|(term, list)| (term, Postings::from(list)))
            .collect();
        let mut kept = lock();
        for (term, list) in &derived {
            if kept.len() < Self::CACHED_TERMS {
                kept.entry((*term).to_owned())
                    .or_insert_with(|| Arc::clone(list));
            }
        }
        // A term not derived here was kept before, and nothing leaves the cache.
        terms
            .iter()
            .map(|t| {
                derived
                    .get(t.as_str())
                    .or_else(|| kept.get(t.as_str()))
                    .map_or_else(|| Postings::from([]), Arc::clone)
            })
            .collect()
    }

    /// The history of `versions` (any order), derived from the versions themselves: their
    /// stored embeddings, and statistics over their stored lengths.
    pub fn from_versions(mut versions: Vec<Arc<AgentMemory>>) -> Self {
        versions.sort_by(|a, b| (b.created_at, &b.id).cmp(&(a.created_at, &a.id)));
        let mut vectors = VectorTable::default();
        let mut stats = IndexStats::default();
        for v in &versions {
            vectors.push(
                v.ranking
                    .embedding
                    .as_ref()
                    .map(|e| (e.model.as_str(), e.vector.as_slice())),
            );
            stats.documents += 1;
            stats.total_length += u64::from(v.ranking.length);
        }
        Self::from_parts(versions, vectors, stats)
    }

    /// A history from parts a backend read from its index; `rows` newest first (`created_at`
    /// desc, then `id` desc) and `vectors` row-aligned. Public so that a backend outside this
    /// crate can answer [`Backend::history`](crate::Backend::history) from its own index; the
    /// caller upholds the order and the alignment (nothing here re-sorts or checks them), and
    /// the answer must equal [`from_versions`](Self::from_versions) of the same versions, which
    /// the conformance suite checks.
    pub fn from_parts(
        rows: Vec<Arc<AgentMemory>>,
        vectors: VectorTable,
        stats: IndexStats,
    ) -> Self {
        let mut ids = String::new();
        let mut id_ends = Vec::with_capacity(rows.len());
        for m in &rows {
            ids.push_str(m.id.as_str());
            id_ends.push(ids.len());
        }
        MemberHistory {
            heads: rows.iter().map(|m| RowHead::of(m)).collect(),
            ids,
            id_ends,
            rows,
            vectors,
            stats,
            postings: Mutex::default(),
        }
    }

    /// The versions, newest first.
    pub fn rows(&self) -> &[Arc<AgentMemory>] {
        &self.rows
    }

    /// Every row's head, row-aligned with [`rows`](Self::rows).
    pub fn heads(&self) -> &[RowHead] {
        &self.heads
    }

    /// Row `row`'s id, from the ids kept side by side (the same text as the row's own).
    ///
    /// # Panics
    ///
    /// When `row` is not a row of the history.
    pub fn id(&self, row: usize) -> &str {
        let start = if row == 0 { 0 } else { self.id_ends[row - 1] };
        &self.ids[start..self.id_ends[row]]
    }

    /// The vectors, row-aligned with [`rows`](Self::rows).
    pub fn vectors(&self) -> &VectorTable {
        &self.vectors
    }

    /// The index statistics over every row.
    pub fn stats(&self) -> IndexStats {
        self.stats
    }

    /// The row of version `(created_at, id)`, by binary search in scan order.
    pub fn row_of(&self, created_at: Timestamp, id: &AgentMemoryId) -> Option<usize> {
        self.row_at(created_at, id.as_str().as_bytes())
    }

    /// The row of the version at `created_at` whose id has the bytes `id` (as a key holds it).
    pub fn row_at(&self, created_at: Timestamp, id: &[u8]) -> Option<usize> {
        // Rows are newest first: the rows of this instant are a run, found in the heads, and
        // only their ids are compared.
        let start = self.heads.partition_point(|h| h.created_at > created_at);
        let end = start + self.heads[start..].partition_point(|h| h.created_at == created_at);
        (start..end).find(|&row| self.id(row).as_bytes() == id)
    }

    /// The posting lists of `terms` derived from the rows' stored term counts: per term, the
    /// rows holding it with its frequency, rows ascending.
    pub fn derived_postings(&self, terms: &[String]) -> Vec<Postings> {
        let wanted: BTreeMap<&str, usize> = terms
            .iter()
            .enumerate()
            .rev()
            .map(|(i, t)| (t.as_str(), i))
            .collect();
        let mut out = vec![Vec::new(); terms.len()];
        for (row, m) in self.rows.iter().enumerate() {
            for (term, count) in indexed_terms(m) {
                if let Some(&i) = wanted.get(term) {
                    out[i].push((row as u32, count));
                }
            }
        }
        // A term asked for twice gets the same list twice.
        for (i, t) in terms.iter().enumerate() {
            let first = wanted[t.as_str()];
            if first != i {
                out[i] = out[first].clone();
            }
        }
        out.into_iter().map(Postings::from).collect()
    }
}

/// What [`Backend::history`](crate::Backend::history) answers: the member's history and the
/// posting lists of the asked terms, read in one consistent view.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    /// The member's stored versions with their vectors and statistics.
    pub versions: Arc<MemberHistory>,
    /// Per asked term, in the order asked: the rows of [`versions`](Self::versions) whose text
    /// holds it, with the term's frequency there, rows ascending.
    pub postings: Vec<Postings>,
}

#[cfg(test)]
mod tests {
    use memory_core::{
        AgentMemoryId, CredentialId, MemberId, MemoryText, RankingData, Timestamp, WorkspaceId,
    };
    use proptest::prelude::*;

    use super::*;

    fn row(i: usize, terms: Vec<(String, u32)>) -> Arc<AgentMemory> {
        Arc::new(AgentMemory {
            id: AgentMemoryId::parse(format!("amem_{i}")).unwrap(),
            workspace: WorkspaceId::new("ws").unwrap(),
            member: MemberId::new("m").unwrap(),
            credential: CredentialId::new("c").unwrap(),
            namespace: "ns".into(),
            key: None,
            text: MemoryText::mask("a note").0,
            collection_id: None,
            version: 1,
            citations: vec![],
            created_at: Timestamp::from_millis(i as i64).unwrap(),
            superseded_at: None,
            ranking: RankingData {
                length: terms.len() as u32,
                terms: terms.into(),
                embedding: None,
            },
        })
    }

    /// Term lists given in any order, with repeats and zero counts, over a small alphabet so
    /// that terms collide (the counts built from them are sorted and merged).
    fn terms() -> impl Strategy<Value = Vec<(String, u32)>> {
        let pair = ("[a-d]{1,2}", 0u32..4).prop_map(|(t, c)| (t, c));
        (proptest::collection::vec(pair, 0..8), any::<bool>()).prop_map(|(mut v, sort)| {
            if sort {
                v.sort();
                v.dedup_by(|a, b| a.0 == b.0);
            }
            v
        })
    }

    proptest! {
        /// Posting lists derived in one pass, in pieces and asked again equal the reference
        /// derivation, row by row, for every term asked (repeats and absent terms included).
        #[test]
        fn postings_from_rows_are_the_derived_postings(
            rows in proptest::collection::vec(terms(), 0..12),
            asked in proptest::collection::vec("[a-e]{1,2}", 0..6),
            split in 0usize..6,
        ) {
            let history = MemberHistory::from_versions(
                rows.into_iter().enumerate().map(|(i, t)| row(i, t)).collect(),
            );
            let want = history.derived_postings(&asked);
            let split = split.min(asked.len());
            // Part first, so that the rest is answered partly from what was kept.
            prop_assert_eq!(&history.postings_from_rows(&asked[..split]), &want[..split]);
            prop_assert_eq!(&history.postings_from_rows(&asked), &want);
            prop_assert_eq!(&history.postings_from_rows(&asked), &want);
        }

        /// Whatever the versions (instants shared by several, superseded or not, any length),
        /// every row's head and id are the row's own, and each row is found again by its
        /// instant and id, and no row by an id it does not have.
        #[test]
        fn heads_and_ids_are_the_rows_own(
            versions in proptest::collection::vec(
                (0i64..6, proptest::option::of(0i64..9), 0u32..50, 0usize..1_000),
                0..24,
            ),
        ) {
            let rows: Vec<Arc<AgentMemory>> = versions
                .iter()
                .enumerate()
                .map(|(i, &(created, superseded, length, id))| {
                    let mut m = Arc::unwrap_or_clone(row(id * 100 + i, Vec::new()));
                    m.created_at = Timestamp::from_millis(created).unwrap();
                    m.superseded_at = superseded.map(|s| Timestamp::from_millis(s).unwrap());
                    m.ranking.length = length;
                    Arc::new(m)
                })
                .collect();
            let history = MemberHistory::from_versions(rows);
            prop_assert_eq!(history.heads().len(), history.rows().len());
            for (r, m) in history.rows().iter().enumerate() {
                prop_assert_eq!(history.heads()[r], RowHead::of(m));
                prop_assert_eq!(history.id(r), m.id.as_str());
                prop_assert_eq!(history.row_of(m.created_at, &m.id), Some(r));
                prop_assert_eq!(history.row_at(m.created_at, b"amem_absent"), None);
            }
            let copy = history.clone();
            prop_assert_eq!(copy.heads(), history.heads());
        }
    }
}
