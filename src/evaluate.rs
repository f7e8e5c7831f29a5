//! One evaluation: a scenario and the dataset in, the full report out.

mod judgement;
mod resolve;
mod warnings;

pub use judgement::{candidate, range_medians};
use judgement::{curve_ratios, rank_warnings, sample_context, CURVES_APART};

pub use resolve::{resolve, Context};

use crate::break_even::break_even;
use crate::codec::{parse, to_query, Checkable};
use crate::costing::Costing;
use crate::dataset::Dataset;
use crate::decision::{self, Totals};
use crate::error::Problem;
use crate::gpu_price::Commitment;
use crate::power::{decode_headline, operating_point, PowerDefinition};
use crate::projection::Holding;
use crate::report::{
    Bar, BillCheck, ClassBars, HybridReport, Inputs, PowerReport, RentReport, Report,
    SelfHostReport, Series, Side, Verdict, Warning, WarningCode,
};
use crate::resolved::Resolved;
use crate::scenario::Scenario;
use crate::sensitivity::sensitivity;
use crate::series::{cost_vs_tps, cost_vs_volume, CurveInput};
use crate::units::{PerMtok, MILLION};
use crate::workload::Preset;

/// Evaluates a scenario against the dataset: one the codec read from a link as it is, one made
/// in code checked first by the same codec, so any problem comes back named by its parameter.
pub fn evaluate(scenario: &impl Checkable, data: &Dataset) -> Result<Report, Vec<Problem>> {
    evaluate_with(scenario, data, Depth::Full)
}

/// How much of the decision an evaluation computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Depth {
    /// Everything: the sureness sample and the flips included.
    Full,
    /// The numbers without the decision's searches or the charts: no sureness sample
    /// (`uncertainty` is `None`), no flips (`flips` lists no input), no ranges, no sensitivity,
    /// no ranked caveats (`top_warnings` empty, no warning's `effect_usd`), no points of the
    /// volume and speed charts. For a first answer in the browser while the full one follows.
    Quick,
    /// [`Depth::Quick`] with the sureness sample (`uncertainty`, and the ranges in it), without
    /// the flips: the share of plausible cases in which each plan is cheapest, for the ranked
    /// options.
    Sample,
}

impl Report {
    /// Whether the sureness sample and the flips were computed ([`Depth::Full`]): a full report
    /// lists every searched input, as a flip or as unchanged.
    pub fn is_full(&self) -> bool {
        !self.flips.flips.is_empty() || !self.flips.unchanged.is_empty()
    }
}

