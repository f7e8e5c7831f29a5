//! `/options?…`: every way to serve the link's workload, ranked, on a page of its own. The
//! calculator ranks them in place when its section is opened (in the browser); without
//! JavaScript the section links here. Rendered on the server only.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_location;

use crate::components::{verdict, OptionsTable};
use crate::query;

/// The ranking page.
#[component]
pub fn OptionsPage() -> impl IntoView {
    let raw = use_location().search.get_untracked();
    let data = use_context::<crate::db::Store>().map(|s| s.current());
    let body = match data {
        None => view! { <p class="error">"The dataset store is not available."</p> }.into_any(),
        Some(data) => {
            let outcome = query::outcome(raw.trim_start_matches('?'), &data);
            let left_out = outcome.left_out();
            match outcome.report {
                Ok(report) => {
                    let back = query::canonical_href(&report.query);
                    let best = verdict::best_line(&report);
                    let note = (!left_out.is_empty()).then(|| {
                        view! {
                            <p class="note" data-testid="options-ignored">
                                "Not used from the link: " {left_out.join("; ")}
                            </p>
                        }
                    });
                    let data = StoredValue::new((*data).clone());
                    view! {
                        {best}
                        {note}
                        <section class="options" data-testid="options">
                            <OptionsTable report data/>
                        </section>
                        <p><a href=back rel="external" data-testid="options-back">"Back to the calculator with these inputs"</a></p>
                    }
                    .into_any()
                }
                Err(problems) => view! {
                    <div class="error" data-testid="options-problems">
                        {crate::components::no_answer(problems)}
                    </div>
                }
                .into_any(),
            }
        }
    };
    view! {
        <Title text="servecost: every way to serve this workload"/>
        <header class="masthead">
            <h1>"Every way to serve this workload, ranked"</h1>
            <p class="tagline">"For the workload, prices and speed target of your link: cheapest first."</p>
            <crate::components::SiteNav current=""/>
        </header>
        {body}
    }
}
