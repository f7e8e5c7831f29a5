//! Each range of the sureness sample in words: its parameter, its span around the input as
//! given, how it is drawn, its source and why the input is uncertain.

use super::{input_share, scale_odds, Lever, Range, SampleContext};
use crate::curve::Reading;
use crate::resolved::Resolved;
use crate::units::Mix;

impl Lever {
    pub(super) fn describe(self, base: &Resolved, reading: &Reading, ctx: &SampleContext) -> Range {
        Range {
            key: self.key().into(),
            param: self.param().into(),
            label: self.knob().label().into(),
            range: self.range(base, reading, ctx),
            distribution: self.distribution().into(),
            sides: if self.centred() { "both" } else { "below" }.into(),
            applies: self.applies(ctx),
            source: self.source(ctx),
            reason: self.reason(ctx),
            effect_usd: 0.0,
        }
    }

    /// The link parameter that sets the range's width.
    fn param(self) -> &'static str {
        match self {
            Lever::Prefill => "u_prefill",
            Lever::CacheCost => "u_cache_cost",
            Lever::CurveMix => "u_curve_mix",
            Lever::Haircut => "u_haircut",
            Lever::Curves => "u_curves",
            Lever::GpuHour => "u_gpu_hour",
            Lever::Util => "u_util",
            Lever::Api => "u_api",
        }
    }

    /// How the draws are spread over the range.
    fn distribution(self) -> &'static str {
        match self {
            Lever::Prefill => "log-uniform in odds",
            Lever::CurveMix | Lever::Haircut | Lever::Util => "uniform",
            Lever::CacheCost | Lever::Curves | Lever::GpuHour | Lever::Api => "log-uniform",
        }
    }

    /// The range in words, around the input as given.
    fn range(self, base: &Resolved, reading: &Reading, ctx: &SampleContext) -> String {
        let s = &ctx.spec;
        let n = |v: f64| crate::format::significant(v, 3);
        let money = crate::format::usd;
        let times = |f: f64| format!("×1/{} to ×{}", n(f), n(f));
        match self {
            Lever::Prefill => match input_share(base, reading) {
                Some(share) => {
                    // P at either end of the share's range, other inputs as given.
                    let p = |f: f64| base.prefill * share / scale_odds(share, f);
                    format!(
                        "{} to {} uncached input tokens/s per GPU (input's share of the \
                         curve's GPU time {}, ×1/{} to ×{} in odds)",
                        crate::format::number(p(s.prefill)),
                        crate::format::number(p(1.0 / s.prefill)),
                        crate::format::percent(share),
                        n(s.prefill),
                        n(s.prefill)
                    )
                }
                None => format!("{} as given", crate::format::number(base.prefill)),
            },
            Lever::CacheCost => format!(
                "{} to {} ({}, at most 1)",
                n(base.cache_cost / s.cache_cost),
                n((base.cache_cost * s.cache_cost).min(1.0)),
                times(s.cache_cost)
            ),
            Lever::CurveMix if ctx.mix_floor.is_some() => {
                let input = |m: &Mix| crate::format::percent(m.uncached);
                let ends = ctx.mix_floor.as_ref().zip(ctx.alternative_mix.as_ref());
                ends.map_or_else(String::new, |(low, (high, _))| {
                    let toward = |end: &Mix| {
                        Mix::from_parts(
                            base.curve_mix.uncached
                                + (end.uncached - base.curve_mix.uncached) * s.curve_mix,
                            0.0,
                            base.curve_mix.output
                                + (end.output - base.curve_mix.output) * s.curve_mix,
                        )
                        .map_or_else(String::new, |m| input(&m))
                    };
                    format!(
                        "input {} to {} of the curve's tokens ({} of the way to the bounds its \
                         sources set, {} and {}), P as given",
                        toward(low),
                        toward(high),
                        crate::format::percent(s.curve_mix),
                        input(low),
                        input(high)
                    )
                })
            }
            Lever::CurveMix => format!(
                "from {} of the way to the other reading (no prefix cache) to as far the other \
                 way (more of the input cached, at most all of it)",
                crate::format::percent(s.curve_mix)
            ),
            Lever::Haircut => format!(
                "throughput ×{} to ×1 as published (one-sided)",
                n(1.0 - s.haircut)
            ),
            Lever::Curves => match &ctx.curve_ratios {
                Some(c) => {
                    let reach = (c.ln_reach() * s.curves).exp();
                    format!(
                        "throughput ×1/{} to ×{} ({} of the spread, both ways)",
                        n(reach),
                        n(reach),
                        crate::format::percent(s.curves)
                    )
                }
                None => {
                    "no other independent curve of the model on a chip of this family".to_owned()
                }
            },
            Lever::GpuHour => format!(
                "{} to {} ({})",
                money(base.gpu_hour / ctx.gpu_hour_spread),
                money(base.gpu_hour * ctx.gpu_hour_spread),
                times(ctx.gpu_hour_spread)
            ),
            Lever::Util => format!(
                "{} to {}",
                crate::format::percent((base.policy.util - s.util).max(0.05)),
                crate::format::percent((base.policy.util + s.util).min(1.0))
            ),
            Lever::Api => times(s.api),
        }
    }

    /// The source the range rests on: the curve's for what its publication leaves open,
    /// servecost's assumptions otherwise.
    fn source(self, ctx: &SampleContext) -> String {
        let assumption = crate::dataset::ASSUMPTIONS_SOURCE.to_owned();
        match self {
            Lever::CurveMix => ctx
                .alternative_mix
                .as_ref()
                .map_or(assumption, |(_, src)| src.clone()),
            Lever::Haircut => ctx.vendor.clone().unwrap_or(assumption),
            Lever::Curves => ctx
                .curve_ratios
                .as_ref()
                .map_or(assumption, |c| c.source.clone()),
            _ => assumption,
        }
    }

    /// Why the input is uncertain.
    fn reason(self, ctx: &SampleContext) -> String {
        match self {
            Lever::Prefill => "P is servecost's assumption, not a published measurement: as \
                 likely half as double. It is drawn through the input's share of the curve's GPU \
                 time, so every draw still reproduces the measured curve."
                .to_owned(),
            Lever::CacheCost => "k is an assumption: attention over a cached prefix still costs \
                 GPU time, and no publication measures how much."
                .to_owned(),
            Lever::CurveMix if ctx.mix_floor.is_some() => "The benchmark publishes its longest \
                 prompt, not its mean one: how much of the measured time went to prefilling \
                 input is known only within bounds, and the share of it decides what an output \
                 token costs at another mix."
                .to_owned(),
            Lever::CurveMix => "The publication does not state the mix it measured at: the \
                 assumed mix may overstate or understate its caching."
                .to_owned(),
            Lever::Haircut => "The curve's publisher sells the stack it measured: its curve is \
                 its best case, which a buyer's deployment may not reach, so the range runs only \
                 down."
                .to_owned(),
            Lever::Curves => match &ctx.curve_ratios {
                Some(c) => format!(
                    "Independent curves disagree: {} give this throughput at your mix and speed. \
                     The furthest sets the range, drawn both ways around the curve in use.",
                    c.names
                ),
                None => "Independent curves of the same model disagree where the dataset has \
                     several."
                    .to_owned(),
            },
            Lever::GpuHour => ctx.gpu_hour_reason.clone(),
            Lever::Util => "How close to full a replica runs while holding the speed depends on \
                 the serving stack and the traffic."
                .to_owned(),
            Lever::Api => "List prices move and large buyers negotiate them.".to_owned(),
        }
    }
}
