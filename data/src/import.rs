//! `servecost-server import <file or URL>...`: reads servecost's CSV and JSON formats, InferenceX
//! result files (processed `agg_*.json` rows and raw benchmark-client output) and LiteLLM-style
//! price tables, from files or `https://` addresses, checks everything, and writes it as one new
//! dataset revision in one transaction.
//!
//! A bad file changes nothing: every problem is reported with the file, the line or record, the
//! field and what is wrong, and nothing is written unless all files are clean.

mod check;
mod cli;
mod diff;
mod fetch;
mod format;
mod genai_prices;
mod inferencex;
mod json;
pub mod limits;
mod litellm;
mod llm_prices;
mod mlperf;
mod native;
mod rental;
pub mod revision;
mod runs;
mod sizing;
mod write;

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use crate::rows::{rows_at, Rows};
use sqlx::AnyPool;

pub use cli::{parse_args, USAGE};
pub use diff::{plan, Change};
use fetch::is_url;
use write::write;

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

/// Command-line options of `import`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Options {
    /// Print what would change; write nothing.
    pub dry_run: bool,
    /// Leave out the entries and rows that fail their checks, list them, and write the rest.
    pub skip_invalid: bool,
    /// The chip of raw InferenceX files (they do not say which hardware ran them).
    pub hardware: Option<String>,
    /// The dataset model that InferenceX curves or LiteLLM prices belong to.
    pub model: Option<String>,
    /// What the revision brings, for `/data` (default: the file names).
    pub description: Option<String>,
    /// The longest a download may take, whole (default [`FETCH_TIMEOUT`]).
    pub timeout: Option<std::time::Duration>,
    /// Whose prices a GPU rental table lists (the table does not say).
    pub provider: Option<String>,
    /// The day a GPU rental table's or a price table's prices were listed, `YYYY-MM-DD`.
    pub date: Option<String>,
    /// Where the files come from (an address naming the repository's commit): the `url` of
    /// the source rows they make.
    pub source_url: Option<String>,
    /// MLPerf summaries are read as deployed (`--as-deployed`): replicas sized, the
    /// benchmark's input counted with its output.
    pub as_deployed: bool,
}

/// The longest one download of an import may take, connection to last byte.
pub const FETCH_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

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
    /// GPU rental table rows, matched to chips once every file is read.
    pub rentals: Vec<rental::Entry>,
    /// MLPerf results rows, made into curves once every file is read.
    pub mlperf: Vec<mlperf::Row>,
    /// Submitters' parallelism, which sizes MLPerf replicas read as deployed.
    pub configs: Vec<sizing::Config>,
    /// Where rows came from.
    pub origins: Origins,
    /// What `--skip-invalid` left out, each with its reason.
    pub left_out: Vec<ImportProblem>,
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

/// Reads and checks `files`, then (unless a dry run) writes them as one new revision: each
/// file brought in within the size caps, read by its format, the rows checked against the
/// dataset in force, the new and changed ones kept and written in one transaction.
pub async fn run(
    pool: &AnyPool,
    files: &[String],
    opts: &Options,
) -> Result<Outcome, Vec<ImportProblem>> {
    let each: Vec<(Options, String)> = files.iter().map(|f| (opts.clone(), f.clone())).collect();
    run_each(pool, &each, opts).await
}

/// [`run`] with each file's own options (`--hardware`, `--model`, `--provider`, `--date`, as
/// [`parse_args`] gives them); `opts` holds the whole import's (`--dry-run`, `--description`).
pub async fn run_each(
    pool: &AnyPool,
    files: &[(Options, String)],
    opts: &Options,
) -> Result<Outcome, Vec<ImportProblem>> {
    let db = |e: sqlx::Error| vec![ImportProblem::new("database", "", "", e.to_string())];
    let base = crate::newest_revision(pool).await.map_err(db)?;
    let current = rows_at(pool, base).await.map_err(db)?;
    let Planned {
        rows,
        changes,
        notes,
        names,
    } = planned(&current, files)?;
    if changes.is_empty() || opts.dry_run {
        return Ok(Outcome {
            revision: None,
            base,
            changes,
            notes,
        });
    }
    let description = opts.description.clone().unwrap_or_else(|| {
        format!(
            "Imported {} file{}",
            names.len(),
            if names.len() == 1 { "" } else { "s" }
        )
    });
    let revision = write(pool, &rows, &description, &names, &notes)
        .await
        .map_err(db)?;
    Ok(Outcome {
        revision: Some(revision),
        base,
        changes,
        notes,
    })
}

