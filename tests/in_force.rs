//! The inputs in force behind a report: every parameter its link sets, every default that
//! applies with the source it comes from, and nothing that does not apply.

mod common;

use common::revision_3;
use servecost::in_force::{list, InForce, Origin, Section};
use servecost::{evaluate, parse, Report};

fn report(q: &str) -> Report {
    let s = parse(q).unwrap_or_else(|p| panic!("{q}: {p:?}")).scenario;
    evaluate(&s, &revision_3()).unwrap_or_else(|p| panic!("{q}: {p:?}"))
}

fn row<'a>(rows: &'a [InForce], name: &str) -> &'a InForce {
    rows.iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("{name} is not listed: {rows:#?}"))
}

fn assumption() -> Origin {
    Origin::Default(Some("servecost-assumptions".to_owned()))
}

#[test]
fn the_defaults_are_listed_with_their_sources() {
    let r = report("v=1");
    let rows = list(&r);
    assert!(rows.iter().all(|r| r.origin != Origin::Yours), "{rows:#?}");
    assert_eq!(row(&rows, "model").origin, Origin::Default(None));
    // The preset's shape from the trace it was measured on; prices from the offer's source.
    assert_eq!(
        row(&rows, "input_per_request").origin,
        Origin::Default(Some("aa-agentperf".to_owned()))
    );
    assert_eq!(
        row(&rows, "price_in").origin,
        Origin::Default(Some(r.inputs.api_source.clone()))
    );
    assert_eq!(
        row(&rows, "gpu_hour").origin,
        Origin::Default(Some(r.inputs.gpu_hour_source.clone()))
    );
    assert_eq!(row(&rows, "prefill").origin, assumption());
    assert_eq!(row(&rows, "ops_fte").shown, "0.5 FTE");
    assert_eq!(row(&rows, "fte_cost").shown, "$200,000 per year");
    assert_eq!(row(&rows, "util").shown, "80\u{a0}%");
    assert_eq!(row(&rows, "min_replicas").shown, "1 replica");
    assert_eq!(row(&rows, "redundancy").shown, "0 replicas");
    // Owned hardware's costs apply only with owned hardware; a mix only with a mix.
    for absent in ["capex", "pue", "kw", "tokens", "mix", "input", "bill"] {
        assert!(rows.iter().all(|r| r.name != absent), "{absent} is listed");
    }
    // The rows come in the form's order.
    let order: Vec<usize> = rows
        .iter()
        .map(|r| {
            Section::ALL
                .iter()
                .position(|s| *s == r.section)
                .unwrap_or(99)
        })
        .collect();
    assert!(order.windows(2).all(|w| w[0] <= w[1]), "{order:?}");
}

#[test]
fn every_typed_parameter_is_listed_as_yours_with_its_value() {
    let q = "v=1&requests=2M&bill=13900&own=1&capex=250k&pue=1.2&growth=0.08&horizon=4&price_in=0.35&tie=0.02";
    let r = report(q);
    let rows = list(&r);
    for name in [
        "requests", "bill", "capex", "pue", "growth", "horizon", "price_in", "tie",
    ] {
        assert_eq!(row(&rows, name).origin, Origin::Yours, "{name}");
    }
    assert_eq!(row(&rows, "requests").shown, "2\u{a0}M requests/month");
    assert_eq!(row(&rows, "bill").shown, "$13,900 per month");
    assert_eq!(row(&rows, "capex").shown, "$250,000 per GPU");
    // A rate reads a year and the month that compounds to it, and back.
    assert_eq!(
        row(&rows, "growth").shown,
        "8\u{a0}% a year (0.6434\u{a0}% a month)"
    );
    let monthly = report("v=1&requests=2M&growth=8%25%2Fmonth");
    let rows = list(&monthly);
    assert_eq!(
        row(&rows, "growth").shown,
        "151.8\u{a0}% a year (8\u{a0}% a month)"
    );
    assert_eq!(row(&rows, "growth").value, "8%/month");
    assert!(
        monthly.query.contains("growth=8%25%2Fmonth"),
        "{}",
        monthly.query
    );
    let rows = list(&r);
    assert_eq!(row(&rows, "price_in").shown, "$0.35 per M tokens");
    assert_eq!(row(&rows, "price_in").value, "0.35");
    // Owned hardware: its other costs are defaults, the chip's power from the dataset, and the
    // GPU-hour is a result rather than an input.
    assert_eq!(row(&rows, "kwh").origin, assumption());
    assert!(
        row(&rows, "kw").shown.ends_with(" kW"),
        "{:?}",
        row(&rows, "kw")
    );
    assert!(rows.iter().all(|r| r.name != "gpu_hour"));
    // Every parameter of the link is there.
    for pair in r.query.split('&') {
        let name = pair.split('=').next().unwrap_or_default();
        if name != "v" {
            assert!(
                rows.iter().any(|r| r.name == name),
                "{name} of {} is not listed",
                r.query
            );
        }
    }
}
