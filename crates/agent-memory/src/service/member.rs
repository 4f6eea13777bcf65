//! The member and owner operations: the workspace settings, the member's own memories, the
//! owner's delete-all.

use governance_policy as policy;
use memory_core::{
    AgentMemory, AgentMemoryId, ApiError, ErrorCode, MemoryView, Settings, SourceState,
};
use store_trait::{Owner, ScanQuery};

use super::{Filters, MemoryService, internal, not_found};
use crate::audit::AuditEvent;
use crate::caller::MemberCaller;
use crate::cursor::{Cursor, CursorKind};
use crate::ops::{
    self, Body, GenAiOperation, HttpInput, HttpMethod, HttpRoute, NoRequest, Operation, Tally,
    route,
};
use crate::responses::{DeletedResponse, ListResponse};
use citation_verify::Verdict;

impl MemoryService {
    /// The workspace's settings (owner only).
    pub fn settings_get(&self, caller: &MemberCaller) -> Result<Settings, ApiError> {
        ops::SettingsGet::run(self, caller, Body::Typed(&NoRequest))
    }
}

impl Operation for ops::SettingsGet {
    const NAME: &'static str = "settings.get";
    const HTTP: Option<HttpRoute> = route(
        HttpMethod::Get,
        "/api/w/{ws_id}/ask-history/settings",
        HttpInput::None,
        "Read the workspace's agent-memory settings (owner)",
    );
    type Service = MemoryService;
    type Caller = MemberCaller;
    type Request = NoRequest;
    type Response = Settings;

    fn execute(
        service: &MemoryService,
        caller: &MemberCaller,
        _: Body<'_, NoRequest>,
    ) -> Result<Settings, ApiError> {
        policy::require_owner(Some(caller.role))?;
        service.settings_of(&caller.workspace)
    }
}

impl MemoryService {
    /// Merges the fields sent into the settings (owner only); a shorter retention purges what it
    /// expires in the same call.
    pub fn settings_put(
        &self,
        caller: &MemberCaller,
        patch: &policy::SettingsPatch,
    ) -> Result<Settings, ApiError> {
        ops::SettingsPut::run(self, caller, Body::Typed(patch))
    }
}

impl Operation for ops::SettingsPut {
    const NAME: &'static str = "settings.put";
    const HTTP: Option<HttpRoute> = route(
        HttpMethod::Put,
        "/api/w/{ws_id}/ask-history/settings",
        HttpInput::Body,
        "Change the workspace's agent-memory settings (owner)",
    );
    type Service = MemoryService;
    type Caller = MemberCaller;
    type Request = policy::SettingsPatch;
    type Response = Settings;

    fn execute(
        service: &MemoryService,
        caller: &MemberCaller,
        input: Body<'_, policy::SettingsPatch>,
    ) -> Result<Settings, ApiError> {
        policy::require_owner(Some(caller.role))?;
        let patch = input.read()?;
        if let Some(days) = patch.retention_days {
            let limits = &service.limits;
            if !(limits.retention_min_days..=limits.retention_max_days).contains(&days) {
                return Err(ApiError::out_of_bounds(
                    ErrorCode::AgentMemoryInvalidRequest,
                    "retentionDays",
                    u64::from(limits.retention_min_days),
                    u64::from(limits.retention_max_days),
                ));
            }
        }
        let settings = patch.apply(service.settings_of(&caller.workspace)?);
        service
            .backend
            .put_settings(&caller.workspace, &settings)
            .map_err(internal)?;
        service
            .kept_settings
            .keep(&caller.workspace, Some(settings));
        let cutoff = policy::expired_cutoff(service.now(), settings.retention_days);
        let purged = service
            .backend
            .purge_expired(&caller.workspace, cutoff)
            .map_err(internal)?;
        service.audit(
            &caller.workspace,
            Some(&caller.member),
            AuditEvent::SettingsChanged {
                agent_memories_enabled: settings.agent_memories_enabled,
                retention_days: settings.retention_days,
                purged,
            },
        );
        Ok(settings)
    }
}

impl MemoryService {
    /// Owner delete-all: removes every agent memory of the workspace without reading them.
    pub fn owner_delete_all(&self, caller: &MemberCaller) -> Result<DeletedResponse, ApiError> {
        ops::OwnerDeleteAll::run(self, caller, Body::Typed(&NoRequest))
    }
}

impl Operation for ops::OwnerDeleteAll {
    const NAME: &'static str = "agentMemories.deleteAll";
    const HTTP: Option<HttpRoute> = route(
        HttpMethod::Delete,
        "/api/w/{ws_id}/ask-history/settings/agent-memories",
        HttpInput::None,
        "Delete every agent memory of the workspace (owner)",
    );
    const GEN_AI_OPERATION: Option<GenAiOperation> = Some(GenAiOperation::DeleteMemory);
    type Service = MemoryService;
    type Caller = MemberCaller;
    type Request = NoRequest;
    type Response = DeletedResponse;

    fn execute(
        service: &MemoryService,
        caller: &MemberCaller,
        _: Body<'_, NoRequest>,
    ) -> Result<DeletedResponse, ApiError> {
        policy::require_owner(Some(caller.role))?;
        let deleted = service
            .backend
            .delete_workspace(&caller.workspace)
            .map_err(internal)?;
        service.audit(
            &caller.workspace,
            Some(&caller.member),
            AuditEvent::OwnerDeleteAll { deleted },
        );
        Ok(DeletedResponse { deleted })
    }

    fn tally(r: &DeletedResponse) -> Tally<'_> {
        deleted_tally(r)
    }
}

