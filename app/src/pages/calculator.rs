//! `/`: the calculator. The scenario lives in the query string; the server renders the full
//! answer, and after hydration every change is recomputed in the browser by the same engine.

use leptos::prelude::*;
use leptos_router::hooks::use_location;
use servecost::{Dataset, Report};

use crate::api::get_dataset;
use crate::browser;
use crate::components::{ClassTable, Inputs, Problems, Totals, Verdict, VolumeChart};
use crate::query::{self, Outcome};

/// The calculator page.
#[component]
pub fn Calculator() -> impl IntoView {
    let dataset = OnceResource::new(get_dataset());
    view! {
        <header class="masthead">
            <h1>"servecost"</h1>
            <p class="tagline">"Self-host an open-weight model, or rent it per token?"</p>
        </header>
        <Suspense fallback=|| view! { <p>"Loading the dataset…"</p> }>
            {move || Suspend::new(async move {
                match dataset.await {
                    Ok(data) => view! { <Body data/> }.into_any(),
                    Err(e) => view! { <p class="error">"The dataset could not be loaded: " {e.to_string()}</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

/// The inputs and the answer, once the dataset is here.
#[component]
fn Body(
    /// The dataset to price from.
    data: Dataset,
) -> impl IntoView {
    let location = use_location();
    let initial = location.search.get_untracked();
    let query = RwSignal::new(initial.trim_start_matches('?').to_owned());
    let data = StoredValue::new(data);
    let outcome: Memo<Outcome> =
        Memo::new(move |_| query.with(|q| data.with_value(|d| query::outcome(q, d))));
    // The last report that came from valid inputs stays on screen while a field is invalid.
    let shown: Memo<Option<Report>> = Memo::new(move |prev: Option<&Option<Report>>| {
        let o = outcome.get();
        let previous = prev.cloned().flatten();
        match o.report {
            Ok(r) if o.problems.is_empty() || previous.is_none() => Some(r),
            Ok(_) | Err(_) => previous,
        }
    });
    let on_change = Callback::new(move |(name, value): (&'static str, String)| {
        let next = query.with_untracked(|q| query::set(q, name, &value));
        browser::replace_query(&next);
        query.set(next);
    });
    // Effects run only in the browser: the marker tells tests (and styles) the page is live.
    let hydrated = RwSignal::new(false);
    Effect::new(move |_| hydrated.set(true));
    view! {
        <div class="layout" data-hydrated=move || hydrated.get().to_string()>
            <Inputs query=query.into() report=shown outcome on_change/>
            <section class="results" aria-live="polite">
                <Problems outcome/>
                {move || shown.get().map(|report| view! {
                    <Verdict report=report.clone()/>
                    <Totals report=report.clone()/>
                    <VolumeChart report=report.clone()/>
                    <ClassTable report/>
                })}
            </section>
        </div>
    }
}
