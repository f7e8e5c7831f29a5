//! `evaluate`: the full report (hybrid search, break-even, sensitivity, every chart series, the
//! sureness sample and the flips) for the default scenario, one near its break-even and a larger,
//! peakier one; the same without the sample (`draws=0`); the options ranking of the default
//! scenario; plus parsing a link.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

#[path = "../tests/common/mod.rs"]
mod common;

fn bench(c: &mut Criterion) {
    let data = common::revision_3();
    let default = servecost::parse("").expect("valid").scenario;
    c.bench_function("evaluate", |b| {
        b.iter(|| servecost::evaluate(black_box(&default), black_box(&data)))
    });
    let large = servecost::parse(
        "requests=300M&gpu_hour=2.1&gpu_kind=on_demand&scaling=hourly&profile=diurnal&redundancy=1",
    )
    .expect("valid")
    .scenario;
    assert!(
        servecost::evaluate(&large, &data).is_ok(),
        "the large scenario has an answer"
    );
    c.bench_function("evaluate_large_hourly", |b| {
        b.iter(|| servecost::evaluate(black_box(&large), black_box(&data)))
    });
    let near = servecost::parse("requests=20M").expect("valid").scenario;
    c.bench_function("evaluate_near_break_even", |b| {
        b.iter(|| servecost::evaluate(black_box(&near), black_box(&data)))
    });
    let no_sample = servecost::parse("requests=20M&draws=0")
        .expect("valid")
        .scenario;
    c.bench_function("evaluate_near_break_even_without_sample", |b| {
        b.iter(|| servecost::evaluate(black_box(&no_sample), black_box(&data)))
    });
    c.bench_function("evaluate_quick_without_sample_and_flips", |b| {
        b.iter(|| {
            servecost::evaluate::evaluate_with(
                black_box(&default),
                black_box(&data),
                servecost::evaluate::Depth::Quick,
            )
        })
    });
    // Every way to serve the default workload: each offer, curve, price tier and sizing.
    c.bench_function("options_default", |b| {
        b.iter(|| servecost::options::options(black_box(&default), black_box(&data)))
    });
    // The default scenario over five years with the volume and prices moving every month: what a
    // plan of 60 months adds to `evaluate` (whose own plan runs the default 3 years unchanged).
    let five = servecost::parse("horizon=5&growth=50%&api_trend=-30%&gpu_trend=-15%")
        .expect("valid")
        .scenario;
    c.bench_function("evaluate_5y_moving", |b| {
        b.iter(|| servecost::evaluate(black_box(&five), black_box(&data)))
    });
    // A workload read from a usage export: 168 measured hourly weights (a week of uneven hours,
    // none a round number) and a fifth of the tokens sent as batch, which the fleet serves in its
    // quiet hours.
    let buckets = common::measured_week(4e7, Some(3));
    let usage = servecost::usage::read(&buckets).expect("the week reads");
    let measured = servecost::parse(&usage.query).expect("valid").scenario;
    assert_eq!(usage.profile.len(), 168);
    assert!(servecost::evaluate(&measured, &data).is_ok_and(|r| r.batch.is_some()));
    c.bench_function("evaluate_measured_week", |b| {
        b.iter(|| servecost::evaluate(black_box(&measured), black_box(&data)))
    });
    let q = "v=1&tokens=27B&mix=2:7:1&tps=142.9&profile=flat&price_in=1.3&curve=sglang-gb300-tp4&util=0.7";
    c.bench_function("parse", |b| b.iter(|| servecost::parse(black_box(q))));
}

criterion_group!(benches, bench);
criterion_main!(benches);
