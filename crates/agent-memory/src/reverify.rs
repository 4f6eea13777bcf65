//! Recall's re-verification of its candidates: a verdict per candidate and the entities of its
//! cited passages as positions in the recall's distinct entities.
//!
//! With the default window the candidates are scanned and re-verified with one batched lookup
//! every time. Through the recall index (a wider window) the candidates are rows of the member's
//! history, which the backend shares between reads until a write changes it; when the host's
//! source gives a stamp ([`PassageSource::generation`]) the verdicts of those rows are kept,
//! per member, and reused while both the history and the stamp stand. A verdict depends only on
//! the version's citations (fixed for a history row) and on what the source answers for the
//! member (fixed while the stamp stands), so the answer is the one a fresh lookup would give:
//! the same verdicts, the same entities in the same order. Rows not verified yet are looked up
//! in one batch and added. The last answer made from a member's verdicts is kept beside them, so
//! that a recall asking for the same rows (the same filters over the same history, under the
//! same stamp) takes it as it is.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};

use citation_verify::{Entity, EntityIndexVerification, PassageSource, Verdict};
use memory_core::AgentMemory;
use store_trait::{MemberHistory, Owner};

/// Members whose verdicts one service keeps; the one used longest ago leaves first.
const KEPT_MEMBERS: usize = 64;

/// Re-verifies `memories` with one batched lookup (the default window's path, and any source
/// without a stamp).
pub(crate) fn verify(
    source: &dyn PassageSource,
    owner: &Owner,
    memories: &[&AgentMemory],
) -> EntityIndexVerification {
    citation_verify::verify_entity_indices(source, &owner.workspace, &owner.member, memories)
}

/// The verdicts of members' history rows, kept between recalls; one per service.
#[derive(Default)]
pub(crate) struct VerdictCache {
    members: Mutex<Members>,
}

#[derive(Default)]
struct Members {
    kept: HashMap<Owner, Entry>,
    clock: u64,
}

/// One member's kept verdicts.
struct Entry {
    /// When it was last used (a tick of `Members::clock`).
    used: u64,
    kept: Arc<Kept>,
    /// The last answer made from `kept`: a recall asking for the same rows again (the same
    /// filters over the same history) gets it as it is.
    last: Option<Arc<Last>>,
}

struct Last {
    rows: Vec<u32>,
    answer: Arc<EntityIndexVerification>,
}

impl VerdictCache {
    /// Re-verifies the history rows `rows` of `owner` (the candidates, in order), reusing the
    /// verdicts kept for `history` under the source's current stamp and keeping the new ones.
    /// Without a stamp, one batched lookup of every candidate, as [`verify`].
    pub(crate) fn verify_rows(
        &self,
        source: &dyn PassageSource,
        owner: &Owner,
        history: &Arc<MemberHistory>,
        rows: &[u32],
    ) -> Arc<EntityIndexVerification> {
        let versions = history.rows();
        let memory = |row: u32| &*versions[row as usize];
        let all = || {
            let memories: Vec<&AgentMemory> = rows.iter().map(|&row| memory(row)).collect();
            Arc::new(verify(source, owner, &memories))
        };
        // Read before the lookup: verdicts learnt from a lookup are kept under the stamp read
        // before it, and only when the stamp read after it is the same.
        let Some(generation) = source.generation(&owner.workspace) else {
            return all();
        };
        let (reusable, last) = match self.get(owner) {
            Some((kept, last)) if kept.generation == generation && kept.history_is(history) => {
                (Some(kept), last)
            }
            _ => (None, None),
        };
        if let Some(last) = last.filter(|last| last.rows == rows) {
            return Arc::clone(&last.answer);
        }
        let missing: Vec<u32> = rows
            .iter()
            .copied()
            .filter(|&row| {
                reusable
                    .as_ref()
                    .is_none_or(|kept| kept.rows[row as usize].is_none())
            })
            .collect();
        let reused_some = missing.len() < rows.len();
        let mut kept = match reusable {
            Some(kept) if missing.is_empty() => {
                let answer = Arc::new(kept.answer(rows));
                self.put(owner, kept, rows, &answer);
                return answer;
            }
            Some(kept) => Kept::clone(&kept),
            None => Kept::new(history, generation),
        };
        let memories: Vec<&AgentMemory> = missing.iter().map(|&row| memory(row)).collect();
        let mut next = missing.iter();
        citation_verify::verify_each(
            source,
            &owner.workspace,
            &owner.member,
            &memories,
            |verdict, entities| {
                let row = *next.next().expect("one verdict per memory");
                kept.record(row, verdict, entities);
            },
        );
        if source.generation(&owner.workspace) != Some(generation) {
            // The passages changed while they were looked up: nothing is kept, and an answer
            // mixing verdicts kept from before with ones looked up now would reflect no single
            // moment, so then every candidate is looked up again, in one batch.
            return if reused_some {
                all()
            } else {
                Arc::new(kept.answer(rows))
            };
        }
        let answer = Arc::new(kept.answer(rows));
        self.put(owner, Arc::new(kept), rows, &answer);
        answer
    }

    fn lock(&self) -> MutexGuard<'_, Members> {
        // Every change leaves the map consistent, so a poisoned lock is still usable.
        self.members.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `owner`'s kept verdicts and the last answer made from them.
    fn get(&self, owner: &Owner) -> Option<(Arc<Kept>, Option<Arc<Last>>)> {
        let mut members = self.lock();
        members.clock += 1;
        let now = members.clock;
        let entry = members.kept.get_mut(owner)?;
        entry.used = now;
        Some((Arc::clone(&entry.kept), entry.last.clone()))
    }

