//! `/compare?a=…&b=…`: two scenarios side by side. Each side is a calculator link, a saved
//! scenario's link or id, or a query string; a saved one is evaluated at its pinned revision.
//! The page shows the inputs that differ, both answers, both bills line by line, the per-class
//! costs and one cost-against-volume chart with both. `/embed/compare` is its compact view for a
//! wiki. Rendered on the server only, so it works without JavaScript.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_location;
use servecost::in_force::{list, InForce, Origin};
use servecost::Report;

use crate::charts;
use crate::components::verdict::{best_sentence, horizon_sentence};
use crate::components::ChartFigure;
use crate::db::Store;
use crate::format::{number, per_mtok, percent, tokens, usd};
use crate::query;

/// What a side of the comparison names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SideInput {
    /// A saved scenario's id.
    Saved(String),
    /// A scenario's query string.
    Query(String),
}

/// Reads a side as people give it: a full link (`https://host/?requests=40M`,
/// `https://host/s/AbC…`), a path (`/s/AbC…`, `/?requests=40M`), a saved id, or a query string.
pub fn side_input(text: &str) -> SideInput {
    // A link's fragment (`#years`) is no part of the scenario.
    let text = text.trim().split('#').next().unwrap_or_default();
    // Past the scheme and the host, if any; a host without a scheme (`costs.example.com/s/…`)
    // ends at the first `/` when a `.` comes before it and no `=` does.
    let rest = match text.split_once("://") {
        Some((_, after)) => after.find(['/', '?']).map_or("", |i| &after[i..]),
        None => match text.find('/') {
            Some(i) if text[..i].contains('.') && !text[..i].contains('=') => &text[i..],
            _ => text,
        },
    };
    let (path, search) = rest.split_once('?').unwrap_or((rest, ""));
    for marker in ["/embed/s/", "/s/"] {
        if let Some((_, id)) = path.split_once(marker) {
            return SideInput::Saved(id.trim_end_matches('/').to_owned());
        }
    }
    if search.is_empty() && crate::db::saved::is_id(path) {
        return SideInput::Saved(path.to_owned());
    }
    let query = if rest.contains('?') { search } else { path };
    SideInput::Query(
        query
            .trim_start_matches(['/', '?'])
            .trim_start_matches("embed")
            .trim_start_matches('?')
            .to_owned(),
    )
}

/// One side, evaluated.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Compared {
    /// `A` or `B`.
    pub letter: String,
    /// What the page calls it: the saved name, or "Scenario A".
    pub name: String,
    /// Where it opens: the saved page or the calculator.
    pub href: String,
    /// The value of its parameter in a compare link: the saved id or the query.
    pub param: String,
    /// Its report.
    pub report: query::Answer,
    /// Saved at this revision (`None`: the current data).
    pub pinned: Option<i64>,
    /// Parameters of its link not used, each with the reason.
    pub ignored: Vec<String>,
}

/// Evaluates the side `letter` given as `text` (`None`: not given).
pub async fn side(
    store: &Store,
    letter: &'static str,
    text: Option<&str>,
) -> Result<Compared, String> {
    let label = format!("Scenario {letter}");
    let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
        return Err(format!(
            "{label}: not given. Paste a servecost link, a saved scenario's link or its id."
        ));
    };
    match side_input(text) {
        SideInput::Saved(id) => match crate::db::saved::pinned_report(store, &id).await {
            Ok((saved, report)) => Ok(Compared {
                letter: letter.to_owned(),
                href: format!("/s/{}", saved.id),
                param: saved.id.clone(),
                pinned: Some(saved.revision),
                name: saved.name,
                report: report.into(),
                ignored: Vec::new(),
            }),
            Err(crate::db::saved::PinnedError::NotFound) => {
                Err(format!("{label}: no saved scenario has the id “{id}”."))
            }
            Err(crate::db::saved::PinnedError::Problems(p)) => Err(format!(
                "{label}: the saved scenario no longer evaluates: {}",
                words(&p)
            )),
            Err(crate::db::saved::PinnedError::Database(e)) => {
                leptos::logging::error!("compare: loading saved scenario {id}: {e}");
                Err(format!(
                    "{label}: the saved scenario could not be read (a database error); try again."
                ))
            }
        },
        SideInput::Query(q) => {
            let data = store.current();
            let o = query::outcome(&q, &data);
            if !o.problems.is_empty() {
                return Err(format!("{label}: {}", words(&o.problems)));
            }
            match o.report {
                Ok(report) => Ok(Compared {
                    letter: letter.to_owned(),
                    name: label,
                    href: query::canonical_href(&report.query),
                    param: report.query.clone(),
                    ignored: o
                        .ignored
                        .iter()
                        .map(|p| format!("{} ({})", p.param, p.reason))
                        .collect(),
                    pinned: None,
                    report,
                }),
                Err(problems) => Err(format!("{label}: no answer: {}", words(&problems))),
            }
        }
    }
}

