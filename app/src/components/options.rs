//! Every way to serve the workload, ranked: each API offer, each curve at each GPU price of its
//! chip, fixed or hourly, and their hybrids, each opening in the calculator.

use leptos::prelude::*;
use servecost::options::{OptionGroup, OptionKind, Options, ServingOption};
use servecost::{Dataset, Report};

use crate::format::{number, per_mtok, percent_precise, usd};

fn kind_text(kind: OptionKind) -> &'static str {
    match kind {
        OptionKind::Rent => "Rent",
        OptionKind::SelfHost => "Self-host",
        OptionKind::Hybrid => "Hybrid",
    }
}

/// When `n` rows of a kind (`noun`, and where they belong) are not ranked: a note saying so,
/// which ones are (`why`), and a link to search them all on `/data`.
fn left_out_note(
    n: u32,
    (noun, of): (&'static str, &'static str),
    why: String,
    href: String,
    (testid, link): (&'static str, &'static str),
) -> Option<impl IntoView> {
    (n > 0).then(|| {
        let (plural, verb) = if n == 1 { ("", "is") } else { ("s", "are") };
        let of = if of.is_empty() { String::new() } else { format!(" {of}") };
        view! {
            <p class="note" data-testid=testid>
                {format!("{} more {noun}{plural}{of} {verb} not ranked: {why}. ", crate::format::number(f64::from(n)))}
                <a href=href rel="external">{link}</a>
            </p>
        }
    })
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
    #[prop(into)]
    report: crate::query::Answer,
    /// The dataset the page prices from.
    data: StoredValue<Dataset>,
) -> impl IntoView {
    let ranked = data.with_value(|d| ranked(&report, d))?;
    let count = ranked.options.len();
    let cheapest = ranked
        .options
        .iter()
        .find(|o| o.group == OptionGroup::Buyable)
        .cloned();
    let ranked_count = ranked
        .options
        .iter()
        .filter(|o| o.group == OptionGroup::Buyable)
        .count();
    let draws = ranked.draws;
    let csv = format!("/api/v1/options.csv?{}", report.query);
    let skipped = ranked.skipped.clone();
    let model = crate::query::encode(&report.inputs.model);
    let scenario = crate::query::encode(&report.query);
    let left_out = left_out_note(
        ranked.offers_left_out,
        ("API offer", "of the model"),
        "the ranked ones are yours, the dataset's default and those that cost least for the workload the page opened with".to_owned(),
        format!("/data?model={model}&for={scenario}&show=offers#data-search"),
        ("options-offers-left-out", "Search every offer"),
    );
    let tiers_left_out = left_out_note(
        ranked.tiers_left_out,
        ("GPU-hour price", ""),
        format!(
            "each chip is ranked at its default, yours, the cheapest price of each kind and the cheapest others, {} at most",
            servecost::dataset::PAGE_TIERS
        ),
        format!("/data?for={scenario}&show=tiers#data-search"),
        ("options-tiers-left-out", "Search every price"),
    );
    let rows = ranked
        .options
        .into_iter()
        .enumerate()
        .map(|(i, o)| option_row(i, o, ranked_count, draws))
        .collect_view();
    Some(view! {
        <p class="intro">
            {count} " options, " {ranked_count} " of them ranked"
            {cheapest.map(|c| format!("; the cheapest one can rent or buy: {} a month ({})", usd(c.monthly_usd), kind_text(c.kind).to_ascii_lowercase()))}
            ". The same workload on each API offer of the model, on each of its curves at each GPU price of the curve's chip (a fixed fleet, and an hourly one where the price is by the hour), and each self-hosted option's best hybrid. Self-hosting is priced at your speed target (a curve that cannot reach it is not ranked); an API offer serves at the speed its source measures, held to the target where one is stated and marked \u{201c}speed not stated\u{201d} where none is. Ranked: what one can rent or buy, priced from independent curves; a vendor's curve at face value and an owner's cost are listed apart below them."
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
                        <th scope="col"><abbr title="Share of plausible cases in which this option is the cheapest of all the options: one joint sample, the same ranges drawn for every option at once (a vendor's curve with its haircut); the shares add up to 100 % over the options with the draws in which none has an answer, floors left out">"Cheapest in"</abbr></th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        {left_out}
        {tiers_left_out}
        {(!skipped.is_empty()).then(|| view! {
            <p class="note" data-testid="options-skipped">"Not ranked: "
                {skipped.into_iter().map(|s| format!("{} ({})", s.label, s.reason)).collect::<Vec<_>>().join("; ")}
            </p>
        })}
        <p><a href=csv download="servecost-options.csv">"Download the options as CSV"</a></p>
    })
}

