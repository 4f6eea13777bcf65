//! `/healthz` (the process serves) and `/readyz` (the host's check passes: for `serve`, the
//! database answers a read), both without credentials and without any data in the answer.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::codes::{HEALTHZ_PATH, NOT_READY, READYZ_PATH};

/// A host's readiness check (for example: the database answers a read). Runs on the blocking
/// pool.
pub type ReadyCheck = Arc<dyn Fn() -> bool + Send + Sync>;

/// How long `/readyz` waits for the check.
const READY_TIMEOUT: Duration = Duration::from_secs(5);

fn log(route: &'static str, status: StatusCode, started: Instant) {
    tracing::info!(
        target: "agent_memory_http",
        method = "GET",
        route,
        operation = "health",
        caller = "none",
        status = status.as_u16(),
        micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX),
        "request"
    );
}

pub(crate) async fn healthz() -> Response {
    let started = Instant::now();
    log(HEALTHZ_PATH, StatusCode::OK, started);
    (StatusCode::OK, axum::Json(json!({"status": "ok"}))).into_response()
}

pub(crate) async fn readyz(check: Option<ReadyCheck>) -> Response {
    let started = Instant::now();
    let ready = match check {
        None => true,
        Some(check) => matches!(
            tokio::time::timeout(READY_TIMEOUT, tokio::task::spawn_blocking(move || check())).await,
            Ok(Ok(true))
        ),
    };
    let response = if ready {
        (StatusCode::OK, axum::Json(json!({"status": "ready"}))).into_response()
    } else {
        crate::rest::router_error(
            StatusCode::SERVICE_UNAVAILABLE,
            NOT_READY,
            "the database does not answer",
        )
    };
    log(READYZ_PATH, response.status(), started);
    response
}
