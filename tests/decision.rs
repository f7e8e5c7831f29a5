//! The decision: the cheapest plan, how sure it is, and what would change it.

mod common;

use common::revision_3;
use servecost::decision::Strategy;
use servecost::{evaluate, parse, Report};

fn report(q: &str) -> Report {
    let s = parse(q).expect("valid").scenario;
    evaluate(&s, &revision_3()).unwrap_or_else(|p| panic!("{q}: {p:?}"))
}

/// Scenarios on every side of the answer: renting, self-hosting, the hybrid, owned hardware,
/// a vendor's curve with an assumed mix, a stated mix, hourly sizing.
const SCENARIOS: [&str; 8] = [
    "",
    "requests=20M",
    "requests=200M",
    "requests=5M&profile=flat",
    "requests=20M&own=1&capex=35000",
    "requests=20M&curve=sglang-gb300-tp4",
    "tokens=40B&mix=3:96:1&gpu_hour=2.10&gpu_kind=on_demand&scaling=hourly",
    "requests=50M&hybrid=0",
];

#[test]
fn the_best_plan_is_the_cheapest_of_the_three() {
    for q in SCENARIOS {
        let r = report(q);
        let hybrid = r.hybrid.map_or(f64::INFINITY, |h| h.monthly_usd);
        let least = r.rent.monthly_usd.min(r.self_host.monthly_usd).min(hybrid);
        assert!(
            (r.verdict.best_monthly_usd - least).abs() <= 1e-6 * least.max(1.0),
            "{q}: best {} vs least {least}",
            r.verdict.best_monthly_usd
        );
        let named = match r.verdict.best {
            Strategy::Rent => r.rent.monthly_usd,
            Strategy::SelfHost => r.self_host.monthly_usd,
            Strategy::Hybrid => hybrid,
        };
        assert_eq!(named, r.verdict.best_monthly_usd, "{q}");
    }
}

/// A hybrid is named only when it is a plan of its own: some replicas, some demand at the API.
#[test]
fn a_named_hybrid_keeps_replicas_and_sends_some_demand_to_the_api() {
    for q in SCENARIOS {
        let r = report(q);
        if r.verdict.best == Strategy::Hybrid {
            let h = r.hybrid.expect("hybrid searched");
            assert!(
                h.replicas > 0.0 && h.api_share > 0.0 && h.api_share < 1.0,
                "{q}: {h:?}"
            );
        }
    }
}

#[test]
fn the_same_link_gives_the_same_sureness() {
    for q in SCENARIOS {
        let (a, b) = (report(q), report(q));
        assert_eq!(a.uncertainty, b.uncertainty, "{q}");
        assert!(a.uncertainty.is_some(), "{q}: no sample");
    }
}

#[test]
fn zero_width_ranges_collapse_to_the_point_answer() {
    let zero = "&u_prefill=1&u_cache_cost=1&u_curve_mix=0&u_haircut=0&u_curves=0&u_gpu_hour=1&u_util=0&u_api=1";
    for q in SCENARIOS {
        let r = report(&format!("{q}{zero}"));
        let u = r.uncertainty.expect("sample");
        let point = r.self_host.monthly_usd - r.rent.monthly_usd;
        for p in [
            u.difference_usd.p10,
            u.difference_usd.p50,
            u.difference_usd.p90,
        ] {
            assert!(
                (p - point).abs() <= 1e-9 * point.abs().max(1.0),
                "{q}: {p} vs {point}"
            );
        }
        let cheaper = if r.self_host.monthly_usd < r.rent.monthly_usd {
            1.0
        } else {
            0.0
        };
        assert_eq!(u.p_self_host_cheaper, cheaper, "{q}");
        assert_eq!(u.p_best_holds, 1.0, "{q}");
    }
}

