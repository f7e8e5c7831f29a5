//! `GET /api/v1/evaluate?<scenario query>`: the engine's report, with the parameters ignored.

use axum::extract::{RawQuery, State};
use axum::Json;
use serde::Serialize;
use servecost::{Problem, Report};

use crate::api::ApiError;
use crate::AppState;

/// The report, with the stable field names, and what was ignored.
#[derive(Serialize)]
pub struct Evaluated {
    /// The report.
    #[serde(flatten)]
    pub report: Report,
    /// Unknown or inapplicable parameters, each with the reason.
    pub ignored: Vec<Problem>,
}

/// Reads and evaluates a query against the newest dataset: the report and what was ignored.
pub fn run(state: &AppState, query: Option<&str>) -> Result<(Report, Vec<Problem>), ApiError> {
    let parsed = servecost::parse(query.unwrap_or_default()).map_err(ApiError::BadRequest)?;
    let data = state.store.current();
    let report = servecost::evaluate(&parsed.scenario, &data).map_err(ApiError::Unprocessable)?;
    Ok((report, parsed.warnings))
}

/// Evaluates the scenario in the query string against the newest dataset.
pub async fn evaluate(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Result<Json<Evaluated>, ApiError> {
    let (report, ignored) = run(&state, query.as_deref())?;
    Ok(Json(Evaluated { report, ignored }))
}
