//! The ordered key-value space a key-space backend provides: [`Kv`] — a consistent read view
//! ([`KvRead`]), and an exclusive read-then-write step whose writes ([`KvOp`]) land atomically.
//! The rules of both products over such a space are the `store-kv` crate's; the in-memory
//! backend, redb, sled and SQLite provide the space and nothing else, and `store-postgres` keeps
//! its memory stores in one.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError, RwLock};
use std::time::Duration;

use memory_core::AgentMemory;

use crate::error::{Error, StorageFailure};

/// A consistent view of the key space.
pub trait KvRead {
    /// The value of `key`.
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, Error>;

    /// Visits the entries with `start <= key < end` in key order (descending when `reverse`)
    /// until `visit` returns false.
    fn range(
        &self,
        start: &[u8],
        end: &[u8],
        reverse: bool,
        visit: &mut dyn FnMut(&[u8], &[u8]) -> bool,
    ) -> Result<(), Error>;

    /// [`range`](Self::range) handing out the keys only. The default visits the entries and
    /// drops their values; a key space that can skip reading the values (SQLite, whose large
    /// values spill into overflow pages) does so.
    fn range_keys(
        &self,
        start: &[u8],
        end: &[u8],
        reverse: bool,
        visit: &mut dyn FnMut(&[u8]) -> bool,
    ) -> Result<(), Error> {
        self.range(start, end, reverse, &mut |k, _| visit(k))
    }

    /// [`range`](Self::range) over entries whose values are agent-memory versions
    /// (`crate::codec`), each handed to `visit` decoded.
    ///
    /// The default decodes every value it visits. A key space private to one process may keep
    /// decoded versions and hand out the same one again, since a value changes only through a
    /// step; one that other processes write too (SQLite) must not, as its values change behind
    /// it.
    fn range_versions(
        &self,
        start: &[u8],
        end: &[u8],
        reverse: bool,
        visit: &mut dyn FnMut(&[u8], Arc<AgentMemory>) -> bool,
    ) -> Result<(), Error> {
        let mut failed = None;
        self.range(
            start,
            end,
            reverse,
            &mut |k, v| match crate::codec::decode_version(v) {
                Ok(version) => visit(k, Arc::new(version)),
                Err(e) => {
                    failed = Some(e);
                    false
                }
            },
        )?;
        failed.map_or(Ok(()), Err)
    }

    /// [`range_versions`](Self::range_versions), decoding through `cache`: a value whose bytes
    /// are exactly those a cached version was decoded from is handed out as that version, and
    /// every other value is decoded and kept for the next read.
    ///
    /// Decoding is a function of the bytes alone, so the versions handed out are those
    /// decoding would give, whoever wrote the values and whenever: the cache needs no
    /// invalidation, also for a key space other processes write. A key space that keeps
    /// decoded versions itself may ignore the cache.
    fn range_versions_cached(
        &self,
        start: &[u8],
        end: &[u8],
        reverse: bool,
        cache: &VersionCache,
        visit: &mut dyn FnMut(&[u8], Arc<AgentMemory>) -> bool,
    ) -> Result<(), Error> {
        let mut failed = None;
        let mut decoded: Vec<(Box<[u8]>, Cached)> = Vec::new();
        {
            let entries = cache.entries.read().unwrap_or_else(PoisonError::into_inner);
            self.range(start, end, reverse, &mut |k, v| {
                let version = match entries.map.get(k) {
                    Some(cached) if *cached.bytes == *v => Arc::clone(&cached.version),
                    _ => match crate::codec::decode_version(v) {
                        Ok(version) => {
                            let version = Arc::new(version);
                            let cached = Cached {
                                bytes: v.into(),
                                version: Arc::clone(&version),
                            };
                            decoded.push((k.into(), cached));
                            version
                        }
                        Err(e) => {
                            failed = Some(e);
                            return false;
                        }
                    },
                };
                visit(k, version)
            })?;
        }
        cache.keep(decoded);
        failed.map_or(Ok(()), Err)
    }
}

