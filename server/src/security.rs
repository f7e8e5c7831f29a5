//! Security headers for every response. Only embed routes may be framed, by the origins the
//! configuration allows; every other page refuses framing.

use axum::extract::{Request, State};
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;

/// The Content-Security-Policy without its `frame-ancestors`: scripts and styles from this origin
/// (Leptos's hydration script is inline, and WebAssembly needs `wasm-unsafe-eval`).
pub const CSP: &str = "default-src 'self'; script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'; \
     style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; \
     object-src 'none'; base-uri 'self'; form-action 'self'";

/// Whether a path may be shown inside another site's frame.
pub fn embeddable(path: &str) -> bool {
    path == "/embed" || path.starts_with("/embed/")
}

/// Adds the headers unless a handler set them; `frame_ancestors` is the CSP source list allowed
/// to frame embed routes.
pub async fn headers(State(frame_ancestors): State<String>, req: Request, next: Next) -> Response {
    let embed = embeddable(req.uri().path());
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.entry(header::X_CONTENT_TYPE_OPTIONS)
        .or_insert(HeaderValue::from_static("nosniff"));
    h.entry(header::REFERRER_POLICY)
        .or_insert(HeaderValue::from_static("strict-origin-when-cross-origin"));
    let ancestors = if embed {
        frame_ancestors.as_str()
    } else {
        "'none'"
    };
    if let Ok(csp) = HeaderValue::from_str(&format!("{CSP}; frame-ancestors {ancestors}")) {
        h.entry(header::CONTENT_SECURITY_POLICY).or_insert(csp);
    }
    if !embed {
        h.entry(header::X_FRAME_OPTIONS)
            .or_insert(HeaderValue::from_static("DENY"));
    }
    res
}
