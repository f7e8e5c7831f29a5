//! Every way to serve the scenario's workload, ranked by monthly cost.
//!
//! The same workload (volumes, mix, profile, speed target, fleet policy, operations) priced:
//! - renting at each API offer of the model (and at the scenario's own prices, if it has them);
//! - self-hosting on each dataset curve of the model at each GPU price of its chip (every
//!   commitment kind; owner's cost listed but marked as not for rent), at the scenario's own
//!   GPU-hour price or owned hardware on the scenario's chip, and on the scenario's own
//!   benchmark; a fixed fleet everywhere and an hourly one where the price allows it;
//! - the best hybrid of each self-hosted option, where splitting beats both of its sides.
//!
//! Each option carries the link that opens it in the calculator: evaluating that link gives
//! the option's monthly total (the rent, self-host or hybrid line, as its kind says).

use serde::{Deserialize, Serialize};

use crate::evaluate::{evaluate_with, Depth};
use crate::fleet::Scaling;
use crate::gpu_price::Commitment;
use crate::scenario::{CurveChoice, Scenario};
use crate::units::PerMtok;
use crate::{to_query, Dataset, Problem, Report};

/// Draws of the ranking's joint sample: every option is costed in each, so the sample is
/// smaller than the calculator's; each share is known within 2.5 points (one standard error at
/// 50 %), and the page prints it no more precisely than that.
pub const RANKING_DRAWS: f64 = 400.0;

/// How an option's figure can be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum OptionGroup {
    /// Can be rented or bought at the price shown, priced from an independent curve (or your
    /// own benchmark): ranked.
    Buyable,
    /// Priced from a vendor's own curve at face value: its best case, which a buyer's
    /// deployment may not reach (the joint sample draws its haircut). Listed apart.
    VendorBestCase,
    /// Priced at an owner's cost: what owning and running the GPU at hyperscale costs, a floor
    /// no one rents at. Listed apart, and not in the joint sample.
    Floor,
}

/// Which line of the calculator an option is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum OptionKind {
    /// Renting per token.
    Rent,
    /// Self-hosting all of the workload.
    SelfHost,
    /// Own replicas up to a cap, the rest sent to the API.
    Hybrid,
}

/// One way to serve the workload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ServingOption {
    /// What it is, in words: the offer, or the curve, the GPU price and the sizing.
    pub label: String,
    /// The API offer (renting) or the curve (self-hosting, hybrid).
    pub plan: String,
    /// The GPU-hour price as the calculator labels it, and the sizing: `3-year rental, 25 %
    /// upfront (July 2026): reserved, 36 months · fixed fleet` (`None` for renting).
    pub terms: Option<String>,
    /// The calculator link (query string) that opens this option.
    pub query: String,
    /// Rent, self-host or hybrid.
    pub kind: OptionKind,
    /// $ per month.
    pub monthly_usd: f64,
    /// GPUs at the busiest hour (0 for renting).
    pub gpus: f64,
    /// Busy over provisioned GPU-hours (`None` for renting).
    pub utilization: Option<f64>,
    /// The whole bill by token class, $ per million: the API's prices for renting, the
    /// effective rates (idle hours and operations included) for self-hosting and the hybrid.
    pub per_mtok: PerMtok,
    /// Share of the demand the hybrid sends to the API (`None` otherwise).
    pub api_share: Option<f64>,
    /// The output speed per user it serves: the target for self-hosting and the hybrid (on a
    /// curve that reaches it); for renting, the offer's measured speed, `None` where its source
    /// states none ("speed not stated").
    #[serde(default)]
    pub speed_tps: Option<f64>,
    /// The GPU-hour price's commitment (`None`: renting, owned hardware, or not stated).
    pub commitment: Option<Commitment>,
    /// False for an owner's cost (a hyperscaler's own cost of a GPU-hour): a floor, not a
    /// price anyone rents at.
    pub for_rent: bool,
    /// Ranked with what one can rent or buy, or listed apart (a vendor's best case, a floor).
    pub group: OptionGroup,
    /// Share of plausible cases in which this option is the cheapest of all the options in one
    /// joint sample ([`RANKING_DRAWS`] draws; the shares of the options add up to 1 with the
    /// draws in which none has an answer). `None` for a floor, with `draws=0`, or when the
    /// option cannot be costed in the sample.
    pub p_cheapest: Option<f64>,
    /// True for the scenario's own plan of this kind.
    pub current: bool,
}

