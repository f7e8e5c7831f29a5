//! Provider usage exports read into buckets ([`servecost::usage::Bucket`]), recognised by
//! content: the OpenAI Usage API's completions pages, Anthropic's Messages usage report and a
//! CSV with a header. Examples of each are in `server/usage-examples/`.

mod anthropic;
mod openai;
mod stream;
mod table;
mod time;

use std::collections::HashSet;
use std::io::{BufRead, Read};
use std::sync::Arc;

use servecost::usage::Bucket;
use servecost::Problem;

/// The largest export read: 16 MiB.
pub const LIMIT: usize = 16 * 1024 * 1024;

/// The formats read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// OpenAI's `GET /v1/organization/usage/completions`: a page, or an array of pages.
    Openai,
    /// Anthropic's `GET /v1/organizations/usage_report/messages`.
    Anthropic,
    /// A CSV (comma, semicolon or tab) with a header row.
    Csv,
}

/// A bucket of one model's traffic, as an export gives it.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The model it counts (`None`: the export does not group by model), one copy of each
    /// name for all its rows ([`Names`]).
    pub model: Option<Arc<str>>,
    /// Its span and tokens.
    pub bucket: Bucket,
}

/// What an export holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Export {
    /// Its format.
    pub format: Format,
    /// Its buckets, by model where it says.
    pub rows: Vec<Row>,
}

impl Export {
    /// The models the export names, in order of first appearance.
    pub fn models(&self) -> Vec<String> {
        let mut seen: HashSet<&str> = HashSet::new();
        self.rows
            .iter()
            .filter_map(|r| r.model.as_deref())
            .filter(|m| seen.insert(m))
            .map(str::to_owned)
            .collect()
    }

    /// The buckets of `model` (all of them with `None`), in the rows' own memory (an export
    /// may hold hundreds of thousands); a model the export does not name is refused with the
    /// models it does.
    pub fn buckets(self, model: Option<&str>) -> Result<Vec<Bucket>, Problem> {
        let Some(model) = model else {
            return Ok(self.rows.into_iter().map(|r| r.bucket).collect());
        };
        let models = self.models();
        // Names as the export writes them, case aside (`GPT-OSS-120B` is `gpt-oss-120b`).
        let Some(model) = models.iter().find(|m| m.eq_ignore_ascii_case(model)) else {
            let named = if models.is_empty() {
                "the export does not group its buckets by model".to_owned()
            } else {
                format!("the export names {}", models.join(", "))
            };
            return Err(Problem::new(
                "model",
                model,
                format!("no bucket of this model: {named}"),
            ));
        };
        // A bucket of no model counts for every model only when it holds nothing (a span with
        // no traffic): tokens of no model are no model's.
        let empty = |b: &Bucket| b.uncached + b.cached + b.output == 0.0;
        Ok(self
            .rows
            .into_iter()
            .filter(|r| match r.model.as_deref() {
                Some(m) => m == model.as_str(),
                None => empty(&r.bucket),
            })
            .map(|r| r.bucket)
            .collect())
    }

    /// The period the whole export covers (from, to): one model's workload is measured over
    /// it, not over the hours that model happened to run.
    pub fn span(&self) -> (i64, i64) {
        let from = self.rows.iter().map(|r| r.bucket.start).min();
        let to = self.rows.iter().map(|r| r.bucket.end).max();
        (from.unwrap_or_default(), to.unwrap_or_default())
    }
}

/// Reads an export of any of the formats, recognised by its first characters and keys.
pub fn read(text: &str) -> Result<Export, Problem> {
    read_from(text.as_bytes())
}

/// Bytes of the export's start looked at to tell its format: a JSON export's first bucket
/// names its time key well within them.
const PREFIX: usize = 1024 * 1024;

/// Bytes of the longest key [`json_format`] looks for, less one: how far a search of new
/// bytes looks back, for a key split between two of them.
const KEY: usize = "\"starting_at\"".len() - 1;

/// Reads an export as its bytes come from `source` (an upload on its way, or a text), never
/// holding it whole: only the rows it makes are kept.
pub fn read_from(source: impl Read) -> Result<Export, Problem> {
    let bad = std::rc::Rc::new(std::cell::Cell::new(None));
    let read = read_text(stream::Utf8::new(source, bad.clone()));
    match bad.get() {
        Some(at) => Err(Problem::new(
            "body",
            "",
            format!(
                "not UTF-8 text (byte {}): send the export as downloaded",
                servecost::format::thousands(at as f64)
            ),
        )),
        None => read,
    }
}

