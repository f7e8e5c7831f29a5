//! Which sources a result rests on, numbered in the order they are first cited.

use leptos::prelude::*;
use servecost::{Dataset, Report};

/// Source keys the report rests on, in a stable order, only those in the dataset.
pub fn cited(report: &Report, data: &Dataset) -> Vec<String> {
    let i = &report.inputs;
    let chip = i.chip.as_deref().and_then(|c| data.chip(c));
    let mut keys: Vec<String> = vec![
        i.api_source.clone(),
        i.tps_source.clone(),
        i.curve_source.clone(),
        i.gpu_hour_source.clone(),
    ];
    if let Some(c) = chip {
        keys.push(c.memory_source.clone());
        keys.extend(c.accelerator_kw_source.clone());
        keys.extend(c.all_in_kw_source.clone());
    }
    if let Some(m) = data.model(&i.model) {
        keys.push(m.licence_source.clone());
        keys.extend(m.weights.iter().map(|w| w.source.clone()));
    }
    keys.extend(report.power.headline_source.clone());
    keys.extend(report.warnings.iter().filter_map(|w| w.source.clone()));
    // The sources of the defaults in force (a preset's measured shape among them).
    keys.extend(
        servecost::in_force::list(report)
            .into_iter()
            .filter_map(|row| match row.origin {
                servecost::in_force::Origin::Default(key) => key,
                servecost::in_force::Origin::Yours => None,
            }),
    );
    keys.push(servecost::dataset::ASSUMPTIONS_SOURCE.into());
    let mut out: Vec<String> = Vec::new();
    for k in keys {
        if data.source(&k).is_some() && !out.contains(&k) {
            out.push(k);
        }
    }
    out
}

/// A footnote marker linking to source `key` in the list `keys` (nothing when not listed).
pub fn cite(keys: &[String], key: &str) -> impl IntoView + use<> {
    keys.iter().position(|k| k == key).map(|n| {
        view! { <sup class="cite"><a href=format!("#src-{key}") aria-label=format!("source {}", n + 1)>{format!("[{}]", n + 1)}</a></sup> }
    })
}
