//! `evaluate`: the full report (hybrid search, break-even, sensitivity, every chart series) for
//! the default scenario and a larger, peakier one; plus parsing a link.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

#[path = "../tests/common/mod.rs"]
mod common;

fn bench(c: &mut Criterion) {
    let data = common::published();
    let default = servecost::parse("").expect("valid").scenario;
    c.bench_function("evaluate", |b| {
        b.iter(|| servecost::evaluate(black_box(&default), black_box(&data)))
    });
    let large = servecost::parse("requests=300M&scaling=hourly&profile=diurnal&redundancy=1")
        .expect("valid")
        .scenario;
    c.bench_function("evaluate_large_hourly", |b| {
        b.iter(|| servecost::evaluate(black_box(&large), black_box(&data)))
    });
    let q = "v=1&tokens=27B&mix=2:7:1&tps=142.9&profile=flat&price_in=1.3&curve=sglang-gb300-tp4&util=0.7";
    c.bench_function("parse", |b| b.iter(|| servecost::parse(black_box(q))));
}

criterion_group!(benches, bench);
criterion_main!(benches);
