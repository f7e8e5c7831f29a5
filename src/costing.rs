//! Monthly cost of renting, self-hosting and the hybrid plan for one set of resolved inputs,
//! at the user's volume or any multiple of it (same mix, same profile).

use serde::{Deserialize, Serialize};

use crate::fleet::{Demand, FleetPlan, FleetPolicy, Scaling};
use crate::gpu_time::GpuTime;
use crate::profile::{LoadProfile, HOURS_PER_WEEK};
use crate::rent::ApiPricing;
use crate::units::{Volumes, HOURS_PER_MONTH};

/// Numeric inputs, resolved against the dataset, from which every cost follows.
#[derive(Debug, Clone, PartialEq)]
pub struct Costing {
    /// Monthly volumes at scale 1.
    pub volumes: Volumes,
    /// API prices.
    pub api: ApiPricing,
    /// GPU-seconds per token of each class at the target speed.
    pub gpu_time: GpuTime,
    /// Weekly profile.
    pub profile: LoadProfile,
    /// Fleet policy.
    pub policy: FleetPolicy,
    /// $ per GPU-hour.
    pub gpu_hour: f64,
    /// Operations: staff plus other fixed costs, $ per month.
    pub ops_monthly: f64,
    /// Operations staff cost per GPU of the fleet, $ per month (staff that grow with it).
    pub ops_per_gpu: f64,
    demand: Demand,
    rent_monthly: f64,
    /// What the overflow costs at the API per unit of its share: its sessions arrive without
    /// their prefix cache, so cached input is priced as uncached but for the warm share.
    overflow_rent_monthly: f64,
}

/// The monthly bill of a self-hosted (or hybrid) plan, line by line.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Breakdown {
    /// GPU-hours doing work, $.
    pub busy_compute: f64,
    /// GPU-hours paid for and idle (off-peak, headroom, redundancy, minimum fleet), $.
    pub idle_compute: f64,
    /// Operations staff and other fixed costs, $.
    pub ops: f64,
    /// Demand sent to the API above the fleet's cap, $.
    pub overflow_api: f64,
}

impl Breakdown {
    /// Sum of the lines.
    pub fn total(&self) -> f64 {
        self.busy_compute + self.idle_compute + self.ops + self.overflow_api
    }
}

/// A plan and its bill.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlanCost {
    /// What is provisioned.
    pub plan: FleetPlan,
    /// The bill.
    pub breakdown: Breakdown,
}

impl PlanCost {
    /// $ per month.
    pub fn total(&self) -> f64 {
        self.breakdown.total()
    }
}

/// Steps the search for a fixed fleet's cheapest cap walks from its guess before it bisects.
const WALK: u32 = 16;

impl Costing {
    /// Prepares the costing.
    pub fn new(
        volumes: Volumes,
        api: ApiPricing,
        gpu_time: GpuTime,
        profile: LoadProfile,
        policy: FleetPolicy,
        gpu_hour: f64,
        ops_monthly: f64,
    ) -> Self {
        let demand = Demand::new(gpu_time.demand(&volumes), &profile, policy);
        let rent_monthly = api.cost(&volumes).monthly_usd;
        let mut c = Self {
            volumes,
            api,
            gpu_time,
            profile,
            policy,
            gpu_hour,
            ops_monthly,
            ops_per_gpu: 0.0,
            demand,
            rent_monthly,
            overflow_rent_monthly: rent_monthly,
        };
        c.set_overflow_warm(0.0);
        c
    }

    /// The same costing with other prices, GPU time, policy and operations, as [`Costing::new`]
    /// and its builders would make it for the same volumes and profile. The decision costs
    /// hundreds of such variants a report; this one reuses the profile instead of sharing it
    /// again.
    #[allow(clippy::too_many_arguments)]
    pub fn refit(
        &mut self,
        api: ApiPricing,
        gpu_time: GpuTime,
        policy: FleetPolicy,
        gpu_hour: f64,
        ops_monthly: f64,
        ops_per_gpu: f64,
        overflow_warm: f64,
    ) {
        self.demand.refit(gpu_time.demand(&self.volumes), policy);
        self.rent_monthly = api.cost(&self.volumes).monthly_usd;
        self.api = api;
        self.gpu_time = gpu_time;
        self.policy = policy;
        self.gpu_hour = gpu_hour;
        self.ops_monthly = ops_monthly;
        self.ops_per_gpu = ops_per_gpu;
        self.set_overflow_warm(overflow_warm);
    }

