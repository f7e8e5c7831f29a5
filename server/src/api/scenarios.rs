//! Saved scenarios: `POST /api/v1/scenarios`, `GET /api/v1/scenarios/{id}`, and `POST /s` for
//! the page's save form (redirects to `/s/{id}`).

use std::net::SocketAddr;

use app::db::saved::{pinned, Pinned, PinnedError};
use axum::extract::rejection::{FormRejection, JsonRejection};
use axum::extract::{ConnectInfo, Form, Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Extension;
use axum::Json;
use serde::{Deserialize, Serialize};
use servecost::Problem;

use crate::api::{ApiError, ErrorBody};
use crate::AppState;

/// Longest name, in characters.
pub const NAME_MAX: usize = 120;
/// Longest note, in characters.
pub const NOTE_MAX: usize = 2_000;
/// Longest scenario query in a save, in characters (the longest link the server reads).
pub const QUERY_MAX: usize = crate::QUERY_LIMIT;
/// What counts as blank around a name or a note: ASCII space, tab and line breaks.
pub const BLANK: &[char] = &[' ', '\t', '\n', '\r', '\u{b}', '\u{c}'];

/// What a save sends.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct SaveRequest {
    /// The scenario's query string (as in a calculator link), at most 8,192 characters. A
    /// parameter the link reader cannot read or would ignore is refused (400, naming it), never
    /// dropped.
    #[schema(max_length = 8192)]
    pub query: String,
    /// A name, 1 to 120 characters, at least one of them visible; no control character but tab
    /// and line breaks.
    #[schema(min_length = 1, max_length = 120, pattern = "[^ \\t\\n\\r\\x0b\\x0c]")]
    pub name: String,
    /// A note, up to 2,000 characters; no control character but tab and line breaks.
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub note: String,
}

/// What a save answers.
#[derive(Serialize, utoipa::ToSchema)]
pub struct SaveResponse {
    /// The unguessable id (12 characters, base 62).
    id: String,
    /// The short link, `/s/{id}`.
    url: String,
    /// The dataset revision the scenario is pinned to.
    revision: i64,
    /// When it was first saved (UTC, RFC 3339).
    created_at: String,
    /// The scenario's canonical query string.
    query: String,
}

/// The client a save counts against (see [`crate::client::key`]).
fn client(
    state: &AppState,
    headers: &HeaderMap,
    addr: Option<&Extension<ConnectInfo<SocketAddr>>>,
) -> String {
    crate::client::key(addr.map(|a| a.0 .0), headers, &state.trusted_proxies)
}

/// Longest stretch of refused text an error quotes, in characters.
pub const QUOTE_MAX: usize = 80;

/// `text` as an error quotes it: at most [`QUOTE_MAX`] characters, then "…".
fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTE_MAX) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

/// `p` with its parameter and value quoted briefly ([`quoted`]): a refusal never echoes a long
/// text whole.
fn brief(p: Problem) -> Problem {
    Problem {
        param: quoted(&p.param),
        value: quoted(&p.value),
        ..p
    }
}

/// Characters that show nothing: format characters (zero-width spaces and joiners, direction
/// marks, word joiners, the byte-order mark), fillers and variation selectors.
fn invisible(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '\u{ad}'
                | '\u{34f}'
                | '\u{61c}'
                | '\u{115f}'
                | '\u{1160}'
                | '\u{17b4}'
                | '\u{17b5}'
                | '\u{180b}'..='\u{180f}'
                | '\u{200b}'..='\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2060}'..='\u{206f}'
                | '\u{3164}'
                | '\u{fe00}'..='\u{fe0f}'
                | '\u{feff}'
                | '\u{ffa0}'
                | '\u{fff0}'..='\u{fff8}'
                | '\u{1d173}'..='\u{1d17a}'
                | '\u{e0000}'..='\u{e0fff}'
        )
}

