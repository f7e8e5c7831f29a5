//! Sensitivity: each main input moved over a low/high range, and what that does to
//! (self-hosting minus renting), sorted by effect for a tornado chart.
//!
//! | lever | low | high |
//! |---|---|---|
//! | monthly volume | ×0.5 | ×2 |
//! | GPU-hour price | ×0.75 | ×1.25 |
//! | API prices (all classes) | ×0.5 | ×1.5 |
//! | interactivity target | ×0.75 | ×1.25, at most the curve's fastest point |
//! | target utilisation | −0.2 (at least 0.05) | +0.1 (at most 1) |
//! | operations cost | ×0.5 | ×2 |
//! | prefill rate `P` | ×0.5 | ×2 |
//! | cache-hit cost ratio `k` | ×0.5 | ×2 (at most 1) |
//! | cache misses (uncached share of input) | ×0.5 | ×2 (at most all input) |

use serde::{Deserialize, Serialize};

use crate::resolved::Resolved;

/// One lever of the tornado.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Sensitivity {
    /// Stable key, e.g. `gpu_hour`.
    pub key: String,
    /// What is moved.
    pub label: String,
    /// The low setting, in words.
    pub low_label: String,
    /// The high setting, in words.
    pub high_label: String,
    /// Self-hosting minus renting at the low setting, $ per month (`None`: no answer there).
    pub low: Option<f64>,
    /// Self-hosting minus renting at the high setting, $ per month.
    pub high: Option<f64>,
    /// Self-hosting minus renting as given, $ per month.
    pub base: f64,
}

impl Sensitivity {
    /// The larger swing from the base.
    pub fn effect(&self) -> f64 {
        [self.low, self.high]
            .into_iter()
            .flatten()
            .map(|v| (v - self.base).abs())
            .fold(0.0, f64::max)
    }
}

type Lever = fn(&mut Resolved, bool);

fn scale_price(r: &mut Resolved, high: bool) {
    let f = if high { 1.25 } else { 0.75 };
    r.gpu_hour *= f;
}

fn scale_api(r: &mut Resolved, high: bool) {
    let f = if high { 1.5 } else { 0.5 };
    r.api.price_in *= f;
    r.api.price_out *= f;
}

fn scale_tps(r: &mut Resolved, high: bool) {
    r.tps = if high {
        (r.tps * 1.25).min(r.curve.fastest())
    } else {
        r.tps * 0.75
    };
}

fn move_util(r: &mut Resolved, high: bool) {
    r.policy.util = if high {
        (r.policy.util + 0.1).min(1.0)
    } else {
        (r.policy.util - 0.2).max(0.05)
    };
}

fn scale_ops(r: &mut Resolved, high: bool) {
    r.ops_monthly *= if high { 2.0 } else { 0.5 };
}

fn scale_prefill(r: &mut Resolved, high: bool) {
    r.prefill *= if high { 2.0 } else { 0.5 };
}

fn scale_cache_cost(r: &mut Resolved, high: bool) {
    r.cache_cost = if high {
        (r.cache_cost * 2.0).min(1.0)
    } else {
        r.cache_cost * 0.5
    };
}

fn scale_misses(r: &mut Resolved, high: bool) {
    let input = r.volumes.uncached + r.volumes.cached;
    let misses = if high {
        (r.volumes.uncached * 2.0).min(input)
    } else {
        r.volumes.uncached * 0.5
    };
    r.volumes.uncached = misses;
    r.volumes.cached = input - misses;
}

const LEVERS: [(&str, &str, &str, &str, Lever); 8] = [
    ("gpu_hour", "GPU-hour price", "×0.75", "×1.25", scale_price),
    ("api_price", "API prices", "×0.5", "×1.5", scale_api),
    ("tps", "Interactivity target", "×0.75", "×1.25", scale_tps),
    ("util", "Target utilisation", "−0.2", "+0.1", move_util),
    ("ops", "Operations cost", "×0.5", "×2", scale_ops),
    ("prefill", "Prefill rate P", "×0.5", "×2", scale_prefill),
    (
        "cache_cost",
        "Cache-hit cost ratio k",
        "×0.5",
        "×2",
        scale_cache_cost,
    ),
    ("cache_misses", "Cache misses", "×0.5", "×2", scale_misses),
];

fn gap(r: &Resolved) -> Option<f64> {
    let c = r.costing().ok()?;
    Some(c.self_host(1.0).total() - c.rent(1.0))
}

/// Every lever's swing around `base` (self-hosting minus renting as given), largest first.
pub fn sensitivity(resolved: &Resolved, base: f64) -> Vec<Sensitivity> {
    let mut rows = Vec::with_capacity(LEVERS.len() + 1);
    if let Ok(c) = resolved.costing() {
        let at = |s: f64| c.self_host(s).total() - c.rent(s);
        rows.push(Sensitivity {
            key: "volume".into(),
            label: "Monthly volume".into(),
            low_label: "×0.5".into(),
            high_label: "×2".into(),
            low: Some(at(0.5)),
            high: Some(at(2.0)),
            base,
        });
    }
    for (key, label, low_label, high_label, lever) in LEVERS {
        let moved = |high: bool| {
            let mut r = resolved.clone();
            lever(&mut r, high);
            gap(&r)
        };
        rows.push(Sensitivity {
            key: key.into(),
            label: label.into(),
            low_label: low_label.into(),
            high_label: high_label.into(),
            low: moved(false),
            high: moved(true),
            base,
        });
    }
    rows.sort_by(|a, b| b.effect().total_cmp(&a.effect()));
    rows
}