/// A combination left out, and why (a price that cannot scale hourly, say).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SkippedOption {
    /// The option, in words.
    pub label: String,
    /// Why it has no figure.
    pub reason: String,
}

/// The ranking.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Options {
    /// The scenario's own link.
    pub query: String,
    /// Dataset revision the figures come from.
    pub dataset_revision: i64,
    /// Every option, cheapest first.
    pub options: Vec<ServingOption>,
    /// Combinations with no figure.
    pub skipped: Vec<SkippedOption>,
    /// Draws of the joint sample the options' `p_cheapest` come from (0: none).
    pub draws: f64,
    /// API offers of the model not ranked: beyond the [`crate::dataset::PAGE_OFFERS`] a page
    /// carries, each costs more for this workload than the cheapest ranked ones (`/data`
    /// lists them all).
    #[serde(default)]
    pub offers_left_out: u32,
    /// GPU-hour prices of the chips the model runs on not ranked: beyond the
    /// [`crate::dataset::PAGE_TIERS`] of each chip a page carries (its default, the link's, the
    /// cheapest of each commitment kind, then the cheapest others); `/data` lists them all.
    #[serde(default)]
    pub tiers_left_out: u32,
}

/// A variant of the scenario to price.
struct Variant {
    scenario: Scenario,
    for_rent: bool,
    current: bool,
}

fn sizing(scaling: Scaling) -> &'static str {
    match scaling {
        Scaling::Fixed => "fixed fleet",
        Scaling::Hourly => "hourly fleet",
    }
}

/// The scenario's own curve at each price of its chip (`chip`), at its own GPU-hour price and on
/// owned hardware, each with a fixed fleet and, where the price is by the hour, an hourly one.
fn own_curve_variants(s: &Scenario, data: &Dataset, chip: Option<&str>) -> Vec<Variant> {
    let bare = Scenario {
        gpu_hour: None,
        gpu_kind: None,
        gpu_tier: None,
        owned: None,
        ..s.clone()
    };
    let mut out = Vec::new();
    let both = |scenario: Scenario, kind: Option<Commitment>, out: &mut Vec<Variant>| {
        for scaling in [Scaling::Fixed, Scaling::Hourly] {
            if scaling == Scaling::Hourly && !kind.is_some_and(Commitment::scales_hourly) {
                continue;
            }
            out.push(Variant {
                scenario: Scenario {
                    scaling,
                    ..scenario.clone()
                },
                for_rent: kind.is_none_or(Commitment::is_rentable),
                current: false,
            });
        }
    };
    for tier in data
        .price_tiers
        .iter()
        .filter(|t| Some(t.chip.as_str()) == chip)
    {
        let priced = Scenario {
            gpu_tier: Some(tier.tier.clone()),
            ..bare.clone()
        };
        both(priced, tier.kind, &mut out);
    }
    if let Some(owned) = s.owned {
        both(
            Scenario {
                owned: Some(owned),
                ..bare.clone()
            },
            None,
            &mut out,
        );
    } else if let Some(usd) = s.gpu_hour {
        let kind = s.gpu_kind.unwrap_or(Commitment::OnDemand);
        both(
            Scenario {
                gpu_hour: Some(usd),
                gpu_kind: s.gpu_kind,
                ..bare
            },
            Some(kind),
            &mut out,
        );
    }
    out
}

/// The scenario on a dataset curve, every GPU-price input cleared: the caller sets one.
pub(crate) fn on_curve(s: &Scenario, curve: &str) -> Scenario {
    Scenario {
        curve: CurveChoice::Dataset {
            id: Some(curve.to_owned()),
        },
        curve_mix: None,
        chip_name: None,
        replica: None,
        gpu_hour: None,
        gpu_kind: None,
        gpu_tier: None,
        owned: None,
        ..s.clone()
    }
}