/// What an import brings, before anything is written.
pub struct Planned {
    /// The rows to write: new or changed.
    pub rows: Rows,
    /// What changes, row by row.
    pub changes: Vec<Change>,
    /// Notes: points left out, prices not matched…
    pub notes: Vec<String>,
    /// The files as the revision records them.
    pub names: Vec<String>,
}

/// What importing `files` over the dataset `current` brings, before anything is written.
pub fn planned(current: &Rows, files: &[(Options, String)]) -> Result<Planned, Vec<ImportProblem>> {
    let files = expand(files)?;
    let paths: Vec<String> = files.iter().map(|(_, f)| f.clone()).collect();
    count(&paths)?;
    let (mut read, mut notes) = read_all(&files, current)?;
    if files.iter().any(|(o, _)| o.skip_invalid) {
        let left = check::leave_out_invalid(&mut read.rows, &read.origins);
        read.left_out.extend(left);
        notes.extend(left_out_notes(&read.left_out));
    }
    // Once the rows left out are out: an entry not imported says nothing of others' prices.
    litellm::disagreements(current, &mut read);
    let problems = checked(current, &read.rows, &read.origins);
    if !problems.is_empty() {
        return Err(problems);
    }
    let (rows, changes) = plan(current, &read.rows);
    Ok(Planned {
        rows,
        changes,
        notes,
        names: names(&paths),
    })
}

/// The notes listing what `--skip-invalid` left out: how many, then each with its reason.
fn left_out_notes(left_out: &[ImportProblem]) -> Vec<String> {
    if left_out.is_empty() {
        return Vec::new();
    }
    let n = left_out.len();
    let mut notes = vec![format!(
        "{n} {} left out by --skip-invalid, each below with its reason; the rest are written",
        if n == 1 {
            "entry or row"
        } else {
            "entries or rows"
        }
    )];
    notes.extend(left_out.iter().map(|p| format!("left out: {p}")));
    notes
}

/// Each folder among `files` replaced by its `.csv` and `.json` files, in its tree, in name
/// order, with the folder's options.
fn expand(files: &[(Options, String)]) -> Result<Vec<(Options, String)>, Vec<ImportProblem>> {
    fn walk(dir: &Path, out: &mut Vec<String>) -> std::io::Result<()> {
        let mut entries: Vec<std::path::PathBuf> = std::fs::read_dir(dir)?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()?;
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out)?;
            } else if path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| e.eq_ignore_ascii_case("csv") || e.eq_ignore_ascii_case("json"))
            {
                out.push(path.display().to_string());
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    for (opts, file) in files {
        let path = Path::new(file);
        if is_url(file) || !path.is_dir() {
            out.push((opts.clone(), file.clone()));
            continue;
        }
        let mut found = Vec::new();
        walk(path, &mut found).map_err(|e| {
            vec![ImportProblem::new(
                file,
                "",
                "",
                format!("cannot read the folder: {e}"),
            )]
        })?;
        if found.is_empty() {
            return Err(vec![ImportProblem::new(
                file,
                "",
                "",
                "the folder holds no .csv or .json file",
            )]);
        }
        out.extend(found.into_iter().map(|f| (opts.clone(), f)));
    }
    Ok(out)
}

/// At least one file, at most [`MAX_FILES`].
fn count(files: &[String]) -> Result<(), Vec<ImportProblem>> {
    let problem = if files.is_empty() {
        "no file given: servecost-server import [--dry-run] [--hardware CHIP] [--model ID] \
         [--description TEXT] FILE..."
            .to_owned()
    } else if files.len() > MAX_FILES {
        format!(
            "{} files given; one import takes at most {MAX_FILES}: import them in several runs",
            files.len()
        )
    } else {
        return Ok(());
    };
    Err(vec![ImportProblem::new("command line", "", "", problem)])
}