/// The tally of a delete: how many versions it removed.
fn deleted_tally(r: &DeletedResponse) -> Tally<'_> {
    Tally {
        deleted: Some(r.deleted),
        ..Tally::default()
    }
}

impl MemoryService {
    /// All of the member's own current, unexpired memories, newest first, as [`member_list`]
    /// shows them (hidden ones as `unavailable`), read in one backend read: one consistent
    /// snapshot, whatever other processes commit meanwhile. The quota bounds its size (5,000
    /// versions per member and workspace). `agent-memory export` writes this.
    ///
    /// [`member_list`]: MemoryService::member_list
    pub fn member_export(&self, caller: &MemberCaller) -> Result<Vec<MemoryView>, ApiError> {
        let settings = self.settings_of(&caller.workspace)?;
        let owner = Owner {
            workspace: caller.workspace.clone(),
            member: caller.member.clone(),
        };
        let now = self.read_now(&owner)?;
        let cutoff = policy::expired_cutoff(now, settings.retention_days);
        let memories = self
            .backend
            .scan(&owner, &ScanQuery::new(now, cutoff, usize::MAX))
            .map_err(internal)?;
        let refs: Vec<&AgentMemory> = memories.iter().collect();
        let verification = citation_verify::verify(
            self.passages.as_ref(),
            &owner.workspace,
            &owner.member,
            &refs,
        );
        Ok(memories
            .iter()
            .zip(&verification.verdicts)
            .map(|(memory, verdict)| match verdict {
                Verdict::Hidden => MemoryView::new(memory, SourceState::Unavailable),
                Verdict::Visible(state) => MemoryView::new(memory, *state),
            })
            .collect())
    }

    /// The member's own current, unexpired memories, hidden ones shown as `unavailable`; allowed
    /// at any time, also while agent memories are disabled.
    pub fn member_list(
        &self,
        caller: &MemberCaller,
        request: &policy::MemberListRequest,
    ) -> Result<ListResponse, ApiError> {
        ops::MemberList::run(self, caller, Body::Typed(request))
    }
}

impl Operation for ops::MemberList {
    const NAME: &'static str = "agentMemories.list";
    const HTTP: Option<HttpRoute> = route(
        HttpMethod::Get,
        "/api/w/{ws_id}/ask-history/agent-memories",
        HttpInput::Query,
        "List the signed-in member's own memories",
    );
    const GEN_AI_OPERATION: Option<GenAiOperation> = Some(GenAiOperation::SearchMemory);
    type Service = MemoryService;
    type Caller = MemberCaller;
    type Request = policy::MemberListRequest;
    type Response = ListResponse;

    fn execute(
        service: &MemoryService,
        caller: &MemberCaller,
        input: Body<'_, policy::MemberListRequest>,
    ) -> Result<ListResponse, ApiError> {
        let request = input.read()?;
        let cursor = request.cursor.as_deref().map(Cursor::decode).transpose()?;
        let settings = service.settings_of(&caller.workspace)?;
        let owner = Owner {
            workspace: caller.workspace.clone(),
            member: caller.member.clone(),
        };
        let now = service.read_now(&owner)?;
        service.page(
            &owner,
            &settings,
            now,
            CursorKind::Member,
            Filters::default(),
            None,
            cursor,
            request.limit,
            None,
        )
    }

    fn tally(r: &ListResponse) -> Tally<'_> {
        Tally {
            returned: Some(r.memories.len() as u64),
            hidden: Some(r.hidden),
            ..Tally::default()
        }
    }
}

impl MemoryService {
    /// The member deletes one of their memories (its whole key) or, without an id, all of them.
    pub fn member_delete(
        &self,
        caller: &MemberCaller,
        request: &policy::MemberDeleteRequest,
    ) -> Result<DeletedResponse, ApiError> {
        ops::MemberDelete::run(self, caller, Body::Typed(request))
    }
}

impl Operation for ops::MemberDelete {
    const NAME: &'static str = "agentMemories.delete";
    const HTTP: Option<HttpRoute> = route(
        HttpMethod::Delete,
        "/api/w/{ws_id}/ask-history/agent-memories",
        HttpInput::Body,
        "Delete one or all of the signed-in member's own memories",
    );
    const GEN_AI_OPERATION: Option<GenAiOperation> = Some(GenAiOperation::DeleteMemory);
    type Service = MemoryService;
    type Caller = MemberCaller;
    type Request = policy::MemberDeleteRequest;
    type Response = DeletedResponse;

    fn execute(
        service: &MemoryService,
        caller: &MemberCaller,
        input: Body<'_, policy::MemberDeleteRequest>,
    ) -> Result<DeletedResponse, ApiError> {
        let request = input.read()?.into_owned();
        let owner = Owner {
            workspace: caller.workspace.clone(),
            member: caller.member.clone(),
        };
        let deleted = match request.memory_id {
            Some(id) => {
                let id = AgentMemoryId::parse(id).map_err(|_| not_found())?;
                let removed = service.backend.forget_id(&owner, &id).map_err(internal)?;
                if removed.is_empty() {
                    return Err(not_found());
                }
                removed.len() as u64
            }
            None => service.backend.delete_owner(&owner).map_err(internal)?,
        };
        service.audit(
            &caller.workspace,
            Some(&caller.member),
            AuditEvent::MemberDelete { deleted },
        );
        Ok(DeletedResponse { deleted })
    }

    fn tally(r: &DeletedResponse) -> Tally<'_> {
        deleted_tally(r)
    }
}

impl MemoryService {}
