//! [`InMemoryBackend`]: the ordered key space in one map behind one `RwLock`, for tests,
//! benchmarks and hosts that keep nothing across restarts.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Bound;
use std::sync::{PoisonError, RwLock};

use crate::Error;
use crate::kv::{Decided, Kv, KvOp, KvRead};
use crate::kv_agent::{KvBackend, KvDatabase};
use crate::stores::VacuumReport;

/// A [`Backend`](crate::Backend) and [`StoreBackend`](crate::StoreBackend) holding everything in
/// memory: the rules of `crate::kv_agent` and `crate::kv` over a [`MemoryKv`].
pub type InMemoryBackend = KvBackend<MemoryKv>;

impl KvBackend<MemoryKv> {
    /// An empty backend.
    pub fn new() -> Self {
        Self::default()
    }
}

/// The key space in a `BTreeMap`. One `RwLock` guards it: a step reads, decides and writes under
/// the write lock, so check-and-write is atomic; reads share the read lock.
///
/// A `decide` closure that panics leaves the map untouched (a step's writes are applied only
/// after it returns), so the key space recovers from the poisoned lock instead of failing every
/// later call.
#[derive(Default)]
pub struct MemoryKv {
    map: RwLock<BTreeMap<Vec<u8>, Vec<u8>>>,
}

impl fmt::Debug for MemoryKv {
    /// The number of entries only: the map holds memory content, which never goes into logs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let map = self.map.read().unwrap_or_else(PoisonError::into_inner);
        f.debug_struct("MemoryKv")
            .field("entries", &map.len())
            .finish()
    }
}

struct MapView<'a>(&'a BTreeMap<Vec<u8>, Vec<u8>>);

impl KvRead for MapView<'_> {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, Error> {
        Ok(self.0.get(key).cloned())
    }

    fn range(
        &self,
        start: &[u8],
        end: &[u8],
        reverse: bool,
        visit: &mut dyn FnMut(&[u8], &[u8]) -> bool,
    ) -> Result<(), Error> {
        if start >= end {
            return Ok(());
        }
        let range = self
            .0
            .range::<[u8], _>((Bound::Included(start), Bound::Excluded(end)));
        if reverse {
            for (k, v) in range.rev() {
                if !visit(k, v) {
                    break;
                }
            }
        } else {
            for (k, v) in range {
                if !visit(k, v) {
                    break;
                }
            }
        }
        Ok(())
    }
}

impl Kv for MemoryKv {
    fn read<R>(&self, f: &mut dyn FnMut(&dyn KvRead) -> Result<R, Error>) -> Result<R, Error> {
        let map = self.map.read().unwrap_or_else(PoisonError::into_inner);
        f(&MapView(&map))
    }

    fn step<R>(&self, f: &mut dyn FnMut(&dyn KvRead) -> Decided<R>) -> Result<R, Error> {
        let mut map = self.map.write().unwrap_or_else(PoisonError::into_inner);
        let (out, ops) = f(&MapView(&map))?;
        for op in ops {
            match op {
                KvOp::Put(k, v) => {
                    map.insert(k, v);
                }
                KvOp::Delete(k) => {
                    map.remove(&k);
                }
            }
        }
        Ok(out)
    }
}

impl KvDatabase for MemoryKv {
    /// Nothing reaches a file, so nothing needs rewriting: removed content is already gone.
    fn vacuum(&self, _progress: &dyn Fn(u64, u64)) -> Result<VacuumReport, Error> {
        Ok(VacuumReport::default())
    }
}

#[cfg(test)]
mod tests {
    use std::panic::{AssertUnwindSafe, catch_unwind};

    use memory_core::{
        AgentMemory, AgentMemoryId, CredentialId, MemberId, MemoryText, Timestamp, WorkspaceId,
    };

    use super::*;
    use crate::{Backend, Owner, RememberOutcome, RememberWrite};

    fn owner() -> Owner {
        Owner::new(WorkspaceId::new("ws").unwrap(), MemberId::new("m").unwrap())
    }

    #[test]
    fn a_panicking_decision_writes_nothing_and_leaves_the_backend_usable() {
        let backend = InMemoryBackend::new();
        let credential = CredentialId::new("cred").unwrap();
        let t = Timestamp::from_millis(1_000).unwrap();
        let panicked = catch_unwind(AssertUnwindSafe(|| {
            backend.remember(
                &owner(),
                &credential,
                Some(("ns", "k")),
                Timestamp::MIN,
                Timestamp::MIN,
                &mut |_| panic!("decision failed"),
            )
        }));
        assert!(panicked.is_err());
        assert_eq!(
            backend.stored_versions(&owner(), Timestamp::MIN).unwrap(),
            0
        );

        let outcome = backend
            .remember(
                &owner(),
                &credential,
                None,
                Timestamp::MIN,
                Timestamp::MIN,
                &mut |state| {
                    assert!(state.window.is_empty());
                    Ok(RememberWrite {
                        record: AgentMemory {
                            id: AgentMemoryId::parse("amem_1").unwrap(),
                            workspace: owner().workspace,
                            member: owner().member,
                            credential: credential.clone(),
                            namespace: "ns".into(),
                            key: None,
                            text: MemoryText::mask("note").0,
                            collection_id: None,
                            version: 1,
                            citations: vec![],
                            created_at: t,
                            superseded_at: None,
                            ranking: Default::default(),
                        },
                        supersede_current: false,
                    })
                },
            )
            .unwrap();
        assert!(matches!(
            outcome,
            RememberOutcome::Written {
                superseded: None,
                ..
            }
        ));
        // The record, its id and expiry entries, the count and the rate window.
        assert_eq!(format!("{backend:?}"), "KvBackend(MemoryKv { entries: 5 })");
    }
}
