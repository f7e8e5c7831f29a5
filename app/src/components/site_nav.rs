//! The links between the site's pages, in every masthead.

use leptos::prelude::*;

/// The pages the navigation links.
const PAGES: [(&str, &str); 4] = [
    ("/", "Calculator"),
    ("/data", "Data"),
    ("/method", "Method"),
    ("/api/v1/docs", "API"),
];

/// Links to every page but `current` (full page loads: only `/` runs the WASM app).
#[component]
pub fn SiteNav(
    /// The path of the page showing the navigation.
    current: &'static str,
) -> impl IntoView {
    let links = PAGES
        .iter()
        .filter(|(path, _)| *path != current)
        .map(|(path, name)| view! { <a href=*path rel="external">{*name}</a> " " })
        .collect_view();
    view! { <nav class="site-nav" aria-label="Pages">{links}</nav> }
}
