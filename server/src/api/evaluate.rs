//! `GET /api/v1/evaluate?<scenario query>`: the engine's report, with the parameters ignored.

use axum::extract::{RawQuery, State};
use axum::Json;
use serde::Serialize;
use servecost::{Problem, Report};

use crate::api::{ApiError, ErrorBody};
use crate::AppState;

/// The report, with the stable field names, and what was ignored.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Evaluated {
    /// The report.
    #[serde(flatten)]
    pub report: Report,
    /// Unknown or inapplicable parameters, each with the reason.
    pub ignored: Vec<Problem>,
}

/// Reads and evaluates a query against the newest dataset: the report and what was ignored.
pub fn run(state: &AppState, query: Option<&str>) -> Result<(Report, Vec<Problem>), ApiError> {
    let parsed = servecost::codec::parse_checked(query.unwrap_or_default()).map_err(refused)?;
    let data = state.store.current();
    let report = servecost::evaluate(&parsed.scenario, &data).map_err(ApiError::Unprocessable)?;
    Ok((report, parsed.warnings))
}

/// A query without a scenario: 400 when a value cannot be read, 422 when readable values have
/// no answer together.
pub fn refused(r: servecost::codec::Refused) -> ApiError {
    if r.unreadable.is_empty() {
        ApiError::Unprocessable(r.no_answer)
    } else {
        ApiError::BadRequest(r.all())
    }
}

/// Evaluates a scenario against the newest dataset.
///
/// The query is the same as the calculator page's (`/?…`): every parameter is optional and
/// defaults to the published scenario. Unknown parameters are ignored and listed in `ignored`.
#[utoipa::path(
    get,
    path = "/api/v1/evaluate",
    tag = "scenarios",
    responses(
        (status = 200, description = "The report, with the engine's stable field names", body = Evaluated),
        (status = 400, description = "A parameter cannot be read or is out of range", body = ErrorBody),
        (status = 414, description = "The query string is over 8 KiB", body = ErrorBody),
        (status = 503, description = "The answer took longer than 30 s (never for a valid scenario; retry after `Retry-After`)", body = ErrorBody),
        (status = 422, description = "The parameters have no answer (e.g. a replica that cannot hold the model's weights)", body = ErrorBody),
    )
)]
pub async fn evaluate(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Result<Json<Evaluated>, ApiError> {
    let (report, ignored) = run(&state, query.as_deref())?;
    Ok(Json(Evaluated { report, ignored }))
}
