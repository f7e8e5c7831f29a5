//! A fresh database with the migrations, and the router over it, for in-process tests.
//!
//! SQLite by default; with `SERVECOST_TEST_POSTGRES` set to a PostgreSQL URL whose role may
//! create databases, every test gets a database of its own on that server instead, so the same
//! tests run on both engines (`scripts/test` runs them twice).
#![allow(dead_code)]

use std::sync::atomic::{AtomicUsize, Ordering};

use axum::body::Body;
use axum::http::{Request, Response, StatusCode};
use http_body_util::BodyExt;
use server::config::Config;
use server::{router, AppState};
use sqlx::AnyPool;
use tower::ServiceExt;

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// Tests run one at a time. Leptos's server rendering, driven from many tokio runtimes at once in
/// one process (one per test), hangs about one run in twenty: a page request waits for the 30 s
/// timeout. A server has one runtime and does not (6,000 page requests at 32 at a time: none
/// hung), so the tests take turns instead.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// A database of its own for each test, deleted at the end of the test; holding it is the
/// test's turn.
pub struct TestDb {
    pub pool: AnyPool,
    pub dir: std::path::PathBuf,
    /// The PostgreSQL admin URL and database name, when on PostgreSQL.
    pub postgres: Option<(String, String)>,
    _turn: tokio::sync::MutexGuard<'static, ()>,
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
        if let Some((admin, name)) = self.postgres.take() {
            let pool = self.pool.clone();
            // Drop runs outside async code: a thread of its own closes the pool and drops the
            // database.
            let _ = std::thread::spawn(move || {
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("runtime");
                rt.block_on(async move {
                    pool.close().await;
                    if let Ok(admin) = data::connect(&admin).await {
                        let _ = sqlx::query(&format!(
                            "DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"
                        ))
                        .execute(&admin)
                        .await;
                        admin.close().await;
                    }
                });
            })
            .join();
        }
    }
}

/// The dataset revision the migrations seed: 1, the published figures; 2, their commitment
/// kinds and corrections; 3, the chip families; 4, the open models; 5, their sizing; 6, the
/// MLPerf v6.1 submitters' configurations. An import writes the next.
pub const SEEDED: i64 = 6;

pub async fn fresh_db() -> TestDb {
    let turn = SERIAL.lock().await;
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("servecost-test-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (url, postgres) = match std::env::var("SERVECOST_TEST_POSTGRES") {
        Ok(admin) => {
            let name = format!("servecost_test_{}_{n}", std::process::id());
            let pool = data::connect(&admin).await.expect("connect to PostgreSQL");
            sqlx::query(&format!("CREATE DATABASE \"{name}\""))
                .execute(&pool)
                .await
                .expect("create the test database");
            pool.close().await;
            let (base, _) = admin
                .rsplit_once('/')
                .expect("a PostgreSQL URL with a database");
            (format!("{base}/{name}"), Some((admin.clone(), name)))
        }
        Err(_) => (format!("sqlite://{}", dir.join("test.db").display()), None),
    };
    let pool = data::connect(&url).await.expect("connect");
    let backend = pool
        .acquire()
        .await
        .expect("a connection")
        .backend_name()
        .to_owned();
    let expected = if postgres.is_some() {
        "PostgreSQL"
    } else {
        "SQLite"
    };
    assert_eq!(backend, expected, "the tests run on the engine asked for");
    data::migrate(&pool).await.expect("migrate");
    TestDb {
        pool,
        dir,
        postgres,
        _turn: turn,
    }
}

pub async fn app() -> (axum::Router, TestDb) {
    let (router, db, _) = app_with_store().await;
    (router, db)
}

/// The day the tests judge prices' ages on, whatever the calendar says.
pub const TODAY: &str = "2026-12-01";

pub async fn app_with_store() -> (axum::Router, TestDb, app::db::Store) {
    app_on(TODAY).await
}

/// The app with prices judged on `today`.
pub async fn app_on(today: &str) -> (axum::Router, TestDb, app::db::Store) {
    app_with(today, Config::from_env().expect("default config")).await
}

/// The app serving the built site in `site_root` (its WASM, scripts, stylesheet and files).
pub async fn app_with_site(site_root: &std::path::Path) -> (axum::Router, TestDb) {
    let mut config = Config::from_env().expect("default config");
    config.site_root = site_root.to_string_lossy().into_owned();
    let (router, db, _) = app_with(TODAY, config).await;
    (router, db)
}

async fn app_with(today: &str, config: Config) -> (axum::Router, TestDb, app::db::Store) {
    let (router, db, state) = app_with_state(today, config).await;
    (router, db, state.store)
}

/// The app with prices judged on `today`, and its state (the store and what it keeps).
pub async fn app_with_state(today: &str, config: Config) -> (axum::Router, TestDb, AppState) {
    let db = fresh_db().await;
    let store = app::db::Store::open(db.pool.clone())
        .await
        .expect("load dataset")
        .with_today(today);
    let state = AppState::new(store, &config);
    (router(state.clone()), db, state)
}

pub async fn get(app: &axum::Router, uri: &str) -> Response<Body> {
    app.clone()
        .oneshot(Request::get(uri).body(Body::empty()).expect("request"))
        .await
        .expect("response")
}

pub async fn body_text(response: Response<Body>) -> String {
    let bytes = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    String::from_utf8(bytes.to_vec()).expect("utf-8")
}

pub async fn json(app: &axum::Router, uri: &str, status: StatusCode) -> serde_json::Value {
    let response = get(app, uri).await;
    assert_eq!(response.status(), status, "{uri}");
    serde_json::from_str(&body_text(response).await).expect("json")
}

pub async fn send(app: &axum::Router, request: Request<Body>) -> Response<Body> {
    app.clone().oneshot(request).await.expect("response")
}

pub fn post_json(uri: &str, body: &str) -> Request<Body> {
    Request::post(uri)
        .header("content-type", "application/json")
        .body(Body::from(body.to_owned()))
        .expect("request")
}

/// Writes the revision after the seed's, in which the default API offer's prices are multiplied by
/// `input` and `output` (SQL runs on either engine), and makes the store load it.
pub async fn reprice(db: &TestDb, store: &app::db::Store, input: f64, output: f64) {
    sqlx::query(
        "INSERT INTO dataset_revisions (id, created_at, description) \
         VALUES ($1, '2026-12-01T00:00:00Z', 'test repricing')",
    )
    .bind(SEEDED + 1)
    .execute(&db.pool)
    .await
    .expect("revision");
    sqlx::query(
        "INSERT INTO api_offers (id, revision, model, name, price_in, price_out, cache_discount, \
         markup, speed_tps, source, note) SELECT id, $3, model, name, price_in * $1, price_out * $2, \
         cache_discount, markup, speed_tps, source, note FROM api_offers \
         WHERE id = 'muse-spark-open-api' AND revision = 1",
    )
    .bind(input)
    .bind(output)
    .bind(SEEDED + 1)
    .execute(&db.pool)
    .await
    .expect("offer");
    store.reload().await.expect("reload");
}

/// The parameters an error body names, in order.
pub fn problem_params(body: &serde_json::Value) -> Vec<&str> {
    body["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .filter_map(|p| p["param"].as_str())
        .collect()
}
