//! InferenceX (formerly InferenceMAX) result files, read by the benchmark's own rules.
//!
//! - Processed rows (`agg_*.json`, one object or an array of them): `tput_per_gpu` is total
//!   (input plus output) tokens/s per GPU, `median_intvty` is output tokens/s per user
//!   (1000 / median TPOT in ms). GPUs per replica: `num_prefill_gpu + num_decode_gpu` for a
//!   disaggregated run, else `tp` (times `pp` when given). Rows from before 2025-10-15 have no
//!   input/output split; it is not needed: the mix comes from ISL/OSL.
//! - Raw benchmark-client output (`concurrency_*_gpus_16_ctx_8_gen_8.json`): the hardware is not
//!   in the file, so `--hardware` must name the chip. The file name gives the GPU split (here 8
//!   prefill + 8 decode); `tput_per_gpu = total_token_throughput / all GPUs`, interactivity =
//!   1000 / `median_tpot_ms`, ISL/OSL = total input/output tokens / prompts.
//!
//! Measurements of one configuration (model, hardware, precision, framework, parallelism,
//! speculative decoding, ISL/OSL) make one curve; only the upper-left Pareto frontier is kept
//! (a point is dropped when another is at least as fast per user and at least as productive per
//! GPU). Benchmarks send random prompts, so all input is uncached: the measured mix is
//! ISL : 0 : OSL, and it is recorded as stated. Each curve gets a source row naming its files
//! and the benchmark's date.

use std::collections::BTreeMap;

use crate::rows::Rows;
use crate::rows::{CurveRow, Keyed, ModelRow, PointRow, SourceRow};
use serde_json::Value;

use super::{file_name, slug, ImportProblem, Options, Read};

/// What raw files do not say (precision, serving framework).
const NOT_STATED: &str = "not stated";

/// One measured point and the configuration it belongs to.
#[derive(Debug, Clone)]
pub struct Measurement {
    /// The file it came from (its name only).
    pub file: String,
    /// Where in the file.
    pub at: String,
    /// The configuration: everything but the concurrency.
    pub config: Config,
    /// Output tokens/s per user.
    pub tps: f64,
    /// Total tokens/s per GPU.
    pub tput_per_gpu: f64,
    /// Concurrency.
    pub conc: f64,
    /// The benchmark's date (YYYY-MM-DD), when the file says.
    pub date: Option<String>,
    /// Mean power per GPU measured over the run, W, when sampled on the replica's own GPUs.
    pub power_w: Option<f64>,
    /// Input and output tokens (or tokens/s) the run measured, when the file gives them: the
    /// curve's mix is their sum over its runs, else its ISL : OSL.
    pub tokens: Option<(f64, f64)>,
}

/// Which files a measurement came from: they name the curve's publisher, data tier and caveat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// InferenceX's processed rows or its raw multi-node client output.
    InferenceX,
    /// The `together_runner` baselines of an InferenceX pull request: one host, power sampled.
    TogetherRunner,
    /// InferenceX's `experimental/token_position_decode_slo` runs.
    DecodeSlo,
}

impl Kind {
    /// The data tier of its curves (none for InferenceX's own results: an independent
    /// benchmark, neither audited nor a vendor's).
    pub fn tier(self) -> Option<&'static str> {
        match self {
            Kind::InferenceX => None,
            Kind::TogetherRunner | Kind::DecodeSlo => Some("experimental"),
        }
    }

    /// The start of its curves' ids (and source keys).
    fn id_prefix(self) -> &'static str {
        match self {
            Kind::InferenceX => "inferencex",
            Kind::TogetherRunner => "ix-dev",
            Kind::DecodeSlo => "ix-slo",
        }
    }

    fn publisher(self) -> &'static str {
        match self {
            Kind::InferenceX => "SemiAnalysis InferenceX (benchmark result files)",
            Kind::TogetherRunner | Kind::DecodeSlo => {
                "SemiAnalysis InferenceX repository (development result files)"
            }
        }
    }

    /// What the curve's note says about runs of this kind.
    fn caveat(self) -> &'static str {
        match self {
            Kind::InferenceX => "",
            Kind::TogetherRunner => {
                " Development runs of a pull request (together_runner baselines), not dashboard \
                 points: the \"1k1k\" lengths are uniform from 0 to 1,024 tokens, so the mix is \
                 the measured one."
            }
            Kind::DecodeSlo => {
                " Experimental runs (token_position_decode_slo, whose README calls the code \
                 experimental): output 128 tokens a request, so prefill-heavy."
            }
        }
    }
}

