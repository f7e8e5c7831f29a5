//! The decision: which plan is cheapest (renting, self-hosting or the best hybrid), how sure
//! that is over documented ranges of the uncertain inputs, and the value of each main input at
//! which the cheapest plan changes.
//!
//! Split along its three parts: [`sample`] (how sure: the documented ranges and the seeded
//! sample over them), [`search`] (what would change it: the flips) and this module (the plans,
//! their totals, ties and the draw both of those cost).

mod bands;
mod joint;
mod knob;
mod sample;
mod search;

pub use bands::*;
pub use joint::*;
pub use knob::Knob;
pub use sample::*;
pub use search::*;

use serde::{Deserialize, Serialize};

use crate::costing::Costing;
use crate::curve::Reading;
use crate::gpu_time::GpuTime;
use crate::resolved::Resolved;

/// The strategies the verdict chooses among: rent, self-host or the hybrid (a "plan" in the
/// page's words; `crate::projection` is the cost over the years).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    /// Rent everything per token.
    Rent,
    /// Self-host everything.
    SelfHost,
    /// Own replicas with the demand above their cap sent to the API.
    Hybrid,
}

impl Strategy {
    /// The plan as the report spells it: `rent`, `self_host`, `hybrid`.
    pub fn key(self) -> &'static str {
        match self {
            Strategy::Rent => "rent",
            Strategy::SelfHost => "self_host",
            Strategy::Hybrid => "hybrid",
        }
    }

    /// The plan in words.
    pub fn label(self) -> &'static str {
        match self {
            Strategy::Rent => "renting",
            Strategy::SelfHost => "self-hosting",
            Strategy::Hybrid => "the hybrid",
        }
    }
}

/// The monthly totals of the three plans at one set of inputs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Totals {
    /// Renting, $ per month.
    pub rent: f64,
    /// Self-hosting everything, $ per month.
    pub self_host: f64,
    /// The best hybrid, $ per month, when the hybrid is searched and is a plan of its own
    /// (some own replicas and some demand sent to the API).
    pub hybrid: Option<f64>,
}

impl Totals {
    /// Costs the three plans at `scale` times the volume.
    pub fn of(c: &Costing, scale: f64, hybrid: bool) -> Self {
        let rent = c.rent(scale);
        if !hybrid {
            return Self {
                rent,
                self_host: c.self_host(scale).total(),
                hybrid: None,
            };
        }
        let (own, h) = c.self_host_and_hybrid(scale);
        let is_own_plan = h.plan.replicas > 0.0 && h.plan.overflow_share > 0.0;
        Self {
            rent,
            self_host: own.total(),
            hybrid: is_own_plan.then(|| h.total()),
        }
    }

    /// The cheapest plan and its monthly cost. Renting wins a tie with self-hosting; the hybrid
    /// is named only when it is cheaper than both by more than rounding.
    pub fn best(&self) -> (Strategy, f64) {
        let (plan, usd) = if self.self_host < self.rent {
            (Strategy::SelfHost, self.self_host)
        } else {
            (Strategy::Rent, self.rent)
        };
        match self.hybrid {
            Some(h) if h < usd - 1e-9 * usd.abs().max(1.0) => (Strategy::Hybrid, h),
            _ => (plan, usd),
        }
    }

    /// Self-hosting minus renting, $ per month.
    pub fn difference(&self) -> f64 {
        self.self_host - self.rent
    }

    /// These totals with a hybrid whose cheapest cap is the full fleet or none (and so not a
    /// plan of its own) costed at its cheapest proper cap, some replicas and some demand at the
    /// API, when `hybrid` is searched: what ties are judged on. `c` costs the same inputs at
    /// `scale` times the volume.
    pub fn with_proper_hybrid(self, c: &Costing, scale: f64, hybrid: bool) -> Self {
        Self {
            hybrid: self
                .hybrid
                .or_else(|| hybrid.then(|| c.proper_hybrid(scale)).flatten()),
            ..self
        }
    }

    /// A plan's monthly bill (`None` for a hybrid that is not a plan of its own).
    pub fn cost(&self, plan: Strategy) -> Option<f64> {
        match plan {
            Strategy::Rent => Some(self.rent),
            Strategy::SelfHost => Some(self.self_host),
            Strategy::Hybrid => self.hybrid,
        }
    }

