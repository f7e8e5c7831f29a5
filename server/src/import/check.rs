//! Checks across rows: every reference resolves (in the import or the dataset), keys are not
//! given twice, and every imported curve is one the engine can use.

use std::collections::{BTreeMap, BTreeSet};

use app::db::import::Rows;
use servecost::curve::{CurvePoint, ThroughputCurve};

use super::{Origins, Problem};

fn problem(origins: &Origins, kind: &'static str, key: &str, field: &str, what: String) -> Problem {
    let (file, at) = origins
        .get(&(kind, key.to_owned()))
        .cloned()
        .unwrap_or_else(|| ("import".to_owned(), String::new()));
    Problem {
        file,
        at,
        field: field.to_owned(),
        problem: what,
    }
}

/// Every problem across `incoming`'s rows, given the dataset `current`.
pub fn all(current: &Rows, incoming: &Rows, origins: &Origins) -> Vec<Problem> {
    let mut problems = Vec::new();
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
    let mut need = |kind: &'static str,
                    key: &str,
                    field: &str,
                    value: Option<&String>,
                    known: &BTreeSet<String>,
                    what: &str| {
        if let Some(v) = value {
            if !known.contains(v) {
                let list: Vec<&str> = known.iter().map(String::as_str).collect();
                problems.push(problem(
                    origins,
                    kind,
                    key,
                    field,
                    format!(
                        "{v:?} is not a {what} in the dataset or this import (known: {})",
                        list.join(", ")
                    ),
                ));
            }
        }
    };
    for r in &incoming.models {
        need(
            "model",
            &r.id,
            "licence_source",
            Some(&r.licence_source),
            &sources,
            "source",
        );
    }
    for r in &incoming.weights {
        let key = format!("{}/{}", r.model, r.precision);
        need("weights", &key, "model", Some(&r.model), &models, "model");
        need(
            "weights",
            &key,
            "source",
            Some(&r.source),
            &sources,
            "source",
        );
    }
    for r in &incoming.chips {
        need(
            "chip",
            &r.id,
            "memory_source",
            Some(&r.memory_source),
            &sources,
            "source",
        );
        need(
            "chip",
            &r.id,
            "accelerator_kw_source",
            r.accelerator_kw_source.as_ref(),
            &sources,
            "source",
        );
        need(
            "chip",
            &r.id,
            "all_in_kw_source",
            r.all_in_kw_source.as_ref(),
            &sources,
            "source",
        );
    }
    for r in &incoming.tiers {
        let key = format!("{}/{}", r.chip, r.tier);
        need("price tier", &key, "chip", Some(&r.chip), &chips, "chip");
        need(
            "price tier",
            &key,
            "source",
            Some(&r.source),
            &sources,
            "source",
        );
    }
    for r in &incoming.offers {
        need(
            "API offer",
            &r.id,
            "model",
            Some(&r.model),
            &models,
            "model",
        );
        need(
            "API offer",
            &r.id,
            "source",
            Some(&r.source),
            &sources,
            "source",
        );
    }
    for r in &incoming.curves {
        need("curve", &r.id, "model", Some(&r.model), &models, "model");
        need("curve", &r.id, "chip", Some(&r.chip), &chips, "chip");
        need(
            "curve",
            &r.id,
            "source",
            Some(&r.source),
            &sources,
            "source",
        );
    }
    for r in &incoming.headlines {
        need("headline", &r.id, "chip", Some(&r.chip), &chips, "chip");
        need(
            "headline",
            &r.id,
            "source",
            Some(&r.source),
            &sources,
            "source",
        );
    }

    // No key twice in one import.
    let mut seen: BTreeMap<(&str, String), usize> = BTreeMap::new();
    let keyed = incoming
        .sources
        .iter()
        .map(|r| ("source", r.key.clone()))
        .chain(incoming.models.iter().map(|r| ("model", r.id.clone())))
        .chain(
            incoming
                .weights
                .iter()
                .map(|r| ("weights", format!("{}/{}", r.model, r.precision))),
        )
        .chain(incoming.chips.iter().map(|r| ("chip", r.id.clone())))
        .chain(
            incoming
                .tiers
                .iter()
                .map(|r| ("price tier", format!("{}/{}", r.chip, r.tier))),
        )
        .chain(incoming.offers.iter().map(|r| ("API offer", r.id.clone())))
        .chain(incoming.curves.iter().map(|r| ("curve", r.id.clone())))
        .chain(
            incoming
                .headlines
                .iter()
                .map(|r| ("headline", r.id.clone())),
        );
    for k in keyed {
        *seen.entry(k).or_default() += 1;
    }
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
            "curve",
            c,
            "curve",
            format!(
                "points for curve {c:?}, which this import does not bring: a curve's points are \
                 imported together with the curve (its row in `curves`)"
            ),
        ));
    }
    for c in &incoming.curves {
        let points: Vec<_> = incoming.points.iter().filter(|p| p.curve == c.id).collect();
        let mut converted = Vec::new();
        for p in &points {
            match (p.tokens_per_s_per_gpu, p.usd_per_mtok, c.price_basis_usd) {
                (Some(t), _, _) => converted.push(CurvePoint {
                    tps: p.tps,
                    tokens_per_s_per_gpu: t,
                }),
                (None, Some(cost), Some(price)) => {
                    converted.push(CurvePoint::from_cost(p.tps, cost, price));
                }
                _ => {
                    problems.push(problem(
                        origins,
                        "curve",
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
                "curve",
                &c.id,
                "curve_points",
                format!("curve {:?}: {e}", c.id),
            ));
        }
    }
    // The calculator must still answer its default scenario with the data the import leaves.
    if problems.is_empty() {
        match app::db::rows::dataset(current.overlaid(incoming), 0) {
            Err(e) => problems.push(Problem {
                file: "import".into(),
                at: String::new(),
                field: String::new(),
                problem: format!("the dataset after this import would not load: {e}"),
            }),
            Ok(data) => {
                let scenario = servecost::Scenario::default();
                if let Err(p) = servecost::evaluate(&scenario, &data) {
                    let reasons: Vec<String> = p.iter().map(ToString::to_string).collect();
                    problems.push(Problem {
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
