//! The model-based test of memory stores ([`StoreBackend`]): a reference model kept in plain
//! vectors (every answer recomputed by a linear pass, every rule a literal reading of the spec
//! and of the trait's documentation), random operation sequences applied to it and to a
//! backend, and every answer compared.
//!
//! The constant pools are small so that collisions are frequent: the same store id in both
//! workspaces, nested paths (`/a`, `/a/b`, `/a/b/c`) next to look-alikes (`/ab`, `/a-`, which
//! sorts between `/a` and `/a/b`), three contents, and a clock that often stands still so that
//! `created_at` ties make the id tie-break visible. Version ids carry a random leading salt, so
//! that id order differs from write order.

use memory_core::{
    Actor, ApiError, ErrorCode, MemoryStore, MemoryStoreId, MemoryVersion, MemoryVersionId,
    PiiPolicy, Precondition, SessionId, StoreMemory, StoreMemoryId, StorePath, Timestamp,
    VersionOperation, WorkspaceId, content_sha256,
};
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

use super::cases_from_env;
use super::fixture::{t, ws};
use store_trait::{MemoryChange, MemoryWrite, MemoryWriteOutcome, RedactOutcome, StoreBackend};

const WORKSPACES: [&str; 2] = ["ws1", "ws2"];
/// Byte order `memstore_1 < memstore_10 < memstore_2` is not creation order.
const STORE_IDS: [&str; 3] = ["memstore_1", "memstore_10", "memstore_2"];
/// Store `i` is `STORE_IDS[i % 3]` in `WORKSPACES[i / 3]`: stores 0 and 3 share an id.
const STORES: usize = WORKSPACES.len() * STORE_IDS.len();
/// Nested paths and look-alikes: `/a-` sorts between `/a` and `/a/b` (`-` < `/`), `/ab` after
/// every path under `/a`; neither lies under `/a`.
const PATHS: [&str; 8] = ["/a", "/a/b", "/a/b/c", "/a/c", "/a-", "/ab", "/b", "/b/a"];
/// `path_prefix` values: none, the root, `/a` with and without a trailing slash, deeper ones.
const PREFIXES: [Option<&str>; 8] = [
    None,
    Some("/"),
    Some("/a"),
    Some("/a/"),
    Some("/a/b"),
    Some("/ab"),
    Some("/b/"),
    Some("/a/b/c/d"),
];
const CONTENTS: [&str; 3] = ["", "x", "y"];
/// Leading id characters: ids of later writes do not always sort after earlier ones.
const SALTS: [&str; 4] = ["", "0", "5", "z"];
/// A content no memory ever has: its hash is always a wrong precondition.
const NEVER: &str = "never stored";

/// Which store: index into the six (workspace, store id) pairs.
type StoreIx = usize;

/// The memory a memory operation targets: an issued memory id (`pick` modulo their number), in
/// the store it was created in, or in `store` when given (mostly not found there).
#[derive(Debug, Clone, Copy)]
struct Target {
    pick: usize,
    store: Option<StoreIx>,
}

/// A `content_sha256` precondition, or none.
#[derive(Debug, Clone, Copy)]
enum Pre {
    None,
    /// The hash of the target's current content.
    Correct,
    /// A hash no content has.
    Wrong,
}

/// An update's new content.
#[derive(Debug, Clone, Copy)]
enum Content {
    /// Equal to the current content.
    Same,
    Pool(usize),
}

/// The version a restore names.
#[derive(Debug, Clone, Copy)]
enum Source {
    /// One of the target memory's own versions (any issued version when it has none).
    Own(usize),
    /// Any issued version (usually of another memory, or of another store).
    Any(usize),
}

/// Where a replace moves its memory.
#[derive(Debug, Clone, Copy)]
enum Dest {
    /// One of the constant paths.
    Path(usize),
    /// The path of a live memory of the target's store (any constant path when there is none),
    /// so that replacing one is frequent.
    Memory(usize),
}

/// Who writes (recorded as `created_by`).
#[derive(Debug, Clone, Copy)]
struct Writer {
    /// Index into the version-id salts.
    salt: usize,
    actor: usize,
}

/// One operation; indices pick from the constants above or from the ids issued so far.
#[derive(Debug, Clone)]
enum Op {
    CreateStore {
        store: StoreIx,
    },
    /// `put_store` with `archived_at` set (now) or cleared.
    PutStore {
        store: StoreIx,
        archived: bool,
    },
    DeleteStore {
        store: StoreIx,
    },
    GetStore {
        store: StoreIx,
    },
    ListStores {
        workspace: usize,
        include_archived: bool,
        /// (ms before now, store id): a keyset position that need not be a store's.
        after: Option<(i64, usize)>,
        limit: usize,
    },
    Create {
        store: StoreIx,
        path: usize,
        content: usize,
        personal_data: bool,
        by: Writer,
    },
    Update {
        target: Target,
        content: Option<Content>,
        path: Option<usize>,
        precondition: Pre,
        personal_data: bool,
        by: Writer,
    },
    Delete {
        target: Target,
        precondition: Pre,
        by: Writer,
    },
    Restore {
        target: Target,
        source: Source,
        precondition: Pre,
        /// Must be ignored: a restore is never refused for personal data.
        personal_data: bool,
        by: Writer,
    },
    /// A rename that replaces the memory at the destination (`MemoryChange::Replace`).
    Replace {
        target: Target,
        dest: Dest,
        precondition: Pre,
        /// Must be ignored: a replace writes no content.
        personal_data: bool,
        by: Writer,
        /// The salt of the replaced memory's `deleted` version id.
        replaced_salt: usize,
    },
    /// Redacts an issued version (`pick`) in its own store or in `store`.
    Redact {
        pick: usize,
        store: Option<StoreIx>,
    },
    GetMemory {
        target: Target,
    },
    MemoryAtPath {
        store: StoreIx,
        path: usize,
    },
    GetVersion {
        pick: usize,
        store: Option<StoreIx>,
    },
    /// Every page from `after` on.
    ListMemories {
        store: StoreIx,
        prefix: usize,
        after: Option<usize>,
        limit: usize,
    },
    /// Every page from the position of an issued version on.
    ListVersions {
        store: StoreIx,
        memory: Option<usize>,
        after: Option<usize>,
        limit: usize,
    },
}

