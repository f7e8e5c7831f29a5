//! The fleet: replicas held for the peak hour, or scaled hour by hour, optionally capped with the
//! overflow sent to the API.
//!
//! Demand is given as busy GPUs in each hour of the week. A replica of `g` GPUs may be loaded to
//! the target utilisation `util`, so hour `h` needs `x_h = busy_h / (g * util)` replicas. Costs
//! of a plan are linear between the kinks at `x_h` and at the hourly replica counts, so the
//! cheapest cap is found among the integers next to those kinks. The profile's sorted weights
//! and their prefix sums, shared with it, give the needs at any multiple of the volume: a plan
//! costs `O(log 168)` for a fixed fleet and `O(168)` for an hourly one, with no allocation.

use serde::{Deserialize, Serialize};

use crate::profile::{LoadProfile, HOURS_PER_WEEK};
use crate::units::{HOURS_PER_MONTH, SECONDS_PER_MONTH};

/// Whether the fleet is sized once for the peak or every hour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Scaling {
    /// Replicas for the peak hour, paid every hour.
    Fixed,
    /// Replicas added and removed hour by hour (rented GPUs only).
    Hourly,
}

impl Scaling {
    /// The name used in query strings.
    pub fn key(self) -> &'static str {
        match self {
            Scaling::Fixed => "fixed",
            Scaling::Hourly => "hourly",
        }
    }
}

/// How replicas are provisioned.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FleetPolicy {
    /// GPUs per replica.
    pub replica_gpus: f64,
    /// Utilisation a replica may reach at peak, 0 to 1.
    pub util: f64,
    /// Extra replicas kept for failures and maintenance.
    pub redundancy: f64,
    /// Replicas kept even when demand is lower.
    pub min_replicas: f64,
    /// Fixed or hourly.
    pub scaling: Scaling,
}

/// Demand over the week, prepared for costing plans quickly at any multiple of the volume.
#[derive(Debug, Clone, PartialEq)]
pub struct Demand {
    policy: FleetPolicy,
    /// Busy GPUs on average over the month, at scale 1.
    mean_busy_gpus: f64,
    /// GPUs one replica serves at the target utilisation.
    per_replica: f64,
    /// The profile's weights, sorted ascending, with prefix sums: hour `h` needs
    /// `mean_busy_gpus * w_h / per_replica` replicas at scale 1. Shared with the profile, so
    /// preparing a demand (each draw of the decision does) copies nothing.
    weights: std::sync::Arc<[f64]>,
    prefix: std::sync::Arc<[f64]>,
}

/// What a plan provisions and serves in a month.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FleetPlan {
    /// Serving replicas at the busiest hour, plus redundancy.
    pub replicas: f64,
    /// GPUs at the busiest hour.
    pub gpus: f64,
    /// GPU-hours paid for in a month.
    pub provisioned_gpu_hours: f64,
    /// GPU-hours of work served by the fleet in a month.
    pub busy_gpu_hours: f64,
    /// Share of the demand's GPU time sent to the API instead, 0 to 1.
    pub overflow_share: f64,
}

/// Caps up to this many replicas are all costed; above, only those next to a kink.
const EXHAUSTIVE_CAPS: f64 = 64.0;

/// `x.floor()` for the non-negative replica counts of a search, without the libm call that
/// `f64::floor` is on a baseline x86-64 (a truncating cast is the floor there).
fn floor(x: f64) -> f64 {
    if (0.0..4.5e15).contains(&x) {
        x as u64 as f64
    } else {
        x.floor()
    }
}

/// `x.ceil()` likewise.
fn ceil(x: f64) -> f64 {
    let f = floor(x);
    if f < x {
        f + 1.0
    } else {
        f
    }
}

impl Demand {
    /// Demand of `gpu_seconds` per month spread over `profile`.
    pub fn new(gpu_seconds: f64, profile: &LoadProfile, policy: FleetPolicy) -> Self {
        let (weights, prefix) = profile.sorted_shared();
        Self {
            policy,
            mean_busy_gpus: gpu_seconds / SECONDS_PER_MONTH,
            per_replica: policy.replica_gpus * policy.util,
            weights,
            prefix,
        }
    }

    /// The same week with `gpu_seconds` of demand under `policy`: what [`Demand::new`] makes
    /// of them, keeping the profile it shares (no reference counts touched, nothing copied).
    pub fn refit(&mut self, gpu_seconds: f64, policy: FleetPolicy) {
        self.policy = policy;
        self.mean_busy_gpus = gpu_seconds / SECONDS_PER_MONTH;
        self.per_replica = policy.replica_gpus * policy.util;
    }

    /// Replicas hour `i` of the sorted week needs at scale 1 (ascending in `i`).
    fn need(&self, i: usize) -> f64 {
        self.mean_busy_gpus * self.weights[i] / self.per_replica
    }

