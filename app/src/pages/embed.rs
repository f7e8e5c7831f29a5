//! `/embed?…`: a compact view for a 600 × 400 iframe in a wiki: the verdict, the key numbers,
//! one chosen chart (`chart=`, default `volume`) and a link back to the full calculator. Rendered
//! on the server only, so it works in sandboxed iframes without JavaScript.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_location;

use crate::api::dataset_resource;
use crate::charts;
use crate::components::Verdict;
use crate::format::usd;
use crate::query;

/// The embed page.
#[component]
pub fn Embed() -> impl IntoView {
    let dataset = dataset_resource();
    let raw = use_location().search.get_untracked();
    let raw = raw.trim_start_matches('?').to_owned();
    let chart = query::get(&raw, "chart")
        .filter(|c| charts::NAMES.contains(&c.as_str()))
        .unwrap_or_else(|| "volume".to_owned());
    let scenario = query::edit(&raw, &[], &["chart"]);
    view! {
        <Title text="servecost: self-host or rent?"/>
        <Suspense fallback=|| view! { <p>"Loading…"</p> }>
            {move || {
                let (chart, scenario) = (chart.clone(), scenario.clone());
                Suspend::new(async move {
                    let data = match dataset.await {
                        Ok(d) => d,
                        Err(e) => return view! { <p class="error">{e}</p> }.into_any(),
                    };
                    let outcome = query::outcome(&scenario, &data);
                    let ignored = outcome.problems.len() + outcome.ignored.len();
                    match outcome.report {
                        Ok(r) => {
                            let svg = charts::by_name(&chart, &r).unwrap_or_default();
                            let link = query::href(if r.query == "v=1" { "" } else { &r.query });
                            let hybrid = r.hybrid.map(|h| view! { <li>"Best hybrid " <strong>{usd(h.monthly_usd)}</strong></li> });
                            view! {
                                <div class="embed" data-testid="embed">
                                    <Verdict report=r.clone() keys=Vec::new()/>
                                    <ul class="key-numbers">
                                        <li>"Rent " <strong data-testid="rent-monthly" data-usd=r.rent.monthly_usd.to_string()>{usd(r.rent.monthly_usd)}</strong></li>
                                        <li>"Self-host " <strong data-testid="self-monthly" data-usd=r.self_host.monthly_usd.to_string()>{usd(r.self_host.monthly_usd)}</strong></li>
                                        {hybrid}
                                    </ul>
                                    <figure class="chart"><div class="svg" inner_html=svg></div></figure>
                                    <p class="embed-foot">
                                        {(ignored > 0).then(|| format!("{ignored} parameter(s) of the link ignored. "))}
                                        <a href=link target="_blank" rel="noopener external">"Open in servecost, with sources"</a>
                                    </p>
                                </div>
                            }
                            .into_any()
                        }
                        Err(problems) => view! {
                            <div class="embed error" data-testid="embed">
                                <p>"No answer for this scenario:"</p>
                                <ul>{problems.into_iter().map(|p| view! { <li>{p.to_string()}</li> }).collect_view()}</ul>
                            </div>
                        }
                        .into_any(),
                    }
                })
            }}
        </Suspense>
    }
}
