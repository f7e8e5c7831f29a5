//! The server's hold on the database: the newest dataset, loaded once and shared by every
//! request, the earlier revisions saved scenarios are pinned to, the saved scenarios
//! ([`saved`]) and the key the server signs its messages with. The tables and their revisions
//! are the `data` crate's.

pub mod saved;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, RwLock};

use servecost::Dataset;
use sqlx::AnyPool;

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
        let revision = data::newest_revision(&pool).await?;
        let mut dataset = data::load_dataset(&pool, revision).await?;
        dataset.as_of = Some(data::clock::today());
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
        self.today
            .as_deref()
            .map_or_else(data::clock::today, str::to_owned)
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
        let data = viewed_on(
            Arc::new(data::load_dataset(&self.pool, revision).await?),
            &today,
        );
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
        let newest = data::newest_revision(&self.pool).await?;
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
        self.load(data::newest_revision(&self.pool).await?).await
    }

    /// Makes `revision` the one in use.
    async fn load(&self, revision: i64) -> Result<(), sqlx::Error> {
        let dataset = Arc::new(data::load_dataset(&self.pool, revision).await?);
        self.swap(viewed_on(dataset, &self.today()));
        Ok(())
    }
}
