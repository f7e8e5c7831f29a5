//! Development result files of the InferenceX repository, beyond its own formats:
//!
//! - `together_runner` baselines (`baselines/<hw>/<framework>/<profile>/…/conc<N>.json`): the
//!   run's settings at the top (`hw`, `model`, `framework`, `precision`, `tp`, `ep`, `conc`,
//!   `isl`, `osl`, `ts`), the client's figures under `metrics` (`total_token_throughput`,
//!   `output_token_throughput`, `median_tpot_ms`) and the power sampled on the host's GPUs under
//!   `gpu` (`n_gpus`, `mean_power_per_gpu_w`). A replica is `tp` GPUs; throughput per GPU =
//!   total tokens/s ÷ `tp`; speed per user = 1000 ÷ median TPOT (ms); the mix is the measured
//!   input (total − output) to output tokens/s. The power is kept only when it was sampled on
//!   the replica's own GPUs (`n_gpus` = `tp`): over idle GPUs too it is not the replica's.
//! - `token_position_decode_slo` results (`<model>_…_<tp8|tep8|dep8>_isl<N>_osl<M>_conc<C>.json`,
//!   vLLM's benchmark client): `median_tpot` in seconds, `input_throughput` and
//!   `output_throughput`, `total_input_tokens` and `total_output_tokens`. The chip is not in the
//!   file (`--hardware`); the GPUs come from the file name's parallelism; throughput per GPU =
//!   (input + output tokens/s) ÷ GPUs.
//!
//! Both become [`Measurement`]s, made into curves as InferenceX's are, tagged experimental.

use serde_json::Value;

use super::inferencex::{Config, Kind, Measurement};
use super::{ImportProblem, Options, Read};

/// True for a `together_runner` result.
pub fn is_together_runner(value: &Value) -> bool {
    value
        .get("metrics")
        .is_some_and(|m| m.get("total_token_throughput").is_some())
        && value.get("tp").is_some()
        && value.get("hw").is_some()
}

/// True for a `token_position_decode_slo` result (vLLM's benchmark client).
pub fn is_decode_slo(value: &Value) -> bool {
    value.get("median_tpot").is_some()
        && value.get("input_throughput").is_some()
        && value.get("max_concurrency").is_some()
}

/// A positive number at `path` (`metrics.median_tpot_ms`), or the problem naming it.
fn number(file: &str, value: &Value, path: &str) -> Result<f64, ImportProblem> {
    let v = path.split('.').try_fold(value, |v, part| v.get(part));
    match v.and_then(Value::as_f64) {
        Some(n) if n.is_finite() && n > 0.0 => Ok(n),
        Some(n) => Err(ImportProblem::new(
            file,
            "",
            path,
            format!("{n} is not a positive number"),
        )),
        None => Err(ImportProblem::new(
            file,
            "",
            path,
            "missing, or not a number",
        )),
    }
}

fn text(file: &str, value: &Value, field: &str) -> Result<String, ImportProblem> {
    value
        .get(field)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .ok_or_else(|| ImportProblem::new(file, "", field, "missing, or not text"))
}

/// `2026-06-12T01:00:32+00:00` or `20260213-135636` as `2026-06-12`.
fn day(text: &str) -> Option<String> {
    let digits: String = text.chars().filter(char::is_ascii_digit).take(8).collect();
    (digits.len() == 8).then(|| format!("{}-{}-{}", &digits[..4], &digits[4..6], &digits[6..8]))
}

