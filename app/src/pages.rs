//! Pages, one per file. `/data`, `/method`, `/compare`, `/options`, `/embed` and `/s/{id}` are rendered on the server only (see
//! [`crate::hydrated`]): in the browser bundle they are empty stand-ins that never render. The
//! embeds are not routes of the app at all: the server renders them outside the router.

mod calculator;
#[cfg(feature = "ssr")]
mod compare;
#[cfg(feature = "ssr")]
mod data;
#[cfg(feature = "ssr")]
mod embed;
#[cfg(feature = "ssr")]
mod method;
mod not_found;
#[cfg(feature = "ssr")]
mod options;
#[cfg(feature = "ssr")]
mod saved;

pub use calculator::{Calculator, Hydrated};
#[cfg(feature = "ssr")]
pub use compare::{Compare, EmbedCompare};
#[cfg(feature = "ssr")]
pub use data::Data;
#[cfg(feature = "ssr")]
pub use embed::{embed_document, embed_saved_document, embed_view, EmbedMissing};
#[cfg(feature = "ssr")]
pub use method::Method;
pub use not_found::NotFound;
#[cfg(feature = "ssr")]
pub use options::OptionsPage;
#[cfg(feature = "ssr")]
pub use saved::Saved;

/// `/data` outside the server: never rendered, since the page is not hydrated.
#[cfg(not(feature = "ssr"))]
#[leptos::component]
pub fn Data() -> impl leptos::IntoView {}

/// `/method` outside the server: never rendered, since the page is not hydrated.
#[cfg(not(feature = "ssr"))]
#[leptos::component]
pub fn Method() -> impl leptos::IntoView {}

/// `/options` outside the server: never rendered, since the page is not hydrated.
#[cfg(not(feature = "ssr"))]
#[leptos::component]
pub fn OptionsPage() -> impl leptos::IntoView {}

/// `/s/{id}` outside the server: never rendered, since the page is not hydrated.
#[cfg(not(feature = "ssr"))]
#[leptos::component]
pub fn Saved() -> impl leptos::IntoView {}

/// `/compare` outside the server: never rendered, since the page is not hydrated.
#[cfg(not(feature = "ssr"))]
#[leptos::component]
pub fn Compare() -> impl leptos::IntoView {}

/// `/embed/compare` outside the server: never rendered, since the page is not hydrated.
#[cfg(not(feature = "ssr"))]
#[leptos::component]
pub fn EmbedCompare() -> impl leptos::IntoView {}
