//! What is pasted into the benchmark editor's box: rows copied from a spreadsheet, or the
//! results of a vLLM or SGLang serving benchmark.

use serde::Deserialize;
use servecost::codec::{read_number, write_rounded};

use super::{tps_problem, tput_problem, Row};

/// What a paste gave.
#[derive(Debug, Clone, PartialEq)]
pub struct Pasted {
    /// One row per pasted line or benchmark result.
    pub rows: Vec<Row>,
    /// True for benchmark results: a whole measurement, so they replace the table's rows
    /// (and its mix); spreadsheet rows are added to the rows there.
    pub results: bool,
    /// The `input:cached:output` mix the benchmark results were measured at, when they say
    /// (vLLM's results give total input and output tokens; their random prompts share no
    /// prefix, so nothing was cached).
    pub mix: Option<String>,
}

/// What a paste read, in words: `Read 3 benchmark results: they replace the rows and the mix.`
pub fn read_words(p: &Pasted) -> String {
    let n = p.rows.len();
    if p.results {
        format!(
            "Read {n} benchmark {}: {} the rows and the mix.",
            if n == 1 { "result" } else { "results" },
            if n == 1 {
                "it replaces"
            } else {
                "they replace"
            }
        )
    } else {
        format!(
            "Read {n} {}, added to the rows.",
            if n == 1 { "row" } else { "rows" }
        )
    }
}

/// Reads pasted text: the result JSON of `vllm bench serve` (one object a run, several
/// objects or an array of them for several runs; the total throughput is divided by `gpus`),
/// or rows copied from a spreadsheet (two numbers a line, separated by a tab, a semicolon, a
/// comma or spaces; a header line is skipped).
pub fn read_paste(text: &str, gpus: Option<f64>) -> Result<Pasted, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("nothing to read: paste rows or a benchmark result".to_owned());
    }
    if text.starts_with('{') || text.starts_with('[') {
        benchmark_json(text, gpus)
    } else {
        spreadsheet(text).map(|rows| Pasted {
            rows,
            mix: None,
            results: false,
        })
    }
}

pub(super) fn spreadsheet(text: &str) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let cells: Vec<&str> = if line.contains('\t') {
            line.split('\t').collect()
        } else if line.contains(';') {
            line.split(';').collect()
        } else if line.matches(',').count() == 1 {
            line.split(',').collect()
        } else {
            line.split_whitespace().collect()
        };
        let cells: Vec<&str> = cells
            .into_iter()
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .collect();
        let numbers: Vec<Option<f64>> = cells.iter().map(|c| read_number(c, true, false)).collect();
        if numbers.iter().all(Option::is_none) && rows.is_empty() {
            continue; // a header line
        }
        match (cells.first(), cells.get(1), numbers.first(), numbers.get(1)) {
            (Some(a), Some(b), Some(Some(_)), Some(Some(_))) => {
                if let Some(p) = tps_problem(a).or_else(|| tput_problem(b)) {
                    return Err(format!("line {}: {p}", n + 1));
                }
                rows.push(Row::new((*a).to_owned(), (*b).to_owned()))
            }
            _ => {
                return Err(format!(
                    "line {}: \"{line}\" is not two numbers (output tokens/s per user, then \
                     total tokens/s per GPU)",
                    n + 1
                ))
            }
        }
    }
    if rows.is_empty() {
        return Err("no rows of two numbers in the pasted text".to_owned());
    }
    Ok(rows)
}

/// The fields a vLLM serving-benchmark result must have.
const BENCH_FIELDS: [&str; 4] = [
    "total_token_throughput",
    "median_tpot_ms",
    "total_input_tokens",
    "total_output_tokens",
];

/// One run of a vLLM or SGLang serving-benchmark result: the fields servecost reads (the
/// others are left alone). SGLang's `bench_serving` names the total `total_throughput`, or
/// gives input and output throughput apart.
#[derive(Debug, Default, Deserialize)]
struct Run {
    #[serde(alias = "total_throughput")]
    total_token_throughput: Option<f64>,
    input_throughput: Option<f64>,
    output_throughput: Option<f64>,
    median_tpot_ms: Option<f64>,
    total_input_tokens: Option<f64>,
    total_output_tokens: Option<f64>,
}

/// A pasted value: one run, or an array of runs.
#[derive(Deserialize)]
#[serde(untagged)]
enum Runs {
    Many(Vec<Run>),
    One(Run),
}

