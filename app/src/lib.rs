#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
// Leptos view types nest deeply; the default limit (128) is too low for the calculator page.
#![recursion_limit = "256"]

pub mod api;
mod browser;
pub mod charts;
pub mod citations;
pub mod components;
pub mod curve_editor;
#[cfg(feature = "ssr")]
pub mod db;
pub mod form;
pub mod format;
pub mod load_editor;
pub mod notice;
pub mod pages;
pub mod query;
pub mod values;

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, Title};
use leptos_router::components::{Route, Router, Routes};
use leptos_router::{path, SsrMode};

use crate::pages::{Calculator, Compare, Data, EmbedCompare, Method, NotFound, OptionsPage, Saved};

/// The origin people reach this server at (`https://costs.example.com`), from the server's
/// configuration: absolute links are built from it, never from a request's `Host` header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicOrigin(pub String);

/// Text for `<Title>`, escaped for HTML. leptos_meta 0.8 writes a title into the server's
/// `<head>` without escaping it, so a saved name such as `</title><script>` would otherwise
/// become markup. Only for pages that do not hydrate (in the browser the text would show its
/// entities).
pub fn title_text(text: &str) -> String {
    escape_html(text)
}

/// Text made safe inside HTML text and double-quoted attributes, for HTML written by hand (the
/// server's oEmbed and API docs) and for `<Title>`.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    push_escaped_html(&mut out, text);
    out
}

/// Text for a `<textarea>`'s content. tachys writes a textarea's children unescaped on the
/// server (as it writes a script's), so text from a link could close the element and become
/// markup; the server escapes it here, and the browser, which sets the text itself, takes it
/// as it is.
pub fn textarea_text(text: &str) -> String {
    if cfg!(feature = "ssr") {
        escape_html(text)
    } else {
        text.to_owned()
    }
}

/// [`escape_html`], written at the end of `out` (a chart's dozens of hover values, in one pass
/// each).
pub fn push_escaped_html(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

/// Paths whose pages the WASM app takes over; every other page is server-rendered only (it has
/// nothing to recompute), so it downloads no WASM and the bundle carries none of its code.
pub fn hydrated(path: &str) -> bool {
    path == "/"
}

/// The response header through which a page hands its CSP nonce to the server's security
/// middleware (which removes it).
pub const NONCE_HEADER: &str = "x-servecost-nonce";

/// The stylesheet's address, as the server's built site names it (`/pkg/servecost-<hash>.css`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stylesheet(pub String);

/// The modules the bundle's script imports itself (the split loader, `/pkg/servecost-<hash>-split.js`):
/// a page that loads the script preloads them beside it, instead of finding them only once
/// the script runs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModulePreloads(pub Vec<String>);

/// A whole page that no script takes over (the embeds), rendered outside the router:
/// `body`'s view in `<main>`, under the head every page has. Nothing in it waits or hydrates, so
/// it is written in one synchronous pass, without the router, the meta context or the
/// streaming that a routed page goes through.
#[cfg(feature = "ssr")]
pub fn static_document<V: IntoView>(
    title: &str,
    stylesheet: &str,
    body: impl FnOnce() -> V,
) -> String {
    use leptos::tachys::view::RenderHtml;
    let owner = Owner::new();
    let body = owner.with(|| body().into_view().to_html());
    format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"color-scheme\" content=\"light dark\">\
         <link rel=\"stylesheet\" href=\"{}\"><link rel=\"icon\" href=\"/favicon.ico\">\
         <title>{}</title></head><body><main>{body}</main></body></html>",
        escape_html(stylesheet),
        escape_html(title)
    )
}

