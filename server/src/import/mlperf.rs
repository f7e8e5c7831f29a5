//! MLPerf Inference results (`summary.csv` of an `mlcommons/inference_results_*` repository):
//! one row per system, benchmark and scenario. The LLM rows (`Units` = `Tokens/s`) of the closed
//! division, on systems available to buy, each of one accelerator the dataset has, of a
//! benchmark whose model the dataset has, become points of one curve per submitter, system and
//! benchmark, tagged audited:
//!
//! - output tokens/s per accelerator = `Result` ÷ `total_accelerators`. MLCommons publishes the
//!   mean output tokens of some benchmarks but the mean input tokens of none, so the curve counts
//!   output tokens only (mix 0 : 0 : 1): the prefill of the benchmark's prompts is inside the
//!   measured rate, and a workload's input is priced on top at the prefill assumption, which
//!   overstates self-hosting a little rather than understating it;
//! - the speed per user is the one the scenario's TPOT limit guarantees at the 99th percentile
//!   (1000 ÷ the limit in ms): Server and Interactive each give one point;
//! - Offline has no latency bound, so no speed is guaranteed: its throughput is named in the
//!   curve's note and not drawn, and a system with only Offline rows makes no curve.
//!
//! Rows of other divisions, of systems not yet available, of several accelerators, of
//! accelerators or benchmarks the dataset has no chip or model for, are counted and left out.

use std::collections::BTreeMap;

use app::db::rows::{CurveRow, Keyed, PointRow, Rows, SourceRow};

use super::litellm::named;
use super::{slug, ImportProblem, Options, Read};

