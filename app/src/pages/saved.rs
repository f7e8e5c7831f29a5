//! `/s/{id}`: a saved scenario, shown with the dataset revision it was saved with, so the link
//! gives the same numbers later; a notice says when newer data would change them.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

use crate::components::{
    ClassTable, InputsInForce, Sources, TornadoChart, Totals, Verdict, VolumeChart, Warnings,
};
use crate::db::saved::{pinned, Pinned, PinnedError};
use crate::db::Store;
use crate::{format, query};

/// The saved-scenario page.
#[component]
pub fn Saved() -> impl IntoView {
    let id = use_params_map()
        .get_untracked()
        .get("id")
        .unwrap_or_default();
    let store = use_context::<Store>();
    let saved = OnceResource::new(async move {
        let Some(store) = store else {
            return Err("the database is not available".to_owned());
        };
        match pinned(&store, &id).await {
            Ok(p) => Ok(p),
            Err(PinnedError::NotFound) => Err("No saved scenario has this link.".to_owned()),
            Err(PinnedError::Problems(p)) => Err(format!(
                "This saved scenario no longer evaluates: {}",
                p.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; ")
            )),
            Err(PinnedError::Database(e)) => Err(format!("The database failed: {e}")),
        }
    });
    view! {
        <Suspense fallback=|| view! { <p>"Loading…"</p> }>
            {move || Suspend::new(async move {
                match saved.await {
                    Ok(p) => view! { <Page pinned=p/> }.into_any(),
                    Err(message) => {
                        if let Some(resp) = use_context::<leptos_axum::ResponseOptions>() {
                            resp.set_status(http::StatusCode::NOT_FOUND);
                        }
                        view! {
                            <header class="masthead"><h1>"Saved scenario"</h1><crate::components::SiteNav current=""/></header>
                            <p class="error" data-testid="saved-error">{message}</p>
                            <p><a href="/" rel="external">"Open the calculator"</a></p>
                        }
                        .into_any()
                    }
                }
            })}
        </Suspense>
    }
}

/// The pinned scenario.
#[component]
fn Page(
    /// The saved scenario and its pinned report.
    pinned: Pinned,
) -> impl IntoView {
    let s = &pinned.saved;
    let current = query::canonical_href(&s.query);
    let comparison = pinned
        .current
        .clone()
        .map(|now| view! { <Comparison then=pinned.report.clone() now=now href=current.clone()/> });
    let notice = pinned.newer_data_changes_result.then(|| {
        view! {
            <div class="notice warn" data-testid="newer-data">
                <p>
                    "Newer data would change this result: "
                    <a href=current.clone() rel="external">"see with current data"</a>
                    {format!(" (dataset revision {}; this result uses revision {}).", pinned.newest_revision, s.revision)}
                </p>
                {comparison}
            </div>
        }
    });
    let r = pinned.report.clone();
    let keys: Vec<String> = pinned.sources.iter().map(|s| s.key.clone()).collect();
    let record_link = format!("{}/s/{}", crate::browser::origin(), s.id);
    let embed = format!(
        r#"<iframe src="{}/embed/s/{}" width="600" height="400" style="border:0" loading="lazy" title="servecost: {}"></iframe>"#,
        crate::browser::origin(),
        s.id,
        crate::escape_html(&s.name)
    );
    view! {
        <Title text=crate::title_text(&format!("servecost: {}", s.name))/>
        <header class="masthead">
            <h1 data-testid="saved-name">{s.name.clone()}</h1>
            <p class="tagline">
                {format!("Saved {} with dataset revision {}. ", s.created_at, s.revision)}
                // Ways on from the page: a printout gives the record's own link instead.
                <span class="ways-on">
                    <a href=current.clone() rel="external">"Open in the calculator"</a>
                    " · "
                    <a href=format!("/compare?a={}", s.id) rel="external" data-testid="compare-link">"Compare with another scenario…"</a>
                </span>
            </p>
            <crate::components::SiteNav current=""/>
        </header>
        {(!s.note.is_empty()).then(|| view! { <p class="note">{s.note.clone()}</p> })}
        {notice}
        <section class="results saved" data-testid="saved" data-revision=s.revision.to_string()>
            <Verdict report=r.clone() keys=keys.clone()/>
            <Totals report=r.clone() keys=keys.clone()/>
            <VolumeChart report=r.clone()/>
            <ClassTable report=r.clone() keys=keys.clone()/>
            <TornadoChart report=r.clone()/>
            <Warnings warnings=r.warnings.clone() keys=keys.clone()/>
            <InputsInForce report=r.clone() keys=keys.clone() link=record_link.clone()/>
            <p class="record-export"><a href=format!("/api/v1/scenarios/{}/export.csv", s.id) rel="external" download=format!("servecost-{}.csv", s.id) data-testid="record-csv">"This record as CSV: inputs in force, bill, per-class costs, decision, warnings and sources"</a></p>
            <section class="share" aria-labelledby="embed-title">
                <h2 id="embed-title">"Embed"</h2>
                <label for="embed-code">
                    {format!("Embed in a wiki (iframe). Pinned: it shows these numbers, from dataset revision {}, whatever data comes later.", s.revision)}
                </label>
                <textarea id="embed-code" readonly rows="3" data-testid="pinned-embed-code">{embed}</textarea>
            </section>
            <Sources sources=pinned.sources.clone()/>
        </section>
    }
}

/// The pinned result beside the same scenario with the newest data, line by line.
#[component]
fn Comparison(
    /// The report at the pinned revision.
    then: servecost::Report,
    /// The report with the newest data.
    now: servecost::Report,
    /// The calculator link with the newest data.
    href: String,
) -> impl IntoView {
    let winner = |r: &servecost::Report| match r.verdict.winner {
        servecost::report::Side::Rent => "renting",
        servecost::report::Side::SelfHost => "self-hosting",
    };
    let break_even = |r: &servecost::Report| {
        r.break_even.monthly_tokens.map_or_else(
            || "none".to_owned(),
            |t| format!("{} tokens/month", format::tokens(t)),
        )
    };
    let rows = [
        (
            "Renting, per month",
            format::usd(then.rent.monthly_usd),
            format::usd(now.rent.monthly_usd),
        ),
        (
            "Self-hosting, per month",
            format::usd(then.self_host.monthly_usd),
            format::usd(now.self_host.monthly_usd),
        ),
        (
            "Cheaper side",
            winner(&then).to_owned(),
            winner(&now).to_owned(),
        ),
        (
            "Difference, per month",
            format::usd(then.verdict.difference_usd),
            format::usd(now.verdict.difference_usd),
        ),
        ("Break-even volume", break_even(&then), break_even(&now)),
    ];
    view! {
        <table class="comparison" data-testid="comparison">
            <caption>"This result beside the same scenario with the newest data"</caption>
            <thead>
                <tr>
                    <th scope="col"></th>
                    <th scope="col">{format!("Saved (revision {})", then.dataset_revision)}</th>
                    <th scope="col">
                        <a href=href rel="external">{format!("Current data (revision {})", now.dataset_revision)}</a>
                    </th>
                </tr>
            </thead>
            <tbody>
                {rows
                    .into_iter()
                    .map(|(label, a, b)| {
                        let changed = a != b;
                        view! {
                            <tr class:changed=changed>
                                <th scope="row">{label}</th>
                                <td class="num">{a}</td>
                                <td class="num">{b}</td>
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
    }
}
