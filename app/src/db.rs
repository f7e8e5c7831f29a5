//! The database (server only): connection, migrations, and the dataset at a revision.
//!
//! Every dataset row carries the revision that brought it; the dataset at revision `N` takes,
//! for each key, the row with the highest revision not above `N`.
//!
//! One code path for both engines: SQLite (`sqlite://…`, the embedded default) and PostgreSQL
//! (`postgres://…`, for several replicas sharing one database), through sqlx's `Any` driver.
//! Queries are written in the SQL both accept, with `$1`-style parameters in ascending order.

pub mod revisions;
pub mod rows;
pub mod saved;
pub mod table;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, RwLock};

use servecost::Dataset;
use sqlx::any::AnyPoolOptions;
use sqlx::{AnyPool, Executor};

/// The connection pool and the newest dataset, loaded once and shared by every request.
#[derive(Clone)]
pub struct Store {
    /// The connection pool.
    pub pool: AnyPool,
    current: Arc<RwLock<Arc<Dataset>>>,
    /// Earlier revisions saved scenarios were pinned to, loaded once: a revision never changes.
    earlier: Arc<Mutex<BTreeMap<i64, Arc<Dataset>>>>,
    /// The day prices are judged on, when fixed (`SERVECOST_TODAY`); else the UTC date.
    today: Option<Arc<str>>,
    /// The key the server signs the messages it writes into links with ([`crate::notice`]).
    notice_key: crate::notice::Key,
}

/// Today's date in UTC, `YYYY-MM-DD`.
pub fn utc_today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    servecost::freshness::date((secs / 86_400) as i64)
}

/// `data` as viewed on `today`: the same rows, a new `as_of` when it differs.
fn viewed_on(data: Arc<Dataset>, today: &str) -> Arc<Dataset> {
    if data.as_of.as_deref() == Some(today) {
        return data;
    }
    let mut d = Dataset::clone(&data);
    d.as_of = Some(today.to_owned());
    Arc::new(d)
}

/// How many earlier revisions the store keeps loaded.
const EARLIER_KEPT: usize = 16;

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

/// Every published figure at `revision`, by subject.
pub async fn load_facts(
    pool: &AnyPool,
    revision: i64,
) -> Result<Vec<crate::api::Fact>, sqlx::Error> {
    sqlx::query_as(
        "SELECT key, subject, label, value, unit, value_text, source FROM facts t \
         WHERE t.revision = (SELECT MAX(t2.revision) FROM facts t2 WHERE t2.key = t.key AND t2.revision <= $1) \
         ORDER BY subject, key",
    )
    .bind(revision)
    .fetch_all(pool)
    .await
}

/// The deployment's key for the messages it writes into links: made at random by the first
/// server to start on the database, then read by every replica (so a link one wrote, another
/// trusts).
async fn notice_key(pool: &AnyPool) -> Result<crate::notice::Key, sqlx::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| sqlx::Error::Protocol(format!("no random bytes for the key: {e}")))?;
    let made: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    sqlx::query(
        "INSERT INTO server_keys (name, value) VALUES ('notice', $1) ON CONFLICT (name) DO NOTHING",
    )
    .bind(made)
    .execute(pool)
    .await?;
    let kept: String = sqlx::query_scalar("SELECT value FROM server_keys WHERE name = 'notice'")
        .fetch_one(pool)
        .await?;
    Ok(crate::notice::Key(Arc::from(kept.as_bytes())))
}

impl Store {
    /// Connects the store and loads the newest dataset.
    pub async fn open(pool: AnyPool) -> Result<Self, sqlx::Error> {
        let revision = newest_revision(&pool).await?;
        let mut dataset = load_dataset(&pool, revision).await?;
        dataset.as_of = Some(utc_today());
        let notice_key = notice_key(&pool).await?;
        Ok(Self {
            pool,
            current: Arc::new(RwLock::new(Arc::new(dataset))),
            earlier: Arc::default(),
            today: None,
            notice_key,
        })
    }

    /// The key the server signs the messages it writes into links with.
    pub fn notice_key(&self) -> crate::notice::Key {
        self.notice_key.clone()
    }

    /// Judges the age of prices on `date` (`YYYY-MM-DD`) rather than on the UTC date: for
    /// demonstrations and tests that must not change with the calendar.
    pub fn with_today(mut self, date: &str) -> Self {
        self.today = Some(date.into());
        let current = viewed_on(self.current(), date);
        self.swap(current);
        self
    }

    /// The day prices are judged on.
    pub fn today(&self) -> String {
        self.today.as_deref().map_or_else(utc_today, str::to_owned)
    }

    fn swap(&self, dataset: Arc<Dataset>) {
        match self.current.write() {
            Ok(mut guard) => *guard = dataset,
            Err(poisoned) => *poisoned.into_inner() = dataset,
        }
    }

    /// The dataset at `revision`: the newest, or an earlier one (loaded on first use, then kept).
    pub async fn at(&self, revision: i64) -> Result<Arc<Dataset>, sqlx::Error> {
        let current = self.current();
        if current.revision == revision {
            return Ok(current);
        }
        let today = self.today();
        let hit = self.earlier().get(&revision).cloned();
        if let Some(data) = hit {
            if data.as_of.as_deref() == Some(today.as_str()) {
                return Ok(data);
            }
            let data = viewed_on(data, &today);
            self.earlier().insert(revision, Arc::clone(&data));
            return Ok(data);
        }
        let data = viewed_on(Arc::new(load_dataset(&self.pool, revision).await?), &today);
        let mut kept = self.earlier();
        if kept.len() >= EARLIER_KEPT {
            kept.pop_first();
        }
        kept.insert(revision, Arc::clone(&data));
        Ok(data)
    }

    fn earlier(&self) -> MutexGuard<'_, BTreeMap<i64, Arc<Dataset>>> {
        self.earlier.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The newest dataset.
    pub fn current(&self) -> Arc<Dataset> {
        match self.current.read() {
            Ok(guard) => Arc::clone(&guard),
            Err(poisoned) => Arc::clone(&poisoned.into_inner()),
        }
    }

    /// Loads the newest revision if it is newer than the one in use (an import ran); returns it.
    /// Also moves the day prices are judged on when the date has changed.
    pub async fn refresh(&self) -> Result<Option<i64>, sqlx::Error> {
        let newest = newest_revision(&self.pool).await?;
        if newest == self.current().revision {
            let today = self.today();
            let current = self.current();
            if current.as_of.as_deref() != Some(today.as_str()) {
                self.swap(viewed_on(current, &today));
            }
            return Ok(None);
        }
        self.load(newest).await?;
        Ok(Some(newest))
    }

    /// Reloads the newest dataset (after an import).
    pub async fn reload(&self) -> Result<(), sqlx::Error> {
        self.load(newest_revision(&self.pool).await?).await
    }

    /// Makes `revision` the one in use.
    async fn load(&self, revision: i64) -> Result<(), sqlx::Error> {
        let dataset = Arc::new(load_dataset(&self.pool, revision).await?);
        self.swap(viewed_on(dataset, &self.today()));
        Ok(())
    }
}
