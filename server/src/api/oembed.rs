//! `GET /oembed?url=…`: oEmbed (type `rich`) for links to the calculator, so wikis auto-embed a
//! pasted link as an iframe of `/embed` with the same scenario.

use axum::extract::{Query, State};
use axum::Json;
use serde::{Deserialize, Serialize};
use servecost::report::Side;
use servecost::Problem;

use crate::api::evaluate::run;
use crate::api::ApiError;
use crate::AppState;

/// Largest embed, in CSS pixels.
pub const SIZE: (u32, u32) = (600, 400);

/// oEmbed request parameters.
#[derive(Deserialize)]
pub struct Params {
    url: Option<String>,
    maxwidth: Option<String>,
    maxheight: Option<String>,
    format: Option<String>,
}

/// An oEmbed `rich` response.
#[derive(Serialize)]
pub struct OEmbed {
    version: &'static str,
    #[serde(rename = "type")]
    kind: &'static str,
    provider_name: &'static str,
    provider_url: String,
    title: String,
    html: String,
    width: u32,
    height: u32,
}

fn bad(param: &str, value: &str, reason: &str) -> ApiError {
    ApiError::BadRequest(vec![Problem::new(param, value, reason)])
}

fn dimension(name: &str, value: Option<&str>, max: u32) -> Result<u32, ApiError> {
    match value {
        None => Ok(max),
        Some(v) => match v.parse::<u32>() {
            Ok(n) if n >= 100 => Ok(n.min(max)),
            _ => Err(bad(
                name,
                v,
                "must be a whole number of pixels, at least 100",
            )),
        },
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The oEmbed answer for a calculator link.
pub async fn oembed(
    State(state): State<AppState>,
    Query(p): Query<Params>,
) -> Result<Json<OEmbed>, ApiError> {
    if let Some(f) = p.format.as_deref().filter(|f| *f != "json") {
        return Err(ApiError::NotImplemented(vec![Problem::new(
            "format",
            f,
            "only json is served",
        )]));
    }
    let url = p
        .url
        .as_deref()
        .ok_or_else(|| bad("url", "", "required: a link to the calculator"))?;
    let (origin, rest) = url
        .strip_prefix("https://")
        .map(|r| ("https://", r))
        .or_else(|| url.strip_prefix("http://").map(|r| ("http://", r)))
        .ok_or_else(|| {
            bad(
                "url",
                url,
                "must be an http or https link to the calculator",
            )
        })?;
    let (host, path_query) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    if host.is_empty() || host.contains(['"', '<', '>', ' ']) {
        return Err(bad("url", url, "has no valid host"));
    }
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
    let width = dimension("maxwidth", p.maxwidth.as_deref(), SIZE.0)?;
    let height = dimension("maxheight", p.maxheight.as_deref(), SIZE.1)?;
    let (report, embed_path) = match saved_id {
        Some(id) => {
            let pinned = app::db::saved::pinned(&state.store, id)
                .await
                .map_err(|_| {
                    ApiError::NotFound(vec![Problem::new(
                        "url",
                        url,
                        "no saved scenario has this id",
                    )])
                })?;
            (pinned.report, format!("/embed/s/{id}"))
        }
        None => {
            let (report, _) = run(&state, Some(query))?;
            let path = if report.query == "v=1" {
                "/embed".to_owned()
            } else {
                format!("/embed?{}", report.query)
            };
            (report, path)
        }
    };
    let winner = match report.verdict.winner {
        Side::Rent => "Renting wins",
        Side::SelfHost => "Self-hosting wins",
    };
    let title = format!(
        "{winner}: rent ${:.0} vs self-host ${:.0} a month ({})",
        report.rent.monthly_usd, report.self_host.monthly_usd, report.inputs.model_name
    );
    let base = format!("{origin}{host}");
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