fn words(problems: &[servecost::Problem]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// The `a` and `b` of the page's link, decoded.
fn sides_of_link() -> (Option<String>, Option<String>) {
    let raw = use_location().search.get_untracked();
    let get = |name| query::get(&raw, name).map(|v| servecost::codec::decode(&v.replace('+', " ")));
    (get("a"), get("b"))
}

/// Both sides of the page's link, evaluated.
fn both_sides(
    a: Option<String>,
    b: Option<String>,
) -> OnceResource<(Result<Compared, String>, Result<Compared, String>)> {
    let store = use_context::<Store>();
    OnceResource::new(async move {
        let Some(store) = store else {
            let down = || Err("the database is not available".to_owned());
            return (down(), down());
        };
        (
            side(&store, "A", a.as_deref()).await,
            side(&store, "B", b.as_deref()).await,
        )
    })
}

/// The compare page.
#[component]
pub fn Compare() -> impl IntoView {
    let (a, b) = sides_of_link();
    let sides = both_sides(a.clone(), b.clone());
    view! {
        <Title text="servecost: compare two scenarios"/>
        <header class="masthead">
            <h1>"Compare two scenarios"</h1>
            <p class="tagline">"Two scenarios side by side: the inputs that differ, both answers, both bills line by line."</p>
            <crate::components::SiteNav current=""/>
        </header>
        <form method="get" action="/compare" class="compare-form" data-testid="compare-form">
            <div class="field">
                <label for="compare-a">"Scenario A: a servecost link, a saved scenario's link or its id"</label>
                <input id="compare-a" name="a" type="text" autocomplete="off" value=a.clone().unwrap_or_default()/>
            </div>
            <div class="field">
                <label for="compare-b">"Scenario B: a servecost link, a saved scenario's link or its id"</label>
                <input id="compare-b" name="b" type="text" autocomplete="off" value=b.clone().unwrap_or_default()/>
            </div>
            <button type="submit">"Compare"</button>
        </form>
        <Suspense fallback=|| view! { <p>"Loading…"</p> }>
            {move || Suspend::new(async move {
                let (a, b) = sides.await;
                let errors = [&a, &b]
                    .into_iter()
                    .zip(["a", "b"])
                    .filter_map(|(s, key)| s.as_ref().err().map(|e| view! {
                        <p class="error" data-testid=format!("side-{key}-error")>{e.clone()}</p>
                    }))
                    .collect_view();
                let both = match (a, b) {
                    (Ok(a), Ok(b)) => Some(view! { <Comparison a b/> }),
                    _ => None,
                };
                view! { {errors} {both} }
            })}
        </Suspense>
    }
}

/// A labelled row of the two sides' figures.
fn row(label: &str, a: String, b: String) -> impl IntoView + use<> {
    let changed = a != b;
    view! {
        <tr class:changed=changed>
            <th scope="row">{label.to_owned()}</th>
            <td class="num">{a}</td>
            <td class="num">{b}</td>
        </tr>
    }
}

/// An input of one side: its value in force as people read it, and whether it is a default.
fn side_value(rows: &[InForce], name: &str) -> String {
    input_of(rows, name).map_or_else(
        || "not used".to_owned(),
        |r| match r.origin {
            Origin::Yours => r.shown.clone(),
            Origin::Default(_) => format!("{} (default)", r.shown),
        },
    )
}

/// The input of `name` on one side, if it applies there.
fn input_of<'a>(rows: &'a [InForce], name: &str) -> Option<&'a InForce> {
    rows.iter().find(|r| r.name == name)
}

