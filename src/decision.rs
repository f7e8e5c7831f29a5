//! The decision: which plan is cheapest (renting, self-hosting or the best hybrid), how sure
//! that is over documented ranges of the uncertain inputs, and the value of each main input at
//! which the cheapest plan changes.
//!
//! ## How sure: the ranges
//!
//! Each draw takes every uncertain input at once from its range, independently: a factor range
//! `×1/f to ×f` is drawn log-uniformly (as likely halved as doubled), a share or a step
//! uniformly. The sample is seeded by the scenario's canonical link, so the same link always
//! gives the same figures; a range of zero width (`f = 1`, a share of 0) leaves its input as
//! given.
//!
//! | range | parameter | default | applies |
//! |---|---|---|---|
//! | prefill rate `P` | `u_prefill` | ×1/2 to ×2 | always |
//! | cache-hit cost ratio `k` | `u_cache_cost` | ×1/2 to ×2 (at most 1) | always |
//! | the curve's mix, when assumed | `u_curve_mix` | up to all the way to the other reading | the publication states no mix |
//! | haircut on a vendor's curve | `u_haircut` | throughput ×0.7 to ×1 | the curve's publisher sells the stack |
//! | spread between curves of the model on chips of the same family | `u_curves` | the whole spread | the dataset has several |
//! | GPU-hour price | `u_gpu_hour` | by the price's kind (below) | always |
//! | target utilisation | `u_util` | ±0.1 (within 0.05 to 1) | always |
//! | API prices | `u_api` | ×1/1.2 to ×1.2 | always |
//!
//! The GPU-hour range follows what the price commits to: a reserved term is fixed for its
//! term (×1.1), an on-demand list price moves and is discounted (×1.25), spot prices swing
//! (×1.5), an owner's cost and owned hardware rest on estimates (×1.3 and ×1.2), and a price
//! whose commitment is not stated gets ×1.3.

use serde::{Deserialize, Serialize};

use crate::costing::Costing;
use crate::curve::Reading;
use crate::gpu_price::Commitment;
use crate::gpu_time::GpuTime;
use crate::resolved::Resolved;
use crate::units::{Mix, HOURS_PER_MONTH};

/// The plans the verdict chooses among.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Plan {
    /// Rent everything per token.
    Rent,
    /// Self-host everything.
    SelfHost,
    /// Own replicas with the demand above their cap sent to the API.
    Hybrid,
}

impl Plan {
    /// The plan as the report spells it: `rent`, `self_host`, `hybrid`.
    pub fn key(self) -> &'static str {
        match self {
            Plan::Rent => "rent",
            Plan::SelfHost => "self_host",
            Plan::Hybrid => "hybrid",
        }
    }

    /// The plan in words.
    pub fn label(self) -> &'static str {
        match self {
            Plan::Rent => "renting",
            Plan::SelfHost => "self-hosting",
            Plan::Hybrid => "the hybrid",
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
    pub fn best(&self) -> (Plan, f64) {
        let (plan, usd) = if self.self_host < self.rent {
            (Plan::SelfHost, self.self_host)
        } else {
            (Plan::Rent, self.rent)
        };
        match self.hybrid {
            Some(h) if h < usd - 1e-9 * usd.abs().max(1.0) => (Plan::Hybrid, h),
            _ => (plan, usd),
        }
    }

    /// Self-hosting minus renting, $ per month.
    pub fn difference(&self) -> f64 {
        self.self_host - self.rent
    }
}

/// The cheapest plan at one set of inputs, with renting's and self-hosting's totals: all the
/// sample and the flips need of [`Totals`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pick {
    /// What [`Totals::best`] names.
    pub plan: Plan,
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
            (Plan::SelfHost, own)
        } else {
            (Plan::Rent, rent)
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
                    return settled(Plan::Hybrid);
                }
            } else {
                // Every cap pays for at least the smallest fleet's GPUs and staff.
                let least = c.ops_monthly
                    + (lo + p.redundancy)
                        * p.replica_gpus
                        * (HOURS_PER_MONTH * c.gpu_hour + c.ops_per_gpu);
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

/// The widths of the uncertainty ranges, as the scenario sets them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UncertaintySpec {
    /// Draws of the sample (0: no sample).
    pub draws: f64,
    /// `P` is drawn from `P/f` to `P·f`.
    pub prefill: f64,
    /// `k` is drawn from `k/f` to `k·f` (at most 1).
    pub cache_cost: f64,
    /// When the curve's mix is assumed, it is drawn up to this share of the way to the other
    /// reading (fixed input and output lengths without a prefix cache).
    pub curve_mix: f64,
    /// A vendor's curve's throughput is drawn from `1 - h` to 1 times as published.
    pub haircut: f64,
    /// Share of the spread between curves of the model on chips of the same family drawn.
    pub curves: f64,
    /// The GPU-hour price is drawn from `p/f` to `p·f` (`None`: by the price's kind).
    pub gpu_hour: Option<f64>,
    /// The target utilisation is drawn within this step either way.
    pub util: f64,
    /// The API prices are drawn from `p/f` to `p·f`.
    pub api: f64,
}

