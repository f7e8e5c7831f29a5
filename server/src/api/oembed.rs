//! `GET /oembed?url=…`: oEmbed (type `rich`) for links to the calculator, so wikis auto-embed a
//! pasted link as an iframe of `/embed` with the same scenario.

use app::format::usd;
use axum::extract::{Query, State};
use axum::Json;
use serde::{Deserialize, Serialize};
use servecost::Problem;

use crate::api::{escape, ApiError, ErrorBody};
use crate::AppState;

/// Largest embed, in CSS pixels.
pub const SIZE: (u32, u32) = (600, 400);

/// oEmbed request parameters.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Params {
    /// A link to the calculator (`/?…`, `/embed?…`) or to a saved scenario (`/s/{id}`) under
    /// this server's public origin (`SERVECOST_PUBLIC_URL`); links to any other origin get 404.
    url: Option<String>,
    /// Largest width in CSS pixels, at least 100 (the embed is at most 600).
    maxwidth: Option<String>,
    /// Largest height in CSS pixels, at least 100 (the embed is at most 400).
    maxheight: Option<String>,
    /// `json`, the only format served (empty means `json`); any other answers 501, as the
    /// oEmbed specification asks.
    format: Option<String>,
}

/// An oEmbed `rich` response.
#[derive(Serialize, utoipa::ToSchema)]
pub struct OEmbed {
    /// Always `1.0`.
    version: &'static str,
    /// Always `rich`.
    #[serde(rename = "type")]
    kind: &'static str,
    /// `servecost`.
    provider_name: &'static str,
    /// This server.
    provider_url: String,
    /// The scenario's verdict.
    title: String,
    /// An iframe of the embed view.
    html: String,
    /// Width in CSS pixels.
    width: u32,
    /// Height in CSS pixels.
    height: u32,
}

fn bad(param: &str, value: &str, reason: &str) -> ApiError {
    ApiError::BadRequest(vec![Problem::new(param, value, reason)])
}

/// `maxwidth` or `maxheight`: empty or absent means not given; any whole number from 100 up
/// (however large) is accepted and the embed is at most `max`.
fn dimension(name: &str, value: Option<&str>, max: u32) -> Result<u32, ApiError> {
    match value.filter(|v| !v.is_empty()) {
        None => Ok(max),
        Some(v) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => {
            match v.parse::<u64>() {
                Ok(n) if n < 100 => Err(bad(
                    name,
                    v,
                    "must be a whole number of pixels, at least 100",
                )),
                // A number too long for u64 is still a number of pixels over the limit.
                Ok(n) => Ok(u32::try_from(n).unwrap_or(u32::MAX).min(max)),
                Err(_) => Ok(max),
            }
        }
        Some(v) => Err(bad(
            name,
            v,
            "must be a whole number of pixels, at least 100",
        )),
    }
}

