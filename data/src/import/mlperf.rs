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

use crate::rows::{CurveRow, Keyed, PointRow, Rows, SourceRow};

use super::litellm::named;
use super::{slug, ImportProblem, Options, Read};

mod deployed;

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
    /// The longest prompt of the benchmark's dataset and its mean output, tokens per sample
    /// (MLCommons publishes no mean input), and where they are stated: the bounds of the
    /// benchmark's own mix, read as deployed (none: not recorded).
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
        tokens: Some((
            1023.0,
            294.45,
            "prompts under 1,024 tokens, processorca.py; output per the reference's README, \
             mlcommons/inference b66003e language/llama2-70b",
        )),
        active_params: Some((70e9, "70B, dense: Llama 2 model card")),
    },
    Benchmark {
        name: "llama3.1-8b",
        server_tpot_ms: 100.0,
        interactive_tpot_ms: Some(30.0),
        cited: "TPOT limits 100 ms (Server) and 30 ms (Interactive), loadgen/mlperf.conf",
        tokens: Some((
            2540.0,
            128.0,
            "prompts padded to 2,540 tokens by NVIDIA's v5.1 harness; output capped at \
             max_new_tokens 128, which the audited logs reach",
        )),
        active_params: Some((8e9, "8B, dense: Llama 3.1 model card")),
    },
    Benchmark {
        name: "deepseek-r1",
        server_tpot_ms: 80.0,
        interactive_tpot_ms: Some(15.0),
        cited: "TPOT limits 80 ms (Server) and 15 ms (Interactive), loadgen/mlperf.conf",
        tokens: Some((
            3140.0,
            3886.2274,
            "MAX_ISL 3,136 plus 4 template tokens; output the reference's mean, \
             mlcommons/inference b66003e language/deepseek-r1",
        )),
        active_params: Some((37e9, "37B active of 671B: DeepSeek-R1 README")),
    },
    Benchmark {
        name: "gpt-oss-120b",
        server_tpot_ms: 80.0,
        interactive_tpot_ms: Some(15.0),
        cited: "TPOT limits 80 ms (Server) and 15 ms (Interactive), loadgen/mlperf.conf and the \
                submission checker; the rules document says 20 ms for Interactive",
        tokens: Some((
            15330.0,
            1278.2,
            "max_seq_len 15,330, inference_rules.adoc; output TEST09's reference for the \
             performance set, mlcommons/inference language/gpt-oss-120b",
        )),
        active_params: Some((
            5.13e9,
            "5.13B active of 116.83B: gpt-oss model card, Table 1",
        )),
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
    super::csv_rows(file, text, |row, problems| {
        let (line, cell) = (row.line, |name: &str| row.cell(name));
        if cell("Units") != "Tokens/s" {
            return;
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
    })
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
    let day = opts.date.clone().unwrap_or_else(crate::clock::today);
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
            match deployed::system(
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
        let (row, scale) = match as_deployed {
            Some(d) => (
                deployed::curve(
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
                ),
                Some(d.scale),
            ),
            None => (
                whole_system_curve(
                    &id,
                    &model,
                    &chip,
                    &source,
                    b,
                    first,
                    &organization,
                    &platform,
                    &bench,
                    &rows,
                ),
                None,
            ),
        };
        read.rows.curves.push(row);
        read.origins
            .entry((CurveRow::KIND, id.clone()))
            .or_insert_with(|| (first.file.clone(), format!("line {}", first.line)));
        for (idx, (tps, r)) in speed.iter().enumerate() {
            read.rows.points.push(point(&id, idx, *tps, r, scale));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    if opts.as_deployed {
        deployed::mark_defaults(read, curves_before);
    }
    Ok(())
}

/// The curve of a system read as revision 4 read it: the whole system one replica, output
/// tokens only.
#[allow(clippy::too_many_arguments)]
fn whole_system_curve(
    id: &str,
    model: &str,
    chip: &str,
    source: &str,
    b: &Benchmark,
    first: &Row,
    organization: &str,
    platform: &str,
    bench: &str,
    rows: &[Row],
) -> CurveRow {
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
    CurveRow {
        id: id.to_owned(),
        revision: 0,
        model: model.to_owned(),
        chip: chip.to_owned(),
        precision: first.precision.clone(),
        framework: first.framework.clone(),
        replica_gpus: first.accelerators,
        mix_uncached: 0.0,
        mix_cached: 0.0,
        mix_output: 1.0,
        mix_stated: true,
        price_basis_usd: None,
        source: source.to_owned(),
        note: Some(format!(
            "MLPerf {bench}, {} ({} × {}). Speeds per user are the floors \
                 the scenarios' p99 TPOT limits guarantee ({}), not measured medians. \
                 Throughput is output tokens/s (the result over the accelerators): the \
                 benchmark's prompts are prefilled inside it, and their mean length is not \
                 published, so a workload's input is priced on top at the prefill \
                 assumption.{}",
            system_name(organization, first, platform),
            first.accelerators,
            first.accelerator,
            b.cited,
            offline.concat()
        )),
        tier: Some("audited".into()),
        setup: Some(system_name(organization, first, platform)),
        prefill: None,
        replica_basis: None,
        batch_tokens_per_s_per_gpu: None,
        input_share_low: None,
        input_share_high: None,
        is_default: false,
    }
}

/// A scenario's point: its output tokens/s per accelerator, times `scale` where the curve
/// counts the benchmark's input too (read as deployed).
fn point(id: &str, idx: usize, tps: f64, r: &Row, scale: Option<f64>) -> PointRow {
    let output = per_accelerator(r);
    let with_input = scale.map_or(String::new(), |s| {
        format!(
            ", {} output tokens/s per accelerator, {} tokens/s with the benchmark's input",
            servecost::format::thousands(output.round()),
            servecost::format::thousands((output * s).round())
        )
    });
    PointRow {
        curve: id.to_owned(),
        idx: idx as i64,
        tps,
        tokens_per_s_per_gpu: Some(output * scale.unwrap_or(1.0)),
        usd_per_mtok: None,
        note: Some(format!(
            "{}: {} output tokens/s over {} accelerators{with_input} ({}, line {}; logs {})",
            r.scenario,
            servecost::format::thousands(r.result),
            r.accelerators,
            r.file,
            r.line,
            r.location
        )),
        power_w_per_gpu: None,
    }
}
