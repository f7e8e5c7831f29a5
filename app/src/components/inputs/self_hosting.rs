//! Self-hosting inputs: the curve, the GPU-hour price (a dataset tier, your own, or owned
//! hardware), the fleet, operations, and the two assumptions P and k.

use leptos::prelude::*;
use servecost::codec::{decode, write_rounded, FLAG_ON, OWN_CURVE};
use servecost::gpu_price::Commitment;

use crate::components::inputs::benchmark::{chip_in_force, Benchmark};
use crate::components::inputs::{Ctx, Fold, Param};
use crate::components::{Choice, Field};
use crate::format::usd;
use crate::query;

/// True when the link asks for owned hardware (`own=1`), even before its purchase price is
/// given: the page then shows every purchase input.
pub fn wants_owned(q: &str) -> bool {
    query::get(q, "own").is_some_and(|v| FLAG_ON.contains(&decode(&v).as_str()))
}

/// True when the link asks for your own benchmark (`curve=own`, or points given).
pub fn wants_own_curve(q: &str) -> bool {
    query::get(q, "points").is_some()
        || query::get(q, "curve").is_some_and(|c| decode(&c) == OWN_CURVE)
}

/// When the page carries only some of the GPU-hour prices: a link to search them all on `/data`,
/// whose prices open back here with this scenario.
fn more_tiers(ctx: Ctx, chip: Memo<String>) -> impl IntoView {
    move || {
        let chip = chip.get();
        let left_out = ctx
            .data
            .with_value(|d| d.tiers_left_out.get(&chip).copied().unwrap_or(0));
        (left_out > 0).then(|| {
            let href = format!(
                "/data?q={}&for={}&show=tiers#data-search",
                crate::query::encode(&chip),
                crate::query::encode(&ctx.query.get())
            );
            view! {
                <p class="hint" data-testid="more-tiers">
                    {format!(
                        "Listed: {} of this chip's prices, its default, the cheapest of each kind and the cheapest others ({} more in the dataset). ",
                        servecost::dataset::PAGE_TIERS,
                        crate::format::number(f64::from(left_out))
                    )}
                    <a href=href rel="external" data-testid="search-tiers">"Search every GPU-hour price"</a>
                </p>
            }
        })
    }
}

/// The curve in force, named in full (a select cuts long names), with what its data tier means.
fn curve_in_force(ctx: Ctx) -> Option<impl IntoView> {
    let (id, label) = ctx.report.with(|r| {
        r.as_ref()
            .map(|r| (r.inputs.curve.clone(), r.inputs.curve_label.clone()))
    })?;
    let tier = ctx.data.with_value(|d| d.curve(&id).and_then(|c| c.tier))?;
    let meaning = match tier {
        servecost::dataset::DataTier::Audited => {
            "an MLPerf result, reviewed by the other submitters before publication"
        }
        servecost::dataset::DataTier::Vendor => {
            "a framework or chip maker measuring its own stack: read as a tuned best case"
        }
        servecost::dataset::DataTier::Experimental => {
            "development runs, not a published result: read as indicative (the note on /data says why)"
        }
    };
    Some(view! {
        <p class="hint" data-testid="curve-in-force">
            {label} ". Data tier: " <strong>{tier.key()}</strong> {format!(", {meaning}.")}
        </p>
    })
}

