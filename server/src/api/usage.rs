//! `POST /api/v1/usage?model=…`: a provider's usage export, the file as the body, read into the
//! workload it measures and the scenario link that carries it. Nothing of the export is kept.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Multipart, RawQuery};
use axum::response::Redirect;
use axum::Json;
use serde::Serialize;
use servecost::usage::Usage;
use servecost::Problem;
use tokio::sync::mpsc;

use crate::api::{ApiError, ErrorBody};
use crate::usage::{Export, Format};
use crate::AppState;

/// Usage exports read at once. Each is read as it arrives (never held whole: its rows, up to
/// about 30 MB for 16 MiB of CSV, are what it keeps), on a thread of its own, so a few fit
/// beside the pages; a client sending slowly holds one of them for [`RECEIVE`] at most.
pub const AT_ONCE: usize = 3;
/// Longest an upload waits for its turn before a 503 asks it to come back.
pub const WAIT: Duration = Duration::from_secs(5);
/// Longest an upload may take to arrive, from its first byte's arrival (16 MiB at 5.4 Mbit/s,
/// its wait for a turn included), so that one sent a byte at a time cannot keep a turn from
/// the others; 5 s under the request deadline, so that the answer says so.
pub const RECEIVE: Duration = Duration::from_secs(25);
/// Usage uploads per client per minute (a person reads one export, then another).
pub const PER_MINUTE: u32 = 20;

/// What bounds the reading of usage exports, shared by both routes.
pub struct Admission {
    /// Uploads being read now, at most [`AT_ONCE`].
    slots: Arc<tokio::sync::Semaphore>,
    /// Uploads per client.
    rate: crate::limit::RateLimit,
    /// The clients with an upload being read: one at a time each.
    reading: Arc<Mutex<HashSet<String>>>,
}

impl Default for Admission {
    fn default() -> Self {
        Self {
            slots: Arc::new(tokio::sync::Semaphore::new(AT_ONCE)),
            rate: crate::limit::RateLimit::new(PER_MINUTE, Duration::from_secs(60)),
            reading: Arc::default(),
        }
    }
}

/// An upload's turn: one of the [`AT_ONCE`] slots and its client's one upload at a time,
/// given back once the answer is made and every reading of it has ended (each holds a copy).
#[derive(Clone)]
pub struct Turn(#[allow(dead_code)] Arc<Held>);

/// When an upload's request arrived: its body must be in within [`RECEIVE`] of it.
#[derive(Clone, Copy)]
pub struct Arrived(tokio::time::Instant);

impl Arrived {
    fn deadline(arrived: Option<axum::Extension<Arrived>>) -> tokio::time::Instant {
        arrived.map_or_else(tokio::time::Instant::now, |a| a.0 .0) + RECEIVE
    }
}

struct Held {
    _slot: tokio::sync::OwnedSemaphorePermit,
    _claim: Claim,
}

/// A client's one upload at a time, given back when dropped: also when the request is dropped
/// while it waits for a slot (its client gone).
struct Claim {
    client: String,
    reading: Arc<Mutex<HashSet<String>>>,
}

impl Drop for Claim {
    fn drop(&mut self) {
        let mut reading = match self.reading.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        reading.remove(&self.client);
    }
}

impl Admission {
    /// `client`'s claim to start an upload, when it has none being read.
    fn claim(&self, client: &str) -> Option<Claim> {
        let mut reading = match self.reading.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        reading.insert(client.to_owned()).then(|| Claim {
            client: client.to_owned(),
            reading: self.reading.clone(),
        })
    }
}

/// Middleware of both usage routes: a client over [`PER_MINUTE`] gets a 429; an upload that
/// finds no free slot within [`WAIT`], or its client's previous upload still being read, a
/// 503; both with `Retry-After`. The body is read only once the upload has its turn, so uploads waiting hold
/// no memory of theirs. The API answers in JSON, the page's form with a page.
pub async fn admit(
    axum::extract::State(state): axum::extract::State<AppState>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let arrived = Arrived(tokio::time::Instant::now());
    let api = req.uri().path().starts_with("/api/");
    let peer = req
        .extensions()
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map(|c| c.0);
    let client = crate::client::key(peer, req.headers(), &state.trusted_proxies);
    let admission = &state.usage;
    let refused = 'turn: {
        if let Err(wait) = admission.rate.check(&client) {
            break 'turn ApiError::TooManyRequests("usage uploads", wait);
        }
        // The client's upload being read first (a form sent twice: the second waits).
        let by = tokio::time::Instant::now() + WAIT;
        let claim = loop {
            if let Some(claim) = admission.claim(&client) {
                break claim;
            }
            if tokio::time::Instant::now() >= by {
                break 'turn ApiError::Busy(
                    "another usage export from this client is being read; try again in a few seconds"
                        .to_owned(),
                    WAIT,
                );
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        let Ok(Ok(slot)) =
            tokio::time::timeout_at(by, admission.slots.clone().acquire_owned()).await
        else {
            break 'turn ApiError::Busy(
                "other usage exports are being read; try again in a few seconds".to_owned(),
                WAIT,
            );
        };
        let turn = Turn(Arc::new(Held {
            _slot: slot,
            _claim: claim,
        }));
        // The readings keep a copy of the turn: it is given back when the last of them and
        // this answer are done, even when the request is dropped before (a client gone, the
        // deadline passed).
        let mut req = req;
        req.extensions_mut().insert(turn.clone());
        req.extensions_mut().insert(arrived);
        let res = next.run(req).await;
        drop(turn);
        return res;
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
/// The body is the file as it was downloaded, at most 16 MiB, read as it arrives (a mistake is
/// answered without waiting for the rest). The answer's `query` is an
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
        (status = 408, description = "The body was still arriving 25 s after the request came", body = ErrorBody),
        (status = 429, description = "More than 20 uploads from this client in the last minute; retry after `Retry-After`", body = ErrorBody),
        (status = 503, description = "Three exports are being read, or this client's previous one, and this one found no turn within 5 s; retry after `Retry-After`", body = ErrorBody),
    )
)]
pub async fn read(
    turn: Option<axum::Extension<Turn>>,
    arrived: Option<axum::Extension<Arrived>>,
    RawQuery(query): RawQuery,
    body: Body,
) -> Result<Json<UsageRead>, ApiError> {
    let model = query
        .as_deref()
        .and_then(|q| app::query::get(q, "model"))
        .map(|m| servecost::codec::decode(&m))
        .filter(|m| !m.is_empty());
    // A length over the limit is refused before a byte is read.
    if http_body::Body::size_hint(&body).lower() > crate::usage::LIMIT as u64 {
        return Err(ApiError::TooLarge);
    }
    let by = Arrived::deadline(arrived);
    let (to, reader) = reading(turn.map(|t| t.0), move |export| {
        export.and_then(|e| measure(e, model))
    });
    let mut room = crate::usage::LIMIT;
    let passed = pass(&mut Source::Body(body), to, &mut room, by, false).await;
    let read = reader.await.map_err(failed)?;
    // An upload cut short is answered as such, whatever the reader made of its start.
    passed.map_err(Cut::refusal)?;
    Ok(Json(read.map_err(|p| ApiError::BadRequest(vec![p]))?))
}

