//! "Your benchmark": an editable table of measured points, the mix they were measured at, the
//! chip and GPUs per replica, and a box to paste spreadsheet rows or vLLM benchmark results.
//!
//! Without JavaScript every cell is a form field (`pt_tps`, `pt_tput`) that the page turns into
//! the link's `points` ([`crate::form::from_form`]); with it, every edit updates the link and
//! the answer at once.

use leptos::prelude::*;
use servecost::codec::{decode, spec, NumSpec, OTHER_CHIP, POINT_THROUGHPUT};

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
            .or_else(|| d.default_curve(&model).map(|c| c.chip.clone()))
    })
}

/// The benchmark editor: the table of points, the paste box, the mix, the chip and GPUs per
/// replica.
#[component]
pub fn Benchmark(
    /// What the sections share.
    ctx: Ctx,
    /// Pasted text a form submitted without JavaScript could not read, with the reason.
    kept_paste: RwSignal<Option<(String, String)>>,
) -> impl IntoView {
    let table = Points::new(ctx, kept_paste);
    view! {
        <div class="benchmark" data-testid="benchmark">
            <p class="hint">"Your own measurements: each point is an output speed per user and the total throughput per GPU at that speed (input and output tokens together), as benchmark tools report them. The page interpolates between points; a target speed above the fastest point has no answer."</p>
            {points_table(table)}
            {paste_box(table, kept_paste)}
            <Param ctx name="curve_mix"
                label="Mix the points were measured at" unit="uncached input : cached input : output"
                explain="Parts in any scale, e.g. 8:0:1 for 8k-token prompts and 1k-token answers without a prefix cache."/>
            {lengths(ctx)}
            {chip_choice(ctx)}
            <Param ctx name="replica"
                explain="GPUs the benchmark ran one copy of the model on; a pasted result's throughput is divided by it."/>
        </div>
    }
}

/// The table's rows and what changes them: each change writes the link's `points`.
#[derive(Clone, Copy)]
struct Points {
    ctx: Ctx,
    rows: RwSignal<Vec<Row>>,
    /// Why the last paste could not be read.
    paste_error: RwSignal<Option<String>>,
    /// True once the page is live: buttons that only JavaScript can work are shown then.
    live: RwSignal<bool>,
}

impl Points {
    fn new(ctx: Ctx, kept_paste: RwSignal<Option<(String, String)>>) -> Self {
        let points = move || {
            ctx.query
                .with(|q| query::get(q, "points"))
                .map(|p| decode(&p))
        };
        let rows = RwSignal::new(curve_editor::rows_for(points().as_deref()));
        // A link followed on the page (or a paste read) replaces the table; typing does not,
        // since the table then already makes the link's points.
        Effect::new(move |_| {
            let p = points().unwrap_or_default();
            if rows.with_untracked(|r| curve_editor::points_text(r)) != p {
                rows.set(curve_editor::rows_for(Some(&p)));
            }
        });
        let live = RwSignal::new(false);
        Effect::new(move |_| live.set(true));
        Self {
            ctx,
            rows,
            paste_error: RwSignal::new(kept_paste.get_untracked().map(|k| k.1)),
            live,
        }
    }

    fn publish(self) {
        let text = self.rows.with_untracked(|r| curve_editor::points_text(r));
        self.ctx.on_change.run(("points", text));
    }