/// Reads a `together_runner` result.
pub fn together_runner(
    file: &str,
    value: &Value,
    read: &mut Read,
) -> Result<(), Vec<ImportProblem>> {
    let mut problems = Vec::new();
    let mut num = |path: &str| {
        number(file, value, path)
            .map_err(|p| problems.push(p))
            .unwrap_or(1.0)
    };
    let (total, output, tpot) = (
        num("metrics.total_token_throughput"),
        num("metrics.output_token_throughput"),
        num("metrics.median_tpot_ms"),
    );
    let (tp, conc, isl, osl) = (num("tp"), num("conc"), num("isl"), num("osl"));
    let mut txt = |field: &str| {
        text(file, value, field)
            .map_err(|p| problems.push(p))
            .unwrap_or_default()
    };
    let (model, hw, framework, precision) =
        (txt("model"), txt("hw"), txt("framework"), txt("precision"));
    if problems.is_empty() && (tp.fract() != 0.0 || tp > 1_024.0) {
        problems.push(ImportProblem::new(
            file,
            "",
            "tp",
            format!("{tp} is not a whole number of GPUs"),
        ));
    }
    if problems.is_empty() && output >= total {
        problems.push(ImportProblem::new(
            file,
            "",
            "metrics.output_token_throughput",
            format!("{output} is not below the total throughput {total}: no input was measured"),
        ));
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let ep = value.get("ep").and_then(Value::as_f64).unwrap_or(0.0);
    let sampled = value
        .get("gpu")
        .and_then(|g| g.get("n_gpus"))
        .and_then(Value::as_f64);
    let power = value
        .get("gpu")
        .and_then(|g| g.get("mean_power_per_gpu_w"))
        .and_then(Value::as_f64)
        .filter(|w| w.is_finite() && *w > 0.0 && sampled == Some(tp));
    read.measurements.push(Measurement {
        file: super::file_name(file),
        at: String::new(),
        tps: 1000.0 / tpot,
        tput_per_gpu: total / tp,
        conc,
        date: value.get("ts").and_then(Value::as_str).and_then(day),
        power_w: power,
        tokens: Some((total - output, output)),
        config: Config {
            prefix: model.rsplit('/').next().unwrap_or(&model).to_owned(),
            model,
            hw: hw.to_ascii_lowercase(),
            precision,
            framework,
            parallel: if ep > 1.0 {
                format!("tp{tp}-ep{ep}")
            } else {
                format!("tp{tp}")
            },
            spec: "none".into(),
            gpus: tp as u32,
            isl: isl as u64,
            osl: osl as u64,
            disagg: false,
            kind: Kind::TogetherRunner,
        },
    });
    Ok(())
}

/// The parallelism and GPUs in a `token_position_decode_slo` file name (`…_tep8_…`).
fn parallelism(name: &str) -> Option<(String, u32)> {
    name.trim_end_matches(".json").split('_').find_map(|part| {
        let digits = part.trim_start_matches(|c: char| c.is_ascii_alphabetic());
        let letters = &part[..part.len() - digits.len()];
        let gpus: u32 = digits.parse().ok()?;
        (matches!(letters, "tp" | "tep" | "dep") && (1..=1_024).contains(&gpus))
            .then(|| (part.to_owned(), gpus))
    })
}

/// A whole number after `key` in a file name (`isl8192`).
fn after(name: &str, key: &str) -> Option<u64> {
    name.trim_end_matches(".json")
        .split('_')
        .find_map(|part| part.strip_prefix(key)?.parse().ok())
}

/// Reads a `token_position_decode_slo` result; `--hardware` names the chip.
pub fn decode_slo(
    file: &str,
    value: &Value,
    opts: &Options,
    read: &mut Read,
) -> Result<(), Vec<ImportProblem>> {
    let name = super::file_name(file);
    let Some(hw) = opts.hardware.as_deref() else {
        return Err(vec![ImportProblem::new(
            file,
            "",
            "hardware",
            "these results do not say which hardware ran them: give the chip with --hardware \
             CHIP (a chip id from the dataset, e.g. h200)",
        )]);
    };
    let Some((parallel, gpus)) = parallelism(&name) else {
        return Err(vec![ImportProblem::new(
            file,
            "",
            "file name",
            "the GPUs are read from the file name's parallelism (…_tp8_…, _tep8_ or _dep8_): \
             this name does not have it",
        )]);
    };
    let mut problems = Vec::new();
    let mut num = |path: &str| {
        number(file, value, path)
            .map_err(|p| problems.push(p))
            .unwrap_or(1.0)
    };
    let (input_tps, output_tps, tpot) = (
        num("input_throughput"),
        num("output_throughput"),
        num("median_tpot"),
    );
    let (input, output, conc) = (
        num("total_input_tokens"),
        num("total_output_tokens"),
        num("max_concurrency"),
    );
    let model = text(file, value, "model_id")
        .map_err(|p| problems.push(p))
        .unwrap_or_default();
    if !problems.is_empty() {
        return Err(problems);
    }
    let precision = ["fp8", "fp4", "bf16"]
        .into_iter()
        .find(|p| model.to_ascii_lowercase().contains(p) || name.contains(p))
        .unwrap_or("not stated");
    read.measurements.push(Measurement {
        file: name.clone(),
        at: String::new(),
        // `median_tpot` is in seconds.
        tps: 1.0 / tpot,
        tput_per_gpu: (input_tps + output_tps) / f64::from(gpus),
        conc,
        date: value.get("date").and_then(Value::as_str).and_then(day),
        power_w: None,
        tokens: Some((input, output)),
        config: Config {
            prefix: model.rsplit('/').next().unwrap_or(&model).to_owned(),
            model,
            hw: hw.to_ascii_lowercase(),
            precision: precision.into(),
            framework: "vLLM".into(),
            parallel,
            spec: "not stated".into(),
            gpus,
            isl: after(&name, "isl").unwrap_or(0),
            osl: after(&name, "osl").unwrap_or(0),
            disagg: false,
            kind: Kind::DecodeSlo,
        },
    });
    Ok(())
}
