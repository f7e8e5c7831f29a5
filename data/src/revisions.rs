//! The dataset's revisions: each one's number, date, description and files, and which rows
//! each brought, for `/data`.

use serde::Serialize;
use sqlx::AnyPool;

use crate::rows::{
    ChipRow, CurveRow, HeadlineRow, ModelRow, OfferRow, SourceRow, TierRow, WeightsRow,
};
use crate::table::Table;

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
    /// What its import said of the files, one note per line (what `--skip-invalid` left out,
    /// with each one's reason, among them).
    pub notes: String,
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
        "SELECT id, created_at, description, source_files, notes FROM dataset_revisions ORDER BY id DESC",
    )
    .fetch_all(pool)
    .await
}