/// A problem reading the source itself (an upload cut short says so where it is answered).
fn unreadable(e: std::io::Error) -> Problem {
    Problem::new("body", "", format!("could not be read: {e}"))
}

fn read_text(mut text: stream::Utf8<impl Read>) -> Result<Export, Problem> {
    if text
        .fill_buf()
        .map_err(unreadable)?
        .starts_with("\u{feff}".as_bytes())
    {
        text.consume(3);
    }
    // The start of the text, up to its first line that is not blank and, for JSON, the first
    // key naming a bucket's time; then read with the rest after it.
    let mut prefix: Vec<u8> = Vec::new();
    let mut first = None;
    loop {
        let chunk = text.fill_buf().map_err(unreadable)?;
        if chunk.is_empty() {
            break;
        }
        let n = chunk.len().min(PREFIX - prefix.len());
        // Only what came now is searched (with the length of a key before it), so that an
        // export sent a few bytes at a time costs no more than one sent at once.
        let from = prefix.len();
        prefix.extend_from_slice(&chunk[..n]);
        text.consume(n);
        if first.is_none() {
            first = prefix[from..]
                .iter()
                .position(|b| !b.is_ascii_whitespace())
                .map(|i| from + i);
        }
        let done = match first {
            None => false,
            Some(f) if matches!(prefix[f], b'{' | b'[') => {
                json_format(&prefix[from.saturating_sub(KEY)..]).is_some()
            }
            Some(f) => prefix[from.max(f)..].contains(&b'\n'),
        };
        if done || prefix.len() == PREFIX {
            break;
        }
    }
    let Some(first) = first else {
        return Err(Problem::new(
            "body",
            "",
            "empty: paste or upload a usage export",
        ));
    };
    let start = prefix[first];
    let source = std::io::Cursor::new(prefix).chain(text);
    if matches!(start, b'{' | b'[') {
        let array = start == b'[';
        let prefix = source.get_ref().0.get_ref();
        return match json_format(prefix).unwrap_or(Format::Openai) {
            Format::Anthropic => anthropic::read(source, array).map(|rows| Export {
                format: Format::Anthropic,
                rows,
            }),
            _ => openai::read(source, array).map(|rows| Export {
                format: Format::Openai,
                rows,
            }),
        };
    }
    let separator = separator(source.get_ref().0.get_ref());
    table::read(stream::Lf::new(source), separator).map(|rows| Export {
        format: Format::Csv,
        rows,
    })
}

/// The JSON format whose bucket time key comes first in `prefix`: Anthropic's buckets start
/// at `starting_at`, OpenAI's at `start_time`.
fn json_format(prefix: &[u8]) -> Option<Format> {
    let find = |key: &[u8]| memchr::memmem::find(prefix, key);
    match (find(b"\"starting_at\""), find(b"\"start_time\"")) {
        (Some(a), Some(o)) if o < a => Some(Format::Openai),
        (Some(_), _) => Some(Format::Anthropic),
        (None, Some(_)) => Some(Format::Openai),
        (None, None) => None,
    }
}

/// The separator a CSV's header (its first line that is not blank, in `prefix`) uses most:
/// comma, semicolon or tab.
fn separator(prefix: &[u8]) -> u8 {
    let header = prefix
        .split(|b| matches!(b, b'\n' | b'\r'))
        .find(|l| !l.iter().all(u8::is_ascii_whitespace))
        .unwrap_or_default();
    // On a tie the last one wins: a comma before a semicolon before a tab.
    [b'\t', b';', b',']
        .into_iter()
        .max_by_key(|s| header.iter().filter(|b| *b == s).count())
        .unwrap_or(b',')
}

/// One copy of each model name for all the rows that name it.
#[derive(Default)]
struct Names(HashSet<Arc<str>>);

impl Names {
    fn get(&mut self, name: &str) -> Arc<str> {
        if let Some(n) = self.0.get(name) {
            return n.clone();
        }
        let n: Arc<str> = name.into();
        self.0.insert(n.clone());
        n
    }
}

