//! A speed target faster than the chosen curve's fastest measured point: which of the model's
//! curves reach it, and what self-hosting is priced on. Renting and the verdict never depend
//! on a curve reaching the target.

use super::sections::Costed;
use super::{curve_label, resolve};
use crate::curve::ThroughputCurve;
use crate::dataset::Dataset;
use crate::report::{ReachingCurve, SpeedReach, Warning, WarningCode};
use crate::scenario::{CurveChoice, Scenario};

/// What a speed target beyond the chosen curve changes: the scenario self-hosting is priced
/// by, and what the report says about it.
pub(super) struct Beyond {
    /// The scenario to cost: on a curve that reaches the target, or at the chosen curve's
    /// fastest point.
    pub(super) priced: Scenario,
    /// What the report says.
    pub(super) speed: SpeedReach,
}

/// `None` when the chosen curve reaches the scenario's speed target (or the scenario does not
/// resolve: its problems are the evaluation's to name), else how self-hosting is priced. The
/// model's default curve gives way to the cheapest of its curves that reach the target; a curve
/// chosen by id, or your own points, is priced at its fastest point as a floor.
pub(super) fn beyond(s: &Scenario, data: &Dataset) -> Option<Beyond> {
    let (r, ctx) = resolve(s, data).ok()?;
    let (target, fastest) = (r.tps, r.curve.fastest());
    if target <= fastest {
        return None;
    }
    let chosen_chip = ctx
        .curve
        .map(|c| c.chip.as_str())
        .or(ctx.chip.map(|c| c.id.as_str()));
    let chosen = ctx.curve.map(|c| c.id.as_str());
    let mut reaching: Vec<ReachingCurve> = data
        .curves_of(&ctx.model.id)
        .filter(|c| Some(c.id.as_str()) != chosen)
        .filter_map(|c| {
            let curve_fastest = ThroughputCurve::new(c.points.clone()).ok()?.fastest();
            if curve_fastest < target {
                return None;
            }
            let on = on_curve(s, &c.id, Some(c.chip.as_str()) == chosen_chip);
            let costed = Costed::new(&on, data).ok()?;
            Some(ReachingCurve {
                curve: c.id.clone(),
                label: curve_label(c, data),
                fastest: curve_fastest,
                monthly_usd: costed.own.total(),
                query: crate::codec::to_query(&on),
            })
        })
        .collect();
    reaching.sort_by(|a, b| {
        a.monthly_usd
            .total_cmp(&b.monthly_usd)
            .then_with(|| a.curve.cmp(&b.curve))
    });
    let default_curve = matches!(s.curve, CurveChoice::Dataset { id: None });
    let chosen_label = ctx
        .curve
        .map_or("Your own curve".to_owned(), |c| curve_label(c, data));
    let (priced, priced_on, priced_at, floor) = match reaching.first() {
        Some(best) if default_curve => {
            let same_chip = data
                .curve(&best.curve)
                .is_some_and(|c| Some(c.chip.as_str()) == chosen_chip);
            (
                on_curve(s, &best.curve, same_chip),
                best.curve.clone(),
                target,
                false,
            )
        }
        _ => (
            Scenario {
                tps: Some(fastest),
                ..s.clone()
            },
            chosen.unwrap_or("own").to_owned(),
            fastest,
            true,
        ),
    };
    Some(Beyond {
        priced,
        speed: SpeedReach {
            target,
            chosen: chosen.unwrap_or("own").to_owned(),
            chosen_label,
            chosen_fastest: fastest,
            priced_on,
            priced_at,
            floor,
            reaching,
        },
    })
}

/// `s` on the dataset curve `id`: your GPU-hour, owned-hardware and replica inputs kept where
/// the curve runs on the same chip, the chip's own prices otherwise.
fn on_curve(s: &Scenario, id: &str, same_chip: bool) -> Scenario {
    if same_chip {
        return Scenario {
            curve: CurveChoice::Dataset {
                id: Some(id.to_owned()),
            },
            curve_mix: None,
            ..s.clone()
        };
    }
    crate::options::on_curve(s, id)
}

/// The caveat that says what the target beyond the chosen curve changed.
pub(super) fn warning(speed: &SpeedReach, model: &str) -> Warning {
    let tps = |v: f64| crate::format::significant(v, 3);
    let head = format!(
        "The target, {} tokens/s per user, is above the fastest measured point of {}, {}.",
        tps(speed.target),
        speed.chosen_label,
        tps(speed.chosen_fastest)
    );
    let n = speed.reaching.len();
    let curves = if n == 1 { "curve" } else { "curves" };
    let message = match speed.reaching.first() {
        Some(best) if !speed.floor => format!(
            "{head} Self-hosting is priced on the cheapest of the {} {curves} of {model} that \
             reach it: {}, {} a month. Choose a curve to price another.",
            crate::format::number(n as f64),
            best.label,
            crate::format::usd(best.monthly_usd)
        ),
        Some(best) => format!(
            "{head} Self-hosting is priced at {} tokens/s per user, a floor: faster, each GPU \
             serves fewer tokens, so at the target it costs more. {} {curves} of {model} reach \
             the target; the cheapest, {}, costs {} a month.",
            tps(speed.priced_at),
            crate::format::number(n as f64),
            best.label,
            crate::format::usd(best.monthly_usd)
        ),
        None => format!(
            "{head} Self-hosting is priced at {} tokens/s per user, a floor: faster, each GPU \
             serves fewer tokens, so at the target it costs more. None of the curves of {model} \
             reaches the target: measure your own at that speed.",
            tps(speed.priced_at)
        ),
    };
    Warning {
        code: WarningCode::TargetAboveCurve,
        message,
        source: None,
        effect_usd: None,
    }
}
