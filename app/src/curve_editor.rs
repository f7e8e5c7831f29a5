//! Your own benchmark: the editor's rows, what is pasted into it (rows copied from a spreadsheet,
//! or the result JSON of vLLM's serving benchmark), and the form fields a page without
//! JavaScript submits for it, turned into the link's own parameters (`points`, `curve_mix`).
//!
//! Pure functions, the same on the server (for the form submitted without JavaScript) and in
//! the browser (for the live editor).

use servecost::codec::{read_number, write_number, write_rounded, OWN_CURVE};

use crate::query;

mod paste;
use paste::spreadsheet;
pub use paste::{read_paste, read_words, Pasted};

/// Fastest and slowest speeds a point may have, output tokens/s per user (the codec's range).
pub const TPS_RANGE: (f64, f64) = (0.1, 10_000.0);
/// Smallest and largest throughput a point may have, tokens/s per GPU (the codec's range).
pub const TPUT_RANGE: (f64, f64) = (0.001, 1e9);
/// Rows the editor shows at least, blank ones included.
const MIN_ROWS: usize = 3;

/// Form fields that are not link parameters: the benchmark editor's (each row's two cells, the
/// paste box, and the ISL/OSL/cache-hit way of giving the mix), a usage export's, sent back
/// with the reason when the server could not read it, and the load profile editor's
/// ([`crate::load_editor::FIELDS`]).
pub const FORM_ONLY: [&str; 19] = [
    "pt_tps",
    "pt_tput",
    "paste",
    "paste_error",
    "paste_read",
    "isl",
    "osl",
    "hit",
    "usage",
    "usage_error",
    "usage_model",
    "usage_read",
    "model_dropped",
    // The signature of the messages above (`crate::notice`).
    "notice",
    "peak_factor",
    "peak_from",
    "peak_to",
    "peak_weekdays",
    "profile_weights",
];

/// Pasted text longer than this is not carried back in a link when it cannot be read (the
/// reason is): links stay well under the server's query limit.
pub const KEEP_PASTE: usize = 2_000;

/// One row of the editor: the two cells as typed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Row {
    /// Output tokens/s per user.
    pub tps: String,
    /// Total tokens/s per GPU.
    pub tput: String,
}

