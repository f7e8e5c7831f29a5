//! The judgement built on the numbers: sureness that agrees with its ranges, ties, and draws
//! that are counted rather than dropped.

mod common;

use common::revision_3;
use servecost::decision::{Strategy, TARGET_SE};
use servecost::{evaluate, parse, Report};

/// The report's nearest change of the cheapest plan above its volume.
fn volume_change_above(r: &Report) -> &servecost::decision::Flip {
    r.flips
        .flips
        .iter()
        .find(|f| f.param == "volume" && f.direction == "above")
        .expect("a change above")
}

fn report(q: &str) -> Report {
    let s = parse(q).expect("valid").scenario;
    evaluate(&s, &revision_3()).unwrap_or_else(|p| panic!("{q}: {p:?}"))
}

/// The same scenario written two ways draws the same sample: the seed is the canonical
/// scenario, not the link's wording.
#[test]
fn equivalent_links_give_identical_uncertainty() {
    for (a, b) in [
        ("tokens=5T&mix=2:7:1", "tokens=5T&mix=20:70:10"),
        ("tokens=5000B&mix=1:1:1", "tokens=5T&mix=0.5:0.5:0.5"),
        (
            "requests=20M&curve_mix=3:96:1",
            "requests=20M&curve_mix=30:960:10",
        ),
    ] {
        let (x, y) = (report(a), report(b));
        assert_eq!(x.uncertainty, y.uncertainty, "{a} / {b}");
        assert!(x.uncertainty.is_some());
    }
    // Another scenario draws another sample.
    assert_ne!(
        report("tokens=5T&mix=2:7:1")
            .uncertainty
            .map(|u| u.difference_usd),
        report("tokens=5T&mix=2:7:2")
            .uncertainty
            .map(|u| u.difference_usd)
    );
}

/// Without a tie threshold, the cases the named plan does not hold are those another plan is
/// cheapest in: `p_beaten` is `p_cheapest` for the other plans.
#[test]
fn without_a_tie_the_other_cases_are_the_other_plans_cheapest() {
    for q in ["requests=20M&tie=0", "requests=3.7M&tie=0"] {
        let r = report(q);
        let u = r.uncertainty.expect("sample");
        let (c, b) = (u.p_cheapest, u.p_beaten);
        for (plan, cheapest, beaten) in [
            (Strategy::Rent, c.rent, b.rent),
            (Strategy::SelfHost, c.self_host, b.self_host),
            (Strategy::Hybrid, c.hybrid, b.hybrid),
        ] {
            let expected = if plan == r.verdict.best {
                0.0
            } else {
                cheapest
            };
            assert_eq!(beaten, expected, "{q}: {plan:?}");
        }
    }
}

/// Every share counts every draw, and is known within one point unless the link asks for
/// fewer draws than that needs.
#[test]
fn shares_count_every_draw_and_are_known_within_a_point() {
    for q in [
        "",
        "requests=20M",
        "requests=20M&curve=sglang-gb300-tp4",
        "tokens=5T&mix=2:7:1",
        "requests=5M&profile=flat&u_prefill=20&u_cache_cost=10",
    ] {
        let u = report(q).uncertainty.expect("sample");
        let p = u.p_cheapest;
        assert!((p.rent + p.self_host + p.hybrid + u.p_no_answer - 1.0).abs() < 1e-12);
        let b = u.p_beaten;
        assert!(
            (b.rent + b.self_host + b.hybrid + u.p_best_holds + u.p_no_answer - 1.0).abs() < 1e-12,
            "{q}: {u:?}"
        );
        assert_eq!(
            u.p_no_answer,
            f64::from(u.draws_without_answer) / f64::from(u.draws),
            "{q}"
        );
        assert!(u.p_best_holds_se <= TARGET_SE + 1e-12, "{q}: {u:?}");
        assert!(
            u.draws >= servecost::decision::MIN_DRAWS && u.draws <= 2_500,
            "{q}"
        );
    }
    // Fewer draws asked for: the error is larger, and reported.
    let few = report("requests=20M&curve=sglang-gb300-tp4&draws=100")
        .uncertainty
        .expect("sample");
    assert_eq!(few.draws, 100);
    let p = few.p_best_holds;
    assert!((few.p_best_holds_se - (p * (1.0 - p) / 100.0).sqrt()).abs() < 1e-15);
}

