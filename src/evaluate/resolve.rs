//! Scenario plus dataset to resolved numbers, naming the parameter of every problem.

use crate::curve::ThroughputCurve;
use crate::dataset::{ApiOffer, Chip, Curve, Dataset, Model, PriceTier};
use crate::error::Problem;
use crate::fleet::{FleetPolicy, Scaling};
use crate::gpu_price::{Commitment, GpuHourPrice, OwnedHardware, OwnedHourParts};
use crate::profile::LoadProfile;
use crate::rent::ApiPricing;
use crate::resolved::Resolved;
use crate::scenario::{CurveChoice, Scenario};
use crate::units::Mix;

/// The dataset rows a scenario resolved to, for labels, sources and warnings.
pub struct Context<'a> {
    /// The model.
    pub model: &'a Model,
    /// The API offer, if any.
    pub offer: Option<&'a ApiOffer>,
    /// The dataset curve (`None` for the user's own points).
    pub curve: Option<&'a Curve>,
    /// The chip, when known.
    pub chip: Option<&'a Chip>,
    /// Source key of the API prices, or `user`.
    pub api_source: String,
    /// Source key of the target speed, or `user`.
    pub tps_source: String,
    /// The API's measured speed when it was above the curve's fastest point and the target was
    /// capped there.
    pub tps_capped_from: Option<f64>,
    /// Source key of the GPU-hour price, `user` or `owned`.
    pub gpu_hour_source: String,
    /// The owned GPU-hour's parts.
    pub owned_parts: Option<OwnedHourParts>,
    /// The dataset price tier in force (`None`: your own price, or owned hardware).
    pub tier: Option<&'a PriceTier>,
    /// What the GPU-hour price commits to (`None`: owned, or a tier that does not say).
    pub commitment: Option<Commitment>,
}

/// Most ids of a list a problem names.
const LISTED: usize = 20;

/// The ids a problem lists as known: every one when there are at most `shown` of `total` in
/// the whole dataset, else their number. A page carries part of a long list
/// ([`Dataset::for_page`]), and says the same as the whole dataset would.
fn known<'a>(ids: impl Iterator<Item = &'a str>, total: usize, shown: usize) -> String {
    let ids: Vec<&str> = ids.collect();
    if total == 0 {
        "none".into()
    } else if total <= shown && ids.len() == total {
        ids.join(", ")
    } else {
        format!(
            "{} of them, every one listed on /data",
            crate::format::exact(total as f64, false)
        )
    }
}

/// Resolves `s` against `data`, or every problem found.
pub fn resolve<'a>(
    s: &Scenario,
    data: &'a Dataset,
) -> Result<(Resolved, Context<'a>), Vec<Problem>> {
    let mut problems = Vec::new();
    let model = model(s, data)?;
    let offer = offer(s, model, data, &mut problems);
    let (api, api_source) = api_prices(s, offer, &mut problems);
    let curve = match &s.curve {
        CurveChoice::Dataset { id } => dataset_curve(s, id.as_deref(), model, data, &mut problems)?,
        CurveChoice::Own { points, mix, chip } => {
            own_curve(points, mix, chip.as_deref(), model, data)?
        }
    };
    let chip = chip(curve.chip.as_deref(), data, &mut problems);
    let (tps, tps_source, tps_capped_from) = target(s, offer, &curve);
    let priced = gpu_price(s, chip, data, &mut problems)?;
    scaling_problems(s, &priced, &mut problems);
    problems.extend(holds_weights(s, model, curve.row, chip));
    let Some(profile) = LoadProfile::from_spec(&s.profile) else {
        problems.push(Problem::new(
            "profile",
            "",
            "must be a preset or 24 or 168 non-negative weights with a positive sum",
        ));
        return Err(problems);
    };
    if !problems.is_empty() {
        return Err(problems);
    }
    let resolved = Resolved {
        volumes: s.workload.volumes(),
        api,
        curve: curve.throughput,
        curve_mix: curve.mix,
        tps,
        prefill: s
            .prefill
            .or(curve.row.and_then(|c| c.prefill))
            .unwrap_or(crate::scenario::defaults::PREFILL),
        cache_cost: s.cache_cost,
        profile,
        policy: FleetPolicy {
            replica_gpus: s
                .replica
                .or(curve.row.map(|c| c.replica_gpus))
                .unwrap_or(1.0),
            util: s.util,
            redundancy: s.redundancy,
            min_replicas: s.min_replicas,
            scaling: s.scaling,
        },
        gpu_hour: priced.price.usd(),
        ops_monthly: s.ops_fte * s.fte_cost / 12.0 + s.ops_monthly,
        ops_per_gpu: s.ops_gpus_per_fte.map_or(0.0, |n| s.fte_cost / 12.0 / n),
        overflow_warm: s.overflow_warm,
        batch: s.batch,
        batch_rate: curve.row.and_then(|c| c.batch_tokens_per_s_per_gpu),
    };
    let context = Context {
        model,
        offer,
        curve: curve.row,
        chip,
        api_source,
        tps_source,
        tps_capped_from,
        gpu_hour_source: priced.source,
        owned_parts: priced.owned_parts,
        tier: priced.tier,
        commitment: priced.commitment,
    };
    Ok((resolved, context))
}