    /// The plans other than the one [`Totals::best`] names whose bills are within `tie` of its
    /// bill: they cost the same, as far as the inputs are known. Cheapest first.
    pub fn ties(&self, tie: f64) -> Vec<(Strategy, f64)> {
        let (best, usd) = self.best();
        let mut tied: Vec<(Strategy, f64)> = [Strategy::Rent, Strategy::SelfHost, Strategy::Hybrid]
            .into_iter()
            .filter(|&p| p != best)
            .filter_map(|p| self.cost(p).map(|c| (p, c)))
            .filter(|&(_, c)| within_tie(usd, c, tie))
            .collect();
        tied.sort_by(|a, b| a.1.total_cmp(&b.1));
        tied
    }

    /// How much less the named plan costs than the next cheapest plan, $ per month (`None`
    /// when no other plan is costed).
    pub fn margin(&self) -> Option<f64> {
        let (best, usd) = self.best();
        [Strategy::Rent, Strategy::SelfHost, Strategy::Hybrid]
            .into_iter()
            .filter(|&p| p != best)
            .filter_map(|p| self.cost(p))
            .map(|c| c - usd)
            .min_by(f64::total_cmp)
    }
}

/// The three plans' totals at `scale` times the volume, a hybrid whose cheapest cap is the
/// full fleet or none costed at its cheapest proper cap (some replicas, some demand at the API):
/// what ties are judged on. The named plan is the one [`Totals::of`] names.
pub fn judged(c: &Costing, scale: f64, hybrid: bool) -> Totals {
    if !hybrid {
        return Totals::of(c, scale, false);
    }
    // `Totals::of(..).with_proper_hybrid(..)`, with the fixed fleet's cheapest cap searched
    // once for both.
    let (own, _, proper) = c.self_host_and_hybrids(scale);
    Totals {
        rent: c.rent(scale),
        self_host: own.total(),
        hybrid: proper,
    }
}

/// Whether a plan costing `other` a month ties with the cheapest at `cheapest`: it costs at
/// most the share `tie` of the cheapest's bill more.
pub fn within_tie(cheapest: f64, other: f64, tie: f64) -> bool {
    other - cheapest <= tie * cheapest.abs()
}

/// The cheapest plan at one set of inputs, with renting's and self-hosting's totals: all the
/// sample and the flips need of [`Totals`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pick {
    /// What [`Totals::best`] names.
    pub plan: Strategy,
    /// Renting, $ per month.
    pub rent: f64,
    /// Self-hosting everything, $ per month.
    pub self_host: f64,
}

impl Pick {
    /// `Totals::of(c, scale, hybrid).best().0` with renting's and self-hosting's totals, for
    /// a fraction of the work when a fixed fleet's hybrid is searched: the hybrid's bill is
    /// convex in the cap, so the cap one replica below the full fleet tells whether any cap
    /// beats self-hosting, and the cheapest cap conceivable (the smallest fleet with no
    /// overflow at all) whether any could beat renting. Only when neither settles it is the
    /// cheapest cap searched.
    pub fn of(c: &Costing, scale: f64, hybrid: bool) -> Self {
        let rent = c.rent(scale);
        let own = c.self_host(scale).total();
        let settled = |plan| Self {
            plan,
            rent,
            self_host: own,
        };
        let (base, usd) = if own < rent {
            (Strategy::SelfHost, own)
        } else {
            (Strategy::Rent, rent)
        };
        if !hybrid {
            return settled(base);
        }
        if c.policy.scaling == crate::fleet::Scaling::Fixed {
            // Below this, [`Totals::best`] names the hybrid.
            let named_below = usd - 1e-9 * usd.abs().max(1.0);
            let p = &c.policy;
            let full = c.demand().full_replicas(scale);
            let lo = p.min_replicas.max(1.0);
            if own <= rent {
                if !(full - 1.0 >= lo) {
                    // No cap between the full fleet and renting everything.
                    return settled(base);
                }
                let below = c.capped(full - 1.0, scale).total();
                if below >= own {
                    // Convex in the cap and not falling at the full fleet: no cap is cheaper.
                    return settled(base);
                }
                if below < named_below {
                    // A replica fewer already beats self-hosting by more than rounding; the
                    // cheapest cap is cheaper still, and has demand above it.
                    return settled(Strategy::Hybrid);
                }
            } else {
                // Every cap pays for at least the smallest fleet's GPUs and staff.
                let least = c.ops_monthly + (lo + p.redundancy) * c.replica_month();
                if least * (1.0 - 1e-12) >= named_below {
                    return settled(base);
                }
            }
        }
        let t = Totals::of(c, scale, hybrid);
        settled(t.best().0)
    }

    /// Self-hosting minus renting, $ per month.
    pub fn difference(&self) -> f64 {
        self.self_host - self.rent
    }
}