/// With every range drawn both ways (the vendor's haircut is the one-sided range, and the
/// default curve is not a vendor's), the plan the default page names holds in at least half of
/// the plausible cases.
#[test]
fn the_default_plan_holds_in_most_plausible_cases() {
    for q in ["", "tokens=5T&mix=2:7:1", "requests=20M", "requests=200M"] {
        let r = report(q);
        let u = r.uncertainty.as_ref().expect("sample");
        let haircut = u
            .ranges
            .iter()
            .find(|x| x.key == "haircut")
            .expect("haircut");
        assert!(!haircut.applies, "{q}");
        assert!(u.p_best_holds >= 0.5, "{q}: {}", u.p_best_holds);
    }
}

/// The hybrid and self-hosting alone 0.035 % apart are a tie: named together, and the draws in
/// which either is cheapest hold.
#[test]
fn plans_a_hair_apart_are_a_tie() {
    let q = "workload=chat&requests=500M&profile=diurnal&gpu_hour=3.5&scaling=hourly";
    let r = report(q);
    assert_eq!(r.verdict.best, Strategy::Hybrid);
    let tied: Vec<Strategy> = r.verdict.ties.iter().map(|t| t.plan).collect();
    assert_eq!(tied, vec![Strategy::SelfHost]);
    assert_eq!(r.verdict.ties[0].monthly_usd, r.self_host.monthly_usd);
    let margin = r.verdict.margin_usd.expect("margin");
    let h = r.hybrid.expect("hybrid").monthly_usd;
    assert!((margin - (r.self_host.monthly_usd - h)).abs() < 1e-6);
    assert!(margin / h < 0.001, "{margin}");
    let u = r.uncertainty.as_ref().expect("sample");
    // A draw in which self-hosting is cheapest by less than the tie holds for the hybrid.
    assert!(u.p_best_holds > u.p_cheapest.hybrid + 0.1, "{u:?}");
    // Without the tie the two are apart, and the sample counts the strict winner only.
    let strict = report(&format!("{q}&tie=0"));
    assert!(strict.verdict.ties.is_empty());
    let su = strict.uncertainty.as_ref().expect("sample");
    assert_eq!(su.p_best_holds, su.p_cheapest.hybrid);
    // No flip leads from the hybrid to self-hosting within the tie: each flip's new plan costs
    // more than the tie less than the hybrid just past it.
    for f in &r.flips.flips {
        assert_ne!(f.to, Strategy::Hybrid, "{f:?}");
    }
}

/// A tie threshold is a link parameter with its range, refused outside it by name.
#[test]
fn the_tie_threshold_is_validated() {
    let problems = parse("tie=0.5").expect_err("out of range");
    assert!(problems.iter().any(|p| p.param == "tie"), "{problems:?}");
    let s = parse("tie=2%").expect("a percentage").scenario;
    assert_eq!(s.uncertainty.tie, 0.02);
    assert_eq!(servecost::codec::to_query(&s), "v=1&tie=0.02");
}