/// Wider ranges make the answer less sure, never more, on a scenario near its break-even.
#[test]
fn wider_ranges_are_less_sure_near_the_break_even() {
    let narrow = report("requests=20M&u_prefill=1.1&u_cache_cost=1.1&u_gpu_hour=1.02&u_api=1.02&u_util=0.01&u_haircut=0.02&u_curve_mix=0.05&u_curves=0.05");
    let wide = report("requests=20M");
    let (n, w) = (
        narrow.uncertainty.expect("present"),
        wide.uncertainty.expect("present"),
    );
    let spread = |u: &servecost::decision::Uncertainty| u.difference_usd.p90 - u.difference_usd.p10;
    assert!(spread(&w) > spread(&n), "{} vs {}", spread(&w), spread(&n));
}

/// Each range says where it comes from, and a range that does not apply says so: the
/// hyperscaler-independent SGLang curve states its mix, the InferenceX curve does not.
#[test]
fn ranges_are_documented_and_apply_where_they_should() {
    let inferencex = report("requests=20M");
    let sglang = report("requests=20M&curve=sglang-gb300-tp4");
    let applies = |r: &Report, key: &str| {
        r.uncertainty
            .as_ref()
            .expect("present")
            .ranges
            .iter()
            .find(|x| x.key == key)
            .unwrap_or_else(|| panic!("{key}"))
            .applies
    };
    assert!(applies(&inferencex, "curve_mix"));
    assert!(!applies(&sglang, "curve_mix"));
    // The other curve of the model on a Blackwell Ultra chip is the vendor's for the first,
    // an independent one (InferenceX) for the vendor's: only independent curves spread.
    assert!(!applies(&inferencex, "curves"));
    assert!(applies(&sglang, "curves"));
    assert!(applies(&sglang, "haircut"));
    for r in [&inferencex, &sglang] {
        for range in &r.uncertainty.as_ref().expect("present").ranges {
            assert!(
                !range.reason.is_empty() && !range.range.is_empty(),
                "{range:?}"
            );
            assert!(range.param.starts_with("u_"), "{range:?}");
            assert!(range.effect_usd.is_finite() && range.effect_usd >= 0.0);
            // Every range names what it rests on, and runs both ways but the vendor's haircut.
            assert!(!range.source.is_empty(), "{range:?}");
            let one_way = range.key == "haircut";
            assert_eq!(
                range.sides,
                if one_way { "below" } else { "both" },
                "{range:?}"
            );
        }
    }
    // The independent curves disagree, and the page says so.
    assert!(sglang.warnings.iter().any(|w| w.code == "curves_disagree"));
    assert!(!inferencex
        .warnings
        .iter()
        .any(|w| w.code == "curves_disagree"));
}

/// The GPU-hour range follows what the price commits to.
#[test]
fn the_gpu_hour_range_follows_the_commitment() {
    let width = |q: &str| {
        let r = report(q);
        let range = r
            .uncertainty
            .expect("present")
            .ranges
            .into_iter()
            .find(|x| x.key == "gpu_hour")
            .expect("present");
        range.range
    };
    assert!(width("").contains("×1/1.1 to ×1.1"), "{}", width(""));
    assert!(width("gpu_hour=3&gpu_kind=spot").contains("×1/1.5 to ×1.5"));
    assert!(width("gpu_hour=3&gpu_kind=on_demand").contains("×1/1.25 to ×1.25"));
    assert!(width("gpu_hour=3&u_gpu_hour=2").contains("×1/2 to ×2"));
}

fn with_param(q: &str, param: &str, value: f64) -> String {
    let v = servecost::codec::write_number(value, false);
    match param {
        "volume" => {
            // All tokens at the scenario's own mix.
            let r = report(q);
            let t = r.inputs.volumes;
            let total = t.uncached + t.cached + t.output;
            let rest = strip(
                q,
                &[
                    "requests", "tokens", "mix", "workload", "input", "cached", "output",
                ],
            );
            format!(
                "{rest}&tokens={v}&mix={}:{}:{}",
                servecost::codec::write_number(t.uncached / total, false),
                servecost::codec::write_number(t.cached / total, false),
                servecost::codec::write_number(t.output / total, false)
            )
        }
        "ops" => format!(
            "{}&ops_fte=0&ops_monthly={v}",
            strip(q, &["ops_fte", "ops_monthly"])
        ),
        p => format!("{}&{p}={v}", strip(q, &[p])),
    }
}

