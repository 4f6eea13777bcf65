//! One handler for every REST route: authenticate, read the input within the route's limit,
//! merge the path parameters, call the JSON edge on the blocking pool, answer its status and
//! body.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use agent_memory::json::{Caller, JsonAnswer, JsonApi};
use agent_memory::{AgentCaller, ApiError, ErrorCode, MemoryService, StoreService, WorkspaceId};
use axum::body::{Body, Bytes};
use axum::extract::{FromRequestParts as _, Path, Query, Request};
use axum::http::header::{CONTENT_LENGTH, RETRY_AFTER};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use serde_json::{Map, Value, json};

use crate::Authenticator;
use crate::routes::{CallerKind, Input, Route, query_value};

/// What every handler shares.
pub(crate) struct Shared<A> {
    pub(crate) memories: Arc<MemoryService>,
    pub(crate) stores: Option<Arc<StoreService>>,
    pub(crate) auth: A,
}

/// The caller an authenticated request acts as, owned so it can move to the blocking pool.
enum Owned {
    Agent(AgentCaller),
    Member(agent_memory::MemberCaller),
    Store(agent_memory::StoreCaller),
}

impl Owned {
    fn caller(&self) -> Caller<'_> {
        match self {
            Owned::Agent(c) => Caller::Agent(c),
            Owned::Member(c) => Caller::Member(c),
            Owned::Store(c) => Caller::Store(c),
        }
    }
}

/// An answer of the router itself (not of the facade): status, stable code, static message.
pub(crate) fn router_error(status: StatusCode, code: &str, message: &str) -> Response {
    let body = json!({"error": {"code": code, "message": message}});
    (status, axum::Json(body)).into_response()
}

fn unauthenticated(kind: CallerKind) -> Response {
    match kind {
        // The contract's answer for agents: the facade's own error, so the body is the one a
        // resolved-but-unknown credential gets.
        CallerKind::Agent => facade_error(&ApiError::new(
            ErrorCode::AgentCredentialInvalid,
            "the agent credential is missing, unknown or not valid here",
        )),
        CallerKind::Member | CallerKind::Store => router_error(
            StatusCode::UNAUTHORIZED,
            crate::UNAUTHENTICATED,
            "the request has no valid credentials for this route",
        ),
    }
}

fn facade_error(err: &ApiError) -> Response {
    answer(JsonAnswer::from_result(Err(err.clone())))
}

fn too_large(route: &Route) -> Response {
    let (code, message) = match route.caller {
        CallerKind::Store => (
            ErrorCode::MemoryTooLarge.as_str(),
            "the request body is larger than any valid body of this route",
        ),
        CallerKind::Agent | CallerKind::Member => (
            crate::REQUEST_TOO_LARGE,
            "the request body is larger than any valid body of this route",
        ),
    };
    router_error(StatusCode::PAYLOAD_TOO_LARGE, code, message)
}

/// The JSON edge's answer as a response, with `Retry-After` on a 429.
pub(crate) fn answer(answer: JsonAnswer) -> Response {
    let status = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let retry_after = answer.body["error"]["retryAfterSeconds"].as_u64();
    let mut response = (status, axum::Json(answer.body)).into_response();
    if status == StatusCode::TOO_MANY_REQUESTS
        && let Some(seconds) = retry_after
    {
        response
            .headers_mut()
            .insert(RETRY_AFTER, HeaderValue::from(seconds));
    }
    response
}

async fn authenticate<A: Authenticator>(
    shared: &Shared<A>,
    route: &Route,
    parts: &Parts,
    path: &BTreeMap<String, String>,
) -> Option<Owned> {
    match route.caller {
        CallerKind::Agent => shared.auth.agent(parts).await.map(Owned::Agent),
        CallerKind::Member => {
            let workspace = WorkspaceId::new(path.get("ws_id")?.as_str()).ok()?;
            let member = shared.auth.member(parts, &workspace).await?;
            // Tenant isolation by exact equality, whatever the authenticator returned.
            (member.workspace == workspace).then_some(Owned::Member(member))
        }
        CallerKind::Store => shared.auth.store(parts).await.map(Owned::Store),
    }
}