/// An export's bytes on their way from the connection to the thread reading them.
struct Incoming {
    from: mpsc::Receiver<Bytes>,
    chunk: Bytes,
}

impl std::io::Read for Incoming {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        while self.chunk.is_empty() {
            match self.from.blocking_recv() {
                Some(c) => self.chunk = c,
                // The upload ended (or was cut short: [`pass`] says why).
                None => return Ok(0),
            }
        }
        let n = self.chunk.len().min(out.len());
        out[..n].copy_from_slice(&self.chunk.split_to(n));
        Ok(n)
    }
}

/// Chunks of an upload on their way to its reader at once: what an upload holds beyond its
/// rows (a chunk is what the connection gives at a time, tens of kilobytes).
const IN_FLIGHT: usize = 4;

/// Starts reading an export on a thread of its own (reading one takes up to a second of a
/// core: the work runtime's workers keep answering the pages and `/healthz` meanwhile), from
/// the bytes sent to the sender returned, then `then` with what it read; the upload's `turn`
/// is held until it ends.
fn reading<T: Send + 'static>(
    turn: Option<Turn>,
    then: impl FnOnce(Result<Export, Problem>) -> T + Send + 'static,
) -> (mpsc::Sender<Bytes>, tokio::task::JoinHandle<T>) {
    let (to, from) = mpsc::channel(IN_FLIGHT);
    let reader = tokio::task::spawn_blocking(move || {
        let export = crate::usage::read_from(Incoming {
            from,
            chunk: Bytes::new(),
        });
        let out = then(export);
        drop(turn);
        out
    });
    (to, reader)
}

fn failed(e: tokio::task::JoinError) -> ApiError {
    ApiError::Internal(format!("reading a usage export failed: {e}"))
}

/// Where an upload's bytes come from: the API's body, or a field of the page's form.
enum Source<'a> {
    Body(Body),
    Field(Box<axum::extract::multipart::Field<'a>>),
}

