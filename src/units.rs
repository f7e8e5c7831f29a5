//! Units and the three token classes every cost is split into.

use serde::{Deserialize, Serialize};

/// Hours in the month every monthly figure uses (8,760 / 12).
pub const HOURS_PER_MONTH: f64 = 730.0;
/// Seconds in that month.
pub const SECONDS_PER_MONTH: f64 = HOURS_PER_MONTH * 3600.0;
/// Tokens in a million, the unit prices are quoted in.
pub const MILLION: f64 = 1e6;

/// Shares of uncached input, cached input and output, normalised to sum to 1.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Mix {
    /// Input not served from a prefix cache.
    pub uncached: f64,
    /// Input served from a prefix cache.
    pub cached: f64,
    /// Generated output.
    pub output: f64,
}

impl Mix {
    /// A mix from three parts in the order `input:cached:output`; `None` unless all are finite,
    /// non-negative and at least one is positive.
    pub fn from_parts(uncached: f64, cached: f64, output: f64) -> Option<Self> {
        let parts = [uncached, cached, output];
        if parts.iter().any(|p| !p.is_finite() || *p < 0.0) {
            return None;
        }
        let sum: f64 = parts.iter().sum();
        if !(sum > 0.0) || !sum.is_finite() {
            return None;
        }
        Some(Self {
            uncached: uncached / sum,
            cached: cached / sum,
            output: output / sum,
        })
    }

    /// Largest difference in any class share between two mixes (0 = identical, 1 = opposite).
    pub fn distance(&self, other: &Mix) -> f64 {
        (self.uncached - other.uncached)
            .abs()
            .max((self.cached - other.cached).abs())
            .max((self.output - other.output).abs())
    }
}

/// Monthly token volumes by class.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Volumes {
    /// Uncached input tokens per month.
    pub uncached: f64,
    /// Cached input tokens per month.
    pub cached: f64,
    /// Output tokens per month.
    pub output: f64,
}

impl Volumes {
    /// All tokens per month.
    pub fn total(&self) -> f64 {
        self.uncached + self.cached + self.output
    }

    /// The class shares, or `None` for an empty workload.
    pub fn mix(&self) -> Option<Mix> {
        Mix::from_parts(self.uncached, self.cached, self.output)
    }

    /// The same mix at `factor` times the volume.
    pub fn scaled(&self, factor: f64) -> Self {
        Self {
            uncached: self.uncached * factor,
            cached: self.cached * factor,
            output: self.output * factor,
        }
    }

    /// `total` tokens split by `mix`.
    pub fn from_mix(total: f64, mix: &Mix) -> Self {
        Self {
            uncached: total * mix.uncached,
            cached: total * mix.cached,
            output: total * mix.output,
        }
    }
}

/// A price or cost per million tokens for each class and blended over a workload.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PerMtok {
    /// Uncached input, $ per million tokens.
    pub input: f64,
    /// Cached input, $ per million tokens.
    pub cached: f64,
    /// Output, $ per million tokens.
    pub output: f64,
    /// All tokens of the workload, $ per million tokens.
    pub blended: f64,
}

impl PerMtok {
    /// Per-class rates with the blended rate weighted by `volumes` (0 when there is no volume).
    pub fn with_blend(input: f64, cached: f64, output: f64, volumes: &Volumes) -> Self {
        let total = volumes.total();
        let blended = if total > 0.0 {
            (input * volumes.uncached + cached * volumes.cached + output * volumes.output) / total
        } else {
            0.0
        };
        Self {
            input,
            cached,
            output,
            blended,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mix_normalises_and_rejects_nonsense() {
        let m = Mix::from_parts(2.0, 7.0, 1.0).expect("valid mix");
        assert!((m.cached - 0.7).abs() < 1e-12);
        assert!(Mix::from_parts(0.0, 0.0, 0.0).is_none());
        assert!(Mix::from_parts(-1.0, 2.0, 1.0).is_none());
        assert!(Mix::from_parts(f64::NAN, 2.0, 1.0).is_none());
        assert!(Mix::from_parts(f64::MAX, f64::MAX, 1.0).is_none());
    }
}