/// One step: the clock moves by `advance` ms (0 and negative included), then `op` runs.
#[derive(Debug, Clone)]
struct Step {
    advance: i64,
    op: Op,
}

/// Mostly store 0 (so that memories meet) or store 3 (the same store id in the other
/// workspace), sometimes any of the six.
fn store_ix() -> impl Strategy<Value = StoreIx> {
    prop_oneof![6 => Just(0), 2 => Just(STORE_IDS.len()), 1 => 0..STORES]
}

fn target() -> impl Strategy<Value = Target> {
    (any::<usize>(), option::weighted(0.15, 0..STORES))
        .prop_map(|(pick, store)| Target { pick, store })
}

fn pre() -> impl Strategy<Value = Pre> {
    prop_oneof![Just(Pre::None), Just(Pre::Correct), Just(Pre::Wrong)]
}

fn writer() -> impl Strategy<Value = Writer> {
    (0..SALTS.len(), 0..ACTORS).prop_map(|(salt, actor)| Writer { salt, actor })
}

fn op_strategy() -> impl Strategy<Value = Op> {
    let content = prop_oneof![
        1 => Just(Content::Same),
        2 => (0..CONTENTS.len()).prop_map(Content::Pool),
    ];
    let source = prop_oneof![
        3 => any::<usize>().prop_map(Source::Own),
        1 => any::<usize>().prop_map(Source::Any),
    ];
    prop_oneof![
        6 => store_ix().prop_map(|store| Op::CreateStore { store }),
        1 => (store_ix(), any::<bool>()).prop_map(|(store, archived)| Op::PutStore { store, archived }),
        1 => store_ix().prop_map(|store| Op::DeleteStore { store }),
        1 => (0..STORES).prop_map(|store| Op::GetStore { store }),
        2 => (
            0..WORKSPACES.len(),
            any::<bool>(),
            option::of((0i64..12, 0..STORE_IDS.len())),
            1usize..5,
        )
            .prop_map(|(workspace, include_archived, after, limit)| Op::ListStores {
                workspace,
                include_archived,
                after,
                limit,
            }),
        8 => (
            store_ix(),
            0..PATHS.len(),
            0..CONTENTS.len(),
            prop::bool::weighted(0.15),
            writer(),
        )
            .prop_map(
            |(store, path, content, personal_data, by)| Op::Create {
                store,
                path,
                content,
                personal_data,
                by,
            }
        ),
        8 => (
            target(),
            option::of(content),
            option::of(0..PATHS.len()),
            pre(),
            prop::bool::weighted(0.15),
            writer(),
        )
            .prop_map(|(target, content, path, precondition, personal_data, by)| Op::Update {
                target,
                content,
                path,
                precondition,
                personal_data,
                by,
            }),
        4 => (target(), pre(), writer()).prop_map(|(target, precondition, by)| Op::Delete {
            target,
            precondition,
            by,
        }),
        6 => (target(), source, pre(), any::<bool>(), writer()).prop_map(
            |(target, source, precondition, personal_data, by)| Op::Restore {
                target,
                source,
                precondition,
                personal_data,
                by,
            }
        ),
        6 => (
            target(),
            prop_oneof![
                1 => (0..PATHS.len()).prop_map(Dest::Path),
                2 => any::<usize>().prop_map(Dest::Memory),
            ],
            pre(),
            prop::bool::weighted(0.15),
            writer(),
            0..SALTS.len(),
        )
            .prop_map(|(target, dest, precondition, personal_data, by, replaced_salt)| {
                Op::Replace {
                    target,
                    dest,
                    precondition,
                    personal_data,
                    by,
                    replaced_salt,
                }
            }),
        4 => (any::<usize>(), option::weighted(0.15, 0..STORES))
            .prop_map(|(pick, store)| Op::Redact { pick, store }),
        2 => target().prop_map(|target| Op::GetMemory { target }),
        2 => (store_ix(), 0..PATHS.len()).prop_map(|(store, path)| Op::MemoryAtPath { store, path }),
        2 => (any::<usize>(), option::weighted(0.15, 0..STORES))
            .prop_map(|(pick, store)| Op::GetVersion { pick, store }),
        3 => (store_ix(), 0..PREFIXES.len(), option::of(0..PATHS.len()), 1usize..5).prop_map(
            |(store, prefix, after, limit)| Op::ListMemories {
                store,
                prefix,
                after,
                limit,
            }
        ),
        3 => (
            store_ix(),
            option::of(any::<usize>()),
            option::of(any::<usize>()),
            1usize..5,
        )
            .prop_map(|(store, memory, after, limit)| Op::ListVersions {
                store,
                memory,
                after,
                limit,
            }),
    ]
}

fn step_strategy() -> impl Strategy<Value = Step> {
    // Mostly forward, often standing still; sometimes back, as a host's wall clock may go.
    let advance = prop_oneof![6 => 0i64..4, 1 => -3i64..0];
    (advance, op_strategy()).prop_map(|(advance, op)| Step { advance, op })
}

/// 1–100 random steps after creating store 0, so that most writes find a store.
fn steps_strategy() -> impl Strategy<Value = Vec<Step>> {
    vec(step_strategy(), 1..100).prop_map(|steps| {
        let first = Step {
            advance: 0,
            op: Op::CreateStore { store: 0 },
        };
        std::iter::once(first).chain(steps).collect()
    })
}

const ACTORS: usize = 3;

fn actor(i: usize) -> Actor {
    match i {
        0 => Actor::ApiActor {
            api_key_id: "key_1".into(),
        },
        1 => Actor::UserActor {
            user_id: "alice".into(),
        },
        _ => Actor::SessionActor {
            session_id: SessionId::parse("sesn_1").expect("session id"),
        },
    }
}

fn workspace_of(store: StoreIx) -> WorkspaceId {
    ws(WORKSPACES[store / STORE_IDS.len()])
}

fn store_id_of(store: StoreIx) -> MemoryStoreId {
    MemoryStoreId::parse(STORE_IDS[store % STORE_IDS.len()]).expect("store id")
}

fn path(i: usize) -> StorePath {
    StorePath::parse(PATHS[i]).expect("path")
}

fn sha(content: &str) -> String {
    content_sha256(content)
}

// ---------------------------------------------------------------------------------------------
// The model

/// A memory ever created and not removed with its store: live, or deleted (then `memory` is
/// what it was when deleted; restoring it keeps its `created_at`).
#[derive(Debug, Clone)]
struct Mem {
    workspace: WorkspaceId,
    memory: StoreMemory,
    live: bool,
}

