//! The pieces of `evaluate` one by one, to see where its time goes.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

#[path = "../tests/common/mod.rs"]
mod common;

fn bench(c: &mut Criterion) {
    let data = common::published();
    let s = servecost::parse("").expect("valid").scenario;
    let (r, _) = servecost::evaluate::resolve(&s, &data).expect("resolves");
    let costing = r.costing().expect("costs");
    c.bench_function("resolve", |b| {
        b.iter(|| servecost::evaluate::resolve(black_box(&s), &data).is_ok())
    });
    c.bench_function("costing", |b| b.iter(|| r.costing().is_ok()));
    c.bench_function("self_host", |b| {
        b.iter(|| costing.self_host(black_box(2.0)))
    });
    c.bench_function("hybrid", |b| b.iter(|| costing.hybrid(black_box(2.0))));
    c.bench_function("break_even", |b| {
        b.iter(|| servecost::break_even::break_even(black_box(&costing)))
    });
    c.bench_function("sensitivity", |b| {
        b.iter(|| servecost::sensitivity::sensitivity(black_box(&r), 1.0))
    });
    c.bench_function("cost_vs_volume", |b| {
        b.iter(|| servecost::series::cost_vs_volume(black_box(&costing), Some(7e10), true))
    });
    // The decision's two searches, on a scenario near its break-even.
    let near = servecost::parse("requests=20M").expect("valid").scenario;
    let data3 = common::revision_3();
    let (rn, _) = servecost::evaluate::resolve(&near, &data3).expect("resolves");
    let (reading, _) = rn.gpu_time().expect("gpu time");
    let cn = rn.costing().expect("costs");
    let totals = servecost::decision::Totals::of(&cn, 1.0, true);
    let sure = servecost::decision::Context {
        spec: servecost::decision::UncertaintySpec::default(),
        gpu_hour_spread: 1.1,
        gpu_hour_reason: String::new(),
        vendor: None,
        alternative_mix: None,
        curve_ratios: Some((1.0, 2.7, String::new())),
        hybrid: true,
    };
    c.bench_function("decision_sample_200_draws", |b| {
        b.iter(|| servecost::decision::uncertainty(black_box(&rn), &reading, &sure, &totals, 7))
    });
    c.bench_function("decision_flips", |b| {
        b.iter(|| servecost::decision::flips(black_box(&rn), &reading, &cn, true, totals.best().0))
    });
    c.bench_function("query_round_trip", |b| {
        b.iter(|| servecost::parse(&servecost::to_query(black_box(&s))))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
