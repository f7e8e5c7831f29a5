//! Every way to serve the workload, ranked: each API offer, each curve at each GPU price of its
//! chip, fixed or hourly, and their hybrids, each opening in the calculator.

use leptos::prelude::*;
use servecost::options::{OptionKind, Options};
use servecost::{Dataset, Report};

use crate::format::{number, per_mtok, percent_precise, usd};

fn kind_text(kind: OptionKind) -> &'static str {
    match kind {
        OptionKind::Rent => "Rent",
        OptionKind::SelfHost => "Self-host",
        OptionKind::Hybrid => "Hybrid",
    }
}

/// The ranking for the report's own scenario.
pub fn ranked(report: &Report, data: &Dataset) -> Option<Options> {
    let parsed = servecost::parse(&report.query).ok()?;
    servecost::options::options(&parsed.scenario, data).ok()
}

/// A table of every option, cheapest first, the scenario's own plans marked, with its CSV: the
/// body of the section (the page keeps the `<details>` around it, so an open section stays
/// open while the inputs change).
#[component]
pub fn OptionsTable(
    /// The report on screen (its full answer).
    report: Report,
    /// The dataset the page prices from.
    data: StoredValue<Dataset>,
) -> impl IntoView {
    let ranked = data.with_value(|d| ranked(&report, d))?;
    let count = ranked.options.len();
    let cheapest = ranked.options.iter().find(|o| o.for_rent).cloned();
    let csv = format!("/api/v1/options.csv?{}", report.query);
    let skipped = ranked.skipped.clone();
    let rows = ranked
        .options
        .into_iter()
        .enumerate()
        .map(|(i, o)| {
            let class = if o.current { "current" } else { "" };
            let mark = o.current.then_some(" (yours)");
            let split = o.api_share.map(|s| {
                let share = if s < 0.001 {
                    "under 0.1\u{a0}%".to_owned()
                } else {
                    percent_precise(s)
                };
                format!("{share} of the demand to the API")
            });
            view! {
                <tr class=class data-testid="option" data-kind=format!("{:?}", o.kind)
                    data-usd=o.monthly_usd.to_string() data-current=o.current.to_string()
                    data-for-rent=o.for_rent.to_string()>
                    <td>{i + 1}</td>
                    <th scope="row">
                        <a href=format!("/?{}", o.query) data-testid="option-link">
                            <span class="kind">{kind_text(o.kind)}{mark}</span>" "{o.plan.clone()}
                        </a>
                        {o.terms.clone().map(|t| view! { <span class="note">{t}</span> })}
                        {split.map(|t| view! { <span class="note">{t}</span> })}
                    </th>
                    <td class="num">{usd(o.monthly_usd)}</td>
                    <td class="num">{number(o.gpus)}</td>
                    <td class="num">{o.utilization.map_or("—".to_owned(), percent_precise)}</td>
                    <td class="num">{per_mtok(o.per_mtok.input)}</td>
                    <td class="num">{per_mtok(o.per_mtok.cached)}</td>
                    <td class="num">{per_mtok(o.per_mtok.output)}</td>
                    <td class="num" data-testid="option-sure" data-p=o.p_cheapest.map(|p| p.to_string()).unwrap_or_default()>{o.p_cheapest.map_or("—".to_owned(), |p| crate::format::share_about(p, crate::format::share_se(p, servecost::options::RANKING_DRAWS)))}</td>
                </tr>
            }
        })
        .collect_view();
    Some(view! {
        <p class="intro">
            {count} " options"
            {cheapest.map(|c| format!("; the cheapest one can rent or buy: {} a month ({})", usd(c.monthly_usd), kind_text(c.kind).to_ascii_lowercase()))}
            ". The same workload on each API offer of the model, on each of its curves at each GPU price of the curve's chip (a fixed fleet, and an hourly one where the price is by the hour), and each self-hosted option's best hybrid, all at your speed target. Owner's costs are a floor, not a price anyone rents at."
        </p>
        <div class="table-scroll">
            <table>
                <caption>"Cheapest first; each opens in the calculator. $/M: the whole bill per million tokens, idle hours and operations included."</caption>
                <thead>
                    <tr>
                        <th scope="col">"#"</th>
                        <th scope="col">"Option"</th>
                        <th scope="col">"Monthly"</th>
                        <th scope="col">"GPUs"</th>
                        <th scope="col">"Utilisation"</th>
                        <th scope="col">"Uncached $/M"</th>
                        <th scope="col">"Cached $/M"</th>
                        <th scope="col">"Output $/M"</th>
                        <th scope="col"><abbr title="Share of plausible cases in which this plan is the cheapest of renting, self-hosting alone and the best hybrid at its own link (the calculator's sureness sample for it)">"Cheapest in"</abbr></th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        {(!skipped.is_empty()).then(|| view! {
            <p class="note" data-testid="options-skipped">"Not ranked: "
                {skipped.into_iter().map(|s| format!("{} ({})", s.label, s.reason)).collect::<Vec<_>>().join("; ")}
            </p>
        })}
        <p><a href=csv download="servecost-options.csv">"Download the options as CSV"</a></p>
    })
}
