//! The power view: the unit of the AgentPerf headline (tokens/s per MW of accelerator power) for
//! the chosen operating point, and the reverse, a published headline decoded into tokens/s per
//! GPU and so into $ per million tokens at a GPU-hour price, per class at the headline's mix.

use serde::{Deserialize, Serialize};

use crate::gpu_time::GpuTime;
use crate::units::{Mix, PerMtok, Volumes};

/// Which power a per-MW figure divides by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum PowerDefinition {
    /// GPU, die and HBM, as AgentPerf measures: not at the wall, not nominal TDP.
    Accelerator,
    /// All-in per GPU: host, network and cooling share included.
    AllIn,
    /// A data sheet's total board power: more than AgentPerf's accelerator measure, so per-MW
    /// figures decoded with it come out low (and a headline decoded with it, high per GPU).
    Board,
}

/// The chosen operating point in per-MW units.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OperatingPoint {
    /// Which power the figures divide by.
    pub power_definition: PowerDefinition,
    /// kW per GPU used.
    pub kw_per_gpu: f64,
    /// Source key of the power figure.
    pub kw_source: String,
    /// Total tokens/s per GPU at the user's mix and target speed.
    pub tokens_per_s_per_gpu: f64,
    /// Total tokens/s per MW.
    pub tokens_per_s_per_mw: f64,
    /// Users decoding at the same instant per MW at the target speed (output tokens/s per MW
    /// over the target speed). Not the benchmark's concurrency, which also counts users waiting
    /// for their first token and between turns (Little's law over the whole request).
    pub users_per_mw: f64,
}

/// A published tokens/s-per-MW headline turned into money.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HeadlineDecode {
    /// The headline, total tokens/s per MW.
    pub tokens_per_s_per_mw: f64,
    /// What it means per GPU at the chip's power.
    pub tokens_per_s_per_gpu: f64,
    /// The GPU-hour price it is valued at.
    pub gpu_hour_usd: f64,
    /// $ per million tokens over all tokens, as a headline-style figure would say.
    pub usd_per_mtok_all: f64,
    /// Per class at the headline's own mix, with the user's `P` and `k` (`None` when they
    /// contradict the headline's throughput).
    pub per_mtok: Option<PerMtok>,
    /// Per class for the user's own mix and volume.
    pub per_mtok_user_mix: Option<PerMtok>,
    /// Why there is no per-class split, when there is none.
    pub note: Option<String>,
}

/// The chosen point in per-MW units; `None` when the mix costs the GPU no time at all (only
/// cached input with a cache-hit cost `k` of 0): a throughput without bound has no per-MW figure.
pub fn operating_point(
    gpu_time: &GpuTime,
    user_mix: &Mix,
    tps: f64,
    kw_per_gpu: f64,
    power_definition: PowerDefinition,
    kw_source: &str,
) -> Option<OperatingPoint> {
    let tokens_per_s_per_gpu = gpu_time.throughput_at(user_mix);
    if !tokens_per_s_per_gpu.is_finite() || !(kw_per_gpu > 0.0) || !(tps > 0.0) {
        return None;
    }
    let users_per_gpu = tokens_per_s_per_gpu * user_mix.output / tps;
    Some(OperatingPoint {
        power_definition,
        kw_per_gpu,
        kw_source: kw_source.to_owned(),
        tokens_per_s_per_gpu,
        tokens_per_s_per_mw: tokens_per_s_per_gpu / kw_per_gpu * 1_000.0,
        users_per_mw: users_per_gpu / kw_per_gpu * 1_000.0,
    })
}

/// Decodes a headline of `tokens_per_s_per_mw` on a GPU of `kw_per_gpu`, measured at
/// `headline_mix`, at `gpu_hour` $ per GPU-hour.
pub fn decode_headline(
    tokens_per_s_per_mw: f64,
    kw_per_gpu: f64,
    gpu_hour: f64,
    headline_mix: &Mix,
    user_volumes: &Volumes,
    prefill: f64,
    cache_cost: f64,
) -> HeadlineDecode {
    let tokens_per_s_per_gpu = tokens_per_s_per_mw * kw_per_gpu / 1_000.0;
    let usd_per_mtok_all = gpu_hour / (tokens_per_s_per_gpu * 3600.0) * 1e6;
    let split = GpuTime::derive(tokens_per_s_per_gpu, headline_mix, prefill, cache_cost);
    let (per_mtok, per_mtok_user_mix, note) = match split {
        Ok(g) => {
            let [u, c, o] = g.usd_per_mtok(gpu_hour);
            let at_headline = Volumes::from_mix(1.0, headline_mix);
            (
                Some(PerMtok::with_blend(u, c, o, &at_headline)),
                Some(PerMtok::with_blend(u, c, o, user_volumes)),
                None,
            )
        }
        Err(e) => (None, None, Some(e.to_string())),
    };
    HeadlineDecode {
        tokens_per_s_per_mw,
        tokens_per_s_per_gpu,
        gpu_hour_usd: gpu_hour,
        usd_per_mtok_all,
        per_mtok,
        per_mtok_user_mix,
        note,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agentperf_headline_per_gpu() {
        // published-figures.md, aa-agentperf: 150 M tokens/s per MW, 4x GB300 at 5-6 kW,
        // "≈ 190,000–225,000 per GPU".
        let mix = Mix::from_parts(0.0298, 0.9635, 0.0067).expect("mix");
        for (kw, lo, hi) in [(1.25, 185_000.0, 190_000.0), (1.5, 224_000.0, 226_000.0)] {
            let d = decode_headline(150e6, kw, 2.31, &mix, &Volumes::default(), 5e5, 0.1);
            assert!(d.tokens_per_s_per_gpu >= lo && d.tokens_per_s_per_gpu <= hi);
        }
    }
}
