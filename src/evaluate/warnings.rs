//! Warnings: what to keep in mind about a result, each with a stable code and its source.

use crate::curve::Reading;
use crate::dataset::Dataset;
use crate::evaluate::resolve::Context;
use crate::gpu_price::Commitment;
use crate::report::Warning;
use crate::resolved::Resolved;
use crate::scenario::Scenario;
use crate::units::Mix;
use crate::workload::{Preset, Workload};

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
pub fn warnings(
    s: &Scenario,
    r: &Resolved,
    ctx: &Context,
    data: &Dataset,
    reading: &Reading,
) -> Vec<Warning> {
    let mut out = Vec::new();
    if let Some(api) = ctx.tps_capped_from {
        out.push(warn(
            "target_capped",
            format!(
                "The target speed is the API's measured {api} tokens/s per user, above the curve's \
                 fastest measured point: it is capped at {} tokens/s per user, so self-hosting is \
                 priced slower than the API serves.",
                r.tps
            ),
            Some(&ctx.tps_source),
        ));
    }
    if matches!(
        s.workload,
        Workload::Requests {
            preset: Preset::Batch,
            ..
        }
    ) && s.tps.is_none()
    {
        out.push(warn(
            "batch_at_interactive_speed",
            format!(
                "Batch work is priced at the interactive target of {} tokens/s per user (the API's \
                 speed): a batch job rarely needs it, and a slower target costs less per token.",
                r.tps
            ),
            Some(&ctx.tps_source),
        ));
    }
    match (ctx.commitment, ctx.tier) {
        (Some(Commitment::OwnerCost), tier) => out.push(warn(
            "owner_cost_price",
            format!(
                "{} is what an operator pays to own and run the GPU at scale: a floor, not a \
                 price anyone rents at. Read self-hosting at it as what owning at hyperscale costs.",
                tier.map_or("Your GPU-hour price".to_owned(), |t| format!("${} per GPU-hour ({})", t.usd_per_gpu_hour, t.label))
            ),
            tier.map(|t| t.source.as_str()),
        )),
        (Some(Commitment::Reserved), tier) => {
            let term = tier
                .and_then(|t| t.term_months)
                .map_or("its term".to_owned(), |m| format!("its {m}-month term"));
            let upfront = tier
                .and_then(|t| t.upfront_share)
                .map_or(String::new(), |u| format!(", {:.0} % of it paid upfront", u * 100.0));
            out.push(warn(
                "reserved_term",
                format!(
                    "A reserved price bills the whole fixed fleet for every hour of {term}{upfront}, \
                     used or not: the monthly figure holds only if the fleet stays this size for \
                     the whole term."
                ),
                tier.map(|t| t.source.as_str()),
            ));
        }
        (None, Some(t)) => out.push(warn(
            "commitment_not_stated",
            format!(
                "The price tier {} does not say what it commits to (on demand, reserved or an \
                 owner's cost); newer data classifies it.",
                t.label
            ),
            Some(&t.source),
        )),
        _ => {}
    }
    if let Some(offer) = ctx
        .offer
        .filter(|o| !o.cache_discount_stated && s.cache_discount.is_none())
    {
        let provider = data
            .api_offers
            .iter()
            .filter(|o| o.model == offer.model && o.cache_discount_stated && o.cache_discount > 0.0)
            .max_by(|a, b| a.cache_discount.total_cmp(&b.cache_discount));
        let alternative = provider.map_or(String::new(), |p| {
            let mut api = r.api;
            api.cache_discount = p.cache_discount;
            format!(
                " If it passes the provider's {:.0} % through, renting costs ${:.0} a month \
                 instead of ${:.0}.",
                p.cache_discount * 100.0,
                api.cost(&r.volumes).monthly_usd,
                r.api.cost(&r.volumes).monthly_usd
            )
        });
        out.push(warn(
            "cache_discount_unknown",
            format!(
                "{} publishes no cache discount: cached input is priced at the full input price.{alternative}",
                offer.name
            ),
            Some(&offer.source),
        ));
    }
    if let Some(note) = ctx
        .offer
        .and_then(|o| o.note.as_deref())
        .filter(|n| n.contains("not the open"))
    {
        out.push(warn(
            "hosted_checkpoint",
            note.to_owned(),
            ctx.offer.map(|o| o.source.as_str()),
        ));
    }
    if let Some(chip) = ctx.chip {
        if let Some(caveat) = &chip.power_caveat {
            out.push(warn(
                "power_figure",
                format!("{}: {caveat}", chip.name),
                chip.accelerator_kw_source.as_deref(),
            ));
        }
    }
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
