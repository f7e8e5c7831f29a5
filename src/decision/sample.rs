//! How sure: the documented ranges of the uncertain inputs and the seeded sample over them.
//!
//! ## The ranges
//!
//! Each draw takes every uncertain input at once from its range, independently. Every range
//! but one is centred on the figure the answer uses: its median is the input as given, so the
//! point answer is what the middle of each range gives. A factor range `×1/f to ×f` is drawn
//! log-uniformly (as likely halved as doubled), a share or a step uniformly. The one range that
//! runs one way is the haircut on a vendor's curve: the vendor published its own stack at its
//! best, and that publication (the curve's source) is why it only runs down.
//!
//! | range | parameter | default | applies |
//! |---|---|---|---|
//! | prefill rate `P` | `u_prefill` | input's share of the curve's GPU time, ×1/2 to ×2 in odds | always |
//! | cache-hit cost ratio `k` | `u_cache_cost` | ×1/2 to ×2 (at most 1) | always |
//! | the curve's mix, when assumed | `u_curve_mix` | up to all the way to the other reading, and as far the other way | the publication states no mix |
//! | haircut on a vendor's curve | `u_haircut` | throughput ×0.7 to ×1 (one-sided) | the curve's publisher sells the stack |
//! | spread between independent curves of the chip family | `u_curves` | ×1/s to ×s, `s` the furthest curve's ratio | the dataset has another independent curve |
//! | GPU-hour price | `u_gpu_hour` | by the price's kind (below) | always |
//! | target utilisation | `u_util` | ±0.1 (within 0.05 to 1) | always |
//! | API prices | `u_api` | ×1/1.2 to ×1.2 | always |
//!
//! The GPU-hour range follows what the price commits to: a reserved term is fixed for its
//! term (×1.1), an on-demand list price moves and is discounted (×1.25), spot prices swing
//! (×1.5), an owner's cost and owned hardware rest on estimates (×1.3 and ×1.2), and a price
//! whose commitment is not stated gets ×1.3.
//!
//! ## Jointly consistent draws
//!
//! A curve measures a throughput at its own mix; `P` and `k` split that GPU time between input
//! and output. Drawn apart, a low `P` with a high throughput can leave no time for output, which
//! the measured point rules out. So `P` is not drawn itself: the input's share of the curve's GPU
//! time at its measured point is, in odds around the share as given, and `P` follows from it
//! with the drawn `k`, mix and throughput. Every draw then reproduces its curve. A draw that
//! still has no answer is counted as an outcome of its own in every share, never dropped.
//!
//! ## How many draws
//!
//! The sample draws in batches of [`BATCH`] from [`MIN_DRAWS`] on and stops once every share it
//! reports is known within one percentage point (its standard error), at most the spec's draws
//! (2,500 by default, which bounds the error at one point whatever the shares). It is seeded
//! by the canonical scenario, so equivalent links give the same figures.

mod words;

use serde::{Deserialize, Serialize};

use super::{holds_within, Draw, Knob, SplitMix64, Strategy, Totals};
use crate::costing::Costing;
use crate::curve::Reading;
use crate::gpu_price::Commitment;
use crate::resolved::Resolved;
use crate::units::Mix;

/// The widths of the uncertainty ranges, as the scenario sets them, and the tie threshold the
/// decision reads them with.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UncertaintySpec {
    /// Draws of the sample at most (0: no sample); it stops earlier once every share is known
    /// within one percentage point.
    pub draws: f64,
    /// The input's share of the curve's GPU time is drawn from `odds/f` to `odds·f`; `P`
    /// follows from it (from about `P/f` to `P·f` while input takes little of the time).
    pub prefill: f64,
    /// `k` is drawn from `k/f` to `k·f` (at most 1).
    pub cache_cost: f64,
    /// When the curve's mix is assumed, it is drawn up to this share of the way to the other
    /// reading (fixed input and output lengths without a prefix cache), and as far the other
    /// way (more of the input cached, up to all of it).
    pub curve_mix: f64,
    /// A vendor's curve's throughput is drawn from `1 - h` to 1 times as published.
    pub haircut: f64,
    /// Share of the spread between independent curves of the model on chips of the same family
    /// drawn, both ways around the curve in use.
    pub curves: f64,
    /// The GPU-hour price is drawn from `p/f` to `p·f` (`None`: by the price's kind).
    pub gpu_hour: Option<f64>,
    /// The target utilisation is drawn within this step either way.
    pub util: f64,
    /// The API prices are drawn from `p/f` to `p·f`.
    pub api: f64,
    /// Plans whose monthly bills differ by at most this share of the cheaper one are a tie.
    pub tie: f64,
}

