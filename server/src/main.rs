//! `servecost-server`: opens (or creates) the database, applies the migrations with the
//! published dataset, and serves the app until SIGINT or SIGTERM.
//!
//! `servecost-server import [--dry-run] [--hardware CHIP] [--model ID] [--description TEXT]
//! FILE...` loads files into the same database (`DATABASE_URL`) as a new dataset revision; a
//! running server picks the revision up within a few seconds.

use anyhow::Context;
use server::config::Config;
use server::{router, AppState};
use tracing_subscriber::EnvFilter;

/// mimalloc instead of the system allocator: a page is rendered from many small strings, and
/// glibc's allocator, shared by the serving and the work runtimes' threads, took a quarter of
/// the server's time under load (its locks, frees and consolidation).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// How often a running server looks for a revision written by an import.
const DATA_POLL: std::time::Duration = std::time::Duration::from_secs(3);

fn main() -> anyhow::Result<()> {
    // The serving runtime: connections, HTTP and `/healthz`; pages and answers are computed on
    // the work runtime (`server::work`).
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(server::work::serving_threads())
        .enable_all()
        .build()
        .context("starting the serving runtime")?
        .block_on(run())
}

async fn run() -> anyhow::Result<()> {
    let config = Config::from_env()?;
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::try_new(&config.log).unwrap_or_else(|_| EnvFilter::new("info")))
        .with_writer(std::io::stderr)
        .init();
    let pool = data::connect(&config.database_url)
        .await
        .with_context(|| format!("opening the database {}", config.database_url))?;
    data::migrate(&pool)
        .await
        .context("applying the migrations")?;
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => {}
        Some("import") => {
            if import(&pool, &args[1..]).await? {
                return Ok(());
            }
            std::process::exit(1);
        }
        Some(other) => anyhow::bail!(
            "unknown command {other:?}: run servecost-server with no argument to serve, or \
             servecost-server import [--dry-run] [--hardware CHIP] [--model ID] \
             [--description TEXT] FILE..."
        ),
    }
    let mut store = app::db::Store::open(pool)
        .await
        .context("loading the dataset")?;
    if let Some(today) = config.today.as_deref() {
        store = store.with_today(today);
    }
    let watched = store.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(DATA_POLL);
        loop {
            tick.tick().await;
            match watched.refresh().await {
                Ok(Some(revision)) => tracing::info!(revision, "new dataset revision loaded"),
                Ok(None) => {}
                Err(e) => tracing::warn!(error = %e, "could not check for a new dataset revision"),
            }
        }
    });
    let state = AppState::new(store, &config);
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .with_context(|| format!("listening on {}", config.addr))?;
    tracing::info!(
        "servecost listening on http://{} (public origin {})",
        config.addr,
        config.public_url
    );
    server::serve::serve(listener, router(state), config.serve_limits(), shutdown()).await;
    tracing::info!("servecost stopped");
    Ok(())
}

/// `import`: reads, checks and writes the files; every problem goes to stderr. False when
/// anything is wrong (then nothing was written and the exit status is 1).
async fn import(pool: &sqlx::AnyPool, args: &[String]) -> anyhow::Result<bool> {
    use std::io::Write;
    if args.iter().any(|a| a == "--help" || a == "-h") {
        writeln!(std::io::stdout().lock(), "{}", data::import::USAGE)?;
        return Ok(true);
    }
    let (opts, files) = data::import::parse_args(args).map_err(anyhow::Error::msg)?;
    match data::import::run_each(pool, &files, &opts).await {
        Ok(outcome) => {
            writeln!(std::io::stdout().lock(), "{outcome}")?;
            Ok(true)
        }
        Err(problems) => {
            let mut err = std::io::stderr().lock();
            for p in &problems {
                writeln!(err, "error: {p}")?;
            }
            writeln!(
                err,
                "{} problem{} found; nothing was imported.",
                problems.len(),
                if problems.len() == 1 { "" } else { "s" }
            )?;
            Ok(false)
        }
    }
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
