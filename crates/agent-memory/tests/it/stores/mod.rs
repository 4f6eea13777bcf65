//! Memory stores at the facade level, on the in-memory backend with a manual clock and seeded
//! ids: every rule and error code of the spec, the R4 precondition race, the R6 path attacks,
//! the system-prompt fence, the agent file interface and the memory tool.

mod fs;
mod host;
mod memory_tool;
mod paths;
mod prompt;
mod races;
mod sessions;
mod traces;

use std::sync::Arc;

use agent_memory::{
    ApiError, ErrorCode, ManualClock, MemberCaller, MemoryAuditSink, SessionCaller, StoreCaller,
    StoreService,
};
use memory_core::{MemberId, Role, SeededIdGenerator, SessionId, Timestamp, WorkspaceId};
use serde_json::{Value, json};
use store_trait::InMemoryBackend;

/// A store service over a fresh in-memory backend, workspace `ws`.
pub(crate) struct Stores {
    pub(crate) service: StoreService,
    pub(crate) clock: Arc<ManualClock>,
    pub(crate) audit: Arc<MemoryAuditSink>,
}

impl Stores {
    pub(crate) fn new() -> Stores {
        let clock = Arc::new(ManualClock::new(
            Timestamp::parse("2026-01-01T00:00:00Z").unwrap(),
        ));
        let audit = Arc::new(MemoryAuditSink::new());
        let service = StoreService::builder(Arc::new(InMemoryBackend::new()))
            .clock(clock.clone())
            .ids(Arc::new(SeededIdGenerator::new(11)))
            .audit(audit.clone())
            .build();
        Stores {
            service,
            clock,
            audit,
        }
    }

    /// Creates a store as the editor and returns its id.
    pub(crate) fn store(&self, body: Value) -> String {
        self.service
            .stores_create(&editor(), &body)
            .unwrap()
            .id
            .into_string()
    }

    /// Creates a memory as the editor.
    pub(crate) fn memory(
        &self,
        store: &str,
        path: &str,
        content: &str,
    ) -> memory_core::StoreMemory {
        self.service
            .memories_create(
                &editor(),
                &json!({"memory_store_id": store, "path": path, "content": content}),
            )
            .unwrap()
    }

    /// Every version of the store, newest first (all pages).
    pub(crate) fn versions(&self, store: &str) -> Vec<memory_core::MemoryVersion> {
        let mut all = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let mut body = json!({"memory_store_id": store, "limit": 100});
            if let Some(c) = &cursor {
                body["cursor"] = json!(c);
            }
            let page = self.service.versions_list(&editor(), &body).unwrap();
            all.extend(page.data);
            match page.next_cursor {
                Some(c) => cursor = Some(c),
                None => return all,
            }
        }
    }

    /// Every live memory path of the store, by path.
    pub(crate) fn paths(&self, store: &str) -> Vec<String> {
        self.service
            .memories_list(&editor(), &json!({"memory_store_id": store, "limit": 100}))
            .unwrap()
            .data
            .into_iter()
            .map(|m| m.path.into_string())
            .collect()
    }

    /// A session with the given resources, as the editor.
    pub(crate) fn session(&self, resources: Value) -> SessionCaller {
        let session = self
            .service
            .sessions_create(&editor(), &json!({"resources": resources}))
            .unwrap();
        SessionCaller {
            workspace: ws(),
            session: session.id,
        }
    }
}

pub(crate) fn ws() -> WorkspaceId {
    WorkspaceId::new("ws").unwrap()
}

pub(crate) fn member_with(role: Role) -> StoreCaller {
    StoreCaller::Member(MemberCaller {
        workspace: ws(),
        member: MemberId::new(format!("m_{}", role.as_str())).unwrap(),
        role,
    })
}

pub(crate) fn editor() -> StoreCaller {
    member_with(Role::Editor)
}

pub(crate) fn viewer() -> StoreCaller {
    member_with(Role::Viewer)
}

pub(crate) fn api_key() -> StoreCaller {
    StoreCaller::ApiKey {
        workspace: ws(),
        api_key_id: "key_1".into(),
    }
}

/// A caller of another workspace.
pub(crate) fn stranger() -> StoreCaller {
    StoreCaller::Member(MemberCaller {
        workspace: WorkspaceId::new("other").unwrap(),
        member: MemberId::new("eve").unwrap(),
        role: Role::Owner,
    })
}

/// A session id that was never created.
pub(crate) fn ghost_session() -> SessionCaller {
    SessionCaller {
        workspace: ws(),
        session: SessionId::parse("sesn_ghost").unwrap(),
    }
}

#[track_caller]
pub(crate) fn code<T: std::fmt::Debug>(result: Result<T, ApiError>) -> ErrorCode {
    match result {
        Ok(v) => panic!("expected an error, got {v:?}"),
        Err(e) => e.code(),
    }
}