/// servecost's default range widths: assumptions, each with its reason on `/method`.
pub mod defaults {
    /// Draws of the sample at most: enough that a share is known within one percentage point
    /// (its standard error, `sqrt(p (1 - p) / n)`, is at most `sqrt(0.25 / 2,500)`).
    pub const DRAWS: f64 = 2_500.0;
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
    /// Plans within 1 % of the monthly bill of each other cost the same: below what the inputs
    /// are known to.
    pub const TIE: f64 = 0.01;
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
            tie: defaults::TIE,
        }
    }
}

/// The standard error the sample stops at: one percentage point.
pub const TARGET_SE: f64 = 0.01;
/// Draws before the sample may stop.
pub const MIN_DRAWS: u32 = 400;
/// Draws between two checks of the standard error.
pub const BATCH: u32 = 100;

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

/// How far independent curves of the model on chips of the same family are from the curve in
/// use, at the user's mix and speed.
#[derive(Debug, Clone, PartialEq)]
pub struct CurveSpread {
    /// The lowest ratio of another curve's throughput to this one's (1 included).
    pub lo: f64,
    /// The highest ratio (1 included).
    pub hi: f64,
    /// The other curves with their ratios, in words.
    pub names: String,
    /// The source key of the curve furthest from this one (the one that sets the range).
    pub source: String,
}

impl CurveSpread {
    /// The furthest ratio's logarithm: the range runs `×1/s to ×s` with `ln s` this.
    pub fn ln_reach(&self) -> f64 {
        self.lo.ln().abs().max(self.hi.ln().abs())
    }
}

/// What the dataset says about the uncertainty of this scenario's inputs.
#[derive(Debug, Clone, PartialEq)]
pub struct SampleContext {
    /// The range widths and the tie threshold.
    pub spec: UncertaintySpec,
    /// The GPU-hour factor in force (the spec's, or the kind's).
    pub gpu_hour_spread: f64,
    /// What the GPU-hour range rests on, in words.
    pub gpu_hour_reason: String,
    /// The curve was published by a vendor of the stack it measures (its source key).
    pub vendor: Option<String>,
    /// The other reading of an assumed mix (and the curve's source key): where the sources
    /// bound the mix, its end with the most input.
    pub alternative_mix: Option<(Mix, String)>,
    /// Where the sources bound the mix: its end with the least input, which draws below the
    /// middle move towards, with `P` held as given (a chip's rate does not follow the mix);
    /// none: as far the other way as the other reading, `P` following the mix.
    pub mix_floor: Option<Mix>,
    /// Independent curves of the model on chips of the same family.
    pub curve_ratios: Option<CurveSpread>,
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
    /// `both`: the input as given is the range's median; `below`: the range runs only down
    /// from it, for the sourced reason given (a vendor's best case).
    pub sides: String,
    /// Whether it applies to this scenario (a vendor haircut needs a vendor's curve).
    pub applies: bool,
    /// Source key it rests on (`servecost-assumptions` for servecost's own ranges).
    pub source: String,
    /// Why this range.
    pub reason: String,
    /// The larger change of (self-hosting minus renting) at either end of this range alone,
    /// $ per month.
    pub effect_usd: f64,
}

/// A share of the draws for each plan.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlanShares {
    /// Renting.
    pub rent: f64,
    /// Self-hosting alone.
    pub self_host: f64,
    /// The best hybrid.
    pub hybrid: f64,
}

impl PlanShares {
    /// The shares of `counts` (renting's, self-hosting's and the hybrid's draws) in `n` draws.
    fn of(counts: [u32; 3], n: f64) -> Self {
        let [rent, self_host, hybrid] = counts.map(|c| f64::from(c) / n);
        Self {
            rent,
            self_host,
            hybrid,
        }
    }

