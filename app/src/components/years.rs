//! The cost over the years: the answer over the horizon, the cumulative cost chart, and its
//! numbers year by year.

use leptos::prelude::*;
use servecost::projection::Projection;
use servecost::Report;

use crate::charts;
use crate::components::verdict::horizon_sentence;
use crate::components::ChartFigure;
use crate::format::percent_signed;
use crate::format::{number, tokens, usd};

/// How the fleet is held, in words.
fn holding_words(r: &Report) -> String {
    let p = &r.plan;
    match (p.holding.as_str(), p.term_months) {
        ("term", Some(m)) => format!(
            "reserved blocks of {m} months, billed every month of their term and renewed at its end"
        ),
        ("owned", _) => "owned GPUs, bought when first needed and kept".to_owned(),
        _ => "rented by the hour, sized each month for its demand".to_owned(),
    }
}

/// The section.
#[component]
pub fn Years(
    /// The report.
    #[prop(into)]
    report: crate::query::Answer,
) -> impl IntoView {
    let r = report;
    let p = &r.plan;
    let hybrid = r.hybrid.is_some();
    let npv = p.npv_usd;
    let s = p.spec;
    let notes = p
        .notes
        .iter()
        .map(|n| view! { <li>{n.clone()}</li> })
        .collect_view();
    let rows = month_rows(p, hybrid);
    let foot = present_values(p, hybrid);
    view! {
        <section class="years" id="years" data-testid="years"
            data-npv-rent=npv.rent.to_string() data-npv-self=npv.self_host.to_string()
            data-npv-hybrid=npv.hybrid.map(|h| h.to_string()).unwrap_or_default()
            data-payback=p.payback_month.map(|m| m.to_string()).unwrap_or_default()
            data-months=p.months.len().to_string()>
            <h2>{format!("Over {} {}", s.horizon, if s.horizon == 1.0 { "year" } else { "years" })}</h2>
            <p data-testid="years-sentence">{horizon_sentence(&r)}</p>
            <p class="hint">
                {format!(
                    "Month by month: volume growth {} a year, API prices {} a year, GPU-hour prices {} a year, costs discounted at {} a year; the self-hosted fleet is {}.",
                    percent_signed(s.growth),
                    percent_signed(s.api_trend),
                    percent_signed(s.gpu_trend),
                    percent_signed(s.discount_rate),
                    holding_words(&r)
                )}
                " " <a href="/method#years">"How the plan is costed"</a>
            </p>
            {(!p.notes.is_empty()).then(|| view! { <ul class="notes">{notes}</ul> })}
            <ChartFigure drawing=charts::Drawing::Of(charts::Chart::Years, r.clone()) caption="Cumulative cost of each plan, month by month (the line marks self-hosting's payback month, if any)" testid="chart-years">
                <table>
                    <thead><tr>
                        <th>"End of"</th><th>"Tokens that month"</th><th>"Rent, cumulative"</th><th>"Self-host, cumulative"</th>
                        {hybrid.then(|| view! { <th>"Hybrid, cumulative"</th> })}
                        <th>"Self-hosted GPUs"</th>
                    </tr></thead>
                    <tbody>{rows}</tbody>
                    <tfoot>{foot}</tfoot>
                </table>
            </ChartFigure>
        </section>
    }
}

/// The end of each year (and the payback month): the tokens, each plan's cumulative cost and
/// the self-hosted GPUs.
fn month_rows(p: &Projection, hybrid: bool) -> impl IntoView + use<> {
    charts::cumulative(p)
        .iter()
        .zip(&p.months)
        .filter(|((m, ..), _)| m % 12 == 0 || Some(*m) == p.payback_month)
        .map(|((m, rent, own, h), month)| {
            let year = if m % 12 == 0 {
                format!("Year {}", m / 12)
            } else {
                format!("Month {m} (payback)")
            };
            view! {
                <tr data-month=m.to_string()>
                    <th scope="row">{year}</th>
                    <td>{tokens(month.tokens)}</td>
                    <td>{usd(*rent)}</td>
                    <td>{usd(*own)}</td>
                    {hybrid.then(|| view! { <td>{h.map(usd).unwrap_or_default()}</td> })}
                    <td>{number(month.gpus)}</td>
                </tr>
            }
        })
        .collect_view()
}

/// Each plan's present value, and, where commitments run past the horizon or owned GPUs keep a
/// value, what is committed and the present value with both.
fn present_values(p: &Projection, hybrid: bool) -> impl IntoView + use<> {
    let npv = p.npv_usd;
    let s = p.spec;
    let committed = p.committed_after_usd;
    let residual = p.residual_usd;
    let with = p.npv_with_commitments_usd;
    view! {
    <tr data-testid="years-npv">
                <th scope="row">{format!("Present value at {}", percent_signed(s.discount_rate))}</th>
                <td></td>
                <td>{usd(npv.rent)}</td>
                <td>{usd(npv.self_host)}</td>
                {hybrid.then(|| view! { <td>{npv.hybrid.map(usd).unwrap_or_default()}</td> })}
                <td></td>
            </tr>
            {(committed.self_host > 0.0
                || committed.hybrid.is_some_and(|h| h > 0.0)
                || residual.self_host > 0.0
                || residual.hybrid.is_some_and(|h| h > 0.0)).then(|| view! {
                <tr data-testid="years-committed" data-self=committed.self_host.to_string()>
                    <th scope="row">"Committed past the horizon"</th>
                    <td></td>
                    <td>{usd(0.0)}</td>
                    <td>{usd(committed.self_host)}</td>
                    {hybrid.then(|| view! { <td>{committed.hybrid.map(usd).unwrap_or_default()}</td> })}
                    <td></td>
                </tr>
                <tr data-testid="years-npv-committed" data-self=with.self_host.to_string()>
                    <th scope="row">"Present value with commitments and residual value"</th>
                    <td></td>
                    <td>{usd(with.rent)}</td>
                    <td>{usd(with.self_host)}</td>
                    {hybrid.then(|| view! { <td>{with.hybrid.map(usd).unwrap_or_default()}</td> })}
                    <td></td>
                </tr>
            })}
        }
}