/// What makes measurements one curve.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Config {
    /// Model as the benchmark names it.
    pub model: String,
    /// Short model name for ids.
    pub prefix: String,
    /// Chip id.
    pub hw: String,
    /// Precision.
    pub precision: String,
    /// Framework.
    pub framework: String,
    /// Parallelism, e.g. `tp8-ep1` or `8p-8d`.
    pub parallel: String,
    /// Speculative decoding, or `none`.
    pub spec: String,
    /// GPUs per replica.
    pub gpus: u32,
    /// Input sequence length.
    pub isl: u64,
    /// Output sequence length.
    pub osl: u64,
    /// True for disaggregated prefill/decode pools.
    pub disagg: bool,
    /// The files it came from.
    pub kind: Kind,
}

/// True for a processed row (or an array of them).
pub fn is_agg(value: &Value) -> bool {
    let row = |v: &Value| v.get("tput_per_gpu").is_some() && v.get("hw").is_some();
    match value {
        Value::Array(rows) => !rows.is_empty() && rows.iter().all(row),
        other => row(other),
    }
}

/// True for raw benchmark-client output.
pub fn is_raw(value: &Value) -> bool {
    value.get("total_token_throughput").is_some() && value.get("max_concurrency").is_some()
}

struct Fields<'a> {
    file: &'a str,
    at: String,
    value: &'a Value,
}

impl Fields<'_> {
    fn bad(&self, field: &str, problem: impl Into<String>) -> ImportProblem {
        ImportProblem::new(self.file, self.at.clone(), field, problem)
    }

    fn number(&self, field: &str) -> Result<f64, ImportProblem> {
        match self.value.get(field) {
            None | Some(Value::Null) => Err(self.bad(field, "missing")),
            Some(v) => {
                let n = v
                    .as_f64()
                    .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()));
                match n {
                    Some(n) if n.is_finite() && n > 0.0 => Ok(n),
                    _ => Err(self.bad(field, format!("{v} is not a positive number"))),
                }
            }
        }
    }

    fn optional(&self, field: &str) -> Result<Option<f64>, ImportProblem> {
        match self.value.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(_) => self.number(field).map(Some),
        }
    }

    fn text(&self, field: &str) -> Result<String, ImportProblem> {
        match self.value.get(field) {
            Some(Value::String(s)) if !s.trim().is_empty() => Ok(s.trim().to_owned()),
            Some(Value::Bool(b)) => Ok(b.to_string()),
            Some(Value::Number(n)) => Ok(n.to_string()),
            None | Some(Value::Null) => Err(self.bad(field, "missing")),
            Some(v) => Err(self.bad(field, format!("{v} is not text"))),
        }
    }

    fn whole(&self, field: &str) -> Result<u64, ImportProblem> {
        let n = self.number(field)?;
        if n.fract() == 0.0 && n <= 1e9 {
            Ok(n as u64)
        } else {
            Err(self.bad(field, format!("{n} is not a whole number")))
        }
    }
}

/// `YYYYMMDD-…` or `YYYY-MM-DD…` as `YYYY-MM-DD`.
fn date(text: &str) -> Option<String> {
    let digits: String = text.chars().filter(char::is_ascii_digit).take(8).collect();
    (digits.len() == 8).then(|| format!("{}-{}-{}", &digits[..4], &digits[4..6], &digits[6..8]))
}