/// Where a page stands in its file (`None`: the file is the page), to name its fields as the
/// file does: `data[0]…`, or `[1].data[0]…` in an array of pages.
#[derive(Debug, Clone, Copy)]
struct Within(Option<usize>);

impl Within {
    fn at(self, rest: &str) -> String {
        match self.0 {
            Some(p) => format!("[{p}].{rest}"),
            None => rest.to_owned(),
        }
    }
}

/// The pages of a JSON export read from `source`: one value, or an array of them (`array`),
/// and nothing after it.
fn pages<T: serde::de::DeserializeOwned>(
    source: impl Read,
    array: bool,
) -> Result<Vec<(Within, T)>, Problem> {
    let de = &mut serde_json::Deserializer::from_reader(source);
    let pages: Vec<T> = if array {
        serde_path_to_error::deserialize(&mut *de).map_err(json_problem)?
    } else {
        vec![serde_path_to_error::deserialize(&mut *de).map_err(json_problem)?]
    };
    // One value: a second page appended to the file, or anything else after it, is refused.
    de.end().map_err(|e| {
        Problem::new(
            "body",
            "",
            format!(
                "more after the export's end (line {}): send one page, or a JSON array of pages",
                servecost::format::thousands(e.line() as f64)
            ),
        )
    })?;
    Ok(pages
        .into_iter()
        .enumerate()
        .map(|(p, page)| (Within(array.then_some(p)), page))
        .collect())
}

/// A serde error at a path, as a problem naming the field.
fn json_problem(e: serde_path_to_error::Error<serde_json::Error>) -> Problem {
    let path = e.path().to_string();
    let field = if path == "." { "body".to_owned() } else { path };
    let inner = e.into_inner();
    Problem::new(
        &field,
        "",
        format!(
            "{} (line {}, column {})",
            inner
                .to_string()
                .split(" at line")
                .next()
                .unwrap_or_default(),
            servecost::format::thousands(inner.line() as f64),
            servecost::format::thousands(inner.column() as f64)
        ),
    )
}

