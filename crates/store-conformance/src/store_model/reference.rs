//! The reference model: every memory store, memory and version in three vectors, every rule a
//! linear pass over them, read literally from the spec and the trait's documentation.

use memory_core::{
    ApiError, ErrorCode, MemoryStore, MemoryStoreId, MemoryVersion, MemoryVersionId, Precondition,
    StoreMemory, StoreMemoryId, StorePath, Timestamp, VersionOperation, WorkspaceId,
};
use store_trait::{MemoryChange, MemoryWrite, MemoryWriteOutcome, RedactOutcome};

use super::ops::sha;

// ---------------------------------------------------------------------------------------------
// The model

/// A memory ever created and not removed with its store: live, or deleted (then `memory` is
/// what it was when deleted; restoring it keeps its `created_at`).
#[derive(Debug, Clone)]
pub(crate) struct Mem {
    pub(crate) workspace: WorkspaceId,
    pub(crate) memory: StoreMemory,
    pub(crate) live: bool,
}

/// Everything in three vectors; every rule below is a linear pass over them.
#[derive(Debug, Default)]
pub(crate) struct Model {
    pub(crate) stores: Vec<(WorkspaceId, MemoryStore)>,
    pub(crate) memories: Vec<Mem>,
    pub(crate) versions: Vec<(WorkspaceId, MemoryVersion)>,
}

pub(crate) fn refused(code: ErrorCode) -> MemoryWriteOutcome {
    MemoryWriteOutcome::Refused(ApiError::from(code))
}

/// The spec: "no live path may equal or lie under another live path". Two paths conflict when
/// the segments of one are a leading run of the segments of the other.
pub(crate) fn paths_conflict(a: &StorePath, b: &StorePath) -> bool {
    let a: Vec<&str> = a.as_str()[1..].split('/').collect();
    let b: Vec<&str> = b.as_str()[1..].split('/').collect();
    let n = a.len().min(b.len());
    a[..n] == b[..n]
}

/// The spec: "`path_prefix` matches whole leading segments only"; the trait adds that trailing
/// slashes are ignored and that the root matches everything.
pub(crate) fn under_prefix(p: &StorePath, prefix: Option<&str>) -> bool {
    let Some(prefix) = prefix else { return true };
    let wanted: Vec<&str> = prefix.split('/').filter(|s| !s.is_empty()).collect();
    let segments: Vec<&str> = p.as_str()[1..].split('/').collect();
    segments.len() >= wanted.len() && segments[..wanted.len()] == wanted[..]
}

/// `created_at` descending, then id descending.
pub(crate) fn newest_first<T>(items: &mut [T], key: impl Fn(&T) -> (Timestamp, String)) {
    items.sort_by_key(|item| std::cmp::Reverse(key(item)));
}

/// Strictly after the keyset position in `created_at` desc, id desc order.
pub(crate) fn after_position(at: Timestamp, id: &str, after: Option<(Timestamp, &str)>) -> bool {
    after.is_none_or(|(t, aid)| at < t || (at == t && id.as_bytes() < aid.as_bytes()))
}

pub(crate) fn precondition_fails(
    precondition: Option<&Precondition>,
    current: &StoreMemory,
) -> bool {
    match precondition {
        None => false,
        Some(Precondition::ContentSha256 { content_sha256 }) => {
            *content_sha256 != current.content_sha256
        }
    }
}

/// A memory as the spec describes it: hash and size of the content.
pub(crate) fn memory_object(
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
pub(crate) fn snapshot(
    w: &MemoryWrite,
    memory: &StoreMemory,
    operation: VersionOperation,
) -> MemoryVersion {
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
pub(crate) fn deleted(
    w: &MemoryWrite,
    id: &MemoryVersionId,
    current: &StoreMemory,
) -> MemoryVersion {
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
    pub(crate) fn store(
        &self,
        workspace: &WorkspaceId,
        id: &MemoryStoreId,
    ) -> Option<&MemoryStore> {
        self.stores
            .iter()
            .find(|(w, s)| w == workspace && s.id == *id)
            .map(|(_, s)| s)
    }

    /// A memory of the store, live or deleted.
    pub(crate) fn memory(
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
    pub(crate) fn live(&self, workspace: &WorkspaceId, store: &MemoryStoreId) -> Vec<&StoreMemory> {
        self.memories
            .iter()
            .filter(|m| m.live && m.workspace == *workspace && m.memory.memory_store_id == *store)
            .map(|m| &m.memory)
            .collect()
    }

    pub(crate) fn live_memory(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        id: &StoreMemoryId,
    ) -> Option<&StoreMemory> {
        self.live(workspace, store)
            .into_iter()
            .find(|m| m.id == *id)
    }

    pub(crate) fn version(
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
    pub(crate) fn path_taken(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        path: &StorePath,
        except: &StoreMemoryId,
    ) -> bool {
        self.path_taken_except(workspace, store, path, &[except])
    }

    /// [`Self::path_taken`] with several memories excepted.
    pub(crate) fn path_taken_except(
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

    pub(crate) fn create_store(&mut self, workspace: &WorkspaceId, store: &MemoryStore) {
        self.stores.push((workspace.clone(), store.clone()));
    }

    pub(crate) fn put_store(&mut self, workspace: &WorkspaceId, store: &MemoryStore) -> bool {
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

    pub(crate) fn delete_store(&mut self, workspace: &WorkspaceId, id: &MemoryStoreId) -> bool {
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

    pub(crate) fn list_stores(
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
    pub(crate) fn write(&mut self, w: &MemoryWrite) -> MemoryWriteOutcome {
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
    pub(crate) fn replace(&mut self, workspace: &WorkspaceId, memory: &StoreMemory, live: bool) {
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
    pub(crate) fn redact(
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

    pub(crate) fn memory_at_path(
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
    pub(crate) fn list_memories(
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

    pub(crate) fn list_versions(
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