/// Every way to serve `s`'s workload on `data`, cheapest first. The scenario's own problems
/// (an invalid input) come back as from [`crate::evaluate`]; a combination that cannot be
/// priced is listed in `skipped`.
pub fn options(s: &Scenario, data: &Dataset) -> Result<Options, Vec<Problem>> {
    let mut ranking = Ranking::default();
    let (base, own_answers) = base_report(s, data, &mut ranking.skipped)?;
    let model = base.inputs.model.clone();
    let data = data.for_page(&Scenario {
        model: Some(model.clone()),
        ..s.clone()
    });
    // The prices left out of the chips the model's curves run on.
    let mut chips: Vec<&str> = data.curves_of(&model).map(|c| c.chip.as_str()).collect();
    chips.sort_unstable();
    chips.dedup();
    let tiers_left_out = chips
        .iter()
        .filter_map(|c| data.tiers_left_out.get(*c))
        .fold(0u32, |a, n| a.saturating_add(*n));
    let here = own_answers.then(|| Variant {
        scenario: s.clone(),
        for_rent: base.inputs.gpu_kind.is_none_or(Commitment::is_rentable),
        current: true,
    });
    // Every option at the scenario's own speed target: without one, the calculator takes the
    // offer's measured speed and caps it at the curve's fastest point, which would price each
    // row at another service level. A curve that cannot reach it is listed as skipped.
    let at_speed = Scenario {
        tps: Some(s.tps.unwrap_or(base.inputs.tps)),
        ..s.clone()
    };
    for v in rent_variants(s, &at_speed, &base, &data, own_answers) {
        ranking.add_rent(v, &base, &data);
    }
    let own = own_variants(&at_speed, &base, &data, own_answers);
    for v in here.into_iter().chain(own) {
        ranking.add_own(v, &base, &data);
    }
    let draws = ranking.sureness(&at_speed, &data);
    let Ranking {
        mut out, skipped, ..
    } = ranking;
    // What one can rent or buy first, cheapest first (on a tie the scenario's own, then the
    // order above); then a vendor's best cases, then the floors.
    out.sort_by(|a, b| {
        a.group
            .cmp(&b.group)
            .then(a.monthly_usd.total_cmp(&b.monthly_usd))
            .then(b.current.cmp(&a.current))
    });
    Ok(Options {
        query: base.query,
        dataset_revision: data.revision,
        options: out,
        skipped,
        draws: f64::from(draws),
        offers_left_out: data.offers_left_out,
        tiers_left_out,
    })
}

/// The scenario's own quick report, and whether it is its own: inputs that do not read are
/// the scenario's problem; valid inputs whose own curve has no answer (a speed beyond it, say)
/// still rank every other option, from the first curve of the model that has one.
fn base_report(
    s: &Scenario,
    data: &Dataset,
    skipped: &mut Vec<SkippedOption>,
) -> Result<(Report, bool), Vec<Problem>> {
    let problems = match evaluate_with(s, data, Depth::Quick) {
        Ok(r) => return Ok((r, true)),
        Err(problems) => problems,
    };
    let parsed = crate::codec::parse(&to_query(s))?;
    let model = match parsed.scenario.model.as_deref() {
        Some(id) => data.model(id).map(|m| m.id.clone()),
        None => data.models.first().map(|m| m.id.clone()),
    };
    let other = model.as_deref().and_then(|m| {
        data.curves_of(m)
            .find_map(|c| evaluate_with(&on_curve(s, &c.id), data, Depth::Quick).ok())
    });
    let Some(other) = other else {
        return Err(problems);
    };
    skipped.push(SkippedOption {
        label: describe(s, data),
        reason: problems
            .iter()
            .map(|p| format!("{}: {}", p.param, p.reason))
            .collect::<Vec<_>>()
            .join(" "),
    });
    Ok((other, false))
}

