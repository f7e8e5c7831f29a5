//! What in the link could not be used, and why; and why there is no answer, when there is none.

use leptos::prelude::*;

use crate::query::Outcome;

/// The lists, shown only when not empty.
#[component]
pub fn Problems(
    /// The current outcome.
    outcome: Memo<Outcome>,
) -> impl IntoView {
    let item = |p: &servecost::Problem| {
        view! { <li><code>{p.param.clone()}</code> " = " <code>{p.value.clone()}</code> ": " {p.reason.clone()}</li> }
    };
    view! {
        {move || outcome.with(|o| {
            let fatal = o.report.as_ref().err().cloned().unwrap_or_default();
            (!fatal.is_empty()).then(|| view! {
                <div class="notice error" role="alert" data-testid="no-answer">
                    <p>"No answer for these inputs:"</p>
                    <ul>{fatal.iter().map(item).collect_view()}</ul>
                </div>
            })
        })}
        {move || outcome.with(|o| {
            (!o.problems.is_empty()).then(|| view! {
                <div class="notice warn" data-testid="problems">
                    <p>"Invalid values, shown with their defaults until corrected:"</p>
                    <ul>{o.problems.iter().map(item).collect_view()}</ul>
                </div>
            })
        })}
        {move || outcome.with(|o| {
            (!o.ignored.is_empty()).then(|| view! {
                <div class="notice" data-testid="ignored">
                    <p>"Ignored parameters:"</p>
                    <ul>{o.ignored.iter().map(item).collect_view()}</ul>
                </div>
            })
        })}
    }
}

/// Why a server-rendered page (an embed, the ranking) has no answer for its link: the problems,
/// one an item, under `"No answer for this scenario:"`.
pub fn no_answer(problems: Vec<servecost::Problem>) -> impl IntoView {
    view! {
        <p>"No answer for this scenario:"</p>
        <ul>{problems.into_iter().map(|p| view! { <li>{p.to_string()}</li> }).collect_view()}</ul>
    }
}