impl Source<'_> {
    /// The next chunk, `None` at the end.
    async fn next(&mut self) -> Result<Option<Bytes>, String> {
        match self {
            Source::Body(body) => loop {
                match http_body_util::BodyExt::frame(body).await {
                    None => return Ok(None),
                    Some(Err(e)) => return Err(e.to_string()),
                    Some(Ok(frame)) => {
                        if let Ok(data) = frame.into_data() {
                            return Ok(Some(data));
                        }
                    }
                }
            },
            Source::Field(field) => field.chunk().await.map_err(|e| e.body_text()),
        }
    }
}

/// Why an upload stopped arriving before its end.
enum Cut {
    /// Over [`crate::usage::LIMIT`].
    TooLarge,
    /// Still arriving after [`RECEIVE`].
    TooSlow,
    /// The connection or the form broke off.
    Broken(String),
}

impl Cut {
    fn refusal(self) -> ApiError {
        match self {
            Cut::TooLarge => ApiError::TooLarge,
            Cut::TooSlow => ApiError::TooSlow(RECEIVE),
            Cut::Broken(e) => ApiError::BadRequest(vec![Problem::new(
                "body",
                "",
                format!("the upload broke off: {e}"),
            )]),
        }
    }

    fn reason(&self) -> String {
        match self {
            Cut::TooLarge => "the export is over 16 MiB".to_owned(),
            Cut::TooSlow => format!(
                "the export took over {} s to arrive: send it again, or a shorter period",
                RECEIVE.as_secs()
            ),
            Cut::Broken(e) => format!("the form could not be read: {e}"),
        }
    }
}

/// Passes `source`'s bytes to the reader `to` until they end, `room` bytes are used up or
/// `by` passes; whether any of them was not whitespace. A reader that has read all it needs
/// (an error early in the export) hangs up: the rest is then `drain`ed (a form's next fields
/// follow it) or left.
async fn pass(
    source: &mut Source<'_>,
    to: mpsc::Sender<Bytes>,
    room: &mut usize,
    by: tokio::time::Instant,
    drain: bool,
) -> Result<bool, Cut> {
    let mut to = Some(to);
    let mut text = false;
    loop {
        let next = tokio::time::timeout_at(by, source.next());
        let next = match &to {
            // Waiting for the next chunk, or for the reader to have done (then the rest is
            // not waited for: the answer goes at once).
            Some(reader) if !drain => tokio::select! {
                next = next => next,
                () = reader.closed() => return Ok(text),
            },
            _ => next.await,
        };
        let chunk = match next {
            Err(_) => return Err(Cut::TooSlow),
            Ok(Err(e)) => return Err(Cut::Broken(e)),
            Ok(Ok(None)) => return Ok(text),
            Ok(Ok(Some(chunk))) => chunk,
        };
        *room = room.checked_sub(chunk.len()).ok_or(Cut::TooLarge)?;
        text = text || chunk.iter().any(|b| !b.is_ascii_whitespace());
        if let Some(reader) = &to {
            if reader.send(chunk).await.is_err() {
                if !drain {
                    return Ok(text);
                }
                to = None;
            }
        }
    }
}

/// The buckets of `model` (or all) in `export`, and the workload they measure.
fn measure(export: Export, model: Option<String>) -> Result<UsageRead, Problem> {
    let (models, span, format) = (export.models(), export.span(), export.format);
    let buckets = export.buckets(model.as_deref())?;
    // The model as the export names it (the filter ignores case).
    let model = model.map(|m| {
        models
            .iter()
            .find(|n| n.eq_ignore_ascii_case(&m))
            .cloned()
            .unwrap_or(m)
    });
    Ok(UsageRead {
        usage: servecost::usage::read_over(&buckets, span)?,
        format,
        models,
        model,
    })
}

