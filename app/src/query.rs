//! The page's state is its query string: read it, change one parameter, evaluate it.

use servecost::{parse_lenient, Dataset, Problem, Report};

/// A report as the page's signals and views hold it: shared, not copied. Two are equal only
/// when they are the same evaluation (a new evaluation is a new answer), so that a memo never
/// walks a whole report to compare it, and handing it to a view costs a count, not a copy.
#[derive(Debug, Clone)]
pub struct Answer(std::sync::Arc<Report>);

impl PartialEq for Answer {
    fn eq(&self, other: &Self) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl std::ops::Deref for Answer {
    type Target = Report;

    fn deref(&self) -> &Report {
        &self.0
    }
}

/// As its report, for a page that carries it from the server.
impl serde::Serialize for Answer {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> serde::Deserialize<'de> for Answer {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Report::deserialize(deserializer).map(Self::from)
    }
}

impl From<Report> for Answer {
    fn from(report: Report) -> Self {
        Self(std::sync::Arc::new(report))
    }
}

/// What one query string gives.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The scenario as read, bad fields at their default.
    pub scenario: servecost::codec::Checked,
    /// The report, or the problems that stopped it.
    pub report: Result<Answer, Vec<Problem>>,
    /// Parameters that could not be read and fell back to their default.
    pub problems: Vec<Problem>,
    /// Parameters that were ignored (unknown or not applicable).
    pub ignored: Vec<Problem>,
}

impl Outcome {
    /// Every problem of the inputs: values that cannot be read, then those that leave the
    /// inputs without an answer.
    pub fn all_problems(&self) -> impl Iterator<Item = &Problem> {
        self.problems
            .iter()
            .chain(self.report.as_ref().err().into_iter().flatten())
    }

    /// What of the link was not used, in words, for the pages that list it under their answer
    /// (the embed, the ranking): each field that could not be read, at its default, then each
    /// one ignored.
    pub fn left_out(&self) -> Vec<String> {
        self.problems
            .iter()
            .map(|p| format!("{} (at its default: {})", p.param, p.reason))
            .chain(
                self.ignored
                    .iter()
                    .map(|p| format!("{} ({})", p.param, p.reason)),
            )
            .collect()
    }
}

/// The query's `name=value` pairs, without empty values (an emptied form field means "default").
pub fn pairs(query: &str) -> Vec<(String, String)> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter_map(|p| p.split_once('=').or(Some((p, ""))))
        .filter(|(k, v)| !k.is_empty() && !v.is_empty())
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect()
}

/// The raw (still encoded) value of `name`.
pub fn get(query: &str, name: &str) -> Option<String> {
    pairs(query)
        .into_iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v)
}

/// `query` with `name` set to `value` (removed when empty); other parameters keep their order.
pub fn set(query: &str, name: &str, value: &str) -> String {
    edit(query, &[(name, value)], &[])
}

/// `query` with each `(name, value)` set (removed when the value is empty) and every name in
/// `remove` removed; other parameters keep their order.
pub fn edit(query: &str, set: &[(&str, &str)], remove: &[&str]) -> String {
    let mut out: Vec<(String, String)> = pairs(query)
        .into_iter()
        .filter(|(k, _)| !remove.contains(&k.as_str()) && !set.iter().any(|(n, _)| n == k))
        .collect();
    for (name, value) in set {
        if !value.trim().is_empty() {
            out.push(((*name).to_owned(), encode(value.trim())));
        }
    }
    out.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("&")
}

