//! The sections of one evaluation's report, each from the plans as costed: the verdict, the
//! decision's sample, flips and bands, the self-hosted, rented and hybrid bills, the inputs in
//! force, the chart series, the power figures, the caveats and the plan over the years.

use super::judgement::{sample_context, CURVES_APART};
use super::resolve::batch_discount;
use super::{curve_label, resolve, Context};
use crate::batch::BatchReport;
use crate::break_even::{break_even, BreakEven};
use crate::costing::{Costing, PlanCost};
use crate::curve::Reading;
use crate::dataset::Dataset;
use crate::decision::{self, Totals};
use crate::error::Problem;
use crate::fleet::Demand;
use crate::gpu_price::Commitment;
use crate::gpu_time::GpuTime;
use crate::power::{decode_headline, operating_point, PowerDefinition};
use crate::projection::{Holding, Projection};
use crate::rent::{ApiPricing, RentCost};
use crate::report::{
    Bar, BillCheck, ClassBars, HybridReport, Inputs, PowerReport, RentReport, SelfHostReport,
    Series, Side, Verdict, Warning, WarningCode,
};
use crate::resolved::Resolved;
use crate::scenario::Scenario;
use crate::series::{cost_vs_tps, cost_vs_volume, CurveInput};
use crate::units::{PerMtok, MILLION};
use crate::workload::Preset;

use super::Depth;

/// One scenario resolved against the dataset and costed: every plan's bill at the user's
/// volume, from which each section of the report is written.
pub(super) struct Costed<'a> {
    s: &'a Scenario,
    data: &'a Dataset,
    pub(super) r: Resolved,
    pub(super) ctx: Context<'a>,
    reading: Reading,
    pub(super) gpu_time: GpuTime,
    /// The interactive traffic's GPU time a token (`gpu_time` without batch traffic).
    pub(super) interactive: GpuTime,
    costing: Costing,
    pub(super) rent: RentCost,
    pub(super) own: PlanCost,
    hybrid: Option<PlanCost>,
    totals: Totals,
    pub(super) break_even: BreakEven,
    /// How the plan over the years holds the GPUs, and a note when its term is assumed.
    holding: (Holding, Option<String>),
}

/// What the decision adds to the bills: the sample's ranges and shares, the flips and the bands.
pub(super) struct Judged {
    pub(super) ranges: Vec<decision::Range>,
    pub(super) uncertainty: Option<decision::Uncertainty>,
    pub(super) flips: decision::Flips,
    pub(super) bands: decision::Bands,
}

impl<'a> Costed<'a> {
    /// Resolves `s` against `data` and costs renting, self-hosting and the hybrid.
    pub(super) fn new(s: &'a Scenario, data: &'a Dataset) -> Result<Self, Vec<Problem>> {
        let (r, ctx) = resolve(s, data)?;
        let (reading, interactive) = r.interactive_time().map_err(|p| vec![p])?;
        let costing = r.costing_for(interactive);
        // The workload's GPU time, batch included: the costing's own.
        let gpu_time = costing.gpu_time;
        let rent = r.api.cost(&r.volumes);
        let own = costing.self_host(1.0);
        let hybrid = s.hybrid.then(|| costing.hybrid(1.0));
        let totals = Totals {
            rent: rent.monthly_usd,
            self_host: own.total(),
            hybrid: hybrid
                .filter(|h| h.plan.replicas > 0.0 && h.plan.overflow_share > 0.0)
                .map(|h| h.total()),
        };
        Ok(Self {
            s,
            data,
            break_even: break_even(&costing),
            holding: holding(s, &ctx, r.gpu_hour),
            r,
            ctx,
            reading,
            gpu_time,
            interactive,
            costing,
            rent,
            own,
            hybrid,
            totals,
        })
    }

    /// Which plan is cheapest, by how much, and which cost the same within the tie.
    pub(super) fn verdict(&self) -> Verdict {
        let (s, rent, own_total) = (self.s, self.rent.monthly_usd, self.own.total());
        let (best, best_monthly_usd) = self.totals.best();
        // A hybrid whose cheapest cap is an end ties at its cheapest proper cap, as the sample
        // and the flips hold it.
        let judged = self.totals.with_proper_hybrid(&self.costing, 1.0, s.hybrid);
        let (cheap, dear) = if own_total < rent {
            (own_total, rent)
        } else {
            (rent, own_total)
        };
        Verdict {
            winner: if own_total < rent {
                Side::SelfHost
            } else {
                Side::Rent
            },
            ratio: (cheap > 0.0).then(|| dear / cheap),
            difference_usd: dear - cheap,
            hybrid_saves_usd: self.hybrid.map_or(0.0, |h| (cheap - h.total()).max(0.0)),
            best,
            best_monthly_usd,
            ties: judged
                .ties(s.uncertainty.tie)
                .into_iter()
                .map(|(plan, monthly_usd)| crate::report::Tie { plan, monthly_usd })
                .collect(),
            margin_usd: judged.margin(),
            tie: s.uncertainty.tie,
            decided: true,
        }
    }

