//! What only a browser can do; on the server these do nothing.

/// Puts `query` in the address bar without adding a history entry.
#[cfg(feature = "hydrate")]
pub fn replace_query(query: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let path = window.location().pathname().unwrap_or_else(|_| "/".into());
    let url = if query.is_empty() {
        path
    } else {
        format!("{path}?{query}")
    };
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// The plain text of a paste.
#[cfg(feature = "hydrate")]
pub fn pasted_text(ev: &leptos::ev::ClipboardEvent) -> Option<String> {
    ev.clipboard_data()?.get_data("text/plain").ok()
}

/// No paste outside a browser.
#[cfg(not(feature = "hydrate"))]
pub fn pasted_text(_ev: &leptos::ev::ClipboardEvent) -> Option<String> {
    None
}

/// Puts `query` in the address bar (no-op on the server).
#[cfg(not(feature = "hydrate"))]
pub fn replace_query(_query: &str) {}

/// Runs `f` between two User Timing marks and records a measure named `name`, so browser tests
/// can read how long the engine took.
#[cfg(feature = "hydrate")]
pub fn measure<T>(name: &str, f: impl FnOnce() -> T) -> T {
    mark(name, false);
    let out = f();
    mark(name, true);
    out
}

/// The mark before `name` (or, `end`, the measure since it): out of [`measure`], so that each
/// use of it carries only its own work.
#[cfg(feature = "hydrate")]
#[inline(never)]
fn mark(name: &str, end: bool) {
    let Some(performance) = web_sys::window().and_then(|w| w.performance()) else {
        return;
    };
    let start = format!("{name}:start");
    let _ = if end {
        performance.measure_with_start_mark(name, &start).map(drop)
    } else {
        performance.mark(&start).map(drop)
    };
}

/// Runs `f` (no timing on the server).
#[cfg(not(feature = "hydrate"))]
pub fn measure<T>(_name: &str, f: impl FnOnce() -> T) -> T {
    f()
}

/// This site's origin (`https://host`), for absolute links in embeds and oEmbed discovery.
#[cfg(feature = "hydrate")]
pub fn origin() -> String {
    web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default()
}

/// This site's public origin, from the server's configuration (`SERVECOST_PUBLIC_URL`), never
/// from the request's `Host` header, which any client can set.
#[cfg(all(feature = "ssr", not(feature = "hydrate")))]
pub fn origin() -> String {
    leptos::prelude::use_context::<crate::PublicOrigin>()
        .map(|o| o.0)
        .unwrap_or_default()
}

/// No origin outside a server or a browser.
#[cfg(not(any(feature = "ssr", feature = "hydrate")))]
pub fn origin() -> String {
    String::new()
}

/// Copies the page's address to the clipboard; true when the browser accepted the request.
#[cfg(feature = "hydrate")]
pub fn copy_address() -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let Ok(href) = window.location().href() else {
        return false;
    };
    let _ = window.navigator().clipboard().write_text(&href);
    true
}

/// Nothing to copy on the server.
#[cfg(not(feature = "hydrate"))]
pub fn copy_address() -> bool {
    false
}