/// Renting: the scenario's own API prices, then every offer of the model, at the scenario's
/// speed (`at_speed`).
fn rent_variants(
    s: &Scenario,
    at_speed: &Scenario,
    base: &Report,
    data: &Dataset,
    own_answers: bool,
) -> Vec<Variant> {
    // Renting needs no curve, but a report does: where the scenario's own curve has no answer,
    // the renting lines are priced on the curve that had one.
    let renting = if own_answers {
        s.clone()
    } else {
        Scenario {
            curve: CurveChoice::Dataset {
                id: Some(base.inputs.curve.clone()),
            },
            curve_mix: None,
            ..s.clone()
        }
    };
    let offers = data.api_offers.iter().map(|offer| Variant {
        scenario: Scenario {
            api: Some(offer.id.clone()),
            price_in: None,
            price_out: None,
            cache_discount: None,
            curve: renting.curve.clone(),
            curve_mix: renting.curve_mix,
            markup: None,
            batch_discount: None,
            ..at_speed.clone()
        },
        for_rent: true,
        current: false,
    });
    let own = Variant {
        scenario: renting.clone(),
        for_rent: true,
        current: own_answers,
    };
    std::iter::once(own).chain(offers).collect()
}

/// Self-hosting: every curve of the model at every price of its chip (a fixed fleet, and an
/// hourly one where the price is by the hour), at the scenario's own price or owned hardware
/// on its chip, and the user's own curve priced as any curve of its chip.
fn own_variants(s: &Scenario, base: &Report, data: &Dataset, own_answers: bool) -> Vec<Variant> {
    let mut own = Vec::new();
    let chip = base.inputs.chip.as_deref();
    for curve in data.curves_of(&base.inputs.model) {
        for tier in data.price_tiers.iter().filter(|t| t.chip == curve.chip) {
            let hourly = tier.kind.is_some_and(Commitment::scales_hourly);
            for scaling in [Scaling::Fixed, Scaling::Hourly] {
                if scaling == Scaling::Hourly && !hourly {
                    continue;
                }
                own.push(Variant {
                    scenario: Scenario {
                        gpu_tier: Some(tier.tier.clone()),
                        scaling,
                        ..on_curve(s, &curve.id)
                    },
                    for_rent: tier.kind.is_none_or(Commitment::is_rentable),
                    current: false,
                });
            }
        }
        // The scenario's own GPU price (a negotiated rate, owned hardware) is for its chip.
        if chip == Some(curve.chip.as_str()) {
            own.extend(own_price_variants(s, &curve.id));
        }
    }
    // The scenario's own line among the own curve's, counted once.
    if own_answers && matches!(s.curve, CurveChoice::Own { .. }) {
        own.extend(own_curve_variants(s, data, chip));
    }
    own
}

/// Curve `curve` at the scenario's own GPU price or owned hardware: a fixed fleet, and an
/// hourly one where the price is by the hour.
fn own_price_variants(s: &Scenario, curve: &str) -> Vec<Variant> {
    if let Some(owned) = s.owned {
        return vec![Variant {
            scenario: Scenario {
                owned: Some(owned),
                scaling: Scaling::Fixed,
                ..on_curve(s, curve)
            },
            for_rent: true,
            current: false,
        }];
    }
    let Some(usd) = s.gpu_hour else {
        return Vec::new();
    };
    let kind = s.gpu_kind.unwrap_or(Commitment::OnDemand);
    [Scaling::Fixed, Scaling::Hourly]
        .into_iter()
        .filter(|scaling| *scaling == Scaling::Fixed || kind.scales_hourly())
        .map(|scaling| Variant {
            scenario: Scenario {
                gpu_hour: Some(usd),
                gpu_kind: s.gpu_kind,
                scaling,
                ..on_curve(s, curve)
            },
            for_rent: kind.is_rentable(),
            current: false,
        })
        .collect()
}

/// The options as they are priced, each priced line once.
#[derive(Default)]
struct Ranking {
    out: Vec<ServingOption>,
    skipped: Vec<SkippedOption>,
    /// The lines priced so far, by what prices them.
    seen: std::collections::HashSet<String>,
}