/// servecost's default range widths: assumptions, each with its reason on `/method`.
pub mod defaults {
    /// Draws of the sample: the shares are then known within about ±3.5 percentage points
    /// (one standard error at 50 %), at a cost the browser recomputes within a frame.
    pub const DRAWS: f64 = 200.0;
    /// `P` is servecost's assumption, not a measurement: as likely half as double.
    pub const PREFILL: f64 = 2.0;
    /// `k` likewise.
    pub const CACHE_COST: f64 = 2.0;
    /// An assumed mix may be the other reading entirely.
    pub const CURVE_MIX: f64 = 1.0;
    /// A vendor's tuned best case may be up to 30 % above what a buyer's deployment reaches.
    pub const HAIRCUT: f64 = 0.3;
    /// The whole spread between independent curves of the same model and chip family.
    pub const CURVES: f64 = 1.0;
    /// ±0.1 around the target utilisation.
    pub const UTIL: f64 = 0.1;
    /// List prices move and are negotiated: ×1/1.2 to ×1.2.
    pub const API: f64 = 1.2;
}

impl Default for UncertaintySpec {
    fn default() -> Self {
        Self {
            draws: defaults::DRAWS,
            prefill: defaults::PREFILL,
            cache_cost: defaults::CACHE_COST,
            curve_mix: defaults::CURVE_MIX,
            haircut: defaults::HAIRCUT,
            curves: defaults::CURVES,
            gpu_hour: None,
            util: defaults::UTIL,
            api: defaults::API,
        }
    }
}

/// The GPU-hour range's factor for a price of `kind` (`None` and not owned: not stated).
pub fn gpu_hour_spread(kind: Option<Commitment>, owned: bool) -> f64 {
    if owned {
        return 1.2;
    }
    match kind {
        Some(Commitment::Reserved) => 1.1,
        Some(Commitment::OnDemand) => 1.25,
        Some(Commitment::Spot) => 1.5,
        Some(Commitment::OwnerCost) => 1.3,
        None => 1.3,
    }
}

/// What the dataset says about the uncertainty of this scenario's inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct Context {
    /// The range widths.
    pub spec: UncertaintySpec,
    /// The GPU-hour factor in force (the spec's, or the kind's).
    pub gpu_hour_spread: f64,
    /// What the GPU-hour range rests on, in words.
    pub gpu_hour_reason: String,
    /// The curve was published by a vendor of the stack it measures (its source key).
    pub vendor: Option<String>,
    /// The other reading of an assumed mix (and the curve's source key).
    pub alternative_mix: Option<(Mix, String)>,
    /// Throughput of the other curves of the model on chips of the same family over this
    /// curve's, at the user's mix and target: the lowest and highest ratio (1 included), with
    /// the curves' labels.
    pub curve_ratios: Option<(f64, f64, String)>,
    /// Search the hybrid.
    pub hybrid: bool,
}

/// One documented range, as applied to this scenario.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Range {
    /// Stable key (`prefill`, `cache_cost`, `curve_mix`, `haircut`, `curves`, `gpu_hour`,
    /// `util`, `api`).
    pub key: String,
    /// The query parameter that sets its width.
    pub param: String,
    /// What is uncertain.
    pub label: String,
    /// The range in words, e.g. `25,000 to 100,000 tokens/s per GPU (×1/2 to ×2)`.
    pub range: String,
    /// `log-uniform` or `uniform`.
    pub distribution: String,
    /// Whether it applies to this scenario (a vendor haircut needs a vendor's curve).
    pub applies: bool,
    /// Source key it rests on (`servecost-assumptions` for servecost's own ranges).
    pub source: Option<String>,
    /// Why this range.
    pub reason: String,
    /// The larger change of (self-hosting minus renting) at either end of this range alone,
    /// $ per month.
    pub effect_usd: f64,
}

/// A share of the draws for each plan.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlanShares {
    /// Renting.
    pub rent: f64,
    /// Self-hosting alone.
    pub self_host: f64,
    /// The best hybrid.
    pub hybrid: f64,
}

/// Percentiles of a quantity over the sample.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Percentiles {
    /// 10th percentile.
    pub p10: f64,
    /// Median.
    pub p50: f64,
    /// 90th percentile.
    pub p90: f64,
}

/// How sure the answer is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Uncertainty {
    /// Draws with an answer (draws whose inputs contradict the curve are left out).
    pub draws: u32,
    /// Draws left out because their inputs contradict the curve.
    pub draws_without_answer: u32,
    /// Share of draws in which the cheapest plan is the one named by the verdict.
    pub p_best_holds: f64,
    /// Share of draws in which self-hosting costs less than renting.
    pub p_self_host_cheaper: f64,
    /// Share of draws in which each plan is the cheapest (the three add up to 1).
    pub p_cheapest: PlanShares,
    /// Self-hosting minus renting over the draws, $ per month.
    pub difference_usd: Percentiles,
    /// The ranges drawn from.
    pub ranges: Vec<Range>,
}

