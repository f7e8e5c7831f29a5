//! Each published revision written by an import (`migrations/20261206000002_open_models.sql`,
//! revision 4; `migrations/20261208000003_sizing.sql`, revision 5;
//! `migrations/20261209000001_v61_configs.sql`, revision 6) is the import of the files
//! its `server/dataset/<folder>/import.args` lists, byte for byte; importing the newest's files
//! again changes nothing; links pinned to the revisions before each keep their numbers.

use std::path::Path;

use crate::common::{fresh_db, SEEDED};
use sqlx::AnyPool;

/// A revision an import writes.
struct Published {
    /// The migration that writes it.
    migration: &'static str,
    /// Its version: the migrations before it make the dataset it is imported over.
    version: i64,
    /// When it was written.
    created_at: &'static str,
    /// The import's arguments.
    arguments: &'static str,
    /// The revision it is.
    revision: i64,
}

const OPEN_MODELS: Published = Published {
    migration: "../migrations/20261206000002_open_models.sql",
    version: 20261206000002,
    created_at: "2026-12-05T12:00:00Z",
    arguments: "dataset/open-models/import.args",
    revision: 4,
};

const SIZING: Published = Published {
    migration: "../migrations/20261208000003_sizing.sql",
    version: 20261208000003,
    created_at: "2026-12-07T12:00:00Z",
    arguments: "dataset/sizing/import.args",
    revision: 5,
};

const V61_CONFIGS: Published = Published {
    migration: "../migrations/20261209000001_v61_configs.sql",
    version: 20261209000001,
    created_at: "2026-12-07T21:00:00Z",
    arguments: "dataset/v6.1-configs/import.args",
    revision: 6,
};

/// The newest revision an import writes.
const NEWEST: Published = V61_CONFIGS;

/// A database with the migrations before the revision's.
async fn before_the_revision(version: i64) -> (AnyPool, tempfile_dir::Dir) {
    let dir = tempfile_dir::Dir::new();
    let url = format!("sqlite://{}?mode=rwc", dir.0.join("before.db").display());
    let pool = data::connect(&url).await.expect("connect");
    let migrator = sqlx::migrate!("../migrations");
    // The migrations before it, and the schema's columns added after it (which its rows
    // leave NULL, so its SQL does not name them): the readers of today read that schema.
    let schema_only = |sql: &str| !sql.contains("INSERT INTO");
    for m in migrator
        .iter()
        .filter(|m| m.version < version || schema_only(&m.sql))
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

/// The revision's migration is the import of its files, byte for byte.
async fn is_the_import_of_its_files(p: &Published) {
    let (pool, _dir) = before_the_revision(p.version).await;
    let sql = data::import::revision::sql(&pool, Path::new(p.arguments), p.created_at)
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
        std::fs::write(p.migration, &sql).expect("write the migration");
    }
    let shipped = std::fs::read_to_string(p.migration).expect("the migration");
    assert!(
        shipped == sql,
        "{} is not the import of {}: re-run with SERVECOST_BLESS=1 after changing a file or a \
         reader, and review the diff",
        p.migration,
        p.arguments
    );
    assert!(sql.contains(&format!("VALUES ({}, ", p.revision)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_open_models_revision_is_the_import_of_its_files() {
    is_the_import_of_its_files(&OPEN_MODELS).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sizing_revision_is_the_import_of_its_files() {
    is_the_import_of_its_files(&SIZING).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_v6_1_configurations_revision_is_the_import_of_its_files() {
    is_the_import_of_its_files(&V61_CONFIGS).await;
    assert_eq!(
        NEWEST.revision, SEEDED,
        "the newest revision is the one seeded"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn importing_the_revision_s_files_again_changes_nothing() {
    let db = fresh_db().await;
    let args = data::import::revision::arguments(Path::new(NEWEST.arguments)).expect("arguments");
    let (opts, files) = data::import::parse_args(&args).expect("parse");
    let outcome = data::import::run_each(&db.pool, &files, &opts)
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

/// Links saved before each revision keep their numbers: revision 3's links, which no later
/// revision moves, and revision 4's and 5's links of the open models, whose curves revisions 5
/// and 6 read anew (each pinned report is the engine's own answer at its revision).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn links_saved_before_the_revision_keep_their_numbers() {
    use crate::common::{app, json};
    use axum::http::StatusCode;
    let (app, db) = app().await;
    let pinned = [
        (3, ""),
        (3, "requests=20M"),
        (3, "api=orcarouter-muse-spark"),
        (
            3,
            "curve=own&points=10:2.6k,100:900,200:500&curve_mix=1:0:1&replica=8&chip=h200",
        ),
        (3, "curve=inferencex-mi355x-fp4&own=1&capex=25000"),
        (4, "model=gpt-oss-120b"),
        (4, "model=deepseek-r1&requests=3M"),
        (4, "model=llama-2-70b&tokens=2B&mix=2:0:1"),
        (5, "model=deepseek-r1&requests=3M"),
        (5, "model=deepseek-r1&requests=3M&tps=30"),
        (5, "model=gpt-oss-120b&tps=50"),
    ];
    for (i, (revision, query)) in pinned.iter().enumerate() {
        let id = format!("pinnedRv{revision}x{i:02}");
        sqlx::query(
            "INSERT INTO scenarios (id, query, name, note, revision, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&id)
        .bind(*query)
        .bind("Before the sizing")
        .bind("")
        .bind(*revision)
        .bind("2026-12-04T00:00:00Z")
        .execute(&db.pool)
        .await
        .expect("insert");
        let saved = json(&app, &format!("/api/v1/scenarios/{id}"), StatusCode::OK).await;
        assert_eq!(saved["revision"], *revision, "{query}");
        assert_eq!(saved["newest_revision"], SEEDED, "{query}");
        assert_eq!(saved["report"]["dataset_revision"], *revision, "{query}");
        if *revision == 3 {
            for side in ["rent", "self_host"] {
                assert_eq!(
                    saved["report"][side]["monthly_usd"], saved["current"][side]["monthly_usd"],
                    "{query}: {side}"
                );
            }
            assert_eq!(saved["newer_data_changes_result"], false, "{query}");
        } else {
            let parsed = servecost::parse(query).expect("valid");
            let at = data::load_dataset(&db.pool, *revision)
                .await
                .expect("the pinned revision");
            let then = servecost::evaluate(&parsed.scenario, &at).expect("answers then");
            let then = serde_json::to_value(&then).expect("json");
            for side in ["rent", "self_host"] {
                assert_eq!(
                    saved["report"][side]["monthly_usd"], then[side]["monthly_usd"],
                    "{query}: {side}"
                );
            }
            assert!(then["self_host"]["monthly_usd"].is_number(), "{query}");
        }
    }
}
