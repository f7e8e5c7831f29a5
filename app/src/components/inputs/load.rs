//! The load over the week: a preset, peak hours at a multiple of the average, or the user's own
//! 24 or 168 weights, drawn against the capacity the fleet holds for it.

use leptos::prelude::*;
use servecost::profile::ProfilePreset;

use crate::charts::{sparkline, Week};
use crate::components::inputs::Ctx;
use crate::components::Choice;
use crate::load_editor::{profile_text, CUSTOM, PEAK, PEAK_DEFAULTS};

/// What the editor's fields hold: as the link gives them, else blank (their defaults show as
/// placeholders).
#[derive(Clone, Copy)]
struct Editor {
    factor: RwSignal<String>,
    from: RwSignal<String>,
    to: RwSignal<String>,
    weekdays: RwSignal<bool>,
    weights: RwSignal<String>,
}

impl Editor {
    /// The fields for the link's `profile` as typed (`text`), read even where the codec refuses
    /// it (a factor the week cannot hold stays in its field, with the reason beside it).
    fn new(text: &str) -> Self {
        let text = text.trim();
        let choice = choice_of(text);
        let (factor, from, to, weekdays) = if choice == PEAK {
            let parts: Vec<&str> = text.trim_start_matches("peak:").split(':').collect();
            let (from, to) = parts
                .get(1)
                .and_then(|h| h.split_once('-'))
                .unwrap_or_default();
            (
                parts.first().copied().unwrap_or_default().to_owned(),
                from.to_owned(),
                to.to_owned(),
                parts.get(2) == Some(&"weekdays"),
            )
        } else {
            (String::new(), String::new(), String::new(), true)
        };
        let weights = if choice == CUSTOM {
            text.replace(',', ", ")
        } else {
            String::new()
        };
        Self {
            factor: RwSignal::new(factor),
            from: RwSignal::new(from),
            to: RwSignal::new(to),
            weekdays: RwSignal::new(weekdays),
            weights: RwSignal::new(weights),
        }
    }

    /// The link's profile for `choice` from the fields as they are now.
    fn text(self, choice: &str) -> Option<String> {
        profile_text(choice, |name| {
            Some(match name {
                "peak_factor" => self.factor.get_untracked(),
                "peak_from" => self.from.get_untracked(),
                "peak_to" => self.to.get_untracked(),
                "peak_weekdays" => if self.weekdays.get_untracked() {
                    "on"
                } else {
                    ""
                }
                .to_owned(),
                "profile_weights" => self.weights.get_untracked(),
                _ => return None,
            })
        })
    }
}

/// The select's value for the link's `profile` as typed: peak hours, weights, or a preset
/// (the default's when the link leaves it out).
fn choice_of(text: &str) -> String {
    let text = text.trim();
    if text.starts_with("peak:") {
        PEAK.to_owned()
    } else if text.is_empty() {
        ProfilePreset::Business.key().to_owned()
    } else if ProfilePreset::from_key(text).is_some() {
        text.to_owned()
    } else {
        CUSTOM.to_owned()
    }
}

