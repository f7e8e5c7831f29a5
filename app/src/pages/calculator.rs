//! `/`: the calculator. The scenario lives in the query string; the server renders the full
//! answer, and after hydration every change is recomputed in the browser by the same engine.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_location;
use servecost::Dataset;

use crate::api::dataset_resource;
use crate::browser;
use crate::citations::cited;
use crate::components::inputs::Ctx;
use crate::components::verdict;
use crate::components::{
    BreakEven, BreakdownChart, ClassChart, ClassTable, Decoder, Inputs, InputsInForce,
    OptionsTable, Problems, Share, Sources, TornadoChart, Totals, TpsChart, VolumeBands,
    VolumeChart, Warnings, Years,
};
use crate::query::{self, Answer, Outcome};
use servecost::evaluate::Depth;

/// Parameters of your own benchmark, cleared when another curve is picked.
const OWN_POINTS: [&str; 4] = ["points", "curve_mix", "chip", "chip_name"];
/// Rented-GPU parameters, put aside while owned hardware is priced and given back after.
const RENTED: [&str; 4] = ["gpu_hour", "gpu_tier", "gpu_kind", "scaling"];
/// Parameters of owned hardware, cleared when switching back to rented GPUs.
const OWNED: [&str; 8] = [
    "capex", "years", "rate", "kw", "pue", "kwh", "colo", "maint",
];
/// Shape parameters, cleared when a preset is picked so its own shape applies.
const SHAPE: [&str; 3] = ["input_per_request", "cache_hit", "output_per_request"];

/// Whether the calculator has been taken over by the browser: a view made once it has follows
/// an edit, one made before it is the page as served.
#[derive(Clone, Copy)]
pub struct Hydrated(pub ReadSignal<bool>);

