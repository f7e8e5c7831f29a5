//! Exports: `GET /api/v1/export.csv?<query>` (inputs, bill and per-class costs as numbers) and
//! `GET /api/v1/charts/{name}.svg?<query>` (one chart as SVG). The JSON report is
//! `/api/v1/evaluate`.

use axum::extract::{Path, RawQuery, State};
use axum::http::header;
use axum::response::IntoResponse;
use servecost::Problem;

use crate::api::evaluate::run;
use crate::api::{ApiError, ErrorBody};
use crate::AppState;

/// The report as CSV: the inputs, the monthly bill line by line and the cost per class, as plain
/// numbers with a header naming each unit. Takes the same query as `/api/v1/evaluate`.
#[utoipa::path(
    get,
    path = "/api/v1/export.csv",
    tag = "exports",
    responses(
        (status = 200, description = "CSV (section, item, value, unit, source)", content_type = "text/csv", body = String),
        (status = 400, description = "A parameter cannot be read or is out of range", body = ErrorBody),
        (status = 414, description = "The query string is over 8 KiB", body = ErrorBody),
        (status = 503, description = "The answer took longer than 30 s (never for a valid scenario; retry after `Retry-After`)", body = ErrorBody),
        (status = 422, description = "The parameters have no answer", body = ErrorBody),
    )
)]
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

/// One chart of the report as a standalone SVG. Takes the same query as `/api/v1/evaluate`.
#[utoipa::path(
    get,
    path = "/api/v1/charts/{file}",
    tag = "exports",
    params(("file" = String, Path, description = "`{name}.svg`, the name one of the charts listed in the parameter's schema")),
    responses(
        (status = 200, description = "The chart", content_type = "image/svg+xml", body = String),
        (status = 400, description = "A parameter cannot be read or is out of range", body = ErrorBody),
        (status = 414, description = "The query string is over 8 KiB", body = ErrorBody),
        (status = 503, description = "The answer took longer than 30 s (never for a valid scenario; retry after `Retry-After`)", body = ErrorBody),
        (status = 404, description = "No chart has this name", body = ErrorBody),
        (status = 422, description = "The parameters have no answer", body = ErrorBody),
    )
)]
pub async fn chart(
    State(state): State<AppState>,
    Path(file): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<impl IntoResponse, ApiError> {
    let name = file.strip_suffix(".svg").unwrap_or(&file).to_owned();
    if app::charts::Chart::from_key(&name).is_none() {
        return Err(ApiError::NotFound(vec![Problem::new(
            "chart",
            &name,
            format!(
                "no such chart; charts: {}",
                app::charts::NAMES.map(app::charts::Chart::key).join(", ")
            ),
        )]));
    }
    let (report, _) = run(&state, query.as_deref())?;
    let data = state.store.current();
    let link = format!("{}/?{}", state.public_url, report.query);
    let svg = app::charts::export::export(&name, &report, &data, &link).unwrap_or_default();
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml; charset=utf-8"),
            (
                header::CONTENT_DISPOSITION,
                "inline; filename=\"servecost-chart.svg\"",
            ),
        ],
        svg,
    ))
}