    /// The sureness sample (not for a quick answer) and the flips and bands (full only).
    pub(super) fn judge(&self, depth: Depth, ratios: Option<decision::CurveSpread>) -> Judged {
        let none = Judged {
            ranges: Vec::new(),
            uncertainty: None,
            flips: decision::Flips {
                flips: Vec::new(),
                unchanged: Vec::new(),
            },
            bands: decision::Bands::default(),
        };
        if depth == Depth::Quick {
            return none;
        }
        let s = self.s;
        let sure = sample_context(s, &self.ctx, self.data, ratios);
        let (ranges, uncertainty) = decision::uncertainty(
            &self.r,
            &self.reading,
            &sure,
            &self.totals,
            // The years ahead move nothing the sample draws: they do not move its seed.
            decision::seed_of(&crate::codec::canonical_query(&Scenario {
                plan: crate::projection::ProjectionSpec::default(),
                ..s.clone()
            })),
        );
        if depth != Depth::Full {
            return Judged {
                ranges,
                uncertainty,
                ..none
            };
        }
        let total = self.r.volumes.total();
        let (lo, hi) = decision::volume_span(total);
        let tie = s.uncertainty.tie;
        let bands = decision::Bands {
            volume: decision::volume_bands(&self.costing, total, lo, hi, s.hybrid, tie),
        };
        let flips = decision::flips(
            &self.r,
            &self.reading,
            &self.costing,
            s.hybrid,
            self.totals.best().0,
            tie,
            &bands.volume,
        );
        Judged {
            ranges,
            uncertainty,
            flips,
            bands,
        }
    }

    /// Self-hosting's bill, its fleet and its $ per million tokens, marginal and effective.
    pub(super) fn self_host_report(&self) -> SelfHostReport {
        let (r, own, gpu_time) = (&self.r, &self.own, &self.gpu_time);
        let own_total = own.total();
        let [mu, mc, mo] = gpu_time.usd_per_mtok(r.gpu_hour);
        let demand = gpu_time.demand(&r.volumes);
        let effective = |g: f64| {
            if demand > 0.0 {
                own_total * g / demand * MILLION
            } else {
                0.0
            }
        };
        SelfHostReport {
            monthly_usd: own_total,
            gpus: own.plan.gpus,
            replicas: own.plan.replicas,
            utilization: if own.plan.provisioned_gpu_hours > 0.0 {
                own.plan.busy_gpu_hours / own.plan.provisioned_gpu_hours
            } else {
                0.0
            },
            breakdown: own.breakdown,
            per_mtok: PerMtok::with_blend(mu, mc, mo, &r.volumes),
            effective_per_mtok: PerMtok {
                blended: per_token(own_total, r.volumes.total()),
                ..PerMtok::with_blend(
                    effective(gpu_time.uncached),
                    effective(gpu_time.cached),
                    effective(gpu_time.output),
                    &r.volumes,
                )
            },
            curve_tokens_per_s_per_gpu: self.reading.tokens_per_s_per_gpu,
            clamped: self.reading.clamped,
            gpu_seconds_per_token: *gpu_time,
            busy_gpu_hours: own.plan.busy_gpu_hours,
            provisioned_gpu_hours: own.plan.provisioned_gpu_hours,
        }
    }

