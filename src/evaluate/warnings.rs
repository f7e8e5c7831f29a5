//! Warnings: what to keep in mind about a result, each with a stable code and its source.

use crate::curve::Reading;
use crate::dataset::Dataset;
use crate::evaluate::resolve::Context;
use crate::gpu_price::Commitment;
use crate::report::{Warning, WarningCode};
use crate::resolved::Resolved;
use crate::scenario::Scenario;
use crate::units::Mix;
use crate::workload::{Preset, Workload};

/// A user mix whose GPU-time shares differ from the curve's by more than this (largest class
/// difference) is flagged.
pub const FAR_MIX: f64 = 0.2;
/// A user mix whose tokens take more than this many times (or less than its inverse) the GPU
/// time of the curve's is flagged.
pub const FAR_TIME_RATIO: f64 = 2.0;

fn warn(code: WarningCode, message: String, source: Option<&str>) -> Warning {
    Warning {
        code,
        message,
        source: source.map(str::to_owned),
        effect_usd: None,
    }
}

fn mix_text(m: &Mix) -> String {
    use crate::format::percent_precise as pct;
    format!(
        "{} uncached input, {} cached input, {} output",
        pct(m.uncached),
        pct(m.cached),
        pct(m.output)
    )
}

/// Every warning that applies, in the order the page lists them.
pub fn warnings(
    s: &Scenario,
    r: &Resolved,
    ctx: &Context,
    data: &Dataset,
    reading: &Reading,
) -> Vec<Warning> {
    let c = Case {
        s,
        r,
        ctx,
        data,
        reading,
    };
    let mut out = Vec::new();
    for step in [
        speed,
        price_terms,
        offer,
        power_caveat,
        curve,
        mix_far,
        chip,
        stale_prices,
        licence,
    ] {
        step(&c, &mut out);
    }
    out
}

/// What the warnings are drawn from.
#[derive(Clone, Copy)]
struct Case<'a, 'b> {
    s: &'a Scenario,
    r: &'a Resolved,
    ctx: &'a Context<'b>,
    data: &'a Dataset,
    reading: &'a Reading,
}

/// An offer whose measured speed is below your target: renting from it is slower than the
/// target asks (the offer is priced as it serves). `s` is the scenario as given, before a
/// target beyond the curve priced self-hosting slower.
pub(super) fn offer_below_target(s: &Scenario, ctx: &Context) -> Option<Warning> {
    let (target, offer) = (s.tps?, ctx.offer?);
    let speed = offer.speed_tps.filter(|v| *v < target)?;
    Some(warn(
        WarningCode::OfferBelowTarget,
        format!(
            "{} serves {} tokens/s per user as measured, slower than the target of {}: renting \
             from it does not meet the target, and is priced as it serves.",
            offer.name,
            crate::format::significant(speed, 4),
            crate::format::significant(target, 4)
        ),
        Some(&offer.source),
    ))
}

/// The target speed: capped at the curve, not published, interactive for batch work.
fn speed(c: &Case, out: &mut Vec<Warning>) {
    let Case { s, r, ctx, .. } = *c;
    if let Some(api) = ctx.tps_capped_from {
        out.push(warn(
            WarningCode::TargetCapped,
            format!(
                "The target speed is the API's measured {} tokens/s per user, above the curve's \
                 fastest measured point: it is capped at {} tokens/s per user, so self-hosting is \
                 priced slower than the API serves.",
                crate::format::significant(api, 4),
                crate::format::significant(r.tps, 4)
            ),
            Some(&ctx.tps_source),
        ));
    }
    if s.tps.is_none() && ctx.offer.is_some_and(|o| o.speed_tps.is_none()) {
        out.push(warn(
            WarningCode::TargetNotPublished,
            format!(
                "{} publishes no output speed: the target is servecost's assumption, the curve's \
                 slowest measured point, {} tokens/s per user. Give the speed your users need.",
                ctx.offer.map_or("The API offer", |o| o.name.as_str()),
                crate::format::significant(r.tps, 4)
            ),
            ctx.offer.map(|o| o.source.as_str()),
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
            WarningCode::BatchAtInteractiveSpeed,
            format!(
                "Batch work is priced at the interactive target of {} tokens/s per user (the API's \
                 speed): a batch job rarely needs it, and a slower target costs less per token.",
                crate::format::significant(r.tps, 4)
            ),
            Some(&ctx.tps_source),
        ));
    }
}

