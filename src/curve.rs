//! Measured throughput curves and reading them at a target speed.
//!
//! Interpolation is linear in `(s, ln T)` between neighbouring measured points: it is monotone
//! between points (it never overshoots a measurement, as a cubic can), exact at each point, and
//! matches how throughput falls roughly exponentially as per-user speed rises. Throughput is
//! interpolated and cost derived from it, never the reverse, so cost per token stays the inverse
//! of a throughput that was measured.

use serde::{Deserialize, Serialize};

use crate::error::CurveError;

/// One measured operating point.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CurvePoint {
    /// Output tokens/s per user at this point.
    pub tps: f64,
    /// Total (input plus output) tokens/s per GPU at this point (converted from `published`
    /// when the source gave a cost).
    pub tokens_per_s_per_gpu: f64,
    /// The point as published when the source gave a cost rather than a throughput; absent
    /// when `tokens_per_s_per_gpu` is the published figure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub published: Option<PublishedCost>,
    /// Mean power per GPU measured while this point ran, W (where the benchmark sampled it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power_w_per_gpu: Option<f64>,
}

/// A point published as a cost: $ per million tokens at a stated price of the chip-hour.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PublishedCost {
    /// $ per million (input plus output) tokens, as published.
    pub usd_per_mtok: f64,
    /// The $ per chip-hour the cost was stated at (the curve's price basis).
    pub usd_per_gpu_hour: f64,
}

impl CurvePoint {
    /// A point published as a throughput.
    pub fn measured(tps: f64, tokens_per_s_per_gpu: f64) -> Self {
        Self {
            tps,
            tokens_per_s_per_gpu,
            published: None,
            power_w_per_gpu: None,
        }
    }

    /// The point with the mean power per GPU measured while it ran, W.
    pub fn with_power(self, power_w_per_gpu: Option<f64>) -> Self {
        Self {
            power_w_per_gpu,
            ..self
        }
    }

    /// A point published as $ per million tokens at a chip-hour price `gpu_hour`:
    /// `T = gpu_hour / (usd_per_mtok * 3600) * 1e6`.
    pub fn from_cost(tps: f64, usd_per_mtok: f64, gpu_hour: f64) -> Self {
        Self {
            tps,
            tokens_per_s_per_gpu: gpu_hour / (usd_per_mtok * 3600.0) * 1e6,
            published: Some(PublishedCost {
                usd_per_mtok,
                usd_per_gpu_hour: gpu_hour,
            }),
            power_w_per_gpu: None,
        }
    }
}

/// A validated throughput curve, sorted by speed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ThroughputCurve {
    points: Vec<CurvePoint>,
}

/// The curve read at a target speed.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Reading {
    /// Total tokens/s per GPU at the target.
    pub tokens_per_s_per_gpu: f64,
    /// True when the target is slower than the slowest measured point and its throughput was used.
    pub clamped: bool,
}

impl ThroughputCurve {
    /// Validates and sorts the points: each coordinate positive and finite, speeds distinct.
    pub fn new(mut points: Vec<CurvePoint>) -> Result<Self, CurveError> {
        if points.is_empty() {
            return Err(CurveError::Empty);
        }
        for (index, p) in points.iter().enumerate() {
            for (what, value) in [
                ("output tokens/s per user", p.tps),
                ("tokens/s per GPU", p.tokens_per_s_per_gpu),
            ] {
                if !(value.is_finite() && value > 0.0) {
                    return Err(CurveError::BadPoint { index, what, value });
                }
            }
        }
        points.sort_by(|a, b| a.tps.total_cmp(&b.tps));
        if let Some(w) = points.windows(2).find(|w| w[0].tps == w[1].tps) {
            return Err(CurveError::DuplicateSpeed { speed: w[0].tps });
        }
        Ok(Self { points })
    }

    /// The points, slowest first.
    pub fn points(&self) -> &[CurvePoint] {
        &self.points
    }

    /// Slowest measured speed.
    pub fn slowest(&self) -> f64 {
        self.points[0].tps
    }

    /// Fastest measured speed.
    pub fn fastest(&self) -> f64 {
        self.points[self.points.len() - 1].tps
    }

    /// Throughput per GPU at output speed `target` per user.
    pub fn at(&self, target: f64) -> Result<Reading, CurveError> {
        if !(target.is_finite() && target > 0.0) {
            return Err(CurveError::BadTarget { target });
        }
        let first = self.points[0];
        if target <= first.tps {
            return Ok(Reading {
                tokens_per_s_per_gpu: first.tokens_per_s_per_gpu,
                clamped: target < first.tps,
            });
        }
        let fastest = self.fastest();
        if target > fastest {
            return Err(CurveError::TargetAboveCurve { target, fastest });
        }
        let i = self.points.partition_point(|p| p.tps < target);
        let (a, b) = (self.points[i - 1], self.points[i]);
        if b.tps == target {
            return Ok(Reading {
                tokens_per_s_per_gpu: b.tokens_per_s_per_gpu,
                clamped: false,
            });
        }
        let t = (target - a.tps) / (b.tps - a.tps);
        let ln = a.tokens_per_s_per_gpu.ln()
            + t * (b.tokens_per_s_per_gpu.ln() - a.tokens_per_s_per_gpu.ln());
        Ok(Reading {
            tokens_per_s_per_gpu: ln.exp(),
            clamped: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn curve() -> ThroughputCurve {
        ThroughputCurve::new(vec![
            CurvePoint::measured(200.0, 1_000.0),
            CurvePoint::measured(100.0, 4_000.0),
        ])
        .expect("valid")
    }

    #[test]
    fn exact_at_points_and_geometric_between() {
        let c = curve();
        assert_eq!(c.at(100.0).expect("in range").tokens_per_s_per_gpu, 4_000.0);
        let mid = c.at(150.0).expect("in range").tokens_per_s_per_gpu;
        assert!((mid - 2_000.0).abs() < 1e-9, "{mid}");
        assert!((c.at(200.0).expect("in range").tokens_per_s_per_gpu - 1_000.0).abs() < 1e-9);
    }

    #[test]
    fn clamps_below_and_refuses_above() {
        let c = curve();
        let r = c.at(10.0).expect("below is fine");
        assert!(r.clamped);
        assert_eq!(r.tokens_per_s_per_gpu, 4_000.0);
        assert_eq!(
            c.at(201.0),
            Err(CurveError::TargetAboveCurve {
                target: 201.0,
                fastest: 200.0
            })
        );
        assert!(c.at(f64::NAN).is_err());
    }

    #[test]
    fn rejects_bad_points() {
        assert_eq!(ThroughputCurve::new(vec![]), Err(CurveError::Empty));
        let bad = CurvePoint::measured(1.0, f64::INFINITY);
        assert!(ThroughputCurve::new(vec![bad]).is_err());
        let p = CurvePoint::measured(1.0, 1.0);
        assert!(ThroughputCurve::new(vec![p, p]).is_err());
    }
}
