//! The first choice of the form: the model, each with the chips it was measured on and the API
//! offers the dataset holds for it. A page carries one model's curves and offers, so choosing
//! another loads its page: a form of its own (it works without JavaScript) that keeps the
//! scenario but what belonged to the model before (its curve, offer, chip and tier).

use leptos::prelude::*;

use super::Ctx;
use crate::query;

/// The parameters that name one model's rows, left out when the model changes.
pub const OF_THE_MODEL: [&str; 7] = [
    "api",
    "curve",
    "points",
    "curve_mix",
    "chip",
    "gpu_tier",
    "chip_name",
];

/// The models to choose from, each with what the dataset holds of it.
fn options(d: &servecost::Dataset) -> Vec<(String, String)> {
    let reach = d.reach();
    d.models
        .iter()
        .map(|m| {
            let label = match reach.iter().find(|r| r.model == m.id) {
                Some(r) => {
                    let chips: Vec<&str> = r
                        .chips
                        .iter()
                        .map(|c| d.chip(c).map_or(c.as_str(), |x| x.name.as_str()))
                        .collect();
                    let measured = match chips.len() {
                        0 => "no measured curve (your benchmark)".to_owned(),
                        1 => format!("measured on {}", chips[0]),
                        n => format!("measured on {n} chips"),
                    };
                    let offers = match (r.offers, r.providers) {
                        (0, _) => "no API offer".to_owned(),
                        (1, _) => "1 API offer".to_owned(),
                        (o, 1) => format!("{o} API offers from 1 provider"),
                        (o, p) => format!("{o} API offers from {p} providers"),
                    };
                    format!("{} — {measured}, {offers}", m.name)
                }
                None => m.name.clone(),
            };
            (m.id.clone(), label)
        })
        .collect()
}

/// The model's choice: a select that loads the chosen model's page, and its own button for a
/// browser without JavaScript.
#[component]
pub fn ModelChoice(
    /// What the sections share.
    ctx: Ctx,
) -> impl IntoView {
    let options = ctx.data.with_value(options);
    let current = ctx.model();
    // The scenario without its model and what belonged to it, as the form's hidden fields.
    let kept = Memo::new(move |_| {
        ctx.query.with(|q| {
            let mut removed = vec!["model"];
            removed.extend(OF_THE_MODEL);
            query::pairs(&query::edit(q, &[], &removed))
        })
    });
    let go = move |ev: leptos::ev::Event| {
        let model = event_target_value(&ev);
        let mut removed: Vec<&str> = OF_THE_MODEL.to_vec();
        removed.push("model");
        let href = ctx.link(&[("model", model.as_str())], &removed);
        #[cfg(feature = "hydrate")]
        {
            let _ = window().location().set_href(&href);
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = href;
    };
    let reach = ctx.data.with_value(|d| d.reach());
    let here = reach.iter().find(|r| r.model == current).cloned();
    view! {
        <form class="inputs model-choice" id="model-form" method="get" action="/">
            <fieldset>
                <legend>"Model"</legend>
                <div class="field">
                    <label for="model">"Open-weight model"</label>
                    <select id="model" name="model" data-testid="model" on:change=go>
                        {options.into_iter().map(|(id, label)| {
                            let selected = id == current;
                            view! { <option value=id selected=selected>{label}</option> }
                        }).collect_view()}
                    </select>
                    {here.map(|r| {
                        let chips: Vec<String> = ctx.data.with_value(|d| {
                            r.chips
                                .iter()
                                .map(|c| d.chip(c).map_or(c.clone(), |x| x.name.clone()))
                                .collect()
                        });
                        view! {
                            <p class="hint" data-testid="model-reach">{format!(
                                "The curves and API offers below are this model's: {} {}{}, and {} {} from {} {}. Where it has no curve on the chip you want, choose \"Your benchmark\" under Self-hosting.",
                                r.curves,
                                if r.curves == 1 { "measured curve" } else { "measured curves" },
                                if chips.is_empty() { String::new() } else { format!(" on {}", chips.join(", ")) },
                                r.offers,
                                if r.offers == 1 { "API offer" } else { "API offers" },
                                r.providers,
                                if r.providers == 1 { "provider" } else { "providers" },
                            )}</p>
                        }
                    })}
                </div>
                {move || kept.get().into_iter().map(|(k, v)| {
                    view! { <input type="hidden" name=k value=servecost::codec::decode(&v)/> }
                }).collect_view()}
                <button type="submit" class="update">"Choose this model"</button>
            </fieldset>
        </form>
    }
}
