//! Imports: rows read from files become a new dataset revision, in one transaction.
//!
//! Rows are keyed as in the schema (a source by `key`, a curve by `id`, a price tier by chip and
//! tier…). An imported row whose key exists and whose content is the same changes nothing; a new
//! key or new content is written with the new revision. Nothing is ever updated or deleted, so
//! every earlier revision, and every saved scenario pinned to one, stays as it was.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use sqlx::AnyPool;

use super::rows::{
    ChipRow, CurveRow, HeadlineRow, ModelRow, OfferRow, Rows, SourceRow, TierRow, WeightsRow,
};
use super::table::Table;

/// What an import does to one row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    /// `source`, `model`, `curve`…
    pub kind: &'static str,
    /// Its key.
    pub key: String,
    /// True for a key the dataset does not have yet.
    pub new: bool,
    /// The fields whose content changes, with the old and new values (empty for a new row).
    pub fields: Vec<(String, String, String)>,
}

impl std::fmt::Display for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.new {
            return write!(f, "+ new {} {}", self.kind, self.key);
        }
        write!(f, "~ {} {}:", self.kind, self.key)?;
        for (field, old, new) in &self.fields {
            write!(f, " {field} {old} -> {new};")?;
        }
        Ok(())
    }
}

fn field_changes(
    old: &serde_json::Value,
    new: &serde_json::Value,
) -> Vec<(String, String, String)> {
    let (Some(old), Some(new)) = (old.as_object(), new.as_object()) else {
        return vec![("row".into(), old.to_string(), new.to_string())];
    };
    let keys: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    keys.into_iter()
        .filter_map(|k| {
            let (a, b) = (old.get(k), new.get(k));
            (a != b).then(|| {
                let show = |v: Option<&serde_json::Value>| {
                    let text = v.map_or_else(|| "null".to_owned(), ToString::to_string);
                    if text.chars().count() > 80 {
                        format!("{}…", text.chars().take(80).collect::<String>())
                    } else {
                        text
                    }
                };
                (k.clone(), show(a), show(b))
            })
        })
        .collect()
}

/// The rows of `incoming` that are new or differ from `current`, and the changes they make.
pub fn plan(current: &Rows, incoming: &Rows) -> (Rows, Vec<Change>) {
    let now: BTreeMap<(&str, String), serde_json::Value> = current
        .keyed()
        .into_iter()
        .map(|(kind, key, value)| ((kind, key), value))
        .collect();
    let mut changes = Vec::new();
    let mut keep = BTreeSet::new();
    for (kind, key, value) in incoming.keyed() {
        match now.get(&(kind, key.clone())) {
            None => changes.push(Change {
                kind,
                key: key.clone(),
                new: true,
                fields: Vec::new(),
            }),
            Some(old) if *old != value => changes.push(Change {
                kind,
                key: key.clone(),
                new: false,
                fields: field_changes(old, &value),
            }),
            Some(_) => continue,
        }
        keep.insert((kind, key));
    }
    let rows = incoming.filtered(|kind, key| keep.contains(&(kind, key)));
    (rows, changes)
}

/// Today's date (UTC), `YYYY-MM-DD`.
pub fn today() -> String {
    super::saved::now().chars().take(10).collect()
}

/// A dataset revision, as listed on `/data`.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, sqlx::FromRow)]
pub struct Revision {
    /// Its number.
    pub id: i64,
    /// When it was written (UTC, RFC 3339).
    pub created_at: String,
    /// What it brought.
    pub description: String,
    /// The files it was read from, one per line.
    pub source_files: String,
}

/// Every row ever written, as (revision, kind, key): which revision brought what.
pub async fn brought(pool: &AnyPool) -> Result<Vec<(i64, String, String)>, sqlx::Error> {
    // Keys as `Keyed` writes them (`pair_key` is `a || '/' || b`).
    let sql = [
        SourceRow::brought(),
        ModelRow::brought(),
        WeightsRow::brought(),
        ChipRow::brought(),
        TierRow::brought(),
        OfferRow::brought(),
        CurveRow::brought(),
        HeadlineRow::brought(),
        "SELECT revision, 'figure', key FROM facts".to_owned(),
    ]
    .join(" UNION ALL ")
        + " ORDER BY 1, 2, 3";
    sqlx::query_as(&sql).fetch_all(pool).await
}

/// Every revision, newest first.
pub async fn revisions(pool: &AnyPool) -> Result<Vec<Revision>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, created_at, description, source_files FROM dataset_revisions ORDER BY id DESC",
    )
    .fetch_all(pool)
    .await
}

/// Writes `rows` as a new revision in one transaction and returns its number. Nothing is written
/// if any statement fails.
pub async fn write(
    pool: &AnyPool,
    rows: &Rows,
    description: &str,
    files: &[String],
) -> Result<i64, sqlx::Error> {
    let mut tx = pool.begin().await?;
    let revision: i64 =
        sqlx::query_scalar("SELECT COALESCE(MAX(id), 0) + 1 FROM dataset_revisions")
            .fetch_one(&mut *tx)
            .await?;
    sqlx::query(
        "INSERT INTO dataset_revisions (id, created_at, description, source_files) VALUES ($1, $2, $3, $4)",
    )
    .bind(revision)
    .bind(super::saved::now())
    .bind(description)
    .bind(files.join("\n"))
    .execute(&mut *tx)
    .await?;
    insert(&mut tx, &rows.sources, revision).await?;
    insert(&mut tx, &rows.models, revision).await?;
    insert(&mut tx, &rows.weights, revision).await?;
    insert(&mut tx, &rows.chips, revision).await?;
    insert(&mut tx, &rows.tiers, revision).await?;
    insert(&mut tx, &rows.offers, revision).await?;
    insert(&mut tx, &rows.curves, revision).await?;
    insert(&mut tx, &rows.points, revision).await?;
    insert(&mut tx, &rows.headlines, revision).await?;
    tx.commit().await?;
    Ok(revision)
}

/// Inserts `rows` of table `T` as revision `revision`. Each INSERT is prepared afresh: with
/// PostgreSQL a cached statement keeps the parameter types of its first row, and a NULL there
/// (an optional number left empty) would make the same parameter unreadable in a later row
/// that gives it.
async fn insert<T: Table>(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    rows: &[T],
    revision: i64,
) -> Result<(), sqlx::Error> {
    let sql = T::insert();
    for r in rows {
        r.bind(sqlx::query(&sql).persistent(false))
            .bind(revision)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}
