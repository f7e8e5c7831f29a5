use super::*;

#[test]
fn empty_query_is_the_default_scenario() {
    let p = parse("").expect("valid");
    assert_eq!(p.scenario, Scenario::default());
    assert!(p.warnings.is_empty());
}

#[test]
fn reports_every_problem_with_its_parameter() {
    let err = parse("tps=-1&util=2&profile=weird&gpu_hour=abc").expect_err("invalid");
    let params: Vec<&str> = err.iter().map(|p| p.param.as_str()).collect();
    assert_eq!(params, ["tps", "profile", "gpu_hour", "util"]);
    assert!(err[0].reason.contains("from 0.1 to 10,000 tokens/s"));
}

#[test]
fn unknown_parameters_are_warnings() {
    let p = parse("v=1&colour=blue&capex=5").expect("valid");
    let names: Vec<&str> = p.warnings.iter().map(|w| w.param.as_str()).collect();
    assert_eq!(names, ["capex", "colour"]);
}

#[test]
fn workload_forms_conflict() {
    let err = parse("tokens=1B&mix=2:7:1&requests=5").expect_err("two forms");
    assert_eq!(err[0].param, "tokens");
    let ok = parse("tokens=10B&mix=2:7:1").expect("valid");
    assert!(matches!(ok.scenario.workload, Workload::Mix { tokens, .. } if tokens == 1e10));
}

#[test]
fn lenient_keeps_the_good_fields() {
    let (p, problems) = parse_lenient("tps=99999&gpu_hour=3.1");
    assert_eq!(problems.len(), 1);
    assert_eq!(p.scenario.gpu_hour, Some(3.1));
    assert_eq!(p.scenario.tps, None);
}

/// Regression (outside fuzz): a volume or price near 1e-300 was accepted and sent the
/// charts' log axis into an endless loop; numbers between 0 and a token a month or a
/// millionth of a cent are refused by name, with the range in the page's number format.
#[test]
fn tiny_numbers_are_refused_by_name() {
    for (q, param, range) in [
        (
            "requests=1e-300",
            "requests",
            "0, or a number from 1 to 10\u{a0}T requests/month",
        ),
        (
            "input=5e-324",
            "input",
            "0, or a number from 1 to 10,000\u{a0}T tokens/month",
        ),
        ("tokens=0.5&mix=2:7:1", "tokens", "from 1 to 10,000\u{a0}T"),
        (
            "price_out=1e-300",
            "price_out",
            "0, or a number from 0.00000001 to 1,000 $/M tokens",
        ),
        ("ops_monthly=1e-9", "ops_monthly", "from 0.01 to"),
        (
            "cache_discount=1e-300",
            "cache_discount",
            "from 0.000001 to 1",
        ),
    ] {
        let err = parse(q).expect_err(q);
        assert_eq!(err[0].param, param, "{q}");
        assert!(err[0].reason.contains(range), "{q}: {}", err[0].reason);
    }
    for ok in [
        "requests=0",
        "requests=1",
        "price_in=0.00000001",
        "input=0&output=1",
    ] {
        assert!(parse(ok).is_ok(), "{ok}");
    }
    assert!(
        parse("price_in=1_000").is_err(),
        "no Rust-style digit separators"
    );
}

/// One rule for empty values everywhere: `name=` means not given, so the default applies
/// (a form's blank field, a schemathesis case, a hand-written `?tps=&mix=`).
#[test]
fn an_empty_value_means_not_given() {
    let p = parse("v=&tps=&mix=&profile=&capex=&own=&curve=&points=").expect("all empty");
    assert_eq!(p.scenario, Scenario::default());
    assert!(p.warnings.is_empty());
    let p = parse("tps=&tps=40").expect("the empty one is not a second value");
    assert_eq!(p.scenario.tps, Some(40.0));
}

/// Unreadable values are refused apart from readable ones that have no answer together
/// (the API answers 400 for the first, 422 for the second).
#[test]
fn unreadable_values_and_combinations_without_answer_are_told_apart() {
    for q in [
        "tokens=1B",
        "mix=2:7:1",
        "tokens=1B&mix=2:7:1&requests=5",
        "own=1",
        "own=1&capex=30000&scaling=hourly",
        "points=128:33041",
        "points=128:33041&curve_mix=1:1:0",
        "points=128:33041&curve_mix=1:0:1&curve=x",
        "points=0:0&curve_mix=1:0:1",
        "tokens=1B&mix=0:0:0",
    ] {
        let r = parse_checked(q).expect_err(q);
        assert!(r.unreadable.is_empty(), "{q}: {:?}", r.unreadable);
        assert!(!r.no_answer.is_empty(), "{q}");
    }
    for q in [
        "tps=abc",
        "mix=1:2&tokens=1B",
        "points=x",
        "years=0.5",
        "workload=nope&tokens=1B&mix=2:7:1",
    ] {
        let r = parse_checked(q).expect_err(q);
        assert!(!r.unreadable.is_empty(), "{q}");
    }
    // An inapplicable value is still read: years without own=1 is listed as ignored, but
    // a year count the document refuses is refused.
    let p = parse("years=5").expect("ignored");
    assert_eq!(p.warnings[0].param, "years");
    assert_eq!(
        parse_checked("years=0.5").expect_err("refused").unreadable[0].param,
        "years"
    );
}

#[test]
fn percent_encoding_and_percent_values() {
    let p = parse("mix=2%3A7%3A1&tokens=1M&util=70%25").expect("valid");
    assert_eq!(p.scenario.util, 0.7);
    assert!(decode("%").contains('%'));
    assert_eq!(decode("a%zzb"), "a%zzb");
}

#[test]
fn own_benchmark_on_another_chip_and_a_bill() {
    let p = parse("curve=own&points=10:900,40:500&curve_mix=1:0:1&chip=other&chip_name=TPU%20v7&gpu_hour=3&bill=12%2C000")
        .expect("valid");
    assert!(matches!(&p.scenario.curve, CurveChoice::Own { chip: Some(c), .. } if c == OTHER_CHIP));
    assert_eq!(p.scenario.chip_name.as_deref(), Some("TPU v7"));
    assert_eq!(p.scenario.bill, Some(12_000.0));
    let again = parse(&crate::codec::to_query(&p.scenario)).expect("round trip");
    assert_eq!(again.scenario, p.scenario);
    // curve=own without points names the missing points.
    let refused = parse("curve=own").expect_err("no points");
    assert_eq!(refused[0].param, "points");
    // A name only applies to chip=other; a control character is refused.
    let p = parse("chip_name=x").expect("ignored");
    assert_eq!(p.warnings[0].param, "chip_name");
    assert!(parse("points=10:900&curve_mix=1:0:1&chip=other&chip_name=a%0Ab").is_err());
}

#[test]
fn a_negative_zero_reads_as_zero() {
    let s = parse("growth=-0&api_trend=-0%").expect("valid").scenario;
    assert!(s.plan.growth == 0.0 && s.plan.growth.is_sign_positive());
    assert!(s.plan.api_trend.is_sign_positive());
}
