//! The dataset: its tables ([`table`], rows in [`rows`]), its revisions ([`revisions`]) and the
//! import that writes a new one ([`import`]).
//!
//! Every dataset row carries the revision that brought it; the dataset at revision `N` takes,
//! for each key, the row with the highest revision not above `N`.
//!
//! One code path for both engines: SQLite (`sqlite://…`, the embedded default) and PostgreSQL
//! (`postgres://…`, for several replicas sharing one database), through sqlx's `Any` driver.
//! Queries are written in the SQL both accept, with `$1`-style parameters in ascending order.
//!
//! Arrows: the engine (`servecost`) ← this crate ← the UI (`app`) ← the server; the server's
//! `import` command calls [`import`] directly. Nothing here knows a page.

pub mod clock;
pub mod import;
pub mod revisions;
pub mod rows;
pub mod table;

use servecost::Dataset;
use sqlx::any::AnyPoolOptions;
use sqlx::{AnyPool, Executor};

/// True for a SQLite URL.
pub fn is_sqlite(url: &str) -> bool {
    url.starts_with("sqlite:")
}

/// Opens the database at `url`: SQLite (the file is created if missing, in WAL mode, with
/// foreign keys enforced) or PostgreSQL.
pub async fn connect(url: &str) -> Result<AnyPool, sqlx::Error> {
    sqlx::any::install_default_drivers();
    let sqlite = is_sqlite(url);
    let url = if sqlite && !url.contains("mode=") {
        let sep = if url.contains('?') { '&' } else { '?' };
        format!("{url}{sep}mode=rwc")
    } else if url.starts_with("postgres:") || url.starts_with("postgresql:") || sqlite {
        url.to_owned()
    } else {
        return Err(sqlx::Error::Configuration(
            format!("DATABASE_URL must start with sqlite:// or postgres://, not {url:?}").into(),
        ));
    };
    AnyPoolOptions::new()
        .max_connections(8)
        .after_connect(move |conn, _meta| {
            Box::pin(async move {
                if sqlite {
                    conn.execute("PRAGMA foreign_keys = ON; PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000")
                        .await?;
                }
                Ok(())
            })
        })
        .connect(&url)
        .await
}

/// Applies the embedded migrations: the schema and the published dataset.
pub async fn migrate(pool: &AnyPool) -> Result<(), sqlx::migrate::MigrateError> {
    sqlx::migrate!("../migrations").run(pool).await
}

/// The newest dataset revision.
pub async fn newest_revision(pool: &AnyPool) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar::<_, i64>("SELECT COALESCE(MAX(id), 0) FROM dataset_revisions")
        .fetch_one(pool)
        .await
}

/// The dataset as it stood at `revision`.
pub async fn load_dataset(pool: &AnyPool, revision: i64) -> Result<Dataset, sqlx::Error> {
    rows::load(pool, revision).await
}
