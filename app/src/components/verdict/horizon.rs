//! The plan over the years in the verdict's words: the cheapest plan over the horizon, and
//! whether it reverses this month's answer.

use leptos::prelude::*;
use servecost::Report;

use crate::format::usd;

/// The plans whose present value over the horizon is within the tie of the cheapest's.
fn horizon_ties(r: &Report) -> Vec<&'static str> {
    let p = &r.plan;
    let npv = &p.npv_usd;
    // Present values within the tie of the cheapest cost the same, as this month's do.
    // A hybrid that is never a plan of its own costs exactly renting or self-hosting: it ties
    // with nothing.
    let own_plan = |h: &f64| {
        let apart = |x: f64| (h - x).abs() > 1e-9 * x.abs().max(1.0);
        r.hybrid.is_some() && apart(npv.rent) && apart(npv.self_host)
    };
    servecost::decision::Totals {
        rent: npv.rent,
        self_host: npv.self_host,
        hybrid: npv.hybrid.filter(own_plan),
    }
    .ties(r.verdict.tie)
    .into_iter()
    .map(|(plan, _)| plan.label())
    .collect()
}

/// True when the plan over the horizon is not this month's answer (nor tied with it): the
/// first screen then says so.
pub fn horizon_reverses(r: &Report) -> bool {
    let p = &r.plan;
    !(p.best == r.verdict.best || horizon_ties(r).contains(&r.verdict.best.label()))
}

/// The answer over the horizon: its first sentence (which plan is cheapest in present value,
/// and whether that differs from this month's answer), then the payback month, what stays
/// committed past the horizon and the assumptions it rests on.
fn horizon_parts(r: &Report) -> (String, String) {
    let p = &r.plan;
    let years = p.spec.horizon.round() as u32;
    let span = if years == 1 {
        "1 year".to_owned()
    } else {
        format!("{years} years")
    };
    let npv = &p.npv_usd;
    let values = format!(
        "renting {}, self-hosting {}{}",
        usd(npv.rent),
        usd(npv.self_host),
        npv.hybrid
            .filter(|_| r.hybrid.is_some())
            .map(|h| format!(", the best hybrid {}", usd(h)))
            .unwrap_or_default()
    );
    let rate = crate::format::percent_signed(p.spec.discount_rate);
    let tied = horizon_ties(r);
    let holds_now = p.best == r.verdict.best || tied.contains(&r.verdict.best.label());
    let lead = if !tied.is_empty() {
        let same = format!(
            "{} and {} cost the same within {} in present value (at {rate} a year: {values})",
            p.best.label(),
            tied.join(" and "),
            crate::format::percent_share(r.verdict.tie)
        );
        if holds_now {
            format!("Over {span} {same}.")
        } else {
            format!(
                "Over {span} the answer changes: {} is cheapest this month; over {span} {same}.",
                r.verdict.best.label()
            )
        }
    } else if p.best == r.verdict.best {
        format!(
            "Over {span} {} stays cheapest: in present value (at {rate} a year) {values}.",
            p.best.label()
        )
    } else {
        format!(
            "Over {span} the answer changes: {} is cheapest this month, {} over {span} (present value at {rate} a year: {values}).",
            r.verdict.best.label(),
            p.best.label()
        )
    };
    let turn = match (p.payback_month, p.lead_lost_month) {
        (Some(m), _) => format!(
            " Self-hosting pays back in month {m}: by its end it has cost no more in all than renting (undiscounted)."
        ),
        (_, Some(m)) => format!(
            " Self-hosting's lead is gone by month {m}: by its end it has cost as much in all as renting (undiscounted)."
        ),
        _ => String::new(),
    };
    // What the plan still owes past the horizon, and what the present value is with it (a
    // figure of cash committed: renting's months past the horizon are not in it).
    let committed = {
        let c = &p.committed_after_usd;
        let w = &p.npv_with_commitments_usd;
        let own = c.self_host.max(c.hybrid.unwrap_or(0.0));
        let residual = p
            .residual_usd
            .self_host
            .max(p.residual_usd.hybrid.unwrap_or(0.0));
        if own > 0.0 || residual > 0.0 {
            format!(
                " Past the horizon self-hosting is still committed to {}{}; with that counted, and the GPUs' value at its end, the present values are renting {}, self-hosting {}{}.",
                usd(c.self_host),
                // The hybrid only where its figure is not self-hosting's.
                c.hybrid
                    .filter(|h| r.hybrid.is_some() && usd(*h) != usd(c.self_host))
                    .map(|h| format!(" and the hybrid to {}", usd(h)))
                    .unwrap_or_default(),
                usd(w.rent),
                usd(w.self_host),
                w.hybrid
                    .filter(|h| r.hybrid.is_some() && usd(*h) != usd(w.self_host))
                    .map(|h| format!(", the best hybrid {}", usd(h)))
                    .unwrap_or_default()
            )
        } else {
            String::new()
        }
    };
    let s = &p.spec;
    let assumed = if s.growth == 0.0 && s.api_trend == 0.0 && s.gpu_trend == 0.0 {
        " Volumes and prices are held as today (servecost's assumption: set growth and price trends under “Over the years”)."
    } else {
        ""
    };
    (lead, format!("{turn}{committed}{assumed}"))
}

/// The answer over the horizon in one or two sentences: which plan is cheapest in present
/// value, whether that differs from this month's answer, and self-hosting's payback month.
pub fn horizon_sentence(r: &Report) -> String {
    let (lead, rest) = horizon_parts(r);
    format!("{lead}{rest}")
}

/// The answer over the horizon, for the decision block (`to_months`: with a link to the
/// month-by-month section on the same page).
pub fn horizon_line(r: &Report, to_months: bool) -> impl IntoView + use<> {
    let p = &r.plan;
    view! {
        <p class="horizon" data-testid="horizon-verdict" data-best=p.best.key()
            data-payback=p.payback_month.map(|m| m.to_string()).unwrap_or_default()>
            {horizon_sentence(r)}
            {to_months.then(|| view! { " " <a href="#years">"Month by month"</a> })}
        </p>
    }
}

/// The answer over the horizon in its first sentence, for a small frame (the rest behind the
/// link to the scenario).
pub fn horizon_lead_line(r: &Report) -> impl IntoView + use<> {
    let p = &r.plan;
    view! {
        <p class="horizon" data-testid="horizon-verdict" data-best=p.best.key()
            data-payback=p.payback_month.map(|m| m.to_string()).unwrap_or_default()>
            <strong>{horizon_parts(r).0}</strong>
        </p>
    }
}
