//! Every figure the open models' revision brings, worked out again from its source file in
//! `server/dataset/open-models/` by this test's own reading of the file, and compared exactly:
//! MLPerf points (output tokens/s per accelerator = `Result / total_accelerators`, speed = the
//! scenario's TPOT floor), the InferenceX runs' points (throughput per GPU and speed per user
//! from the client's output, power where sampled on the replica's GPUs), every API price from
//! its table and every GPU-hour price from its catalogue row.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::fresh_db;
use serde_json::Value;
use sqlx::{AnyPool, Row};

const FILES: &str = "dataset/open-models";

/// The revision those files make (the sizing revision reads the benchmarks anew: its own test
/// is `sizing`).
const REVISION: i64 = 4;

/// A figure to a billionth, as the price readers store them.
fn billionth(v: f64) -> f64 {
    (v * 1e9).round() / 1e9
}

/// The lower-case id an import makes of a name.
fn slug(text: &str) -> String {
    data::import::slug(text)
}

async fn rows(pool: &AnyPool, sql: &str) -> Vec<sqlx::any::AnyRow> {
    sqlx::query(sql)
        .bind(REVISION)
        .fetch_all(pool)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("JSON")
}

/// `... (summary.csv, line 12; ...)` as 12.
fn line_of(note: &str) -> usize {
    let at = note.find("line ").expect("the note names the line") + 5;
    note[at..]
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a line number")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_mlperf_point_is_its_row_over_its_accelerators_at_its_tpot_floor() {
    let db = fresh_db().await;
    // The p99 TPOT limits (ms) of Server and Interactive, from LoadGen's mlperf.conf.
    let limits: BTreeMap<&str, (f64, f64)> = [
        ("llama2-70b-99.9", (200.0, 40.0)),
        ("llama2-70b-99", (200.0, 40.0)),
        ("llama3.1-8b", (100.0, 30.0)),
        ("deepseek-r1", (80.0, 15.0)),
        ("gpt-oss-120b", (80.0, 15.0)),
    ]
    .into();
    let text = std::fs::read_to_string(Path::new(FILES).join("mlperf/summary.csv")).expect("csv");
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .expect("header")
        .iter()
        .map(str::to_owned)
        .collect();
    let col = |name: &str| header.iter().position(|h| h == name).expect(name);
    // Line number (the header is line 1) -> the row.
    let by_line: BTreeMap<usize, csv::StringRecord> = reader
        .records()
        .enumerate()
        .map(|(i, r)| (i + 2, r.expect("row")))
        .collect();
    let points = rows(
        &db.pool,
        "SELECT p.tps, p.tokens_per_s_per_gpu, p.note, c.model, c.chip, c.tier FROM curve_points p \
         JOIN curves c ON c.id = p.curve AND c.revision = p.revision \
         WHERE p.revision = $1 AND c.id LIKE 'mlperf-%'",
    )
    .await;
    assert!(points.len() >= 100, "{} MLPerf points", points.len());
    for p in &points {
        let note: String = p.get("note");
        let row = &by_line[&line_of(&note)];
        let result: f64 = row[col("Result")].parse().expect("Result");
        let accelerators: f64 = row[col("total_accelerators")]
            .parse()
            .expect("accelerators");
        let tput: f64 = p.get("tokens_per_s_per_gpu");
        assert_eq!(tput, result / accelerators, "{note}");
        let (server, interactive) = limits[&row[col("MlperfModel")]];
        let tps: f64 = p.get("tps");
        let limit = match &row[col("Scenario")] {
            "Server" => server,
            "Interactive" => interactive,
            other => panic!("{other} guarantees no speed: {note}"),
        };
        assert_eq!(tps, 1000.0 / limit, "{note}");
        assert_eq!(&row[col("Division")], "closed");
        assert_eq!(&row[col("Availability")], "available");
        let chip: String = p.get("chip");
        assert!(
            row[col("accelerator_model_name")]
                .to_ascii_lowercase()
                .contains(&chip),
            "{note}"
        );
        let tier: String = p.get("tier");
        assert_eq!(tier, "audited");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_benchmark_run_point_is_its_client_output() {
    let db = fresh_db().await;
    let points = rows(
        &db.pool,
        "SELECT p.tps, p.tokens_per_s_per_gpu, p.power_w_per_gpu, p.note, c.id, c.model, \
         c.replica_gpus, c.tier FROM curve_points p \
         JOIN curves c ON c.id = p.curve AND c.revision = p.revision \
         WHERE p.revision = $1 AND (c.id LIKE 'ix-dev-%' OR c.id LIKE 'ix-slo-%')",
    )
    .await;
    assert!(points.len() >= 20, "{} points", points.len());
    let mut powered = 0;
    for p in &points {
        let (id, note): (String, String) = (p.get("id"), p.get("note"));
        let file = note.rsplit(", ").next().expect("the file");
        let (tput, tps, power): (f64, f64, Option<f64>) = (
            p.get("tokens_per_s_per_gpu"),
            p.get("tps"),
            p.get("power_w_per_gpu"),
        );
        let tier: String = p.get("tier");
        assert_eq!(tier, "experimental", "{id}");
        if id.starts_with("ix-dev-") {
            let folder = if id.contains("deepseek") {
                "dsr1-fp4"
            } else {
                "gptoss-fp4"
            };
            let v = json(
                &Path::new(FILES)
                    .join("benchmarks/together-runner")
                    .join(folder)
                    .join(file),
            );
            let gpus = v["tp"].as_f64().expect("tp");
            let m = &v["metrics"];
            assert_eq!(
                tput,
                m["total_token_throughput"].as_f64().expect("total") / gpus,
                "{note}"
            );
            assert_eq!(
                tps,
                1000.0 / m["median_tpot_ms"].as_f64().expect("tpot"),
                "{note}"
            );
            // Power sampled on the replica's own GPUs only.
            let sampled = v["gpu"]["n_gpus"].as_f64() == Some(gpus);
            let expected = sampled.then(|| v["gpu"]["mean_power_per_gpu_w"].as_f64().expect("W"));
            assert_eq!(power, expected, "{note}");
            powered += usize::from(power.is_some());
        } else {
            let model: String = p.get("model");
            let model = if model.starts_with("qwen3.5") {
                "qwen3.5"
            } else {
                model.as_str()
            };
            let v = json(
                &Path::new(FILES)
                    .join("benchmarks/decode-slo")
                    .join(model)
                    .join(file),
            );
            let gpus: f64 = p.get("replica_gpus");
            let parallel = file
                .split('_')
                .find(|s| s.starts_with("tp") || s.starts_with("tep") || s.starts_with("dep"))
                .expect("the parallelism");
            assert_eq!(
                parallel.trim_start_matches(char::is_alphabetic),
                format!("{gpus}")
            );
            let total = v["input_throughput"].as_f64().expect("in")
                + v["output_throughput"].as_f64().expect("out");
            assert_eq!(tput, total / gpus, "{note}");
            assert_eq!(
                tps,
                1.0 / v["median_tpot"].as_f64().expect("tpot"),
                "{note}"
            );
            assert_eq!(power, None);
        }
    }
    assert!(
        powered >= 3,
        "the DeepSeek-R1 runs carry their measured power"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_api_price_is_its_table_s() {
    let db = fresh_db().await;
    let offers = rows(
        &db.pool,
        "SELECT id, model, source, price_in, price_out, cache_discount, \
         CAST(CASE WHEN cache_discount_stated THEN 1 ELSE 0 END AS BIGINT) AS stated, provider \
         FROM api_offers WHERE revision = $1",
    )
    .await;
    assert!(offers.len() >= 80, "{} offers", offers.len());
    let providers: std::collections::BTreeSet<String> = offers
        .iter()
        .map(|o| o.get::<String, _>("provider"))
        .collect();
    assert!(providers.len() >= 8, "{providers:?}");
    for o in &offers {
        let (id, model, source): (String, String, String) =
            (o.get("id"), o.get("model"), o.get("source"));
        let (price_in, price_out, discount): (f64, f64, f64) = (
            o.get("price_in"),
            o.get("price_out"),
            o.get("cache_discount"),
        );
        let stated: bool = o.get::<i64, _>("stated") != 0;
        // (input, output, cached) in $ per million, as the table gives them.
        let (input, output, cached) = if source.starts_with("litellm-") {
            let table = json(&Path::new(FILES).join(format!("prices/litellm/{model}.json")));
            let (_, e) = table
                .as_object()
                .expect("object")
                .iter()
                .find(|(k, _)| format!("litellm-{}", slug(k)) == id)
                .unwrap_or_else(|| panic!("{id} is an entry of the table"));
            let per_million = |f: &str| e[f].as_f64().map(|v| billionth(v * 1e6));
            (
                per_million("input_cost_per_token").expect("input"),
                per_million("output_cost_per_token").expect("output"),
                per_million("cache_read_input_token_cost"),
            )
        } else {
            assert!(source.starts_with("genai-prices-"), "{source}");
            let table = json(&Path::new(FILES).join(format!("prices/genai-prices/{model}.json")));
            let entry = table
                .as_array()
                .expect("providers")
                .iter()
                .flat_map(|p| {
                    let pid = p["id"].as_str().expect("id").to_owned();
                    p["models"]
                        .as_array()
                        .expect("models")
                        .iter()
                        .map(move |m| (pid.clone(), m))
                })
                .find(|(pid, m)| {
                    format!(
                        "genai-prices-{}",
                        slug(&format!("{pid}/{}", m["id"].as_str().expect("id")))
                    ) == id
                })
                .unwrap_or_else(|| panic!("{id} is an entry of the table"))
                .1;
            // One price set (none of these entries holds a dated list).
            let prices = &entry["prices"];
            let base = |f: &str| {
                let v = &prices[f];
                v.get("base").unwrap_or(v).as_f64()
            };
            (
                base("input_mtok").expect("input"),
                base("output_mtok").expect("output"),
                base("cache_read_mtok"),
            )
        };
        assert_eq!(price_in, input, "{id}");
        assert_eq!(price_out, output, "{id}");
        match cached.filter(|c| *c > 0.0) {
            Some(c) => {
                assert!(stated, "{id}");
                assert_eq!(discount, billionth(1.0 - c / input), "{id}");
            }
            None => assert!(
                !stated && discount == 0.0,
                "{id}: no cached price, none assumed"
            ),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_gpu_hour_price_is_a_catalogue_row_over_its_gpus() {
    let db = fresh_db().await;
    let tiers = rows(
        &db.pool,
        "SELECT chip, tier, label, usd_per_gpu_hour, kind, provider, source FROM price_tiers \
         WHERE revision = $1",
    )
    .await;
    let providers: std::collections::BTreeSet<String> = tiers
        .iter()
        .map(|t| t.get::<String, _>("provider"))
        .collect();
    assert!(providers.len() >= 4, "{providers:?}");
    for chip in ["h100", "h200", "b200"] {
        assert!(
            tiers.iter().any(|t| t.get::<String, _>("chip") == chip),
            "{chip} has rental prices"
        );
    }
    for t in &tiers {
        let (label, provider, kind): (String, String, String) =
            (t.get("label"), t.get("provider"), t.get("kind"));
        let usd: f64 = t.get("usd_per_gpu_hour");
        let text = std::fs::read_to_string(
            Path::new(FILES).join(format!("gpu-rental/{}.csv", provider.to_ascii_lowercase())),
        )
        .expect("the provider's catalogue");
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let header: Vec<String> = reader
            .headers()
            .expect("header")
            .iter()
            .map(str::to_owned)
            .collect();
        let col = |name: &str| header.iter().position(|h| h == name).expect(name);
        let column = if kind == "spot" { "SpotPrice" } else { "Price" };
        let found = reader.records().map(|r| r.expect("row")).any(|r| {
            let instance = &r[col("InstanceType")];
            let gpus: f64 = r[col("AcceleratorCount")].parse().expect("count");
            label.starts_with(&format!("{provider} {instance}:"))
                && r[col(column)]
                    .parse::<f64>()
                    .is_ok_and(|p| billionth(p / gpus) == usd)
        });
        assert!(found, "{label}: {usd} is a row's {column} over its GPUs");
    }
}

/// Where the two price tables list one provider's listing at different prices, both offers are
/// kept, each naming the other's prices: Fireworks AI's gpt-oss-120b has its cached input at
/// $0.015 in LiteLLM's table and $0.07 in genai-prices'.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disagreeing_tables_are_both_kept_and_said() {
    let db = fresh_db().await;
    let fireworks = rows(
        &db.pool,
        "SELECT id, note, source FROM api_offers WHERE revision = $1 AND model = 'gpt-oss-120b' \
         AND provider = 'Fireworks AI' ORDER BY id",
    )
    .await;
    let notes: Vec<(String, String)> = fireworks
        .iter()
        .map(|o| (o.get::<String, _>("source"), o.get::<String, _>("note")))
        .collect();
    assert_eq!(notes.len(), 2, "{notes:?}");
    let genai = notes
        .iter()
        .find(|(s, _)| s.starts_with("genai"))
        .expect("genai");
    let litellm = notes
        .iter()
        .find(|(s, _)| s.starts_with("litellm"))
        .expect("litellm");
    assert!(
        genai.1.contains("Sources disagree") && genai.1.contains("$0.015 cached"),
        "{genai:?}"
    );
    assert!(
        litellm.1.contains("Sources disagree") && litellm.1.contains("$0.07 cached"),
        "{litellm:?}"
    );
    // Offers whose tables agree say nothing of the kind: Cerebras lists 0.35 / 0.75 in both.
    let cerebras = rows(
        &db.pool,
        "SELECT note FROM api_offers WHERE revision = $1 AND model = 'gpt-oss-120b' \
         AND provider = 'Cerebras'",
    )
    .await;
    assert_eq!(cerebras.len(), 2);
    assert!(cerebras
        .iter()
        .all(|o| !o.get::<String, _>("note").contains("Sources disagree")));
}