/// Everything in three vectors; every rule below is a linear pass over them.
#[derive(Debug, Default)]
struct Model {
    stores: Vec<(WorkspaceId, MemoryStore)>,
    memories: Vec<Mem>,
    versions: Vec<(WorkspaceId, MemoryVersion)>,
}

fn refused(code: ErrorCode) -> MemoryWriteOutcome {
    MemoryWriteOutcome::Refused(ApiError::from(code))
}

/// The spec: "no live path may equal or lie under another live path". Two paths conflict when
/// the segments of one are a leading run of the segments of the other.
fn paths_conflict(a: &StorePath, b: &StorePath) -> bool {
    let a: Vec<&str> = a.as_str()[1..].split('/').collect();
    let b: Vec<&str> = b.as_str()[1..].split('/').collect();
    let n = a.len().min(b.len());
    a[..n] == b[..n]
}

/// The spec: "`path_prefix` matches whole leading segments only"; the trait adds that trailing
/// slashes are ignored and that the root matches everything.
fn under_prefix(p: &StorePath, prefix: Option<&str>) -> bool {
    let Some(prefix) = prefix else { return true };
    let wanted: Vec<&str> = prefix.split('/').filter(|s| !s.is_empty()).collect();
    let segments: Vec<&str> = p.as_str()[1..].split('/').collect();
    segments.len() >= wanted.len() && segments[..wanted.len()] == wanted[..]
}

/// `created_at` descending, then id descending.
fn newest_first<T>(items: &mut [T], key: impl Fn(&T) -> (Timestamp, String)) {
    items.sort_by_key(|item| std::cmp::Reverse(key(item)));
}

/// Strictly after the keyset position in `created_at` desc, id desc order.
fn after_position(at: Timestamp, id: &str, after: Option<(Timestamp, &str)>) -> bool {
    after.is_none_or(|(t, aid)| at < t || (at == t && id.as_bytes() < aid.as_bytes()))
}

fn precondition_fails(precondition: Option<&Precondition>, current: &StoreMemory) -> bool {
    match precondition {
        None => false,
        Some(Precondition::ContentSha256 { content_sha256 }) => {
            *content_sha256 != current.content_sha256
        }
    }
}

/// A memory as the spec describes it: hash and size of the content.
fn memory_object(
    id: &StoreMemoryId,
    store: &MemoryStoreId,
    path: &StorePath,
    content: &str,
    version: &MemoryVersionId,
    created_at: Timestamp,
    updated_at: Timestamp,
) -> StoreMemory {
    StoreMemory {
        id: id.clone(),
        kind: Default::default(),
        memory_store_id: store.clone(),
        path: path.clone(),
        content: content.to_owned(),
        content_sha256: sha(content),
        content_size_bytes: content.len() as u64,
        version_id: version.clone(),
        created_at,
        updated_at,
    }
}

/// The version a `created` or `modified` write leaves: the memory's path and content after it.
fn snapshot(w: &MemoryWrite, memory: &StoreMemory, operation: VersionOperation) -> MemoryVersion {
    MemoryVersion {
        id: w.version_id.clone(),
        kind: Default::default(),
        memory_store_id: w.store.clone(),
        memory_id: memory.id.clone(),
        operation,
        path: Some(memory.path.clone()),
        content: Some(memory.content.clone()),
        content_sha256: Some(memory.content_sha256.clone()),
        content_size_bytes: Some(memory.content_size_bytes),
        created_by: w.actor.clone(),
        created_at: w.at,
        redacted_at: None,
    }
}

/// "A `deleted` version keeps its `path`; its content, hash and size are null."
fn deleted(w: &MemoryWrite, id: &MemoryVersionId, current: &StoreMemory) -> MemoryVersion {
    MemoryVersion {
        id: id.clone(),
        kind: Default::default(),
        memory_store_id: w.store.clone(),
        memory_id: current.id.clone(),
        operation: VersionOperation::Deleted,
        path: Some(current.path.clone()),
        content: None,
        content_sha256: None,
        content_size_bytes: None,
        created_by: w.actor.clone(),
        created_at: w.at,
        redacted_at: None,
    }
}

impl Model {
    fn store(&self, workspace: &WorkspaceId, id: &MemoryStoreId) -> Option<&MemoryStore> {
        self.stores
            .iter()
            .find(|(w, s)| w == workspace && s.id == *id)
            .map(|(_, s)| s)
    }

    /// A memory of the store, live or deleted.
    fn memory(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        id: &StoreMemoryId,
    ) -> Option<&Mem> {
        self.memories.iter().find(|m| {
            m.workspace == *workspace && m.memory.memory_store_id == *store && m.memory.id == *id
        })
    }

    /// The store's live memories.
    fn live(&self, workspace: &WorkspaceId, store: &MemoryStoreId) -> Vec<&StoreMemory> {
        self.memories
            .iter()
            .filter(|m| m.live && m.workspace == *workspace && m.memory.memory_store_id == *store)
            .map(|m| &m.memory)
            .collect()
    }

    fn live_memory(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        id: &StoreMemoryId,
    ) -> Option<&StoreMemory> {
        self.live(workspace, store)
            .into_iter()
            .find(|m| m.id == *id)
    }

    fn version(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        id: &MemoryVersionId,
    ) -> Option<&MemoryVersion> {
        self.versions
            .iter()
            .find(|(w, v)| w == workspace && v.memory_store_id == *store && v.id == *id)
            .map(|(_, v)| v)
    }

    /// True when a live memory of the store other than `except` has `path`, lies above it or
    /// under it.
    fn path_taken(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        path: &StorePath,
        except: &StoreMemoryId,
    ) -> bool {
        self.path_taken_except(workspace, store, path, &[except])
    }

    /// [`Self::path_taken`] with several memories excepted.
    fn path_taken_except(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        path: &StorePath,
        except: &[&StoreMemoryId],
    ) -> bool {
        self.live(workspace, store)
            .into_iter()
            .any(|m| !except.contains(&&m.id) && paths_conflict(&m.path, path))
    }

    fn create_store(&mut self, workspace: &WorkspaceId, store: &MemoryStore) {
        self.stores.push((workspace.clone(), store.clone()));
    }