/// What the GPU-hour price commits to.
fn price_terms(c: &Case, out: &mut Vec<Warning>) {
    let Case { ctx, .. } = *c;
    match (ctx.commitment, ctx.tier) {
        (Some(Commitment::OwnerCost), tier) => out.push(warn(
            WarningCode::OwnerCostPrice,
            format!(
                "{} is what an operator pays to own and run the GPU at scale: a floor, not a \
                 price anyone rents at. Read self-hosting at it as what owning at hyperscale costs.",
                tier.map_or("Your GPU-hour price".to_owned(), |t| format!("{} per GPU-hour ({})", crate::format::usd(t.usd_per_gpu_hour), t.label))
            ),
            tier.map(|t| t.source.as_str()),
        )),
        (Some(Commitment::Reserved), tier) => {
            let term = tier
                .and_then(|t| t.term_months)
                .map_or("its term".to_owned(), |m| format!("its {m}-month term"));
            let upfront = tier
                .and_then(|t| t.upfront_share)
                .map_or(String::new(), |u| format!(", {} of it paid upfront", crate::format::percent(u)));
            out.push(warn(
                WarningCode::ReservedTerm,
                format!(
                    "A reserved price bills the whole fixed fleet for every hour of {term}{upfront}, \
                     used or not: the monthly figure holds only if the fleet stays this size for \
                     the whole term."
                ),
                tier.map(|t| t.source.as_str()),
            ));
        }
        (Some(Commitment::Spot), tier) => out.push(warn(
            WarningCode::SpotPrice,
            format!(
                "{} is a spot price: the provider can take the GPUs back at short notice, so a \
                 fleet that must hold its speed all month needs on-demand or reserved capacity \
                 to fall back on. Read self-hosting at it as a lower bound.",
                tier.map_or("Your GPU-hour price".to_owned(), |t| format!(
                    "{} per GPU-hour ({})",
                    crate::format::usd(t.usd_per_gpu_hour),
                    t.label
                ))
            ),
            tier.map(|t| t.source.as_str()),
        )),
        (None, Some(t)) => out.push(warn(
            WarningCode::CommitmentNotStated,
            format!(
                "The price tier {} does not say what it commits to (on demand, reserved or an \
                 owner's cost); newer data classifies it.",
                t.label
            ),
            Some(&t.source),
        )),
        _ => {}
    }
}

/// Batch traffic at prices that state no batch discount: what it would cost at the largest
/// batch discount another offer of the model states, when one does.
fn batch_price(c: &Case, out: &mut Vec<Warning>) {
    let Case {
        s, r, ctx, data, ..
    } = *c;
    if !(s.batch > 0.0) || super::resolve::batch_discount(s, ctx.offer).is_some() {
        return;
    }
    let other = data
        .api_offers
        .iter()
        .filter(|o| o.model == ctx.model.id && o.batch_discount.is_some_and(|d| d > 0.0))
        .max_by(|a, b| {
            a.batch_discount
                .unwrap_or(0.0)
                .total_cmp(&b.batch_discount.unwrap_or(0.0))
        });
    let now = r.api.cost(&r.volumes).monthly_usd;
    let (effect, alternative) =
        other
            .and_then(|o| Some((o, o.batch_discount?)))
            .map_or((None, String::new()), |(o, d)| {
                let mut api = r.api;
                api.batch_saving = s.batch * d;
                let then = api.cost(&r.volumes).monthly_usd;
                (
                    Some((now - then).abs()),
                    format!(
                        " At {}'s batch discount ({}) renting would cost {} a month instead of {}.",
                        o.name,
                        crate::format::percent(d),
                        crate::format::usd(then),
                        crate::format::usd(now)
                    ),
                )
            });
    let who = ctx.offer.map_or("Your API prices state".to_owned(), |o| {
        format!("{} states", o.name)
    });
    out.push(Warning {
        effect_usd: effect,
        ..warn(
            WarningCode::BatchPriceUnknown,
            format!(
                "{who} no batch price: the {} of the tokens sent as batch are priced as the \
                 others. If your provider has a batch price, give its discount under Renting, “Your own prices” (API discount on batch tokens, batch_discount).{alternative}",
                crate::format::percent(s.batch)
            ),
            ctx.offer.map(|o| o.source.as_str()),
        )
    });
}

