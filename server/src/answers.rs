//! What every answer keeps to, whichever handler, extractor or file service made it:
//!
//! - a redirect stays on this site: a `Location` beginning with `//` or `/\` (which a browser
//!   reads as another host, as the file service's directory redirect of `//pkg` would send) is
//!   made a path of this site;
//! - a 429 says when to come back (`Retry-After`);
//! - a 4xx under `/api/` (and of `/oembed`) is the JSON error every API error is
//!   ([`ErrorBody`]), and any other 4xx a small page (in the reader's light or dark colours),
//!   where an extractor, the router or the file service answered with an empty or plain-text
//!   body, or a limit with the JSON error to a browser (a link over 8,192 bytes, a form too
//!   large).

use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use servecost::Problem;

use crate::api::ErrorBody;

/// Longest body of a refusal read to be quoted in its JSON or page: axum's own are a line.
const QUOTED: usize = 16 * 1024;

/// Seconds a 429 without its own `Retry-After` asks the client to wait.
const RETRY_AFTER_SECS: u64 = 60;

/// The middleware: see the module's documentation.
pub async fn keep(req: Request, next: Next) -> Response {
    // oEmbed answers scripts in JSON, as the API does.
    let api = req.uri().path().starts_with("/api/") || req.uri().path() == "/oembed";
    // A browser's navigation, which a JSON refusal (a link over its limit, a form too large)
    // would leave showing raw JSON.
    let person = req
        .headers()
        .get(header::ACCEPT)
        .is_some_and(|a| a.as_bytes().windows(9).any(|w| w == b"text/html"));
    let mut res = next.run(req).await;
    if let Some(on_site) = res
        .headers()
        .get(header::LOCATION)
        .and_then(|l| off_site(l.as_bytes()))
    {
        res.headers_mut().insert(header::LOCATION, on_site);
    }
    let status = res.status();
    if status == StatusCode::TOO_MANY_REQUESTS && !res.headers().contains_key(header::RETRY_AFTER) {
        res.headers_mut()
            .insert(header::RETRY_AFTER, RETRY_AFTER_SECS.into());
    }
    if !status.is_client_error() {
        return res;
    }
    let kind = res
        .headers()
        .get(header::CONTENT_TYPE)
        .map(|v| v.as_bytes().to_ascii_lowercase())
        .unwrap_or_default();
    let json = kind.starts_with(b"application/json");
    let html = kind.starts_with(b"text/html");
    if (json && (api || !person)) || (html && !api) {
        return res;
    }
    let (parts, body) = res.into_parts();
    let said = axum::body::to_bytes(body, QUOTED).await.unwrap_or_default();
    let said = if json {
        // A person's refusal outside the API: the JSON error's words on the page.
        error_words(&said)
    } else {
        String::from_utf8_lossy(&said).trim().to_owned()
    };
    if !api {
        let (title, detail) = page_text(status, &said);
        return small_page(status, &parts.headers, &title, &detail);
    }
    let body = ErrorBody::new(reason(status), problem(status, &parts.headers, &said));
    answered_again(Json(body).into_response(), status, &parts.headers)
}

/// `out` with `status` and the `headers` of the answer it replaces (its own type and length
/// kept).
fn answered_again(
    mut out: Response,
    status: StatusCode,
    headers: &axum::http::HeaderMap,
) -> Response {
    *out.status_mut() = status;
    for (name, value) in headers {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            out.headers_mut().append(name, value.clone());
        }
    }
    out
}

/// The small page every refusal outside the API is: `title`, `detail` (HTML, escaped by the
/// caller) and the ways back, with `status` and the `headers` of the answer it replaces.
pub fn small_page(
    status: StatusCode,
    headers: &axum::http::HeaderMap,
    title: &str,
    detail: &str,
) -> Response {
    let html = axum::response::Html(format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" \
         content=\"width=device-width\"><meta name=\"color-scheme\" content=\"light dark\"><title>{code} {title} · servecost</title></head><body>\
         <h1>{title}</h1><p>{detail}</p><p><a href=\"/\">The calculator</a> · \
         <a href=\"/data\">the dataset</a> · <a href=\"/api/v1/docs\">the API</a></p></body>\
         </html>",
        code = status.as_u16(),
    ));
    answered_again(html.into_response(), status, headers)
}

