//! `servecost-server import <file or URL>...`: reads servecost's CSV and JSON formats, InferenceX
//! result files (processed `agg_*.json` rows and raw benchmark-client output) and LiteLLM-style
//! price tables, from files or `https://` addresses, checks everything, and writes it as one new
//! dataset revision in one transaction.
//!
//! A bad file changes nothing: every problem is reported with the file, the line or record, the
//! field and what is wrong, and nothing is written unless all files are clean.

mod check;
mod inferencex;
pub mod limits;
mod litellm;
mod native;

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use app::db::import::{plan, write, Change};
use app::db::rows::{rows_at, Rows};
use sqlx::AnyPool;

/// Largest file an import reads, in bytes.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;
/// Largest sum of the files of one import (one revision), in bytes.
pub const MAX_REVISION_BYTES: u64 = 64 * 1024 * 1024;
/// Most files in one import.
pub const MAX_FILES: usize = 256;
/// Most points one curve may have (after the Pareto frontier of benchmark files): the page draws
/// each one, and published curves have a few dozen.
pub const MAX_POINTS_PER_CURVE: usize = 1_000;
/// Most benchmark measurements one import reads (the frontier compares them pairwise).
pub const MAX_MEASUREMENTS: usize = 20_000;

/// `n` bytes as people read them (`16 MiB`).
fn mib(n: u64) -> String {
    format!("{} MiB", n / (1024 * 1024))
}

/// Command-line options of `import`.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Print what would change; write nothing.
    pub dry_run: bool,
    /// The chip of raw InferenceX files (they do not say which hardware ran them).
    pub hardware: Option<String>,
    /// The dataset model that InferenceX curves or LiteLLM prices belong to.
    pub model: Option<String>,
    /// What the revision brings, for `/data` (default: the file names).
    pub description: Option<String>,
    /// The longest a download may take, whole (default [`FETCH_TIMEOUT`]).
    pub timeout: Option<std::time::Duration>,
}

/// The longest one download of an import may take, connection to last byte.
pub const FETCH_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// True for an argument naming an address rather than a file.
fn is_url(file: &str) -> bool {
    let lower = file.get(..8).unwrap_or(file).to_ascii_lowercase();
    lower.starts_with("https://") || lower.starts_with("http://")
}