/// The top-level JSON values of `text`, one after another (several results pasted together),
/// split by their brackets, strings and escapes respected; `None` when something else stands
/// between them or a value is left open.
fn json_values(text: &str) -> Option<Vec<&str>> {
    let mut out = Vec::new();
    let (mut depth, mut start, mut in_string, mut escaped) = (0usize, None, false, false);
    for (i, c) in text.char_indices() {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '{' | '[' => {
                if depth == 0 {
                    start = Some(i);
                }
                depth += 1;
            }
            '}' | ']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    out.push(&text[start?..=i]);
                }
            }
            '"' if depth > 0 => in_string = true,
            c if depth == 0 && !c.is_whitespace() && c != ',' => return None,
            _ => {}
        }
    }
    (depth == 0 && !in_string).then_some(out)
}

/// Parses one JSON value: by the browser's `JSON.parse` in the browser bundle, by serde_json on
/// the server.
#[cfg(feature = "hydrate")]
fn parse_runs(text: &str) -> Result<Runs, String> {
    let value = js_sys::JSON::parse(text).map_err(|_| "not valid JSON".to_owned())?;
    serde_wasm_bindgen::from_value(value).map_err(|e| format!("not a benchmark result: {e}"))
}

/// Parses one JSON value: by the browser's `JSON.parse` in the browser bundle, by serde_json on
/// the server.
#[cfg(not(feature = "hydrate"))]
fn parse_runs(text: &str) -> Result<Runs, String> {
    serde_json::from_str(text).map_err(|e| {
        if e.is_data() {
            format!("not a benchmark result: {e}")
        } else {
            format!("not valid JSON: {e}")
        }
    })
}

fn benchmark_json(text: &str, gpus: Option<f64>) -> Result<Pasted, String> {
    let values =
        json_values(text).ok_or("not valid JSON: unbalanced brackets or text between results")?;
    let mut runs = Vec::new();
    for value in values {
        match parse_runs(value)? {
            Runs::Many(many) => runs.extend(many),
            Runs::One(one) => runs.push(one),
        }
    }
    let Some(gpus) = gpus.filter(|g| *g >= 1.0) else {
        return Err(
            "a benchmark result gives the throughput of all its GPUs: set GPUs per replica \
             first, then read it again"
                .to_owned(),
        );
    };
    let mut rows = Vec::new();
    let (mut input, mut output) = (0.0, 0.0);
    for (i, run) in runs.iter().enumerate() {
        let which = if runs.len() > 1 {
            format!("result {}: ", i + 1)
        } else {
            String::new()
        };
        let get = |field: &str| -> Result<f64, String> {
            let value = match field {
                "total_token_throughput" => run
                    .total_token_throughput
                    .or_else(|| Some(run.input_throughput? + run.output_throughput?)),
                "median_tpot_ms" => run.median_tpot_ms,
                "total_input_tokens" => run.total_input_tokens,
                _ => run.total_output_tokens,
            };
            match value {
                Some(v) if v.is_finite() && v > 0.0 => Ok(v),
                Some(_) => Err(format!("{which}{field} must be a positive number")),
                None => Err(format!(
                    "{which}{field} is missing: a serving-benchmark result (vllm bench serve \
                     --save-result, or SGLang's bench_serving --output-file) has {}",
                    BENCH_FIELDS.join(", ")
                )),
            }
        };
        let total = get("total_token_throughput")?;
        let tpot = get("median_tpot_ms")?;
        input += get("total_input_tokens")?;
        output += get("total_output_tokens")?;
        let tps = 1000.0 / tpot;
        let tput = total / gpus;
        if let Some(p) = tps_problem(&write_rounded(tps, false)) {
            return Err(format!("{which}speed 1000 / median_tpot_ms: {p}"));
        }
        let row = Row::new(write_rounded(tps, false), write_rounded(tput, false));
        if let Some(p) = tput_problem(&row.tput) {
            return Err(format!(
                "{which}throughput total_token_throughput / {gpus} GPUs: {p}"
            ));
        }
        rows.push(row);
    }
    if rows.is_empty() {
        return Err("no benchmark result in the pasted JSON".to_owned());
    }
    let total = input + output;
    let share = |x: f64| write_rounded(100.0 * x / total, false);
    Ok(Pasted {
        rows,
        results: true,
        mix: Some(format!("{}:0:{}", share(input), share(output))),
    })
}
