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
    ChipRow, CurveRow, HeadlineRow, Keyed, ModelRow, OfferRow, Rows, SourceRow, TierRow,
    WeightsRow,
};

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
    let sql = format!(
        "SELECT revision, '{}', key FROM sources \
         UNION ALL SELECT revision, '{}', id FROM models \
         UNION ALL SELECT revision, '{}', model || '/' || precision FROM model_weights \
         UNION ALL SELECT revision, '{}', id FROM chips \
         UNION ALL SELECT revision, '{}', chip || '/' || tier FROM price_tiers \
         UNION ALL SELECT revision, '{}', id FROM api_offers \
         UNION ALL SELECT revision, '{}', id FROM curves \
         UNION ALL SELECT revision, '{}', id FROM headlines \
         UNION ALL SELECT revision, 'figure', key FROM facts \
         ORDER BY 1, 2, 3",
        SourceRow::KIND,
        ModelRow::KIND,
        WeightsRow::KIND,
        ChipRow::KIND,
        TierRow::KIND,
        OfferRow::KIND,
        CurveRow::KIND,
        HeadlineRow::KIND,
    );
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
    for r in &rows.sources {
        row_insert(
            "INSERT INTO sources (key, revision, publisher, title, url, date, trust, caveat) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(&r.key)
        .bind(revision)
        .bind(&r.publisher)
        .bind(&r.title)
        .bind(&r.url)
        .bind(&r.date)
        .bind(&r.trust)
        .bind(&r.caveat)
        .execute(&mut *tx)
        .await?;
    }
    for r in &rows.models {
        row_insert(
            "INSERT INTO models (id, revision, name, licence, licence_revenue_threshold_usd, licence_source) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&r.id)
        .bind(revision)
        .bind(&r.name)
        .bind(&r.licence)
        .bind(r.licence_revenue_threshold_usd)
        .bind(&r.licence_source)
        .execute(&mut *tx)
        .await?;
    }
    for r in &rows.weights {
        row_insert(
            "INSERT INTO model_weights (model, precision, revision, gigabytes, source) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&r.model)
        .bind(&r.precision)
        .bind(revision)
        .bind(r.gigabytes)
        .bind(&r.source)
        .execute(&mut *tx)
        .await?;
    }
    for r in &rows.chips {
        row_insert(
            "INSERT INTO chips (id, revision, name, memory_gb, memory_source, accelerator_kw, \
             accelerator_kw_source, all_in_kw, all_in_kw_source, accelerator_kw_measure, power_caveat, \
             family) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
        )
        .bind(&r.id)
        .bind(revision)
        .bind(&r.name)
        .bind(r.memory_gb)
        .bind(&r.memory_source)
        .bind(r.accelerator_kw)
        .bind(&r.accelerator_kw_source)
        .bind(r.all_in_kw)
        .bind(&r.all_in_kw_source)
        .bind(&r.accelerator_kw_measure)
        .bind(&r.power_caveat)
        .bind(&r.family)
        .execute(&mut *tx)
        .await?;
    }
    for r in &rows.tiers {
        row_insert(
            "INSERT INTO price_tiers (chip, tier, revision, label, usd_per_gpu_hour, source, is_default, \
             kind, term_months, upfront_share) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(&r.chip)
        .bind(&r.tier)
        .bind(revision)
        .bind(&r.label)
        .bind(r.usd_per_gpu_hour)
        .bind(&r.source)
        .bind(r.is_default)
        .bind(&r.kind)
        .bind(r.term_months)
        .bind(r.upfront_share)
        .execute(&mut *tx)
        .await?;
    }
    for r in &rows.offers {
        row_insert(
            "INSERT INTO api_offers (id, revision, model, name, price_in, price_out, cache_discount, \
             markup, speed_tps, source, note, cache_discount_stated) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
        )
        .bind(&r.id)
        .bind(revision)
        .bind(&r.model)
        .bind(&r.name)
        .bind(r.price_in)
        .bind(r.price_out)
        .bind(r.cache_discount)
        .bind(r.markup)
        .bind(r.speed_tps)
        .bind(&r.source)
        .bind(&r.note)
        .bind(r.cache_discount_stated)
        .execute(&mut *tx)
        .await?;
    }
    for r in &rows.curves {
        row_insert(
            "INSERT INTO curves (id, revision, model, chip, precision, framework, replica_gpus, \
             mix_uncached, mix_cached, mix_output, mix_stated, price_basis_usd, source, note) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
        )
        .bind(&r.id)
        .bind(revision)
        .bind(&r.model)
        .bind(&r.chip)
        .bind(&r.precision)
        .bind(&r.framework)
        .bind(r.replica_gpus)
        .bind(r.mix_uncached)
        .bind(r.mix_cached)
        .bind(r.mix_output)
        .bind(r.mix_stated)
        .bind(r.price_basis_usd)
        .bind(&r.source)
        .bind(&r.note)
        .execute(&mut *tx)
        .await?;
    }
    for r in &rows.points {
        row_insert(
            "INSERT INTO curve_points (curve, revision, idx, tps, tokens_per_s_per_gpu, usd_per_mtok, note) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&r.curve)
        .bind(revision)
        .bind(r.idx)
        .bind(r.tps)
        .bind(r.tokens_per_s_per_gpu)
        .bind(r.usd_per_mtok)
        .bind(&r.note)
        .execute(&mut *tx)
        .await?;
    }
    for r in &rows.headlines {
        row_insert(
            "INSERT INTO headlines (id, revision, chip, label, tokens_per_s_per_mw, agents_per_mw, is_floor, source) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(&r.id)
        .bind(revision)
        .bind(&r.chip)
        .bind(&r.label)
        .bind(r.tokens_per_s_per_mw)
        .bind(r.agents_per_mw)
        .bind(r.is_floor)
        .bind(&r.source)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(revision)
}

/// An INSERT prepared afresh for each row. With PostgreSQL a cached statement keeps the
/// parameter types of its first row: a NULL there (an optional number left empty) would make
/// the same parameter unreadable in a later row that gives it.
fn row_insert(sql: &str) -> sqlx::query::Query<'_, sqlx::Any, sqlx::any::AnyArguments<'_>> {
    sqlx::query(sql).persistent(false)
}