/// Every file read into rows (benchmark measurements made into curves, price entries matched
/// to models once all the files sharing their options are read), with the notes that makes.
fn read_all(
    files: &[(Options, String)],
    current: &Rows,
) -> Result<(Read, Vec<String>), Vec<ImportProblem>> {
    let mut read = Read::default();
    let mut problems = Vec::new();
    let mut notes = Vec::new();
    let mut budget = MAX_REVISION_BYTES;
    let mut measured = 0usize;
    // Consecutive files with the same options are read together, then made into rows.
    for group in files.chunk_by(|a, b| a.0 == b.0) {
        let opts = &group[0].0;
        let sources_before = read.rows.sources.len();
        for (_, file) in group {
            let loaded = fetch::load(file, opts, &mut budget);
            if let Err(mut p) = loaded.and_then(|f| format::read(&f, opts, &mut read)) {
                problems.append(&mut p);
            }
        }
        problems.extend(limits::entries(&read));
        measured += read.measurements.len();
        if measured > MAX_MEASUREMENTS {
            problems.push(ImportProblem::new(
                "import",
                "",
                "",
                format!(
                    "{measured} benchmark measurements; one import takes at most \
                     {MAX_MEASUREMENTS}: import the files in several runs"
                ),
            ));
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        if let Err(mut p) = inferencex::curves(current, opts, &mut read, &mut notes) {
            problems.append(&mut p);
        }
        if let Err(mut p) = litellm::offers(current, opts, &mut read, &mut notes) {
            problems.append(&mut p);
        }
        if let Err(mut p) = rental::tiers(current, opts, &mut read, &mut notes) {
            problems.append(&mut p);
        }
        if let Err(mut p) = mlperf::curves(current, opts, &mut read, &mut notes) {
            problems.append(&mut p);
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        if let Some(url) = &opts.source_url {
            for s in &mut read.rows.sources[sources_before..] {
                s.url.get_or_insert_with(|| url.clone());
            }
        }
    }
    Ok((read, notes))
}

/// The files as the revision records them: a file by its name; an address whole, without its
/// query (which may hold a token), with the time it was fetched.
fn names(files: &[String]) -> Vec<String> {
    let fetched = utc_now();
    files
        .iter()
        .map(|f| {
            if is_url(f) {
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
        .collect()
}

/// A file's name without its folders, as rows and problems name it.
pub fn file_name(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map_or_else(|| path.to_owned(), |n| n.to_string_lossy().into_owned())
}

/// One row of a CSV table being read: its line and its cells by column name, trimmed.
pub struct CsvRow<'a> {
    header: &'a [String],
    record: &'a csv::StringRecord,
    /// Its line in the file.
    pub line: u64,
}

impl CsvRow<'_> {
    /// The cell of column `name` (empty where the table has no such column).
    pub fn cell(&self, name: &str) -> &str {
        self.header
            .iter()
            .position(|h| h == name)
            .and_then(|i| self.record.get(i))
            .unwrap_or_default()
            .trim()
    }

    /// Whether the table has a column `name`.
    pub fn has(&self, name: &str) -> bool {
        self.header.iter().any(|h| h == name)
    }
}

/// Reads a CSV table row by row: `each` gets every row and the problems to add to; a header or
/// a row that is not CSV is a problem naming the file (and line 1 for the header). Any problem
/// refuses the file.
pub fn csv_rows(
    file: &str,
    text: &str,
    mut each: impl FnMut(&CsvRow<'_>, &mut Vec<ImportProblem>),
) -> Result<(), Vec<ImportProblem>> {
    let text = text.replace("\r\n", "\n");
    let mut reader = csv::ReaderBuilder::new().from_reader(text.as_bytes());
    let header: Vec<String> = match reader.headers() {
        Ok(h) => h.iter().map(|h| h.trim().to_owned()).collect(),
        Err(e) => return Err(vec![ImportProblem::new(file, "line 1", "", e.to_string())]),
    };
    let mut problems = Vec::new();
    for record in reader.records() {
        match record {
            Ok(record) => {
                let row = CsvRow {
                    header: &header,
                    record: &record,
                    line: record.position().map_or(0, csv::Position::line),
                };
                each(&row, &mut problems);
            }
            Err(e) => problems.push(ImportProblem::new(
                file,
                "",
                "",
                format!("not a CSV row: {e}"),
            )),
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// The chip ids the dataset holds once the import is written: the dataset's and the import's.
fn chip_ids(current: &Rows, read: &Read) -> Vec<String> {
    // Once each: a chip the import writes again is still one chip.
    let ids: std::collections::BTreeSet<String> = current
        .chips
        .iter()
        .chain(&read.rows.chips)
        .map(|c| c.id.clone())
        .collect();
    ids.into_iter().collect()
}

/// The models (id, name) the dataset holds once the import is written.
fn model_names(current: &Rows, read: &Read) -> Vec<(String, String)> {
    current
        .models
        .iter()
        .chain(&read.rows.models)
        .map(|m| (m.id.clone(), m.name.clone()))
        .collect()
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

/// The id of `text` as [`slug`] makes it, kept within [`limits::MAX_ID`] characters: a longer
/// one (a price table's entry under several routing prefixes) is cut and ends in a hash of the
/// whole, so that two long names stay two ids and the same name is always the same id.
pub fn id(text: &str) -> String {
    let whole = slug(text);
    if whole.chars().count() <= limits::MAX_ID {
        return whole;
    }
    let head: String = whole.chars().take(limits::MAX_ID - 17).collect();
    format!(
        "{}-{}",
        head.trim_end_matches(['-', '.', '_']),
        hash(&whole)
    )
}

/// 16 hexadecimal digits of FNV-1a (64 bits) of `text`: the same on every machine and in every
/// version, to tell apart ids that would otherwise be one.
pub fn hash(text: &str) -> String {
    let h = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{h:016x}")
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
        let names: Vec<&str> = files.iter().map(|(_, f)| f.as_str()).collect();
        assert_eq!(names, ["a.json", "b.csv"]);
        // Per-file options apply to the files after them; the import's own to every file.
        assert_eq!(files[0].0.hardware.as_deref(), Some("mi355x"));
        assert_eq!(files[0].0.model, None);
        assert_eq!(files[1].0.hardware.as_deref(), Some("mi355x"));
        assert_eq!(files[1].0.model.as_deref(), Some("muse-spark-open"));
        assert!(files.iter().all(|(o, _)| o.dry_run));
        let (_, files) = parse_args(&args(&[
            "--provider",
            "Nebius",
            "--date",
            "2026-11-20",
            "vms.csv",
            "--provider",
            "Lambda",
            "lambda.csv",
        ]))
        .expect("a rental table's provider and day");
        assert_eq!(files[0].0.provider.as_deref(), Some("Nebius"));
        assert_eq!(files[0].0.date.as_deref(), Some("2026-11-20"));
        assert_eq!(files[1].0.provider.as_deref(), Some("Lambda"));
        assert_eq!(files[1].0.date.as_deref(), Some("2026-11-20"));
        let e = parse_args(&args(&["a.json", "--model", "x"])).expect_err("nothing after");
        assert!(e.contains("--model applies to the files after it"), "{e}");
        let e = parse_args(&args(&["--date", "2026-13-40", "vms.csv"])).expect_err("no day");
        assert!(e.contains("YYYY-MM-DD"), "{e}");
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
        let long = "fireworks_ai/accounts/fireworks/models/deepseek-r1-0528-distill-qwen3-8b";
        let made = super::id(&format!("litellm-{long}"));
        assert!(made.len() <= 64 && made.len() > 60, "{made}");
        assert!(is_slug(&made), "{made}");
        assert_eq!(made, super::id(&format!("litellm-{long}")));
        assert_ne!(made, super::id(&format!("litellm-{long}-fp8")));
        assert_eq!(
            super::id("litellm-groq/openai/gpt-oss-20b"),
            "litellm-groq-openai-gpt-oss-20b"
        );
    }
}
