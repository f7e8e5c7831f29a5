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
use crate::AppState;

/// Usage exports read at once: each takes up to 16 MiB (about 220 MB while it is read) and a
/// core for about a second, so one is read at a time, off the work runtime's workers, and the
/// other core keeps the pages, the API and `/healthz` answering.
pub const AT_ONCE: usize = 1;
/// Longest an upload waits for its turn before a 503 asks it to come back.
pub const WAIT: std::time::Duration = std::time::Duration::from_secs(5);
/// Usage uploads per client per minute (a person reads one export, then another).
pub const PER_MINUTE: u32 = 20;

/// What bounds the reading of usage exports, shared by both routes.
pub struct Admission {
    /// Uploads being read now, at most [`AT_ONCE`].
    slots: std::sync::Arc<tokio::sync::Semaphore>,
    /// Uploads per client.
    rate: crate::limit::RateLimit,
}

impl Default for Admission {
    fn default() -> Self {
        Self {
            slots: std::sync::Arc::new(tokio::sync::Semaphore::new(AT_ONCE)),
            rate: crate::limit::RateLimit::new(PER_MINUTE, std::time::Duration::from_secs(60)),
        }
    }
}

/// Middleware of both usage routes: a client over [`PER_MINUTE`] gets a 429, an upload that
/// finds no free slot within [`WAIT`] a 503, both with `Retry-After`; the body is read only once
/// the upload holds its slot, so uploads waiting their turn hold no memory of theirs, and the
/// slot is kept until the answer is made. The API answers in JSON, the page's form with a page.
pub async fn admit(
    axum::extract::State(state): axum::extract::State<AppState>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let api = req.uri().path().starts_with("/api/");
    let peer = req
        .extensions()
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map(|c| c.0);
    let client = crate::client::key(peer, req.headers(), &state.trusted_proxies);
    let refused = if let Err(wait) = state.usage.rate.check(&client) {
        ApiError::TooManyRequests("usage uploads", wait)
    } else {
        match tokio::time::timeout(WAIT, state.usage.slots.clone().acquire_owned()).await {
            Ok(Ok(slot)) => {
                // The handler moves the slot into the reading itself, so that it is held until
                // the export is read even when the request is dropped before (a client gone,
                // the deadline passed): the reading runs on to its end either way.
                let mut req = req;
                req.extensions_mut()
                    .insert(Slot(std::sync::Arc::new(std::sync::Mutex::new(Some(slot)))));
                return next.run(req).await;
            }
            _ => ApiError::Busy(
                "other usage exports are being read; try again in a few seconds".to_owned(),
                WAIT,
            ),
        }
    };
    let res = refused.into_response();
    if api {
        return res;
    }
    // The page's form: a page saying so, its status and `Retry-After` kept.
    let (parts, _) = res.into_parts();
    let text = if parts.status == axum::http::StatusCode::TOO_MANY_REQUESTS {
        "This address has sent many usage exports in the last minute."
    } else {
        "The server is reading other usage exports."
    };
    let wait = parts
        .headers
        .get(axum::http::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("a few");
    let detail = format!(
        "{text} Go back and send it again in {wait} seconds: the form keeps what you chose."
    );
    crate::answers::small_page(parts.status, &parts.headers, "Try again shortly", &detail)
}

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
        (status = 429, description = "More than 20 uploads from this client in the last minute; retry after `Retry-After`", body = ErrorBody),
        (status = 503, description = "Another export is being read and this one found no turn within 5 s; retry after `Retry-After`", body = ErrorBody),
    )
)]
pub async fn read(
    slot: Option<axum::Extension<Slot>>,
    RawQuery(query): RawQuery,
    body: Bytes,
) -> Result<Json<UsageRead>, ApiError> {
    let model = query
        .as_deref()
        .and_then(|q| app::query::get(q, "model"))
        .map(|m| servecost::codec::decode(&m))
        .filter(|m| !m.is_empty());
    if let Err(e) = std::str::from_utf8(&body) {
        return Err(ApiError::BadRequest(vec![Problem::new(
            "body",
            "",
            format!(
                "not UTF-8 text (byte {}): send the export as downloaded",
                servecost::format::thousands(e.valid_up_to() as f64)
            ),
        )]));
    }
    let read = off_the_workers(slot.map(|s| s.0), move || {
        // Checked above: the body is UTF-8.
        let text = std::str::from_utf8(&body).unwrap_or_default();
        measure(text, model)
    })
    .await?;
    Ok(Json(read.map_err(|p| ApiError::BadRequest(vec![p]))?))
}