impl Row {
    fn new(tps: String, tput: String) -> Self {
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

/// The benchmark editor's state carried by a page whose form was submitted without JavaScript:
/// the link's parameters, and pasted text that could not be read (kept, with the reason).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FromForm {
    /// The query with the editor's form fields turned into `points` and `curve_mix`.
    pub query: String,
    /// Pasted text that could not be read, and why.
    pub paste: Option<(String, String)>,
    /// What a paste read (`Read 3 benchmark results: …`), for the page to say.
    pub paste_read: Option<String>,
    /// A usage export the server could not read: the model typed for it, and why.
    pub usage: Option<(String, String)>,
    /// What the server read from a usage export, for the page to say.
    pub usage_read: Option<String>,
    /// What choosing another model dropped (figures of a chip it has no curve on).
    pub model_dropped: Option<String>,
    /// The folded sections of the form the link opens (`open=`, left out of `query`).
    pub opened: Vec<&'static str>,
}

/// Turns the benchmark editor's form fields, as a form submitted without JavaScript sends
/// them (`pt_tps`/`pt_tput` for each row, `paste`, `isl`/`osl`/`hit`), into the link's own
/// parameters. A query without them comes back unchanged. A dataset curve picked in the same
/// submission wins: the editor's fields are then dropped.
pub fn from_form(raw: &str) -> FromForm {
    let raw = raw.trim_start_matches('?');
    // The sections a link opens are the page's state, not the scenario's.
    if query::get(raw, "open").is_some() {
        let opened = crate::components::inputs::opened(raw);
        // Only `open` goes: the editor's empty cells stay, so that its rows keep their pairs.
        let rest: Vec<&str> = raw
            .split('&')
            .filter(|p| p.split('=').next() != Some("open"))
            .collect();
        let form = fields(&rest.join("&"));
        return FromForm { opened, ..form };
    }
    fields(raw)
}

/// [`from_form`] of a query without `open=`.
fn fields(raw: &str) -> FromForm {
    let all: Vec<(String, String)> = raw
        .split('&')
        .filter_map(|p| p.split_once('=').or(Some((p, ""))))
        .filter(|(k, _)| !k.is_empty())
        .map(|(k, v)| (k.to_owned(), servecost::codec::decode(v)))
        .collect();
    if !all.iter().any(|(k, _)| FORM_ONLY.contains(&k.as_str())) {
        return FromForm {
            query: raw.to_owned(),
            paste: None,
            paste_read: None,
            usage: None,
            usage_read: None,
            model_dropped: None,
            opened: Vec::new(),
        };
    }
    let values = |name: &str| -> Vec<String> {
        all.iter()
            .filter(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .collect()
    };
    let first = |name: &str| values(name).into_iter().find(|v| !v.trim().is_empty());
    let usage =
        first("usage_error").map(|reason| (first("usage_model").unwrap_or_default(), reason));
    let usage_read = first("usage_read");
    let model_dropped = first("model_dropped");
    let mut paste_read = first("paste_read");
    let mut base = FORM_ONLY
        .iter()
        .fold(raw.to_owned(), |q, name| query::edit(&q, &[], &[name]));
    // The load editor's fields make the profile when the select names them.
    let choice = query::get(&base, "profile").map(|p| servecost::codec::decode(&p));
    if let Some(profile) = choice
        .and_then(|c| crate::load_editor::profile_text(&c, |name| values(name).into_iter().next()))
    {
        base = query::set(&base, "profile", &profile);
    }
    let curve = first("curve");
    let own = curve.as_deref().is_none_or(|c| c == OWN_CURVE);
    // A usage export or a load profile sent back alone leaves the curve as it is.
    let editor = all.iter().any(|(k, _)| {
        FORM_ONLY.contains(&k.as_str())
            && !k.starts_with("usage")
            && k != crate::notice::PARAM
            && !crate::load_editor::FIELDS.contains(&k.as_str())
    });
    if !own || !editor {
        return FromForm {
            query: base,
            paste: None,
            paste_read,
            usage,
            usage_read,
            model_dropped,
            opened: Vec::new(),
        };
    }
    let mut rows: Vec<Row> = values("pt_tps")
        .into_iter()
        .zip(values("pt_tput"))
        .map(|(a, b)| Row::new(a, b))
        .filter(|r| !r.is_blank())
        .collect();
    if rows.is_empty() {
        rows = rows_for(
            query::get(&base, "points")
                .map(|p| servecost::codec::decode(&p))
                .as_deref(),
        );
    }
    let mut paste = None;
    let mut mix = None;
    if let Some(reason) = first("paste_error") {
        // Sent back by the server after a paste it could not read (see `after_post`).
        paste = Some((first("paste").unwrap_or_default(), reason));
    } else if let Some(text) = first("paste") {
        let gpus = query::get(&base, "replica")
            .and_then(|g| read_number(&servecost::codec::decode(&g), false, false));
        match read_paste(&text, gpus) {
            Ok(p) => {
                // Benchmark results are a whole measurement: they replace the rows and the
                // mix; spreadsheet rows are added.
                rows = merged(if p.results { &[] } else { &rows }, &p.rows);
                paste_read = Some(read_words(&p));
                mix = p.mix.map(|m| (m, p.results));
            }
            Err(reason) => paste = Some((text, reason)),
        }
    }
    if let Some(m) = mix_from_lengths(
        &first("isl").unwrap_or_default(),
        &first("osl").unwrap_or_default(),
        &first("hit").unwrap_or_default(),
    ) {
        base = query::set(&base, "curve_mix", &m);
    } else if let Some((m, _)) =
        mix.filter(|(_, replaces)| *replaces || query::get(&base, "curve_mix").is_none())
    {
        base = query::set(&base, "curve_mix", &m);
    }
    let points = points_text(&rows);
    let query = query::edit(&base, &[("curve", OWN_CURVE), ("points", &points)], &[]);
    FromForm {
        query,
        paste,
        paste_read,
        usage,
        usage_read,
        model_dropped,
        opened: Vec::new(),
    }
}

/// Where a form posted by the paste button without JavaScript goes next: the link of its
/// scenario, with the reason (and the text, when short) of a paste that could not be read.
/// The paste is posted, not sent in the address, so that several benchmark results fit.
pub fn after_post(body: &str) -> String {
    let f = from_form(body);
    let mut query = f.query;
    // The sections open when the paste was sent stay open.
    if !f.opened.is_empty() {
        query = query::set(&query, "open", &f.opened.join(","));
    }
    if let Some(words) = f.paste_read {
        query = query::set(&query, "paste_read", &words);
    }
    if let Some((text, reason)) = f.paste {
        query = query::set(&query, "paste_error", &reason);
        if text.len() <= KEEP_PASTE {
            query = query::set(&query, "paste", &text);
        }
    }
    query::href(&query)
}

#[cfg(test)]
mod tests {
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

    const VLLM: &str = r#"{"total_token_throughput": 10736.36, "output_throughput": 5368.18,
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
    fn the_form_without_javascript_becomes_the_link() {
        let q = "curve=own&pt_tps=20&pt_tput=3%2C000&pt_tps=&pt_tput=&replica=8&isl=1000&osl=100&hit=50%25&paste=";
        let f = from_form(q);
        assert_eq!(f.paste, None);
        assert_eq!(
            f.query,
            "replica=8&curve_mix=500:500:100&curve=own&points=20:3k"
        );
        let f = from_form(&format!(
            "curve=own&replica=8&pt_tps=20&pt_tput=3000&paste={}",
            query::encode(VLLM)
        ));
        // A benchmark result replaces the typed rows.
        assert_eq!(
            f.query,
            "replica=8&curve_mix=50:0:50&curve=own&points=42.78:1.342k"
        );
        // It replaces a typed mix too; spreadsheet rows are added and keep it.
        let f = from_form(&format!(
            "curve=own&replica=8&curve_mix=1:0:1&pt_tps=20&pt_tput=3000&paste={}",
            query::encode(VLLM)
        ));
        assert!(f.query.contains("curve_mix=50:0:50"), "{}", f.query);
        let f = from_form("curve=own&curve_mix=1:0:1&pt_tps=20&pt_tput=3000&paste=40%091500");
        assert!(f.query.contains("curve_mix=1:0:1"), "{}", f.query);
        assert!(f.query.contains("points=20:3k,40:1.5k"), "{}", f.query);
        // Unreadable paste is kept with its reason; the rows still count.
        let f = from_form("curve=own&pt_tps=20&pt_tput=3000&paste=%7Boops");
        assert!(f.paste.expect("kept").1.contains("JSON"));
        // A dataset curve picked in the same submission wins.
        assert_eq!(from_form("curve=x&pt_tps=20&pt_tput=3000").query, "curve=x");
        assert_eq!(from_form("tps=5").query, "tps=5");
    }

    #[test]
    fn a_section_opened_leaves_the_editors_rows_paired() {
        // A half-filled row between two whole ones, sent with a section open: the rows keep
        // their cells, and the half-filled one is named, as without `open=`.
        let cells = "curve=own&pt_tps=20&pt_tput=3000&pt_tps=40&pt_tput=&pt_tps=60&pt_tput=1500";
        let with = from_form(&format!("open=fleet&{cells}"));
        let without = from_form(cells);
        assert_eq!(with.query, without.query);
        assert_eq!(with.paste, without.paste);
        assert_eq!(with.opened, ["fleet"]);
    }

    #[test]
    fn sections_a_link_opens_are_the_pages_state_not_the_scenarios() {
        let f = from_form("requests=2M&open=fleet%2Cranges&util=0.7");
        assert_eq!(f.query, "requests=2M&util=0.7");
        assert_eq!(f.opened, ["fleet", "ranges"]);
        // Names of no section are left out, a name given twice counts once; the editor's
        // fields in the same link still become parameters.
        let f = from_form("open=nothing,fleet&open=fleet&curve=own&pt_tps=20&pt_tput=3000");
        assert_eq!(f.opened, ["fleet"]);
        assert!(f.query.contains("points=") && !f.query.contains("open"));
        assert!(from_form("requests=2M").opened.is_empty());
        // A paste posted from a page with a section open comes back with it open.
        assert!(after_post("open=fleet&curve=own&pt_tps=20&pt_tput=3000").contains("open=fleet"));
    }

    #[test]
    fn the_load_editor_without_javascript_becomes_the_profile() {
        let f = from_form(
            "requests=2M&profile=peak&peak_factor=3&peak_from=9&peak_to=17&peak_weekdays=on&profile_weights=",
        );
        assert_eq!(
            servecost::codec::decode(&f.query),
            "requests=2M&profile=peak:3:9-17:weekdays"
        );
        // The curve is left as it was; a preset ignores the editor's fields.
        let f =
            from_form("curve=x&profile=flat&peak_factor=3&peak_from=&peak_to=&profile_weights=");
        assert_eq!(f.query, "curve=x&profile=flat");
        let f = from_form("profile=custom&profile_weights=1%0A2%0A3");
        assert_eq!(servecost::codec::decode(&f.query), "profile=1,2,3");
    }

    #[test]
    fn a_posted_paste_becomes_a_link_and_a_failed_one_keeps_its_reason() {
        let body = format!(
            "curve=own&replica=8&pt_tps=20&pt_tput=3000&paste={}",
            query::encode(VLLM)
        );
        // The result replaces the row typed, and the page is told how many it read.
        let posted = after_post(&body);
        let (link, said) = posted.split_once("&paste_read=").expect("what was read");
        assert_eq!(
            link,
            "/?replica=8&curve_mix=50:0:50&curve=own&points=42.78:1.342k"
        );
        let back = from_form(posted.trim_start_matches("/?"));
        assert_eq!(
            back.paste_read.as_deref(),
            Some("Read 1 benchmark result: it replaces the rows and the mix."),
            "{said}"
        );
        assert_eq!(
            back.query,
            "replica=8&curve_mix=50:0:50&curve=own&points=42.78:1.342k"
        );
        let rows = after_post("curve=own&pt_tps=20&pt_tput=3000&paste=40%092000%0A60%091000");
        let back = from_form(rows.trim_start_matches("/?"));
        assert_eq!(
            back.paste_read.as_deref(),
            Some("Read 2 rows, added to the rows.")
        );
        assert!(
            back.query.contains("points=20:3k,40:2k,60:1k"),
            "{}",
            back.query
        );
        let failed = after_post("curve=own&pt_tps=20&pt_tput=3000&paste=%7Boops");
        assert!(
            failed.contains("paste_error=not%20valid%20JSON"),
            "{failed}"
        );
        assert!(failed.contains("paste=%7Boops"), "{failed}");
        let back = from_form(failed.trim_start_matches("/?"));
        assert_eq!(back.paste.map(|p| p.0).as_deref(), Some("{oops"));
        assert!(back.query.contains("points=20:3k"));
        let long = format!("curve=own&paste={}", "x".repeat(KEEP_PASTE + 1));
        assert!(!after_post(&long).contains("paste=x"));
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
