//! What the decision needs of an evaluation: the context its sample draws in (the curves that
//! disagree, the GPU-hour range's reason, an assumed mix's other reading), the pieces the
//! ranking and the tests build from a scenario, and the caveats ranked by what they move.

use super::{curve_label, parse, resolve, to_query, Context};
use crate::dataset::Dataset;
use crate::decision;
use crate::error::Problem;
use crate::gpu_price::Commitment;
use crate::report::Warning;
use crate::report::WarningCode;
use crate::resolved::Resolved;
use crate::scenario::Scenario;

/// Curves whose throughputs lie this far apart are flagged as disagreeing.
pub(super) const CURVES_APART: f64 = 1.5;

/// The throughput of the other curves of the model on chips of the selected chip's family,
/// over the selected curve's, at the user's volumes and target speed (each read at its own
/// mix): the lowest and highest ratio (1, this curve, included) and the curves in words.
pub(super) fn curve_ratios(
    r: &Resolved,
    ctx: &Context,
    data: &Dataset,
    mine: &crate::gpu_time::GpuTime,
) -> Option<decision::CurveSpread> {
    let selected = ctx.curve?;
    let family = ctx.chip?.family.as_deref()?;
    let own_demand = mine.demand(&r.volumes);
    if !(own_demand > 0.0) {
        return None;
    }
    let (mut lo, mut hi, mut names) = (1.0_f64, 1.0_f64, Vec::new());
    let mut furthest: Option<(f64, String)> = None;
    // Independent curves only: a vendor's curve is its best case, with a haircut of its own.
    for c in data
        .curves_of(&ctx.model.id)
        .filter(|c| c.id != selected.id && !data.is_vendor(&c.source))
    {
        if data.chip(&c.chip).and_then(|ch| ch.family.as_deref()) != Some(family) {
            continue;
        }
        let Some(g) = crate::curve::ThroughputCurve::new(c.points.clone())
            .ok()
            .and_then(|curve| curve.at(r.tps).ok())
            // A target below a curve's slowest point reads that point, not the curve at the
            // target: no comparison.
            .filter(|reading| !reading.clamped)
            .and_then(|reading| {
                crate::gpu_time::GpuTime::derive(
                    reading.tokens_per_s_per_gpu,
                    &c.mix,
                    r.prefill,
                    r.cache_cost,
                )
                .ok()
            })
        else {
            continue;
        };
        let theirs = g.demand(&r.volumes);
        if !(theirs > 0.0) {
            continue;
        }
        let ratio = own_demand / theirs;
        lo = lo.min(ratio);
        hi = hi.max(ratio);
        if furthest
            .as_ref()
            .is_none_or(|(far, _)| ratio.ln().abs() > far.ln().abs())
        {
            furthest = Some((ratio, c.source.clone()));
        }
        names.push(format!(
            "{} (×{})",
            curve_label(c, data),
            crate::format::significant(ratio, 2)
        ));
    }
    let (_, source) = furthest?;
    Some(decision::CurveSpread {
        lo,
        hi,
        names: names.join("; "),
        source,
    })
}

/// What the dataset says about the uncertainty of this scenario's inputs.
pub(super) fn sample_context(
    s: &Scenario,
    ctx: &Context,
    data: &Dataset,
    ratios: Option<decision::CurveSpread>,
) -> decision::SampleContext {
    decision::SampleContext {
        spec: s.uncertainty,
        gpu_hour_spread: s.uncertainty.gpu_hour.unwrap_or_else(|| {
            decision::gpu_hour_spread(ctx.commitment, ctx.owned_parts.is_some())
        }),
        gpu_hour_reason: gpu_hour_reason(s, ctx),
        // A vendor's curve and a development run are both read with the haircut's spread.
        vendor: ctx
            .curve
            .filter(|c| {
                data.is_vendor(&c.source) || c.tier == Some(crate::dataset::DataTier::Experimental)
            })
            .map(|c| c.source.clone()),
        alternative_mix: ctx
            .curve
            .filter(|c| !c.mix_stated && s.curve_mix.is_none())
            .and_then(|c| {
                match c.input_share_bounds {
                    Some([_, high]) => input_mix(high),
                    None => crate::units::Mix::from_parts(
                        c.mix.uncached + c.mix.cached,
                        0.0,
                        c.mix.output,
                    ),
                }
                .map(|m| (m, c.source.clone()))
            }),
        mix_floor: ctx
            .curve
            .filter(|c| !c.mix_stated && s.curve_mix.is_none())
            .and_then(|c| c.input_share_bounds)
            .and_then(|[low, _]| input_mix(low)),
        curve_ratios: ratios,
        hybrid: s.hybrid,
    }
}

/// A mix of uncached input at `share` of the tokens and output the rest.
pub(crate) fn input_mix(share: f64) -> Option<crate::units::Mix> {
    crate::units::Mix::from_parts(share, 0.0, 1.0 - share)
}