/// A token count: a whole, non-negative number.
fn tokens(field: &str, v: f64) -> Result<f64, Problem> {
    if v.is_finite() && v >= 0.0 && v.fract() == 0.0 {
        Ok(v)
    } else {
        Err(Problem::new(
            field,
            servecost::format::exact(v, false),
            "expected a whole number of tokens from 0",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each class's tokens, the requests and the batch tokens of some buckets.
    fn totals(buckets: &[Bucket]) -> [f64; 5] {
        let sum = |f: fn(&Bucket) -> f64| buckets.iter().map(f).sum::<f64>();
        [
            sum(|b| b.uncached),
            sum(|b| b.cached),
            sum(|b| b.output),
            sum(|b| b.requests.unwrap_or(0.0)),
            sum(|b| {
                if b.batch {
                    b.uncached + b.cached + b.output
                } else {
                    0.0
                }
            }),
        ]
    }

    /// Two pages of daily buckets, two models, batch rows, a day of no traffic, `input_tokens`
    /// counting the cached ones (totals worked out when the file was made).
    #[test]
    fn reads_openai_pages() {
        let e = read(include_str!("../usage-examples/openai-completions.json")).expect("reads");
        assert_eq!(e.format, Format::Openai);
        assert_eq!(e.models(), ["gpt-oss-120b", "llama-3.3-70b"]);
        let all = e.clone().buckets(None).expect("all");
        assert_eq!(totals(&all), [46.6e6, 62.4e6, 16.1e6, 31_900.0, 17.5e6]);
        let one = e.clone().buckets(Some("gpt-oss-120b")).expect("one model");
        assert_eq!(totals(&one), [45e6, 62e6, 15.9e6, 31_700.0, 17.5e6]);
        // The quiet day (2026-05-28, no result) stays in one model's buckets.
        assert!(one
            .iter()
            .any(|b| b.start == 1_779_926_400 && b.uncached == 0.0));
        assert_eq!(e.span(), (1_779_667_200, 1_779_667_200 + 14 * 86_400));
        let missing = e.buckets(Some("gpt-5")).expect_err("refused");
        assert_eq!(missing.param, "model");
        assert!(
            missing.reason.contains("gpt-oss-120b, llama-3.3-70b"),
            "{}",
            missing.reason
        );
    }

    /// Hourly buckets; cache writes in `cache_creation` and in the flat fields count as
    /// uncached input; the batch tier is batch.
    #[test]
    fn reads_anthropic_reports() {
        let e = read(include_str!("../usage-examples/anthropic-messages.json")).expect("reads");
        assert_eq!(e.format, Format::Anthropic);
        let b = e.buckets(None).expect("all");
        assert_eq!(
            totals(&b),
            [1_253_000.0, 4_600_000.0, 560_000.0, 0.0, 301_000.0]
        );
        assert!(b
            .iter()
            .all(|x| x.end - x.start == 3_600 && x.requests.is_none()));
    }

    /// Semicolons, columns in a spreadsheet's order and names, hours as `2026-06-01 09:00`.
    #[test]
    fn reads_a_csv_with_a_header() {
        let e = read(include_str!("../usage-examples/usage.csv")).expect("reads");
        assert_eq!(e.format, Format::Csv);
        assert_eq!(e.models(), ["qwen3-235b"]);
        let b = e.buckets(None).expect("all");
        assert_eq!(
            totals(&b),
            [768_000.0, 1_152_000.0, 304_000.0, 608.0, 640_000.0]
        );
        assert!(b.iter().all(|x| x.end - x.start == 3_600));
    }

    /// A page of one bucket whose result gives no request count.
    const ONE_PAGE: &str = r#"{"object":"page","data":[{"start_time":1780272000,"end_time":1780358400,"results":[{"input_tokens":5,"input_cached_tokens":2,"output_tokens":1,"num_model_requests":null}]}]}"#;

    #[test]
    fn malformed_exports_name_the_field_or_line() {
        let openai = include_str!("../usage-examples/openai-completions.json").replacen(
            "\"output_tokens\": 1200000",
            "\"output_tokens\": \"many\"",
            1,
        );
        let p = read(&openai).expect_err("refused");
        assert_eq!(p.param, "[0].data[0].results[0].output_tokens", "{p:?}");
        let cached = r#"{"object":"page","data":[{"start_time":0,"end_time":86400,"results":[{"input_tokens":5,"input_cached_tokens":9,"output_tokens":1}]}]}"#;
        assert_eq!(
            read(cached).expect_err("refused").param,
            "data[0].results[0].input_cached_tokens"
        );
        let anthropic = include_str!("../usage-examples/anthropic-messages.json").replacen(
            "\"starting_at\": \"2026-06-01T05:00:00Z\"",
            "\"starting_at\": \"yesterday\"",
            1,
        );
        assert_eq!(
            read(&anthropic).expect_err("refused").param,
            "data[5].starting_at"
        );
        let missing = "time,uncached,output\n2026-06-01,1,1\n";
        let p = read(missing).expect_err("refused");
        assert_eq!(p.param, "header");
        assert!(p.reason.contains("cached input tokens"), "{}", p.reason);
        let csv = "time,uncached,cached,output\n2026-06-01,1,1,1\n2026-06-02,x,1,1\n";
        let p = read(csv).expect_err("refused");
        assert_eq!(p.param, "line 3, uncached");
        // The same lines as a Windows file or a pasted text sends them (CR LF): the same line.
        let p = read(&csv.replace('\n', "\r\n")).expect_err("refused");
        assert_eq!(p.param, "line 3, uncached");
        assert!(read("").expect_err("refused").reason.contains("empty"));
        // A second page appended to the file is not silently dropped.
        let twice = format!("{ONE_PAGE}{ONE_PAGE}");
        let p = read(&twice).expect_err("refused");
        assert!(
            p.reason.contains("more after the export's end"),
            "{}",
            p.reason
        );
    }

    /// A count the export leaves out is not known: requests then have no total.
    #[test]
    fn requests_left_out_are_not_zero() {
        let e = read(ONE_PAGE).expect("reads");
        assert_eq!(e.rows[0].bucket.requests, None);
        let csv = "time,uncached,cached,output,requests\n2026-06-01,1,1,1,4\n2026-06-02,1,1,1,\n";
        let rows = read(csv).expect("reads").rows;
        assert_eq!(rows[0].bucket.requests, Some(4.0));
        assert_eq!(rows[1].bucket.requests, None);
    }
}
