//! The agent file interface over a session's mounts (`fs.list`, `fs.read`, `fs.write`,
//! `fs.delete`, `fs.rename`), acting as `session_actor`.
//!
//! Order of checks: the body (`400 MEMORY_INVALID_REQUEST`) → the session (`404
//! SESSION_NOT_FOUND`) → the path against the session's mounts (`400 MEMORY_PATH_INVALID`, pure
//! parsing, before any store is read) → a write through a read-only mount (`403
//! MEMORY_STORE_READ_ONLY`) → for a write, a path with personal data in a `mask` or `reject`
//! store (`400 MEMORY_PATH_PERSONAL_DATA`, after a read of the store's policy and before any
//! memory is looked up) → the content size (`413`) → the store behind the mount (`404
//! MEMORY_STORE_NOT_FOUND`) → what the backend decides (`404` memory, `409` archived /
//! precondition / path conflict, `400` personal data). The path check covers the path of
//! `fs.write` (whether a memory is there or not) and the destination of `fs.rename`; reads,
//! deletes and the source of a rename are not checked.
//!
//! Directories are implicit: `fs.list` of a path with nothing under it answers an empty listing,
//! `fs.list` of a file lists that one file, and `fs.read` / `fs.delete` of a directory is `404
//! MEMORY_NOT_FOUND` (there is no memory at that path). `fs.rename` moves one memory within its
//! mount; a rename across two mounts is refused with `400 MEMORY_PATH_INVALID` because it would
//! be a create in one store and a delete in another, not one atomic write.
//!
//! Besides the spec's five operations, four typed helpers serve a real file system on top of
//! this interface (the `memory-fuse` crate): [`StoreService::fs_stat_path`] (what is at a path,
//! with a memory's size and times but not its content), [`StoreService::fs_create_path`] (an
//! exclusive create: a memory already there is `409 MEMORY_PATH_CONFLICT`, never overwritten),
//! [`StoreService::fs_rename_replacing_path`] (POSIX `rename(2)`: a file at the destination
//! is replaced in the same transaction) and [`StoreService::fs_check_write_path`] (whether a
//! write may store a file at a path, asked when a name is made, before anything is stored).

use std::collections::BTreeSet;

use memory_core::session::{Access, FsEntry, FsListing, FsRead, MemoryStoreResource};
use memory_core::{
    ApiError, ErrorCode, MemoryStore, MemoryVersionId, Precondition, Session, StoreMemory,
    StoreMemoryMetadata, StorePath,
};
use serde::Serialize;

use super::mounts::{Roots, Target, resolve};
use super::requests::{FsPathRequest, FsRenameRequest, FsWriteRequest};
use crate::ops;
use crate::service::{StoreService, check_path, internal, prepare_content, trace_op};
use agent_memory_ops::caller::SessionCaller;
use agent_memory_ops::ops::{Body, GenAiOperation, Operation};

/// Memories read per backend call while a listing walks a store.
const LIST_BATCH: usize = 500;

/// Attempts of a create-or-update before a concurrent writer wins for good.
const WRITE_ATTEMPTS: usize = 4;

/// What is at a path of a session's mounts ([`StoreService::fs_stat_path`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FsStat {
    /// The directory of mounts, `/mnt/memory/`.
    Mounts,
    /// A directory: a mount root, or a path with memories under it (directories are implicit).
    Dir {
        /// True when the mount is read-only.
        read_only: bool,
    },
    /// A memory, without its content (read it with [`StoreService::fs_read_path`]).
    File {
        /// Its path, hash, size, current version and times.
        memory: StoreMemoryMetadata,
        /// True when the mount is read-only.
        read_only: bool,
    },
}

/// The `fs.delete` answer: serialized as `{}`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct FsDeleted {}

pub(crate) fn read_only() -> ApiError {
    ApiError::new(
        ErrorCode::MemoryStoreReadOnly,
        "the memory store is mounted read-only",
    )
}

fn memory_not_found() -> ApiError {
    ApiError::new(ErrorCode::MemoryNotFound, "memory not found")
}

