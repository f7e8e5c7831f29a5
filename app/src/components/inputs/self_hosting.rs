//! Self-hosting inputs: the curve, the GPU-hour price (a dataset tier, your own, or owned
//! hardware), the fleet, operations, and the two assumptions P and k.

use leptos::prelude::*;
use servecost::codec::write_number;

use crate::components::inputs::Ctx;
use crate::components::{Choice, Field};

/// The self-hosting section.
#[component]
pub fn SelfHosting(
    /// What the sections share.
    ctx: Ctx,
) -> impl IntoView {
    let on_change = ctx.on_change;
    let curves = Memo::new(move |_| {
        let model = ctx
            .report
            .with(|r| r.as_ref().map(|r| r.inputs.model.clone()))
            .unwrap_or_default();
        let own = ctx.outcome.with(|o| {
            matches!(
                o.scenario.curve,
                servecost::scenario::CurveChoice::Own { .. }
            )
        });
        ctx.data.with_value(|d| {
            let mut options: Vec<(String, String)> = d
                .curves_of(&model)
                .map(|c| {
                    let chip = d.chip(&c.chip).map_or(c.chip.as_str(), |x| x.name.as_str());
                    let publisher = d
                        .source(&c.source)
                        .map_or(c.source.as_str(), |s| s.publisher.as_str());
                    let mix = if c.mix_stated {
                        "mix stated"
                    } else {
                        "mix assumed"
                    };
                    (
                        c.id.clone(),
                        format!(
                            "{} × {chip}, {}, {} — {publisher}, {mix}",
                            c.replica_gpus,
                            c.precision.to_ascii_uppercase(),
                            c.framework
                        ),
                    )
                })
                .collect();
            if own {
                options.push(("own".into(), "Your own points (from the link)".into()));
            }
            options
        })
    });
    let chip = Memo::new(move |_| {
        ctx.report
            .with(|r| r.as_ref().and_then(|r| r.inputs.chip.clone()))
            .unwrap_or_default()
    });
    // Rebuilt only when the chip changes; each link's target follows the inputs.
    let tiers = move || {
        let chip = chip.get();
        ctx.data.with_value(|d| {
            d.price_tiers
                .iter()
                .filter(|t| t.chip == chip)
                .map(|t| {
                    let text = write_number(t.usd_per_gpu_hour, false);
                    let value = text.clone();
                    let href = move || ctx.link(&[("gpu_hour", &value)], &[]);
                    let publisher = d
                        .source(&t.source)
                        .map_or(t.source.as_str(), |s| s.publisher.as_str());
                    view! {
                        <a href=href class="chip-link" title=format!("{} ({publisher})", t.label)>
                            {format!("${text}")} <span class="tier">{t.label.clone()}</span>
                        </a>
                    }
                })
                .collect_view()
        })
    };
    let owned = Memo::new(move |_| ctx.outcome.with(|o| o.scenario.owned.is_some()));
    let own_value = Signal::derive(move || {
        if owned.get() {
            "1".to_owned()
        } else {
            "0".to_owned()
        }
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
    view! {
        <fieldset>
            <legend>"Self-hosting"</legend>
            {move || view! { <Choice name="curve" label="Throughput curve (model × chip × precision × framework)" options=curves.get() value=ctx.text("curve") on_change/> }}
            <Choice name="own" label="GPUs" options=vec![("0".into(), "Rented by the hour".into()), ("1".into(), "Owned".into())] value=own_value on_change/>
            {move || if owned.get() {
                view! {
                    <div class="owned">
                        <Field name="capex" value=ctx.text("capex") outcome=ctx.outcome on_change
                            explain="Purchase price per GPU, its share of the server included."/>
                        <Field name="years" value=ctx.text("years") outcome=ctx.outcome on_change/>
                        <Field name="rate" value=ctx.text("rate") outcome=ctx.outcome on_change/>
                        <Field name="kw" value=ctx.text("kw") outcome=ctx.outcome on_change
                            explain="Default: the chip's all-in figure in the dataset."/>
                        <Field name="pue" value=ctx.text("pue") outcome=ctx.outcome on_change/>
                        <Field name="kwh" value=ctx.text("kwh") outcome=ctx.outcome on_change/>
                        <Field name="colo" value=ctx.text("colo") outcome=ctx.outcome on_change/>
                        <Field name="maint" value=ctx.text("maint") outcome=ctx.outcome on_change/>
                    </div>
                }.into_any()
            } else {
                view! {
                    <Field name="gpu_hour" value=ctx.text("gpu_hour") outcome=ctx.outcome on_change/>
                    <div class="marks" aria-label="Published GPU-hour prices for this chip">{tiers}</div>
                }.into_any()
            }}
            <details>
                <summary>"Fleet"</summary>
                <Field name="replica" value=ctx.text("replica") outcome=ctx.outcome on_change
                    explain="GPUs that serve one copy of the model."/>
                <Field name="util" value=ctx.text("util") outcome=ctx.outcome on_change
                    explain="How busy a replica may get at the peak hour and still hold the target speed."/>
                <Field name="redundancy" value=ctx.text("redundancy") outcome=ctx.outcome on_change/>
                <Field name="min_replicas" value=ctx.text("min_replicas") outcome=ctx.outcome on_change/>
                {move || (!owned.get()).then(|| view! {
                    <Choice name="scaling" label="Sizing" options=vec![("fixed".into(), "Fixed, for the peak hour".into()), ("hourly".into(), "Scaled hour by hour".into())] value=scaling on_change/>
                })}
                <Choice name="hybrid" label="Hybrid: overflow to the API" options=yes_no("Search the cheapest split", "Off") value=hybrid on_change/>
            </details>
            <details>
                <summary>"Operations"</summary>
                <Field name="ops_fte" value=ctx.text("ops_fte") outcome=ctx.outcome on_change
                    explain="Staff running the deployment (on call, upgrades, capacity)."/>
                <Field name="fte_cost" value=ctx.text("fte_cost") outcome=ctx.outcome on_change/>
                <Field name="ops_monthly" value=ctx.text("ops_monthly") outcome=ctx.outcome on_change
                    explain="Monitoring, storage, support contracts and other fixed costs."/>
            </details>
            <details>
                <summary>"Assumptions P and k"</summary>
                <Field name="prefill" value=ctx.text("prefill") outcome=ctx.outcome on_change
                    explain="P: uncached input tokens one GPU prefills per second. It sets the cost of uncached input, and so how much of the curve's GPU time is left for output."/>
                <Field name="cache_cost" value=ctx.text("cache_cost") outcome=ctx.outcome on_change
                    explain="k: GPU time of a cached input token relative to an uncached one. Agent traces are mostly cached input, so k decides much of their cost."/>
            </details>
        </fieldset>
    }
}