/// The inputs in force on either side whose values differ, in the form's order.
fn differing<'a>(la: &'a [InForce], lb: &'a [InForce]) -> Vec<&'a InForce> {
    let mut out: Vec<&InForce> = Vec::new();
    for r in la.iter().chain(lb) {
        let brief = |rows: &'a [InForce]| input_of(rows, r.name).map(|x| &x.brief);
        if !out.iter().any(|o| o.name == r.name) && brief(la) != brief(lb) {
            out.push(r);
        }
    }
    out
}

/// The inputs whose values in force differ, in the form's order: each with its label and its
/// value on either side, formatted (`not used` where an input does not apply to a side).
fn differing_inputs(a: &Report, b: &Report) -> Vec<(String, String, String)> {
    let (la, lb) = (list(a), list(b));
    differing(&la, &lb)
        .into_iter()
        .map(|r| {
            (
                r.label.to_owned(),
                side_value(&la, r.name),
                side_value(&lb, r.name),
            )
        })
        .collect()
}

/// Each side named by what distinguishes it from the other: the first three inputs that
/// differ, in a few words (`$2.35 per GPU-hour, on demand, hourly sizing`), and how many more.
pub fn distinguishing(a: &Report, b: &Report) -> (String, String) {
    let (la, lb) = (list(a), list(b));
    // What follows from a choice (a range's default by the price's kind) names neither side:
    // only inputs that one side sets do.
    let typed = |rows: &[InForce], name: &str| {
        input_of(rows, name).is_some_and(|r| r.origin == Origin::Yours)
    };
    let differing: Vec<&str> = differing(&la, &lb)
        .into_iter()
        .map(|r| r.name)
        .filter(|name| typed(&la, name) || typed(&lb, name))
        .collect();
    let brief = |rows: &[InForce], name: &str| input_of(rows, name).map(|r| r.brief.clone());
    let name = |rows: &[InForce]| {
        if differing.is_empty() {
            return "the same inputs".to_owned();
        }
        // An input that does not apply to this side (owned hardware's costs on a rented side)
        // does not name it.
        let own: Vec<String> = differing.iter().filter_map(|n| brief(rows, n)).collect();
        if own.is_empty() {
            return "the defaults".to_owned();
        }
        let mut words: Vec<String> = own.iter().take(3).cloned().collect();
        if own.len() > 3 {
            words.push(format!("{} more", own.len() - 3));
        }
        words.join(", ")
    };
    (name(&la), name(&lb))
}

/// A side's title: its letter and what distinguishes it, after its name when it was saved
/// with one.
fn title(s: &Compared, distinct: &str) -> String {
    match s.pinned {
        Some(_) => format!("{}: {} ({distinct})", s.letter, s.name),
        None => format!("{}: {distinct}", s.letter),
    }
}

/// The comparison of two evaluated sides.
#[component]
fn Comparison(
    /// Scenario A.
    a: Compared,
    /// Scenario B.
    b: Compared,
) -> impl IntoView {
    let (ra, rb) = (&a.report, &b.report);
    let (na, nb) = distinguishing(ra, rb);
    let (title_a, title_b) = (title(&a, &na), title(&b, &nb));
    let head_a = side_head(&a, &title_a);
    let head_b = side_head(&b, &title_b);
    view! {
        <section class="results compare" data-testid="comparison">
            <div class="compare-sides">{head_a}{head_b}</div>
            {differing_table(ra, rb)}
            <table class="comparison" data-testid="bills">
                <caption>"Both bills, line by line"</caption>
                <thead><tr><th scope="col"></th><th scope="col">{title_a.clone()}</th><th scope="col">{title_b.clone()}</th></tr></thead>
                <tbody>{bill_rows(ra, rb)}</tbody>
            </table>
            <table class="comparison" data-testid="classes">
                <caption>"$ per million tokens, by class"</caption>
                <thead><tr><th scope="col"></th><th scope="col">"A"</th><th scope="col">"B"</th></tr></thead>
                <tbody>{class_rows(ra, rb)}</tbody>
            </table>
            {volume_chart(&a, &b)}
            {embed_code(&a, &b)}
        </section>
    }
}

