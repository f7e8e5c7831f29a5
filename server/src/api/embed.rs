//! `/embed` and `/embed/s/{id}`: the compact views a wiki frames, rendered outside the app's
//! router (see [`app::static_document`]): a framed page is asked for far more often than the
//! calculator, and nothing in it hydrates.

use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};

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
/// 404 with the same frame when no saved scenario has the id.
pub async fn saved(
    State(state): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Response {
    let query = query.unwrap_or_default();
    match app::pages::embed_saved_document(&state.store, &id, &query, &state.stylesheet.0).await {
        Some(html) => Html(html).into_response(),
        None => (
            StatusCode::NOT_FOUND,
            Html(app::pages::embed_missing_document(&state.stylesheet.0)),
        )
            .into_response(),
    }
}