/// The API offer: a cache discount it does not state, a hosted checkpoint.
fn offer(c: &Case, out: &mut Vec<Warning>) {
    let Case {
        s, r, ctx, data, ..
    } = *c;
    if let Some(offer) = ctx
        .offer
        .filter(|o| !o.cache_discount_stated && s.cache_discount.is_none())
    {
        let provider = data
            .api_offers
            .iter()
            .filter(|o| o.model == offer.model && o.cache_discount_stated && o.cache_discount > 0.0)
            .max_by(|a, b| a.cache_discount.total_cmp(&b.cache_discount));
        let mut effect = None;
        let alternative = provider.map_or(String::new(), |p| {
            let mut api = r.api;
            api.cache_discount = p.cache_discount;
            effect =
                Some((api.cost(&r.volumes).monthly_usd - r.api.cost(&r.volumes).monthly_usd).abs());
            format!(
                " If it passes the provider's {} through, renting costs {} a month \
                 instead of {}: check this before reading the verdict.",
                crate::format::percent(p.cache_discount),
                crate::format::usd(api.cost(&r.volumes).monthly_usd),
                crate::format::usd(r.api.cost(&r.volumes).monthly_usd)
            )
        });
        out.push(Warning {
            effect_usd: effect,
            ..warn(
                WarningCode::CacheDiscountUnknown,
                format!(
                    "{} publishes no cache discount: cached input is priced at the full input price.{alternative}",
                    offer.name
                ),
                Some(&offer.source),
            )
        });
    }
    batch_price(c, out);
    if let Some(note) = ctx
        .offer
        .and_then(|o| o.note.as_deref())
        .filter(|n| n.contains("not the open"))
    {
        out.push(warn(
            WarningCode::HostedCheckpoint,
            note.to_owned(),
            ctx.offer.map(|o| o.source.as_str()),
        ));
    }
}

/// The chip's power figure, when it comes with a caveat.
fn power_caveat(c: &Case, out: &mut Vec<Warning>) {
    let Case { ctx, .. } = *c;
    if let Some(chip) = ctx.chip {
        if let Some(caveat) = &chip.power_caveat {
            out.push(warn(
                WarningCode::PowerFigure,
                format!("{}: {caveat}", chip.name),
                chip.accelerator_kw_source.as_deref(),
            ));
        }
    }
}

/// The curve: a target below it, a vendor's own, an assumed mix, or your own points.
fn curve(c: &Case, out: &mut Vec<Warning>) {
    let Case {
        s,
        r,
        ctx,
        data,
        reading,
        ..
    } = *c;
    let curve_source = ctx.curve.map(|c| c.source.as_str());
    if reading.clamped {
        out.push(warn(
            WarningCode::TargetBelowCurve,
            format!(
                "The target of {} tokens/s per user is slower than the slowest measured point ({} \
                 tokens/s per user); that point's throughput is used, so a slower target may cost less \
                 than shown.",
                crate::format::significant(r.tps, 4),
                crate::format::significant(r.curve.slowest(), 4)
            ),
            curve_source,
        ));
    }
    match ctx.curve {
        Some(curve) => {
            if data.is_vendor(&curve.source) {
                let who = data.source(&curve.source).map_or(curve.source.as_str(), |s| s.publisher.as_str());
                out.push(warn(
                    WarningCode::VendorCurve,
                    format!("The curve was published by {who}, a party selling the stack it measures: read it as a tuned best case."),
                    Some(&curve.source),
                ));
            }
            if curve.tier == Some(crate::dataset::DataTier::Experimental) {
                out.push(warn(
                    WarningCode::ExperimentalCurve,
                    "The curve comes from development runs (data tier: experimental), not a \
                     published or audited result: its note on /data says what makes them so. \
                     Read its figures as indicative, and the answer's range with them."
                        .into(),
                    Some(&curve.source),
                ));
            }
            assumed_mix(s, r, curve, out);
        }
        None => out.push(warn(
            WarningCode::OwnCurve,
            "Self-hosting is priced from your own measured points; no publication stands behind them.".into(),
            None,
        )),
    }
}