fn not_a_memory_path() -> ApiError {
    ApiError::new(
        ErrorCode::MemoryPathInvalid,
        "the path names the mounts directory or a mount root, not a memory",
    )
}

/// The entries one level below `base` (the store root when `None`), from `memories` that all
/// lie under it; sorted by name.
pub(crate) fn entries_below(
    base: Option<&StorePath>,
    memories: &[StoreMemoryMetadata],
) -> FsListing {
    let skip = base.map_or(0, |b| b.segments().count());
    let mut dirs = BTreeSet::new();
    let mut entries = Vec::new();
    for memory in memories {
        let mut rest = memory.path.segments().skip(skip);
        let Some(name) = rest.next() else { continue };
        if rest.next().is_some() {
            dirs.insert(name.to_owned());
        } else {
            entries.push(FsEntry::File {
                name: name.to_owned(),
                size: memory.content_size_bytes,
            });
        }
    }
    entries.extend(dirs.into_iter().map(|name| FsEntry::Dir { name }));
    FsListing::sorted(entries)
}

impl StoreService {
    /// The session of `s` and where `path` leads in it.
    pub(crate) fn target(
        &self,
        s: &SessionCaller,
        path: &str,
        roots: Roots,
        directory: bool,
    ) -> Result<(Session, Target), ApiError> {
        let session = self.load_session(&s.workspace, &s.session)?;
        let target = resolve(&session, path, roots, directory)?;
        Ok((session, target))
    }

    /// The store behind a mount, or `404 MEMORY_STORE_NOT_FOUND` once it was deleted.
    pub(crate) fn mounted_store(
        &self,
        s: &SessionCaller,
        mount: &MemoryStoreResource,
    ) -> Result<MemoryStore, ApiError> {
        self.store_of(&s.workspace, &mount.memory_store_id)?
            .ok_or_else(|| ApiError::new(ErrorCode::MemoryStoreNotFound, "memory store not found"))
    }

    /// Every live memory of the mounted store at or under `prefix` (all when `None`), by path.
    pub(crate) fn memories_under(
        &self,
        s: &SessionCaller,
        mount: &MemoryStoreResource,
        prefix: Option<&StorePath>,
    ) -> Result<Vec<StoreMemoryMetadata>, ApiError> {
        let mut all: Vec<StoreMemoryMetadata> = Vec::new();
        loop {
            let batch = self
                .backend
                .list_memories(
                    &s.workspace,
                    &mount.memory_store_id,
                    prefix.map(StorePath::as_str),
                    all.last().map(|m| &m.path),
                    LIST_BATCH,
                )
                .map_err(internal)?;
            let done = batch.len() < LIST_BATCH;
            all.extend(batch);
            if done {
                return Ok(all);
            }
        }
    }

    /// The live memory at `path` in the mounted store.
    pub(crate) fn memory_at(
        &self,
        s: &SessionCaller,
        mount: &MemoryStoreResource,
        path: &StorePath,
    ) -> Result<Option<StoreMemory>, ApiError> {
        self.backend
            .memory_at_path(&s.workspace, &mount.memory_store_id, path)
            .map_err(internal)
    }

    // -----------------------------------------------------------------------------------------
    // Typed operations (the JSON ones below parse their body and call these)

    /// `fs.list` of `path`: the mounts as directories (`/mnt/memory/`), a mount's top-level
    /// entries, or the entries one level below a directory; sorted by name.
    pub fn fs_list_path(&self, s: &SessionCaller, path: &str) -> Result<FsListing, ApiError> {
        let result = self.fs_list_inner(s, path);
        trace_op("fs.list", &s.workspace, &result, |l| {
            tracing::info!(
                op = "fs.list",
                session_id = s.session.as_str(),
                entries = l.entries.len()
            );
        });
        result
    }