/// [`evaluate`] to the given depth.
pub fn evaluate_with(
    scenario: &impl Checkable,
    data: &Dataset,
    depth: Depth,
) -> Result<Report, Vec<Problem>> {
    let s = scenario.checked()?;
    let query = to_query(&s);
    let (r, ctx) = resolve(&s, data)?;
    let (reading, gpu_time) = r.gpu_time().map_err(|p| vec![p])?;
    let costing = Costing::new(
        r.volumes,
        r.api,
        gpu_time,
        r.profile.clone(),
        r.policy,
        r.gpu_hour,
        r.ops_monthly,
    )
    .with_ops_per_gpu(r.ops_per_gpu)
    .with_overflow_warm(r.overflow_warm);
    let rent = r.api.cost(&r.volumes);
    let own = costing.self_host(1.0);
    let hybrid = s.hybrid.then(|| costing.hybrid(1.0));
    let be = break_even(&costing);

    let own_total = own.total();
    let totals = Totals {
        rent: rent.monthly_usd,
        self_host: own_total,
        hybrid: hybrid
            .filter(|h| h.plan.replicas > 0.0 && h.plan.overflow_share > 0.0)
            .map(|h| h.total()),
    };
    let (best, best_monthly_usd) = totals.best();
    // A hybrid whose cheapest cap is an end ties at its cheapest proper cap, as the sample and
    // the flips hold it.
    let judged = totals.with_proper_hybrid(&costing, 1.0, s.hybrid);
    let (cheap, dear) = if own_total < rent.monthly_usd {
        (own_total, rent.monthly_usd)
    } else {
        (rent.monthly_usd, own_total)
    };
    let verdict = Verdict {
        winner: if own_total < rent.monthly_usd {
            Side::SelfHost
        } else {
            Side::Rent
        },
        ratio: (cheap > 0.0).then(|| dear / cheap),
        difference_usd: dear - cheap,
        hybrid_saves_usd: hybrid.map_or(0.0, |h| (cheap - h.total()).max(0.0)),
        best,
        best_monthly_usd,
        ties: judged
            .ties(s.uncertainty.tie)
            .into_iter()
            .map(|(plan, monthly_usd)| crate::report::Tie { plan, monthly_usd })
            .collect(),
        margin_usd: judged.margin(),
        tie: s.uncertainty.tie,
    };
    let ratios = curve_ratios(&r, &ctx, data, &gpu_time);
    let (ranges, uncertainty, flips, bands) = match depth {
        Depth::Full | Depth::Sample => {
            let sure = sample_context(&s, &ctx, data, ratios.clone());
            let (ranges, uncertainty) = decision::uncertainty(
                &r,
                &reading,
                &sure,
                &totals,
                // The years ahead move nothing the sample draws: they do not move its seed.
                decision::seed_of(&crate::codec::canonical_query(&Scenario {
                    plan: crate::projection::ProjectionSpec::default(),
                    ..Scenario::clone(&s)
                })),
            );
            let (flips, bands) = if depth == Depth::Full {
                let total = r.volumes.total();
                let (lo, hi) = decision::volume_span(total);
                let bands = decision::Bands {
                    volume: decision::volume_bands(
                        &costing,
                        total,
                        lo,
                        hi,
                        s.hybrid,
                        s.uncertainty.tie,
                    ),
                };
                let flips = decision::flips(
                    &r,
                    &reading,
                    &costing,
                    s.hybrid,
                    best,
                    s.uncertainty.tie,
                    &bands.volume,
                );
                (flips, bands)
            } else {
                let none = decision::Flips {
                    flips: Vec::new(),
                    unchanged: Vec::new(),
                };
                (none, decision::Bands::default())
            };
            (ranges, uncertainty, flips, bands)
        }
        Depth::Quick => {
            let none = decision::Flips {
                flips: Vec::new(),
                unchanged: Vec::new(),
            };
            (Vec::new(), None, none, decision::Bands::default())
        }
    };

    let [mu, mc, mo] = gpu_time.usd_per_mtok(r.gpu_hour);
    let per_mtok = PerMtok::with_blend(mu, mc, mo, &r.volumes);
    let demand = gpu_time.demand(&r.volumes);
    let effective = |g: f64| {
        if demand > 0.0 {
            own_total * g / demand * MILLION
        } else {
            0.0
        }
    };
    let effective_per_mtok = PerMtok {
        blended: if r.volumes.total() > 0.0 {
            own_total / r.volumes.total() * MILLION
        } else {
            0.0
        },
        ..PerMtok::with_blend(
            effective(gpu_time.uncached),
            effective(gpu_time.cached),
            effective(gpu_time.output),
            &r.volumes,
        )
    };
    let self_host = SelfHostReport {
        monthly_usd: own_total,
        gpus: own.plan.gpus,
        replicas: own.plan.replicas,
        utilization: if own.plan.provisioned_gpu_hours > 0.0 {
            own.plan.busy_gpu_hours / own.plan.provisioned_gpu_hours
        } else {
            0.0
        },
        breakdown: own.breakdown,
        per_mtok,
        effective_per_mtok,
        curve_tokens_per_s_per_gpu: reading.tokens_per_s_per_gpu,
        clamped: reading.clamped,
        gpu_seconds_per_token: gpu_time,
        busy_gpu_hours: own.plan.busy_gpu_hours,
        provisioned_gpu_hours: own.plan.provisioned_gpu_hours,
    };

    let power = power(&r, &ctx, data, &s, &gpu_time);
    // The chart series and the sensitivity feed the charts and the caveats' ranking, which the
    // browser draws from the full answer only: a quick answer leaves them empty.
    let full = depth == Depth::Full;
    let series = Series {
        cost_vs_volume: if full {
            crate::series::CostVsVolume {
                bands: decision::material(&bands.volume, s.uncertainty.tie),
                ..cost_vs_volume(&costing, be.monthly_tokens, s.hybrid)
            }
        } else {
            crate::series::CostVsVolume {
                points: Vec::new(),
                user_tokens: r.volumes.total(),
                break_even_tokens: be.monthly_tokens,
                bands: Vec::new(),
            }
        },
        cost_vs_tps: if full {
            cost_vs_tps(
                &curve_inputs(&r, &ctx, data),
                &r.volumes,
                r.prefill,
                r.cache_cost,
            )
        } else {
            Vec::new()
        },
        breakdown: Bar::lines(&own.breakdown),
        per_class: class_bars(&rent.per_mtok, &per_mtok, &effective_per_mtok),
    };
    let (holding, holding_note) = holding(&s, &ctx, r.gpu_hour);
    let plan = {
        let note = holding_note;
        let mut plan = crate::projection::project(&costing, &s.plan, holding, s.hybrid);
        plan.notes.extend(note);
        plan
    };
    let chip = ctx.chip;
    let sensitivity = if full {
        sensitivity(&r, own_total - rent.monthly_usd)
    } else {
        Vec::new()
    };
    let mut warnings = warnings::warnings(&s, &r, &ctx, data, &reading);
    // A reserved price's caveat states the commitment itself: its size and its term.
    if let (Some(w), Holding::Term { months, upfront }) = (
        warnings
            .iter_mut()
            .find(|w| w.code == WarningCode::ReservedTerm),
        holding,
    ) {
        let total = own.plan.gpus * r.gpu_hour * crate::units::HOURS_PER_MONTH * f64::from(months);
        let signed = if upfront > 0.0 {
            format!(" ({} at signing)", crate::format::usd(total * upfront))
        } else {
            String::new()
        };
        w.message.push_str(&format!(
            " This fleet commits {} GPUs for {months} months: {} in all{signed}.",
            crate::format::number(own.plan.gpus),
            crate::format::usd(total)
        ));
    }
    if let Some(decision::CurveSpread { lo, hi, names, .. }) =
        ratios.filter(|c| c.hi / c.lo >= CURVES_APART)
    {
        warnings.push(Warning {
            code: WarningCode::CurvesDisagree,
            message: format!(
                "Independent curves of this model on chips of the same family disagree: at your \
                 mix and speed, {names} give ×{} to ×{} this curve's throughput. The sureness \
                 figures draw over that spread (u_curves).",
                crate::format::significant(lo, 2),
                crate::format::significant(hi, 2)
            ),
            source: None,
            effect_usd: None,
        });
    }
    let top_warnings = if full {
        rank_warnings(
            &mut warnings,
            &ranges,
            &sensitivity,
            ctx.owned_parts.is_some(),
        )
    } else {
        Vec::new()
    };
    let report = Report {
        query,
        dataset_revision: data.revision,
        inputs: Inputs {
            model: ctx.model.id.clone(),
            model_name: ctx.model.name.clone(),
            api: ctx.offer.map(|o| o.id.clone()),
            api_source: ctx.api_source.clone(),
            price_in: r.api.price_in,
            price_out: r.api.price_out,
            cache_discount: r.api.cache_discount,
            markup: r.api.markup,
            curve: ctx.curve.map_or("own".to_owned(), |c| c.id.clone()),
            curve_label: ctx
                .curve
                .map_or("Your own curve".to_owned(), |c| curve_label(c, data)),
            curve_source: ctx.curve.map_or("user".to_owned(), |c| c.source.clone()),
            chip: chip.map(|c| c.id.clone()),
            chip_name: chip.map(|c| c.name.clone()).or_else(|| s.chip_name.clone()),
            replica_gpus: r.policy.replica_gpus,
            tps: r.tps,
            tps_source: ctx.tps_source.clone(),
            volumes: r.volumes,
            total_tokens: r.volumes.total(),
            gpu_hour_usd: r.gpu_hour,
            gpu_hour_source: ctx.gpu_hour_source.clone(),
            owned_parts: ctx.owned_parts,
            gpu_tier: ctx.tier.map(|t| t.tier.clone()),
            gpu_kind: ctx.commitment,
            gpu_hour_label: gpu_hour_label(&ctx),
            prefill: r.prefill,
            cache_cost: r.cache_cost,
            ops_monthly_usd: r.ops_monthly,
            profile_peak: r.profile.peak(),
            profile_weights: r.profile.weights().to_vec(),
        },
        rent: RentReport {
            monthly_usd: rent.monthly_usd,
            per_mtok: rent.per_mtok,
            bill: s.bill.filter(|_| rent.monthly_usd > 0.0).map(|paid| {
                let ratio = paid / rent.monthly_usd;
                BillCheck {
                    paid_usd: paid,
                    estimate_usd: rent.monthly_usd,
                    difference_usd: paid - rent.monthly_usd,
                    discount: 1.0 - ratio,
                    price_in: r.api.price_in * ratio,
                    price_out: r.api.price_out * ratio,
                }
            }),
        },
        self_host,
        hybrid: hybrid.map(|h| {
            let own_part = h.total() - h.breakdown.overflow_api;
            let share = h.plan.overflow_share;
            let rate = |g: f64, api: f64| {
                let own = if demand > 0.0 {
                    own_part * g / demand * MILLION
                } else {
                    0.0
                };
                own + share * api
            };
            let api = &rent.per_mtok;
            // Renting everything keeps the cache; an overflow arrives cold but its warm share.
            let warm = if share >= 1.0 { 1.0 } else { r.overflow_warm };
            HybridReport {
                monthly_usd: h.total(),
                replicas: h.plan.replicas,
                gpus: h.plan.gpus,
                api_share: share,
                breakdown: h.breakdown,
                effective_per_mtok: PerMtok {
                    blended: if r.volumes.total() > 0.0 {
                        h.total() / r.volumes.total() * MILLION
                    } else {
                        0.0
                    },
                    ..PerMtok::with_blend(
                        rate(gpu_time.uncached, api.input),
                        rate(
                            gpu_time.cached,
                            warm * api.cached + (1.0 - warm) * api.input,
                        ),
                        rate(gpu_time.output, api.output),
                        &r.volumes,
                    )
                },
            }
        }),
        verdict,
        uncertainty,
        flips,
        bands,
        top_warnings,
        sensitivity,
        break_even: be,
        power,
        warnings,
        series,
        plan,
    };
    // The last guard of the policy in `error`: no answer carries a NaN or an infinity (JSON
    // would write it as null, CSV as NaN). The inputs' floors and the guards in each formula
    // keep this from firing; if one is missed, the answer is refused by name, not sent.
    crate::finite::check(&report).map_err(|e| {
        vec![Problem::new(
            "scenario",
            &e.path,
            format!(
                "these inputs give no finite {}: change the volumes or prices towards \
                 realistic values",
                e.path
            ),
        )]
    })?;
    Ok(report)
}