/// The inputs that differ between the two sides, or that none does.
fn differing_table(ra: &Report, rb: &Report) -> impl IntoView + use<> {
    let differing = differing_inputs(ra, rb);
    if differing.is_empty() {
        view! { <p data-testid="no-differences">"The two scenarios have the same inputs."</p> }
            .into_any()
    } else {
        let rows = differing
            .into_iter()
            .map(|(label, va, vb)| row(&label, va, vb))
            .collect_view();
        view! {
            <table class="comparison" data-testid="differing-inputs">
                <caption>"The inputs that differ"</caption>
                <thead><tr><th scope="col">"Input"</th><th scope="col">"A"</th><th scope="col">"B"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        }
        .into_any()
    }
}

/// Both bills, line by line.
fn bill_rows(ra: &Report, rb: &Report) -> impl IntoView + use<> {
    let hybrid = |r: &Report| {
        r.hybrid
            .map(|h| usd(h.monthly_usd))
            .unwrap_or_else(|| "off".into())
    };
    let break_even = |r: &Report| {
        r.break_even.monthly_tokens.map_or_else(
            || "none".to_owned(),
            |t| format!("{} tokens/month", tokens(t)),
        )
    };
    let b_ = |r: &Report| r.self_host.breakdown;
    [
        (
            "Renting, per month",
            usd(ra.rent.monthly_usd),
            usd(rb.rent.monthly_usd),
        ),
        (
            "Self-hosting, per month",
            usd(ra.self_host.monthly_usd),
            usd(rb.self_host.monthly_usd),
        ),
        (
            "of it, busy compute",
            usd(b_(ra).busy_compute),
            usd(b_(rb).busy_compute),
        ),
        (
            "of it, idle compute",
            usd(b_(ra).idle_compute),
            usd(b_(rb).idle_compute),
        ),
        ("of it, operations", usd(b_(ra).ops), usd(b_(rb).ops)),
        ("Best hybrid, per month", hybrid(ra), hybrid(rb)),
        (
            "Cheapest plan",
            ra.verdict.best.label().to_owned(),
            rb.verdict.best.label().to_owned(),
        ),
        (
            "Self-hosted GPUs",
            number(ra.self_host.gpus),
            number(rb.self_host.gpus),
        ),
        (
            "Utilisation",
            percent(ra.self_host.utilization),
            percent(rb.self_host.utilization),
        ),
        (
            "GPU-hour price",
            format!(
                "{} ({})",
                usd(ra.inputs.gpu_hour_usd),
                ra.inputs.gpu_hour_label
            ),
            format!(
                "{} ({})",
                usd(rb.inputs.gpu_hour_usd),
                rb.inputs.gpu_hour_label
            ),
        ),
        ("Break-even volume", break_even(ra), break_even(rb)),
        (
            "Cheapest over the horizon",
            over_horizon(ra),
            over_horizon(rb),
        ),
    ]
    .into_iter()
    .map(|(label, va, vb)| row(label, va, vb))
    .collect_view()
}

/// Each class's $ per million tokens, renting and self-hosting, on both sides.
fn class_rows(ra: &Report, rb: &Report) -> impl IntoView + use<> {
    [
        ("input", "Uncached input"),
        ("cached", "Cached input"),
        ("output", "Output"),
        ("blended", "Blended"),
    ]
    .into_iter()
    .flat_map(|(class, label)| {
        let pick = |p: &servecost::units::PerMtok| match class {
            "input" => p.input,
            "cached" => p.cached,
            "output" => p.output,
            _ => p.blended,
        };
        [
            row(
                &format!("{label}: renting"),
                per_mtok(pick(&ra.rent.per_mtok)),
                per_mtok(pick(&rb.rent.per_mtok)),
            ),
            row(
                &format!("{label}: self-hosting, whole bill"),
                per_mtok(pick(&ra.self_host.effective_per_mtok)),
                per_mtok(pick(&rb.self_host.effective_per_mtok)),
            ),
        ]
    })
    .collect_view()
}