/// `scenario` as one option of a joint sample ([`decision::joint_cheapest`]), costed as `plan`.
pub fn candidate(
    scenario: &Scenario,
    data: &Dataset,
    plan: decision::Strategy,
) -> Result<decision::Candidate, Vec<Problem>> {
    let s = parse(&to_query(scenario))?.scenario;
    let (r, ctx) = resolve(&s, data)?;
    let (reading, ratios) = match r.interactive_time() {
        Ok((reading, gpu_time)) => {
            let ratios = curve_ratios(&r, &ctx, data, &gpu_time);
            (reading, ratios)
        }
        // Renting needs no curve: one that cannot reach the speed does not stop it.
        Err(_) if plan == decision::Strategy::Rent => (
            crate::curve::Reading {
                tokens_per_s_per_gpu: 0.0,
                clamped: false,
            },
            None,
        ),
        Err(p) => return Err(vec![p]),
    };
    let sure = sample_context(&s, &ctx, data, ratios);
    Ok(decision::Candidate {
        base: r,
        reading,
        ctx: sure,
        plan,
    })
}

/// For each range of the sureness sample, whether its median leaves every input of `scenario`
/// as given ([`decision::medians_are_the_point`]): the check behind "the point answer is the
/// middle of the ranges".
pub fn range_medians(
    scenario: &Scenario,
    data: &Dataset,
) -> Result<Vec<(decision::Lever, bool)>, Vec<Problem>> {
    let s = parse(&to_query(scenario))?.scenario;
    let (r, ctx) = resolve(&s, data)?;
    let (reading, gpu_time) = r.interactive_time().map_err(|p| vec![p])?;
    let ratios = curve_ratios(&r, &ctx, data, &gpu_time);
    let sure = sample_context(&s, &ctx, data, ratios);
    Ok(decision::medians_are_the_point(&r, &reading, &sure))
}

/// Why the GPU-hour range is as wide as it is.
pub(super) fn gpu_hour_reason(s: &Scenario, ctx: &Context) -> String {
    if s.uncertainty.gpu_hour.is_some() {
        return "Set by u_gpu_hour.".to_owned();
    }
    if ctx.owned_parts.is_some() {
        return "Owned hardware's hour rests on estimates of power, facility, maintenance and \
                life: ×1/1.2 to ×1.2."
            .to_owned();
    }
    match ctx.commitment {
        Some(Commitment::Reserved) => "A reserved price is fixed for its term; what remains \
             uncertain is its terms (upfront share, renewal): ×1/1.1 to ×1.1."
            .to_owned(),
        Some(Commitment::OnDemand) => {
            "On-demand list prices move and are discounted for volume: ×1/1.25 to ×1.25.".to_owned()
        }
        Some(Commitment::Spot) => "Spot prices swing with the market: ×1/1.5 to ×1.5.".to_owned(),
        Some(Commitment::OwnerCost) => "An owner's cost is an estimate, not a price anyone \
             pays: ×1/1.3 to ×1.3."
            .to_owned(),
        None => "The price does not say what it commits to: ×1/1.3 to ×1.3.".to_owned(),
    }
}

/// Gives each warning the effect of the range behind it and returns the codes of the three
/// that move the answer most.
pub(super) fn rank_warnings(
    warnings: &mut [Warning],
    ranges: &[decision::Range],
    sensitivity: &[crate::sensitivity::Sensitivity],
    owned: bool,
) -> Vec<WarningCode> {
    use decision::Knob;
    let range = |knob: Knob| {
        ranges
            .iter()
            .find(|x| x.key == knob.key() && x.applies)
            .map(|x| x.effect_usd)
    };
    let lever = |knob: Knob| {
        sensitivity
            .iter()
            .find(|x| x.key == knob.key())
            .map(|x| x.effect())
    };
    for w in warnings.iter_mut().filter(|w| w.effect_usd.is_none()) {
        w.effect_usd = match w.code {
            WarningCode::VendorCurve | WarningCode::ExperimentalCurve => range(Knob::Haircut),
            WarningCode::AssumedMix => range(Knob::CurveMix),
            WarningCode::CurvesDisagree => range(Knob::Curves),
            WarningCode::MixFarFromCurve => range(Knob::Prefill)
                .into_iter()
                .chain(range(Knob::CacheCost))
                .reduce(f64::max),
            WarningCode::CommitmentNotStated
            | WarningCode::OwnerCostPrice
            | WarningCode::SpotPrice
            | WarningCode::ReservedTerm => range(Knob::GpuHour),
            WarningCode::PowerFigure if owned => range(Knob::GpuHour),
            WarningCode::TargetCapped
            | WarningCode::TargetNotPublished
            | WarningCode::BatchAtInteractiveSpeed
            | WarningCode::TargetBelowCurve => lever(Knob::Tps),
            _ => None,
        };
    }
    let mut ranked: Vec<&Warning> = warnings
        .iter()
        .filter(|w| w.effect_usd.is_some_and(|e| e > 0.0))
        .collect();
    ranked.sort_by(|a, b| {
        b.effect_usd
            .unwrap_or(0.0)
            .total_cmp(&a.effect_usd.unwrap_or(0.0))
    });
    ranked.into_iter().take(3).map(|w| w.code).collect()
}