/// A small, fast, well-mixed generator (SplitMix64): the same seed, the same sample, in the
/// server and in the browser alike.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// The generator for `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next uniform number in `[0, 1)`.
    pub fn next_unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// FNV-1a of a link: the sample's seed, taken from the canonical link
/// ([`crate::codec::canonical_query`]) so that equivalent links draw the same sample.
pub fn seed_of(query: &str) -> u64 {
    query.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// One set of inputs of the sample: the resolved inputs and a factor on the curve's throughput.
#[derive(Clone)]
pub(crate) struct Draw {
    pub(crate) r: Resolved,
    pub(crate) throughput: f64,
    /// When set, the input's share of the curve's GPU time at its measured point: `P` follows
    /// from it with the draw's `k`, mix and throughput, so the measured point stays reachable.
    pub(crate) input_share: Option<f64>,
    /// When set, the mix `P` follows from instead of the draw's (a drawn mix between bounds
    /// leaves the chip's rate as it is).
    pub(crate) prefill_mix: Option<crate::units::Mix>,
}

impl Draw {
    /// The inputs as given.
    pub(crate) fn new(r: Resolved) -> Self {
        Self {
            r,
            throughput: 1.0,
            input_share: None,
            prefill_mix: None,
        }
    }

    /// The prefill rate of this draw for a curve reading `tokens_per_s` per GPU at its mix.
    pub(crate) fn prefill(&self, tokens_per_s: f64) -> f64 {
        match self.input_share {
            Some(share) => {
                let m = self.prefill_mix.as_ref().unwrap_or(&self.r.curve_mix);
                let p =
                    (m.uncached + self.r.cache_cost * m.cached) * tokens_per_s * self.throughput
                        / share;
                let (lo, hi) = crate::gpu_time::PREFILL_RANGE;
                if p.is_finite() {
                    p.clamp(lo, hi)
                } else {
                    self.r.prefill
                }
            }
            None => self.r.prefill,
        }
    }

    /// The three plans' totals at these inputs, costed in `scratch` (a costing of the same
    /// volumes and profile, refitted to them: the same numbers as a new one, without copying
    /// the profile for each of the sample's thousands of draws).
    pub(crate) fn totals(
        &self,
        reading: &Reading,
        hybrid: bool,
        scratch: &mut Costing,
    ) -> Option<Pick> {
        let g = GpuTime::derive(
            reading.tokens_per_s_per_gpu * self.throughput,
            &self.r.curve_mix,
            self.prefill(reading.tokens_per_s_per_gpu),
            self.r.cache_cost,
        )
        .ok()?;
        let r = &self.r;
        scratch.refit(
            r.api,
            r.serve(g),
            r.policy,
            r.gpu_hour,
            r.ops_monthly,
            r.ops_per_gpu,
            r.overflow_warm,
        );
        Some(Pick::of(scratch, 1.0, hybrid))
    }
}

/// A costing of `r`'s volumes and profile, to refit draw by draw ([`Draw::totals`]): its GPU
/// time and everything else are set by each refit.
pub(crate) fn scratch(r: &Resolved) -> Costing {
    // The week with the batch work in it, as the inputs as given fill it (the profile as it
    // is when the curve has no reading: each draw's refit sets the GPU time).
    let unset = GpuTime {
        uncached: 0.0,
        cached: 0.0,
        output: 0.0,
    };
    r.costing_for(r.interactive_time().map_or(unset, |(_, g)| g))
}

/// Whether `named` holds at a draw whose cheapest plan is `pick.plan`: it is that plan, or its
/// bill is within `tie` of the cheapest's. `c` is the draw's costing at `scale` times its volume
/// (its hybrid is searched only when a plan's bill needs it).
pub(crate) fn holds_within(
    c: &Costing,
    scale: f64,
    hybrid: bool,
    named: Strategy,
    tie: f64,
    pick: &Pick,
) -> bool {
    if pick.plan == named {
        return true;
    }
    if tie <= 0.0 {
        return false;
    }
    let pair = |p: Strategy| matches!(p, Strategy::Rent | Strategy::SelfHost);
    if pair(named) && pair(pick.plan) {
        let cost = |p: Strategy| match p {
            Strategy::Rent => pick.rent,
            _ => pick.self_host,
        };
        return within_tie(cost(pick.plan), cost(named), tie);
    }
    // A named hybrid whose cheapest cap here is the full fleet or none is held at its cheapest
    // proper cap: keeping some replicas and sending some demand to the API.
    let t = judged(c, scale, hybrid);
    match (t.cost(pick.plan), t.cost(named)) {
        (Some(best), Some(other)) => within_tie(best, other, tie),
        _ => false,
    }
}