    /// Each plan with its share, in the order renting, self-hosting, the hybrid.
    pub fn by_plan(self) -> [(Strategy, f64); 3] {
        [
            (Strategy::Rent, self.rent),
            (Strategy::SelfHost, self.self_host),
            (Strategy::Hybrid, self.hybrid),
        ]
    }
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

/// How sure the answer is: shares of plausible cases under the stated ranges, not a forecast.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Uncertainty {
    /// Draws made, those without an answer included.
    pub draws: u32,
    /// Draws without an answer (no plan could be costed): an outcome of their own, counted in
    /// every share (`p_no_answer`).
    pub draws_without_answer: u32,
    /// Share of draws in which the plan the verdict names holds: it is the cheapest, or costs at
    /// most the tie threshold more than the cheapest.
    pub p_best_holds: f64,
    /// The standard error of `p_best_holds`, `sqrt(p (1 - p) / draws)`.
    pub p_best_holds_se: f64,
    /// Share of draws in which self-hosting costs less than renting.
    pub p_self_host_cheaper: f64,
    /// Share of draws in which each plan is the cheapest; with `p_no_answer` they add up to 1.
    pub p_cheapest: PlanShares,
    /// Share of draws in which the plan the verdict names does not hold, by the plan cheapest
    /// in them (cheaper than it by more than the tie; the named plan's own share is 0): with
    /// `p_best_holds` and `p_no_answer` they add up to 1, so that "holds in 88 %, otherwise the
    /// hybrid in 12 %" is a whole. `p_cheapest` counts the cases of a tie on both sides.
    #[serde(default)]
    pub p_beaten: PlanShares,
    /// Share of draws without an answer.
    pub p_no_answer: f64,
    /// Self-hosting minus renting over the draws with an answer, $ per month.
    pub difference_usd: Percentiles,
    /// The tie threshold the holding share was counted with (share of the cheapest's bill).
    pub tie: f64,
    /// The ranges drawn from.
    pub ranges: Vec<Range>,
}

/// `×1/f to ×f` at `u` in `[0, 1]`, log-uniform, for `ln_f = ln f`.
fn factor(ln_f: f64, u: f64) -> f64 {
    (ln_f * (2.0 * u - 1.0)).exp()
}

/// The input's share of the curve's GPU time at its measured point, as given: what the prefill
/// range draws around (`None` when the point itself has no answer).
fn input_share(base: &Resolved, reading: &Reading) -> Option<f64> {
    let m = &base.curve_mix;
    let s = (m.uncached + base.cache_cost * m.cached) * reading.tokens_per_s_per_gpu / base.prefill;
    (s > 0.0 && s < 1.0).then_some(s)
}

/// The share `s` with its odds multiplied by `f`.
fn scale_odds(s: f64, f: f64) -> f64 {
    let odds = s / (1.0 - s) * f;
    odds / (1.0 + odds)
}

/// The logarithms the levers draw with, taken once for the whole sample rather than in each
/// draw (the same numbers: `ln f` is what [`factor`] multiplies).
pub(super) struct Logs {
    prefill: f64,
    cache_cost: f64,
    gpu_hour: f64,
    api: f64,
    /// `ln` of the furthest curve ratio times the share of the spread drawn.
    curves: Option<f64>,
    /// The input's share of the curve's GPU time as given.
    input_share: Option<f64>,
    /// How far the assumed mix may move away from the other reading before a class runs out:
    /// the least `t` of `mix + (other - mix) t`.
    mix_floor: f64,
}

impl Logs {
    pub(super) fn of(base: &Resolved, reading: &Reading, ctx: &SampleContext) -> Self {
        let s = &ctx.spec;
        let mix_floor = ctx.alternative_mix.as_ref().map_or(0.0, |(alt, _)| {
            let m = &base.curve_mix;
            [
                (m.uncached, alt.uncached - m.uncached),
                (m.cached, alt.cached - m.cached),
                (m.output, alt.output - m.output),
            ]
            .into_iter()
            .filter(|(_, towards)| *towards > 0.0)
            .map(|(share, towards)| -share / towards)
            .fold(f64::NEG_INFINITY, f64::max)
        });
        Self {
            prefill: s.prefill.ln(),
            cache_cost: s.cache_cost.ln(),
            gpu_hour: ctx.gpu_hour_spread.ln(),
            api: s.api.ln(),
            curves: ctx.curve_ratios.as_ref().map(|c| c.ln_reach() * s.curves),
            input_share: input_share(base, reading),
            mix_floor: if mix_floor.is_finite() {
                mix_floor.min(0.0)
            } else {
                -s.curve_mix
            },
        }
    }
}

