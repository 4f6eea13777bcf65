//! `/metrics`, served when the host hands the router a rendering of its metrics
//! ([`Api::with_metrics`](crate::Api::with_metrics)): the text the host's recorder renders, in
//! the Prometheus text format, to a caller the [`Authenticator`] lets scrape
//! ([`Authenticator::metrics`]; with [`StaticTokens`](crate::StaticTokens), an owner's token).
//! This crate installs no recorder and depends on no exporter: the host chooses both.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::Request;
use axum::http::StatusCode;
use axum::http::header::{CONTENT_TYPE, WWW_AUTHENTICATE};
use axum::response::{IntoResponse, Response};

use crate::auth::Authenticator;
use crate::codes::{METRICS_PATH, UNAUTHENTICATED};
use crate::rest::{Shared, router_error};

/// Renders the host's metrics as Prometheus text (for example
/// `metrics_exporter_prometheus::PrometheusHandle::render`). Called once per scrape, on the
/// blocking pool.
pub type MetricsRender = Arc<dyn Fn() -> String + Send + Sync>;

/// The content type of the Prometheus text exposition format, version 0.0.4.
pub const PROMETHEUS_TEXT: &str = "text/plain; version=0.0.4; charset=utf-8";

fn log(caller: &'static str, status: StatusCode, started: Instant) {
    tracing::info!(
        target: "agent_memory_http",
        method = "GET",
        route = METRICS_PATH,
        operation = "metrics",
        caller,
        status = status.as_u16(),
        micros = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX),
        "request"
    );
}

/// `GET /metrics`.
pub(crate) async fn scrape<A: Authenticator>(
    shared: Arc<Shared<A>>,
    render: MetricsRender,
    request: Request,
) -> Response {
    let started = Instant::now();
    let (parts, _) = request.into_parts();
    if !shared.auth.metrics(&parts).await {
        log("none", StatusCode::UNAUTHORIZED, started);
        let mut response = router_error(
            StatusCode::UNAUTHORIZED,
            UNAUTHENTICATED,
            "the request has no valid credentials for this route",
        );
        response
            .headers_mut()
            .insert(WWW_AUTHENTICATE, "Bearer".parse().expect("a valid header"));
        return response;
    }
    let response = match tokio::task::spawn_blocking(move || render()).await {
        Ok(text) => (StatusCode::OK, [(CONTENT_TYPE, PROMETHEUS_TEXT)], text).into_response(),
        Err(_) => router_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            agent_memory::ErrorCode::InternalError.as_str(),
            "the metrics could not be rendered",
        ),
    };
    log("scraper", response.status(), started);
    response
}