/// Versions decoded by [`KvRead::range_versions_cached`], each under its key with the bytes it
/// was decoded from, up to a capacity in bytes of keys and values ([`VersionCache::CAPACITY`]
/// by default); past it the cache starts over empty.
pub struct VersionCache {
    entries: RwLock<CachedVersions>,
    capacity: usize,
}

impl Default for VersionCache {
    fn default() -> Self {
        VersionCache::with_capacity(VersionCache::CAPACITY)
    }
}

/// The entries of a [`VersionCache`] and the bytes they hold.
#[derive(Default)]
struct CachedVersions {
    map: HashMap<Box<[u8]>, Cached>,
    bytes: usize,
}

/// A decoded version and the bytes it was decoded from.
struct Cached {
    bytes: Box<[u8]>,
    version: Arc<AgentMemory>,
}

impl VersionCache {
    /// How many bytes of keys and values the cache holds at most (the decoded versions take
    /// about as much again): 64 MiB, the quota's 5,000 versions of a few members.
    pub const CAPACITY: usize = 64 << 20;

    /// An empty cache of [`VersionCache::CAPACITY`] bytes.
    pub fn new() -> Self {
        VersionCache::default()
    }

    /// An empty cache of `capacity` bytes of keys and values.
    pub fn with_capacity(capacity: usize) -> Self {
        VersionCache {
            entries: RwLock::default(),
            capacity,
        }
    }

    /// How many versions the cache holds.
    pub fn len(&self) -> usize {
        self.entries
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .map
            .len()
    }

    /// True when the cache holds no version.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Keeps versions just decoded, replacing what their keys held.
    fn keep(&self, decoded: Vec<(Box<[u8]>, Cached)>) {
        if decoded.is_empty() {
            return;
        }
        let mut entries = self.entries.write().unwrap_or_else(PoisonError::into_inner);
        for (key, cached) in decoded {
            let size = key.len() + cached.bytes.len();
            if size > self.capacity {
                continue;
            }
            if entries.bytes + size > self.capacity {
                entries.map.clear();
                entries.bytes = 0;
            }
            let key_len = key.len();
            if let Some(old) = entries.map.insert(key, cached) {
                entries.bytes -= key_len + old.bytes.len();
            }
            entries.bytes += size;
        }
    }
}

impl std::fmt::Debug for VersionCache {
    /// The number of versions only: they are memory content, which never goes into logs.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VersionCache")
            .field("versions", &self.len())
            .finish()
    }
}

/// One write of a step.
#[derive(Debug)]
pub enum KvOp {
    /// Sets a key to a value.
    Put(Vec<u8>, Vec<u8>),
    /// Removes a key (absent keys included).
    Delete(Vec<u8>),
}

/// A step's decision: its answer and the writes to apply.
pub type Decided<R> = Result<(R, Vec<KvOp>), Error>;

/// What a backend provides for memory stores.
pub trait Kv {
    /// Runs `f` over a consistent view.
    fn read<R>(&self, f: &mut dyn FnMut(&dyn KvRead) -> Result<R, Error>) -> Result<R, Error>;

    /// Runs `f` with no other step in between and applies the writes it returns atomically (and
    /// durably as the backend's durability says). No writes: nothing is committed.
    fn step<R>(&self, f: &mut dyn FnMut(&dyn KvRead) -> Decided<R>) -> Result<R, Error>;
}

/// How a group of steps committed together ended, shared by every step of the group: the
/// backends that commit concurrent steps in groups (SQLite, redb, sled) record it once when the
/// group's commit (or flush) is done, and each step that must answer only after that commit
/// waits for it.
///
/// Each group has its own lock and condition variable, so that a step waits for its group
/// without the backend's write lock: when a group ends, only its own steps wake, and they do
/// not queue on the write lock behind the next group's steps merely to learn the outcome.
#[derive(Debug, Clone, Default)]
pub struct GroupOutcome(Arc<Outcome>);