/// The calculator's usage form (`usage-form`, multipart): the current link (`query`), the
/// export pasted (`usage`) or uploaded (`usage_file`, first if both) and the model
/// (`usage_model`). 303 to the link with the export's workload in place of the form's; or back
/// to the link with the reason (`usage_error`) and the model typed.
pub async fn form(
    axum::extract::State(state): axum::extract::State<AppState>,
    turn: Option<axum::Extension<Turn>>,
    arrived: Option<axum::Extension<Arrived>>,
    multipart: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Redirect {
    // What the server writes into the link is signed, so that the page shows it
    // (`app::notice`).
    let to = read_form(turn.map(|t| t.0), Arrived::deadline(arrived), multipart).await;
    Redirect::to(&app::query::href(&state.store.notice_key().sign(&to)))
}

/// Longest value of the form's other fields (the link, the model).
const FIELD_LIMIT: usize = 2 * crate::QUERY_LIMIT;

/// The link [`form`] sends the browser to, before its messages are signed. Each export field
/// is read as it arrives; the others are short.
async fn read_form(
    turn: Option<Turn>,
    by: tokio::time::Instant,
    multipart: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> String {
    let mut multipart = match multipart {
        Ok(m) => m,
        Err(e) => {
            let reason = format!("the form could not be read: {}", e.body_text());
            return back_with("", &reason, None);
        }
    };
    let mut room = crate::usage::LIMIT;
    let mut short: Vec<(String, String)> = Vec::new();
    // Each export field: its name, whether it held more than whitespace, what was read.
    let mut exports: Vec<(String, bool, Result<Export, Problem>)> = Vec::new();
    let mut unreadable = None;
    loop {
        let field = match tokio::time::timeout_at(by, multipart.next_field()).await {
            Err(_) => Err(Cut::TooSlow.reason()),
            Ok(Err(e)) => Err(Cut::Broken(e.body_text()).reason()),
            Ok(Ok(None)) => break,
            Ok(Ok(Some(field))) => Ok(field),
        };
        let field = match field {
            Ok(f) => f,
            Err(reason) => {
                unreadable = Some(reason);
                break;
            }
        };
        let name = field.name().unwrap_or_default().to_owned();
        let mut source = Source::Field(Box::new(field));
        if name == "usage" || name == "usage_file" {
            let (to, reader) = reading(turn.clone(), |export| export);
            let passed = pass(&mut source, to, &mut room, by, true).await;
            match (passed, reader.await) {
                (Ok(given), Ok(export)) => exports.push((name, given, export)),
                (Err(cut), _) => {
                    unreadable = Some(cut.reason());
                    break;
                }
                (_, Err(e)) => {
                    tracing::error!("reading a usage export failed: {e}");
                    unreadable = Some("the export could not be read: try again".to_owned());
                    break;
                }
            }
        } else {
            match short_value(&mut source, by).await {
                Ok(v) => short.push((name, v)),
                Err(reason) => {
                    unreadable = Some(reason);
                    break;
                }
            }
        }
    }
    // Measuring may take a moment: off the workers too, the turn held until it ends.
    tokio::task::spawn_blocking(move || {
        let link = link_after(&short, exports, unreadable);
        drop(turn);
        link
    })
    .await
    .unwrap_or_else(|_| back_with("", "the export could not be read: try again", None))
}

/// A short field's text (at most [`FIELD_LIMIT`] bytes), trimmed.
async fn short_value(source: &mut Source<'_>, by: tokio::time::Instant) -> Result<String, String> {
    let mut bytes = Vec::new();
    loop {
        match tokio::time::timeout_at(by, source.next()).await {
            Err(_) => return Err(Cut::TooSlow.reason()),
            Ok(Err(e)) => return Err(Cut::Broken(e).reason()),
            Ok(Ok(None)) => break,
            Ok(Ok(Some(chunk))) => {
                if bytes.len() + chunk.len() > FIELD_LIMIT {
                    return Err(format!(
                        "the form could not be read: a field other than the export is over {} bytes",
                        servecost::format::thousands(FIELD_LIMIT as f64)
                    ));
                }
                bytes.extend_from_slice(&chunk);
            }
        }
    }
    Ok(String::from_utf8_lossy(&bytes).trim().to_owned())
}

/// The link the form's `short` fields and `exports` (or the reason the form could not be
/// read) lead to.
fn link_after(
    short: &[(String, String)],
    mut exports: Vec<(String, bool, Result<Export, Problem>)>,
    unreadable: Option<String>,
) -> String {
    let value = |name: &str| {
        short
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .filter(|v| !v.is_empty())
    };
    // As the link will carry it (raw bytes of a hand-made post percent-encoded), so that its
    // length is measured as sent.
    // The messages of the link sent are the client's: the server writes its own.
    let query = app::query::uri_query(&app::notice::without(
        value("query").unwrap_or_default().trim_start_matches('?'),
    ));
    let query = query.as_str();
    // The file first, then the text pasted; a field of whitespace alone is not given.
    let chosen = ["usage_file", "usage"]
        .into_iter()
        .find_map(|name| exports.iter().position(|(k, given, _)| k == name && *given));
    let export = match (unreadable, chosen) {
        (Some(e), _) => Err(e),
        (None, Some(i)) => exports.swap_remove(i).2.map_err(said),
        (None, None) => Err("paste a usage export or choose its file".to_owned()),
    };
    let model = value("usage_model");
    let read = export.and_then(|e| measure(e, model.clone()).map_err(said));
    match read {
        Ok(u) => read_with(&app::query::with_usage(query, &u.usage.query), &summary(&u)),
        Err(reason) => back_with(query, &reason, model.as_deref()),
    }
}

/// A problem as the page says it: its field, unless it is the export itself.
fn said(p: Problem) -> String {
    if p.param == "body" {
        p.reason
    } else {
        format!("{}: {}", p.param, p.reason)
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
