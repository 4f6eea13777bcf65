//! Shared fixtures: ids, memories and a source wrapper that records every lookup.

use std::sync::Mutex;

use citation_verify::{PassageLookup, PassageSource};
use memory_core::{
    AgentMemory, AgentMemoryId, Citation, CredentialId, MemberId, MemoryText, Timestamp,
    WorkspaceId,
};

pub fn ws(id: &str) -> WorkspaceId {
    WorkspaceId::new(id).unwrap()
}

pub fn member(id: &str) -> MemberId {
    MemberId::new(id).unwrap()
}

pub fn ids(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

pub fn memory(n: u32, citations: Vec<Citation>) -> AgentMemory {
    AgentMemory {
        id: AgentMemoryId::parse(format!("amem_{n}")).unwrap(),
        workspace: ws("ws1"),
        member: member("alice"),
        credential: CredentialId::new("cred_a").unwrap(),
        namespace: "facts".into(),
        key: None,
        text: MemoryText::mask("a note").0,
        collection_id: None,
        version: 1,
        citations,
        created_at: Timestamp::UNIX_EPOCH,
        superseded_at: None,
        ranking: Default::default(),
    }
}

/// Wraps a source and records the ids of every lookup call.
pub struct Recording<S> {
    pub inner: S,
    pub calls: Mutex<Vec<Vec<String>>>,
}

impl<S> Recording<S> {
    pub fn new(inner: S) -> Self {
        Recording {
            inner,
            calls: Mutex::new(Vec::new()),
        }
    }

    pub fn calls(&self) -> Vec<Vec<String>> {
        self.calls.lock().unwrap().clone()
    }
}

impl<S: PassageSource> PassageSource for Recording<S> {
    fn lookup(&self, ws: &WorkspaceId, member: &MemberId, ids: &[&str]) -> Vec<PassageLookup> {
        self.calls
            .lock()
            .unwrap()
            .push(ids.iter().map(|id| (*id).to_owned()).collect());
        self.inner.lookup(ws, member, ids)
    }
}

/// A host that answers with a fixed reply, whatever it is asked.
pub struct Fixed(pub Vec<PassageLookup>);

impl PassageSource for Fixed {
    fn lookup(&self, _: &WorkspaceId, _: &MemberId, _: &[&str]) -> Vec<PassageLookup> {
        self.0.clone()
    }
}
