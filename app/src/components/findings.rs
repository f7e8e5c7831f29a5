//! Break-even volume and price, and the warnings with their sources.

use leptos::prelude::*;

use crate::citations::cite;
use crate::format::{tokens, usd};

/// Where self-hosting and renting cost the same.
#[component]
pub fn BreakEven(
    /// The report.
    #[prop(into)]
    report: crate::query::Answer,
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
            <dt>"Self-hosting alone beats renting at every volume above"</dt>
            <dd data-tokens=be.monthly_tokens.map(|v| v.to_string()).unwrap_or_default()>{volume}</dd>
            <dt>"Break-even GPU-hour price at your volume"</dt>
            <dd>{price}</dd>
        </dl>
    }
}

/// Where each plan is cheapest along the volume, from the report's band map: the bands a
/// decision can rest on near the volume as given (a tenth to ten times it; the whole map is in
/// the API), and the volume above which renting never wins again.
#[component]
pub fn VolumeBands(
    /// The report (its full answer: the band map).
    #[prop(into)]
    report: crate::query::Answer,
) -> impl IntoView {
    let bands = &report.bands.volume;
    let tie = report.verdict.tie;
    let total = report.inputs.total_tokens;
    let rent_ends =
        servecost::decision::never_again_above(bands, servecost::decision::Strategy::Rent);
    let near: Vec<servecost::decision::Band> = servecost::decision::material(bands, tie)
        .into_iter()
        .filter(|b| b.to > total / NEAR && b.from < total * NEAR)
        .collect();
    // Past a few replicas self-hosting and the hybrid take turns at every replica added: a run
    // of three or more such stretches is one stretch of owning, said once.
    let owning = |p: servecost::decision::Strategy| p != servecost::decision::Strategy::Rent;
    let mut runs: Vec<Vec<servecost::decision::Band>> = Vec::new();
    for b in near {
        match runs.last_mut() {
            Some(run) if run.iter().all(|x| owning(x.best)) && owning(b.best) => run.push(b),
            _ => runs.push(vec![b]),
        }
    }
    let shown: Vec<(servecost::decision::Band, usize)> = runs
        .into_iter()
        .flat_map(|run| {
            if run.len() >= 3 {
                let mut whole = run[0].clone();
                whole.to = run[run.len() - 1].to;
                whole.best = servecost::decision::Strategy::SelfHost;
                whole
                    .ties
                    .retain(|p| run.iter().all(|x| x.ties.contains(p)));
                vec![(whole, run.len())]
            } else {
                run.into_iter().map(|b| (b, 1)).collect()
            }
        })
        .collect();
    (!shown.is_empty()).then(|| {
        let items = shown
            .iter()
            .enumerate()
            .map(|(i, (b, stretches))| {
                let what = if *stretches >= 3 {
                    format!(
                        "self-hosting, the hybrid cheaper just past each added replica ({stretches} stretches)"
                    )
                } else {
                    b.best.label().to_owned()
                };
                let span = if i == 0 && b.from < total / NEAR {
                    format!("up to {}", tokens(b.to))
                } else {
                    format!("{} to {}", tokens(b.from), tokens(b.to))
                };
                let ties = if b.ties.is_empty() {
                    String::new()
                } else {
                    let names: Vec<&str> = b.ties.iter().map(|p| p.label()).collect();
                    format!(" (tied with {})", names.join(" and "))
                };
                view! {
                    <li data-from=b.from.to_string() data-to=b.to.to_string() data-best=b.best.key()>
                        {format!("{span}: {what}{ties}")}
                    </li>
                }
            })
            .collect_view();
        view! {
            <div class="bands" data-testid="bands">
                <p><strong>"Cheapest plan by monthly volume"</strong>
                    <span class="hint">{format!(" (a tenth to ten times yours; stretches under the {} tie folded in)", crate::format::percent_share(tie))}</span>":"
                </p>
                <ul class="band-list" data-testid="volume-bands">{items}</ul>
                {rent_ends.map(|v| view! {
                    <p data-testid="rent-never-again" data-tokens=v.to_string()>
                        {format!("Above {} tokens a month renting is never cheapest, nor within the tie.", tokens(v))}
                    </p>
                })}
            </div>
        }
    })
}

/// The volumes the band list shows: from the volume as given divided by this to it times this.
const NEAR: f64 = 10.0;

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
                view! { <li data-code=w.code.as_str()>{w.message.clone()} {marker}</li> }
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
