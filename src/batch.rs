//! Batch traffic: tokens sent without anyone waiting for them.
//!
//! At the API they are priced at the offer's batch discount, on every class
//! ([`crate::rent::ApiPricing::batch_saving`]). On the self-hosted side they are served at the
//! curve's throughput-optimal point (its highest tokens/s per GPU, whatever the speed per user)
//! and fill the hours the interactive traffic leaves idle: the fleet is sized for the week with
//! the batch work poured into its quietest hours, level by level, so that batch raises the
//! fleet only once the valleys are full.
//!
//! Two simplifications, both stated on the page: batch tokens have the workload's mix, and the
//! ranges of the sureness sample move batch's GPU time with the interactive traffic's (the
//! ratio of their output times and the filled week are those of the inputs as given).

use serde::{Deserialize, Serialize};

use crate::curve::ThroughputCurve;
use crate::gpu_time::GpuTime;
use crate::profile::{LoadProfile, ProfileSpec};
use crate::units::{Mix, Volumes};

/// How the batch share is served by a self-hosted fleet.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BatchServing {
    /// Share of every class's tokens sent as batch, 0 to 1.
    pub share: f64,
    /// GPU time of an output token at the throughput-optimal point over that at the target
    /// speed (at most 1).
    pub output_ratio: f64,
    /// Output tokens/s per user at the throughput-optimal point (0 at an Offline rate: no
    /// per-user speed applies).
    pub tps: f64,
    /// True when batch is served at the curve's Offline result (its measured rate without a
    /// latency bound), higher than any point of the curve.
    pub offline: bool,
}

impl BatchServing {
    /// Batch traffic of `share` on `curve` (measured at `mix`), whose interactive traffic takes
    /// `interactive` GPU time a token: the throughput-optimal point's output time relative to it.
    /// `offline`, the curve's Offline result in tokens/s per GPU at the same mix, is that point
    /// where it is higher than every point of the curve (batch waits: no latency bound).
    pub fn new(
        share: f64,
        curve: &ThroughputCurve,
        mix: &Mix,
        (prefill, cache_cost): (f64, f64),
        offline: Option<f64>,
        interactive: &GpuTime,
    ) -> Self {
        if !(share > 0.0) {
            return Self {
                share: 0.0,
                output_ratio: 1.0,
                tps: 0.0,
                offline: false,
            };
        }
        let best = curve
            .points()
            .iter()
            .max_by(|a, b| a.tokens_per_s_per_gpu.total_cmp(&b.tokens_per_s_per_gpu))
            .map(|p| (p.tokens_per_s_per_gpu, p.tps, false));
        let best = match (best, offline.filter(|t| t.is_finite() && *t > 0.0)) {
            (Some((t, _, _)), Some(o)) if o > t => Some((o, 0.0, true)),
            (None, Some(o)) => Some((o, 0.0, true)),
            (b, _) => b,
        };
        let (ratio, tps, offline) = match best {
            Some((t, tps, offline)) => {
                let ratio = GpuTime::derive(t, mix, prefill, cache_cost)
                    .ok()
                    .filter(|g| interactive.output > 0.0 && g.output.is_finite())
                    .map_or(1.0, |g| (g.output / interactive.output).min(1.0));
                (ratio, tps, offline)
            }
            None => (1.0, 0.0, false),
        };
        Self {
            share,
            output_ratio: ratio,
            tps,
            offline,
        }
    }

    /// The GPU time a token of the workload takes, batch and interactive together: the
    /// output time is the interactive one for `1 - share` of the tokens and the
    /// throughput-optimal one for the rest. Without batch traffic, `g` itself.
    pub fn serve(&self, g: GpuTime) -> GpuTime {
        if self.share > 0.0 {
            GpuTime {
                output: g.output * (1.0 - self.share * (1.0 - self.output_ratio)),
                ..g
            }
        } else {
            g
        }
    }

    /// GPU-seconds a month the batch share of `volumes` takes at the throughput-optimal point,
    /// `interactive` being the GPU time a token takes at the target speed.
    pub fn batch_seconds(&self, interactive: &GpuTime, volumes: &Volumes) -> f64 {
        let at_best = GpuTime {
            output: interactive.output * self.output_ratio,
            ..*interactive
        };
        self.share * at_best.demand(volumes)
    }

    /// The week the fleet serves: the interactive traffic in `profile`'s shape, the batch work
    /// poured into the quietest hours (see [`fill`]). Without batch traffic, `profile` itself.
    pub fn week(
        &self,
        profile: &LoadProfile,
        interactive: &GpuTime,
        volumes: &Volumes,
    ) -> LoadProfile {
        let batch = self.batch_seconds(interactive, volumes);
        let all = self.serve(*interactive).demand(volumes);
        if !(self.share > 0.0 && batch > 0.0 && all > 0.0) {
            return profile.clone();
        }
        LoadProfile::from_spec(&ProfileSpec::Custom(fill(profile.weights(), batch / all)))
            .unwrap_or_else(|| profile.clone())
    }
}

/// The weights of a week whose share `batch` of the work can run at any hour, the rest in the
/// shape of `weights` (mean 1): the rest keeps its shape and the batch work raises the quietest
/// hours to a common level, the lowest that holds it. The result has mean 1; its peak is the
/// interactive peak until the valleys are full, then the level.
pub fn fill(weights: &[f64], batch: f64) -> Vec<f64> {
    let batch = batch.clamp(0.0, 1.0);
    let rest: Vec<f64> = weights.iter().map(|w| w * (1.0 - batch)).collect();
    let mut sorted = rest.clone();
    sorted.sort_by(f64::total_cmp);
    let poured = batch * weights.len() as f64;
    // With the k quietest hours raised to `level`: k * level = poured + their own load, and
    // the level stays under the next hour's load.
    let mut below = 0.0;
    let mut level = f64::INFINITY;
    for (k, w) in sorted.iter().enumerate() {
        below += w;
        let l = (poured + below) / (k + 1) as f64;
        if sorted.get(k + 1).is_none_or(|next| l <= *next) {
            level = l;
            break;
        }
    }
    rest.into_iter().map(|w| w.max(level)).collect()
}