impl Ranking {
    /// A renting line.
    fn add_rent(&mut self, v: Variant, base: &Report, data: &Dataset) {
        // The scenario's own lines are the report already made.
        let priced = if v.current {
            Ok(base.clone())
        } else {
            price(&v.scenario, data)
        };
        let r = match priced {
            Ok(r) => r,
            Err(reason) => {
                self.skipped.push(SkippedOption {
                    label: format!("Rent: {}", offer_label(&v.scenario, data)),
                    reason,
                });
                return;
            }
        };
        let key = format!(
            "rent {:?} {} {} {} {} {}",
            r.inputs.api,
            r.inputs.api_source,
            r.inputs.price_in,
            r.inputs.price_out,
            r.inputs.cache_discount,
            r.inputs.markup
        );
        if !self.seen.insert(key) {
            return;
        }
        // An offer's measured speed is held to the target like a curve's.
        if let (Some(speed), Some(target)) = (r.inputs.api_tps, v.scenario.tps) {
            if speed < target {
                self.skipped.push(SkippedOption {
                    label: format!("Rent: {}", offer_label(&v.scenario, data)),
                    reason: format!(
                        "tps: it serves {} tokens/s per user as measured, slower than the target, {}",
                        crate::format::significant(speed, 4),
                        crate::format::significant(target, 4)
                    ),
                });
                return;
            }
        }
        let plan = api_label(&r, data);
        self.out.push(ServingOption {
            label: format!("Rent: {plan}"),
            plan,
            terms: None,
            query: r.query.clone(),
            kind: OptionKind::Rent,
            monthly_usd: r.rent.monthly_usd,
            gpus: 0.0,
            utilization: None,
            per_mtok: r.rent.per_mtok,
            api_share: None,
            speed_tps: r.inputs.api_tps,
            commitment: None,
            for_rent: true,
            group: OptionGroup::Buyable,
            p_cheapest: None,
            current: v.current,
        });
    }

    /// A self-hosting line, and its hybrid when that is a split.
    fn add_own(&mut self, v: Variant, base: &Report, data: &Dataset) {
        // Priced with the hybrid, so one report gives both lines.
        let priced = if v.current && v.scenario.hybrid {
            Ok(base.clone())
        } else {
            price(
                &Scenario {
                    hybrid: true,
                    ..v.scenario.clone()
                },
                data,
            )
        };
        // A curve that cannot reach the target is priced as a floor: not an option at it.
        let priced = priced.and_then(|r| match &r.speed {
            Some(sp) if sp.floor => Err(format!(
                "tps: {}",
                crate::error::CurveError::TargetAboveCurve {
                    target: sp.target,
                    fastest: sp.chosen_fastest,
                }
            )),
            _ => Ok(r),
        });
        let r = match priced {
            Ok(r) => r,
            Err(reason) => {
                self.skipped.push(SkippedOption {
                    label: describe(&v.scenario, data),
                    reason,
                });
                return;
            }
        };
        let key = own_key(&r, &v.scenario);
        if !self.seen.insert(key) {
            return;
        }
        let terms = format!(
            "{} · {}",
            r.inputs.gpu_hour_label,
            sizing(v.scenario.scaling)
        );
        let label = format!("{} · {terms}", r.inputs.curve_label);
        let group = if !v.for_rent {
            OptionGroup::Floor
        } else if data.is_vendor(&r.inputs.curve_source) {
            OptionGroup::VendorBestCase
        } else {
            OptionGroup::Buyable
        };
        let own = ServingOption {
            label: label.clone(),
            plan: r.inputs.curve_label.clone(),
            terms: Some(terms.clone()),
            query: if v.scenario.hybrid {
                r.query.clone()
            } else {
                to_query(&v.scenario)
            },
            kind: OptionKind::SelfHost,
            monthly_usd: r.self_host.monthly_usd,
            gpus: r.self_host.gpus,
            utilization: Some(r.self_host.utilization),
            per_mtok: r.self_host.effective_per_mtok,
            api_share: None,
            speed_tps: Some(r.inputs.tps),
            commitment: r.inputs.gpu_kind,
            for_rent: v.for_rent,
            group,
            p_cheapest: None,
            current: v.current,
        };
        // The hybrid when it is a split: own replicas and some overflow.
        let hybrid = r.hybrid.as_ref().filter(|h| {
            h.replicas > 0.0 && h.api_share > 0.0 && h.monthly_usd < r.self_host.monthly_usd
        });
        let hybrid = hybrid.map(|h| {
            let overflow = format!(", overflow to {}", api_label(&r, data));
            ServingOption {
                label: format!("{label}{overflow}"),
                terms: Some(format!("{terms}{overflow}")),
                query: r.query.clone(),
                kind: OptionKind::Hybrid,
                monthly_usd: h.monthly_usd,
                gpus: h.gpus,
                utilization: None,
                per_mtok: h.effective_per_mtok,
                api_share: Some(h.api_share),
                current: v.current && v.scenario.hybrid,
                ..own.clone()
            }
        });
        self.out.push(own);
        self.out.extend(hybrid);
    }

