//! "Your benchmark": an editable table of measured points, the mix they were measured at, the
//! chip and GPUs per replica, and a box to paste spreadsheet rows or vLLM benchmark results.
//!
//! Without JavaScript every cell is a form field (`pt_tps`, `pt_tput`) that the page turns into
//! the link's `points` ([`crate::curve_editor::from_form`]); with it, every edit updates the link and
//! the answer at once.

use leptos::prelude::*;
use servecost::codec::{decode, OTHER_CHIP};

use crate::components::inputs::{Ctx, Param};
use crate::components::Choice;
use crate::curve_editor::{self, Row};
use crate::query;

/// The chip in force for the scenario's curve: a dataset curve's, or the one given with own
/// points, or the model's first curve's.
pub fn chip_in_force(ctx: Ctx) -> Option<String> {
    let given = ctx
        .query
        .with(|q| query::get(q, "chip"))
        .map(|c| decode(&c));
    if given.is_some() {
        return given;
    }
    let curve = ctx
        .query
        .with(|q| query::get(q, "curve"))
        .map(|c| decode(&c));
    let model = ctx.model();
    ctx.data.with_value(|d| {
        curve
            .and_then(|id| d.curve(&id).map(|c| c.chip.clone()))
            .or_else(|| d.curves_of(&model).next().map(|c| c.chip.clone()))
    })
}

