//! Who may act: scope grants, the access check of the four agent operations (steps 1–4 of the
//! order of checks) and the owner check of settings and delete-all.

use memory_core::{ApiError, ErrorCode, Role, Scope, Settings};

/// Checks that a member with `role` may be granted every scope in `scopes`.
///
/// A scope whose minimum role is above `role` → `400 AGENT_MEMORY_SCOPE_NOT_GRANTABLE`.
pub fn grant(role: Role, scopes: &[Scope]) -> Result<(), ApiError> {
    if scopes.iter().all(|scope| role >= scope.min_role()) {
        Ok(())
    } else {
        Err(ApiError::new(
            ErrorCode::AgentMemoryScopeNotGrantable,
            "the member's role does not allow a requested scope",
        ))
    }
}

/// What the host's directory says about the credential of an agent call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CredentialState<'a> {
    /// The credential resolves to no workspace at all. Answered `401` before anything else,
    /// because the retaining and enabled checks need a workspace.
    Unknown,
    /// Known in the workspace but revoked, its member removed, or it belongs to another
    /// workspace: `401` at step 3, after the workspace checks.
    Invalid,
    /// A live credential of a current member, with the member's role as of this request.
    Valid {
        /// The member's current role (checked again on every request).
        role: Role,
        /// The scopes granted to the credential.
        scopes: &'a [Scope],
    },
}

/// The facts the access check of an agent operation needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AgentAccess<'a> {
    /// Whether the workspace retains history (host-supplied; default true).
    pub retaining: bool,
    /// The workspace's stored settings. Ignored for [`CredentialState::Unknown`], where no
    /// workspace is known; pass the defaults then.
    pub settings: &'a Settings,
    /// The credential as the host resolved it.
    pub credential: CredentialState<'a>,
    /// The scope the operation needs: `memory:write` for remember and forget, `memory:read` for
    /// recall and list.
    pub required: Scope,
}

/// Steps 1–4 of the order of checks, first failure wins.
///
/// 0. credential resolving to no workspace → `401 AGENT_CREDENTIAL_INVALID`;
/// 1. workspace not retaining → `403 NON_RETAINING_WORKSPACE`;
/// 2. `agentMemoriesEnabled` false → `403 AGENT_MEMORY_DISABLED`;
/// 3. invalid credential → `401 AGENT_CREDENTIAL_INVALID`;
/// 4. scope missing, or the role below the scope's minimum → `403 AGENT_MEMORY_SCOPE_REQUIRED`.
pub fn check_agent_access(access: &AgentAccess<'_>) -> Result<(), ApiError> {
    if access.credential == CredentialState::Unknown {
        return Err(ErrorCode::AgentCredentialInvalid.into());
    }
    if !access.retaining {
        return Err(ErrorCode::NonRetainingWorkspace.into());
    }
    if !access.settings.agent_memories_enabled {
        return Err(ErrorCode::AgentMemoryDisabled.into());
    }
    match access.credential {
        CredentialState::Unknown | CredentialState::Invalid => {
            Err(ErrorCode::AgentCredentialInvalid.into())
        }
        CredentialState::Valid { role, scopes } => {
            if scopes.contains(&access.required) && role >= access.required.min_role() {
                Ok(())
            } else {
                Err(ErrorCode::AgentMemoryScopeRequired.into())
            }
        }
    }
}

/// The owner check of settings get/put and delete-all: only the owner holds
/// `ask_history:manage`.
///
/// `role` is the caller's role in the workspace, `None` when not a member;
/// anything but the owner → `403 ASK_HISTORY_MANAGE_REQUIRED`.
pub fn require_owner(role: Option<Role>) -> Result<(), ApiError> {
    match role {
        Some(role) if role.can_manage_ask_history() => Ok(()),
        _ => Err(ErrorCode::AskHistoryManageRequired.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grant_follows_minimum_roles() {
        assert!(grant(Role::Viewer, &[Scope::MemoryRead]).is_ok());
        assert!(grant(Role::Editor, &Scope::ALL).is_ok());
        assert!(grant(Role::Viewer, &[]).is_ok());
        let err = grant(Role::Viewer, &[Scope::MemoryRead, Scope::MemoryWrite]).unwrap_err();
        assert_eq!(err.code(), ErrorCode::AgentMemoryScopeNotGrantable);
        assert_eq!(err.http_status(), 400);
    }

    #[test]
    fn unknown_credential_beats_workspace_checks() {
        let settings = Settings::default();
        let access = AgentAccess {
            retaining: false,
            settings: &settings,
            credential: CredentialState::Unknown,
            required: Scope::MemoryRead,
        };
        assert_eq!(
            check_agent_access(&access).unwrap_err().code(),
            ErrorCode::AgentCredentialInvalid
        );
    }

    #[test]
    fn owner_only() {
        assert!(require_owner(Some(Role::Owner)).is_ok());
        for role in [None, Some(Role::Admin), Some(Role::Viewer)] {
            assert_eq!(
                require_owner(role).unwrap_err().code(),
                ErrorCode::AskHistoryManageRequired
            );
        }
    }
}
