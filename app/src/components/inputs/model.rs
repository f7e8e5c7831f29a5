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

/// The parameters that hold figures of one chip: owned hardware's purchase price, power and
/// maintenance, a GPU-hour price of your own and its kind, and the replica's size. Kept when the
/// new model has a curve on the same chip (priced on it), dropped with a notice otherwise.
pub const OF_THE_CHIP: [&str; 7] = [
    "own", "capex", "kw", "maint", "gpu_hour", "gpu_kind", "replica",
];

/// The hidden field naming the chip the page was priced on when the model is changed.
pub const FROM_CHIP: &str = "from";

/// The link after choosing another model (`model=` in `query`, with the chip the page was
/// priced on in [`FROM_CHIP`]): the scenario kept but what belonged to the model before. Where
/// the new model has a curve on the same chip, your figures of that chip are kept and the
/// curve is chosen (its default there, else its first there); otherwise they are dropped, and
/// `model_dropped` says which (the server signs it, `crate::notice`).
pub fn switched(query: &str, data: &servecost::Dataset) -> String {
    let query = query.trim_start_matches('?');
    let model = query::get(query, "model").map(|m| servecost::codec::decode(&m));
    let from = query::get(query, FROM_CHIP).map(|c| servecost::codec::decode(&c));
    let mut removed: Vec<&str> = OF_THE_MODEL.to_vec();
    removed.push(FROM_CHIP);
    let base = query::edit(query, &[], &removed);
    let (Some(model), Some(from)) = (model, from.filter(|c| !c.is_empty())) else {
        return base;
    };
    let on_chip: Vec<&servecost::dataset::Curve> =
        data.curves_of(&model).filter(|c| c.chip == from).collect();
    let default = data.default_curve(&model);
    if let Some(first) = on_chip.first() {
        // The model's default where it runs on this chip, else a curve marked default there,
        // else its first curve there in the dataset's order.
        let pick = default
            .filter(|d| d.chip == from)
            .or_else(|| on_chip.iter().copied().find(|c| c.is_default))
            .unwrap_or(first);
        return if default.is_some_and(|d| d.id == pick.id) {
            base
        } else {
            query::set(&base, "curve", &pick.id)
        };
    }
    let given: Vec<&str> = OF_THE_CHIP
        .iter()
        .copied()
        .filter(|p| query::get(&base, p).is_some_and(|v| !v.is_empty()))
        .collect();
    if given.is_empty() {
        return base;
    }
    let chip = data.chip(&from).map_or(from.clone(), |c| c.name.clone());
    let name = data.model(&model).map_or(model.clone(), |m| m.name.clone());
    let what: Vec<String> = given
        .iter()
        .map(|p| {
            let value = query::get(&base, p)
                .map(|v| servecost::codec::decode(&v))
                .unwrap_or_default();
            // Prices with their currency, as the page writes figures (as typed if unread).
            let usd = servecost::codec::read_number(&value, true, false)
                .map_or_else(|| value.clone(), crate::format::usd);
            match *p {
                "own" => "owned hardware".to_owned(),
                "capex" => format!("purchase price {usd} a GPU"),
                "kw" => format!("{value} kW a GPU"),
                "maint" => format!("maintenance {value} of the price a year"),
                "gpu_hour" => format!("GPU-hour price {usd}"),
                "gpu_kind" => format!("price kind {value}"),
                _ => format!("replica of {value} GPUs"),
            }
        })
        .collect();
    let note = format!(
        "{name} has no curve on the {chip}: the figures you gave for it are dropped ({}). Give those of the chip below.",
        what.join(", ")
    );
    let base = query::edit(&base, &[], &given);
    query::set(&base, "model_dropped", &note)
}

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
    // The chip the page is priced on: the server keeps its figures only where the new model
    // has a curve on it ([`switched`]).
    let chip = Memo::new(move |_| {
        ctx.report
            .with(|r| r.as_ref().and_then(|r| r.inputs.chip.clone()))
            .unwrap_or_default()
    });
    // The scenario without its model, as the form's hidden fields, and the chip.
    let kept = Memo::new(move |_| {
        let mut pairs = ctx
            .query
            .with(|q| query::pairs(&query::edit(q, &[], &["model", FROM_CHIP])));
        pairs.push((FROM_CHIP.to_owned(), query::encode(&chip.get())));
        pairs
    });
    let go = move |ev: leptos::ev::Event| {
        let model = event_target_value(&ev);
        let q = ctx.query.with_untracked(|q| {
            query::edit(
                q,
                &[
                    ("model", model.as_str()),
                    (FROM_CHIP, chip.get_untracked().as_str()),
                ],
                &[],
            )
        });
        let href = format!("/model?{}", query::uri_query(&q));
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
        <form class="inputs model-choice" id="model-form" method="get" action="/model">
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
                {ctx.model_dropped.get_value().map(|note| view! {
                    <p class="notice" role="status" data-testid="model-dropped">{note}</p>
                })}
                {move || kept.get().into_iter().map(|(k, v)| {
                    view! { <input type="hidden" name=k value=servecost::codec::decode(&v)/> }
                }).collect_view()}
                <button type="submit" class="update">"Choose this model"</button>
            </fieldset>
        </form>
    }
}