/// oEmbed (type `rich`) for a link to the calculator or to a saved scenario, so that wikis turn a
/// pasted link into an embedded calculator. Pages advertise it with a discovery `<link>`. A link
/// is read as the page reads it: a field that cannot be read takes its default, the title names
/// the fields not used, and the embed lists them.
#[utoipa::path(
    get,
    path = "/oembed",
    tag = "embeds",
    params(Params),
    responses(
        (status = 200, description = "The embed", body = OEmbed),
        (status = 400, description = "A parameter cannot be read", body = ErrorBody),
        (status = 414, description = "The query string is over 8 KiB", body = ErrorBody),
        (status = 503, description = "The answer took longer than 30 s (never for a valid scenario; retry after `Retry-After`)", body = ErrorBody),
        (status = 404, description = "The link is not to this server's calculator or a saved scenario", body = ErrorBody),
        (status = 422, description = "The link's scenario has no answer even with its unreadable fields at their defaults (e.g. a target speed faster than the curve)", body = ErrorBody),
        (status = 501, description = "A format other than JSON was asked for", body = ErrorBody),
    )
)]
pub async fn oembed(
    State(state): State<AppState>,
    query: Result<Query<Params>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<OEmbed>, ApiError> {
    // A query axum cannot read (a parameter given twice) gets the JSON 400 every error has.
    let Query(p) = query.map_err(|e| bad("query", "", &e.body_text()))?;
    // An empty format means JSON, like every empty parameter means "not given".
    if let Some(f) = p
        .format
        .as_deref()
        .filter(|f| !f.is_empty() && *f != "json")
    {
        return Err(ApiError::NotImplemented(vec![Problem::new(
            "format",
            f,
            "only json is served",
        )]));
    }
    let url = p
        .url
        .as_deref()
        .filter(|u| !u.is_empty())
        .ok_or_else(|| bad("url", "", "required: a link to the calculator"))?;
    let origin = state.public_url.as_str();
    let (saved_id, query) = target(url, origin)?;
    let width = dimension("maxwidth", p.maxwidth.as_deref(), SIZE.0)?;
    let height = dimension("maxheight", p.maxheight.as_deref(), SIZE.1)?;
    let (report, embed_path, left_out) = match saved_id {
        Some(id) => {
            let (_, report) = app::db::saved::pinned_report(&state.store, id)
                .await
                .map_err(|_| {
                    ApiError::NotFound(vec![Problem::new(
                        "url",
                        url,
                        "no saved scenario has this id",
                    )])
                })?;
            (report.into(), format!("/embed/s/{id}"), Vec::new())
        }
        None => live(&state, query)?,
    };
    let title = title(&report, &left_out);
    let base = origin.to_owned();
    let src = format!("{base}{embed_path}");
    Ok(Json(OEmbed {
        version: "1.0",
        kind: "rich",
        provider_name: "servecost",
        provider_url: base,
        html: format!(
            r#"<iframe src="{}" width="{width}" height="{height}" style="border:0" loading="lazy" title="{}"></iframe>"#,
            escape(&src),
            escape(&title)
        ),
        title,
        width,
        height,
    }))
}

/// What `url` links to: a saved scenario's id, or the calculator with its query. Only links to
/// this server, as its configuration names it (`origin`): an embed of another origin under
/// servecost's name would vouch for whatever that origin serves.
fn target<'a>(url: &'a str, origin: &str) -> Result<(Option<&'a str>, &'a str), ApiError> {
    let path_query = url
        .strip_prefix(origin)
        .filter(|rest| rest.is_empty() || rest.starts_with(['/', '?', '#']))
        .ok_or_else(|| {
            ApiError::NotFound(vec![Problem::new(
                "url",
                url,
                format!("not a link to this server: oEmbed answers for links under {origin}"),
            )])
        })?;
    let (path, query) = path_query.split_once('?').unwrap_or((path_query, ""));
    let query = query.split('#').next().unwrap_or_default();
    let saved_id = path
        .strip_prefix("/s/")
        .or_else(|| path.strip_prefix("/embed/s/"))
        .filter(|id| !id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric()));
    if saved_id.is_none() && !matches!(path, "" | "/" | "/embed") {
        return Err(ApiError::NotFound(vec![Problem::new(
            "url",
            url,
            "not a calculator link: oEmbed answers for /, /embed and /s/{id}",
        )]));
    }
    Ok((saved_id, query))
}

/// The report of a calculator link as the page reads it, the embed's path, and the parameters
/// it left out.
fn live(
    state: &AppState,
    query: &str,
) -> Result<(app::query::Answer, String, Vec<String>), ApiError> {
    // As the page does: a field that cannot be read falls back to its default, and the
    // embed lists what it left out.
    let data = state.store.current();
    // `chart` picks the embed's chart: not a scenario parameter, but used.
    let scenario = app::query::edit(query, &[], &["chart"]);
    let outcome = app::query::outcome(&scenario, &data);
    let left_out: Vec<String> = outcome
        .problems
        .iter()
        .chain(&outcome.ignored)
        .map(|p| p.param.clone())
        .collect();
    let report = match outcome.report {
        Ok(r) => r,
        Err(problems) => {
            return Err(ApiError::Unprocessable(problems));
        }
    };
    let shown = if left_out.is_empty() {
        report.query.clone()
    } else {
        query.to_owned()
    };
    let shown = match app::query::get(query, "chart") {
        Some(chart) if left_out.is_empty() => {
            app::query::edit(&shown, &[("chart", chart.as_str())], &[])
        }
        _ => shown,
    };
    let path = if shown == "v=1" || shown.is_empty() {
        "/embed".to_owned()
    } else {
        format!("/embed?{shown}")
    };
    Ok((report, path, left_out))
}

/// The embed's title: the best plan, its bill, how sure, both totals and what was not used.
fn title(report: &servecost::Report, left_out: &[String]) -> String {
    let best = match report.verdict.best {
        servecost::decision::Strategy::Rent => "Renting is cheapest",
        servecost::decision::Strategy::SelfHost => "Self-hosting is cheapest",
        servecost::decision::Strategy::Hybrid => "A hybrid is cheapest",
    };
    let sure = report
        .uncertainty
        .as_ref()
        .map(|u| {
            format!(
                ", holds in {} of plausible cases",
                servecost::format::share_about(u.p_best_holds, u.p_best_holds_se)
            )
        })
        .unwrap_or_default();
    let ignored = if left_out.is_empty() {
        String::new()
    } else {
        format!("; not used from the link: {}", left_out.join(", "))
    };
    format!(
        "{best} at {} a month{sure}: rent {}, self-host {} ({}){ignored}",
        usd(report.verdict.best_monthly_usd),
        usd(report.rent.monthly_usd),
        usd(report.self_host.monthly_usd),
        report.inputs.model_name
    )
}