/// Your mix far from the curve's in GPU time.
fn mix_far(c: &Case, out: &mut Vec<Warning>) {
    let Case { r, .. } = *c;
    if let (Some(user_mix), Ok((_, g))) = (r.volumes.mix(), r.gpu_time()) {
        // Far in GPU time, not in token counts: a few more output tokens in a hundred can
        // multiply the GPU time a token takes.
        let time = |m: &Mix| {
            [
                m.uncached * g.uncached,
                m.cached * g.cached,
                m.output * g.output,
            ]
        };
        let (mine, theirs) = (time(&user_mix), time(&r.curve_mix));
        let (t_mine, t_theirs): (f64, f64) = (mine.iter().sum(), theirs.iter().sum());
        if t_mine > 0.0 && t_theirs > 0.0 {
            let shares = |t: [f64; 3], total: f64| t.map(|x| x / total);
            let (a, b) = (shares(mine, t_mine), shares(theirs, t_theirs));
            let apart = (0..3).map(|i| (a[i] - b[i]).abs()).fold(0.0, f64::max);
            let ratio = t_mine / t_theirs;
            if apart > FAR_MIX || !(FAR_TIME_RATIO.recip()..=FAR_TIME_RATIO).contains(&ratio) {
                out.push(warn(
                    WarningCode::MixFarFromCurve,
                    format!(
                        "Your mix ({}) is far from the curve's ({}) in GPU time: a token of yours \
                         takes {}× the GPU time of one of the curve's, and {} of your GPU \
                         time goes to output against {} at the curve's mix. The translation \
                         leans on the prefill rate P and the cache-hit cost ratio k, which are \
                         assumptions.",
                        mix_text(&user_mix),
                        mix_text(&r.curve_mix),
                        crate::format::significant(ratio, 2),
                        crate::format::percent(a[2]),
                        crate::format::percent(b[2])
                    ),
                    Some(crate::dataset::ASSUMPTIONS_SOURCE),
                ));
            }
        }
    }
}

/// The chip: published floors, weights that do not fit a replica.
fn chip(c: &Case, out: &mut Vec<Warning>) {
    let Case { r, ctx, data, .. } = *c;
    // The published headlines are AgentPerf's launch figures for the dataset's first model:
    // another model's answer on the chip does not rest on them.
    let headlines_model = data.models.first().is_some_and(|m| m.id == ctx.model.id);
    if let Some(chip) = ctx.chip {
        for h in data
            .headlines
            .iter()
            .filter(|h| headlines_model && h.chip == chip.id && h.is_floor)
        {
            out.push(warn(
                WarningCode::FigureIsFloor,
                format!(
                    "{}: this is a floor, not a ceiling; the configuration may have more headroom.",
                    h.label
                ),
                Some(&h.source),
            ));
        }
        let precision = ctx.curve.map(|c| c.precision.as_str());
        // A replica the link or the dataset gives that cannot hold them is refused before
        // (`resolve`); your own points' assumed one GPU is said here.
        if let Some(w) = ctx.model.weights_at(precision) {
            let memory = chip.memory_gb * r.policy.replica_gpus;
            if w.gigabytes > memory {
                out.push(warn(
                    WarningCode::WeightsDoNotFit,
                    format!(
                        "The {} weights ({}\u{a0}GB) do not fit in a replica of {} × {} ({}\u{a0}GB of memory, before any KV cache): give the GPUs your benchmark ran on as GPUs per replica.",
                        w.precision.to_ascii_uppercase(),
                        crate::format::number(w.gigabytes),
                        crate::format::number(r.policy.replica_gpus),
                        chip.name,
                        crate::format::number(memory)
                    ),
                    Some(&w.source),
                ));
            } else if w.gigabytes > (1.0 - crate::dataset::KV_RESERVE) * memory {
                out.push(warn(
                    WarningCode::LittleKvCache,
                    format!(
                        "The {} weights ({}\u{a0}GB) leave less than {} of a replica of {} × {} ({}\u{a0}GB) for the KV cache: it holds few requests at once, and the curve's throughput may not be reached.",
                        w.precision.to_ascii_uppercase(),
                        crate::format::number(w.gigabytes),
                        crate::format::percent(crate::dataset::KV_RESERVE),
                        crate::format::number(r.policy.replica_gpus),
                        chip.name,
                        crate::format::number(memory)
                    ),
                    Some(&w.source),
                ));
            }
        }
    }
}

