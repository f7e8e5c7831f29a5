//! Per-class $ per million tokens, renting and self-hosting side by side.

use leptos::prelude::*;
use servecost::Report;

use crate::citations::cite;
use crate::format::per_mtok;

/// Uncached input, cached input, output and blended, for each side.
#[component]
pub fn ClassTable(
    /// The report.
    report: Report,
    /// Cited source keys.
    keys: Vec<String>,
) -> impl IntoView {
    let (api, curve) = (
        report.inputs.api_source.clone(),
        report.inputs.curve_source.clone(),
    );
    let rows = report.series.per_class.into_iter().map(|c| {
        view! {
            <tr>
                <th scope="row">{c.label}</th>
                <td>{per_mtok(c.rent)}</td>
                <td>{per_mtok(c.self_marginal)}</td>
                <td>{per_mtok(c.self_effective)}</td>
            </tr>
        }
    });
    view! {
        <table class="classes" data-testid="per-class">
            <caption>"$ per million tokens, by class"</caption>
            <thead>
                <tr>
                    <th scope="col">"Class"</th>
                    <th scope="col">"Rent" {cite(&keys, &api)}</th>
                    <th scope="col">"Self-host, at full use" {cite(&keys, &curve)}</th>
                    <th scope="col">"Self-host, whole bill"</th>
                </tr>
            </thead>
            <tbody>{rows.collect_view()}</tbody>
        </table>
    }
}