    fn fs_list_inner(&self, s: &SessionCaller, path: &str) -> Result<FsListing, ApiError> {
        let (session, target) = self.target(s, path, Roots::MountOnly, true)?;
        match target {
            Target::Mounts => Ok(FsListing::sorted(
                session
                    .memory_stores()
                    .map(|m| FsEntry::Dir {
                        name: m.slug().to_owned(),
                    })
                    .collect(),
            )),
            Target::MountRoot(mount) => {
                self.mounted_store(s, &mount)?;
                Ok(entries_below(None, &self.memories_under(s, &mount, None)?))
            }
            Target::Inside(mount, dir) => {
                self.mounted_store(s, &mount)?;
                if let Some(file) = self.memory_at(s, &mount, &dir)? {
                    return Ok(FsListing {
                        entries: vec![FsEntry::File {
                            name: file.path.file_name().to_owned(),
                            size: file.content_size_bytes,
                        }],
                    });
                }
                Ok(entries_below(
                    Some(&dir),
                    &self.memories_under(s, &mount, Some(&dir))?,
                ))
            }
        }
    }

    /// `fs.read` of `path` → its content and hash.
    pub fn fs_read_path(&self, s: &SessionCaller, path: &str) -> Result<FsRead, ApiError> {
        let result = self.fs_read_inner(s, path).map(|m| FsRead {
            content: m.content,
            content_sha256: m.content_sha256,
        });
        trace_op("fs.read", &s.workspace, &result, |r| {
            tracing::info!(
                op = "fs.read",
                session_id = s.session.as_str(),
                bytes = r.content.len()
            );
        });
        result
    }

    fn fs_read_inner(&self, s: &SessionCaller, path: &str) -> Result<StoreMemory, ApiError> {
        let (_, target) = self.target(s, path, Roots::MountOnly, false)?;
        let Target::Inside(mount, path) = target else {
            return Err(not_a_memory_path());
        };
        self.mounted_store(s, &mount)?;
        self.memory_at(s, &mount, &path)?
            .ok_or_else(memory_not_found)
    }

    /// `fs.write` of `path`: creates the memory, or updates the one there (with `precondition`
    /// when given: then a missing memory is `404 MEMORY_NOT_FOUND`, never a create).
    pub fn fs_write_path(
        &self,
        s: &SessionCaller,
        path: &str,
        content: String,
        precondition: Option<Precondition>,
    ) -> Result<StoreMemory, ApiError> {
        let result = self.fs_write_inner(s, path, content, precondition);
        trace_op("fs.write", &s.workspace, &result, |m| {
            tracing::info!(
                op = "fs.write",
                session_id = s.session.as_str(),
                memory_store_id = m.memory_store_id.as_str(),
                memory_id = m.id.as_str(),
                version_id = m.version_id.as_str(),
                bytes = m.content_size_bytes,
            );
        });
        result
    }

    fn fs_write_inner(
        &self,
        s: &SessionCaller,
        path: &str,
        content: String,
        precondition: Option<Precondition>,
    ) -> Result<StoreMemory, ApiError> {
        let (_, target) = self.target(s, path, Roots::MountOnly, false)?;
        let Target::Inside(mount, path) = target else {
            return Err(not_a_memory_path());
        };
        self.write_file(s, &mount, path, content, precondition)
    }

    /// Create-or-update of one file through a mount (shared with the memory tool). A concurrent
    /// create or delete of the same path is retried a few times.
    pub(crate) fn write_file(
        &self,
        s: &SessionCaller,
        mount: &MemoryStoreResource,
        path: StorePath,
        content: String,
        precondition: Option<Precondition>,
    ) -> Result<StoreMemory, ApiError> {
        if mount.access == Access::ReadOnly {
            return Err(read_only());
        }
        let ws = &s.workspace;
        let store = &mount.memory_store_id;
        // Before the path is looked up: the answer does not depend on a memory being there.
        self.check_new_path(ws, store, &path)?;
        let mut attempt = 0;
        loop {
            attempt += 1;
            let retry = attempt < WRITE_ATTEMPTS;
            let result = match self.memory_at(s, mount, &path)? {
                Some(existing) => self.update_memory(
                    ws,
                    store,
                    &existing.id,
                    Some(content.clone()),
                    None,
                    precondition.clone(),
                    s.actor(),
                ),
                None if precondition.is_some() => {
                    // Size first: 413 comes before 404.
                    prepare_content(None, content.clone())?;
                    self.mounted_store(s, mount)?;
                    return Err(memory_not_found());
                }
                None => self.create_memory(ws, store, path.clone(), content.clone(), s.actor()),
            };
            match result {
                Err(e)
                    if retry
                        && matches!(
                            e.code(),
                            ErrorCode::MemoryNotFound | ErrorCode::MemoryPathConflict
                        )
                        && self.lost_a_race(s, mount, &path, e.code())? =>
                {
                    continue;
                }
                other => return other,
            }
        }
    }

