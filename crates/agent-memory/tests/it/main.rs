//! Integration tests of the facade: races at the limits (R4), fences (R7), bad input (R8),
//! audit events without content, the OpenAPI schemas against the facade's answers (`openapi`),
//! and memory stores (`stores`: every rule and error code, the
//! precondition race, path attacks R6, the system-prompt fence, `fs.*` and the memory tool).

mod asynchronous;
mod audit;
mod bad_input;
mod batch;
mod fence;
mod generate;
mod identifiers;
mod limits;
mod metrics;
#[cfg(feature = "openapi")]
mod openapi;
mod period;
mod races;
mod recall;
mod request_schemas;
mod reverify;
mod settings;
mod snapshot;
mod stores;
mod temporal;
mod tracing_logs;
mod transfer;
mod window;

use std::sync::Arc;

use agent_memory::{
    AgentCaller, AgentCredential, ManualClock, MemberCaller, MemoryAuditSink, MemoryService,
};
use citation_verify::InMemoryPassageSource;
use memory_core::{
    ContextBinding, CredentialId, MemberId, Role, Scope, SeededIdGenerator, Timestamp, WorkspaceId,
};
use store_kv::InMemoryBackend;

/// A service over a fresh in-memory backend with agent memories enabled in workspace `ws`.
pub(crate) struct Fixture {
    pub(crate) service: MemoryService,
    pub(crate) backend: Arc<InMemoryBackend>,
    pub(crate) clock: Arc<ManualClock>,
    pub(crate) audit: Arc<MemoryAuditSink>,
}

impl Fixture {
    pub(crate) fn new() -> Fixture {
        let backend = Arc::new(InMemoryBackend::new());
        let clock = Arc::new(ManualClock::new(
            Timestamp::parse("2026-01-01T00:00:00Z").unwrap(),
        ));
        let audit = Arc::new(MemoryAuditSink::new());
        let service =
            MemoryService::builder(backend.clone(), Arc::new(InMemoryPassageSource::new()))
                .clock(clock.clone())
                .ids(Arc::new(SeededIdGenerator::new(7)))
                .audit(audit.clone())
                .build()
                .unwrap();
        service
            .settings_put(
                &owner(),
                &agent_memory::SettingsPatch::default().agent_memories_enabled(true),
            )
            .unwrap();
        Fixture {
            service,
            backend,
            clock,
            audit,
        }
    }
}

/// Builds `builder` and turns agent memories on in workspace `ws` as its owner.
pub(crate) fn enabled(builder: agent_memory::MemoryServiceBuilder) -> MemoryService {
    let service = builder.build().unwrap();
    service
        .settings_put(
            &owner(),
            &agent_memory::SettingsPatch::default().agent_memories_enabled(true),
        )
        .unwrap();
    service
}

/// A typed request read from a JSON literal, for tests that state their bodies as the contract
/// writes them; the JSON edge itself is tested through `agent_memory::json`.
#[track_caller]
pub(crate) fn req<T: agent_memory::Request>(body: serde_json::Value) -> T {
    match T::from_json(&body) {
        Ok(request) => request,
        Err(e) => panic!("the test's body is refused: {}", e.message()),
    }
}

pub(crate) fn owner() -> MemberCaller {
    MemberCaller {
        workspace: WorkspaceId::new("ws").unwrap(),
        member: MemberId::new("olivia").unwrap(),
        role: Role::Owner,
    }
}

pub(crate) fn member(id: &str) -> MemberCaller {
    MemberCaller {
        workspace: WorkspaceId::new("ws").unwrap(),
        member: MemberId::new(id).unwrap(),
        role: Role::Editor,
    }
}

/// An editor's credential with both scopes, unbound.
pub(crate) fn agent(member: &str, credential: &str) -> AgentCaller {
    AgentCaller::Resolved(AgentCredential {
        workspace: WorkspaceId::new("ws").unwrap(),
        workspace_retaining: true,
        member: MemberId::new(member).unwrap(),
        credential: CredentialId::new(credential).unwrap(),
        role: Some(Role::Editor),
        active: true,
        scopes: vec![Scope::MemoryRead, Scope::MemoryWrite],
        binding: ContextBinding::Unbound,
    })
}
