//! The model-based test: a reference model kept in plain vectors (every answer recomputed by a
//! linear pass, so that it is obviously right), random operation sequences applied to it and to
//! a backend, and every answer compared.

use std::sync::Arc;

use memory_core::{
    AgentMemory, AgentMemoryId, ApiError, CredentialId, ErrorCode, RankingData, Settings,
    StoredEmbedding, Timestamp, WorkspaceId,
};
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

use super::fixture::{Note, cases_from_env, mid, owner, t, ws};
use store_trait::{
    Backend, MemberHistory, Owner, RememberOutcome, RememberState, RememberWrite, ScanQuery,
};

/// Two members of `ws1` and the first member again in `ws2`.
const OWNERS: [(&str, &str); 3] = [("ws1", "m1"), ("ws1", "m2"), ("ws2", "m1")];
const WORKSPACES: [&str; 2] = ["ws1", "ws2"];
/// `a_` and `ab`: a pattern-matching or prefix-matching backend would mix them up with `a`.
const NAMESPACES: [&str; 3] = ["a", "a_", "ab"];
const KEYS: [&str; 2] = ["k", "k_"];
const COLLECTIONS: [&str; 2] = ["c1", "c10"];
/// Document `i` is recorded in collection `i`.
const DOCUMENTS: [&str; 2] = ["d1", "d10"];
const CREDENTIALS: [&str; 2] = ["cr1", "cr2"];
/// The terms a note's text may hold (the recall index keeps one posting per term and version);
/// `b` and `bb` would collide in an index keyed by unterminated terms.
const TERMS: [&str; 4] = ["b", "bb", "gamma", "zeta"];
/// Embedding models: the index keeps each version's vector with its model.
const MODELS: [&str; 2] = ["hash", "model-a"];
/// The retention of remembers, in milliseconds of the test clock.
const RETENTION_MS: i64 = 30;

/// One step of a sequence; indices pick from the constants above.
#[derive(Debug, Clone)]
enum Op {
    Remember {
        owner: usize,
        credential: usize,
        namespace: usize,
        key: Option<usize>,
        collection: Option<usize>,
        cites: Option<usize>,
        /// Leading id digits, so that ids of one instant do not sort in write order.
        salt: u8,
        quota: u64,
        rate: usize,
        /// The rate window's length in ms: varying it makes the pruning of stored windows
        /// observable.
        window: i64,
        /// Which of [`TERMS`] the text holds (a bit each).
        words: u8,
        /// The embedding's model, if the note has one.
        vector: Option<usize>,
    },
    /// Replaces a version's embedding.
    SetEmbedding {
        owner: usize,
        pick: usize,
        model: usize,
    },
    /// Reads the owner's history (`Backend::history`) and compares it with the versions.
    History {
        owner: usize,
    },
    ForgetId {
        owner: usize,
        pick: usize,
    },
    ForgetKey {
        owner: usize,
        namespace: usize,
        key: usize,
    },
    PurgeExpired {
        workspace: usize,
        age: i64,
    },
    PurgeDocument {
        workspace: usize,
        document: usize,
    },
    PurgeCollection {
        workspace: usize,
        collection: usize,
    },
    DeleteOwner {
        owner: usize,
    },
    DeleteWorkspace {
        workspace: usize,
    },
    Scan {
        owner: usize,
        /// `valid_at` is this many ms before now (negative: after).
        back: i64,
        /// The expiry cut-off is this many ms before now.
        age: i64,
        namespace: Option<usize>,
        key: Option<usize>,
        collection: Option<usize>,
        limit: usize,
    },
    Get {
        owner: usize,
        pick: usize,
    },
    CurrentOfKey {
        owner: usize,
        namespace: usize,
        key: usize,
    },
    StoredVersions {
        owner: usize,
        age: i64,
    },
    Settings {
        workspace: usize,
        put: Option<(bool, u16)>,
    },
    Advance {
        ms: i64,
    },
}