/// A replica that cannot hold the model's weights (at the curve's precision, or the smallest
/// recorded for your own points): a problem naming both sizes, on `replica` where the link
/// gives it, else on the dataset's curve.
fn holds_weights(
    s: &Scenario,
    model: &Model,
    curve: Option<&Curve>,
    chip: Option<&Chip>,
) -> Option<Problem> {
    let chip = chip?;
    // Your own points without `replica` assume one GPU: a warning says what it cannot hold.
    if s.replica.is_none() && curve.is_none() {
        return None;
    }
    let weights = model.weights_at(curve.map(|c| c.precision.as_str()))?;
    let replica = s.replica.or(curve.map(|c| c.replica_gpus)).unwrap_or(1.0);
    let memory = chip.memory_gb * replica;
    if weights.gigabytes <= memory {
        return None;
    }
    let (param, value) = match (s.replica, curve) {
        (None, Some(c)) => ("curve", c.id.clone()),
        _ => ("replica", crate::format::number(replica)),
    };
    let least = (weights.gigabytes / chip.memory_gb).ceil();
    Some(Problem::new(
        param,
        value,
        format!(
            "{} × {} holds {}\u{a0}GB, less than {}'s {} weights ({}\u{a0}GB): a replica needs at least {} of these GPUs",
            crate::format::number(replica),
            chip.name,
            crate::format::number(memory),
            model.name,
            weights.precision.to_ascii_uppercase(),
            crate::format::number(weights.gigabytes),
            crate::format::number(least)
        ),
    ))
}

/// The model: the link's, else the dataset's first.
fn model<'a>(s: &Scenario, data: &'a Dataset) -> Result<&'a Model, Vec<Problem>> {
    let model = match &s.model {
        Some(id) => data.model(id),
        None => data.models.first(),
    };
    model.ok_or_else(|| {
        let id = s.model.clone().unwrap_or_default();
        let list = known(
            data.models.iter().map(|m| m.id.as_str()),
            data.models.len(),
            LISTED,
        );
        vec![Problem::new(
            "model",
            id,
            format!("no such model in the dataset; known: {list}"),
        )]
    })
}

/// The API offer: the link's (of this model), else the model's default
/// ([`Dataset::default_offer`]).
fn offer<'a>(
    s: &Scenario,
    model: &Model,
    data: &'a Dataset,
    problems: &mut Vec<Problem>,
) -> Option<&'a ApiOffer> {
    let Some(id) = &s.api else {
        return data.default_offer(&model.id);
    };
    match data.api_offer(id) {
        Some(o) if o.model == model.id => Some(o),
        _ => {
            let list = known(
                data.api_offers
                    .iter()
                    .filter(|o| o.model == model.id)
                    .map(|o| o.id.as_str()),
                data.offer_count(&model.id),
                crate::dataset::PAGE_OFFERS,
            );
            problems.push(Problem::new(
                "api",
                id,
                format!("no such API offer for model {}; known: {list}", model.id),
            ));
            None
        }
    }
}