    /// How sure each option is: one joint sample over every option but the floors, each costed
    /// in every draw, the same numbers drawn for all. Returns the number of draws.
    fn sureness(&mut self, s: &Scenario, data: &Dataset) -> u32 {
        let draws = s.uncertainty.draws.min(RANKING_DRAWS) as u32;
        if draws == 0 {
            return draws;
        }
        let plan = |k: OptionKind| match k {
            OptionKind::Rent => crate::decision::Strategy::Rent,
            OptionKind::SelfHost => crate::decision::Strategy::SelfHost,
            OptionKind::Hybrid => crate::decision::Strategy::Hybrid,
        };
        let (index, candidates): (Vec<usize>, Vec<crate::decision::Candidate>) = self
            .out
            .iter()
            .enumerate()
            .filter(|(_, o)| o.group != OptionGroup::Floor)
            .filter_map(|(i, o)| {
                let parsed = crate::codec::parse(&o.query).ok()?;
                crate::evaluate::candidate(&parsed.scenario, data, plan(o.kind))
                    .ok()
                    .map(|c| (i, c))
            })
            .unzip();
        let seed = crate::decision::seed_of(&crate::codec::canonical_query(s));
        let shares = crate::decision::joint_cheapest(&candidates, draws, seed);
        for (i, share) in index.into_iter().zip(shares.cheapest) {
            self.out[i].p_cheapest = Some(share);
        }
        draws
    }
}

/// What prices a self-hosting line: two variants with the same key are one line.
fn own_key(r: &Report, s: &Scenario) -> String {
    format!(
        "own {} {} {} {} {:?} {:?} {:?} {:?}",
        r.inputs.curve,
        r.inputs.gpu_hour_usd,
        r.inputs.gpu_hour_source,
        r.inputs.replica_gpus,
        s.scaling,
        r.inputs.gpu_kind,
        r.inputs.gpu_tier,
        s.curve_mix
    )
}

/// The API prices in force, as a label names them: the offer's name, or "your prices".
fn api_label(r: &Report, data: &Dataset) -> String {
    match (&r.inputs.api, r.inputs.api_source.as_str()) {
        (_, "user") | (None, _) => "your prices".to_owned(),
        (Some(id), _) => data
            .api_offer(id)
            .map_or_else(|| id.clone(), |o| o.name.clone()),
    }
}

/// The API prices a scenario names, in words, without its report: the offer's name, or
/// "your prices".
fn offer_label(s: &Scenario, data: &Dataset) -> String {
    s.api
        .as_deref()
        .and_then(|id| data.api_offer(id))
        .map_or_else(|| "your prices".to_owned(), |o| o.name.clone())
}

/// An option that has no report, in words.
fn describe(s: &Scenario, data: &Dataset) -> String {
    let curve = match &s.curve {
        CurveChoice::Dataset { id: Some(id) } => id.clone(),
        CurveChoice::Dataset { id: None } => "the model's default curve".to_owned(),
        CurveChoice::Own { .. } => "your benchmark".to_owned(),
    };
    let price = if s.owned.is_some() {
        "owned hardware".to_owned()
    } else if let Some(t) = &s.gpu_tier {
        data.price_tiers
            .iter()
            .find(|p| &p.tier == t)
            .map_or_else(|| t.clone(), |p| p.label.clone())
    } else {
        "your GPU-hour price".to_owned()
    };
    format!("{curve} · {price} · {}", sizing(s.scaling))
}

/// The quick report of a scenario, or why it has none.
fn price(s: &Scenario, data: &Dataset) -> Result<Report, String> {
    evaluate_with(s, data, Depth::Quick).map_err(|problems| {
        problems
            .iter()
            .map(|p| format!("{}: {}", p.param, p.reason))
            .collect::<Vec<_>>()
            .join(" ")
    })
}