    /// The share of the overflow's cached input the API still serves from its cache (0: all
    /// of it arrives cold, the default; 1: all of it stays warm).
    pub fn with_overflow_warm(mut self, warm: f64) -> Self {
        self.set_overflow_warm(warm);
        self
    }

    /// Operations staff that grow with the fleet: $ per GPU per month on top of the fixed part.
    pub fn with_ops_per_gpu(mut self, usd_per_gpu: f64) -> Self {
        self.ops_per_gpu = usd_per_gpu;
        self
    }

    fn set_overflow_warm(&mut self, warm: f64) {
        let v = self.volumes;
        let cold = Volumes {
            uncached: v.uncached + v.cached * (1.0 - warm),
            cached: v.cached * warm,
            output: v.output,
        };
        self.overflow_rent_monthly = self.api.cost(&cold).monthly_usd;
    }

    /// The same costing with the API prices `api` times and the GPU-hour price `gpu` times
    /// what they are: a month of the plan over the years.
    pub fn repriced(&self, api: f64, gpu: f64) -> Costing {
        let mut c = self.clone();
        c.api.price_in *= api;
        c.api.price_out *= api;
        c.rent_monthly *= api;
        c.overflow_rent_monthly *= api;
        c.gpu_hour *= gpu;
        c
    }

    /// The fleet capped at `cap` serving replicas (as many as it needs at most) at `scale` times
    /// the volume, the demand above the cap sent to the API.
    pub fn capped(&self, cap: f64, scale: f64) -> PlanCost {
        self.cost_of(Some(cap), scale, &self.runs(scale))
    }

    /// The overflow's API cost at `scale` times the volume when it takes all of the demand.
    pub fn overflow_rent(&self, scale: f64) -> f64 {
        self.overflow_rent_monthly * scale
    }

    /// The demand at scale 1.
    pub fn demand(&self) -> &Demand {
        &self.demand
    }

    /// Renting at `scale` times the volume, $ per month.
    pub fn rent(&self, scale: f64) -> f64 {
        self.rent_monthly * scale
    }

    /// The operations bill of a month with `gpus` GPUs serving: the fixed part and the staff
    /// that grow with the fleet; none without a GPU. The one rule every bill, plan over the
    /// years and bound of the verdict reads.
    pub fn ops(&self, gpus: f64) -> f64 {
        if gpus > 0.0 {
            self.ops_monthly + self.ops_per_gpu * gpus
        } else {
            0.0
        }
    }

    /// A replica's month held: its GPU-hours and the staff that grow with the fleet.
    pub fn replica_month(&self) -> f64 {
        self.policy.replica_gpus * (HOURS_PER_MONTH * self.gpu_hour + self.ops_per_gpu)
    }

    fn cost_of(&self, cap: Option<f64>, scale: f64, runs: &[f64]) -> PlanCost {
        let plan = self.demand.plan_with(cap, scale, runs);
        let compute = plan.provisioned_gpu_hours * self.gpu_hour;
        let busy_compute = (plan.busy_gpu_hours * self.gpu_hour).min(compute);
        PlanCost {
            plan,
            breakdown: Breakdown {
                busy_compute,
                idle_compute: compute - busy_compute,
                ops: self.ops(plan.gpus),
                // All of the demand sent to the API is renting, priced as renting is; a part of
                // it arrives without its prefix cache.
                overflow_api: if plan.overflow_share >= 1.0 {
                    self.rent(scale)
                } else {
                    plan.overflow_share * self.overflow_rent(scale)
                },
            },
        }
    }

    /// Self-hosting everything at `scale` times the volume.
    pub fn self_host(&self, scale: f64) -> PlanCost {
        self.cost_of(None, scale, &self.runs(scale))
    }

    fn runs(&self, scale: f64) -> Vec<f64> {
        match self.policy.scaling {
            Scaling::Hourly => self.demand.hourly_runs(scale),
            Scaling::Fixed => Vec::new(),
        }
    }