    fn put_store(&mut self, workspace: &WorkspaceId, store: &MemoryStore) -> bool {
        match self
            .stores
            .iter_mut()
            .find(|(w, s)| w == workspace && s.id == store.id)
        {
            Some((_, s)) => {
                *s = store.clone();
                true
            }
            None => false,
        }
    }

    fn delete_store(&mut self, workspace: &WorkspaceId, id: &MemoryStoreId) -> bool {
        if self.store(workspace, id).is_none() {
            return false;
        }
        self.stores
            .retain(|(w, s)| !(w == workspace && s.id == *id));
        self.memories
            .retain(|m| !(m.workspace == *workspace && m.memory.memory_store_id == *id));
        self.versions
            .retain(|(w, v)| !(w == workspace && v.memory_store_id == *id));
        true
    }

    fn list_stores(
        &self,
        workspace: &WorkspaceId,
        include_archived: bool,
        after: Option<&(Timestamp, MemoryStoreId)>,
        limit: usize,
    ) -> Vec<MemoryStore> {
        let mut found: Vec<MemoryStore> = self
            .stores
            .iter()
            .filter(|(w, _)| w == workspace)
            .map(|(_, s)| s)
            .filter(|s| include_archived || s.archived_at.is_none())
            .filter(|s| {
                after_position(
                    s.created_at,
                    s.id.as_str(),
                    after.map(|(t, id)| (*t, id.as_str())),
                )
            })
            .cloned()
            .collect();
        newest_first(&mut found, |s| (s.created_at, s.id.as_str().to_owned()));
        found.truncate(limit);
        found
    }

    /// The order of checks of the trait (`MemoryWriteOutcome::Refused`) and the spec: store not
    /// found, memory not found, version not found, archived, restore refusals, the no-op test,
    /// precondition, path conflict, personal data.
    fn write(&mut self, w: &MemoryWrite) -> MemoryWriteOutcome {
        // The trait's instant rule read literally: after the newest version of the store.
        let latest = self
            .versions
            .iter()
            .filter(|(ws, v)| *ws == w.workspace && v.memory_store_id == w.store)
            .map(|(_, v)| v.created_at)
            .max();
        let moved;
        let w = match latest {
            Some(latest) if w.at <= latest => {
                moved = MemoryWrite {
                    at: latest.plus_millis(1),
                    ..w.clone()
                };
                &moved
            }
            _ => w,
        };
        let workspace = &w.workspace;
        let Some(store) = self.store(workspace, &w.store).cloned() else {
            return refused(ErrorCode::MemoryStoreNotFound);
        };
        let archived = store.archived_at.is_some();
        match &w.change {
            MemoryChange::Create {
                memory_id,
                path,
                content,
            } => {
                if archived {
                    return refused(ErrorCode::MemoryStoreArchived);
                }
                if self.path_taken(workspace, &w.store, path, memory_id) {
                    return refused(ErrorCode::MemoryPathConflict);
                }
                if w.personal_data {
                    return refused(ErrorCode::MemoryPersonalData);
                }
                let memory = memory_object(
                    memory_id,
                    &w.store,
                    path,
                    content,
                    &w.version_id,
                    w.at,
                    w.at,
                );
                let version = snapshot(w, &memory, VersionOperation::Created);
                self.memories.push(Mem {
                    workspace: workspace.clone(),
                    memory: memory.clone(),
                    live: true,
                });
                self.versions.push((workspace.clone(), version.clone()));
                MemoryWriteOutcome::Written {
                    memory: Some(memory),
                    version,
                }
            }
            MemoryChange::Update {
                memory_id,
                content,
                path,
                precondition,
            } => {
                let Some(current) = self.live_memory(workspace, &w.store, memory_id).cloned()
                else {
                    return refused(ErrorCode::MemoryNotFound);
                };
                if archived {
                    return refused(ErrorCode::MemoryStoreArchived);
                }
                let new_path = path.clone().unwrap_or_else(|| current.path.clone());
                let new_content = content.clone().unwrap_or_else(|| current.content.clone());
                if new_path == current.path && new_content == current.content {
                    return MemoryWriteOutcome::Unchanged { memory: current };
                }
                if precondition_fails(precondition.as_ref(), &current) {
                    return MemoryWriteOutcome::Refused(ApiError::precondition_failed(
                        current.content_sha256,
                    ));
                }
                if self.path_taken(workspace, &w.store, &new_path, memory_id) {
                    return refused(ErrorCode::MemoryPathConflict);
                }
                if w.personal_data {
                    return refused(ErrorCode::MemoryPersonalData);
                }
                let next = memory_object(
                    memory_id,
                    &w.store,
                    &new_path,
                    &new_content,
                    &w.version_id,
                    current.created_at,
                    w.at,
                );
                self.replace(workspace, &next, true);
                let version = snapshot(w, &next, VersionOperation::Modified);
                self.versions.push((workspace.clone(), version.clone()));
                MemoryWriteOutcome::Written {
                    memory: Some(next),
                    version,
                }
            }
            MemoryChange::Delete {
                memory_id,
                precondition,
            } => {
                let Some(current) = self.live_memory(workspace, &w.store, memory_id).cloned()
                else {
                    return refused(ErrorCode::MemoryNotFound);
                };
                if archived {
                    return refused(ErrorCode::MemoryStoreArchived);
                }
                if precondition_fails(precondition.as_ref(), &current) {
                    return MemoryWriteOutcome::Refused(ApiError::precondition_failed(
                        current.content_sha256,
                    ));
                }
                let version = deleted(w, &w.version_id, &current);
                self.replace(workspace, &current, false);
                self.versions.push((workspace.clone(), version.clone()));
                MemoryWriteOutcome::Written {
                    memory: None,
                    version,
                }
            }
            MemoryChange::Replace {
                memory_id,
                path,
                precondition,
                replaced_version_id,
            } => {
                let Some(current) = self.live_memory(workspace, &w.store, memory_id).cloned()
                else {
                    return refused(ErrorCode::MemoryNotFound);
                };
                if archived {
                    return refused(ErrorCode::MemoryStoreArchived);
                }
                if *path == current.path {
                    return MemoryWriteOutcome::Unchanged { memory: current };
                }
                if precondition_fails(precondition.as_ref(), &current) {
                    return MemoryWriteOutcome::Refused(ApiError::precondition_failed(
                        current.content_sha256,
                    ));
                }
                // POSIX rename(2): a file at the destination is replaced; anything above or
                // under it is still a conflict.
                let replaced = self.memory_at_path(workspace, &w.store, path);
                let mut except = vec![memory_id];
                except.extend(replaced.as_ref().map(|m| &m.id));
                if self.path_taken_except(workspace, &w.store, path, &except) {
                    return refused(ErrorCode::MemoryPathConflict);
                }
                // Personal data is never checked: no content is written.
                if let Some(target) = &replaced {
                    let version = deleted(w, replaced_version_id, target);
                    self.replace(workspace, target, false);
                    self.versions.push((workspace.clone(), version));
                }
                let next = memory_object(
                    memory_id,
                    &w.store,
                    path,
                    &current.content,
                    &w.version_id,
                    current.created_at,
                    w.at,
                );
                self.replace(workspace, &next, true);
                let version = snapshot(w, &next, VersionOperation::Modified);
                self.versions.push((workspace.clone(), version.clone()));
                MemoryWriteOutcome::Written {
                    memory: Some(next),
                    version,
                }
            }
            MemoryChange::Restore {
                memory_id,
                source,
                precondition,
            } => {
                // A restore finds a deleted memory too.
                let Some(found) = self.memory(workspace, &w.store, memory_id).cloned() else {
                    return refused(ErrorCode::MemoryNotFound);
                };
                let Some(version) = self
                    .version(workspace, &w.store, source)
                    .filter(|v| v.memory_id == *memory_id)
                    .cloned()
                else {
                    return refused(ErrorCode::MemoryVersionNotFound);
                };
                if archived {
                    return refused(ErrorCode::MemoryStoreArchived);
                }
                if version.redacted_at.is_some() {
                    return refused(ErrorCode::MemoryVersionRedacted);
                }
                if version.operation == VersionOperation::Deleted {
                    return refused(ErrorCode::MemoryVersionNotRestorable);
                }
                let (Some(path), Some(content)) = (version.path, version.content) else {
                    unreachable!("a version neither redacted nor deleted has path and content")
                };
                let (operation, created_at) = if found.live {
                    let current = &found.memory;
                    if current.path == path && current.content == content {
                        return MemoryWriteOutcome::Unchanged {
                            memory: current.clone(),
                        };
                    }
                    if precondition_fails(precondition.as_ref(), current) {
                        return MemoryWriteOutcome::Refused(ApiError::precondition_failed(
                            current.content_sha256.clone(),
                        ));
                    }
                    (VersionOperation::Modified, current.created_at)
                } else {
                    // The precondition is ignored for a deleted memory.
                    (VersionOperation::Created, found.memory.created_at)
                };
                if self.path_taken(workspace, &w.store, &path, memory_id) {
                    return refused(ErrorCode::MemoryPathConflict);
                }
                // Personal data is never checked: the version was accepted when written.
                let next = memory_object(
                    memory_id,
                    &w.store,
                    &path,
                    &content,
                    &w.version_id,
                    created_at,
                    w.at,
                );
                self.replace(workspace, &next, true);
                let version = snapshot(w, &next, operation);
                self.versions.push((workspace.clone(), version.clone()));
                MemoryWriteOutcome::Written {
                    memory: Some(next),
                    version,
                }
            }
        }
    }