/// A value at which the cheapest plan changes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Flip {
    /// The input: `volume` (all tokens per month), `gpu_hour`, `price_in`, `price_out`,
    /// `cache_discount`, `util`, `prefill`, `cache_cost`, `ops` ($ per month of operations),
    /// `throughput` (a factor on the curve's throughput).
    pub param: String,
    /// The input in words.
    pub label: String,
    /// Its value as given.
    pub base: f64,
    /// The value past which the cheapest plan changes (searched to within a millionth).
    pub value: f64,
    /// `above` or `below`: the side of `value` on which the new plan is cheapest.
    pub direction: String,
    /// The cheapest plan as given.
    pub from: Plan,
    /// The cheapest plan past the value.
    pub to: Plan,
}

/// What would change the answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Flips {
    /// The nearest change above and below each input's value, within its accepted range.
    pub flips: Vec<Flip>,
    /// Inputs for which no value in their accepted range changes the cheapest plan.
    pub unchanged: Vec<String>,
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

/// FNV-1a of a link: the sample's seed.
pub fn seed_of(query: &str) -> u64 {
    query.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// One set of inputs of the sample: the resolved inputs and a factor on the curve's throughput.
#[derive(Clone)]
struct Draw {
    r: Resolved,
    throughput: f64,
}

impl Draw {
    /// The three plans' totals at these inputs, costed in `scratch` (a costing of the same
    /// volumes and profile, refitted to them: the same numbers as a new one, without copying
    /// the profile for each of the sample's hundreds of draws).
    fn totals(&self, reading: &Reading, hybrid: bool, scratch: &mut Costing) -> Option<Pick> {
        let g = GpuTime::derive(
            reading.tokens_per_s_per_gpu * self.throughput,
            &self.r.curve_mix,
            self.r.prefill,
            self.r.cache_cost,
        )
        .ok()?;
        let r = &self.r;
        scratch.refit(
            r.api,
            g,
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
fn scratch(r: &Resolved) -> Costing {
    let unset = GpuTime {
        uncached: 0.0,
        cached: 0.0,
        output: 0.0,
    };
    Costing::new(
        r.volumes,
        r.api,
        unset,
        r.profile.clone(),
        r.policy,
        r.gpu_hour,
        r.ops_monthly,
    )
}

/// `×1/f to ×f` at `u` in `[0, 1]`, log-uniform, for `ln_f = ln f`.
fn factor(ln_f: f64, u: f64) -> f64 {
    (ln_f * (2.0 * u - 1.0)).exp()
}

/// The logarithms the levers draw with, taken once for the whole sample rather than in each
/// draw (the same numbers: `ln f` is what [`factor`] multiplies).
struct Logs {
    prefill: f64,
    cache_cost: f64,
    gpu_hour: f64,
    api: f64,
    /// `ln` of the lowest and highest curve ratio raised to the share of the spread drawn.
    curves: Option<(f64, f64)>,
}

impl Logs {
    fn of(ctx: &Context) -> Self {
        let s = &ctx.spec;
        Self {
            prefill: s.prefill.ln(),
            cache_cost: s.cache_cost.ln(),
            gpu_hour: ctx.gpu_hour_spread.ln(),
            api: s.api.ln(),
            curves: ctx
                .curve_ratios
                .as_ref()
                .map(|(lo, hi, _)| (lo.powf(s.curves).ln(), hi.powf(s.curves).ln())),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Lever {
    Prefill,
    CacheCost,
    CurveMix,
    Haircut,
    Curves,
    GpuHour,
    Util,
    Api,
}

const LEVERS: [Lever; 8] = [
    Lever::Prefill,
    Lever::CacheCost,
    Lever::CurveMix,
    Lever::Haircut,
    Lever::Curves,
    Lever::GpuHour,
    Lever::Util,
    Lever::Api,
];

impl Lever {
    fn key(self) -> &'static str {
        match self {
            Lever::Prefill => "prefill",
            Lever::CacheCost => "cache_cost",
            Lever::CurveMix => "curve_mix",
            Lever::Haircut => "haircut",
            Lever::Curves => "curves",
            Lever::GpuHour => "gpu_hour",
            Lever::Util => "util",
            Lever::Api => "api",
        }
    }

    /// Sets the lever at `u` in `[0, 1]` of its range (0.5 is the middle of a factor range).
    fn apply(self, d: &mut Draw, base: &Resolved, ctx: &Context, logs: &Logs, u: f64) {
        let s = &ctx.spec;
        match self {
            Lever::Prefill => d.r.prefill = base.prefill * factor(logs.prefill, u),
            Lever::CacheCost => {
                d.r.cache_cost = (base.cache_cost * factor(logs.cache_cost, u)).min(1.0)
            }
            Lever::CurveMix => {
                if let Some((alt, _)) = &ctx.alternative_mix {
                    let t = u * s.curve_mix;
                    let m = base.curve_mix;
                    d.r.curve_mix = Mix {
                        uncached: m.uncached + (alt.uncached - m.uncached) * t,
                        cached: m.cached + (alt.cached - m.cached) * t,
                        output: m.output + (alt.output - m.output) * t,
                    };
                }
            }
            Lever::Haircut => {
                if ctx.vendor.is_some() {
                    d.throughput *= 1.0 - s.haircut * (1.0 - u);
                }
            }
            Lever::Curves => {
                if let Some((lo, hi)) = logs.curves {
                    d.throughput *= (lo + (hi - lo) * u).exp();
                }
            }
            Lever::GpuHour => d.r.gpu_hour = base.gpu_hour * factor(logs.gpu_hour, u),
            Lever::Util => {
                d.r.policy.util = (base.policy.util + s.util * (2.0 * u - 1.0)).clamp(0.05, 1.0)
            }
            Lever::Api => {
                let f = factor(logs.api, u);
                d.r.api.price_in = base.api.price_in * f;
                d.r.api.price_out = base.api.price_out * f;
            }
        }
    }

    fn applies(self, ctx: &Context) -> bool {
        match self {
            Lever::CurveMix => ctx.alternative_mix.is_some() && ctx.spec.curve_mix > 0.0,
            Lever::Haircut => ctx.vendor.is_some() && ctx.spec.haircut > 0.0,
            Lever::Curves => ctx.curve_ratios.is_some() && ctx.spec.curves > 0.0,
            _ => true,
        }
    }

    fn describe(self, base: &Resolved, ctx: &Context) -> Range {
        let s = &ctx.spec;
        let n = |v: f64| crate::format::significant(v, 3);
        let money = crate::format::usd;
        let times = |f: f64| format!("×1/{} to ×{}", n(f), n(f));
        let assumption = Some("servecost-assumptions".to_owned());
        let (param, label, range, distribution, source, reason) = match self {
            Lever::Prefill => (
                "u_prefill",
                "Prefill rate P",
                format!(
                    "{} to {} uncached input tokens/s per GPU ({})",
                    crate::format::number(base.prefill / s.prefill),
                    crate::format::number(base.prefill * s.prefill),
                    times(s.prefill)
                ),
                "log-uniform",
                assumption,
                "P is servecost's assumption, not a published measurement: as likely half as double."
                    .to_owned(),
            ),
            Lever::CacheCost => (
                "u_cache_cost",
                "Cache-hit cost ratio k",
                format!(
                    "{} to {} ({}, at most 1)",
                    n(base.cache_cost / s.cache_cost),
                    n((base.cache_cost * s.cache_cost).min(1.0)),
                    times(s.cache_cost)
                ),
                "log-uniform",
                assumption,
                "k is an assumption: attention over a cached prefix still costs GPU time, and no \
                 publication measures how much."
                    .to_owned(),
            ),
            Lever::CurveMix => (
                "u_curve_mix",
                "The curve's mix, when assumed",
                format!(
                    "from the assumed mix up to {} of the way to the other reading (no prefix cache)",
                    crate::format::percent(s.curve_mix)
                ),
                "uniform",
                ctx.alternative_mix.as_ref().map(|(_, src)| src.clone()),
                "The publication does not state the mix it measured at; both readings fit it."
                    .to_owned(),
            ),
            Lever::Haircut => (
                "u_haircut",
                "Haircut on a vendor's curve",
                format!("throughput ×{} to ×1 as published", n(1.0 - s.haircut)),
                "uniform",
                ctx.vendor.clone(),
                "A vendor measures its own stack at its best; a buyer's deployment may not reach it."
                    .to_owned(),
            ),
            Lever::Curves => (
                "u_curves",
                "Spread between curves of the model on chips of the same family",
                match &ctx.curve_ratios {
                    Some((lo, hi, _)) => format!(
                        "throughput ×{} to ×{} ({} of the spread)",
                        n(lo.powf(s.curves)),
                        n(hi.powf(s.curves)),
                        crate::format::percent(s.curves)
                    ),
                    None => "no other curve of the model on a chip of this family".to_owned(),
                },
                "log-uniform",
                None,
                match &ctx.curve_ratios {
                    Some((_, _, names)) => format!(
                        "Independent curves disagree: {names} give this throughput at your mix \
                         and speed."
                    ),
                    None => "Independent curves of the same model disagree where the dataset \
                             has several."
                        .to_owned(),
                },
            ),
            Lever::GpuHour => (
                "u_gpu_hour",
                "GPU-hour price",
                format!(
                    "{} to {} ({})",
                    money(base.gpu_hour / ctx.gpu_hour_spread),
                    money(base.gpu_hour * ctx.gpu_hour_spread),
                    times(ctx.gpu_hour_spread)
                ),
                "log-uniform",
                assumption,
                ctx.gpu_hour_reason.clone(),
            ),
            Lever::Util => (
                "u_util",
                "Target utilisation",
                format!(
                    "{} to {}",
                    crate::format::percent((base.policy.util - s.util).max(0.05)),
                    crate::format::percent((base.policy.util + s.util).min(1.0))
                ),
                "uniform",
                assumption,
                "How close to full a replica runs while holding the speed depends on the serving \
                 stack and the traffic."
                    .to_owned(),
            ),
            Lever::Api => (
                "u_api",
                "API prices",
                times(s.api),
                "log-uniform",
                assumption,
                "List prices move and large buyers negotiate them.".to_owned(),
            ),
        };
        Range {
            key: self.key().into(),
            param: param.into(),
            label: label.into(),
            range,
            distribution: distribution.into(),
            applies: self.applies(ctx),
            source,
            reason,
            effect_usd: 0.0,
        }
    }
}

/// The ranges as documented, without their effects.
fn ranges(base: &Resolved, ctx: &Context) -> Vec<Range> {
    LEVERS
        .iter()
        .map(|&lever| lever.describe(base, ctx))
        .collect()
}

/// The ranges as applied, each with its effect alone, and the sample's figures (`None` when the
/// spec asks for no draws or no draw has an answer).
pub fn uncertainty(
    base: &Resolved,
    reading: &Reading,
    ctx: &Context,
    point: &Totals,
    seed: u64,
) -> (Vec<Range>, Option<Uncertainty>) {
    let draws = ctx.spec.draws as u32;
    let start = Draw {
        r: base.clone(),
        throughput: 1.0,
    };
    let logs = Logs::of(ctx);
    let mut work = scratch(base);
    // Each range alone at either end: its effect on the difference.
    let point_difference = point.difference();
    let ranges: Vec<Range> = LEVERS
        .iter()
        .zip(ranges(base, ctx))
        .map(|(&lever, mut range)| {
            if range.applies {
                range.effect_usd = [0.0, 1.0]
                    .into_iter()
                    .filter_map(|u| {
                        let mut d = start.clone();
                        lever.apply(&mut d, base, ctx, &logs, u);
                        d.totals(reading, false, &mut work)
                    })
                    .map(|t| (t.difference() - point_difference).abs())
                    .fold(0.0, f64::max);
            }
            range
        })
        .collect();
    if draws == 0 {
        return (ranges, None);
    }
    let (best, _) = point.best();
    let mut rng = SplitMix64::new(seed);
    let mut differences = Vec::with_capacity(draws as usize);
    let (mut holds, mut cheaper, mut failed) = (0u32, 0u32, 0u32);
    let mut plans = [0u32; 3];
    let mut d = start.clone();
    for _ in 0..draws {
        d.throughput = 1.0;
        for lever in LEVERS {
            // Every lever takes its number, applied or not, so that the stream (and the
            // figures) of one range do not move when another stops applying.
            let u = rng.next_unit();
            lever.apply(&mut d, base, ctx, &logs, u);
        }
        match d.totals(reading, ctx.hybrid, &mut work) {
            Some(t) => {
                let cheapest = t.plan;
                holds += u32::from(cheapest == best);
                match cheapest {
                    Plan::Rent => plans[0] += 1,
                    Plan::SelfHost => plans[1] += 1,
                    Plan::Hybrid => plans[2] += 1,
                }
                cheaper += u32::from(t.self_host < t.rent);
                differences.push(t.difference());
            }
            None => failed += 1,
        }
    }
    if differences.is_empty() {
        return (ranges, None);
    }
    differences.sort_by(f64::total_cmp);
    let n = differences.len() as f64;
    let at = |q: f64| {
        let x = q * (n - 1.0);
        let (i, frac) = (x.floor() as usize, x.fract());
        let lo = differences[i];
        let hi = differences[(i + 1).min(differences.len() - 1)];
        lo + (hi - lo) * frac
    };
    let figures = Uncertainty {
        draws: differences.len() as u32,
        draws_without_answer: failed,
        p_best_holds: f64::from(holds) / n,
        p_self_host_cheaper: f64::from(cheaper) / n,
        p_cheapest: PlanShares {
            rent: f64::from(plans[0]) / n,
            self_host: f64::from(plans[1]) / n,
            hybrid: f64::from(plans[2]) / n,
        },
        difference_usd: Percentiles {
            p10: at(0.1),
            p50: at(0.5),
            p90: at(0.9),
        },
        ranges: ranges.clone(),
    };
    (ranges, Some(figures))
}

/// The inputs the flips search, with their accepted ranges.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Input {
    Volume,
    GpuHour,
    PriceIn,
    PriceOut,
    CacheDiscount,
    Util,
    Prefill,
    CacheCost,
    Ops,
    Throughput,
}

const INPUTS: [Input; 10] = [
    Input::Volume,
    Input::GpuHour,
    Input::PriceIn,
    Input::PriceOut,
    Input::CacheDiscount,
    Input::Util,
    Input::Prefill,
    Input::CacheCost,
    Input::Ops,
    Input::Throughput,
];

/// How far the volume is searched either way, as a factor of the scenario's.
const VOLUME_SPAN: f64 = 1_000.0;

/// Grid steps from the value to each end of its range before the change is refined: inputs
/// whose plans cost a straight line in them (prices, operations) cross at most once or twice;
/// those that change the fleet in whole replicas (utilisation, P, k, throughput) get a finer
/// grid; the volume, cheap to probe, the finest, so that the nearest band in which another plan
/// wins between two replica steps is found.
const GRID: usize = 12;
const GRID_STEPPED: usize = 24;
/// Near the scenario's volume (within ×10 either way) the volume moves by this factor a step:
/// 2 % for a fixed fleet, 5 % for an hourly one (smoother, and dearer to probe); beyond, the
/// coarse grid.
const VOLUME_STEP_FIXED: f64 = 1.02;
const VOLUME_STEP_HOURLY: f64 = 1.05;
/// Bisection steps at most: a bracket of one grid step narrowed to within [`PRECISION`].
const BISECT: usize = 40;
/// A flip's value is found to within this share of itself (a millionth: far below the three
/// significant digits the page shows).
const PRECISION: f64 = 1e-6;

impl Input {
    fn grid(self) -> usize {
        match self {
            Input::Util | Input::Prefill | Input::CacheCost | Input::Throughput => GRID_STEPPED,
            _ => GRID,
        }
    }

    /// Whether every plan's cost is a straight line in the input (for a given cap): the API
    /// prices and discount, the operations and the GPU-hour price.
    fn straight(self) -> bool {
        matches!(
            self,
            Input::PriceIn | Input::PriceOut | Input::CacheDiscount | Input::Ops | Input::GpuHour
        )
    }

    /// Whether the end of the input's range tells if the plan `from` changes on the way there:
    /// when `from` is cheapest over one interval of the input, and so no grid is needed.
    ///
    /// For a straight input each cap's bill is a line, and a plan is cheapest where its line is
    /// under every other. Renting's and self-hosting's lines are each under another over a
    /// half-line, so each is cheapest over an intersection of half-lines: an interval, for
    /// every straight input. The hybrid is cheapest where some cap's line is under both:
    /// one interval when every cap's slope lies between renting's and self-hosting's, so that
    /// the lowest line passes from one end to the other through the caps in order. It does for
    /// the output price, the discount, the operations and the GPU-hour price. For the input
    /// price it need not: the demand sent to the API arrives without its prefix cache (but for
    /// its warm share), so a small fleet's overflow pays more per unit of the input price than
    /// renting everything does, and along the price the hybrid can win, lose to renting and win
    /// again. From the hybrid, that input keeps its grid.
    fn end_tells(self, from: Plan) -> bool {
        self.straight() && !(self == Input::PriceIn && from == Plan::Hybrid)
    }

    fn key(self) -> &'static str {
        match self {
            Input::Volume => "volume",
            Input::GpuHour => "gpu_hour",
            Input::PriceIn => "price_in",
            Input::PriceOut => "price_out",
            Input::CacheDiscount => "cache_discount",
            Input::Util => "util",
            Input::Prefill => "prefill",
            Input::CacheCost => "cache_cost",
            Input::Ops => "ops",
            Input::Throughput => "throughput",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Input::Volume => "Monthly volume",
            Input::GpuHour => "GPU-hour price",
            Input::PriceIn => "API input price",
            Input::PriceOut => "API output price",
            Input::CacheDiscount => "API cache discount",
            Input::Util => "Target utilisation",
            Input::Prefill => "Prefill rate P",
            Input::CacheCost => "Cache-hit cost ratio k",
            Input::Ops => "Operations cost",
            Input::Throughput => "Curve throughput",
        }
    }

    /// The value as given, the accepted range (the codec's; for the throughput, ×0.1 to ×10 of
    /// the curve; for the volume, ×1/1,000 to ×1,000 of yours within the codec's), and whether the grid is
    /// geometric (ranges over orders of magnitude) or even (shares).
    fn span(self, r: &Resolved) -> (f64, f64, f64, bool) {
        let range = |name: &str| crate::codec::spec(name).map_or((0.0, 1.0), |s| (s.min, s.max));
        match self {
            // Within a thousandth to a thousand times yours (and the codec's range): a plan
            // that changes a million times further out says nothing about this workload.
            Input::Volume => {
                let v = r.volumes.total();
                (
                    v,
                    (v / VOLUME_SPAN).max(1.0),
                    (v * VOLUME_SPAN).min(range("tokens").1),
                    true,
                )
            }
            Input::GpuHour => {
                let (lo, hi) = range("gpu_hour");
                (r.gpu_hour, lo, hi, true)
            }
            Input::PriceIn => (r.api.price_in, 0.0, range("price_in").1, true),
            Input::PriceOut => (r.api.price_out, 0.0, range("price_out").1, true),
            Input::CacheDiscount => (r.api.cache_discount, 0.0, 1.0, false),
            Input::Util => (r.policy.util, range("util").0, 1.0, false),
            Input::Prefill => {
                let (lo, hi) = range("prefill");
                (r.prefill, lo, hi, true)
            }
            Input::CacheCost => (r.cache_cost, 0.0, 1.0, false),
            Input::Ops => (r.ops_monthly, 0.0, range("ops_monthly").1, true),
            Input::Throughput => (1.0, 0.1, 10.0, true),
        }
    }
}

/// The plans' totals with one input set to a value.
struct Probe<'a> {
    base: &'a Resolved,
    reading: &'a Reading,
    costing: &'a Costing,
    hybrid: bool,
    /// A costing of the same volumes and profile, refitted for each probe of an input that
    /// changes the prices, the GPU time, the policy or the operations.
    scratch: Costing,
    /// The inputs as given, with the one probed set.
    draw: Draw,
}

/// One end of a bracket: a value, and self-hosting minus renting there (not a number when it
/// was not probed).
#[derive(Clone, Copy)]
struct End {
    value: f64,
    margin: f64,
}

impl Probe<'_> {
    fn totals(&mut self, input: Input, v: f64) -> Option<Pick> {
        Some(match input {
            Input::Volume => {
                let total = self.base.volumes.total();
                Pick::of(self.costing, v / total, self.hybrid)
            }
            Input::GpuHour => {
                let c = self.costing;
                self.scratch.refit(
                    c.api,
                    c.gpu_time,
                    c.policy,
                    v,
                    c.ops_monthly,
                    c.ops_per_gpu,
                    self.base.overflow_warm,
                );
                Pick::of(&self.scratch, 1.0, self.hybrid)
            }
            _ => {
                // The inputs as given, but for this one (no copy of the curve or the profile).
                let d = &mut self.draw;
                let base = self.base;
                d.r.api = base.api;
                d.r.policy = base.policy;
                d.r.prefill = base.prefill;
                d.r.cache_cost = base.cache_cost;
                d.r.ops_monthly = base.ops_monthly;
                d.throughput = 1.0;
                match input {
                    Input::PriceIn => d.r.api.price_in = v,
                    Input::PriceOut => d.r.api.price_out = v,
                    Input::CacheDiscount => d.r.api.cache_discount = v,
                    Input::Util => d.r.policy.util = v,
                    Input::Prefill => d.r.prefill = v,
                    Input::CacheCost => d.r.cache_cost = v,
                    Input::Ops => d.r.ops_monthly = v,
                    Input::Throughput => d.throughput = v,
                    Input::Volume | Input::GpuHour => {}
                }
                self.draw
                    .totals(self.reading, self.hybrid, &mut self.scratch)?
            }
        })
    }

    /// The volumes probed from `base` towards `end`: fine steps to ×10, then the coarse grid.
    /// How many, and the `i`-th of them (from 1), reckoned as they are probed: the search
    /// mostly stops after a few.
    fn volume_steps(&self, base: f64, end: f64) -> (usize, impl Fn(usize) -> f64) {
        let step = match self.costing.policy.scaling {
            crate::fleet::Scaling::Fixed => VOLUME_STEP_FIXED,
            crate::fleet::Scaling::Hourly => VOLUME_STEP_HOURLY,
        };
        let up = end > base;
        let near = if up {
            (base * 10.0).min(end)
        } else {
            (base / 10.0).max(end)
        };
        let n = ((near / base).ln().abs() / step.ln()).ceil().max(1.0) as usize;
        let coarse = if near != end { GRID } else { 0 };
        let at = move |i: usize| {
            if i <= n {
                base * (near / base).powf(i as f64 / n as f64)
            } else {
                near * (end / near).powf((i - n) as f64 / GRID as f64)
            }
        };
        (n + coarse, at)
    }

    /// The nearest value from `base` towards `end` at which the best plan is not `from`: the
    /// value found and the plan there.
    fn search(
        &mut self,
        input: Input,
        from: Plan,
        base: f64,
        end: f64,
        geometric: bool,
    ) -> Option<(f64, Plan)> {
        if base == end {
            return None;
        }
        // A geometric grid cannot start or end at 0: it runs to a millionth of the other end,
        // and 0 itself is the last step.
        let (a, b) = if geometric {
            let tiny = base.abs().max(end.abs()) * 1e-6;
            (base.max(tiny), if end == 0.0 { tiny } else { end })
        } else {
            (base, end)
        };
        let (la, lb) = if geometric {
            (a.ln(), b.ln())
        } else {
            (0.0, 0.0)
        };
        let grid = input.grid();
        let on_grid = |i: usize| {
            let t = i as f64 / grid as f64;
            if geometric {
                (la + (lb - la) * t).exp()
            } else {
                a + (b - a) * t
            }
        };
        let volume = self.volume_steps(base, end);
        // The steps, the last of them the end itself; a geometric grid that ends at 0 takes
        // 0 as a step of its own after its millionth.
        let end_only = input.end_tells(from);
        let to_zero = geometric && end == 0.0 && !end_only;
        let count = match input {
            Input::Volume => volume.0,
            _ if end_only => 1,
            _ => grid + usize::from(to_zero),
        };
        let step = |i: usize| {
            if i == count {
                end
            } else if input == Input::Volume {
                (volume.1)(i)
            } else {
                on_grid(i)
            }
        };
        // The margin at the value as given is not probed: the refinement bisects first then.
        let mut same = End {
            value: base,
            margin: f64::NAN,
        };
        for v in (1..=count).map(step) {
            // No answer past here (the inputs contradict the curve): nothing changes within
            // the part of the range that has one.
            let t = self.totals(input, v)?;
            let margin = t.difference();
            match t.plan {
                p if p == from => same = End { value: v, margin },
                p => {
                    let other = End { value: v, margin };
                    return Some(self.refine(input, from, same, other, p, geometric));
                }
            }
        }
        None
    }

    /// Narrows the bracket between `same` (where `from` is the cheapest plan) and `other`
    /// (where `to` is) to within [`PRECISION`], by bisection, but for a change between renting
    /// and self-hosting in an input both cost straight lines in (prices, operations): there the
    /// difference of the two at the bracket's ends says where they cross, and two or three
    /// probes close the bracket around it. Should two of those in a row fail to halve it, the
    /// rest is bisection.
    fn refine(
        &mut self,
        input: Input,
        from: Plan,
        mut same: End,
        mut other: End,
        mut to: Plan,
        geometric: bool,
    ) -> (f64, Plan) {
        let pair = |p: Plan| matches!(p, Plan::Rent | Plan::SelfHost);
        let mut lines = input.straight() && pair(from) && pair(to);
        if lines && same.margin.is_nan() {
            // The value as given was not probed on the way here.
            match self.totals(input, same.value) {
                Some(t) => same.margin = t.difference(),
                None => lines = false,
            }
        }
        let mut misses = 0;
        for _ in 0..2 * BISECT {
            let (lo, hi) = (same.value.min(other.value), same.value.max(other.value));
            let tolerance = PRECISION * other.value.abs().max(same.value.abs());
            let width = hi - lo;
            if width <= tolerance {
                break;
            }
            let midpoint = if geometric && same.value > 0.0 && other.value > 0.0 {
                (same.value * other.value).sqrt()
            } else {
                0.5 * (same.value + other.value)
            };
            let crossing = lines.then(|| {
                let (s, o) = (same.value, other.value);
                s + same.margin * (o - s) / (same.margin - other.margin)
            });
            // Never within a quarter of the tolerance of either end, so that a probe at the
            // crossing and the next one past it close the bracket.
            let keep_off = 0.25 * tolerance;
            let v = match crossing {
                Some(v) if v.is_finite() => v.clamp(lo + keep_off, hi - keep_off),
                _ => midpoint,
            };
            let probed = self.totals(input, v).map(|t| (t.plan, t.difference()));
            match probed {
                Some((best, d)) if best != from => {
                    other = End {
                        value: v,
                        margin: d,
                    };
                    to = best;
                    lines &= pair(best);
                }
                // No answer here (the inputs contradict the curve) counts as no change.
                Some((_, d)) => {
                    same = End {
                        value: v,
                        margin: d,
                    }
                }
                None => {
                    same.value = v;
                    lines = false;
                }
            }
            if crossing.is_some() {
                let now = (same.value - other.value).abs();
                misses = if now > 0.5 * width { misses + 1 } else { 0 };
                if misses == 2 {
                    lines = false;
                }
            }
        }
        (other.value, to)
    }
}

/// For each main input, the nearest values above and below it at which the cheapest plan
/// changes, within the input's accepted range.
pub fn flips(
    base: &Resolved,
    reading: &Reading,
    costing: &Costing,
    hybrid: bool,
    from: Plan,
) -> Flips {
    let mut probe = Probe {
        base,
        reading,
        costing,
        hybrid,
        scratch: scratch(base),
        draw: Draw {
            r: base.clone(),
            throughput: 1.0,
        },
    };
    let mut out = Flips {
        flips: Vec::new(),
        unchanged: Vec::new(),
    };
    for input in INPUTS {
        let (value, lo, hi, geometric) = input.span(base);
        if input == Input::Volume && value <= 0.0 {
            out.unchanged.push(input.key().into());
            continue;
        }
        let mut found = false;
        for (end, direction) in [(hi, "above"), (lo, "below")] {
            if let Some((v, to)) = probe.search(input, from, value, end, geometric) {
                found = true;
                out.flips.push(Flip {
                    param: input.key().into(),
                    label: input.label().into(),
                    base: value,
                    value: v,
                    direction: direction.into(),
                    from,
                    to,
                });
            }
        }
        if !found {
            out.unchanged.push(input.key().into());
        }
    }
    out
}