fn op_strategy() -> impl Strategy<Value = Op> {
    let owner = 0..OWNERS.len();
    let workspace = 0..WORKSPACES.len();
    prop_oneof![
        10 => (
            owner.clone(),
            0..CREDENTIALS.len(),
            0..NAMESPACES.len(),
            option::of(0..KEYS.len()),
            option::of(0..COLLECTIONS.len()),
            option::of(0..DOCUMENTS.len()),
            0u8..4,
            1u64..10,
            1usize..6,
            1i64..12,
            0u8..16,
            option::of(0..MODELS.len()),
        )
            .prop_map(|(owner, credential, namespace, key, collection, cites, salt, quota, rate, window, words, vector)| Op::Remember {
                owner,
                credential,
                namespace,
                key,
                collection,
                cites,
                salt,
                quota,
                rate,
                window,
                words,
                vector,
            }),
        2 => (owner.clone(), any::<usize>(), 0..MODELS.len())
            .prop_map(|(owner, pick, model)| Op::SetEmbedding { owner, pick, model }),
        3 => owner.clone().prop_map(|owner| Op::History { owner }),
        // Mostly forward; 0 lets the clock stand still across writes and a negative step sets
        // it back, as a host's wall clock may be.
        4 => prop_oneof![6 => 0i64..4, 1 => -3i64..0].prop_map(|ms| Op::Advance { ms }),
        4 => (
            owner.clone(),
            -3i64..12,
            0i64..40,
            option::of(0..NAMESPACES.len()),
            option::of(0..KEYS.len()),
            option::of(0..COLLECTIONS.len()),
            1usize..5,
        )
            .prop_map(|(owner, back, age, namespace, key, collection, limit)| Op::Scan {
                owner,
                back,
                age,
                namespace,
                key,
                collection,
                limit,
            }),
        2 => (owner.clone(), any::<usize>()).prop_map(|(owner, pick)| Op::ForgetId { owner, pick }),
        2 => (owner.clone(), 0..NAMESPACES.len(), 0..KEYS.len())
            .prop_map(|(owner, namespace, key)| Op::ForgetKey { owner, namespace, key }),
        2 => (workspace.clone(), 0i64..40).prop_map(|(workspace, age)| Op::PurgeExpired { workspace, age }),
        1 => (workspace.clone(), 0..DOCUMENTS.len())
            .prop_map(|(workspace, document)| Op::PurgeDocument { workspace, document }),
        1 => (workspace.clone(), 0..COLLECTIONS.len())
            .prop_map(|(workspace, collection)| Op::PurgeCollection { workspace, collection }),
        1 => owner.clone().prop_map(|owner| Op::DeleteOwner { owner }),
        1 => workspace.clone().prop_map(|workspace| Op::DeleteWorkspace { workspace }),
        2 => (owner.clone(), any::<usize>()).prop_map(|(owner, pick)| Op::Get { owner, pick }),
        2 => (owner.clone(), 0..NAMESPACES.len(), 0..KEYS.len())
            .prop_map(|(owner, namespace, key)| Op::CurrentOfKey { owner, namespace, key }),
        2 => (owner, 0i64..40).prop_map(|(owner, age)| Op::StoredVersions { owner, age }),
        1 => (workspace, option::of((any::<bool>(), 1u16..=365)))
            .prop_map(|(workspace, put)| Op::Settings { workspace, put }),
    ]
}

/// The reference model: every stored version in one vector, the key numbering and the rate
/// windows in vectors of tuples.
#[derive(Debug, Default)]
struct Model {
    versions: Vec<AgentMemory>,
    /// (owner, namespace, key, highest version since the key was last forgotten).
    numbering: Vec<(Owner, String, String, u32)>,
    /// (workspace, credential, accepted instants, oldest first).
    windows: Vec<(WorkspaceId, CredentialId, Vec<Timestamp>)>,
    settings: Vec<(WorkspaceId, Settings)>,
}

fn owns(owner: &Owner, m: &AgentMemory) -> bool {
    m.workspace == owner.workspace && m.member == owner.member
}

fn of_key(owner: &Owner, namespace: &str, key: &str, m: &AgentMemory) -> bool {
    owns(owner, m) && m.namespace == namespace && m.key.as_deref() == Some(key)
}

/// Newest first: `created_at` desc, then `id` desc.
fn newest_first(memories: &mut [AgentMemory]) {
    memories.sort_by(|a, b| (b.created_at, &b.id).cmp(&(a.created_at, &a.id)));
}