    /// Replaces the record of `memory` (which exists) and sets whether it is live.
    fn replace(&mut self, workspace: &WorkspaceId, memory: &StoreMemory, live: bool) {
        let record = self
            .memories
            .iter_mut()
            .find(|m| {
                m.workspace == *workspace
                    && m.memory.memory_store_id == memory.memory_store_id
                    && m.memory.id == memory.id
            })
            .expect("the memory is recorded");
        record.memory = memory.clone();
        record.live = live;
    }

    /// The spec's order of checks ("404 not found → 409 archived → …") and "Writes to an
    /// archived store → 409": store not found, version not found, then archived — for a version
    /// redacted before the archive too, as an update that would change nothing is refused in an
    /// archived store — then idempotence (an already redacted version comes back unchanged,
    /// `redacted_at` kept), then a live memory's current version is refused.
    fn redact(
        &mut self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        id: &MemoryVersionId,
        at: Timestamp,
    ) -> RedactOutcome {
        let Some(archived) = self
            .store(workspace, store)
            .map(|s| s.archived_at.is_some())
        else {
            return RedactOutcome::Refused(ApiError::from(ErrorCode::MemoryStoreNotFound));
        };
        let Some(version) = self.version(workspace, store, id).cloned() else {
            return RedactOutcome::Refused(ApiError::from(ErrorCode::MemoryVersionNotFound));
        };
        if archived {
            return RedactOutcome::Refused(ApiError::from(ErrorCode::MemoryStoreArchived));
        }
        if version.redacted_at.is_some() {
            return RedactOutcome::Redacted(version);
        }
        if self
            .live(workspace, store)
            .iter()
            .any(|m| m.version_id == *id)
        {
            return RedactOutcome::Refused(ApiError::from(ErrorCode::MemoryVersionIsCurrent));
        }
        let stored = self
            .versions
            .iter_mut()
            .find(|(w, v)| w == workspace && v.memory_store_id == *store && v.id == *id)
            .map(|(_, v)| v)
            .expect("the version is recorded");
        stored.path = None;
        stored.content = None;
        stored.content_sha256 = None;
        stored.content_size_bytes = None;
        stored.redacted_at = Some(at);
        RedactOutcome::Redacted(stored.clone())
    }

    fn memory_at_path(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        path: &StorePath,
    ) -> Option<StoreMemory> {
        self.live(workspace, store)
            .into_iter()
            .find(|m| m.path == *path)
            .cloned()
    }

    /// Live memories by path bytes, strictly after `after`, under `prefix`.
    fn list_memories(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        prefix: Option<&str>,
        after: Option<&StorePath>,
        limit: usize,
    ) -> Vec<StoreMemory> {
        let mut found: Vec<StoreMemory> = self
            .live(workspace, store)
            .into_iter()
            .filter(|m| under_prefix(&m.path, prefix))
            .filter(|m| after.is_none_or(|a| m.path.as_str().as_bytes() > a.as_str().as_bytes()))
            .cloned()
            .collect();
        found.sort_by(|a, b| a.path.as_str().as_bytes().cmp(b.path.as_str().as_bytes()));
        found.truncate(limit);
        found
    }

