//! One handler for every REST route: authenticate, read the input within the route's limit,
//! merge the path parameters, call the JSON edge on the blocking pool, answer its status and
//! body.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use agent_memory::caller::CallerKind;
use agent_memory::json::JsonAnswer;
use agent_memory::ops::{Operation, TypedCaller};
use agent_memory::{ApiError, AsyncService, ErrorCode};
use axum::body::{Body, Bytes};
use axum::extract::{FromRequestParts as _, Path, Query, Request};
use axum::http::header::{CONTENT_LENGTH, RETRY_AFTER};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::auth::Authenticator;
use crate::codes::{BODY_UNREADABLE, PATH_INVALID, REQUEST_TOO_LARGE, UNAUTHENTICATED};
use crate::routes::{Authenticated, Input, Route, query_value};

/// What every handler shares.
pub(crate) struct Shared<A> {
    /// Both facades, each operation run on tokio's blocking pool.
    pub(crate) services: AsyncService,
    pub(crate) auth: A,
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
        CallerKind::Member | CallerKind::Store | CallerKind::Session => router_error(
            StatusCode::UNAUTHORIZED,
            UNAUTHENTICATED,
            "the request has no valid credentials for this route",
        ),
    }
}

fn facade_error(err: &ApiError) -> Response {
    respond::<()>(Err(err.clone()))
}

fn too_large(route: &Route) -> Response {
    let (code, message) = match route.caller {
        CallerKind::Store | CallerKind::Session => (
            ErrorCode::MemoryTooLarge.as_str(),
            "the request body is larger than any valid body of this route",
        ),
        CallerKind::Agent | CallerKind::Member => (
            REQUEST_TOO_LARGE,
            "the request body is larger than any valid body of this route",
        ),
    };
    router_error(StatusCode::PAYLOAD_TOO_LARGE, code, message)
}

/// An operation's answer as a response: the response body, or the error's status and body with
/// `Retry-After` on a 429 (from the error itself, not read back from its body).
pub(crate) fn respond<T: Serialize>(result: Result<T, ApiError>) -> Response {
    let retry_after = match &result {
        Err(err) if err.http_status() == 429 => err.retry_after_seconds(),
        _ => None,
    };
    let answer = JsonAnswer::of(result);
    let status = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = (status, axum::Json(answer.body)).into_response();
    if let Some(seconds) = retry_after {
        response
            .headers_mut()
            .insert(RETRY_AFTER, HeaderValue::from(seconds));
    }
    response
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
            BODY_UNREADABLE,
            "the request body could not be read to its end",
        )),
    }
}

/// The operation's input as JSON, or `None` for a body that is not JSON (or a query string
/// that cannot be read): the operation refuses that at its own step of the order of checks
/// ([`Operation::unreadable`]). An empty body is `null`, which reads as `{}`.
fn input_value(route: &Route, parts: &Parts, bytes: &[u8]) -> Option<Value> {
    match route.input {
        Input::None => Some(Value::Object(Map::new())),
        Input::Body if bytes.iter().all(u8::is_ascii_whitespace) => Some(Value::Null),
        Input::Body => serde_json::from_slice(bytes).ok(),
        Input::Query => {
            let Query(pairs) = Query::<Vec<(String, String)>>::try_from_uri(&parts.uri).ok()?;
            let mut object = Map::new();
            for (name, raw) in pairs {
                let value = query_value(&name, &raw);
                object.insert(name, value);
            }
            Some(Value::Object(object))
        }
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

/// The handler of `route`, which calls the operation `O`.
pub(crate) async fn handle<A: Authenticator, O: Operation>(
    shared: Arc<Shared<A>>,
    route: &'static Route,
    request: Request,
) -> Response
where
    O::Caller: Authenticated,
{
    let started = Instant::now();
    let response = serve::<A, O>(shared, route, request).await;
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

async fn serve<A: Authenticator, O: Operation>(
    shared: Arc<Shared<A>>,
    route: &'static Route,
    request: Request,
) -> Response
where
    O::Caller: Authenticated,
{
    let (mut parts, body) = request.into_parts();
    let path = match Path::<BTreeMap<String, String>>::from_request_parts(&mut parts, &()).await {
        Ok(Path(path)) => path,
        Err(_) => {
            return router_error(
                StatusCode::BAD_REQUEST,
                PATH_INVALID,
                "a path parameter is not valid text",
            );
        }
    };
    let Some(caller) = O::Caller::authenticate(&shared.auth, &parts, &path).await else {
        return unauthenticated(<O::Caller as TypedCaller>::KIND);
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
    if let Some(value) = &mut value {
        merge_path(value, &path);
    }
    respond(shared.services.run_json::<O>(caller, value).await)
}
