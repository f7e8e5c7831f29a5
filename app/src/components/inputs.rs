//! The inputs: a plain GET form (it works without JavaScript) whose fields update the page live
//! once hydrated.

use leptos::prelude::*;
use servecost::codec::{decode, write_number};
use servecost::Report;

use crate::components::Field;
use crate::query::{self, Outcome};

/// The fields shown, and every other parameter of the link carried along as hidden fields.
#[component]
pub fn Inputs(
    /// The query string.
    query: Signal<String>,
    /// The report on screen, for values the dataset supplied.
    report: Memo<Option<Report>>,
    /// The current outcome, for field errors.
    outcome: Memo<Outcome>,
    /// Called with a parameter and its new text.
    #[prop(into)]
    on_change: Callback<(&'static str, String)>,
) -> impl IntoView {
    let volume_param = move || {
        if query.with(|q| query::get(q, "tokens").is_some()) {
            "tokens"
        } else {
            "requests"
        }
    };
    let shown = ["requests", "tokens", "gpu_hour"];
    let requests = raw(query, "requests", || "1M".to_owned());
    let tokens = raw(query, "tokens", String::new);
    let gpu_hour = raw(query, "gpu_hour", move || {
        report.with(|r| {
            r.as_ref()
                .map(|r| write_number(r.inputs.gpu_hour_usd, false))
                .unwrap_or_default()
        })
    });
    let hidden = move || {
        query.with(|q| {
            query::pairs(q)
                .into_iter()
                .filter(|(k, _)| !shown.contains(&k.as_str()))
                .map(|(k, v)| view! { <input type="hidden" name=k value=decode(&v)/> })
                .collect_view()
        })
    };
    view! {
        <form class="inputs" method="get" action="/" on:submit=|ev| ev.prevent_default()>
            <h2>"Your workload and prices"</h2>
            {move || match volume_param() {
                "tokens" => view! { <Field name="tokens" value=tokens outcome on_change/> }.into_any(),
                _ => view! { <Field name="requests" value=requests outcome on_change/> }.into_any(),
            }}
            <Field name="gpu_hour" value=gpu_hour outcome on_change/>
            {hidden}
            <button type="submit" class="update">"Update"</button>
        </form>
    }
}

/// The text of parameter `name` in the query, or `fallback` when the link leaves it out.
fn raw(
    query: Signal<String>,
    name: &'static str,
    fallback: impl Fn() -> String + Send + Sync + 'static,
) -> Signal<String> {
    Signal::derive(move || {
        query
            .with(|q| query::get(q, name))
            .map(|v| decode(&v))
            .unwrap_or_else(&fallback)
    })
}
