//! A labelled select bound to a query parameter.

use leptos::prelude::*;

/// A select for query parameter `name`.
#[component]
pub fn Choice(
    /// Query parameter the select sets.
    name: &'static str,
    /// Visible label.
    label: &'static str,
    /// `(value, label)` pairs.
    options: Vec<(String, String)>,
    /// The value selected.
    #[prop(into)]
    value: Signal<String>,
    /// Called with the new value.
    on_change: Callback<(&'static str, String)>,
    /// A line under the select.
    #[prop(optional)]
    hint: Option<String>,
) -> impl IntoView {
    let id = format!("f-{name}");
    let options = options
        .into_iter()
        .map(|(v, l)| {
            let selected = {
                let v = v.clone();
                move || value.get() == v
            };
            view! { <option value=v selected=selected>{l}</option> }
        })
        .collect_view();
    view! {
        <div class="field">
            <label for=id.clone()>{label}</label>
            <select
                id=id
                name=name
                prop:value=move || value.get()
                on:change=move |ev| on_change.run((name, event_target_value(&ev)))
            >
                {options}
            </select>
            {hint.map(|h| view! { <small class="hint">{h}</small> })}
        </div>
    }
}