/// An upload's turn to be read ([`admit`] gives it, the reading keeps it).
#[derive(Clone)]
pub struct Slot(std::sync::Arc<std::sync::Mutex<Option<tokio::sync::OwnedSemaphorePermit>>>);

impl Slot {
    fn take(&self) -> Option<tokio::sync::OwnedSemaphorePermit> {
        match self.0.lock() {
            Ok(mut g) => g.take(),
            Err(poisoned) => poisoned.into_inner().take(),
        }
    }
}

/// `work` (reading an export: up to a second of one core's time) on the blocking pool rather
/// than on a worker of the work runtime, which then keeps answering the pages, the API and
/// `/healthz`'s probe while exports are read; the upload's `slot` is held until it ends.
async fn off_the_workers<T: Send + 'static>(
    slot: Option<Slot>,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    let held = slot.and_then(|s| s.take());
    tokio::task::spawn_blocking(move || {
        let out = work();
        drop(held);
        out
    })
    .await
    .map_err(|e| ApiError::Internal(format!("reading a usage export failed: {e}")))
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
    axum::extract::State(state): axum::extract::State<AppState>,
    slot: Option<axum::Extension<Slot>>,
    multipart: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Redirect {
    // What the server writes into the link is signed, so that the page shows it
    // (`app::notice`).
    let to = read_form(slot.map(|s| s.0), multipart).await;
    Redirect::to(&app::query::href(&state.store.notice_key().sign(&to)))
}

/// The link [`form`] sends the browser to, before its messages are signed.
async fn read_form(
    slot: Option<Slot>,
    multipart: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> String {
    // The fields as received (an export's bytes are not copied on their way to the reader).
    let mut fields: Vec<(String, Bytes)> = Vec::new();
    let mut unreadable = None;
    let mut multipart = match multipart {
        Ok(m) => m,
        Err(e) => {
            let reason = format!("the form could not be read: {}", e.body_text());
            return back_with("", &reason, None);
        }
    };
    loop {
        match multipart.next_field().await {
            Ok(Some(field)) => {
                let name = field.name().unwrap_or_default().to_owned();
                match field.bytes().await {
                    Ok(bytes) => fields.push((name, bytes)),
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
    off_the_workers(slot, move || link_after(&fields, unreadable))
        .await
        .unwrap_or_else(|_| back_with("", "the export could not be read: try again", None))
}

/// The link the form's `fields` (or the reason they could not be read) lead to.
fn link_after(fields: &[(String, Bytes)], unreadable: Option<String>) -> String {
    let value = |name: &str| {
        fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| String::from_utf8_lossy(v).trim().to_owned())
            .filter(|v| !v.is_empty())
    };
    // As the link will carry it (raw bytes of a hand-made post percent-encoded), so that its
    // length is measured as sent.
    // The messages of the link sent are the client's: the server writes its own.
    let query = app::query::uri_query(&app::notice::without(
        value("query").unwrap_or_default().trim_start_matches('?'),
    ));
    let query = query.as_str();
    let file = fields
        .iter()
        .find(|(k, v)| k == "usage_file" && !v.is_empty());
    let pasted: Option<std::borrow::Cow<'_, str>> = fields
        .iter()
        .find(|(k, _)| k == "usage")
        .map(|(_, v)| String::from_utf8_lossy(v))
        .filter(|t| !t.trim().is_empty());
    let text: Result<&str, String> = match (unreadable, file, &pasted) {
        (Some(e), ..) => Err(format!("the form could not be read: {e}")),
        (None, Some((_, bytes)), _) => std::str::from_utf8(bytes)
            .map_err(|_| "the file is not UTF-8 text: choose the export as downloaded".to_owned()),
        (None, None, Some(t)) => Ok(t.trim()),
        (None, None, None) => Err("paste a usage export or choose its file".to_owned()),
    };
    let read = text.and_then(|t| {
        measure(t, value("usage_model")).map_err(|p| format!("{}: {}", p.param, p.reason))
    });
    match read {
        Ok(u) => read_with(&app::query::with_usage(query, &u.usage.query), &summary(&u)),
        Err(reason) => back_with(query, &reason, value("usage_model").as_deref()),
    }
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
    let room = crate::QUERY_LIMIT.saturating_sub(query.len() + 112) / 3;
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
    // Room for `/?` and the signature (`&notice=` and 32 digits).
    let fits = |q: &String| q.len() + 2 + 48 <= crate::QUERY_LIMIT;
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