/// The calculator page.
#[component]
pub fn Calculator() -> impl IntoView {
    // The page carries the curves and offers of its scenario's model only (its offers at most
    // `PAGE_OFFERS`); the page has no way to change model in place (a `model=` link loads the
    // page anew).
    let scenario = servecost::parse_lenient(&use_location().search.get_untracked())
        .0
        .scenario;
    let dataset = dataset_resource(scenario.into_scenario());
    // Messages in the link are shown only when the server wrote them (see `crate::notice`).
    let trusted = crate::notice::trusted(use_location().search.get_untracked());
    view! {
        <Title text="servecost: self-host or rent?"/>
        <header class="masthead">
            <h1>"servecost"</h1>
            <p class="tagline">"Self-host an open-weight model, or rent it per token? Priced class by class, idle hours, staff and peak capacity included."</p>
            <crate::components::SiteNav current="/"/>
        </header>
        <Suspense fallback=|| view! { <p>"Loading the dataset…"</p> }>
            {move || Suspend::new(async move {
                let trusted = trusted.await;
                match dataset.await {
                    Ok(data) => view! { <Body data trusted/> }.into_any(),
                    Err(e) => view! { <p class="error">"The dataset could not be loaded: " {e.to_string()}</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

/// The new query after one edit, with the parameters that edit makes moot removed. Switching
/// to owned hardware puts the rented inputs in `aside`; switching back gives them back.
fn edited(q: &str, name: &str, value: &str, aside: &mut Vec<(String, String)>) -> String {
    match (name, value) {
        ("curve", _) => query::edit(q, &[("curve", value)], &OWN_POINTS),
        ("chip", _) => query::edit(q, &[("chip", value)], &["chip_name", "gpu_tier"]),
        // Your own price replaces the tier; clearing it gives the tier back (and its kind goes).
        ("gpu_hour", "") => query::edit(q, &[], &["gpu_hour", "gpu_kind"]),
        ("gpu_hour", _) => query::edit(q, &[("gpu_hour", value)], &["gpu_tier"]),
        ("own", "0") => switch(q, aside, &RENTED, &[&["own"][..], &OWNED].concat(), &[]),
        ("own", _) => switch(q, aside, &OWNED, &RENTED, &[("own", "1")]),
        ("workload", _) => query::edit(q, &[("workload", value)], &SHAPE),
        ("api", _) => query::edit(
            q,
            &[("api", value)],
            &["price_in", "price_out", "cache_discount", "markup"],
        ),
        _ => query::set(q, name, value),
    }
}

/// Switches between rented and owned GPUs: the inputs of the side left (`away`) are put in
/// `aside`, those of the side taken (`back`) come back from it, `set` is applied.
fn switch(
    q: &str,
    aside: &mut Vec<(String, String)>,
    back: &[&'static str],
    away: &[&str],
    set: &[(&str, &str)],
) -> String {
    let returning: Vec<(&str, String)> = back
        .iter()
        .filter_map(|name| {
            aside
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| (*name, servecost::codec::decode(v)))
        })
        .collect();
    aside.retain(|(k, _)| !back.contains(&k.as_str()));
    for name in away {
        if let Some(v) = query::get(q, name) {
            aside.retain(|(k, _)| k != name);
            aside.push(((*name).to_owned(), v));
        }
    }
    let mut pairs: Vec<(&str, &str)> = returning.iter().map(|(k, v)| (*k, v.as_str())).collect();
    pairs.extend_from_slice(set);
    query::edit(q, &pairs, away)
}

/// The link the address bar carries for `typed`: the canonical one (the saved page's) when
/// every input reads, else the typed text, which keeps what is being corrected.
fn canonical_or_typed(o: &Outcome, typed: &str) -> String {
    match &o.report {
        Ok(r) if o.problems.is_empty() && r.query == "v=1" => String::new(),
        Ok(r) if o.problems.is_empty() => r.query.clone(),
        _ => typed.to_owned(),
    }
}

/// The inputs and the answer, once the dataset is here.
#[component]
fn Body(
    /// The dataset to price from.
    data: Dataset,
    /// Whether the link's messages (a usage export's or a paste's outcome) are the server's own:
    /// when not, the page reads the link without them.
    trusted: bool,
) -> impl IntoView {
    let location = use_location();
    // A form submitted without JavaScript sends the benchmark editor's cells: they become the
    // link's own parameters here, on the server and in the browser alike.
    let raw = location.search.get_untracked();
    let raw = if trusted {
        raw
    } else {
        crate::notice::without(&raw)
    };
    let form = crate::form::from_form(&raw);
    let from_form = form.query != raw.trim_start_matches('?');
    let query = RwSignal::new(form.query);
    let kept_paste = RwSignal::new(form.paste);
    let kept_usage = StoredValue::new(form.usage);
    let usage_read = StoredValue::new(form.usage_read);
    let model_dropped = StoredValue::new(form.model_dropped);
    let paste_read = StoredValue::new(form.paste_read);
    let opened = StoredValue::new(form.opened);
    // Links on the page (presets, operating points, price tiers) navigate within the app: follow them.
    Effect::new(move |_| {
        let search = location.search.get();
        let next = crate::form::from_form(&search).query;
        if query.with_untracked(|q| *q != next) {
            query.set(next);
        }
    });
    let data = StoredValue::new(data);
    let live = answers(query, data);
    let Answers {
        outcome,
        shown,
        charted,
        ..
    } = live;
    follow_address_bar(query, outcome, &raw, from_form);
    let aside = StoredValue::new(Vec::new());
    let on_change = Callback::new(move |(name, value): (&'static str, String)| {
        let next = query.with_untracked(|q| {
            let mut put = aside.get_value();
            let next = edited(q, name, &value, &mut put);
            aside.set_value(put);
            next
        });
        query.set(next);
    });
    let ctx = Ctx {
        query: query.into(),
        outcome,
        report: shown,
        data,
        on_change,
        kept_paste,
        kept_usage,
        usage_read,
        model_dropped,
        paste_read,
        opened,
    };
    let keys = Memo::new(move |_| {
        shown.with(|r| {
            r.as_ref()
                .map(|r| data.with_value(|d| cited(r, d)))
                .unwrap_or_default()
        })
    });
    let warnings = Memo::new(move |_| {
        charted.with(|r| r.as_ref().map(|r| r.warnings.clone()).unwrap_or_default())
    });
    // Effects run only in the browser: the marker tells tests (and styles) the page is live.
    let hydrated = RwSignal::new(false);
    Effect::new(move |_| hydrated.set(true));
    // What is made from now on tells by it whether it follows an edit (the charts).
    provide_context(Hydrated(hydrated.read_only()));
    view! {
        <div class="layout" data-hydrated=move || hydrated.get().to_string()
            data-settled=move || live.settled.get().to_string()>
            <Inputs ctx/>
            <section class="results" aria-live="polite" aria-label="Results">
                // On a phone the answer comes first: one tap leads to the inputs below it.
                <a class="edit-inputs" href="#inputs" data-testid="edit-inputs">"Edit inputs ↓"</a>
                <Problems outcome/>
                {move || live.stale.get().then(|| view! {
                    <p class="note stale-note" data-testid="stale-note">
                        "The figures below answer the last inputs that could be read, not the field marked above: correct it to see its answer."
                    </p>
                })}
                {headline(shown, charted, keys, live.stale, live.has_report)}
                <div class="chart-grid">
                    {move || charted.get().map(|report| view! { <VolumeChart report/> })}
                    <div class="beside-chart">
                        {move || shown.get().map(|report| view! { <BreakEven report/> })}
                        {move || charted.get().map(|report| view! { <VolumeBands report/> })}
                    </div>
                </div>
                {move || charted.get().map(|report| view! { <Years report/> })}
                // The inputs in force, in print only (the form is on screen): after the charts
                // that carry the decision, before the details.
                {move || shown.get().map(|report| {
                    let link = format!("{}{}", crate::browser::origin(), query::canonical_href(&report.query));
                    view! { <InputsInForce report keys=keys.get() link print_only=true/> }
                })}
                {move || shown.get().map(|report| view! { <ClassTable report keys=keys.get()/> })}
                {move || charted.get().map(|report| {
                    view! {
                        <div class="chart-grid">
                            <ClassChart report=report.clone()/>
                            <BreakdownChart report=report.clone()/>
                            <TpsChart report=report.clone()/>
                            <TornadoChart report/>
                        </div>
                    }
                })}
                {ranked_options(charted, live.shown_query, data)}
                // These change far less often than the numbers: each re-renders only when its own
                // part of the report changes.
                {move || view! { <Warnings warnings=warnings.get() keys=keys.get()/> }}
                <Decoder ctx keys=keys.into()/>
                <Share report=charted/>
                {move || view! { <Sources sources=data.with_value(|d| crate::components::cited_sources(&keys.get(), d))/> }}
            </section>
        </div>
    }
}

/// The answers the page shows as they follow the inputs: the inputs' own outcome, the report on
/// screen, its full answer (the decision, the charts) and whether they are in step.
#[derive(Clone, Copy)]
struct Answers {
    outcome: Memo<Outcome>,
    /// The report whose numbers are on screen.
    shown: Memo<Option<Answer>>,
    /// Its full answer, which the decision, the charts and the caveats are drawn from.
    charted: Memo<Option<Answer>>,
    /// True while the figures on screen are the last valid inputs' rather than the inputs'.
    stale: Memo<bool>,
    shown_query: Memo<Option<String>>,
    /// True when the full answer of the report on screen is in.
    settled: Memo<bool>,
    has_report: Memo<bool>,
}

/// The answers of `query` on `data`, each following the last.
fn answers(query: RwSignal<String>, data: StoredValue<Dataset>) -> Answers {
    // The page as served (and as first hydrated) carries the full answer. After an edit the
    // browser first computes everything but the sureness sample and the flips, so the numbers
    // follow the typing, then the full answer in the next task: the decision block and the
    // charts follow it.
    let first = StoredValue::new(query.get_untracked());
    let outcome: Memo<Outcome> = Memo::new(move |_| {
        query.with(|q| {
            let depth = if first.with_value(|f| f == q) {
                Depth::Full
            } else {
                Depth::Quick
            };
            data.with_value(|d| query::outcome_with(q, d, depth))
        })
    });
    let full: RwSignal<Option<Answer>> = RwSignal::new(None);
    // The full answer of the current inputs, once it is in: computed at once for the page as
    // served, a task after the edit otherwise.
    let fresh_full: Memo<Option<Result<Answer, ()>>> = Memo::new(move |_| {
        outcome.with(|o| match &o.report {
            Ok(r) if r.is_full() => Some(Ok(r.clone())),
            Ok(r) => full.with(|f| f.as_ref().filter(|f| f.query == r.query).cloned().map(Ok)),
            Err(_) => Some(Err(())),
        })
    });
    // The last report that came from valid inputs stays on screen while a field cannot be read
    // (marked as such), so the numbers follow the typing; inputs that read but have no answer
    // together withdraw it: no figure on screen answers other inputs than those shown.
    // It drives the numbers.
    let shown: Memo<Option<Answer>> = Memo::new(move |prev: Option<&Option<Answer>>| {
        let o = outcome.get();
        let previous = prev.cloned().flatten();
        let report = o.report.map(|r| match fresh_full.get() {
            Some(Ok(f)) => f,
            _ => r,
        });
        match report {
            Ok(r) if o.problems.is_empty() || previous.is_none() => Some(r),
            Ok(_) => previous,
            Err(_) => None,
        }
    });
    // True while the figures on screen are the last valid inputs' rather than the inputs'.
    // (The inputs' own report reads an unreadable field as not given; the page served without
    // JavaScript shows that one, and it is not stale.)
    let stale = Memo::new(move |_| {
        let current = outcome.with(|o| o.report.as_ref().ok().map(|r| r.query.clone()));
        shown.with(|r| {
            r.as_ref()
                .is_some_and(|r| Some(&r.query) != current.as_ref())
        })
    });
    let shown_query = Memo::new(move |_| shown.with(|r| r.as_ref().map(|r| r.query.clone())));
    // The decision figures, the charts, the caveats and the share links are drawn from the full
    // answer of the report on screen: they follow its numbers by a task.
    let charted: Memo<Option<Answer>> = Memo::new(move |prev: Option<&Option<Answer>>| {
        let previous = prev.cloned().flatten();
        let want = shown_query.get()?;
        if let Some(r) = shown.with(|r| r.as_ref().filter(|r| r.is_full()).cloned()) {
            return Some(r);
        }
        full.with(|f| f.as_ref().filter(|f| f.query == want).cloned())
            .or(previous)
    });
    // A task after the numbers change, their full answer: only for the report still on screen
    // then (a later edit has its own follow-up; an invalid one keeps the report and needs it).
    Effect::new(move |_| {
        let Some(want) = shown_query.get() else {
            return;
        };
        if charted.with_untracked(|c| c.as_ref().is_some_and(|c| c.query == want)) {
            return;
        }
        set_timeout(
            move || {
                if shown_query.with_untracked(|now| now.as_deref() != Some(want.as_str())) {
                    return;
                }
                let o = data.with_value(|d| query::outcome_with(&want, d, Depth::Full));
                if let Ok(r) = o.report {
                    full.set(Some(r));
                }
            },
            std::time::Duration::ZERO,
        );
    });
    let has_report = Memo::new(move |_| shown.with(Option::is_some));
    let settled = Memo::new(move |_| {
        let q = shown.with(|r| r.as_ref().map(|r| r.query.clone()));
        q.is_some_and(|q| charted.with(|c| c.as_ref().is_some_and(|c| c.query == q)))
    });
    Answers {
        outcome,
        shown,
        charted,
        stale,
        shown_query,
        settled,
        has_report,
    }
}

/// A task after each edit, the address bar follows the inputs (the history API costs a few
/// milliseconds a call, kept off the typing path), invalid ones included. Once live, it shows
/// the canonical link rather than the form's fields (`from_form`) or the link `raw` as typed.
fn follow_address_bar(query: RwSignal<String>, outcome: Memo<Outcome>, raw: &str, from_form: bool) {
    let opened = raw.trim_start_matches('?').to_owned();
    Effect::new(move |ran: Option<()>| {
        let q = query.get();
        if ran.is_none() {
            let canonical = outcome.with_untracked(|o| canonical_or_typed(o, &q));
            if from_form || canonical != opened {
                browser::replace_query(&canonical);
            }
            return;
        }
        set_timeout(
            move || {
                if query.with_untracked(|now| *now == q) {
                    browser::replace_query(&outcome.with_untracked(|o| canonical_or_typed(o, &q)));
                }
            },
            std::time::Duration::ZERO,
        );
    });
}

/// The answer and the bill side by side on a desktop, so both are on the first screen; one
/// after the other on a phone.
fn headline(
    shown: Memo<Option<Answer>>,
    charted: Memo<Option<Answer>>,
    keys: Memo<Vec<String>>,
    stale: Memo<bool>,
    has_report: Memo<bool>,
) -> impl IntoView {
    view! {
        // The answer and the bill side by side on a desktop, so both are on the first
        // screen; one after the other on a phone.
        <div class="headline" class:stale=move || stale.get()>
            {move || has_report.get().then(|| view! {
                <div class="decision">
                    {move || shown.with(|r| r.as_deref().map(verdict::best_line))}
                    {move || charted.with(|r| r.as_ref().map(|r| verdict::sureness_line(r, "_self")))}
                    // Over the years, first when it reverses this month's answer.
                    {move || shown.with(|r| r.as_ref().filter(|r| verdict::horizon_reverses(r)).map(|r| verdict::horizon_line(r, true)))}
                    {move || shown.with(|r| r.as_ref().map(|r| keys.with(|k| verdict::verdict_line(r, k))))}
                </div>
            })}
            {move || shown.get().map(|report| {
                let keys = keys.get();
                view! { <div class="bill"><Totals report keys/></div> }
            })}
        </div>
        {move || has_report.get().then(|| view! {
            <div class="decision">
                {move || shown.with(|r| r.as_ref().filter(|r| !verdict::horizon_reverses(r)).map(|r| verdict::horizon_line(r, true)))}
                {move || charted.with(|r| r.as_ref().map(|r| verdict::changes(r, None)))}
            </div>
        })}
    }
}

/// Ranking every way to serve the workload prices each of them with its own sureness sample:
/// done in the browser when the section is opened, not for every page served. Without
/// JavaScript the section links to the ranking.
fn ranked_options(
    charted: Memo<Option<Answer>>,
    shown_query: Memo<Option<String>>,
    data: StoredValue<Dataset>,
) -> impl IntoView {
    let ranking_open = RwSignal::new(false);
    let ranking_details = NodeRef::<leptos::html::Details>::new();
    Effect::new(move |_| {
        // A section opened before the page came alive missed its toggle: rank it now.
        if ranking_details.get_untracked().is_some_and(|d| d.open()) {
            ranking_open.set(true);
        }
    });
    view! {
        // Ranking every way to serve the workload prices each of them with its own
        // sureness sample: done in the browser when the section is opened, not for
        // every page served. Without JavaScript the section links to the ranking.
        <details class="options" data-testid="options" node_ref=ranking_details
            on:toggle=move |_| {
                if let Some(d) = ranking_details.get_untracked() {
                    ranking_open.set(d.open());
                }
            }>
            <summary>"Every way to serve this workload, ranked"</summary>
            {move || if ranking_open.get() {
                charted.get().map(|report| view! { <OptionsTable report data/> }).into_any()
            } else {
                let q = shown_query.get().unwrap_or_default();
                view! {
                    <p class="intro" data-testid="options-link">
                        "Each API offer of the model, each of its curves at each GPU price of the curve's chip, and their hybrids, priced for this workload: "
                        <a href=format!("/options?{q}") rel="external">"rank them"</a>
                        "."
                    </p>
                }
                .into_any()
            }}
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picking_a_curve_drops_own_points() {
        let mut aside = Vec::new();
        assert_eq!(
            edited(
                "points=1:2&curve_mix=1:1:1&util=0.7",
                "curve",
                "x",
                &mut aside
            ),
            "util=0.7&curve=x"
        );
        assert_eq!(
            edited("own=1&capex=5&tps=100", "own", "0", &mut aside),
            "tps=100"
        );
        assert_eq!(
            edited("cache_hit=0.5", "workload", "chat", &mut aside),
            "workload=chat"
        );
    }

    #[test]
    fn switching_back_from_owned_gives_the_rented_inputs_back() {
        let mut aside = Vec::new();
        let owned = edited("gpu_hour=3.1&scaling=hourly&tps=50", "own", "1", &mut aside);
        assert_eq!(owned, "tps=50&own=1");
        let owned = format!("{owned}&capex=35000");
        let rented = edited(&owned, "own", "0", &mut aside);
        assert_eq!(rented, "tps=50&gpu_hour=3.1&scaling=hourly");
        // And the purchase price comes back with owned hardware.
        assert_eq!(
            edited(&rented, "own", "1", &mut aside),
            "tps=50&capex=35000&own=1"
        );
    }
}
