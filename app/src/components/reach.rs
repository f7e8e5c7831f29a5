//! A speed target beyond the chosen curve, and an API offer's speed, in the verdict's words: what
//! self-hosting is priced on, which of the model's curves reach the target, and whether the
//! offer's speed is stated.

use leptos::prelude::*;
use servecost::Report;

use crate::format::{significant, usd};

/// A speed per user as the page writes it.
fn tps(v: f64) -> String {
    significant(v, 3)
}

/// What the rent side's speed is: ` (speed not stated)` for an offer whose source states none,
/// the offer's measured speed where it is slower than the target.
pub fn rent_speed(r: &Report) -> String {
    let target = r.speed.as_ref().map_or(r.inputs.tps, |s| s.target);
    match (&r.inputs.api, r.inputs.api_tps) {
        (Some(_), None) => " (the offer's speed not stated)".to_owned(),
        (Some(_), Some(v)) if v < target => format!(
            " (at its measured {} tokens/s per user, slower than the target)",
            tps(v)
        ),
        _ => String::new(),
    }
}

/// The self-hosted clause where its figures are a floor: ` at 12.5 tokens/s per user, the
/// fastest its curve measures (a floor: at the target it costs more)`.
pub fn floor_clause(r: &Report) -> Option<String> {
    let s = r.speed.as_ref().filter(|s| s.floor)?;
    Some(format!(
        " at {} tokens/s per user, the fastest its curve measures (a floor: at your {} it costs more)",
        tps(s.priced_at),
        tps(s.target)
    ))
}

/// Where a floor is below renting, the verdict that nothing decides: who costs what, and the
/// cheapest of the model's curves that reach the target, or that none does.
pub fn undecided_sentence(r: &Report) -> Option<String> {
    let s = r.speed.as_ref().filter(|_| !r.verdict.decided)?;
    Some(format!(
        "Not decided at {} tokens/s per user: self-hosting costs at least {} a month (priced at {}, the fastest its curve measures), renting {}. {}",
        tps(s.target),
        usd(r.self_host.monthly_usd),
        tps(s.priced_at),
        usd(r.rent.monthly_usd),
        reaching_sentence(r).unwrap_or_default()
    )
    .trim_end()
    .to_owned())
}

/// The model's curves that reach the target, in one sentence.
fn reaching_sentence(r: &Report) -> Option<String> {
    let s = r.speed.as_ref()?;
    let n = s.reaching.len();
    Some(match s.reaching.first() {
        None => format!(
            "None of the model's curves reaches {} tokens/s per user: measure your own at that speed.",
            tps(s.target)
        ),
        Some(best) if n == 1 => format!(
            "One curve of the model reaches it: {}, {} a month.",
            best.label,
            usd(best.monthly_usd)
        ),
        Some(best) => format!(
            "{} curves of the model reach it; the cheapest, {}, costs {} a month.",
            crate::format::number(n as f64),
            best.label,
            usd(best.monthly_usd)
        ),
    })
}

/// Most reaching curves listed by name; the rest are counted (the ranking has them all).
const LISTED: usize = 6;

/// The speed target beyond the chosen curve: what self-hosting is priced on and the curves
/// that reach the target, each a link that prices the workload on it (`link_target` for links
/// out of a frame).
pub fn reach_block(r: &Report, link_target: &'static str) -> Option<impl IntoView + use<>> {
    let s = r.speed.clone()?;
    let head = if s.floor {
        format!(
            "{} tops out at {} tokens/s per user, below the target of {}: self-hosting is priced there, a floor.",
            s.chosen_label,
            tps(s.chosen_fastest),
            tps(s.target)
        )
    } else {
        format!(
            "The default curve, {}, tops out at {} tokens/s per user, below the target of {}: self-hosting is priced on {}, the cheapest curve of the model that reaches it.",
            s.chosen_label,
            tps(s.chosen_fastest),
            tps(s.target),
            r.inputs.curve_label
        )
    };
    // The list names each curve and its cost: the sentence before it only counts them.
    let listed = match s.reaching.len() {
        0 => reaching_sentence(r).unwrap_or_default(),
        1 => "One curve of the model reaches it:".to_owned(),
        n => format!(
            "{} curves of the model reach it, cheapest first:",
            crate::format::number(n as f64)
        ),
    };
    let more = s.reaching.len().saturating_sub(LISTED);
    let items = s
        .reaching
        .iter()
        .take(LISTED)
        .map(|c| {
            view! {
                <li data-testid="reaching-curve" data-curve=c.curve.clone() data-usd=c.monthly_usd.to_string()>
                    <a href=format!("/?{}", c.query) target=link_target>{c.label.clone()}</a>
                    {format!(": {} a month, measured up to {} tokens/s per user", usd(c.monthly_usd), tps(c.fastest))}
                </li>
            }
        })
        .collect_view();
    let more = (more > 0).then(|| {
        view! { <li>{format!("and {} more, ranked on the options page", crate::format::number(more as f64))}</li> }
    });
    Some(view! {
        <div class="reach" data-testid="speed-reach" data-floor=s.floor.to_string()
            data-priced-on=s.priced_on.clone() data-target=s.target.to_string()>
            <p><strong>{head}</strong> " " {listed}</p>
            {(!s.reaching.is_empty()).then(|| view! { <ul>{items}{more}</ul> })}
        </div>
    })
}
