//! Every figure people read is written by `servecost::format`: no source file outside it builds
//! a dollar amount or a percentage by hand (`format!("${:.2}", v)`, `"{} %"`), the ways the page
//! once came to print `$8333` beside `$8,333` and `3.0 %` split across lines.

use std::path::Path;

/// The Rust files under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A hand-built figure on `line`: a `$` just before a placeholder, or a placeholder then ` %`
/// (with a plain or a no-break space).
fn hand_built(line: &str) -> bool {
    let code = line.trim_start();
    if code.starts_with("//") {
        return false;
    }
    if line.contains("}\\u{a0}%") {
        return true;
    }
    let bytes = line.as_bytes();
    bytes.windows(2).enumerate().any(|(i, w)| {
        // `${` inside a string, but not a `$${` escape or a placeholder the text fills itself.
        (w == b"${" && (i == 0 || bytes[i - 1] != b'$'))
            || (w == b"} " && line[i + 2..].starts_with('%') && line[..i].contains('{'))
    })
}

#[test]
fn no_figure_is_formatted_outside_the_formatter() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "app/src", "server/src"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 50, "found only {} files", files.len());
    let formatter = root.join("src/format.rs");
    let mut found = Vec::new();
    for file in files.iter().filter(|f| **f != formatter) {
        let text = std::fs::read_to_string(file).expect("read");
        for (n, line) in text.lines().enumerate() {
            // The one place a link value is shown as the link holds it (what the button applies).
            if hand_built(line) && !line.contains("price_in} and output at ${price_out}") {
                found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "figures built by hand:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_sees_hand_built_figures() {
    assert!(hand_built(r#"format!("${:.2}", v)"#));
    assert!(hand_built(r#"format!("{:.0} % of it", v)"#));
    assert!(hand_built(r#"format!("{share} %")"#));
    assert!(hand_built(r#"format!("{}\u{a0}%", v * 100.0)"#));
    assert!(!hand_built(r#"format!("{}", format::usd(v))"#));
    assert!(!hand_built(r#"// a comment with ${x}"#));
}
