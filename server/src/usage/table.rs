//! A usage export as a spreadsheet saves it: a header row naming a time column and a column for
//! each class of tokens (uncached input, cached input, output), optionally cache writes,
//! requests, a batch flag, a model and an end time, in any order; comma, semicolon or tab
//! separated. Buckets last the gap between consecutive times (a minute, an hour or a day)
//! unless an end column says.

use servecost::usage::Bucket;
use servecost::Problem;

use super::time::parse;
use super::{tokens, Names, Row};

/// A column the reader knows, and the header names it answers to (compared in lower case
/// with everything but letters and digits left out).
struct Column {
    what: &'static str,
    names: &'static [&'static str],
    required: bool,
}

const TIME: Column = Column {
    what: "the bucket's start time",
    names: &[
        "time",
        "timestamp",
        "start",
        "starttime",
        "startingat",
        "date",
        "hour",
        "bucket",
    ],
    required: true,
};
const END: Column = Column {
    what: "the bucket's end time",
    names: &["end", "endtime", "endingat"],
    required: false,
};
const UNCACHED: Column = Column {
    what: "uncached input tokens",
    names: &[
        "uncachedinputtokens",
        "uncachedinput",
        "inputuncached",
        "uncached",
        "uncachedtokens",
    ],
    required: true,
};
const CACHED: Column = Column {
    what: "cached input tokens",
    names: &[
        "cachedinputtokens",
        "cachedinput",
        "inputcachedtokens",
        "inputcached",
        "cachereadinputtokens",
        "cached",
        "cachedtokens",
    ],
    required: true,
};
const WRITES: Column = Column {
    what: "cache-write input tokens (counted as uncached input)",
    names: &[
        "cachecreationinputtokens",
        "cachewriteinputtokens",
        "cachewritetokens",
        "cachewrites",
    ],
    required: false,
};
const OUTPUT: Column = Column {
    what: "output tokens",
    names: &["outputtokens", "output"],
    required: true,
};
const REQUESTS: Column = Column {
    what: "requests",
    names: &[
        "requests",
        "nummodelrequests",
        "numrequests",
        "requestcount",
    ],
    required: false,
};
const BATCH: Column = Column {
    what: "whether the row is batch traffic",
    names: &["batch", "isbatch"],
    required: false,
};
const MODEL: Column = Column {
    what: "the model",
    names: &["model"],
    required: false,
};

fn key(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The index of `column` in `header`, if present (required: a problem naming what is missing).
fn find(header: &[String], column: &Column) -> Result<Option<usize>, Problem> {
    let found = header
        .iter()
        .position(|h| column.names.contains(&key(h).as_str()));
    if found.is_none() && column.required {
        return Err(Problem::new(
            "header",
            header.join(","),
            format!(
                "no column for {}: name one {}",
                column.what,
                column
                    .names
                    .iter()
                    .map(|n| format!("“{n}”"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    Ok(found)
}

/// The rows of a CSV export read from `source`, its lines ending in LF (so that the reader's
/// line numbers are a person's), its cells separated by `separator`.
pub fn read(source: impl std::io::Read, separator: u8) -> Result<Vec<Row>, Problem> {
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(separator)
        // Lines end in LF alone: a row is read when its LF comes, without waiting for the
        // byte after it (which a CR LF reader needs, and an upload may not have sent yet).
        .terminator(csv::Terminator::Any(b'\n'))
        .trim(csv::Trim::All)
        .from_reader(source);
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| Problem::new("header", "", format!("not a CSV header row: {e}")))?
        .iter()
        .map(str::to_owned)
        .collect();
    let at = |c: &Column| find(&header, c);
    let (time, end, uncached, cached) = (at(&TIME)?, at(&END)?, at(&UNCACHED)?, at(&CACHED)?);
    let (writes, output, requests) = (at(&WRITES)?, at(&OUTPUT)?, at(&REQUESTS)?);
    let (batch, model) = (at(&BATCH)?, at(&MODEL)?);
    // Rows are made as they are read (an export may hold hundreds of thousands).
    let mut rows: Vec<Row> = Vec::new();
    let mut names = Names::default();
    let mut open: Vec<bool> = Vec::new();
    let mut first_line = None;
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, csv::Position::line);
            Problem::new(&format!("line {line}"), "", format!("not a CSV row: {e}"))
        })?;
        // The line the row starts on, as the file numbers it (blank lines included).
        let number = record.position().map_or(0, csv::Position::line);
        let cell = |column: Option<usize>| column.and_then(|c| record.get(c)).unwrap_or_default();
        let field = |column: Option<usize>| {
            column.and_then(|c| header.get(c)).map_or_else(
                || format!("line {number}"),
                |h| format!("line {number}, {h}"),
            )
        };
        let count = |column: Option<usize>| -> Result<f64, Problem> {
            let text = cell(column);
            if column.is_none() || text.is_empty() {
                return Ok(0.0);
            }
            let v = servecost::codec::read_number(text, false, false).ok_or_else(|| {
                Problem::new(
                    &field(column),
                    text,
                    "expected a whole number of tokens from 0",
                )
            })?;
            tokens(&field(column), v)
        };
        // The row as it will be kept; an end the file does not give is filled once every
        // row's start is known (`open`).
        let start = parse(&field(time), cell(time))?;
        let end_at = match end {
            Some(_) if !cell(end).is_empty() => Some(parse(&field(end), cell(end))?),
            _ => None,
        };
        first_line.get_or_insert(number);
        open.push(end_at.is_none());
        rows.push(Row {
            model: Some(cell(model))
                .filter(|m| !m.is_empty())
                .map(|m| names.get(m)),
            bucket: Bucket {
                start,
                end: end_at.unwrap_or(start),
                uncached: count(uncached)? + count(writes)?,
                cached: count(cached)?,
                output: count(output)?,
                // An empty cell: not known for this row.
                requests: match requests {
                    Some(_) if !cell(requests).is_empty() => Some(count(requests)?),
                    _ => None,
                },
                batch: flag(&field(batch), cell(batch))?,
            },
        });
    }
    let step = step(&rows, &open, first_line.unwrap_or(2))?;
    for (row, open) in rows.iter_mut().zip(open) {
        if open {
            row.bucket.end = row.bucket.start + step;
        }
    }
    Ok(rows)
}

/// A batch flag: `true`, `1`, `yes` or `batch` for batch traffic; `false`, `0`, `no` or empty
/// for the rest.
fn flag(field: &str, text: &str) -> Result<bool, Problem> {
    match text.to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "batch" => Ok(true),
        "false" | "0" | "no" | "" => Ok(false),
        _ => Err(Problem::new(
            field,
            text,
            "expected true or false (1 or 0, yes or no)",
        )),
    }
}

/// The buckets' length where no end column gives it (`open` marks the rows without one): the
/// smallest gap between two consecutive start times.
fn step(rows: &[Row], open: &[bool], first_line: u64) -> Result<i64, Problem> {
    if !open.iter().any(|o| *o) {
        return Ok(0);
    }
    let mut starts: Vec<i64> = rows.iter().map(|r| r.bucket.start).collect();
    starts.sort_unstable();
    starts.dedup();
    starts
        .windows(2)
        .map(|w| w[1] - w[0])
        .min()
        .ok_or_else(|| {
            let line = first_line;
            Problem::new(
                &format!("line {line}"),
                "",
                "every row has one start time, so the buckets' length is unknown: add rows of other times or an end column",
            )
        })
}
