//! The sizing revisions (5, and 6 with the v6.1 configurations) over the whole dataset: every curve's replica holds its
//! model's weights and is no larger than twice the least power of two that does unless its
//! source states the larger size; the MLPerf curves' replicas are their submitters'
//! configurations wherever the revisions' tables hold one (the newest round first); and a workload at a benchmark's own
//! mix, at full use, costs the GPU-hour price over the rate MLPerf measured (its output
//! tokens/s per accelerator, read again here from the summary), within 1 %.

use std::collections::BTreeMap;

use crate::common::{fresh_db, SEEDED};

/// `... (summary.csv, line 12; ...)` as 12.
fn line_of(note: &str) -> usize {
    let at = note.find("line ").expect("the note names the line") + 5;
    note[at..]
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a line number")
}

/// The summary's rows by line (the header is line 1), and its column of `name`.
struct Summary {
    header: Vec<String>,
    by_line: BTreeMap<usize, csv::StringRecord>,
}

impl Summary {
    fn read() -> Self {
        let text = std::fs::read_to_string("dataset/open-models/mlperf/summary.csv").expect("csv");
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let header = reader
            .headers()
            .expect("header")
            .iter()
            .map(str::to_owned)
            .collect();
        let by_line = reader
            .records()
            .enumerate()
            .map(|(i, r)| (i + 2, r.expect("row")))
            .collect();
        Self { header, by_line }
    }

    fn get<'a>(&'a self, line: usize, name: &str) -> &'a str {
        let col = self.header.iter().position(|h| h == name).expect(name);
        &self.by_line[&line][col]
    }
}

/// A submitter's configuration from the revisions' tables: who, which system and benchmark,
/// its scenario, the table's rank (the newer MLPerf round first) and GPUs a replica.
struct Config {
    path: String,
    submitter: String,
    system: String,
    benchmark: String,
    server: bool,
    rank: usize,
    gpus: f64,
}

/// Every configuration with a tensor and a pipeline size the tables state (an empty pipeline
/// is 1), newest round first.
fn configs() -> Vec<Config> {
    let tables = [
        "dataset/v6.1-configs/parallelism-v6.1.csv",
        "dataset/sizing/mlperf/parallelism-v5.1.csv",
    ];
    let mut out = Vec::new();
    for (rank, table) in tables.iter().enumerate() {
        let text = std::fs::read_to_string(table).expect("csv");
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        for r in reader.records().map(|r| r.expect("row")) {
            let Ok(tp) = r[5].parse::<f64>() else {
                continue;
            };
            let pp = if r[6].is_empty() {
                Some(1.0)
            } else {
                r[6].parse::<f64>().ok()
            };
            let Some(pp) = pp else { continue };
            out.push(Config {
                path: r[0].to_owned(),
                submitter: r[1].to_owned(),
                system: r[2].to_owned(),
                benchmark: r[4].to_owned(),
                server: &r[3] == "Server",
                rank,
                gpus: tp * pp,
            });
        }
    }
    out
}