    fn list_versions(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        memory: Option<&StoreMemoryId>,
        after: Option<&(Timestamp, MemoryVersionId)>,
        limit: usize,
    ) -> Vec<MemoryVersion> {
        let mut found: Vec<MemoryVersion> = self
            .versions
            .iter()
            .filter(|(w, v)| w == workspace && v.memory_store_id == *store)
            .map(|(_, v)| v)
            .filter(|v| memory.is_none_or(|m| v.memory_id == *m))
            .filter(|v| {
                after_position(
                    v.created_at,
                    v.id.as_str(),
                    after.map(|(t, id)| (*t, id.as_str())),
                )
            })
            .cloned()
            .collect();
        newest_first(&mut found, |v| (v.created_at, v.id.as_str().to_owned()));
        found.truncate(limit);
        found
    }
}

// ---------------------------------------------------------------------------------------------
// Running

/// Refusals compare by code and by the extra fields (the precondition's current hash), not by
/// message: messages are the backend's wording.
fn comparable(e: &ApiError) -> ApiError {
    let mut out = ApiError::from(e.code());
    if let Some(hash) = e.current_content_sha256() {
        out = out.with_current_content_sha256(hash);
    }
    if let Some(seconds) = e.retry_after_seconds() {
        out = out.with_retry_after(seconds);
    }
    out
}

fn comparable_write(o: MemoryWriteOutcome) -> MemoryWriteOutcome {
    match o {
        MemoryWriteOutcome::Refused(e) => MemoryWriteOutcome::Refused(comparable(&e)),
        other => other,
    }
}

fn comparable_redact(o: RedactOutcome) -> RedactOutcome {
    match o {
        RedactOutcome::Refused(e) => RedactOutcome::Refused(comparable(&e)),
        other => other,
    }
}

/// Runs [`store_model_matches_backend_with`] with [`cases_from_env`] cases (1,000 by default).
pub fn store_model_matches_backend<B: StoreBackend>(make: &dyn Fn() -> B) {
    store_model_matches_backend_with(make, cases_from_env());
}

/// Applies `cases` random operation sequences to a fresh backend from `make` and to the
/// reference model, and compares every answer: store creation, archiving (and un-archiving)
/// through `put_store`, deletion, point reads and keyset-paginated lists across two workspaces
/// sharing store ids; memory creates, updates (content equal or not, renames, preconditions
/// none / correct / wrong, the personal-data flag), deletes, restores (of the memory's own
/// versions or another's) and replacing renames (often onto a live memory's path) over nested
/// paths, with every write outcome compared whole (refusals
/// by code and current hash); redaction; `get_memory`, `memory_at_path`, `get_version`;
/// `list_memories` with `path_prefix` and `list_versions` with or without a memory, every page
/// from a random keyset position on. The clock mostly advances by 0–3 ms per step (so it often
/// stands still across writes) and sometimes goes back by 1–3 ms; after every written version
/// the test checks that it is its store's newest (commit order is `created_at` order). Version
/// ids carry a random leading salt, so `created_at` ties between memories are broken by an id
/// order unlike write order. Panics with the shrunk failing sequence on a divergence.
pub fn store_model_matches_backend_with<B: StoreBackend>(make: &dyn Fn() -> B, cases: u32) {
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    if let Err(failure) = runner.run(&steps_strategy(), |steps| run_case(&make(), &steps)) {
        panic!("the store backend diverged from the model: {failure}");
    }
}

fn backend_ok<T>(result: Result<T, store_trait::Error>, step: usize) -> Result<T, TestCaseError> {
    result.map_err(|e| TestCaseError::fail(format!("step {step}: backend error: {e}")))
}

/// Ids handed out so far.
#[derive(Default)]
struct Issued {
    /// (the store it was created in, id): memories actually created.
    memories: Vec<(StoreIx, StoreMemoryId)>,
    /// (its store, id, `created_at`): versions actually written.
    versions: Vec<(StoreIx, MemoryVersionId, Timestamp)>,
    next_memory: usize,
    next_version: usize,
}

impl Issued {
    fn memory(&self, pick: usize) -> (StoreIx, StoreMemoryId) {
        if self.memories.is_empty() {
            (0, StoreMemoryId::parse("mem_none").expect("memory id"))
        } else {
            self.memories[pick % self.memories.len()].clone()
        }
    }

    fn version(&self, pick: usize) -> (StoreIx, MemoryVersionId, Timestamp) {
        if self.versions.is_empty() {
            (
                0,
                MemoryVersionId::parse("memver_none").expect("version id"),
                t(0),
            )
        } else {
            self.versions[pick % self.versions.len()].clone()
        }
    }

    /// A write to store `store` with a fresh version id.
    fn write(
        &mut self,
        store: StoreIx,
        change: MemoryChange,
        personal_data: bool,
        by: Writer,
        at: Timestamp,
    ) -> MemoryWrite {
        self.next_version += 1;
        let version_id =
            MemoryVersionId::parse(format!("memver_{}{:06}", SALTS[by.salt], self.next_version))
                .expect("version id");
        MemoryWrite {
            workspace: workspace_of(store),
            store: store_id_of(store),
            change,
            version_id,
            actor: actor(by.actor),
            at,
            personal_data,
        }
    }
}

/// Applies `w` to the backend and to the model and compares the outcomes.
fn check_write<B: StoreBackend + ?Sized>(
    backend: &B,
    model: &mut Model,
    issued: &mut Issued,
    step: usize,
    op: &Op,
    w: &MemoryWrite,
    store: StoreIx,
) -> Result<(), TestCaseError> {
    let got = backend_ok(backend.write_memory(w), step)?;
    let want = model.write(w);
    if let MemoryWriteOutcome::Written { version, .. } = &want {
        issued
            .versions
            .push((store, version.id.clone(), version.created_at));
        if let MemoryChange::Create { memory_id, .. } = &w.change {
            issued.memories.push((store, memory_id.clone()));
        }
        if let MemoryChange::Replace {
            replaced_version_id,
            ..
        } = &w.change
            && model
                .version(&w.workspace, &w.store, replaced_version_id)
                .is_some()
        {
            issued
                .versions
                .push((store, replaced_version_id.clone(), version.created_at));
        }
    }
    let written = match &got {
        MemoryWriteOutcome::Written { version, .. } => Some(version.clone()),
        _ => None,
    };
    prop_assert_eq!(
        comparable_write(got),
        comparable_write(want),
        "step {}: {:?} as {:?}",
        step,
        op,
        w
    );
    if let Some(version) = written {
        // Commit order is `created_at` order: nothing in the store is newer than the version
        // just written, and only the `deleted` version of a replace shares its instant.
        let newest = backend_ok(
            backend.list_versions(&w.workspace, &w.store, None, None, 3),
            step,
        )?;
        let same: Vec<&MemoryVersionId> = newest
            .iter()
            .filter(|v| v.created_at == version.created_at)
            .map(|v| &v.id)
            .collect();
        prop_assert!(
            newest.iter().all(|v| v.created_at <= version.created_at)
                && same.contains(&&version.id)
                && same.len() <= 2,
            "step {}: the version just written is not its store's newest: {:?}",
            step,
            newest
                .iter()
                .map(|v| (&v.id, v.created_at))
                .collect::<Vec<_>>()
        );
    }
    Ok(())
}

