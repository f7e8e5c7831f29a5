//! The inputs in force as a compact table, for print: the form itself does not print.

use leptos::prelude::*;
use servecost::Report;

use crate::format::percent_signed;
use crate::format::{number, per_mtok, percent, significant, tokens, usd};

/// The summary table (shown only in print).
#[component]
pub fn PrintSummary(
    /// The report on screen.
    report: Report,
) -> impl IntoView {
    let i = &report.inputs;
    let v = &i.volumes;
    let plan = &report.plan.spec;
    let link = format!(
        "{}/{}",
        crate::browser::origin(),
        if report.query == "v=1" {
            String::new()
        } else {
            format!("?{}", report.query)
        }
    );
    let rows = [
        ("Model", i.model_name.clone()),
        (
            "Volume per month",
            format!(
                "{} tokens: {} uncached input, {} cached input, {} output",
                tokens(i.total_tokens),
                tokens(v.uncached),
                tokens(v.cached),
                tokens(v.output)
            ),
        ),
        (
            "Speed per user",
            format!("{} output tokens/s", number(i.tps)),
        ),
        (
            "Renting",
            format!(
                "{} input, {} output per million; cached input {} off; markup {}",
                per_mtok(i.price_in),
                per_mtok(i.price_out),
                percent(i.cache_discount),
                percent(i.markup)
            ),
        ),
        (
            "Self-hosting",
            format!(
                "{}, {} GPUs per replica",
                i.curve_label,
                number(i.replica_gpus)
            ),
        ),
        (
            "GPU-hour",
            format!("{} ({})", usd(i.gpu_hour_usd), i.gpu_hour_label),
        ),
        ("Operations", format!("{} a month", usd(i.ops_monthly_usd))),
        (
            "Load",
            format!(
                "busiest hour {}× the average",
                significant(i.profile_peak, 3)
            ),
        ),
        (
            "Assumptions",
            format!(
                "prefill P {} uncached tokens/s per GPU; cache-hit cost k {}",
                number(i.prefill),
                number(i.cache_cost)
            ),
        ),
        (
            "Over the years",
            format!(
                "{} years; volume {}, API prices {}, GPU prices {} a year; discounted at {}",
                plan.horizon,
                percent_signed(plan.growth),
                percent_signed(plan.api_trend),
                percent_signed(plan.gpu_trend),
                percent_signed(plan.discount_rate)
            ),
        ),
        ("Scenario link", link),
    ]
    .into_iter()
    .map(|(what, value)| view! { <tr><th scope="row">{what}</th><td>{value}</td></tr> })
    .collect_view();
    view! {
        <section class="print-only print-inputs" data-testid="print-inputs" aria-hidden="true">
            <h2>"Inputs in force"</h2>
            <table class="comparison"><tbody>{rows}</tbody></table>
        </section>
    }
}
