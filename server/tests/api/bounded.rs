//! No accepted import can make a page fail or grow without bound: an import over its limits is
//! refused naming the limit, and one within them leaves every page the size of what it draws.

use std::time::{Duration, Instant};

use data::import::{run, Options};

use crate::common::{app_with_store, body_text, get, TestDb};

/// The longest a page may take after a large import.
const QUICK: Duration = Duration::from_secs(2);

/// A LiteLLM-style table of `n` offers of the default model, from providers `from..from + n`.
fn price_table(from: usize, n: usize) -> String {
    let entries: Vec<String> = (from..from + n)
        .map(|i| {
            format!(
                "\"provider-{i}/muse-spark-open\": {{\"input_cost_per_token\": {}, \
                 \"output_cost_per_token\": {}, \"cache_read_input_token_cost\": {}, \
                 \"litellm_provider\": \"provider-{i}\", \"mode\": \"chat\"}}",
                1e-7 * (1.0 + (i % 97) as f64),
                4e-7 * (1.0 + (i % 89) as f64),
                1e-8 * (1.0 + (i % 97) as f64),
            )
        })
        .collect();
    format!("{{{}}}", entries.join(",\n"))
}

fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path.display().to_string()
}

async fn revisions(db: &TestDb) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM dataset_revisions")
        .fetch_one(&db.pool)
        .await
        .expect("count")
}

