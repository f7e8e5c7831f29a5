//! `POST /api/v1/usage?model=…`: a provider's usage export, the file as the body, read into the
//! workload it measures and the scenario link that carries it. Nothing of the export is kept.

use axum::body::Bytes;
use axum::extract::{Multipart, RawQuery};
use axum::response::Redirect;
use axum::Json;
use serde::Serialize;
use servecost::usage::Usage;
use servecost::Problem;

use crate::api::{ApiError, ErrorBody};
use crate::usage::Format;

/// The workload an export measures.
#[derive(Serialize, utoipa::ToSchema)]
pub struct UsageRead {
    /// The measured workload and its scenario link (`query`, for `/?…` and every other API).
    #[serde(flatten)]
    pub usage: Usage,
    /// The export's format, as recognised.
    pub format: Format,
    /// The models the export names (all of them counted unless `model` picks one).
    pub models: Vec<String>,
    /// The model counted, when `model` picked one.
    pub model: Option<String>,
}

/// Reads a usage export: OpenAI's completions usage pages, Anthropic's Messages usage report,
/// or a CSV with a header row (see the README for each format).
///
/// The body is the file as it was downloaded, at most 16 MiB. The answer's `query` is an
/// ordinary scenario: the monthly volumes by class (the export's totals scaled from the period
/// it covers to an average month of 30.44 days), its weekly load profile and, when two
/// calendar months have three weeks of the export each, its growth.
#[utoipa::path(
    post,
    path = "/api/v1/usage",
    tag = "scenarios",
    params(("model" = Option<String>, Query, description = "Count only this model's buckets (the export's `model` names)")),
    request_body(content = String, content_type = "text/plain", description = "The export file"),
    responses(
        (status = 200, description = "The measured workload and its scenario link", body = UsageRead),
        (status = 400, description = "The export cannot be read: the problem names the field or line", body = ErrorBody),
        (status = 413, description = "The body is over 16 MiB", body = ErrorBody),
    )
)]
pub async fn read(RawQuery(query): RawQuery, body: Bytes) -> Result<Json<UsageRead>, ApiError> {
    let model = query
        .as_deref()
        .and_then(|q| app::query::get(q, "model"))
        .map(|m| servecost::codec::decode(&m))
        .filter(|m| !m.is_empty());
    let text = std::str::from_utf8(&body).map_err(|e| {
        ApiError::BadRequest(vec![Problem::new(
            "body",
            "",
            format!(
                "not UTF-8 text (byte {}): send the export as downloaded",
                servecost::format::thousands(e.valid_up_to() as f64)
            ),
        )])
    })?;
    Ok(Json(
        measure(text, model).map_err(|p| ApiError::BadRequest(vec![p]))?,
    ))
}

/// The export `text` read, its buckets of `model` (or all), and the workload they measure.
fn measure(text: &str, model: Option<String>) -> Result<UsageRead, Problem> {
    let export = crate::usage::read(text)?;
    let buckets = export.buckets(model.as_deref())?;
    let models = export.models();
    // The model as the export names it (the filter ignores case).
    let model = model.map(|m| {
        models
            .iter()
            .find(|n| n.eq_ignore_ascii_case(&m))
            .cloned()
            .unwrap_or(m)
    });
    Ok(UsageRead {
        usage: servecost::usage::read_over(&buckets, export.span())?,
        format: export.format,
        models,
        model,
    })
}

