//! Workload inputs: the three forms (requests × shape, total + mix, three totals), presets, the
//! interactivity target with the published operating points, and the weekly load profile.

use leptos::prelude::*;
use servecost::codec::forms::{MIX, SHAPE, TOTALS};
use servecost::codec::{write_number, write_rounded};
use servecost::workload::{Preset, Workload};

use crate::components::inputs::{Ctx, Param};
use crate::components::Choice;

/// What was typed in one form of the workload: its key and its parameters.
type Typed = (&'static str, Vec<(String, String)>);

/// The workload section.
#[component]
pub fn WorkloadInputs(
    /// What the sections share.
    ctx: Ctx,
) -> impl IntoView {
    let form = Memo::new(move |_| {
        ctx.outcome.with(|o| match o.scenario.workload {
            Workload::Requests { .. } => "requests",
            Workload::Mix { .. } => "tokens",
            Workload::Totals { .. } => "totals",
        })
    });
    view! {
        <fieldset>
            <legend>"Workload"</legend>
            <nav class="tabs" aria-label="How to give the workload">{form_tabs(ctx, form)}</nav>
            {form_fields(ctx, form)}
            <Param ctx name="tps"
                explain="The output speed each user must see. Default: the API offer's measured speed where its source states one, else servecost's assumption, the curve's slowest measured point. Faster than the default curve reaches, self-hosting is priced on the cheapest curve that does."/>
            <div class="marks" aria-label="Published operating points, tokens/s per user">{operating_points(ctx)}</div>
            <Param ctx name="batch"
                explain="Tokens sent without anyone waiting (overnight jobs, evaluations): priced at the API's batch discount, and served by your own fleet at its most efficient speed in the hours the other traffic leaves idle."/>
            {super::load::load_profile(ctx)}
            {usage_import(ctx)}
        </fieldset>
    }
}

/// The links to the workload's three forms, each filled from the volumes in force (or from
/// what was typed in it before).
fn form_tabs(ctx: Ctx, form: Memo<&'static str>) -> impl IntoView {
    // The three links are built once; only their targets and the current one follow the inputs.
    let volumes = Memo::new(move |_| {
        ctx.report
            .with(|r| r.as_ref().map(|r| r.inputs.volumes))
            .unwrap_or_default()
    });
    // What was typed in each form, so that going back to a tab gives it back (in the browser;
    // a page without JavaScript starts each tab from the volumes in force).
    let typed: StoredValue<Vec<Typed>> = StoredValue::new(Vec::new());
    Effect::new(move |_| {
        let key = form.get();
        let params: &[&str] = match key {
            "requests" => &SHAPE,
            "tokens" => &MIX,
            _ => &TOTALS,
        };
        let values: Vec<(String, String)> = ctx.query.with(|q| {
            params
                .iter()
                .filter_map(|p| {
                    crate::query::get(q, p).map(|v| ((*p).to_owned(), servecost::codec::decode(&v)))
                })
                .collect()
        });
        typed.update_value(|t| {
            t.retain(|(k, _)| *k != key);
            if !values.is_empty() {
                t.push((key, values));
            }
        });
    });
    let target = move |key: &str| {
        let v = volumes.get();
        let all: Vec<&str> = SHAPE.iter().chain(&MIX).chain(&TOTALS).copied().collect();
        let kept = typed.with_value(|t| t.iter().find(|(k, _)| *k == key).map(|(_, v)| v.clone()));
        if let Some(kept) = kept.filter(|_| form.get_untracked() != key) {
            let set: Vec<(&str, &str)> =
                kept.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            return ctx.link(&set, &all);
        }
        // Rounded for people: a mix derived by arithmetic never pre-fills `810.0000000000007M`.
        let n = |x: f64| write_rounded(x, true);
        match key {
            "requests" => ctx.link(&[], &all),
            "tokens" => {
                // The mix as percentages of the total, four significant digits each.
                let total = v.total();
                let mix = [v.uncached, v.cached, v.output]
                    .map(|x| {
                        write_rounded(if total > 0.0 { 100.0 * x / total } else { 0.0 }, false)
                    })
                    .join(":");
                ctx.link(&[("tokens", &n(v.total())), ("mix", &mix)], &all)
            }
            _ => ctx.link(
                &[
                    ("input", &n(v.uncached)),
                    ("cached", &n(v.cached)),
                    ("output", &n(v.output)),
                ],
                &all,
            ),
        }
    };
    [
        ("requests", "Requests × shape"),
        ("tokens", "Total + mix"),
        ("totals", "Three totals (invoice)"),
    ]
    .into_iter()
    .map(|(key, label)| {
        let current = move || form.get() == key;
        view! {
            <a href=move || target(key) class="tab" class:current=current
                aria-current=move || if current() { "true" } else { "false" }>{label}</a>
        }
    })
    .collect_view()
}

/// The fields of the workload's form in use.
fn form_fields(ctx: Ctx, form: Memo<&'static str>) -> impl IntoView {
    let on_change = ctx.on_change;
    let presets: Vec<(String, String)> = Preset::ALL
        .iter()
        .map(|p| (p.key().to_owned(), p.label().to_owned()))
        .collect();
    move || {
        match form.get() {
        "requests" => view! {
            <Choice name="workload" label="Per-request shape (preset)" options=presets.clone() value=ctx.text("workload") on_change/>
            <Param ctx name="requests"/>
            <Param ctx name="input_per_request"/>
            <Param ctx name="cache_hit"/>
            <Param ctx name="output_per_request"/>
        }.into_any(),
        "tokens" => view! {
            <Param ctx name="tokens"/>
            <Param ctx name="mix"
                label="Mix" unit="uncached input : cached input : output"
                explain="Parts in any scale, e.g. 2:7:1 (the published 7:2:1 blend is 7 cached : 2 uncached : 1 output)."/>
        }.into_any(),
        _ => view! {
            <Param ctx name="input"/>
            <Param ctx name="cached"/>
            <Param ctx name="output"/>
        }.into_any(),
    }
    }
}

/// The published operating points of the model's curves and API offers, each a link to its
/// speed.
fn operating_points(ctx: Ctx) -> impl IntoView {
    let marks = Memo::new(move |_| {
        let data = ctx.data.get_value();
        let model = ctx.model();
        // The points of the curve in force: a model with many curves would offer speeds
        // another curve measured, which this one may not reach.
        let curve = ctx
            .report
            .with(|r| r.as_ref().map(|r| r.inputs.curve.clone()));
        let mut marks: Vec<(f64, String)> = data
            .curves_of(&model)
            .filter(|c| curve.as_deref().is_none_or(|id| id == c.id))
            .flat_map(|c| c.points.iter().map(|p| (p.tps, c.source.clone())))
            .collect();
        let api: Vec<(f64, String)> = data
            .api_offers
            .iter()
            .filter(|o| o.model == model)
            .filter_map(|o| {
                o.speed_tps
                    .map(|s| (s, format!("{} (API speed)", o.source)))
            })
            .collect();
        marks.extend(api);
        marks.sort_by(|a, b| a.0.total_cmp(&b.0));
        marks.dedup_by(|a, b| a.0 == b.0);
        marks
    });
    move || {
        marks
            .get()
            .into_iter()
            .map(|(tps, source)| {
                // The speed as shown, four significant digits: a measured point to more is noise.
                let shown = servecost::format::round_significant(tps, 4);
                let text = crate::format::significant(shown, 4);
                let value = write_number(shown, false);
                let href = move || ctx.link(&[("tps", &value)], &[]);
                let api = source.ends_with("(API speed)");
                view! {
                    <a href=href class="chip-link" class:api=api title=format!("Published operating point ({source})")>
                        {text} {api.then_some(" API")}
                    </a>
                }
            })
            .collect_view()
    }
}

/// A provider's usage export, pasted or uploaded. Its fields belong to the form `usage-form`
/// (beside the inputs' own), which posts it to the server with the current link; the server
/// answers with the link of the export's workload, or back here with the reason.
fn usage_import(ctx: Ctx) -> impl IntoView {
    let kept = ctx.kept_usage.get_value();
    let read = ctx.usage_read.get_value();
    let open = kept.is_some() || read.is_some();
    let (model, error) = kept.map_or((String::new(), None), |(m, e)| (m, Some(e)));
    view! {
        <details class="usage" open=open data-testid="usage-import">
            <summary>"From your provider's usage export"</summary>
            {read.map(|r| view! {
                <p class="usage-read" role="status" data-testid="usage-read"><strong>"Read: "</strong>{r}</p>
            })}
            <p class="hint">"OpenAI's or Anthropic's usage export (JSON), or a CSV with a time column and uncached input, cached input and output columns. Its totals become the monthly volumes and its busiest hours the load the fleet is sized for. The export is read and forgotten: it never goes in the page's address, and only the link keeps what it measured (after an error, paste or choose it again)."</p>
            <div class="field">
                <label for="f-usage">"Paste the export"</label>
                <textarea id="f-usage" name="usage" form="usage-form" rows="3" aria-describedby="f-usage-error"></textarea>
            </div>
            <div class="field">
                <label for="f-usage-file">"…or choose its file"</label>
                <input id="f-usage-file" name="usage_file" type="file" form="usage-form"
                    accept=".json,.csv,.txt,application/json,text/csv"/>
            </div>
            <div class="field">
                <label for="f-usage-model">"Model, when the export holds several"</label>
                <input id="f-usage-model" name="usage_model" type="text" form="usage-form" autocomplete="off" value=model/>
            </div>
            <small id="f-usage-error" class="field-error block" role="alert" data-testid="error-usage">{error}</small>
            <button type="submit" form="usage-form" class="read">"Read the export"</button>
        </details>
    }
}