/// One uncertain input of the sample.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lever {
    /// The prefill rate `P`, through the input's share of the curve's GPU time.
    Prefill,
    /// The cache-hit cost ratio `k`.
    CacheCost,
    /// An assumed curve mix.
    CurveMix,
    /// The haircut on a vendor's curve.
    Haircut,
    /// The spread between independent curves of the chip family.
    Curves,
    /// The GPU-hour price.
    GpuHour,
    /// The target utilisation.
    Util,
    /// The API prices.
    Api,
}

/// Every lever, in the order each draw takes its numbers.
pub const LEVERS: [Lever; 8] = [
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
    /// The input the range draws ([`Knob`]: its key and words).
    pub fn knob(self) -> Knob {
        match self {
            Lever::Prefill => Knob::Prefill,
            Lever::CacheCost => Knob::CacheCost,
            Lever::CurveMix => Knob::CurveMix,
            Lever::Haircut => Knob::Haircut,
            Lever::Curves => Knob::Curves,
            Lever::GpuHour => Knob::GpuHour,
            Lever::Util => Knob::Util,
            Lever::Api => Knob::ApiPrices,
        }
    }

    /// The range's stable key: its input's.
    pub fn key(self) -> &'static str {
        self.knob().key()
    }

    /// Whether the input as given is the range's median (the haircut runs one way).
    pub fn centred(self) -> bool {
        self != Lever::Haircut
    }

    /// Sets the lever at `u` in `[0, 1]` of its range: `u = 1/2` is its median, which leaves
    /// the input as given for every centred range.
    pub(super) fn apply(
        self,
        d: &mut Draw,
        base: &Resolved,
        ctx: &SampleContext,
        logs: &Logs,
        u: f64,
    ) {
        let s = &ctx.spec;
        match self {
            Lever::Prefill => {
                d.input_share = logs
                    .input_share
                    .map(|share| scale_odds(share, factor(logs.prefill, u)))
            }
            Lever::CacheCost => {
                d.r.cache_cost = (base.cache_cost * factor(logs.cache_cost, u)).min(1.0)
            }
            Lever::CurveMix => {
                if let (Some((high, _)), Some(low)) = (&ctx.alternative_mix, &ctx.mix_floor) {
                    let t = s.curve_mix * (2.0 * u - 1.0);
                    let end = if t < 0.0 { low } else { high };
                    let m = base.curve_mix;
                    let t = t.abs();
                    d.prefill_mix = Some(m);
                    d.r.curve_mix = Mix {
                        uncached: (m.uncached + (end.uncached - m.uncached) * t).max(0.0),
                        cached: (m.cached + (end.cached - m.cached) * t).max(0.0),
                        output: (m.output + (end.output - m.output) * t).max(0.0),
                    };
                } else if let Some((alt, _)) = &ctx.alternative_mix {
                    let t = (s.curve_mix * (2.0 * u - 1.0)).max(logs.mix_floor);
                    let m = base.curve_mix;
                    d.r.curve_mix = Mix {
                        uncached: (m.uncached + (alt.uncached - m.uncached) * t).max(0.0),
                        cached: (m.cached + (alt.cached - m.cached) * t).max(0.0),
                        output: (m.output + (alt.output - m.output) * t).max(0.0),
                    };
                }
            }
            Lever::Haircut => {
                if ctx.vendor.is_some() {
                    d.throughput *= 1.0 - s.haircut * (1.0 - u);
                }
            }
            Lever::Curves => {
                if let Some(reach) = logs.curves {
                    d.throughput *= factor(reach, u);
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

    fn applies(self, ctx: &SampleContext) -> bool {
        match self {
            Lever::CurveMix => ctx.alternative_mix.is_some() && ctx.spec.curve_mix > 0.0,
            Lever::Haircut => ctx.vendor.is_some() && ctx.spec.haircut > 0.0,
            Lever::Curves => {
                ctx.curve_ratios
                    .as_ref()
                    .is_some_and(|c| c.ln_reach() > 0.0)
                    && ctx.spec.curves > 0.0
            }
            _ => true,
        }
    }
}

/// For each range, whether its median (`u = 1/2`) leaves every input as given: the claim that
/// the point answer is the middle of the ranges, checked on the draw itself.
pub fn medians_are_the_point(
    base: &Resolved,
    reading: &Reading,
    ctx: &SampleContext,
) -> Vec<(Lever, bool)> {
    let logs = Logs::of(base, reading, ctx);
    LEVERS
        .iter()
        .map(|&lever| {
            let mut d = Draw::new(base.clone());
            lever.apply(&mut d, base, ctx, &logs, 0.5);
            let prefill = d.prefill(reading.tokens_per_s_per_gpu);
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * a.abs().max(b.abs());
            let same = close(prefill, base.prefill)
                && close(d.r.cache_cost, base.cache_cost)
                && close(d.r.curve_mix.uncached, base.curve_mix.uncached)
                && close(d.r.curve_mix.cached, base.curve_mix.cached)
                && close(d.r.curve_mix.output, base.curve_mix.output)
                && close(d.throughput, 1.0)
                && close(d.r.gpu_hour, base.gpu_hour)
                && close(d.r.policy.util, base.policy.util)
                && close(d.r.api.price_in, base.api.price_in)
                && close(d.r.api.price_out, base.api.price_out);
            (lever, same)
        })
        .collect()
}

/// The ranges as applied, each with its effect alone, and the sample's figures (`None` when the
/// spec asks for no draws).
pub fn uncertainty(
    base: &Resolved,
    reading: &Reading,
    ctx: &SampleContext,
    point: &Totals,
    seed: u64,
) -> (Vec<Range>, Option<Uncertainty>) {
    let logs = Logs::of(base, reading, ctx);
    // Each range alone moves its input as the sample does: P follows the drawn k, mix and
    // throughput through the input's share as given.
    let mut start = Draw::new(base.clone());
    start.input_share = logs.input_share;
    let mut work = super::scratch(base);
    let sampling = Sampling {
        base,
        reading,
        ctx,
        logs: &logs,
    };
    let ranges = effects(&sampling, &start, point, &mut work);
    if ctx.spec.draws as u32 == 0 {
        return (ranges, None);
    }
    let tally = Tally::draw(&sampling, start, point.best().0, seed, &mut work);
    let figures = tally.figures(point.difference(), ctx.spec.tie, ranges.clone());
    (ranges, Some(figures))
}

/// What every draw starts from.
struct Sampling<'a> {
    base: &'a Resolved,
    reading: &'a Reading,
    ctx: &'a SampleContext,
    logs: &'a Logs,
}

/// Each range described, and alone at either end: its effect on the difference.
fn effects(sampling: &Sampling, start: &Draw, point: &Totals, work: &mut Costing) -> Vec<Range> {
    let Sampling {
        base,
        reading,
        ctx,
        logs,
    } = *sampling;
    let point_difference = point.difference();
    LEVERS
        .iter()
        .map(|&lever| {
            let mut range = lever.describe(base, reading, ctx);
            if range.applies {
                range.effect_usd = [0.0, 1.0]
                    .into_iter()
                    .filter_map(|u| {
                        let mut d = start.clone();
                        lever.apply(&mut d, base, ctx, logs, u);
                        d.totals(reading, false, work)
                    })
                    .map(|t| (t.difference() - point_difference).abs())
                    .fold(0.0, f64::max);
            }
            range
        })
        .collect()
}

/// What the sample's draws came to.
struct Tally {
    made: u32,
    /// Draws in which the point's best plan holds (within the tie).
    holds: u32,
    /// Draws in which self-hosting is cheaper than renting.
    cheaper: u32,
    /// Draws without an answer.
    failed: u32,
    /// Draws in which renting, self-hosting and the hybrid are cheapest.
    plans: [u32; 3],
    /// Of those, the draws in which the point's best plan does not hold.
    beaten: [u32; 3],
    /// Self-hosting's monthly bill less renting's, draw by draw.
    differences: Vec<f64>,
}

impl Tally {
    /// Draws until every share is known within [`TARGET_SE`] (from [`MIN_DRAWS`] on), or the
    /// spec's most.
    fn draw(
        sampling: &Sampling,
        mut d: Draw,
        named: Strategy,
        seed: u64,
        work: &mut Costing,
    ) -> Self {
        let (base, reading, ctx, logs) =
            (sampling.base, sampling.reading, sampling.ctx, sampling.logs);
        let most = ctx.spec.draws as u32;
        let mut rng = SplitMix64::new(seed);
        let mut t = Tally {
            made: 0,
            holds: 0,
            cheaper: 0,
            failed: 0,
            plans: [0; 3],
            beaten: [0; 3],
            differences: Vec::with_capacity(most.min(4 * MIN_DRAWS) as usize),
        };
        while t.made < most {
            d.throughput = 1.0;
            for lever in LEVERS {
                // Every lever takes its number, applied or not, so that the stream (and the
                // figures) of one range do not move when another stops applying.
                let u = rng.next_unit();
                lever.apply(&mut d, base, ctx, logs, u);
            }
            t.made += 1;
            match d.totals(reading, ctx.hybrid, work) {
                Some(totals) => {
                    let held = holds_within(work, 1.0, ctx.hybrid, named, ctx.spec.tie, &totals);
                    t.holds += u32::from(held);
                    let cheapest = match totals.plan {
                        Strategy::Rent => 0,
                        Strategy::SelfHost => 1,
                        Strategy::Hybrid => 2,
                    };
                    t.plans[cheapest] += 1;
                    t.beaten[cheapest] += u32::from(!held);
                    t.cheaper += u32::from(totals.self_host < totals.rent);
                    t.differences.push(totals.difference());
                }
                None => t.failed += 1,
            }
            if t.made >= MIN_DRAWS && t.made % BATCH == 0 && t.known() {
                break;
            }
        }
        t
    }

    /// Whether every share is known within [`TARGET_SE`].
    fn known(&self) -> bool {
        let [rent, own, hybrid] = self.plans;
        [self.holds, self.cheaper, self.failed, rent, own, hybrid]
            .iter()
            .all(|&c| standard_error(c, self.made) <= TARGET_SE)
    }

    /// The shares and the difference's spread (the point's difference when no draw had an
    /// answer).
    fn figures(mut self, point_difference: f64, tie: f64, ranges: Vec<Range>) -> Uncertainty {
        let n = f64::from(self.made);
        self.differences.sort_by(f64::total_cmp);
        let differences = &self.differences;
        let at = |q: f64| {
            let x = q * (differences.len() as f64 - 1.0);
            let (i, frac) = (x.floor() as usize, x.fract());
            let lo = differences[i];
            let hi = differences[(i + 1).min(differences.len() - 1)];
            lo + (hi - lo) * frac
        };
        Uncertainty {
            draws: self.made,
            draws_without_answer: self.failed,
            p_best_holds: f64::from(self.holds) / n,
            p_best_holds_se: standard_error(self.holds, self.made),
            p_self_host_cheaper: f64::from(self.cheaper) / n,
            p_cheapest: PlanShares::of(self.plans, n),
            p_beaten: PlanShares::of(self.beaten, n),
            p_no_answer: f64::from(self.failed) / n,
            difference_usd: if differences.is_empty() {
                // No draw had an answer: the point's difference stands for all of them.
                Percentiles {
                    p10: point_difference,
                    p50: point_difference,
                    p90: point_difference,
                }
            } else {
                Percentiles {
                    p10: at(0.1),
                    p50: at(0.5),
                    p90: at(0.9),
                }
            },
            tie,
            ranges,
        }
    }
}

/// The standard error of a share of `count` in `n` draws.
pub fn standard_error(count: u32, n: u32) -> f64 {
    if n == 0 {
        return 0.0;
    }
    let p = f64::from(count) / f64::from(n);
    (p * (1.0 - p) / f64::from(n)).sqrt()
}