/// The API prices in force, each the link's or the offer's, and their source key (`user`
/// when the link gives any of them).
fn api_prices(
    s: &Scenario,
    offer: Option<&ApiOffer>,
    problems: &mut Vec<Problem>,
) -> (ApiPricing, String) {
    let mut price = |own: Option<f64>, from: fn(&ApiOffer) -> f64, name: &str| {
        own.or_else(|| offer.map(from)).unwrap_or_else(|| {
            if s.api.is_none() {
                problems.push(Problem::new(
                    name,
                    "",
                    "required: the dataset has no API offer for this model",
                ));
            }
            0.0
        })
    };
    let api = ApiPricing {
        price_in: price(s.price_in, |o| o.price_in, "price_in"),
        price_out: price(s.price_out, |o| o.price_out, "price_out"),
        cache_discount: s
            .cache_discount
            .or(offer.map(|o| o.cache_discount))
            .unwrap_or(0.0),
        markup: s.markup.or(offer.map(|o| o.markup)).unwrap_or(0.0),
        batch_saving: s.batch * batch_discount(s, offer).unwrap_or(0.0),
    };
    let own_prices = s.price_in.is_some()
        || s.price_out.is_some()
        || s.cache_discount.is_some()
        || s.markup.is_some();
    let source = match offer {
        Some(o) if !own_prices => o.source.clone(),
        _ => "user".to_owned(),
    };
    (api, source)
}

/// The API's discount on batch tokens in force: the link's, else the offer's (`None`: neither
/// states one, and batch tokens are priced as the others).
pub fn batch_discount(s: &Scenario, offer: Option<&ApiOffer>) -> Option<f64> {
    s.batch_discount.or(offer.and_then(|o| o.batch_discount))
}

/// The throughput curve in force: its dataset row (none for your points), the curve, the mix
/// it was measured at and the chip it ran on.
struct CurveInForce<'a> {
    row: Option<&'a Curve>,
    throughput: ThroughputCurve,
    mix: Mix,
    chip: Option<String>,
}

/// A dataset curve: the link's (of this model), else the model's default
/// ([`Dataset::default_curve`]).
fn dataset_curve<'a>(
    s: &Scenario,
    id: Option<&str>,
    model: &'a Model,
    data: &'a Dataset,
    problems: &mut Vec<Problem>,
) -> Result<CurveInForce<'a>, Vec<Problem>> {
    let row = match id {
        Some(id) => match data.curve(id) {
            Some(c) if c.model == model.id => Some(c),
            _ => {
                let list = known(
                    data.curves_of(&model.id).map(|c| c.id.as_str()),
                    data.curves_of(&model.id).count(),
                    LISTED,
                );
                problems.push(Problem::new(
                    "curve",
                    id,
                    format!("no such curve for model {}; known: {list}", model.id),
                ));
                None
            }
        },
        None => {
            let first = data.default_curve(&model.id);
            if first.is_none() {
                problems.push(Problem::new(
                    "points",
                    "",
                    "required: the dataset has no curve for this model; give your own points",
                ));
            }
            first
        }
    };
    let Some(row) = row else {
        return Err(std::mem::take(problems));
    };
    let throughput = ThroughputCurve::new(row.points.clone()).map_err(|e| {
        vec![Problem::new(
            "curve",
            &row.id,
            format!("the dataset curve is unusable: {e}"),
        )]
    })?;
    let mix = match s.curve_mix {
        Some([u, c, o]) => Mix::from_parts(u, c, o).ok_or_else(|| {
            vec![Problem::new(
                "curve_mix",
                "",
                "must have non-negative parts with a positive sum",
            )]
        })?,
        None => row.mix,
    };
    Ok(CurveInForce {
        row: Some(row),
        throughput,
        mix,
        chip: Some(row.chip.clone()),
    })
}

