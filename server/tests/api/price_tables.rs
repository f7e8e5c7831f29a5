//! The public price tables import as published: LiteLLM's full table (from the repository's
//! fixtures) with `--skip-invalid` writes its valid entries and lists the ones it leaves out;
//! without it the import is refused as before; a file over the limits is refused as it is read;
//! a key given twice is refused by name; tables imported in separate runs are compared.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use data::import::{run, Options};

use crate::common::{app_with_store, body_text, get, TestDb};

/// LiteLLM's `model_prices_and_context_window.json`, whole (2,985 entries; see the fixtures'
/// README for its commit).
fn full_table() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/litellm/model_prices_and_context_window.json")
        .display()
        .to_string()
}

/// The entries of the full table that are API offers (both prices given), and those among them
/// a link could not take: a price above $1,000 per million tokens, the calculator's limit.
fn offers_and_out_of_range() -> (usize, BTreeSet<String>) {
    let text = std::fs::read_to_string(full_table()).expect("the table");
    let table: serde_json::Value = serde_json::from_str(&text).expect("json");
    let mut offers = 0;
    let mut bad = BTreeSet::new();
    for (name, entry) in table.as_object().expect("an object") {
        let price = |f: &str| entry.get(f).and_then(serde_json::Value::as_f64);
        let (Some(input), Some(output)) = (
            price("input_cost_per_token"),
            price("output_cost_per_token"),
        ) else {
            continue;
        };
        if name == "sample_spec" {
            continue;
        }
        offers += 1;
        let cached = price("cache_read_input_token_cost").unwrap_or(0.0);
        if [input, output, cached].iter().any(|p| p * 1e6 > 1_000.0) {
            bad.insert(name.clone());
        }
    }
    (offers, bad)
}

