//! A seeded fuzz of the router in process, over the codec's own parameter table: every numeric
//! parameter with values at, inside and far outside its range (tiny, huge, negative, malformed),
//! every other parameter with valid, malformed and hostile text. For each generated query it
//! asks the JSON API, the CSV, a chart, the calculator page and the embed, and asserts:
//! no 5xx; every answer within a bound; every report number finite (a report parses back into
//! the engine's types, whose numbers cannot be null, and passes `finite::check`); no `NaN` or
//! `inf` in the CSV or the SVG; no hostile text unescaped in HTML.
//!
//! The seed is fixed so a failure reproduces; `SERVECOST_FUZZ_SEED` and `SERVECOST_FUZZ_CASES`
//! run other seeds and more cases (`scripts/security` runs 100,000 against a release build).

use std::time::Duration;

use axum::http::StatusCode;
use servecost::codec::{Param, PARAMS};

use crate::common::{app, body_text, get};

/// A small, fast, seedable generator (xorshift64*), so the test needs no crate and a seed
/// always gives the same cases.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Text that must never reach HTML as markup.
const HOSTILE: [&str; 4] = [
    "<script>fuzz()</script>",
    "\"><img src=x onerror=fuzz()>",
    "</title><svg onload=fuzz()>",
    "javascript:fuzz()",
];

/// The markers of [`HOSTILE`] that an escaped page cannot contain.
const MARKERS: [&str; 3] = ["<script>fuzz", "<img src=x", "<svg onload"];

fn number(rng: &mut Rng, min: f64, max: f64) -> String {
    let wild = [
        "1e-300",
        "1e-320",
        "5e-324",
        "-1",
        "0",
        "1e308",
        "1e400",
        "NaN",
        "inf",
        "-inf",
        "1_000",
        "0x10",
        "",
        " ",
        "1e",
        "--1",
        "1.5.2",
        "%",
        "9999999999999999999999",
        "1,000",
        "1 B",
    ];
    match rng.below(8) {
        0 => rng.pick(&wild).to_owned(),
        1 => format!("{min}"),
        2 => format!("{max}"),
        3 => format!("{}", max * (1.0 + rng.unit())),
        4 => format!("{:e}", 10f64.powf(rng.unit() * 40.0 - 20.0)),
        _ => format!("{}", min + (max - min) * rng.unit().powi(3)),
    }
}

fn other(rng: &mut Rng, name: &str) -> String {
    let valid: &[&str] = match name {
        "v" => &["1", "2"],
        "workload" => &["coding-agent", "chat", "rag", "batch"],
        "mix" | "curve_mix" => &["2:7:1", "0:0:1", "1e-300:1:1", "0:0:0", "1:2", "-1:1:1"],
        "profile" => &[
            "flat",
            "business",
            "diurnal",
            "1,2,3",
            "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1",
        ],
        "points" => &[
            "128:33041,191:23251",
            "1:1",
            "0:0",
            "1e-300:5",
            "50:1e9,60:1e-300",
        ],
        "scaling" => &["fixed", "hourly"],
        "hybrid" | "own" => &["1", "0", "yes"],
        "model" => &["muse-spark-open", "nope"],
        "api" => &["muse-spark-open-api", "nope"],
        "curve" => &["inferencex-b300-fp4", "nope"],
        "chip" => &["b300", "mi355x", "nope"],
        _ => &["x"],
    };
    if rng.below(5) == 0 {
        rng.pick(&HOSTILE).to_owned()
    } else {
        rng.pick(valid).to_owned()
    }
}

fn encode(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~' | b':' | b',') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// One query of 1 to 6 parameters from the codec's tables (and now and then an unknown one).
fn query(rng: &mut Rng) -> String {
    let n = 1 + rng.below(6);
    let mut parts = Vec::new();
    for _ in 0..n {
        let pick = rng.below(PARAMS.len() + 1);
        let (name, value) = match PARAMS.get(pick) {
            Some(Param::Number(s)) => (s.name.to_owned(), number(rng, s.min, s.max)),
            Some(Param::Text(s)) => (s.name.to_owned(), other(rng, s.name)),
            None => (rng.pick(&HOSTILE).to_owned(), rng.pick(&HOSTILE).to_owned()),
        };
        parts.push(format!("{}={}", encode(&name), encode(&value)));
    }
    parts.join("&")
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fuzzed_queries_get_bounded_finite_escaped_answers() {
    let (app, _db) = app().await;
    let seed = env("SERVECOST_FUZZ_SEED", 0x5e7e_c057);
    let cases = env("SERVECOST_FUZZ_CASES", 3_000);
    let mut rng = Rng(seed.max(1));
    let bound = Duration::from_secs(20);
    let charts = ["volume", "classes", "breakdown", "tps", "tornado", "years"];
    let mut answered = 0u64;
    for case in 0..cases {
        let q = query(&mut rng);
        // The API on every case; the slower HTML and SVG renders on a share of them.
        let mut uris = vec![format!("/api/v1/evaluate?{q}")];
        match case % 5 {
            0 => uris.push(format!("/?{q}")),
            1 => uris.push(format!("/embed?{q}")),
            2 => uris.push(format!("/api/v1/export.csv?{q}")),
            3 => uris.push(format!(
                "/api/v1/charts/{}.svg?{q}",
                charts[rng.below(charts.len())]
            )),
            _ => {}
        }
        for uri in uris {
            let res = tokio::time::timeout(bound, get(&app, &uri))
                .await
                .unwrap_or_else(|_| panic!("seed {seed}, case {case}: {uri} took over {bound:?}"));
            let status = res.status();
            assert!(
                !status.is_server_error(),
                "seed {seed}, case {case}: {uri} answered {status}"
            );
            let body = body_text(res).await;
            if uri.starts_with("/api/v1/evaluate") && status == StatusCode::OK {
                let report: servecost::Report = serde_json::from_str(&body)
                    .unwrap_or_else(|e| panic!("seed {seed}, case {case}: {uri}: {e}"));
                if let Err(e) = servecost::finite::check(&report) {
                    panic!("seed {seed}, case {case}: {uri}: {e}");
                }
            }
            if status == StatusCode::OK
                && (uri.starts_with("/api/v1/export.csv") || uri.starts_with("/api/v1/charts"))
            {
                let bad = body
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                    .find(|t| {
                        matches!(
                            t.to_ascii_lowercase().as_str(),
                            "nan" | "inf" | "-inf" | "infinity" | "-infinity"
                        )
                    });
                assert!(
                    bad.is_none(),
                    "seed {seed}, case {case}: {uri} holds {bad:?}"
                );
            }
            if uri.starts_with("/?") || uri.starts_with("/embed") {
                for marker in MARKERS {
                    assert!(
                        !body.contains(marker),
                        "seed {seed}, case {case}: {uri} carries {marker:?} unescaped"
                    );
                }
            }
            answered += 1;
        }
    }
    assert!(answered >= cases, "{answered} answers for {cases} cases");
}
