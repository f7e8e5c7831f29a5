//! One range per field: every row the importer accepts can be chosen by a link, and its figures
//! typed into one, without the link reader refusing it.

use std::sync::OnceLock;

use data::rows::Rows;
use data::rows::{CurveRow, OfferRow, PointRow, TierRow};
use proptest::prelude::*;
use servecost::codec::{spec, NumSpec, POINT_THROUGHPUT};

use crate::common::{fresh_db, SEEDED};

/// The published dataset's rows, read once from a migrated database.
fn published() -> &'static Rows {
    static ROWS: OnceLock<Rows> = OnceLock::new();
    ROWS.get_or_init(|| {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        rt.block_on(async {
            let db = fresh_db().await;
            let rows = data::rows::rows_at(&db.pool, SEEDED)
                .await
                .expect("the published rows");
            // Closed here, on the runtime its connections belong to: dropping the test
            // database closes its pool from a thread of its own, which would wait on this
            // runtime while it is blocked in that drop (PostgreSQL hung on it).
            db.pool.close().await;
            rows
        })
    })
}

fn range(name: &str) -> &'static NumSpec {
    spec(name).unwrap_or_else(|| panic!("{name} has a range in the codec"))
}

/// A value around the range `s` accepts: its ends, its smallest positive value, one between
/// (spread evenly in magnitude), or one from far wider (the importer must refuse it unless the
/// link reader takes it too).
fn within(s: &'static NumSpec) -> impl Strategy<Value = f64> {
    let lo = if s.min == 0.0 {
        s.least.max(1e-9)
    } else {
        s.min
    };
    let hi = s.max;
    let between = (0.0f64..=1.0).prop_map(move |t| {
        let v = (lo.ln() + t * (hi.ln() - lo.ln())).exp().clamp(lo, hi);
        if s.whole {
            v.round().clamp(lo, hi)
        } else {
            v
        }
    });
    let mut ends = vec![lo, hi];
    if s.min == 0.0 {
        ends.push(0.0);
    }
    let wide = (-330.0f64..12.0).prop_map(|e| 10f64.powf(e));
    let near = proptest::sample::select(vec![lo * 0.999, hi * 1.001, lo / 2.0, hi * 2.0, 0.0]);
    prop_oneof![3 => between, 1 => proptest::sample::select(ends), 1 => wide, 1 => near]
}

/// The shortest text the reader takes back as exactly `v`.
fn text(v: f64) -> String {
    format!("{v}")
}

prop_compose! {
    fn offer()(
        price_in in within(range("price_in")),
        price_out in within(range("price_out")),
        cache_discount in within(range("cache_discount")),
        markup in within(range("markup")),
        speed in proptest::option::of(within(range("tps"))),
    ) -> OfferRow {
        let rows = published();
        OfferRow {
            id: "generated-offer".into(),
            model: rows.models[0].id.clone(),
            name: "Generated offer".into(),
            price_in,
            price_out,
            cache_discount,
            markup,
            speed_tps: speed,
            source: rows.offers[0].source.clone(),
            note: None,
            cache_discount_stated: true,
            batch_discount: None,
            provider: None,
        }
    }
}

prop_compose! {
    fn tier()(
        usd in within(range("gpu_hour")),
        kind in proptest::sample::select(vec![None, Some("on_demand"), Some("spot"), Some("reserved"), Some("owner_cost")]),
        term in 1u32..=120,
        upfront in 0.0f64..=1.0,
    ) -> TierRow {
        let rows = published();
        let reserved = kind == Some("reserved");
        TierRow {
            chip: rows.curves[0].chip.clone(),
            tier: "generated-tier".into(),
            label: "Generated tier".into(),
            usd_per_gpu_hour: usd,
            source: rows.tiers[0].source.clone(),
            is_default: false,
            kind: kind.map(str::to_owned),
            term_months: reserved.then_some(f64::from(term)),
            upfront_share: reserved.then_some(upfront),
            provider: None,
        }
    }
}

prop_compose! {
    /// A curve on the first published curve's chip: speeds rising, throughput falling.
    fn curve()(
        replica in within(range("replica")),
        tps in proptest::collection::vec(within(range("tps")), 1..5),
        throughput in proptest::collection::vec(within(&POINT_THROUGHPUT), 1..5),
        mix in (0.0f64..10.0, 0.0f64..10.0, 0.01f64..10.0),
    ) -> (CurveRow, Vec<PointRow>) {
        let rows = published();
        let base = &rows.curves[0];
        let mut tps = tps;
        tps.sort_by(f64::total_cmp);
        tps.dedup();
        let mut throughput = throughput;
        throughput.sort_by(|a, b| b.total_cmp(a));
        throughput.dedup();
        let n = tps.len().min(throughput.len());
        let points = (0..n)
            .map(|i| PointRow {
                curve: "generated-curve".into(),
                idx: i as i64,
                tps: tps[i],
                tokens_per_s_per_gpu: Some(throughput[i]),
                usd_per_mtok: None,
                note: None,
                power_w_per_gpu: None,
            })
            .collect();
        let curve = CurveRow {
            id: "generated-curve".into(),
            revision: 0,
            replica_gpus: replica,
            mix_uncached: mix.0,
            mix_cached: mix.1,
            mix_output: mix.2,
            mix_stated: true,
            price_basis_usd: None,
            note: None,
            ..base.clone()
        };
        (curve, points)
    }
}

