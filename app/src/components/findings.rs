//! Break-even volume and price, and the warnings with their sources.

use leptos::prelude::*;
use servecost::Report;

use crate::citations::cite;
use crate::format::{tokens, usd};

/// Where self-hosting and renting cost the same.
#[component]
pub fn BreakEven(
    /// The report.
    report: Report,
) -> impl IntoView {
    let be = &report.break_even;
    let total = report.inputs.total_tokens;
    let volume = match (be.monthly_tokens, &be.volume_note) {
        (Some(v), _) => format!(
            "{} tokens a month ({}× your volume), same mix and load profile",
            tokens(v),
            crate::format::significant(if total > 0.0 { v / total } else { 0.0 }, 2)
        ),
        (None, Some(n)) => format!("none: {n}"),
        (None, None) => "none".into(),
    };
    let price = match (be.gpu_hour_usd, &be.price_note) {
        (Some(p), _) => format!(
            "{} per GPU-hour (yours: {})",
            usd(p),
            usd(report.inputs.gpu_hour_usd)
        ),
        (None, Some(n)) => format!("none: {n}"),
        (None, None) => "none".into(),
    };
    view! {
        <dl class="break-even" data-testid="break-even">
            <dt>"Self-hosting wins above"</dt>
            <dd data-tokens=be.monthly_tokens.map(|v| v.to_string()).unwrap_or_default()>{volume}</dd>
            <dt>"Break-even GPU-hour price at your volume"</dt>
            <dd>{price}</dd>
        </dl>
    }
}

/// What to keep in mind, each linked to its source.
#[component]
pub fn Warnings(
    /// The warnings.
    warnings: Vec<servecost::report::Warning>,
    /// Cited source keys.
    keys: Vec<String>,
) -> impl IntoView {
    (!warnings.is_empty()).then(|| {
        let items = warnings
            .iter()
            .map(|w| {
                let marker = w.source.as_deref().map(|s| cite(&keys, s));
                view! { <li data-code=w.code.clone()>{w.message.clone()} {marker}</li> }
            })
            .collect_view();
        view! {
            <section class="warnings" aria-labelledby="warnings-title">
                <h2 id="warnings-title">"Keep in mind"</h2>
                <ul data-testid="warnings">{items}</ul>
            </section>
        }
    })
}
