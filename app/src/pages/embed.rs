//! `/embed?…`: a compact view for a 600 × 400 iframe in a wiki: the verdict, the key numbers,
//! one chosen chart (`chart=`, default `volume`) and a link back to the full calculator. Rendered
//! on the server only, so it works in sandboxed iframes without JavaScript.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_location;

use crate::charts;
use crate::components::verdict;
use crate::format::usd;
use crate::query;

/// The embed page.
#[component]
pub fn Embed() -> impl IntoView {
    // Read from the store, not through a resource: the embed is not hydrated, so nothing of the
    // dataset needs to travel inside it.
    let dataset: Result<std::sync::Arc<servecost::Dataset>, String> =
        use_context::<crate::db::Store>()
            .map(|s| s.current())
            .ok_or_else(|| "the dataset store is not available".to_owned());
    let raw = use_location().search.get_untracked();
    let raw = raw.trim_start_matches('?').to_owned();
    let chart = query::get(&raw, "chart")
        .filter(|c| charts::NAMES.contains(&c.as_str()))
        .unwrap_or_else(|| "volume".to_owned());
    let scenario = query::edit(&raw, &[], &["chart"]);
    // Computed once, as the component is made: the embed reads the store synchronously and has
    // nothing to wait for (inside a `Suspense`, Leptos's server rendering ran the answer and
    // drew the chart three times a request).
    let body = match dataset {
        Err(e) => view! { <p class="error">{e}</p> }.into_any(),
        Ok(data) => {
            let outcome = query::outcome(&scenario, &data);
            let left_out: Vec<String> = outcome
                .problems
                .iter()
                .map(|p| format!("{} (at its default: {})", p.param, p.reason))
                .chain(
                    outcome
                        .ignored
                        .iter()
                        .map(|p| format!("{} ({})", p.param, p.reason)),
                )
                .collect();
            match outcome.report {
                Ok(r) => {
                    let link = query::href(if r.query == "v=1" { "" } else { &r.query });
                    let note = (!left_out.is_empty())
                        .then(|| format!("Not used from the link: {}. ", left_out.join("; ")));
                    let svg = charts::compact(&chart, &r).unwrap_or_default();
                    view! { <Compact report=r chart svg link note/> }.into_any()
                }
                Err(problems) => view! {
                    <div class="embed error" data-testid="embed">
                        <p>"No answer for this scenario:"</p>
                        <ul>{problems.into_iter().map(|p| view! { <li>{p.to_string()}</li> }).collect_view()}</ul>
                    </div>
                }
                .into_any(),
            }
        }
    };
    view! {
        <Title text="servecost: self-host or rent?"/>
        {body}
    }
}

/// The compact view: verdict, key numbers, one chart, a link back.
#[component]
pub fn Compact(
    /// The report.
    report: servecost::Report,
    /// Which chart to show (a name from `charts::NAMES`).
    chart: String,
    /// That chart, drawn ([`charts::compact`]).
    svg: String,
    /// Where "open in servecost" leads.
    link: String,
    /// A line before the link (what was ignored, which revision).
    note: Option<String>,
) -> impl IntoView {
    let r = report;
    let hybrid = r
        .hybrid
        .map(|h| view! { <li>"Best hybrid " <strong>{usd(h.monthly_usd)}</strong></li> });
    view! {
        <div class="embed" data-testid="embed">
            // The answer, its figures and the chart fill the frame's first 400 px; the rest of
            // the decision (how sure, what would change it) follows for those who scroll.
            {verdict::best_line(&r)}
            <ul class="key-numbers">
                <li>"Rent " <strong data-testid="rent-monthly" data-usd=r.rent.monthly_usd.to_string()>{usd(r.rent.monthly_usd)}</strong></li>
                <li>"Self-host " <strong data-testid="self-monthly" data-usd=r.self_host.monthly_usd.to_string()>{usd(r.self_host.monthly_usd)}</strong></li>
                {hybrid}
            </ul>
            <figure class="chart">
                <div class="svg" inner_html=svg></div>
                {(chart == "tornado" && r.sensitivity.len() > 4).then(|| view! {
                    <figcaption>"The four inputs that move the answer most; the calculator shows them all."</figcaption>
                })}
            </figure>
            <div class="decision">
                {verdict::sureness_line(&r, "_blank")}
                {verdict::verdict_line(&r, &[])}
                {verdict::horizon_line(&r, false)}
                {verdict::changes(&r, true)}
            </div>
            <p class="embed-foot">
                {note}
                <a href=link target="_blank" rel="noopener external">"Open in servecost, with sources"</a>
            </p>
        </div>
    }
}

/// `/embed/s/{id}`: the compact view of a saved scenario, at its pinned revision.
#[component]
pub fn EmbedSaved() -> impl IntoView {
    let id = leptos_router::hooks::use_params_map()
        .get_untracked()
        .get("id")
        .unwrap_or_default();
    let chart = query::get(&use_location().search.get_untracked(), "chart")
        .filter(|c| charts::NAMES.contains(&c.as_str()))
        .unwrap_or_else(|| "volume".to_owned());
    let store = use_context::<crate::db::Store>();
    // The chart is drawn with the report, once: the view below is made more than once while
    // the page is rendered.
    let saved = OnceResource::new(async move {
        let store = store.ok_or_else(|| "the database is not available".to_owned())?;
        let pinned = crate::db::saved::pinned(&store, &id)
            .await
            .map_err(|_| "No saved scenario has this link.".to_owned())?;
        let svg = charts::compact(&chart, &pinned.report).unwrap_or_default();
        Ok::<_, String>((pinned, chart, svg))
    });
    view! {
        <Title text="servecost: saved scenario"/>
        <Suspense fallback=|| view! { <p>"Loading…"</p> }>
            {move || {
                Suspend::new(async move {
                    match saved.await {
                        Ok((p, chart, svg)) => {
                            let link = format!("/s/{}", p.saved.id);
                            let note = Some(format!("{} (dataset revision {}). ", p.saved.name, p.saved.revision));
                            view! { <Compact report=p.report chart svg link note/> }.into_any()
                        }
                        Err(message) => view! { <p class="embed error" data-testid="embed">{message}</p> }.into_any(),
                    }
                })
            }}
        </Suspense>
    }
}
