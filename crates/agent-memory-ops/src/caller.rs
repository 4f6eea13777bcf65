//! Who is calling: the host resolves its own credentials and members and passes the result on
//! every call. The library keeps no user directory. Each operation takes one kind of caller
//! ([`Operation::Caller`](crate::ops::Operation::Caller)); [`Caller`] and [`CallerKind`] name the
//! kinds for hosts that choose the operation at run time.

use memory_core::{
    Actor, ContextBinding, CredentialId, MemberId, Role, Scope, SessionId, WorkspaceId,
};

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

/// Who calls a host-side memory-store operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreCaller {
    /// A signed-in member (recorded as `user_actor` with the member id); editor or higher writes,
    /// viewer or higher reads, else `403 MEMORY_STORE_FORBIDDEN` (the first check of all).
    Member(MemberCaller),
    /// A host API key: editor rights, recorded as `api_actor`.
    ApiKey {
        /// The workspace the key belongs to.
        workspace: WorkspaceId,
        /// The key's id.
        api_key_id: String,
    },
}

impl StoreCaller {
    /// The workspace the caller acts in.
    pub fn workspace(&self) -> &WorkspaceId {
        match self {
            StoreCaller::Member(m) => &m.workspace,
            StoreCaller::ApiKey { workspace, .. } => workspace,
        }
    }

    /// The actor recorded on the versions this caller writes.
    pub fn actor(&self) -> Actor {
        match self {
            StoreCaller::Member(m) => Actor::UserActor {
                user_id: m.member.as_str().to_owned(),
            },
            StoreCaller::ApiKey { api_key_id, .. } => Actor::ApiActor {
                api_key_id: api_key_id.clone(),
            },
        }
    }

    /// The role the caller acts with (an API key has editor rights).
    pub fn role(&self) -> Role {
        match self {
            StoreCaller::Member(m) => m.role,
            StoreCaller::ApiKey { .. } => Role::Editor,
        }
    }
}

/// An agent session acting through its mounts (`session_actor`); the host resolved the workspace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionCaller {
    /// The session's workspace.
    pub workspace: WorkspaceId,
    /// The session.
    pub session: SessionId,
}

impl SessionCaller {
    /// The actor recorded on the versions the session writes.
    pub fn actor(&self) -> Actor {
        Actor::SessionActor {
            session_id: self.session.clone(),
        }
    }
}

/// The kinds of caller, one per caller type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CallerKind {
    /// [`AgentCaller`]: an agent's credential.
    Agent,
    /// [`MemberCaller`]: a signed-in member of a workspace.
    Member,
    /// [`StoreCaller`]: a member or host API key acting on memory stores.
    Store,
    /// [`SessionCaller`]: an agent session acting through its mounts.
    Session,
}

impl CallerKind {
    /// `agent`, `member`, `store` or `session`: the kind as logs name it.
    pub fn name(self) -> &'static str {
        match self {
            CallerKind::Agent => "agent",
            CallerKind::Member => "member",
            CallerKind::Store => "store",
            CallerKind::Session => "session",
        }
    }
}

/// A caller of any kind, borrowed: for hosts that pick the operation at run time (by name) and
/// so cannot name its caller type (the facade's `JsonApi::call`).
#[derive(Debug, Clone, Copy)]
pub enum Caller<'a> {
    /// An agent's credential, resolved by the host (or not).
    Agent(&'a AgentCaller),
    /// A workspace member, for member and owner operations.
    Member(&'a MemberCaller),
    /// A member or API key acting on memory stores.
    Store(&'a StoreCaller),
    /// An agent session with memory stores attached.
    Session(&'a SessionCaller),
}

impl<'a> Caller<'a> {
    /// The workspace the caller acts in; `None` for an agent credential that resolved to no
    /// workspace.
    pub fn workspace(self) -> Option<&'a WorkspaceId> {
        match self {
            Caller::Agent(AgentCaller::Resolved(c)) => Some(&c.workspace),
            Caller::Agent(AgentCaller::Unresolved) => None,
            Caller::Member(c) => Some(&c.workspace),
            Caller::Store(c) => Some(c.workspace()),
            Caller::Session(c) => Some(&c.workspace),
        }
    }

    /// The kind of this caller.
    pub fn kind(&self) -> CallerKind {
        match self {
            Caller::Agent(_) => CallerKind::Agent,
            Caller::Member(_) => CallerKind::Member,
            Caller::Store(_) => CallerKind::Store,
            Caller::Session(_) => CallerKind::Session,
        }
    }
}
