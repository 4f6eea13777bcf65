//! The operations of the memory-store model test: the small constant pools, the operation
//! types and their proptest strategies, and the conversions to ids and paths.

use memory_core::{Actor, MemoryStoreId, SessionId, StorePath, WorkspaceId, content_sha256};
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;

use crate::fixture::ws;

pub(crate) const WORKSPACES: [&str; 2] = ["ws1", "ws2"];
/// Byte order `memstore_1 < memstore_10 < memstore_2` is not creation order.
pub(crate) const STORE_IDS: [&str; 3] = ["memstore_1", "memstore_10", "memstore_2"];
/// Store `i` is `STORE_IDS[i % 3]` in `WORKSPACES[i / 3]`: stores 0 and 3 share an id.
pub(crate) const STORES: usize = WORKSPACES.len() * STORE_IDS.len();
/// Nested paths and look-alikes: `/a-` sorts between `/a` and `/a/b` (`-` < `/`), `/ab` after
/// every path under `/a`; neither lies under `/a`.
pub(crate) const PATHS: [&str; 8] = ["/a", "/a/b", "/a/b/c", "/a/c", "/a-", "/ab", "/b", "/b/a"];
/// `path_prefix` values: none, the root, `/a` with and without a trailing slash, deeper ones.
pub(crate) const PREFIXES: [Option<&str>; 8] = [
    None,
    Some("/"),
    Some("/a"),
    Some("/a/"),
    Some("/a/b"),
    Some("/ab"),
    Some("/b/"),
    Some("/a/b/c/d"),
];
pub(crate) const CONTENTS: [&str; 3] = ["", "x", "y"];
/// Leading id characters: ids of later writes do not always sort after earlier ones.
pub(crate) const SALTS: [&str; 4] = ["", "0", "5", "z"];
/// A content no memory ever has: its hash is always a wrong precondition.
pub(crate) const NEVER: &str = "never stored";

/// Which store: index into the six (workspace, store id) pairs.
pub(crate) type StoreIx = usize;

/// The memory a memory operation targets: an issued memory id (`pick` modulo their number), in
/// the store it was created in, or in `store` when given (mostly not found there).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Target {
    pub(crate) pick: usize,
    pub(crate) store: Option<StoreIx>,
}

/// A `content_sha256` precondition, or none.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Pre {
    None,
    /// The hash of the target's current content.
    Correct,
    /// A hash no content has.
    Wrong,
}

/// An update's new content.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Content {
    /// Equal to the current content.
    Same,
    Pool(usize),
}

/// The version a restore names.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Source {
    /// One of the target memory's own versions (any issued version when it has none).
    Own(usize),
    /// Any issued version (usually of another memory, or of another store).
    Any(usize),
}

/// Where a replace moves its memory.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Dest {
    /// One of the constant paths.
    Path(usize),
    /// The path of a live memory of the target's store (any constant path when there is none),
    /// so that replacing one is frequent.
    Memory(usize),
}

/// Who writes (recorded as `created_by`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Writer {
    /// Index into the version-id salts.
    pub(crate) salt: usize,
    pub(crate) actor: usize,
}

/// One operation; indices pick from the constants above or from the ids issued so far.
#[derive(Debug, Clone)]
pub(crate) enum Op {
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
pub(crate) struct Step {
    pub(crate) advance: i64,
    pub(crate) op: Op,
}

/// Mostly store 0 (so that memories meet) or store 3 (the same store id in the other
/// workspace), sometimes any of the six.
pub(crate) fn store_ix() -> impl Strategy<Value = StoreIx> {
    prop_oneof![6 => Just(0), 2 => Just(STORE_IDS.len()), 1 => 0..STORES]
}

pub(crate) fn target() -> impl Strategy<Value = Target> {
    (any::<usize>(), option::weighted(0.15, 0..STORES))
        .prop_map(|(pick, store)| Target { pick, store })
}

pub(crate) fn pre() -> impl Strategy<Value = Pre> {
    prop_oneof![Just(Pre::None), Just(Pre::Correct), Just(Pre::Wrong)]
}

pub(crate) fn writer() -> impl Strategy<Value = Writer> {
    (0..SALTS.len(), 0..ACTORS).prop_map(|(salt, actor)| Writer { salt, actor })
}

pub(crate) fn op_strategy() -> impl Strategy<Value = Op> {
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

pub(crate) fn step_strategy() -> impl Strategy<Value = Step> {
    // Mostly forward, often standing still; sometimes back, as a host's wall clock may go.
    let advance = prop_oneof![6 => 0i64..4, 1 => -3i64..0];
    (advance, op_strategy()).prop_map(|(advance, op)| Step { advance, op })
}

/// 1–100 random steps after creating store 0, so that most writes find a store.
pub(crate) fn steps_strategy() -> impl Strategy<Value = Vec<Step>> {
    vec(step_strategy(), 1..100).prop_map(|steps| {
        let first = Step {
            advance: 0,
            op: Op::CreateStore { store: 0 },
        };
        std::iter::once(first).chain(steps).collect()
    })
}

pub(crate) const ACTORS: usize = 3;

pub(crate) fn actor(i: usize) -> Actor {
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

pub(crate) fn workspace_of(store: StoreIx) -> WorkspaceId {
    ws(WORKSPACES[store / STORE_IDS.len()])
}

pub(crate) fn store_id_of(store: StoreIx) -> MemoryStoreId {
    MemoryStoreId::parse(STORE_IDS[store % STORE_IDS.len()]).expect("store id")
}

pub(crate) fn path(i: usize) -> StorePath {
    StorePath::parse(PATHS[i]).expect("path")
}

pub(crate) fn sha(content: &str) -> String {
    content_sha256(content)
}
