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

/// Puts `query` in the address bar (no-op on the server).
#[cfg(not(feature = "hydrate"))]
pub fn replace_query(_query: &str) {}