fn curve_label(c: &crate::dataset::Curve, data: &Dataset) -> String {
    let chip = data
        .chip(&c.chip)
        .map_or(c.chip.as_str(), |ch| ch.name.as_str());
    let publisher = data
        .source(&c.source)
        .map_or(c.source.as_str(), |s| s.publisher.as_str());
    format!(
        "{} × {chip}, {}, {} ({publisher})",
        crate::format::number(c.replica_gpus),
        c.precision.to_ascii_uppercase(),
        c.framework
    )
}

fn curve_inputs(r: &Resolved, ctx: &Context, data: &Dataset) -> Vec<CurveInput> {
    let mut inputs: Vec<CurveInput> = data
        .curves_of(&ctx.model.id)
        .filter_map(|c| {
            let selected = ctx.curve.is_some_and(|sel| sel.id == c.id);
            let gpu_hour = if selected {
                r.gpu_hour
            } else {
                data.default_tier(&c.chip)?.usd_per_gpu_hour
            };
            Some(CurveInput {
                id: c.id.clone(),
                label: curve_label(c, data),
                curve: crate::curve::ThroughputCurve::new(c.points.clone()).ok()?,
                mix: c.mix,
                gpu_hour,
                selected,
            })
        })
        .collect();
    if ctx.curve.is_none() {
        inputs.push(CurveInput {
            id: "own".into(),
            label: "Your own curve".into(),
            curve: r.curve.clone(),
            mix: r.curve_mix,
            gpu_hour: r.gpu_hour,
            selected: true,
        });
    }
    inputs
}

