//! `InMemoryPassageSource`: a thread-safe passage source held in memory, for tests, the CLI and
//! replay scripts.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use memory_core::{MemberId, WorkspaceId, content_sha256};
use serde::{Deserialize, Serialize};

use crate::source::{Entity, PassageInfo, PassageLookup, PassageSource};

/// A passage as a script or test puts it (replay's `passage.put` body without `workspace`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Passage {
    /// The passage id, unique within the workspace.
    pub id: String,
    /// Its document.
    pub document_id: String,
    /// The document's collection.
    pub collection_id: String,
    /// The document's version.
    pub document_version: u64,
    /// The body.
    pub text: String,
    /// Entities the passage mentions.
    #[serde(default)]
    pub entities: Vec<Entity>,
}

impl Passage {
    /// A passage without entities.
    pub fn new(
        id: impl Into<String>,
        document_id: impl Into<String>,
        collection_id: impl Into<String>,
        document_version: u64,
        text: impl Into<String>,
    ) -> Self {
        Passage {
            id: id.into(),
            document_id: document_id.into(),
            collection_id: collection_id.into(),
            document_version,
            text: text.into(),
            entities: Vec::new(),
        }
    }

    /// This passage with `entities`.
    pub fn with_entities(mut self, entities: Vec<Entity>) -> Self {
        self.entities = entities;
        self
    }
}

#[derive(Debug)]
struct Stored {
    passage: Passage,
    /// The answer of a lookup that reports hashes, built once so that lookups share it.
    found: Arc<PassageInfo>,
}

#[derive(Debug, Default)]
struct Workspace {
    passages: HashMap<String, Stored>,
    /// Documents whose passages report gone but are kept.
    expired: BTreeSet<String>,
    /// (document, member) pairs the member cannot read.
    unreadable: BTreeSet<(String, MemberId)>,
}

impl Workspace {
    fn forget_documents(&mut self, documents: &BTreeSet<String>) {
        self.expired.retain(|d| !documents.contains(d));
        self.unreadable.retain(|(d, _)| !documents.contains(d));
    }
}

/// A [`PassageSource`] held in memory. Workspaces are independent: a passage id of one workspace
/// is not found from another.
///
/// By default lookups report the passage's SHA-256, as most hosts would;
/// [`with_hashes(false)`](Self::with_hashes) reports bodies instead, so that the library hashes.
/// Every [`lookup`](PassageSource::lookup) call is counted ([`lookups`](Self::lookups)).
///
/// It gives a [`generation`](PassageSource::generation) stamp: one counter for every workspace,
/// moved under the same lock as each change (any put, delete, expiry or read-access change), so
/// that recall may keep its verdicts while nothing changed.
#[derive(Debug)]
pub struct InMemoryPassageSource {
    state: Mutex<State>,
    report_hashes: bool,
    lookups: AtomicUsize,
}

#[derive(Debug, Default)]
struct State {
    workspaces: BTreeMap<WorkspaceId, Workspace>,
    /// Moved by every change, in the same critical section.
    generation: u64,
}

impl Default for InMemoryPassageSource {
    fn default() -> Self {
        Self::new()
    }
}

impl InMemoryPassageSource {
    /// An empty source that reports hashes.
    pub fn new() -> Self {
        InMemoryPassageSource {
            state: Mutex::new(State::default()),
            report_hashes: true,
            lookups: AtomicUsize::new(0),
        }
    }

