//! Checks across rows: every reference resolves (in the import or the dataset), keys are not
//! given twice, and every imported curve is one the engine can use.

use std::collections::BTreeSet;

use crate::rows::Rows;
use crate::rows::{ChipRow, CurveRow, HeadlineRow, Keyed, ModelRow, OfferRow, TierRow, WeightsRow};
use servecost::curve::{CurvePoint, ThroughputCurve};

use super::native::Valid;
use super::{ImportProblem, Origins};

fn problem(
    origins: &Origins,
    kind: &'static str,
    key: &str,
    field: &str,
    what: String,
) -> ImportProblem {
    let (file, at) = origins
        .get(&(kind, key.to_owned()))
        .cloned()
        .unwrap_or_else(|| ("import".to_owned(), String::new()));
    ImportProblem {
        file,
        at,
        field: field.to_owned(),
        problem: what,
    }
}

/// A problem for every row of `rows` with a field out of its range, whichever reader made it:
/// every format is held to the same ranges, the link reader's where a link can give the figure.
fn fields<T: Valid>(rows: &[T], origins: &Origins, problems: &mut Vec<ImportProblem>) {
    for row in rows {
        if let Err((field, what)) = row.valid() {
            problems.push(problem(origins, T::KIND, &row.key(), field, what));
        }
    }
}

/// `rows` without those of `T` with a field out of its range, and a problem for each one taken
/// out.
fn keep_valid<T: Valid>(rows: &mut Vec<T>, origins: &Origins) -> Vec<ImportProblem> {
    let mut out = Vec::new();
    rows.retain(|row| match row.valid() {
        Ok(()) => true,
        Err((field, what)) => {
            out.push(problem(origins, T::KIND, &row.key(), field, what));
            false
        }
    });
    out
}

/// `--skip-invalid`: takes out of `incoming` every row with a field out of its range (and the
/// points of a curve taken out) and returns a problem for each, so that the rest can be
/// written. Checks across rows (references, keys twice, curves the engine cannot use) still
/// refuse the import.
pub fn leave_out_invalid(incoming: &mut Rows, origins: &Origins) -> Vec<ImportProblem> {
    let mut out = Vec::new();
    out.extend(keep_valid(&mut incoming.sources, origins));
    out.extend(keep_valid(&mut incoming.models, origins));
    out.extend(keep_valid(&mut incoming.weights, origins));
    out.extend(keep_valid(&mut incoming.chips, origins));
    out.extend(keep_valid(&mut incoming.tiers, origins));
    out.extend(keep_valid(&mut incoming.offers, origins));
    let curves_before: BTreeSet<String> = incoming.curves.iter().map(|c| c.id.clone()).collect();
    out.extend(keep_valid(&mut incoming.curves, origins));
    let kept: BTreeSet<&str> = incoming.curves.iter().map(|c| c.id.as_str()).collect();
    let gone: BTreeSet<&String> = curves_before
        .iter()
        .filter(|c| !kept.contains(c.as_str()))
        .collect();
    let before = incoming.points.len();
    incoming.points.retain(|p| !gone.contains(&p.curve));
    if incoming.points.len() < before {
        out.push(ImportProblem {
            file: "import".to_owned(),
            at: "curve_points".to_owned(),
            field: String::new(),
            problem: format!(
                "{} points of the curves left out",
                servecost::format::thousands((before - incoming.points.len()) as f64)
            ),
        });
    }
    out.extend(keep_valid(&mut incoming.points, origins));
    out.extend(keep_valid(&mut incoming.headlines, origins));
    out
}

/// Every problem across `incoming`'s rows, given the dataset `current`.
pub fn all(current: &Rows, incoming: &Rows, origins: &Origins) -> Vec<ImportProblem> {
    let mut problems = Vec::new();
    fields(&incoming.sources, origins, &mut problems);
    fields(&incoming.models, origins, &mut problems);
    fields(&incoming.weights, origins, &mut problems);
    fields(&incoming.chips, origins, &mut problems);
    fields(&incoming.tiers, origins, &mut problems);
    fields(&incoming.offers, origins, &mut problems);
    fields(&incoming.curves, origins, &mut problems);
    fields(&incoming.points, origins, &mut problems);
    fields(&incoming.headlines, origins, &mut problems);
    if !problems.is_empty() {
        return problems;
    }
    references(current, incoming, origins, &mut problems);
    duplicates(incoming, origins, &mut problems);
    curves(incoming, origins, &mut problems);
    if problems.is_empty() {
        holds_weights(current, incoming, origins, &mut problems);
    }
    if problems.is_empty() {
        default_answers(current, incoming, &mut problems);
    }
    problems
}