/// Both sides' cost against volume, in one chart, with its figures as a table.
fn volume_chart(a: &Compared, b: &Compared) -> impl IntoView + use<> {
    let (ra, rb) = (&a.report, &b.report);
    // The comparison is served, never taken over by the browser: drawn on the server alone.
    let svg = charts::server_only(|| {
        charts::cost_vs_volume_pair(&ra.series.cost_vs_volume, &rb.series.cost_vs_volume)
    });
    let points = [(a, ra), (b, rb)]
        .into_iter()
        .flat_map(|(s, r)| {
            let letter = s.letter.clone();
            r.series.cost_vs_volume.points.iter().step_by(6).map(move |p| {
                view! {
                    <tr><td>{letter.clone()}</td><td>{tokens(p.tokens)}</td><td>{usd(p.rent)}</td><td>{usd(p.self_host)}</td></tr>
                }
            })
        })
        .collect_view();
    view! {
        <ChartFigure drawing=charts::Drawing::Served(svg) caption="Monthly cost against monthly volume: A solid, B dashed (renting blue, self-hosting orange)" testid="chart-compare">
            <table>
                <thead><tr><th>"Scenario"</th><th>"Tokens/month"</th><th>"Rent"</th><th>"Self-host"</th></tr></thead>
                <tbody>{points}</tbody>
            </table>
        </ChartFigure>
    }
}

/// The iframe that embeds the comparison in a wiki.
fn embed_code(a: &Compared, b: &Compared) -> impl IntoView + use<> {
    let embed = format!(
        r#"<iframe src="{}/embed/compare?a={}&amp;b={}" width="600" height="400" style="border:0" loading="lazy" title="servecost: two scenarios compared"></iframe>"#,
        crate::browser::origin(),
        query::encode(&a.param),
        query::encode(&b.param),
    );
    view! {
        <section class="share" aria-labelledby="compare-embed-title">
            <h2 id="compare-embed-title">"Embed"</h2>
            <label for="compare-embed-code">"Embed this comparison in a wiki (iframe). A saved side keeps its numbers; a link side follows live data."</label>
            <textarea id="compare-embed-code" readonly rows="3" data-testid="compare-embed-code">{crate::textarea_text(&embed)}</textarea>
        </section>
    }
}

/// The cheapest plan over a report's horizon: `self-hosting (3 years)`.
fn over_horizon(r: &Report) -> String {
    let years = r.plan.spec.horizon;
    let unit = if years == 1.0 { "year" } else { "years" };
    format!("{} ({years} {unit})", r.plan.best.label())
}

/// A side's heading: its name, where it opens, its answer.
fn side_head(s: &Compared, title: &str) -> impl IntoView + use<> {
    let r = &s.report;
    let revision = match s.pinned {
        Some(rev) => format!("Saved, pinned to dataset revision {rev}."),
        None => format!("Current data (dataset revision {}).", r.dataset_revision),
    };
    let key = s.letter.to_lowercase();
    let ignored = (!s.ignored.is_empty())
        .then(|| view! { <p class="hint">{format!("Not used from the link: {}.", s.ignored.join("; "))}</p> });
    view! {
        <div class="compare-side" data-testid=format!("side-{key}")
            data-rent=r.rent.monthly_usd.to_string() data-self=r.self_host.monthly_usd.to_string()
            data-best=r.verdict.best.key() data-query=r.query.clone()>
            <h2 data-testid=format!("title-{key}")>{title.to_owned()}</h2>
            <p class="hint">{revision} " " <a href=s.href.clone() rel="external" data-testid=format!("open-{key}")>"Open it"</a></p>
            <p class="best"><strong>{best_sentence(r)}</strong></p>
            <p>{horizon_sentence(r)}</p>
            {ignored}
        </div>
    }
}

