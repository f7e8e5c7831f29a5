//! From a curve's throughput at its measured mix to GPU time per token of each class.
//!
//! Two explicit assumptions: the prefill rate `P` (uncached input tokens/s per GPU) and the
//! cache-hit cost ratio `k` (GPU time of a cached input token over an uncached one). Then
//! `g_u = 1/P`, `g_c = k/P`, and the decode time `g_o` is whatever makes the model reproduce the
//! curve exactly at its own mix: `1/T = f_u/P + f_c*k/P + f_o*g_o`.

use serde::{Deserialize, Serialize};

use crate::error::GpuTimeError;
use crate::units::{Mix, Volumes, MILLION};

/// Accepted range of the prefill rate, uncached input tokens/s per GPU.
pub const PREFILL_RANGE: (f64, f64) = (1.0, 1e8);

/// GPU-seconds per token of each class.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GpuTime {
    /// GPU-seconds per uncached input token, `1/P`.
    pub uncached: f64,
    /// GPU-seconds per cached input token, `k/P`.
    pub cached: f64,
    /// GPU-seconds per output token at the target speed, `1/D(s)`.
    pub output: f64,
}

impl GpuTime {
    /// Derives per-class GPU time from throughput `throughput` (tokens/s per GPU) measured at
    /// `mix`, with prefill rate `prefill` and cache-hit cost ratio `cache_cost`.
    pub fn derive(
        throughput: f64,
        mix: &Mix,
        prefill: f64,
        cache_cost: f64,
    ) -> Result<Self, GpuTimeError> {
        if !(prefill.is_finite() && (PREFILL_RANGE.0..=PREFILL_RANGE.1).contains(&prefill)) {
            return Err(GpuTimeError::BadAssumption {
                name: "prefill",
                value: prefill,
                range: "from 1 to 100,000,000 tokens/s per GPU",
            });
        }
        if !(cache_cost.is_finite() && (0.0..=1.0).contains(&cache_cost)) {
            return Err(GpuTimeError::BadAssumption {
                name: "cache_cost",
                value: cache_cost,
                range: "from 0 to 1",
            });
        }
        if !(mix.output > 0.0) {
            return Err(GpuTimeError::NoOutputInCurveMix);
        }
        let input_time = (mix.uncached + cache_cost * mix.cached) / prefill;
        let bracket = 1.0 / throughput - input_time;
        // A decode time under a millionth of the average is not a measurement but a rounding
        // artefact of assumptions that (almost) exhaust the GPU: treat it as a contradiction.
        if !(bracket > 1e-6 / throughput) || !bracket.is_finite() {
            return Err(GpuTimeError::AssumptionsContradictCurve {
                prefill,
                cache_cost,
                throughput,
                min_prefill: throughput * (mix.uncached + cache_cost * mix.cached),
            });
        }
        Ok(Self {
            uncached: 1.0 / prefill,
            cached: cache_cost / prefill,
            output: bracket / mix.output,
        })
    }

    /// GPU-seconds a month of `volumes` needs.
    pub fn demand(&self, volumes: &Volumes) -> f64 {
        volumes.uncached * self.uncached
            + volumes.cached * self.cached
            + volumes.output * self.output
    }

    /// Total tokens/s one GPU processes at `mix`.
    pub fn throughput_at(&self, mix: &Mix) -> f64 {
        1.0 / (mix.uncached * self.uncached + mix.cached * self.cached + mix.output * self.output)
    }

    /// Marginal $ per million tokens of each class at full use, at `gpu_hour` $ per GPU-hour.
    pub fn usd_per_mtok(&self, gpu_hour: f64) -> [f64; 3] {
        let per_second = gpu_hour / 3600.0 * MILLION;
        [
            per_second * self.uncached,
            per_second * self.cached,
            per_second * self.output,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reproduces_the_curve_at_its_own_mix() {
        let mix = Mix::from_parts(0.03, 0.96, 0.01).expect("mix");
        for (p, k) in [(50_000.0, 0.1), (1e6, 0.0), (20_000.0, 0.02)] {
            let g = GpuTime::derive(10_000.0, &mix, p, k).expect("consistent");
            assert!((g.throughput_at(&mix) - 10_000.0).abs() < 1e-6);
        }
    }

    #[test]
    fn contradiction_names_the_minimum_prefill() {
        let mix = Mix::from_parts(0.5, 0.0, 0.5).expect("mix");
        let err = GpuTime::derive(10_000.0, &mix, 1_000.0, 0.1).expect_err("contradiction");
        match err {
            GpuTimeError::AssumptionsContradictCurve { min_prefill, .. } => {
                assert!((min_prefill - 5_000.0).abs() < 1e-9)
            }
            other => panic!("unexpected {other:?}"),
        }
    }
}
