#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
// Leptos view types nest deeply; the default limit (128) is too low for the calculator page.
#![recursion_limit = "256"]

pub mod answers;
pub mod api;
pub mod assets;
pub mod client;
pub mod config;
pub mod limit;
pub mod security;
pub mod serve;
pub mod usage;
pub mod work;

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
use tower_http::trace::TraceLayer;

/// Largest request body accepted, in bytes.
pub const BODY_LIMIT: usize = 256 * 1024;
/// Largest saved-scenario request, in bytes: room for the longest name, note and query the
/// document allows, even with every character escaped as JSON's `\\uXXXX` surrogate pairs.
pub const SAVE_LIMIT: usize = 128 * 1024;
/// Saves per client per minute.
pub const SAVES_PER_MINUTE: u32 = 30;

/// The rate limit for saves.
pub fn save_limit() -> std::sync::Arc<limit::RateLimit> {
    std::sync::Arc::new(limit::RateLimit::new(
        SAVES_PER_MINUTE,
        Duration::from_secs(60),
    ))
}

/// Longest wait for a request body.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// Longest a request may take.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// Longest query string accepted, in bytes: a full scenario with 64 own points and a 168-hour
/// profile is under 4 KB.
pub const QUERY_LIMIT: usize = 8 * 1024;
/// Most headers a request may carry: browsers send about 20.
pub const HEADER_COUNT_LIMIT: usize = 100;
/// Largest sum of a request's header names and values, in bytes.
pub const HEADER_BYTES_LIMIT: usize = 32 * 1024;

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
    /// The origin people reach this server at, for absolute links (never the `Host` header).
    pub public_url: String,
    /// Proxies whose `X-Forwarded-For` names the client.
    pub trusted_proxies: std::sync::Arc<Vec<client::Cidr>>,
    /// The stylesheet's address (`/pkg/servecost-<hash>.css`).
    pub stylesheet: app::Stylesheet,
    /// The modules the bundle's script imports, preloaded beside it.
    pub preloads: app::ModulePreloads,
    /// The API documentation page, rendered once.
    pub docs_page: std::sync::Arc<std::sync::OnceLock<String>>,
    /// The embed documents last rendered.
    pub embeds: std::sync::Arc<api::embed::Rendered>,
    /// What bounds the reading of usage exports: how many at once, how many per client.
    pub usage: std::sync::Arc<api::usage::Admission>,
}

impl AppState {
    /// The state for `store` under `config`.
    pub fn new(store: Store, config: &config::Config) -> Self {
        // The manifest is read once, for both the script and the stylesheet.
        let assets = config.assets();
        Self {
            store,
            leptos: config.leptos_options_for(&assets),
            stylesheet: app::Stylesheet(format!("/{}/{}", config.site_pkg_dir, assets.stylesheet)),
            preloads: app::ModulePreloads(
                assets
                    .later
                    .iter()
                    .filter(|n| n.ends_with(".js"))
                    .map(|n| format!("/{}/{n}", config.site_pkg_dir))
                    .collect(),
            ),
            docs_page: Default::default(),
            embeds: Default::default(),
            usage: Default::default(),
            frame_ancestors: config.frame_ancestors.clone(),
            save_limit: save_limit(),
            public_url: config.public_url.clone(),
            trusted_proxies: std::sync::Arc::new(config.trusted_proxies.clone()),
        }
    }
}

impl FromRef<AppState> for LeptosOptions {
    fn from_ref(state: &AppState) -> Self {
        state.leptos.clone()
    }
}

