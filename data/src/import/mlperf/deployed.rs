//! An MLPerf system read as deployed (`--as-deployed`): its replica as deployed, the
//! benchmark's own input counted with its output, the prefill rate its measurement holds, its
//! Offline rate, and each model's default curve.

use crate::rows::{CurveRow, PointRow, Rows};

use super::{per_accelerator, system_name, Benchmark, Row};
use crate::import::Read;
use servecost::format::gpus;

/// Marks each model's default among the curves from `from` on: the median by throughput per
/// GPU at its slowest (Server) point, of the curves the models have (all audited).
pub(super) fn mark_defaults(read: &mut Read, from: usize) {
    let first_rate = |id: &str, points: &[PointRow]| {
        points
            .iter()
            .find(|p| p.curve == id && p.idx == 0)
            .and_then(|p| p.tokens_per_s_per_gpu)
            .unwrap_or(0.0)
    };
    let models: std::collections::BTreeSet<String> = read.rows.curves[from..]
        .iter()
        .map(|c| c.model.clone())
        .collect();
    // Over every MLPerf curve of the model this import reads as deployed (several groups of
    // files each come here): one default a model.
    for model in models {
        let mut ranked: Vec<(f64, usize)> = Vec::new();
        for (i, c) in read.rows.curves.iter_mut().enumerate() {
            if c.model == model && c.prefill.is_some() && c.tier.as_deref() == Some("audited") {
                c.is_default = false;
                ranked.push((first_rate(&c.id, &read.rows.points), i));
            }
        }
        ranked.sort_by(|a, b| a.0.total_cmp(&b.0));
        if let Some(&(_, i)) = ranked.get(ranked.len().saturating_sub(1) / 2) {
            read.rows.curves[i].is_default = true;
        }
    }
}

/// The curve of a system read as deployed.
#[allow(clippy::too_many_arguments)]
pub(super) fn curve(
    id: &str,
    model: &str,
    chip: &str,
    source: &str,
    b: &Benchmark,
    first: &Row,
    organization: &str,
    platform: &str,
    bench: &str,
    d: &Deployed,
) -> CurveRow {
    let batch = d.batch.map_or(String::new(), |t| {
        format!(
            " Offline (no latency bound): {} tokens/s per GPU, the rate batch is served at.",
            servecost::format::thousands(t.round())
        )
    });
    CurveRow {
        id: id.to_owned(),
        revision: 0,
        model: model.to_owned(),
        chip: chip.to_owned(),
        precision: first.precision.clone(),
        framework: first.framework.clone(),
        replica_gpus: d.replica,
        mix_uncached: d.mix.0,
        mix_cached: 0.0,
        mix_output: d.mix.1,
        mix_stated: false,
        price_basis_usd: None,
        source: source.to_owned(),
        note: Some(format!(
            "MLPerf {bench}, {} ({} × {}). Speeds per user are the floors of the p99 TPOT \
             limits ({}), not medians. Throughput counts the benchmark's input: {} input tokens \
             a sample, assumed ({}), and {} output ({}); output tokens/s times {}. {}.{batch}",
            system_name(organization, first, platform),
            first.accelerators,
            first.accelerator,
            b.cited,
            servecost::format::thousands(d.mix.0.round()),
            d.input_words,
            servecost::format::number(d.mix.1),
            d.mix_cited,
            servecost::format::number((d.scale * 1000.0).round() / 1000.0),
            d.prefill_words,
        )),
        tier: Some("audited".into()),
        setup: Some(system_name(organization, first, platform)),
        prefill: Some(d.prefill),
        replica_basis: Some(d.basis.clone()),
        batch_tokens_per_s_per_gpu: d.batch,
        input_share_low: Some(d.input_share_bounds.0),
        input_share_high: Some(d.input_share_bounds.1),
        is_default: false,
    }
}

/// Share of the chip's dense peak a prefill reaches when servecost works out the prefill rate
/// `P` of an MLPerf curve from the chip's compute: an assumption, stated with each curve.
pub const PREFILL_MFU: f64 = 0.4;