/// Reads the body within `limit`: `Err` is the 413 (or the 400 of a body that broke off).
async fn read_body(route: &Route, parts: &Parts, body: Body) -> Result<Bytes, Response> {
    let declared = parts
        .headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > route.body_limit as u64) {
        return Err(too_large(route));
    }
    match Limited::new(body, route.body_limit).collect().await {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(err) if err.downcast_ref::<LengthLimitError>().is_some() => Err(too_large(route)),
        Err(_) => Err(router_error(
            StatusCode::BAD_REQUEST,
            crate::BODY_UNREADABLE,
            "the request body could not be read to its end",
        )),
    }
}

/// The operation's input as the JSON edge reads it. A body that is not JSON becomes a value
/// that is not an object, so the facade refuses it at its own step of the order of checks.
fn input_value(route: &Route, parts: &Parts, bytes: &[u8]) -> Value {
    match route.input {
        Input::None => Value::Object(Map::new()),
        Input::Body if bytes.iter().all(u8::is_ascii_whitespace) => Value::Null,
        Input::Body => serde_json::from_slice(bytes).unwrap_or(Value::Bool(false)),
        Input::Query => match Query::<Vec<(String, String)>>::try_from_uri(&parts.uri) {
            Ok(Query(pairs)) => {
                let mut object = Map::new();
                for (name, raw) in pairs {
                    let value = query_value(&name, &raw);
                    object.insert(name, value);
                }
                Value::Object(object)
            }
            Err(_) => Value::Bool(false),
        },
    }
}

/// The path parameters (all but the workspace, which chose the caller) go into the body; the
/// path wins over a body field of the same name.
fn merge_path(value: &mut Value, path: &BTreeMap<String, String>) {
    let params = path.iter().filter(|(name, _)| name.as_str() != "ws_id");
    if value.is_null() && path.keys().any(|k| k != "ws_id") {
        *value = Value::Object(Map::new());
    }
    if let Value::Object(object) = value {
        for (name, raw) in params {
            object.insert(name.clone(), Value::from(raw.as_str()));
        }
    }
}

pub(crate) async fn handle<A: Authenticator>(
    shared: Arc<Shared<A>>,
    route: &'static Route,
    request: Request,
) -> Response {
    let started = Instant::now();
    let response = serve(shared, route, request).await;
    // Only the route's template, the operation and the status: never a path parameter, a query
    // or a body.
    tracing::info!(
        target: "agent_memory_http",
        method = route.method.method().as_str(),
        route = route.path,
        operation = route.operation.name(),
        caller = route.caller.name(),
        status = response.status().as_u16(),
        micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX),
        "request"
    );
    response
}

async fn serve<A: Authenticator>(
    shared: Arc<Shared<A>>,
    route: &'static Route,
    request: Request,
) -> Response {
    let (mut parts, body) = request.into_parts();
    let path = match Path::<BTreeMap<String, String>>::from_request_parts(&mut parts, &()).await {
        Ok(Path(path)) => path,
        Err(_) => {
            return router_error(
                StatusCode::BAD_REQUEST,
                crate::PATH_INVALID,
                "a path parameter is not valid text",
            );
        }
    };
    let Some(caller) = authenticate(&shared, route, &parts, &path).await else {
        return unauthenticated(route.caller);
    };
    let bytes = if route.input == Input::Body {
        match read_body(route, &parts, body).await {
            Ok(bytes) => bytes,
            Err(response) => return response,
        }
    } else {
        Bytes::new()
    };
    let mut value = input_value(route, &parts, &bytes);
    merge_path(&mut value, &path);
    let operation = route.operation;
    let answered = tokio::task::spawn_blocking(move || {
        let mut api = JsonApi::new(&shared.memories);
        if let Some(stores) = &shared.stores {
            api = api.with_stores(stores);
        }
        api.answer(operation, caller.caller(), &value)
    })
    .await;
    match answered {
        Ok(json) => answer(json),
        Err(_) => facade_error(&ApiError::new(
            ErrorCode::InternalError,
            "the operation did not complete",
        )),
    }
}
