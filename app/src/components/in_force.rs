//! Every input in force, typed or default, with the source of each default: what a decision
//! record rests on. The saved page shows it; the calculator prints it in place of its form.

use leptos::prelude::*;
use servecost::in_force::{list, Origin, Section};

use crate::citations::cite;

/// The inputs in force, by section of the form, with the link and the dataset revision.
#[component]
pub fn InputsInForce(
    /// The report they are the inputs of.
    #[prop(into)]
    report: crate::query::Answer,
    /// Cited source keys, in citation order (a default cites its source).
    keys: Vec<String>,
    /// The scenario's link as a person shares it.
    link: String,
    /// Shown only in print (the calculator, whose form is on screen).
    #[prop(optional)]
    print_only: bool,
) -> impl IntoView {
    let rows = list(&report);
    let tables = Section::ALL
        .into_iter()
        .filter(|section| rows.iter().any(|r| r.section == *section))
        .map(|section| {
            let body = rows
                .iter()
                .filter(|r| r.section == section)
                .map(|r| {
                    let (origin, source) = match &r.origin {
                        Origin::Yours => ("yours", None),
                        Origin::Default(key) => ("default", key.clone()),
                    };
                    view! {
                        <tr data-name=r.name data-origin=origin data-value=r.value.clone()>
                            <th scope="row">{r.label}</th>
                            <td>{r.shown.clone()}</td>
                            <td class="origin">{origin} {source.map(|k| cite(&keys, &k))}</td>
                        </tr>
                    }
                })
                .collect_view();
            view! {
                <table class="in-force">
                    <caption>{section.label()}</caption>
                    <tbody>{body}</tbody>
                </table>
            }
        })
        .collect_view();
    view! {
        <section class="inputs-in-force" class:print-only=print_only data-testid="inputs-in-force"
            aria-labelledby="in-force-title">
            <h2 id="in-force-title">"Inputs in force"</h2>
            <p class="in-force-link">
                "Scenario link: " <a href=link.clone() data-testid="record-link">{link.clone()}</a>
                {format!(" · dataset revision {}. “Yours” is set by the link; a default cites where it comes from.", report.dataset_revision)}
            </p>
            <div class="in-force-tables">{tables}</div>
        </section>
    }
}