/// Row `i` of the table: the option, its bill and $/M by class, and how often it is the
/// cheapest; the first row not ranked (at `ranked_count`) opens the part listed apart.
fn option_row(i: usize, o: ServingOption, ranked_count: usize, draws: f64) -> impl IntoView {
    let class = if o.current { "current" } else { "" };
    // The first row listed apart opens the part of the table that is not ranked.
    let apart = (i == ranked_count && o.group != OptionGroup::Buyable).then(|| view! {
        <tr class="apart" data-testid="options-apart">
            <th scope="rowgroup" colspan="9">"Listed apart, not ranked: a vendor's own curve at face value is its best case (the sample draws its haircut), and an owner's cost is what owning at hyperscale costs, a floor no one rents at."</th>
        </tr>
    });
    let group = match o.group {
        OptionGroup::Buyable => "buyable",
        OptionGroup::VendorBestCase => "vendor_best_case",
        OptionGroup::Floor => "floor",
    };
    let what = match o.group {
        OptionGroup::Buyable => None,
        OptionGroup::VendorBestCase => Some("vendor's best case"),
        OptionGroup::Floor => Some("owner's cost: a floor"),
    };
    let mark = o.current.then_some(" (yours)");
    let split = o.api_share.map(|s| {
        let share = if s < 0.001 {
            "under 0.1\u{a0}%".to_owned()
        } else {
            percent_precise(s)
        };
        format!("{share} of the demand to the API")
    });
    // An offer's speed is a constraint: said where its source states none.
    let speed = (o.kind == OptionKind::Rent).then(|| {
        o.speed_tps.map_or_else(
            || "speed not stated".to_owned(),
            |v| {
                format!(
                    "measured {} tokens/s per user",
                    crate::format::significant(v, 3)
                )
            },
        )
    });
    let rank = if o.group == OptionGroup::Buyable {
        (i + 1).to_string()
    } else {
        "—".to_owned()
    };
    view! {
        {apart}
        <tr class=class data-testid="option" data-kind=format!("{:?}", o.kind)
            data-usd=o.monthly_usd.to_string() data-current=o.current.to_string()
            data-for-rent=o.for_rent.to_string() data-group=group>
            <td class="rank">{rank}</td>
            <th scope="row">
                <a href=format!("/?{}", o.query) data-testid="option-link">
                    <span class="kind">{kind_text(o.kind)}{mark}</span>" "{o.plan.clone()}
                </a>
                {o.terms.clone().map(|t| view! { <span class="note">{t}</span> })}
                {speed.map(|t| view! { <span class="note" data-testid="option-speed">{t}</span> })}
                {what.map(|t| view! { <span class="note"><strong>{t}</strong></span> })}
                {split.map(|t| view! { <span class="note">{t}</span> })}
            </th>
            <td class="num" data-label="Monthly">{usd(o.monthly_usd)}</td>
            <td class="num" data-label="GPUs">{number(o.gpus)}</td>
            <td class="num" data-label="Utilisation">{o.utilization.map_or("—".to_owned(), percent_precise)}</td>
            <td class="num" data-label="Uncached $/M">{per_mtok(o.per_mtok.input)}</td>
            <td class="num" data-label="Cached $/M">{per_mtok(o.per_mtok.cached)}</td>
            <td class="num" data-label="Output $/M">{per_mtok(o.per_mtok.output)}</td>
            <td class="num" data-label="Cheapest in" data-testid="option-sure" data-p=o.p_cheapest.map(|p| p.to_string()).unwrap_or_default()>{o.p_cheapest.map_or("—".to_owned(), |p| crate::format::share_about(p, crate::format::share_se(p, draws)))}</td>
        </tr>
    }
}
