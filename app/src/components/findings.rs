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
    // From the band map: where each plan is cheapest, bands narrower than the tie left out.
    let bands = &report.bands.volume;
    let tie = report.verdict.tie;
    let rent_ends = servecost::decision::never_again_above(bands, servecost::decision::Plan::Rent);
    let material = servecost::decision::material(bands, tie);
    let shown = (!material.is_empty()).then(|| {
        let items = material
            .iter()
            .map(|b| {
                let ties = if b.ties.is_empty() {
                    String::new()
                } else {
                    let names: Vec<&str> = b.ties.iter().map(|p| p.label()).collect();
                    format!(" (tied with {})", names.join(" and "))
                };
                view! {
                    <li data-from=b.from.to_string() data-to=b.to.to_string() data-best=b.best.key()>
                        {format!("{} to {}: {}{ties}", tokens(b.from), tokens(b.to), b.best.label())}
                    </li>
                }
            })
            .collect_view();
        view! {
            <dt>"Cheapest plan by monthly volume"</dt>
            <dd>
                <ul class="bands" data-testid="volume-bands">{items}</ul>
                <span class="hint">{format!("Same mix and load profile; whole replicas make the plans alternate; stretches narrower than the tie ({}) are part of their neighbours.", crate::format::percent_share(tie))}</span>
            </dd>
        }
    });
    let rent_line = rent_ends.map(|v| {
        view! {
            <dt>"Renting is never cheapest again above"</dt>
            <dd data-testid="rent-never-again" data-tokens=v.to_string()>{format!("{} tokens a month (the band map, ties counted)", tokens(v))}</dd>
        }
    });
    view! {
        <dl class="break-even" data-testid="break-even">
            {shown}
            {rent_line}
            <dt>"Self-hosting alone beats renting at every volume above"</dt>
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