/// The calculator's usage form (`usage-form`, multipart): the current link (`query`), the
/// export pasted (`usage`) or uploaded (`usage_file`, first if both) and the model
/// (`usage_model`). 303 to the link with the export's workload in place of the form's; or back
/// to the link with the reason (`usage_error`) and the pasted text, when short enough to carry.
pub async fn form(
    multipart: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Redirect {
    let mut fields: Vec<(String, Vec<u8>)> = Vec::new();
    let mut unreadable = None;
    let mut multipart = match multipart {
        Ok(m) => m,
        Err(e) => {
            let reason = format!("the form could not be read: {}", e.body_text());
            return Redirect::to(&app::query::href(&back_with("", &reason, None)));
        }
    };
    loop {
        match multipart.next_field().await {
            Ok(Some(field)) => {
                let name = field.name().unwrap_or_default().to_owned();
                match field.bytes().await {
                    Ok(bytes) => fields.push((name, bytes.to_vec())),
                    Err(e) => {
                        unreadable = Some(e.body_text());
                        break;
                    }
                }
            }
            Ok(None) => break,
            Err(e) => {
                unreadable = Some(e.body_text());
                break;
            }
        }
    }
    let value = |name: &str| {
        fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| String::from_utf8_lossy(v).trim().to_owned())
            .filter(|v| !v.is_empty())
    };
    let query = value("query").unwrap_or_default();
    let query = query.trim_start_matches('?');
    let file = fields
        .iter()
        .find(|(k, v)| k == "usage_file" && !v.is_empty());
    let pasted = value("usage");
    let text: Result<String, String> = match (unreadable, file, &pasted) {
        (Some(e), ..) => Err(format!("the form could not be read: {e}")),
        (None, Some((_, bytes)), _) => String::from_utf8(bytes.clone())
            .map_err(|_| "the file is not UTF-8 text: choose the export as downloaded".to_owned()),
        (None, None, Some(t)) => Ok(t.clone()),
        (None, None, None) => Err("paste a usage export or choose its file".to_owned()),
    };
    let read = text.and_then(|t| {
        measure(&t, value("usage_model")).map_err(|p| format!("{}: {}", p.param, p.reason))
    });
    let to = match read {
        Ok(u) => read_with(&app::query::with_usage(query, &u.usage.query), &summary(&u)),
        Err(reason) => back_with(query, &reason, value("usage_model").as_deref()),
    };
    Redirect::to(&app::query::href(&to))
}

/// What the page says it read: which model's traffic (and which the export also holds), then
/// the workload's own summary.
fn summary(u: &UsageRead) -> String {
    let models = match (&u.model, u.models.as_slice()) {
        (Some(m), [_]) => format!("The export's {m} traffic. "),
        (Some(m), all) => format!(
            "The export's {m} traffic; left out: {}. ",
            all.iter()
                .filter(|o| !o.eq_ignore_ascii_case(m))
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        ),
        (None, []) => String::new(),
        (None, [one]) => format!("The export's {one} traffic. "),
        (None, all) => format!(
            "The traffic of every model in the export, added together: {} (name one under “Model, when the export holds several” to read it alone). ",
            all.join(", ")
        ),
    };
    format!(
        "{models}{} The volumes are priced on the model the form names, not on the export's.",
        u.usage.summary()
    )
}

/// `query` with what was read (`usage_read`, for the page to say), cut short to keep the link
/// under the server's limit.
fn read_with(query: &str, summary: &str) -> String {
    let room = crate::QUERY_LIMIT.saturating_sub(query.len() + 64) / 3;
    let cut: String = summary.chars().take(room.min(2_000)).collect();
    if cut.is_empty() {
        query.to_owned()
    } else {
        app::query::edit(query, &[("usage_read", &cut)], &[])
    }
}

/// `query` with the reason an export could not be read and the model typed; a reason too long
/// for the link is cut short. The export itself never goes in the address: it would stay in the
/// browser's history and the server's access log.
fn back_with(query: &str, reason: &str, model: Option<&str>) -> String {
    let fits = |q: &String| q.len() + 2 <= crate::QUERY_LIMIT;
    let with = |reason: &str, model: &str| {
        app::query::edit(
            query,
            &[("usage_error", reason), ("usage_model", model)],
            &[],
        )
    };
    let model: String = model.unwrap_or_default().chars().take(200).collect();
    let full = with(reason, &model);
    if fits(&full) {
        return full;
    }
    let short: String = reason.chars().take(300).collect();
    let bare = with(&short, "");
    if fits(&bare) {
        bare
    } else {
        // The link itself is at the limit: the reason alone, without the rest of it.
        app::query::edit("", &[("usage_error", &short)], &[])
    }
}
