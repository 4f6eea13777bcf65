//! The JSON edge of both products: [`JsonApi::call`] takes an operation by name, its caller and
//! its JSON body, and answers with the JSON response or the error body — for hosts that pick the
//! operation at run time (the replay runner); [`JsonApi::run`] takes the operation's type
//! ([`crate::ops`]) and its own caller type, for routers that know their routes. Both run the
//! operation's one implementation, which reads the body with the same field rules as the typed
//! API (at the same step of the order of checks), so the JSON contract and the Rust API cannot
//! drift apart.
//!
//! ```
//! use std::sync::Arc;
//! use agent_memory::backends::InMemoryBackend;
//! use agent_memory::json::{Caller, JsonApi, Operation};
//! use agent_memory::{InMemoryPassageSource, MemberCaller, MemberId, MemoryService, Role, WorkspaceId};
//!
//! let service = MemoryService::builder(
//!     Arc::new(InMemoryBackend::new()),
//!     Arc::new(InMemoryPassageSource::new()),
//! )
//! .build()?;
//! let owner = MemberCaller {
//!     workspace: WorkspaceId::new("ws1")?,
//!     member: MemberId::new("olivia")?,
//!     role: Role::Owner,
//! };
//! let api = JsonApi::new(&service);
//! let op = Operation::from_name("settings.put").ok_or("unknown operation")?;
//! let answer = api.answer(op, Caller::Member(&owner), &serde_json::json!({"retentionDays": 30}));
//! assert_eq!(answer.status, 200);
//! assert_eq!(answer.body["retentionDays"], 30);
//! let refused = api.answer(op, Caller::Member(&owner), &serde_json::json!({"retentionDays": 0}));
//! assert_eq!(refused.status, 400);
//! assert_eq!(refused.body["error"]["code"], "AGENT_MEMORY_INVALID_REQUEST");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::any::Any;

use memory_core::{ApiError, ErrorCode};
use serde::Serialize;
use serde_json::Value;

pub use crate::caller::Caller;
use crate::ops::{Body, TypedCaller, Visitor};
use crate::service::MemoryService;
use crate::stores::StoreService;

/// An operation of either product, named as the replay runner and the REST mapping name it
/// (`remember`, `settings.put`, `stores.create`, …): [`crate::ops::OperationName`], whose
/// variants are the operation types of [`crate::ops`] and which leads to them.
pub use crate::ops::OperationName as Operation;

/// An answer in HTTP terms: the status and the JSON body (the response, or `{"error": …}`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JsonAnswer {
    /// The HTTP status.
    pub status: u16,
    /// The response body.
    pub body: Value,
}

impl JsonAnswer {
    /// The answer to a result: `200` and the response, or the error's status and body.
    pub fn from_result(result: Result<Value, ApiError>) -> JsonAnswer {
        match result {
            Ok(body) => JsonAnswer { status: 200, body },
            Err(err) => JsonAnswer {
                status: err.http_status(),
                body: error_body(&err),
            },
        }
    }

    /// The answer to an operation's typed result: `200` and the response serialized, or the
    /// error's status and body.
    pub fn of<T: Serialize>(result: Result<T, ApiError>) -> JsonAnswer {
        JsonAnswer::from_result(to_json(result))
    }
}

/// The error body `{"error": {"code", "message", …}}` of `err`.
pub fn error_body(err: &ApiError) -> Value {
    serde_json::to_value(err).unwrap_or_else(|_| serde_json::json!({"error": {}}))
}

/// The services the JSON edge serves.
#[derive(Clone, Copy)]
pub struct JsonApi<'a> {
    memories: &'a MemoryService,
    stores: Option<&'a StoreService>,
}

impl<'a> JsonApi<'a> {
    /// The agent-memory operations of `memories`.
    pub fn new(memories: &'a MemoryService) -> Self {
        JsonApi {
            memories,
            stores: None,
        }
    }

    /// Also serves the memory-store operations of `stores`.
    pub fn with_stores(mut self, stores: &'a StoreService) -> Self {
        self.stores = Some(stores);
        self
    }

    /// Runs `operation` for `caller` on the JSON `body`: the response as JSON, or the error.
    /// A caller of another kind than the operation takes is a programming error of the host,
    /// answered `500`; a host that knows its operation at compile time calls
    /// [`JsonApi::run`], where it cannot happen.
    pub fn call(
        &self,
        operation: Operation,
        caller: Caller<'_>,
        body: &Value,
    ) -> Result<Value, ApiError> {
        operation.visit(Dispatch {
            api: *self,
            caller,
            body,
        })
    }

    /// [`JsonApi::call`] as an HTTP-shaped answer.
    pub fn answer(&self, operation: Operation, caller: Caller<'_>, body: &Value) -> JsonAnswer {
        JsonAnswer::from_result(self.call(operation, caller, body))
    }

    /// Runs the operation `O` for `caller` on `body`: its typed response, or the error.
    pub fn run<O: crate::ops::Operation>(
        &self,
        caller: &O::Caller,
        body: Body<'_, O::Request>,
    ) -> Result<O::Response, ApiError> {
        O::run(self.service::<O>()?, caller, body)
    }

    /// The service `O` runs on: the one of the two whose type is `O::Service` (the service
    /// trait is sealed to these two), or `None` for the memory stores when they are not served.
    fn service<O: crate::ops::Operation>(&self) -> Result<&'a O::Service, ApiError> {
        let memories: &'a dyn Any = self.memories;
        let stores: Option<&'a dyn Any> = self.stores.map(|s| s as &'a dyn Any);
        memories
            .downcast_ref()
            .or_else(|| stores.and_then(|s| s.downcast_ref()))
            .ok_or_else(|| not_served(O::NAME))
    }
}

/// [`JsonApi::call`] on the operation's type.
struct Dispatch<'a, 'c, 'b> {
    api: JsonApi<'a>,
    caller: Caller<'c>,
    body: &'b Value,
}

impl Visitor for Dispatch<'_, '_, '_> {
    type Output = Result<Value, ApiError>;

    fn visit<O: crate::ops::Operation>(self) -> Self::Output {
        // The caller is checked before the service, so that an agent operation with a store
        // caller is a wrong caller, not a service the host forgot.
        let Some(caller) = O::Caller::from_dyn(self.caller) else {
            return Err(wrong_caller(O::NAME, self.caller));
        };
        let service = self.api.service::<O>()?;
        to_json(O::run(service, caller, Body::Json(self.body)))
    }
}

/// A host passed a caller of another kind than the operation takes: a programming error of the
/// host, answered as an internal error naming no content.
fn wrong_caller(operation: &'static str, caller: Caller<'_>) -> ApiError {
    tracing::error!(
        operation,
        caller = caller.kind().name(),
        "the host called an operation with a caller of another kind"
    );
    ApiError::new(
        ErrorCode::InternalError,
        "the operation was called with a caller of another kind",
    )
}

/// A host asked for a memory-store operation of a [`JsonApi`] built without
/// [`JsonApi::with_stores`]: a programming error of the host, like [`wrong_caller`].
fn not_served(operation: &'static str) -> ApiError {
    tracing::error!(
        operation,
        "the host called a memory-store operation without serving the stores"
    );
    ApiError::new(
        ErrorCode::InternalError,
        "the memory-store operations are not served here",
    )
}

/// A response as JSON.
fn to_json<T: Serialize>(result: Result<T, ApiError>) -> Result<Value, ApiError> {
    let response = result?;
    serde_json::to_value(&response).map_err(|_| {
        ApiError::new(
            ErrorCode::InternalError,
            "a response could not be serialized",
        )
    })
}