/// Every curve's replica holds its model's weights at its precision (the smallest recorded
/// where its precision has none), once the import is written: a curve, a size of weights or a
/// chip's memory that would break that is refused, naming both sizes.
fn holds_weights(
    current: &Rows,
    incoming: &Rows,
    origins: &Origins,
    problems: &mut Vec<ImportProblem>,
) {
    if incoming.curves.is_empty() && incoming.weights.is_empty() && incoming.chips.is_empty() {
        return;
    }
    let Ok(data) = crate::rows::dataset(current.overlaid(incoming), 0) else {
        // `default_answers` says why it does not load.
        return;
    };
    for c in &data.curves {
        let (Some(model), Some(chip)) = (data.model(&c.model), data.chip(&c.chip)) else {
            continue;
        };
        let Some(w) = model.weights_at(Some(&c.precision)) else {
            continue;
        };
        let memory = chip.memory_gb * c.replica_gpus;
        if w.gigabytes > memory {
            problems.push(problem(
                origins,
                CurveRow::KIND,
                &c.id,
                "replica_gpus",
                format!(
                    "curve {:?}: {} × {} holds {} GB, less than {}'s {} weights ({} GB)",
                    c.id,
                    servecost::format::number(c.replica_gpus),
                    chip.name,
                    servecost::format::number(memory),
                    model.name,
                    w.precision.to_ascii_uppercase(),
                    servecost::format::number(w.gigabytes)
                ),
            ));
        }
    }
}

/// The kinds of row another row may name.
#[derive(Clone, Copy)]
enum Target {
    Source,
    Model,
    Chip,
}

/// The rows a row names: each field, its value and the kind of row it names.
trait Names {
    fn names(&self) -> Vec<(&'static str, Option<&String>, Target)>;
}

impl Names for ModelRow {
    fn names(&self) -> Vec<(&'static str, Option<&String>, Target)> {
        vec![("licence_source", Some(&self.licence_source), Target::Source)]
    }
}

impl Names for WeightsRow {
    fn names(&self) -> Vec<(&'static str, Option<&String>, Target)> {
        vec![
            ("model", Some(&self.model), Target::Model),
            ("source", Some(&self.source), Target::Source),
        ]
    }
}

impl Names for ChipRow {
    fn names(&self) -> Vec<(&'static str, Option<&String>, Target)> {
        vec![
            ("memory_source", Some(&self.memory_source), Target::Source),
            (
                "accelerator_kw_source",
                self.accelerator_kw_source.as_ref(),
                Target::Source,
            ),
            (
                "all_in_kw_source",
                self.all_in_kw_source.as_ref(),
                Target::Source,
            ),
            (
                "compute_source",
                self.compute_source.as_ref(),
                Target::Source,
            ),
        ]
    }
}

impl Names for TierRow {
    fn names(&self) -> Vec<(&'static str, Option<&String>, Target)> {
        vec![
            ("chip", Some(&self.chip), Target::Chip),
            ("source", Some(&self.source), Target::Source),
        ]
    }
}

impl Names for OfferRow {
    fn names(&self) -> Vec<(&'static str, Option<&String>, Target)> {
        vec![
            ("model", Some(&self.model), Target::Model),
            ("source", Some(&self.source), Target::Source),
        ]
    }
}

impl Names for CurveRow {
    fn names(&self) -> Vec<(&'static str, Option<&String>, Target)> {
        vec![
            ("model", Some(&self.model), Target::Model),
            ("chip", Some(&self.chip), Target::Chip),
            ("source", Some(&self.source), Target::Source),
        ]
    }
}

impl Names for HeadlineRow {
    fn names(&self) -> Vec<(&'static str, Option<&String>, Target)> {
        vec![
            ("chip", Some(&self.chip), Target::Chip),
            ("source", Some(&self.source), Target::Source),
        ]
    }
}

/// Every reference (a source, a model, a chip) names a row of the dataset or of this import.
fn references(
    current: &Rows,
    incoming: &Rows,
    origins: &Origins,
    problems: &mut Vec<ImportProblem>,
) {
    let set = |a: Vec<&String>, b: Vec<&String>| -> BTreeSet<String> {
        a.into_iter().chain(b).cloned().collect()
    };
    let sources = set(
        current.sources.iter().map(|s| &s.key).collect(),
        incoming.sources.iter().map(|s| &s.key).collect(),
    );
    let models = set(
        current.models.iter().map(|m| &m.id).collect(),
        incoming.models.iter().map(|m| &m.id).collect(),
    );
    let chips = set(
        current.chips.iter().map(|c| &c.id).collect(),
        incoming.chips.iter().map(|c| &c.id).collect(),
    );
    let known = Known {
        sources,
        models,
        chips,
        origins,
    };
    known.check(&incoming.models, problems);
    known.check(&incoming.weights, problems);
    known.check(&incoming.chips, problems);
    known.check(&incoming.tiers, problems);
    known.check(&incoming.offers, problems);
    known.check(&incoming.curves, problems);
    known.check(&incoming.headlines, problems);
}

/// The keys a reference may name: the dataset's and this import's.
struct Known<'a> {
    sources: BTreeSet<String>,
    models: BTreeSet<String>,
    chips: BTreeSet<String>,
    origins: &'a Origins,
}

