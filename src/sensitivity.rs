//! Sensitivity: each main input moved over a low/high range, and what that does to
//! (self-hosting minus renting), sorted by effect for a tornado chart.
//!
//! | lever | low | high |
//! |---|---|---|
//! | monthly volume | ×0.5 | ×2 |
//! | GPU-hour price | ×0.75 | ×1.25 |
//! | API prices (all classes) | ×0.5 | ×1.5 |
//! | interactivity target | ×0.75 | ×1.25, at most the curve's fastest point |
//!
//! A setting held back by its bound is labelled with the setting actually used.
//! | target utilisation | −0.2 (at least 0.05) | +0.1 (at most 1) |
//! | operations cost | ×0.5 | ×2 |
//! | prefill rate `P` | ×0.5 | ×2 |
//! | cache-hit cost ratio `k` | ×0.5 | ×2 (at most 1) |
//! | cache misses (uncached share of input) | ×0.5 | ×2 (at most all input) |

use serde::{Deserialize, Serialize};

use crate::decision::Knob;
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

/// Moves a knob by the factor of its side, with the bounds its value keeps.
fn by_factor(knob: Knob, r: &mut Resolved, f: f64) {
    knob.scale(r, f);
}

fn scale_price(r: &mut Resolved, high: bool) {
    by_factor(Knob::GpuHour, r, if high { 1.25 } else { 0.75 });
}

fn scale_api(r: &mut Resolved, high: bool) {
    by_factor(Knob::ApiPrices, r, if high { 1.5 } else { 0.5 });
}

fn scale_tps(r: &mut Resolved, high: bool) {
    let tps = if high {
        (r.tps * 1.25).min(r.curve.fastest())
    } else {
        r.tps * 0.75
    };
    Knob::Tps.set(r, tps);
}

fn move_util(r: &mut Resolved, high: bool) {
    let util = if high {
        (r.policy.util + 0.1).min(1.0)
    } else {
        (r.policy.util - 0.2).max(0.05)
    };
    Knob::Util.set(r, util);
}

fn scale_ops(r: &mut Resolved, high: bool) {
    by_factor(Knob::Ops, r, if high { 2.0 } else { 0.5 });
}

fn scale_prefill(r: &mut Resolved, high: bool) {
    by_factor(Knob::Prefill, r, if high { 2.0 } else { 0.5 });
}

fn scale_cache_cost(r: &mut Resolved, high: bool) {
    let k = if high {
        (r.cache_cost * 2.0).min(1.0)
    } else {
        r.cache_cost * 0.5
    };
    Knob::CacheCost.set(r, k);
}

fn scale_misses(r: &mut Resolved, high: bool) {
    by_factor(Knob::CacheMisses, r, if high { 2.0 } else { 0.5 });
}

/// How a lever's setting is written: as a factor (`×0.5`) or a step (`+0.1`).
#[derive(Clone, Copy)]
enum Step {
    Factor(f64, f64),
    Add(f64, f64),
}

/// The tornado's levers: the input each moves (its key, words and value: [`Knob`]), how far,
/// and how.
const LEVERS: [(Knob, Step, Lever); 8] = [
    (Knob::GpuHour, Step::Factor(0.75, 1.25), scale_price),
    (Knob::ApiPrices, Step::Factor(0.5, 1.5), scale_api),
    (Knob::Tps, Step::Factor(0.75, 1.25), scale_tps),
    (Knob::Util, Step::Add(-0.2, 0.1), move_util),
    (Knob::Ops, Step::Factor(0.5, 2.0), scale_ops),
    (Knob::Prefill, Step::Factor(0.5, 2.0), scale_prefill),
    (Knob::CacheCost, Step::Factor(0.5, 2.0), scale_cache_cost),
    (Knob::CacheMisses, Step::Factor(0.5, 2.0), scale_misses),
];

/// `×0.75`, `+0.1`; with the setting actually used when a bound held the lever back
/// (`×1.07 (capped)`), or `not moved` when it could not move at all.
fn setting(step: Step, high: bool, before: f64, after: f64) -> String {
    let trim = |v: f64| crate::format::significant(v, 3);
    match step {
        Step::Factor(low, hi) => {
            let nominal = if high { hi } else { low };
            if before == 0.0 || (after / before - nominal).abs() < 1e-9 {
                format!("×{}", trim(nominal))
            } else if (after - before).abs() < 1e-12 * before.abs().max(1.0) {
                "not moved (at its bound)".to_owned()
            } else {
                format!(
                    "×{} (capped; ×{} nominal)",
                    trim(after / before),
                    trim(nominal)
                )
            }
        }
        Step::Add(low, hi) => {
            let nominal = if high { hi } else { low };
            let sign = |v: f64| {
                if v < 0.0 {
                    format!("−{}", trim(-v))
                } else {
                    format!("+{}", trim(v))
                }
            };
            let moved = after - before;
            if (moved - nominal).abs() < 1e-9 {
                sign(nominal)
            } else if moved.abs() < 1e-12 {
                "not moved (at its bound)".to_owned()
            } else {
                format!("{} (capped; {} nominal)", sign(moved), sign(nominal))
            }
        }
    }
}

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
            key: Knob::Volume.key().into(),
            label: Knob::Volume.label().into(),
            low_label: "×0.5".into(),
            high_label: "×2".into(),
            low: Some(at(0.5)),
            high: Some(at(2.0)),
            base,
        });
    }
    for (knob, step, lever) in LEVERS {
        let read = |r: &Resolved| knob.value(r).unwrap_or(0.0);
        let moved = |high: bool| {
            let mut r = resolved.clone();
            lever(&mut r, high);
            (gap(&r), setting(step, high, read(resolved), read(&r)))
        };
        let ((low, low_label), (high, high_label)) = (moved(false), moved(true));
        rows.push(Sensitivity {
            key: knob.key().into(),
            label: knob.label().into(),
            low_label,
            high_label,
            low,
            high,
            base,
        });
    }
    rows.sort_by(|a, b| b.effect().total_cmp(&a.effect()));
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capped_setting_says_what_was_used() {
        assert_eq!(
            setting(Step::Factor(0.75, 1.25), true, 100.0, 125.0),
            "×1.25"
        );
        assert_eq!(
            setting(Step::Factor(0.75, 1.25), true, 142.9, 150.0),
            "×1.05 (capped; ×1.25 nominal)"
        );
        assert_eq!(
            setting(Step::Factor(0.5, 2.0), true, 1.0, 1.0),
            "not moved (at its bound)"
        );
        assert_eq!(setting(Step::Add(-0.2, 0.1), true, 0.8, 0.9), "+0.1");
        assert_eq!(
            setting(Step::Add(-0.2, 0.1), true, 0.95, 1.0),
            "+0.05 (capped; +0.1 nominal)"
        );
        assert_eq!(setting(Step::Add(-0.2, 0.1), false, 0.8, 0.6), "−0.2");
    }
}