/// A benchmark's name without its accuracy target and separators: `llama3_1-8b` and
/// `llama3.1-8b-99.9` are one.
fn bare(b: &str) -> String {
    let b = b
        .strip_suffix("-99.9")
        .or_else(|| b.strip_suffix("-99"))
        .unwrap_or(b);
    b.chars().filter(|c| c.is_ascii_alphanumeric()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_replica_holds_its_weights_and_is_sized_as_deployed() {
    let db = fresh_db().await;
    let data = data::load_dataset(&db.pool, SEEDED).await.expect("dataset");
    let summary = Summary::read();
    let configs = configs();
    let mut from_configs = 0;
    for c in &data.curves {
        if c.replica_basis.is_none() {
            // Curves of the first revisions (the published figures) keep their sizes.
            continue;
        }
        let model = data.models.iter().find(|m| m.id == c.model).expect("model");
        let chip = data.chips.iter().find(|h| h.id == c.chip).expect("chip");
        let weights = model
            .weights_at(Some(&c.precision))
            .unwrap_or_else(|| panic!("{}: no weights of {}", c.id, c.model));
        assert!(
            c.replica_gpus * chip.memory_gb >= weights.gigabytes,
            "{}: {} × {} GB cannot hold {} GB",
            c.id,
            c.replica_gpus,
            chip.memory_gb,
            weights.gigabytes
        );
        let least = (0..12)
            .map(|k| f64::from(1u32 << k))
            .find(|g| g * chip.memory_gb >= weights.gigabytes)
            .expect("a power of two holds them");
        let basis = c.replica_basis.as_deref().unwrap_or_default();
        let stated = basis.contains("the submitter's configuration of the system")
            || basis.contains("the run's parallelism");
        assert!(
            c.replica_gpus <= 2.0 * least || stated,
            "{}: {} GPUs a replica where {least} hold the weights, and no source states it: {basis}",
            c.id,
            c.replica_gpus
        );
        if !c.id.starts_with("mlperf-") {
            continue;
        }
        // The system the curve reads, from the summary's own row: where a table configures
        // it (the newest round first, its Server scenario first), the replica is that size and
        // the basis names the file.
        let line = line_of(&c.point_sources[0]);
        let (submitter, platform, bench) = (
            summary.get(line, "Organization"),
            summary.get(line, "Platform"),
            summary.get(line, "MlperfModel"),
        );
        let mut matching: Vec<&Config> = configs
            .iter()
            .filter(|k| {
                k.submitter == submitter
                    && (k.system == platform || k.system == platform.trim_end_matches("_TRT"))
                    && bare(&k.benchmark) == bare(bench)
            })
            .collect();
        matching.sort_by_key(|k| (!k.server, k.rank));
        if let Some(k) = matching.first() {
            assert_eq!(
                c.replica_gpus, k.gpus,
                "{} ({submitter} {platform} {bench}): {}",
                c.id, k.path
            );
            assert!(basis.contains(&k.path), "{}: {basis}", c.id);
            from_configs += 1;
        } else {
            assert!(
                basis.contains("servecost's sizing"),
                "{}: no configuration, yet {basis}",
                c.id
            );
        }
    }
    assert!(
        from_configs >= 20,
        "{from_configs} curves sized by configurations"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_workload_at_the_benchmark_s_mix_costs_what_mlperf_measured() {
    let db = fresh_db().await;
    let data = data::load_dataset(&db.pool, SEEDED).await.expect("dataset");
    let summary = Summary::read();
    let gpu_hour = 3.0;
    let mut checked = 0;
    for c in data.curves.iter().filter(|c| c.id.starts_with("mlperf-")) {
        let prefill = c.prefill.unwrap_or_else(|| panic!("{}: no P", c.id));
        assert!(!c.mix_stated && c.input_share_bounds.is_some(), "{}", c.id);
        for (p, note) in c.points.iter().zip(&c.point_sources) {
            let line = line_of(note);
            let result: f64 = summary.get(line, "Result").parse().expect("Result");
            let accelerators: f64 = summary
                .get(line, "total_accelerators")
                .parse()
                .expect("GPUs");
            let measured = result / accelerators;
            let g = servecost::gpu_time::GpuTime::derive(
                p.tokens_per_s_per_gpu,
                &c.mix,
                prefill,
                servecost::scenario::defaults::CACHE_COST,
            )
            .unwrap_or_else(|e| panic!("{}: P {prefill} does not hold: {e:?}", c.id));
            // A million output tokens at the benchmark's mix bring input in its proportion.
            let per_output = c.mix.uncached / c.mix.output;
            let [input, _, output] = g.usd_per_mtok(gpu_hour);
            let cost = output + per_output * input;
            let implied = gpu_hour / 3600.0 / measured * 1e6;
            assert!(
                (cost / implied - 1.0).abs() < 0.01,
                "{} ({note}): ${cost} per million output tokens at its mix, MLPerf's rate \
                 implies ${implied}",
                c.id
            );
            checked += 1;
        }
    }
    assert!(checked >= 120, "{checked} points");
}
