//! Chart series as plain data: the app draws them (plotters on the server and in WASM).

use serde::{Deserialize, Serialize};

use crate::costing::Costing;
use crate::curve::ThroughputCurve;
use crate::gpu_time::GpuTime;
use crate::units::{Mix, Volumes, MILLION};

/// Points on the monthly cost vs monthly volume chart.
pub const VOLUME_POINTS: usize = 41;
/// Points on each $/M vs interactivity line.
pub const TPS_POINTS: usize = 25;

/// Monthly cost of each option at one monthly volume.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct VolumePoint {
    /// All tokens per month.
    pub tokens: f64,
    /// Renting, $ per month.
    pub rent: f64,
    /// Self-hosting (a staircase: whole replicas), $ per month.
    pub self_host: f64,
    /// Best hybrid, $ per month (`None` when hybrid is off).
    pub hybrid: Option<f64>,
}

/// Monthly cost vs monthly volume, log-spaced around the user's volume and the break-even.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CostVsVolume {
    /// The points, smallest volume first.
    pub points: Vec<VolumePoint>,
    /// The user's volume.
    pub user_tokens: f64,
    /// The break-even volume, when there is one.
    pub break_even_tokens: Option<f64>,
    /// Where each plan is cheapest along the volume, bands narrower than the tie folded into
    /// their neighbours ([`crate::decision::material`]): the chart shades them.
    #[serde(default)]
    pub bands: Vec<crate::decision::Band>,
}

/// One point of a $/M vs interactivity line.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TpsPoint {
    /// Output tokens/s per user.
    pub tps: f64,
    /// Self-hosted marginal $ per million tokens, blended over the user's mix.
    pub usd_per_mtok: f64,
    /// True below the slowest measured point (throughput held at that point's).
    pub clamped: bool,
}

/// $/M vs interactivity for one curve.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CurveSeries {
    /// Curve id (`own` for the user's points).
    pub curve: String,
    /// Legend label.
    pub label: String,
    /// The GPU-hour price the line is priced at.
    pub gpu_hour_usd: f64,
    /// True for the curve the scenario uses.
    pub selected: bool,
    /// Slowest measured speed: the region below is clamped.
    pub slowest_tps: f64,
    /// The points, slowest first.
    pub points: Vec<TpsPoint>,
}

/// A curve to draw on the interactivity chart.
#[derive(Debug, Clone)]
pub struct CurveInput {
    /// Curve id.
    pub id: String,
    /// Legend label.
    pub label: String,
    /// The curve.
    pub curve: ThroughputCurve,
    /// Its measured mix.
    pub mix: Mix,
    /// The price it is drawn at.
    pub gpu_hour: f64,
    /// The scenario's curve.
    pub selected: bool,
}

/// Log-spaced volumes around the user's volume and the break-even, with each option's cost.
pub fn cost_vs_volume(c: &Costing, break_even: Option<f64>, hybrid: bool) -> CostVsVolume {
    let user = c.volumes.total();
    let mut points = Vec::new();
    if user > 0.0 {
        let be = break_even.unwrap_or(user);
        let lo = user.min(be) / 30.0;
        let hi = user.max(be) * 30.0;
        let step = (hi / lo).ln() / (VOLUME_POINTS - 1) as f64;
        for i in 0..VOLUME_POINTS {
            let tokens = lo * (step * i as f64).exp();
            let scale = tokens / user;
            // Self-hosting is where the hybrid's search starts: costed once for both.
            let (own, best) = c.self_host_and_hybrid_if(scale, hybrid);
            points.push(VolumePoint {
                tokens,
                rent: c.rent(scale),
                self_host: own.total(),
                hybrid: best.map(|b| b.total()),
            });
        }
    }
    CostVsVolume {
        points,
        user_tokens: user,
        break_even_tokens: break_even,
        bands: Vec::new(),
    }
}

/// $/M vs interactivity for each curve, from half the slowest point to the fastest, blended over
/// the user's `volumes` with assumptions `prefill` and `cache_cost`.
pub fn cost_vs_tps(
    curves: &[CurveInput],
    volumes: &Volumes,
    prefill: f64,
    cache_cost: f64,
) -> Vec<CurveSeries> {
    let blend = volumes.mix().unwrap_or(Mix {
        uncached: 0.0,
        cached: 0.0,
        output: 1.0,
    });
    curves
        .iter()
        .map(|ci| {
            let (lo, hi) = (ci.curve.slowest() * 0.5, ci.curve.fastest());
            let points = (0..TPS_POINTS)
                .filter_map(|i| {
                    let tps = lo + (hi - lo) * i as f64 / (TPS_POINTS - 1) as f64;
                    let reading = ci.curve.at(tps).ok()?;
                    let g =
                        GpuTime::derive(reading.tokens_per_s_per_gpu, &ci.mix, prefill, cache_cost)
                            .ok()?;
                    Some(TpsPoint {
                        tps,
                        usd_per_mtok: ci.gpu_hour / 3600.0 / g.throughput_at(&blend) * MILLION,
                        clamped: reading.clamped,
                    })
                })
                .collect();
            CurveSeries {
                curve: ci.id.clone(),
                label: ci.label.clone(),
                gpu_hour_usd: ci.gpu_hour,
                selected: ci.selected,
                slowest_tps: ci.curve.slowest(),
                points,
            }
        })
        .collect()
}