    /// Keeps `kept` for `owner`, with `answer`, made from it for `rows`.
    fn put(
        &self,
        owner: &Owner,
        kept: Arc<Kept>,
        rows: &[u32],
        answer: &Arc<EntityIndexVerification>,
    ) {
        let last = Some(Arc::new(Last {
            rows: rows.to_vec(),
            answer: Arc::clone(answer),
        }));
        let mut members = self.lock();
        if !members.kept.contains_key(owner) && members.kept.len() >= KEPT_MEMBERS {
            let oldest = members
                .kept
                .iter()
                .min_by_key(|(_, entry)| entry.used)
                .map(|(owner, _)| owner.clone());
            if let Some(oldest) = oldest {
                members.kept.remove(&oldest);
            }
        }
        members.clock += 1;
        let now = members.clock;
        members.kept.insert(
            owner.clone(),
            Entry {
                used: now,
                kept,
                last,
            },
        );
    }
}

/// One member's verdicts for rows of one history under one stamp of the source. Shared
/// read-only once kept: a recall that verifies more rows keeps a copy with them added.
#[derive(Clone)]
struct Kept {
    /// The history whose rows these are. Weak, so that a replaced history is freed; holding it
    /// still keeps its allocation, so no later history can have its address.
    history: Weak<MemberHistory>,
    /// The source's stamp the verdicts hold under.
    generation: u64,
    /// Per history row: its verdict and where its entities are in `entities`, once verified.
    rows: Vec<Option<RowVerdict>>,
    /// Positions in `table.records`, row after row.
    entities: Vec<u32>,
    table: EntityTable,
}

#[derive(Debug, Clone, Copy)]
struct RowVerdict {
    verdict: Verdict,
    start: u32,
    len: u32,
}

impl Kept {
    fn new(history: &Arc<MemberHistory>, generation: u64) -> Self {
        Kept {
            history: Arc::downgrade(history),
            generation,
            rows: vec![None; history.rows().len()],
            entities: Vec::new(),
            table: EntityTable::default(),
        }
    }

    fn history_is(&self, history: &Arc<MemberHistory>) -> bool {
        std::ptr::eq(self.history.as_ptr(), Arc::as_ptr(history))
    }

    /// Keeps `row`'s verdict and the entities of its cited passages, in the order given.
    fn record(&mut self, row: u32, verdict: Verdict, entities: &[&Entity]) {
        let start = len_u32(self.entities.len());
        for &entity in entities {
            let record = self.table.intern(entity);
            self.entities.push(record);
        }
        self.rows[row as usize] = Some(RowVerdict {
            verdict,
            start,
            len: len_u32(entities.len()),
        });
    }

    /// The answer for candidates at `rows` (every one verified): what one batched lookup of
    /// them would give, distinct entities in order of first appearance included.
    fn answer(&self, rows: &[u32]) -> EntityIndexVerification {
        let mut out = EntityIndexVerification::with_capacity(rows.len());
        // Per id of the table, its position in `out.distinct` once it appeared.
        let mut position = vec![u32::MAX; self.table.ids.len()];
        for &row in rows {
            let kept = self.rows[row as usize].expect("every candidate row is verified");
            let records = &self.entities[kept.start as usize..(kept.start + kept.len) as usize];
            out.verdicts.push(kept.verdict);
            for &record in records {
                let id = self.table.id_of[record as usize] as usize;
                if position[id] == u32::MAX {
                    position[id] = len_u32(out.distinct.len());
                    out.distinct
                        .push(self.table.records[record as usize].clone());
                }
                out.indices.push(position[id]);
            }
            out.starts.push(len_u32(out.indices.len()));
        }
        out
    }
}

/// The distinct entity records of kept rows. Two passages may report one id with different
/// names or aliases; each record is kept, so that the first appearance in any recall's
/// candidates is reported as that recall's lookup would have reported it.
#[derive(Clone, Default)]
struct EntityTable {
    records: Vec<Entity>,
    /// Per record: its id's position in `ids`.
    id_of: Vec<u32>,
    /// Per id: its position, and the records with that id.
    ids: HashMap<String, (u32, Vec<u32>)>,
}

impl EntityTable {
    /// The position of `entity` in `records`, added if new.
    fn intern(&mut self, entity: &Entity) -> u32 {
        let next = len_u32(self.records.len());
        match self.ids.get_mut(entity.id.as_str()) {
            Some((id, records)) => {
                if let Some(&found) = records
                    .iter()
                    .find(|&&r| self.records[r as usize] == *entity)
                {
                    return found;
                }
                records.push(next);
                self.id_of.push(*id);
            }
            None => {
                let id = len_u32(self.ids.len());
                self.ids.insert(entity.id.clone(), (id, vec![next]));
                self.id_of.push(id);
            }
        }
        self.records.push(entity.clone());
        next
    }
}

/// A position in a member's verdicts: at most the quota of versions, twenty citations each.
fn len_u32(n: usize) -> u32 {
    u32::try_from(n).expect("fewer than 2^32 entries")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_id_with_two_records_keeps_both() {
        let mut table = EntityTable::default();
        let a = Entity::new("e1", "Acme");
        let b = Entity::new("e1", "Acme Corp");
        let c = Entity::new("e2", "Bob");
        assert_eq!(table.intern(&a), 0);
        assert_eq!(table.intern(&b), 1);
        assert_eq!(table.intern(&a), 0);
        assert_eq!(table.intern(&c), 2);
        assert_eq!(table.id_of, [0, 0, 1]);
    }
}
