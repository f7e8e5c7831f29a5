//! `/data`: every model, chip, price, API offer, curve, headline, published figure and source.

use leptos::prelude::*;
use leptos_meta::Title;
use servecost::dataset::Trust;
use servecost::Dataset;

use crate::api::{get_facts, Fact};
use crate::format::{number, per_mtok, significant};
use data::rows::{pair_key, ChipRow, CurveRow, Keyed, ModelRow, OfferRow, SourceRow, TierRow};

mod paging;

/// The dataset page.
#[component]
pub fn Data() -> impl IntoView {
    // Read from the store, not through a resource: the page is not hydrated, so nothing of the
    // dataset needs to travel inside it.
    let dataset: Result<Dataset, String> = use_context::<crate::db::Store>()
        .map(|s| (*s.current()).clone())
        .ok_or_else(|| "the dataset store is not available".to_owned());
    let facts = OnceResource::new(get_facts());
    let asked = paging::View::read(&leptos_router::hooks::use_location().search.get_untracked());
    let store = use_context::<crate::db::Store>();
    let history = OnceResource::new(async move {
        let store = store.ok_or_else(|| "the database is not available".to_owned())?;
        let revisions = data::revisions::revisions(&store.pool)
            .await
            .map_err(|e| format!("loading revisions: {e}"))?;
        let brought = data::revisions::brought(&store.pool)
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
                let asked = asked.clone();
                Suspend::new(async move {
                match (dataset, facts.await, history.await) {
                    (Ok(d), Ok(f), Ok(h)) => view! { <Tables data=d facts=f history=h view=asked/> }.into_any(),
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
    revisions: Vec<data::revisions::Revision>,
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

/// What the imports of the revisions `shown` said of their files (what `--skip-invalid` left
/// out, with each one's reason, among it), folded, at most 50 lines each: the command printed
/// them all.
fn revision_notes(shown: &[&data::revisions::Revision]) -> impl IntoView + use<> {
    shown
        .iter()
        .filter(|r| !r.notes.is_empty())
        .map(|r| {
            let count = r.notes.lines().count();
            let mut lines: Vec<String> = r.notes.lines().take(50).map(str::to_owned).collect();
            if count > lines.len() {
                lines.push(format!("… and {} more, in the import's output", count - lines.len()));
            }
            view! {
                <details class="revision-notes" id=format!("rev-{}-notes", r.id) data-testid="revision-notes">
                    <summary>{format!("Revision {}: {count} note{} of its import", r.id, if count == 1 { "" } else { "s" })}</summary>
                    <ul>{lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view()}</ul>
                </details>
            }
        })
        .collect_view()
}

/// The revisions `shown`, each with what it brought.
fn revisions_table(
    shown: &[&data::revisions::Revision],
    history: &History,
    current: i64,
) -> impl IntoView + use<> {
    shown
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
            // The import's notes are listed below the table, where a line has the page's width.
            let notes = (!r.notes.is_empty()).then(|| {
                view! { " " <a href=format!("#rev-{}-notes", r.id)>"Its import's notes"</a> }
            });
            view! {
                <tr id=format!("rev-{}", r.id)>
                    <th scope="row">{r.id} {(r.id == current).then_some(" (in use)")}</th>
                    <td>{r.created_at.clone()}</td>
                    <td>{r.description.clone()}{notes}</td>
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

/// The search form: it filters every table, and keeps the calculator link the page came from.
fn search_form(v: &paging::View) -> impl IntoView + use<> {
    let clear = (!v.search.is_empty() || v.model.is_some()).then(|| {
        let href = match &v.back {
            Some(back) => format!("/data?for={}", crate::query::encode(back)),
            None => "/data".to_owned(),
        };
        view! { " " <a href=href rel="external" data-testid="data-clear">"Show every row"</a> }
    });
    let scope = v
        .model
        .as_ref()
        .map(|m| format!(" Showing the offers and curves of model {m}."));
    // A search lands on the table the person came for.
    let action = v
        .show
        .map_or_else(|| "/data".to_owned(), |t| format!("/data#{t}"));
    view! {
        <form method="get" action=action class="data-search" id="data-search" role="search" data-testid="data-search">
            <label for="data-q">"Search the dataset"</label>
            <input id="data-q" name="q" type="search" maxlength="200" value=v.search.clone()
                placeholder="a provider, model, chip or source"/>
            {v.model.clone().map(|m| view! { <input type="hidden" name="model" value=m/> })}
            {v.back.clone().map(|b| view! { <input type="hidden" name="for" value=b/> })}
            {v.show.map(|t| view! { <input type="hidden" name="show" value=t/> })}
            <button type="submit">"Search"</button>
            <span class="hint">
                {format!("Each table shows the rows whose names contain the text, {} at a time.", paging::ROWS)}
                {scope}
            </span>
            {clear}
        </form>
    }
}

/// The calculator link that opens offer `o`: the page's own scenario with this offer when the
/// page came from the calculator for the offer's model, else the offer's model with it.
fn use_offer(v: &paging::View, d: &Dataset, o: &servecost::dataset::ApiOffer) -> String {
    // The link's model, or the dataset's first, which a link without `model=` takes.
    let back = v.back.as_deref().filter(|b| {
        let model = servecost::parse_lenient(b).0.scenario.model.clone();
        model
            .or_else(|| d.models.first().map(|m| m.id.clone()))
            .as_deref()
            == Some(o.model.as_str())
    });
    let query = match back {
        Some(b) => crate::query::edit(
            b,
            &[("api", &o.id)],
            &["price_in", "price_out", "cache_discount", "markup"],
        ),
        None => crate::query::edit("", &[("model", &o.model), ("api", &o.id)], &[]),
    };
    crate::query::href(&query)
}

/// The calculator link that opens price tier `t`: the page's own scenario with this price when
/// its curve runs on the tier's chip, else the model's first curve on that chip with it
/// (`None` when the model has none there).
fn use_tier(
    v: &paging::View,
    d: &Dataset,
    back_chip: Option<&str>,
    t: &servecost::dataset::PriceTier,
) -> Option<String> {
    let remove = ["gpu_hour", "gpu_kind", "own", "capex"];
    if let (Some(back), Some(chip)) = (v.back.as_deref(), back_chip) {
        if chip == t.chip {
            return Some(crate::query::href(&crate::query::edit(
                back,
                &[("gpu_tier", &t.tier)],
                &remove,
            )));
        }
    }
    let curve = d.curves.iter().find(|c| c.chip == t.chip)?;
    Some(crate::query::href(&crate::query::edit(
        "",
        &[
            ("model", &curve.model),
            ("curve", &curve.id),
            ("gpu_tier", &t.tier),
        ],
        &[],
    )))
}

/// A table with its heading, its header row and one page of rows.
fn table_section(
    id: &'static str,
    title: &'static str,
    head: &'static [&'static str],
    (count, rows): (usize, AnyView),
    pager: Option<AnyView>,
    testid: Option<&'static str>,
) -> impl IntoView + use<> {
    let head = head.iter().map(|h| view! { <th>{*h}</th> }).collect_view();
    let body = if count == 0 {
        view! { <p class="hint" data-testid=format!("none-{id}")>"No row matches the search."</p> }
            .into_any()
    } else {
        view! { <table data-testid=testid><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table> }
            .into_any()
    };
    view! {
        <section id=id>
            <h2>{title}</h2>
            {body}
            {pager}
        </section>
    }
}

/// What every table of the page reads: the dataset, the address's search and pages, which
/// revision brought each row, and the sources the rows shown cite.
struct Shown<'a> {
    d: &'a Dataset,
    v: &'a paging::View,
    h: InForce,
    cited: std::cell::RefCell<Vec<String>>,
}

impl Shown<'_> {
    /// Notes that a row shown cites source `key`: the sources table lists it.
    fn cite(&self, key: &str) {
        let mut cited = self.cited.borrow_mut();
        if !cited.iter().any(|k| k == key) {
            cited.push(key.to_owned());
        }
    }
}

/// All tables, each searched and paged as the address asks.
#[component]
fn Tables(
    /// The dataset.
    data: Dataset,
    /// Every published figure.
    facts: Vec<Fact>,
    /// Every revision.
    history: History,
    /// What the address asks for.
    view: paging::View,
) -> impl IntoView {
    let rev = data.revision;
    let s = Shown {
        d: &data,
        v: &view,
        h: history.in_force(rev),
        cited: Default::default(),
    };
    let (revisions, revisions_pager) = view.slice("revisions", history.revisions.iter().collect());
    let notes = revision_notes(&revisions);
    let revisions = revisions_table(&revisions, &history, rev);
    // The sources come last: they list every source a row above cites.
    let tables = view! {
        {models(&s)}
        {chips(&s)}
        {tiers(&s)}
        {offers(&s)}
        {curves(&s)}
        {headlines(&s)}
        {figures(&s, &facts)}
    };
    view! {
        <p>"Dataset revision " {rev} ". Every number the calculator uses, with its source."</p>
        {search_form(&view)}
        {tables}
        <section id="revisions"><h2>"Revisions"</h2>
            <p>"Each import adds a revision; nothing is changed or deleted, so saved scenarios keep the revision they were computed with. The calculator uses the newest."</p>
            <table data-testid="revisions"><thead><tr><th>"Revision"</th><th>"Written"</th><th>"What it brought"</th><th>"Files"</th><th>"Rows"</th></tr></thead><tbody>{revisions}</tbody></table>
            {notes}
            {revisions_pager}
        </section>
        {sources(&s)}
    }
}

fn models(s: &Shown) -> impl IntoView + use<> {
    let (d, v) = (s.d, s.v);
    let (rows, pager) = v.slice(
        "models",
        d.models
            .iter()
            .filter(|m| v.matches(&[&m.id, &m.name, &m.licence]))
            .collect(),
    );
    let count = rows.len();
    let reach = d.reach();
    let rows = rows.into_iter().map(|m| {
        s.cite(&m.licence_source);
        let weights = m.weights.iter().map(|w| format!("{}: {} GB", w.precision.to_uppercase(), number(w.gigabytes))).collect::<Vec<_>>().join(", ");
        // What the dataset holds of it: where it was measured, who sells it.
        let holds = reach.iter().find(|r| r.model == m.id).map(|r| {
            let chips: Vec<&str> = r.chips.iter().map(|c| d.chip(c).map_or(c.as_str(), |x| x.name.as_str())).collect();
            let n = |k: u32, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
            format!(
                "{}{}; {} from {}",
                n(r.curves, "curve", "curves"),
                if chips.is_empty() { String::new() } else { format!(" on {}", chips.join(", ")) },
                n(r.offers, "API offer", "API offers"),
                n(r.providers, "provider", "providers")
            )
        });
        view! { <tr><th scope="row">{m.name.clone()}</th><td data-testid="model-holds">{holds}</td><td>{weights}</td><td>{m.licence.clone()} " " {source_link(d, &m.licence_source)}</td><td>{s.h.label(ModelRow::KIND, &m.id)}</td></tr> }
    }).collect_view();
    table_section(
        "models",
        "Models",
        &["Model", "In the dataset", "Weights", "Licence", "Revision"],
        (count, rows.into_any()),
        pager,
        None,
    )
}

fn chips(s: &Shown) -> impl IntoView + use<> {
    let (d, v) = (s.d, s.v);
    let (rows, pager) = v.slice(
        "chips",
        d.chips
            .iter()
            .filter(|c| v.matches(&[&c.id, &c.name]))
            .collect(),
    );
    let count = rows.len();
    let kw = |k: Option<f64>| k.map(|k| format!("{}\u{a0}kW", crate::format::significant(k, 3)));
    let rows = rows.into_iter().map(|c| {
        s.cite(&c.memory_source);
        c.accelerator_kw_source.iter().chain(&c.all_in_kw_source).for_each(|k| s.cite(k));
        view! {
        <tr>
            <th scope="row">{c.name.clone()}</th>
            <td>{number(c.memory_gb)} " GB " {source_link(d, &c.memory_source)}</td>
            <td>{kw(c.accelerator_kw)} " " {c.accelerator_kw_source.as_deref().map(|k| source_link(d, k))}</td>
            <td>{kw(c.all_in_kw)} " " {c.all_in_kw_source.as_deref().map(|k| source_link(d, k))}</td>
            <td>{s.h.label(ChipRow::KIND, &c.id)}</td>
        </tr>
    }}).collect_view();
    table_section(
        "chips",
        "Chips",
        &[
            "Chip",
            "Memory per GPU",
            "Accelerator power",
            "All-in power",
            "Revision",
        ],
        (count, rows.into_any()),
        pager,
        None,
    )
}

fn tiers(s: &Shown) -> impl IntoView + use<> {
    let (d, v) = (s.d, s.v);
    let (rows, pager) = v.slice(
        "tiers",
        d.price_tiers
            .iter()
            .filter(|t| {
                let chip = d.chip(&t.chip).map_or("", |c| c.name.as_str());
                v.matches(&[&t.chip, chip, &t.tier, &t.label, &t.source])
            })
            .collect(),
    );
    // The chip the calculator link the page came from runs on.
    let back_chip = v.back.as_deref().and_then(|b| {
        crate::query::outcome(b, d)
            .report
            .ok()
            .and_then(|r| r.inputs.chip.clone())
    });
    let count = rows.len();
    let rows = rows.into_iter().map(|t| {
        s.cite(&t.source);
        let href = use_tier(v, d, back_chip.as_deref(), t);
        view! {
        <tr>
            <th scope="row">{d.chip(&t.chip).map_or(t.chip.clone(), |c| c.name.clone())}
                {href.map(|href| view! { <br/><a href=href rel="external" class="use" data-testid="use-tier" data-tier=t.tier.clone()>"Use in the calculator"</a> })}
            </th>
            <td>{t.label.clone()} {t.is_default.then_some(" (default)")}</td>
            <td>{crate::format::usd(t.usd_per_gpu_hour)}</td>
            <td>{source_link(d, &t.source)}</td>
            <td>{as_of(d, &t.source)}</td>
            <td>{s.h.label(TierRow::KIND, &pair_key(&t.chip, &t.tier))}</td>
        </tr>
    }}).collect_view();
    table_section(
        "tiers",
        "GPU-hour prices",
        &[
            "Chip",
            "Tier",
            "$ per GPU-hour",
            "Source",
            "As of",
            "Revision",
        ],
        (count, rows.into_any()),
        pager,
        None,
    )
}

fn offers(s: &Shown) -> impl IntoView + use<> {
    let (d, v) = (s.d, s.v);
    let (rows, pager) = v.slice(
        "offers",
        d.api_offers
            .iter()
            .filter(|o| {
                let publisher = d.source(&o.source).map_or("", |s| s.publisher.as_str());
                v.of_model(&o.model) && v.matches(&[&o.id, &o.name, &o.model, &o.source, publisher])
            })
            .collect(),
    );
    let count = rows.len();
    let rows = rows.into_iter().map(|o| {
        s.cite(&o.source);
        let href = use_offer(v, d, o);
        view! {
        <tr>
            <th scope="row">{o.name.clone()} <br/><a href=href rel="external" class="use" data-testid="use-offer" data-offer=o.id.clone()>"Use in the calculator"</a></th>
            <td>{per_mtok(o.price_in)}</td><td>{per_mtok(o.price_out)}</td>
            <td>{crate::format::percent(o.cache_discount)}</td><td>{crate::format::percent(o.markup)}</td>
            <td>{o.speed_tps.map(|s| format!("{} tokens/s", crate::format::significant(s, 4)))}</td>
            <td>{source_link(d, &o.source)} {o.note.clone().map(|n| view! { <br/><small>{n}</small> })}</td>
            <td>{as_of(d, &o.source)}</td>
            <td>{s.h.label(OfferRow::KIND, &o.id)}</td>
        </tr>
    }}).collect_view();
    table_section(
        "offers",
        "API offers",
        &[
            "Offer",
            "Input $/M",
            "Output $/M",
            "Cache discount",
            "Markup",
            "Speed",
            "Source",
            "As of",
            "Revision",
        ],
        (count, rows.into_any()),
        pager,
        Some("offers"),
    )
}

fn curves(s: &Shown) -> impl IntoView + use<> {
    let (d, v) = (s.d, s.v);
    let (rows, pager) = v.slice(
        "curves",
        d.curves
            .iter()
            .filter(|c| {
                let chip = d.chip(&c.chip).map_or("", |x| x.name.as_str());
                v.of_model(&c.model)
                    && v.matches(&[&c.id, &c.model, &c.chip, chip, &c.framework, &c.source])
            })
            .collect(),
    );
    let count = rows.len();
    let rows = rows.into_iter().map(|c| {
        s.cite(&c.source);
        let powered = c.points.iter().any(|p| p.power_w_per_gpu.is_some());
        let rowed = !c.point_sources.is_empty();
        let points = c.points.iter().enumerate().map(|(i, p)| view! {
            <tr>
                <td>{significant(p.tps, 4)}</td>
                <td>{number(p.tokens_per_s_per_gpu.round())}</td>
                {powered.then(|| view! { <td>{p.power_w_per_gpu.map_or("not measured".to_owned(), |w| format!("{} W", number(w.round())))}</td> })}
                {rowed.then(|| view! { <td class="point-source">{c.point_sources.get(i).cloned().unwrap_or_default()}</td> })}
            </tr>
        }).collect_view();
        let all_in = d
            .chip(&c.chip)
            .and_then(|x| x.all_in_kw)
            .map_or("no all-in figure in the dataset".to_owned(), |kw| {
                format!("all-in {} kW a GPU, which the bill uses", significant(kw, 3))
            });
        let mix = |x: f64| crate::format::percent_precise(x);
        let tier = c.tier.map(|t| view! {
            <p data-testid="curve-tier">"Data tier: " <strong>{t.key()}</strong> {match t {
                servecost::dataset::DataTier::Audited => " (an MLPerf result, reviewed by the other submitters before publication)",
                servecost::dataset::DataTier::Vendor => " (a framework or chip maker measuring its own stack)",
                servecost::dataset::DataTier::Experimental => " (development runs: see the note)",
            }}</p>
        });
        view! {
            <article class="curve" id=format!("curve-{}", c.id)>
                <h3>{d.curve_label(c)}</h3>
                {tier}
                <p>
                    "Measured mix: " {format!("{} uncached input, {} cached input, {} output", mix(c.mix.uncached), mix(c.mix.cached), mix(c.mix.output))}
                    " (" {if c.mix_stated { "stated by the source" } else { "assumed: the source does not state it" }} "). Source: " {source_link(d, &c.source)} ". "
                    {s.h.label(CurveRow::KIND, &c.id)}
                </p>
                {sizing(c)}
                {c.note.clone().map(|n| view! { <p class="hint">{n}</p> })}
                <table>
                    <thead><tr>
                        <th>"Output tokens/s per user"</th>
                        <th>"Tokens/s per GPU (of the mix above)"</th>
                        {powered.then(|| view! { <th>{format!("Measured power per GPU ({all_in})")}</th> })}
                        {rowed.then(|| view! { <th>"From"</th> })}
                    </tr></thead>
                    <tbody>{points}</tbody>
                </table>
            </article>
        }
    }).collect_view();
    view! {
        <section id="curves"><h2>"Throughput curves"</h2>
            {(count == 0).then(|| view! { <p class="hint" data-testid="none-curves">"No row matches the search."</p> })}
            {rows}{pager}
        </section>
    }
}

/// How a curve is sized and priced beyond its points: its replica and where that comes from,
/// its prefill rate `P`, the bounds its input is drawn across, its batch rate and whether it is
/// its model's default.
fn sizing(c: &servecost::dataset::Curve) -> impl IntoView + use<> {
    let replica = c.replica_basis.clone().unwrap_or_else(|| {
        format!(
            "{} a replica: the measured system as a whole, as the first revisions read it",
            crate::format::gpus(c.replica_gpus)
        )
    });
    let prefill = c.prefill.map_or_else(
        || {
            format!(
                "Prefill rate P: not held with the curve; servecost's assumption, {} tokens/s \
                 per GPU, applies unless you give one.",
                number(servecost::scenario::defaults::PREFILL)
            )
        },
        |p| {
            format!(
                "Prefill rate P: {} tokens/s per GPU, held with the curve (the note says how it \
                 was worked out).",
                number(p)
            )
        },
    );
    let bounds = c.input_share_bounds.map(|[low, high]| {
        format!(
            "Input share of the measured mix: between {} and {} (the source bounds it; the \
             mix above is servecost's assumption inside them, and the judgement draws across \
             them).",
            crate::format::percent_precise(low),
            crate::format::percent_precise(high)
        )
    });
    let batch = c.batch_tokens_per_s_per_gpu.map_or_else(
        || {
            "Batch: no rate without a latency bound is measured; batch is served on the points."
                .to_owned()
        },
        |t| {
            format!(
                "Batch: {} tokens/s per GPU, the Offline rate batch traffic is served at.",
                number(t.round())
            )
        },
    );
    view! {
        <ul class="curve-sizing" data-testid="curve-sizing">
            <li data-testid="curve-replica" data-gpus=c.replica_gpus>{replica}</li>
            <li data-testid="curve-prefill" data-prefill=c.prefill>{prefill}</li>
            {bounds.map(|b| view! { <li data-testid="curve-bounds">{b}</li> })}
            <li data-testid="curve-batch">{batch}</li>
            {c.is_default.then(|| view! { <li data-testid="curve-default">"The model's default curve: the one a link that names no curve prices."</li> })}
        </ul>
    }
}

fn headlines(s: &Shown) -> impl IntoView + use<> {
    let (d, v) = (s.d, s.v);
    let (rows, pager) = v.slice(
        "headlines",
        d.headlines
            .iter()
            .filter(|x| v.matches(&[&x.id, &x.label, &x.chip, &x.source]))
            .collect(),
    );
    let count = rows.len();
    let rows = rows.into_iter().map(|x| {
        s.cite(&x.source);
        view! {
        <tr>
            <th scope="row">{x.label.clone()}</th>
            <td>{x.tokens_per_s_per_mw.map(|v| format!("{} tokens/s per MW", number(v)))}{x.agents_per_mw.map(|a| format!("{} agents per MW", number(a)))}</td>
            <td>{if x.is_floor { "floor" } else { "" }}</td>
            <td>{source_link(d, &x.source)}</td>
        </tr>
    }}).collect_view();
    table_section(
        "headlines",
        "Power headlines",
        &["Figure", "Value", "", "Source"],
        (count, rows.into_any()),
        pager,
        None,
    )
}

fn figures(s: &Shown, facts: &[Fact]) -> impl IntoView + use<> {
    let (d, v) = (s.d, s.v);
    let (rows, pager) = v.slice(
        "facts",
        facts
            .iter()
            .filter(|f| v.matches(&[&f.subject, &f.label, &f.source]))
            .collect(),
    );
    let count = rows.len();
    let rows = rows.into_iter().map(|f| {
        s.cite(&f.source);
        let value = match (&f.value, &f.value_text) {
            (Some(v), Some(t)) => format!("{} {} ({t})", number(*v), f.unit.clone().unwrap_or_default()),
            (Some(v), None) => format!("{} {}", number(*v), f.unit.clone().unwrap_or_default()),
            (None, Some(t)) => t.clone(),
            (None, None) => String::new(),
        };
        view! { <tr><td>{f.subject.clone()}</td><th scope="row">{f.label.clone()}</th><td>{value}</td><td>{source_link(d, &f.source)}</td></tr> }
    }).collect_view();
    table_section(
        "facts",
        "Every published figure",
        &["Subject", "Figure", "Value", "Source"],
        (count, rows.into_any()),
        pager,
        Some("facts"),
    )
}

/// The sources matching the search, a page at a time, and every source a row shown cites, so
/// that each source link on the page has its row.
fn sources(s: &Shown) -> impl IntoView + use<> {
    let (d, v) = (s.d, s.v);
    let matching: Vec<&servecost::dataset::Source> = d
        .sources
        .iter()
        .filter(|x| v.matches(&[&x.key, &x.publisher, &x.title]))
        .collect();
    let (mut rows, pager) = v.slice("sources", matching);
    for key in s.cited.borrow().iter() {
        if let Some(x) = d.source(key) {
            if !rows.iter().any(|r| r.key == x.key) {
                rows.push(x);
            }
        }
    }
    let count = rows.len();
    let rows = rows.into_iter().map(|x| {
        let trust = match x.trust {
            Trust::Independent => "independent",
            Trust::Vendor => "vendor",
            Trust::Licensor => "licensor",
            Trust::Assumption => "assumption",
        };
        view! {
            <tr id=format!("src-{}", x.key)>
                <th scope="row">{x.publisher.clone()}</th><td>{x.title.clone()}</td><td>{x.date.clone()}</td><td>{trust}</td>
                <td>{x.caveat.clone()}</td>
                <td>{s.h.label(SourceRow::KIND, &x.key)}</td>
            </tr>
        }
    }).collect_view();
    table_section(
        "sources",
        "Sources",
        &["Publisher", "What", "Date", "Trust", "Caveat", "Revision"],
        (count, rows.into_any()),
        pager,
        Some("sources"),
    )
}