/// The answer to `uri`: 2xx within [`QUICK`], and its size.
async fn quick(app: &axum::Router, uri: &str) -> (usize, String) {
    let start = Instant::now();
    let res = get(app, uri).await;
    let status = res.status();
    let text = body_text(res).await;
    let took = start.elapsed();
    assert!(status.is_success(), "{uri}: {status}: {text:.300}");
    assert!(took < QUICK, "{uri} took {took:?}");
    (text.len(), text)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_import_is_refused_or_leaves_every_page_bounded() {
    let (app, db, store) = app_with_store().await;
    let dir = std::env::temp_dir().join(format!("servecost-large-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let (home_before, _) = quick(&app, "/").await;
    let before = revisions(&db).await;
    let model = Options {
        model: Some("muse-spark-open".into()),
        ..Options::default()
    };

    // 30,000 offers in one import (two files, each within a file's 20,000 objects): refused,
    // naming the limit; nothing written.
    let tables = [
        write(&dir, "prices-15k-a.json", &price_table(0, 15_000)),
        write(&dir, "prices-15k-b.json", &price_table(15_000, 15_000)),
    ];
    let problems = run(&db.pool, &tables, &model)
        .await
        .expect_err("over the limit");
    assert!(
        problems
            .iter()
            .any(|p| p.at == "api_offers" && p.problem.contains("at most 20,000 rows")),
        "{problems:?}"
    );
    // A source whose title is 1 MB: refused, naming the field and its limit.
    let title = "t".repeat(1024 * 1024);
    let source = write(
        &dir,
        "title.json",
        &format!(
            "{{\"sources\": [{{\"key\": \"long-title\", \"publisher\": \"P\", \"title\": \"{title}\", \
             \"date\": \"2026-12-01\", \"trust\": \"independent\"}}]}}"
        ),
    );
    let problems = run(&db.pool, &[source], &Options::default())
        .await
        .expect_err("a 1 MB title");
    assert!(
        problems
            .iter()
            .any(|p| p.field == "title" && p.problem.contains("at most 500")),
        "{problems:?}"
    );
    assert!(
        problems.iter().all(|p| p.to_string().len() < 1_000),
        "an error quotes what it refuses briefly"
    );
    assert_eq!(
        revisions(&db).await,
        before,
        "a refused import writes nothing"
    );

    // 4,000 offers in two imports within the limit: accepted.
    for (i, from) in [0, 2_000].into_iter().enumerate() {
        let table = write(&dir, &format!("prices-{i}.json"), &price_table(from, 2_000));
        run(&db.pool, &[table], &model)
            .await
            .expect("within the limits");
    }
    // And 2,000 GPU-hour prices of the default curve's chip.
    let current = store.current();
    let chip = current.curves[0].chip.clone();
    let source = current.price_tiers[0].source.clone();
    let tiers: Vec<String> = (0..2_000)
        .map(|i| {
            format!(
                "{{\"chip\": \"{chip}\", \"tier\": \"more-{i}\", \"label\": \"Price {i}\", \
                 \"usd_per_gpu_hour\": {}, \"source\": \"{source}\", \"kind\": \"on_demand\"}}",
                1.0 + (i % 300) as f64 / 100.0
            )
        })
        .collect();
    let file = write(
        &dir,
        "tiers.json",
        &format!("{{\"price_tiers\": [{}]}}", tiers.join(",")),
    );
    run(&db.pool, &[file], &Options::default())
        .await
        .expect("within the limits");
    store.reload().await.expect("reload");

    let (home, page) = quick(&app, "/").await;
    assert!(
        home * 2 <= home_before * 3,
        "/ grew from {home_before} to {home} bytes"
    );
    assert!(
        page.contains("data-testid=\"more-offers\""),
        "the page says it lists some"
    );
    for uri in [
        "/embed",
        "/data",
        "/options",
        "/api/v1/options",
        "/api/v1/dataset",
    ] {
        quick(&app, uri).await;
    }
    // The dataset answers a page at a time; following the cursors reaches every offer.
    let mut offers = 0;
    let mut cursor = String::new();
    loop {
        let (_, text) = quick(&app, &format!("/api/v1/dataset?limit=500&cursor={cursor}")).await;
        let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        offers += v["api_offers"].as_array().map_or(0, Vec::len);
        match v["page"]["next_cursor"].as_str() {
            Some(next) => cursor = next.to_owned(),
            None => break,
        }
    }
    let published = store.current().api_offers.len() - 4_000;
    assert_eq!(offers, 4_000 + published);
    let (_, options) = quick(&app, "/api/v1/options").await;
    let v: serde_json::Value = serde_json::from_str(&options).expect("JSON");
    let ranked_offers = v["options"]
        .as_array()
        .expect("options")
        .iter()
        .filter(|o| o["kind"] == "rent")
        .count();
    assert!(
        ranked_offers <= servecost::dataset::PAGE_OFFERS + 1,
        "{ranked_offers}"
    );
    assert!(
        v["tiers_left_out"]
            .as_u64()
            .is_some_and(|n| n >= 2_000 - 12),
        "{}",
        v["tiers_left_out"]
    );
    let of_model = store
        .current()
        .api_offers
        .iter()
        .filter(|o| o.model == "muse-spark-open")
        .count();
    assert_eq!(
        v["offers_left_out"].as_u64(),
        Some((of_model - servecost::dataset::PAGE_OFFERS) as u64)
    );
    // /data shows one page of offers and finds any by search.
    let (_, data) = quick(&app, "/data").await;
    let rows = format!(
        "Rows 1 to 50 of {}",
        servecost::format::exact(offers as f64, false)
    );
    assert!(data.contains(&rows), "the offers are paged");
    let (_, found) = quick(&app, "/data?q=provider-3999%3A#offers").await;
    assert!(
        found.contains("data-offer=\"litellm-provider-3999-muse-spark-open\""),
        "search finds it"
    );
}

/// A byte-order mark (as spreadsheets and some editors write) is skipped in every text format:
/// the example `dataset.json` and a CSV table read the same with one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_byte_order_mark_is_skipped_in_every_format() {
    let (_app, db, _store) = app_with_store().await;
    let dir = std::env::temp_dir().join(format!("servecost-bom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("import-examples");
    let dry = Options {
        dry_run: true,
        ..Options::default()
    };
    for name in ["dataset.json", "sources.csv", "litellm-prices.json"] {
        let text = std::fs::read_to_string(examples.join(name)).expect("example");
        // The same name in two folders: a price table's source is named after its file.
        let (a, b) = (dir.join("plain"), dir.join("marked"));
        std::fs::create_dir_all(&a).expect("dir");
        std::fs::create_dir_all(&b).expect("dir");
        let plain = write(&a, name, &text);
        let marked = write(&b, name, &format!("\u{feff}{text}"));
        let without = run(&db.pool, &[plain], &dry).await.expect("reads");
        let with = run(&db.pool, &[marked], &dry)
            .await
            .unwrap_or_else(|p| panic!("{name} with a byte-order mark: {p:?}"));
        assert_eq!(with.changes, without.changes, "{name}");
    }
}

/// The tables a page carries whole are bounded in the dataset, not only per import: an import
/// that would take the chips past their limit is refused naming it, and writes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tables_a_page_carries_whole_are_bounded_in_the_dataset() {
    let (_app, db, store) = app_with_store().await;
    let dir = std::env::temp_dir().join(format!("servecost-chips-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let source = store.current().chips[0].memory_source.clone();
    let chips: Vec<String> = (0..data::import::limits::MAX_CHIPS)
        .map(|i| {
            format!(
                "{{\"id\": \"chip-{i}\", \"name\": \"Chip {i}\", \"memory_gb\": 80, \
                 \"memory_source\": \"{source}\"}}"
            )
        })
        .collect();
    let file = write(
        &dir,
        "chips.json",
        &format!("{{\"chips\": [{}]}}", chips.join(",")),
    );
    let before = revisions(&db).await;
    let problems = run(&db.pool, &[file], &Options::default())
        .await
        .expect_err("over the dataset's chips");
    assert!(
        problems
            .iter()
            .any(|p| p.at == "chips" && p.problem.contains("at most 100")),
        "{problems:?}"
    );
    assert_eq!(revisions(&db).await, before);
}
