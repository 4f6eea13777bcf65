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

mod ops;
mod reference;

use memory_core::{
    ApiError, MemoryStore, MemoryStoreId, MemoryVersionId, PiiPolicy, Precondition, StoreMemory,
    StoreMemoryId, Timestamp, WorkspaceId,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use store_trait::{MemoryChange, MemoryWrite, MemoryWriteOutcome, RedactOutcome, StoreBackend};

use crate::fixture::{cases_from_env, t, ws};
use ops::{
    CONTENTS, Content, Dest, NEVER, Op, PATHS, PREFIXES, Pre, SALTS, STORE_IDS, Source, Step,
    StoreIx, Target, WORKSPACES, Writer, actor, path, sha, steps_strategy, store_id_of,
    workspace_of,
};
use reference::Model;

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