fn strip(q: &str, names: &[&str]) -> String {
    q.split('&')
        .filter(|p| !p.is_empty() && !names.iter().any(|n| p.split('=').next() == Some(n)))
        .collect::<Vec<_>>()
        .join("&")
}

/// Each flip moves the cheapest plan when its input is set just past it, not just before:
/// checked through the link, as a person would set it.
#[test]
fn each_flip_moves_the_best_plan_just_past_its_value() {
    let mut checked = 0;
    for q in SCENARIOS {
        let r = report(q);
        for f in &r.flips.flips {
            // Throughput has no parameter; the rest are set in the link.
            if f.param == "throughput" || (f.param == "gpu_hour" && q.contains("own=1")) {
                continue;
            }
            // The search narrows each change to within a millionth of its value.
            let step = 3e-6;
            let (past, before) = if f.direction == "above" {
                (f.value * (1.0 + step), f.value * (1.0 - step))
            } else {
                (f.value * (1.0 - step), f.value * (1.0 + step))
            };
            let best = |v: f64| {
                let link = with_param(q, &f.param, v);
                let s = parse(&link)
                    .unwrap_or_else(|p| panic!("{link}: {p:?}"))
                    .scenario;
                evaluate(&s, &revision_3()).map(|r| {
                    let ties: Vec<Strategy> = r.verdict.ties.iter().map(|t| t.plan).collect();
                    (r.verdict.best, ties)
                })
            };
            // Past the value the new plan is cheapest and the old one is no longer within the
            // tie of it; before it the old one is cheapest or ties with the cheapest.
            if let (Ok((a, a_ties)), Ok((b, b_ties))) = (best(past), best(before)) {
                assert_eq!(a, f.to, "{q}: {} just past {}", f.param, f.value);
                assert!(
                    !a_ties.contains(&f.from),
                    "{q}: {} past {}",
                    f.param,
                    f.value
                );
                assert!(
                    b == f.from || b_ties.contains(&f.from),
                    "{q}: {} just before {}",
                    f.param,
                    f.value
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 10, "only {checked} flips checked");
}

/// Without the hybrid, the volume above which self-hosting first wins is at or below the
/// break-even the page states (where self-hosting stays cheaper: a fleet grows in whole
/// replicas, so the two sides can cross more than once).
#[test]
fn the_volume_flip_of_renting_is_near_the_break_even() {
    let r = report("hybrid=0");
    let flip = r
        .flips
        .flips
        .iter()
        .find(|f| f.param == "volume" && f.direction == "above")
        .expect("a volume above which self-hosting wins");
    let be = r.break_even.monthly_tokens.expect("break-even");
    assert!(flip.value <= be * (1.0 + 1e-6), "{} vs {be}", flip.value);
    assert_eq!((flip.from, flip.to), (Strategy::Rent, Strategy::SelfHost));
}

/// The caveats that move the answer most are named first, by their effect.
#[test]
fn top_warnings_are_ranked_by_their_effect() {
    let r = report("requests=20M");
    assert!(!r.top_warnings.is_empty());
    let effect = |code: &servecost::report::WarningCode| {
        r.warnings
            .iter()
            .find(|w| w.code == *code)
            .and_then(|w| w.effect_usd)
            .expect("present")
    };
    let effects: Vec<f64> = r.top_warnings.iter().map(effect).collect();
    assert!(effects.windows(2).all(|w| w[0] >= w[1]), "{effects:?}");
    assert!(r.top_warnings.len() <= 3);
}

/// `draws=0` turns the sample off; the flips stay.
#[test]
fn no_draws_no_sample() {
    let r = report("draws=0");
    assert!(r.uncertainty.is_none());
    assert!(!r.flips.flips.is_empty() || !r.flips.unchanged.is_empty());
}

/// Near the break-even the nearest change in volume is the band where another plan wins, not a
/// change further out: below 20 M requests' 544 B tokens, the first change is where the fleet
/// would shrink (within a few per cent of the stated break-even).
#[test]
fn the_nearest_volume_change_below_is_found() {
    let r = report("requests=20M");
    let below = r
        .flips
        .flips
        .iter()
        .find(|f| f.param == "volume" && f.direction == "below")
        .expect("a change below");
    let be = r.break_even.monthly_tokens.expect("break-even");
    assert!(
        below.value >= be * 0.97,
        "{} vs break-even {be}",
        below.value
    );
}

/// The shares of draws each plan is cheapest in add up to all of them, and the named plan's is
/// the share in which the answer holds.
#[test]
fn every_draw_names_one_cheapest_plan() {
    for q in SCENARIOS {
        let r = report(q);
        let u = r.uncertainty.clone().expect("sample");
        let p = u.p_cheapest;
        assert!(
            (p.rent + p.self_host + p.hybrid + u.p_no_answer - 1.0).abs() < 1e-12,
            "{q}: {p:?}"
        );
        let named = |r: &Report, p: servecost::decision::PlanShares| match r.verdict.best {
            Strategy::Rent => p.rent,
            Strategy::SelfHost => p.self_host,
            Strategy::Hybrid => p.hybrid,
        };
        // A draw in which the named plan ties with the cheapest holds too.
        assert!(named(&r, p) <= u.p_best_holds, "{q}");
        // Without a tie, the named plan holds exactly where it is the cheapest.
        let strict = report(&format!("{q}&tie=0"));
        let su = strict.uncertainty.as_ref().expect("sample");
        assert_eq!(named(&strict, su.p_cheapest), su.p_best_holds, "{q}");
    }
}

#[test]
fn the_quick_answer_has_the_full_answers_numbers() {
    use servecost::evaluate::{evaluate_with, Depth};
    for q in SCENARIOS {
        let s = parse(q).expect("valid").scenario;
        let data = revision_3();
        let quick = evaluate_with(&s, &data, Depth::Quick).expect("quick");
        let full = evaluate_with(&s, &data, Depth::Full).expect("full");
        assert!(!quick.is_full() && full.is_full(), "{q}");
        // What the browser shows from the quick answer is the full answer's.
        assert_eq!(quick.query, full.query, "{q}");
        assert_eq!(quick.inputs, full.inputs, "{q}");
        assert_eq!(quick.rent, full.rent, "{q}");
        assert_eq!(quick.self_host, full.self_host, "{q}");
        assert_eq!(quick.hybrid, full.hybrid, "{q}");
        assert_eq!(quick.verdict, full.verdict, "{q}");
        assert_eq!(quick.break_even, full.break_even, "{q}");
        assert_eq!(quick.power, full.power, "{q}");
        assert_eq!(quick.series.per_class, full.series.per_class, "{q}");
        assert_eq!(quick.series.breakdown, full.series.breakdown, "{q}");
        let codes = |r: &Report| r.warnings.iter().map(|w| w.code).collect::<Vec<_>>();
        assert_eq!(codes(&quick), codes(&full), "{q}");
        // What it leaves to the full answer.
        assert!(
            quick.uncertainty.is_none() && full.uncertainty.is_some(),
            "{q}"
        );
        assert!(
            quick.sensitivity.is_empty() && !full.sensitivity.is_empty(),
            "{q}"
        );
        assert!(quick.series.cost_vs_volume.points.is_empty(), "{q}");
        assert!(!full.series.cost_vs_volume.points.is_empty(), "{q}");
    }
}

/// The prices, the discount, the operations and the GPU-hour price are searched without a
/// grid: each plan's cost is a straight line in them, so renting and self-hosting are each
/// cheapest over one interval, and so is the hybrid but along the input price (its overflow
/// arrives without the prefix cache): from the hybrid, that one keeps its grid. A dense scan
/// (as a person would try values in the link) finds the plan as given everywhere between the
/// value and its change, or the end of the range when none is reported; the last two
/// scenarios have the hybrid win, lose to renting and win again along the input price.
#[test]
fn straight_inputs_change_the_plan_at_most_once_each_way() {
    let scenarios = [
        "requests=150M&profile=diurnal&cache_discount=0.9&overflow_warm=0&gpu_hour=1.74&gpu_kind=reserved&ops_fte=0.5",
        "requests=300M&profile=diurnal&cache_discount=0.96&overflow_warm=0&gpu_hour=1.74&gpu_kind=reserved&ops_fte=0.5",
        "requests=20M",
        "requests=300M",
        "requests=3M&profile=business&redundancy=2&min_replicas=3",
        "requests=60M&profile=diurnal&gpu_hour=2.1&gpu_kind=on_demand&scaling=hourly",
        "tokens=40B&mix=3:96:1&overflow_warm=0.5",
        "requests=20M&hybrid=0",
        "requests=80M&gpu_tier=costr",
        "requests=40M&own=1&capex=35000",
    ];
    let mut scanned = 0;
    for q in scenarios {
        let r = report(q);
        let from = r.verdict.best;
        for (param, base, lo, hi) in [
            ("gpu_hour", r.inputs.gpu_hour_usd, 0.01, 1_000.0),
            ("price_in", r.inputs.price_in, 0.0, 1_000.0),
            ("price_out", r.inputs.price_out, 0.0, 1_000.0),
            ("cache_discount", r.inputs.cache_discount, 0.0, 1.0),
            ("ops", r.inputs.ops_monthly_usd, 0.0, 1e9),
        ] {
            // Owned hardware's GPU-hour is its cost, not a parameter of the link.
            if param == "gpu_hour" && q.contains("own=1") {
                continue;
            }
            for (direction, end) in [("above", hi), ("below", lo)] {
                let flip = r
                    .flips
                    .flips
                    .iter()
                    .find(|f| f.param == param && f.direction == direction);
                // Up to just short of the change (found to within a millionth of its value),
                // or to the end of the range.
                let short = if direction == "above" {
                    1.0 - 3e-6
                } else {
                    1.0 + 3e-6
                };
                let stop = flip.map_or(end, |f| f.value * short);
                let geometric = param != "cache_discount" && base > 0.0 && stop > 0.0;
                for i in 1..=40 {
                    let t = f64::from(i) / 40.0;
                    let v = if geometric {
                        base * (stop / base).powf(t)
                    } else {
                        base + (stop - base) * t
                    };
                    let link = with_param(q, param, v);
                    let s = parse(&link)
                        .unwrap_or_else(|p| panic!("{link}: {p:?}"))
                        .scenario;
                    let Ok(at) = servecost::evaluate::evaluate_with(
                        &s,
                        &revision_3(),
                        servecost::evaluate::Depth::Quick,
                    ) else {
                        continue;
                    };
                    assert!(
                        at.verdict.best == from || at.verdict.ties.iter().any(|t| t.plan == from),
                        "{q}: {param} {direction} at {v} (flip {:?})",
                        flip.map(|f| f.value)
                    );
                    scanned += 1;
                }
            }
        }
    }
    assert!(scanned > 2_000, "only {scanned} values scanned");
}

/// Along the input price the hybrid can win, lose to renting and win again (the overflow pays
/// for cached input as uncached): from the hybrid, the search still finds the band where
/// renting wins below the price as given.
#[test]
fn a_band_of_renting_between_two_of_the_hybrid_is_found() {
    let q = "requests=300M&profile=diurnal&cache_discount=0.96&overflow_warm=0&gpu_hour=1.74&gpu_kind=reserved&ops_fte=0.5";
    let r = report(q);
    assert_eq!(r.verdict.best, Strategy::Hybrid);
    let below = r
        .flips
        .flips
        .iter()
        .find(|f| f.param == "price_in" && f.direction == "below")
        .expect("a change below the input price as given");
    assert_eq!(below.to, Strategy::Rent);
    // Renting wins just below it, and the hybrid again further down.
    let best = |v: f64| report(&with_param(q, "price_in", v)).verdict.best;
    assert_eq!(best(below.value * 0.99), Strategy::Rent);
    assert_eq!(best(below.value * 0.2), Strategy::Hybrid);
}