impl Model {
    /// The key's current version: its one version that nothing superseded.
    fn current(&self, owner: &Owner, namespace: &str, key: &str) -> Option<&AgentMemory> {
        self.versions
            .iter()
            .find(|m| of_key(owner, namespace, key, m) && m.superseded_at.is_none())
    }

    fn last_version(&self, owner: &Owner, namespace: &str, key: &str) -> u32 {
        self.numbering
            .iter()
            .find(|(o, ns, k, _)| o == owner && ns == namespace && k == key)
            .map_or(0, |(_, _, _, n)| *n)
    }

    fn stored_versions(&self, owner: &Owner, cutoff: Timestamp) -> u64 {
        self.versions
            .iter()
            .filter(|m| owns(owner, m) && m.created_at > cutoff)
            .count() as u64
    }

    fn remember(
        &mut self,
        owner: &Owner,
        credential: &CredentialId,
        key: Option<(&str, &str)>,
        window_start: Timestamp,
        cutoff: Timestamp,
        decide: &mut dyn FnMut(&RememberState) -> Result<RememberWrite, ApiError>,
    ) -> RememberOutcome {
        let window = self
            .windows
            .iter()
            .find(|(w, c, _)| *w == owner.workspace && c == credential)
            .map(|(_, _, instants)| {
                instants
                    .iter()
                    .copied()
                    .filter(|t| *t > window_start)
                    .collect()
            })
            .unwrap_or_default();
        let state = RememberState {
            window,
            stored_versions: self.stored_versions(owner, cutoff),
            current: key.and_then(|(ns, k)| self.current(owner, ns, k)).cloned(),
            last_version: key.map_or(0, |(ns, k)| self.last_version(owner, ns, k)),
            settings: self.settings(&owner.workspace),
        };
        let mut write = match decide(&state) {
            Ok(write) => write,
            Err(refusal) => return RememberOutcome::Refused(refusal),
        };
        if let Some((ns, k)) = key {
            // The trait's rule read literally: after the largest instant any version of the key
            // still stored stands for.
            let latest = self
                .versions
                .iter()
                .filter(|m| of_key(owner, ns, k, m))
                .flat_map(|m| [Some(m.created_at), m.superseded_at])
                .flatten()
                .max();
            if let Some(latest) = latest
                && write.record.created_at <= latest
            {
                write.record.created_at = latest.plus_millis(1);
            }
        }
        let record = write.record;
        let mut superseded = None;
        if let Some((ns, k)) = key {
            if write.supersede_current {
                let current = self
                    .versions
                    .iter_mut()
                    .find(|m| of_key(owner, ns, k, m) && m.superseded_at.is_none());
                if let Some(current) = current {
                    current.superseded_at = Some(record.created_at);
                    superseded = Some(current.clone());
                }
            }
            let last = state.last_version.max(record.version);
            self.numbering
                .retain(|(o, n, kk, _)| !(o == owner && n == ns && kk == k));
            self.numbering
                .push((owner.clone(), ns.to_owned(), k.to_owned(), last));
        }
        let at = match self
            .windows
            .iter()
            .position(|(w, c, _)| *w == owner.workspace && c == credential)
        {
            Some(at) => at,
            None => {
                self.windows
                    .push((owner.workspace.clone(), credential.clone(), Vec::new()));
                self.windows.len() - 1
            }
        };
        let instants = &mut self.windows[at].2;
        instants.push(record.created_at);
        instants.sort();
        instants.retain(|t| *t > window_start);
        self.versions.push(record.clone());
        RememberOutcome::Written { record, superseded }
    }

    /// Removes the versions `doomed` selects; returns them newest first.
    fn remove(&mut self, doomed: impl Fn(&AgentMemory) -> bool) -> Vec<AgentMemory> {
        let (mut gone, kept): (Vec<_>, Vec<_>) = self.versions.drain(..).partition(|m| doomed(m));
        self.versions = kept;
        newest_first(&mut gone);
        gone
    }

    fn forget_key(&mut self, owner: &Owner, namespace: &str, key: &str) -> Vec<AgentMemory> {
        let removed = self.remove(|m| of_key(owner, namespace, key, m));
        if !removed.is_empty() {
            self.numbering
                .retain(|(o, ns, k, _)| !(o == owner && ns == namespace && k == key));
        }
        removed
    }

