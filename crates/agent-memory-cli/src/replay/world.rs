//! The replay world: the host side that a scenario builds — workspaces, members, credentials,
//! context sets, passages and sessions — and how it resolves callers for the facades.

use std::collections::BTreeMap;

use agent_memory::{
    AgentCaller, AgentCredential, ContextBinding, ContextSet, CredentialId, MemberCaller, MemberId,
    Role, Scope, SessionId, WorkspaceId,
};

/// A member of one workspace (ids are unique across a script, so a member id names one
/// membership).
#[derive(Debug, Clone)]
pub(crate) struct Member {
    pub(crate) workspace: WorkspaceId,
    pub(crate) role: Role,
    pub(crate) removed: bool,
}

/// A credential a member created for an agent.
#[derive(Debug, Clone)]
pub(crate) struct Credential {
    pub(crate) workspace: WorkspaceId,
    pub(crate) member: MemberId,
    pub(crate) scopes: Vec<Scope>,
    pub(crate) context_set: Option<String>,
    pub(crate) revoked: bool,
}

/// Everything the host knows; the library itself keeps no user directory.
#[derive(Debug, Default)]
pub(crate) struct World {
    /// Workspace id → retaining.
    pub(crate) workspaces: BTreeMap<String, bool>,
    pub(crate) members: BTreeMap<String, Member>,
    pub(crate) credentials: BTreeMap<String, Credential>,
    /// (workspace, context-set id) → set.
    pub(crate) context_sets: BTreeMap<(String, String), ContextSet>,
    /// Session id → its workspace, from `sessions.create` answers (the host's session table).
    pub(crate) sessions: BTreeMap<SessionId, WorkspaceId>,
}

impl World {
    /// The caller of an agent operation made with credential `id`.
    pub(crate) fn agent_caller(&self, id: &str) -> AgentCaller {
        let Some(credential) = self.credentials.get(id) else {
            return AgentCaller::Unresolved;
        };
        let member = self.members.get(credential.member.as_str());
        let role = member.filter(|m| !m.removed).map(|m| m.role);
        let binding = match &credential.context_set {
            None => ContextBinding::Unbound,
            Some(set_id) => {
                match self
                    .context_sets
                    .get(&(credential.workspace.as_str().to_owned(), set_id.clone()))
                {
                    Some(set) => ContextBinding::Bound(set.clone()),
                    None => ContextBinding::Invalid,
                }
            }
        };
        let Ok(credential_id) = CredentialId::new(id) else {
            return AgentCaller::Unresolved;
        };
        AgentCaller::Resolved(AgentCredential {
            workspace: credential.workspace.clone(),
            workspace_retaining: self
                .workspaces
                .get(credential.workspace.as_str())
                .copied()
                .unwrap_or(true),
            member: credential.member.clone(),
            credential: credential_id,
            role,
            active: !credential.revoked,
            scopes: credential.scopes.clone(),
            binding,
        })
    }

    /// Member `id` of `workspace`, unless it was removed (a removed member is no member at all:
    /// changing its role or removing it again answers `404 MEMBER_NOT_FOUND`).
    pub(crate) fn current_member_mut(&mut self, workspace: &str, id: &str) -> Option<&mut Member> {
        self.members
            .get_mut(id)
            .filter(|m| m.workspace.as_str() == workspace && !m.removed)
    }

    /// The caller of a member or owner operation made as member `id`; `None` when no such
    /// (current) member exists.
    pub(crate) fn member_caller(&self, id: &str) -> Option<MemberCaller> {
        let member = self.members.get(id).filter(|m| !m.removed)?;
        Some(MemberCaller {
            workspace: member.workspace.clone(),
            member: MemberId::new(id).ok()?,
            role: member.role,
        })
    }
}
