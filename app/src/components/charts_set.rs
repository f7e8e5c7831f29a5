//! The four charts beside the volume chart, each with its numbers as a table.

use leptos::prelude::*;

use crate::charts;
use crate::components::ChartFigure;
use crate::format::{per_mtok, significant, usd};

/// $ per million tokens against output speed, for every curve of the model.
#[component]
pub fn TpsChart(
    /// The report.
    #[prop(into)]
    report: crate::query::Answer,
) -> impl IntoView {
    let series = &report.series.cost_vs_tps;
    let rows = series
        .iter()
        .flat_map(|s| {
            s.points.iter().step_by(4).map(move |p| {
                view! {
                    <tr>
                        <td>{s.label.clone()}</td>
                        <td>{significant(p.tps, 4)}</td>
                        <td>{per_mtok(p.usd_per_mtok)}</td>
                        <td>{if p.clamped { "below the slowest point" } else { "" }}</td>
                    </tr>
                }
            })
        })
        .collect_view();
    view! {
        <ChartFigure drawing=charts::Drawing::Of(charts::Chart::Tps, report.clone()) caption="Self-hosted $ per million tokens (your mix, at full use) against output speed per user: your curve at your GPU-hour price, the others at their chip's default tier; shaded: below the slowest measured point" testid="chart-tps">
            <table>
                <thead><tr><th>"Curve"</th><th>"Tokens/s per user"</th><th>"$/M"</th><th>"Note"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </ChartFigure>
    }
}

/// The monthly bill of each option, line by line.
#[component]
pub fn BreakdownChart(
    /// The report.
    #[prop(into)]
    report: crate::query::Answer,
) -> impl IntoView {
    let own = report.series.breakdown.clone();
    let rows = own
        .iter()
        .map(|b| view! { <tr><th scope="row">{b.label.clone()}</th><td>{usd(b.usd)}</td></tr> })
        .collect_view();
    view! {
        <ChartFigure drawing=charts::Drawing::Of(charts::Chart::Breakdown, report.clone()) caption="The monthly bill: renting, self-hosting and the best hybrid, line by line" testid="chart-breakdown">
            <table>
                <thead><tr><th>"Self-hosting line"</th><th>"$ per month"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </ChartFigure>
    }
}

/// $ per million tokens by class.
#[component]
pub fn ClassChart(
    /// The report.
    #[prop(into)]
    report: crate::query::Answer,
) -> impl IntoView {
    view! {
        <ChartFigure drawing=charts::Drawing::Of(charts::Chart::Classes, report) caption="$ per million tokens by class (log scale): the table above holds the numbers" testid="chart-classes">
            <p>"Same figures as the table “$ per million tokens, by class”."</p>
        </ChartFigure>
    }
}

/// The sensitivity tornado.
#[component]
pub fn TornadoChart(
    /// The report.
    #[prop(into)]
    report: crate::query::Answer,
) -> impl IntoView {
    let rows = report
        .sensitivity
        .iter()
        .map(|s| {
            let show = |v: Option<f64>| v.map(usd).unwrap_or_else(|| "no answer".into());
            let flips = crate::charts::tornado::crosses_zero(s);
            view! {
                <tr data-crosses=flips.to_string()>
                    <th scope="row">{s.label.clone()}</th>
                    <td>{format!("{}: {}", s.low_label, show(s.low))}</td>
                    <td>{format!("{}: {}", s.high_label, show(s.high))}</td>
                    <td>{if flips { "yes: the cheaper side changes" } else { "no" }}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <ChartFigure drawing=charts::Drawing::Of(charts::Chart::Tornado, report.clone()) caption="What moves the answer: self-hosting minus renting, $ per month, as each input moves over its range (the black line is your scenario; ✕ on the zero line marks an input whose range changes the cheaper side)" testid="chart-tornado">
            <table>
                <thead><tr><th>"Input"</th><th>"Low"</th><th>"High"</th><th>"Crosses zero"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </ChartFigure>
    }
}