/// Your own points, at the mix they were measured at, on their chip (else the chip of the
/// model's first curve).
fn own_curve<'a>(
    points: &[crate::curve::CurvePoint],
    mix: &[f64; 3],
    chip: Option<&str>,
    model: &Model,
    data: &Dataset,
) -> Result<CurveInForce<'a>, Vec<Problem>> {
    let throughput = ThroughputCurve::new(points.to_vec())
        .map_err(|e| vec![Problem::new("points", "", e.to_string())])?;
    let Some(mix) = Mix::from_parts(mix[0], mix[1], mix[2]) else {
        return Err(vec![Problem::new(
            "curve_mix",
            "",
            "must have non-negative parts with a positive sum",
        )]);
    };
    let chip = chip
        .map(str::to_owned)
        .or_else(|| data.default_curve(&model.id).map(|c| c.chip.clone()));
    Ok(CurveInForce {
        row: None,
        throughput,
        mix,
        chip,
    })
}

/// The chip the curve ran on (none for `other`, a chip the dataset does not hold).
fn chip<'a>(id: Option<&str>, data: &'a Dataset, problems: &mut Vec<Problem>) -> Option<&'a Chip> {
    match id {
        // Own points on a chip the dataset does not hold: no tier, no power figure.
        Some(crate::codec::OTHER_CHIP) | None => None,
        Some(id) => {
            let c = data.chip(id);
            if c.is_none() {
                let list = known(
                    data.chips.iter().map(|c| c.id.as_str()),
                    data.chips.len(),
                    LISTED,
                );
                problems.push(Problem::new(
                    "chip",
                    id,
                    format!("no such chip in the dataset; known: {list}, or other"),
                ));
            }
            c
        }
    }
}

/// The target speed per user, its source key, and the API's measured speed when that was
/// above the curve's fastest point and the target was capped there.
fn target(
    s: &Scenario,
    offer: Option<&ApiOffer>,
    curve: &CurveInForce,
) -> (f64, String, Option<f64>) {
    let fastest = curve.throughput.fastest();
    let capped_from = offer
        .and_then(|o| o.speed_tps)
        .filter(|t| s.tps.is_none() && *t > fastest);
    let (tps, source) = match (s.tps, offer.and_then(|o| o.speed_tps)) {
        (Some(t), _) => (t, "user".to_owned()),
        (None, Some(t)) => (
            t.min(fastest),
            offer.map(|o| o.source.clone()).unwrap_or_default(),
        ),
        (None, None) => (
            curve.throughput.slowest(),
            curve.row.map_or("user".to_owned(), |c| c.source.clone()),
        ),
    };
    (tps, source, capped_from)
}

/// The GPU-hour price in force and what it rests on.
struct Priced<'a> {
    price: GpuHourPrice,
    /// Its source key: `user`, `owned` or the tier's.
    source: String,
    owned_parts: Option<OwnedHourParts>,
    /// The dataset tier, when the price is one.
    tier: Option<&'a PriceTier>,
    /// What it commits to (`None`: owned, or a tier that does not say).
    commitment: Option<Commitment>,
}

