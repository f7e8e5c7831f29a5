//! Errors of the engine, one enum per concern.
//!
//! Policy: the engine never panics and never returns a non-finite number for any input. Each
//! concern has its own `thiserror` enum with named fields; at the scenario boundary every error
//! becomes a [`Problem`] that names the query parameter, the offending value and the accepted
//! range, so the web page, the JSON API and scripts can all point at the field to fix.

use serde::{Deserialize, Serialize};

/// One thing wrong with a scenario, named by the query parameter a user can fix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[error("{param}: {reason} (got {value:?})")]
pub struct Problem {
    /// The query parameter (e.g. `tps`, `gpu_hour`).
    pub param: String,
    /// The value as given, or as derived when the problem comes from a combination.
    pub value: String,
    /// What is wrong and which values are accepted.
    pub reason: String,
}

impl Problem {
    /// A problem with parameter `param` whose value was `value`.
    pub fn new(param: &str, value: impl ToString, reason: impl Into<String>) -> Self {
        Self {
            param: param.to_owned(),
            value: value.to_string(),
            reason: reason.into(),
        }
    }
}

/// Errors of a throughput curve and of reading it at a target speed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CurveError {
    /// A curve needs at least one measured point.
    #[error("the curve has no points")]
    Empty,
    /// A point's speed or throughput is not a positive finite number.
    #[error(
        "point {index}: {what} must be a positive finite number, got {}",
        crate::format::exact(*.value, false)
    )]
    BadPoint {
        /// Zero-based index of the point as given.
        index: usize,
        /// Which coordinate is wrong.
        what: &'static str,
        /// The value given.
        value: f64,
    },
    /// Two points measured at the same speed.
    #[error(
        "two points are measured at the same speed, {} tokens/s per user",
        crate::format::exact(*.speed, false)
    )]
    DuplicateSpeed {
        /// The repeated speed.
        speed: f64,
    },
    /// The target is faster than anything measured: no answer.
    #[error(
        "target {} tokens/s per user is faster than the fastest measured point, {} tokens/s per user",
        crate::format::significant(*.target, 4),
        crate::format::significant(*.fastest, 4)
    )]
    TargetAboveCurve {
        /// The requested output speed per user.
        target: f64,
        /// The fastest measured speed.
        fastest: f64,
    },
    /// The target is not a positive finite speed.
    #[error(
        "target speed must be a positive finite number, got {}",
        crate::format::exact(*.target, false)
    )]
    BadTarget {
        /// The requested output speed per user.
        target: f64,
    },
}

/// Errors of the GPU-time model (prefill rate `P`, cache-hit cost ratio `k`).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GpuTimeError {
    /// The assumptions leave no GPU time for output at the curve's own mix.
    #[error(
        "prefill rate {} tokens/s and cache-hit cost {} contradict the curve: \
         at {} tokens/s per GPU its input alone would need more than all the GPU time; \
         raise the prefill rate or lower the cache-hit cost (prefill must exceed {})",
        crate::format::number(*.prefill),
        crate::format::significant(*.cache_cost, 3),
        crate::format::number(*.throughput),
        crate::format::number(*.min_prefill)
    )]
    AssumptionsContradictCurve {
        /// Prefill rate `P`, uncached input tokens/s per GPU.
        prefill: f64,
        /// Cache-hit cost ratio `k`.
        cache_cost: f64,
        /// Curve throughput at the target, tokens/s per GPU.
        throughput: f64,
        /// The smallest prefill rate that would work with this `k`.
        min_prefill: f64,
    },
    /// The curve's measured mix has no output, so the decode rate cannot be derived.
    #[error("the curve's measured mix has no output tokens, so its decode rate is unknown")]
    NoOutputInCurveMix,
    /// An assumption is out of range.
    #[error("{name} must be {range}, got {}", crate::format::exact(*.value, false))]
    BadAssumption {
        /// Which assumption.
        name: &'static str,
        /// The value given.
        value: f64,
        /// The accepted range.
        range: &'static str,
    },
}

/// Errors of the fleet and price inputs.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FleetError {
    /// Hourly autoscaling only makes sense for GPUs rented by the hour.
    #[error("hourly autoscaling needs rented GPUs; owned hardware is paid for every hour")]
    AutoscaleOwned,
    /// A value is out of range.
    #[error("{name} must be {range}, got {}", crate::format::exact(*.value, false))]
    OutOfRange {
        /// Which input.
        name: &'static str,
        /// The value given.
        value: f64,
        /// The accepted range.
        range: &'static str,
    },
}
