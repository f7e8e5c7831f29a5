//! Renting inputs: the API offer from the dataset, or your own prices, cache discount and markup.

use leptos::prelude::*;

use crate::components::inputs::Ctx;
use crate::components::{Choice, Field};

/// The renting section.
#[component]
pub fn Renting(
    /// What the sections share.
    ctx: Ctx,
) -> impl IntoView {
    let on_change = ctx.on_change;
    let offers = Memo::new(move |_| {
        let model = ctx
            .report
            .with(|r| r.as_ref().map(|r| r.inputs.model.clone()))
            .unwrap_or_default();
        ctx.data.with_value(|d| {
            d.api_offers
                .iter()
                .filter(|o| o.model == model)
                .map(|o| {
                    let publisher = d
                        .source(&o.source)
                        .map_or(o.source.as_str(), |s| s.publisher.as_str());
                    (
                        o.id.clone(),
                        format!(
                            "{} (${} / ${}, {publisher})",
                            o.name, o.price_in, o.price_out
                        ),
                    )
                })
                .collect::<Vec<_>>()
        })
    });
    let api = Signal::derive(move || {
        ctx.report
            .with(|r| r.as_ref().and_then(|r| r.inputs.api.clone()))
            .unwrap_or_default()
    });
    view! {
        <fieldset>
            <legend>"Renting"</legend>
            {move || view! { <Choice name="api" label="API offer" options=offers.get() value=api on_change/> }}
            <details>
                <summary>"Your own prices"</summary>
                <Field name="price_in" value=ctx.text("price_in") outcome=ctx.outcome on_change/>
                <Field name="price_out" value=ctx.text("price_out") outcome=ctx.outcome on_change/>
                <Field name="cache_discount" value=ctx.text("cache_discount") outcome=ctx.outcome on_change
                    explain="Share taken off the input price for input served from the provider's cache."/>
                <Field name="markup" value=ctx.text("markup") outcome=ctx.outcome on_change
                    explain="A router's markup on the provider's price."/>
            </details>
        </fieldset>
    }
}
