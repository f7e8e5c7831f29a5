//! `/data`: every model, chip, price, API offer, curve, headline, published figure and source.

use leptos::prelude::*;
use leptos_meta::Title;
use servecost::dataset::Trust;
use servecost::Dataset;

use crate::api::{get_facts, Fact};
use crate::db::rows::{pair_key, ChipRow, CurveRow, Keyed, ModelRow, OfferRow, SourceRow, TierRow};
use crate::format::{number, per_mtok, significant};

/// The dataset page.
#[component]
pub fn Data() -> impl IntoView {
    // Read from the store, not through a resource: the page is not hydrated, so nothing of the
    // dataset needs to travel inside it.
    let dataset: Result<Dataset, String> = use_context::<crate::db::Store>()
        .map(|s| (*s.current()).clone())
        .ok_or_else(|| "the dataset store is not available".to_owned());
    let facts = OnceResource::new(get_facts());
    let store = use_context::<crate::db::Store>();
    let history = OnceResource::new(async move {
        let store = store.ok_or_else(|| "the database is not available".to_owned())?;
        let revisions = crate::db::import::revisions(&store.pool)
            .await
            .map_err(|e| format!("loading revisions: {e}"))?;
        let brought = crate::db::import::brought(&store.pool)
            .await
            .map_err(|e| format!("loading revisions: {e}"))?;
        Ok::<_, String>(History { revisions, brought })
    });
    view! {
        <Title text="servecost: the dataset"/>
        <header class="masthead">
            <h1>"The dataset"</h1>
            <crate::components::SiteNav current="/data"/>
        </header>
        <Suspense fallback=|| view! { <p>"Loading…"</p> }>
            {move || {
                let dataset = dataset.clone();
                Suspend::new(async move {
                match (dataset, facts.await, history.await) {
                    (Ok(d), Ok(f), Ok(h)) => view! { <Tables data=d facts=f history=h/> }.into_any(),
                    (Err(e), _, _) | (_, _, Err(e)) => view! { <p class="error">{e}</p> }.into_any(),
                    (_, Err(e), _) => view! { <p class="error">{e.to_string()}</p> }.into_any(),
                }
                })
            }}
        </Suspense>
    }
}

fn source_link(d: &Dataset, key: &str) -> impl IntoView + use<> {
    let name = d
        .source(key)
        .map_or(key.to_owned(), |s| s.publisher.clone());
    view! { <a href=format!("#src-{key}")>{name}</a> }
}

/// Every revision and what each brought.
#[derive(Clone, serde::Serialize, serde::Deserialize)]
struct History {
    revisions: Vec<crate::db::import::Revision>,
    brought: Vec<(i64, String, String)>,
}

impl History {
    /// For each (kind, key), the revision that brought the row in force at `current`.
    fn in_force(&self, current: i64) -> InForce {
        let mut by = std::collections::BTreeMap::new();
        // `brought` is in revision order: the last one not above `current` wins.
        for (r, kind, key) in self.brought.iter().filter(|(r, _, _)| *r <= current) {
            by.insert((kind.clone(), key.clone()), *r);
        }
        InForce(by)
    }
}

/// Which revision brought each row in force.
struct InForce(std::collections::BTreeMap<(String, String), i64>);

impl InForce {
    fn label(&self, kind: &str, key: &str) -> impl IntoView + use<> {
        self.0
            .get(&(kind.to_owned(), key.to_owned()))
            .copied()
            .map(|r| view! { <a class="rev" href=format!("#rev-{r}") title="The dataset revision that brought this row">{format!("rev. {r}")}</a> })
    }
}

/// The revisions, newest first, each with what it brought.
fn revisions_table(history: &History, current: i64) -> impl IntoView + use<> {
    history
        .revisions
        .iter()
        .map(|r| {
            let rows: Vec<String> = history
                .brought
                .iter()
                .filter(|(rev, _, _)| *rev == r.id)
                .map(|(_, kind, key)| format!("{kind} {key}"))
                .collect();
            let shown = if rows.len() > 12 {
                format!("{} rows, among them {}…", rows.len(), rows[..12].join(", "))
            } else {
                rows.join(", ")
            };
            let files = r
                .source_files
                .lines()
                .map(|f| view! { <code>{f.to_owned()}</code> " " })
                .collect_view();
            view! {
                <tr id=format!("rev-{}", r.id)>
                    <th scope="row">{r.id} {(r.id == current).then_some(" (in use)")}</th>
                    <td>{r.created_at.clone()}</td>
                    <td>{r.description.clone()}</td>
                    <td>{files}</td>
                    <td><small>{shown}</small></td>
                </tr>
            }
        })
        .collect_view()
}

