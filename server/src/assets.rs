//! Caching: the browser bundle under content-hashed names, kept by browsers and proxies for a
//! year; every other static file and every page revalidated on each use.
//!
//! The build (`scripts/site-assets.mjs`) names the bundle `servecost-<16 hex>.js`,
//! `servecost-<16 hex>_bg.wasm` and `servecost-<16 hex>.css`, and what the script fetches later
//! `servecost-<16 hex>-split.js` (the split loader) and `servecost-<16 hex>-<module>.wasm`,
//! writes a brotli and a gzip copy of each beside it, and lists the names in `pkg/assets.json`.
//! The server serves the copy the client accepts as it is, never compressing these files again.
//!
//! Pages carry a weak `ETag` over their HTML with the response's CSP nonce left out (the nonce
//! is new on every response, the page is not) and `Cache-Control: no-cache`: a browser or a
//! wiki's proxy asks again each time and gets `304 Not Modified` while the numbers are the same.

use std::path::Path;

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

/// The file in the site's package folder that names the current bundle.
pub const MANIFEST: &str = "assets.json";

/// `Cache-Control` of a file whose name changes with its content.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// `Cache-Control` of pages and of static files with fixed names: keep, but ask first.
pub const REVALIDATE: &str = "no-cache";

/// Largest page the revalidation reads into memory to hash (the calculator is about 120 KB);
/// a page over it is answered 500, never cut short.
const LARGEST_PAGE: usize = 4 * 1024 * 1024;

/// The bundle's names, as `pkg/assets.json` gives them.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Assets {
    /// What Leptos loads: `<output_name>.js` and `<output_name>_bg.wasm`.
    pub output_name: String,
    /// The stylesheet's file name.
    pub stylesheet: String,
    /// The files the script fetches later: the split loader (`-split.js`) and the modules it
    /// loads when first called (none from a build before the split).
    #[serde(default)]
    pub later: Vec<String>,
}

impl Assets {
    /// The names the build wrote under `site_root/pkg_dir`, or `None` when there is no
    /// manifest (a server started without a built site) or it is not one the build writes.
    pub fn read(site_root: &str, pkg_dir: &str) -> Option<Self> {
        let text =
            std::fs::read_to_string(Path::new(site_root).join(pkg_dir).join(MANIFEST)).ok()?;
        let assets: Assets = serde_json::from_str(&text).ok()?;
        let stem = assets.stylesheet.strip_suffix(".css")?;
        (hashed_stem(&assets.output_name)
            && hashed_stem(stem)
            && assets.later.iter().all(|n| hashed(n)))
        .then_some(assets)
    }
}