    /// This source, reporting each passage's SHA-256 (`true`) or its body (`false`).
    pub fn with_hashes(mut self, report: bool) -> Self {
        self.report_hashes = report;
        self
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // Every mutation leaves the maps consistent, so a poisoned lock is still usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Reads the workspaces.
    fn with_state<R>(&self, f: impl FnOnce(&BTreeMap<WorkspaceId, Workspace>) -> R) -> R {
        f(&self.lock().workspaces)
    }

    /// Changes the workspaces and moves the generation in the same critical section (before
    /// anyone can look the change up). Every change goes through here.
    fn change<R>(&self, f: impl FnOnce(&mut BTreeMap<WorkspaceId, Workspace>) -> R) -> R {
        let mut guard = self.lock();
        guard.generation += 1;
        f(&mut guard.workspaces)
    }

    /// Inserts or replaces a passage of `workspace`.
    pub fn put_passage(&self, workspace: &WorkspaceId, passage: Passage) {
        let found = Arc::new(PassageInfo {
            passage_id: passage.id.clone(),
            document_id: passage.document_id.clone(),
            collection_id: passage.collection_id.clone(),
            document_version: passage.document_version,
            sha256: Some(content_sha256(&passage.text)),
            body: None,
            entities: passage.entities.clone(),
        });
        self.change(|state| {
            let ws = state.entry(workspace.clone()).or_default();
            ws.passages
                .insert(passage.id.clone(), Stored { passage, found });
        });
    }

    /// Deletes a document: its passages are gone. Returns how many passages were removed.
    pub fn delete_document(&self, workspace: &WorkspaceId, document_id: &str) -> usize {
        self.change(|state| {
            let Some(ws) = state.get_mut(workspace.as_str()) else {
                return 0;
            };
            let before = ws.passages.len();
            ws.passages
                .retain(|_, s| s.passage.document_id != document_id);
            ws.forget_documents(&BTreeSet::from([document_id.to_owned()]));
            before - ws.passages.len()
        })
    }

    /// Deletes a collection: the passages of its documents are gone. Returns how many passages
    /// were removed.
    pub fn delete_collection(&self, workspace: &WorkspaceId, collection_id: &str) -> usize {
        self.change(|state| {
            let Some(ws) = state.get_mut(workspace.as_str()) else {
                return 0;
            };
            let before = ws.passages.len();
            let mut documents = BTreeSet::new();
            ws.passages.retain(|_, s| {
                let inside = s.passage.collection_id == collection_id;
                if inside {
                    documents.insert(s.passage.document_id.clone());
                }
                !inside
            });
            ws.forget_documents(&documents);
            before - ws.passages.len()
        })
    }

    /// Marks a document expired: its passages are kept but reported gone.
    pub fn expire_document(&self, workspace: &WorkspaceId, document_id: &str) {
        self.change(|state| {
            state
                .entry(workspace.clone())
                .or_default()
                .expired
                .insert(document_id.to_owned());
        });
    }

    /// Sets whether `member` can read a document; its passages are gone for a member who cannot.
    pub fn set_document_readable(
        &self,
        workspace: &WorkspaceId,
        document_id: &str,
        member: &MemberId,
        readable: bool,
    ) {
        self.change(|state| {
            let ws = state.entry(workspace.clone()).or_default();
            let entry = (document_id.to_owned(), member.clone());
            if readable {
                ws.unreadable.remove(&entry);
            } else {
                ws.unreadable.insert(entry);
            }
        });
    }

    /// How many times [`lookup`](PassageSource::lookup) was called.
    pub fn lookups(&self) -> usize {
        self.lookups.load(Ordering::Relaxed)
    }
}

impl PassageSource for InMemoryPassageSource {
    fn lookup(
        &self,
        workspace: &WorkspaceId,
        member: &MemberId,
        passage_ids: &[&str],
    ) -> Vec<PassageLookup> {
        self.lookups.fetch_add(1, Ordering::Relaxed);
        self.with_state(|state| {
            let Some(ws) = state.get(workspace.as_str()) else {
                return vec![PassageLookup::Gone; passage_ids.len()];
            };
            passage_ids
                .iter()
                .map(|id| {
                    let Some(stored) = ws.passages.get(*id) else {
                        return PassageLookup::Gone;
                    };
                    let p = &stored.passage;
                    // The probe of `unreadable` needs owned strings; skip building it when
                    // nothing is unreadable, the usual case.
                    let unreadable = ws.expired.contains(&p.document_id)
                        || (!ws.unreadable.is_empty()
                            && ws
                                .unreadable
                                .contains(&(p.document_id.clone(), member.clone())));
                    if unreadable {
                        return PassageLookup::Gone;
                    }
                    if self.report_hashes {
                        return PassageLookup::Found(Arc::clone(&stored.found));
                    }
                    PassageLookup::found(PassageInfo {
                        sha256: None,
                        body: Some(p.text.clone()),
                        ..PassageInfo::clone(&stored.found)
                    })
                })
                .collect()
        })
    }

    fn generation(&self, _workspace: &WorkspaceId) -> Option<u64> {
        Some(self.lock().generation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ws(id: &str) -> WorkspaceId {
        WorkspaceId::new(id).unwrap()
    }

    #[test]
    fn workspaces_are_separate() {
        let source = InMemoryPassageSource::new();
        source.put_passage(&ws("a"), Passage::new("p1", "d1", "c1", 1, "x"));
        let m = MemberId::new("m").unwrap();
        let ids = ["p1"];
        assert!(matches!(
            source.lookup(&ws("a"), &m, &ids)[0],
            PassageLookup::Found(_)
        ));
        assert_eq!(source.lookup(&ws("b"), &m, &ids), vec![PassageLookup::Gone]);
        assert_eq!(source.lookups(), 2);
    }

    #[test]
    fn collection_delete_counts_passages_and_clears_document_state() {
        let source = InMemoryPassageSource::new();
        let w = ws("a");
        source.put_passage(&w, Passage::new("p1", "d1", "c1", 1, "x"));
        source.put_passage(&w, Passage::new("p2", "d1", "c1", 1, "y"));
        source.put_passage(&w, Passage::new("p3", "d2", "c2", 1, "z"));
        source.expire_document(&w, "d1");
        assert_eq!(source.delete_collection(&w, "c1"), 2);
        // Re-created under the same id, the document is a fresh one, not expired.
        source.put_passage(&w, Passage::new("p1", "d1", "c1", 2, "x"));
        let m = MemberId::new("m").unwrap();
        assert!(matches!(
            source.lookup(&w, &m, &["p1"])[0],
            PassageLookup::Found(_)
        ));
    }
}