impl Known<'_> {
    /// A problem for each reference of `rows` that names no known row.
    fn check<T: Keyed + Names>(&self, rows: &[T], problems: &mut Vec<ImportProblem>) {
        for r in rows {
            for (field, value, target) in r.names() {
                let (known, what) = match target {
                    Target::Source => (&self.sources, "source"),
                    Target::Model => (&self.models, "model"),
                    Target::Chip => (&self.chips, "chip"),
                };
                let Some(v) = value.filter(|v| !known.contains(*v)) else {
                    continue;
                };
                let list: Vec<&str> = known.iter().map(String::as_str).collect();
                problems.push(problem(
                    self.origins,
                    T::KIND,
                    &r.key(),
                    field,
                    format!(
                        "{v:?} is not a {what} in the dataset or this import (known: {})",
                        list.join(", ")
                    ),
                ));
            }
        }
    }
}

/// No key twice in one import.
fn duplicates(incoming: &Rows, origins: &Origins, problems: &mut Vec<ImportProblem>) {
    let seen = incoming.key_counts();
    for ((kind, key), n) in seen {
        if n > 1 {
            problems.push(problem(
                origins,
                kind,
                &key,
                "",
                format!("{kind} {key:?} is given {n} times in this import"),
            ));
        }
    }
}

/// Points belong to a curve of this import (a curve's points come with it), and each curve is
/// one the engine can interpolate.
fn curves(incoming: &Rows, origins: &Origins, problems: &mut Vec<ImportProblem>) {
    let imported: BTreeSet<&String> = incoming.curves.iter().map(|c| &c.id).collect();
    let orphans: BTreeSet<&String> = incoming
        .points
        .iter()
        .map(|p| &p.curve)
        .filter(|c| !imported.contains(c))
        .collect();
    for c in orphans {
        problems.push(problem(
            origins,
            CurveRow::KIND,
            c,
            "curve",
            format!(
                "points for curve {c:?}, which this import does not bring: a curve's points are \
                 imported together with the curve (its row in `curves`)"
            ),
        ));
    }
    let mut by_curve: std::collections::BTreeMap<&String, Vec<_>> = Default::default();
    for p in &incoming.points {
        by_curve.entry(&p.curve).or_default().push(p);
    }
    for c in &incoming.curves {
        let points = by_curve.remove(&c.id).unwrap_or_default();
        if points.len() > super::MAX_POINTS_PER_CURVE {
            problems.push(problem(
                origins,
                CurveRow::KIND,
                &c.id,
                "curve_points",
                format!(
                    "curve {:?} has {} points; a curve may have at most {} (published curves \
                     have a few dozen: keep the Pareto frontier)",
                    c.id,
                    points.len(),
                    super::MAX_POINTS_PER_CURVE
                ),
            ));
            continue;
        }
        let mut converted = Vec::new();
        for p in &points {
            match (p.tokens_per_s_per_gpu, p.usd_per_mtok, c.price_basis_usd) {
                (Some(t), _, _) => converted.push(CurvePoint::measured(p.tps, t)),
                (None, Some(cost), Some(price)) => {
                    converted.push(CurvePoint::from_cost(p.tps, cost, price));
                }
                _ => {
                    problems.push(problem(
                        origins,
                        CurveRow::KIND,
                        &c.id,
                        "price_basis_usd",
                        "a point given as usd_per_mtok needs the curve's price_basis_usd".into(),
                    ));
                }
            }
        }
        if let Err(e) = ThroughputCurve::new(converted) {
            problems.push(problem(
                origins,
                CurveRow::KIND,
                &c.id,
                "curve_points",
                format!("curve {:?}: {e}", c.id),
            ));
        }
    }
}

/// The calculator must still answer its default scenario with the data the import leaves.
fn default_answers(current: &Rows, incoming: &Rows, problems: &mut Vec<ImportProblem>) {
    // The calculator must still answer its default scenario with the data the import leaves.
    match crate::rows::dataset(current.overlaid(incoming), 0) {
        Err(e) => problems.push(ImportProblem {
            file: "import".into(),
            at: String::new(),
            field: String::new(),
            problem: format!("the dataset after this import would not load: {e}"),
        }),
        Ok(data) => {
            let scenario = servecost::Scenario::default();
            if let Err(p) = servecost::evaluate(&scenario, &data) {
                let reasons: Vec<String> = p.iter().map(ToString::to_string).collect();
                problems.push(ImportProblem {
                    file: "import".into(),
                    at: String::new(),
                    field: String::new(),
                    problem: format!(
                        "after this import the calculator's default scenario would have no \
                         answer: {}",
                        reasons.join("; ")
                    ),
                });
            }
        }
    }
}