/// The self-hosting section: the curve, the GPU-hour (owned or rented), the fleet, operations,
/// the assumptions P and k, and the ranges of the sureness sample.
#[component]
pub fn SelfHosting(
    /// What the sections share.
    ctx: Ctx,
) -> impl IntoView {
    let on_change = ctx.on_change;
    let curves = Memo::new(move |_| {
        let model = ctx.model();
        ctx.data.with_value(|d| {
            let mut options: Vec<(String, String)> = d
                .curves_of(&model)
                .map(|c| {
                    let mix = if c.mix_stated {
                        "mix stated"
                    } else {
                        "mix assumed"
                    };
                    (c.id.clone(), format!("{}, {mix}", d.curve_label(c)))
                })
                .collect();
            // The model's default first, as the link leaves it: a speed it cannot reach is
            // then priced on the cheapest curve that can, and a form sent without JavaScript
            // keeps it the default.
            if let Some(c) = d.default_curve(&model) {
                options.insert(
                    0,
                    (
                        String::new(),
                        format!("The model's default: {}", d.curve_label(c)),
                    ),
                );
            }
            options.push((
                OWN_CURVE.into(),
                "Your benchmark (your own measured points)".into(),
            ));
            options
        })
    });
    let owned = Memo::new(move |_| ctx.query.with(|q| wants_owned(q)));
    let own_curve = Memo::new(move |_| ctx.query.with(|q| wants_own_curve(q)));
    let own_value = Signal::derive(move || {
        if owned.get() {
            "1".to_owned()
        } else {
            "0".to_owned()
        }
    });
    view! {
        <fieldset>
            <legend>"Self-hosting"</legend>
            {move || view! { <Choice name="curve" label="Throughput curve (model × chip × precision × framework)" options=curves.get() value=ctx.typed("curve") on_change/> }}
            {move || curve_in_force(ctx)}
            <Choice name="own" label="GPUs" options=vec![("0".into(), "Priced per GPU-hour (a published tier or yours)".into()), ("1".into(), "Owned (you buy them)".into())] value=own_value on_change/>
            {move || own_curve.get().then(|| view! { <Benchmark ctx kept_paste=ctx.kept_paste/> })}
            {move || if owned.get() {
                owned_hardware(ctx).into_any()
            } else {
                rented_price(ctx).into_any()
            }}
            {fleet(ctx, owned, own_curve)}
            {operations(ctx)}
            {assumptions(ctx, own_curve)}
            {ranges(ctx)}
        </fieldset>
    }
}

/// Owned hardware: the purchase and running costs, and what an owned GPU-hour comes to.
fn owned_hardware(ctx: Ctx) -> impl IntoView {
    let on_change = ctx.on_change;
    // The chip's all-in power, the documented default of `kw`.
    let kw_default = Memo::new(move |_| {
        chip_in_force(ctx).and_then(|id| {
            ctx.data.with_value(|d| {
                d.chip(&id)
                    .and_then(|c| c.all_in_kw.map(|kw| (c.name.clone(), kw)))
            })
        })
    });
    let kw_placeholder = Signal::derive(move || {
        kw_default
            .get()
            .map(|(_, kw)| write_rounded(kw, false))
            .unwrap_or_default()
    });
    // What the owned GPU-hour is made of, from the current inputs (not the last valid ones).
    let parts = Memo::new(move |_| {
        ctx.outcome.with(|o| {
            o.report
                .as_ref()
                .ok()
                .filter(|_| o.problems.is_empty())
                .and_then(|r| r.inputs.owned_parts.map(|p| (p, r.inputs.gpu_hour_usd)))
        })
    });
    let rented = Memo::new(move |_| {
        chip_in_force(ctx).and_then(|id| {
            ctx.data.with_value(|d| {
                d.default_tier(&id)
                    .map(|t| (t.usd_per_gpu_hour, t.label.clone()))
            })
        })
    });
    let kw_explain = move || match kw_default.get() {
        Some((chip, kw)) => format!(
            "Default: {}'s all-in figure in the dataset, {} kW (GPU, host share and network).",
            chip,
            write_rounded(kw, false)
        ),
        None => "Required: the dataset has no all-in figure for this chip.".to_owned(),
    };
    view! {
        <div class="owned" data-testid="owned">
            <p class="hint">"No published source gives a purchase price: enter your vendor's quote. The other inputs start at servecost's documented assumptions (see Method)."</p>
            <Param ctx name="capex"
                explain="Purchase price per GPU, its share of the server and network included. Required."/>
            <Param ctx name="years"
                explain="Years the purchase is paid off over." assumed=true/>
            <Param ctx name="rate"
                explain="Yearly cost of the capital tied up." assumed=true/>
            <div class="field-note">
                <Field name="kw" value=ctx.typed("kw") placeholder=kw_placeholder outcome=ctx.outcome on_change/>
                <small class="hint">{kw_explain}</small>
            </div>
            <Param ctx name="pue"
                explain="Facility power over IT power: cooling and losses." assumed=true/>
            <Param ctx name="kwh"
                explain="What a kWh costs you." assumed=true/>
            <Param ctx name="colo"
                explain="Space, cooling and connectivity per kW of IT load a month." assumed=true/>
            <Param ctx name="maint"
                explain="Spares, support and repairs a year, as a share of the purchase price." assumed=true/>
            <div class="owned-hour" data-testid="owned-hour" aria-live="polite">
                {move || match parts.get() {
                    Some((p, total)) => view! {
                        <table class="owned-parts">
                            <caption>"What an owned GPU-hour costs"</caption>
                            <tbody>
                                <tr><th scope="row">"Capital"</th><td data-testid="owned-capital" data-usd=p.capital.to_string()>{usd(p.capital)}</td></tr>
                                <tr><th scope="row">"Power"</th><td data-testid="owned-power" data-usd=p.power.to_string()>{usd(p.power)}</td></tr>
                                <tr><th scope="row">"Facility"</th><td data-testid="owned-facility" data-usd=p.facility.to_string()>{usd(p.facility)}</td></tr>
                                <tr><th scope="row">"Maintenance"</th><td data-testid="owned-maintenance" data-usd=p.maintenance.to_string()>{usd(p.maintenance)}</td></tr>
                                <tr class="sum"><th scope="row">"Per GPU-hour"</th><td data-testid="owned-total" data-usd=total.to_string()>{usd(total)}</td></tr>
                            </tbody>
                        </table>
                        {rented.get().map(|(price, label)| view! {
                            <small class="hint">{format!("Renting this chip: {} per GPU-hour ({label}).", usd(price))}</small>
                        })}
                    }.into_any(),
                    None => view! { <p class="hint">"Enter a purchase price to see what it costs per GPU-hour."</p> }.into_any(),
                }}
            </div>
        </div>
    }
}