/// `query` with the workload a usage export measured (`usage`, its scenario link) in place of
/// its own: the monthly totals, the profile, the batch share (none when the export has no batch
/// traffic) and, where measured, the growth; every other input stays as it was.
pub fn with_usage(query: &str, usage: &str) -> String {
    use servecost::codec::forms::{MIX, SHAPE, TOTALS};
    // What an export measures: each replaces the link's. Its batch share is measured even when
    // it is none (the link then leaves it out), so the link's own is taken out; a growth it
    // could not measure (less than two months) leaves the link's forecast as it was.
    const MEASURED: [&str; 6] = ["input", "cached", "output", "profile", "batch", "growth"];
    let values: Vec<(&str, String)> = MEASURED
        .into_iter()
        .filter_map(|k| get(usage, k).map(|v| (k, servecost::codec::decode(&v))))
        .collect();
    let set: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let cleared: Vec<&str> = SHAPE
        .iter()
        .chain(&MIX)
        .chain(&TOTALS)
        .chain(&["batch"])
        .copied()
        .filter(|k| !set.iter().any(|(s, _)| s == k))
        .collect();
    edit(query, &set, &cleared)
}

/// A link to the calculator with `query`, safe to send as a `Location` header: every byte a URI's
/// query may not hold as it is (controls, spaces, non-ASCII, `"<>\\^`{|}#`, a `%` that starts no
/// escape) is percent-encoded, which [`servecost::codec::decode`] reads back as the same text, so
/// a form posted with raw bytes still reaches a link that means what it sent.
pub fn href(query: &str) -> String {
    let query = uri_query(query.trim_start_matches('?'));
    if query.is_empty() {
        "/".to_owned()
    } else {
        format!("/?{query}")
    }
}