/// The most of a measurement's GPU time servecost lets the benchmark's input take at the
/// prefill rate `P`: the rest is decoding, which every measured token needs.
pub const INPUT_TIME: f64 = 0.8;

/// An MLPerf system read as deployed: its replica, the benchmark's own mix, the prefill rate
/// its measurement holds and its Offline rate.
#[derive(Debug, Clone, PartialEq)]
pub struct Deployed {
    /// GPUs of one replica.
    pub replica: f64,
    /// Where that comes from, in a sentence.
    pub basis: String,
    /// Total tokens over output tokens of the benchmark: output rates times this are the
    /// curve's throughput.
    pub scale: f64,
    /// The benchmark's mix: input (uncached) and output parts.
    pub mix: (f64, f64),
    /// Where the mix's bounds are stated.
    pub mix_cited: &'static str,
    /// How the input a sample was bounded and assumed.
    pub input_words: String,
    /// The least and greatest share of input in the mix the bounds allow.
    pub input_share_bounds: (f64, f64),
    /// The prefill rate `P` the curve holds.
    pub prefill: f64,
    /// How `P` was worked out.
    pub prefill_words: String,
    /// Offline tokens/s per GPU at the benchmark's mix, where measured.
    pub batch: Option<f64>,
}

/// The precision's dense compute of a chip, TFLOPS: FP4 for `fp4`, `mxfp4`, `nvfp4`; FP8;
/// BF16 for `bf16` and `fp16`.
fn dense_tflops(chip: &crate::rows::ChipRow, precision: &str) -> Option<f64> {
    match precision.to_ascii_lowercase().as_str() {
        "fp4" | "mxfp4" | "nvfp4" => chip.dense_tflops_fp4,
        "fp8" => chip.dense_tflops_fp8,
        "bf16" | "fp16" => chip.dense_tflops_bf16,
        _ => None,
    }
}

