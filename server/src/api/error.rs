//! Errors of the JSON API.
//!
//! Policy: a client's mistake is answered with a status that fits and a JSON body naming each
//! problem (parameter, value, reason); an internal failure is logged with `tracing` and answered
//! with a 500 that reveals nothing of the internals. User input never causes a 500.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use servecost::Problem;

/// An API error.
#[derive(Debug)]
pub enum ApiError {
    /// The request's parameters cannot be read (400).
    BadRequest(Vec<Problem>),
    /// What was asked for does not exist (404).
    NotFound(Vec<Problem>),
    /// The parameters are readable but have no answer (422), e.g. a target above the curve.
    Unprocessable(Vec<Problem>),
    /// The request asks for something this server does not serve (501), e.g. oEmbed as XML.
    NotImplemented(Vec<Problem>),
    /// The body is over the size limit (413).
    TooLarge,
    /// The body was still arriving after this long (408).
    TooSlow(std::time::Duration),
    /// The client sent too many requests (429): what of, and how long until it may again
    /// (`Retry-After`).
    TooManyRequests(&'static str, std::time::Duration),
    /// The query string is over this many bytes (414).
    UriTooLong(usize),
    /// The request's headers are over a limit (431): the problem names it.
    HeadersTooLarge(Problem),
    /// The answer could not be computed in time (503); the client may retry.
    Unavailable(String),
    /// The server is busy with this kind of work (503): the message, and when to try again
    /// (`Retry-After`).
    Busy(String, std::time::Duration),
    /// Something failed on the server; the message is logged, not sent.
    Internal(String),
}

/// The body of every error: a summary and each problem with its parameter, value and reason.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    /// What went wrong, in a few words.
    error: String,
    /// Each problem: the parameter, the value given and why it was refused.
    problems: Vec<Problem>,
}

impl ErrorBody {
    /// A body of one problem.
    pub fn new(error: String, problem: Problem) -> Self {
        ErrorBody {
            error,
            problems: vec![problem],
        }
    }

    /// The body of an answer made below the router (see `crate::serve`), as JSON bytes.
    pub fn bytes(error: &str, problem: Problem) -> Vec<u8> {
        let body = ErrorBody {
            error: error.to_owned(),
            problems: vec![problem],
        };
        serde_json::to_vec(&body).unwrap_or_default()
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, error, problems) = match &self {
            ApiError::BadRequest(p) => {
                (StatusCode::BAD_REQUEST, "invalid parameters", p.as_slice())
            }
            ApiError::NotFound(p) => (StatusCode::NOT_FOUND, "not found", p.as_slice()),
            ApiError::NotImplemented(p) => {
                (StatusCode::NOT_IMPLEMENTED, "not implemented", p.as_slice())
            }
            ApiError::Unprocessable(p) => (
                StatusCode::UNPROCESSABLE_ENTITY,
                "no answer for these parameters",
                p.as_slice(),
            ),
            ApiError::TooLarge => (
                StatusCode::PAYLOAD_TOO_LARGE,
                "request body too large",
                &[][..],
            ),
            ApiError::TooManyRequests(what, wait) => {
                let secs = wait.as_secs_f64().ceil().max(1.0) as u64;
                let body = ErrorBody {
                    error: format!(
                        "too many {what} from this client: try again in {} s",
                        servecost::format::exact(secs as f64, false)
                    ),
                    problems: Vec::new(),
                };
                let mut res = (StatusCode::TOO_MANY_REQUESTS, Json(body)).into_response();
                res.headers_mut()
                    .insert(axum::http::header::RETRY_AFTER, secs.into());
                return res;
            }
            ApiError::TooSlow(limit) => {
                let problem = Problem::new(
                    "body",
                    "",
                    format!(
                        "still arriving after {} s: send it again, or a shorter period",
                        servecost::format::exact(limit.as_secs() as f64, false)
                    ),
                );
                let body = ErrorBody::new("request body too slow".to_owned(), problem);
                return (StatusCode::REQUEST_TIMEOUT, Json(body)).into_response();
            }
            ApiError::UriTooLong(limit) => {
                let problem = Problem::new(
                    "query",
                    "…",
                    format!(
                        "must be at most {} bytes; a full scenario takes under 4,096",
                        servecost::format::exact(*limit as f64, false)
                    ),
                );
                let body = ErrorBody::new("query string too long".to_owned(), problem);
                return (StatusCode::URI_TOO_LONG, Json(body)).into_response();
            }
            ApiError::HeadersTooLarge(problem) => {
                let body = ErrorBody {
                    error: "request headers too large".to_owned(),
                    problems: vec![problem.clone()],
                };
                return (StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE, Json(body)).into_response();
            }
            ApiError::Unavailable(message) => {
                let body = ErrorBody {
                    error: message.clone(),
                    problems: Vec::new(),
                };
                return (StatusCode::SERVICE_UNAVAILABLE, Json(body)).into_response();
            }
            ApiError::Busy(message, wait) => {
                let body = ErrorBody {
                    error: message.clone(),
                    problems: Vec::new(),
                };
                let mut res = (StatusCode::SERVICE_UNAVAILABLE, Json(body)).into_response();
                let secs = wait.as_secs_f64().ceil().max(1.0) as u64;
                res.headers_mut()
                    .insert(axum::http::header::RETRY_AFTER, secs.into());
                return res;
            }
            ApiError::Internal(message) => {
                tracing::error!(%message, "internal error");
                (StatusCode::INTERNAL_SERVER_ERROR, "internal error", &[][..])
            }
        };
        let body = ErrorBody {
            error: error.to_owned(),
            problems: problems.to_vec(),
        };
        (status, Json(body)).into_response()
    }
}
