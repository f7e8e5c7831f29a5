//! The verdict in one sentence, with the numbers.

use leptos::prelude::*;
use servecost::report::Side;
use servecost::Report;

use crate::citations::cite;
use crate::format::{percent, tokens, usd};

/// The verdict as two sentences: who wins and at what cost, and from which volume on.
pub fn sentences(r: &Report) -> (String, String) {
    let own = &r.self_host;
    let chip = r.inputs.chip_name.clone().unwrap_or_else(|| "GPU".into());
    let fleet = format!("{} × {} {chip}", own.replicas, r.inputs.replica_gpus);
    let idle = if own.monthly_usd > 0.0 {
        own.breakdown.idle_compute / own.monthly_usd
    } else {
        0.0
    };
    let rent = format!("Renting costs {} a month", usd(r.rent.monthly_usd));
    let host = format!(
        "self-hosting on {fleet} costs {} a month ({} of it idle hours)",
        usd(own.monthly_usd),
        percent(idle)
    );
    let price = format!(
        " Its GPU-hour: {}, {}.",
        usd(r.inputs.gpu_hour_usd),
        r.inputs.gpu_hour_label
    );
    let ratio = r
        .verdict
        .ratio
        .map(|x| {
            if x < 1.05 {
                " (by less than 5 %: about the same)".to_owned()
            } else {
                format!(" ({x:.1}× cheaper)")
            }
        })
        .unwrap_or_default();
    let sentence = match r.verdict.winner {
        Side::Rent => format!("{rent}; {host}. Renting wins{ratio}."),
        Side::SelfHost => format!("{rent}; {host}. Self-hosting wins{ratio}."),
    };
    let break_even = match (r.break_even.monthly_tokens, &r.break_even.volume_note) {
        (Some(v), Some(why)) if !r.break_even.volume_exact => {
            format!(
                "Self-hosting wins above {} tokens a month at most ({why}).",
                tokens(v)
            )
        }
        (Some(v), _) if v <= r.inputs.total_tokens => {
            format!(
                "Self-hosting stays cheaper above {} tokens a month.",
                tokens(v)
            )
        }
        (Some(v), _) if r.verdict.winner == Side::SelfHost => format!(
            "Self-hosting is cheaper at your volume, and stays cheaper at every volume above {} tokens a month (below it, whole replicas make the lead come and go).",
            tokens(v)
        ),
        (Some(v), _) => format!("Self-hosting stays cheaper above {} tokens a month.", tokens(v)),
        (None, Some(why)) => format!("Self-hosting never wins at these prices: {why}."),
        (None, None) => String::new(),
    };
    let term = match (r.inputs.gpu_kind, r.inputs.gpu_tier.is_some()) {
        (Some(servecost::gpu_price::Commitment::Reserved), _) => {
            " A reserved price bills the whole fleet for every hour of its term, used or not."
        }
        (Some(servecost::gpu_price::Commitment::OwnerCost), _) => {
            " That price is an owner's cost at hyperscale, a floor: no one rents at it."
        }
        _ => "",
    };
    (format!("{sentence}{price}{term}"), break_even)
}

/// Which side wins, by how much, and from which volume on.
#[component]
pub fn Verdict(
    /// The report.
    report: Report,
    /// Cited source keys.
    keys: Vec<String>,
) -> impl IntoView {
    let r = &report;
    let (sentence, break_even) = sentences(r);
    let winner = match r.verdict.winner {
        Side::Rent => "rent",
        Side::SelfHost => "self_host",
    };
    view! {
        <p class="verdict" data-testid="verdict" data-winner=winner>
            <strong>{sentence}</strong>
            {cite(&keys, &r.inputs.api_source)} {cite(&keys, &r.inputs.curve_source)} {cite(&keys, &r.inputs.gpu_hour_source)}
            " " {break_even}
        </p>
    }
}