/// Reads one system as deployed (see [`Deployed`]), or what it lacks to be.
#[allow(clippy::too_many_arguments)]
pub fn system(
    current: &Rows,
    read: &Read,
    organization: &str,
    platform: &str,
    bench: &str,
    b: &Benchmark,
    model: &str,
    chip: &str,
    rows: &[Row],
    speed: &[(f64, &Row)],
) -> Result<Deployed, String> {
    let what = format!("MLPerf {organization} {platform} {bench}");
    let first = speed
        .first()
        .map(|s| s.1)
        .ok_or_else(|| format!("{what}: no point"))?;
    let (longest, output, mix_cited) = b
        .tokens
        .ok_or_else(|| format!("{what}: the benchmark's token mix is not recorded"))?;
    let chip_row = current
        .chips
        .iter()
        .chain(&read.rows.chips)
        .rev()
        .find(|c| c.id == chip)
        .ok_or_else(|| format!("{what}: no chip {chip}"))?;
    // The replica: the submitter's configuration, else servecost's rule.
    // The Server scenario's configuration first: the curve's slowest point is its result.
    let mut configs: Vec<&crate::import::sizing::Config> = read
        .configs
        .iter()
        .filter(|c| c.configures(organization, platform, bench))
        .collect();
    configs.sort_by_key(|c| c.scenario != "Server");
    let config = configs
        .into_iter()
        .find_map(|c| c.replica().map(|g| (g, c)));
    let weights = current
        .weights
        .iter()
        .chain(&read.rows.weights)
        .rev()
        .find(|w| w.model == model && w.precision.eq_ignore_ascii_case(&first.precision));
    let (replica, basis) = match config {
        Some((g, c)) => (
            f64::from(g),
            format!(
                "{} a replica: the submitter's configuration of the system ({}, {})",
                gpus(f64::from(g)),
                c.words(),
                c.path
            ),
        ),
        None => {
            let weights = weights.ok_or_else(|| {
                format!(
                    "{what}: no weights of {model} at {} to size its replica by: give them in a \
                     model_weights row",
                    first.precision
                )
            })?;
            let least = crate::import::sizing::least_replica(weights.gigabytes, chip_row.memory_gb)
                .filter(|&g| f64::from(g) <= first.accelerators)
                .ok_or_else(|| {
                    format!(
                        "{what}: the least replica that holds the {} weights ({} GB) and the KV \
                         reserve is larger than the system's {} GPUs: give the submitter's \
                         configuration",
                        first.precision,
                        servecost::format::number(weights.gigabytes),
                        servecost::format::number(first.accelerators)
                    )
                })?;
            let g = f64::from(least);
            (
                g,
                format!(
                    "{} a replica: servecost's sizing, the least power of two of {} GB \
                     GPUs that holds the {} weights ({} GB) and keeps {} of the memory for \
                     the KV cache (the submitter's configuration is not in the dataset); the \
                     system's {} GPUs are {} copies at its throughput per GPU",
                    gpus(g),
                    servecost::format::number(chip_row.memory_gb),
                    first.precision,
                    servecost::format::number(weights.gigabytes),
                    servecost::format::percent(crate::import::sizing::KV_RESERVE),
                    servecost::format::number(first.accelerators),
                    servecost::format::number((first.accelerators / g * 10.0).round() / 10.0),
                ),
            )
        }
    };
    // The prefill rate: the chip's dense compute at the precision over the compute a token
    // takes (2 FLOPs per active parameter) at PREFILL_MFU of peak.
    let (active, params_cited) = b
        .active_params
        .ok_or_else(|| format!("{what}: the model's active parameters are not recorded"))?;
    let tflops = dense_tflops(chip_row, &first.precision).ok_or_else(|| {
        format!(
            "{what}: no dense {} compute of {chip} recorded to work out its prefill rate",
            first.precision
        )
    })?;
    let prefill = (tflops * 1e12 * PREFILL_MFU / (2.0 * active)).round();
    let prefill_words = format!(
        "P {} tokens/s per GPU, servecost's estimate: {} dense {} TFLOPS at {} of peak, 2 \
         FLOPs per active parameter ({} B, {params_cited})",
        servecost::format::thousands(prefill),
        servecost::format::number(tflops),
        first.precision.to_ascii_uppercase(),
        servecost::format::percent(PREFILL_MFU),
        servecost::format::number(active / 1e9)
    );
    // The input a sample: MLCommons publishes the longest prompt, not the mean. At most the
    // longest, and at most what leaves the measurement time to decode at P (input taking
    // INPUT_TIME of the measured time at the busiest point); servecost assumes half of that.
    let busiest = speed
        .iter()
        .map(|(_, r)| per_accelerator(r))
        .fold(0.0, f64::max);
    let held = INPUT_TIME * prefill * output / busiest;
    let most = longest.min(held);
    let input = most / 2.0;
    let share = |i: f64| i / (i + output);
    let input_words = if most < longest {
        format!(
            "at most {}, as more would leave no time to decode at P (input at most {} of the \
             measured time); half assumed",
            servecost::format::thousands(most.round()),
            servecost::format::percent(INPUT_TIME)
        )
    } else {
        format!(
            "at most {}, the longest prompt; half assumed",
            servecost::format::thousands(most.round())
        )
    };
    let scale = (input + output) / output;
    let batch = rows
        .iter()
        .filter(|r| r.scenario == "Offline")
        .map(|r| per_accelerator(r) * scale)
        .reduce(f64::max);
    Ok(Deployed {
        mix_cited,
        input_words,
        input_share_bounds: (0.0, share(most)),
        replica,
        basis,
        scale,
        mix: (input, output),
        prefill,
        prefill_words,
        batch,
    })
}

#[cfg(test)]
mod tests {
    use super::super::{Benchmark, Row, BENCHMARKS};
    use super::*;

    /// A benchmark of the test's own figures.
    const BENCH: Benchmark = Benchmark {
        name: "llama3.1-8b",
        server_tpot_ms: 100.0,
        interactive_tpot_ms: Some(30.0),
        cited: "TPOT limits",
        tokens: Some((900.0, 100.0, "a test's figures")),
        active_params: Some((8e9, "a test's figure")),
    };