    /// What the batch traffic does to both bills: the API's saving, and the GPU-hours batch work
    /// takes at the throughput-optimal point, how much of them the idle hours of a fleet held for
    /// the interactive traffic alone hold, and how much the fleet grows for the rest.
    pub(super) fn batch_report(&self) -> Option<BatchReport> {
        let (r, g) = (&self.r, &self.interactive);
        if !(r.batch > 0.0) {
            return None;
        }
        let serving = r.batch_serving(g);
        let alone = (1.0 - r.batch) * g.demand(&r.volumes);
        let held = Demand::new(alone, &r.profile, r.policy).plan(None, 1.0);
        // What batch may fill: the serving replicas up to the target utilisation, less the
        // other traffic's work; spare replicas and the utilisation headroom stay free.
        let p = &r.policy;
        let active = r.profile.weights().iter().filter(|w| **w > 0.0).count() as f64
            / crate::profile::HOURS_PER_WEEK as f64;
        let spares = match p.scaling {
            crate::fleet::Scaling::Fixed => 1.0,
            crate::fleet::Scaling::Hourly => active,
        } * p.redundancy
            * p.replica_gpus
            * crate::units::HOURS_PER_MONTH;
        let serving_hours = (held.provisioned_gpu_hours - spares).max(0.0);
        let fillable = (serving_hours * p.util - held.busy_gpu_hours).max(0.0);
        let gpu_hours = serving.batch_seconds(g, &r.volumes) / 3600.0;
        let added = (self.own.plan.provisioned_gpu_hours - held.provisioned_gpu_hours).max(0.0);
        let list = ApiPricing {
            batch_saving: 0.0,
            ..r.api
        };
        let discount = batch_discount(self.s, self.ctx.offer);
        Some(BatchReport {
            share: r.batch,
            discount: discount.unwrap_or(0.0),
            discount_stated: discount.is_some(),
            rent_saving_usd: list.cost(&r.volumes).monthly_usd - self.rent.monthly_usd,
            tps: serving.tps,
            offline: serving.offline,
            gpu_hours,
            idle_gpu_hours: fillable,
            absorbed_gpu_hours: gpu_hours.min(fillable),
            added_gpu_hours: added,
        })
    }

    /// Renting's bill, and last month's invoice set against it when given.
    pub(super) fn rent_report(&self) -> RentReport {
        let (rent, api) = (&self.rent, &self.r.api);
        RentReport {
            monthly_usd: rent.monthly_usd,
            per_mtok: rent.per_mtok,
            bill: self.s.bill.filter(|_| rent.monthly_usd > 0.0).map(|paid| {
                let ratio = paid / rent.monthly_usd;
                BillCheck {
                    paid_usd: paid,
                    estimate_usd: rent.monthly_usd,
                    difference_usd: paid - rent.monthly_usd,
                    discount: 1.0 - ratio,
                    price_in: api.price_in * ratio,
                    price_out: api.price_out * ratio,
                }
            }),
        }
    }