/// No warning prints a figure "instead of" the same figure: where the other reading leaves a
/// figure as it is, it is said once.
#[test]
fn no_warning_sets_a_figure_against_itself() {
    let mut read = 0;
    for q in [
        "",
        "requests=2M",
        "requests=20M",
        "requests=200M",
        "tokens=5T&mix=2:7:1",
        "requests=5M&profile=flat",
        "requests=1M&min_replicas=3",
    ] {
        for w in report(q).warnings {
            let parts: Vec<&str> = w.message.split(" instead of ").collect();
            for pair in parts.windows(2) {
                let before = pair[0].split_whitespace().last().unwrap_or("");
                let after = pair[1].split_whitespace().next().unwrap_or("");
                let trim = |t: &str| t.trim_end_matches([',', '.', ':', ';']).to_owned();
                assert_ne!(trim(before), trim(after), "{q}: {}", w.message);
                read += 1;
            }
            if w.code == "assumed_mix" {
                assert!(w.message.contains("self-hosting costs"), "{}", w.message);
            }
        }
    }
    assert!(read > 0, "no warning compares two figures");
}

/// The band map along the volume agrees with a brute-force scan of 2,000 volumes: at every
/// scanned volume the cheapest plan holds in the band the map puts it in, ties allowed.
#[test]
fn the_volume_band_map_agrees_with_a_scan() {
    use servecost::evaluate::{evaluate_with, Depth};
    use servecost::workload::Workload;
    for q in [
        "",
        "requests=20M",
        "requests=20M&own=1&capex=35000",
        "requests=5M&profile=flat&hybrid=0",
        "requests=3M&profile=business&redundancy=2&min_replicas=3",
    ] {
        let base = parse(q).expect("valid").scenario;
        let r = report(q);
        let bands = &r.bands.volume;
        assert!(!bands.is_empty(), "{q}");
        // The map is contiguous from end to end.
        for pair in bands.windows(2) {
            assert_eq!(pair[0].to, pair[1].from, "{q}");
            assert!(pair[0].from < pair[0].to, "{q}");
        }
        let v = r.inputs.volumes;
        let total = v.total();
        let (lo, hi) = (bands[0].from, bands[bands.len() - 1].to);
        assert!((lo - (total / 1e3).max(1.0)).abs() <= 1e-6 * lo, "{q}");
        let mut checked = 0;
        for i in 0..2_000 {
            let at = lo * (hi / lo).powf(f64::from(i) / 1_999.0);
            // Right at an edge either side's plan is the cheapest.
            let Some(band) = bands
                .iter()
                .find(|b| b.from * (1.0 + 1e-7) < at && at < b.to * (1.0 - 1e-7))
            else {
                continue;
            };
            let f = at / total;
            let mut s = base.clone().into_scenario();
            s.workload = Workload::Totals {
                input: v.uncached * f,
                cached: v.cached * f,
                output: v.output * f,
            };
            let Ok(scanned) = evaluate_with(&s, &revision_3(), Depth::Quick) else {
                continue;
            };
            // Ties allowed: the scanned cheapest holds in the band, or the band's plan is
            // within the tie of the cheapest at the scanned volume.
            let v = &scanned.verdict;
            assert!(
                band.holds(v.best) || v.ties.iter().any(|t| t.plan == band.best),
                "{q}: at {at} the cheapest is {:?} (ties {:?}), the band {band:?}",
                v.best,
                v.ties
            );
            checked += 1;
        }
        assert!(checked > 1_900, "{q}: {checked}");
    }
}