/// `servecost-` and 16 lowercase hexadecimal digits: a name the build made from a content hash.
fn hashed_stem(stem: &str) -> bool {
    stem.strip_prefix("servecost-").is_some_and(|h| {
        h.len() == 16
            && h.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

/// Whether a file name is one of the hashed bundle's (its compressed copies included): the
/// script, the WASM and the stylesheet, and the split loader and the modules it fetches later
/// (`servecost-<hash>-split.js`, `servecost-<hash>-split_<function>_<number>.wasm`).
pub fn hashed(file: &str) -> bool {
    let file = file
        .strip_suffix(".br")
        .or_else(|| file.strip_suffix(".gz"))
        .unwrap_or(file);
    let Some(stem) = file
        .strip_suffix(".wasm")
        .or_else(|| file.strip_suffix(".js"))
        .or_else(|| file.strip_suffix(".css"))
    else {
        return false;
    };
    let Some(rest) = stem.get("servecost-".len() + 16..) else {
        return false;
    };
    let part = rest
        .strip_prefix('-')
        .filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'));
    hashed_stem(&stem[..stem.len() - rest.len()])
        && (rest.is_empty() || rest == "_bg" || part.is_some())
}

/// `Cache-Control` for the static files: a year for the hashed bundle (with `Vary`, since it
/// is served brotli, gzip or plain), revalidation for the rest.
pub async fn static_headers(req: Request, next: Next) -> Response {
    let file = req
        .uri()
        .path()
        .rsplit('/')
        .next()
        .unwrap_or_default()
        .to_owned();
    let mut res = next.run(req).await;
    if !(res.status().is_success() || res.status() == StatusCode::NOT_MODIFIED) {
        return res;
    }
    let h = res.headers_mut();
    if hashed(&file) {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static(IMMUTABLE));
        h.append(header::VARY, HeaderValue::from_static("accept-encoding"));
    } else {
        h.entry(header::CACHE_CONTROL)
            .or_insert(HeaderValue::from_static(REVALIDATE));
    }
    res
}

/// The page's validator: a hash of its HTML with every occurrence of `nonce` left out, and of
/// `headers`, what the server sends beside it that a 304 leaves as stored (the security policy
/// without its nonce, the framing rule, the bundle's names): a change of those is a new tag.
pub fn etag(html: &[u8], nonce: Option<&str>, headers: &str) -> String {
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    // Each part is preceded by its length, so that no two ways of cutting the page hash alike.
    let mut part = |bytes: &[u8]| {
        hasher.update(&(bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    };
    part(headers.as_bytes());
    match nonce.map(str::as_bytes).filter(|n| !n.is_empty()) {
        Some(n) => {
            let mut from = 0;
            for at in memchr::memmem::find_iter(html, n) {
                part(&html[from..at]);
                from = at + n.len();
            }
            part(&html[from..]);
        }
        None => part(html),
    }
    format!("W/\"{:016x}\"", hasher.digest())
}

/// Whether `If-None-Match` names `tag` (weak comparison, as RFC 9110 asks for `GET`).
fn matches(if_none_match: &[HeaderValue], tag: &str) -> bool {
    let bare = |t: &str| t.trim().trim_start_matches("W/").to_owned();
    let want = bare(tag);
    if_none_match
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim() == "*" || bare(t) == want)
}

/// Revalidation of pages: a `GET` answered with HTML gets its `ETag` and
/// `Cache-Control: no-cache`; when the request already holds that tag, `304` without a body.
/// The `304` carries no CSP: the browser keeps the one stored with its copy, whose nonce is
/// the one in that copy's scripts. `headers` is mixed into the tag ([`etag`]). A `HEAD` gets
/// no tag: its body is gone before this layer sees it, so it could not be the `GET`'s.
pub async fn revalidate(
    axum::extract::State(headers): axum::extract::State<std::sync::Arc<str>>,
    req: Request,
    next: Next,
) -> Response {
    if req.method() != Method::GET {
        return next.run(req).await;
    }
    // Only the validators the client holds are kept past the handler.
    let conditions: Vec<HeaderValue> = req
        .headers()
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .cloned()
        .collect();
    let res = next.run(req).await;
    let html = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/html"));
    if res.status() != StatusCode::OK || !html || res.headers().contains_key(header::ETAG) {
        return res;
    }
    let (mut parts, body) = res.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, LARGEST_PAGE).await else {
        return (
            StatusCode::INTERNAL_SERVER_ERROR,
            "The page could not be read to the end.",
        )
            .into_response();
    };
    let nonce = parts
        .headers
        .get(app::NONCE_HEADER)
        .and_then(|v| v.to_str().ok());
    let tag = etag(&bytes, nonce, &headers);
    let Ok(value) = HeaderValue::from_str(&tag) else {
        return Response::from_parts(parts, Body::from(bytes));
    };
    parts
        .headers
        .entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static(REVALIDATE));
    if matches(&conditions, &tag) {
        let mut not_modified = Response::new(Body::empty());
        *not_modified.status_mut() = StatusCode::NOT_MODIFIED;
        let h = not_modified.headers_mut();
        h.insert(header::ETAG, value);
        if let Some(v) = parts.headers.get(header::CACHE_CONTROL) {
            h.insert(header::CACHE_CONTROL, v.clone());
        }
        // The 200 is compressed by the layer outside, which adds this `Vary`; a 304 must
        // carry the same (RFC 9110, 15.4.5).
        h.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        return not_modified;
    }
    parts.headers.insert(header::ETAG, value);
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashed_names_are_the_builds() {
        for name in [
            "servecost-0123456789abcdef.js",
            "servecost-0123456789abcdef_bg.wasm",
            "servecost-0123456789abcdef_bg.wasm.br",
            "servecost-0123456789abcdef.css.gz",
            "servecost-0123456789abcdef-split.js",
            "servecost-0123456789abcdef-split.js.br",
            "servecost-0123456789abcdef-split_draw_in_browser_3609600023111910956.wasm",
            "servecost-0123456789abcdef-chunk_2.wasm.gz",
        ] {
            assert!(hashed(name), "{name}");
        }
        for name in [
            "servecost.js",
            "servecost_bg.wasm",
            "servecost-0123456789ABCDEF.js",
            "servecost-0123456789abcde.css",
            "favicon.ico",
            "assets.json",
            "servecost-0123456789abcdef.txt",
            "servecost-0123456789abcdef-.js",
            "servecost-0123456789abcdef-a/b.wasm",
            "servecost-0123456789abcdefsplit.js",
            "servecost-0123456789abcdef_b.wasm",
            "servecost-é123456789abcdef.js",
        ] {
            assert!(!hashed(name), "{name}");
        }
    }

    #[test]
    fn the_nonce_does_not_change_the_tag() {
        let page = |nonce: &str, text: &str| format!("<script nonce=\"{nonce}\">{text}</script>");
        let tag = |nonce: &str, text: &str, headers: &str| {
            etag(page(nonce, text).as_bytes(), Some(nonce), headers)
        };
        let a = tag("AAAAAAAAAAAAAAAA", "x", "csp");
        let b = tag("BBBBBBBBBBBBBBBB", "x", "csp");
        assert_eq!(a, b);
        assert_ne!(b, tag("BBBBBBBBBBBBBBBB", "y", "csp"));
        assert_ne!(
            b,
            tag("BBBBBBBBBBBBBBBB", "x", "csp2"),
            "a new policy is a new tag"
        );
        assert!(a.starts_with("W/\""));
    }

    #[test]
    fn if_none_match_compares_weakly() {
        let h = [HeaderValue::from_static("\"other\", \"0000000000000001\"")];
        assert!(matches(&h, "W/\"0000000000000001\""));
        assert!(!matches(&h, "W/\"0000000000000002\""));
        assert!(!matches(&[], "W/\"0000000000000001\""));
    }
}
