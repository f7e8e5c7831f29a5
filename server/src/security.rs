//! Security headers for every response. Only embed routes may be framed, by the origins the
//! configuration allows; every other page refuses framing.

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

/// The Content-Security-Policy without its `script-src` and `frame-ancestors`: everything from
/// this origin. Inline styles stay allowed (chart SVGs carry them); inline scripts do not.
pub const CSP: &str =
    "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; \
     connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'";

/// `script-src`: this origin's files, WebAssembly (`wasm-unsafe-eval`), and the inline scripts
/// Leptos marks with this response's nonce, when the page has one. Never `'unsafe-inline'`.
pub fn script_src(nonce: Option<&str>) -> String {
    match nonce {
        Some(n) => format!("script-src 'self' 'nonce-{n}' 'wasm-unsafe-eval'"),
        None => "script-src 'self' 'wasm-unsafe-eval'".to_owned(),
    }
}

/// A nonce as Leptos makes it: URL-safe base64, nothing that could end the directive.
fn valid_nonce(n: &str) -> bool {
    (16..=64).contains(&n.len())
        && n.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '+' | '/' | '='))
}

/// Whether a path may be shown inside another site's frame.
pub fn embeddable(path: &str) -> bool {
    path == "/embed" || path.starts_with("/embed/")
}

/// Adds the headers unless a handler set them; `frame_ancestors` is the CSP source list allowed
/// to frame embed routes.
pub async fn headers(State(frame_ancestors): State<String>, req: Request, next: Next) -> Response {
    let embed = embeddable(req.uri().path());
    let mut res = next.run(req).await;
    let not_modified = res.status() == axum::http::StatusCode::NOT_MODIFIED;
    let h = res.headers_mut();
    let nonce = h
        .remove(app::NONCE_HEADER)
        .and_then(|v| v.to_str().ok().map(str::to_owned))
        .filter(|n| valid_nonce(n));
    h.entry(header::X_CONTENT_TYPE_OPTIONS)
        .or_insert(HeaderValue::from_static("nosniff"));
    h.entry(header::REFERRER_POLICY)
        .or_insert(HeaderValue::from_static("strict-origin-when-cross-origin"));
    let ancestors = if embed {
        frame_ancestors.as_str()
    } else {
        "'none'"
    };
    let scripts = script_src(nonce.as_deref());
    // A 304 leaves the stored copy's CSP in place: its nonce is the one in that copy's scripts.
    if not_modified {
        return res;
    }
    if let Ok(csp) =
        HeaderValue::from_str(&format!("{CSP}; {scripts}; frame-ancestors {ancestors}"))
    {
        h.entry(header::CONTENT_SECURITY_POLICY).or_insert(csp);
    }
    if !embed {
        h.entry(header::X_FRAME_OPTIONS)
            .or_insert(HeaderValue::from_static("DENY"));
    }
    res
}