fn power(
    r: &Resolved,
    ctx: &Context,
    data: &Dataset,
    s: &Scenario,
    gpu_time: &crate::gpu_time::GpuTime,
) -> PowerReport {
    let chip_power = ctx.chip.and_then(|c| {
        c.accelerator_kw
            .zip(c.accelerator_kw_source.clone())
            .map(|(kw, src)| {
                let definition = if c.accelerator_kw_measure.as_deref() == Some("board") {
                    PowerDefinition::Board
                } else {
                    PowerDefinition::Accelerator
                };
                (kw, src, definition)
            })
            .or_else(|| {
                c.all_in_kw
                    .zip(c.all_in_kw_source.clone())
                    .map(|(kw, src)| (kw, src, PowerDefinition::AllIn))
            })
    });
    let Some((kw, kw_source, definition)) = chip_power else {
        return PowerReport {
            operating_point: None,
            headline: None,
            headline_source: None,
        };
    };
    let operating_point = r
        .volumes
        .mix()
        .and_then(|mix| operating_point(gpu_time, &mix, r.tps, kw, definition, &kw_source));
    let published = ctx.chip.and_then(|c| {
        data.headlines
            .iter()
            .find(|h| h.chip == c.id && h.tokens_per_s_per_mw.is_some())
    });
    let (value, source) = match (s.headline, published) {
        (Some(v), _) => (Some(v), Some("user".to_owned())),
        (None, Some(h)) => (h.tokens_per_s_per_mw, Some(h.source.clone())),
        (None, None) => (None, None),
    };
    let agent = Preset::CodingAgent.shape();
    let headline_mix = crate::units::Mix::from_parts(
        agent.input_per_request * (1.0 - agent.cache_hit),
        agent.input_per_request * agent.cache_hit,
        agent.output_per_request,
    );
    let headline = value.zip(headline_mix).map(|(v, mix)| {
        decode_headline(v, kw, r.gpu_hour, &mix, &r.volumes, r.prefill, r.cache_cost)
    });
    PowerReport {
        operating_point,
        headline,
        headline_source: source,
    }
}

