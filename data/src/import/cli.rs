//! The `import` command line: its usage and its arguments.

use super::Options;

/// What `import --help` prints.
pub const USAGE: &str = "\
Usage: servecost-server import [--dry-run] [--skip-invalid] [--hardware CHIP] [--model ID]
                               [--description TEXT] [--as-deployed]
                               [--timeout SECS] [--provider NAME] [--date YYYY-MM-DD]
                               [--source-url URL] FILE-OR-URL-OR-FOLDER...

Reads, checks and writes FILEs (or https:// addresses, or folders: their .csv and .json files,
in name order) into the database in DATABASE_URL as one new dataset revision, in one
transaction; any problem writes nothing (exit status 1). An address is recorded in the revision
with the time it was fetched. --hardware, --model, --provider and --date apply to the files after
them, until given again.

  --dry-run           print what would change and write nothing
  --skip-invalid      leave out the entries of a price table, and the rows, that fail their
                      checks, write the rest, and list each one left out with its reason (in
                      the output and in the revision's notes); without it, any problem writes
                      nothing
  --hardware CHIP     the chip of raw InferenceX benchmark output (the files do not say)
  --model ID          attach InferenceX curves, or every LiteLLM price entry, to this model
  --description TEXT  what the revision brings, shown on /data (default: the number of files)
  --timeout SECS      the longest one download may take (default 30; at most 16 MiB a file)
  --provider NAME     whose prices a GPU rental table lists (the table does not say)
  --date YYYY-MM-DD   the day a GPU rental table's or a price table's prices were listed
  --source-url URL    where the files come from (e.g. the repository at its commit): the
                      address of the source rows they make
  --as-deployed       read the MLPerf summaries after it as deployed: a system of N GPUs is
                      N / replica copies (the replica from the submitter's configuration in a
                      parallelism table of the same import, else the least power of two that
                      holds the weights and a 30 % KV reserve), and its throughput counts the
                      benchmark's own input with its output (without it: the whole system is
                      one replica and throughput counts output only, as revision 4 read them)

Formats (by content): servecost CSV (one table per file, by header) and JSON; a cloud's GPU
rental table (SkyPilot catalogue columns: InstanceType, AcceleratorName, AcceleratorCount,
Price, SpotPrice, Region); MLPerf summaries and parallelism tables; InferenceX agg_*.json rows and raw benchmark output; LiteLLM-style
price tables; llm-prices vendor files. See IMPORT.md.";

/// The options that take no value.
pub const SWITCHES: [&str; 3] = ["--dry-run", "--skip-invalid", "--as-deployed"];

/// Parses `import`'s arguments (after the word `import`): the options of the whole import, and
/// each file with its own. `--hardware`, `--model`, `--provider` and `--date` apply to the files
/// that follow them, until given again, so one import (one revision) can read files that need
/// different ones; the other options apply to the whole import wherever they stand.
pub fn parse_args(args: &[String]) -> Result<(Options, Vec<(Options, String)>), String> {
    let mut opts = Options::default();
    let mut per_file = Options::default();
    let mut files = Vec::new();
    let mut pending: Option<&str> = None;
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
            "--skip-invalid" => opts.skip_invalid = true,
            "--help" | "-h" => return Err(USAGE.to_owned()),
            "--hardware" => per_file.hardware = Some(value("--hardware")?),
            "--model" => per_file.model = Some(value("--model")?),
            "--as-deployed" => per_file.as_deployed = true,
            "--description" => opts.description = Some(value("--description")?),
            "--provider" => {
                let v = value("--provider")?;
                if v.trim().is_empty() || v.chars().count() > 60 || v.chars().any(char::is_control)
                {
                    return Err(format!("--provider {v:?}: a name of 1 to 60 characters"));
                }
                per_file.provider = Some(v);
            }
            "--date" => {
                let v = value("--date")?;
                if v.len() != 10 || servecost::freshness::day(&v).is_none() {
                    return Err(format!("--date {v}: a day as YYYY-MM-DD"));
                }
                per_file.date = Some(v);
            }
            "--source-url" => {
                let v = value("--source-url")?;
                if !v.starts_with("https://") || v.len() > 500 || v.chars().any(char::is_control) {
                    return Err(format!(
                        "--source-url {v:?}: an https:// address of at most 500 characters"
                    ));
                }
                per_file.source_url = Some(v);
            }
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
                    "unknown option {flag}: accepted are --dry-run, --skip-invalid, --as-deployed, --hardware CHIP, --model ID, \
                     --description TEXT, --timeout SECS, --provider NAME, --date YYYY-MM-DD, \
                     --source-url URL"
                ))
            }
            file => {
                pending = None;
                files.push((per_file.clone(), file.to_owned()));
                continue;
            }
        }
        if matches!(
            arg.as_str(),
            "--hardware" | "--model" | "--provider" | "--date" | "--source-url" | "--as-deployed"
        ) {
            pending = Some(arg.as_str());
        }
    }
    if let Some(flag) = pending {
        return Err(format!(
            "{flag} applies to the files after it, and none follows: put it before the files it \
             is for"
        ));
    }
    for (file_opts, _) in &mut files {
        file_opts.dry_run = opts.dry_run;
        file_opts.skip_invalid = opts.skip_invalid;
        file_opts.description.clone_from(&opts.description);
        file_opts.timeout = opts.timeout;
    }
    Ok((opts, files))
}