/// The GPU-hour: owned hardware's parts, your own price, or the chip's tier.
fn gpu_price<'a>(
    s: &Scenario,
    chip: Option<&Chip>,
    data: &'a Dataset,
    problems: &mut Vec<Problem>,
) -> Result<Priced<'a>, Vec<Problem>> {
    let rented = |usd: f64, source: &str| Priced {
        price: GpuHourPrice::Rented { usd },
        source: source.to_owned(),
        owned_parts: None,
        tier: None,
        commitment: None,
    };
    if let Some(hw) = &s.owned {
        let Some(kw) = hw.kw.or(chip.and_then(|c| c.all_in_kw)) else {
            problems.push(Problem::new(
                "kw",
                "",
                "required with own=1: the chip has no all-in power figure in the dataset: give its kW",
            ));
            return Err(std::mem::take(problems));
        };
        let owned = OwnedHardware {
            capex: hw.capex,
            years: hw.years,
            rate: hw.rate,
            kw,
            pue: hw.pue,
            kwh: hw.kwh,
            colo: hw.colo,
            maint: hw.maint,
        };
        return Ok(Priced {
            price: GpuHourPrice::Owned(owned),
            source: "owned".to_owned(),
            owned_parts: Some(owned.parts()),
            tier: None,
            commitment: None,
        });
    }
    Ok(match (s.gpu_hour, tier_of(s, chip, data, problems)) {
        (Some(usd), _) => Priced {
            commitment: Some(s.gpu_kind.unwrap_or(Commitment::OnDemand)),
            ..rented(usd, "user")
        },
        (None, Some(t)) => Priced {
            tier: Some(t),
            commitment: t.kind,
            ..rented(t.usd_per_gpu_hour, &t.source)
        },
        (None, None) if s.gpu_tier.is_some() => rented(1.0, "user"),
        (None, None) => {
            problems.push(Problem::new(
                "gpu_hour",
                "",
                "required: the dataset has no GPU-hour price for this chip: give yours",
            ));
            rented(1.0, "user")
        }
    })
}

/// Hourly scaling where the GPU-hour cannot follow the load: owned hardware, a reserved price
/// or an owner's cost.
fn scaling_problems(s: &Scenario, priced: &Priced, problems: &mut Vec<Problem>) {
    if s.scaling == Scaling::Hourly && priced.price.is_owned() {
        problems.push(Problem::new(
            "scaling",
            "hourly",
            "hourly autoscaling needs rented GPUs; owned hardware is paid every hour",
        ));
    }
    let Some(kind) = priced
        .commitment
        .filter(|k| s.scaling == Scaling::Hourly && !k.scales_hourly())
    else {
        return;
    };
    let what = match priced.tier {
        Some(t) => format!("the price tier {} ({})", t.tier, t.label),
        None => "your gpu_hour".to_owned(),
    };
    let why = match kind {
        Commitment::Reserved => "a reserved price bills the whole fleet for every hour of its term",
        _ => "an owner's cost is what owning the GPU costs every hour, not a price to stop paying",
    };
    problems.push(Problem::new(
        "scaling",
        "hourly",
        format!(
            "hourly scaling needs an on_demand or spot price; {what} is {}: {why}. Use fixed, or an on-demand price",
            kind.key()
        ),
    ));
}

/// The dataset tier named by `gpu_tier`, or the chip's default; a problem when the named tier
/// is not one of the chip's.
fn tier_of<'a>(
    s: &Scenario,
    chip: Option<&Chip>,
    data: &'a Dataset,
    problems: &mut Vec<Problem>,
) -> Option<&'a PriceTier> {
    let Some(chip) = chip else {
        if let Some(id) = &s.gpu_tier {
            problems.push(Problem::new(
                "gpu_tier",
                id,
                "the chip is not in the dataset, so it has no price tiers: give your own gpu_hour",
            ));
        }
        return None;
    };
    match &s.gpu_tier {
        Some(id) => {
            let found = data
                .price_tiers
                .iter()
                .find(|t| t.chip == chip.id && &t.tier == id);
            if found.is_none() {
                let list = known(
                    data.price_tiers
                        .iter()
                        .filter(|t| t.chip == chip.id)
                        .map(|t| t.tier.as_str()),
                    data.tier_count(&chip.id),
                    crate::dataset::PAGE_TIERS,
                );
                problems.push(Problem::new(
                    "gpu_tier",
                    id,
                    format!("no such price tier for {}; known: {list}", chip.name),
                ));
            }
            found
        }
        None => data.default_tier(&chip.id),
    }
}
