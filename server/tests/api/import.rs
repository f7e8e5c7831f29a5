//! `servecost-server import`: the published formats, InferenceX result files and price tables,
//! each a new revision written in one transaction; bad files change nothing.

use std::path::{Path, PathBuf};

use axum::http::StatusCode;
use data::import::{run, ImportProblem, Options, Outcome};
use serde_json::Value;

use crate::common::{app_with_store, body_text, get, json, TestDb, SEEDED};

fn samples() -> PathBuf {
    // Real InferenceX result files, copied verbatim into the repository (their README says
    // from which commits of the public InferenceX repository).
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/inferencex-samples");
    assert!(
        dir.is_dir(),
        "the InferenceX samples are missing at {}",
        dir.display()
    );
    dir
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .expect("samples")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| p.display().to_string())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no sample in {}", dir.display());
    files
}

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("import-examples")
}

fn example(name: &str) -> String {
    examples().join(name).display().to_string()
}

async fn import(
    db: &TestDb,
    files: &[String],
    opts: Options,
) -> Result<Outcome, Vec<ImportProblem>> {
    run(&db.pool, files, &opts).await
}

async fn revisions(db: &TestDb) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM dataset_revisions")
        .fetch_one(&db.pool)
        .await
        .expect("count")
}

fn raw() -> Options {
    Options {
        hardware: Some("mi355x".into()),
        ..Options::default()
    }
}