    /// The hybrid's bill and its effective $ per million tokens, when it is considered.
    pub(super) fn hybrid_report(&self) -> Option<HybridReport> {
        let (r, gpu_time) = (&self.r, &self.gpu_time);
        let demand = gpu_time.demand(&r.volumes);
        self.hybrid.map(|h| {
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
            let api = &self.rent.per_mtok;
            // Renting everything keeps the cache; an overflow arrives cold but its warm share.
            let warm = if share >= 1.0 { 1.0 } else { r.overflow_warm };
            HybridReport {
                monthly_usd: h.total(),
                replicas: h.plan.replicas,
                gpus: h.plan.gpus,
                api_share: share,
                breakdown: h.breakdown,
                effective_per_mtok: PerMtok {
                    blended: per_token(h.total(), r.volumes.total()),
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
        })
    }

    /// The charts' series: the volume and speed curves (full answers only), the bill's lines and
    /// the per-class bars.
    pub(super) fn series(
        &self,
        full: bool,
        bands: &decision::Bands,
        own: &SelfHostReport,
    ) -> Series {
        let (r, be) = (&self.r, &self.break_even);
        let tie = self.s.uncertainty.tie;
        Series {
            cost_vs_volume: if full {
                crate::series::CostVsVolume {
                    bands: decision::material(&bands.volume, tie),
                    ..cost_vs_volume(&self.costing, be.monthly_tokens, self.s.hybrid)
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
                    &curve_inputs(r, &self.ctx, self.data),
                    &r.volumes,
                    r.prefill,
                    r.cache_cost,
                )
            } else {
                Vec::new()
            },
            breakdown: Bar::lines(&own.breakdown),
            per_class: class_bars(&self.rent.per_mtok, &own.per_mtok, &own.effective_per_mtok),
        }
    }

    /// The plan over the years, holding the GPUs as their price commits them.
    pub(super) fn projection(&self) -> Projection {
        let (holding, note) = self.holding.clone();
        let mut plan =
            crate::projection::project(&self.costing, &self.s.plan, holding, self.s.hybrid);
        plan.notes.extend(note);
        plan
    }

    /// The caveats: those the inputs raise, a reserved price's commitment in figures, and curves
    /// of the model that disagree.
    pub(super) fn warnings(&self, ratios: Option<decision::CurveSpread>) -> Vec<Warning> {
        let r = &self.r;
        let mut warnings =
            super::warnings::warnings(self.s, r, &self.ctx, self.data, &self.reading);
        let holding = self.holding.0;
        // A reserved price's caveat states the commitment itself: its size and its term.
        if let (Some(w), Holding::Term { months, upfront }) = (
            warnings
                .iter_mut()
                .find(|w| w.code == WarningCode::ReservedTerm),
            holding,
        ) {
            let gpus = self.own.plan.gpus;
            let total = gpus * r.gpu_hour * crate::units::HOURS_PER_MONTH * f64::from(months);
            let signed = if upfront > 0.0 {
                format!(" ({} at signing)", crate::format::usd(total * upfront))
            } else {
                String::new()
            };
            let noun = if gpus == 1.0 { "GPU" } else { "GPUs" };
            w.message.push_str(&format!(
                " This fleet commits {} {noun} for {months} months: {} in all{signed}.",
                crate::format::number(gpus),
                crate::format::usd(total)
            ));
        }
        if let Some(decision::CurveSpread { lo, hi, names, .. }) =
            ratios.filter(|c| c.hi / c.lo >= CURVES_APART)
        {
            warnings.push(Warning {
                code: WarningCode::CurvesDisagree,
                message: format!(
                    "Independent curves of this model on chips of the same family disagree: at \
                     your mix and speed, {names} give ×{} to ×{} this curve's throughput. The \
                     sureness figures draw over that spread (u_curves).",
                    crate::format::significant(lo, 2),
                    crate::format::significant(hi, 2)
                ),
                source: None,
                effect_usd: None,
            });
        }
        warnings
    }

    /// The inputs in force, with where each came from.
    pub(super) fn inputs(&self) -> Inputs {
        let (s, r, ctx, data) = (self.s, &self.r, &self.ctx, self.data);
        let chip = ctx.chip;
        Inputs {
            model: ctx.model.id.clone(),
            model_name: ctx.model.name.clone(),
            api: ctx.offer.map(|o| o.id.clone()),
            api_source: ctx.api_source.clone(),
            api_tps: ctx.offer.and_then(|o| o.speed_tps),
            price_in: r.api.price_in,
            price_out: r.api.price_out,
            cache_discount: r.api.cache_discount,
            markup: r.api.markup,
            batch_discount: batch_discount(self.s, ctx.offer).unwrap_or(0.0),
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
            gpu_hour_label: gpu_hour_label(ctx),
            prefill: r.prefill,
            prefill_source: match (s.prefill, ctx.curve) {
                (Some(_), _) => "user".to_owned(),
                (None, Some(c)) if c.prefill.is_some() => c.source.clone(),
                _ => crate::dataset::ASSUMPTIONS_SOURCE.to_owned(),
            },
            cache_cost: r.cache_cost,
            ops_monthly_usd: r.ops_monthly,
            profile_peak: r.profile.peak(),
            profile_weights: r.profile.weights().to_vec(),
        }
    }

    /// The power figures: the operating point and a decoded headline.
    pub(super) fn power(&self) -> PowerReport {
        power(&self.r, &self.ctx, self.data, self.s, &self.gpu_time)
    }
}

/// `usd` over `tokens`, per million tokens (0 without tokens).
fn per_token(usd: f64, tokens: f64) -> f64 {
    if tokens > 0.0 {
        usd / tokens * MILLION
    } else {
        0.0
    }
}

/// Most curves the cost-against-speed chart draws of a model that has more: the one in force
/// and, of the others, the first on each chip (dozens of submissions would draw an unreadable
/// tangle; /data lists them all).
pub const CHART_CURVES: usize = 6;

fn curve_inputs(r: &Resolved, ctx: &Context, data: &Dataset) -> Vec<CurveInput> {
    let many = data.curves_of(&ctx.model.id).count() > CHART_CURVES;
    let mut chips: Vec<&str> = ctx.curve.map(|c| vec![c.chip.as_str()]).unwrap_or_default();
    let mut drawn = usize::from(ctx.curve.is_some());
    let mut inputs: Vec<CurveInput> = data
        .curves_of(&ctx.model.id)
        .filter(|c| {
            if !many || ctx.curve.is_some_and(|sel| sel.id == c.id) {
                return true;
            }
            if drawn >= CHART_CURVES || chips.contains(&c.chip.as_str()) {
                return false;
            }
            chips.push(&c.chip);
            drawn += 1;
            true
        })
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