fn agg_row(file: &str, at: String, value: &Value) -> Result<Measurement, ImportProblem> {
    let f = Fields { file, at, value };
    let model = f.text("model")?;
    let prefix = f
        .text("infmax_model_prefix")
        .unwrap_or_else(|_| model.rsplit('/').next().unwrap_or(&model).to_owned());
    let disagg = value
        .get("disagg")
        .is_some_and(|d| d.as_bool() == Some(true) || d.as_str() == Some("true"));
    let (gpus, parallel) = if disagg || value.get("num_prefill_gpu").is_some() {
        let p = f.whole("num_prefill_gpu")?;
        let d = f.whole("num_decode_gpu")?;
        (p + d, format!("{p}p-{d}d"))
    } else {
        let tp = f.whole("tp")?;
        let pp = f.optional("pp")?.map_or(1, |p| p as u64);
        let ep = f.optional("ep")?.map_or(1, |e| e as u64);
        let dpa = f.text("dp_attention").unwrap_or_else(|_| "false".into());
        let dpa = if dpa == "true" { "-dpa" } else { "" };
        let pp_text = if pp > 1 {
            format!("-pp{pp}")
        } else {
            String::new()
        };
        (tp * pp, format!("tp{tp}{pp_text}-ep{ep}{dpa}"))
    };
    let spec = f
        .text("spec_decoding")
        .or_else(|_| f.text("mtp"))
        .unwrap_or_else(|_| "none".into());
    let config = Config {
        model,
        prefix,
        hw: f.text("hw")?.to_ascii_lowercase(),
        precision: f.text("precision")?,
        framework: f.text("framework")?,
        parallel,
        spec,
        gpus: u32::try_from(gpus).map_err(|_| f.bad("tp", "too many GPUs"))?,
        isl: f.whole("isl")?,
        osl: f.whole("osl")?,
        disagg,
        kind: Kind::InferenceX,
    };
    Ok(Measurement {
        file: file_name(file),
        at: f.at.clone(),
        tps: f.number("median_intvty")?,
        tput_per_gpu: f.number("tput_per_gpu")?,
        conc: f.number("conc")?,
        date: f.text("date").ok().and_then(|d| date(&d)),
        power_w: None,
        tokens: None,
        config,
    })
}

