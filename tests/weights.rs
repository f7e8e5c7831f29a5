//! A replica must hold the model's weights: one the link gives that cannot is refused with
//! both sizes named; one that holds them but leaves little of its memory for the KV cache is
//! said; your own points' assumed single GPU is said, with what to give.

mod common;

use common::revision_3;
use servecost::report::WarningCode;
use servecost::{evaluate, parse};

const OWN: &str = "curve=own&points=10:2.6k,100:900&curve_mix=1:0:1&chip=b300";

fn codes(q: &str) -> Vec<WarningCode> {
    let s = parse(q).expect("valid").scenario;
    let r = evaluate(&s, &revision_3()).unwrap_or_else(|p| panic!("{q}: {p:?}"));
    r.warnings.iter().map(|w| w.code).collect()
}

#[test]
fn a_replica_too_small_for_the_weights_is_refused_naming_both_sizes() {
    // Muse Spark Open at FP4 is 537 GB; one B300 holds 288 GB.
    let q = format!("{OWN}&replica=1");
    let s = parse(&q).expect("valid").scenario;
    let problems = evaluate(&s, &revision_3()).expect_err("refused");
    let p = problems
        .iter()
        .find(|p| p.param == "replica")
        .unwrap_or_else(|| panic!("{problems:?}"));
    assert_eq!(p.value, "1");
    assert!(p.reason.contains("288\u{a0}GB"), "{}", p.reason);
    assert!(p.reason.contains("537\u{a0}GB"), "{}", p.reason);
    assert!(p.reason.contains("at least 2"), "{}", p.reason);
    // A dataset curve's replica is checked the same way when the link shrinks it.
    let s = parse("replica=1").expect("valid").scenario;
    let problems = evaluate(&s, &revision_3()).expect_err("refused");
    assert!(
        problems.iter().any(|p| p.param == "replica"),
        "{problems:?}"
    );
}

#[test]
fn a_replica_that_holds_the_weights_says_when_little_is_left_for_the_kv_cache() {
    // 2 × 288 GB holds 537 GB with 39 GB to spare: less than 30 % of 576.
    assert!(codes(&format!("{OWN}&replica=2")).contains(&WarningCode::LittleKvCache));
    // 4 × 288 GB leaves more than half.
    let four = codes(&format!("{OWN}&replica=4"));
    assert!(!four.contains(&WarningCode::LittleKvCache), "{four:?}");
    assert!(!four.contains(&WarningCode::WeightsDoNotFit), "{four:?}");
}

#[test]
fn your_own_points_without_a_replica_say_what_one_gpu_cannot_hold() {
    let own = codes(OWN);
    assert!(own.contains(&WarningCode::WeightsDoNotFit), "{own:?}");
}
