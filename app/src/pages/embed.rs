//! `/embed?…`: a compact view for a 600 × 400 iframe in a wiki: the verdict, the key numbers,
//! one chosen chart (`chart=`, default `volume`) and a link back to the full calculator. Rendered
//! on the server only, outside the router (the server's `/embed` and `/embed/s/{id}` handlers),
//! so it works in sandboxed iframes without JavaScript.

use leptos::prelude::*;

use crate::charts::Chart;
use crate::components::verdict;
use crate::format::usd;
use crate::query;

/// The chart an embed's link asks for (`chart=`), the volume chart when it names none or no
/// chart.
fn chart_of(raw: &str) -> Chart {
    query::get(raw, "chart")
        .and_then(|c| Chart::from_key(&c))
        .unwrap_or(Chart::Volume)
}

/// The embed's body for the link's query: the compact view, read leniently like the
/// calculator (a field that cannot be read takes its default and is named under the
/// answer), or the problems that leave the scenario without an answer.
pub fn embed_view(raw: &str, data: &servecost::Dataset) -> AnyView {
    let raw = raw.trim_start_matches('?');
    let chart = chart_of(raw);
    let scenario = query::edit(raw, &[], &["chart"]);
    let outcome = query::outcome(&scenario, data);
    let left_out = outcome.left_out();
    match outcome.report {
        Ok(r) => {
            let link = query::canonical_href(&r.query);
            let note = (!left_out.is_empty())
                .then(|| format!("Not used from the link: {}. ", left_out.join("; ")));
            let svg = chart.compact(&r);
            view! { <Compact report=r chart svg link note/> }.into_any()
        }
        Err(problems) => view! {
            <div class="embed error" data-testid="embed">
                {crate::components::no_answer(problems)}
            </div>
        }
        .into_any(),
    }
}

/// The title of every embed page.
pub const TITLE: &str = "servecost: self-host or rent?";

/// `/embed?…`, the whole document. A wiki frames it thousands of times a day: it is rendered
/// outside the router (nothing in it hydrates or waits), from the store's dataset.
#[cfg(feature = "ssr")]
pub fn embed_document(raw: &str, data: &servecost::Dataset, stylesheet: &str) -> String {
    crate::static_document(TITLE, stylesheet, || embed_view(raw, data))
}

/// Why `/embed/s/{id}` has no compact view to show.
#[cfg(feature = "ssr")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmbedMissing {
    /// No saved scenario has this id (a 404).
    NotFound,
    /// The saved scenario no longer evaluates (shown with its problems).
    Problems,
    /// The database failed (a 503: the link may work again).
    Unavailable,
}

/// `/embed/s/{id}?…`, the whole document: the compact view of a saved scenario, at its
/// pinned revision; otherwise why not, with the document that says so.
#[cfg(feature = "ssr")]
pub async fn embed_saved_document(
    store: &crate::db::Store,
    id: &str,
    raw: &str,
    stylesheet: &str,
) -> Result<String, (EmbedMissing, String)> {
    use crate::db::saved::PinnedError;
    let message = |text: String| {
        crate::static_document(TITLE, stylesheet, move || {
            view! { <p class="embed error" data-testid="embed">{text}</p> }
        })
    };
    let (saved, report) = match crate::db::saved::pinned_report(store, id).await {
        Ok(p) => p,
        Err(PinnedError::NotFound) => {
            return Err((
                EmbedMissing::NotFound,
                message("No saved scenario has this link.".to_owned()),
            ))
        }
        Err(PinnedError::Problems(problems)) => {
            let words: Vec<String> = problems.iter().map(ToString::to_string).collect();
            return Err((
                EmbedMissing::Problems,
                message(format!(
                    "This saved scenario no longer evaluates: {}",
                    words.join("; ")
                )),
            ));
        }
        Err(PinnedError::Database(e)) => {
            leptos::logging::error!("embed: loading saved scenario {id}: {e}");
            return Err((
                EmbedMissing::Unavailable,
                message(
                    "The saved scenario could not be read (a database error); try again."
                        .to_owned(),
                ),
            ));
        }
    };
    let chart = chart_of(raw.trim_start_matches('?'));
    let svg = chart.compact(&report);
    let link = format!("/s/{}", saved.id);
    let note = Some(format!(
        "{} (dataset revision {}). ",
        saved.name, saved.revision
    ));
    let title = format!("servecost: {}", saved.name);
    Ok(crate::static_document(&title, stylesheet, move || {
        view! { <Compact report chart svg link note/> }
    }))
}

/// The compact view: verdict, key numbers, one chart, a link back.
#[component]
pub fn Compact(
    /// The report.
    #[prop(into)]
    report: crate::query::Answer,
    /// Which chart to show.
    chart: Chart,
    /// That chart, drawn ([`Chart::compact`]).
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
            // Over the years, above the chart when it reverses this month's answer.
            {verdict::horizon_reverses(&r).then(|| verdict::horizon_lead_line(&r))}
            <figure class="chart">
                <div class="svg" inner_html=svg></div>
                {(chart == Chart::Tornado && r.sensitivity.len() > 4).then(|| view! {
                    <figcaption>"The four inputs that move the answer most; the calculator shows them all."</figcaption>
                })}
            </figure>
            <div class="decision">
                {verdict::sureness_line(&r, "_blank")}
                {verdict::verdict_line(&r, &[])}
                {(!verdict::horizon_reverses(&r)).then(|| verdict::horizon_line(&r, false))}
                {verdict::changes(&r, Some(&link))}
            </div>
            <p class="embed-foot">
                {note}
                <a href=link target="_blank" rel="noopener external">"Open in servecost, with sources"</a>
            </p>
        </div>
    }
}