/// The rented GPU-hour: your own price and what it commits to, or a published tier of the chip.
fn rented_price(ctx: Ctx) -> impl IntoView {
    let on_change = ctx.on_change;
    let chip = Memo::new(move |_| {
        ctx.report
            .with(|r| r.as_ref().and_then(|r| r.inputs.chip.clone()))
            .unwrap_or_default()
    });
    // Rebuilt only when the chip changes; each link's target follows the inputs. A tier link
    // picks the tier itself (`gpu_tier`), so its commitment travels with its price.
    let tier_in_force = Memo::new(move |_| {
        ctx.report
            .with(|r| r.as_ref().and_then(|r| r.inputs.gpu_tier.clone()))
    });
    let tiers = move || {
        let chip = chip.get();
        ctx.data.with_value(|d| {
            d.price_tiers
                .iter()
                .filter(|t| t.chip == chip)
                .map(|t| {
                    let id = t.tier.clone();
                    let href = {
                        let id = id.clone();
                        move || ctx.link(&[("gpu_tier", &id)], &["gpu_hour", "gpu_kind"])
                    };
                    let (publisher, date) = d
                        .source(&t.source)
                        .map_or((t.source.as_str(), ""), |s| (s.publisher.as_str(), s.date.as_str()));
                    let kind = match (t.kind, t.term_months) {
                        (Some(Commitment::Reserved), Some(m)) => format!("reserved {m} months"),
                        (Some(Commitment::OwnerCost), _) => "what owning at hyperscale costs".to_owned(),
                        (Some(k), _) => k.label().to_owned(),
                        (None, _) => "commitment not stated".to_owned(),
                    };
                    let current = move || tier_in_force.get().as_deref() == Some(id.as_str());
                    view! {
                        <a href=href class="chip-link" class:current=current.clone()
                            aria-current=move || if current() { "true" } else { "false" }
                            title=format!("{} ({publisher}, as of {date})", t.label)>
                            {crate::format::usd(t.usd_per_gpu_hour)} <span class="tier">{format!("{kind} · {} · as of {date}", t.label)}</span>
                        </a>
                    }
                })
                .collect_view()
        })
    };
    let own_price = Memo::new(move |_| ctx.query.with(|q| query::get(q, "gpu_hour").is_some()));
    // Only your own price fills the field: a tier's price shows as its placeholder, so a form
    // submitted without JavaScript keeps the tier (and its commitment) rather than turning it
    // into a price of yours.
    let own_text = ctx.typed("gpu_hour");
    let in_force_price = ctx.in_force("gpu_hour");
    let gpu_kind = Signal::derive(move || {
        ctx.query
            .with(|q| query::get(q, "gpu_kind"))
            .map(|k| decode(&k))
            .unwrap_or_else(|| Commitment::OnDemand.key().to_owned())
    });
    let kinds: StoredValue<Vec<(String, String)>> = StoredValue::new(
        Commitment::ALL
            .iter()
            .map(|k| (k.key().to_owned(), k.label().to_owned()))
            .collect(),
    );
    let price_label = Memo::new(move |_| {
        ctx.report.with(|r| {
            r.as_ref().map(|r| {
                format!(
                    "In force: {} per GPU-hour, {}.",
                    usd(r.inputs.gpu_hour_usd),
                    r.inputs.gpu_hour_label
                )
            })
        })
    });
    view! {
        <Field name="gpu_hour" value=own_text outcome=ctx.outcome on_change placeholder=in_force_price
            explain="Blank: the published tier in force. Type your own price, or pick a tier below."/>
        <p class="hint" data-testid="gpu-hour-label">{move || price_label.get()}</p>
        {move || own_price.get().then(|| view! {
            <Choice name="gpu_kind" label="Your price is" options=kinds.get_value() value=gpu_kind on_change
                hint="Reserved and owner's-cost prices are paid every hour: they cannot scale by the hour.".to_owned()/>
        })}
        <div class="marks" aria-label="Published GPU-hour prices for this chip">{tiers}</div>
        {more_tiers(ctx, chip)}
    }
}

