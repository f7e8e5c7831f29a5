//! The sizing revision (revision 5) over the whole dataset: every curve's replica holds its
//! model's weights and is no larger than twice the least power of two that does unless its
//! source states the larger size; the MLPerf curves' replicas are their submitters'
//! configurations wherever the revision's files hold one; and a workload at a benchmark's own
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_replica_holds_its_weights_and_is_sized_as_deployed() {
    let db = fresh_db().await;
    let data = app::db::load_dataset(&db.pool, SEEDED)
        .await
        .expect("dataset");
    // The submitters' configurations the revision's files hold: path -> GPUs a replica.
    let text = std::fs::read_to_string("dataset/sizing/mlperf/parallelism-v5.1.csv").expect("csv");
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let configs: BTreeMap<String, f64> = reader
        .records()
        .map(|r| r.expect("row"))
        .filter_map(|r| {
            let tp: f64 = r[5].parse().ok()?;
            let pp: f64 = r[6].parse().ok()?;
            Some((r[0].to_owned(), tp * pp))
        })
        .collect();
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
        if let Some((path, g)) = configs
            .iter()
            .find(|(path, _)| basis.contains(path.as_str()))
        {
            assert_eq!(c.replica_gpus, *g, "{}: {path}", c.id);
            from_configs += 1;
        }
    }
    assert!(
        from_configs >= 2,
        "{from_configs} curves sized by configurations"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_workload_at_the_benchmark_s_mix_costs_what_mlperf_measured() {
    let db = fresh_db().await;
    let data = app::db::load_dataset(&db.pool, SEEDED)
        .await
        .expect("dataset");
    let text = std::fs::read_to_string("dataset/open-models/mlperf/summary.csv").expect("csv");
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .expect("header")
        .iter()
        .map(str::to_owned)
        .collect();
    let col = |name: &str| header.iter().position(|h| h == name).expect(name);
    let by_line: BTreeMap<usize, csv::StringRecord> = reader
        .records()
        .enumerate()
        .map(|(i, r)| (i + 2, r.expect("row")))
        .collect();
    let gpu_hour = 3.0;
    let mut checked = 0;
    for c in data.curves.iter().filter(|c| c.id.starts_with("mlperf-")) {
        let prefill = c.prefill.unwrap_or_else(|| panic!("{}: no P", c.id));
        assert!(!c.mix_stated && c.input_share_bounds.is_some(), "{}", c.id);
        for (p, note) in c.points.iter().zip(&c.point_sources) {
            let row = &by_line[&line_of(note)];
            let result: f64 = row[col("Result")].parse().expect("Result");
            let accelerators: f64 = row[col("total_accelerators")].parse().expect("GPUs");
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