/// A benchmark's latency limits: the p99 TPOT limits (ms) of its Server and Interactive
/// scenarios, as LoadGen enforces them (`loadgen/mlperf.conf` of `mlcommons/inference`).
pub struct Benchmark {
    /// The `MlperfModel` it is, without the accuracy target (`llama2-70b` for `llama2-70b-99.9`).
    pub name: &'static str,
    /// p99 TPOT limit of the Server scenario, ms.
    pub server_tpot_ms: f64,
    /// p99 TPOT limit of the Interactive scenario, ms (none: no such scenario).
    pub interactive_tpot_ms: Option<f64>,
    /// Where these figures are stated.
    pub cited: &'static str,
    /// Mean input and output tokens per sample of the benchmark's dataset (none: not
    /// recorded), and where they are stated: the benchmark's own mix, read as deployed.
    pub tokens: Option<(f64, f64, &'static str)>,
    /// Parameters active per token of the benchmark's model, and where stated: the compute a
    /// prefilled token takes.
    pub active_params: Option<(f64, &'static str)>,
}

/// The benchmarks read, with their limits: `mlcommons/inference` `loadgen/mlperf.conf` at
/// commit `b0662794362bc2c22c33c3e4a0c66ef83411ecf0` (`<model>.Server.tpot_latency` and
/// `<model>-interactive.Server.tpot_latency`), the same in the submission checker.
pub const BENCHMARKS: &[Benchmark] = &[
    Benchmark {
        name: "llama2-70b",
        server_tpot_ms: 200.0,
        interactive_tpot_ms: Some(40.0),
        cited: "TPOT limits 200 ms (Server) and 40 ms (Interactive), loadgen/mlperf.conf",
        tokens: None,
        active_params: None,
    },
    Benchmark {
        name: "llama3.1-8b",
        server_tpot_ms: 100.0,
        interactive_tpot_ms: Some(30.0),
        cited: "TPOT limits 100 ms (Server) and 30 ms (Interactive), loadgen/mlperf.conf",
        tokens: None,
        active_params: None,
    },
    Benchmark {
        name: "deepseek-r1",
        server_tpot_ms: 80.0,
        interactive_tpot_ms: Some(15.0),
        cited: "TPOT limits 80 ms (Server) and 15 ms (Interactive), loadgen/mlperf.conf",
        tokens: None,
        active_params: None,
    },
    Benchmark {
        name: "gpt-oss-120b",
        server_tpot_ms: 80.0,
        interactive_tpot_ms: Some(15.0),
        cited: "TPOT limits 80 ms (Server) and 15 ms (Interactive), loadgen/mlperf.conf and the \
                submission checker; the rules document says 20 ms for Interactive",
        tokens: None,
        active_params: None,
    },
];

/// The columns a summary must have.
const COLUMNS: [&str; 9] = [
    "Organization",
    "Availability",
    "Division",
    "Platform",
    "MlperfModel",
    "Scenario",
    "Result",
    "accelerator_model_name",
    "total_accelerators",
];

/// One LLM row of a summary.
#[derive(Debug, Clone)]
pub struct Row {
    /// The file (its name only).
    pub file: String,
    /// Its line in the file.
    pub line: u64,
    /// Submitter.
    pub organization: String,
    /// `available`, `preview`, `rdi`.
    pub availability: String,
    /// `closed` or `open`.
    pub division: String,
    /// The system's id in the submission.
    pub platform: String,
    /// The system's name.
    pub system: String,
    /// The benchmark (`llama2-70b-99.9`).
    pub benchmark: String,
    /// `Offline`, `Server`, `Interactive`.
    pub scenario: String,
    /// Output tokens/s of the whole system.
    pub result: f64,
    /// The accelerator as the submission names it.
    pub accelerator: String,
    /// Accelerators of the system.
    pub accelerators: f64,
    /// The serving framework as submitted.
    pub framework: String,
    /// The weights' precision as submitted.
    pub precision: String,
    /// Where its logs are in the results repository.
    pub location: String,
}

/// True for a CSV whose header names a summary's columns.
pub fn is_summary(text: &str) -> bool {
    let header = text.lines().next().unwrap_or_default();
    let names: Vec<&str> = header
        .split(',')
        .map(|h| h.trim().trim_matches('"'))
        .collect();
    COLUMNS.iter().all(|c| names.contains(c))
}

/// Reads the LLM rows (`Units` = `Tokens/s`) of a summary; an unreadable one is a problem
/// naming its line and column.
pub fn read(file: &str, text: &str, read: &mut Read) -> Result<(), Vec<ImportProblem>> {
    let short = super::file_name(file);
    let text = text.replace("\r\n", "\n");
    let mut reader = csv::ReaderBuilder::new().from_reader(text.as_bytes());
    let header: Vec<String> = match reader.headers() {
        Ok(h) => h.iter().map(|h| h.trim().to_owned()).collect(),
        Err(e) => return Err(vec![ImportProblem::new(file, "line 1", "", e.to_string())]),
    };
    let at = |name: &str| header.iter().position(|h| h == name);
    let mut problems = Vec::new();
    for record in reader.records() {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                problems.push(ImportProblem::new(
                    file,
                    "",
                    "",
                    format!("not a CSV row: {e}"),
                ));
                continue;
            }
        };
        let line = record.position().map_or(0, csv::Position::line);
        let cell = |name: &str| {
            at(name)
                .and_then(|i| record.get(i))
                .unwrap_or_default()
                .trim()
        };
        if cell("Units") != "Tokens/s" {
            continue;
        }
        let number = |name: &'static str, zero: bool| -> Result<f64, ImportProblem> {
            match cell(name).parse::<f64>() {
                Ok(v) if v.is_finite() && (v > 0.0 || zero && v == 0.0) && v < 1e12 => Ok(v),
                _ => Err(ImportProblem::new(
                    file,
                    format!("line {line}"),
                    name,
                    format!(
                        "{:?} is not a {} number",
                        cell(name),
                        if zero { "non-negative" } else { "positive" }
                    ),
                )),
            }
        };
        // A system of CPUs alone lists 0 accelerators.
        let (result, accelerators) = (number("Result", false), number("total_accelerators", true));
        match (result, accelerators) {
            (Ok(result), Ok(accelerators)) => read.mlperf.push(Row {
                file: short.clone(),
                line,
                organization: cell("Organization").to_owned(),
                availability: cell("Availability").to_owned(),
                division: cell("Division").to_owned(),
                platform: cell("Platform").to_owned(),
                system: cell("SystemName").to_owned(),
                benchmark: cell("MlperfModel").to_owned(),
                scenario: cell("Scenario").to_owned(),
                result,
                accelerator: cell("accelerator_model_name").to_owned(),
                accelerators,
                framework: cell("framework").to_owned(),
                precision: cell("weight_data_types").to_owned(),
                location: cell("Location").to_owned(),
            }),
            (a, b) => {
                problems.extend(a.err());
                problems.extend(b.err());
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// The benchmark a row's `MlperfModel` is (its accuracy target aside).
pub fn benchmark(name: &str) -> Option<&'static Benchmark> {
    let bare = name
        .strip_suffix("-99.9")
        .or_else(|| name.strip_suffix("-99"))
        .unwrap_or(name);
    BENCHMARKS.iter().find(|b| b.name == bare)
}

/// The dataset chip an accelerator's name names, as one of its words (`AMD Instinct MI355X
/// 288GB HBM3e` is `mi355x`); none when it names no chip or several.
fn chip_of(accelerator: &str, chips: &[String]) -> Option<String> {
    // `H200-SXM-141GB + AMD Instinct MI350X`, `MI300X (x2x8) and MI355X`: several kinds.
    if accelerator.contains('+') || accelerator.contains(" and ") {
        return None;
    }
    let words: Vec<String> = accelerator
        .split(|c: char| !c.is_ascii_alphanumeric())
        .map(str::to_ascii_lowercase)
        .collect();
    let found: Vec<&String> = chips.iter().filter(|c| words.contains(c)).collect();
    match found.as_slice() {
        [one] => Some((*one).clone()),
        _ => None,
    }
}

/// Output tokens/s per accelerator of a row: `Result ÷ total_accelerators`.
pub fn per_accelerator(row: &Row) -> f64 {
    row.result / row.accelerators
}

/// The speed per user a scenario guarantees (1000 ÷ its TPOT limit, ms); none for Offline.
pub fn guaranteed_tps(scenario: &str, b: &Benchmark) -> Option<f64> {
    match scenario {
        "Server" => Some(1000.0 / b.server_tpot_ms),
        "Interactive" => b.interactive_tpot_ms.map(|ms| 1000.0 / ms),
        _ => None,
    }
}

/// A curve's id: `mlperf-<submitter>-<system>-<benchmark>`; where that passes the 64 characters
/// of an id, the system is named by a hash of its id (FNV-1a), so the id stays one per system.
pub fn curve_id(organization: &str, platform: &str, bench: &str) -> String {
    let full = slug(&format!("mlperf-{organization}-{platform}-{bench}"));
    if full.len() <= super::limits::MAX_ID {
        return full;
    }
    let hash = platform.bytes().fold(0x811c_9dc5_u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    let head = slug(&format!("mlperf-{organization}-{bench}"));
    let room = super::limits::MAX_ID - 9;
    let head: String = head.chars().take(room).collect();
    format!("{}-{hash:08x}", head.trim_end_matches('-'))
}

/// The submitter and its system as the label names them (`ASUSTeK XA NB3I-E12`), the
/// submitter said once where the system's name repeats it (`Azure GB200 NVL72`).
fn system_name(organization: &str, row: &Row, platform: &str) -> String {
    let system = if row.system.is_empty() {
        platform
    } else {
        &row.system
    };
    let head = system.split_whitespace().next().unwrap_or_default();
    let name = if head.eq_ignore_ascii_case(organization) {
        system.to_owned()
    } else {
        format!("{organization} {system}")
    };
    name.chars().take(120).collect()
}

/// Turns the rows into curves of dataset models on dataset chips.
pub fn curves(
    current: &Rows,
    opts: &Options,
    read: &mut Read,
    notes: &mut Vec<String>,
) -> Result<(), Vec<ImportProblem>> {
    if read.mlperf.is_empty() {
        return Ok(());
    }
    let chips = super::chip_ids(current, read);
    let models = super::model_names(current, read);
    let mut left_out = BTreeMap::<String, usize>::new();
    let mut leave = |why: String| *left_out.entry(why).or_default() += 1;
    // (organization, platform, benchmark) -> (model, chip, rows)
    let mut systems = BTreeMap::<(String, String, String), (String, String, Vec<Row>)>::new();
    for row in std::mem::take(&mut read.mlperf) {
        if row.division != "closed" {
            leave(format!("{} division", row.division));
            continue;
        }
        if row.accelerators == 0.0 {
            leave("systems without accelerators".into());
            continue;
        }
        if row.availability != "available" {
            leave(format!("systems {} (not yet available)", row.availability));
            continue;
        }
        let Some(b) = benchmark(&row.benchmark) else {
            leave(format!("benchmark {} (no definition read)", row.benchmark));
            continue;
        };
        let Some(model) = named(&models, b.name) else {
            leave(format!("benchmark {} (no dataset model)", row.benchmark));
            continue;
        };
        let Some(chip) = chip_of(&row.accelerator, &chips) else {
            leave(format!("accelerator {}", row.accelerator));
            continue;
        };
        systems
            .entry((
                row.organization.clone(),
                row.platform.clone(),
                row.benchmark.clone(),
            ))
            .or_insert_with(|| (model.clone(), chip, Vec::new()))
            .2
            .push(row);
    }
    if !left_out.is_empty() {
        let named: Vec<String> = left_out.iter().map(|(w, n)| format!("{w}: {n}")).collect();
        notes.push(format!("MLPerf rows left out: {}", named.join("; ")));
    }
    // The results' publication day when the command gives it (`--date`), else today's.
    let day = opts.date.clone().unwrap_or_else(app::db::revisions::today);
    let mut sources = Vec::new();
    let mut problems = Vec::new();
    let curves_before = read.rows.curves.len();
    for ((organization, platform, bench), (model, chip, rows)) in systems {
        let Some(b) = benchmark(&bench) else { continue };
        let mut speed: Vec<(f64, &Row)> = rows
            .iter()
            .filter_map(|r| guaranteed_tps(&r.scenario, b).map(|tps| (tps, r)))
            .collect();
        if speed.is_empty() {
            notes.push(format!(
                "MLPerf {organization} {platform} {bench}: only Offline results, which guarantee \
                 no speed per user: no curve"
            ));
            continue;
        }
        speed.sort_by(|a, b| a.0.total_cmp(&b.0));
        // A faster guarantee that also serves more (a submission tuned only for one scenario)
        // makes the slower point one no one would run: only the frontier is a curve.
        let all = speed.len();
        let mut kept: Vec<(f64, &Row)> = Vec::new();
        for (tps, r) in speed.into_iter().rev() {
            let t = per_accelerator(r);
            if kept.iter().all(|(_, k)| per_accelerator(k) < t) {
                kept.push((tps, r));
            }
        }
        kept.reverse();
        let speed = kept;
        if speed.len() < all {
            notes.push(format!(
                "MLPerf {organization} {platform} {bench}: the faster scenario also serves more \
                 per accelerator; the slower one is left out"
            ));
        }
        let first = speed[0].1;
        let source = slug(&format!("mlperf-{}", first.file.trim_end_matches(".csv")));
        if !sources.contains(&source) {
            sources.push(source.clone());
            read.rows.sources.push(SourceRow {
                key: source.clone(),
                publisher: "MLCommons (MLPerf Inference results)".into(),
                title: format!("MLPerf Inference results, {}", first.file),
                url: None,
                date: day.clone(),
                trust: "independent".into(),
                caveat: Some(
                    "Audited results: each submission is reviewed by the other submitters before \
                     publication. Throughput is output tokens/s of the whole system under the \
                     scenario's latency limits; Offline has none."
                        .into(),
                ),
            });
        }
        let id = curve_id(&organization, &platform, &bench);
        let as_deployed = if opts.as_deployed {
            match deployed(
                current,
                read,
                &organization,
                &platform,
                &bench,
                b,
                &model,
                &chip,
                &rows,
                &speed,
            ) {
                Ok(d) => Some(d),
                Err(e) => {
                    problems.push(ImportProblem::new(
                        &first.file,
                        format!("line {}", first.line),
                        "",
                        e,
                    ));
                    continue;
                }
            }
        } else {
            None
        };
        if let Some(d) = as_deployed {
            let row = deployed_curve(
                &id,
                &model,
                &chip,
                &source,
                b,
                first,
                &organization,
                &platform,
                &bench,
                &d,
            );
            read.rows.curves.push(row);
            read.origins
                .entry((CurveRow::KIND, id.clone()))
                .or_insert_with(|| (first.file.clone(), format!("line {}", first.line)));
            for (idx, (tps, r)) in speed.iter().enumerate() {
                read.rows.points.push(PointRow {
                    curve: id.clone(),
                    idx: idx as i64,
                    tps: *tps,
                    tokens_per_s_per_gpu: Some(per_accelerator(r) * d.scale),
                    usd_per_mtok: None,
                    note: Some(format!(
                        "{}: {} output tokens/s over {} accelerators, {} output tokens/s per \
                         accelerator, {} tokens/s with the benchmark's input ({}, line {}; logs {})",
                        r.scenario,
                        servecost::format::thousands(r.result),
                        r.accelerators,
                        servecost::format::thousands(per_accelerator(r).round()),
                        servecost::format::thousands((per_accelerator(r) * d.scale).round()),
                        r.file,
                        r.line,
                        r.location
                    )),
                    power_w_per_gpu: None,
                });
            }
            continue;
        }
        let offline: Vec<String> = rows
            .iter()
            .filter(|r| r.scenario == "Offline")
            .map(|r| {
                format!(
                    " Offline (no latency bound, so no speed guaranteed): {} output tokens/s per \
                     accelerator, line {}.",
                    servecost::format::thousands(per_accelerator(r).round()),
                    r.line
                )
            })
            .collect();
        read.rows.curves.push(CurveRow {
            id: id.clone(),
            revision: 0,
            model: model.clone(),
            chip: chip.clone(),
            precision: first.precision.clone(),
            framework: first.framework.clone(),
            replica_gpus: first.accelerators,
            mix_uncached: 0.0,
            mix_cached: 0.0,
            mix_output: 1.0,
            mix_stated: true,
            price_basis_usd: None,
            source: source.clone(),
            note: Some(format!(
                "MLPerf {bench}, {} ({} × {}). Speeds per user are the floors \
                 the scenarios' p99 TPOT limits guarantee ({}), not measured medians. \
                 Throughput is output tokens/s (the result over the accelerators): the \
                 benchmark's prompts are prefilled inside it, and their mean length is not \
                 published, so a workload's input is priced on top at the prefill \
                 assumption.{}",
                system_name(&organization, first, &platform),
                first.accelerators,
                first.accelerator,
                b.cited,
                offline.concat()
            )),
            tier: Some("audited".into()),
            setup: Some(system_name(&organization, first, &platform)),
            prefill: None,
            replica_basis: None,
            batch_tokens_per_s_per_gpu: None,
            is_default: false,
        });
        read.origins
            .entry((CurveRow::KIND, id.clone()))
            .or_insert_with(|| (first.file.clone(), format!("line {}", first.line)));
        for (idx, (tps, r)) in speed.iter().enumerate() {
            read.rows.points.push(PointRow {
                curve: id.clone(),
                idx: idx as i64,
                tps: *tps,
                tokens_per_s_per_gpu: Some(per_accelerator(r)),
                usd_per_mtok: None,
                note: Some(format!(
                    "{}: {} output tokens/s over {} accelerators ({}, line {}; logs {})",
                    r.scenario,
                    servecost::format::thousands(r.result),
                    r.accelerators,
                    r.file,
                    r.line,
                    r.location
                )),
                power_w_per_gpu: None,
            });
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    if opts.as_deployed {
        mark_defaults(read, curves_before);
    }
    Ok(())
}

/// Marks each model's default among the curves from `from` on: the median by throughput per
/// GPU at its slowest (Server) point, of the curves the models have (all audited).
fn mark_defaults(read: &mut Read, from: usize) {
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
fn deployed_curve(
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
            " Offline (no latency bound): {} tokens/s per GPU with the benchmark's input, the \
             rate batch traffic is served at.",
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
        mix_stated: true,
        price_basis_usd: None,
        source: source.to_owned(),
        note: Some(format!(
            "MLPerf {bench}, {} ({} × {}). Speeds per user are the floors the scenarios' p99 \
             TPOT limits guarantee ({}), not measured medians. Throughput counts the \
             benchmark's input with its output: {} input and {} output tokens a sample on \
             average ({}), each result's output tokens/s times {}. {}.{batch}",
            system_name(organization, first, platform),
            first.accelerators,
            first.accelerator,
            b.cited,
            servecost::format::thousands(d.mix.0),
            servecost::format::thousands(d.mix.1),
            d.mix_cited,
            servecost::format::number((d.scale * 1000.0).round() / 1000.0),
            d.prefill_words,
        )),
        tier: Some("audited".into()),
        setup: Some(system_name(organization, first, platform)),
        prefill: Some(d.prefill),
        replica_basis: Some(d.basis.clone()),
        batch_tokens_per_s_per_gpu: d.batch,
        is_default: false,
    }
}

/// Share of the chip's dense peak a prefill reaches when servecost works out the prefill rate
/// `P` of an MLPerf curve from the chip's compute: an assumption, stated with each curve.
pub const PREFILL_MFU: f64 = 0.4;

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
    /// Where the mix is stated.
    pub mix_cited: &'static str,
    /// The prefill rate `P` the curve holds.
    pub prefill: f64,
    /// How `P` was worked out.
    pub prefill_words: String,
    /// Offline tokens/s per GPU at the benchmark's mix, where measured.
    pub batch: Option<f64>,
}

/// The precision's dense compute of a chip, TFLOPS: FP4 for `fp4`, `mxfp4`, `nvfp4`; FP8;
/// BF16 for `bf16` and `fp16`.
fn dense_tflops(chip: &app::db::rows::ChipRow, precision: &str) -> Option<f64> {
    match precision.to_ascii_lowercase().as_str() {
        "fp4" | "mxfp4" | "nvfp4" => chip.dense_tflops_fp4,
        "fp8" => chip.dense_tflops_fp8,
        "bf16" | "fp16" => chip.dense_tflops_bf16,
        _ => None,
    }
}

/// Reads one system as deployed (see [`Deployed`]), or what it lacks to be.
#[allow(clippy::too_many_arguments)]
pub fn deployed(
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
    let (input, output, mix_cited) = b
        .tokens
        .ok_or_else(|| format!("{what}: the benchmark's token mix is not recorded"))?;
    let scale = (input + output) / output;
    let chip_row = current
        .chips
        .iter()
        .chain(&read.rows.chips)
        .rev()
        .find(|c| c.id == chip)
        .ok_or_else(|| format!("{what}: no chip {chip}"))?;
    // The replica: the submitter's configuration, else servecost's rule.
    // The Server scenario's configuration first: the curve's slowest point is its result.
    let mut configs: Vec<&super::sizing::Config> = read
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
                "{g} GPUs a replica: the submitter's configuration of the system ({}, {})",
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
            let least = super::sizing::least_replica(weights.gigabytes, chip_row.memory_gb)
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
                    "{} GPUs a replica: servecost's sizing, the least power of two of {} GB \
                     GPUs that holds the {} weights ({} GB) and keeps {} of the memory for \
                     the KV cache (the submitter's configuration is not in the dataset); the \
                     system's {} GPUs are {} copies at its throughput per GPU",
                    servecost::format::number(g),
                    servecost::format::number(chip_row.memory_gb),
                    first.precision,
                    servecost::format::number(weights.gigabytes),
                    servecost::format::percent(super::sizing::KV_RESERVE),
                    servecost::format::number(first.accelerators),
                    servecost::format::number((first.accelerators / g * 10.0).round() / 10.0),
                ),
            )
        }
    };
    // The prefill rate: the chip's dense compute at the precision over the compute a token
    // takes (2 FLOPs per active parameter) at PREFILL_MFU of peak; never one the measurement
    // cannot hold (input would then take more than the measured time): at least the rate at
    // which input takes 80 % of it.
    let (active, params_cited) = b
        .active_params
        .ok_or_else(|| format!("{what}: the model's active parameters are not recorded"))?;
    let tflops = dense_tflops(chip_row, &first.precision).ok_or_else(|| {
        format!(
            "{what}: no dense {} compute of {chip} recorded to work out its prefill rate",
            first.precision
        )
    })?;
    let computed = tflops * 1e12 * PREFILL_MFU / (2.0 * active);
    let share = input / (input + output);
    let fastest = speed
        .iter()
        .map(|(_, r)| per_accelerator(r) * scale)
        .fold(0.0, f64::max);
    let least_held = fastest * share;
    let (prefill, prefill_words) = if computed > least_held / 0.8 {
        (
            computed.round(),
            format!(
                "P {} uncached tokens/s per GPU: servecost's estimate, {} dense TFLOPS at {} \
                 × {} of peak over 2 FLOPs per active parameter ({} B; {params_cited})",
                servecost::format::thousands(computed.round()),
                servecost::format::number(tflops),
                first.precision.to_ascii_uppercase(),
                servecost::format::percent(PREFILL_MFU),
                servecost::format::number(active / 1e9)
            ),
        )
    } else {
        let p = (least_held / 0.8).round();
        (
            p,
            format!(
                "P {} uncached tokens/s per GPU: the compute estimate ({}) would leave the \
                 measurement no time to decode, so P is the rate at which the benchmark's input \
                 takes {} of the measured GPU time",
                servecost::format::thousands(p),
                servecost::format::thousands(computed.round()),
                servecost::format::percent(0.8)
            ),
        )
    };
    let batch = rows
        .iter()
        .filter(|r| r.scenario == "Offline")
        .map(|r| per_accelerator(r) * scale)
        .reduce(f64::max);
    Ok(Deployed {
        mix_cited,
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
    use super::*;

    /// A benchmark whose token mix and model are recorded (none of the shipped ones is yet).
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
        let chip: app::db::rows::ChipRow = serde_json::from_value(serde_json::json!({
            "id": "b300", "name": "NVIDIA B300", "memory_gb": 270.0, "memory_source": "s",
            "dense_tflops_fp4": 14000.0, "compute_source": "s"
        }))
        .expect("chip");
        Rows {
            chips: vec![chip],
            weights: vec![app::db::rows::WeightsRow {
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
            deployed(
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
        // 900 input and 100 output tokens a sample: 10 tokens a output token.
        assert_eq!(d.scale, 10.0);
        assert_eq!(d.mix, (900.0, 100.0));
        // 14,000 TFLOPS × 40 % over 16 GFLOPs a token: 350,000 tokens/s, more than the
        // 90,000 the measurement's input needs (10,000 output tokens/s per GPU × 9).
        assert_eq!(d.prefill, 350_000.0);
        assert_eq!(d.batch, Some(120_000.0));
        // The submitter's configuration, where given, is the replica.
        let mut read = Read::default();
        read.configs.push(super::super::sizing::Config {
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
        // A prefill the chip could not reach is raised to one the measurement can hold.
        let slow: Benchmark = Benchmark {
            active_params: Some((8e11, "a test's figure")),
            ..BENCH
        };
        let d = run(&Read::default(), &slow).expect("deployed");
        assert_eq!(d.prefill, 112_500.0);
        // Without a token mix, it says so.
        let e = run(&Read::default(), &BENCHMARKS[1]).expect_err("no mix");
        assert!(e.contains("token mix is not recorded"), "{e}");
    }
}