/// The problem with a saved name or note, if any: longer than `max` characters, a control
/// character other than tab and line feed (named by its position, counted from 1), or, when
/// `required`, no visible character at all.
pub fn text_problem(field: &str, text: &str, max: usize, required: bool) -> Option<Problem> {
    let count = text.chars().count();
    if count > max {
        return Some(Problem::new(
            field,
            quoted(text),
            format!("must be at most {max} characters ({count} given)"),
        ));
    }
    if let Some((at, c)) = text
        .chars()
        .enumerate()
        .find(|(_, c)| c.is_control() && !matches!(c, '\t' | '\n'))
    {
        return Some(Problem::new(
            field,
            quoted(text),
            format!(
                "holds the control character U+{:04X} at character {}: only tab and line \
                 breaks are accepted",
                u32::from(c),
                at + 1
            ),
        ));
    }
    if required && text.chars().all(invisible) {
        return Some(Problem::new(
            field,
            quoted(text),
            format!("must be 1 to {max} characters, at least one of them visible"),
        ));
    }
    None
}

fn internal(e: sqlx::Error) -> ApiError {
    ApiError::Internal(e.to_string())
}

/// `query` read, keeping every parameter it was given: one the link reader would ignore
/// (unknown, or not applicable, or an unknown name without a value, which it skips) is refused
/// rather than dropped, so the saved link is the one sent.
fn every_parameter_read(
    query: &str,
) -> Result<servecost::codec::Parsed, servecost::codec::Refused> {
    let query = query.trim_start_matches('?');
    let mut p = servecost::codec::parse_checked(query)?;
    let mut ignored = std::mem::take(&mut p.warnings);
    for piece in query.split('&') {
        let (name, value) = piece.split_once('=').unwrap_or((piece, ""));
        let name = servecost::codec::decode(name);
        if value.is_empty() && !name.is_empty() && !servecost::codec::is_known(&name) {
            ignored.push(Problem::new(
                &quoted(&name),
                "",
                "unknown parameter, ignored",
            ));
        }
    }
    if ignored.is_empty() {
        return Ok(p);
    }
    Err(servecost::codec::Refused {
        unreadable: ignored
            .into_iter()
            .map(|w| Problem {
                reason: format!(
                    "{}; a save keeps every parameter it is given, so it refuses one the \
                     calculator would ignore",
                    w.reason.trim_end_matches('.')
                ),
                ..w
            })
            .collect(),
        ..Default::default()
    })
}

async fn save(
    state: &AppState,
    client: &str,
    req: SaveRequest,
) -> Result<(app::db::saved::Saved, bool), ApiError> {
    if let Err(wait) = state.save_limit.check(client) {
        return Err(ApiError::TooManyRequests("saves", wait));
    }
    // Carriage returns of a form's line breaks (CR LF) are line breaks.
    let name = req.name.replace("\r\n", "\n");
    let note = req.note.replace("\r\n", "\n");
    let mut problems: Vec<Problem> = [
        text_problem("name", &name, NAME_MAX, true),
        text_problem("note", &note, NOTE_MAX, false),
    ]
    .into_iter()
    .flatten()
    .collect();
    if req.query.chars().count() > QUERY_MAX {
        problems.push(Problem::new(
            "query",
            quoted(&req.query),
            format!("must be at most {QUERY_MAX} characters"),
        ));
        // Not read at all: a query over the limit is refused before any work on it.
        return Err(ApiError::BadRequest(problems));
    }
    let parsed = every_parameter_read(&req.query);
    match parsed {
        Err(r) if problems.is_empty() => {
            return Err(crate::api::evaluate::refused(servecost::codec::Refused {
                unreadable: r.unreadable.into_iter().map(brief).collect(),
                no_answer: r.no_answer.into_iter().map(brief).collect(),
            }))
        }
        Err(r) => problems.extend(r.all().into_iter().map(brief)),
        Ok(_) if !problems.is_empty() => {}
        Ok(parsed) => {
            let data = state.store.current();
            let report =
                servecost::evaluate(&parsed.scenario, &data).map_err(ApiError::Unprocessable)?;
            return app::db::saved::save(
                &state.store.pool,
                &report.query,
                name.trim_matches(BLANK),
                note.trim_matches(BLANK),
                data.revision,
            )
            .await
            .map_err(internal);
        }
    }
    Err(ApiError::BadRequest(problems))
}

