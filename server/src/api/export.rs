//! Exports: `GET /api/v1/export.csv?<query>` (inputs, bill and per-class costs as numbers) and
//! `GET /api/v1/charts/{name}.svg?<query>` (one chart as SVG). The JSON report is
//! `/api/v1/evaluate`.

use axum::extract::{Path, RawQuery, State};
use axum::http::header;
use axum::response::IntoResponse;
use servecost::Problem;

use crate::api::evaluate::run;
use crate::api::ApiError;
use crate::AppState;

/// The report as CSV.
pub async fn csv(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Result<impl IntoResponse, ApiError> {
    let (report, _) = run(&state, query.as_deref())?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"servecost.csv\"",
            ),
        ],
        servecost::export::csv(&report),
    ))
}

/// One chart as SVG; `file` is `{name}.svg` with a name from `app::charts::NAMES`.
pub async fn chart(
    State(state): State<AppState>,
    Path(file): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<impl IntoResponse, ApiError> {
    let name = file.strip_suffix(".svg").unwrap_or(&file).to_owned();
    if !app::charts::NAMES.contains(&name.as_str()) {
        return Err(ApiError::NotFound(vec![Problem::new(
            "chart",
            &name,
            format!("no such chart; charts: {}", app::charts::NAMES.join(", ")),
        )]));
    }
    let (report, _) = run(&state, query.as_deref())?;
    let svg = app::charts::by_name(&name, &report).unwrap_or_default();
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml; charset=utf-8"),
            (
                header::CONTENT_DISPOSITION,
                "inline; filename=\"servecost-chart.svg\"",
            ),
        ],
        svg.replacen(
            "<svg ",
            "<svg xmlns=\"http://www.w3.org/2000/svg\" ",
            usize::from(!svg.contains("xmlns=")),
        ),
    ))
}
