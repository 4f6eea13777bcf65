//! Who is calling: the host's [`Authenticator`], and [`StaticTokens`], a ready one for bearer
//! tokens known at start-up (the CLI's `serve`, tests, small hosts).

use std::collections::HashMap;
use std::fmt;
use std::future::Future;

use agent_memory::{AgentCaller, MemberCaller, Role, StoreCaller, WorkspaceId};
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use sha2::{Digest, Sha256};

/// Turns a request's credentials into the facade's callers. The router asks once per request,
/// before it reads the body; `None` answers `401` with the error body (and, for agent routes,
/// the contract's `AGENT_CREDENTIAL_INVALID`).
///
/// Build callers from the host's records *as they stand now* (the member's current role, a
/// revoked credential's `active: false`, the workspace's `retaining` flag): the facade decides
/// every permission from what the caller says.
///
/// Each method defaults to `None`, so a host that serves only agents implements only
/// [`agent`](Authenticator::agent).
pub trait Authenticator: Send + Sync + 'static {
    /// The agent credential of a request to an agent route or to `/mcp`. Return
    /// `Some(AgentCaller::Unresolved)` or `None` for a credential that names no workspace.
    fn agent(&self, request: &Parts) -> impl Future<Output = Option<AgentCaller>> + Send {
        let _ = request;
        async { None }
    }

    /// The signed-in member of `workspace` (the path's `{ws_id}`), for the settings and
    /// member routes. A member of another workspace is `None`; the router also refuses a
    /// caller whose workspace is not `workspace` exactly.
    fn member(
        &self,
        request: &Parts,
        workspace: &WorkspaceId,
    ) -> impl Future<Output = Option<MemberCaller>> + Send {
        let _ = (request, workspace);
        async { None }
    }

    /// The member or host API key of a request to a memory-store or session route.
    fn store(&self, request: &Parts) -> impl Future<Output = Option<StoreCaller>> + Send {
        let _ = request;
        async { None }
    }

    /// Whether the request may read `/metrics` (served only when the host set
    /// [`Api::with_metrics`](crate::Api::with_metrics)); `false` answers `401`. Defaults to
    /// `false` for every request: a host lets its scrapers in explicitly.
    fn metrics(&self, request: &Parts) -> impl Future<Output = bool> + Send {
        let _ = request;
        async { false }
    }
}

/// The token of an `Authorization: Bearer <token>` header (the scheme in any case), if the
/// request has one.
pub fn bearer_token(request: &Parts) -> Option<&str> {
    let value = request.headers.get(AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// What a token stands for.
#[derive(Clone)]
enum Identity {
    Agent(AgentCaller),
    Member(MemberCaller),
    ApiKey {
        workspace: WorkspaceId,
        api_key_id: String,
    },
}

/// An [`Authenticator`] over bearer tokens fixed at start-up. Tokens are kept only as their
/// SHA-256, so the table never holds or compares a token as text.
///
/// An agent token answers the agent routes and `/mcp`; a member token answers the settings
/// and member routes of its own workspace and the memory-store routes as that member; an API
/// key answers the memory-store routes. `/metrics` takes the token of a member whose role is
/// owner.
#[derive(Clone, Default)]
pub struct StaticTokens {
    by_digest: HashMap<[u8; 32], Identity>,
}

impl fmt::Debug for StaticTokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StaticTokens")
            .field("tokens", &self.by_digest.len())
            .finish()
    }
}

fn digest(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

impl StaticTokens {
    /// No tokens: every request answers 401.
    pub fn new() -> Self {
        StaticTokens::default()
    }

    /// `token` acts as `caller` on the agent routes and `/mcp`.
    pub fn agent(mut self, token: &str, caller: AgentCaller) -> Self {
        self.by_digest
            .insert(digest(token), Identity::Agent(caller));
        self
    }

    /// `token` is `member`, signed in.
    pub fn member(mut self, token: &str, member: MemberCaller) -> Self {
        self.by_digest
            .insert(digest(token), Identity::Member(member));
        self
    }

    /// `token` is the host API key `api_key_id` of `workspace` (memory stores only).
    pub fn api_key(
        mut self,
        token: &str,
        workspace: WorkspaceId,
        api_key_id: impl Into<String>,
    ) -> Self {
        self.by_digest.insert(
            digest(token),
            Identity::ApiKey {
                workspace,
                api_key_id: api_key_id.into(),
            },
        );
        self
    }

    fn identity(&self, request: &Parts) -> Option<&Identity> {
        self.by_digest.get(&digest(bearer_token(request)?))
    }
}

impl Authenticator for StaticTokens {
    fn agent(&self, request: &Parts) -> impl Future<Output = Option<AgentCaller>> + Send {
        let found = match self.identity(request) {
            Some(Identity::Agent(caller)) => Some(caller.clone()),
            _ => None,
        };
        async { found }
    }

    fn member(
        &self,
        request: &Parts,
        workspace: &WorkspaceId,
    ) -> impl Future<Output = Option<MemberCaller>> + Send {
        let found = match self.identity(request) {
            Some(Identity::Member(member)) if member.workspace == *workspace => {
                Some(member.clone())
            }
            _ => None,
        };
        async { found }
    }

    fn store(&self, request: &Parts) -> impl Future<Output = Option<StoreCaller>> + Send {
        let found = match self.identity(request) {
            Some(Identity::Member(member)) => Some(StoreCaller::Member(member.clone())),
            Some(Identity::ApiKey {
                workspace,
                api_key_id,
            }) => Some(StoreCaller::ApiKey {
                workspace: workspace.clone(),
                api_key_id: api_key_id.clone(),
            }),
            _ => None,
        };
        async { found }
    }

    fn metrics(&self, request: &Parts) -> impl Future<Output = bool> + Send {
        let owner = matches!(
            self.identity(request),
            Some(Identity::Member(member)) if member.role == Role::Owner
        );
        async move { owner }
    }
}

/// A new bearer token: `amt_` and 64 hex digits of 32 bytes from the operating system's
/// generator.
///
/// # Errors
///
/// When the operating system has no randomness to give.
pub fn new_token() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    let mut token = String::with_capacity(4 + 64);
    token.push_str("amt_");
    for b in bytes {
        token.push_str(&format!("{b:02x}"));
    }
    Ok(token)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::Request;

    fn parts(authorization: Option<&str>) -> Parts {
        let mut builder = Request::builder().uri("/");
        if let Some(value) = authorization {
            builder = builder.header(AUTHORIZATION, value);
        }
        builder.body(()).unwrap().into_parts().0
    }

    #[test]
    fn bearer_tokens_are_read_in_any_case_and_nothing_else_is() {
        assert_eq!(bearer_token(&parts(Some("Bearer abc"))), Some("abc"));
        assert_eq!(bearer_token(&parts(Some("bearer  abc "))), Some("abc"));
        assert_eq!(bearer_token(&parts(Some("Basic abc"))), None);
        assert_eq!(bearer_token(&parts(Some("Bearer "))), None);
        assert_eq!(bearer_token(&parts(Some("Bearer"))), None);
        assert_eq!(bearer_token(&parts(None)), None);
    }

    #[test]
    fn new_tokens_are_distinct_and_well_formed() {
        let a = new_token().unwrap();
        let b = new_token().unwrap();
        assert_ne!(a, b);
        assert_eq!(a.len(), 68);
        assert!(a[4..].bytes().all(|c| c.is_ascii_hexdigit()));
    }
}