    fn forget_id(&mut self, owner: &Owner, id: &AgentMemoryId) -> Vec<AgentMemory> {
        let Some(found) = self
            .versions
            .iter()
            .find(|m| owns(owner, m) && m.id == *id)
            .cloned()
        else {
            return Vec::new();
        };
        match &found.key {
            Some(key) => self.forget_key(owner, &found.namespace, key),
            None => self.remove(|m| owns(owner, m) && m.id == *id),
        }
    }

    fn delete_owner(&mut self, owner: &Owner) -> u64 {
        self.numbering.retain(|(o, _, _, _)| o != owner);
        self.remove(|m| owns(owner, m)).len() as u64
    }

    fn delete_workspace(&mut self, workspace: &WorkspaceId) -> u64 {
        self.numbering
            .retain(|(o, _, _, _)| o.workspace != *workspace);
        self.remove(|m| m.workspace == *workspace).len() as u64
    }

    fn purge(&mut self, workspace: &WorkspaceId, doomed: impl Fn(&AgentMemory) -> bool) -> u64 {
        self.remove(|m| m.workspace == *workspace && doomed(m))
            .len() as u64
    }

    fn set_embedding(&mut self, owner: &Owner, id: &AgentMemoryId, e: &StoredEmbedding) -> bool {
        match self
            .versions
            .iter_mut()
            .find(|m| owns(owner, m) && m.id == *id)
        {
            Some(m) => {
                m.ranking.embedding = Some(e.clone());
                true
            }
            None => false,
        }
    }

    /// The owner's history as the versions themselves give it.
    fn history(&self, owner: &Owner) -> MemberHistory {
        MemberHistory::from_versions(
            self.versions
                .iter()
                .filter(|m| owns(owner, m))
                .cloned()
                .map(Arc::new)
                .collect(),
        )
    }

    fn scan(&self, owner: &Owner, query: &ScanQuery) -> Vec<AgentMemory> {
        let mut found: Vec<AgentMemory> = self
            .versions
            .iter()
            .filter(|m| owns(owner, m))
            .filter(|m| m.created_at > query.expired_cutoff)
            .filter(|m| {
                m.created_at <= query.valid_at && m.superseded_at.is_none_or(|s| s > query.valid_at)
            })
            .filter(|m| query.namespace.as_ref().is_none_or(|ns| m.namespace == *ns))
            .filter(|m| query.key.is_none() || m.key == query.key)
            .filter(|m| query.collection_id.is_none() || m.collection_id == query.collection_id)
            .filter(|m| {
                query
                    .after
                    .as_ref()
                    .is_none_or(|(at, id)| (m.created_at, &m.id) < (*at, id))
            })
            .cloned()
            .collect();
        newest_first(&mut found);
        found.truncate(query.limit);
        found
    }

    fn get(&self, owner: &Owner, id: &AgentMemoryId) -> Option<AgentMemory> {
        self.versions
            .iter()
            .find(|m| owns(owner, m) && m.id == *id)
            .cloned()
    }

    fn settings(&self, workspace: &WorkspaceId) -> Option<Settings> {
        self.settings
            .iter()
            .find(|(w, _)| w == workspace)
            .map(|(_, s)| *s)
    }

    fn put_settings(&mut self, workspace: &WorkspaceId, settings: Settings) {
        self.settings.retain(|(w, _)| w != workspace);
        self.settings.push((workspace.clone(), settings));
    }
}

/// Runs [`model_matches_backend_with`] with [`cases_from_env`] cases (1,000 by default).
pub fn model_matches_backend<B: Backend>(make: &dyn Fn() -> B) {
    model_matches_backend_with(make, cases_from_env());
}

