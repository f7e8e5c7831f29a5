//! One labelled text input bound to a query parameter, with its unit, range and error.

use leptos::prelude::*;
use servecost::codec::spec;

use crate::query::Outcome;

/// A numeric input for query parameter `name`.
#[component]
pub fn Field(
    /// Query parameter the field sets.
    name: &'static str,
    /// The text in the field.
    #[prop(into)]
    value: Signal<String>,
    /// The current outcome, for this field's error.
    outcome: Memo<Outcome>,
    /// Called with the new text on every edit.
    on_change: Callback<(&'static str, String)>,
    /// Label, for parameters without a numeric spec.
    #[prop(optional)]
    label: Option<&'static str>,
    /// Unit, for parameters without a numeric spec.
    #[prop(optional)]
    unit: Option<&'static str>,
    /// A line of explanation under the field.
    #[prop(optional)]
    explain: Option<&'static str>,
    /// Whether to say servecost's assumption for it: its default as people read it, from the
    /// parameter's definition.
    #[prop(optional)]
    assumed: bool,
    /// Shown in the empty field: the value in force when the field is left blank.
    #[prop(optional, into)]
    placeholder: Option<Signal<String>>,
) -> impl IntoView {
    let s = spec(name);
    let label = label.or(s.map(|s| s.label)).unwrap_or(name);
    let unit = unit.or(s.map(|s| s.unit)).unwrap_or("");
    let hint = s.map(|s| {
        let suffix = if s.suffixes {
            "; k, M, B, T accepted"
        } else {
            ""
        };
        format!("{}{suffix}", s.bounds_text())
    });
    let assumption = assumed
        .then(|| {
            servecost::in_force::default_shown(name)
                .or_else(|| servecost::in_force::default_words(name).map(str::to_owned))
        })
        .flatten()
        .map(|d| format!("Assumption: {d}."));
    // A rate reads a year and a month, whichever way it was typed.
    let both = s.filter(|s| s.rate).and_then(|s| match s.slot {
        Some(servecost::codec::Slot::Value { get, .. }) => Some(get),
        _ => None,
    });
    let both = both.map(|get| move || outcome.with(|o| get(&o.scenario)));
    let id = format!("f-{name}");
    let hint_id = format!("{id}-hint");
    let error_id = format!("{id}-error");
    let error = Memo::new(move |_| {
        outcome.with(|o| {
            // A value that cannot be read, or one that leaves the inputs without an answer.
            o.all_problems()
                .find(|p| p.param == name)
                .map(|p| p.reason.clone())
        })
    });
    view! {
        <div class="field" class:invalid=move || error.get().is_some()>
            <label for=id.clone()>{label} " " <span class="unit">"(" {unit} ")"</span></label>
            <input
                id=id
                name=name
                type="text"
                inputmode="decimal"
                autocomplete="off"
                // The attribute is what the server renders; the property keeps the live field in step.
                value=move || value.get()
                prop:value=move || value.get()
                placeholder=move || placeholder.map(|p| p.get())
                aria-describedby=format!("{hint_id} {error_id}")
                aria-invalid=move || if error.get().is_some() { "true" } else { "false" }
                on:input=move |ev| on_change.run((name, event_target_value(&ev)))
            />
            <small id=hint_id class="hint">
                {explain.map(|e| view! { <span class="explain">{e}</span> " " })}
                {assumption.map(|a| view! { <span class="explain">{a}</span> " " })}
                {both.map(|v| view! {
                    <span class="explain" data-testid=format!("rate-{name}")>
                        // While the field holds a value it cannot read, the figures shown are
                        // the last ones it could: no "now" that contradicts them.
                        {move || error.get().is_none().then(|| format!("Now: {}.", servecost::in_force::rate(v())))}
                    </span> " "
                })}
                {hint.map(|h| format!("Accepted: {h}."))}
            </small>
            <small id=error_id class="field-error" role="alert" data-testid=format!("error-{name}")>
                {move || error.get()}
            </small>
        </div>
    }
}
