//! The replay world: the host side that a scenario builds — workspaces, members, credentials,
//! context sets, passages and sessions — and how it resolves callers for the facades.

use std::collections::BTreeMap;

use agent_memory::{
    AgentCaller, AgentCredential, ApiError, ContextBinding, ContextSet, CredentialId, ErrorCode,
    MemberCaller, MemberId, Role, Scope, SessionCaller, SessionId, StoreCaller, WorkspaceId,
};
use serde::Deserialize;
use serde_json::Value;

use crate::body::{bad_body, workspace_id};

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

    /// The caller of an agent operation whose `as` is `actor` (a credential id).
    pub(crate) fn agent(&self, actor: Option<&Value>) -> AgentCaller {
        match actor.and_then(Value::as_str) {
            Some(id) => self.agent_caller(id),
            None => AgentCaller::Unresolved,
        }
    }

    /// The caller of a member or owner operation whose `as` is `actor` (a member id).
    pub(crate) fn member(&self, actor: Option<&Value>) -> Result<MemberCaller, ApiError> {
        actor
            .and_then(Value::as_str)
            .and_then(|id| self.member_caller(id))
            .ok_or_else(|| ApiError::new(ErrorCode::MemberNotFound, "member not found"))
    }

    /// The caller of a host-side memory-store operation: a member id, or
    /// `{"apiKey": ID, "workspace": WS}` (the workspace must exist in the script).
    pub(crate) fn store_caller(&self, actor: Option<&Value>) -> Result<StoreCaller, ApiError> {
        match actor {
            Some(object @ Value::Object(_)) => {
                let key: ApiKeyActor =
                    serde_json::from_value(object.clone()).map_err(|_| bad_body())?;
                if !self.workspaces.contains_key(&key.workspace) || key.api_key.is_empty() {
                    return Err(bad_body());
                }
                Ok(StoreCaller::ApiKey {
                    workspace: workspace_id(&key.workspace)?,
                    api_key_id: key.api_key,
                })
            }
            _ => self.member(actor).map(StoreCaller::Member),
        }
    }

    /// The session a `fs.*` or `memory_tool` line acts as; `404 SESSION_NOT_FOUND` unless
    /// `sessions.create` made it in this script.
    pub(crate) fn session_caller(&self, actor: Option<&Value>) -> Result<SessionCaller, ApiError> {
        let not_found = || ApiError::new(ErrorCode::SessionNotFound, "session not found");
        let session = actor
            .and_then(Value::as_str)
            .and_then(|id| SessionId::parse(id).ok())
            .ok_or_else(not_found)?;
        let workspace: WorkspaceId = self.sessions.get(&session).cloned().ok_or_else(not_found)?;
        Ok(SessionCaller { workspace, session })
    }
}

/// `"as": {"apiKey": ID, "workspace": WS}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ApiKeyActor {
    api_key: String,
    workspace: String,
}