/// `query` with every byte RFC 3986 does not allow in a query percent-encoded; escapes already
/// there are kept as they are.
pub fn uri_query(query: &str) -> String {
    let bytes = query.as_bytes();
    let hex = |b: u8| b.is_ascii_hexdigit();
    let mut out = String::with_capacity(bytes.len());
    for (i, &b) in bytes.iter().enumerate() {
        let allowed = b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?".contains(&b);
        if allowed {
            out.push(b as char);
        } else if b == b'%'
            && bytes.get(i + 1).is_some_and(|&h| hex(h))
            && bytes.get(i + 2).is_some_and(|&l| hex(l))
        {
            out.push('%');
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A link to the calculator with a canonical query (a report's or a save's): `v=1` alone, the
/// defaults, is the bare page.
pub fn canonical_href(query: &str) -> String {
    href(if query == "v=1" { "" } else { query })
}

/// Percent-encodes a query value (keeps `.-_:,` readable).
pub fn encode(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'.' | b'-' | b'_' | b':' | b',' => {
                (b as char).to_string()
            }
            b'%' => "%25".to_owned(),
            other => format!("%{other:02X}"),
        })
        .collect()
}

/// Reads and evaluates `query` against `data`, bad fields replaced by their default.
pub fn outcome(query: &str, data: &Dataset) -> Outcome {
    outcome_with(query, data, servecost::evaluate::Depth::Full)
}

/// [`outcome`] evaluated to `depth`. On the server a page asks for its scenario twice (its link
/// preview and its body): the full answer is computed once per request.
pub fn outcome_with(query: &str, data: &Dataset, depth: servecost::evaluate::Depth) -> Outcome {
    #[cfg(feature = "ssr")]
    if depth == servecost::evaluate::Depth::Full {
        if let Some(seen) = leptos::prelude::use_context::<RequestOutcomes>() {
            let key = (data.revision, data.as_of.clone(), query.to_owned());
            if let Some(hit) = seen.get(&key) {
                return hit;
            }
            let out = compute(query, data, depth);
            seen.put(key, out.clone());
            return out;
        }
    }
    compute(query, data, depth)
}

/// The answers one server request has computed, by dataset revision and query (the page's
/// dataset and the store's give the same report for one revision).
#[cfg(feature = "ssr")]
#[derive(Clone, Default)]
pub struct RequestOutcomes(std::sync::Arc<std::sync::Mutex<Vec<(OutcomeKey, Outcome)>>>);

/// A dataset revision, the day it is viewed on and a query string.
#[cfg(feature = "ssr")]
type OutcomeKey = (i64, Option<String>, String);

#[cfg(feature = "ssr")]
impl RequestOutcomes {
    fn get(&self, key: &OutcomeKey) -> Option<Outcome> {
        let seen = self.0.lock().ok()?;
        seen.iter().find(|(k, _)| k == key).map(|(_, o)| o.clone())
    }

    fn put(&self, key: OutcomeKey, value: Outcome) {
        if let Ok(mut seen) = self.0.lock() {
            seen.push((key, value));
        }
    }
}

fn compute(query: &str, data: &Dataset, depth: servecost::evaluate::Depth) -> Outcome {
    let cleaned: Vec<String> = pairs(query)
        .into_iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let (parsed, problems) = parse_lenient(&cleaned.join("&"));
    Outcome {
        report: crate::browser::measure(
            match depth {
                servecost::evaluate::Depth::Quick => "servecost:evaluate",
                servecost::evaluate::Depth::Sample | servecost::evaluate::Depth::Full => {
                    "servecost:decision"
                }
            },
            || servecost::evaluate::evaluate_with(&parsed.scenario, data, depth),
        )
        .map(Answer::from),
        scenario: parsed.scenario,
        problems,
        ignored: parsed.warnings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_carries_every_byte_percent_encoded_and_reads_back_the_same() {
        assert_eq!(href("tokens=1B\nmix=1:1:1"), "/?tokens=1B%0Amix=1:1:1");
        assert_eq!(href("?a=%41&b=100%&c=%zz"), "/?a=%41&b=100%25&c=%25zz");
        assert_eq!(href("name=Zürich #1"), "/?name=Z%C3%BCrich%20%231");
        assert_eq!(href(""), "/");
        for b in (0u8..=127).chain([0xC3, 0xBC]) {
            let raw = String::from_utf8_lossy(&[b'x', b'=', b]).into_owned();
            let link = href(&raw);
            assert!(
                link.bytes().all(|c| c.is_ascii_graphic()) && !link.starts_with("//"),
                "{b}: {link}"
            );
            let value = get(link.trim_start_matches("/?"), "x").unwrap_or_default();
            let sent = get(&raw, "x").unwrap_or_default();
            assert_eq!(
                servecost::codec::decode(&value),
                servecost::codec::decode(&sent),
                "{b}"
            );
        }
    }

    #[test]
    fn an_exports_workload_replaces_the_links_and_clears_what_it_does_not_measure() {
        // An export without batch traffic takes the link's batch share out; a growth forecast
        // it cannot measure stays.
        let q = "requests=30M&gpu_hour=2.8&batch=0.2&growth=50%25";
        assert_eq!(
            with_usage(q, "v=1&input=1M&cached=2M&output=3M&profile=flat"),
            "gpu_hour=2.8&growth=50%25&input=1M&cached=2M&output=3M&profile=flat"
        );
        assert_eq!(
            with_usage(q, "v=1&input=1M&cached=2M&output=3M&batch=0.1&profile=flat"),
            "gpu_hour=2.8&growth=50%25&input=1M&cached=2M&output=3M&profile=flat&batch=0.1"
        );
    }

    #[test]
    fn set_replaces_and_removes() {
        assert_eq!(set("a=1&b=2", "a", "3"), "b=2&a=3");
        assert_eq!(set("a=1&b=2", "a", ""), "b=2");
        assert_eq!(set("", "gpu_hour", "2.5"), "gpu_hour=2.5");
        assert_eq!(set("", "util", "70%"), "util=70%25");
        assert_eq!(pairs("?a=&b=1"), vec![("b".to_owned(), "1".to_owned())]);
    }

    #[test]
    fn a_usage_exports_workload_replaces_the_forms() {
        let usage = "v=1&input=4B&cached=20B&output=900M&profile=1,2,3&growth=0.4";
        let q = with_usage("requests=3M&workload=chat&gpu_hour=2.5&profile=flat", usage);
        assert_eq!(
            q,
            "gpu_hour=2.5&input=4B&cached=20B&output=900M&profile=1,2,3&growth=0.4"
        );
        // No growth measured: the link's own stays.
        let q = with_usage(
            "tokens=1B&mix=1:1:1&growth=0.1",
            "v=1&input=1&cached=2&output=3&profile=flat",
        );
        assert_eq!(q, "growth=0.1&input=1&cached=2&output=3&profile=flat");
    }
}