    /// The cheapest split between own replicas (capped) and the API at `scale` times the volume.
    /// A cap of zero is renting; the uncapped fleet is self-hosting: the result never costs more
    /// than either.
    pub fn hybrid(&self, scale: f64) -> PlanCost {
        self.self_host_and_hybrid(scale).1
    }

    /// Self-hosting everything at `scale` times the volume, with the cheapest hybrid when
    /// `hybrid` (costed together, see [`Costing::self_host_and_hybrid`]).
    pub fn self_host_and_hybrid_if(
        &self,
        scale: f64,
        hybrid: bool,
    ) -> (PlanCost, Option<PlanCost>) {
        if hybrid {
            let (own, best) = self.self_host_and_hybrid(scale);
            (own, Some(best))
        } else {
            (self.self_host(scale), None)
        }
    }

    /// Self-hosting everything and the cheapest hybrid at `scale` times the volume, costed
    /// together (the uncapped fleet is where the hybrid's search starts).
    pub fn self_host_and_hybrid(&self, scale: f64) -> (PlanCost, PlanCost) {
        let runs = self.runs(scale);
        self.own_and_best(scale, &runs, self.fixed_cheapest(scale))
    }

    /// Self-hosting everything, the cheapest hybrid, and the bill of the cheapest hybrid that
    /// is a plan of its own (see [`Costing::proper_hybrid`]; `None` when none is) at `scale`
    /// times the volume: what [`Costing::self_host_and_hybrid`] and
    /// [`Costing::proper_hybrid`] give, with a fixed fleet's cheapest cap searched once for
    /// both. The band map judges thousands of volumes this way.
    pub fn self_host_and_hybrids(&self, scale: f64) -> (PlanCost, PlanCost, Option<f64>) {
        let runs = self.runs(scale);
        let cheapest = self.fixed_cheapest(scale);
        let (own, best) = self.own_and_best(scale, &runs, cheapest);
        let proper = if best.plan.replicas > 0.0 && best.plan.overflow_share > 0.0 {
            Some(best.total())
        } else {
            self.proper_hybrid_with(scale, &runs, cheapest)
        };
        (own, best, proper)
    }

    /// A fixed fleet's cheapest cap at `scale` ([`Costing::cheapest_fixed_cap`]); `None` for a
    /// fleet that scales by the hour, whose caps are searched one by one.
    fn fixed_cheapest(&self, scale: f64) -> Option<PlanCost> {
        match self.policy.scaling {
            Scaling::Fixed => self.cheapest_fixed_cap(scale),
            Scaling::Hourly => None,
        }
    }

    /// Self-hosting everything and the cheapest hybrid at `scale`, given the hourly `runs` and
    /// a fixed fleet's `cheapest` cap.
    fn own_and_best(
        &self,
        scale: f64,
        runs: &[f64],
        cheapest: Option<PlanCost>,
    ) -> (PlanCost, PlanCost) {
        let own = self.cost_of(None, scale, runs);
        let mut best = own;
        match self.policy.scaling {
            Scaling::Fixed => {
                // A cap of zero rents everything: no GPUs, no staff, the whole demand at the
                // API, so its bill is the rent to the cent (0 + 0 + 0 + rent), and the plan is
                // only made when it wins.
                if self.rent(scale) < best.total() {
                    best = self.cost_of(Some(0.0), scale, runs);
                }
                if let Some(cheapest) = cheapest {
                    if cheapest.total() < best.total() {
                        best = cheapest;
                    }
                }
            }
            Scaling::Hourly => self.demand.for_each_candidate_cap(scale, |cap: f64| {
                let c = self.cost_of(Some(cap), scale, runs);
                if c.total() < best.total() {
                    best = c;
                }
            }),
        }
        (own, best)
    }

    /// The cheapest hybrid that is a plan of its own (some replicas and some demand sent to the
    /// API) at `scale` times the volume, $ per month: what keeping a capped fleet costs where
    /// the cheapest cap is the full fleet or none. `None` when no cap is such a plan.
    pub fn proper_hybrid(&self, scale: f64) -> Option<f64> {
        let runs = self.runs(scale);
        self.proper_hybrid_with(scale, &runs, self.fixed_cheapest(scale))
    }

