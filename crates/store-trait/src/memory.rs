//! [`InMemoryBackend`]: the whole state in maps behind one `RwLock`, for tests, benchmarks and
//! hosts that keep nothing across restarts.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::ops::Bound;
use std::sync::{Arc, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

use memory_core::{
    AgentMemory, AgentMemoryId, ApiError, CredentialId, MemberId, Settings, StoredEmbedding,
    Timestamp, WorkspaceId,
};

use crate::backend::{check_decided_write, key_instant, latest_instant};
use crate::kv::{Decided, Kv, KvOp, KvRead, impl_store_backend};
use crate::stores::VacuumReport;
use crate::{Backend, Error, Owner, RememberOutcome, RememberState, RememberWrite, ScanQuery};

/// A version's position in scan order: scans walk these keys backwards.
type ScanKey = (Timestamp, AgentMemoryId);

/// A [`Backend`] holding everything in memory.
///
/// Workspaces, members, credentials, namespaces and keys are hash-map keys, so every lookup is
/// exact equality and a read of one owner never touches another owner's versions. One `RwLock`
/// guards the whole state: [`remember`](Backend::remember) reads its state, runs `decide` and
/// writes under the write lock, so check-and-write is atomic; reads share the read lock.
///
/// A `decide` closure that panics leaves the state untouched (nothing is written before it
/// returns), so the backend recovers from the poisoned lock instead of failing every later call.
#[derive(Default)]
pub struct InMemoryBackend {
    state: RwLock<State>,
    /// Memory stores, in the ordered key space of `crate::kv` (one lock: a step reads and
    /// writes under the write lock).
    stores: RwLock<BTreeMap<Vec<u8>, Vec<u8>>>,
}

#[derive(Default)]
struct State {
    workspaces: HashMap<WorkspaceId, WorkspaceState>,
}

#[derive(Default)]
struct WorkspaceState {
    settings: Option<Settings>,
    /// Accepted remember instants per credential of this workspace, oldest first.
    windows: HashMap<CredentialId, Vec<Timestamp>>,
    members: HashMap<MemberId, OwnerState>,
}

#[derive(Default)]
struct OwnerState {
    /// Shared, so that [`Backend::scan_shared`] hands out references instead of deep copies; a
    /// version superseded while a reader holds it is copied on write (`Arc::make_mut`).
    versions: BTreeMap<ScanKey, Arc<AgentMemory>>,
    /// Id → `created_at`, to find a version's scan key.
    ids: HashMap<AgentMemoryId, Timestamp>,
    /// Namespace → key → the key's index entry.
    keys: HashMap<String, HashMap<String, KeyState>>,
}

#[derive(Default)]
struct KeyState {
    current: Option<ScanKey>,
    last_version: u32,
    versions: BTreeSet<ScanKey>,
}

impl InMemoryBackend {
    /// An empty backend.
    pub fn new() -> Self {
        Self::default()
    }

    fn read(&self) -> RwLockReadGuard<'_, State> {
        self.state.read().unwrap_or_else(PoisonError::into_inner)
    }

    fn write(&self) -> RwLockWriteGuard<'_, State> {
        self.state.write().unwrap_or_else(PoisonError::into_inner)
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

impl Kv for InMemoryBackend {
    fn read<R>(&self, f: &mut dyn FnMut(&dyn KvRead) -> Result<R, Error>) -> Result<R, Error> {
        let map = self.stores.read().unwrap_or_else(PoisonError::into_inner);
        f(&MapView(&map))
    }

    fn step<R>(&self, f: &mut dyn FnMut(&dyn KvRead) -> Decided<R>) -> Result<R, Error> {
        let mut map = self.stores.write().unwrap_or_else(PoisonError::into_inner);
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

impl InMemoryBackend {
    /// Nothing reaches a file, so nothing needs rewriting: removed content is already gone.
    fn vacuum_database(&self, _progress: &dyn Fn(u64, u64)) -> Result<VacuumReport, Error> {
        Ok(VacuumReport::default())
    }
}

impl_store_backend!(InMemoryBackend);

impl fmt::Debug for InMemoryBackend {
    /// Counts only: the state holds memory content, which never goes into logs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = self.read();
        let versions: usize = state
            .workspaces
            .values()
            .flat_map(|ws| ws.members.values())
            .map(|o| o.versions.len())
            .sum();
        f.debug_struct("InMemoryBackend")
            .field("workspaces", &state.workspaces.len())
            .field("versions", &versions)
            .finish()
    }
}

impl State {
    fn owner(&self, owner: &Owner) -> Option<&OwnerState> {
        self.workspaces
            .get(&owner.workspace)?
            .members
            .get(&owner.member)
    }

    fn owner_mut(&mut self, owner: &Owner) -> Option<&mut OwnerState> {
        self.workspaces
            .get_mut(&owner.workspace)?
            .members
            .get_mut(&owner.member)
    }
}

impl OwnerState {
    fn key(&self, namespace: &str, key: &str) -> Option<&KeyState> {
        self.keys.get(namespace)?.get(key)
    }

    fn unexpired(&self, expired_cutoff: Timestamp) -> u64 {
        let n = self
            .versions
            .keys()
            .rev()
            .take_while(|(created_at, _)| *created_at > expired_cutoff)
            .count();
        n as u64
    }

    /// Removes the key's index entry and every version of the key, newest first.
    fn forget_key(&mut self, namespace: &str, key: &str) -> Vec<AgentMemory> {
        let Some(keys) = self.keys.get_mut(namespace) else {
            return Vec::new();
        };
        // A key whose versions were all purged keeps its numbering: a forget that finds
        // nothing forgets nothing.
        if keys.get(key).is_none_or(|k| k.versions.is_empty()) {
            return Vec::new();
        }
        let Some(state) = keys.remove(key) else {
            return Vec::new();
        };
        if keys.is_empty() {
            self.keys.remove(namespace);
        }
        state
            .versions
            .iter()
            .rev()
            .filter_map(|sk| self.remove_version(sk))
            .collect()
    }

    fn remove_version(&mut self, sk: &ScanKey) -> Option<AgentMemory> {
        let memory = Arc::unwrap_or_clone(self.versions.remove(sk)?);
        self.ids.remove(&memory.id);
        Some(memory)
    }

    /// Removes the versions `doomed` selects, keeping their keys' numbering; a key whose current
    /// version goes is left without one.
    fn purge(&mut self, doomed: impl Fn(&AgentMemory) -> bool) -> u64 {
        let gone: Vec<ScanKey> = self
            .versions
            .iter()
            .filter(|(_, m)| doomed(m))
            .map(|(sk, _)| sk.clone())
            .collect();
        for sk in &gone {
            let Some(memory) = self.remove_version(sk) else {
                continue;
            };
            if let Some(key) = &memory.key {
                let entry = self
                    .keys
                    .get_mut(&memory.namespace)
                    .and_then(|keys| keys.get_mut(key));
                if let Some(entry) = entry {
                    entry.versions.remove(sk);
                    if entry.current.as_ref() == Some(sk) {
                        entry.current = None;
                    }
                }
            }
        }
        gone.len() as u64
    }
}

impl Backend for InMemoryBackend {
    fn remember(
        &self,
        owner: &Owner,
        credential: &CredentialId,
        key: Option<(&str, &str)>,
        window_start: Timestamp,
        expired_cutoff: Timestamp,
        decide: &mut dyn FnMut(&RememberState) -> Result<RememberWrite, ApiError>,
    ) -> Result<RememberOutcome, Error> {
        let mut state = self.write();

        let workspace = state.workspaces.get(&owner.workspace);
        let existing = workspace.and_then(|ws| ws.members.get(&owner.member));
        let key_state = key.and_then(|(namespace, key)| existing?.key(namespace, key));
        let read = RememberState {
            window: workspace
                .and_then(|ws| ws.windows.get(credential))
                .map(|w| w.iter().copied().filter(|t| *t > window_start).collect())
                .unwrap_or_default(),
            stored_versions: existing.map_or(0, |o| o.unexpired(expired_cutoff)),
            current: key_state
                .and_then(|k| k.current.as_ref())
                .and_then(|sk| existing?.versions.get(sk))
                .map(|m| AgentMemory::clone(m)),
            last_version: key_state.map_or(0, |k| k.last_version),
        };
        // The newest stored version of the key carries its latest instant (a chain's instants
        // increase), the current one's `created_at` or, after a purge took it, a `superseded_at`.
        let latest = key_state
            .and_then(|k| k.versions.iter().next_back())
            .and_then(|sk| existing?.versions.get(sk))
            .map(|m| latest_instant(m))
            .max(read.current.as_ref().map(|c| c.created_at));

        let mut write = match decide(&read) {
            Ok(write) => write,
            Err(refusal) => return Ok(RememberOutcome::Refused(refusal)),
        };
        let id_taken = existing.is_some_and(|o| o.ids.contains_key(&write.record.id));
        check_decided_write(owner, credential, key, &write.record, id_taken)
            .map_err(Error::InvalidWrite)?;
        if key.is_some() {
            write.record.created_at = key_instant(write.record.created_at, latest);
        }

        // Nothing below can fail: the write is applied whole.
        let record = write.record;
        let workspace = state.workspaces.entry(owner.workspace.clone()).or_default();
        let window = workspace.windows.entry(credential.clone()).or_default();
        let at = window.partition_point(|t| *t <= record.created_at);
        window.insert(at, record.created_at);
        window.retain(|t| *t > window_start);

        let target = workspace.members.entry(owner.member.clone()).or_default();
        let sk: ScanKey = (record.created_at, record.id.clone());
        let mut superseded = None;
        if let Some((namespace, key)) = key {
            let entry = target
                .keys
                .entry(namespace.to_owned())
                .or_default()
                .entry(key.to_owned())
                .or_default();
            let previous = entry.current.replace(sk.clone());
            entry.last_version = entry.last_version.max(record.version);
            entry.versions.insert(sk.clone());
            if write.supersede_current
                && let Some(old) = previous.and_then(|p| target.versions.get_mut(&p))
            {
                let old = Arc::make_mut(old);
                old.superseded_at = Some(record.created_at);
                superseded = Some(old.clone());
            }
        }
        target.ids.insert(record.id.clone(), record.created_at);
        target.versions.insert(sk, Arc::new(record.clone()));
        Ok(RememberOutcome::Written { record, superseded })
    }

    fn get(&self, owner: &Owner, id: &AgentMemoryId) -> Result<Option<AgentMemory>, Error> {
        let state = self.read();
        let found = state.owner(owner).and_then(|o| {
            let created_at = *o.ids.get(id)?;
            o.versions.get(&(created_at, id.clone()))
        });
        Ok(found.map(|m| AgentMemory::clone(m)))
    }

    fn current_of_key(
        &self,
        owner: &Owner,
        namespace: &str,
        key: &str,
    ) -> Result<Option<AgentMemory>, Error> {
        let state = self.read();
        let found = state.owner(owner).and_then(|o| {
            let sk = o.key(namespace, key)?.current.as_ref()?;
            o.versions.get(sk)
        });
        Ok(found.map(|m| AgentMemory::clone(m)))
    }

    fn scan(&self, owner: &Owner, query: &ScanQuery) -> Result<Vec<AgentMemory>, Error> {
        let state = self.read();
        Ok(scan_owner(&state, owner, query, |m| AgentMemory::clone(m)))
    }

    fn scan_shared(
        &self,
        owner: &Owner,
        query: &ScanQuery,
    ) -> Result<Vec<Arc<AgentMemory>>, Error> {
        let state = self.read();
        Ok(scan_owner(&state, owner, query, Arc::clone))
    }

    fn versions(
        &self,
        owner: &Owner,
        expired_cutoff: Timestamp,
        after: Option<&(Timestamp, AgentMemoryId)>,
        limit: usize,
    ) -> Result<Vec<AgentMemory>, Error> {
        let state = self.read();
        let Some(o) = state.owner(owner) else {
            return Ok(Vec::new());
        };
        let upper = after.map_or(Bound::Unbounded, |a| Bound::Excluded(a.clone()));
        Ok(o.versions
            .range((Bound::Unbounded, upper))
            .rev()
            .take_while(|((created_at, _), _)| *created_at > expired_cutoff)
            .take(limit)
            .map(|(_, m)| AgentMemory::clone(m))
            .collect())
    }

    fn set_embedding(
        &self,
        owner: &Owner,
        id: &AgentMemoryId,
        embedding: &StoredEmbedding,
    ) -> Result<bool, Error> {
        let mut state = self.write();
        let Some(o) = state.owner_mut(owner) else {
            return Ok(false);
        };
        let Some(created_at) = o.ids.get(id).copied() else {
            return Ok(false);
        };
        let Some(stored) = o.versions.get_mut(&(created_at, id.clone())) else {
            return Ok(false);
        };
        // Copied on write when a reader still holds the version (`scan_shared`).
        Arc::make_mut(stored).ranking.embedding = Some(embedding.clone());
        Ok(true)
    }

    fn forget_key(
        &self,
        owner: &Owner,
        namespace: &str,
        key: &str,
    ) -> Result<Vec<AgentMemory>, Error> {
        let mut state = self.write();
        Ok(state
            .owner_mut(owner)
            .map(|o| o.forget_key(namespace, key))
            .unwrap_or_default())
    }

    fn forget_id(&self, owner: &Owner, id: &AgentMemoryId) -> Result<Vec<AgentMemory>, Error> {
        let mut state = self.write();
        let Some(o) = state.owner_mut(owner) else {
            return Ok(Vec::new());
        };
        let Some(created_at) = o.ids.get(id).copied() else {
            return Ok(Vec::new());
        };
        let sk = (created_at, id.clone());
        let keyed = o
            .versions
            .get(&sk)
            .and_then(|m| Some((m.namespace.clone(), m.key.clone()?)));
        let removed = match keyed {
            Some((namespace, key)) => o.forget_key(&namespace, &key),
            None => o.remove_version(&sk).into_iter().collect(),
        };
        Ok(removed)
    }

    fn delete_owner(&self, owner: &Owner) -> Result<u64, Error> {
        let mut state = self.write();
        let removed = state
            .workspaces
            .get_mut(&owner.workspace)
            .and_then(|ws| ws.members.remove(&owner.member))
            .map_or(0, |o| o.versions.len());
        Ok(removed as u64)
    }

    fn delete_workspace(&self, workspace: &WorkspaceId) -> Result<u64, Error> {
        let mut state = self.write();
        let removed = state.workspaces.get_mut(workspace).map_or(0, |ws| {
            ws.members
                .drain()
                .map(|(_, o)| o.versions.len())
                .sum::<usize>()
        });
        Ok(removed as u64)
    }

    fn purge_expired(&self, workspace: &WorkspaceId, cutoff: Timestamp) -> Result<u64, Error> {
        self.purge(workspace, |m| m.created_at <= cutoff)
    }

    fn purge_document(&self, workspace: &WorkspaceId, document_id: &str) -> Result<u64, Error> {
        self.purge(workspace, |m| m.cites_document(document_id))
    }

    fn purge_collection(&self, workspace: &WorkspaceId, collection_id: &str) -> Result<u64, Error> {
        self.purge(workspace, |m| m.touches_collection(collection_id))
    }

    fn stored_versions(&self, owner: &Owner, expired_cutoff: Timestamp) -> Result<u64, Error> {
        let state = self.read();
        Ok(state
            .owner(owner)
            .map_or(0, |o| o.unexpired(expired_cutoff)))
    }

    fn settings(&self, workspace: &WorkspaceId) -> Result<Option<Settings>, Error> {
        let state = self.read();
        Ok(state.workspaces.get(workspace).and_then(|ws| ws.settings))
    }

    fn put_settings(&self, workspace: &WorkspaceId, settings: &Settings) -> Result<(), Error> {
        let mut state = self.write();
        state
            .workspaces
            .entry(workspace.clone())
            .or_default()
            .settings = Some(*settings);
        Ok(())
    }
}

/// The versions `query` selects of `owner`, newest first, each through `take`.
fn scan_owner<T>(
    state: &State,
    owner: &Owner,
    query: &ScanQuery,
    take: impl Fn(&Arc<AgentMemory>) -> T,
) -> Vec<T> {
    let Some(o) = state.owner(owner) else {
        return Vec::new();
    };
    let upper = match &query.after {
        Some(after) => Bound::Excluded(after.clone()),
        None => Bound::Unbounded,
    };
    o.versions
        .range((Bound::Unbounded, upper))
        .rev()
        .take_while(|((created_at, _), _)| *created_at > query.expired_cutoff)
        .map(|(_, memory)| memory)
        .filter(|memory| query.matches(memory))
        .take(query.limit)
        .map(take)
        .collect()
}

impl InMemoryBackend {
    fn purge(
        &self,
        workspace: &WorkspaceId,
        doomed: impl Fn(&AgentMemory) -> bool,
    ) -> Result<u64, Error> {
        let mut state = self.write();
        let removed = state.workspaces.get_mut(workspace).map_or(0, |ws| {
            ws.members.values_mut().map(|o| o.purge(&doomed)).sum()
        });
        Ok(removed)
    }
}

#[cfg(test)]
mod tests {
    use std::panic::{AssertUnwindSafe, catch_unwind};

    use memory_core::MemoryText;

    use super::*;

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
        assert_eq!(
            format!("{backend:?}"),
            "InMemoryBackend { workspaces: 1, versions: 1 }"
        );
    }
}
