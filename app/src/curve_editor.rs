//! Your own benchmark: the editor's rows and what is pasted into it (rows copied from a
//! spreadsheet, or the result JSON of vLLM's serving benchmark), turned into the link's own
//! parameters (`points`, `curve_mix`). The form a page without JavaScript posts is read by
//! [`crate::form`], which calls these.
//!
//! Pure functions, the same on the server (for the form submitted without JavaScript) and in
//! the browser (for the live editor).

use servecost::codec::{read_number, write_number, write_rounded};

mod paste;
use paste::spreadsheet;
pub use paste::{read_paste, read_words, Pasted};

/// Fastest and slowest speeds a point may have, output tokens/s per user (the codec's range).
pub const TPS_RANGE: (f64, f64) = (0.1, 10_000.0);
/// Smallest and largest throughput a point may have, tokens/s per GPU (the codec's range).
pub const TPUT_RANGE: (f64, f64) = (0.001, 1e9);
/// Rows the editor shows at least, blank ones included.
const MIN_ROWS: usize = 3;

/// One row of the editor: the two cells as typed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Row {
    /// Output tokens/s per user.
    pub tps: String,
    /// Total tokens/s per GPU.
    pub tput: String,
}

impl Row {
    /// A row of the two cells as typed.
    pub fn new(tps: String, tput: String) -> Self {
        Self { tps, tput }
    }

    /// True when both cells are empty.
    pub fn is_blank(&self) -> bool {
        self.tps.trim().is_empty() && self.tput.trim().is_empty()
    }
}

/// The reason a speed cell is refused, or `None` when it is a valid speed.
pub fn tps_problem(text: &str) -> Option<String> {
    cell_problem(text, false, TPS_RANGE, "tokens/s per user")
}

/// The reason a throughput cell is refused, or `None` when it is a valid throughput.
pub fn tput_problem(text: &str) -> Option<String> {
    cell_problem(text, true, TPUT_RANGE, "tokens/s per GPU")
}

fn cell_problem(text: &str, suffixes: bool, (lo, hi): (f64, f64), unit: &str) -> Option<String> {
    let range = format!(
        "{} to {} {unit}",
        servecost::format::exact(lo, false),
        servecost::format::exact(hi, suffixes)
    );
    if text.trim().is_empty() {
        return Some(format!("required: a number from {range}"));
    }
    match read_number(text, suffixes, false) {
        Some(v) if (lo..=hi).contains(&v) => None,
        Some(_) => Some(format!("must be from {range}")),
        None => Some(format!("not a number: give one from {range}")),
    }
}

/// A cell as the link writes it: the exact number when it reads as one (`1,342` is `1342`),
/// otherwise the text with `_` for the characters that separate points and pairs, so that the
/// codec refuses it rather than reading `2,5` as 25.
fn cell_text(text: &str, suffixes: bool) -> String {
    match read_number(text, suffixes, false) {
        Some(v) => write_number(v, suffixes),
        None => text.trim().replace([',', ':'], "_"),
    }
}

/// True when a filled row has a cell the editor refuses.
pub fn has_problem(rows: &[Row]) -> bool {
    rows.iter()
        .filter(|r| !r.is_blank())
        .any(|r| tps_problem(&r.tps).is_some() || tput_problem(&r.tput).is_some())
}

/// The link's `points` for the editor's rows (blank rows left out; empty when none is left).
pub fn points_text(rows: &[Row]) -> String {
    rows.iter()
        .filter(|r| !r.is_blank())
        .map(|r| format!("{}:{}", cell_text(&r.tps, false), cell_text(&r.tput, true)))
        .collect::<Vec<_>>()
        .join(",")
}

/// The editor's rows for a link's `points`, padded (see [`padded`]).
pub fn rows_for(points: Option<&str>) -> Vec<Row> {
    padded(
        points
            .unwrap_or_default()
            .split(',')
            .filter(|p| !p.trim().is_empty())
            .map(|p| match p.split_once(':') {
                Some((a, b)) => Row::new(plain(a, false), plain(b, true)),
                None => Row::new(p.trim().to_owned(), String::new()),
            })
            .collect(),
    )
}

/// A cell from a link, as people read it (`3k` shows as `3000`); unreadable text as it is.
fn plain(text: &str, suffixes: bool) -> String {
    read_number(text, suffixes, false)
        .map_or_else(|| text.trim().to_owned(), |v| write_number(v, false))
}

