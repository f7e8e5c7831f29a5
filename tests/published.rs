//! Expected values from the published figures of revision 1
//! (`migrations/20261129000002_published_dataset.sql`, each row with its source), each test
//! citing its figure.

mod common;

use common::{agent_mix, published, sglang_mix, INFERENCEX, SGLANG_TP4};
use servecost::report::Side;
use servecost::scenario::CurveChoice;
use servecost::workload::Workload;
use servecost::{evaluate, parse, Report, Scenario};

fn report(query: &str) -> Report {
    let s = parse(query).expect("valid query").scenario;
    evaluate(&s, &published()).expect("evaluates")
}

fn at_curve_mix(curve: &str, tps: f64, prefill: f64, cache_cost: f64) -> Report {
    let m = if curve.starts_with("sglang") {
        sglang_mix()
    } else {
        agent_mix()
    };
    let s = Scenario {
        workload: Workload::Mix {
            tokens: 1e10,
            mix: [m.uncached, m.cached, m.output],
        },
        curve: CurveChoice::Dataset {
            id: Some(curve.into()),
        },
        tps: Some(tps),
        prefill: Some(prefill),
        cache_cost,
        ..Scenario::default()
    };
    evaluate(&s, &published()).expect("evaluates")
}

/// aa-model-page: $1.25 in / $4.25 out / 88 % cache discount is $0.78 blended at 7 cached :
/// 2 uncached : 1 output, i.e. `mix=2:7:1` in servecost's input:cached:output order.
#[test]
fn api_blended_price_at_2_7_1_is_078() {
    let r = report("tokens=1B&mix=2:7:1");
    assert!(
        (r.rent.per_mtok.blended - 0.78).abs() < 1e-9,
        "{}",
        r.rent.per_mtok.blended
    );
    assert!((r.rent.per_mtok.cached - 0.15).abs() < 1e-12);
    assert!((r.rent.monthly_usd - 780.0).abs() < 1e-6);
}

/// inferencex: $0.019 / $0.027 / $0.046 per M tokens on B300 at $2.26 and $0.024 / $0.044 /
/// $0.076 on MI355X at $1.50, at 128 / 191 / 254 tokens/s per user, are reproduced as the
/// marginal all-token $/M at the curve's own mix, whatever the assumptions P and k.
#[test]
fn inferencex_points_are_reproduced_for_any_p_and_k() {
    for (prefill, cache_cost) in [(50_000.0, 0.1), (1e6, 0.0), (1e5, 1.0), (40_000.0, 0.3)] {
        for (tps, b300, mi355x) in INFERENCEX {
            for (curve, published) in [
                ("inferencex-b300-fp4", b300),
                ("inferencex-mi355x-fp4", mi355x),
            ] {
                let r = at_curve_mix(curve, tps, prefill, cache_cost);
                let got = r.self_host.per_mtok.blended;
                assert!(
                    (got / published - 1.0).abs() < 0.005,
                    "{curve} at {tps}: {got} vs {published} (P={prefill}, k={cache_cost})"
                );
            }
        }
    }
}

/// sglang-cookbook: 208.7 / 97.1 / 40.9 tokens/s per user at 49,646 / 114,342 / 185,382 total
/// tokens/s per GPU; the engine gives those throughputs back at the curve's mix.
#[test]
fn sglang_throughputs_are_reproduced_at_their_mix() {
    for (tps, throughput) in SGLANG_TP4 {
        let r = at_curve_mix("sglang-gb300-tp4", tps, 50_000.0, 0.1);
        assert_eq!(r.self_host.curve_tokens_per_s_per_gpu, throughput);
        let op = r.power.operating_point.expect("gb300 has a power figure");
        assert!((op.tokens_per_s_per_gpu / throughput - 1.0).abs() < 1e-9);
        assert!(r.warnings.iter().any(|w| w.code == "vendor_curve"));
    }
}

/// aa-agentperf: 150 M tokens/s per MW with 4x GB300 at 5-6 kW is about 190,000-225,000
/// tokens/s per GPU; at the midpoint power (1.375 kW per GPU) that is 206,250.
#[test]
fn agentperf_headline_decodes_per_gpu() {
    let r = report("curve=sglang-gb300-tp4&tps=97.1&headline=150M");
    let h = r.power.headline.expect("decoded");
    assert!((h.tokens_per_s_per_gpu - 206_250.0).abs() < 1e-6);
    // $2.31 per GB300-hour (costh tier) over 206,250 tokens/s.
    assert!((h.usd_per_mtok_all - 2.31 / (206_250.0 * 3600.0) * 1e6).abs() < 1e-12);
    let per_class = h.per_mtok.expect("split");
    assert!((per_class.blended - h.usd_per_mtok_all).abs() < 1e-9);
}