/// `/embed/compare?a=…&b=…`: the comparison for a 600 × 400 wiki frame.
#[component]
pub fn EmbedCompare() -> impl IntoView {
    let (a, b) = sides_of_link();
    let link = format!(
        "/compare?a={}&b={}",
        query::encode(a.as_deref().unwrap_or_default()),
        query::encode(b.as_deref().unwrap_or_default())
    );
    let sides = both_sides(a, b);
    view! {
        <Title text="servecost: two scenarios compared"/>
        <Suspense fallback=|| view! { <p>"Loading…"</p> }>
            {move || {
                let link = link.clone();
                Suspend::new(async move {
                    match sides.await {
                        (Ok(a), Ok(b)) => {
                            let svg = charts::server_only(|| {
                                charts::cost_vs_volume_pair(
                                    &a.report.series.cost_vs_volume,
                                    &b.report.series.cost_vs_volume,
                                )
                            });
                            let (na, nb) = distinguishing(&a.report, &b.report);
                            let line = |s: &Compared, distinct: &str| {
                                let key = s.letter.to_lowercase();
                                view! {
                                    <li data-testid=format!("side-{key}") data-rent=s.report.rent.monthly_usd.to_string()
                                        data-self=s.report.self_host.monthly_usd.to_string()>
                                        <strong data-testid=format!("title-{key}")>{title(s, distinct)}</strong> " " {best_sentence(&s.report)}
                                    </li>
                                }
                            };
                            view! {
                                <div class="embed" data-testid="embed">
                                    <ul class="key-numbers compare">{line(&a, &na)}{line(&b, &nb)}</ul>
                                    <figure class="chart"><div class="svg" inner_html=svg></div></figure>
                                    <p class="embed-foot"><a href=link target="_blank" rel="noopener external">"Open the comparison in servecost, with sources"</a></p>
                                </div>
                            }
                            .into_any()
                        }
                        (a, b) => {
                            let errors = [a.err(), b.err()]
                                .into_iter()
                                .flatten()
                                .map(|e| view! { <li>{e}</li> })
                                .collect_view();
                            view! { <div class="embed error" data-testid="embed"><ul>{errors}</ul></div> }.into_any()
                        }
                    }
                })
            }}
        </Suspense>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_are_read_as_people_paste_them() {
        let saved = |id: &str| SideInput::Saved(id.to_owned());
        let q = |q: &str| SideInput::Query(q.to_owned());
        assert_eq!(
            side_input("https://costs.example.com/s/AbCdEf123456"),
            saved("AbCdEf123456")
        );
        assert_eq!(
            side_input("http://127.0.0.1:3000/embed/s/AbCdEf123456"),
            saved("AbCdEf123456")
        );
        assert_eq!(side_input("/s/AbCdEf123456"), saved("AbCdEf123456"));
        assert_eq!(side_input(" AbCdEf123456 "), saved("AbCdEf123456"));
        assert_eq!(
            side_input("https://costs.example.com/?requests=40M&horizon=5"),
            q("requests=40M&horizon=5")
        );
        assert_eq!(
            side_input("https://costs.example.com/embed?requests=40M"),
            q("requests=40M")
        );
        assert_eq!(side_input("https://costs.example.com/"), q(""));
        assert_eq!(side_input("?requests=40M"), q("requests=40M"));
        assert_eq!(side_input("requests=40M"), q("requests=40M"));
        // A fragment, a host without its scheme.
        assert_eq!(
            side_input("https://costs.example.com/?requests=40M#years"),
            q("requests=40M")
        );
        assert_eq!(side_input("/s/AbCdEf123456#top"), saved("AbCdEf123456"));
        assert_eq!(
            side_input("costs.example.com/s/AbCdEf123456"),
            saved("AbCdEf123456")
        );
        assert_eq!(
            side_input("costs.example.com/?requests=40M"),
            q("requests=40M")
        );
        assert_eq!(
            side_input("tokens=27B&mix=2:7:1"),
            q("tokens=27B&mix=2:7:1")
        );
    }
}