/// `rows` with one blank row after them, and more up to the editor's minimum.
fn padded(mut rows: Vec<Row>) -> Vec<Row> {
    rows.push(Row::default());
    while rows.len() < MIN_ROWS {
        rows.push(Row::default());
    }
    rows
}

/// The editor's rows with pasted rows added to the filled ones, slowest first (cells that do
/// not read as numbers last), padded.
pub fn merged(rows: &[Row], pasted: &[Row]) -> Vec<Row> {
    let mut out: Vec<Row> = rows
        .iter()
        .filter(|r| !r.is_blank())
        .chain(pasted)
        .cloned()
        .collect();
    let speed = |r: &Row| read_number(&r.tps, false, false).unwrap_or(f64::INFINITY);
    out.sort_by(|a, b| speed(a).total_cmp(&speed(b)));
    padded(out)
}

/// True when text pasted into one cell holds rows from a spreadsheet (a tab, a line break, a
/// semicolon, or a comma and a space between two figures) rather than one figure: `1,234` is a
/// figure, `50, 1200` a row.
pub fn is_rows(text: &str) -> bool {
    let text = text.trim();
    text.contains(['\t', '\n', ';']) || text.contains(", ")
}

/// Spreadsheet rows pasted into a cell of row `at`: they fill the table from that row on (the
/// rows past them kept), in the order pasted.
pub fn filled_from(rows: &[Row], at: usize, text: &str) -> Result<Vec<Row>, String> {
    let pasted = spreadsheet(text)?;
    let mut out: Vec<Row> = rows.iter().take(at).cloned().collect();
    out.extend(pasted.iter().cloned());
    out.extend(rows.iter().skip(at + pasted.len()).cloned());
    out.retain(|r| !r.is_blank());
    Ok(padded(out))
}

