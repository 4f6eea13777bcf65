//! Who is calling: the host resolves its own credentials and members and passes the result on
//! every call. The library keeps no user directory.

use memory_core::{ContextBinding, CredentialId, MemberId, Role, Scope, WorkspaceId};

/// The caller of an agent operation (remember, recall, list, forget), as the host resolved the
/// agent's credential.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentCaller {
    /// The credential resolves to no workspace at all (unknown id): always `401
    /// AGENT_CREDENTIAL_INVALID`, before any workspace check.
    Unresolved,
    /// The credential names a workspace; it may still be revoked or belong to a removed member.
    Resolved(AgentCredential),
}

/// A credential the host resolved to a workspace and member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentCredential {
    /// The credential's workspace.
    pub workspace: WorkspaceId,
    /// Whether the workspace retains data (host property; default true).
    pub workspace_retaining: bool,
    /// The member who created the credential: the owner of every memory it writes.
    pub member: MemberId,
    /// The credential itself (rate limits are per credential).
    pub credential: CredentialId,
    /// The member's current role; `None` when the member was removed.
    pub role: Option<Role>,
    /// False when the credential was revoked.
    pub active: bool,
    /// Scopes granted to the credential.
    pub scopes: Vec<Scope>,
    /// The credential's context-set binding, as it stands now.
    pub binding: ContextBinding,
}

/// The caller of a member or owner operation (settings, the member's own list and delete, the
/// owner's delete-all): a signed-in member acting in a workspace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberCaller {
    /// The workspace.
    pub workspace: WorkspaceId,
    /// The member.
    pub member: MemberId,
    /// The member's current role.
    pub role: Role,
}