#[derive(Debug, Default)]
struct Outcome {
    ended: OnceLock<Option<(StorageFailure, String)>>,
    lock: Mutex<()>,
    changed: Condvar,
}

impl GroupOutcome {
    /// An outcome not recorded yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether the group has ended.
    pub fn is_set(&self) -> bool {
        self.0.ended.get().is_some()
    }

    /// Records how the group ended (`Err`: why it did not commit) and wakes the steps waiting
    /// on it; the first record stands.
    pub fn set(&self, ended: Result<(), &Error>) {
        let first = self
            .0
            .ended
            .set(ended.err().map(|e| (e.failure(), e.to_string())))
            .is_ok();
        if first {
            // Under the lock the waiters check under, so that none misses the record.
            let _guard = self.0.lock.lock().unwrap_or_else(PoisonError::into_inner);
            self.0.changed.notify_all();
        }
    }

    /// Releases the backend's lock `guard`, then waits until the outcome is recorded; the answer
    /// of a step of the group: `Ok` when it committed, else a storage error of the same kind,
    /// saying what the group was doing (`context`).
    pub fn wait<T>(&self, guard: MutexGuard<'_, T>, context: &'static str) -> Result<(), Error> {
        drop(guard);
        let mut waiting = self.0.lock.lock().unwrap_or_else(PoisonError::into_inner);
        while self.0.ended.get().is_none() {
            waiting = self
                .0
                .changed
                .wait(waiting)
                .unwrap_or_else(PoisonError::into_inner);
        }
        drop(waiting);
        match self.0.ended.get() {
            Some(Some((failure, message))) => Err(Error::storage(
                *failure,
                context,
                std::io::Error::other(message.clone()),
            )),
            _ => Ok(()),
        }
    }
}

/// Whether the step that would commit its group of durable writes waits for more steps first.
///
/// A step commits its group as soon as no other step waits for the write lock. With several
/// writers that is often too early: the writers whose steps the last sync acknowledged are
/// still between two calls (masking, building the next record) when the next group's first step
/// arrives, so groups alternate between one step and the rest, and every other sync carries a
/// single write. The pacer remembers how many steps each of the last eight committed groups
/// held; a group that holds fewer than the largest of them waits for steps to join it, for at
/// most half of a recent commit's duration ([`CommitPacer::MAX_WAIT`] at most). One writer never
/// waits (its groups all hold one step), a wait costs at most half the sync it may save, and
/// once writers leave, the larger groups they made are forgotten after eight commits.
#[derive(Debug, Default)]
pub struct CommitPacer {
    /// Steps in each of the last eight committed groups, a byte each (at most 255), newest in
    /// the low byte.
    recent_groups: AtomicU64,
    /// A moving average of recent commits' durations, in nanoseconds (0: none measured yet).
    commit_nanos: AtomicU64,
}

impl CommitPacer {
    /// The longest a group waits for more steps.
    pub const MAX_WAIT: Duration = Duration::from_millis(2);

    /// A pacer that has seen no commit: nothing waits until one is recorded.
    pub fn new() -> Self {
        Self::default()
    }

    /// How long a group of `steps` that would commit now should wait for more, if at all.
    pub fn wait_for(&self, steps: usize) -> Option<Duration> {
        let recent = self.recent_groups.load(Ordering::Relaxed).to_le_bytes();
        if steps >= usize::from(recent.into_iter().max().unwrap_or(0)) {
            return None;
        }
        let half = self.commit_nanos.load(Ordering::Relaxed) / 2;
        (half > 0).then(|| Duration::from_nanos(half).min(Self::MAX_WAIT))
    }