    /// Hours in the week.
    fn hours(&self) -> usize {
        self.weights.len()
    }

    /// How many of the sorted hours satisfy `pred` on their need, `pred` true then false.
    fn count_needs(&self, pred: impl Fn(f64) -> bool) -> usize {
        let (mut lo, mut hi) = (0, self.hours());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if pred(self.need(mid)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// Busy GPUs on average over the month, at scale 1.
    pub fn mean_busy_gpus(&self) -> f64 {
        self.mean_busy_gpus
    }

    /// The policy the demand was prepared for.
    pub fn policy(&self) -> &FleetPolicy {
        &self.policy
    }

    fn run(&self, x: f64, scale: f64) -> f64 {
        ceil(x * scale).max(self.policy.min_replicas)
    }

    /// Replicas the busiest hour needs at scale 1, before rounding up: a fixed fleet gains a
    /// replica each time `scale` passes a whole multiple of its inverse.
    pub fn peak_need(&self) -> f64 {
        self.hours().checked_sub(1).map_or(0.0, |i| self.need(i))
    }

    /// Serving replicas the uncapped fleet runs at its busiest hour, at `scale` times the volume.
    pub fn full_replicas(&self, scale: f64) -> f64 {
        let peak = self.hours().checked_sub(1).map_or(0.0, |i| self.need(i));
        self.run(peak, scale)
    }

    /// Sum over hours of `max(0, scale * need_h - cap)`: replica-hours per week above the cap.
    fn need_above(&self, cap: f64, scale: f64) -> f64 {
        if !(scale > 0.0) {
            return 0.0;
        }
        let threshold = cap / scale;
        let i = self.count_needs(|x| x <= threshold);
        let n = self.hours();
        let above = (n - i) as f64;
        let weight_above = self.prefix[n] - self.prefix[i];
        (scale * self.mean_busy_gpus * weight_above / self.per_replica - cap * above).max(0.0)
    }

    /// The cap of a fixed fleet at `scale` times the volume above which `hours` of the sorted
    /// week still need more replicas: the floor of the scaled need of the `ceil(hours)`-th
    /// busiest hour (0 when `hours` covers the whole week or is not a number, the full fleet
    /// when it is under one hour).
    /// A fixed fleet's cheapest cap is near the one where an extra replica costs what the hours
    /// above it would send to the API.
    pub fn cap_with_hours_above(&self, hours: f64, scale: f64) -> f64 {
        let n = self.hours();
        if n == 0 || !(hours < n as f64) {
            return 0.0;
        }
        if !(hours >= 1.0) {
            return self.full_replicas(scale);
        }
        let i = n - ceil(hours) as usize;
        floor(self.need(i) * scale)
    }

    /// Prefix sums of the hourly replica counts `max(min, ceil(scale * need_h))`, in the sorted
    /// order of `need`: computed once per scale, they cost an hourly plan in `O(log 168)`.
    pub fn hourly_runs(&self, scale: f64) -> Vec<f64> {
        let mut acc = 0.0;
        std::iter::once(0.0)
            .chain((0..self.hours()).map(|i| {
                acc += self.run(self.need(i), scale);
                acc
            }))
            .collect()
    }

    /// Replica-hours per week of an hourly fleet capped at `cap`, redundancy included.
    fn hourly_replica_hours(&self, cap: f64, scale: f64, runs: &[f64]) -> f64 {
        let n = self.hours();
        // Hourly counts rise with need, so the hours at or under the cap come first.
        let j = self.count_needs(|x| self.run(x, scale) <= cap);
        let idle = self.count_needs(|x| self.run(x, scale) <= 0.0);
        let active = if cap > 0.0 { (n - idle) as f64 } else { 0.0 };
        runs[j] + cap * (n - j) as f64 + self.policy.redundancy * active
    }

    /// The plan with at most `cap` serving replicas (`None`: as many as the peak needs), at
    /// `scale` times the volume.
    pub fn plan(&self, cap: Option<f64>, scale: f64) -> FleetPlan {
        let runs = match self.policy.scaling {
            Scaling::Hourly => self.hourly_runs(scale),
            Scaling::Fixed => Vec::new(),
        };
        self.plan_with(cap, scale, &runs)
    }

    /// [`Demand::plan`] with the hourly runs at this scale already computed (empty for a fixed
    /// fleet).
    pub fn plan_with(&self, cap: Option<f64>, scale: f64, runs: &[f64]) -> FleetPlan {
        let full = self.full_replicas(scale);
        let cap = cap.map_or(full, |c| c.min(full));
        let p = &self.policy;
        let hours_per_week = HOURS_PER_WEEK as f64;
        let hour_scale = HOURS_PER_MONTH / hours_per_week;
        let weekly_busy = self.mean_busy_gpus * scale * hours_per_week;
        let overflow = (p.replica_gpus * p.util * self.need_above(cap, scale)).min(weekly_busy);
        let overflow_share = if cap <= 0.0 {
            1.0
        } else if weekly_busy > 0.0 {
            (overflow / weekly_busy).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let replica_hours = match p.scaling {
            _ if cap <= 0.0 => 0.0,
            Scaling::Fixed => (cap + p.redundancy) * hours_per_week,
            Scaling::Hourly => self.hourly_replica_hours(cap, scale, runs),
        };
        let replicas = if cap > 0.0 { cap + p.redundancy } else { 0.0 };
        FleetPlan {
            replicas,
            gpus: replicas * p.replica_gpus,
            provisioned_gpu_hours: replica_hours * p.replica_gpus * hour_scale,
            busy_gpu_hours: (weekly_busy - overflow).max(0.0) * hour_scale,
            overflow_share,
        }
    }

    /// Caps worth costing in a search for the cheapest one at `scale`: every whole number up to
    /// the full fleet when it is small, else 0, 1, the full fleet and the whole numbers next to
    /// every kink of the cost (where an hour's need or replica count crosses the cap).
    /// Ascending, each once; caps below the minimum fleet (other than 0) are left out.
    pub fn candidate_caps(&self, scale: f64) -> Vec<f64> {
        let mut caps = Vec::new();
        self.for_each_candidate_cap(scale, |c| caps.push(c));
        caps
    }

    /// [`Demand::candidate_caps`] without the allocation: `f` gets each cap in ascending order.
    /// The needs are sorted, so their floors and ceilings come sorted too: the kinks are merged
    /// in one pass (a search costs `O(168)` steps, not a sort of 504 numbers).
    pub fn for_each_candidate_cap(&self, scale: f64, mut f: impl FnMut(f64)) {
        let full = self.full_replicas(scale);
        let min = self.policy.min_replicas;
        // A cap below the minimum fleet would keep fewer replicas than asked for: renting
        // everything (0) or at least the minimum.
        let keep = |c: f64| c == 0.0 || c >= min;
        if full <= EXHAUSTIVE_CAPS {
            let mut cap = 0.0;
            while cap <= full {
                if keep(cap) {
                    f(cap);
                }
                cap += 1.0;
            }
            return;
        }
        // The hourly counts max(min, ceil(scale * need)) add to the ceilings only the minimum
        // itself, when the quietest hour needs fewer replicas.
        let quietest = if self.hours() > 0 {
            ceil(self.need(0) * scale)
        } else {
            0.0
        };
        let mut extra = [0.0, 1.0, if quietest < min { min } else { 0.0 }, full];
        extra.sort_by(f64::total_cmp);
        let floor_at = |i: usize| floor(self.need(i) * scale);
        let ceil_at = |i: usize| ceil(self.need(i) * scale);
        let n = self.hours();
        let (mut i, mut j, mut k) = (0, 0, 0);
        let mut last = f64::NEG_INFINITY;
        loop {
            let a = if i < n { floor_at(i) } else { f64::INFINITY };
            let b = if j < n { ceil_at(j) } else { f64::INFINITY };
            let e = extra.get(k).copied().unwrap_or(f64::INFINITY);
            let next = a.min(b).min(e);
            if next == f64::INFINITY {
                break;
            }
            if a == next {
                i += 1;
            } else if b == next {
                j += 1;
            } else {
                k += 1;
            }
            // Clamping keeps the order; equal neighbours are one cap.
            let cap = next.clamp(0.0, full);
            if cap > last {
                last = cap;
                if keep(cap) {
                    f(cap);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::ProfilePreset;

    fn policy(scaling: Scaling) -> FleetPolicy {
        FleetPolicy {
            replica_gpus: 4.0,
            util: 0.5,
            redundancy: 1.0,
            min_replicas: 1.0,
            scaling,
        }
    }

    #[test]
    fn fixed_fleet_is_sized_for_peak() {
        // 6 busy GPUs on average, flat: 6 / (4 * 0.5) = 3 replicas, plus one spare.
        let d = Demand::new(
            6.0 * SECONDS_PER_MONTH,
            &LoadProfile::preset(ProfilePreset::Flat),
            policy(Scaling::Fixed),
        );
        let plan = d.plan(None, 1.0);
        assert_eq!(plan.replicas, 4.0);
        assert_eq!(plan.gpus, 16.0);
        assert!((plan.provisioned_gpu_hours - 16.0 * 730.0).abs() < 1e-9);
        assert!((plan.busy_gpu_hours - 6.0 * 730.0).abs() < 1e-9);
        assert_eq!(plan.overflow_share, 0.0);
    }

    #[test]
    fn a_cap_sends_the_excess_to_the_api() {
        let d = Demand::new(
            6.0 * SECONDS_PER_MONTH,
            &LoadProfile::preset(ProfilePreset::Flat),
            policy(Scaling::Fixed),
        );
        let plan = d.plan(Some(2.0), 1.0);
        assert!((plan.overflow_share - 1.0 / 3.0).abs() < 1e-12);
        assert!(d.plan(Some(0.0), 1.0).provisioned_gpu_hours == 0.0);
    }

    #[test]
    fn hourly_scaling_pays_less_than_fixed_on_a_peaky_week() {
        let prof = LoadProfile::preset(ProfilePreset::Business);
        let fixed = Demand::new(1e7, &prof, policy(Scaling::Fixed)).plan(None, 1.0);
        let hourly = Demand::new(1e7, &prof, policy(Scaling::Hourly)).plan(None, 1.0);
        assert_eq!(fixed.replicas, hourly.replicas);
        assert!(hourly.provisioned_gpu_hours < fixed.provisioned_gpu_hours);
        assert!((hourly.busy_gpu_hours - fixed.busy_gpu_hours).abs() < 1e-6);
    }

    #[test]
    fn hourly_prefix_sums_match_hour_by_hour() {
        let prof = LoadProfile::preset(ProfilePreset::Diurnal);
        let d = Demand::new(3e8, &prof, policy(Scaling::Hourly));
        for scale in [0.01, 0.7, 1.0, 3.3, 40.0] {
            let runs = d.hourly_runs(scale);
            for cap in [0.0, 1.0, 2.0, 5.0, 17.0, 1e4] {
                let direct: f64 = prof
                    .weights()
                    .iter()
                    .map(|w| {
                        let need = d.mean_busy_gpus() * scale * w / (4.0 * 0.5);
                        let r = need.ceil().max(1.0).min(cap);
                        if r > 0.0 {
                            r + 1.0
                        } else {
                            0.0
                        }
                    })
                    .sum();
                let fast = d.hourly_replica_hours(cap, scale, &runs);
                assert!(
                    (direct - fast).abs() < 1e-9,
                    "scale {scale} cap {cap}: {direct} vs {fast}"
                );
            }
        }
    }

    /// The kinks the search considered before the one-pass merge: every floor, ceiling and
    /// hourly count of the scaled needs, sorted and deduplicated.
    fn caps_by_sorting(d: &Demand, scale: f64) -> Vec<f64> {
        let full = d.full_replicas(scale);
        if full <= EXHAUSTIVE_CAPS {
            return (0..=full as usize)
                .map(|c| c as f64)
                .filter(|c| *c == 0.0 || *c >= d.policy.min_replicas)
                .collect();
        }
        let mut caps: Vec<f64> = vec![0.0, 1.0, full];
        for x in (0..d.hours()).map(|i| d.need(i)) {
            caps.push((x * scale).floor().clamp(0.0, full));
            caps.push((x * scale).ceil().clamp(0.0, full));
            caps.push(d.run(x, scale).clamp(0.0, full));
        }
        caps.sort_by(f64::total_cmp);
        caps.dedup();
        caps.retain(|c| *c == 0.0 || *c >= d.policy.min_replicas);
        caps
    }

    proptest::proptest! {
        #[test]
        fn fast_floor_and_ceil_are_the_librarys(x in proptest::prop_oneof![0.0f64..1e3, 0.0f64..1e17, proptest::num::f64::ANY]) {
            // Equal as numbers (a zero's sign does not count a replica), NaN for NaN.
            let same = |a: f64, b: f64| a == b || (a.is_nan() && b.is_nan());
            proptest::prop_assert!(same(floor(x), x.floor()), "floor({}) = {}", x, floor(x));
            proptest::prop_assert!(same(ceil(x), x.ceil()), "ceil({}) = {}", x, ceil(x));
        }

        #[test]
        fn merged_caps_are_the_sorted_kinks(
            weights in proptest::collection::vec(0.0f64..10.0, 24),
            busy in 1.0f64..5_000.0,
            scale in 0.01f64..50.0,
            min_replicas in 0u32..12,
            hourly in proptest::bool::ANY,
        ) {
            proptest::prop_assume!(weights.iter().sum::<f64>() > 0.0);
            let Some(profile) = LoadProfile::from_spec(&crate::profile::ProfileSpec::Custom(weights)) else {
                return Err(proptest::test_runner::TestCaseError::fail("24 weights with a positive sum make a profile"));
            };
            let p = FleetPolicy {
                min_replicas: min_replicas as f64,
                scaling: if hourly { Scaling::Hourly } else { Scaling::Fixed },
                ..policy(Scaling::Fixed)
            };
            let d = Demand::new(busy * SECONDS_PER_MONTH, &profile, p);
            proptest::prop_assert_eq!(d.candidate_caps(scale), caps_by_sorting(&d, scale));
        }
    }
}
