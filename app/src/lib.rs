#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
// Leptos view types nest deeply; the default limit (128) is too low for the calculator page.
#![recursion_limit = "256"]

pub mod api;
mod browser;
pub mod charts;
pub mod citations;
pub mod components;
#[cfg(feature = "ssr")]
pub mod db;
pub mod format;
pub mod pages;
pub mod query;
pub mod values;

use leptos::prelude::*;
use leptos_meta::{provide_meta_context, MetaTags, Title};
use leptos_router::components::{Route, Router, Routes};
use leptos_router::{path, SsrMode};

use crate::pages::{Calculator, Data, Method, NotFound};

/// The HTML document around the app, rendered on the server.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    view! {
        <!DOCTYPE html>
        <html lang="en">
            <head>
                <meta charset="utf-8"/>
                <meta name="viewport" content="width=device-width, initial-scale=1"/>
                <meta name="color-scheme" content="light dark"/>
                <link rel="stylesheet" href="/pkg/servecost.css"/>
                <link rel="icon" href="/favicon.ico"/>
                <HydrationScripts options/>
                <MetaTags/>
            </head>
            <body>
                <App/>
            </body>
        </html>
    }
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
                </Routes>
            </main>
        </Router>
    }
}

/// The browser entry point: hydrates the server-rendered page.
#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_body(App);
}
