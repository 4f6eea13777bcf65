//! Operations as types: every operation of both products is a type implementing [`Operation`],
//! which names its service, its caller kind, its request and response types, its REST route
//! and its MCP tool where it has one, and holds its implementation. The product crates define
//! the operation types (the facade the agent-memory ones, `agent-memory-stores` the
//! memory-store ones), and the facade's `ops` module re-exports all of them with this module,
//! so that the typed methods of both services, the JSON edge, a REST router, the OpenAPI
//! document and the MCP tools all call or read the same type: an operation is written once and
//! cannot be called with a caller of another kind.

use governance_policy::Request;
use memory_core::{ApiError, ErrorCode};
use serde::Serialize;
use serde_json::Value;

use crate::caller::{AgentCaller, MemberCaller, SessionCaller, StoreCaller};
pub use crate::caller::{Caller, CallerKind};
pub use crate::input::{Body, Unreadable};
use crate::sealed;
use crate::telemetry::Observation;
pub use crate::telemetry::{GenAiOperation, Tally};

/// The service an operation runs on: the facade's `MemoryService` (agent memories) or
/// `agent-memory-stores`' `StoreService` (memory stores).
pub trait Service: sealed::Sealed + Send + Sync + 'static {
    /// The code of an invalid request in this service's product.
    const INVALID_REQUEST: ErrorCode;
}

/// A caller type: [`AgentCaller`], [`MemberCaller`], [`StoreCaller`] or [`SessionCaller`].
pub trait TypedCaller: sealed::Sealed + Send + Sync + 'static {
    /// The kind this type is.
    const KIND: CallerKind;

    /// The caller behind `caller` when it is of this kind.
    fn from_dyn<'a>(caller: Caller<'a>) -> Option<&'a Self>;

    /// This caller as a caller of any kind.
    fn to_dyn(&self) -> Caller<'_>;
}

macro_rules! typed_callers {
    ($($kind:ident => $type:ty,)*) => {$(
        impl sealed::Sealed for $type {}
        impl TypedCaller for $type {
            const KIND: CallerKind = CallerKind::$kind;

            fn from_dyn<'a>(caller: Caller<'a>) -> Option<&'a Self> {
                match caller {
                    Caller::$kind(c) => Some(c),
                    _ => None,
                }
            }

            fn to_dyn(&self) -> Caller<'_> {
                Caller::$kind(self)
            }
        }
    )*};
}

typed_callers! {
    Agent => AgentCaller,
    Member => MemberCaller,
    Store => StoreCaller,
    Session => SessionCaller,
}

/// The HTTP methods of the REST routes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HttpMethod {
    /// `GET`
    Get,
    /// `POST`
    Post,
    /// `PUT`
    Put,
    /// `DELETE`
    Delete,
}

impl HttpMethod {
    /// The lower-case name OpenAPI uses (`get`, `post`, …).
    pub fn name(self) -> &'static str {
        match self {
            HttpMethod::Get => "get",
            HttpMethod::Post => "post",
            HttpMethod::Put => "put",
            HttpMethod::Delete => "delete",
        }
    }
}

/// Where a REST route's input comes from besides the path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HttpInput {
    /// A JSON object in the body.
    Body,
    /// The query string (`GET` lists).
    Query,
    /// Nothing (the path says everything).
    None,
}

/// The REST route of an operation. Path parameters other than `{ws_id}` (which names the
/// workspace of a [`MemberCaller`]) are fields of the request; the router puts them in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HttpRoute {
    /// The method.
    pub method: HttpMethod,
    /// The path in axum's syntax (`/v1/memory_stores/{memory_store_id}`).
    pub path: &'static str,
    /// Where the input comes from.
    pub input: HttpInput,
    /// One line for the OpenAPI document.
    pub summary: &'static str,
}

/// One operation of either product. Implemented by the operation types of the facade and of
/// `agent-memory-stores` only.
pub trait Operation: sealed::Sealed + Sized + 'static {
    /// The name the replay runner, the JSON edge and the logs use (`remember`, `stores.create`).
    const NAME: &'static str;
    /// The REST route, for the operations that have one.
    const HTTP: Option<HttpRoute> = None;
    /// The MCP tool name, for the operations that are a tool of the agent-memory MCP server.
    const MCP_TOOL: Option<&'static str> = None;
    /// The value of OpenTelemetry's `gen_ai.operation.name` on the operation's span, for the
    /// operations one of the GenAI memory operations describes.
    const GEN_AI_OPERATION: Option<GenAiOperation> = None;
    /// The service it runs on.
    type Service: Service;
    /// Who may call it.
    type Caller: TypedCaller;
    /// Its request.
    type Request: Request + Clone;
    /// Its response, serialized exactly as the REST response body.
    type Response: Serialize + Send + 'static;

    /// The operation itself, in the spec's order of checks; the request is read at step 5.
    fn execute(
        service: &Self::Service,
        caller: &Self::Caller,
        request: Body<'_, Self::Request>,
    ) -> Result<Self::Response, ApiError>;

    /// Traces the answer: ids and counts, or the refusal's code; never content.
    fn trace(caller: &Self::Caller, result: &Result<Self::Response, ApiError>) {
        let _ = (caller, result);
    }

    /// The counts of an answer that the operation's span records (nothing by default).
    fn tally(response: &Self::Response) -> Tally<'_> {
        let _ = response;
        Tally::default()
    }

    /// Runs the operation inside its span (`agent_memory.operation`), traces its answer, records
    /// the outcome, the counts and the latency on the span and counts the call in the metrics
    /// (`crate::telemetry`).
    fn run(
        service: &Self::Service,
        caller: &Self::Caller,
        request: Body<'_, Self::Request>,
    ) -> Result<Self::Response, ApiError> {
        let observation = Observation::start::<Self>(caller);
        let result = observation.span().in_scope(|| {
            let result = Self::execute(service, caller, request);
            Self::trace(caller, &result);
            result
        });
        observation.finish::<Self>(&result);
        result
    }

    /// A body of this operation that could not be read (not JSON, or a broken query string):
    /// refused with the product's invalid-request error once the caller's access is settled.
    fn unreadable<'a>() -> Body<'a, Self::Request> {
        Body::Unreadable(Unreadable(<Self::Service as Service>::INVALID_REQUEST))
    }
}

/// The request of an operation that reads none (`settings.get`, `agentMemories.deleteAll`): any
/// body is ignored.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NoRequest;

impl Request for NoRequest {
    fn from_json(_: &Value) -> Result<Self, ApiError> {
        Ok(NoRequest)
    }

    fn validate(&self) -> Result<(), ApiError> {
        Ok(())
    }
}

/// The memory tool's input as the model sent it: its command decides which fields it takes, and
/// `StoreService::memory_tool` reads them.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolInput(pub Value);

impl Request for ToolInput {
    fn from_json(value: &Value) -> Result<Self, ApiError> {
        Ok(ToolInput(value.clone()))
    }

    fn validate(&self) -> Result<(), ApiError> {
        Ok(())
    }
}

/// A shorthand for the operations' REST routes.
pub const fn route(
    method: HttpMethod,
    path: &'static str,
    input: HttpInput,
    summary: &'static str,
) -> Option<HttpRoute> {
    Some(HttpRoute {
        method,
        path,
        input,
        summary,
    })
}

/// Declares operation types: a unit type per operation, sealed (see the crate docs). For the
/// product crates; their `Operation` implementations follow.
#[doc(hidden)]
#[macro_export]
macro_rules! operation_types {
    ($($(#[$doc:meta])* $op:ident,)*) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct $op;
        impl $crate::sealed::Sealed for $op {}
    )*};
}
