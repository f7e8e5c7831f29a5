//! The page for an unknown address.

use leptos::prelude::*;

/// Not found, with a way back.
#[component]
pub fn NotFound() -> impl IntoView {
    #[cfg(feature = "ssr")]
    if let Some(resp) = use_context::<leptos_axum::ResponseOptions>() {
        resp.set_status(http::StatusCode::NOT_FOUND);
    }
    view! {
        <section class="not-found">
            <h1>"Page not found"</h1>
            <p><a href="/">"Back to the calculator"</a></p>
        </section>
    }
}
