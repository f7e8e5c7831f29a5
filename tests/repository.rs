//! Whatever the project needs lives in the repository: no tracked file refers to a path outside
//! it (a folder beside the checkout, or this workspace's own paths), so a `git clone` into an
//! empty folder builds and tests. The one exception is the opening comment of a shipped
//! migration: editing it would change its sqlx checksum and break existing databases.

use std::path::Path;
use std::process::Command;

/// Shipped migrations whose opening comments name the reference notes they were written from.
const FROZEN: [&str; 1] = ["migrations/20261129000002_published_dataset.sql"];

/// Text that points outside the repository: the reference folder beside the checkout and this
/// workspace's own paths. Built at run time, so that this file does not name them itself.
fn outside() -> [String; 3] {
    let folder = ["sha", "red"].concat();
    [
        format!("../{folder}"),
        format!("{folder}/reference"),
        format!("/{}/", ["wo", "rk"].concat()),
    ]
}

#[test]
fn no_tracked_file_refers_outside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let listed = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root)
        .output();
    let Some(listed) = listed.ok().filter(|o| o.status.success()) else {
        // An export without its .git folder: nothing to list, and nothing tracked to check.
        eprintln!("not a git checkout: skipped");
        return;
    };
    let files: Vec<String> = listed
        .stdout
        .split(|b| *b == 0)
        .filter(|f| !f.is_empty())
        .map(|f| String::from_utf8_lossy(f).into_owned())
        .collect();
    assert!(files.len() > 50, "git listed {} files", files.len());
    let outside = outside();
    let mut found = Vec::new();
    for file in &files {
        let Ok(text) = std::fs::read_to_string(root.join(file)) else {
            continue; // binary files
        };
        for (n, line) in text.lines().enumerate() {
            // The frozen migration's opening comment (its first lines of `--`) may stay.
            if FROZEN.contains(&file.as_str()) && line.starts_with("--") && n < 5 {
                continue;
            }
            if let Some(p) = outside.iter().find(|p| line.contains(p.as_str())) {
                found.push(format!("{file}:{}: {p:?} in {line:?}", n + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "paths outside the repository:\n{}",
        found.join("\n")
    );
}

/// The Rust sources under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A warning code is written once, in its enum: the engine, the page and the server name the
/// variant, never the text (tests may compare the JSON's text).
#[test]
fn warning_codes_are_written_only_in_their_enum() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "app/src", "server/src"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 50, "{} source files", files.len());
    let mut found = Vec::new();
    for file in &files {
        if file.ends_with("src/report.rs") {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap_or_default();
        for code in servecost::report::WarningCode::ALL {
            if text.contains(&format!("\"{code}\"")) {
                found.push(format!("{}: \"{code}\"", file.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "warning codes as text:\n{}",
        found.join("\n")
    );
}

/// A chart is named once, in its enum: no source asks for a chart by a literal name. (Most
/// chart names are also words of their own, a parameter or a class name: the check looks for
/// a literal passed where a chart is asked for, and for the one name that is only a chart's.)
#[test]
fn chart_names_are_written_only_in_their_enum() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "app/src", "server/src"] {
        rust_files(&root.join(dir), &mut files);
    }
    let mut found = Vec::new();
    for file in &files {
        if file.ends_with("charts/registry.rs") {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap_or_default();
        for pattern in ["by_name(\"", "from_key(\"", "\"tornado\""] {
            if text.contains(pattern) {
                found.push(format!("{}: {pattern}", file.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "chart names as text:\n{}",
        found.join("\n")
    );
}