/// Saves a scenario and gives its short link.
///
/// (The document's description of this operation, with its limits, is written by
/// `openapi::ScenarioQuery` from the constants the server enforces.)
#[utoipa::path(
    post,
    path = "/api/v1/scenarios",
    tag = "scenarios",
    request_body = SaveRequest,
    responses(
        (status = 201, description = "Saved; `Location` holds the short link", body = SaveResponse),
        (status = 200, description = "Identical content was saved before: that save", body = SaveResponse),
        (status = 400, description = "The body, the name, the note or the query is invalid", body = ErrorBody),
        (status = 413, description = "The body is over the size limit", body = ErrorBody),
        (status = 422, description = "The scenario has no answer", body = ErrorBody),
        (status = 429, description = "Too many saves from this client in the last minute", body = ErrorBody),
    )
)]
pub async fn create(
    State(state): State<AppState>,
    addr: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    body: Result<Json<SaveRequest>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(req) = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::TooLarge
        } else {
            ApiError::BadRequest(vec![Problem::new("body", "", e.body_text())])
        }
    })?;
    let (saved, created) = save(&state, &client(&state, &headers, addr.as_ref()), req).await?;
    let url = format!("/s/{}", saved.id);
    let status = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    let body = SaveResponse {
        id: saved.id,
        url: url.clone(),
        revision: saved.revision,
        created_at: saved.created_at,
        query: saved.query,
    };
    Ok((status, [(header::LOCATION, url)], Json(body)).into_response())
}

/// `POST /s` from the page's form: saves and redirects to the saved link.
pub async fn create_from_form(
    State(state): State<AppState>,
    addr: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    body: Result<Form<SaveRequest>, FormRejection>,
) -> Result<Redirect, ApiError> {
    let Form(req) =
        body.map_err(|e| ApiError::BadRequest(vec![Problem::new("body", "", e.body_text())]))?;
    let (saved, _) = save(&state, &client(&state, &headers, addr.as_ref()), req).await?;
    Ok(Redirect::to(&format!("/s/{}", saved.id)))
}

/// A saved scenario with its report at the dataset revision it is pinned to, and, when a newer
/// revision exists, the same scenario with the newest data.
#[utoipa::path(
    get,
    path = "/api/v1/scenarios/{id}",
    tag = "scenarios",
    params(("id" = String, Path, description = "The saved scenario's id, from its `/s/{id}` link")),
    responses(
        (status = 200, description = "The saved scenario and its pinned report", body = Pinned),
        (status = 404, description = "No saved scenario has this id", body = ErrorBody),
        (status = 422, description = "The saved scenario no longer evaluates", body = ErrorBody),
    )
)]
pub async fn get(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Pinned>, ApiError> {
    match pinned(&state.store, &id).await {
        Ok(p) => Ok(Json(p)),
        Err(PinnedError::NotFound) => Err(ApiError::NotFound(vec![Problem::new(
            "id",
            &id,
            "no saved scenario has this id",
        )])),
        Err(PinnedError::Problems(p)) => Err(ApiError::Unprocessable(p)),
        Err(PinnedError::Database(e)) => Err(internal(e)),
    }
}

/// A saved scenario as CSV: the pinned report's figures, every input in force with the source
/// of each default, its name, note, date and link, and the sources it rests on.
#[utoipa::path(
    get,
    path = "/api/v1/scenarios/{id}/export.csv",
    tag = "scenarios",
    params(("id" = String, Path, description = "The saved scenario's id, from its `/s/{id}` link")),
    responses(
        (status = 200, description = "CSV (section, name, value, unit, source)", content_type = "text/csv", body = String),
        (status = 404, description = "No saved scenario has this id", body = ErrorBody),
        (status = 422, description = "The saved scenario no longer evaluates", body = ErrorBody),
    )
)]
pub async fn csv(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let Json(p) = get(State(state.clone()), Path(id)).await?;
    let s = &p.saved;
    let link = format!("{}/s/{}", state.public_url.trim_end_matches('/'), s.id);
    let mut body = servecost::export::csv(&p.report);
    body.push_str(&servecost::export::record_rows(
        &s.name,
        &s.note,
        &s.created_at,
        &link,
        &p.sources,
    ));
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"servecost-{}.csv\"", s.id),
            ),
        ],
        body,
    )
        .into_response())
}