/// A price's date as its source gives it, and its age on the day of viewing when it is old.
fn as_of(d: &Dataset, key: &str) -> String {
    let Some(date) = d.source(key).map(|s| s.date.clone()) else {
        return String::new();
    };
    let age = d
        .as_of
        .as_deref()
        .and_then(|today| servecost::freshness::age_days(&date, today))
        .filter(|a| *a > servecost::freshness::STALE_AFTER_DAYS);
    match age {
        Some(days) => format!("{date} ({days} days old)"),
        None => date,
    }
}

/// All tables.
#[component]
fn Tables(
    /// The dataset.
    data: Dataset,
    /// Every published figure.
    facts: Vec<Fact>,
    /// Every revision.
    history: History,
) -> impl IntoView {
    let d = &data;
    let rev = data.revision;
    let h = &history.in_force(rev);
    let models = d.models.iter().map(|m| {
        let weights = m.weights.iter().map(|w| format!("{}: {} GB", w.precision.to_uppercase(), number(w.gigabytes))).collect::<Vec<_>>().join(", ");
        view! { <tr><th scope="row">{m.name.clone()}</th><td>{weights}</td><td>{m.licence.clone()} " " {source_link(d, &m.licence_source)}</td><td>{h.label(ModelRow::KIND, &m.id)}</td></tr> }
    }).collect_view();
    let chips = d.chips.iter().map(|c| view! {
        <tr>
            <th scope="row">{c.name.clone()}</th>
            <td>{number(c.memory_gb)} " GB " {source_link(d, &c.memory_source)}</td>
            <td>{c.accelerator_kw.map(|k| format!("{}\u{a0}kW", crate::format::significant(k, 3)))} " " {c.accelerator_kw_source.as_deref().map(|s| source_link(d, s))}</td>
            <td>{c.all_in_kw.map(|k| format!("{}\u{a0}kW", crate::format::significant(k, 3)))} " " {c.all_in_kw_source.as_deref().map(|s| source_link(d, s))}</td>
            <td>{h.label(ChipRow::KIND, &c.id)}</td>
        </tr>
    }).collect_view();
    let tiers = d.price_tiers.iter().map(|t| view! {
        <tr>
            <th scope="row">{d.chip(&t.chip).map_or(t.chip.clone(), |c| c.name.clone())}</th>
            <td>{t.label.clone()} {t.is_default.then_some(" (default)")}</td>
            <td>{crate::format::usd(t.usd_per_gpu_hour)}</td>
            <td>{source_link(d, &t.source)}</td>
            <td>{as_of(d, &t.source)}</td>
            <td>{h.label(TierRow::KIND, &pair_key(&t.chip, &t.tier))}</td>
        </tr>
    }).collect_view();
    let offers = d.api_offers.iter().map(|o| view! {
        <tr>
            <th scope="row">{o.name.clone()}</th>
            <td>{per_mtok(o.price_in)}</td><td>{per_mtok(o.price_out)}</td>
            <td>{crate::format::percent(o.cache_discount)}</td><td>{crate::format::percent(o.markup)}</td>
            <td>{o.speed_tps.map(|s| format!("{} tokens/s", crate::format::significant(s, 4)))}</td>
            <td>{source_link(d, &o.source)} {o.note.clone().map(|n| view! { <br/><small>{n}</small> })}</td>
            <td>{as_of(d, &o.source)}</td>
            <td>{h.label(OfferRow::KIND, &o.id)}</td>
        </tr>
    }).collect_view();
    let curves = d.curves.iter().map(|c| {
        let points = c.points.iter().map(|p| view! {
            <tr><td>{significant(p.tps, 4)}</td><td>{number(p.tokens_per_s_per_gpu.round())}</td></tr>
        }).collect_view();
        let chip = d.chip(&c.chip).map_or(c.chip.clone(), |x| x.name.clone());
        view! {
            <article class="curve" id=format!("curve-{}", c.id)>
                <h3>{format!("{} × {chip}, {}, {}", crate::format::number(c.replica_gpus), c.precision.to_uppercase(), c.framework)}</h3>
                <p>
                    "Measured mix: " {format!("{} uncached input, {} cached input, {} output", crate::format::percent_precise(c.mix.uncached), crate::format::percent_precise(c.mix.cached), crate::format::percent_precise(c.mix.output))}
                    " (" {if c.mix_stated { "stated by the source" } else { "assumed: the source does not state it" }} "). Source: " {source_link(d, &c.source)} ". "
                    {h.label(CurveRow::KIND, &c.id)}
                </p>
                {c.note.clone().map(|n| view! { <p class="hint">{n}</p> })}
                <table>
                    <thead><tr><th>"Output tokens/s per user"</th><th>"Total tokens/s per GPU"</th></tr></thead>
                    <tbody>{points}</tbody>
                </table>
            </article>
        }
    }).collect_view();
    let headlines = d.headlines.iter().map(|h| view! {
        <tr>
            <th scope="row">{h.label.clone()}</th>
            <td>{h.tokens_per_s_per_mw.map(|v| format!("{} tokens/s per MW", number(v)))}{h.agents_per_mw.map(|a| format!("{} agents per MW", number(a)))}</td>
            <td>{if h.is_floor { "floor" } else { "" }}</td>
            <td>{source_link(d, &h.source)}</td>
        </tr>
    }).collect_view();
    let revisions = revisions_table(&history, rev);
    let figures = facts.iter().map(|f| {
        let value = match (&f.value, &f.value_text) {
            (Some(v), Some(t)) => format!("{} {} ({t})", number(*v), f.unit.clone().unwrap_or_default()),
            (Some(v), None) => format!("{} {}", number(*v), f.unit.clone().unwrap_or_default()),
            (None, Some(t)) => t.clone(),
            (None, None) => String::new(),
        };
        view! { <tr><td>{f.subject.clone()}</td><th scope="row">{f.label.clone()}</th><td>{value}</td><td>{source_link(d, &f.source)}</td></tr> }
    }).collect_view();
    let sources = d.sources.iter().map(|s| {
        let trust = match s.trust {
            Trust::Independent => "independent",
            Trust::Vendor => "vendor",
            Trust::Licensor => "licensor",
            Trust::Assumption => "assumption",
        };
        view! {
            <tr id=format!("src-{}", s.key)>
                <th scope="row">{s.publisher.clone()}</th><td>{s.title.clone()}</td><td>{s.date.clone()}</td><td>{trust}</td>
                <td>{s.caveat.clone()}</td>
                <td>{h.label(SourceRow::KIND, &s.key)}</td>
            </tr>
        }
    }).collect_view();
    view! {
        <p>"Dataset revision " {data.revision} ". Every number the calculator uses, with its source."</p>
        <section><h2>"Models"</h2><table><thead><tr><th>"Model"</th><th>"Weights"</th><th>"Licence"</th><th>"Revision"</th></tr></thead><tbody>{models}</tbody></table></section>
        <section><h2>"Chips"</h2><table><thead><tr><th>"Chip"</th><th>"Memory per GPU"</th><th>"Accelerator power"</th><th>"All-in power"</th><th>"Revision"</th></tr></thead><tbody>{chips}</tbody></table></section>
        <section><h2>"GPU-hour prices"</h2><table><thead><tr><th>"Chip"</th><th>"Tier"</th><th>"$ per GPU-hour"</th><th>"Source"</th><th>"As of"</th><th>"Revision"</th></tr></thead><tbody>{tiers}</tbody></table></section>
        <section><h2>"API offers"</h2><table><thead><tr><th>"Offer"</th><th>"Input $/M"</th><th>"Output $/M"</th><th>"Cache discount"</th><th>"Markup"</th><th>"Speed"</th><th>"Source"</th><th>"As of"</th><th>"Revision"</th></tr></thead><tbody>{offers}</tbody></table></section>
        <section><h2>"Throughput curves"</h2>{curves}</section>
        <section><h2>"Power headlines"</h2><table><thead><tr><th>"Figure"</th><th>"Value"</th><th></th><th>"Source"</th></tr></thead><tbody>{headlines}</tbody></table></section>
        <section><h2>"Every published figure"</h2><table data-testid="facts"><thead><tr><th>"Subject"</th><th>"Figure"</th><th>"Value"</th><th>"Source"</th></tr></thead><tbody>{figures}</tbody></table></section>
        <section id="revisions"><h2>"Revisions"</h2>
            <p>"Each import adds a revision; nothing is changed or deleted, so saved scenarios keep the revision they were computed with. The calculator uses the newest."</p>
            <table data-testid="revisions"><thead><tr><th>"Revision"</th><th>"Written"</th><th>"What it brought"</th><th>"Files"</th><th>"Rows"</th></tr></thead><tbody>{revisions}</tbody></table>
        </section>
        <section><h2>"Sources"</h2><table data-testid="sources"><thead><tr><th>"Publisher"</th><th>"What"</th><th>"Date"</th><th>"Trust"</th><th>"Caveat"</th><th>"Revision"</th></tr></thead><tbody>{sources}</tbody></table></section>
    }
}