/// The fleet: replicas, utilisation, sizing and the hybrid.
fn fleet(ctx: Ctx, owned: Memo<bool>, own_curve: Memo<bool>) -> impl IntoView {
    let on_change = ctx.on_change;
    let params = vec![
        "replica",
        "util",
        "redundancy",
        "min_replicas",
        "scaling",
        "hybrid",
        "overflow_warm",
    ];
    let hourly_ok = Memo::new(move |_| {
        ctx.report.with(|r| {
            r.as_ref().is_none_or(|r| {
                r.inputs.gpu_kind.is_none_or(|k| k.scales_hourly())
                    && r.inputs.owned_parts.is_none()
            })
        })
    });
    let scaling = Signal::derive(move || ctx.outcome.with(|o| o.scenario.scaling.key().to_owned()));
    let hybrid = Signal::derive(move || {
        ctx.outcome
            .with(|o| if o.scenario.hybrid { "1" } else { "0" }.to_owned())
    });
    let yes_no = |on: &str, off: &str| {
        vec![
            ("1".to_owned(), on.to_owned()),
            ("0".to_owned(), off.to_owned()),
        ]
    };
    // Where the curve's replica size comes from (a submitter's configuration, a run's name,
    // servecost's sizing rule), while no size of your own is typed.
    let basis = move || {
        if ctx.query.with(|q| query::get(q, "replica").is_some()) {
            return None;
        }
        ctx.report.with(|r| {
            let r = r.as_deref()?;
            ctx.data.with_value(|d| {
                d.curve(&r.inputs.curve)
                    .and_then(|c| c.replica_basis.clone())
            })
        })
    };
    view! {
    <Fold ctx name="fleet" summary="Fleet" params>
        {move || (!own_curve.get()).then(|| view! {
            <Param ctx name="replica"
                explain="GPUs that serve one copy of the model."/>
            <p class="hint replica-basis" data-testid="replica-basis">{basis}</p>
        })}
        <Param ctx name="util"
            explain="How busy a replica may get at the peak hour and still hold the target speed."/>
        <Param ctx name="redundancy"/>
        <Param ctx name="min_replicas"/>
        {move || {
            let hourly = if owned.get() || !hourly_ok.get() { "Scaled hour by hour (on-demand or spot prices only)" } else { "Scaled hour by hour" };
            view! {
                <Choice name="scaling" label="Sizing" options=vec![("fixed".into(), "Fixed, for the peak hour".into()), ("hourly".into(), hourly.into())] value=scaling on_change/>
            }
        }}
        <Choice name="hybrid" label="Hybrid: overflow to the API" options=yes_no("Search the cheapest split", "Off") value=hybrid on_change/>
        <Param ctx name="overflow_warm"
            explain="Overflow sessions reach the API without their prefix cache: by default (0) their cached input is priced as uncached. Raise it if the API keeps your prefixes warm."/>
    </Fold>
    }
}

