//! Batch traffic: priced at the batch discount at the API, served at the curve's most efficient
//! point in the fleet's quiet hours, and nothing changed without it.

mod common;

use common::revision_3;
use servecost::report::Report;
use servecost::{evaluate, parse};

fn report(query: &str) -> Report {
    let parsed = parse(query).expect("the link reads").scenario;
    evaluate(&parsed, &revision_3()).expect("an answer")
}

#[test]
fn no_batch_traffic_changes_nothing() {
    let plain = report("requests=2M");
    let zero = report("requests=2M&batch=0&batch_discount=0.5");
    assert!(plain.batch.is_none() && zero.batch.is_none());
    assert_eq!(plain.rent.monthly_usd, zero.rent.monthly_usd);
    assert_eq!(plain.self_host.monthly_usd, zero.self_host.monthly_usd);
    assert_eq!(plain.self_host.breakdown, zero.self_host.breakdown);
}

#[test]
fn batch_tokens_are_priced_at_the_batch_discount() {
    let plain = report("requests=2M");
    let batch = report("requests=2M&batch=30%25&batch_discount=50%25");
    // 30 % of every class at half price: the bill at 85 %.
    let want = plain.rent.monthly_usd * (1.0 - 0.3 * 0.5);
    assert!((batch.rent.monthly_usd - want).abs() < 1e-9 * want);
    let b = batch.batch.expect("batch traffic");
    assert!(b.discount_stated);
    assert!((b.rent_saving_usd - (plain.rent.monthly_usd - want)).abs() < 1e-6);
    // An offer that states no batch price: priced as the rest, and a warning says so.
    let unstated = report("requests=2M&batch=30%25");
    assert_eq!(unstated.rent.monthly_usd, plain.rent.monthly_usd);
    assert!(!unstated.batch.expect("batch traffic").discount_stated);
    assert!(unstated
        .warnings
        .iter()
        .any(|w| w.code == servecost::report::WarningCode::BatchPriceUnknown));
}

#[test]
fn batch_fills_idle_hours_before_the_fleet_grows() {
    // 20 M requests a month in business hours: the fleet held for the weekday peak idles most of the week.
    let interactive = report("requests=20M&scaling=fixed&hybrid=0");
    let with_batch = report("requests=20M&batch=20%25&scaling=fixed&hybrid=0");
    let b = with_batch.batch.expect("batch traffic");
    assert!(b.gpu_hours > 0.0 && b.idle_gpu_hours > 0.0);
    // A fifth of the tokens fits in the nights and weekends: no GPU added, all of it absorbed.
    assert_eq!(b.added_gpu_hours, 0.0);
    assert!((b.absorbed_gpu_hours - b.gpu_hours).abs() < 1e-9 * b.gpu_hours);
    // The same fleet as 80 % of the traffic alone needs, with more of its hours busy.
    let alone = report("requests=16M&scaling=fixed&hybrid=0");
    assert_eq!(with_batch.self_host.gpus, alone.self_host.gpus);
    assert!(with_batch.self_host.utilization > alone.self_host.utilization);
    assert!(with_batch.self_host.monthly_usd < interactive.self_host.monthly_usd);
    // Served at the curve's most efficient point, batch takes less GPU time a token.
    assert!(b.tps > 0.0);
    assert!(
        with_batch.self_host.gpu_seconds_per_token.output
            < interactive.self_host.gpu_seconds_per_token.output
    );
    // All of it batch on a flat week: nothing to fill, the fleet holds it all.
    let flat = report("requests=20M&batch=100%25&profile=flat&scaling=fixed&hybrid=0");
    let f = flat.batch.expect("batch traffic");
    assert!(f.added_gpu_hours > 0.0);
}
