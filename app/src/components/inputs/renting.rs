//! Renting inputs: the API offer from the dataset, or your own prices, cache discount and markup.

use leptos::prelude::*;
use servecost::codec::write_significant;

use crate::components::inputs::{Ctx, Fold, Param};
use crate::components::Choice;
use crate::format::{percent_precise, usd};

/// When the page carries only some of the model's offers: which, and a link to search them all
/// on `/data`, whose offers open back here with this scenario.
fn more_offers(ctx: Ctx) -> Option<impl IntoView> {
    let (left_out, listed) = ctx
        .data
        .with_value(|d| (d.offers_left_out, d.api_offers.len()));
    (left_out > 0).then(|| {
        let total = crate::format::number(f64::from(left_out) + listed as f64);
        let href = move || {
            let model = ctx.model();
            let back = ctx.query.get();
            format!(
                "/data?model={}&for={}&show=offers#data-search",
                crate::query::encode(&model),
                crate::query::encode(&back)
            )
        };
        view! {
            <p class="hint" data-testid="more-offers">
                {format!("Listed: {listed} of the model's {total} offers: the dataset's default and yours, every provider's cheapest for the workload this page opened with, then the cheapest others. ")}
                <a href=href rel="external" data-testid="search-offers">{format!("Search all {total} offers")}</a>
            </p>
        }
    })
}

/// The renting section.
#[component]
pub fn Renting(
    /// What the sections share.
    ctx: Ctx,
) -> impl IntoView {
    let own_prices = vec![
        "price_in",
        "price_out",
        "cache_discount",
        "markup",
        "batch_discount",
    ];
    view! {
        <fieldset>
            <legend>"Renting"</legend>
            {offer_choice(ctx)}
            {more_offers(ctx)}
            <Fold ctx name="prices" summary="Your own prices" params=own_prices>
                <Param ctx name="price_in"/>
                <Param ctx name="price_out"/>
                <Param ctx name="cache_discount"
                    explain="Share taken off the input price for input served from the provider's cache."/>
                <Param ctx name="markup"
                    explain="A router's markup on the provider's price."/>
                <Param ctx name="batch_discount"
                    explain="Share taken off every price for tokens sent through the provider's batch API (answered within hours, not seconds). Blank: the offer's, or none when it states none."/>
            </Fold>
            <Param ctx name="bill"
                explain="Optional: your last API invoice for these volumes, to check the estimate against it."/>
            <div aria-live="polite">{bill_check(ctx)}</div>
        </fieldset>
    }
}

/// The model's API offers to choose from, each with its prices, publisher and date.
fn offer_choice(ctx: Ctx) -> impl IntoView {
    let on_change = ctx.on_change;
    let offers = Memo::new(move |_| {
        let model = ctx.model();
        ctx.data.with_value(|d| {
            d.api_offers
                .iter()
                .filter(|o| o.model == model)
                .map(|o| {
                    let (publisher, date) =
                        d.source(&o.source).map_or((o.source.as_str(), ""), |s| {
                            (s.publisher.as_str(), s.date.as_str())
                        });
                    (
                        o.id.clone(),
                        format!(
                            "{} ({} / {}, {publisher}, as of {date})",
                            o.name,
                            crate::format::per_mtok(o.price_in),
                            crate::format::per_mtok(o.price_out)
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
    // What the offer's source says of its price: the cached-input price, its history, and
    // where another price table lists the same offer at other prices.
    let note = Memo::new(move |_| {
        let id = api.get();
        ctx.data.with_value(|d| {
            d.api_offers
                .iter()
                .find(|o| o.id == id)
                .and_then(|o| o.note.clone())
        })
    });
    view! {
        {move || view! { <Choice name="api" label="API offer" options=offers.get() value=api on_change/> }}
        {move || note.get().map(|n| {
            let disagree = n.contains("Sources disagree");
            view! { <p class="hint" class:disagree=disagree data-testid="offer-note">{n}</p> }
        })}
    }
}

/// Last month's bill against the estimate, and the prices that would meet it.
fn bill_check(ctx: Ctx) -> impl IntoView {
    // Last month's bill against the estimate, from the current inputs.
    let bill = Memo::new(move |_| {
        ctx.outcome.with(|o| {
            o.report
                .as_ref()
                .ok()
                .filter(|_| o.problems.is_empty())
                .and_then(|r| r.rent.bill)
        })
    });
    move || {
        bill.get().map(|b| {
            let gap = b.difference_usd;
            let own_prices = ctx.query.with(|q| crate::query::get(q, "price_in").is_some() || crate::query::get(q, "price_out").is_some());
            let basis = if own_prices { "the estimate at your own prices" } else { "the list-price estimate" };
            let said = if gap.abs() < 0.005 * b.estimate_usd {
                format!("Your bill matches {basis} of {} to within 0.5\u{a0}%.", usd(b.estimate_usd))
            } else if gap < 0.0 {
                format!(
                    "You paid {} less than {basis} of {}: an effective discount of {} on the prices in force.",
                    usd(-gap), usd(b.estimate_usd), percent_precise(b.discount)
                )
            } else {
                format!(
                    "You paid {} more than {basis} of {} ({} above it): check the volumes, or fees the estimate leaves out.",
                    usd(gap), usd(b.estimate_usd), percent_precise(-b.discount)
                )
            };
            // Six significant digits: the applied prices meet the bill to the dollar.
            let price_in = write_significant(b.price_in, 6, false);
            let price_out = write_significant(b.price_out, 6, false);
            let href = ctx.link(&[("price_in", &price_in), ("price_out", &price_out)], &[]);
            let apply = (gap.abs() >= 0.005 * b.estimate_usd).then(|| view! {
                <a class="apply" data-testid="apply-discount" href=href>
                    {format!("Apply it: price input at ${price_in} and output at ${price_out} per million")}
                </a>
            });
            view! {
                <div class="reconcile" data-testid="reconcile" data-discount=b.discount.to_string()
                    data-estimate=b.estimate_usd.to_string()>
                    <p>{said}</p>
                    {apply}
                </div>
            }
        })
    }
}