    /// True when a refusal came from a concurrent writer rather than the store's state: a create
    /// that met a memory now at the path, or an update whose memory is gone now.
    fn lost_a_race(
        &self,
        s: &SessionCaller,
        mount: &MemoryStoreResource,
        path: &StorePath,
        code: ErrorCode,
    ) -> Result<bool, ApiError> {
        let now = self.memory_at(s, mount, path)?;
        Ok(match code {
            ErrorCode::MemoryPathConflict => now.is_some(),
            ErrorCode::MemoryNotFound => true,
            _ => false,
        })
    }

    /// `fs.delete` of `path` (a `deleted` version; `404 MEMORY_NOT_FOUND` when no memory is there).
    pub fn fs_delete_path(&self, s: &SessionCaller, path: &str) -> Result<(), ApiError> {
        let result = self.fs_delete_inner(s, path);
        trace_op("fs.delete", &s.workspace, &result, |()| {
            tracing::info!(op = "fs.delete", session_id = s.session.as_str());
        });
        result
    }

    fn fs_delete_inner(&self, s: &SessionCaller, path: &str) -> Result<(), ApiError> {
        let (_, target) = self.target(s, path, Roots::MountOnly, false)?;
        let Target::Inside(mount, path) = target else {
            return Err(not_a_memory_path());
        };
        if mount.access == Access::ReadOnly {
            return Err(read_only());
        }
        self.mounted_store(s, &mount)?;
        let memory = self
            .memory_at(s, &mount, &path)?
            .ok_or_else(memory_not_found)?;
        self.write_change(
            &s.workspace,
            &mount.memory_store_id,
            store_trait::MemoryChange::Delete {
                memory_id: memory.id,
                precondition: None,
            },
            s.actor(),
            false,
        )?;
        Ok(())
    }

    /// `fs.rename` of `from` to `to` within one mount → the memory at its new path.
    pub fn fs_rename_path(
        &self,
        s: &SessionCaller,
        from: &str,
        to: &str,
    ) -> Result<StoreMemory, ApiError> {
        let result = self.fs_rename_inner(s, from, to, false);
        trace_op("fs.rename", &s.workspace, &result, |m| {
            tracing::info!(
                op = "fs.rename",
                session_id = s.session.as_str(),
                memory_id = m.id.as_str(),
                version_id = m.version_id.as_str(),
            );
        });
        result
    }

    /// Like [`Self::fs_rename_path`], but a memory at `to` is replaced as POSIX `rename(2)`
    /// replaces a file: its `deleted` version and the moved memory's `modified` version are
    /// written in one transaction (`MemoryChange::Replace`). A directory at `to` (memories under
    /// it) is still `409 MEMORY_PATH_CONFLICT`; `to` equal to `from` changes nothing.
    pub fn fs_rename_replacing_path(
        &self,
        s: &SessionCaller,
        from: &str,
        to: &str,
    ) -> Result<StoreMemory, ApiError> {
        let result = self.fs_rename_inner(s, from, to, true);
        trace_op("fs.rename", &s.workspace, &result, |m| {
            tracing::info!(
                op = "fs.rename",
                session_id = s.session.as_str(),
                memory_id = m.id.as_str(),
                version_id = m.version_id.as_str(),
                replacing = true,
            );
        });
        result
    }

