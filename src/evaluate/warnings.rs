//! Warnings: what to keep in mind about a result, each with a stable code and its source.

use crate::curve::Reading;
use crate::dataset::Dataset;
use crate::evaluate::resolve::Context;
use crate::report::Warning;
use crate::resolved::Resolved;
use crate::units::Mix;

/// A user mix further than this from the curve's (largest class-share difference) is flagged.
pub const FAR_MIX: f64 = 0.2;

fn warn(code: &str, message: String, source: Option<&str>) -> Warning {
    Warning {
        code: code.to_owned(),
        message,
        source: source.map(str::to_owned),
    }
}

fn mix_text(m: &Mix) -> String {
    format!(
        "{:.1} % uncached input, {:.1} % cached input, {:.2} % output",
        m.uncached * 100.0,
        m.cached * 100.0,
        m.output * 100.0
    )
}

/// Every warning that applies.
pub fn warnings(r: &Resolved, ctx: &Context, data: &Dataset, reading: &Reading) -> Vec<Warning> {
    let mut out = Vec::new();
    let curve_source = ctx.curve.map(|c| c.source.as_str());
    if reading.clamped {
        out.push(warn(
            "target_below_curve",
            format!(
                "The target of {} tokens/s per user is slower than the slowest measured point ({} \
                 tokens/s per user); that point's throughput is used, so a slower target may cost less \
                 than shown.",
                r.tps,
                r.curve.slowest()
            ),
            curve_source,
        ));
    }
    match ctx.curve {
        Some(curve) => {
            if data.is_vendor(&curve.source) {
                let who = data.source(&curve.source).map_or(curve.source.as_str(), |s| s.publisher.as_str());
                out.push(warn(
                    "vendor_curve",
                    format!("The curve was published by {who}, a party selling the stack it measures: read it as a tuned best case."),
                    Some(&curve.source),
                ));
            }
            if !curve.mix_stated {
                out.push(warn(
                    "assumed_mix",
                    format!(
                        "The curve's publication does not state the token mix it was measured at; \
                         servecost assumes {}. Per-class costs lean on that assumption.",
                        mix_text(&curve.mix)
                    ),
                    Some(&curve.source),
                ));
            }
        }
        None => out.push(warn(
            "own_curve",
            "Self-hosting is priced from your own measured points; no publication stands behind them.".into(),
            None,
        )),
    }
    if let Some(user_mix) = r.volumes.mix() {
        if user_mix.distance(&r.curve_mix) > FAR_MIX {
            out.push(warn(
                "mix_far_from_curve",
                format!(
                    "Your mix ({}) is far from the curve's ({}): the translation leans on the prefill \
                     rate P and the cache-hit cost ratio k, which are assumptions.",
                    mix_text(&user_mix),
                    mix_text(&r.curve_mix)
                ),
                Some("servecost-assumptions"),
            ));
        }
    }
    if let Some(chip) = ctx.chip {
        for h in data
            .headlines
            .iter()
            .filter(|h| h.chip == chip.id && h.is_floor)
        {
            out.push(warn(
                "figure_is_floor",
                format!(
                    "{}: this is a floor, not a ceiling; the configuration may have more headroom.",
                    h.label
                ),
                Some(&h.source),
            ));
        }
        let precision = ctx.curve.map(|c| c.precision.as_str());
        let weights = ctx
            .model
            .weights
            .iter()
            .filter(|w| precision.is_none_or(|p| p == w.precision))
            .min_by(|a, b| a.gigabytes.total_cmp(&b.gigabytes));
        if let Some(w) = weights {
            let memory = chip.memory_gb * r.policy.replica_gpus;
            if w.gigabytes > memory {
                out.push(warn(
                    "weights_do_not_fit",
                    format!(
                        "The {} weights ({} GB) do not fit in a replica of {} × {} ({} GB of memory, before any KV cache).",
                        w.precision, w.gigabytes, r.policy.replica_gpus, chip.name, memory
                    ),
                    Some(&w.source),
                ));
            }
        }
    }
    if let Some(threshold) = ctx.model.licence_revenue_threshold_usd {
        out.push(warn(
            "licence_threshold",
            format!(
                "Licence: companies with more than ${:.0} M annual gross revenue need an agreement with \
                 the licensor to offer {} as a service. {}",
                threshold / 1e6,
                ctx.model.name,
                ctx.model.licence
            ),
            Some(&ctx.model.licence_source),
        ));
    }
    out
}
