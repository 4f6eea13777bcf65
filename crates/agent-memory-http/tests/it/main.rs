//! The router over real HTTP on loopback: a server on `127.0.0.1:0` per test and reqwest as
//! the client.

mod agent;
mod limits;
mod load;
mod logs;
mod mcp;
mod metrics;
mod openapi;
mod stores;

use std::sync::Arc;

use agent_memory::backends::InMemoryBackend;
use agent_memory::{
    AgentCaller, AgentCredential, ContextBinding, CredentialId, InMemoryPassageSource,
    MemberCaller, MemberId, MemoryService, Role, Scope, StoreService, WorkspaceId,
};
use agent_memory_http::{Api, StaticTokens, StreamableHttpServerConfig};
use reqwest::StatusCode;
use serde_json::{Value, json};

pub(crate) const AGENT: &str = "agent-token";
pub(crate) const READER: &str = "reader-token";
pub(crate) const OWNER: &str = "owner-token";
pub(crate) const VIEWER: &str = "viewer-token";
pub(crate) const OTHER_OWNER: &str = "other-workspace-owner-token";
pub(crate) const API_KEY: &str = "api-key-token";

pub(crate) fn ws(id: &str) -> WorkspaceId {
    WorkspaceId::new(id).unwrap()
}

pub(crate) fn member(workspace: &str, id: &str, role: Role) -> MemberCaller {
    MemberCaller {
        workspace: ws(workspace),
        member: MemberId::new(id).unwrap(),
        role,
    }
}

pub(crate) fn agent(credential: &str, scopes: &[Scope]) -> AgentCaller {
    AgentCaller::Resolved(AgentCredential {
        workspace: ws("ws"),
        workspace_retaining: true,
        member: MemberId::new("olivia").unwrap(),
        credential: CredentialId::new(credential).unwrap(),
        role: Some(Role::Owner),
        active: true,
        scopes: scopes.to_vec(),
        binding: ContextBinding::Unbound,
    })
}

/// A server on loopback over one in-memory backend, with the test tokens.
pub(crate) struct Server {
    pub(crate) base: String,
    pub(crate) client: reqwest::Client,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    served: Option<tokio::task::JoinHandle<()>>,
}

impl Server {
    pub(crate) async fn start() -> Server {
        Server::start_with(tokens()).await
    }

    pub(crate) async fn start_with(tokens: StaticTokens) -> Server {
        Server::start_configured(tokens, |api| api).await
    }

    /// A server whose [`Api`] `configure` adds to before the router is built.
    pub(crate) async fn start_configured(
        tokens: StaticTokens,
        configure: impl FnOnce(Api<StaticTokens>) -> Api<StaticTokens>,
    ) -> Server {
        let backend = Arc::new(InMemoryBackend::new());
        let memories = Arc::new(
            MemoryService::builder(backend.clone(), Arc::new(InMemoryPassageSource::new()))
                .build()
                .unwrap(),
        );
        let stores = Arc::new(StoreService::builder(backend).build());
        let api = Api::new(memories.clone(), tokens)
            .with_stores(stores)
            .with_mcp(StreamableHttpServerConfig::default());
        let router = configure(api).router();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (shutdown, stop) = tokio::sync::oneshot::channel::<()>();
        let served = tokio::spawn(async move {
            axum::serve(listener, router)
                .with_graceful_shutdown(async {
                    let _ = stop.await;
                })
                .await
                .unwrap();
        });
        Server {
            base,
            // A fresh connection per request: after a 413 the server closes a connection whose
            // body it did not read, and a pooled client could send the next request into it
            // (hyper's IncompleteMessage).
            client: reqwest::Client::builder()
                .pool_max_idle_per_host(0)
                .build()
                .unwrap(),
            shutdown: Some(shutdown),
            served: Some(served),
        }
    }

    pub(crate) fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Sends `method path` with `token` (if any) and `body` (if any); the status and the JSON
    /// body (every answer of the router is JSON).
    pub(crate) async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> (StatusCode, Value) {
        let (status, _, body) = self.call_full(method, path, token, body).await;
        (status, body)
    }

    pub(crate) async fn call_full(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> (StatusCode, reqwest::header::HeaderMap, Value) {
        let mut request = self.client.request(method, self.url(path));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(body);
        }
        let response = request.send().await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response.bytes().await.unwrap();
        let body: Value = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| panic!("{status}: not JSON: {}", String::from_utf8_lossy(&bytes)));
        (status, headers, body)
    }

    pub(crate) async fn post(&self, path: &str, token: &str, body: Value) -> (StatusCode, Value) {
        self.call(reqwest::Method::POST, path, Some(token), Some(&body))
            .await
    }

    pub(crate) async fn get(&self, path: &str, token: &str) -> (StatusCode, Value) {
        self.call(reqwest::Method::GET, path, Some(token), None)
            .await
    }

    /// The owner turns agent memories on.
    pub(crate) async fn enable(&self) {
        let (status, body) = self
            .call(
                reqwest::Method::PUT,
                "/api/w/ws/ask-history/settings",
                Some(OWNER),
                Some(&json!({"agentMemoriesEnabled": true})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }

    pub(crate) async fn stop(mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(served) = self.served.take() {
            served.await.unwrap();
        }
    }
}

pub(crate) fn tokens() -> StaticTokens {
    StaticTokens::new()
        .agent(AGENT, agent("cred-rw", &Scope::ALL))
        .agent(READER, agent("cred-r", &[Scope::MemoryRead]))
        .member(OWNER, member("ws", "olivia", Role::Owner))
        .member(VIEWER, member("ws", "victor", Role::Viewer))
        .member(OTHER_OWNER, member("other", "oscar", Role::Owner))
        .api_key(API_KEY, ws("ws"), "key-1")
}

/// The error code of an error body.
pub(crate) fn code(body: &Value) -> &str {
    body["error"]["code"]
        .as_str()
        .unwrap_or_else(|| panic!("not an error body: {body}"))
}