/// Applies `cases` random operation sequences (remember with and without key across three
/// owners in two workspaces, with decisions refusing at small rate and quota limits; forget by id
/// and by key; the three purges; owner and workspace deletion; paginated scans with `asOf`,
/// retention and filters; point reads; settings; a clock that mostly advances by 0–3 ms, so it
/// often stands still across writes, and sometimes goes back by 1–3 ms) to a fresh backend from
/// `make` and to the reference model, and compares every answer, the state each remember
/// decision read included. After every keyed remember it checks that the acknowledged version
/// is the one valid version of its key at its own `created_at`, and the version it superseded
/// the one valid the millisecond before. Panics with the shrunk failing sequence on a divergence.
pub fn model_matches_backend_with<B: Backend>(make: &dyn Fn() -> B, cases: u32) {
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    if let Err(failure) = runner.run(&vec(op_strategy(), 1..100), |ops| run_case(&make(), &ops)) {
        panic!("the backend diverged from the model: {failure}");
    }
}

fn backend_ok<T>(result: Result<T, store_trait::Error>, step: usize) -> Result<T, TestCaseError> {
    result.map_err(|e| TestCaseError::fail(format!("step {step}: backend error: {e}")))
}

/// The ranking data of a note holding the [`TERMS`] that `words` picks (each one to three
/// times; with salt 3 the first one listed twice) and, with `vector`, an embedding of that
/// model.
fn ranking(words: u8, salt: u8, vector: Option<usize>) -> RankingData {
    let mut terms: Vec<(String, u32)> = TERMS
        .iter()
        .enumerate()
        .filter(|(i, _)| words & (1 << i) != 0)
        .map(|(i, t)| ((*t).to_owned(), 1 + (u32::from(salt) + i as u32) % 3))
        .collect();
    // Counts given with a repeated term (out of order) are added up when the counts are built.
    if salt == 3
        && let Some(first) = terms.first().cloned()
    {
        terms.push(first);
    }
    RankingData {
        length: terms.iter().map(|(_, n)| n).sum(),
        terms: terms.into(),
        embedding: vector.map(|m| StoredEmbedding {
            model: MODELS[m].to_owned(),
            vector: vec![f32::from(salt), 1.0, -0.5],
        }),
    }
}

/// The owner's history read from the backend (with every term, one never written and one
/// asked twice) against the model's versions: every row, vector, statistic and posting.
fn check_history<B: Backend + ?Sized>(
    backend: &B,
    model: &Model,
    owner: &Owner,
    step: usize,
) -> Result<(), TestCaseError> {
    let mut terms: Vec<String> = TERMS.iter().map(|t| (*t).to_owned()).collect();
    terms.push("absent".into());
    terms.push(TERMS[1].into());
    let got = backend_ok(backend.history(owner, &terms), step)?;
    let want = model.history(owner);
    prop_assert_eq!(
        &*got.versions,
        &want,
        "step {}: history of {:?}",
        step,
        owner
    );
    prop_assert_eq!(
        got.postings,
        want.derived_postings(&terms),
        "step {}: postings of {:?}",
        step,
        owner
    );
    Ok(())
}

