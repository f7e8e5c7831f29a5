//! Saved scenarios: a name, a note and a query, pinned to the dataset revision they were saved
//! with. Rows are only ever inserted: a later save or import never changes one.

use serde::{Deserialize, Serialize};
use sqlx::{AnyPool, FromRow};

/// A saved scenario.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, FromRow, utoipa::ToSchema)]
pub struct Saved {
    /// Unguessable id (12 characters, base 62).
    pub id: String,
    /// The scenario's canonical query string.
    pub query: String,
    /// Its name.
    pub name: String,
    /// Its note.
    pub note: String,
    /// The dataset revision it is pinned to.
    pub revision: i64,
    /// When it was first saved (UTC, RFC 3339).
    pub created_at: String,
}

const ALPHABET: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// A fresh random id: 12 base-62 characters (about 71 bits).
fn new_id() -> Result<String, sqlx::Error> {
    let mut bytes = [0u8; 12];
    getrandom::fill(&mut bytes)
        .map_err(|e| sqlx::Error::Protocol(format!("no randomness: {e}")))?;
    Ok(bytes
        .iter()
        .map(|b| ALPHABET[usize::from(*b) % ALPHABET.len()] as char)
        .collect())
}

pub(crate) fn now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default();
    // Days since 1970 to a civil date (Howard Hinnant's algorithm), to avoid a date crate.
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Saves a scenario pinned to `revision`, or returns the identical one saved before. The second
/// value is true when a new row was written.
pub async fn save(
    pool: &AnyPool,
    query: &str,
    name: &str,
    note: &str,
    revision: i64,
) -> Result<(Saved, bool), sqlx::Error> {
    let existing: Option<Saved> = sqlx::query_as(
        "SELECT id, query, name, note, revision, created_at FROM scenarios \
         WHERE query = $1 AND name = $2 AND note = $3 AND revision = $4 ORDER BY created_at LIMIT 1",
    )
    .bind(query)
    .bind(name)
    .bind(note)
    .bind(revision)
    .fetch_optional(pool)
    .await?;
    if let Some(saved) = existing {
        return Ok((saved, false));
    }
    let saved = Saved {
        id: new_id()?,
        query: query.to_owned(),
        name: name.to_owned(),
        note: note.to_owned(),
        revision,
        created_at: now(),
    };
    sqlx::query(
        "INSERT INTO scenarios (id, query, name, note, revision, created_at) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&saved.id)
    .bind(&saved.query)
    .bind(&saved.name)
    .bind(&saved.note)
    .bind(saved.revision)
    .bind(&saved.created_at)
    .execute(pool)
    .await?;
    Ok((saved, true))
}

/// The saved scenario with this id.
pub async fn load(pool: &AnyPool, id: &str) -> Result<Option<Saved>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, query, name, note, revision, created_at FROM scenarios WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await
}

#[cfg(test)]
mod tests {
    #[test]
    fn ids_are_long_and_random() {
        let a = super::new_id().expect("id");
        let b = super::new_id().expect("id");
        assert_eq!(a.len(), 12);
        assert_ne!(a, b);
        assert!(super::now().ends_with('Z'));
    }
}

/// A saved scenario evaluated with the dataset revision it is pinned to, and how the newest data
/// compares.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Pinned {
    /// The saved scenario.
    #[serde(flatten)]
    pub saved: Saved,
    /// Its report at its revision.
    pub report: servecost::Report,
    /// The newest dataset revision.
    pub newest_revision: i64,
    /// True when the newest data gives different monthly totals (or no longer evaluates).
    pub newer_data_changes_result: bool,
    /// The same scenario with the newest data, when that revision is newer and evaluates.
    pub current: Option<servecost::Report>,
}

/// Why a pinned scenario cannot be shown.
#[derive(Debug)]
pub enum PinnedError {
    /// No saved scenario has this id.
    NotFound,
    /// The saved query no longer evaluates (it is shown with its problems).
    Problems(Vec<servecost::Problem>),
    /// The database failed.
    Database(sqlx::Error),
}

/// The saved scenario `id`, evaluated at its pinned revision.
pub async fn pinned(store: &super::Store, id: &str) -> Result<Pinned, PinnedError> {
    let saved = load(&store.pool, id)
        .await
        .map_err(PinnedError::Database)?
        .ok_or(PinnedError::NotFound)?;
    let scenario = servecost::parse(&saved.query)
        .map_err(PinnedError::Problems)?
        .scenario;
    let then = store
        .at(saved.revision)
        .await
        .map_err(PinnedError::Database)?;
    let report = servecost::evaluate(&scenario, &then).map_err(PinnedError::Problems)?;
    let newest = store.current();
    let current = (newest.revision != saved.revision)
        .then(|| servecost::evaluate(&scenario, &newest).ok())
        .flatten();
    let changed = newest.revision != saved.revision
        && current.as_ref().is_none_or(|now| {
            now.rent.monthly_usd != report.rent.monthly_usd
                || now.self_host.monthly_usd != report.self_host.monthly_usd
        });
    Ok(Pinned {
        newest_revision: newest.revision,
        newer_data_changes_result: changed,
        current,
        saved,
        report,
    })
}