/// Operations: staff and fixed costs.
fn operations(ctx: Ctx) -> impl IntoView {
    let params = vec!["ops_fte", "fte_cost", "ops_monthly", "ops_gpus_per_fte"];
    view! {
    <Fold ctx name="operations" summary="Operations" params>
        <Param ctx name="ops_fte"
            explain="Staff running the deployment (on call, upgrades, capacity)."/>
        <Param ctx name="fte_cost"/>
        <Param ctx name="ops_monthly"
            explain="Monitoring, storage, support contracts and other fixed costs."/>
        <Param ctx name="ops_gpus_per_fte"
            explain="Optional: one more FTE for every so many GPUs, for staff that grow with the fleet. Blank: staff stay fixed."/>
    </Fold>
    }
}

/// The assumptions P and k, and a dataset curve's mix.
fn assumptions(ctx: Ctx, own_curve: Memo<bool>) -> impl IntoView {
    let on_change = ctx.on_change;
    let params = vec!["prefill", "cache_cost", "curve_mix"];
    // The dataset curve's mix, as percentages: the placeholder of `curve_mix`.
    let curve_mix_in_force = Signal::derive(move || {
        let id = ctx
            .report
            .with(|r| r.as_ref().map(|r| r.inputs.curve.clone()));
        id.and_then(|id| {
            ctx.data.with_value(|d| {
                d.curve(&id).map(|c| {
                    [c.mix.uncached, c.mix.cached, c.mix.output]
                        .map(|v| write_rounded(100.0 * v, false))
                        .join(":")
                })
            })
        })
        .unwrap_or_default()
    });
    view! {
    <Fold ctx name="assumptions" summary="Assumptions: P, k and the curve's mix" params>
        <Param ctx name="prefill"
            explain="P: uncached input tokens one GPU prefills per second. It sets the cost of uncached input, and so how much of the curve's GPU time is left for output."/>
        <Param ctx name="cache_cost"
            explain="k: GPU time of a cached input token relative to an uncached one. Agent traces are mostly cached input, so k decides much of their cost."/>
        {move || (!own_curve.get()).then(|| view! {
            <Field name="curve_mix" value=ctx.typed("curve_mix") placeholder=curve_mix_in_force outcome=ctx.outcome on_change
                label="Mix the curve was measured at" unit="uncached input : cached input : output"
                explain="Blank: the dataset's reading (stated by the publisher, or assumed: see the warning). The InferenceX curves do not state theirs."/>
        })}
    </Fold>
    }
}

/// The ranges the sureness sample draws.
fn ranges(ctx: Ctx) -> impl IntoView {
    let params = servecost::codec::in_section(servecost::codec::Section::Sureness).collect();
    view! {
    <Fold ctx name="ranges" summary="How sure: the ranges drawn" params testid="ranges-inputs">
        <p class="hint">"The sureness figures draw every input below at once from its range. A factor f means ×1/f to ×f; 1 (or 0 for a share) takes the input as given. "<a href="/method#ranges">"Why these ranges"</a></p>
        <Param ctx name="u_gpu_hour" assumed=true/>
        <Param ctx name="u_api"/>
        <Param ctx name="u_prefill"/>
        <Param ctx name="u_cache_cost"/>
        <Param ctx name="u_util"/>
        <Param ctx name="u_curve_mix"
            explain="Applies when the curve's publication states no mix."/>
        <Param ctx name="u_haircut"
            explain="Applies to a curve published by a vendor of the stack it measures."/>
        <Param ctx name="u_curves"
            explain="Applies where the dataset has other independent curves of the model on chips of the same family; drawn both ways around the curve in use."/>
        <Param ctx name="tie"
            explain="Plans whose monthly bills differ by less than this share of the cheaper one cost the same: named together, never a change of answer, and holding in the sample."/>
        <Param ctx name="draws"
            explain="At most; the sample stops once its shares are known within one point. 0 turns it off."/>
    </Fold>
    }
}