/// The load over the week, its editor, and its shape drawn against the capacity held for it.
pub(super) fn load_profile(ctx: Ctx) -> impl IntoView {
    // The link's own text, so that a value the codec refuses stays on screen with its reason.
    let typed = ctx.typed("profile");
    let editor = Editor::new(&typed.get_untracked());
    let editing = matches!(choice_of(&typed.get_untracked()).as_str(), PEAK | CUSTOM);
    let choice = Signal::derive(move || choice_of(&typed.get()));
    let profiles: Vec<(String, String)> = vec![
        ("business".into(), "Business hours (weekdays 08–18)".into()),
        ("flat".into(), "Flat (every hour the same)".into()),
        ("diurnal".into(), "Diurnal (daily swing)".into()),
        (PEAK.into(), "Peak hours (set below)".into()),
        (CUSTOM.into(), "Your own weights (below)".into()),
    ];
    // The editor's shapes take the fields as they are; a preset goes in the link as it is. Your
    // own weights start from the week in force when the box is empty.
    let on_choice = Callback::new(move |(name, value): (&'static str, String)| {
        if value == CUSTOM && editor.weights.with_untracked(|w| w.trim().is_empty()) {
            let now = ctx.report.with_untracked(|r| {
                r.as_ref().map(|r| {
                    r.inputs
                        .profile_weights
                        .iter()
                        .map(|w| servecost::codec::write_significant(*w, 3, false))
                        .collect::<Vec<_>>()
                        .join(", ")
                })
            });
            editor.weights.set(now.unwrap_or_default());
        }
        let text = editor.text(&value).unwrap_or(value);
        ctx.on_change.run((name, text));
    });
    // Typing in the editor sets the shape it edits.
    let edit = move |shape: &'static str| {
        if let Some(text) = editor.text(shape) {
            ctx.on_change.run(("profile", text));
        }
    };
    let error = Memo::new(move |_| {
        ctx.outcome.with(|o| {
            o.all_problems()
                .find(|p| p.param == "profile")
                .map(|p| p.reason.clone())
        })
    });
    let (factor, from, to) = PEAK_DEFAULTS;
    let edit_peak = Callback::new(move |()| edit(PEAK));
    view! {
        <Choice name="profile" label="Load over the week" options=profiles value=choice on_change=on_choice/>
        {move || week_chart(ctx)}
        <details class="load-editor" open=editing data-testid="load-editor">
            <summary>"Set the shape by hand"</summary>
            <p class="hint">"Peak hours: the busiest hours' load as a multiple of the week's average, from the first hour up to (not including) the last, UTC, the rest of the load spread evenly over the other hours; a window past midnight (22 to 6) runs each night of the days it starts and ends on. Or paste 24 weights (a day, repeated) or 168 (a week from Monday 00:00), any scale, one a line or separated by commas, spaces or tabs. Choose the matching entry in “Load over the week” (with JavaScript, typing here chooses it)."</p>
            <div class="field-row">
                {text_field("peak_factor", "Peak, times the average", factor, "decimal", editor.factor, edit_peak)}
                {text_field("peak_from", "From hour", from, "numeric", editor.from, edit_peak)}
                {text_field("peak_to", "To hour", to, "numeric", editor.to, edit_peak)}
            </div>
            <label class="check">
                <input name="peak_weekdays" type="checkbox" value="on" prop:checked=move || editor.weekdays.get()
                    checked=editor.weekdays.get_untracked()
                    on:change=move |ev| { editor.weekdays.set(event_target_checked(&ev)); edit(PEAK); }/>
                " Weekdays only (Monday to Friday)"
            </label>
            <div class="field">
                <label for="f-profile_weights">"Your weights"</label>
                <textarea id="f-profile_weights" name="profile_weights" rows="4" autocomplete="off"
                    prop:value=move || editor.weights.get()
                    on:input=move |ev| { editor.weights.set(event_target_value(&ev)); edit(CUSTOM); }>
                    {crate::textarea_text(&editor.weights.get_untracked())}
                </textarea>
            </div>
            <small class="field-error block" role="alert" data-testid="error-profile">{move || error.get()}</small>
        </details>
    }
}

/// One of the editor's text fields: its value kept in `value`, each edit passed to `on_input`
/// (one function for the three fields, so the bundle carries its view once).
fn text_field(
    name: &'static str,
    label: &'static str,
    placeholder: &'static str,
    mode: &'static str,
    value: RwSignal<String>,
    on_input: Callback<()>,
) -> impl IntoView {
    let id = format!("f-{name}");
    view! {
        <div class="field">
            <label for=id.clone()>{label}</label>
            <input id=id name=name type="text" inputmode=mode autocomplete="off"
                placeholder=placeholder value=value.get_untracked() prop:value=move || value.get()
                on:input=move |ev| { value.set(event_target_value(&ev)); on_input.run(()); }/>
        </div>
    }
}

/// The week's chart and its sentence: the load, the batch work in its quiet hours and, for a
/// fixed fleet, the capacity held (GPUs paid for over GPUs busy on average).
fn week_chart(ctx: Ctx) -> Option<impl IntoView> {
    let hourly = ctx
        .outcome
        .with(|o| o.scenario.scaling == servecost::fleet::Scaling::Hourly);
    ctx.report.with(|r| {
        let r = r.as_ref()?;
        let own = &r.self_host;
        let weights = &r.inputs.profile_weights;
        let batch = r
            .batch
            .filter(|b| own.busy_gpu_hours > 0.0 && b.gpu_hours > 0.0)
            .map(|b| (b, (b.gpu_hours / own.busy_gpu_hours).clamp(0.0, 1.0)));
        let share = batch.map_or(0.0, |(_, s)| s);
        let load: Vec<f64> = weights.iter().map(|w| w * (1.0 - share)).collect();
        let served = batch.map(|(_, s)| servecost::batch::fill(weights, s));
        let capacity = (!hourly && own.busy_gpu_hours > 0.0)
            .then(|| own.provisioned_gpu_hours / own.busy_gpu_hours);
        let svg = sparkline(&Week {
            load: &load,
            served: served.as_deref(),
            capacity,
        });
        let x = |v: f64| crate::format::significant(v, 3);
        let mut text = format!("Peak hour: {}× the average.", x(r.inputs.profile_peak));
        match capacity {
            Some(c) => text.push_str(&format!(
                " The fleet holds {}× the average hour's work (the level line: GPUs paid for over GPUs busy).",
                x(c)
            )),
            None => text.push_str(" Hourly scaling follows the hours: no fixed capacity is held."),
        }
        if let Some((b, _)) = batch {
            text.push_str(&format!(
                " Batch work (dashed) fills {} of the capacity a fleet for the other traffic leaves free up to the target utilisation.",
                servecost::format::percent_share(b.absorbed_share())
            ));
        }
        Some(view! {
            <div class="spark" data-testid="load-week">
                <span inner_html=svg></span>
                <small class="hint">{text}</small>
            </div>
        })
    })
}