    /// Row `i`'s speed (or throughput) typed as `text`; a blank row follows the last.
    fn edit(self, i: usize, speed: bool, text: String) {
        self.rows.update(|r| {
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
        self.publish();
    }

    /// Rows from a spreadsheet pasted into any cell fill the table from that row on; one figure
    /// pastes as usual.
    fn paste_rows(self, i: usize, ev: leptos::ev::ClipboardEvent) {
        let Some(text) = crate::browser::pasted_text(&ev).filter(|t| curve_editor::is_rows(t))
        else {
            return;
        };
        ev.prevent_default();
        match self
            .rows
            .with_untracked(|r| curve_editor::filled_from(r, i, &text))
        {
            Ok(filled) => {
                self.rows.set(filled);
                self.publish();
            }
            Err(reason) => self.paste_error.set(Some(reason)),
        }
    }

    fn remove(self, i: usize) {
        self.rows.update(|r| {
            if i < r.len() {
                r.remove(i);
            }
            if r.last().is_none_or(|l| !l.is_blank()) {
                r.push(Row::default());
            }
        });
        self.publish();
    }

    /// Row `i`'s speed (or throughput) as typed.
    fn cell(self, i: usize, speed: bool) -> String {
        self.rows.with(|r| {
            r.get(i)
                .map(|row| {
                    if speed {
                        row.tps.clone()
                    } else {
                        row.tput.clone()
                    }
                })
                .unwrap_or_default()
        })
    }

    /// What is wrong with row `i`'s speed (or throughput), unless the row is blank.
    fn problem(self, i: usize, speed: bool) -> Option<String> {
        self.rows.with(|r| {
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
    }
}

/// The table of measured points, its accepted values and the codec's message about it.
fn points_table(p: Points) -> impl IntoView {
    // The codec's message about the whole table, unless a cell already says what is wrong.
    let table_error = Memo::new(move |_| {
        if p.rows.with(|r| curve_editor::has_problem(r)) {
            return None;
        }
        p.ctx.outcome.with(|o| {
            o.all_problems()
                .find(|pr| pr.param == "points")
                .map(|pr| pr.reason.clone())
        })
    });
    // The rows are rebuilt only when their number changes: typing keeps the focus in its cell.
    let count = Memo::new(move |_| p.rows.with(Vec::len));
    let body = move || (0..count.get()).map(|i| point_row(p, i)).collect_view();
    let accepted = format!(
        "Accepted: speeds {} tokens/s per user, throughputs {} tokens/s per GPU (k, M, B, T accepted); blank rows are left out.",
        spec("tps").map(NumSpec::bounds_text).unwrap_or_default(),
        POINT_THROUGHPUT.bounds_text()
    );
    view! {
        <table class="points">
            <caption>"Measured points"</caption>
            <thead><tr><th scope="col">"Output tokens/s per user"</th><th scope="col">"Total tokens/s per GPU"</th><th scope="col"><span class="visually-hidden">"Remove"</span></th></tr></thead>
            <tbody>{body}</tbody>
        </table>
        <small class="hint block">{accepted}</small>
        <small class="field-error block" role="alert" data-testid="error-points">{move || table_error.get()}</small>
        {move || p.live.get().then(|| view! {
            <button type="button" class="add" on:click=move |_| p.rows.update(|r| r.push(Row::default()))>"Add a row"</button>
        })}
    }
}

/// Row `i` of the table: its two cells and, once the page is live, its remove button.
fn point_row(p: Points, i: usize) -> impl IntoView {
    let id = move |what: &str| format!("pt-{what}-{i}");
    let cell = move |speed: bool, name: &'static str, what: &'static str, label: &'static str| {
        view! {
            <td>
                <input type="text" inputmode="decimal" autocomplete="off" name=name id=id(what)
                    aria-label=format!("Point {}: {label}", i + 1)
                    aria-invalid=move || if p.problem(i, speed).is_some() { "true" } else { "false" }
                    aria-describedby=id(&format!("{what}-error"))
                    value=move || p.cell(i, speed) prop:value=move || p.cell(i, speed)
                    on:input=move |ev| p.edit(i, speed, event_target_value(&ev))
                    on:paste=move |ev| p.paste_rows(i, ev)/>
                <small class="field-error" role="alert" id=id(&format!("{what}-error")) data-testid=format!("error-pt-{what}-{i}")>{move || p.problem(i, speed)}</small>
            </td>
        }
    };
    view! {
        <tr>
            {cell(true, "pt_tps", "tps", "output tokens/s per user")}
            {cell(false, "pt_tput", "tput", "total tokens/s per GPU")}
            <td>
                {move || p.live.get().then(|| view! {
                    <button type="button" class="remove" aria-label=format!("Remove point {}", i + 1) title="Remove this point"
                        on:click=move |_| p.remove(i)>"×"</button>
                })}
            </td>
        </tr>
    }
}

/// The paste box: read on the button (without JavaScript the button submits the form and the
/// server reads it).
fn paste_box(p: Points, kept_paste: RwSignal<Option<(String, String)>>) -> impl IntoView {
    let ctx = p.ctx;
    let paste = RwSignal::new(kept_paste.get_untracked().map(|k| k.0).unwrap_or_default());
    // What the last paste read, said beside the box.
    let said = RwSignal::new(ctx.paste_read.get_value());
    let read = move |ev: leptos::ev::MouseEvent| {
        ev.prevent_default();
        let gpus = ctx
            .query
            .with_untracked(|q| query::get(q, "replica"))
            .and_then(|g| servecost::codec::read_number(&decode(&g), false, false));
        match curve_editor::read_paste(&paste.get_untracked(), gpus) {
            Ok(read) => {
                // Benchmark results are a whole measurement: they replace the rows and the
                // mix; spreadsheet rows are added to the rows there.
                let merged = p.rows.with_untracked(|r| {
                    curve_editor::merged(if read.results { &[] } else { r }, &read.rows)
                });
                p.rows.set(merged);
                paste.set(String::new());
                p.paste_error.set(None);
                kept_paste.set(None);
                said.set(Some(curve_editor::read_words(&read)));
                p.publish();
                let has_mix = ctx
                    .query
                    .with_untracked(|q| query::get(q, "curve_mix").is_some());
                if let Some(mix) = read.mix.filter(|_| read.results || !has_mix) {
                    ctx.on_change.run(("curve_mix", mix));
                }
            }
            Err(reason) => {
                said.set(None);
                p.paste_error.set(Some(reason));
            }
        }
    };
    view! {
        <div class="field">
            <label for="f-paste">"Paste rows or benchmark results"</label>
            <textarea id="f-paste" name="paste" rows="3" aria-describedby="f-paste-hint f-paste-error"
                prop:value=move || paste.get() on:input=move |ev| paste.set(event_target_value(&ev))>{crate::textarea_text(&paste.get_untracked())}</textarea>
            <small id="f-paste-hint" class="hint">"Rows copied from a spreadsheet (speed, then throughput; tab, comma or semicolon separated), or the result JSON of vLLM's "<code>"vllm bench serve --save-result"</code>" or SGLang's "<code>"bench_serving --output-file"</code>" (one object a run, or several; they replace the rows and the mix): its total throughput is divided by GPUs per replica, its speed is 1000 / median_tpot_ms."</small>
            <small id="f-paste-error" class="field-error" role="alert" data-testid="error-paste">{move || p.paste_error.get()}</small>
            <small class="hint" role="status" data-testid="paste-read">{move || said.get()}</small>
            <button type="submit" class="read" formmethod="post" on:click=read>"Read the pasted text"</button>
        </div>
    }
}

/// ISL / OSL / cache hit: another way to give the mix, as benchmark tools report it.
fn lengths(ctx: Ctx) -> impl IntoView {
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
    let set_mix = move || {
        if let Some(mix) = curve_editor::mix_from_lengths(
            &isl.get_untracked(),
            &osl.get_untracked(),
            &hit.get_untracked(),
        ) {
            ctx.on_change.run(("curve_mix", mix));
        }
    };
    let field = move |id: &'static str, label: &'static str, value: RwSignal<String>| {
        view! {
            <div class="field">
                <label for=format!("f-{id}")>{label}</label>
                <input id=format!("f-{id}") name=id type="text" inputmode="decimal" autocomplete="off" prop:value=move || value.get()
                    on:input=move |ev| { value.set(event_target_value(&ev)); set_mix(); }/>
            </div>
        }
    };
    view! {
        <fieldset class="lengths">
            <legend>"…or from the benchmark's lengths"</legend>
            {field("isl", "Input tokens per request (ISL)", isl)}
            {field("osl", "Output tokens per request (OSL)", osl)}
            {field("hit", "Cache-hit rate (fraction or %)", hit)}
            <small class="hint">"These set the mix above: ISL × (1 − hit) uncached, ISL × hit cached, OSL output."</small>
            <small class="field-error block" role="alert" data-testid="error-lengths">{move || lengths_error()}</small>
        </fieldset>
    }
}

/// The chip the points were measured on, and a name for one not in the dataset.
fn chip_choice(ctx: Ctx) -> impl IntoView {
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
    let on_change = ctx.on_change;
    view! {
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
    }
}