/// Plain `http://` only from this machine (a price table served locally): anything fetched
/// from elsewhere comes over TLS.
fn loopback(url: &str) -> bool {
    let rest = url.split_once("://").map_or("", |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if let Some(v6) = host.strip_prefix('[') {
        v6.split(']').next().unwrap_or("")
    } else {
        host.split(':').next().unwrap_or("")
    };
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Downloads `url` as [`read_capped`] reads a file: at most [`MAX_FILE_BYTES`] and `budget`,
/// within the timeout, as UTF-8 text. Redirects are followed only to `https://`.
fn fetch_capped(url: &str, opts: &Options, budget: &mut u64) -> Result<String, Vec<ImportProblem>> {
    let fail = |what: String| vec![ImportProblem::new(url, "", "", what)];
    let secure = url
        .get(..8)
        .is_some_and(|p| p.eq_ignore_ascii_case("https://"));
    if !secure && !loopback(url) {
        return Err(fail(
            "plain http:// is fetched only from this machine (localhost): use https://".into(),
        ));
    }
    // The address is recorded in the revision, which /data shows: no credentials in it.
    let authority = url
        .split_once("://")
        .map_or("", |(_, r)| r)
        .split(['/', '?', '#'])
        .next()
        .unwrap_or("");
    if authority.contains('@') {
        return Err(fail(
            "holds a user name or password: the address is shown on /data, so give one without \
             them (download the file and import it instead)"
                .into(),
        ));
    }
    let timeout = opts.timeout.unwrap_or(FETCH_TIMEOUT);
    // Over TLS, redirects are followed to https:// only; from this machine, not at all.
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(timeout))
        .https_only(secure)
        .max_redirects(if secure { 5 } else { 0 })
        .user_agent("servecost-import")
        .build()
        .into();
    let mut response = agent.get(url).call().map_err(|e| match e {
        ureq::Error::Timeout(_) => fail(format!(
            "did not arrive within {} s: nothing was imported (try again, or download it and \
             import the file)",
            timeout.as_secs_f64()
        )),
        ureq::Error::StatusCode(code) => fail(format!("the server answered HTTP {code}")),
        ureq::Error::TooManyRedirects => fail(if secure {
            "redirects more than 5 times: give the final address".to_owned()
        } else {
            "redirects: a plain http:// address is fetched as given, never redirected; give the \
             final address"
                .to_owned()
        }),
        other => fail(format!("cannot be fetched: {other}")),
    })?;
    if response.status().is_redirection() {
        return Err(fail(
            "redirects: a plain http:// address is fetched as given, never redirected; give the \
             final address"
                .into(),
        ));
    }
    let cap = MAX_FILE_BYTES.min(*budget);
    let bytes = response
        .body_mut()
        .with_config()
        .limit(cap)
        .read_to_vec()
        .map_err(|e| match e {
            ureq::Error::BodyExceedsLimit(_) if cap < MAX_FILE_BYTES => fail(format!(
                "takes the import over {}, the most one revision may bring: import the files \
                 in several runs",
                mib(MAX_REVISION_BYTES)
            )),
            ureq::Error::BodyExceedsLimit(_) => fail(format!(
                "is larger than {}, the most one file may hold: split it",
                mib(MAX_FILE_BYTES)
            )),
            ureq::Error::Timeout(_) => fail(format!(
                "did not arrive within {} s: nothing was imported",
                timeout.as_secs_f64()
            )),
            other => fail(format!("cannot be read: {other}")),
        })?;
    *budget -= bytes.len() as u64;
    String::from_utf8(bytes).map_err(|e| {
        fail(format!(
            "is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// The time now in UTC, as `2026-12-01T18:04:05Z`.
fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let date = servecost::freshness::date(days as i64);
    format!(
        "{date}T{:02}:{:02}:{:02}Z",
        rem / 3_600,
        rem % 3_600 / 60,
        rem % 60
    )
}

/// A problem with an imported file.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportProblem {
    /// The file.
    pub file: String,
    /// Where in it: a line, a record.
    pub at: String,
    /// The field.
    pub field: String,
    /// What is wrong and what is accepted.
    pub problem: String,
}

impl fmt::Display for ImportProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if !self.at.is_empty() {
            write!(f, ": {}", self.at)?;
        }
        if !self.field.is_empty() {
            write!(f, ": field `{}`", self.field)?;
        }
        write!(f, ": {}", self.problem)
    }
}

impl ImportProblem {
    fn new(file: &str, at: impl Into<String>, field: &str, problem: impl Into<String>) -> Self {
        Self {
            file: file.to_owned(),
            at: at.into(),
            field: field.to_owned(),
            problem: problem.into(),
        }
    }
}

/// Where each imported row came from, by (kind, key), to name it in later problems.
pub type Origins = BTreeMap<(&'static str, String), (String, String)>;

/// What the files bring before curves are built from benchmark measurements.
#[derive(Default)]
pub struct Read {
    /// Rows ready to store.
    pub rows: Rows,
    /// Benchmark measurements, grouped into curves once every file is read.
    pub measurements: Vec<inferencex::Measurement>,
    /// LiteLLM-style price entries, matched to models once every file is read.
    pub prices: Vec<litellm::Entry>,
    /// Where rows came from.
    pub origins: Origins,
}

/// Reads one file into `read`, by its content: servecost CSV (by extension) or JSON (servecost's
/// own, InferenceX processed or raw, LiteLLM-style prices).
fn read_file(
    file: &str,
    opts: &Options,
    read: &mut Read,
    budget: &mut u64,
) -> Result<(), Vec<ImportProblem>> {
    let (name, text, extension) = if is_url(file) {
        let text = fetch_capped(file, opts, budget)?;
        let path = file.split(['?', '#']).next().unwrap_or(file);
        let extension = path.rsplit_once('.').map(|(_, e)| e.to_owned());
        (file.to_owned(), text, extension)
    } else {
        let path = Path::new(file);
        let name = path.display().to_string();
        let text = read_capped(path, &name, budget)?;
        let extension = path.extension().and_then(|e| e.to_str()).map(str::to_owned);
        (name, text, extension)
    };
    // A byte-order mark (as spreadsheets and some editors write) is not part of the text.
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_owned(),
        None => text,
    };
    let is_csv = extension.is_some_and(|e| e.eq_ignore_ascii_case("csv"));
    if is_csv {
        return native::csv(&name, &text, read);
    }
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        vec![ImportProblem::new(
            &name,
            format!("line {}, column {}", e.line(), e.column()),
            "",
            format!("not valid JSON: {e}"),
        )]
    })?;
    if native::is_native(&value) {
        native::json(&name, &text, read)
    } else if inferencex::is_agg(&value) {
        inferencex::agg(&name, &value, read)
    } else if inferencex::is_raw(&value) {
        inferencex::raw(&name, &value, opts, read)
    } else if litellm::is_price_table(&value) {
        litellm::read(&name, &value, read)
    } else {
        Err(vec![ImportProblem::new(
            &name,
            "",
            "",
            "not a format servecost imports: expected servecost's JSON (sources, models, chips, \
             price_tiers, api_offers, curves, curve_points…), an InferenceX agg_*.json row, raw \
             InferenceX benchmark output, or a LiteLLM-style price table",
        )])
    }
}

