//! GPU-hour prices carry their commitment (revision 2 of the seed): expected values, each with
//! its figure or its reason.

mod common;

use common::{published, revision_2};
use servecost::gpu_price::Commitment;
use servecost::{evaluate, parse};

fn report(q: &str) -> servecost::Report {
    let s = parse(q).expect("valid").scenario;
    evaluate(&s, &revision_2()).unwrap_or_else(|p| panic!("{q}: {p:?}"))
}

fn refused(q: &str) -> Vec<String> {
    let s = parse(q).expect("readable").scenario;
    match evaluate(&s, &revision_2()) {
        Ok(_) => panic!("{q} has an answer"),
        Err(p) => p.into_iter().map(|p| p.param).collect(),
    }
}

/// The default B300 price is the 3-year rental, $4.25 per GPU-hour with 25 % upfront
/// (SemiAnalysis, July 2026): the cheapest B300 price anyone can rent. It bills the fixed fleet,
/// one replica of four B300, for all 730 hours of the month, and says so.
#[test]
fn the_default_is_the_three_year_rental_billed_every_hour() {
    let r = report("");
    assert_eq!(r.inputs.gpu_hour_usd, 4.25);
    assert_eq!(r.inputs.gpu_kind, Some(Commitment::Reserved));
    assert_eq!(r.inputs.gpu_tier.as_deref(), Some("costr"));
    let compute = r.self_host.breakdown.busy_compute + r.self_host.breakdown.idle_compute;
    assert!((compute - 4.0 * 730.0 * 4.25).abs() < 1e-9, "{compute}");
    assert!(r.warnings.iter().any(|w| w.code == "reserved_term"
        && w.message.contains("36-month term")
        && w.message.contains("25\u{a0}% of it paid upfront")));
    assert!(
        r.inputs.gpu_hour_label.contains("reserved, 36 months"),
        "{}",
        r.inputs.gpu_hour_label
    );
}

/// The hyperscaler-owned cost, $2.26, is an owner's cost: offered, never called a rental, and
/// the published InferenceX figures still reproduce at it.
#[test]
fn the_owner_cost_tier_is_a_floor_not_a_rental() {
    let r = report("gpu_tier=costh");
    assert_eq!(r.inputs.gpu_hour_usd, 2.26);
    assert_eq!(r.inputs.gpu_kind, Some(Commitment::OwnerCost));
    assert!(r.warnings.iter().any(|w| w.code == "owner_cost_price"));
    let csv = servecost::export::csv(&r);
    assert!(csv.contains("input,gpu_kind,owner_cost,id"), "{csv}");
    assert!(!csv.to_lowercase().contains("rented"), "{csv}");
    // The same answer as revision 1's default, whose $2.26 tier stated no kind.
    let old = evaluate(&parse("").expect("valid").scenario, &published()).expect("answer");
    assert_eq!(old.self_host.monthly_usd, r.self_host.monthly_usd);
    assert!(old
        .warnings
        .iter()
        .any(|w| w.code == "commitment_not_stated"));
}

/// Hourly scaling needs a price that can be stopped hour by hour.
#[test]
fn hourly_scaling_is_refused_on_reserved_and_owner_cost() {
    assert_eq!(refused("scaling=hourly"), ["scaling"]);
    assert_eq!(refused("scaling=hourly&gpu_tier=costh"), ["scaling"]);
    assert_eq!(
        refused("scaling=hourly&gpu_hour=2&gpu_kind=reserved"),
        ["scaling"]
    );
    assert_eq!(
        refused("scaling=hourly&gpu_hour=2&gpu_kind=owner_cost"),
        ["scaling"]
    );
    for q in [
        "scaling=hourly&gpu_hour=2",
        "scaling=hourly&gpu_hour=2&gpu_kind=spot",
    ] {
        assert!(report(q).self_host.monthly_usd > 0.0, "{q}");
    }
    assert_eq!(refused("gpu_tier=nope"), ["gpu_tier"]);
}

