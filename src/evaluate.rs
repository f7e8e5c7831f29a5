//! One evaluation: a scenario and the dataset in, the full report out.

mod judgement;
mod reach;
mod resolve;
mod sections;
mod warnings;

pub use judgement::{candidate, range_medians};
use judgement::{curve_ratios, rank_warnings};

pub use resolve::{resolve, Context};

use sections::Costed;

use crate::codec::{parse, to_query, Checkable, Checked};
use crate::dataset::Dataset;
use crate::error::Problem;
use crate::report::Report;
use crate::sensitivity::sensitivity;

/// Evaluates a scenario against the dataset: one the codec read from a link as it is, one made
/// in code checked first by the same codec, so any problem comes back named by its parameter.
pub fn evaluate(scenario: &impl Checkable, data: &Dataset) -> Result<Report, Vec<Problem>> {
    evaluate_with(scenario, data, Depth::Full)
}

/// How much of the decision an evaluation computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Depth {
    /// Everything: the sureness sample and the flips included.
    Full,
    /// The numbers without the decision's searches or the charts: no sureness sample
    /// (`uncertainty` is `None`), no flips (`flips` lists no input), no ranges, no sensitivity,
    /// no ranked caveats (`top_warnings` empty, no warning's `effect_usd`), no points of the
    /// volume and speed charts. For a first answer in the browser while the full one follows.
    Quick,
    /// [`Depth::Quick`] with the sureness sample (`uncertainty`, and the ranges in it), without
    /// the flips: the share of plausible cases in which each plan is cheapest, for the ranked
    /// options.
    Sample,
}

impl Report {
    /// Whether the sureness sample and the flips were computed ([`Depth::Full`]): a full report
    /// lists every searched input, as a flip or as unchanged.
    pub fn is_full(&self) -> bool {
        !self.flips.flips.is_empty() || !self.flips.unchanged.is_empty()
    }
}

/// [`evaluate`] to the given depth: the plans costed, the decision judged on them, then each
/// section of the report.
pub fn evaluate_with(
    scenario: &impl Checkable,
    data: &Dataset,
    depth: Depth,
) -> Result<Report, Vec<Problem>> {
    report(&*scenario.checked()?, data, depth)
}

/// The report of a checked scenario (one body for every kind of scenario `evaluate` takes).
fn report(s: &Checked, data: &Dataset, depth: Depth) -> Result<Report, Vec<Problem>> {
    // A target beyond the chosen curve prices self-hosting on another curve or as a floor.
    let beyond = reach::beyond(s, data);
    let c = Costed::new(beyond.as_ref().map_or(&**s, |b| &b.priced), data)?;
    let ratios = curve_ratios(&c.r, &c.ctx, data, &c.interactive);
    let judged = c.judge(depth, ratios.clone());
    let full = depth == Depth::Full;
    let self_host = c.self_host_report();
    // The sensitivity feeds the caveats' ranking, which the browser draws from the full
    // answer only: a quick answer leaves it empty.
    let sensitivity = if full {
        sensitivity(&c.r, c.own.total() - c.rent.monthly_usd)
    } else {
        Vec::new()
    };
    let mut warnings = c.warnings(ratios);
    let top_warnings = if full {
        rank_warnings(
            &mut warnings,
            &judged.ranges,
            &sensitivity,
            c.ctx.owned_parts.is_some(),
        )
    } else {
        Vec::new()
    };
    warnings.extend(warnings::offer_below_target(s, &c.ctx));
    let speed = beyond.as_ref().map(|b| b.speed.clone());
    if let Some(speed) = &speed {
        // What the target beyond the curve changed is read first.
        warnings.insert(0, reach::warning(speed, &c.ctx.model.name));
    }
    let mut verdict = c.verdict();
    // A floor below renting (alone or in the hybrid) decides nothing at the target.
    verdict.decided = !speed
        .as_ref()
        .is_some_and(|sp| sp.floor && verdict.best != crate::decision::Strategy::Rent);
    let report = Report {
        query: s.query().to_owned(),
        dataset_revision: data.revision,
        inputs: c.inputs(),
        rent: c.rent_report(),
        hybrid: c.hybrid_report(),
        verdict,
        series: c.series(full, &judged.bands, &self_host),
        self_host,
        uncertainty: judged.uncertainty,
        flips: judged.flips,
        bands: judged.bands,
        top_warnings,
        sensitivity,
        break_even: c.break_even.clone(),
        power: c.power(),
        warnings,
        plan: c.projection(),
        batch: c.batch_report(),
        speed,
    };
    finite(report)
}

/// The last guard of the policy in `error`: no answer carries a NaN or an infinity (JSON would
/// write it as null, CSV as NaN). The inputs' floors and the guards in each formula keep this
/// from firing; if one is missed, the answer is refused by name, not sent.
fn finite(report: Report) -> Result<Report, Vec<Problem>> {
    crate::finite::check(&report).map_err(|e| {
        vec![Problem::new(
            "scenario",
            &e.path,
            format!(
                "these inputs give no finite {}: change the volumes or prices towards \
                 realistic values",
                e.path
            ),
        )]
    })?;
    Ok(report)
}

fn curve_label(c: &crate::dataset::Curve, data: &Dataset) -> String {
    data.curve_label(c)
}
