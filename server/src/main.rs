//! `servecost-server`: opens (or creates) the database, applies the migrations with the
//! published dataset, and serves the app until SIGINT or SIGTERM.

use anyhow::Context;
use server::config::Config;
use server::{router, AppState};
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let config = Config::from_env()?;
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::try_new(&config.log).unwrap_or_else(|_| EnvFilter::new("info")))
        .init();
    let pool = app::db::connect(&config.database_url)
        .await
        .with_context(|| format!("opening the database {}", config.database_url))?;
    app::db::migrate(&pool)
        .await
        .context("applying the migrations")?;
    let store = app::db::Store::open(pool)
        .await
        .context("loading the dataset")?;
    let state = AppState {
        store,
        leptos: config.leptos_options(),
        frame_ancestors: config.frame_ancestors.clone(),
        save_limit: server::save_limit(),
    };
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .with_context(|| format!("listening on {}", config.addr))?;
    tracing::info!("servecost listening on http://{}", config.addr);
    axum::serve(
        listener,
        router(state).into_make_service_with_connect_info::<std::net::SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown())
    .await
    .context("serving")?;
    tracing::info!("servecost stopped");
    Ok(())
}

async fn shutdown() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {},
        () = terminate => {},
    }
}
