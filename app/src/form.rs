//! The form a page without JavaScript submits, read back into the link: the fields that are not
//! link parameters ([`FORM_ONLY`]: the benchmark editor's cells and paste box, the usage
//! export's, the load profile editor's, the messages the server signs), the folded sections a
//! link opens ([`FOLDS`]), and where a posted form goes next ([`after_post`]).
//!
//! Pure functions, the same on the server and in the browser. The pages and the components read
//! this; it reads the editors' own rules ([`crate::curve_editor`], [`crate::load_editor`]) and
//! nothing of the components.

use servecost::codec::{decode, read_number, OWN_CURVE};

use crate::curve_editor::{
    merged, mix_from_lengths, points_text, read_paste, read_words, rows_for, Row,
};
use crate::query;

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

/// The folded sections of the form whose fields are made when they open, by the name a link
/// gives them (`open=fleet,ranges`).
pub const FOLDS: [&str; 5] = ["prices", "fleet", "operations", "assumptions", "ranges"];

/// The folded sections a link's `open=` names: a view's state, not the scenario's (names of
/// no section are left out, as a section already open stays open).
pub fn opened(raw: &str) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for (_, v) in query::pairs(raw).into_iter().filter(|(k, _)| k == "open") {
        for name in decode(&v).split(',') {
            if let Some(f) = FOLDS.iter().find(|f| **f == name.trim()) {
                if !out.contains(f) {
                    out.push(f);
                }
            }
        }
    }
    out
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
        let opened = opened(raw);
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
        .map(|(k, v)| (k.to_owned(), decode(v)))
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
    let choice = query::get(&base, "profile").map(|p| decode(&p));
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
        rows = rows_for(query::get(&base, "points").map(|p| decode(&p)).as_deref());
    }
    let mut paste = None;
    let mut mix = None;
    if let Some(reason) = first("paste_error") {
        // Sent back by the server after a paste it could not read (see `after_post`).
        paste = Some((first("paste").unwrap_or_default(), reason));
    } else if let Some(text) = first("paste") {
        let gpus =
            query::get(&base, "replica").and_then(|g| read_number(&decode(&g), false, false));
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
    use crate::curve_editor::tests::VLLM;

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
        assert_eq!(decode(&f.query), "requests=2M&profile=peak:3:9-17:weekdays");
        // The curve is left as it was; a preset ignores the editor's fields.
        let f =
            from_form("curve=x&profile=flat&peak_factor=3&peak_from=&peak_to=&profile_weights=");
        assert_eq!(f.query, "curve=x&profile=flat");
        let f = from_form("profile=custom&profile_weights=1%0A2%0A3");
        assert_eq!(decode(&f.query), "profile=1,2,3");
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
}