/// Reads a file of at most [`MAX_FILE_BYTES`] and at most `budget` bytes (what is left of
/// [`MAX_REVISION_BYTES`]), without reading further than that whatever the file is (a device
/// such as `/dev/zero` included).
fn read_capped(path: &Path, name: &str, budget: &mut u64) -> Result<String, Vec<ImportProblem>> {
    use std::io::Read as _;
    let fail = |what: String| vec![ImportProblem::new(name, "", "", what)];
    let file = std::fs::File::open(path).map_err(|e| fail(format!("cannot be read: {e}")))?;
    let cap = MAX_FILE_BYTES.min(*budget);
    let mut bytes = Vec::new();
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| fail(format!("cannot be read: {e}")))?;
    let len = bytes.len() as u64;
    if len > MAX_FILE_BYTES {
        return Err(fail(format!(
            "is larger than {}, the most one file may hold: split it",
            mib(MAX_FILE_BYTES)
        )));
    }
    if len > *budget {
        return Err(fail(format!(
            "takes the import over {}, the most one revision may bring: import the files in \
             several runs",
            mib(MAX_REVISION_BYTES)
        )));
    }
    *budget -= len;
    String::from_utf8(bytes).map_err(|e| {
        fail(format!(
            "is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// The outcome of an import.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The revision written (`None` for a dry run or when nothing changes).
    pub revision: Option<i64>,
    /// The revision it builds on.
    pub base: i64,
    /// Every row that is new or changed.
    pub changes: Vec<Change>,
    /// Notes: points left out, prices not matched…
    pub notes: Vec<String>,
}

fn rows(n: usize) -> String {
    if n == 1 {
        "1 row".to_owned()
    } else {
        format!("{n} rows")
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for note in &self.notes {
            writeln!(f, "note: {note}")?;
        }
        for change in &self.changes {
            writeln!(f, "{change}")?;
        }
        match self.revision {
            _ if self.changes.is_empty() => write!(
                f,
                "Nothing changes: every row is already in revision {}.",
                self.base
            ),
            Some(r) => write!(
                f,
                "Wrote dataset revision {r} ({} new or changed over revision {}).",
                rows(self.changes.len()),
                self.base
            ),
            None => write!(
                f,
                "Dry run: revision {} would bring {} new or changed over revision {}; nothing \
                 was written.",
                self.base + 1,
                rows(self.changes.len()),
                self.base
            ),
        }
    }
}

/// Every problem of `incoming`'s rows over the dataset `current`, whichever format they were
/// read from: the row limits, every field's range (the link reader's where a link takes the
/// figure), references, keys given twice and curves the engine cannot use. Rows without a
/// problem can each be chosen by a link, which the calculator then reads without refusal.
pub fn checked(current: &Rows, incoming: &Rows, origins: &Origins) -> Vec<ImportProblem> {
    let problems = limits::rows(incoming);
    if !problems.is_empty() {
        return problems;
    }
    let problems = check::all(current, incoming, origins);
    if !problems.is_empty() {
        return problems;
    }
    limits::dataset(current, incoming)
}

/// Reads and checks `files`, then (unless a dry run) writes them as one new revision.
pub async fn run(
    pool: &AnyPool,
    files: &[String],
    opts: &Options,
) -> Result<Outcome, Vec<ImportProblem>> {
    let db = |e: sqlx::Error| vec![ImportProblem::new("database", "", "", e.to_string())];
    if files.is_empty() {
        return Err(vec![ImportProblem::new(
            "command line",
            "",
            "",
            "no file given: servecost-server import [--dry-run] [--hardware CHIP] [--model ID] \
             [--description TEXT] FILE...",
        )]);
    }
    if files.len() > MAX_FILES {
        return Err(vec![ImportProblem::new(
            "command line",
            "",
            "",
            format!(
                "{} files given; one import takes at most {MAX_FILES}: import them in several runs",
                files.len()
            ),
        )]);
    }
    let base = app::db::newest_revision(pool).await.map_err(db)?;
    let current = rows_at(pool, base).await.map_err(db)?;
    let mut read = Read::default();
    let mut problems = Vec::new();
    let mut budget = MAX_REVISION_BYTES;
    for file in files {
        if let Err(mut p) = read_file(file, opts, &mut read, &mut budget) {
            problems.append(&mut p);
        }
    }
    if read.measurements.len() > MAX_MEASUREMENTS {
        problems.push(ImportProblem::new(
            "import",
            "",
            "",
            format!(
                "{} benchmark measurements; one import takes at most {MAX_MEASUREMENTS}: \
                 import the files in several runs",
                read.measurements.len()
            ),
        ));
    }
    let mut notes = Vec::new();
    if problems.is_empty() {
        if let Err(mut p) = inferencex::curves(&current, opts, &mut read, &mut notes) {
            problems.append(&mut p);
        }
        if let Err(mut p) = litellm::offers(&current, opts, &mut read, &mut notes) {
            problems.append(&mut p);
        }
    }
    if problems.is_empty() {
        problems = checked(&current, &read.rows, &read.origins);
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let (rows, changes) = plan(&current, &read.rows);
    if changes.is_empty() || opts.dry_run {
        return Ok(Outcome {
            revision: None,
            base,
            changes,
            notes,
        });
    }
    // A file by its name; an address whole, with the time it was fetched.
    let fetched = utc_now();
    let names: Vec<String> = files
        .iter()
        .map(|f| {
            if is_url(f) {
                // Without its query, which may hold a token.
                let bare = f.split(['?', '#']).next().unwrap_or(f);
                let left_out = if bare.len() < f.len() {
                    ", its query left out"
                } else {
                    ""
                };
                format!("{bare} (fetched {fetched}{left_out})")
            } else {
                Path::new(f)
                    .file_name()
                    .map_or_else(|| f.clone(), |n| n.to_string_lossy().into_owned())
            }
        })
        .collect();
    let description = opts.description.clone().unwrap_or_else(|| {
        format!(
            "Imported {} file{}",
            names.len(),
            if names.len() == 1 { "" } else { "s" }
        )
    });
    let revision = write(pool, &rows, &description, &names).await.map_err(db)?;
    Ok(Outcome {
        revision: Some(revision),
        base,
        changes,
        notes,
    })
}

/// What `import --help` prints.
pub const USAGE: &str = "\
Usage: servecost-server import [--dry-run] [--hardware CHIP] [--model ID] [--description TEXT]
                               [--timeout SECS] FILE-OR-URL...

Reads, checks and writes FILEs (or https:// addresses) into the database in DATABASE_URL as one
new dataset revision, in one transaction; any problem writes nothing (exit status 1). An address
is recorded in the revision with the time it was fetched.

  --dry-run           print what would change and write nothing
  --hardware CHIP     the chip of raw InferenceX benchmark output (the files do not say)
  --model ID          attach InferenceX curves, or every LiteLLM price entry, to this model
  --description TEXT  what the revision brings, shown on /data (default: the number of files)
  --timeout SECS      the longest one download may take (default 30; at most 16 MiB a file)

Formats (by content): servecost CSV (one table per file, by header) and JSON; InferenceX
agg_*.json rows and raw benchmark output; LiteLLM-style price tables. See README.md.";

/// Parses `import`'s arguments (after the word `import`).
pub fn parse_args(args: &[String]) -> Result<(Options, Vec<String>), String> {
    let mut opts = Options::default();
    let mut files = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |flag: &str| {
            it.next()
                .cloned()
                .filter(|v| !v.starts_with("--"))
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match arg.as_str() {
            "--dry-run" | "-n" => opts.dry_run = true,
            "--help" | "-h" => return Err(USAGE.to_owned()),
            "--hardware" => opts.hardware = Some(value("--hardware")?),
            "--model" => opts.model = Some(value("--model")?),
            "--description" => opts.description = Some(value("--description")?),
            "--timeout" => {
                let v = value("--timeout")?;
                let secs = v
                    .parse::<f64>()
                    .ok()
                    .filter(|s| (0.1..=3_600.0).contains(s))
                    .ok_or_else(|| {
                        format!("--timeout {v}: a number of seconds from 0.1 to 3,600")
                    })?;
                opts.timeout = Some(std::time::Duration::from_secs_f64(secs));
            }
            flag if flag.starts_with("--") => {
                return Err(format!(
                    "unknown option {flag}: accepted are --dry-run, --hardware CHIP, --model ID, \
                     --description TEXT, --timeout SECS"
                ))
            }
            file => files.push(file.to_owned()),
        }
    }
    Ok((opts, files))
}

/// A lower-case id made of letters, digits, `.`, `-` and `_`.
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_alphanumeric() || c == '.' || c == '_' {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_owned()
}

/// True for an id `slug` leaves unchanged.
pub fn is_slug(text: &str) -> bool {
    !text.is_empty() && slug(text) == text
}

#[cfg(test)]
mod tests {
    use super::{is_slug, parse_args, slug};

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn arguments_are_read_and_checked() {
        let (opts, files) = parse_args(&args(&[
            "--dry-run",
            "--hardware",
            "mi355x",
            "a.json",
            "--model",
            "muse-spark-open",
            "b.csv",
        ]))
        .expect("valid");
        assert!(opts.dry_run);
        assert_eq!(opts.hardware.as_deref(), Some("mi355x"));
        assert_eq!(opts.model.as_deref(), Some("muse-spark-open"));
        assert_eq!(files, ["a.json", "b.csv"]);
        let e = parse_args(&args(&["--hardware"])).expect_err("no value");
        assert!(e.contains("--hardware needs a value"), "{e}");
        let e = parse_args(&args(&["--hardware", "--dry-run"])).expect_err("flag as value");
        assert!(e.contains("needs a value"), "{e}");
        let e = parse_args(&args(&["--colour"])).expect_err("unknown");
        assert!(e.contains("unknown option --colour"), "{e}");
    }

    #[test]
    fn ids_are_slugs() {
        assert_eq!(slug("Kimi K2.5 / MI355X"), "kimi-k2.5-mi355x");
        assert_eq!(slug("--a__b--"), "a__b");
        assert!(is_slug("muse-spark-open"));
        assert!(!is_slug("Muse Spark"));
        assert!(!is_slug(""));
    }
}
