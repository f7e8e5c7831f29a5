//! The readers the open models' revision brought (MLPerf summaries, InferenceX development runs,
//! genai-prices data) keep the import's guarantees on bad files: the problem names the file, the
//! line or entry and the field, and nothing is written.

use std::path::{Path, PathBuf};

use data::import::{run, ImportProblem, Options};

use crate::common::{fresh_db, TestDb, SEEDED};

/// A file of `text` in a folder of its own.
fn file(name: &str, text: &str) -> (PathBuf, String) {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("servecost-readers-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    (dir, path.display().to_string())
}

/// The open models' files, as the revision reads them.
fn fixture(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("dataset/open-models")
        .join(path)
        .display()
        .to_string()
}

async fn refused(db: &TestDb, files: &[String], opts: Options) -> Vec<ImportProblem> {
    let problems = run(&db.pool, files, &opts)
        .await
        .expect_err("the file is refused");
    let newest: i64 = sqlx::query_scalar("SELECT MAX(id) FROM dataset_revisions")
        .fetch_one(&db.pool)
        .await
        .expect("newest");
    assert_eq!(newest, SEEDED, "nothing is written");
    problems
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_mlperf_result_is_named_by_line_and_column() {
    let db = fresh_db().await;
    let text = std::fs::read_to_string(fixture("mlperf/summary.csv")).expect("summary");
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    // Line 3 of the file: its Result (the tenth column) is not a number.
    let record = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(lines[2].as_bytes())
        .records()
        .next()
        .expect("a row")
        .expect("csv");
    let cells: Vec<String> = record
        .iter()
        .enumerate()
        .map(|(i, c)| {
            if i == 9 {
                "fast".to_owned()
            } else {
                c.to_owned()
            }
        })
        .collect();
    lines[2] = cells
        .iter()
        .map(|c| format!("\"{}\"", c.replace('"', "\"\"")))
        .collect::<Vec<_>>()
        .join(",");
    let (dir, path) = file("summary.csv", &(lines.join("\n") + "\n"));
    let problems = refused(&db, &[path], Options::default()).await;
    let shown: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert!(
        shown.iter().any(|p| p.contains("line 3")
            && p.contains("field `Result`")
            && p.contains("\"fast\"")),
        "{shown:?}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn runs_without_their_chip_or_their_figures_are_refused_by_name() {
    let db = fresh_db().await;
    let run_file =
        fixture("benchmarks/decode-slo/glm-5/glm5_fp8_vllm_tp8_isl1024_osl128_conc16.json");
    // The decode-SLO runs do not say their chip.
    let problems = refused(&db, std::slice::from_ref(&run_file), Options::default()).await;
    assert!(
        problems
            .iter()
            .any(|p| p.field == "hardware" && p.problem.contains("--hardware")),
        "{problems:?}"
    );
    // A together_runner result without its TPOT names the field by its path.
    let mut v: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(fixture("benchmarks/together-runner/dsr1-fp4/conc64.json"))
            .expect("run"),
    )
    .expect("JSON");
    v["metrics"]["median_tpot_ms"] = serde_json::Value::String("slow".into());
    let (dir, path) = file("conc64.json", &v.to_string());
    let problems = refused(&db, &[path], Options::default()).await;
    assert!(
        problems.iter().any(|p| p.field == "metrics.median_tpot_ms"),
        "{problems:?}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_genai_price_is_named_by_its_path() {
    let db = fresh_db().await;
    let mut v: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(fixture("prices/genai-prices/gpt-oss-120b.json")).expect("prices"),
    )
    .expect("JSON");
    v[0]["models"][0]["prices"]["input_mtok"] = serde_json::json!(-1);
    let (dir, path) = file("data.json", &v.to_string());
    let opts = Options {
        model: Some("gpt-oss-120b".into()),
        ..Options::default()
    };
    let problems = refused(&db, &[path], opts).await;
    assert!(
        problems
            .iter()
            .any(|p| p.at == "[0].models[0].prices" && p.field == "input_mtok"),
        "{problems:?}"
    );
    let _ = std::fs::remove_dir_all(dir);
}
