//! The host's own port (`SETTAI_METRICS_ADDR`): `/metrics` in the Prometheus text format,
//! `/healthz` (the process answers) and `/readyz` (it can serve players), apart from the
//! interactions endpoint so that it is never exposed with it (docs/design/operations.md).

use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use super::Metrics;

/// Serves `/metrics`, `/healthz` and `/readyz` on `listener` until `stop` completes.
pub async fn serve(
    listener: tokio::net::TcpListener,
    metrics: Arc<Metrics>,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let app = Router::new()
        .route("/metrics", get(scrape))
        .route("/healthz", get(|| async { "ok\n" }))
        .route("/readyz", get(ready))
        .with_state(metrics);
    tracing::info!(address = %listener.local_addr()?, "serving metrics and health checks");
    axum::serve(listener, app).with_graceful_shutdown(stop).await
}

/// `GET /metrics`: the figures read on demand are brought up to date first.
async fn scrape(State(metrics): State<Arc<Metrics>>) -> Response {
    // A part that is not ready still reports what it can; /readyz says what is wrong.
    let _ = metrics.figures().check_all().await;
    match metrics.encode() {
        Ok(text) => ([(header::CONTENT_TYPE, super::CONTENT_TYPE)], text).into_response(),
        Err(e) => {
            tracing::error!(error = %e, "could not encode the metrics");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

/// `GET /readyz`: 200 while the database answers and the bot is connected to Discord (or its
/// interactions endpoint listens); 503 with what is wrong otherwise.
async fn ready(State(metrics): State<Arc<Metrics>>) -> Response {
    match metrics.figures().check_all().await {
        Ok(()) => (StatusCode::OK, "ready\n").into_response(),
        Err(wrong) => {
            tracing::debug!(?wrong, "not ready");
            (StatusCode::SERVICE_UNAVAILABLE, format!("not ready: {}\n", wrong.join("; "))).into_response()
        }
    }
}
