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
