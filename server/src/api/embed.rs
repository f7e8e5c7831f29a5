//! `/embed` and `/embed/s/{id}`: the compact views a wiki frames, rendered outside the app's
//! router (see [`app::static_document`]): a framed page is asked for far more often than the
//! calculator, and nothing in it hydrates.

use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};

use app::pages::EmbedMissing;

use crate::AppState;

/// `GET /embed?…`: the compact view of the link's scenario, with the newest data.
pub async fn page(State(state): State<AppState>, RawQuery(query): RawQuery) -> Html<String> {
    let data = state.store.current();
    Html(app::pages::embed_document(
        query.as_deref().unwrap_or_default(),
        &data,
        &state.stylesheet.0,
    ))
}

/// `GET /embed/s/{id}?chart=…`: the compact view of a saved scenario at its pinned revision;
/// in the same frame, 404 when no saved scenario has the id, 503 with `Retry-After` when the
/// database failed (the link may work again), and the problems of a saved scenario that no longer evaluates.
pub async fn saved(
    State(state): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Response {
    let query = query.unwrap_or_default();
    match app::pages::embed_saved_document(&state.store, &id, &query, &state.stylesheet.0).await {
        Ok(html) => Html(html).into_response(),
        Err((why, html)) => {
            let status = match why {
                EmbedMissing::NotFound => StatusCode::NOT_FOUND,
                EmbedMissing::Problems => StatusCode::OK,
                EmbedMissing::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            };
            let mut response = (status, Html(html)).into_response();
            if why == EmbedMissing::Unavailable {
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
            }
            response
        }
    }
}
