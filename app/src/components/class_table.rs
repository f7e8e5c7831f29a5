//! Per-class $ per million tokens, renting and self-hosting side by side.

use leptos::prelude::*;

use crate::citations::cite;
use crate::format::per_mtok;

/// Uncached input, cached input, output and blended, for each side.
#[component]
pub fn ClassTable(
    /// The report.
    #[prop(into)]
    report: crate::query::Answer,
    /// Cited source keys.
    keys: Vec<String>,
) -> impl IntoView {
    let (api, curve) = (
        report.inputs.api_source.clone(),
        report.inputs.curve_source.clone(),
    );
    // The compute of this fleet per token: the full-use cost over the share of provisioned
    // GPU-hours that is busy (peak capacity, headroom and idle hours included, operations not).
    let util = report.self_host.utilization;
    let rows = report.series.per_class.iter().map(move |c| {
        let at_fleet = if util > 0.0 {
            Some(c.self_marginal / util)
        } else {
            None
        };
        view! {
            <tr>
                <th scope="row">{c.label.clone()}</th>
                <td>{per_mtok(c.rent)}</td>
                <td data-testid="class-full-use">{per_mtok(c.self_marginal)}</td>
                <td data-testid="class-at-fleet">{at_fleet.map_or("—".to_owned(), per_mtok)}</td>
                <td data-testid="class-whole-bill">{per_mtok(c.self_effective)}</td>
            </tr>
        }
    });
    view! {
        <table class="classes" data-testid="per-class">
            <caption>"$ per million tokens, by class. Compare renting with the last column: the full-use figure is a floor no fleet reaches."</caption>
            <thead>
                <tr>
                    <th scope="col">"Class"</th>
                    <th scope="col">"Rent" {cite(&keys, &api)}</th>
                    <th scope="col">"Self-host at full use: a floor, every GPU busy" {cite(&keys, &curve)}</th>
                    <th scope="col">"Self-host compute at this fleet: peak, headroom and idle hours"</th>
                    <th scope="col">"Self-host, whole bill: compute and operations (compare with rent)"</th>
                </tr>
            </thead>
            <tbody>{rows.collect_view()}</tbody>
        </table>
    }
}
