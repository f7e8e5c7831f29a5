//! The verdict in one sentence, with the numbers.

use leptos::prelude::*;
use servecost::report::Side;
use servecost::Report;

use crate::citations::cite;
use crate::format::{per_mtok, percent, share_about, significant, thousands, tokens, usd};
use servecost::decision::{Flip, Knob, Strategy};

mod horizon;
pub use horizon::{horizon_lead_line, horizon_line, horizon_reverses, horizon_sentence};

/// The verdict as two sentences: who wins and at what cost, and from which volume on.
pub fn sentences(r: &Report) -> (String, String) {
    let own = &r.self_host;
    let chip = r.inputs.chip_name.clone().unwrap_or_else(|| "GPU".into());
    let fleet = format!(
        "{} × {} {chip}",
        crate::format::number(own.replicas),
        crate::format::number(r.inputs.replica_gpus)
    );
    let idle = if own.monthly_usd > 0.0 {
        own.breakdown.idle_compute / own.monthly_usd
    } else {
        0.0
    };
    let rent = format!(
        "Renting costs {} a month{}",
        usd(r.rent.monthly_usd),
        super::reach::rent_speed(r)
    );
    let host = match super::reach::floor_clause(r) {
        Some(floor) => format!(
            "self-hosting on {fleet} costs at least {} a month{floor}",
            usd(own.monthly_usd)
        ),
        None => format!(
            "self-hosting on {fleet} costs {} a month ({} of it idle hours)",
            usd(own.monthly_usd),
            percent(idle)
        ),
    };
    let price = format!(
        " Its GPU-hour: {}, {}.",
        usd(r.inputs.gpu_hour_usd),
        r.inputs.gpu_hour_label
    );
    // By how much, judged by the page's own tie threshold: inside it the two cost the same.
    let tie = r.verdict.tie;
    let same = r.verdict.ratio.filter(|x| x - 1.0 <= tie).map(|x| {
        format!(
            "{} apart, inside the {} tie",
            crate::format::percent_share(x - 1.0),
            crate::format::percent_share(tie)
        )
    });
    let ratio = r
        .verdict
        .ratio
        .map(|x| {
            if x < 1.1 {
                format!(" (by {})", crate::format::percent_share(x - 1.0))
            } else {
                format!(" ({}× cheaper)", crate::format::significant(x, 2))
            }
        })
        .unwrap_or_default();
    // Where the hybrid beats both, the two alone are compared, not crowned.
    let sentence = match (r.verdict.winner, r.verdict.best, same) {
        _ if !r.verdict.decided => {
            format!("{rent}; {host}. No measurement says which is cheaper at the target.")
        }
        (_, Strategy::Hybrid, Some(same)) => format!(
            "{rent}; {host}. Of the two alone, renting and self-hosting cost the same ({same}); the hybrid above beats both."
        ),
        (_, _, Some(same)) => {
            format!("{rent}; {host}. Renting and self-hosting cost the same: {same}.")
        }
        (Side::Rent, Strategy::Hybrid, None) => format!(
            "{rent}; {host}. Of the two alone renting is cheaper{ratio}; the hybrid above beats both."
        ),
        (Side::SelfHost, Strategy::Hybrid, None) => format!(
            "{rent}; {host}. Of the two alone self-hosting is cheaper{ratio}; the hybrid above beats both."
        ),
        (Side::Rent, _, None) => format!("{rent}; {host}. Renting wins{ratio}."),
        (Side::SelfHost, _, None) => format!("{rent}; {host}. Self-hosting wins{ratio}."),
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

/// The cheapest plan of the three, with its fleet and the other two totals; led by the plans
/// it ties with, and by the sample's disagreement where the named plan holds in under half of
/// the plausible cases.
pub fn best_sentence(r: &Report) -> String {
    if let Some(undecided) = super::reach::undecided_sentence(r) {
        return undecided;
    }
    let plain = plain_best_sentence(r);
    let best = match tie_sentence(r) {
        Some(tied) => format!(
            "{tied} Cheapest of them: {}",
            plain.trim_start_matches("Best: ")
        ),
        None => plain,
    };
    match doubt_sentence(r) {
        Some(doubt) => format!("{doubt} {best}"),
        None => best,
    }
}

/// The plans that cost the same as the named one within the tie threshold, in one sentence:
/// `Best: the hybrid and self-hosting alone cost the same within 1 % ($1,138,949 and $1,139,347
/// a month).`
pub fn tie_sentence(r: &Report) -> Option<String> {
    let v = &r.verdict;
    if v.ties.is_empty() {
        return None;
    }
    let name = |p: Strategy| match p {
        Strategy::SelfHost => "self-hosting alone",
        other => other.label(),
    };
    let plans: Vec<(Strategy, f64)> = std::iter::once((v.best, v.best_monthly_usd))
        .chain(v.ties.iter().map(|t| (t.plan, t.monthly_usd)))
        .collect();
    let names: Vec<&str> = plans.iter().map(|&(p, _)| name(p)).collect();
    let costs: Vec<String> = plans.iter().map(|&(_, c)| usd(c)).collect();
    let and = |items: &[String]| match items {
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        [] => String::new(),
    };
    let names: Vec<String> = names.into_iter().map(str::to_owned).collect();
    Some(format!(
        "Best: {} cost the same within {} ({} a month).",
        and(&names),
        crate::format::percent_share(v.tie),
        and(&costs)
    ))
}

/// Where the sample disagrees with the point answer (the named plan holds in under half of the
/// plausible cases), the disagreement in one sentence.
pub fn doubt_sentence(r: &Report) -> Option<String> {
    let u = r.uncertainty.as_ref()?;
    if u.p_best_holds >= 0.5 {
        return None;
    }
    let others = beaten(u);
    let (other, share) = others.iter().copied().max_by(|a, b| a.1.total_cmp(&b.1))?;
    Some(format!(
        "As given {} is cheapest, but it holds in only {} of plausible cases: {} is cheapest in {}{}.",
        r.verdict.best.label(),
        share_about(u.p_best_holds, u.p_best_holds_se),
        other.label(),
        beaten_about(u, share, others.len()),
        dearer_by_more_than_tie(r)
    ))
}

/// The plans that beat the named one in some plausible cases (cheaper by more than the tie),
/// with the share of those cases: with the holding share and the cases without an answer they
/// are the whole sample.
fn beaten(u: &servecost::decision::Uncertainty) -> Vec<(Strategy, f64)> {
    u.p_beaten
        .by_plan()
        .into_iter()
        .filter(|(_, share)| *share > 0.0)
        .collect()
}

/// A share of [`beaten`] (of `plans` plans), as printed. Where one plan takes every case the
/// named one does not hold, its share is the rest of the holding share, written from that
/// share's figure: the two add up to the whole as printed.
fn beaten_about(u: &servecost::decision::Uncertainty, share: f64, plans: usize) -> String {
    if plans == 1 && u.p_no_answer == 0.0 {
        servecost::format::rest_about(u.p_best_holds, u.p_best_holds_se)
    } else {
        share_about(share, crate::format::share_se(share, f64::from(u.draws)))
    }
}

/// `, with self-hosting more than 1 % dearer`: how the named plan stands in the cases it does
/// not hold (only that it is dearer, without a tie threshold).
fn dearer_by_more_than_tie(r: &Report) -> String {
    let named = r.verdict.best.label();
    if r.verdict.tie > 0.0 {
        format!(
            ", with {named} more than {} dearer",
            crate::format::percent_share(r.verdict.tie)
        )
    } else {
        format!(", with {named} dearer")
    }
}

/// The cheapest plan of the three, with its fleet and the other two totals, alone.
fn plain_best_sentence(r: &Report) -> String {
    let chip = r.inputs.chip_name.clone().unwrap_or_else(|| "GPU".into());
    let others = format!(
        "renting costs {}, self-hosting alone {}",
        usd(r.rent.monthly_usd),
        usd(r.self_host.monthly_usd)
    );
    let plural = |n: f64| if n == 1.0 { "replica" } else { "replicas" };
    match (r.verdict.best, r.hybrid) {
        (Strategy::Hybrid, Some(h)) => format!(
            "Best: {} {} of {} × {chip} with {} of demand sent to the API, {} a month; {others}.",
            h.replicas,
            plural(h.replicas),
            r.inputs.replica_gpus,
            crate::format::percent_share(h.api_share),
            usd(h.monthly_usd)
        ),
        (Strategy::SelfHost, _) => format!(
            "Best: self-hosting on {} {} of {} × {chip}, {} a month; renting costs {}.",
            r.self_host.replicas,
            plural(r.self_host.replicas),
            r.inputs.replica_gpus,
            usd(r.self_host.monthly_usd),
            usd(r.rent.monthly_usd)
        ),
        _ => format!(
            "Best: renting per token, {} a month; self-hosting alone costs {}{}{}.",
            usd(r.rent.monthly_usd),
            // Priced at the curve's fastest point below the target: a floor.
            if r.speed.as_ref().is_some_and(|s| s.floor) {
                "at least "
            } else {
                ""
            },
            usd(r.self_host.monthly_usd),
            r.hybrid
                .filter(|h| h.replicas > 0.0 && h.api_share > 0.0)
                .map(|h| format!(", the best hybrid {}", usd(h.monthly_usd)))
                .unwrap_or_default()
        ),
    }
}

/// How sure the best plan is, in one sentence (`None` without a sample).
pub fn sureness_sentence(r: &Report) -> Option<String> {
    // A plan priced on a floor holds nowhere the sample could say.
    let u = r.uncertainty.as_ref().filter(|_| r.verdict.decided)?;
    Some(format!(
        "Holds in {} of plausible cases (ranges on /method).",
        share_about(u.p_best_holds, u.p_best_holds_se)
    ))
}

/// What is cheapest in the cases where the named plan does not hold: `In the other cases
/// renting (about 4 %) or the hybrid (about 1 %) is cheapest, with self-hosting more than 1 %
/// dearer.`, shares that make the whole with the holding one.
pub fn otherwise(r: &Report) -> Option<String> {
    let u = r.uncertainty.as_ref()?;
    let n = f64::from(u.draws);
    let about = |share: f64| share_about(share, crate::format::share_se(share, n));
    let beating = beaten(u);
    let others: Vec<String> = beating
        .iter()
        .map(|&(p, share)| format!("{} ({})", p.label(), beaten_about(u, share, beating.len())))
        .collect();
    let tie = if r.verdict.tie > 0.0 {
        format!(
            " A case in which {} costs at most {} more than the cheapest counts as holding.",
            r.verdict.best.label(),
            crate::format::percent_share(r.verdict.tie)
        )
    } else {
        String::new()
    };
    let none = if u.p_no_answer > 0.0 {
        format!(" In {} no plan could be costed.", about(u.p_no_answer))
    } else {
        String::new()
    };
    (!others.is_empty() || !tie.is_empty() || !none.is_empty()).then(|| {
        let otherwise = if others.is_empty() {
            String::new()
        } else {
            format!(
                "In the other cases {} is cheapest{}.",
                others.join(" or "),
                dearer_by_more_than_tie(r)
            )
        };
        format!("{otherwise}{tie}{none}").trim().to_owned()
    })
}

/// The sample's figures behind the sureness sentence.
pub fn sureness_detail(r: &Report) -> Option<String> {
    let u = r.uncertainty.as_ref()?;
    let d = &u.difference_usd;
    let signed = |v: f64| {
        // A word joiner keeps the sign on the figure's line.
        if v < 0.0 {
            format!("−\u{2060}{}", usd(-v))
        } else {
            format!("+\u{2060}{}", usd(v))
        }
    };
    let left = if u.draws_without_answer > 0 {
        format!(
            " {} of {} draws had no answer; they count in every share as cases of their own.",
            thousands(f64::from(u.draws_without_answer)),
            thousands(f64::from(u.draws))
        )
    } else {
        String::new()
    };
    // One range reaches only one way (a vendor's haircut): the figures as given can sit at
    // its end.
    let point = r.self_host.monthly_usd - r.rent.monthly_usd;
    let lean = if point > d.p90 {
        " Your figures sit at the end of the ranges that favours renting: most plausible cases make self-hosting cheaper than shown."
    } else if point < d.p10 {
        " Your figures sit at the end of the ranges that favours self-hosting: most plausible cases make it dearer than shown."
    } else {
        ""
    };
    Some(format!(
        "Self-hosting minus renting: {} to {} a month (10th to 90th percentile, median {}; as given {}); self-hosting alone is cheaper than renting in {} of the cases ({} draws).{lean}{left}",
        signed(d.p10),
        signed(d.p90),
        signed(d.p50),
        signed(point),
        share_about(
            u.p_self_host_cheaper,
            crate::format::share_se(u.p_self_host_cheaper, f64::from(u.draws))
        ),
        thousands(f64::from(u.draws))
    ))
}

fn flip_value(f: &Flip) -> String {
    match f.param.as_str() {
        "volume" => format!("{} tokens a month", tokens(f.value)),
        "gpu_hour" => usd(f.value),
        "price_in" => format!("{} per million input tokens", per_mtok(f.value)),
        "price_out" => format!("{} per million output tokens", per_mtok(f.value)),
        "cache_discount" | "util" => crate::format::percent_signed(f.value),
        "prefill" => format!("{} tokens/s per GPU", thousands(f.value)),
        "ops" => format!("{} a month", usd(f.value)),
        "throughput" => format!("×{} of what it measured", significant(f.value, 3)),
        _ => significant(f.value, 3),
    }
}

/// One flip as a clause: `volume above 71 B tokens a month (yours: 27.2 B)`.
pub fn flip_clause(f: &Flip) -> String {
    // Yours, short: the unit is in the clause already.
    let base = match f.param.as_str() {
        "volume" => tokens(f.base),
        "price_in" | "price_out" => per_mtok(f.base),
        "throughput" => "as measured".to_owned(),
        _ => flip_value(&Flip {
            value: f.base,
            ..f.clone()
        }),
    };
    let close = f.base != 0.0 && (f.value / f.base - 1.0).abs() < 0.01;
    let yours = if close {
        format!(" (within 1\u{a0}% of yours, {base})")
    } else {
        format!(" (yours: {base})")
    };
    format!("{}{yours}", flip_clause_bare(f))
}

fn flip_clause_bare(f: &Flip) -> String {
    if f.param == "volume" {
        // A band: how far the change lasts, not only where it starts.
        let span = match (f.direction.as_str(), f.until) {
            ("above", Some(to)) => format!("volume from {} to {}", tokens(f.value), tokens(to)),
            ("below", Some(from)) => format!("volume from {} to {}", tokens(from), tokens(f.value)),
            (side, _) => format!("volume {side} {}", tokens(f.value)),
        };
        return format!("{span} tokens a month");
    }
    let side = if f.direction == "above" {
        "above"
    } else {
        "below"
    };
    let what = Knob::from_key(&f.param).map_or_else(|| f.param.clone(), |k| k.noun().to_owned());
    format!("{what} {side} {}", flip_value(f))
}

/// Past which value the plan as given never holds again, for a flip read from a band map:
/// `; above 160 B tokens a month renting is never cheapest again`.
fn reliably_clause(f: &Flip) -> String {
    f.reliably_from
        .map(|v| {
            let side = if f.direction == "above" {
                "above"
            } else {
                "below"
            };
            format!(
                "; {side} {} tokens a month {} is never cheapest again",
                tokens(v),
                f.from.label()
            )
        })
        .unwrap_or_default()
}

/// The cheapest plan's word, capitalised to open a sentence (the plans' words are ASCII: no
/// Unicode case tables in the browser's bundle for them).
fn best_word(r: &Report) -> String {
    let word = r.verdict.best.label();
    word[..1].to_ascii_uppercase() + &word[1..]
}

/// A label inside a sentence: its first letter lower-cased unless it opens an abbreviation
/// (`Monthly volume` → `monthly volume`, `GPU-hour price` as it is).
fn in_sentence(label: &str) -> String {
    let mut chars = label.chars();
    match (chars.next(), chars.next()) {
        (Some(first), Some(second)) if second.is_lowercase() => {
            first.to_ascii_lowercase().to_string() + &label[first.len_utf8()..]
        }
        _ => label.to_owned(),
    }
}

/// The inputs no value of which (within its range) changes the answer, in words.
fn unchanged_sentence(r: &Report) -> String {
    let names: Vec<String> = r
        .flips
        .unchanged
        .iter()
        .map(|key| Knob::from_key(key).map_or_else(|| key.clone(), |k| in_sentence(k.label())))
        .collect();
    if names.is_empty() {
        String::new()
    } else {
        format!(
            " No value within its accepted range of the {} changes it.",
            names.join(", ")
        )
    }
}

/// The decision in a few sentences for link previews: the cheapest plan, how sure it is, and
/// the caveat that moves it most (its first sentence).
pub fn preview_text(r: &Report) -> String {
    let mut text = best_sentence(r);
    if let Some(sure) = sureness_sentence(r) {
        text = format!("{text} {sure}");
    }
    if let Some((_, message, _)) = top_caveats(r).into_iter().next() {
        let first = message
            .split(". ")
            .next()
            .unwrap_or(&message)
            .trim_end_matches('.');
        text = format!("{text} Keep in mind: {first}.");
    }
    text
}

/// The warnings that move the answer most, with their effect.
pub fn top_caveats(r: &Report) -> Vec<(String, String, f64)> {
    r.top_warnings
        .iter()
        .filter_map(|code| r.warnings.iter().find(|w| w.code == *code))
        .map(|w| {
            (
                w.code.as_str().to_owned(),
                w.message.clone(),
                w.effect_usd.unwrap_or(0.0),
            )
        })
        .collect()
}

/// The cheapest plan in one bold line.
pub fn best_line(r: &Report) -> impl IntoView + use<> {
    view! {
        <p class="best" data-testid="best" data-best=r.verdict.best.key() data-usd=r.verdict.best_monthly_usd.to_string()>
            <strong>{best_sentence(r)}</strong>
        </p>
        {super::reach::reach_block(r, "_self")}
    }
}

/// How sure the answer is, in one plain sentence with a link to the ranges; the sample's
/// figures behind it one click away (`link_target` for links out of a frame).
pub fn sureness_line(r: &Report, link_target: &'static str) -> impl IntoView + use<> {
    sureness_sentence(r).map(|text| {
        let u = r.uncertainty.as_ref();
        view! {
            <div class="sureness" data-testid="sureness"
                data-p-best=u.map(|u| u.p_best_holds.to_string()).unwrap_or_default()
                data-p-self=u.map(|u| u.p_self_host_cheaper.to_string()).unwrap_or_default()
                data-p10=u.map(|u| u.difference_usd.p10.to_string()).unwrap_or_default()
                data-p90=u.map(|u| u.difference_usd.p90.to_string()).unwrap_or_default()>
                <p><strong>{text.replace(" (ranges on /method).", "")} " (" <a href="/method#ranges" target=link_target>"ranges on /method"</a> ")."</strong></p>
                <details class="sample">
                    <summary>"The sample behind it"</summary>
                    <p>{otherwise(r).unwrap_or_default()} " " {sureness_detail(r)}</p>
                </details>
            </div>
        }
    })
}

/// Renting against self-hosting alone, with its sources and the break-even volume.
pub fn verdict_line(r: &Report, keys: &[String]) -> impl IntoView + use<> {
    let (sentence, break_even) = sentences(r);
    let winner = match r.verdict.winner {
        Side::Rent => "rent",
        Side::SelfHost => "self_host",
    };
    view! {
        <p class="verdict" data-testid="verdict" data-winner=winner>
            {sentence}
            {cite(keys, &r.inputs.api_source)} {cite(keys, &r.inputs.curve_source)} {cite(keys, &r.inputs.gpu_hour_source)}
            " " {break_even}
        </p>
    }
}

/// What would change the answer, and the caveats that move it most. `compact` (a small frame,
/// with the scenario's link): the first three flips, how many more and where to read them, and
/// each caveat's first sentence.
pub fn changes(r: &Report, compact: Option<&str>) -> impl IntoView + use<> {
    let link = compact.map(str::to_owned);
    let compact = link.is_some();
    let flips = if r.flips.flips.is_empty() {
        view! { <p>{format!("{} stays cheapest at every value of the main inputs within their accepted ranges.", best_word(r))}</p> }.into_any()
    } else {
        let shown = if compact { 3 } else { usize::MAX };
        let items = r
            .flips
            .flips
            .iter()
            .take(shown)
            .map(|f| {
                view! {
                    <li class="flip" data-param=f.param.clone() data-value=f.value.to_string()
                        data-until=f.until.map(|v| v.to_string()).unwrap_or_default()
                        data-reliably=f.reliably_from.map(|v| v.to_string()).unwrap_or_default()
                        data-direction=f.direction.clone() data-to=format!("{:?}", f.to)>
                        {flip_clause(f)} " → " <strong class="nowrap">{f.to.label()}</strong>
                        {f.mostly.map(|p| format!(", then mostly {}", p.label()))}
                        {reliably_clause(f)}
                    </li>
                }
            })
            .collect_view();
        let hidden = r.flips.flips.len().saturating_sub(shown);
        let more = (hidden > 0).then(|| {
            view! {
                <li class="more" data-testid="flips-more" data-hidden=hidden.to_string()>
                    {format!("{hidden} more: ")}
                    <a href=link.clone().unwrap_or_default() target="_blank" rel="noopener external">"open the scenario"</a>
                </li>
            }
        });
        view! {
            <p>{format!("{} stays cheapest unless:", best_word(r))}</p>
            <ul>{items}{more}</ul>
            <p class="unchanged">{unchanged_sentence(r).trim().to_owned()}</p>
        }
        .into_any()
    };
    let caveats = top_caveats(r);
    let caveats = (!caveats.is_empty()).then(|| {
        let items = caveats
            .into_iter()
            .map(|(code, message, effect)| {
                let message = if compact {
                    let first = message.split(". ").next().unwrap_or(&message);
                    format!("{}.", first.trim_end_matches('.'))
                } else {
                    message
                };
                view! {
                    <li data-code=code>
                        {message} " "
                        <span class="effect">{format!("(moves the difference by up to {} a month)", usd(effect))}</span>
                    </li>
                }
            })
            .collect_view();
        view! {
            <div class="top-caveats" data-testid="top-caveats">
                <h3>"What moves this answer most"</h3>
                <ul>{items}</ul>
            </div>
        }
    });
    view! {
        <div class="flips" data-testid="flips">
            <h3>"What would change it"</h3>
            {flips}
        </div>
        {caveats}
    }
}

/// Which side wins, by how much, and from which volume on; the cheapest plan, how sure it is,
/// what would change it, and the caveats that move it most.
#[component]
pub fn Verdict(
    /// The report.
    #[prop(into)]
    report: crate::query::Answer,
    /// Cited source keys.
    keys: Vec<String>,
) -> impl IntoView {
    let r = &report;
    view! {
        <div class="decision">
            {best_line(r)}
            {sureness_line(r, "_self")}
            {verdict_line(r, &keys)}
            {horizon_line(r, false)}
            {changes(r, None)}
        </div>
    }
}