    fn row(scenario: &str, result: f64, accelerators: f64) -> Row {
        Row {
            file: "summary.csv".into(),
            line: 2,
            organization: "Acme".into(),
            availability: "available".into(),
            division: "closed".into(),
            platform: "X_B300x8".into(),
            system: "Acme X".into(),
            benchmark: "llama3.1-8b".into(),
            scenario: scenario.into(),
            result,
            accelerator: "NVIDIA B300".into(),
            accelerators,
            framework: "TensorRT".into(),
            precision: "fp4".into(),
            location: "closed/Acme".into(),
        }
    }

    fn dataset() -> Rows {
        let chip: crate::rows::ChipRow = serde_json::from_value(serde_json::json!({
            "id": "b300", "name": "NVIDIA B300", "memory_gb": 270.0, "memory_source": "s",
            "dense_tflops_fp4": 14000.0, "compute_source": "s"
        }))
        .expect("chip");
        Rows {
            chips: vec![chip],
            weights: vec![crate::rows::WeightsRow {
                model: "llama-3.1-8b".into(),
                precision: "fp4".into(),
                gigabytes: 6.0,
                source: "s".into(),
            }],
            ..Rows::default()
        }
    }

    #[test]
    fn a_system_is_sized_its_input_counted_and_its_prefill_held() {
        let rows = vec![row("Server", 80_000.0, 8.0), row("Offline", 96_000.0, 8.0)];
        let speed = vec![(10.0, &rows[0])];
        let run = |read: &Read, b: &Benchmark| {
            system(
                &dataset(),
                read,
                "Acme",
                "X_B300x8",
                "llama3.1-8b",
                b,
                "llama-3.1-8b",
                "b300",
                &rows,
                &speed,
            )
        };
        let read = Read::default();
        let d = run(&read, &BENCH).expect("deployed");
        // 6 GB fit one 270 GB GPU with the reserve: 8 copies of one GPU.
        assert_eq!(d.replica, 1.0);
        assert!(d.basis.contains("servecost's sizing"), "{}", d.basis);
        // Prompts of at most 900 tokens and 100 output tokens a sample: half the longest
        // prompt assumed, 450 input tokens, 5.5 tokens a output token, input 0 % to 90 %.
        assert_eq!(d.mix, (450.0, 100.0));
        assert_eq!(d.scale, 5.5);
        assert_eq!(d.input_share_bounds, (0.0, 0.9));
        // 14,000 TFLOPS × 40 % over 16 GFLOPs a token: 350,000 tokens/s, which the longest
        // prompt leaves time to decode at (900 × 10,000 / 100 = 90,000 input tokens/s).
        assert_eq!(d.prefill, 350_000.0);
        assert!(d.input_words.contains("the longest prompt"));
        assert_eq!(d.batch, Some(66_000.0));
        // The submitter's configuration, where given, is the replica.
        let mut read = Read::default();
        read.configs.push(crate::import::sizing::Config {
            path: "closed/Acme/configs/X_B300x8/Server/llama3_1-8b.py".into(),
            submitter: "Acme".into(),
            system: "X_B300x8".into(),
            scenario: "Server".into(),
            benchmark: "llama3_1-8b".into(),
            tensor: Some(2),
            pipeline: Some(1),
            experts: None,
            origin: "p.csv, line 2".into(),
        });
        let d = run(&read, &BENCH).expect("deployed");
        assert_eq!(d.replica, 2.0);
        assert!(d.basis.contains("TP 2 × PP 1"), "{}", d.basis);
        // A chip that prefills slowly bounds the input by the measurement: 3,500 tokens/s at
        // 80 % of the time leaves 28 input tokens a sample of 100 output at 10,000 a second.
        let slow: Benchmark = Benchmark {
            active_params: Some((8e11, "a test's figure")),
            ..BENCH
        };
        let d = run(&Read::default(), &slow).expect("deployed");
        assert_eq!(d.prefill, 3_500.0);
        assert_eq!(d.mix, (14.0, 100.0));
        assert!(
            d.input_words.contains("no time to decode"),
            "{}",
            d.input_words
        );
        // Without a token mix, it says so.
        let unknown = Benchmark {
            tokens: None,
            ..BENCHMARKS[1]
        };
        let e = run(&Read::default(), &unknown).expect_err("no mix");
        assert!(e.contains("token mix is not recorded"), "{e}");
    }
}
