//! `GET /api/v1/dataset`: every source, model, chip, price tier, API offer, curve and headline
//! of the newest revision.

use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use servecost::Dataset;

use crate::AppState;

/// The newest dataset: every figure the calculator uses, each citing its source.
#[utoipa::path(
    get,
    path = "/api/v1/dataset",
    tag = "data",
    responses((status = 200, description = "The newest dataset revision", body = Dataset))
)]
pub async fn dataset(State(state): State<AppState>) -> Json<Arc<Dataset>> {
    Json(state.store.current())
}