/// What batch traffic does to the plans, for the bill.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BatchReport {
    /// Share of every class's tokens sent as batch.
    pub share: f64,
    /// The API's discount on batch tokens in force (0 when the offer states none).
    pub discount: f64,
    /// False when the offer states no batch price and the link gives none: batch tokens are
    /// then priced as the others.
    pub discount_stated: bool,
    /// What the discount takes off renting's bill, $ per month.
    pub rent_saving_usd: f64,
    /// Output tokens/s per user at the curve's throughput-optimal point, where batch is served
    /// (0 at the Offline rate, where no per-user speed applies).
    pub tps: f64,
    /// True when batch is served at the curve's Offline result: its measured rate without a
    /// latency bound, higher than any point of the curve.
    #[serde(default)]
    pub offline: bool,
    /// GPU-hours a month the batch work takes there.
    pub gpu_hours: f64,
    /// GPU-hours a month of the fleet held for the other traffic alone that batch may fill:
    /// its serving replicas up to the target utilisation, less the other traffic's work (the
    /// spare replicas and the utilisation headroom stay free).
    pub idle_gpu_hours: f64,
    /// Of those, the GPU-hours batch work fills.
    pub absorbed_gpu_hours: f64,
    /// GPU-hours a month the fleet grows by for batch work the idle hours do not hold (the
    /// new replicas' headroom and spares included).
    pub added_gpu_hours: f64,
}

impl BatchReport {
    /// The share of the interactive fleet's idle time batch fills.
    pub fn absorbed_share(&self) -> f64 {
        if self.idle_gpu_hours > 0.0 {
            (self.absorbed_gpu_hours / self.idle_gpu_hours).clamp(0.0, 1.0)
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::CurvePoint;

    fn mean(w: &[f64]) -> f64 {
        w.iter().sum::<f64>() / w.len() as f64
    }

    #[test]
    fn batch_fills_the_valleys_before_it_raises_the_peak() {
        // Four hours at 0.5, 1, 1, 1.5: a fifth of the work as batch.
        let w = [0.5, 1.0, 1.0, 1.5];
        let f = fill(&w, 0.2);
        // The rest at 0.4, 0.8, 0.8, 1.2; 0.8 of batch poured: the three quiet hours to
        // (0.4 + 0.8 + 0.8 + 0.8) / 3, under the busiest hour's 1.2, which keeps its load.
        assert!((mean(&f) - 1.0).abs() < 1e-12, "{f:?}");
        let level = 2.8 / 3.0;
        for (got, want) in f.iter().zip([level, level, level, 1.2]) {
            assert!((got - want).abs() < 1e-12, "{f:?}");
        }
        // More batch than the valleys hold: every hour at the level, flat.
        let f = fill(&w, 0.9);
        assert!(f.iter().all(|x| (x - 1.0).abs() < 1e-12), "{f:?}");
        // None: the shape as it was.
        assert_eq!(fill(&w, 0.0), w.to_vec());
    }

    #[test]
    fn batch_is_served_at_the_throughput_optimal_point() {
        let curve = ThroughputCurve::new(vec![
            CurvePoint::measured(20.0, 8_000.0),
            CurvePoint::measured(100.0, 2_000.0),
        ])
        .expect("curve");
        let mix = Mix::from_parts(0.1, 0.8, 0.1).expect("mix");
        let at = |t| GpuTime::derive(t, &mix, 50_000.0, 0.1).expect("gpu time");
        let interactive = at(2_000.0);
        let b = BatchServing::new(0.25, &curve, &mix, (50_000.0, 0.1), None, &interactive);
        assert_eq!(b.tps, 20.0);
        assert!((b.output_ratio - at(8_000.0).output / interactive.output).abs() < 1e-12);
        // A quarter of the output at the fast point's time, the rest at the target's.
        let served = b.serve(interactive);
        let want = 0.75 * interactive.output + 0.25 * at(8_000.0).output;
        assert!((served.output - want).abs() < 1e-15);
        assert_eq!(served.uncached, interactive.uncached);
        // No batch: nothing changes.
        let none = BatchServing::new(0.0, &curve, &mix, (50_000.0, 0.1), None, &interactive);
        assert_eq!(none.serve(interactive), interactive);
    }
    #[test]
    fn an_offline_rate_above_the_curve_serves_batch() {
        let curve = ThroughputCurve::new(vec![
            crate::curve::CurvePoint::measured(10.0, 4_000.0),
            crate::curve::CurvePoint::measured(50.0, 1_000.0),
        ])
        .expect("curve");
        let mix = Mix::from_parts(0.0, 0.0, 1.0).expect("mix");
        let g = GpuTime::derive(1_000.0, &mix, 50_000.0, 0.1).expect("g");
        let at = |offline| BatchServing::new(0.5, &curve, &mix, (50_000.0, 0.1), offline, &g);
        // Output only: the output time is 1/T, so the ratio is the rates' inverse ratio.
        let point = at(None);
        assert!(!point.offline && point.tps == 10.0);
        assert!((point.output_ratio - 0.25).abs() < 1e-12);
        let offline = at(Some(8_000.0));
        assert!(offline.offline && offline.tps == 0.0);
        assert!((offline.output_ratio - 0.125).abs() < 1e-12);
        // An Offline result below the curve's best point does not slow batch down.
        assert_eq!(at(Some(3_000.0)), point);
    }
}
