#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
// Leptos view types nest deeply; the default limit (128) is too low for the calculator page.
#![recursion_limit = "256"]

pub mod api;
pub mod config;
pub mod import;
pub mod limit;
pub mod security;

use std::time::Duration;

use app::db::Store;
use app::{shell, App};
use axum::extract::{FromRef, State};
use axum::http::StatusCode;
use axum::routing::get;
use axum::Router;
use leptos::prelude::{provide_context, LeptosOptions};
use leptos_axum::{generate_route_list, LeptosRoutes};
use tower_http::compression::CompressionLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::services::ServeDir;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

/// Largest request body accepted, in bytes.
pub const BODY_LIMIT: usize = 256 * 1024;
/// Largest saved-scenario request, in bytes.
pub const SAVE_LIMIT: usize = 16 * 1024;
/// Saves per client per minute.
pub const SAVES_PER_MINUTE: u32 = 30;

/// The rate limit for saves.
pub fn save_limit() -> std::sync::Arc<limit::RateLimit> {
    std::sync::Arc::new(limit::RateLimit::new(
        SAVES_PER_MINUTE,
        Duration::from_secs(60),
    ))
}

/// Longest a request may take.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// What every handler can reach.
#[derive(Clone)]
pub struct AppState {
    /// The database and the newest dataset.
    pub store: Store,
    /// Leptos's options (site root, output name, address).
    pub leptos: LeptosOptions,
    /// The CSP source list allowed to frame embed routes.
    pub frame_ancestors: String,
    /// Saves allowed per client.
    pub save_limit: std::sync::Arc<limit::RateLimit>,
}

impl FromRef<AppState> for LeptosOptions {
    fn from_ref(state: &AppState) -> Self {
        state.leptos.clone()
    }
}

async fn healthz(State(state): State<AppState>) -> (StatusCode, &'static str) {
    match sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM dataset_revisions")
        .fetch_one(&state.store.pool)
        .await
    {
        Ok(n) if n > 0 => (StatusCode::OK, "ok"),
        Ok(_) => (StatusCode::SERVICE_UNAVAILABLE, "no dataset"),
        Err(e) => {
            tracing::error!(error = %e, "health check failed");
            (StatusCode::SERVICE_UNAVAILABLE, "database unavailable")
        }
    }
}

/// The whole application: pages, JSON API, static files, with compression, a timeout, a body
/// limit and security headers.
pub fn router(state: AppState) -> Router {
    let routes = generate_route_list(App);
    let store = state.store.clone();
    let options = state.leptos.clone();
    let files = ServeDir::new(options.site_root.as_ref());
    let frame_ancestors = state.frame_ancestors.clone();
    Router::new()
        .route("/healthz", get(healthz))
        .route("/api/v1/evaluate", get(api::evaluate))
        .route("/api/v1/dataset", get(api::dataset))
        .route("/api/v1/openapi.json", get(api::openapi::openapi))
        .route("/api/v1/docs", get(api::docs::docs))
        .route("/api/v1/export.csv", get(api::csv))
        .route("/api/v1/charts/{file}", get(api::chart))
        .route("/oembed", get(api::oembed))
        .route(
            "/api/v1/scenarios",
            axum::routing::post(api::scenarios::create)
                .layer(axum::extract::DefaultBodyLimit::max(SAVE_LIMIT)),
        )
        .route("/api/v1/scenarios/{id}", get(api::scenarios::get))
        .route(
            "/s",
            axum::routing::post(api::scenarios::create_from_form)
                .layer(axum::extract::DefaultBodyLimit::max(SAVE_LIMIT)),
        )
        .leptos_routes_with_context(
            &state,
            routes,
            move || provide_context(store.clone()),
            move || shell(options.clone()),
        )
        .fallback_service(files)
        .with_state(state)
        .layer(RequestBodyLimitLayer::new(BODY_LIMIT))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            REQUEST_TIMEOUT,
        ))
        .layer(CompressionLayer::new())
        .layer(axum::middleware::from_fn_with_state(
            frame_ancestors,
            security::headers,
        ))
        .layer(TraceLayer::new_for_http())
}
