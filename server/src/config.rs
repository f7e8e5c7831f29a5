//! Configuration from the environment; every variable has a working default, so the server
//! runs with none set.

use std::net::SocketAddr;

use anyhow::Context;

/// Server configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// `LEPTOS_SITE_ADDR`: address to listen on. Default `127.0.0.1:3000`.
    pub addr: SocketAddr,
    /// `DATABASE_URL`: the database. Default `sqlite://servecost.db` (a file in the working
    /// directory, created and filled with the published dataset on first start).
    pub database_url: String,
    /// `RUST_LOG`: log filter. Default `info,sqlx=warn`.
    pub log: String,
    /// `LEPTOS_SITE_ROOT`: the built site (WASM, JS, CSS, static files). Default `target/site`.
    pub site_root: String,
    /// `LEPTOS_SITE_PKG_DIR`: the WASM/JS/CSS folder inside the site. Default `pkg`.
    pub site_pkg_dir: String,
    /// `LEPTOS_OUTPUT_NAME`: base name of the WASM, JS and CSS files. Default `servecost`.
    pub output_name: String,
    /// `SERVECOST_FRAME_ANCESTORS`: who may show `/embed` pages in a frame, as a CSP source list
    /// (e.g. `https://wiki.example.com`). Default `*` (any origin). Other pages refuse framing.
    pub frame_ancestors: String,
}

fn var(name: &str, default: &str) -> String {
    std::env::var(name)
        .ok()
        .filter(|v| !v.trim().is_empty())
        .unwrap_or_else(|| default.to_owned())
}

/// Checks a CSP source list: space-separated sources, no `;` or `,` that would end the directive.
fn frame_ancestors(list: &str) -> anyhow::Result<String> {
    let ok = !list.trim().is_empty()
        && list
            .chars()
            .all(|c| c.is_ascii_graphic() && c != ';' && c != ',' || c == ' ');
    anyhow::ensure!(
        ok,
        "SERVECOST_FRAME_ANCESTORS={list:?} is not a CSP source list such as \"*\" or \"https://wiki.example.com 'self'\""
    );
    Ok(list.trim().to_owned())
}

impl Config {
    /// Reads the environment.
    pub fn from_env() -> anyhow::Result<Self> {
        let addr = var("LEPTOS_SITE_ADDR", "127.0.0.1:3000");
        Ok(Self {
            addr: addr.parse().with_context(|| {
                format!("LEPTOS_SITE_ADDR={addr:?} is not an address like 127.0.0.1:3000")
            })?,
            database_url: var("DATABASE_URL", "sqlite://servecost.db"),
            log: var("RUST_LOG", "info,sqlx=warn"),
            site_root: var("LEPTOS_SITE_ROOT", "target/site"),
            site_pkg_dir: var("LEPTOS_SITE_PKG_DIR", "pkg"),
            output_name: var("LEPTOS_OUTPUT_NAME", "servecost"),
            frame_ancestors: frame_ancestors(&var("SERVECOST_FRAME_ANCESTORS", "*"))?,
        })
    }

    /// The Leptos options these settings stand for.
    pub fn leptos_options(&self) -> leptos::prelude::LeptosOptions {
        leptos::prelude::LeptosOptions::builder()
            .output_name(self.output_name.as_str())
            .site_root(self.site_root.as_str())
            .site_pkg_dir(self.site_pkg_dir.as_str())
            .site_addr(self.addr)
            .build()
    }
}
