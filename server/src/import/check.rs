//! Checks across rows: every reference resolves (in the import or the dataset), keys are not
//! given twice, and every imported curve is one the engine can use.

use std::collections::BTreeSet;

use app::db::rows::Rows;
use app::db::rows::{
    ChipRow, CurveRow, HeadlineRow, Keyed, ModelRow, OfferRow, TierRow, WeightsRow,
};
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
    // Each row's references: (field, value, the keys it may name, what they are).
    type Ref<'a> = (&'a str, Option<&'a String>, &'a BTreeSet<String>, &'a str);
    let mut need = |kind: &'static str, key: String, refs: &[Ref]| {
        for (field, value, known, what) in refs {
            let Some(v) = value.filter(|v| !known.contains(*v)) else {
                continue;
            };
            let list: Vec<&str> = known.iter().map(String::as_str).collect();
            problems.push(problem(
                origins,
                kind,
                &key,
                field,
                format!(
                    "{v:?} is not a {what} in the dataset or this import (known: {})",
                    list.join(", ")
                ),
            ));
        }
    };
    let source = |field, value| (field, value, &sources, "source");
    for r in &incoming.models {
        need(
            ModelRow::KIND,
            r.key(),
            &[source("licence_source", Some(&r.licence_source))],
        );
    }
    for r in &incoming.weights {
        need(
            WeightsRow::KIND,
            r.key(),
            &[
                ("model", Some(&r.model), &models, "model"),
                source("source", Some(&r.source)),
            ],
        );
    }
    for r in &incoming.chips {
        need(
            ChipRow::KIND,
            r.key(),
            &[
                source("memory_source", Some(&r.memory_source)),
                source("accelerator_kw_source", r.accelerator_kw_source.as_ref()),
                source("all_in_kw_source", r.all_in_kw_source.as_ref()),
            ],
        );
    }
    for r in &incoming.tiers {
        need(
            TierRow::KIND,
            r.key(),
            &[
                ("chip", Some(&r.chip), &chips, "chip"),
                source("source", Some(&r.source)),
            ],
        );
    }
    for r in &incoming.offers {
        need(
            OfferRow::KIND,
            r.key(),
            &[
                ("model", Some(&r.model), &models, "model"),
                source("source", Some(&r.source)),
            ],
        );
    }
    for r in &incoming.curves {
        need(
            CurveRow::KIND,
            r.key(),
            &[
                ("model", Some(&r.model), &models, "model"),
                ("chip", Some(&r.chip), &chips, "chip"),
                source("source", Some(&r.source)),
            ],
        );
    }
    for r in &incoming.headlines {
        need(
            HeadlineRow::KIND,
            r.key(),
            &[
                ("chip", Some(&r.chip), &chips, "chip"),
                source("source", Some(&r.source)),
            ],
        );
    }

    // No key twice in one import.
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

    // Points belong to a curve of this import (a curve's points come with it), and each curve
    // is one the engine can interpolate.
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
    // The calculator must still answer its default scenario with the data the import leaves.
    if problems.is_empty() {
        match app::db::rows::dataset(current.overlaid(incoming), 0) {
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
    problems
}