fn run_case<B: Backend + ?Sized>(backend: &B, ops: &[Op]) -> Result<(), TestCaseError> {
    let mut model = Model::default();
    let mut now = 0_i64;
    let mut issued: Vec<AgentMemoryId> = Vec::new();
    let owner_at = |i: usize| owner(OWNERS[i].0, OWNERS[i].1);
    let pick = |issued: &[AgentMemoryId], n: usize| {
        if issued.is_empty() {
            mid(999_999)
        } else {
            issued[n % issued.len()].clone()
        }
    };

    for (step, op) in ops.iter().enumerate() {
        match *op {
            Op::Remember {
                owner,
                credential,
                namespace,
                key,
                collection,
                cites,
                salt,
                quota,
                rate,
                window,
                words,
                vector,
            } => {
                let id = AgentMemoryId::parse(format!("amem_{salt:02}{:06}", issued.len()))
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                issued.push(id.clone());
                let mut note = Note::new(&owner_at(owner), NAMESPACES[namespace], t(now))
                    .credential(CREDENTIALS[credential])
                    .window_start(t(now - window))
                    .expired_cutoff(t(now - RETENTION_MS));
                note.id = id;
                note = note.ranking(ranking(words, salt, vector));
                if let Some(k) = key {
                    note = note.key(KEYS[k]);
                }
                if let Some(c) = collection {
                    note = note.collection(COLLECTIONS[c]);
                }
                if let Some(d) = cites {
                    note = note.cites(DOCUMENTS[d], COLLECTIONS[d]);
                }
                let decide = |state: &RememberState| {
                    if state.window.len() >= rate {
                        return Err(ApiError::rate_limited(1));
                    }
                    if state.stored_versions >= quota {
                        return Err(ApiError::from(ErrorCode::AgentMemoryFull));
                    }
                    Ok(note.accept(state))
                };
                let mut backend_seen = None;
                let got = backend_ok(
                    note.remember_with(backend, &mut |state| {
                        backend_seen = Some(state.clone());
                        decide(state)
                    }),
                    step,
                )?;
                let mut model_seen = None;
                let key_pair = note.key.as_deref().map(|k| (note.namespace.as_str(), k));
                let want = model.remember(
                    &note.owner,
                    &note.credential,
                    key_pair,
                    note.window_start,
                    note.expired_cutoff,
                    &mut |state| {
                        model_seen = Some(state.clone());
                        decide(state)
                    },
                );
                prop_assert_eq!(
                    backend_seen,
                    model_seen,
                    "step {}: state read by {:?}",
                    step,
                    op
                );
                prop_assert_eq!(&got, &want, "step {}: {:?}", step, op);
                if let (RememberOutcome::Written { record, superseded }, Some(k)) =
                    (&got, &note.key)
                {
                    // The acknowledged version is the one valid version of its key at its own
                    // `created_at`, and the version it superseded the one just before.
                    let valid_at = |at: Timestamp| {
                        let query = ScanQuery {
                            namespace: Some(note.namespace.clone()),
                            key: Some(k.clone()),
                            ..ScanQuery::new(at, Timestamp::MIN, usize::MAX)
                        };
                        backend_ok(backend.scan(&note.owner, &query), step)
                    };
                    prop_assert_eq!(
                        valid_at(record.created_at)?,
                        vec![record.clone()],
                        "step {}: valid at the new version's created_at",
                        step
                    );
                    if let Some(old) = superseded {
                        prop_assert!(old.created_at < record.created_at, "step {}", step);
                        prop_assert_eq!(
                            valid_at(record.created_at.minus_millis(1))?,
                            vec![old.clone()],
                            "step {}: valid just before the new version",
                            step
                        );
                    }
                }
            }
            Op::ForgetId { owner, pick: n } => {
                let (o, id) = (owner_at(owner), pick(&issued, n));
                let got = backend_ok(backend.forget_id(&o, &id), step)?;
                prop_assert_eq!(got, model.forget_id(&o, &id), "step {}: {:?}", step, op);
            }
            Op::ForgetKey {
                owner,
                namespace,
                key,
            } => {
                let o = owner_at(owner);
                let got = backend_ok(
                    backend.forget_key(&o, NAMESPACES[namespace], KEYS[key]),
                    step,
                )?;
                prop_assert_eq!(
                    got,
                    model.forget_key(&o, NAMESPACES[namespace], KEYS[key]),
                    "step {}: {:?}",
                    step,
                    op
                );
            }
            Op::PurgeExpired { workspace, age } => {
                let (w, cutoff) = (ws(WORKSPACES[workspace]), t(now - age));
                let got = backend_ok(backend.purge_expired(&w, cutoff), step)?;
                prop_assert_eq!(
                    got,
                    model.purge(&w, |m| m.created_at <= cutoff),
                    "step {}: {:?}",
                    step,
                    op
                );
            }
            Op::PurgeDocument {
                workspace,
                document,
            } => {
                let w = ws(WORKSPACES[workspace]);
                let got = backend_ok(backend.purge_document(&w, DOCUMENTS[document]), step)?;
                let want = model.purge(&w, |m| {
                    m.citations
                        .iter()
                        .any(|c| c.document_id == DOCUMENTS[document])
                });
                prop_assert_eq!(got, want, "step {}: {:?}", step, op);
            }
            Op::PurgeCollection {
                workspace,
                collection,
            } => {
                let (w, c) = (ws(WORKSPACES[workspace]), COLLECTIONS[collection]);
                let got = backend_ok(backend.purge_collection(&w, c), step)?;
                let want = model.purge(&w, |m| {
                    m.collection_id.as_deref() == Some(c)
                        || m.citations.iter().any(|cite| cite.collection_id == c)
                });
                prop_assert_eq!(got, want, "step {}: {:?}", step, op);
            }
            Op::DeleteOwner { owner } => {
                let o = owner_at(owner);
                let got = backend_ok(backend.delete_owner(&o), step)?;
                prop_assert_eq!(got, model.delete_owner(&o), "step {}: {:?}", step, op);
            }
            Op::DeleteWorkspace { workspace } => {
                let w = ws(WORKSPACES[workspace]);
                let got = backend_ok(backend.delete_workspace(&w), step)?;
                prop_assert_eq!(got, model.delete_workspace(&w), "step {}: {:?}", step, op);
            }
            Op::Scan {
                owner,
                back,
                age,
                namespace,
                key,
                collection,
                limit,
            } => {
                let o = owner_at(owner);
                let mut query = ScanQuery {
                    namespace: namespace.map(|i| NAMESPACES[i].to_owned()),
                    key: key.map(|i| KEYS[i].to_owned()),
                    collection_id: collection.map(|i| COLLECTIONS[i].to_owned()),
                    ..ScanQuery::new(t(now - back), t(now - age), limit)
                };
                // Every page, until the model has nothing more.
                for page in 0.. {
                    let got = backend_ok(backend.scan(&o, &query), step)?;
                    let want = model.scan(&o, &query);
                    prop_assert_eq!(&got, &want, "step {}, page {}: {:?}", step, page, op);
                    let shared = backend_ok(backend.scan_shared(&o, &query), step)?;
                    prop_assert!(
                        shared.iter().map(|m| &**m).eq(&got),
                        "step {}, page {}: scan_shared differs from scan: {:?}",
                        step,
                        page,
                        op
                    );
                    let Some(last) = want.last() else { break };
                    query.after = Some((last.created_at, last.id.clone()));
                }
            }
            Op::Get { owner, pick: n } => {
                let (o, id) = (owner_at(owner), pick(&issued, n));
                let got = backend_ok(backend.get(&o, &id), step)?;
                prop_assert_eq!(got, model.get(&o, &id), "step {}: {:?}", step, op);
            }
            Op::CurrentOfKey {
                owner,
                namespace,
                key,
            } => {
                let o = owner_at(owner);
                let got = backend_ok(
                    backend.current_of_key(&o, NAMESPACES[namespace], KEYS[key]),
                    step,
                )?;
                let want = model.current(&o, NAMESPACES[namespace], KEYS[key]).cloned();
                prop_assert_eq!(got, want, "step {}: {:?}", step, op);
            }
            Op::StoredVersions { owner, age } => {
                let o = owner_at(owner);
                let got = backend_ok(backend.stored_versions(&o, t(now - age)), step)?;
                prop_assert_eq!(
                    got,
                    model.stored_versions(&o, t(now - age)),
                    "step {}: {:?}",
                    step,
                    op
                );
            }
            Op::Settings { workspace, put } => {
                let w = ws(WORKSPACES[workspace]);
                if let Some((enabled, days)) = put {
                    let settings = Settings {
                        agent_memories_enabled: enabled,
                        retention_days: days,
                    };
                    backend_ok(backend.put_settings(&w, &settings), step)?;
                    model.put_settings(&w, settings);
                }
                let got = backend_ok(backend.settings(&w), step)?;
                prop_assert_eq!(got, model.settings(&w), "step {}: {:?}", step, op);
            }
            Op::SetEmbedding {
                owner,
                pick: n,
                model: m,
            } => {
                let (o, id) = (owner_at(owner), pick(&issued, n));
                let e = StoredEmbedding {
                    model: MODELS[m].to_owned(),
                    vector: vec![step as f32, 0.25],
                };
                let got = backend_ok(backend.set_embedding(&o, &id, &e), step)?;
                prop_assert_eq!(
                    got,
                    model.set_embedding(&o, &id, &e),
                    "step {}: {:?}",
                    step,
                    op
                );
            }
            Op::History { owner } => check_history(backend, &model, &owner_at(owner), step)?,
            Op::Advance { ms } => now += ms,
        }
    }
    for (w, m) in OWNERS {
        check_history(backend, &model, &owner(w, m), ops.len())?;
    }
    Ok(())
}