/// When the importer takes `incoming`: evaluates `query` on its rows over the published ones;
/// the link reader must take it, and the answer must not refuse the parameter that chooses the
/// row. True when the importer took it.
fn chosen(incoming: &Rows, query: &str, chooser: &str) -> Result<bool, TestCaseError> {
    let base = published();
    if !data::import::checked(base, incoming, &Default::default()).is_empty() {
        return Ok(false);
    }
    let data = data::rows::dataset(base.overlaid(incoming), SEEDED + 1)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let parsed = servecost::codec::parse_checked(query);
    prop_assert!(parsed.is_ok(), "{query}: {parsed:?}");
    if let Ok(p) = parsed {
        if let Err(problems) = servecost::evaluate(&p.scenario, &data) {
            prop_assert!(
                problems.iter().all(|p| p.param != chooser),
                "{query}: {problems:?}"
            );
        }
    }
    Ok(true)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn every_offer_the_importer_takes_is_a_link(o in offer()) {
        let incoming = Rows { offers: vec![o.clone()], ..Rows::default() };
        chosen(&incoming, &format!("model={}&api={}", o.model, o.id), "api")?;
        let mut typed = format!(
            "price_in={}&price_out={}&cache_discount={}&markup={}",
            text(o.price_in), text(o.price_out), text(o.cache_discount), text(o.markup)
        );
        if let Some(s) = o.speed_tps {
            typed.push_str(&format!("&tps={}", text(s)));
        }
        chosen(&incoming, &typed, "price_in")?;
    }

    #[test]
    fn every_price_tier_the_importer_takes_is_a_link(t in tier()) {
        let incoming = Rows { tiers: vec![t.clone()], ..Rows::default() };
        let curve = &published().curves[0];
        chosen(&incoming, &format!("curve={}&gpu_tier={}", curve.id, t.tier), "gpu_tier")?;
        let mut typed = format!("curve={}&gpu_hour={}", curve.id, text(t.usd_per_gpu_hour));
        if let Some(kind) = &t.kind {
            typed.push_str(&format!("&gpu_kind={kind}"));
        }
        chosen(&incoming, &typed, "gpu_hour")?;
    }

    #[test]
    fn every_curve_the_importer_takes_is_a_link((c, points) in curve()) {
        let incoming = Rows { curves: vec![c.clone()], points: points.clone(), ..Rows::default() };
        // A curve the engine cannot use (its points cross) is refused on import, rightly.
        chosen(&incoming, &format!("curve={}", c.id), "curve")?;
        let pairs: Vec<String> = points
            .iter()
            .map(|p| format!("{}:{}", text(p.tps), text(p.tokens_per_s_per_gpu.unwrap_or_default())))
            .collect();
        let typed = format!(
            "curve=own&chip={}&points={}&replica={}&curve_mix={}:{}:{}",
            c.chip,
            pairs.join(","),
            text(c.replica_gpus),
            text(c.mix_uncached),
            text(c.mix_cached),
            text(c.mix_output)
        );
        chosen(&incoming, &typed, "points")?;
    }
}

/// The properties above hold only if the importer takes rows at all: it takes each range's
/// ends, so that a row at the edge of what a link accepts is also imported.
#[test]
fn the_importer_takes_the_ends_of_every_range() {
    let base = published();
    let at = |name: &str, low: bool| {
        let s = range(name);
        match (low, s.min == 0.0) {
            (true, true) => s.least,
            (true, false) => s.min,
            (false, _) => s.max,
        }
    };
    for low in [true, false] {
        let mut o = base.offers[0].clone();
        o.id = "edge-offer".into();
        o.price_in = at("price_in", low);
        o.price_out = at("price_out", !low);
        o.cache_discount = at("cache_discount", low);
        o.markup = at("markup", !low);
        o.speed_tps = Some(at("tps", low));
        let mut t = base.tiers[0].clone();
        t.tier = "edge-tier".into();
        t.usd_per_gpu_hour = at("gpu_hour", low);
        let mut c = base.curves[0].clone();
        c.id = "edge-curve".into();
        c.replica_gpus = at("replica", low);
        // A replica that cannot hold its model's weights is refused (`import` tests): the edge
        // curve is of a model whose smallest weights fit the least replica of its chip.
        let memory = base
            .chips
            .iter()
            .find(|chip| chip.id == c.chip)
            .map_or(0.0, |chip| chip.memory_gb);
        let least = at("replica", true).min(c.replica_gpus);
        c.model = base
            .models
            .iter()
            .find(|m| {
                base.weights
                    .iter()
                    .filter(|w| w.model == m.id)
                    .all(|w| w.gigabytes <= memory * least)
            })
            .expect("a model whose weights fit the least replica")
            .id
            .clone();
        let points = vec![
            PointRow {
                curve: c.id.clone(),
                idx: 0,
                tps: at("tps", true),
                tokens_per_s_per_gpu: Some(POINT_THROUGHPUT.max),
                usd_per_mtok: None,
                note: None,
                power_w_per_gpu: None,
            },
            PointRow {
                curve: c.id.clone(),
                idx: 1,
                tps: at("tps", false),
                tokens_per_s_per_gpu: Some(POINT_THROUGHPUT.min),
                usd_per_mtok: None,
                note: None,
                power_w_per_gpu: None,
            },
        ];
        let incoming = Rows {
            offers: vec![o],
            tiers: vec![t],
            curves: vec![c],
            points,
            ..Rows::default()
        };
        let problems = data::import::checked(base, &incoming, &Default::default());
        assert!(problems.is_empty(), "low ends {low}: {problems:?}");
    }
}