/// The words of a JSON error: its summary, then each problem's reason.
fn error_words(json: &[u8]) -> String {
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(json) else {
        return String::new();
    };
    let mut words = v["error"].as_str().unwrap_or_default().to_owned();
    if let Some(first) = words.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    let reasons: Vec<&str> = v["problems"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["reason"].as_str())
        .collect();
    if !reasons.is_empty() {
        words.push_str(": ");
        words.push_str(&reasons.join("; "));
    }
    words.push('.');
    words
}

/// `location` made a path of this site when it begins with two slashes or a slash and a
/// backslash; `None` when it is already one (or an absolute address this server wrote).
fn off_site(location: &[u8]) -> Option<HeaderValue> {
    let leading = location
        .iter()
        .take_while(|&&b| b == b'/' || b == b'\\')
        .count();
    if leading < 2 {
        return None;
    }
    let mut path = b"/".to_vec();
    path.extend_from_slice(&location[leading..]);
    HeaderValue::from_bytes(&path).ok()
}

/// The status's reason, in lower case: `not found`.
fn reason(status: StatusCode) -> String {
    status
        .canonical_reason()
        .unwrap_or("refused")
        .to_ascii_lowercase()
}

/// The problem a refusal of `status` names: the method allowed for a 405, the address for a
/// 404, and otherwise what the extractor said.
fn problem(status: StatusCode, headers: &axum::http::HeaderMap, said: &str) -> Problem {
    match status {
        StatusCode::METHOD_NOT_ALLOWED => {
            let allowed = headers
                .get(header::ALLOW)
                .and_then(|a| a.to_str().ok())
                .unwrap_or("another method");
            Problem::new(
                "method",
                "",
                format!("this address takes {allowed}: see /api/v1/docs"),
            )
        }
        StatusCode::NOT_FOUND => Problem::new(
            "path",
            "",
            "no such address in the API: see /api/v1/docs for every route",
        ),
        _ => Problem::new(
            "request",
            "",
            if said.is_empty() {
                reason(status)
            } else {
                quoted(said)
            },
        ),
    }
}

/// At most 200 characters of what an extractor said.
fn quoted(said: &str) -> String {
    let mut out: String = said.chars().take(200).collect();
    if out.len() < said.len() {
        out.push('…');
    }
    out
}

/// The title and detail (HTML) of the page for a refusal of `status` outside the API.
fn page_text(status: StatusCode, said: &str) -> (String, String) {
    let title = match status {
        StatusCode::NOT_FOUND => "Not found".to_owned(),
        StatusCode::METHOD_NOT_ALLOWED => "Not a method this address takes".to_owned(),
        StatusCode::URI_TOO_LONG => "The link is too long".to_owned(),
        StatusCode::PAYLOAD_TOO_LARGE => "Too large to read".to_owned(),
        StatusCode::REQUEST_TIMEOUT => "Too slow to arrive".to_owned(),
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => "Headers too large".to_owned(),
        other => {
            let mut r = reason(other);
            if let Some(first) = r.get_mut(..1) {
                first.make_ascii_uppercase();
            }
            r
        }
    };
    let detail = match status {
        StatusCode::NOT_FOUND => "Nothing is served at this address.".to_owned(),
        StatusCode::METHOD_NOT_ALLOWED => "This address is read, not posted to.".to_owned(),
        _ if said.is_empty() => String::new(),
        _ => crate::api::escape(&quoted(said)),
    };
    (title, detail)
}

#[cfg(test)]
mod tests {
    use super::off_site;

    #[test]
    fn a_location_of_another_host_becomes_a_path_here() {
        assert_eq!(off_site(b"//pkg/").expect("moved"), "/pkg/");
        assert_eq!(
            off_site(b"/\\evil.example/").expect("moved"),
            "/evil.example/"
        );
        assert_eq!(off_site(b"///x").expect("moved"), "/x");
        assert!(off_site(b"/pkg/").is_none());
        assert!(off_site(b"/?a=1").is_none());
    }
}