    /// Records a committed group of `steps` whose commit took `took`.
    pub fn committed(&self, steps: usize, took: Duration) {
        let steps = u64::try_from(steps.min(255)).unwrap_or(255);
        let recent = self.recent_groups.load(Ordering::Relaxed);
        self.recent_groups
            .store(recent << 8 | steps, Ordering::Relaxed);
        let new = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
        let old = self.commit_nanos.load(Ordering::Relaxed);
        let average = if old == 0 {
            new
        } else {
            old - old / 8 + new / 8
        };
        self.commit_nanos.store(average, Ordering::Relaxed);
    }

    /// With the group of `outcome` about to be committed by this step and `guard` locking the
    /// writer: waits up to `wait_for`'s answer for `steps` with the lock released, so that other
    /// steps join the group, until the group has ended (another step committed it) or the time
    /// is up; `guard` locked again. The caller commits the group if it has not ended.
    pub fn hold<'a, T>(
        &self,
        guard: MutexGuard<'a, T>,
        condvar: &Condvar,
        steps: usize,
        outcome: &GroupOutcome,
    ) -> MutexGuard<'a, T> {
        match self.wait_for(steps) {
            None => guard,
            Some(wait) => {
                condvar
                    .wait_timeout_while(guard, wait, |_| !outcome.is_set())
                    .unwrap_or_else(PoisonError::into_inner)
                    .0
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use memory_core::{
        AgentMemoryId, CredentialId, MemberId, MemoryText, RankingData, StoredEmbedding, Timestamp,
        WorkspaceId,
    };
    use proptest::prelude::*;

    use super::*;

    /// A key space over a map, whose values tests change at will (as another process would).
    struct Map(BTreeMap<Vec<u8>, Vec<u8>>);

    impl KvRead for Map {
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
            let entries: Vec<_> = self
                .0
                .range(start.to_vec()..end.to_vec())
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            let mut visit_one = |(k, v): &(Vec<u8>, Vec<u8>)| visit(k, v);
            if reverse {
                entries.iter().rev().take_while(|e| visit_one(e)).count();
            } else {
                entries.iter().take_while(|e| visit_one(e)).count();
            }
            Ok(())
        }
    }

    /// A version whose text, supersession and vector vary with `variant`.
    fn version(variant: u8) -> Vec<u8> {
        let memory = AgentMemory {
            id: AgentMemoryId::parse("amem_1").unwrap(),
            workspace: WorkspaceId::new("ws").unwrap(),
            member: MemberId::new("m").unwrap(),
            credential: CredentialId::new("c").unwrap(),
            namespace: "ns".into(),
            key: None,
            text: MemoryText::mask(&format!("note {variant}")).0,
            collection_id: None,
            version: 1,
            citations: vec![],
            created_at: Timestamp::from_millis(5).unwrap(),
            superseded_at: (variant % 2 == 1).then(|| Timestamp::from_millis(9).unwrap()),
            ranking: RankingData {
                terms: [("note", 1)].into_iter().collect(),
                length: 2,
                embedding: Some(StoredEmbedding {
                    model: "m1".into(),
                    vector: vec![f32::from(variant), 0.5],
                }),
            },
        };
        crate::codec::encode(&memory).unwrap()
    }

    /// Every version read, decoded plainly.
    fn plain(map: &Map, reverse: bool) -> Result<Vec<(Vec<u8>, AgentMemory)>, String> {
        let mut out = Vec::new();
        map.range_versions(b"", b"\xff", reverse, &mut |k, m| {
            out.push((k.to_vec(), (*m).clone()));
            true
        })
        .map_err(|e| e.to_string())?;
        Ok(out)
    }

    /// Every version read through `cache`.
    fn cached(
        map: &Map,
        cache: &VersionCache,
        reverse: bool,
    ) -> Result<Vec<(Vec<u8>, AgentMemory)>, String> {
        let mut out = Vec::new();
        map.range_versions_cached(b"", b"\xff", reverse, cache, &mut |k, m| {
            out.push((k.to_vec(), (*m).clone()));
            true
        })
        .map_err(|e| e.to_string())?;
        Ok(out)
    }

    proptest! {
        /// Whatever the values become between reads — rewritten, removed, corrupt — and however
        /// small the cache, a cached read hands out exactly what decoding the values gives.
        #[test]
        fn a_cached_read_is_a_plain_read(
            steps in proptest::collection::vec((0u8..6, 0u8..8, any::<bool>()), 1..60),
            capacity in prop_oneof![Just(0usize), 100usize..2_000, Just(VersionCache::CAPACITY)],
        ) {
            let cache = VersionCache::with_capacity(capacity);
            let mut map = Map(BTreeMap::new());
            for (key, variant, reverse) in steps {
                let key = vec![b'v', key];
                match variant {
                    6 => {
                        map.0.remove(&key);
                    }
                    7 => {
                        map.0.insert(key, b"not a version".to_vec());
                    }
                    v => {
                        map.0.insert(key, version(v));
                    }
                }
                prop_assert_eq!(cached(&map, &cache, reverse), plain(&map, reverse));
            }
        }
    }

    #[test]
    fn the_pacer_holds_a_group_smaller_than_a_recent_one_for_half_a_commit() {
        let pacer = CommitPacer::new();
        // Nothing measured: nothing waits.
        assert_eq!(pacer.wait_for(1), None);
        // One writer: its groups hold one step each, and never wait.
        for _ in 0..20 {
            pacer.committed(1, Duration::from_micros(800));
        }
        assert_eq!(pacer.wait_for(1), None);
        // Eight writers made a group of eight: a smaller group waits half a commit.
        pacer.committed(8, Duration::from_micros(800));
        assert_eq!(pacer.wait_for(1), Some(Duration::from_micros(400)));
        assert_eq!(pacer.wait_for(7), Some(Duration::from_micros(400)));
        assert_eq!(pacer.wait_for(8), None);
        assert_eq!(pacer.wait_for(9), None);
        // Until seven more commits have come up short, the eight is remembered; then forgotten.
        for _ in 0..7 {
            pacer.committed(2, Duration::from_micros(800));
            assert!(pacer.wait_for(2).is_some());
        }
        pacer.committed(2, Duration::from_micros(800));
        assert_eq!(pacer.wait_for(2), None);
        assert!(pacer.wait_for(1).is_some());
        // A slow disk: the wait is capped.
        let slow = CommitPacer::new();
        slow.committed(300, Duration::from_secs(1));
        assert_eq!(slow.wait_for(1), Some(CommitPacer::MAX_WAIT));
        assert_eq!(slow.wait_for(254), Some(CommitPacer::MAX_WAIT));
        assert_eq!(slow.wait_for(255), None);
    }

    #[test]
    fn a_held_group_lets_other_steps_take_the_lock_and_ends_when_its_time_is_up() {
        let pacer = CommitPacer::new();
        pacer.committed(8, Duration::from_secs(60));
        let lock = std::sync::Mutex::new(());
        let condvar = Condvar::new();
        let outcome = GroupOutcome::new();
        std::thread::scope(|s| {
            let guard = lock.lock().unwrap();
            s.spawn(|| {
                // Takes the lock only once the holder released it to wait: another step
                // joining the group and committing it.
                let _guard = lock.lock().unwrap();
                outcome.set(Ok(()));
                condvar.notify_all();
            });
            // Had the lock stayed held, the commit could only come after the holds (up to ten
            // seconds of them, for a slow scheduler).
            let mut guard = guard;
            let mut holds = 0;
            while !outcome.is_set() && holds < 5_000 {
                guard = pacer.hold(guard, &condvar, 1, &outcome);
                holds += 1;
            }
            assert!(
                outcome.is_set(),
                "the lock was never released to the other step"
            );
            drop(guard);
        });
        // With nobody to commit it, the hold ends when its time is up.
        let alone = GroupOutcome::new();
        let start = std::time::Instant::now();
        drop(pacer.hold(lock.lock().unwrap(), &condvar, 1, &alone));
        assert!(!alone.is_set());
        assert!(start.elapsed() >= CommitPacer::MAX_WAIT);
    }
}