fn class_bars(rent: &PerMtok, marginal: &PerMtok, effective: &PerMtok) -> Vec<ClassBars> {
    let pick = |p: &PerMtok, class: &str| match class {
        "input" => p.input,
        "cached" => p.cached,
        "output" => p.output,
        _ => p.blended,
    };
    [
        ("input", "Uncached input"),
        ("cached", "Cached input"),
        ("output", "Output"),
        ("blended", "Blended"),
    ]
    .into_iter()
    .map(|(class, label)| ClassBars {
        class: class.into(),
        label: label.into(),
        rent: pick(rent, class),
        self_marginal: pick(marginal, class),
        self_effective: pick(effective, class),
    })
    .collect()
}

/// A reserved price whose term is not stated is taken as reserved for this many months.
const ASSUMED_TERM_MONTHS: u32 = 12;

/// How the plan over the years holds the self-hosted GPUs, by what their price commits to, and
/// a note when the term is assumed.
fn holding(s: &Scenario, ctx: &Context, gpu_hour: f64) -> (Holding, Option<String>) {
    if let (Some(p), Some(hw)) = (ctx.owned_parts, s.owned) {
        let holding = Holding::Owned {
            capital: p.capital,
            payoff_months: (hw.years * 12.0).round() as u32,
            with_capex: p.maintenance,
            running: p.power + p.facility,
            capex: hw.capex,
        };
        return (holding, None);
    }
    match ctx.commitment {
        Some(Commitment::Reserved) => match ctx.tier.and_then(|t| t.term_months) {
            Some(m) if m >= 1.0 => (
                Holding::Term {
                    months: m.round() as u32,
                    upfront: ctx.tier.and_then(|t| t.upfront_share).unwrap_or(0.0),
                },
                None,
            ),
            _ => (
                Holding::Term {
                    months: ASSUMED_TERM_MONTHS,
                    upfront: 0.0,
                },
                Some(format!(
                    "The reserved price states no term: {ASSUMED_TERM_MONTHS} months are assumed."
                )),
            ),
        },
        // A published owner's cost is one all-in figure for GPUs bought and kept.
        Some(Commitment::OwnerCost) => (
            Holding::Owned {
                capital: 0.0,
                payoff_months: 0,
                with_capex: gpu_hour,
                running: 0.0,
                capex: 0.0,
            },
            None,
        ),
        _ => (Holding::Follows, None),
    }
}

/// The GPU-hour price as labels show it, with what it commits to.
fn gpu_hour_label(ctx: &Context) -> String {
    if ctx.owned_parts.is_some() {
        return "Owned: capital, power, facility and maintenance".to_owned();
    }
    let kind = match (ctx.commitment, ctx.tier) {
        (Some(Commitment::Reserved), Some(t)) => match t.term_months {
            Some(m) => format!("reserved, {m} months"),
            None => "reserved".to_owned(),
        },
        (Some(k), _) => k.label().to_owned(),
        (None, _) => "commitment not stated".to_owned(),
    };
    match ctx.tier {
        Some(t) => format!("{}: {kind}", t.label),
        None => format!("Your price: {kind}"),
    }
}