    /// [`Costing::proper_hybrid`] given the hourly `runs` and a fixed fleet's `cheapest` cap.
    fn proper_hybrid_with(
        &self,
        scale: f64,
        runs: &[f64],
        cheapest: Option<PlanCost>,
    ) -> Option<f64> {
        let proper = |c: &PlanCost| c.plan.replicas > 0.0 && c.plan.overflow_share > 0.0;
        let mut best: Option<f64> = None;
        let mut consider = |cap: f64| {
            let c = self.cost_of(Some(cap), scale, runs);
            if proper(&c) && best.is_none_or(|b| c.total() < b) {
                best = Some(c.total());
            }
        };
        match self.policy.scaling {
            Scaling::Fixed => {
                let full = self.demand.full_replicas(scale);
                let lo = self.policy.min_replicas.max(1.0);
                if lo <= full - 1.0 {
                    // The cheapest cap from the least fleet to the full one (its bill is convex
                    // there), or the cap next to it when that is the full fleet.
                    match cheapest.filter(proper) {
                        Some(c) => consider(c.plan.replicas.min(full)),
                        None => consider(full - 1.0),
                    }
                    consider(lo);
                }
            }
            Scaling::Hourly => self.demand.for_each_candidate_cap(scale, consider),
        }
        best
    }

    /// The cheapest cap of a fixed fleet between the minimum fleet (at least one replica) and
    /// the full one. There the bill is convex in the cap: the GPUs and the staff that grow
    /// with them are linear in it, and the overflow (demand above the cap, summed over the
    /// week's hours) is convex. So the cheapest cap is the first whose next one is not cheaper.
    ///
    /// The search starts where the slope turns: one more replica costs `per_replica` a month
    /// and saves, for each hour of the week whose need is above the cap, what that replica-hour
    /// would cost at the API. The cheapest cap has about `per_replica / per_hour` hours above
    /// it. From there it walks to the first cap whose next one is not cheaper: a few costings
    /// when the guess is close (about `WALK + 2 log2(replicas)` at worst) instead of the
    /// `2 log2(replicas)` of a bisection over the whole range every time.
    fn cheapest_fixed_cap(&self, scale: f64) -> Option<PlanCost> {
        let full = self.demand.full_replicas(scale);
        let lo = self.policy.min_replicas.max(1.0);
        // Caps are whole numbers; counted as integers, the walk always ends.
        if !(lo <= full && full < 9.0e15) {
            return None;
        }
        let (lo, hi) = (lo as u64, full as u64);
        let p = &self.policy;
        let weekly_busy = self.demand.mean_busy_gpus() * scale * HOURS_PER_WEEK as f64;
        let per_replica = self.replica_month();
        let per_hour = self.overflow_rent(scale) * p.replica_gpus * p.util / weekly_busy;
        let guess = self
            .demand
            .cap_with_hours_above(per_replica / per_hour, scale);
        let start = if guess.is_finite() {
            (guess.clamp(lo as f64, hi as f64)) as u64
        } else {
            lo
        };
        Some(self.cheapest_cap_from(start, lo, hi, scale))
    }

