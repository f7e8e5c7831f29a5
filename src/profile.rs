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
    /// A peak at `factor` times the average in the hours `from` to `to` of each day (of
    /// weekdays only when `weekdays`), the same lower load at every other hour.
    Peak(PeakHours),
}

/// Peak hours at a multiple of the average: the profile editor's way of giving a shape.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PeakHours {
    /// The peak hours' load over the week's average, at least 1.
    pub factor: f64,
    /// First peak hour of the day, 0 to 23 (UTC, as the rest of the week).
    pub from: u8,
    /// The hour the peak ends, 1 to 24; below `from`, the peak runs past midnight.
    pub to: u8,
    /// Only Monday to Friday.
    pub weekdays: bool,
}

impl PeakHours {
    /// Whether hour `h` of the week (Monday 00:00 first) is a peak hour.
    pub fn is_peak(&self, h: usize) -> bool {
        let (day, hour) = (h / 24, (h % 24) as u8);
        let in_day = if self.from < self.to {
            (self.from..self.to).contains(&hour)
        } else {
            hour >= self.from || hour < self.to
        };
        in_day && (!self.weekdays || day < 5)
    }

    /// Peak hours in the week.
    pub fn hours(&self) -> usize {
        (0..HOURS_PER_WEEK).filter(|h| self.is_peak(*h)).count()
    }

    /// The largest factor these hours allow: all of the week's load in them.
    pub fn max_factor(&self) -> f64 {
        let n = self.hours();
        if n == 0 {
            1.0
        } else {
            HOURS_PER_WEEK as f64 / n as f64
        }
    }

    /// The 168 weights, mean 1: `factor` in the peak hours, the rest of the load spread evenly
    /// over the others. `None` when the hours are empty or the factor is below 1 or above
    /// [`PeakHours::max_factor`].
    pub fn weights(&self) -> Option<Vec<f64>> {
        let n = self.hours() as f64;
        let week = HOURS_PER_WEEK as f64;
        let ok = self.from < 24
            && (1..=24).contains(&self.to)
            && self.from != self.to
            && n > 0.0
            && self.factor >= 1.0
            && self.factor <= self.max_factor();
        if !ok {
            return None;
        }
        let rest = if n < week {
            ((week - n * self.factor) / (week - n)).max(0.0)
        } else {
            0.0
        };
        Some(
            (0..HOURS_PER_WEEK)
                .map(|h| if self.is_peak(h) { self.factor } else { rest })
                .collect(),
        )
    }

    /// As a link writes it: `peak:3:9-17`, `:weekdays` when only Monday to Friday.
    pub fn text(&self) -> String {
        format!(
            "peak:{}:{}-{}{}",
            crate::codec::write_number(self.factor, false),
            self.from,
            self.to,
            if self.weekdays { ":weekdays" } else { "" }
        )
    }

    /// Reads [`PeakHours::text`], or says which part is not of its form (its numbers' ranges
    /// are checked by [`PeakHours::weights`]).
    pub fn parse(text: &str) -> Result<Self, String> {
        let rest = text
            .strip_prefix("peak:")
            .ok_or_else(|| "peak hours are written peak:FACTOR:FROM-TO".to_owned())?;
        let mut parts = rest.split(':');
        let factor_text = parts.next().unwrap_or_default();
        let factor = crate::codec::read_number(factor_text.trim_end_matches(['x', '×', ' ']), false, false)
            .ok_or_else(|| {
                format!("the peak factor “{factor_text}” is not a number: give the busiest hours' load as a multiple of the week's average, 1 or more")
            })?;
        let hours = parts.next().unwrap_or_default();
        let (from, to) = hours.split_once('-').ok_or_else(|| {
            format!("the peak hours “{hours}” must be two whole hours, FROM-TO (9-17)")
        })?;
        let from = from
            .trim()
            .parse::<u8>()
            .ok()
            .filter(|h| *h < 24)
            .ok_or_else(|| {
                format!(
                    "the first peak hour “{}” must be a whole hour from 0 to 23",
                    from.trim()
                )
            })?;
        let to = to
            .trim()
            .parse::<u8>()
            .ok()
            .filter(|h| (1..=24).contains(h))
            .ok_or_else(|| {
                format!(
                    "the hour the peak ends “{}” must be a whole hour from 1 to 24",
                    to.trim()
                )
            })?;
        let weekdays = match parts.next() {
            None => false,
            Some("weekdays") => true,
            Some(other) => {
                return Err(format!(
                    "“{other}” after the hours: only “weekdays” (Monday to Friday) may follow them"
                ))
            }
        };
        if let Some(more) = parts.next() {
            return Err(format!("“{more}”: nothing may follow “weekdays”"));
        }
        Ok(Self {
            factor,
            from,
            to,
            weekdays,
        })
    }
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
            ProfileSpec::Peak(p) => p.weights()?,
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
    fn peak_hours_hold_their_factor_and_the_mean() {
        // Weekdays 09-17: 40 hours at 3x, the other 128 at (168 - 120) / 128.
        let p = PeakHours {
            factor: 3.0,
            from: 9,
            to: 17,
            weekdays: true,
        };
        assert_eq!(p.hours(), 40);
        let prof = LoadProfile::from_spec(&ProfileSpec::Peak(p)).expect("a profile");
        assert!((prof.peak() - 3.0).abs() < 1e-12);
        assert!((prof.weights()[9] - 3.0).abs() < 1e-12);
        assert!((prof.weights()[0] - 48.0 / 128.0).abs() < 1e-12);
        assert!((prof.weights()[5 * 24 + 10] - 48.0 / 128.0).abs() < 1e-12);
        assert_eq!(PeakHours::parse(&p.text()), Ok(p));
        assert_eq!(p.text(), "peak:3:9-17:weekdays");
        // Past midnight, every day: 22-06 is 8 hours a day.
        let night = PeakHours::parse("peak:2x:22-6").expect("reads");
        assert!(PeakHours::parse("peak:abc:9-17")
            .expect_err("refused")
            .contains("peak factor “abc”"));
        assert!(PeakHours::parse("peak:3:9-25")
            .expect_err("refused")
            .contains("from 1 to 24"));
        assert_eq!(night.hours(), 56);
        assert!(night.is_peak(23) && night.is_peak(24 + 5) && !night.is_peak(12));
        // More than the week holds, or below the average: no profile.
        assert!(PeakHours { factor: 4.3, ..p }.weights().is_none());
        assert!(PeakHours { factor: 0.5, ..p }.weights().is_none());
        assert!(PeakHours::parse("peak:3:9-17:weekend").is_err());
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
