//! [`InMemoryBackend`]: the key space of `crate::stores` and `crate::agent` in a `BTreeMap` behind
//! one `RwLock`, for tests, benchmarks and hosts that keep nothing across restarts.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Bound;
use std::sync::{Arc, OnceLock, PoisonError, RwLock};

use memory_core::AgentMemory;

use store_trait::kv::{Decided, Kv, KvOp, KvRead};
use store_trait::{Database, Durability, Error, VacuumReport};

use crate::agent::KvBackend;

/// A [`Backend`](store_trait::Backend) and [`StoreBackend`](store_trait::StoreBackend) holding everything
/// in memory (see [`MemoryKv`]).
///
/// A `decide` closure that panics leaves the state untouched (nothing is written before it
/// returns), so the backend recovers from the poisoned lock instead of failing every later call.
pub type InMemoryBackend = KvBackend<MemoryKv>;

impl KvBackend<MemoryKv> {
    /// An empty backend.
    pub fn new() -> Self {
        Self::default()
    }
}

/// The key space in one ordered map. A step runs under the write lock, reads share the read
/// lock, so every step is atomic and every read is one consistent view.
///
/// Each value keeps, once a read asked for it, its decoded agent-memory version
/// ([`KvRead::range_versions`]): recall reads up to 300 versions per call, and decoding them from bytes
/// every time cost several times the rest of a recall. The cache cannot go stale: a value is
/// only ever replaced or removed by a step, which replaces its entry, cache and all. (Only a
/// key space private to one process may do this; SQLite's file is shared by processes, so its
/// reads always decode.)
#[derive(Default)]
pub struct MemoryKv {
    map: RwLock<BTreeMap<Vec<u8>, Entry>>,
}

/// A value and, once read as a version, its decoded form.
struct Entry {
    bytes: Vec<u8>,
    version: OnceLock<Arc<AgentMemory>>,
}

impl fmt::Debug for MemoryKv {
    /// The number of entries only: the values hold memory content, which never goes into logs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let map = self.map.read().unwrap_or_else(PoisonError::into_inner);
        f.debug_struct("MemoryKv")
            .field("entries", &map.len())
            .finish()
    }
}

struct MapView<'a>(&'a BTreeMap<Vec<u8>, Entry>);

impl KvRead for MapView<'_> {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, Error> {
        Ok(self.0.get(key).map(|e| e.bytes.clone()))
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
            for (k, e) in range.rev() {
                if !visit(k, &e.bytes) {
                    break;
                }
            }
        } else {
            for (k, e) in range {
                if !visit(k, &e.bytes) {
                    break;
                }
            }
        }
        Ok(())
    }

    /// Its entries keep their decoded versions themselves.
    fn range_versions_cached(
        &self,
        start: &[u8],
        end: &[u8],
        reverse: bool,
        _cache: &store_trait::kv::VersionCache,
        visit: &mut dyn FnMut(&[u8], Arc<AgentMemory>) -> bool,
    ) -> Result<(), Error> {
        self.range_versions(start, end, reverse, visit)
    }

    fn range_versions(
        &self,
        start: &[u8],
        end: &[u8],
        reverse: bool,
        visit: &mut dyn FnMut(&[u8], Arc<AgentMemory>) -> bool,
    ) -> Result<(), Error> {
        if start >= end {
            return Ok(());
        }
        let range = self
            .0
            .range::<[u8], _>((Bound::Included(start), Bound::Excluded(end)));
        let mut go = |k: &[u8], e: &Entry| -> Result<bool, Error> {
            let version = match e.version.get() {
                Some(version) => version.clone(),
                None => {
                    let decoded = Arc::new(store_trait::codec::decode_version(&e.bytes)?);
                    e.version.get_or_init(|| decoded).clone()
                }
            };
            Ok(visit(k, version))
        };
        if reverse {
            for (k, e) in range.rev() {
                if !go(k, e)? {
                    break;
                }
            }
        } else {
            for (k, e) in range {
                if !go(k, e)? {
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
                KvOp::Put(k, bytes) => {
                    map.insert(
                        k,
                        Entry {
                            bytes,
                            version: OnceLock::new(),
                        },
                    );
                }
                KvOp::Delete(k) => {
                    map.remove(&k);
                }
            }
        }
        Ok(out)
    }
}

impl Database for MemoryKv {
    /// Nothing reaches a file, so nothing needs rewriting: removed content is already gone.
    fn vacuum(&self, _progress: &dyn Fn(u64, u64)) -> Result<VacuumReport, Error> {
        Ok(VacuumReport::default())
    }

    fn format_version(&self) -> Option<u32> {
        None
    }

    fn durability(&self) -> Option<Durability> {
        None
    }
}

#[cfg(test)]
mod tests {
    use std::panic::{AssertUnwindSafe, catch_unwind};

    use memory_core::{
        AgentMemory, AgentMemoryId, CredentialId, MemberId, MemoryText, Timestamp, WorkspaceId,
    };

    use super::*;
    use store_trait::{Backend, Owner, RememberOutcome, RememberWrite};

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
        assert_eq!(format!("{backend:?}"), "KvBackend(MemoryKv { entries: 5 })");
    }
}
