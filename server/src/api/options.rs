//! `GET /api/v1/options?<scenario query>`: every way to serve the scenario's workload, cheapest
//! first, each with the calculator link that opens it; `GET /api/v1/options.csv`: the same as
//! CSV.

use axum::extract::{RawQuery, State};
use axum::http::header;
use axum::response::IntoResponse;
use axum::Json;
use serde::Serialize;
use servecost::options::Options;
use servecost::Problem;

use crate::api::evaluate::refused;
use crate::api::page::{split, Page};
use crate::api::{ApiError, ErrorBody};
use crate::AppState;

/// The ranking, and what was ignored.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Ranked {
    /// The options of this page (`limit` at most, from `cursor`).
    #[serde(flatten)]
    pub options: Options,
    /// Unknown or inapplicable parameters, each with the reason.
    pub ignored: Vec<Problem>,
    /// Where this page sits in the ranking.
    pub page: Page,
}

/// The ranking of `query`'s scenario; `paged`: only the page `limit` and `cursor` ask for
/// (the CSV holds every option: the ranking is bounded, and a file has no cursor to follow).
fn run(state: &AppState, query: Option<&str>, paged: bool) -> Result<Ranked, ApiError> {
    let (paging, scenario) = if paged {
        split(query)?
    } else {
        (
            crate::api::page::Paging {
                limit: usize::MAX,
                offset: 0,
            },
            query.unwrap_or_default().to_owned(),
        )
    };
    let parsed = servecost::codec::parse_checked(&scenario).map_err(refused)?;
    let data = state.store.current();
    let mut options =
        servecost::options::options(&parsed.scenario, &data).map_err(ApiError::Unprocessable)?;
    let page = paging.page(options.options.len());
    options.options = paging.slice(std::mem::take(&mut options.options));
    Ok(Ranked {
        options,
        ignored: parsed.warnings,
        page,
    })
}

/// Every way to serve the scenario's workload, ranked by monthly cost.
///
/// The same workload priced by renting at each API offer of the model, and by self-hosting on
/// each dataset curve of the model at each GPU-hour price of its chip (every commitment kind;
/// owner's costs marked `for_rent: false`), at the scenario's own GPU-hour price or owned
/// hardware on its chip, with a fixed fleet and, where the price is hourly, an hourly one; and
/// each self-hosted option's best hybrid where a split beats it. `query` opens an option in the
/// calculator (`/?{query}`); evaluating it gives the option's `monthly_usd` on the line its
/// `kind` names. The query is the calculator's, with `limit` and `cursor` to page the ranking.
/// API offers beyond the 24 cheapest for the workload (the scenario's own and the model's
/// first always among them) are not ranked and are counted in `offers_left_out`.
#[utoipa::path(
    get,
    path = "/api/v1/options",
    tag = "scenarios",
    responses(
        (status = 200, description = "Every option, cheapest first", body = Ranked),
        (status = 400, description = "A parameter cannot be read or is out of range", body = ErrorBody),
        (status = 414, description = "The query string is over 8 KiB", body = ErrorBody),
        (status = 503, description = "The answer took longer than 30 s (retry after `Retry-After`)", body = ErrorBody),
        (status = 422, description = "The parameters have no answer", body = ErrorBody),
    )
)]
pub async fn options(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Result<Json<Ranked>, ApiError> {
    run(&state, query.as_deref(), true).map(Json)
}

/// The ranking as CSV: one row per option, cheapest first, with its calculator link.
#[utoipa::path(
    get,
    path = "/api/v1/options.csv",
    tag = "exports",
    responses(
        (status = 200, description = "One row per option, cheapest first", content_type = "text/csv", body = String),
        (status = 400, description = "A parameter cannot be read or is out of range", body = ErrorBody),
        (status = 414, description = "The query string is over 8 KiB", body = ErrorBody),
        (status = 503, description = "The answer took longer than 30 s (retry after `Retry-After`)", body = ErrorBody),
        (status = 422, description = "The parameters have no answer", body = ErrorBody),
    )
)]
pub async fn options_csv(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Result<impl IntoResponse, ApiError> {
    let ranked = run(&state, query.as_deref(), false)?;
    let out = servecost::export::options_csv(&ranked.options, &state.public_url);
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"servecost-options.csv\"",
            ),
        ],
        out,
    ))
}
