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
    c.bench_function("query_round_trip", |b| {
        b.iter(|| servecost::parse(&servecost::to_query(black_box(&s))))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
