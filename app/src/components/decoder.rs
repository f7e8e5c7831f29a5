//! The headline decoder: the AgentPerf-style figure for the chosen point, the published
//! headlines beside it, and any tokens/s-per-MW headline turned into $ per GPU and per class.

use leptos::prelude::*;
use servecost::power::PowerDefinition;
use servecost::Dataset;

use crate::citations::cite;
use crate::components::inputs::{Ctx, Hidden};
use crate::components::Field;
use crate::format::{number, per_mtok, significant, tokens, usd};

/// The decoder section.
#[component]
pub fn Decoder(
    /// What the inputs share.
    ctx: Ctx,
    /// Cited source keys.
    keys: Signal<Vec<String>>,
) -> impl IntoView {
    let shown = Signal::derive(|| vec!["headline"]);
    view! {
        <section class="decoder" aria-labelledby="decoder-title">
            <h2 id="decoder-title">"Headline decoder"</h2>
            {operating_point(ctx)}
            <table>
                <caption>"Published headlines"</caption>
                <thead><tr><th>"Figure"</th><th>"Chip"</th><th>"Value"</th><th></th></tr></thead>
                <tbody>{published(ctx.data, keys)}</tbody>
            </table>
            <form method="get" action="/" class="decode-form" on:submit=|ev| ev.prevent_default()>
                <Field name="headline" value=ctx.typed("headline") placeholder=ctx.in_force("headline") outcome=ctx.outcome on_change=ctx.on_change
                    explain="Paste a tokens/s-per-MW headline (e.g. 150M) to see what it means per GPU, per dollar and per token class."/>
                <Hidden query=ctx.query shown/>
                <button type="submit">"Decode"</button>
            </form>
            {decoded(ctx)}
        </section>
    }
}

/// The chosen operating point per MW, as AgentPerf counts it.
fn operating_point(ctx: Ctx) -> impl IntoView {
    move || {
        ctx.report.with(|r| {
            let r = r.as_ref()?;
            let op = r.power.operating_point.clone()?;
            let chip = r.inputs.chip_name.clone().unwrap_or_default();
            let power = match op.power_definition {
                PowerDefinition::Accelerator => "accelerator power (GPU, die and HBM, as AgentPerf measures)",
                PowerDefinition::AllIn => "all-in power per GPU (no accelerator-only figure is known for this chip)",
                PowerDefinition::Board => "board power from the data sheet, not AgentPerf's accelerator measure: per-MW figures come out low",
            };
            Some(view! {
                <p data-testid="operating-point">
                    "At your target of " {significant(r.inputs.tps, 4)} " tokens/s per user on " {chip} ", your mix runs at "
                    <strong>{format!("{} tokens/s per MW", tokens(op.tokens_per_s_per_mw))}</strong>
                    " and " <strong>{format!("{} users decoding at once per MW", number(op.users_per_mw.round()))}</strong>
                    " (" {format!("{} tokens/s per GPU, {}\u{a0}kW per GPU of {power}", number(op.tokens_per_s_per_gpu.round()), significant(op.kw_per_gpu, 3))} ")."
                </p>
            })
        })
    }
}

/// The dataset's published headlines, each a ceiling or a floor.
fn published(data: StoredValue<Dataset>, keys: Signal<Vec<String>>) -> impl IntoView {
    move || {
        data.with_value(|d| {
            d.headlines
                .iter()
                .map(|h| {
                    let chip = d.chip(&h.chip).map_or(h.chip.clone(), |c| c.name.clone());
                    let value = h
                        .tokens_per_s_per_mw
                        .map(|v| format!("{} tokens/s per MW", tokens(v)))
                        .or_else(|| {
                            h.agents_per_mw
                                .map(|a| format!("{} agents per MW", number(a)))
                        })
                        .unwrap_or_default();
                    view! {
                        <tr>
                            <td>{h.label.clone()} {keys.with(|k| cite(k, &h.source))}</td>
                            <td>{chip}</td>
                            <td>{value}</td>
                            <td>{if h.is_floor { "a floor: the configuration may have more headroom" } else { "a ceiling: peak throughput, every GPU busy" }}</td>
                        </tr>
                    }
                })
                .collect_view()
        })
    }
}

/// A tokens/s-per-MW headline turned into $ per GPU and per token class.
fn decoded(ctx: Ctx) -> impl IntoView {
    let data = ctx.data;
    move || {
        ctx.report.with(|r| {
            let r = r.as_ref()?;
            let h = r.power.headline.clone()?;
            let from = match r.power.headline_source.as_deref() {
                Some("user") => "your headline".to_owned(),
                _ => "the chip's published headline".to_owned(),
            };
            let classes = h.per_mtok.map(|p| view! {
                <tr><th scope="row">"At the headline's own mix (agent trace)"</th>
                    <td>{per_mtok(p.input)}</td><td>{per_mtok(p.cached)}</td><td>{per_mtok(p.output)}</td><td>{per_mtok(p.blended)}</td></tr>
            });
            let yours = h.per_mtok_user_mix.map(|p| view! {
                <tr><th scope="row">"At your mix"</th>
                    <td>{per_mtok(p.input)}</td><td>{per_mtok(p.cached)}</td><td>{per_mtok(p.output)}</td><td>{per_mtok(p.blended)}</td></tr>
            });
            // A published floor (more headroom) is a ceiling on what a token costs; every other
            // headline is a peak, a ceiling on throughput and so a floor on cost.
            let floor = data.with_value(|d| {
                d.headlines
                    .iter()
                    .any(|x| x.is_floor && x.tokens_per_s_per_mw == Some(h.tokens_per_s_per_mw))
            });
            let bound = if floor {
                " The headline is a floor on throughput (more headroom may exist), so this is the most a token costs at that price."
            } else {
                " The headline is a ceiling on throughput (peak, every GPU busy at its own mix, no idle hours), so this is the least a token can cost at that price."
            };
            Some(view! {
                <div data-testid="decoded">
                    <p>
                        "Decoding " {from} ": " <strong>{format!("{} tokens/s per MW", tokens(h.tokens_per_s_per_mw))}</strong>
                        " is " <strong>{format!("{} tokens/s per GPU", number(h.tokens_per_s_per_gpu.round()))}</strong>
                        " at this chip's power, so at " {usd(h.gpu_hour_usd)} " per GPU-hour "
                        <strong>{format!("{} per million tokens", per_mtok(h.usd_per_mtok_all))}</strong>
                        " counting all tokens alike (" {format!("{} tokens per dollar", tokens(1e6 / h.usd_per_mtok_all))} ")."
                        {bound}
                    </p>
                    {h.note.clone().map(|n| view! { <p class="hint">"No per-class split: " {n}</p> })}
                    {(classes.is_some()).then(|| view! {
                        <table>
                            <caption>"What the headline means per token class ($ per million)"</caption>
                            <thead><tr><th></th><th>"Uncached input"</th><th>"Cached input"</th><th>"Output"</th><th>"Blended"</th></tr></thead>
                            <tbody>{classes}{yours}</tbody>
                        </table>
                    })}
                </div>
            })
        })
    }
}
