//! The facade for async hosts (feature `tokio`): [`AsyncService`] runs every operation of both
//! products on tokio's blocking pool, so that a call never blocks a runtime worker, whatever the
//! backend's disk, lock or network wait.
//!
//! The requests and responses are the typed ones of the synchronous facade, and an operation is
//! named by its type as everywhere else ([`AsyncService::run`]), or by the method of the same
//! name as [`MemoryService`]'s and [`StoreService`]'s.
//!
//! **Cancellation.** Dropping the future of a call does not stop the call: the blocking task runs
//! to its end and its answer is dropped. A write is therefore either done whole (and counted
//! against the rate limit and quota, as any accepted write) or not at all — never half done —
//! and a host that times a call out must treat it as possibly applied, as with any request that
//! crossed a network.
//!
//! **Load.** Each call takes one thread of tokio's blocking pool for its duration (512 threads
//! by default, `Builder::max_blocking_threads`); calls beyond that wait in the pool's queue, not
//! on a worker.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Arc;
//!
//! use agent_memory::backends::InMemoryBackend;
//! use agent_memory::{
//!     AgentCaller, AgentCredential, AsyncService, ContextBinding, CredentialId,
//!     InMemoryPassageSource, MemberCaller, MemberId, MemoryService, RecallRequest,
//!     RememberRequest, Role, Scope, SettingsPatch, WorkspaceId,
//! };
//!
//! let passages = Arc::new(InMemoryPassageSource::new());
//! let service = MemoryService::builder(Arc::new(InMemoryBackend::new()), passages).build()?;
//! let memories = AsyncService::new(Arc::new(service));
//!
//! let workspace = WorkspaceId::new("ws1")?;
//! let owner = MemberCaller { workspace: workspace.clone(), member: MemberId::new("olivia")?, role: Role::Owner };
//! memories.settings_put(owner, SettingsPatch::default().agent_memories_enabled(true)).await?;
//! let agent = AgentCaller::Resolved(AgentCredential {
//!     workspace,
//!     workspace_retaining: true,
//!     member: MemberId::new("alice")?,
//!     credential: CredentialId::new("cred_a")?,
//!     role: Some(Role::Editor),
//!     active: true,
//!     scopes: vec![Scope::MemoryRead, Scope::MemoryWrite],
//!     binding: ContextBinding::Unbound,
//! });
//! memories.remember(agent.clone(), RememberRequest::new("prefs", "Reply tersely").key("tone")).await?;
//! let found = memories.recall(agent, RecallRequest::new("how should I reply?")).await?;
//! assert_eq!(found.memories.len(), 1);
//! # Ok(())
//! # }
//! ```

use std::any::Any;
use std::sync::Arc;

use memory_core::{ApiError, ErrorCode};
use serde_json::Value;

use crate::ops::{self, Body, Operation};
use memory_core::session::TextAnswer;

use crate::{
    AgentCaller, MemoryService, MemoryToolFailure, SessionCaller, StoreService, ToolResult,
};

/// Both products' operations for async hosts; see the [module docs](self). Cheap to clone (two
/// `Arc`s).
#[derive(Clone)]
pub struct AsyncService {
    memories: Arc<MemoryService>,
    stores: Option<Arc<StoreService>>,
}

impl std::fmt::Debug for AsyncService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AsyncService")
            .field("stores", &self.stores.is_some())
            .finish_non_exhaustive()
    }
}

impl AsyncService {
    /// Agent memories of `memories`.
    pub fn new(memories: Arc<MemoryService>) -> Self {
        AsyncService {
            memories,
            stores: None,
        }
    }

    /// Also serves the memory-store operations of `stores`.
    pub fn with_stores(mut self, stores: Arc<StoreService>) -> Self {
        self.stores = Some(stores);
        self
    }

    /// The synchronous agent-memory service underneath.
    pub fn memories(&self) -> &Arc<MemoryService> {
        &self.memories
    }

    /// The synchronous memory-store service underneath, when served.
    pub fn stores(&self) -> Option<&Arc<StoreService>> {
        self.stores.as_ref()
    }

    /// Runs the operation `O` for `caller` with the typed `request` on the blocking pool.
    pub async fn run<O>(
        &self,
        caller: O::Caller,
        request: O::Request,
    ) -> Result<O::Response, ApiError>
    where
        O: Operation,
        O::Request: Send,
    {
        let service = service_of::<O>(self)?;
        blocking(move || O::run(&service, &caller, Body::Typed(&request))).await
    }

