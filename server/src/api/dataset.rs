//! `GET /api/v1/dataset`: every source, model, chip, price tier, API offer, curve, headline and
//! published figure of the newest revision: every figure `/data` shows.

use app::api::Fact;
use axum::extract::{RawQuery, State};
use axum::Json;
use serde::Serialize;
use servecost::Dataset;

use crate::api::page::{split, Page};
use crate::api::ApiError;
use crate::AppState;
use servecost::Problem;

/// The newest dataset revision as `/data` shows it, a page at a time.
#[derive(Serialize, utoipa::ToSchema)]
pub struct DatasetBody {
    /// The figures the calculator computes with, each list at most `limit` rows from `cursor`.
    /// Each curve point gives its throughput; a point the source published as a cost also
    /// carries that cost and its price basis (`published`).
    #[serde(flatten)]
    #[schema(value_type = Dataset)]
    dataset: Dataset,
    /// Every published figure of the revision, those the engine does not compute with included
    /// (e.g. the InferenceX $ per million tokens at a full GPU, the SGLang output tokens/s, the
    /// time to first token), each with its source: this page's rows of them.
    facts: Vec<Fact>,
    /// Where this page sits: `total` is the longest list's length; the next page starts at
    /// `next_cursor`.
    page: Page,
}

/// The newest dataset: every figure the calculator uses and every published figure `/data`
/// lists, each citing its source. Every list is paged alike: rows `cursor` to
/// `cursor + limit` of each.
#[utoipa::path(
    get,
    path = "/api/v1/dataset",
    tag = "data",
    responses(
        (status = 200, description = "A page of the newest dataset revision", body = DatasetBody),
        (status = 400, description = "`limit` or `cursor` cannot be read, or another parameter is given", body = crate::api::ErrorBody),
        (status = 500, description = "The database cannot be read", body = crate::api::ErrorBody),
    )
)]
pub async fn dataset(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Result<Json<DatasetBody>, ApiError> {
    let (paging, rest) = split(query.as_deref())?;
    if let Some(other) = rest.split('&').find(|p| !p.is_empty()) {
        let name = other.split('=').next().unwrap_or(other);
        return Err(ApiError::BadRequest(vec![Problem::new(
            &name.chars().take(80).collect::<String>(),
            "",
            "unknown parameter: the dataset takes limit and cursor only",
        )]));
    }
    let whole = state.store.current();
    let facts = app::db::load_facts(&state.store.pool, whole.revision)
        .await
        .map_err(|e| ApiError::Internal(format!("loading the published figures: {e}")))?;
    let d = &*whole;
    let total = [
        d.sources.len(),
        d.models.len(),
        d.chips.len(),
        d.price_tiers.len(),
        d.api_offers.len(),
        d.curves.len(),
        d.headlines.len(),
        facts.len(),
    ]
    .into_iter()
    .max()
    .unwrap_or(0);
    let dataset = Dataset {
        revision: d.revision,
        sources: paging.copy(&d.sources),
        models: paging.copy(&d.models),
        chips: paging.copy(&d.chips),
        price_tiers: paging.copy(&d.price_tiers),
        api_offers: paging.copy(&d.api_offers),
        curves: paging.copy(&d.curves),
        headlines: paging.copy(&d.headlines),
        as_of: d.as_of.clone(),
        offers_left_out: 0,
        tiers_left_out: Default::default(),
        // What each model has, whole: its chips, curves, offers and providers.
        reach: d.reach(),
        offer_defaults: Default::default(),
    };
    Ok(Json(DatasetBody {
        dataset,
        facts: paging.slice(facts),
        page: paging.page(total),
    }))
}
