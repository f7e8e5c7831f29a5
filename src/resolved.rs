//! A scenario resolved against the dataset: plain numbers, ready to cost.

use crate::batch::BatchServing;
use crate::costing::Costing;
use crate::curve::{Reading, ThroughputCurve};
use crate::error::{CurveError, GpuTimeError, Problem};
use crate::fleet::FleetPolicy;
use crate::gpu_time::GpuTime;
use crate::profile::LoadProfile;
use crate::rent::ApiPricing;
use crate::units::{Mix, Volumes};

/// Numeric inputs of one evaluation; levers of the sensitivity analysis change one at a time.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    /// Monthly volumes.
    pub volumes: Volumes,
    /// API prices.
    pub api: ApiPricing,
    /// The throughput curve.
    pub curve: ThroughputCurve,
    /// The mix the curve was measured at.
    pub curve_mix: Mix,
    /// Target output tokens/s per user.
    pub tps: f64,
    /// Prefill rate `P`.
    pub prefill: f64,
    /// Cache-hit cost ratio `k`.
    pub cache_cost: f64,
    /// Weekly profile.
    pub profile: LoadProfile,
    /// Fleet policy.
    pub policy: FleetPolicy,
    /// $ per GPU-hour.
    pub gpu_hour: f64,
    /// Operations, $ per month.
    pub ops_monthly: f64,
    /// Operations that grow with the fleet, $ per GPU per month.
    pub ops_per_gpu: f64,
    /// Share of the overflow's cached input still cached at the API.
    pub overflow_warm: f64,
    /// Share of every class's tokens sent as batch traffic ([`crate::batch`]).
    pub batch: f64,
    /// The curve's Offline result, total tokens/s per GPU at its mix, where measured: the rate
    /// batch traffic is served at when above the curve's points.
    pub batch_rate: Option<f64>,
}

/// The problem a curve error is, named by the parameter that fixes it.
pub fn curve_problem(e: &CurveError, tps: f64) -> Problem {
    Problem::new("tps", tps, e.to_string())
}

/// The problem a GPU-time error is, named by the parameter that fixes it.
pub fn gpu_time_problem(e: &GpuTimeError, prefill: f64) -> Problem {
    match e {
        GpuTimeError::BadAssumption { name, value, .. } => Problem::new(name, value, e.to_string()),
        GpuTimeError::NoOutputInCurveMix => Problem::new("curve_mix", "", e.to_string()),
        GpuTimeError::AssumptionsContradictCurve { .. } => {
            Problem::new("prefill", prefill, e.to_string())
        }
    }
}

impl Resolved {
    /// The curve read at the target speed.
    pub fn reading(&self) -> Result<Reading, Problem> {
        self.curve
            .at(self.tps)
            .map_err(|e| curve_problem(&e, self.tps))
    }

    /// Per-class GPU time of the interactive traffic, at the target speed.
    pub fn interactive_time(&self) -> Result<(Reading, GpuTime), Problem> {
        let reading = self.reading()?;
        let g = GpuTime::derive(
            reading.tokens_per_s_per_gpu,
            &self.curve_mix,
            self.prefill,
            self.cache_cost,
        )
        .map_err(|e| gpu_time_problem(&e, self.prefill))?;
        Ok((reading, g))
    }

    /// How the batch share is served, when the interactive traffic takes `interactive` a token.
    pub fn batch_serving(&self, interactive: &GpuTime) -> BatchServing {
        BatchServing::new(
            self.batch,
            &self.curve,
            &self.curve_mix,
            (self.prefill, self.cache_cost),
            self.batch_rate,
            interactive,
        )
    }

    /// Per-class GPU time of the workload, from the interactive traffic's `g`: the batch
    /// share's output at the throughput-optimal point (`g` itself without batch traffic).
    pub fn serve(&self, g: GpuTime) -> GpuTime {
        self.batch_serving(&g).serve(g)
    }

    /// Per-class GPU time of the workload at the target speed, batch traffic included.
    pub fn gpu_time(&self) -> Result<(Reading, GpuTime), Problem> {
        let (reading, g) = self.interactive_time()?;
        Ok((reading, self.serve(g)))
    }

    /// Everything needed to cost plans at any volume.
    pub fn costing(&self) -> Result<Costing, Problem> {
        let (_, g) = self.interactive_time()?;
        Ok(self.costing_for(g))
    }

    /// The costing of this workload when its interactive traffic takes `interactive` a token:
    /// the workload's GPU time, and the week with the batch work in its quietest hours.
    pub fn costing_for(&self, interactive: GpuTime) -> Costing {
        let batch = self.batch_serving(&interactive);
        Costing::new(
            self.volumes,
            self.api,
            batch.serve(interactive),
            batch.week(&self.profile, &interactive, &self.volumes),
            self.policy,
            self.gpu_hour,
            self.ops_monthly,
        )
        .with_ops_per_gpu(self.ops_per_gpu)
        .with_overflow_warm(self.overflow_warm)
    }
}