/// The benchmark editor.
#[component]
pub fn Benchmark(
    /// What the sections share.
    ctx: Ctx,
    /// Pasted text a form submitted without JavaScript could not read, with the reason.
    kept_paste: RwSignal<Option<(String, String)>>,
) -> impl IntoView {
    let on_change = ctx.on_change;
    let points = move || {
        ctx.query
            .with(|q| query::get(q, "points"))
            .map(|p| decode(&p))
    };
    let rows = RwSignal::new(curve_editor::rows_for(points().as_deref()));
    // A link followed on the page (or a paste read) replaces the table; typing does not, since
    // the table then already makes the link's points.
    Effect::new(move |_| {
        let p = points().unwrap_or_default();
        if rows.with_untracked(|r| curve_editor::points_text(r)) != p {
            rows.set(curve_editor::rows_for(Some(&p)));
        }
    });
    let publish = move || {
        let text = rows.with_untracked(|r| curve_editor::points_text(r));
        on_change.run(("points", text));
    };
    let edit = move |i: usize, speed: bool, text: String| {
        rows.update(|r| {
            if let Some(row) = r.get_mut(i) {
                if speed {
                    row.tps = text;
                } else {
                    row.tput = text;
                }
            }
            if r.last().is_some_and(|l| !l.is_blank()) {
                r.push(Row::default());
            }
        });
        publish();
    };
    let paste_error = RwSignal::new(kept_paste.get_untracked().map(|k| k.1));
    // Rows from a spreadsheet pasted into any cell fill the table from that row on; one figure
    // pastes as usual.
    let paste_rows = move |i: usize, ev: leptos::ev::ClipboardEvent| {
        let Some(text) = crate::browser::pasted_text(&ev).filter(|t| curve_editor::is_rows(t))
        else {
            return;
        };
        ev.prevent_default();
        match rows.with_untracked(|r| curve_editor::filled_from(r, i, &text)) {
            Ok(filled) => {
                rows.set(filled);
                publish();
            }
            Err(reason) => paste_error.set(Some(reason)),
        }
    };
    // Buttons that only JavaScript can work: shown once the page is live.
    let live = RwSignal::new(false);
    Effect::new(move |_| live.set(true));
    // The codec's message about the whole table, unless a cell already says what is wrong.
    let table_error = Memo::new(move |_| {
        if rows.with(|r| curve_editor::has_problem(r)) {
            return None;
        }
        ctx.outcome.with(|o| {
            o.all_problems()
                .find(|p| p.param == "points")
                .map(|p| p.reason.clone())
        })
    });
    // The rows are rebuilt only when their number changes: typing keeps the focus in its cell.
    let count = Memo::new(move |_| rows.with(Vec::len));
    let body = move || {
        (0..count.get())
            .map(|i| {
                let cell = move |speed: bool| {
                    rows.with(|r| {
                        r.get(i)
                            .map(|row| if speed { row.tps.clone() } else { row.tput.clone() })
                            .unwrap_or_default()
                    })
                };
                let problem = move |speed: bool| {
                    rows.with(|r| {
                        let row = r.get(i)?;
                        if row.is_blank() {
                            return None;
                        }
                        if speed {
                            curve_editor::tps_problem(&row.tps)
                        } else {
                            curve_editor::tput_problem(&row.tput)
                        }
                    })
                };
                let id = |what: &str| format!("pt-{what}-{i}");
                view! {
                    <tr>
                        <td>
                            <input type="text" inputmode="decimal" autocomplete="off" name="pt_tps" id=id("tps")
                                aria-label=format!("Point {}: output tokens/s per user", i + 1)
                                aria-invalid=move || if problem(true).is_some() { "true" } else { "false" }
                                aria-describedby=id("tps-error")
                                value=move || cell(true) prop:value=move || cell(true)
                                on:input=move |ev| edit(i, true, event_target_value(&ev))
                                on:paste=move |ev| paste_rows(i, ev)/>
                            <small class="field-error" role="alert" id=id("tps-error") data-testid=format!("error-pt-tps-{i}")>{move || problem(true)}</small>
                        </td>
                        <td>
                            <input type="text" inputmode="decimal" autocomplete="off" name="pt_tput" id=id("tput")
                                aria-label=format!("Point {}: total tokens/s per GPU", i + 1)
                                aria-invalid=move || if problem(false).is_some() { "true" } else { "false" }
                                aria-describedby=id("tput-error")
                                value=move || cell(false) prop:value=move || cell(false)
                                on:input=move |ev| edit(i, false, event_target_value(&ev))
                                on:paste=move |ev| paste_rows(i, ev)/>
                            <small class="field-error" role="alert" id=id("tput-error") data-testid=format!("error-pt-tput-{i}")>{move || problem(false)}</small>
                        </td>
                        <td>
                            {move || live.get().then(|| view! {
                                <button type="button" class="remove" aria-label=format!("Remove point {}", i + 1) title="Remove this point"
                                    on:click=move |_| {
                                        rows.update(|r| {
                                            if i < r.len() {
                                                r.remove(i);
                                            }
                                            if r.last().is_none_or(|l| !l.is_blank()) {
                                                r.push(Row::default());
                                            }
                                        });
                                        publish();
                                    }>"×"</button>
                            })}
                        </td>
                    </tr>
                }
            })
            .collect_view()
    };
    // The paste box: read on the button (without JavaScript the button submits the form and
    // the server reads it).
    let paste = RwSignal::new(kept_paste.get_untracked().map(|k| k.0).unwrap_or_default());
    let read = move |ev: leptos::ev::MouseEvent| {
        ev.prevent_default();
        let gpus = ctx
            .query
            .with_untracked(|q| query::get(q, "replica"))
            .and_then(|g| servecost::codec::read_number(&decode(&g), false, false));
        match curve_editor::read_paste(&paste.get_untracked(), gpus) {
            Ok(p) => {
                let merged = rows.with_untracked(|r| curve_editor::merged(r, &p.rows));
                rows.set(merged);
                paste.set(String::new());
                paste_error.set(None);
                kept_paste.set(None);
                publish();
                let has_mix = ctx
                    .query
                    .with_untracked(|q| query::get(q, "curve_mix").is_some());
                if let Some(mix) = p.mix.filter(|_| !has_mix) {
                    on_change.run(("curve_mix", mix));
                }
            }
            Err(reason) => paste_error.set(Some(reason)),
        }
    };
    // ISL / OSL / cache hit: another way to give the mix, as benchmark tools report it.
    let isl = RwSignal::new(String::new());
    let osl = RwSignal::new(String::new());
    let hit = RwSignal::new(String::new());
    let lengths_error = move || {
        let (i, o, h) = (isl.get(), osl.get(), hit.get());
        let typed = !(i.trim().is_empty() && o.trim().is_empty() && h.trim().is_empty());
        (typed && curve_editor::mix_from_lengths(&i, &o, &h).is_none()).then(|| {
            "ISL must be a number of tokens from 0, OSL above 0, and the cache-hit rate from 0 to 1 (or 0 % to 100 %)".to_owned()
        })
    };
    let lengths = move || {
        if let Some(mix) = curve_editor::mix_from_lengths(
            &isl.get_untracked(),
            &osl.get_untracked(),
            &hit.get_untracked(),
        ) {
            on_change.run(("curve_mix", mix));
        }
    };
    let chips = ctx.data.with_value(|d| {
        let mut c: Vec<(String, String)> = d
            .chips
            .iter()
            .map(|c| (c.id.clone(), c.name.clone()))
            .collect();
        c.push((
            OTHER_CHIP.to_owned(),
            "Other (not in the dataset)".to_owned(),
        ));
        c
    });
    let chip = Signal::derive(move || chip_in_force(ctx).unwrap_or_default());
    let other = Memo::new(move |_| chip.get() == OTHER_CHIP);
    let chip_name = ctx.typed("chip_name");
    view! {
        <div class="benchmark" data-testid="benchmark">
            <p class="hint">"Your own measurements: each point is an output speed per user and the total throughput per GPU at that speed (input and output tokens together), as benchmark tools report them. The page interpolates between points; a target speed above the fastest point has no answer."</p>
            <table class="points">
                <caption>"Measured points"</caption>
                <thead><tr><th scope="col">"Output tokens/s per user"</th><th scope="col">"Total tokens/s per GPU"</th><th scope="col"><span class="visually-hidden">"Remove"</span></th></tr></thead>
                <tbody>{body}</tbody>
            </table>
            <small class="hint block">"Accepted: speeds from 0.1 to 10,000 tokens/s per user, throughputs from 0.001 to 1 B tokens/s per GPU (k, M, B accepted); blank rows are left out."</small>
            <small class="field-error block" role="alert" data-testid="error-points">{move || table_error.get()}</small>
            {move || live.get().then(|| view! {
                <button type="button" class="add" on:click=move |_| rows.update(|r| r.push(Row::default()))>"Add a row"</button>
            })}
            <div class="field">
                <label for="f-paste">"Paste rows or benchmark results"</label>
                <textarea id="f-paste" name="paste" rows="3" aria-describedby="f-paste-hint f-paste-error"
                    prop:value=move || paste.get() on:input=move |ev| paste.set(event_target_value(&ev))>{paste.get_untracked()}</textarea>
                <small id="f-paste-hint" class="hint">"Rows copied from a spreadsheet (speed, then throughput; tab, comma or semicolon separated), or the result JSON of vLLM's "<code>"vllm bench serve --save-result"</code>" (one object a run, or several): its total throughput is divided by GPUs per replica, its speed is 1000 / median_tpot_ms."</small>
                <small id="f-paste-error" class="field-error" role="alert" data-testid="error-paste">{move || paste_error.get()}</small>
                <button type="submit" class="read" formmethod="post" on:click=read>"Read the pasted text"</button>
            </div>
            <Param ctx name="curve_mix"
                label="Mix the points were measured at" unit="uncached input : cached input : output"
                explain="Parts in any scale, e.g. 8:0:1 for 8k-token prompts and 1k-token answers without a prefix cache."/>
            <fieldset class="lengths">
                <legend>"…or from the benchmark's lengths"</legend>
                <div class="field">
                    <label for="f-isl">"Input tokens per request (ISL)"</label>
                    <input id="f-isl" name="isl" type="text" inputmode="decimal" autocomplete="off" prop:value=move || isl.get()
                        on:input=move |ev| { isl.set(event_target_value(&ev)); lengths(); }/>
                </div>
                <div class="field">
                    <label for="f-osl">"Output tokens per request (OSL)"</label>
                    <input id="f-osl" name="osl" type="text" inputmode="decimal" autocomplete="off" prop:value=move || osl.get()
                        on:input=move |ev| { osl.set(event_target_value(&ev)); lengths(); }/>
                </div>
                <div class="field">
                    <label for="f-hit">"Cache-hit rate (fraction or %)"</label>
                    <input id="f-hit" name="hit" type="text" inputmode="decimal" autocomplete="off" prop:value=move || hit.get()
                        on:input=move |ev| { hit.set(event_target_value(&ev)); lengths(); }/>
                </div>
                <small class="hint">"These set the mix above: ISL × (1 − hit) uncached, ISL × hit cached, OSL output."</small>
                <small class="field-error block" role="alert" data-testid="error-lengths">{move || lengths_error()}</small>
            </fieldset>
            <Choice name="chip" label="Chip the points were measured on" options=chips value=chip on_change/>
            {move || other.get().then(|| view! {
                <div class="field">
                    <label for="f-chip_name">"Name of the chip"</label>
                    <input id="f-chip_name" name="chip_name" type="text" autocomplete="off" maxlength="60"
                        value=move || chip_name.get() prop:value=move || chip_name.get()
                        on:input=move |ev| on_change.run(("chip_name", event_target_value(&ev)))/>
                    <small class="hint">"Not in the dataset: give your GPU-hour price (or, owned, the chip's kW)."</small>
                </div>
            })}
            <Param ctx name="replica"
                explain="GPUs the benchmark ran one copy of the model on; a pasted result's throughput is divided by it."/>
        </div>
    }
}