/// Prices older than the freshness rule allows.
fn stale_prices(c: &Case, out: &mut Vec<Warning>) {
    let Case { ctx, data, .. } = *c;
    // A published price is as of its source's date: old ones are named, with their age.
    if let Some(today) = data.as_of.as_deref() {
        let prices = [
            (
                "The API price",
                ctx.api_source.as_str(),
                "price_in and price_out",
            ),
            (
                "The GPU-hour price",
                ctx.gpu_hour_source.as_str(),
                "gpu_hour",
            ),
        ];
        for (what, key, params) in prices {
            let Some(source) = data.source(key) else {
                continue;
            };
            let Some(age) = crate::freshness::age_days(&source.date, today) else {
                continue;
            };
            if age > crate::freshness::STALE_AFTER_DAYS {
                out.push(warn(
                    WarningCode::PriceStale,
                    format!(
                        "{what} is as of {} ({}), {age} days before today ({today}), older than \
                         the {} days after which servecost calls a price old: prices move within \
                         months. Check it against a current quote, or give yours ({params}).",
                        source.date,
                        source.publisher,
                        crate::freshness::STALE_AFTER_DAYS
                    ),
                    Some(key),
                ));
            }
        }
    }
}

/// A licence that limits offering the model as a service.
fn licence(c: &Case, out: &mut Vec<Warning>) {
    let Case { ctx, .. } = *c;
    if let Some(threshold) = ctx.model.licence_revenue_threshold_usd {
        out.push(warn(
            WarningCode::LicenceThreshold,
            format!(
                "Licence: companies with more than {} annual gross revenue need an agreement with \
                 the licensor to offer {} as a service. {}",
                crate::format::usd_short(threshold),
                ctx.model.name,
                ctx.model.licence
            ),
            Some(&ctx.model.licence_source),
        ));
    }
}

/// A curve whose publication does not state its mix: the mix assumed, and what the other
/// reading would cost.
fn assumed_mix(s: &Scenario, r: &Resolved, curve: &crate::dataset::Curve, out: &mut Vec<Warning>) {
    if curve.mix_stated || s.curve_mix.is_some() {
        return;
    }
    if let Some([low, high]) = curve.input_share_bounds {
        let p = crate::format::percent;
        out.push(warn(
            WarningCode::AssumedMix,
            format!(
                "The benchmark publishes its longest prompt, not its mean one: its input is \
                 between {} and {} of the curve's tokens, and servecost assumes {} ({}; the \
                 curve's note says why). A workload at that mix costs what the measurement \
                 implies whatever the input was; at another mix, per-class costs lean on it, and \
                 the judgement draws it across the range: set curve_mix to choose the reading.",
                p(low),
                p(high),
                p(curve.mix.uncached),
                mix_text(&curve.mix)
            ),
            Some(&curve.source),
        ));
        return;
    }
    // The other reading: fixed ISL/OSL without a prefix cache, as InferenceX's own
    // runs are measured, with the same input and output lengths.
    let m = curve.mix;
    let alternative = Mix::from_parts(m.uncached + m.cached, 0.0, m.output);
    let costs = alternative.and_then(|alt| {
        let mut other = r.clone();
        other.curve_mix = alt;
        let then = r.costing().ok()?.self_host(1.0).total();
        let now = other.costing().ok()?.self_host(1.0).total();
        let output = |x: &Resolved| {
            x.gpu_time()
                .ok()
                .map(|(_, g)| g.usd_per_mtok(x.gpu_hour)[2])
        };
        Some((alt, then, now, output(r)?, output(&other)?))
    });
    let reading = costs.map_or(String::new(), |(alt, then, now, was, is)| {
        // Never two equal figures side by side: a figure the other reading leaves
        // as it is (whole replicas absorb the change) is said once.
        let instead = |now: String, then: String, what: &str, unit: &str| {
            if now == then {
                format!("{what} still {now}{unit}")
            } else {
                format!("{what} {now}{unit} instead of {then}")
            }
        };
        format!(
            " Read the other way, as fixed input and output lengths without a prefix \
                         cache ({}: curve_mix={}:0:{}), {}, and {}: set curve_mix to choose the \
                         reading.",
            mix_text(&alt),
            crate::codec::write_rounded(100.0 * alt.uncached, false),
            crate::codec::write_rounded(100.0 * alt.output, false),
            instead(
                crate::format::per_mtok(is),
                crate::format::per_mtok(was),
                "an output token costs",
                " per million at full use"
            ),
            instead(
                crate::format::usd(now),
                crate::format::usd(then),
                "self-hosting costs",
                " a month"
            )
        )
    });
    out.push(warn(
        WarningCode::AssumedMix,
        format!(
            "The curve's publication does not state the token mix it was measured at; \
                         servecost assumes {}. Per-class costs lean on that assumption.{reading}",
            mix_text(&curve.mix)
        ),
        Some(&curve.source),
    ));
}
