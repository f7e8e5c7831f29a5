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
) -> impl IntoView {
    let s = spec(name);
    let label = s.map_or(name, |s| s.label);
    let unit = s.map_or("", |s| s.unit);
    let hint = s.map(|s| {
        let suffix = if s.suffixes {
            "; k, M, B, T accepted"
        } else {
            ""
        };
        let show = |v: f64| {
            if s.suffixes {
                crate::format::tokens(v)
            } else {
                crate::format::number(v)
            }
        };
        format!("{} to {}{suffix}", show(s.min), show(s.max))
    });
    let id = format!("f-{name}");
    let hint_id = format!("{id}-hint");
    let error_id = format!("{id}-error");
    let error = Memo::new(move |_| {
        outcome.with(|o| {
            o.problems
                .iter()
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
                aria-describedby=format!("{hint_id} {error_id}")
                aria-invalid=move || if error.get().is_some() { "true" } else { "false" }
                on:input=move |ev| on_change.run((name, event_target_value(&ev)))
            />
            <small id=hint_id class="hint">{hint}</small>
            <small id=error_id class="field-error" role="alert" data-testid=format!("error-{name}")>
                {move || error.get()}
            </small>
        </div>
    }
}