/// Reads processed rows.
pub fn agg(file: &str, value: &Value, read: &mut Read) -> Result<(), Vec<ImportProblem>> {
    let rows: Vec<(String, &Value)> = match value {
        Value::Array(rows) => rows
            .iter()
            .enumerate()
            .map(|(i, r)| (format!("record {}", i + 1), r))
            .collect(),
        one => vec![(String::new(), one)],
    };
    let mut problems = Vec::new();
    for (at, row) in rows {
        match agg_row(file, at, row) {
            Ok(m) => read.measurements.push(m),
            Err(p) => problems.push(p),
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// `gpus_16_ctx_8_gen_8` in a raw file's name: (prefill GPUs, decode GPUs).
fn split_from_name(name: &str) -> Option<(u64, u64, u64)> {
    let parts: Vec<&str> = name.trim_end_matches(".json").split('_').collect();
    let after = |key: &str| -> Option<u64> {
        let i = parts.iter().position(|p| *p == key)?;
        parts.get(i + 1)?.parse().ok()
    };
    Some((after("gpus")?, after("ctx")?, after("gen")?))
}

/// Reads raw benchmark-client output; `--hardware` names the chip.
pub fn raw(
    file: &str,
    value: &Value,
    opts: &Options,
    read: &mut Read,
) -> Result<(), Vec<ImportProblem>> {
    let f = Fields {
        file,
        at: String::new(),
        value,
    };
    let Some(hw) = opts.hardware.as_deref() else {
        return Err(vec![f.bad(
            "hardware",
            "raw benchmark output does not say which hardware ran it: give the chip with \
             --hardware CHIP (a chip id from the dataset, e.g. mi355x)",
        )]);
    };
    let name = file_name(file);
    let Some((gpus, prefill, decode)) = split_from_name(&name) else {
        return Err(vec![f.bad(
            "file name",
            "the GPU split is read from the file name, as the benchmark writes it \
             (…_gpus_16_ctx_8_gen_8.json): this name does not have it",
        )]);
    };
    if prefill + decode != gpus || gpus == 0 {
        return Err(vec![f.bad(
            "file name",
            format!("{prefill} prefill + {decode} decode GPUs do not make the {gpus} GPUs named"),
        )]);
    }
    let mut problems = Vec::new();
    let mut get = |field: &str| f.number(field).map_err(|p| problems.push(p)).unwrap_or(0.0);
    let total = get("total_token_throughput");
    let tpot = get("median_tpot_ms");
    let input = get("total_input_tokens");
    let output = get("total_output_tokens");
    let prompts = get("num_prompts");
    let conc = get("max_concurrency");
    let model = f
        .text("model_id")
        .map_err(|p| problems.push(p))
        .unwrap_or_default();
    if !problems.is_empty() {
        return Err(problems);
    }
    // "/models/models--openai--gpt-oss-120b/snapshots/…" is openai/gpt-oss-120b.
    let model = model
        .split('/')
        .find_map(|part| part.strip_prefix("models--"))
        .map_or(model.clone(), |m| m.replace("--", "/"));
    let prefix = model.rsplit('/').next().unwrap_or(&model).to_owned();
    read.measurements.push(Measurement {
        file: name,
        at: String::new(),
        tps: 1000.0 / tpot,
        tput_per_gpu: total / gpus as f64,
        conc,
        date: value.get("date").and_then(Value::as_str).and_then(date),
        power_w: None,
        tokens: None,
        config: Config {
            model,
            prefix,
            hw: hw.to_ascii_lowercase(),
            precision: NOT_STATED.into(),
            framework: NOT_STATED.into(),
            parallel: format!("{prefill}p-{decode}d"),
            spec: "none".into(),
            gpus: u32::try_from(gpus).unwrap_or(u32::MAX),
            isl: (input / prompts).round() as u64,
            osl: (output / prompts).round() as u64,
            disagg: true,
            kind: Kind::InferenceX,
        },
    });
    Ok(())
}

/// The upper-left Pareto frontier: points no other point matches or beats on both speed per
/// user and throughput per GPU; slowest first.
pub fn frontier(points: &[Measurement]) -> Vec<Measurement> {
    let mut kept: Vec<Measurement> = points
        .iter()
        .filter(|p| {
            !points.iter().any(|q| {
                q.tps >= p.tps
                    && q.tput_per_gpu >= p.tput_per_gpu
                    && (q.tps > p.tps || q.tput_per_gpu > p.tput_per_gpu)
            })
        })
        .cloned()
        .collect();
    kept.sort_by(|a, b| a.tps.total_cmp(&b.tps));
    // Identical points (same speed and throughput) are one.
    kept.dedup_by(|a, b| a.tps == b.tps);
    kept
}

/// Groups the measurements into curves (one source row and model row as needed each).
pub fn curves(
    current: &Rows,
    opts: &Options,
    read: &mut Read,
    notes: &mut Vec<String>,
) -> Result<(), Vec<ImportProblem>> {
    if read.measurements.is_empty() {
        return Ok(());
    }
    let mut groups: BTreeMap<Config, Vec<Measurement>> = BTreeMap::new();
    for m in std::mem::take(&mut read.measurements) {
        groups.entry(m.config.clone()).or_default().push(m);
    }
    let chips = super::chip_ids(current, read);
    let known: Vec<&str> = chips.iter().map(String::as_str).collect();
    let mut problems = Vec::new();
    let today = crate::clock::today();
    for (config, measured) in groups {
        if !known.contains(&config.hw.as_str()) {
            let first = &measured[0];
            problems.push(ImportProblem::new(
                &first.file,
                first.at.clone(),
                "hw",
                format!(
                    "{:?} is not a chip in the dataset (known: {}); add the chip first, or give \
                     --hardware for raw files",
                    config.hw,
                    known.join(", ")
                ),
            ));
            continue;
        }
        let group = Group::new(&config, &measured);
        let model = model_of(&group, current, opts, read);
        group.add(model, &today, opts.as_deployed, read, notes);
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// The model a curve belongs to: `--model`, else the benchmark's own name for it (added as a
/// model when the dataset does not have it).
fn model_of(group: &Group, current: &Rows, opts: &Options, read: &mut Read) -> String {
    if let Some(m) = &opts.model {
        return m.clone();
    }
    let config = group.config;
    let model_id = slug(&config.prefix);
    let known = current.models.iter().any(|m| m.id == model_id)
        || read.rows.models.iter().any(|m| m.id == model_id);
    if !known {
        read.rows.models.push(ModelRow {
            id: model_id.clone(),
            name: config.model.clone(),
            licence: "not recorded: the benchmark files do not state it".into(),
            licence_revenue_threshold_usd: None,
            // The benchmark files are this model's only source.
            licence_source: group.id.clone(),
        });
    }
    model_id
}

/// The measurements of one configuration, made into one curve.
struct Group<'a> {
    config: &'a Config,
    measured: &'a [Measurement],
    /// The points on the Pareto frontier.
    kept: Vec<Measurement>,
    /// The curve's id, which is also its source's key.
    id: String,
    /// The GPUs of a replica in words.
    pools: String,
}

impl<'a> Group<'a> {
    fn new(config: &'a Config, measured: &'a [Measurement]) -> Self {
        let parts = [
            config.prefix.as_str(),
            config.hw.as_str(),
            config.precision.as_str(),
            config.framework.as_str(),
            config.parallel.as_str(),
            config.spec.as_str(),
        ];
        let prefix = config.prefix.to_ascii_lowercase();
        let named: Vec<&str> = parts
            .into_iter()
            .enumerate()
            // A part the model's name already says (`fp4` in `DeepSeek-R1-0528-FP4`) once.
            .filter(|(i, p)| {
                *p != NOT_STATED
                    && *p != "none"
                    && (*i == 0 || !prefix.contains(&p.to_ascii_lowercase()))
            })
            .map(|(_, p)| p)
            .collect();
        let id = super::id(&format!(
            "{}-{}-{}-{}",
            config.kind.id_prefix(),
            named.join("-"),
            config.isl,
            config.osl
        ));
        let pools = if config.disagg {
            format!(
                "{} GPUs in disaggregated prefill and decode pools ({})",
                config.gpus, config.parallel
            )
        } else {
            format!("{} GPUs ({})", config.gpus, config.parallel)
        };
        Self {
            config,
            measured,
            kept: frontier(measured),
            id,
            pools,
        }
    }

    /// Adds the curve of `model`, its source and its points to `read`.
    fn add(
        &self,
        model: String,
        today: &str,
        deployed: bool,
        read: &mut Read,
        notes: &mut Vec<String>,
    ) {
        let (id, kept, measured) = (&self.id, &self.kept, self.measured);
        if kept.len() < measured.len() {
            notes.push(format!(
                "curve {id}: kept {} of {} points (the others are not on the Pareto frontier)",
                kept.len(),
                measured.len()
            ));
        }
        read.rows.sources.push(self.source(today));
        let mut curve = self.curve(model);
        if deployed {
            // The run's name says how its GPUs were split: one copy of the model on them.
            curve.replica_basis = Some(format!(
                "{} GPUs a replica: the run's parallelism ({}), as its file names it",
                self.config.gpus, self.config.parallel
            ));
        }
        read.rows.curves.push(curve);
        for (idx, m) in kept.iter().enumerate() {
            read.rows.points.push(PointRow {
                curve: id.clone(),
                idx: idx as i64,
                tps: m.tps,
                tokens_per_s_per_gpu: Some(m.tput_per_gpu),
                usd_per_mtok: None,
                note: Some(format!("concurrency {}, {}", m.conc, m.file)),
                power_w_per_gpu: m.power_w,
            });
        }
        let first = &measured[0];
        read.origins
            .entry((CurveRow::KIND, id.clone()))
            .or_insert_with(|| (first.file.clone(), first.at.clone()));
    }

    /// The curve's source: the result files, dated by the newest (else the import's date).
    fn source(&self, today: &str) -> SourceRow {
        let (config, measured) = (self.config, self.measured);
        let mut files: Vec<&str> = measured.iter().map(|m| m.file.as_str()).collect();
        files.sort_unstable();
        files.dedup();
        let dates: Vec<&String> = measured.iter().filter_map(|m| m.date.as_ref()).collect();
        let date = dates
            .iter()
            .max()
            .map_or_else(|| today.to_owned(), |d| (*d).clone());
        let dated = if dates.is_empty() {
            format!(" The files carry no date: {today} is the import date.")
        } else {
            String::new()
        };
        SourceRow {
            key: self.id.clone(),
            publisher: config.kind.publisher().into(),
            title: format!("{} on {}: {}", config.model, config.hw, files.join(", ")),
            url: None,
            date,
            trust: "independent".into(),
            caveat: Some(format!(
                "Imported from {} result file{}; {} of {} points on the upper-left Pareto frontier \
                 kept. Interactivity = 1000 / median TPOT (ms); throughput = total tokens/s per \
                 GPU over {}.{dated}",
                files.len(),
                if files.len() == 1 { "" } else { "s" },
                self.kept.len(),
                measured.len(),
                self.pools
            )),
        }
    }

    /// The curve's row, measured at the benchmark's input and output lengths (or at the
    /// tokens its runs measured, when the files give them).
    fn curve(&self, model: String) -> CurveRow {
        let config = self.config;
        let measured: Vec<(f64, f64)> = self.measured.iter().filter_map(|m| m.tokens).collect();
        let (mix_in, mix_out, lengths) = if measured.len() == self.measured.len() {
            let (i, o) = measured
                .iter()
                .fold((0.0, 0.0), |(i, o), (a, b)| (i + a, o + b));
            // To a millionth of the output share: the mix is a ratio, not a count.
            let ratio = (i / o * 1e6).round() / 1e6;
            (
                ratio,
                1.0,
                format!(
                    "the input and output tokens its runs measured ({} input tokens to each \
                     output token; nominal ISL/OSL {}/{})",
                    servecost::format::significant(ratio, 4),
                    config.isl,
                    config.osl
                ),
            )
        } else {
            (
                config.isl as f64,
                config.osl as f64,
                format!("ISL/OSL {}/{}", config.isl, config.osl),
            )
        };
        CurveRow {
            id: self.id.clone(),
            revision: 0,
            model,
            chip: config.hw.clone(),
            precision: config.precision.clone(),
            framework: config.framework.clone(),
            replica_gpus: f64::from(config.gpus),
            mix_uncached: mix_in,
            mix_cached: 0.0,
            mix_output: mix_out,
            mix_stated: true,
            price_basis_usd: None,
            source: self.id.clone(),
            note: Some(format!(
                "Measured at {lengths} with random prompts (no prefix cache: all input \
                 uncached), {}; speculative decoding: {}.{}{}",
                self.pools,
                config.spec,
                if config.precision == NOT_STATED {
                    " Raw benchmark output: precision and serving framework are not in the files."
                } else {
                    ""
                },
                config.kind.caveat()
            )),
            tier: config.kind.tier().map(str::to_owned),
            // Runs at several input lengths are told apart by it.
            setup: (config.kind == Kind::DecodeSlo).then(|| {
                format!(
                    "{} in / {} out tokens",
                    servecost::format::thousands(config.isl as f64),
                    config.osl
                )
            }),
            prefill: None,
            replica_basis: None,
            batch_tokens_per_s_per_gpu: None,
            input_share_low: None,
            input_share_high: None,
            is_default: false,
        }
    }
}