async fn revisions(db: &TestDb) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM dataset_revisions")
        .fetch_one(&db.pool)
        .await
        .expect("count")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("servecost-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_full_litellm_table_imports_with_its_invalid_entries_left_out() {
    let (app, db, _store) = app_with_store().await;
    let (offers, bad) = offers_and_out_of_range();
    assert_eq!(bad.len(), 16, "{bad:?}");
    let before = revisions(&db).await;
    let muse = Options {
        model: Some("muse-spark-open".into()),
        ..Options::default()
    };
    // As IMPORT.md's example has it: every entry an offer of one model. Without the option,
    // refused whole, naming each entry out of range; nothing written.
    let problems = run(&db.pool, &[full_table()], &muse)
        .await
        .expect_err("16 entries out of range");
    let named: BTreeSet<String> = problems
        .iter()
        .filter_map(|p| {
            p.at.strip_prefix("entry ")
                .map(|n| n.trim_matches('"').to_owned())
        })
        .collect();
    assert_eq!(named, bad, "{problems:?}");
    assert!(
        problems.iter().all(|p| p.problem.contains("1,000")),
        "{problems:?}"
    );
    assert_eq!(revisions(&db).await, before);

    // With it: the rest written, the 16 listed with their reasons in the output and in the
    // revision's notes.
    let opts = Options {
        skip_invalid: true,
        ..muse.clone()
    };
    let outcome = run(&db.pool, &[full_table()], &opts)
        .await
        .expect("the valid entries import");
    let revision = outcome.revision.expect("written");
    let listed: BTreeSet<String> = outcome
        .notes
        .iter()
        .filter_map(|n| n.strip_prefix("left out: "))
        .map(|n| {
            let entry = n.split("entry \"").nth(1).expect("names the entry");
            entry.split('"').next().expect("its name").to_owned()
        })
        .collect();
    assert_eq!(listed, bad, "{outcome}");
    assert!(
        outcome
            .notes
            .iter()
            .any(|n| n.starts_with("16 entries or rows left out by --skip-invalid")),
        "{outcome}"
    );
    let written: i64 = sqlx::query_scalar(&format!(
        "SELECT COUNT(*) FROM api_offers WHERE revision = {revision}"
    ))
    .fetch_one(&db.pool)
    .await
    .expect("count");
    assert_eq!(written as usize, offers - bad.len());
    let left: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM api_offers WHERE id = 'litellm-wandb-openai-gpt-oss-120b'",
    )
    .fetch_one(&db.pool)
    .await
    .expect("count");
    assert_eq!(left, 0, "an entry left out is not written");
    // One valid entry, priced as the table gives it: $0.20 and $0.60 per million.
    let (price_in, price_out): (f64, f64) = sqlx::query_as(
        "SELECT price_in, price_out FROM api_offers WHERE id = 'litellm-groq-openai-gpt-oss-20b'",
    )
    .fetch_one(&db.pool)
    .await
    .expect("a valid entry");
    let text = std::fs::read_to_string(full_table()).expect("table");
    let table: serde_json::Value = serde_json::from_str(&text).expect("json");
    let entry = &table["groq/openai/gpt-oss-20b"];
    assert!((price_in - entry["input_cost_per_token"].as_f64().expect("in") * 1e6).abs() < 1e-9);
    assert!((price_out - entry["output_cost_per_token"].as_f64().expect("out") * 1e6).abs() < 1e-9);
    let notes: String = sqlx::query_scalar(&format!(
        "SELECT notes FROM dataset_revisions WHERE id = {revision}"
    ))
    .fetch_one(&db.pool)
    .await
    .expect("notes");
    for name in &bad {
        assert!(
            notes.contains(&format!("entry {name:?}")),
            "{name}: {notes}"
        );
    }
    // /data shows them beside the revision.
    let page = body_text(get(&app, "/data").await).await;
    assert!(
        page.contains("left out by --skip-invalid"),
        "the notes on /data"
    );

    // Without --model: the entries of the dataset's own models, the bad ones among them left
    // out (wandb's gpt-oss-120b), the rest already in the published revision.
    let outcome = run(
        &db.pool,
        &[full_table()],
        &Options {
            skip_invalid: true,
            ..Options::default()
        },
    )
    .await
    .expect("imports");
    let listed: Vec<&String> = outcome
        .notes
        .iter()
        .filter(|n| n.starts_with("left out: "))
        .collect();
    assert!(
        listed
            .iter()
            .any(|n| n.contains("wandb/openai/gpt-oss-120b")),
        "{outcome}"
    );
    assert!(
        listed
            .iter()
            .all(|n| bad.iter().any(|b| n.contains(b.as_str()))),
        "{outcome}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_over_the_limits_is_refused_as_it_is_read() {
    let (_app, db, _store) = app_with_store().await;
    let dir = scratch("huge-table");
    let entries: Vec<String> = (0..124_000)
        .map(|i| {
            format!(
                "\"p{i}/muse-spark-open\": {{\"input_cost_per_token\": 1e-6, \
                 \"output_cost_per_token\": 2e-6, \"litellm_provider\": \"p{i}\"}}"
            )
        })
        .collect();
    let path = dir.join("huge.json");
    std::fs::write(&path, format!("{{\n{}\n}}", entries.join(",\n"))).expect("write");
    let problems = run(
        &db.pool,
        &[path.display().to_string()],
        &Options {
            model: Some("muse-spark-open".into()),
            skip_invalid: true,
            ..Options::default()
        },
    )
    .await
    .expect_err("over the limit");
    assert_eq!(problems.len(), 1, "{problems:?}");
    let p = &problems[0];
    assert!(p.problem.contains("more than 20,000 objects"), "{p}");
    // Refused where the count passed the limit, not at the end of the file: the table and its
    // first 19,999 entries are 20,000 objects; the next, on line 20,001, is one too many.
    assert_eq!(p.at.split(',').next(), Some("line 20001"), "{p}");

    // Two files within the limit per file that bring more offers than one import takes: refused
    // by their count of entries, before any becomes an offer.
    let part = |from: usize| {
        let entries: Vec<String> = (from..from + 11_000)
            .map(|i| {
                format!(
                    "\"p{i}/muse-spark-open\": {{\"input_cost_per_token\": 1e-6, \
                     \"output_cost_per_token\": 2e-6, \"litellm_provider\": \"p{i}\"}}"
                )
            })
            .collect();
        let path = dir.join(format!("part-{from}.json"));
        std::fs::write(&path, format!("{{{}}}", entries.join(","))).expect("write");
        path.display().to_string()
    };
    let problems = run(
        &db.pool,
        &[part(0), part(11_000)],
        &Options {
            model: Some("muse-spark-open".into()),
            ..Options::default()
        },
    )
    .await
    .expect_err("over the rows of one import");
    assert!(
        problems
            .iter()
            .any(|p| p.at == "api_offers" && p.problem.contains("22,000 price entries")),
        "{problems:?}"
    );
    std::fs::remove_dir_all(dir).ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_given_twice_is_refused_by_name() {
    let (_app, db, _store) = app_with_store().await;
    let dir = scratch("twice");
    let path = dir.join("twice.json");
    std::fs::write(
        &path,
        "{\"a/muse-spark-open\": {\"input_cost_per_token\": 1e-6,\n \"input_cost_per_token\": 1e-3, \
         \"output_cost_per_token\": 2e-6}}",
    )
    .expect("write");
    let before = revisions(&db).await;
    let problems = run(&db.pool, &[path.display().to_string()], &Options::default())
        .await
        .expect_err("twice");
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0]
            .problem
            .contains("the key \"input_cost_per_token\" is given twice"),
        "{problems:?}"
    );
    assert!(problems[0].at.starts_with("line 2,"), "{problems:?}");
    assert_eq!(revisions(&db).await, before);
    std::fs::remove_dir_all(dir).ok();
}