/// The default scenario: 1 M coding-agent requests (27,000 input at 97 % hits, 180 output) at
/// the model's own API prices (aa-model-page) and the InferenceX B300 curve.
#[test]
fn default_scenario_prices_both_sides_class_by_class() {
    let r = report("");
    let expected_rent = 810e6 * 1.25e-6 + 26_190e6 * 0.15e-6 + 180e6 * 4.25e-6;
    assert!((r.rent.monthly_usd - expected_rent).abs() < 1e-6);
    assert_eq!(r.inputs.tps, 142.9);
    assert_eq!(r.inputs.gpu_hour_usd, 2.26);
    let b = r.self_host.breakdown;
    assert!(b.idle_compute > 0.0 && b.ops > 0.0);
    assert!(
        (b.busy_compute + b.idle_compute + b.ops + b.overflow_api - r.self_host.monthly_usd).abs()
            < 1e-6
    );
    assert_eq!(r.verdict.winner, Side::Rent);
    let codes: Vec<&str> = r.warnings.iter().map(|w| w.code.as_str()).collect();
    assert!(
        codes.contains(&"assumed_mix") && codes.contains(&"licence_threshold"),
        "{codes:?}"
    );
    let be = r
        .break_even
        .monthly_tokens
        .expect("self-hosting wins at some volume");
    assert!(be > r.inputs.total_tokens);
}

#[test]
fn target_outside_the_curve() {
    let r = report("tps=50");
    assert!(r.self_host.clamped);
    assert!(r.warnings.iter().any(|w| w.code == "target_below_curve"));
    // Above every curve (the fastest measured point is 254): renting still answers, and
    // self-hosting is a floor at 254 that no curve of the published figures lifts.
    let r = report("tps=300");
    let speed = r.speed.as_ref().expect("above the curve");
    assert_eq!(speed.chosen_fastest, 254.0);
    assert_eq!(speed.priced_at, 254.0);
    assert!(speed.floor && speed.reaching.is_empty());
    assert_eq!(r.rent.monthly_usd, report("tps=100").rent.monthly_usd);
    assert!(r.warnings.iter().any(|w| w.code == "target_above_curve"));
}

#[test]
fn mi355x_carries_the_floor_caveat() {
    let r = report("curve=inferencex-mi355x-fp4");
    assert!(r.warnings.iter().any(|w| w.code == "figure_is_floor"));
}

#[test]
fn contradicting_assumptions_name_the_prefill_rate() {
    let err = evaluate(
        &parse("curve=sglang-gb300-tp4&tps=40.9&prefill=1000")
            .expect("valid")
            .scenario,
        &published(),
    )
    .expect_err("contradiction");
    assert_eq!(err[0].param, "prefill");
}

#[test]
fn chat_mix_far_from_an_agent_curve_is_flagged() {
    let r = report("workload=chat");
    assert!(r.warnings.iter().any(|w| w.code == "mix_far_from_curve"));
}

#[test]
fn unknown_dataset_ids_are_named() {
    let err =
        evaluate(&parse("curve=nope").expect("valid").scenario, &published()).expect_err("unknown");
    assert_eq!(err[0].param, "curve");
    assert!(err[0].reason.contains("inferencex-b300-fp4"));
}

#[test]
fn owned_hardware_prices_the_gpu_hour_from_its_parts() {
    let r = report("own=1&capex=60k");
    let parts = r.inputs.owned_parts.expect("owned");
    let sum = parts.capital + parts.power + parts.facility + parts.maintenance;
    assert!((r.inputs.gpu_hour_usd - sum).abs() < 1e-12);
    // 2.17 kW all-in (SemiAnalysis April 2026) at PUE 1.3 and $0.10/kWh.
    assert!((parts.power - 2.17 * 1.3 * 0.1).abs() < 1e-12);
}

mod any_assumptions {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// inferencex: every published point is reproduced, to 0.5 %, for any prefill rate and
        /// cache-hit cost ratio the curve does not contradict.
        #[test]
        fn inferencex_points_hold_for_any_p_and_k(
            log_prefill in (30_000.0f64).ln()..(1e8f64).ln(),
            cache_cost in 0.0..1.0f64,
            point in 0usize..3,
            mi355x in any::<bool>(),
        ) {
            let (tps, b300, mi) = INFERENCEX[point];
            let (curve, figure) = if mi355x {
                ("inferencex-mi355x-fp4", mi)
            } else {
                ("inferencex-b300-fp4", b300)
            };
            let m = agent_mix();
            let s = Scenario {
                workload: Workload::Mix { tokens: 1e10, mix: [m.uncached, m.cached, m.output] },
                curve: CurveChoice::Dataset { id: Some(curve.into()) },
                tps: Some(tps),
                prefill: Some(log_prefill.exp()),
                cache_cost,
                ..Scenario::default()
            };
            match evaluate(&s, &published()) {
                Ok(r) => prop_assert!((r.self_host.per_mtok.blended / figure - 1.0).abs() < 0.005),
                // Assumptions that leave no decode time are refused, naming the prefill rate.
                Err(problems) => prop_assert_eq!(problems[0].param.as_str(), "prefill"),
            }
        }
    }
}