/// Owned electricity is the all-in IT power at the wall times PUE, once: 2.17 kW (SemiAnalysis,
/// April 2026) × 1.3 × $0.10 per kWh = $0.2821 per GPU-hour.
#[test]
fn pue_is_applied_once_to_the_wall_power() {
    let r = report("own=1&capex=35000");
    let parts = r.inputs.owned_parts.expect("owned");
    assert!(
        (parts.power - 2.17 * 1.3 * 0.10).abs() < 1e-12,
        "{}",
        parts.power
    );
    assert!(r.inputs.gpu_kind.is_none());
}

/// A target above the curve's fastest point is capped there, and the page says so.
#[test]
fn a_capped_target_is_named() {
    let r = report("curve=sglang-gb300-tp4");
    assert_eq!(r.inputs.tps, 142.9);
    let r = report("points=20:3000,60:1500&curve_mix=2:7:1&chip=b300");
    assert_eq!(r.inputs.tps, 60.0);
    assert!(r.warnings.iter().any(|w| w.code == "target_capped"));
    let r = report("workload=batch");
    assert!(r
        .warnings
        .iter()
        .any(|w| w.code == "batch_at_interactive_speed"));
}

/// inferencex: $0.019 / $0.027 / $0.046 per M tokens on B300 and $0.024 / $0.044 / $0.076 on
/// MI355X at 128 / 191 / 254 tokens/s are still reproduced in revision 2, at the owner's-cost
/// tier they were priced at (`gpu_tier=costh`: $2.26 and $1.50).
#[test]
fn inferencex_figures_reproduce_at_the_owner_cost_tier() {
    let mix = common::agent_mix();
    for (tps, b300, mi355x) in [
        (128.0, 0.019, 0.024),
        (191.0, 0.027, 0.044),
        (254.0, 0.046, 0.076),
    ] {
        for (curve, published) in [
            ("inferencex-b300-fp4", b300),
            ("inferencex-mi355x-fp4", mi355x),
        ] {
            let q = format!(
                "tokens=10B&mix={}:{}:{}&curve={curve}&tps={tps}&gpu_tier=costh",
                mix.uncached, mix.cached, mix.output
            );
            let r = report(&q);
            assert_eq!(r.inputs.gpu_kind, Some(Commitment::OwnerCost));
            let got = r.self_host.per_mtok.blended;
            assert!(
                (got / published - 1.0).abs() < 0.005,
                "{curve} at {tps}: {got} vs {published}"
            );
        }
    }
}

/// Overflow sent to the API arrives without the session's prefix cache: its cached input is
/// priced at the API's uncached rate ($1.25, not $0.15) unless a share is declared warm; and the
/// hybrid never keeps fewer replicas than the minimum fleet.
#[test]
fn hybrid_overflow_is_priced_cold() {
    let find = |extra: &str| {
        [100e6, 200e6, 400e6]
            .into_iter()
            .map(|n| {
                report(&format!(
                    "requests={n}&workload=chat&profile=diurnal&gpu_hour=3{extra}"
                ))
            })
            .find(|r| {
                r.hybrid
                    .as_ref()
                    .is_some_and(|h| h.api_share > 0.0 && h.api_share < 1.0)
            })
    };
    let r = find("").expect("a volume with a partial split");
    let h = r.hybrid.expect("hybrid");
    let v = r.inputs.volumes;
    let cold = (v.uncached + v.cached) * 1.25e-6 + v.output * 4.25e-6;
    assert!(
        (h.breakdown.overflow_api - h.api_share * cold).abs() < 1e-6 * cold,
        "{} vs {}",
        h.breakdown.overflow_api,
        h.api_share * cold
    );
    let warm = report(&format!("{}&overflow_warm=1", r.query));
    let w = warm.hybrid.expect("hybrid");
    if (w.api_share - h.api_share).abs() < 1e-12 {
        let hot = v.uncached * 1.25e-6 + v.cached * 0.15e-6 + v.output * 4.25e-6;
        assert!((w.breakdown.overflow_api - w.api_share * hot).abs() < 1e-6 * hot);
    }
    let floor = report(&format!("{}&min_replicas=3", r.query));
    let f = floor.hybrid.expect("hybrid");
    assert!(f.replicas == 0.0 || f.replicas >= 3.0, "{}", f.replicas);
}