/// The HTML document around the app, rendered on the server.
#[cfg(feature = "ssr")]
pub fn shell(options: LeptosOptions) -> impl IntoView {
    use leptos_meta::MetaTags;
    provide_context(crate::query::RequestOutcomes::default());
    let path = use_context::<http::request::Parts>().map(|p| p.uri.path().to_owned());
    let preloads = use_context::<ModulePreloads>().unwrap_or_default().0;
    let scripts = path.as_deref().is_some_and(hydrated).then(|| {
        view! {
            <HydrationScripts options/>
            {preloads.into_iter().map(|href| view! { <link rel="modulepreload" href=href/> }).collect_view()}
        }
    });
    let preview = (path.as_deref() == Some("/")).then(link_preview);
    let stylesheet =
        use_context::<Stylesheet>().map_or_else(|| "/pkg/servecost.css".to_owned(), |s| s.0);
    // Leptos gives every response a fresh nonce and puts it on the scripts it inlines (the
    // hydration script, the resolved resources); the security middleware writes it into the
    // CSP's script-src, which has no 'unsafe-inline': a script anyone slipped into the page
    // has no nonce and does not run.
    if let (Some(nonce), Some(res)) = (
        leptos::nonce::use_nonce(),
        use_context::<leptos_axum::ResponseOptions>(),
    ) {
        if let Ok(value) = http::HeaderValue::from_str(&nonce.to_string()) {
            res.insert_header(http::HeaderName::from_static(NONCE_HEADER), value);
        }
    }
    view! {
        <!DOCTYPE html>
        <html lang="en">
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                <meta name="color-scheme" content="light dark"/>
                <link rel="stylesheet" href=stylesheet/>
                <link rel="icon" href="/favicon.ico"/>
                {scripts}
                {preview}
                <MetaTags/>
            </head>
            <body>
                <App/>
            </body>
        </html>
    }
}

/// Open Graph tags with the verdict (so a pasted link previews) and oEmbed discovery (so wikis
/// auto-embed it), for the calculator's scenario. Server-side only: they never change in place.
#[cfg(feature = "ssr")]
fn link_preview() -> Option<impl IntoView> {
    let parts = use_context::<http::request::Parts>()?;
    let store = use_context::<crate::db::Store>()?;
    // As the page reads it (`open=` and the editor's fields made parameters): one answer for
    // both.
    let query = crate::form::from_form(parts.uri.query().unwrap_or_default()).query;
    let outcome = crate::query::outcome(&query, &store.current());
    let report = outcome.report.ok()?;
    let (sentence, break_even) = crate::components::sentences(&report);
    let origin = crate::browser::origin();
    let page = if report.query == "v=1" {
        format!("{origin}/")
    } else {
        format!("{origin}/?{}", report.query)
    };
    let oembed = format!("{origin}/oembed?url={}", crate::query::encode(&page));
    let og = |property: &'static str, content: String| {
        leptos::html::meta()
            .attr("property", property)
            .attr("content", content)
    };
    Some(view! {
        {og("og:title", format!("servecost: {}", report.inputs.model_name))}
        {og("og:description", crate::components::preview_text(&report))}
        {og("og:type", "website".to_owned())}
        {og("og:url", page)}
        <meta name="description" content=format!("{sentence} {break_even}")/>
        <link rel="alternate" type="application/json+oembed" href=oembed title="servecost scenario"/>
    })
}

/// The app: its routes. Pages render fully on the server before anything is sent, so they
/// work without JavaScript, in a wiki iframe and in a link preview.
#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    view! {
        <Title text="servecost: self-host or rent?"/>
        <Router>
            <main>
                <Routes fallback=NotFound>
                    <Route path=path!("/") view=Calculator ssr=SsrMode::Async/>
                    <Route path=path!("/data") view=Data ssr=SsrMode::Async/>
                    <Route path=path!("/method") view=Method ssr=SsrMode::Async/>
                    <Route path=path!("/s/:id") view=Saved ssr=SsrMode::Async/>
                    <Route path=path!("/compare") view=Compare ssr=SsrMode::Async/>
                    <Route path=path!("/options") view=OptionsPage ssr=SsrMode::Async/>
                    <Route path=path!("/embed/compare") view=EmbedCompare ssr=SsrMode::Async/>
                </Routes>
            </main>
        </Router>
    }
}

/// The browser entry point: hydrates the server-rendered page.
#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    leptos::mount::hydrate_body(App);
}
