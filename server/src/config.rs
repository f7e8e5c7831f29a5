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
    /// `LEPTOS_OUTPUT_NAME`: base name of the WASM and JS files. Default: the hashed name the
    /// build wrote into `pkg/assets.json` ([`crate::assets`]), else `servecost`.
    pub output_name: String,
    /// `SERVECOST_FRAME_ANCESTORS`: who may show `/embed` pages in a frame, as a CSP source list
    /// (e.g. `https://wiki.example.com`). Default `*` (any origin). Other pages refuse framing.
    pub frame_ancestors: String,
    /// `SERVECOST_PUBLIC_URL`: the origin people reach this server at (`https://costs.example.com`),
    /// written into absolute links (Open Graph, oEmbed, embed snippets); oEmbed answers only for
    /// links of this origin. Default `http://` and the listen address (`localhost` for an
    /// unspecified address). The `Host` header is never used.
    pub public_url: String,
    /// `SERVECOST_TRUSTED_PROXIES`: the proxies whose `X-Forwarded-For` names the client, as IP
    /// addresses or ranges (`127.0.0.1, 10.0.0.0/8`). Default none: the socket's peer address is
    /// the client.
    pub trusted_proxies: Vec<crate::client::Cidr>,
    /// `SERVECOST_MAX_CONNECTIONS`: most open connections. Default 4096.
    pub max_connections: usize,
    /// `SERVECOST_HEADER_TIMEOUT_SECS`: longest wait for a request's headers (and for the next
    /// request on an idle keep-alive connection). Default 10.
    pub header_read_timeout_secs: u64,
    /// `SERVECOST_TODAY`: the day the age of prices is judged on (`YYYY-MM-DD`), for
    /// demonstrations and tests that must not change with the calendar. Default: none, the
    /// server's UTC date.
    pub today: Option<String>,
}

/// Checks a public origin: `http` or `https`, a host and an optional port, no path, query,
/// quote or space. A trailing `/` is dropped.
pub fn public_url(text: &str) -> anyhow::Result<String> {
    let url = text.trim().trim_end_matches('/');
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    let ok = rest.is_some_and(|host| {
        !host.is_empty()
            && host
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'))
    });
    anyhow::ensure!(
        ok,
        "SERVECOST_PUBLIC_URL={text:?} is not an origin such as https://costs.example.com or http://127.0.0.1:3000 (no path)"
    );
    Ok(url.to_owned())
}

/// The default public origin for a listen address.
fn default_public_url(addr: SocketAddr) -> String {
    let host = if addr.ip().is_unspecified() {
        "localhost".to_owned()
    } else if addr.is_ipv6() {
        format!("[{}]", addr.ip())
    } else {
        addr.ip().to_string()
    };
    format!("http://{host}:{}", addr.port())
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
        let addr_text = var("LEPTOS_SITE_ADDR", "127.0.0.1:3000");
        let addr: SocketAddr = addr_text.parse().with_context(|| {
            format!("LEPTOS_SITE_ADDR={addr_text:?} is not an address like 127.0.0.1:3000")
        })?;
        let whole = |name: &str, default: &str, min: u64, max: u64| -> anyhow::Result<u64> {
            let text = var(name, default);
            text.parse::<u64>()
                .ok()
                .filter(|n| (min..=max).contains(n))
                .with_context(|| {
                    format!("{name}={text:?} must be a whole number from {min} to {max}")
                })
        };
        Ok(Self {
            addr,
            public_url: public_url(&var("SERVECOST_PUBLIC_URL", &default_public_url(addr)))?,
            trusted_proxies: crate::client::parse_list(&var("SERVECOST_TRUSTED_PROXIES", ""))
                .map_err(|e| anyhow::anyhow!("SERVECOST_TRUSTED_PROXIES: {e}"))?,
            max_connections: usize::try_from(whole(
                "SERVECOST_MAX_CONNECTIONS",
                "4096",
                16,
                1_000_000,
            )?)
            .unwrap_or(crate::serve::MAX_CONNECTIONS),
            header_read_timeout_secs: whole("SERVECOST_HEADER_TIMEOUT_SECS", "10", 1, 600)?,
            database_url: var("DATABASE_URL", "sqlite://servecost.db"),
            log: var("RUST_LOG", "info,sqlx=warn"),
            site_root: var("LEPTOS_SITE_ROOT", "target/site"),
            site_pkg_dir: var("LEPTOS_SITE_PKG_DIR", "pkg"),
            output_name: var("LEPTOS_OUTPUT_NAME", ""),
            frame_ancestors: frame_ancestors(&var("SERVECOST_FRAME_ANCESTORS", "*"))?,
            today: match var("SERVECOST_TODAY", "").trim() {
                "" => None,
                date if servecost::freshness::day(date).is_some() => Some(date.to_owned()),
                other => anyhow::bail!("SERVECOST_TODAY={other:?} must be a date like 2026-12-01"),
            },
        })
    }

    /// The bundle's names: from the built site's manifest, else the unhashed `servecost`
    /// (a site built some other way), `LEPTOS_OUTPUT_NAME` taking precedence for the script.
    pub fn assets(&self) -> crate::assets::Assets {
        let mut assets = crate::assets::Assets::read(&self.site_root, &self.site_pkg_dir)
            .unwrap_or_else(|| crate::assets::Assets {
                output_name: "servecost".to_owned(),
                stylesheet: "servecost.css".to_owned(),
                later: Vec::new(),
            });
        if !self.output_name.is_empty() {
            // Another bundle than the manifest's: its later modules are not the manifest's.
            assets.output_name = self.output_name.clone();
            assets.later.clear();
        }
        assets
    }

    /// The Leptos options these settings stand for.
    pub fn leptos_options(&self) -> leptos::prelude::LeptosOptions {
        self.leptos_options_for(&self.assets())
    }

    /// The Leptos options with the bundle's names already read.
    pub fn leptos_options_for(
        &self,
        assets: &crate::assets::Assets,
    ) -> leptos::prelude::LeptosOptions {
        leptos::prelude::LeptosOptions::builder()
            .output_name(assets.output_name.as_str())
            .site_root(self.site_root.as_str())
            .site_pkg_dir(self.site_pkg_dir.as_str())
            .site_addr(self.addr)
            .build()
    }

    /// The accept loop's limits these settings stand for.
    pub fn serve_limits(&self) -> crate::serve::Limits {
        crate::serve::Limits {
            max_connections: self.max_connections,
            header_read_timeout: std::time::Duration::from_secs(self.header_read_timeout_secs),
            ..crate::serve::Limits::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_origins() {
        assert_eq!(
            public_url("https://costs.example.com/").expect("ok"),
            "https://costs.example.com"
        );
        assert!(public_url("http://127.0.0.1:3000").is_ok());
        assert!(public_url("https://evil.example/\"><script>").is_err());
        assert!(public_url("ftp://x").is_err());
        assert!(public_url("https://x.example/path").is_err());
        assert_eq!(
            default_public_url("0.0.0.0:8080".parse().expect("addr")),
            "http://localhost:8080"
        );
    }
}
