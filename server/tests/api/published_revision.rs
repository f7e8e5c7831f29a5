//! The open models' revision (`migrations/20261206000002_open_models.sql`) is the import of the
//! files `server/dataset/open-models/import.args` lists, byte for byte; importing them again
//! changes nothing; links pinned to the revisions before it keep their data.

use std::path::Path;

use crate::common::{fresh_db, SEEDED};
use sqlx::AnyPool;

/// The migration that writes the revision.
const MIGRATION: &str = "../migrations/20261206000002_open_models.sql";
/// Its version: the migrations before it make the dataset it is imported over.
const VERSION: i64 = 20261206000002;
/// When it was written.
const CREATED_AT: &str = "2026-12-05T12:00:00Z";
/// The import's arguments.
const ARGUMENTS: &str = "dataset/open-models/import.args";

/// A database with the migrations before the revision's.
async fn before_the_revision() -> (AnyPool, tempfile_dir::Dir) {
    let dir = tempfile_dir::Dir::new();
    let url = format!("sqlite://{}?mode=rwc", dir.0.join("before.db").display());
    let pool = app::db::connect(&url).await.expect("connect");
    let migrator = sqlx::migrate!("../migrations");
    // The migrations before it, and the schema's columns added after it (which its rows
    // leave NULL, so its SQL does not name them): the readers of today read that schema.
    let schema_only = |sql: &str| !sql.contains("INSERT INTO");
    for m in migrator
        .iter()
        .filter(|m| m.version < VERSION || schema_only(&m.sql))
    {
        sqlx::raw_sql(&m.sql)
            .execute(&pool)
            .await
            .unwrap_or_else(|e| panic!("migration {}: {e}", m.version));
    }
    (pool, dir)
}

mod tempfile_dir {
    /// A folder of its own, removed when dropped.
    pub struct Dir(pub std::path::PathBuf);

    impl Dir {
        pub fn new() -> Self {
            static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            let dir =
                std::env::temp_dir().join(format!("servecost-revision-{}-{n}", std::process::id()));
            std::fs::create_dir_all(&dir).expect("temp dir");
            Self(dir)
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_open_models_revision_is_the_import_of_its_files() {
    let (pool, _dir) = before_the_revision().await;
    let sql = server::import::revision::sql(&pool, Path::new(ARGUMENTS), CREATED_AT)
        .await
        .unwrap_or_else(|problems| {
            panic!(
                "the files import: {}",
                problems
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("\n")
            )
        });
    if std::env::var_os("SERVECOST_BLESS").is_some() {
        std::fs::write(MIGRATION, &sql).expect("write the migration");
    }
    let shipped = std::fs::read_to_string(MIGRATION).expect("the migration");
    assert!(
        shipped == sql,
        "{MIGRATION} is not the import of {ARGUMENTS}: re-run with SERVECOST_BLESS=1 after \
         changing a file or a reader, and review the diff"
    );
    assert!(sql.contains(&format!("VALUES ({SEEDED}, ")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn importing_the_revision_s_files_again_changes_nothing() {
    let db = fresh_db().await;
    let args = server::import::revision::arguments(Path::new(ARGUMENTS)).expect("arguments");
    let (opts, files) = server::import::parse_args(&args).expect("parse");
    let outcome = server::import::run_each(&db.pool, &files, &opts)
        .await
        .unwrap_or_else(|p| panic!("{p:?}"));
    assert_eq!(outcome.base, SEEDED, "the migrations bring the revision");
    assert!(
        outcome.changes.is_empty(),
        "the files bring nothing new over the migration: {:?}",
        outcome.changes.iter().take(5).collect::<Vec<_>>()
    );
    assert_eq!(outcome.revision, None);
}

/// Links saved before the revision keep their numbers, and the revision moves none of them: it
/// adds models, curves, offers and prices without touching a row a link of revision 3 reads
/// (no new row is a default).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn links_saved_before_the_revision_keep_their_numbers() {
    use crate::common::{app, json};
    use axum::http::StatusCode;
    let (app, db) = app().await;
    let queries = [
        "",
        "requests=20M",
        "api=orcarouter-muse-spark",
        "curve=own&points=10:2.6k,100:900,200:500&curve_mix=1:0:1&replica=8&chip=h200",
        "curve=inferencex-mi355x-fp4&own=1&capex=25000",
    ];
    for (i, query) in queries.iter().enumerate() {
        let id = format!("pinnedRev3x{i}");
        sqlx::query(
            "INSERT INTO scenarios (id, query, name, note, revision, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&id)
        .bind(*query)
        .bind("Before the open models")
        .bind("")
        .bind(SEEDED - 1)
        .bind("2026-12-04T00:00:00Z")
        .execute(&db.pool)
        .await
        .expect("insert");
        let saved = json(&app, &format!("/api/v1/scenarios/{id}"), StatusCode::OK).await;
        assert_eq!(saved["revision"], SEEDED - 1, "{query}");
        assert_eq!(saved["newest_revision"], SEEDED, "{query}");
        assert_eq!(saved["report"]["dataset_revision"], SEEDED - 1, "{query}");
        for side in ["rent", "self_host"] {
            assert_eq!(
                saved["report"][side]["monthly_usd"], saved["current"][side]["monthly_usd"],
                "{query}: {side}"
            );
        }
        assert_eq!(saved["newer_data_changes_result"], false, "{query}");
    }
}