fn run_case<B: StoreBackend + ?Sized>(backend: &B, steps: &[Step]) -> Result<(), TestCaseError> {
    let mut model = Model::default();
    let mut issued = Issued::default();
    let mut now = 0_i64;

    for (step, Step { advance, op }) in steps.iter().enumerate() {
        now += advance;
        let at = t(now);
        // (store index, workspace, store id, memory id) of a target.
        let resolve = |issued: &Issued, target: &Target| {
            let (own, memory) = issued.memory(target.pick);
            let store = target.store.unwrap_or(own);
            (store, workspace_of(store), store_id_of(store), memory)
        };
        let precondition =
            |model: &Model, target: (&WorkspaceId, &MemoryStoreId, &StoreMemoryId), pre: Pre| {
                let current = model
                    .live_memory(target.0, target.1, target.2)
                    .map_or_else(|| sha(CONTENTS[1]), |m| m.content_sha256.clone());
                match pre {
                    Pre::None => None,
                    Pre::Correct => Some(Precondition::ContentSha256 {
                        content_sha256: current,
                    }),
                    Pre::Wrong => Some(Precondition::ContentSha256 {
                        content_sha256: sha(NEVER),
                    }),
                }
            };
        match *op {
            Op::CreateStore { store } => {
                let (w, id) = (workspace_of(store), store_id_of(store));
                // Creating an id that is stored is outside the contract ("a new memory
                // store"): the model reads the store back instead.
                if model.store(&w, &id).is_none() {
                    let record = MemoryStore {
                        id: id.clone(),
                        kind: Default::default(),
                        name: format!("Store {store}"),
                        description: format!("created at {now}"),
                        pii_policy: PiiPolicy::Allow,
                        created_at: at,
                        updated_at: at,
                        archived_at: None,
                    };
                    backend_ok(backend.create_store(&w, &record), step)?;
                    model.create_store(&w, &record);
                }
                let got = backend_ok(backend.get_store(&w, &id), step)?;
                prop_assert_eq!(
                    got,
                    model.store(&w, &id).cloned(),
                    "step {}: {:?}",
                    step,
                    op
                );
            }
            Op::PutStore { store, archived } => {
                let (w, id) = (workspace_of(store), store_id_of(store));
                let mut record = model.store(&w, &id).cloned().unwrap_or(MemoryStore {
                    id: id.clone(),
                    kind: Default::default(),
                    name: "Never created".into(),
                    description: String::new(),
                    pii_policy: PiiPolicy::Allow,
                    created_at: at,
                    updated_at: at,
                    archived_at: None,
                });
                record.name = format!("Store {store} at {now}");
                record.updated_at = at;
                record.archived_at = archived.then_some(at);
                let got = backend_ok(backend.put_store(&w, &record), step)?;
                prop_assert_eq!(got, model.put_store(&w, &record), "step {}: {:?}", step, op);
                let got = backend_ok(backend.get_store(&w, &id), step)?;
                prop_assert_eq!(
                    got,
                    model.store(&w, &id).cloned(),
                    "step {}: {:?}",
                    step,
                    op
                );
            }
            Op::DeleteStore { store } => {
                let (w, id) = (workspace_of(store), store_id_of(store));
                let got = backend_ok(backend.delete_store(&w, &id), step)?;
                prop_assert_eq!(got, model.delete_store(&w, &id), "step {}: {:?}", step, op);
            }
            Op::GetStore { store } => {
                let (w, id) = (workspace_of(store), store_id_of(store));
                let got = backend_ok(backend.get_store(&w, &id), step)?;
                prop_assert_eq!(
                    got,
                    model.store(&w, &id).cloned(),
                    "step {}: {:?}",
                    step,
                    op
                );
            }
            Op::ListStores {
                workspace,
                include_archived,
                after,
                limit,
            } => {
                let w = ws(WORKSPACES[workspace]);
                let mut after = after.map(|(back, i)| {
                    (
                        t(now - back),
                        MemoryStoreId::parse(STORE_IDS[i]).expect("store id"),
                    )
                });
                for page in 0.. {
                    let got = backend_ok(
                        backend.list_stores(&w, include_archived, after.as_ref(), limit),
                        step,
                    )?;
                    let want = model.list_stores(&w, include_archived, after.as_ref(), limit);
                    prop_assert_eq!(&got, &want, "step {}, page {}: {:?}", step, page, op);
                    let Some(last) = want.last() else { break };
                    after = Some((last.created_at, last.id.clone()));
                }
            }
            Op::Create {
                store,
                path: p,
                content,
                personal_data,
                by,
            } => {
                issued.next_memory += 1;
                let memory_id = StoreMemoryId::parse(format!("mem_{:04}", issued.next_memory))
                    .expect("memory id");
                let change = MemoryChange::Create {
                    memory_id,
                    path: path(p),
                    content: CONTENTS[content].to_owned(),
                };
                let write = issued.write(store, change, personal_data, by, at);
                check_write(backend, &mut model, &mut issued, step, op, &write, store)?;
            }
            Op::Update {
                target,
                content,
                path: p,
                precondition: pre,
                personal_data,
                by,
            } => {
                let (ix, w, s, memory_id) = resolve(&issued, &target);
                let current = model
                    .live_memory(&w, &s, &memory_id)
                    .map_or(CONTENTS[1], |m| m.content.as_str())
                    .to_owned();
                let change = MemoryChange::Update {
                    content: content.map(|c| match c {
                        Content::Same => current,
                        Content::Pool(i) => CONTENTS[i].to_owned(),
                    }),
                    path: p.map(path),
                    precondition: precondition(&model, (&w, &s, &memory_id), pre),
                    memory_id,
                };
                let write = issued.write(ix, change, personal_data, by, at);
                check_write(backend, &mut model, &mut issued, step, op, &write, ix)?;
            }
            Op::Delete {
                target,
                precondition: pre,
                by,
            } => {
                let (ix, w, s, memory_id) = resolve(&issued, &target);
                let change = MemoryChange::Delete {
                    precondition: precondition(&model, (&w, &s, &memory_id), pre),
                    memory_id,
                };
                let write = issued.write(ix, change, false, by, at);
                check_write(backend, &mut model, &mut issued, step, op, &write, ix)?;
            }
            Op::Restore {
                target,
                source,
                precondition: pre,
                personal_data,
                by,
            } => {
                let (ix, w, s, memory_id) = resolve(&issued, &target);
                let (own_store, _) = issued.memory(target.pick);
                let source = match source {
                    Source::Own(n) => {
                        let own: Vec<MemoryVersionId> = model
                            .versions
                            .iter()
                            .filter(|(vw, v)| {
                                *vw == workspace_of(own_store)
                                    && v.memory_store_id == store_id_of(own_store)
                                    && v.memory_id == memory_id
                            })
                            .map(|(_, v)| v.id.clone())
                            .collect();
                        if own.is_empty() {
                            issued.version(n).1
                        } else {
                            own[n % own.len()].clone()
                        }
                    }
                    Source::Any(n) => issued.version(n).1,
                };
                let change = MemoryChange::Restore {
                    precondition: precondition(&model, (&w, &s, &memory_id), pre),
                    memory_id,
                    source,
                };
                let write = issued.write(ix, change, personal_data, by, at);
                check_write(backend, &mut model, &mut issued, step, op, &write, ix)?;
            }
            Op::Replace {
                target,
                dest,
                precondition: pre,
                personal_data,
                by,
                replaced_salt,
            } => {
                let (ix, w, s, memory_id) = resolve(&issued, &target);
                let path = match dest {
                    Dest::Path(i) => path(i),
                    Dest::Memory(n) => {
                        let live = model.list_memories(&w, &s, None, None, usize::MAX);
                        if live.is_empty() {
                            path(n % PATHS.len())
                        } else {
                            live[n % live.len()].path.clone()
                        }
                    }
                };
                issued.next_version += 1;
                let replaced_version_id = MemoryVersionId::parse(format!(
                    "memver_{}{:06}",
                    SALTS[replaced_salt], issued.next_version
                ))
                .expect("version id");
                let change = MemoryChange::Replace {
                    precondition: precondition(&model, (&w, &s, &memory_id), pre),
                    memory_id,
                    path,
                    replaced_version_id,
                };
                let write = issued.write(ix, change, personal_data, by, at);
                check_write(backend, &mut model, &mut issued, step, op, &write, ix)?;
            }
            Op::Redact { pick, store } => {
                let (own, id, _) = issued.version(pick);
                let ix = store.unwrap_or(own);
                let (w, s) = (workspace_of(ix), store_id_of(ix));
                let got = backend_ok(backend.redact_version(&w, &s, &id, at), step)?;
                let want = model.redact(&w, &s, &id, at);
                prop_assert_eq!(
                    comparable_redact(got),
                    comparable_redact(want),
                    "step {}: {:?} of {:?}",
                    step,
                    op,
                    id
                );
            }
            Op::GetMemory { target } => {
                let (_, w, s, memory_id) = resolve(&issued, &target);
                let got = backend_ok(backend.get_memory(&w, &s, &memory_id), step)?;
                let want = model.live_memory(&w, &s, &memory_id).cloned();
                prop_assert_eq!(got, want, "step {}: {:?}", step, op);
            }
            Op::MemoryAtPath { store, path: p } => {
                let (w, s) = (workspace_of(store), store_id_of(store));
                let got = backend_ok(backend.memory_at_path(&w, &s, &path(p)), step)?;
                let want = model.memory_at_path(&w, &s, &path(p));
                prop_assert_eq!(got, want, "step {}: {:?}", step, op);
            }
            Op::GetVersion { pick, store } => {
                let (own, id, _) = issued.version(pick);
                let ix = store.unwrap_or(own);
                let (w, s) = (workspace_of(ix), store_id_of(ix));
                let got = backend_ok(backend.get_version(&w, &s, &id), step)?;
                let want = model.version(&w, &s, &id).cloned();
                prop_assert_eq!(got, want, "step {}: {:?} of {:?}", step, op, id);
            }
            Op::ListMemories {
                store,
                prefix,
                after,
                limit,
            } => {
                let (w, s) = (workspace_of(store), store_id_of(store));
                let prefix = PREFIXES[prefix];
                let mut after = after.map(path);
                for page in 0.. {
                    let got = backend_ok(
                        backend.list_memories(&w, &s, prefix, after.as_ref(), limit),
                        step,
                    )?;
                    let want: Vec<_> = model
                        .list_memories(&w, &s, prefix, after.as_ref(), limit)
                        .iter()
                        .map(StoreMemory::metadata)
                        .collect();
                    prop_assert_eq!(&got, &want, "step {}, page {}: {:?}", step, page, op);
                    let Some(last) = want.last() else { break };
                    after = Some(last.path.clone());
                }
            }
            Op::ListVersions {
                store,
                memory,
                after,
                limit,
            } => {
                let (w, s) = (workspace_of(store), store_id_of(store));
                let memory = memory.map(|pick| issued.memory(pick).1);
                let mut after = after.map(|pick| {
                    let (_, id, created_at) = issued.version(pick);
                    (created_at, id)
                });
                for page in 0.. {
                    let got = backend_ok(
                        backend.list_versions(&w, &s, memory.as_ref(), after.as_ref(), limit),
                        step,
                    )?;
                    let want = model.list_versions(&w, &s, memory.as_ref(), after.as_ref(), limit);
                    prop_assert_eq!(&got, &want, "step {}, page {}: {:?}", step, page, op);
                    let Some(last) = want.last() else { break };
                    after = Some((last.created_at, last.id.clone()));
                }
            }
        }
    }
    Ok(())
}