    fn fs_rename_inner(
        &self,
        s: &SessionCaller,
        from: &str,
        to: &str,
        replacing: bool,
    ) -> Result<StoreMemory, ApiError> {
        let session = self.load_session(&s.workspace, &s.session)?;
        let source = resolve(&session, from, Roots::MountOnly, false)?;
        let dest = resolve(&session, to, Roots::MountOnly, false)?;
        let (Target::Inside(mount, from), Target::Inside(to_mount, to)) = (source, dest) else {
            return Err(not_a_memory_path());
        };
        if mount.memory_store_id != to_mount.memory_store_id {
            return Err(ApiError::new(
                ErrorCode::MemoryPathInvalid,
                "a memory cannot be renamed across mounts",
            ));
        }
        if mount.access == Access::ReadOnly {
            return Err(read_only());
        }
        let store = self.mounted_store(s, &mount)?;
        // The destination is a path the rename stores; the source is not checked, so a file
        // under a path with personal data can be moved to a clean one.
        check_path(Some(store.pii_policy), &to)?;
        let memory = self
            .memory_at(s, &mount, &from)?
            .ok_or_else(memory_not_found)?;
        if !replacing {
            return self.update_memory(
                &s.workspace,
                &mount.memory_store_id,
                &memory.id,
                None,
                Some(to),
                None,
                s.actor(),
            );
        }
        let replaced_version_id = MemoryVersionId::generate(&*self.ids, self.now())
            .map_err(|_| ApiError::new(ErrorCode::InternalError, "the id generator failed"))?;
        let change = store_trait::MemoryChange::Replace {
            memory_id: memory.id,
            path: to,
            precondition: None,
            replaced_version_id,
        };
        match self.write_change(
            &s.workspace,
            &mount.memory_store_id,
            change,
            s.actor(),
            false,
        )? {
            store_trait::MemoryWriteOutcome::Written {
                memory: Some(memory),
                ..
            }
            | store_trait::MemoryWriteOutcome::Unchanged { memory } => Ok(memory),
            _ => Err(ApiError::new(
                ErrorCode::InternalError,
                "the storage backend answered a rename without a memory",
            )),
        }
    }

    /// What is at `path`: the mounts directory, a directory (a mount root, or a path with
    /// memories under it), or a memory's metadata; `404 MEMORY_NOT_FOUND` when nothing is there.
    /// One point read of the session and one seek in the store; no content is read.
    pub fn fs_stat_path(&self, s: &SessionCaller, path: &str) -> Result<FsStat, ApiError> {
        let result = self.fs_stat_inner(s, path);
        trace_op("fs.stat", &s.workspace, &result, |_| {
            tracing::info!(op = "fs.stat", session_id = s.session.as_str());
        });
        result
    }

    fn fs_stat_inner(&self, s: &SessionCaller, path: &str) -> Result<FsStat, ApiError> {
        let (_, target) = self.target(s, path, Roots::MountOnly, true)?;
        match target {
            Target::Mounts => Ok(FsStat::Mounts),
            Target::MountRoot(mount) => {
                self.mounted_store(s, &mount)?;
                Ok(FsStat::Dir {
                    read_only: mount.access == Access::ReadOnly,
                })
            }
            Target::Inside(mount, path) => {
                self.mounted_store(s, &mount)?;
                let read_only = mount.access == Access::ReadOnly;
                // The path itself sorts before everything under it.
                let first = self
                    .backend
                    .list_memories(
                        &s.workspace,
                        &mount.memory_store_id,
                        Some(path.as_str()),
                        None,
                        1,
                    )
                    .map_err(internal)?;
                match first.into_iter().next() {
                    Some(memory) if memory.path == path => Ok(FsStat::File { memory, read_only }),
                    Some(_) => Ok(FsStat::Dir { read_only }),
                    None => Err(memory_not_found()),
                }
            }
        }
    }

