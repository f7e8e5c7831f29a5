//! The weekly load profile: 168 hourly weights with mean 1, so capacity held for peak shows.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

/// Hours in the week the profile covers, Monday 00:00 first.
pub const HOURS_PER_WEEK: usize = 168;

/// A named load profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ProfilePreset {
    /// The same load every hour (what a benchmark assumes).
    Flat,
    /// Weekdays 08:00–18:00 at full load, a background of 15 % of it otherwise.
    Business,
    /// Every day a smooth swing, peaking mid-afternoon at 1.6 times the mean, lowest at 0.4.
    Diurnal,
}

impl ProfilePreset {
    /// Every preset.
    pub const ALL: [ProfilePreset; 3] = [Self::Flat, Self::Business, Self::Diurnal];

    /// The name used in query strings.
    pub fn key(self) -> &'static str {
        match self {
            Self::Flat => "flat",
            Self::Business => "business",
            Self::Diurnal => "diurnal",
        }
    }

    /// The preset with this query name.
    pub fn from_key(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.key() == key)
    }

    fn raw_weight(self, hour_of_week: usize) -> f64 {
        let day = hour_of_week / 24;
        let hour = (hour_of_week % 24) as f64;
        match self {
            Self::Flat => 1.0,
            Self::Business => {
                if day < 5 && (8.0..18.0).contains(&hour) {
                    1.0
                } else {
                    0.15
                }
            }
            Self::Diurnal => 1.0 + 0.6 * (std::f64::consts::TAU * (hour - 14.0) / 24.0).cos(),
        }
    }
}

/// Where a profile came from: a preset or the user's own weights.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ProfileSpec {
    /// A named preset.
    Preset(ProfilePreset),
    /// The user's own weights: 24 (one day, repeated) or 168 (a week), any positive scale.
    Custom(Vec<f64>),
}

/// 168 hourly weights, normalised to mean 1.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LoadProfile {
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<f64>))]
    weights: Arc<[f64]>,
    /// The same weights in ascending order, and their prefix sums (one more, from 0): fleets
    /// are sized from the hours sorted by need, and every costing of a scenario (the
    /// sensitivity's, each of the decision's draws) shares this sort without copying it.
    #[serde(skip)]
    sorted: Arc<[f64]>,
    #[serde(skip)]
    sorted_prefix: Arc<[f64]>,
}

impl LoadProfile {
    /// The profile a spec stands for; `None` for custom weights that are not 24 or 168
    /// finite, non-negative numbers with a positive sum.
    pub fn from_spec(spec: &ProfileSpec) -> Option<Self> {
        if let ProfileSpec::Preset(p) = spec {
            // Each preset is built and sorted once; every evaluation shares it.
            static PRESETS: std::sync::OnceLock<[Option<LoadProfile>; 3]> =
                std::sync::OnceLock::new();
            let presets = PRESETS
                .get_or_init(|| ProfilePreset::ALL.map(|p| Self::build(&ProfileSpec::Preset(p))));
            let i = ProfilePreset::ALL.iter().position(|q| q == p)?;
            return presets.get(i).cloned().flatten();
        }
        Self::build(spec)
    }

    fn build(spec: &ProfileSpec) -> Option<Self> {
        let raw: Vec<f64> = match spec {
            ProfileSpec::Preset(p) => (0..HOURS_PER_WEEK).map(|h| p.raw_weight(h)).collect(),
            ProfileSpec::Custom(w) if w.len() == 24 || w.len() == HOURS_PER_WEEK => {
                (0..HOURS_PER_WEEK).map(|h| w[h % w.len()]).collect()
            }
            ProfileSpec::Custom(_) => return None,
        };
        if raw.iter().any(|w| !w.is_finite() || *w < 0.0) {
            return None;
        }
        let mean = raw.iter().sum::<f64>() / HOURS_PER_WEEK as f64;
        if !(mean > 0.0) || !mean.is_finite() {
            return None;
        }
        Some(Self::of(raw.into_iter().map(|w| w / mean).collect()))
    }

    fn of(weights: Vec<f64>) -> Self {
        let mut sorted = weights.clone();
        sorted.sort_by(f64::total_cmp);
        let mut acc = 0.0;
        let sorted_prefix = std::iter::once(0.0)
            .chain(sorted.iter().map(|w| {
                acc += w;
                acc
            }))
            .collect();
        Self {
            weights: weights.into(),
            sorted: sorted.into(),
            sorted_prefix,
        }
    }

    /// A named preset.
    pub fn preset(p: ProfilePreset) -> Self {
        let raw: Vec<f64> = (0..HOURS_PER_WEEK).map(|h| p.raw_weight(h)).collect();
        let mean = raw.iter().sum::<f64>() / HOURS_PER_WEEK as f64;
        Self::of(raw.into_iter().map(|w| w / mean).collect())
    }

    /// The 168 weights, mean 1.
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    /// The 168 weights in ascending order.
    pub fn sorted_weights(&self) -> &[f64] {
        &self.sorted
    }

    /// The sorted weights and their prefix sums (`prefix[i]` sums the `i` smallest), shared.
    pub fn sorted_shared(&self) -> (Arc<[f64]>, Arc<[f64]>) {
        (self.sorted.clone(), self.sorted_prefix.clone())
    }

    /// Peak-to-average ratio: the largest weight.
    pub fn peak(&self) -> f64 {
        self.sorted.last().copied().unwrap_or(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_have_mean_one() {
        for p in ProfilePreset::ALL {
            let prof = LoadProfile::preset(p);
            let mean = prof.weights().iter().sum::<f64>() / 168.0;
            assert!((mean - 1.0).abs() < 1e-12);
            assert!(prof.peak() >= 1.0);
        }
        assert!((LoadProfile::preset(ProfilePreset::Flat).peak() - 1.0).abs() < 1e-12);
        assert!(LoadProfile::preset(ProfilePreset::Business).peak() > 2.0);
    }

    #[test]
    fn custom_day_repeats() {
        let day: Vec<f64> = (0..24).map(|h| if h == 12 { 2.0 } else { 1.0 }).collect();
        let p = LoadProfile::from_spec(&ProfileSpec::Custom(day)).expect("valid");
        assert!((p.peak() - 2.0 / (25.0 / 24.0)).abs() < 1e-12);
        assert!(LoadProfile::from_spec(&ProfileSpec::Custom(vec![1.0; 5])).is_none());
        assert!(LoadProfile::from_spec(&ProfileSpec::Custom(vec![0.0; 24])).is_none());
    }
}
