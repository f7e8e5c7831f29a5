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

/// Length of an id.
const ID_LEN: usize = 12;

/// Whether `text` has the shape of a saved id: 12 letters and digits, as [`new_id`] makes them.
pub fn is_id(text: &str) -> bool {
    text.len() == ID_LEN && text.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// A fresh random id: 12 base-62 characters (about 71 bits), each uniform: random bytes of 248
/// or more (248 = 4 x 62) are drawn again rather than folded, which would favour the first 8
/// characters.
fn new_id() -> Result<String, sqlx::Error> {
    let limit = (256 / ALPHABET.len() * ALPHABET.len()) as u8;
    let mut id = String::with_capacity(ID_LEN);
    while id.len() < ID_LEN {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes)
            .map_err(|e| sqlx::Error::Protocol(format!("no randomness: {e}")))?;
        for b in bytes.into_iter().filter(|b| *b < limit) {
            if id.len() < ID_LEN {
                id.push(ALPHABET[usize::from(b) % ALPHABET.len()] as char);
            }
        }
    }
    Ok(id)
}

/// The content key of a save: SHA-256 over the revision and the three texts, each
/// length-prefixed so that no two different saves run together into the same bytes.
fn content_key(query: &str, name: &str, note: &str, revision: i64) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(revision.to_le_bytes());
    for part in [query, name, note] {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part.as_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Saves a scenario pinned to `revision`, or returns the identical one saved before. The second
/// value is true when a new row was written. Identical saves at the same time get one id: the
/// content key is the point of agreement (see the `scenario_keys` migration).
pub async fn save(
    pool: &AnyPool,
    query: &str,
    name: &str,
    note: &str,
    revision: i64,
) -> Result<(Saved, bool), sqlx::Error> {
    let key = content_key(query, name, note, revision);
    let fresh = Saved {
        id: new_id()?,
        query: query.to_owned(),
        name: name.to_owned(),
        note: note.to_owned(),
        revision,
        created_at: data::clock::now(),
    };
    let mut tx = pool.begin().await?;
    let claimed = sqlx::query(
        "INSERT INTO scenario_keys (key, id) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
    )
    .bind(&key)
    .bind(&fresh.id)
    .execute(&mut *tx)
    .await?
    .rows_affected()
        == 1;
    if !claimed {
        tx.rollback().await?;
        let id: String = sqlx::query_scalar("SELECT id FROM scenario_keys WHERE key = $1")
            .bind(&key)
            .fetch_one(pool)
            .await?;
        let saved = load(pool, &id).await?.ok_or(sqlx::Error::RowNotFound)?;
        return Ok((saved, false));
    }
    // A save from before the keys existed keeps its id: the key now points at it.
    let legacy: Option<Saved> = sqlx::query_as(
        "SELECT id, query, name, note, revision, created_at FROM scenarios \
         WHERE query = $1 AND name = $2 AND note = $3 AND revision = $4 ORDER BY created_at, id LIMIT 1",
    )
    .bind(query)
    .bind(name)
    .bind(note)
    .bind(revision)
    .fetch_optional(&mut *tx)
    .await?;
    if let Some(saved) = legacy {
        sqlx::query("UPDATE scenario_keys SET id = $1 WHERE key = $2")
            .bind(&saved.id)
            .bind(&key)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        return Ok((saved, false));
    }
    sqlx::query(
        "INSERT INTO scenarios (id, query, name, note, revision, created_at) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&fresh.id)
    .bind(&fresh.query)
    .bind(&fresh.name)
    .bind(&fresh.note)
    .bind(fresh.revision)
    .bind(&fresh.created_at)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok((fresh, true))
}

/// The saved scenario with this id. An id of another shape than [`new_id`]'s is no saved
/// scenario and is not sent to the database (PostgreSQL refuses text with a NUL byte, which
/// would turn a mistyped link into a database error).
pub async fn load(pool: &AnyPool, id: &str) -> Result<Option<Saved>, sqlx::Error> {
    if !is_id(id) {
        return Ok(None);
    }
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
        // `load` looks up only ids of this shape.
        assert!(super::is_id(&a) && super::is_id(&b));
    }

    /// Regression: ids were `byte % 62`, which drew the first 8 characters 5 times in 4.
    #[test]
    fn saved_ids_are_unbiased() {
        let mut counts = [0usize; 62];
        for _ in 0..2_000 {
            for c in super::new_id().expect("id").bytes() {
                let i = super::ALPHABET
                    .iter()
                    .position(|a| *a == c)
                    .expect("alphabet");
                counts[i] += 1;
            }
        }
        // 24,000 draws, 387 expected per character: the folded draw gave about 480 to each of
        // the first 8 and 387 to the rest; a fair one stays within 25 % of 387 with
        // overwhelming probability.
        let (lo, hi) = (290, 484);
        for (i, n) in counts.iter().enumerate() {
            assert!((lo..=hi).contains(n), "character {i} drawn {n} times");
        }
        let first8: usize = counts[..8].iter().sum::<usize>() / 8;
        let rest: usize = counts[8..].iter().sum::<usize>() / 54;
        assert!(
            first8 * 100 < rest * 112,
            "first 8 average {first8}, rest {rest}"
        );
    }

    #[test]
    fn content_keys_separate_their_parts() {
        let a = super::content_key("ab", "c", "", 1);
        assert_ne!(a, super::content_key("a", "bc", "", 1));
        assert_ne!(a, super::content_key("ab", "c", "", 2));
        assert_eq!(a, super::content_key("ab", "c", "", 1));
        assert_eq!(a.len(), 64);
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
    /// The sources the pinned report rests on, at its revision, in citation order.
    pub sources: Vec<servecost::dataset::Source>,
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

/// The saved scenario `id` and its report at its pinned revision: all that an embed, oEmbed
/// and a comparison show (not how the newest data compares, which [`pinned`] evaluates too).
pub async fn pinned_report(
    store: &super::Store,
    id: &str,
) -> Result<(Saved, servecost::Report), PinnedError> {
    let e = evaluate_pinned(store, id).await?;
    Ok((e.saved, e.report))
}

/// A saved scenario read and evaluated at its revision.
struct Evaluated {
    saved: Saved,
    scenario: servecost::codec::Checked,
    then: std::sync::Arc<servecost::Dataset>,
    report: servecost::Report,
}

async fn evaluate_pinned(store: &super::Store, id: &str) -> Result<Evaluated, PinnedError> {
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
    Ok(Evaluated {
        saved,
        scenario,
        then,
        report,
    })
}

/// The saved scenario `id`, evaluated at its pinned revision, and with the newest data.
pub async fn pinned(store: &super::Store, id: &str) -> Result<Pinned, PinnedError> {
    let Evaluated {
        saved,
        scenario,
        then,
        report,
    } = evaluate_pinned(store, id).await?;
    let newest = store.current();
    let current = (newest.revision != saved.revision)
        .then(|| servecost::evaluate(&scenario, &newest).ok())
        .flatten();
    let changed = newest.revision != saved.revision
        && current.as_ref().is_none_or(|now| {
            now.rent.monthly_usd != report.rent.monthly_usd
                || now.self_host.monthly_usd != report.self_host.monthly_usd
        });
    let sources = crate::components::cited_sources(&crate::citations::cited(&report, &then), &then);
    Ok(Pinned {
        sources,
        newest_revision: newest.revision,
        newer_data_changes_result: changed,
        current,
        saved,
        report,
    })
}