/// What would change the default answer along the volume is a stretch of the band map, with how
/// far it lasts: self-hosting (then the hybrid) from about 99.8 B to 104 B, renting never
/// cheapest again above about 160 B.
#[test]
fn the_volume_change_is_a_band_of_the_map() {
    let r = report("");
    let bands = &r.bands.volume;
    let above = volume_change_above(&r);
    assert_eq!(above.to, Strategy::SelfHost);
    let until = above.until.expect("the change ends");
    // The change is a run of bands of the map in which renting does not hold, at least the tie
    // wide, and renting holds again right after it.
    let first = bands
        .iter()
        .position(|b| b.from == above.value)
        .expect("the change starts at a band's edge");
    let last = bands
        .iter()
        .position(|b| b.to == until)
        .expect("and ends at one");
    assert!(bands[first..=last].iter().all(|b| !b.holds(Strategy::Rent)));
    assert!(until >= above.value * (1.0 + r.verdict.tie));
    assert!(bands[last + 1].holds(Strategy::Rent));
    // Every band between the volume as given and the flip still holds renting, or is narrower
    // than the tie.
    for b in bands
        .iter()
        .filter(|b| b.from >= r.inputs.total_tokens && b.to <= above.value)
    {
        assert!(
            b.holds(Strategy::Rent) || !b.material(r.verdict.tie),
            "{b:?}"
        );
    }
    assert!(
        (above.value / 99.8e9 - 1.0).abs() < 0.005,
        "{}",
        above.value
    );
    assert!(until > 103e9 && until < 105e9, "{until}");
    let never = above.reliably_from.expect("renting stops");
    assert_eq!(
        Some(never),
        servecost::decision::never_again_above(bands, Strategy::Rent)
    );
    // Self-hosting alone beats renting above the break-even, inside that stretch.
    let be = r.break_even.monthly_tokens.expect("break-even");
    assert!(be >= never, "{be} < {never}");
}

/// A change that opens with a short stretch of one plan and is mostly another names both:
/// from 101 B, past the next replica step the hybrid is cheapest for a billion tokens, then
/// renting for fifty billion.
#[test]
fn a_change_names_the_plan_cheapest_over_most_of_it() {
    let r = report("requests=3.7M");
    let above = volume_change_above(&r);
    assert_eq!(above.to, Strategy::Hybrid, "{above:?}");
    assert_eq!(above.mostly, Some(Strategy::Rent), "{above:?}");
    // Where the change is one plan throughout, nothing more is said.
    let default = report("");
    assert!(default.flips.flips.iter().all(|f| f.mostly != Some(f.to)));
}

/// A curve whose sources bound its input rather than state it (an MLPerf benchmark's longest
/// prompt): the warning says so and names both bounds, and the sample draws the mix across
/// them, `P` as given, so it moves the cheapest plan's bill both ways.
#[test]
fn a_bounded_input_is_drawn_across_its_bounds() {
    let mut data = revision_3();
    let s = parse("requests=300M").expect("valid").scenario;
    let id = evaluate(&s, &data).expect("answers").inputs.curve.clone();
    let c = data.curves.iter_mut().find(|c| c.id == id).expect("curve");
    c.mix_stated = false;
    c.mix = servecost::units::Mix::from_parts(0.4, 0.0, 0.6).expect("mix");
    c.input_share_bounds = Some([0.1, 0.7]);
    let r = evaluate(&s, &data).expect("answers");
    let w = r
        .warnings
        .iter()
        .find(|w| w.code == "assumed_mix")
        .expect("the assumption is said");
    assert!(w.message.contains("longest prompt"), "{}", w.message);
    let (low, high) = (
        servecost::format::percent(0.1),
        servecost::format::percent(0.7),
    );
    assert!(
        w.message.contains(&low) && w.message.contains(&high),
        "{}",
        w.message
    );
    let u = r.uncertainty.expect("a sample");
    let range = u
        .ranges
        .iter()
        .find(|g| g.key == "curve_mix")
        .expect("the mix is drawn");
    assert!(
        range.range.contains(&low) && range.range.contains(&high),
        "{}",
        range.range
    );
    assert!(range.reason.contains("longest prompt"), "{}", range.reason);
    // Drawn at its own ends, the mix moves the bill: the bounds are not a label only.
    let stated = {
        let mut d = data.clone();
        let c = d.curves.iter_mut().find(|c| c.id == id).expect("curve");
        c.input_share_bounds = None;
        c.mix_stated = true;
        evaluate(&s, &d)
            .expect("answers")
            .uncertainty
            .expect("a sample")
    };
    assert_ne!(u.difference_usd, stated.difference_usd);
}