    /// Runs the operation `O` for `caller` on a JSON body, as the JSON edge reads it
    /// ([`crate::json::JsonApi::run`]); `None` is a body that could not be read (not JSON, a
    /// broken query string), refused once the caller's access is settled.
    pub async fn run_json<O>(
        &self,
        caller: O::Caller,
        body: Option<Value>,
    ) -> Result<O::Response, ApiError>
    where
        O: Operation,
    {
        let service = service_of::<O>(self)?;
        blocking(move || {
            let body = match &body {
                Some(value) => Body::Json(value),
                None => O::unreadable(),
            };
            O::run(&service, &caller, body)
        })
        .await
    }

    /// Calls the agent-memory MCP tool `name` ([`MemoryService::call_tool`]).
    pub async fn call_tool(
        &self,
        caller: Arc<AgentCaller>,
        name: String,
        arguments: Value,
    ) -> Result<ToolResult, ApiError> {
        let memories = self.memories.clone();
        blocking(move || Ok(memories.call_tool(&caller, &name, &arguments))).await
    }

    /// Runs one memory-tool command for a session ([`StoreService::memory_tool_call`]): the
    /// tool's answer or failure, inside an internal error when the memory stores are not served
    /// or the call did not complete.
    pub async fn memory_tool_call(
        &self,
        session: Arc<SessionCaller>,
        arguments: Value,
    ) -> Result<Result<TextAnswer, MemoryToolFailure>, ApiError> {
        let stores = service_of::<ops::MemoryTool>(self)?;
        blocking(move || Ok(stores.memory_tool_call(&session, &arguments))).await
    }
}

/// The service `O` runs on: the one of the two whose type is `O::Service` (the trait is sealed
/// to these two), or an internal error when the memory stores are not served.
fn service_of<O: Operation>(service: &AsyncService) -> Result<Arc<O::Service>, ApiError> {
    let memories: Arc<dyn Any + Send + Sync> = service.memories.clone();
    let stores = service
        .stores
        .clone()
        .map(|s| -> Arc<dyn Any + Send + Sync> { s });
    memories
        .downcast::<O::Service>()
        .ok()
        .or_else(|| stores.and_then(|s| s.downcast::<O::Service>().ok()))
        .ok_or_else(|| {
            tracing::error!(
                operation = O::NAME,
                "the host called a memory-store operation without serving the stores"
            );
            ApiError::new(
                ErrorCode::InternalError,
                "the memory-store operations are not served here",
            )
        })
}

/// Runs `work` on the blocking pool; a task that panicked is an internal error.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .unwrap_or_else(|_| Err(did_not_complete()))
}

fn did_not_complete() -> ApiError {
    tracing::error!("an operation's blocking task did not complete");
    ApiError::new(ErrorCode::InternalError, "the operation did not complete")
}

/// One async method per operation, named as the synchronous facade's.
macro_rules! async_methods {
    ($($(#[$doc:meta])* $name:ident => $op:ident,)*) => {
        impl AsyncService {$(
            $(#[$doc])*
            #[doc = concat!("The operation [`ops::", stringify!($op), "`] on the blocking pool.")]
            pub async fn $name(
                &self,
                caller: <ops::$op as Operation>::Caller,
                request: <ops::$op as Operation>::Request,
            ) -> Result<<ops::$op as Operation>::Response, ApiError> {
                self.run::<ops::$op>(caller, request).await
            }
        )*}
    };
}

async_methods! {
    settings_get => SettingsGet,
    owner_delete_all => OwnerDeleteAll,
    remember => Remember,
    remember_many => RememberBatch,
    recall => Recall,
    list => List,
    forget => Forget,
    settings_put => SettingsPut,
    member_list => MemberList,
    member_delete => MemberDelete,
    stores_create => StoresCreate,
    stores_get => StoresGet,
    stores_list => StoresList,
    stores_update => StoresUpdate,
    stores_archive => StoresArchive,
    stores_delete => StoresDelete,
    memories_create => MemoriesCreate,
    memories_get => MemoriesGet,
    memories_list => MemoriesList,
    memories_update => MemoriesUpdate,
    memories_delete => MemoriesDelete,
    memories_restore => MemoriesRestore,
    versions_list => VersionsList,
    versions_get => VersionsGet,
    versions_redact => VersionsRedact,
    sessions_create => SessionsCreate,
    sessions_resources_add => SessionsResourcesAdd,
    sessions_system_prompt => SessionsSystemPrompt,
    fs_list => FsList,
    fs_read => FsRead,
    fs_write => FsWrite,
    fs_delete => FsDelete,
    fs_rename => FsRename,
}