/// Two tables list one provider's listing at different prices; imported in two runs, each
/// offer's note names the other's, the first one's written again with its new note.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_imported_in_separate_runs_are_compared() {
    let (_app, db, store) = app_with_store().await;
    let dir = scratch("disagree");
    let litellm = dir.join("one-table.json");
    std::fs::write(
        &litellm,
        r#"{"example-vendor/muse-spark-open": {"input_cost_per_token": 1.1e-06,
            "output_cost_per_token": 4e-06, "litellm_provider": "example-vendor"}}"#,
    )
    .expect("write");
    let vendor =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("import-examples/llm-prices-example.json");
    let note = |id: &'static str| {
        let pool = db.pool.clone();
        async move {
            sqlx::query_scalar::<_, Option<String>>(&format!(
                "SELECT note FROM api_offers WHERE id = '{id}' ORDER BY revision DESC LIMIT 1"
            ))
            .fetch_one(&pool)
            .await
            .expect("offer")
            .unwrap_or_default()
        }
    };
    run(
        &db.pool,
        &[litellm.display().to_string()],
        &Options::default(),
    )
    .await
    .expect("first table");
    let first = "litellm-example-vendor-muse-spark-open";
    assert!(!note(first).await.contains("Sources disagree"));
    let outcome = run(
        &db.pool,
        &[vendor.display().to_string()],
        &Options::default(),
    )
    .await
    .expect("second table, another run");
    let second = "llm-prices-example-vendor-muse-spark-open";
    let (a, b) = (note(first).await, note(second).await);
    assert!(
        a.contains("Sources disagree: the llm-prices vendor price file")
            && a.contains("$1.20 in, $4.00 out"),
        "{a}"
    );
    assert!(
        b.contains("Sources disagree: the LiteLLM-style price table")
            && b.contains("$1.10 in, $4.00 out"),
        "{b}"
    );
    assert!(
        outcome
            .changes
            .iter()
            .any(|c| c.to_string().contains(first)),
        "the first table's offer is written again: {outcome}"
    );
    // The same two again: nothing changes.
    store.reload().await.expect("reload");
    let again = run(
        &db.pool,
        &[litellm.display().to_string(), vendor.display().to_string()],
        &Options::default(),
    )
    .await
    .expect("again");
    assert!(again.changes.is_empty(), "{again}");
    std::fs::remove_dir_all(dir).ok();
}
