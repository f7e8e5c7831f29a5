//! `GET /api/v1/dataset`: every source, model, chip, price tier, API offer, curve, headline and
//! published figure of the newest revision: every figure `/data` shows.

use std::sync::Arc;

use app::api::Fact;
use axum::extract::State;
use axum::Json;
use serde::Serialize;
use servecost::Dataset;

use crate::api::ApiError;
use crate::AppState;

/// The newest dataset revision as `/data` shows it.
#[derive(Serialize, utoipa::ToSchema)]
pub struct DatasetBody {
    /// The figures the calculator computes with. Each curve point gives its throughput; a point
    /// the source published as a cost also carries that cost and its price basis (`published`).
    #[serde(flatten)]
    #[schema(value_type = Dataset)]
    dataset: Arc<Dataset>,
    /// Every published figure of the revision, those the engine does not compute with included
    /// (e.g. the InferenceX $ per million tokens at a full GPU, the SGLang output tokens/s, the
    /// time to first token), each with its source.
    facts: Vec<Fact>,
}

/// The newest dataset: every figure the calculator uses and every published figure `/data`
/// lists, each citing its source.
#[utoipa::path(
    get,
    path = "/api/v1/dataset",
    tag = "data",
    responses(
        (status = 200, description = "The newest dataset revision", body = DatasetBody),
        (status = 500, description = "The database cannot be read", body = crate::api::ErrorBody),
    )
)]
pub async fn dataset(State(state): State<AppState>) -> Result<Json<DatasetBody>, ApiError> {
    let dataset = state.store.current();
    let facts = app::db::load_facts(&state.store.pool, dataset.revision)
        .await
        .map_err(|e| ApiError::Internal(format!("loading the published figures: {e}")))?;
    Ok(Json(DatasetBody { dataset, facts }))
}