/// The `input:cached:output` mix for a benchmark's ISL and OSL (tokens per request) and the
/// share of input served from cache, rounded for people; `None` unless ISL and OSL read.
pub fn mix_from_lengths(isl: &str, osl: &str, hit: &str) -> Option<String> {
    let isl = read_number(isl, true, false).filter(|v| *v >= 0.0)?;
    let osl = read_number(osl, true, false).filter(|v| *v > 0.0)?;
    let hit = if hit.trim().is_empty() {
        0.0
    } else {
        read_number(hit, false, true).filter(|h| (0.0..=1.0).contains(h))?
    };
    let parts = [isl * (1.0 - hit), isl * hit, osl].map(|v| write_rounded(v, false));
    Some(parts.join(":"))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn rows_pasted_into_a_cell_fill_the_table_from_its_row() {
        assert!(is_rows("50\t1200\n80\t900"));
        assert!(is_rows("50, 1200"));
        assert!(!is_rows("1,234"));
        assert!(!is_rows(" 42 "));
        let table = vec![
            Row::new("20".into(), "2000".into()),
            Row::new("30".into(), "1500".into()),
            Row::new("90".into(), "300".into()),
        ];
        let filled = filled_from(&table, 1, "50\t1200\n80\t900\n").expect("rows");
        let pairs: Vec<(&str, &str)> = filled
            .iter()
            .filter(|r| !r.is_blank())
            .map(|r| (r.tps.as_str(), r.tput.as_str()))
            .collect();
        assert_eq!(pairs, [("20", "2000"), ("50", "1200"), ("80", "900")]);
        assert!(filled.last().is_some_and(Row::is_blank));
        assert!(filled_from(&table, 0, "fast\tslow\nx\ty").is_err());
    }

    /// A vLLM serving benchmark's result, as `vllm bench serve --save-result` writes it.
    pub(crate) const VLLM: &str = r#"{"total_token_throughput": 10736.36, "output_throughput": 5368.18,
        "median_tpot_ms": 23.378, "total_input_tokens": 1310720, "total_output_tokens": 1310720}"#;

    #[test]
    fn a_vllm_result_is_one_point_at_its_mix() {
        let p = read_paste(VLLM, Some(8.0)).expect("reads");
        assert_eq!(p.rows, vec![Row::new("42.78".into(), "1342".into())]);
        assert_eq!(p.mix.as_deref(), Some("50:0:50"));
        let two = format!("[{VLLM}, {VLLM}]");
        assert_eq!(read_paste(&two, Some(8.0)).expect("reads").rows.len(), 2);
        assert!(read_paste(VLLM, None)
            .expect_err("gpus")
            .contains("GPUs per replica"));
        let missing = read_paste(r#"{"median_tpot_ms": 20}"#, Some(8.0)).expect_err("fields");
        assert!(
            missing.contains("total_token_throughput is missing"),
            "{missing}"
        );
        assert!(read_paste("{oops", Some(8.0))
            .expect_err("json")
            .contains("not valid JSON"));
    }

    #[test]
    fn an_sglang_result_reads_as_vllm_s_and_says_it_replaces_the_rows() {
        // SGLang's bench_serving names the total `total_throughput`, or gives input and
        // output throughput apart.
        let named = r#"{"total_throughput": 10736.36, "median_tpot_ms": 23.378,
            "total_input_tokens": 1310720, "total_output_tokens": 1310720}"#;
        let apart = r#"{"input_throughput": 5368.18, "output_throughput": 5368.18,
            "median_tpot_ms": 23.378, "total_input_tokens": 1310720, "total_output_tokens": 1310720}"#;
        for text in [named, apart] {
            let p = read_paste(text, Some(8.0)).expect("reads");
            assert_eq!(p.rows, vec![Row::new("42.78".into(), "1342".into())]);
            assert!(p.results);
            assert_eq!(
                read_words(&p),
                "Read 1 benchmark result: it replaces the rows and the mix."
            );
        }
        let two = read_paste(&format!("{named}\n{apart}"), Some(8.0)).expect("two");
        assert_eq!(
            read_words(&two),
            "Read 2 benchmark results: they replace the rows and the mix."
        );
        let rows = read_paste("20\t3000\n40\t1500", None).expect("rows");
        assert!(!rows.results);
        assert_eq!(read_words(&rows), "Read 2 rows, added to the rows.");
    }

    #[test]
    fn spreadsheet_rows_with_or_without_a_header() {
        let p = read_paste("tps\ttput\n20\t3,000\n40\t1,800\n", None).expect("tabs");
        assert_eq!(
            p.rows,
            vec![
                Row::new("20".into(), "3,000".into()),
                Row::new("40".into(), "1,800".into())
            ]
        );
        assert_eq!(
            read_paste("20, 3000\n40, 1800", None)
                .expect("commas")
                .rows
                .len(),
            2
        );
        assert_eq!(
            read_paste("20;3000", None).expect("semicolons").rows.len(),
            1
        );
        assert!(read_paste("20\t3000\nabc", None)
            .expect_err("bad line")
            .contains("line 2"));
    }

    #[test]
    fn pasted_rows_out_of_range_are_refused_with_their_line() {
        let huge = read_paste("1e308\t1e308", None).expect_err("out of range");
        assert!(
            huge.contains("line 1: must be from 0.1 to 10,000"),
            "{huge}"
        );
        let sorted = merged(
            &[Row::new("100".into(), "900".into())],
            &[Row::new("10".into(), "2600".into())],
        );
        assert_eq!(points_text(&sorted), "10:2.6k,100:900");
    }

    #[test]
    fn rows_make_the_links_points() {
        let rows = vec![
            Row::new("20".into(), "3,000".into()),
            Row::default(),
            Row::new("40".into(), "1.8k".into()),
        ];
        assert_eq!(points_text(&rows), "20:3k,40:1.8k");
        // A decimal comma is not a thousands separator: refused, not read as 25.
        let comma = vec![Row::new("2,5".into(), "500".into())];
        assert_eq!(points_text(&comma), "2_5:500");
        assert!(has_problem(&comma));
        assert_eq!(rows_for(Some("20:3k,40:1.8k")).len(), 3);
        assert_eq!(rows_for(None).len(), MIN_ROWS);
        assert_eq!(
            tps_problem("0.01").as_deref(),
            Some("must be from 0.1 to 10,000 tokens/s per user")
        );
        assert!(tput_problem("").expect("required").starts_with("required"));
        assert_eq!(tput_problem("2 k"), None);
    }

    #[test]
    fn mix_from_isl_osl_and_cache_hit() {
        assert_eq!(
            mix_from_lengths("8k", "1k", "").as_deref(),
            Some("8000:0:1000")
        );
        assert_eq!(
            mix_from_lengths("1,000", "100", "97%").as_deref(),
            Some("30:970:100")
        );
        assert_eq!(mix_from_lengths("", "100", ""), None);
    }
}