    /// The first cap of `lo..=hi` whose next one is not cheaper (of a fixed fleet at `scale`,
    /// whose bill is convex in the cap), searched from `start`: the walk, then a bisection of
    /// what is left if the walk is long.
    fn cheapest_cap_from(&self, start: u64, lo: u64, hi: u64, scale: f64) -> PlanCost {
        let mut cap = start;
        let cost = |cap: u64| self.cost_of(Some(cap as f64), scale, &[]);
        // The first cap of `lo..=hi` whose next one is not cheaper, by bisection.
        let bisect = |mut lo: u64, mut hi: u64| {
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if cost(mid + 1).total() < cost(mid).total() {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            cost(lo)
        };
        let mut at = cost(cap);
        // Down while the cap below is no dearer (to the first of equal caps), else up while
        // the cap above is cheaper; a guess far off ends in a bisection of what is left.
        let mut steps = 0;
        while cap > lo {
            let below = cost(cap - 1);
            if below.total() > at.total() {
                break;
            }
            cap -= 1;
            at = below;
            steps += 1;
            if steps == WALK {
                return bisect(lo, cap);
            }
        }
        if cap < start {
            return at;
        }
        while cap < hi {
            let above = cost(cap + 1);
            if above.total() >= at.total() {
                break;
            }
            cap += 1;
            at = above;
            steps += 1;
            if steps == WALK {
                return bisect(cap, hi);
            }
        }
        at
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::ProfileSpec;
    use proptest::prelude::*;

    proptest! {
        /// The search finds what costing every whole cap finds.
        #[test]
        fn the_fixed_hybrid_is_the_cheapest_whole_cap(
            weights in proptest::collection::vec(0.0f64..10.0, 24),
            tokens in 1e9f64..1e14,
            price_out in 0.1f64..30.0,
            gpu_hour in 0.5f64..12.0,
            ops in 0.0f64..50_000.0,
            ops_per_gpu in 0.0f64..2_000.0,
            min_replicas in 0u32..6,
            redundancy in 0u32..3,
        ) {
            prop_assume!(weights.iter().sum::<f64>() > 0.0);
            let Some(profile) = LoadProfile::from_spec(&ProfileSpec::Custom(weights)) else {
                return Err(proptest::test_runner::TestCaseError::fail("24 weights with a positive sum make a profile"));
            };
            let policy = FleetPolicy {
                replica_gpus: 8.0,
                util: 0.7,
                redundancy: redundancy as f64,
                min_replicas: min_replicas as f64,
                scaling: Scaling::Fixed,
            };
            let c = Costing::new(
                Volumes { uncached: tokens * 0.3, cached: tokens * 0.5, output: tokens * 0.2 },
                ApiPricing { price_in: price_out / 4.0, price_out, cache_discount: 0.9, markup: 0.0, batch_saving: 0.0 },
                GpuTime { uncached: 1e-5, cached: 1e-6, output: 4e-4 },
                profile,
                policy,
                gpu_hour,
                ops,
            )
            .with_ops_per_gpu(ops_per_gpu);
            for scale in [0.05, 0.3, 1.0, 2.5, 7.0] {
                // The decision's shortcut names the plan the totals name.
                for searched in [true, false] {
                    let t = crate::decision::Totals::of(&c, scale, searched);
                    let pick = crate::decision::Pick::of(&c, scale, searched);
                    prop_assert_eq!(pick.plan, t.best().0, "scale {}", scale);
                    prop_assert_eq!((pick.rent, pick.self_host), (t.rent, t.self_host));
                    // The band map's judgement, one search for both hybrids, is the two
                    // costed apart.
                    prop_assert_eq!(
                        crate::decision::judged(&c, scale, searched),
                        t.with_proper_hybrid(&c, scale, searched)
                    );
                }
                let (own, hybrid) = c.self_host_and_hybrid(scale);
                let full = c.demand().full_replicas(scale);
                let mut least = own.total();
                let mut cap = 0.0;
                while cap <= full {
                    if cap == 0.0 || cap >= policy.min_replicas {
                        least = least.min(c.cost_of(Some(cap), scale, &[]).total());
                    }
                    cap += 1.0;
                }
                prop_assert!(
                    (hybrid.total() - least).abs() <= 1e-9 * least.max(1.0),
                    "scale {}: search {} vs every cap {}", scale, hybrid.total(), least
                );
                // From any start (the walk, and the bisection that ends a long walk), the
                // search ends at a cheapest cap.
                let lo = policy.min_replicas.max(1.0);
                if lo <= full {
                    let (lo, hi) = (lo as u64, full as u64);
                    let fewest = (lo..=hi)
                        .map(|k| c.cost_of(Some(k as f64), scale, &[]).total())
                        .fold(f64::INFINITY, f64::min);
                    for start in [lo, hi, lo + (hi - lo) / 3, hi.saturating_sub(WALK as u64 + 1).max(lo)] {
                        let found = c.cheapest_cap_from(start, lo, hi, scale);
                        let cap = found.plan.replicas - policy.redundancy;
                        let at = c.cost_of(Some(cap), scale, &[]).total();
                        prop_assert_eq!(at, found.total());
                        prop_assert!(
                            (at - fewest).abs() <= 1e-9 * fewest.max(1.0),
                            "scale {}, from {}: cap {} costs {} vs {}", scale, start, cap, at, fewest
                        );
                    }
                }
            }
        }
    }
}