    /// Whether a write may store a file at `path`, writing nothing: `404 SESSION_NOT_FOUND`,
    /// `400 MEMORY_PATH_INVALID` (a path inside no mount, or a mount root), `403
    /// MEMORY_STORE_READ_ONLY`, `404 MEMORY_STORE_NOT_FOUND`, and `400 MEMORY_PATH_PERSONAL_DATA`
    /// when the store masks or rejects personal data and the path holds some. A file system asks
    /// it where a name is made before anything is stored (a new file, a directory, the
    /// destination of a rename), so that the refusal reaches the program then rather than when
    /// the file is closed. One read of the session and one of the store.
    pub fn fs_check_write_path(&self, s: &SessionCaller, path: &str) -> Result<(), ApiError> {
        let result = self.fs_check_write_inner(s, path);
        trace_op("fs.check", &s.workspace, &result, |()| {
            tracing::info!(op = "fs.check", session_id = s.session.as_str());
        });
        result
    }

    fn fs_check_write_inner(&self, s: &SessionCaller, path: &str) -> Result<(), ApiError> {
        let (_, target) = self.target(s, path, Roots::MountOnly, false)?;
        let Target::Inside(mount, path) = target else {
            return Err(not_a_memory_path());
        };
        if mount.access == Access::ReadOnly {
            return Err(read_only());
        }
        let store = self.mounted_store(s, &mount)?;
        check_path(Some(store.pii_policy), &path)
    }

    /// Creates the memory at `path` with `content`, refusing with `409 MEMORY_PATH_CONFLICT`
    /// when a memory is already there (or above or under it): unlike `fs.write`, never an
    /// update, so a concurrent creator's memory is never overwritten.
    pub fn fs_create_path(
        &self,
        s: &SessionCaller,
        path: &str,
        content: String,
    ) -> Result<StoreMemory, ApiError> {
        let result = self.fs_create_inner(s, path, content);
        trace_op("fs.create", &s.workspace, &result, |m| {
            tracing::info!(
                op = "fs.create",
                session_id = s.session.as_str(),
                memory_store_id = m.memory_store_id.as_str(),
                memory_id = m.id.as_str(),
                version_id = m.version_id.as_str(),
                bytes = m.content_size_bytes,
            );
        });
        result
    }

    fn fs_create_inner(
        &self,
        s: &SessionCaller,
        path: &str,
        content: String,
    ) -> Result<StoreMemory, ApiError> {
        let (_, target) = self.target(s, path, Roots::MountOnly, false)?;
        let Target::Inside(mount, path) = target else {
            return Err(not_a_memory_path());
        };
        if mount.access == Access::ReadOnly {
            return Err(read_only());
        }
        self.create_memory(
            &s.workspace,
            &mount.memory_store_id,
            path,
            content,
            s.actor(),
        )
    }

    // -----------------------------------------------------------------------------------------
    // The spec's operations with their requests (typed, or read from JSON by the JSON adapter)

    /// Step 1 of an `fs.*` operation: the request, validated. A refusal is traced here, since
    /// the path operation it would have called is not.
    fn read_fs<'a, T: governance_policy::Request + Clone>(
        op: &'static str,
        s: &SessionCaller,
        input: Body<'a, T>,
    ) -> Result<std::borrow::Cow<'a, T>, ApiError> {
        input.read().inspect_err(|err| {
            trace_op::<()>(op, &s.workspace, &Err(err.clone()), |_| {});
        })
    }

    /// `fs.list {path}` → `{"entries":[…]}` (see [`Self::fs_list_path`]).
    pub fn fs_list(
        &self,
        s: &SessionCaller,
        request: &FsPathRequest,
    ) -> Result<FsListing, ApiError> {
        ops::FsList::run(self, s, Body::Typed(request))
    }
}

impl Operation for ops::FsList {
    const NAME: &'static str = "fs.list";
    const GEN_AI_OPERATION: Option<GenAiOperation> = Some(GenAiOperation::SearchMemory);
    type Service = StoreService;
    type Caller = SessionCaller;
    type Request = FsPathRequest;
    type Response = FsListing;

    fn execute(
        service: &StoreService,
        s: &SessionCaller,
        input: Body<'_, FsPathRequest>,
    ) -> Result<FsListing, ApiError> {
        let request = StoreService::read_fs(Self::NAME, s, input)?;
        service.fs_list_path(s, &request.path)
    }
}

