//! Monthly cost against monthly volume.

use leptos::prelude::*;

use crate::charts;
use crate::components::ChartFigure;
use crate::format::{tokens, usd};

/// The chart and its numbers.
#[component]
pub fn VolumeChart(
    /// The report.
    #[prop(into)]
    report: crate::query::Answer,
) -> impl IntoView {
    let series = &report.series.cost_vs_volume;
    let rows = series
        .points
        .iter()
        .step_by(4)
        .map(|p| {
            view! {
                <tr>
                    <td>{tokens(p.tokens)}</td>
                    <td>{usd(p.rent)}</td>
                    <td>{usd(p.self_host)}</td>
                    <td>{p.hybrid.map(usd).unwrap_or_default()}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <ChartFigure drawing=charts::Drawing::Of(charts::Chart::Volume, report.clone()) caption="Monthly cost against monthly volume (same mix and load profile)" testid="chart-volume">
            <table>
                <thead><tr><th>"Tokens/month"</th><th>"Rent"</th><th>"Self-host"</th><th>"Hybrid"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </ChartFigure>
    }
}
