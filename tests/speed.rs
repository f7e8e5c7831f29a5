//! A speed target above a curve's fastest measured point keeps renting and the verdict: the
//! model's default curve gives way to the cheapest curve that reaches the target, a chosen curve
//! is priced at its fastest point as a floor, and the report names the curves that reach it.

mod common;

use common::revision_3;
use servecost::decision::Strategy;
use servecost::report::WarningCode;
use servecost::{evaluate, parse, Dataset, Report};

fn report(q: &str) -> Report {
    report_on(q, &revision_3())
}

fn report_on(q: &str, data: &Dataset) -> Report {
    let s = parse(q).expect("valid").scenario;
    evaluate(&s, data).unwrap_or_else(|p| panic!("{q}: {p:?}"))
}

/// Revision 3 with the SGLang curve (fastest point 208.7 tokens/s per user) as the model's
/// default; the InferenceX curves reach 254.
fn slow_default() -> Dataset {
    let mut d = revision_3();
    for c in &mut d.curves {
        c.is_default = c.id == "sglang-gb300-tp4";
    }
    d
}

/// Each curve listed as reaching the target reaches it, costs what its own link costs, and
/// the list is cheapest first.
fn check_reaching(r: &Report, data: &Dataset) {
    let speed = r.speed.as_ref().expect("beyond the curve");
    let mut last = 0.0;
    for c in &speed.reaching {
        assert!(c.fastest >= speed.target, "{c:?}");
        assert!(c.monthly_usd >= last, "cheapest first");
        last = c.monthly_usd;
        let own = report_on(&c.query, data);
        assert!(own.speed.is_none(), "{}", c.query);
        assert_eq!(own.self_host.monthly_usd, c.monthly_usd, "{}", c.query);
    }
}

#[test]
fn the_default_curve_gives_way_to_the_cheapest_that_reaches_the_target() {
    let data = slow_default();
    let r = report_on("requests=20M&tps=230", &data);
    let speed = r.speed.as_ref().expect("beyond the default curve");
    assert!(!speed.floor);
    assert_eq!(speed.target, 230.0);
    assert_eq!(speed.chosen, "sglang-gb300-tp4");
    assert_eq!(speed.chosen_fastest, 208.7);
    assert_eq!(speed.reaching.len(), 2, "both InferenceX curves reach 254");
    let best = &speed.reaching[0];
    assert_eq!(speed.priced_on, best.curve);
    assert_eq!(r.inputs.curve, best.curve);
    assert_eq!(r.inputs.tps, 230.0);
    assert_eq!(r.self_host.monthly_usd, best.monthly_usd);
    assert!(r.verdict.decided);
    check_reaching(&r, &data);
    // Renting does not depend on a curve: the same bill as at a speed the default reaches.
    assert_eq!(
        r.rent.monthly_usd,
        report_on("requests=20M&tps=100", &data).rent.monthly_usd
    );
    assert_eq!(r.warnings[0].code, WarningCode::TargetAboveCurve);
    assert!(r.warnings[0].message.contains(&best.label));
    // The same curve chosen by id is not replaced: it is a floor.
    let chosen = report_on("requests=20M&curve=sglang-gb300-tp4&tps=230", &data);
    assert!(chosen.speed.expect("beyond").floor);
}

#[test]
fn a_chosen_curve_is_priced_at_its_fastest_point_as_a_floor() {
    let q = "requests=20M&curve=sglang-gb300-tp4&tps=230";
    let r = report(q);
    let speed = r.speed.as_ref().expect("beyond the chosen curve");
    assert!(speed.floor);
    assert_eq!(speed.chosen, "sglang-gb300-tp4");
    assert_eq!(speed.priced_at, speed.chosen_fastest);
    assert_eq!(r.inputs.curve, "sglang-gb300-tp4");
    // The floor is the chosen curve's bill at its fastest point.
    let at_fastest = report(&format!(
        "requests=20M&curve=sglang-gb300-tp4&tps={}",
        speed.chosen_fastest
    ));
    assert!(at_fastest.speed.is_none());
    assert_eq!(r.self_host.monthly_usd, at_fastest.self_host.monthly_usd);
    assert!(!speed.reaching.is_empty());
    check_reaching(&r, &revision_3());
    // A floor decides only for renting.
    assert_eq!(r.verdict.decided, r.verdict.best == Strategy::Rent);
}

#[test]
fn a_floor_below_renting_decides_nothing() {
    // At a volume where self-hosting is far cheaper, a floor is still not an answer.
    let r = report("requests=300M&curve=sglang-gb300-tp4&tps=230");
    assert!(r.speed.as_ref().expect("beyond").floor);
    assert_ne!(r.verdict.best, Strategy::Rent);
    assert!(!r.verdict.decided);
    let below = report("requests=300M&curve=sglang-gb300-tp4&tps=200");
    assert!(below.speed.is_none() && below.verdict.decided);
}

#[test]
fn a_speed_no_curve_reaches_still_prices_renting() {
    let r = report("requests=20M&tps=600");
    let speed = r.speed.as_ref().expect("beyond every curve");
    assert!(speed.floor && speed.reaching.is_empty());
    assert!(r.rent.monthly_usd > 0.0);
    assert!(r.warnings[0].message.contains("None of the curves"));
    // The API measured at 142.9 tokens/s per user is slower than the target: said so.
    assert!(r
        .warnings
        .iter()
        .any(|w| w.code == WarningCode::OfferBelowTarget));
}