impl StoreService {
    /// `fs.read {path}` → `{"content":…,"content_sha256":…}`.
    pub fn fs_read(&self, s: &SessionCaller, request: &FsPathRequest) -> Result<FsRead, ApiError> {
        ops::FsRead::run(self, s, Body::Typed(request))
    }
}

impl Operation for ops::FsRead {
    const NAME: &'static str = "fs.read";
    const GEN_AI_OPERATION: Option<GenAiOperation> = Some(GenAiOperation::SearchMemory);
    type Service = StoreService;
    type Caller = SessionCaller;
    type Request = FsPathRequest;
    type Response = FsRead;

    fn execute(
        service: &StoreService,
        s: &SessionCaller,
        input: Body<'_, FsPathRequest>,
    ) -> Result<FsRead, ApiError> {
        let request = StoreService::read_fs(Self::NAME, s, input)?;
        service.fs_read_path(s, &request.path)
    }
}

impl StoreService {
    /// `fs.write {path, content, precondition?}` → the memory (created or updated).
    pub fn fs_write(
        &self,
        s: &SessionCaller,
        request: &FsWriteRequest,
    ) -> Result<StoreMemory, ApiError> {
        ops::FsWrite::run(self, s, Body::Typed(request))
    }
}

impl Operation for ops::FsWrite {
    const NAME: &'static str = "fs.write";
    const GEN_AI_OPERATION: Option<GenAiOperation> = Some(GenAiOperation::UpdateMemory);
    type Service = StoreService;
    type Caller = SessionCaller;
    type Request = FsWriteRequest;
    type Response = StoreMemory;

    fn execute(
        service: &StoreService,
        s: &SessionCaller,
        input: Body<'_, FsWriteRequest>,
    ) -> Result<StoreMemory, ApiError> {
        let request = StoreService::read_fs(Self::NAME, s, input)?.into_owned();
        service.fs_write_path(s, &request.path, request.content, request.precondition)
    }
}

impl StoreService {
    /// `fs.delete {path}` → `{}`.
    pub fn fs_delete(
        &self,
        s: &SessionCaller,
        request: &FsPathRequest,
    ) -> Result<FsDeleted, ApiError> {
        ops::FsDelete::run(self, s, Body::Typed(request))
    }
}

impl Operation for ops::FsDelete {
    const NAME: &'static str = "fs.delete";
    const GEN_AI_OPERATION: Option<GenAiOperation> = Some(GenAiOperation::DeleteMemory);
    type Service = StoreService;
    type Caller = SessionCaller;
    type Request = FsPathRequest;
    type Response = FsDeleted;

    fn execute(
        service: &StoreService,
        s: &SessionCaller,
        input: Body<'_, FsPathRequest>,
    ) -> Result<FsDeleted, ApiError> {
        let request = StoreService::read_fs(Self::NAME, s, input)?;
        service.fs_delete_path(s, &request.path)?;
        Ok(FsDeleted {})
    }
}

impl StoreService {
    /// `fs.rename {from, to}` → the memory.
    pub fn fs_rename(
        &self,
        s: &SessionCaller,
        request: &FsRenameRequest,
    ) -> Result<StoreMemory, ApiError> {
        ops::FsRename::run(self, s, Body::Typed(request))
    }
}

impl Operation for ops::FsRename {
    const NAME: &'static str = "fs.rename";
    const GEN_AI_OPERATION: Option<GenAiOperation> = Some(GenAiOperation::UpdateMemory);
    type Service = StoreService;
    type Caller = SessionCaller;
    type Request = FsRenameRequest;
    type Response = StoreMemory;

    fn execute(
        service: &StoreService,
        s: &SessionCaller,
        input: Body<'_, FsRenameRequest>,
    ) -> Result<StoreMemory, ApiError> {
        let request = StoreService::read_fs(Self::NAME, s, input)?;
        service.fs_rename_path(s, &request.from, &request.to)
    }
}