async fn healthz(State(state): State<AppState>) -> (StatusCode, &'static str) {
    if !work::responsive(Duration::from_secs(2)).await {
        return work::STUCK;
    }
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

/// The calculator form posted by its paste button: 303 to the scenario's link. A body that is
/// not UTF-8 is read with its bad bytes replaced, so that any bytes get the redirect (whose
/// link [`app::query::href`] percent-encodes), never a 4xx of the extractor's or a 5xx.
async fn read_paste(
    State(state): State<AppState>,
    body: axum::body::Bytes,
) -> axum::response::Redirect {
    // A reason in the body is the client's, not the server's: taken out before the paste is read.
    let to = app::form::after_post(&app::notice::without(&String::from_utf8_lossy(&body)));
    let query = to.trim_start_matches('/').trim_start_matches('?');
    // A reason the paste could not be read is the server's own words: signed.
    axum::response::Redirect::to(&app::query::href(&state.store.notice_key().sign(query)))
}

/// The model's choice (`GET /model`, with and without JavaScript): 303 to the scenario on the
/// new model, what belonged to the old one left out and the figures of a chip the new model has
/// no curve on dropped, with a notice saying which (signed: the server's own words).
async fn switch_model(
    State(state): State<AppState>,
    axum::extract::RawQuery(query): axum::extract::RawQuery,
) -> axum::response::Redirect {
    let query = app::notice::without(&query.unwrap_or_default());
    let to = app::components::inputs::switched(&query, &state.store.current());
    axum::response::Redirect::to(&app::query::href(&state.store.notice_key().sign(&to)))
}

/// The header limit `headers` passes, named: [`HEADER_COUNT_LIMIT`] headers and
/// [`HEADER_BYTES_LIMIT`] bytes. The HTTP parser's own limits are set above these
/// ([`serve::Limits`]), so that a refusal is this JSON answer rather than the parser's empty one.
pub fn headers_over_limits(headers: &axum::http::HeaderMap) -> Option<servecost::Problem> {
    let number = |n: usize| servecost::format::exact(n as f64, false);
    let count = headers.len();
    if count > HEADER_COUNT_LIMIT {
        return Some(servecost::Problem::new(
            "headers",
            number(count),
            format!(
                "a request may carry at most {} headers",
                number(HEADER_COUNT_LIMIT)
            ),
        ));
    }
    let bytes: usize = headers
        .iter()
        .map(|(k, v)| k.as_str().len() + v.len())
        .sum();
    (bytes > HEADER_BYTES_LIMIT).then(|| {
        servecost::Problem::new(
            "headers",
            format!("{} bytes", number(bytes)),
            format!(
                "a request's header names and values may take at most {} bytes in all",
                number(HEADER_BYTES_LIMIT)
            ),
        )
    })
}

/// Refuses a query string over [`QUERY_LIMIT`] (414), headers over their limits (431), and gives the body limit's 413 the JSON
/// body every other error has.
async fn limits(
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    if req.uri().query().is_some_and(|q| q.len() > QUERY_LIMIT) {
        return api::ApiError::UriTooLong(QUERY_LIMIT).into_response();
    }
    if let Some(problem) = headers_over_limits(req.headers()) {
        return api::ApiError::HeadersTooLarge(problem).into_response();
    }
    let res = next.run(req).await;
    let json = res
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if res.status() == StatusCode::PAYLOAD_TOO_LARGE && !json {
        return api::ApiError::TooLarge.into_response();
    }
    res
}

/// The whole application: pages, JSON API, static files, with compression, a deadline kept on
/// a runtime of its own ([`work`]), size limits and security headers.
pub fn router(state: AppState) -> Router {
    let routes = generate_route_list(App);
    let store = state.store.clone();
    let public = app::PublicOrigin(state.public_url.clone());
    let options = state.leptos.clone();
    let stylesheet = state.stylesheet.clone();
    let preloads = state.preloads.clone();
    // The bundle's brotli and gzip copies are served as they are (never compressed again).
    let files = tower::Layer::layer(
        &axum::middleware::from_fn(assets::static_headers),
        ServeDir::new(options.site_root.as_ref())
            .precompressed_br()
            .precompressed_gzip(),
    );
    let frame_ancestors = state.frame_ancestors.clone();
    let usage_state = state.clone();
    // What a revalidated copy keeps from its first answer: a change here is a new ETag.
    let page_headers: std::sync::Arc<str> = format!(
        "{}|{}|{}|{}",
        security::CSP,
        frame_ancestors,
        state.leptos.output_name,
        state.stylesheet.0
    )
    .into();
    Router::new()
        .route("/healthz", get(healthz))
        // The benchmark editor's paste button posts the form without JavaScript (several
        // benchmark results would not fit in an address): back to the scenario's link.
        .route(
            "/",
            axum::routing::post(read_paste).layer(axum::extract::DefaultBodyLimit::max(BODY_LIMIT)),
        )
        .route("/model", get(switch_model))
        .route("/embed", get(api::embed::page))
        .route("/embed/s/{id}", get(api::embed::saved))
        .route("/api/v1/evaluate", get(api::evaluate))
        .route("/api/v1/options", get(api::options))
        .route("/api/v1/options.csv", get(api::options_csv))
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
            "/api/v1/scenarios/{id}/export.csv",
            get(api::scenarios::csv),
        )
        .route(
            "/s",
            axum::routing::post(api::scenarios::create_from_form)
                .layer(axum::extract::DefaultBodyLimit::max(SAVE_LIMIT)),
        )
        .leptos_routes_with_context(
            &state,
            routes,
            move || {
                provide_context(store.clone());
                provide_context(public.clone());
                provide_context(stylesheet.clone());
                provide_context(preloads.clone());
            },
            move || shell(options.clone()),
        )
        .fallback_service(files)
        .with_state(state)
        .layer(RequestBodyLimitLayer::new(BODY_LIMIT))
        // A usage export may run to 16 MiB: its route stands outside the general body limit,
        // and is read a few at a time, at a rate per client (`api::usage::admit`).
        .route(
            "/api/v1/usage",
            axum::routing::post(api::usage::read)
                .layer(axum::extract::DefaultBodyLimit::max(usage::LIMIT))
                .layer(axum::middleware::from_fn_with_state(
                    usage_state.clone(),
                    api::usage::admit,
                ))
                .with_state(usage_state.clone()),
        )
        // The calculator's usage form, with and without JavaScript: 303 to the scenario.
        .route(
            "/usage",
            axum::routing::post(api::usage::form)
                .layer(axum::extract::DefaultBodyLimit::max(usage::LIMIT))
                .layer(axum::middleware::from_fn_with_state(
                    usage_state.clone(),
                    api::usage::admit,
                ))
                .with_state(usage_state),
        )
        // A body that stalls holds its connection busy (never evicted); it gets 10 s.
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
            BODY_TIMEOUT,
        ))
        .layer(axum::middleware::from_fn(limits))
        // Redirects stay on the site; every refusal is the JSON error (API) or a small page.
        .layer(axum::middleware::from_fn(answers::keep))
        // Inside the compression: pages are hashed as HTML, before their encoding (a kept embed's
        // brotli or gzip copy, sent as it is, is hashed as sent: a representation of its own).
        .layer(axum::middleware::from_fn_with_state(
            page_headers,
            assets::revalidate,
        ))
        .layer(CompressionLayer::new())
        // Outside the hashing and the compression, which are CPU work too: the work runtime
        // renders, hashes and compresses, and hands the serving runtime a finished body.
        .layer(axum::middleware::from_fn_with_state(
            REQUEST_TIMEOUT,
            work::offload,
        ))
        .layer(axum::middleware::from_fn_with_state(
            frame_ancestors,
            security::headers,
        ))
        .layer(TraceLayer::new_for_http())
}