/// Every point the import keeps, priced in the calculator at each price tier of its chip, costs
/// exactly what the InferenceX dashboard's formula gives: $/GPU-hour / (tokens/s per GPU × 3600
/// / 1e6), at the curve's own mix (ISL : 0 : OSL).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_sample_point_costs_what_the_dashboard_formula_gives() {
    let (app, db, store) = app_with_store().await;
    let dir = samples();
    let mut files: Vec<(String, Options)> = files_in(&dir.join("inferencex_agg"))
        .into_iter()
        .map(|f| (f, Options::default()))
        .collect();
    for model in ["gpt-oss-120b", "minimax-m2.5"] {
        files.extend(
            files_in(&dir.join("inferencex_raw_multinode").join(model))
                .into_iter()
                .map(|f| (f, raw())),
        );
    }
    let mut files_priced = 0;
    for (file, opts) in files {
        let outcome = import(&db, std::slice::from_ref(&file), opts)
            .await
            .unwrap_or_else(|p| panic!("{file}: {p:?}"));
        assert!(outcome.revision.is_some(), "{file}: {outcome}");
        store.reload().await.expect("reload");
        // A new model or curve never becomes the calculator's default.
        let default = json(&app, "/api/v1/evaluate", StatusCode::OK).await;
        assert_eq!(default["inputs"]["model"], "muse-spark-open", "{file}");
        assert_eq!(default["inputs"]["curve"], "inferencex-b300-fp4", "{file}");
        let curve = outcome
            .changes
            .iter()
            .find(|c| c.kind == "curve")
            .expect("a curve")
            .key
            .clone();
        let data = json(&app, "/api/v1/dataset?limit=500", StatusCode::OK).await;
        let c = data["curves"]
            .as_array()
            .expect("curves")
            .iter()
            .find(|c| c["id"] == curve.as_str())
            .expect("the imported curve is in the dataset")
            .clone();
        let mix = &c["mix"];
        assert_eq!(mix["cached"], 0.0, "{file}: benchmarks send random prompts");
        let tiers: Vec<Value> = data["price_tiers"]
            .as_array()
            .expect("tiers")
            .iter()
            .filter(|t| t["chip"] == c["chip"])
            .cloned()
            .collect();
        assert!(!tiers.is_empty(), "{file}: the chip has price tiers");
        let points = c["points"].as_array().expect("points");
        assert!(!points.is_empty(), "{file}: no point kept");
        for point in points {
            let tps = point["tps"].as_f64().expect("tps");
            let t = point["tokens_per_s_per_gpu"].as_f64().expect("T");
            for tier in &tiers {
                let price = tier["usd_per_gpu_hour"].as_f64().expect("price");
                let gpu_hour = if tier["is_default"] == true {
                    String::new()
                } else {
                    format!("&gpu_hour={price}")
                };
                let query = format!(
                    "model={}&curve={curve}&tps={tps}&input={}&cached=0&output={}&price_in=1&price_out=1{gpu_hour}",
                    c["model"].as_str().expect("model"),
                    mix["uncached"].as_f64().expect("u") * 1e6,
                    mix["output"].as_f64().expect("o") * 1e6,
                );
                let report = json(&app, &format!("/api/v1/evaluate?{query}"), StatusCode::OK).await;
                assert_eq!(report["inputs"]["gpu_hour_usd"].as_f64(), Some(price));
                let engine = report["self_host"]["per_mtok"]["blended"]
                    .as_f64()
                    .expect("blended");
                let dashboard = price / (t * 3600.0 / 1e6);
                assert!(
                    ((engine - dashboard) / dashboard).abs() < 1e-12,
                    "{file} at {tps} tok/s/user, ${price}: engine {engine} vs dashboard {dashboard}"
                );
            }
        }
        files_priced += 1;
    }
    // 3 processed rows and 16 raw files.
    assert_eq!(files_priced, 3 + 16);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn measurements_of_one_configuration_make_one_curve_on_its_frontier() {
    let (_app, db, _store) = app_with_store().await;
    let dir = samples().join("inferencex_raw_multinode/gpt-oss-120b");
    let outcome = import(&db, &files_in(&dir), raw()).await.expect("import");
    let curves: Vec<_> = outcome
        .changes
        .iter()
        .filter(|c| c.kind == "curve")
        .collect();
    assert_eq!(curves.len(), 1, "{outcome}");
    let id = &curves[0].key;
    let row: (f64, f64, f64, f64, i64) = sqlx::query_as(
        "SELECT replica_gpus, mix_uncached, mix_cached, mix_output, \
         CASE WHEN mix_stated THEN 1 ELSE 0 END FROM curves WHERE id = $1",
    )
    .bind(id)
    .fetch_one(&db.pool)
    .await
    .expect("curve");
    // 8 prefill + 8 decode GPUs, ISL/OSL 1024/1024, stated by the benchmark.
    assert_eq!(row, (16.0, 1024.0, 0.0, 1024.0, 1));
    let points: Vec<(f64, f64)> = sqlx::query_as(
        "SELECT tps, tokens_per_s_per_gpu FROM curve_points WHERE curve = $1 ORDER BY idx",
    )
    .bind(id)
    .fetch_all(&db.pool)
    .await
    .expect("points");
    assert_eq!(points.len(), 8);
    // Slowest per user first, and each faster point gives less per GPU: a Pareto frontier.
    assert!(points
        .windows(2)
        .all(|w| w[0].0 < w[1].0 && w[0].1 > w[1].1));
    // concurrency 128: 16,736.56 tokens/s over 16 GPUs at 1000 / 14.8927 ms per token.
    let (tps, t) = points[2];
    assert!((t - 16_736.560_504_280_373 / 16.0).abs() < 1e-9);
    assert!((tps - 1000.0 / 14.892_716_348_905_914).abs() < 1e-9);
    let source: (String, String) = sqlx::query_as("SELECT title, date FROM sources WHERE key = $1")
        .bind(id)
        .fetch_one(&db.pool)
        .await
        .expect("source");
    assert!(source
        .0
        .contains("concurrency_128_req_rate_inf_gpus_16_ctx_8_gen_8.json"));
    assert_eq!(source.1, "2026-04-28");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dominated_points_are_left_out() {
    let (_app, db, _store) = app_with_store().await;
    let dir = std::env::temp_dir().join(format!("servecost-frontier-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let row = |conc: u32, intvty: f64, tput: f64| {
        serde_json::json!({
            "hw": "mi355x", "model": "moonshotai/Kimi-K2.5", "infmax_model_prefix": "kimik2.5",
            "framework": "vllm", "precision": "int4", "isl": 1024, "osl": 1024, "tp": 8, "ep": 1,
            "conc": conc, "median_intvty": intvty, "tput_per_gpu": tput
        })
    };
    // The third row is slower per user and less productive per GPU than the second.
    let rows = serde_json::json!([
        row(4, 60.0, 50.0),
        row(16, 40.0, 150.0),
        row(8, 35.0, 120.0)
    ]);
    let file = dir.join("agg_rows.json");
    std::fs::write(&file, rows.to_string()).expect("write");
    let outcome = import(&db, &[file.display().to_string()], Options::default())
        .await
        .expect("import");
    assert!(
        outcome.notes.iter().any(|n| n.contains("kept 2 of 3")),
        "{outcome}"
    );
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM curve_points WHERE revision = $1")
        .bind(SEEDED + 1)
        .fetch_one(&db.pool)
        .await
        .expect("count");
    assert_eq!(n, 2);
    let _ = std::fs::remove_dir_all(dir);
}

/// A processed row of a disaggregated run counts both pools' GPUs; rows from before the
/// input/output split (no `input_tput_per_gpu`) import all the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disaggregated_rows_count_both_pools() {
    let (_app, db, _store) = app_with_store().await;
    let dir = std::env::temp_dir().join(format!("servecost-disagg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let row = serde_json::json!({
        "hw": "gb300", "model": "deepseek-ai/DeepSeek-R1", "infmax_model_prefix": "dsr1",
        "framework": "dynamo-trt", "precision": "fp4", "isl": 8192, "osl": 1024,
        "disagg": true, "is_multinode": true, "prefill_tp": 4, "decode_tp": 8,
        "num_prefill_gpu": 12, "num_decode_gpu": 8, "tp": 8, "ep": 8,
        "conc": 256, "median_intvty": 30.5, "tput_per_gpu": 2100.0
    });
    let file = dir.join("agg_dsr1_disagg.json");
    std::fs::write(&file, row.to_string()).expect("write");
    let outcome = import(&db, &[file.display().to_string()], Options::default())
        .await
        .expect("import");
    let id = &outcome
        .changes
        .iter()
        .find(|c| c.kind == "curve")
        .expect("curve")
        .key;
    assert!(id.contains("12p-8d"), "{id}");
    let (gpus, uncached, output): (f64, f64, f64) =
        sqlx::query_as("SELECT replica_gpus, mix_uncached, mix_output FROM curves WHERE id = $1")
            .bind(id)
            .fetch_one(&db.pool)
            .await
            .expect("curve");
    assert_eq!((gpus, uncached, output), (20.0, 8192.0, 1024.0));
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn raw_files_need_the_hardware() {
    let (_app, db, _store) = app_with_store().await;
    let files = files_in(&samples().join("inferencex_raw_multinode/minimax-m2.5"));
    let problems = import(&db, &files, Options::default())
        .await
        .expect_err("refused");
    assert_eq!(problems.len(), files.len());
    assert!(problems
        .iter()
        .all(|p| p.field == "hardware" && p.problem.contains("--hardware")));
    let unknown = Options {
        hardware: Some("tpu9".into()),
        ..Options::default()
    };
    let problems = import(&db, &files, unknown)
        .await
        .expect_err("unknown chip");
    assert!(
        problems[0].problem.contains("\"tpu9\" is not a chip"),
        "{problems:?}"
    );
    assert_eq!(revisions(&db).await, SEEDED, "nothing was written");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_example_files_import_and_a_second_run_changes_nothing() {
    let (app, db, store) = app_with_store().await;
    let csv: Vec<String> = [
        "sources.csv",
        "models.csv",
        "model_weights.csv",
        "chips.csv",
        "price_tiers.csv",
        "api_offers.csv",
        "curves.csv",
        "curve_points.csv",
    ]
    .iter()
    .map(|f| example(f))
    .collect();
    let dry = Options {
        dry_run: true,
        ..Options::default()
    };
    let preview = import(&db, &csv, dry).await.expect("dry run");
    assert!(preview.revision.is_none());
    assert!(!preview.changes.is_empty());
    assert!(preview.to_string().contains("Dry run"));
    assert_eq!(revisions(&db).await, SEEDED, "a dry run writes nothing");

    let written = import(&db, &csv, Options::default()).await.expect("csv");
    assert_eq!(written.revision, Some(SEEDED + 1));
    assert_eq!(
        written.changes, preview.changes,
        "the dry run said what would change"
    );
    let again = import(&db, &csv, Options::default()).await.expect("again");
    assert_eq!(again.revision, None);
    assert!(again.changes.is_empty(), "{again}");
    assert_eq!(revisions(&db).await, SEEDED + 1);

    // The JSON example brings the same rows: nothing changes either.
    let same = import(&db, &[example("dataset.json")], Options::default())
        .await
        .expect("json");
    assert!(same.changes.is_empty(), "{same}");

    // The imported curve, chip tier and offer are usable in the calculator.
    store.reload().await.expect("reload");
    let report = json(
        &app,
        "/api/v1/evaluate?model=example-8b&curve=example-8b-l40s-fp8&tps=40",
        StatusCode::OK,
    )
    .await;
    assert_eq!(report["dataset_revision"], SEEDED + 1);
    assert_eq!(report["inputs"]["api"], "example-8b-api");
    assert_eq!(report["inputs"]["chip"], "l40s");
    // The tiers carry the commitment their columns give: the default is on demand, so hourly
    // scaling is allowed on it and refused on the reservation.
    assert_eq!(report["inputs"]["gpu_kind"], "on_demand");
    let base = "/api/v1/evaluate?model=example-8b&curve=example-8b-l40s-fp8&tps=40&scaling=hourly";
    json(&app, base, StatusCode::OK).await;
    let refused = json(
        &app,
        &format!("{base}&gpu_tier=reserved"),
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(refused["problems"][0]["param"], "scaling");
    let page = json(&app, "/api/v1/dataset", StatusCode::OK).await;
    assert_eq!(page["revision"], SEEDED + 1);
    // /data lists both revisions with their files, and rows say which revision brought them.
    let html = body_text(get(&app, "/data").await).await;
    let rev = format!(r#"id="rev-{}""#, SEEDED + 1);
    assert!(html.contains(&rev) && html.contains(r#"id="rev-1""#));
    let at = html.find(&rev).expect("the import's revision");
    let row = &html[at..at + html[at..].find("</tr>").expect("row end")];
    assert!(row.contains("<code>curve_points.csv"), "{row}");
    assert!(row.contains("Imported 8 files"), "{row}");
    assert!(row.contains("curve example-8b-l40s-fp8"), "{row}");
    let model_page = body_text(get(&app, "/data?model=example-8b").await).await;
    let curve = model_page
        .split(r#"id="curve-example-8b-l40s-fp8""#)
        .nth(1)
        .expect("the imported curve is listed");
    assert!(
        curve[..curve.find("</article>").expect("end")].contains(&format!("rev. {}", SEEDED + 1))
    );
    let published = html
        .split(r#"id="curve-inferencex-b300-fp4""#)
        .nth(1)
        .expect("the published curve is listed");
    assert!(published[..published.find("</article>").expect("end")].contains("rev. 1"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_files_name_the_file_line_and_field_and_change_nothing() {
    let (_app, db, _store) = app_with_store().await;
    let dir = std::env::temp_dir().join(format!("servecost-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write");
        path.display().to_string()
    };
    let offers = write(
        "offers.csv",
        "id,model,name,price_in,price_out,source\n\
         cheap,muse-spark-open,Cheap,0.5,2,aa-model-page\n\
         broken,muse-spark-open,Broken,-1,2,aa-model-page\n\
         nan,muse-spark-open,NaN,abc,2,aa-model-page\n",
    );
    let problems = import(&db, std::slice::from_ref(&offers), Options::default())
        .await
        .expect_err("bad");
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert_eq!(
        (problems[0].at.as_str(), problems[0].field.as_str()),
        ("line 3", "price_in")
    );
    assert!(problems[0].problem.contains("out of range"));
    assert_eq!(
        (problems[1].at.as_str(), problems[1].field.as_str()),
        ("line 4", "price_in")
    );
    assert!(problems[0].to_string().starts_with(&offers));

    // A good file beside a bad one: nothing of either is written.
    let good = write(
        "good.json",
        r#"{"api_offers": [{"id": "fine", "model": "muse-spark-open", "name": "Fine",
            "price_in": 1, "price_out": 3, "source": "aa-model-page"}]}"#,
    );
    let unknown = write(
        "unknown.json",
        r#"{"api_offers": [{"id": "lost", "model": "no-such-model", "name": "Lost",
            "price_in": 1, "price_out": 3, "source": "aa-model-page"}]}"#,
    );
    let problems = import(&db, &[good, unknown.clone()], Options::default())
        .await
        .expect_err("bad");
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].file, unknown);
    assert_eq!(problems[0].field, "model");
    let typo = write(
        "typo.json",
        "{\"api_offers\": [{\"id\": \"x\", \"model\": \"muse-spark-open\", \"name\": \"X\",\n \"pricein\": 1}]}",
    );
    let problems = import(&db, &[typo], Options::default())
        .await
        .expect_err("typo");
    assert!(problems[0].at.starts_with("line 2"), "{problems:?}");
    assert!(problems[0].problem.contains("pricein"));
    let header = write("what.csv", "a,b\n1,2\n");
    let problems = import(&db, &[header], Options::default())
        .await
        .expect_err("header");
    assert!(problems[0]
        .problem
        .contains("not that of a servecost table"));
    let points = write(
        "points.csv",
        "curve,tps,tokens_per_s_per_gpu\ninferencex-b300-fp4,10,100\n",
    );
    let problems = import(&db, &[points], Options::default())
        .await
        .expect_err("orphan");
    assert!(problems[0]
        .problem
        .contains("imported together with the curve"));
    assert_eq!(revisions(&db).await, SEEDED, "nothing was written");
    let _ = std::fs::remove_dir_all(dir);
}

/// An import that would leave the calculator without an answer for its default scenario is
/// refused: here the default curve, with three zeros too many, contradicts the prefill rate.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_import_that_breaks_the_default_scenario_is_refused() {
    let (_app, db, _store) = app_with_store().await;
    let dir = std::env::temp_dir().join(format!("servecost-default-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("slow-curve.json");
    let doc = serde_json::json!({
        "curves": [{
            "id": "inferencex-b300-fp4", "model": "muse-spark-open", "chip": "b300",
            "precision": "fp4", "framework": "not stated", "replica_gpus": 4,
            "mix_uncached": 810, "mix_cached": 26190, "mix_output": 180, "mix_stated": false,
            "source": "inferencex"
        }],
        "curve_points": [
            {"curve": "inferencex-b300-fp4", "tps": 50, "tokens_per_s_per_gpu": 9.0e8},
            {"curve": "inferencex-b300-fp4", "tps": 250, "tokens_per_s_per_gpu": 8.0e8}
        ]
    });
    std::fs::write(&file, doc.to_string()).expect("write");
    let problems = import(&db, &[file.display().to_string()], Options::default())
        .await
        .expect_err("refused");
    assert!(
        problems[0]
            .problem
            .contains("default scenario would have no answer"),
        "{problems:?}"
    );
    assert_eq!(revisions(&db).await, SEEDED, "nothing was written");
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn price_tables_import_as_api_offers() {
    let (app, db, store) = app_with_store().await;
    let file = example("litellm-prices.json");
    let outcome = import(&db, &[file], Options::default())
        .await
        .expect("import");
    assert_eq!(outcome.revision, Some(SEEDED + 1));
    assert!(
        outcome.notes.iter().any(|n| n.contains("left out")),
        "entries for models the dataset lacks are counted: {outcome}"
    );
    store.reload().await.expect("reload");
    let offer: (f64, f64, f64, Option<f64>, String) = sqlx::query_as(
        "SELECT price_in, price_out, cache_discount, batch_discount, model FROM api_offers WHERE id = 'litellm-example-provider-muse-spark-open'",
    )
    .fetch_one(&db.pool)
    .await
    .expect("offer");
    // 1.1e-6 and 4e-6 $ per token, cached at 1.1e-7: $1.10 / $4.00 per million, 90 % off; in
    // batches at 5.5e-7 and 2e-6, half price.
    assert_eq!(
        offer,
        (1.1, 4.0, 0.9, Some(0.5), "muse-spark-open".to_owned())
    );
    // A table without batch prices states none.
    let other: Option<f64> = sqlx::query_scalar(
        "SELECT batch_discount FROM api_offers WHERE id = 'muse-spark-open-api' ORDER BY revision DESC LIMIT 1",
    )
    .fetch_one(&db.pool)
    .await
    .expect("the published offer");
    assert_eq!(other, None);
    // 40 % of the tokens sent as batch at half price: the rent at 80 %.
    let report = json(
        &app,
        "/api/v1/evaluate?api=litellm-example-provider-muse-spark-open&input=1M&cached=0&output=0&batch=40%25",
        StatusCode::OK,
    )
    .await;
    assert!((report["rent"]["monthly_usd"].as_f64().expect("rent") - 1.1 * 0.8).abs() < 1e-9);
    assert_eq!(report["batch"]["discount"], 0.5);
    let report = json(
        &app,
        "/api/v1/evaluate?api=litellm-example-provider-muse-spark-open&input=1M&cached=0&output=0",
        StatusCode::OK,
    )
    .await;
    assert!((report["rent"]["monthly_usd"].as_f64().expect("rent") - 1.1).abs() < 1e-9);
}

/// An llm-prices vendor file: the current price of each model becomes an API offer, its earlier
/// prices in the note; entries of models the dataset lacks are counted and left out; a price
/// that is not one is named by its path.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_llm_prices_file_imports_its_current_prices() {
    let (_app, db, _store) = app_with_store().await;
    let file = example("llm-prices-example.json");
    let outcome = import(&db, std::slice::from_ref(&file), Options::default())
        .await
        .expect("import");
    assert_eq!(outcome.revision, Some(SEEDED + 1));
    assert!(
        outcome.notes.iter().any(|n| n.contains("left out")),
        "{outcome}"
    );
    let offer: (f64, f64, f64, String, String) = sqlx::query_as(
        "SELECT price_in, price_out, cache_discount, note, source FROM api_offers WHERE id = 'llm-prices-example-vendor-muse-spark-open'",
    )
    .fetch_one(&db.pool)
    .await
    .expect("offer");
    // $1.20 / $4.00 per million from 2026-09-01, cached at $0.12: 90 % off.
    assert_eq!((offer.0, offer.1, offer.2), (1.2, 4.0, 0.9));
    assert!(offer.3.contains("Price from 2026-09-01."), "{}", offer.3);
    assert!(
        offer
            .3
            .contains("Earlier $1.50 in / $5.00 out per million, until 2026-09-01."),
        "{}",
        offer.3
    );
    assert_eq!(offer.4, "llm-prices-llm-prices-example");
    let dir = std::env::temp_dir().join(format!("servecost-llm-prices-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let bad = dir.join("vendor.json");
    let text = std::fs::read_to_string(&file).expect("example");
    std::fs::write(
        &bad,
        text.replacen("\"output\": 4.0", "\"output\": \"four\"", 1),
    )
    .expect("write");
    let problems = import(&db, &[bad.display().to_string()], Options::default())
        .await
        .expect_err("refused");
    assert_eq!(problems[0].at, "models[0].price_history[0]");
    assert_eq!(problems[0].field, "output");
    assert_eq!(revisions(&db).await, SEEDED + 1);
    std::fs::remove_dir_all(&dir).ok();
}

/// A cloud's GPU rental table (SkyPilot's catalogue columns): each instance type's on-demand
/// and spot prices become price tiers of the dataset chip, per GPU; regions at one price are
/// one tier; without the provider and the day nothing is written; a bad cell is named.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gpu_rental_table_imports_as_price_tiers_per_gpu() {
    let (_app, db, _store) = app_with_store().await;
    let file = example("gpu-rental-nebius.csv");
    let problems = import(&db, std::slice::from_ref(&file), Options::default())
        .await
        .expect_err("no provider");
    assert!(problems[0].problem.contains("--provider"), "{problems:?}");
    assert_eq!(revisions(&db).await, SEEDED, "nothing written");
    let opts = Options {
        provider: Some("Nebius".into()),
        date: Some("2026-11-20".into()),
        ..Options::default()
    };
    let outcome = import(&db, std::slice::from_ref(&file), opts.clone())
        .await
        .expect("import");
    assert_eq!(outcome.revision, Some(SEEDED + 1));
    let tiers: Vec<(String, String, f64, Option<String>, String)> = sqlx::query_as(
        "SELECT chip, tier, usd_per_gpu_hour, kind, label FROM price_tiers WHERE source = 'rental-nebius-2026-11-20' ORDER BY chip, tier",
    )
    .fetch_all(&db.pool)
    .await
    .expect("tiers");
    // The table's nine rows: two H100 and two H200 instance types, each on demand and spot (the
    // H200's three regions at one price are one tier), and one B200 on demand only.
    assert_eq!(tiers.len(), 9, "{tiers:#?}");
    let price = |tier: &str| {
        tiers
            .iter()
            .find(|t| t.1 == tier)
            .map(|t| t.2)
            .unwrap_or_else(|| panic!("{tier} in {tiers:#?}"))
    };
    // $ per instance-hour over the instance's GPUs: 23.60 / 8, 10.00 / 8, 44.00 / 8.
    assert_eq!(
        price("nebius-gpu-h100-sxm_8gpu-128vcpu-1600gb-on_demand"),
        2.95
    );
    assert_eq!(price("nebius-gpu-h100-sxm_8gpu-128vcpu-1600gb-spot"), 1.25);
    assert_eq!(price("nebius-gpu-h200-sxm_1gpu-16vcpu-200gb-spot"), 1.45);
    assert_eq!(
        price("nebius-gpu-b200-sxm_8gpu-160vcpu-1792gb-on_demand"),
        5.5
    );
    let h200 = tiers
        .iter()
        .find(|t| t.1 == "nebius-gpu-h200-sxm_8gpu-128vcpu-1600gb-on_demand")
        .expect("h200");
    assert_eq!(h200.3.as_deref(), Some("on_demand"));
    assert!(h200.4.contains("3 regions"), "{}", h200.4);
    // The same table again changes nothing.
    let again = import(&db, std::slice::from_ref(&file), opts.clone())
        .await
        .expect("again");
    assert_eq!(again.revision, None);
    // A price that is not one is named by line and column, and nothing is written.
    let dir = std::env::temp_dir().join(format!("servecost-rental-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let bad = dir.join("vms.csv");
    let text = std::fs::read_to_string(&file).expect("example");
    std::fs::write(&bad, text.replacen(",23.60,", ",lots,", 1)).expect("write");
    let problems = import(&db, &[bad.display().to_string()], opts)
        .await
        .expect_err("refused");
    assert_eq!(problems[0].field, "Price");
    assert_eq!(problems[0].at, "line 3");
    assert_eq!(revisions(&db).await, SEEDED + 1);
    std::fs::remove_dir_all(&dir).ok();
}

/// Defect 8 of the outside test: no file-size cap (`/dev/zero` read 2.1 GB), a 1.2 M-point curve
/// imported and then went into every page, and JSON type errors named a line but not the field.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn imports_are_bounded_and_name_the_field() {
    let (_app, db, _store) = app_with_store().await;
    let dir = std::env::temp_dir().join(format!("servecost-bounded-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let write = |name: &str, text: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write");
        path.display().to_string()
    };

    // A device that never ends is read up to the cap, then refused.
    if Path::new("/dev/zero").exists() {
        let problems = import(&db, &["/dev/zero".to_owned()], Options::default())
            .await
            .expect_err("endless");
        assert!(
            problems[0].problem.contains("larger than 16 MiB"),
            "{problems:?}"
        );
    }
    let big = write("big.json", &vec![b' '; 17 * 1024 * 1024]);
    let problems = import(&db, &[big], Options::default())
        .await
        .expect_err("too big");
    assert!(problems[0].problem.contains("16 MiB"), "{problems:?}");

    // A curve of 1,001 points.
    let mut points = String::from("curve,tps,tokens_per_s_per_gpu,usd_per_mtok,note\n");
    for i in 0..1_001 {
        points.push_str(&format!(
            "huge,{},{},,\n",
            1.0 + f64::from(i),
            100_000.0 - f64::from(i)
        ));
    }
    let curve = write(
        "curves.csv",
        b"id,model,chip,precision,framework,replica_gpus,mix_uncached,mix_cached,mix_output,mix_stated,price_basis_usd,source,note\n\
          huge,muse-spark-open,b300,fp4,vLLM,8,1,0,1,true,,inferencex,\n",
    );
    let pts = write("curve_points.csv", points.as_bytes());
    let problems = import(&db, &[curve, pts], Options::default())
        .await
        .expect_err("too many points");
    assert!(
        problems
            .iter()
            .any(|p| p.field == "curve_points" && p.problem.contains("at most 1000")),
        "{problems:?}"
    );

    // A JSON type error names the field, not only the line.
    let typed = write(
        "typed.json",
        br#"{"api_offers": [{"id": "x", "model": "muse-spark-open", "name": "X",
            "price_in": "cheap", "price_out": 3, "source": "aa-model-page"}]}"#,
    );
    let problems = import(&db, &[typed], Options::default())
        .await
        .expect_err("type error");
    assert_eq!(problems[0].field, "api_offers[0].price_in", "{problems:?}");
    assert_eq!(revisions(&db).await, SEEDED, "nothing was written");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A one-connection-at-a-time HTTP server on loopback for `requests` requests: each gets
/// `response` (status line, headers and body) after `delay`.
fn serve_raw(response: Vec<u8>, delay: std::time::Duration, requests: usize) -> String {
    use std::io::{Read as _, Write as _};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(requests) {
            let Ok(mut stream) = stream else { continue };
            let mut head = [0u8; 4096];
            let _ = stream.read(&mut head);
            std::thread::sleep(delay);
            let _ = stream.write_all(&response);
        }
    });
    format!("http://127.0.0.1:{port}")
}

/// [`serve_raw`] answering 200 with `body` as `application/json`.
fn serve(body: Vec<u8>, delay: std::time::Duration, requests: usize) -> String {
    let mut response = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    response.extend(body);
    serve_raw(response, delay, requests)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_price_table_imports_from_an_address() {
    let (_app, db, _store) = app_with_store().await;
    let table = std::fs::read(example("litellm-prices.json")).expect("example");
    let base = serve(table, std::time::Duration::ZERO, 1);
    let url = format!("{base}/model_prices.json");
    let with_token = format!("{url}?token=secret");
    let outcome = import(&db, std::slice::from_ref(&with_token), Options::default())
        .await
        .expect("import");
    assert_eq!(outcome.revision, Some(SEEDED + 1));
    // The revision says where its rows came from, and when.
    let files: String =
        sqlx::query_scalar("SELECT source_files FROM dataset_revisions WHERE id = $1")
            .bind(SEEDED + 1)
            .fetch_one(&db.pool)
            .await
            .expect("revision");
    assert!(files.starts_with(&format!("{url} (fetched 20")), "{files}");
    assert!(
        files.trim_end().ends_with("Z, its query left out)") && !files.contains("secret"),
        "{files}"
    );
    let offer: f64 = sqlx::query_scalar(
        "SELECT price_in FROM api_offers WHERE id = 'litellm-example-provider-muse-spark-open'",
    )
    .fetch_one(&db.pool)
    .await
    .expect("offer");
    assert_eq!(offer, 1.1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_that_is_slow_large_unknown_or_plain_http_elsewhere_changes_nothing() {
    let (_app, db, _store) = app_with_store().await;
    let before = revisions(&db).await;
    // Each address is refused with its reason, and nothing is written.
    let refused = |url: String, opts: Options, says: &'static str| {
        let db = &db;
        async move {
            let problems = import(db, &[url], opts).await.expect_err(says);
            assert!(
                problems.iter().any(|p| p.problem.contains(says)),
                "{says}: {problems:?}"
            );
        }
    };
    let now = std::time::Duration::ZERO;
    // Slower than the timeout.
    let slow = serve(b"{}".to_vec(), std::time::Duration::from_secs(3), 1);
    let quick = Options {
        timeout: Some(std::time::Duration::from_millis(500)),
        ..Options::default()
    };
    refused(
        format!("{slow}/prices.json"),
        quick,
        "did not arrive within 0.5 s",
    )
    .await;
    // Over the size of one file.
    let big = vec![b' '; usize::try_from(data::import::MAX_FILE_BYTES).expect("size") + 1];
    let large = serve(big, now, 1);
    refused(
        format!("{large}/prices.json"),
        Options::default(),
        "is larger than 16 MiB",
    )
    .await;
    // Not a format servecost imports.
    let other = serve(br#"{"hello": "world"}"#.to_vec(), now, 1);
    refused(
        format!("{other}/hello.json"),
        Options::default(),
        "not a format servecost imports",
    )
    .await;
    // Plain http from another machine is refused before any connection.
    let elsewhere = "http://prices.example.com/table.json";
    refused(elsewhere.to_owned(), Options::default(), "use https://").await;
    // A plain-http address is never redirected (here to another machine).
    let redirect = serve_raw(
        format!(
            "HTTP/1.1 302 Found\r\nlocation: {elsewhere}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
        )
        .into_bytes(),
        now,
        1,
    );
    refused(
        format!("{redirect}/table.json"),
        Options::default(),
        "never redirected",
    )
    .await;
    // Credentials would be shown on /data with the address.
    refused(
        "https://user:secret@prices.example.com/table.json".to_owned(),
        Options::default(),
        "holds a user name or password",
    )
    .await;
    // Nothing answers there.
    refused(
        "http://127.0.0.1:9/none.json".to_owned(),
        Options::default(),
        "cannot be fetched",
    )
    .await;
    assert_eq!(revisions(&db).await, before, "nothing was written");
}

/// A curve whose replica cannot hold its model's weights is refused, naming both sizes, and
/// nothing is written.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replica_that_cannot_hold_the_weights_is_refused() {
    let (_app, db, _store) = app_with_store().await;
    let dir = std::env::temp_dir().join(format!("servecost-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("one-gpu.json");
    // Muse Spark Open's FP4 weights are 537 GB; one B300 holds 288 GB.
    let doc = serde_json::json!({
        "curves": [{
            "id": "one-b300-fp4", "model": "muse-spark-open", "chip": "b300",
            "precision": "fp4", "framework": "not stated", "replica_gpus": 1,
            "mix_uncached": 1, "mix_cached": 0, "mix_output": 1, "mix_stated": true,
            "source": "inferencex"
        }],
        "curve_points": [
            {"curve": "one-b300-fp4", "tps": 50, "tokens_per_s_per_gpu": 9000},
            {"curve": "one-b300-fp4", "tps": 250, "tokens_per_s_per_gpu": 2000}
        ]
    });
    std::fs::write(&file, doc.to_string()).expect("write");
    let problems = import(&db, &[file.display().to_string()], Options::default())
        .await
        .expect_err("refused");
    let words = problems[0].to_string();
    assert!(words.contains("replica_gpus"), "{words}");
    assert!(words.contains("288 GB"), "{words}");
    assert!(words.contains("537 GB"), "{words}");
    assert_eq!(revisions(&db).await, SEEDED, "nothing was written");
    let _ = std::fs::remove_dir_all(dir);
}
