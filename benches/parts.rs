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
    let sure = servecost::decision::SampleContext {
        spec: servecost::decision::UncertaintySpec::default(),
        gpu_hour_spread: 1.1,
        gpu_hour_reason: String::new(),
        vendor: None,
        alternative_mix: None,
        mix_floor: None,
        curve_ratios: Some(servecost::decision::CurveSpread {
            lo: 1.0,
            hi: 2.7,
            names: String::new(),
            source: "inferencex".into(),
        }),
        hybrid: true,
    };
    c.bench_function("decision_sample", |b| {
        b.iter(|| servecost::decision::uncertainty(black_box(&rn), &reading, &sure, &totals, 7))
    });
    let total = rn.volumes.total();
    let (lo, hi) = servecost::decision::volume_span(total);
    c.bench_function("decision_volume_bands", |b| {
        b.iter(|| servecost::decision::volume_bands(black_box(&cn), total, lo, hi, true, 0.01))
    });
    let bands = servecost::decision::volume_bands(&cn, total, lo, hi, true, 0.01);
    c.bench_function("decision_flips", |b| {
        b.iter(|| {
            let best = totals.best().0;
            servecost::decision::flips(black_box(&rn), &reading, &cn, true, best, 0.01, &bands)
        })
    });
    // The cost over five years: nothing changing (each month's costing is the first's), and
    // the volume and prices moving every month, on a fixed and on an hourly fleet.
    let five = servecost::projection::ProjectionSpec {
        horizon: 5.0,
        ..Default::default()
    };
    let moving = servecost::projection::ProjectionSpec {
        growth: 0.5,
        api_trend: -0.3,
        gpu_trend: -0.15,
        ..five
    };
    let term = servecost::projection::Holding::Term {
        months: 36,
        upfront: 0.25,
    };
    c.bench_function("plan_5y_flat", |b| {
        b.iter(|| servecost::projection::project(black_box(&cn), &five, term, true))
    });
    c.bench_function("plan_5y_moving", |b| {
        b.iter(|| servecost::projection::project(black_box(&cn), &moving, term, true))
    });
    let hourly = servecost::parse(
        "requests=300M&gpu_hour=2.1&gpu_kind=on_demand&scaling=hourly&profile=diurnal&redundancy=1",
    )
    .expect("valid")
    .scenario;
    let (rh, _) = servecost::evaluate::resolve(&hourly, &data3).expect("resolves");
    let ch = rh.costing().expect("costs");
    c.bench_function("plan_5y_moving_large_hourly", |b| {
        b.iter(|| {
            servecost::projection::project(
                black_box(&ch),
                &moving,
                servecost::projection::Holding::Follows,
                true,
            )
        })
    });
    c.bench_function("query_round_trip", |b| {
        b.iter(|| servecost::parse(&servecost::to_query(black_box(&s))))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