/// Staff that grow with the fleet: one more FTE ($200,000 a year) per 8 GPUs on one replica of
/// four B300 adds $200,000 / 12 / 8 × 4 = $8,333.33 a month to the fixed 0.5 FTE.
#[test]
fn operations_can_grow_with_the_fleet() {
    let base = report("");
    let grown = report("ops_gpus_per_fte=8");
    let added = grown.self_host.breakdown.ops - base.self_host.breakdown.ops;
    let expected = 200_000.0 / 12.0 / 8.0 * base.self_host.gpus;
    assert!((added - expected).abs() < 1e-6, "{added} vs {expected}");
}

/// "Far from the curve's mix" is measured in GPU time: 3 % output against the SGLang curve's
/// 0.67 % (1,237 of 185,382 tokens/s) is close in token shares (2.3 points) but needs about 4×
/// the GPU time per token, and is flagged.
#[test]
fn a_mix_far_in_gpu_time_is_flagged() {
    let r = report("tokens=10B&mix=0:97:3&curve=sglang-gb300-tp4&tps=40.9");
    let w = r
        .warnings
        .iter()
        .find(|w| w.code == "mix_far_from_curve")
        .expect("flagged");
    assert!(w.message.contains("GPU time"), "{}", w.message);
    // The curve's own mix is not.
    let m = common::sglang_mix();
    let own = report(&format!(
        "tokens=10B&mix={}:{}:{}&curve=sglang-gb300-tp4&tps=40.9",
        m.uncached, m.cached, m.output
    ));
    assert!(own.warnings.iter().all(|w| w.code != "mix_far_from_curve"));
}

/// The InferenceX curves do not state their mix: servecost reads them as the AgentPerf agent
/// trace, and says what self-hosting costs under the other reading (the same 27,000 input and
/// 180 output tokens at fixed lengths, nothing cached), which `curve_mix` then selects.
#[test]
fn an_assumed_curve_mix_gives_the_other_reading_and_can_be_chosen() {
    let r = report("requests=50M");
    let w = r
        .warnings
        .iter()
        .find(|w| w.code == "assumed_mix")
        .expect("assumed");
    assert!(w.message.contains("Read the other way"), "{}", w.message);
    let chosen = report("requests=50M&curve_mix=27000:0:180");
    let figure = servecost::format::usd(chosen.self_host.monthly_usd);
    assert!(
        w.message.contains(&format!("{figure} a month")),
        "{} / {figure}",
        w.message
    );
    assert!(chosen.warnings.iter().all(|w| w.code != "assumed_mix"));
    assert_ne!(chosen.self_host.monthly_usd, r.self_host.monthly_usd);
}

/// A spot price is named as one the provider can take back: self-hosting at it is a lower
/// bound for a fleet held all month. An on-demand price at the same figure says nothing of it.
#[test]
fn a_spot_price_is_a_lower_bound_for_a_held_fleet() {
    let spot = report("gpu_hour=2&gpu_kind=spot");
    assert_eq!(spot.inputs.gpu_kind, Some(Commitment::Spot));
    let w = spot
        .warnings
        .iter()
        .find(|w| w.code == "spot_price")
        .expect("the spot price is named");
    assert!(
        w.message.starts_with("Your GPU-hour price is a spot price"),
        "{}",
        w.message
    );
    assert!(w.message.contains("lower bound"), "{}", w.message);
    let on_demand = report("gpu_hour=2&gpu_kind=on_demand");
    assert!(on_demand.warnings.iter().all(|w| w.code != "spot_price"));
    assert_eq!(on_demand.self_host.monthly_usd, spot.self_host.monthly_usd);
}
