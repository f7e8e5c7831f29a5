//! A published dataset revision as a migration: the import of the files an arguments file
//! lists, written as SQL. The migration ships the revision; a test imports the same files
//! again and compares its SQL with the migration byte for byte, so the revision is reproduced
//! from the repository's files, and any change to a file or a reader shows.

use std::path::Path;

use crate::rows::{rows_at, Rows};
use crate::table::Table;
use sqlx::AnyPool;

use super::{parse_args, planned, ImportProblem};

/// The arguments of an arguments file: one a line, blank lines and `#` comments left out; a
/// relative path is relative to the file's folder.
pub fn arguments(file: &Path) -> Result<Vec<String>, Vec<ImportProblem>> {
    let name = file.display().to_string();
    let text = std::fs::read_to_string(file)
        .map_err(|e| vec![ImportProblem::new(&name, "", "", e.to_string())])?;
    let folder = file.parent().unwrap_or(Path::new("."));
    let mut args = Vec::new();
    let mut takes_value = false;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let arg = if line.starts_with("--") || takes_value {
            line.to_owned()
        } else {
            folder.join(line).display().to_string()
        };
        takes_value = line.starts_with("--") && !super::cli::SWITCHES.contains(&line);
        args.push(arg);
    }
    Ok(args)
}

/// The SQL of a new revision `base + 1` over the newest revision in `pool` (`base`), made of the
/// import of the arguments in `file`, written at `created_at`.
pub async fn sql(
    pool: &AnyPool,
    file: &Path,
    created_at: &str,
) -> Result<String, Vec<ImportProblem>> {
    let db = |e: sqlx::Error| vec![ImportProblem::new("database", "", "", e.to_string())];
    let args = arguments(file)?;
    let (opts, files) = parse_args(&args)
        .map_err(|e| vec![ImportProblem::new(&file.display().to_string(), "", "", e)])?;
    let base = crate::newest_revision(pool).await.map_err(db)?;
    let current = rows_at(pool, base).await.map_err(db)?;
    let super::Planned { rows, names, .. } = planned(&current, &files)?;
    let revision = base + 1;
    let description = opts.description.unwrap_or_default();
    let folder = file
        .parent()
        .and_then(Path::file_name)
        .map_or_else(String::new, |f| f.to_string_lossy().into_owned());
    let mut out = format!(
        "-- Revision {revision}: written by `servecost-server import` from the files that\n\
         -- server/dataset/{folder}/import.args lists (see its README); the test\n\
         -- `published_revision` imports them again and compares with this file byte for byte.\n\
         -- Do not edit: change the files and bless the test (SERVECOST_BLESS=1).\n\n"
    );
    out.push_str(&format!(
        "INSERT INTO dataset_revisions (id, created_at, description, source_files) VALUES ({revision}, {}, {}, {});\n",
        literal(created_at),
        literal(&description),
        literal(&names.join("\n"))
    ));
    let Rows {
        sources,
        models,
        weights,
        chips,
        tiers,
        offers,
        curves,
        points,
        headlines,
    } = &rows;
    section(&mut out, sources, revision);
    section(&mut out, models, revision);
    section(&mut out, weights, revision);
    section(&mut out, chips, revision);
    section(&mut out, tiers, revision);
    section(&mut out, offers, revision);
    section(&mut out, curves, revision);
    section(&mut out, points, revision);
    section(&mut out, headlines, revision);
    Ok(out)
}

fn literal(text: &str) -> String {
    crate::table::Literal::literal(&text.to_owned())
}

fn section<T: Table>(out: &mut String, rows: &[T], revision: i64) {
    if rows.is_empty() {
        return;
    }
    out.push_str(&format!("\n-- {} ({})\n", T::TABLE, rows.len()));
    for r in rows {
        out.push_str(&r.insert_sql(revision));
        out.push('\n');
    }
}
