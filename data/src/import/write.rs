//! Writing an import: the new and changed rows as the next dataset revision, in one
//! transaction. Nothing is ever updated or deleted, so every earlier revision, and every saved
//! scenario pinned to one, stays as it was.

use crate::rows::Rows;
use crate::table::Table;
use sqlx::AnyPool;

/// Most notes a revision keeps (the command prints every one).
const MAX_NOTES: usize = 2_000;

/// Writes `rows` as a new revision in one transaction and returns its number. Nothing is written
/// if any statement fails.
pub async fn write(
    pool: &AnyPool,
    rows: &Rows,
    description: &str,
    files: &[String],
    notes: &[String],
) -> Result<i64, sqlx::Error> {
    let mut tx = pool.begin().await?;
    let revision: i64 =
        sqlx::query_scalar("SELECT COALESCE(MAX(id), 0) + 1 FROM dataset_revisions")
            .fetch_one(&mut *tx)
            .await?;
    sqlx::query(
        "INSERT INTO dataset_revisions (id, created_at, description, source_files, notes) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(revision)
    .bind(crate::clock::now())
    .bind(description)
    .bind(files.join("\n"))
    // A note is one line: line breaks inside one become spaces.
    .bind(
        notes
            .iter()
            .take(MAX_NOTES)
            .map(|n| n.replace(['\n', '\r'], " "))
            .collect::<Vec<_>>()
            .join("\n"),
    )
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
