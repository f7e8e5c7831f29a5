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
    let model = match &s.model {
        Some(id) => data.model(id),
        None => data.models.first(),
    };
    let Some(model) = model else {
        let id = s.model.clone().unwrap_or_default();
        let list = known(
            data.models.iter().map(|m| m.id.as_str()),
            data.models.len(),
            LISTED,
        );
        return Err(vec![Problem::new(
            "model",
            id,
            format!("no such model in the dataset; known: {list}"),
        )]);
    };

    let offer = match &s.api {
        Some(id) => match data.api_offer(id) {
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
        },
        None => data.api_offers.iter().find(|o| o.model == model.id),
    };
    let price =
        |own: Option<f64>, from: fn(&ApiOffer) -> f64, name: &str, problems: &mut Vec<Problem>| {
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
        price_in: price(s.price_in, |o| o.price_in, "price_in", &mut problems),
        price_out: price(s.price_out, |o| o.price_out, "price_out", &mut problems),
        cache_discount: s
            .cache_discount
            .or(offer.map(|o| o.cache_discount))
            .unwrap_or(0.0),
        markup: s.markup.or(offer.map(|o| o.markup)).unwrap_or(0.0),
    };
    let own_prices = s.price_in.is_some()
        || s.price_out.is_some()
        || s.cache_discount.is_some()
        || s.markup.is_some();
    let api_source = match offer {
        Some(o) if !own_prices => o.source.clone(),
        _ => "user".to_owned(),
    };

    let (curve_row, throughput, mix, chip_id) = match &s.curve {
        CurveChoice::Dataset { id } => {
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
                    let first = data.curves_of(&model.id).next();
                    if first.is_none() {
                        problems.push(Problem::new("points", "", "required: the dataset has no curve for this model; give your own points"));
                    }
                    first
                }
            };
            let Some(row) = row else { return Err(problems) };
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
            (Some(row), throughput, mix, Some(row.chip.clone()))
        }
        CurveChoice::Own { points, mix, chip } => {
            let throughput = match ThroughputCurve::new(points.clone()) {
                Ok(t) => t,
                Err(e) => return Err(vec![Problem::new("points", "", e.to_string())]),
            };
            let Some(mix) = Mix::from_parts(mix[0], mix[1], mix[2]) else {
                return Err(vec![Problem::new(
                    "curve_mix",
                    "",
                    "must have non-negative parts with a positive sum",
                )]);
            };
            let chip = chip
                .clone()
                .or_else(|| data.curves_of(&model.id).next().map(|c| c.chip.clone()));
            (None, throughput, mix, chip)
        }
    };
    let chip = match chip_id.as_deref() {
        // Own points on a chip the dataset does not hold: no tier, no power figure.
        Some(crate::codec::OTHER_CHIP) => None,
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
        None => None,
    };

    let tps_capped_from = offer
        .and_then(|o| o.speed_tps)
        .filter(|t| s.tps.is_none() && *t > throughput.fastest());
    let (tps, tps_source) = match (s.tps, offer.and_then(|o| o.speed_tps)) {
        (Some(t), _) => (t, "user".to_owned()),
        (None, Some(t)) => (
            t.min(throughput.fastest()),
            offer.map(|o| o.source.clone()).unwrap_or_default(),
        ),
        (None, None) => (
            throughput.slowest(),
            curve_row.map_or("user".to_owned(), |c| c.source.clone()),
        ),
    };

    let mut tier_in_force: Option<&PriceTier> = None;
    let mut commitment: Option<Commitment> = None;
    let (gpu_price, gpu_hour_source, owned_parts) = match &s.owned {
        Some(hw) => {
            let kw = hw.kw.or(chip.and_then(|c| c.all_in_kw));
            let Some(kw) = kw else {
                problems.push(Problem::new(
                    "kw",
                    "",
                    "required with own=1: the chip has no all-in power figure in the dataset: give its kW",
                ));
                return Err(problems);
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
            (
                GpuHourPrice::Owned(owned),
                "owned".to_owned(),
                Some(owned.parts()),
            )
        }
        None => match (s.gpu_hour, tier_of(s, chip, data, &mut problems)) {
            (Some(usd), _) => {
                commitment = Some(s.gpu_kind.unwrap_or(Commitment::OnDemand));
                (GpuHourPrice::Rented { usd }, "user".to_owned(), None)
            }
            (None, Some(t)) => {
                tier_in_force = Some(t);
                commitment = t.kind;
                (
                    GpuHourPrice::Rented {
                        usd: t.usd_per_gpu_hour,
                    },
                    t.source.clone(),
                    None,
                )
            }
            (None, None) if s.gpu_tier.is_some() => {
                (GpuHourPrice::Rented { usd: 1.0 }, "user".to_owned(), None)
            }
            (None, None) => {
                problems.push(Problem::new(
                    "gpu_hour",
                    "",
                    "required: the dataset has no GPU-hour price for this chip: give yours",
                ));
                (GpuHourPrice::Rented { usd: 1.0 }, "user".to_owned(), None)
            }
        },
    };
    if s.scaling == Scaling::Hourly && gpu_price.is_owned() {
        problems.push(Problem::new(
            "scaling",
            "hourly",
            "hourly autoscaling needs rented GPUs; owned hardware is paid every hour",
        ));
    }
    if let Some(kind) = commitment.filter(|k| s.scaling == Scaling::Hourly && !k.scales_hourly()) {
        let what = match tier_in_force {
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
        curve: throughput,
        curve_mix: mix,
        tps,
        prefill: s.prefill,
        cache_cost: s.cache_cost,
        profile,
        policy: FleetPolicy {
            replica_gpus: s
                .replica
                .or(curve_row.map(|c| c.replica_gpus))
                .unwrap_or(1.0),
            util: s.util,
            redundancy: s.redundancy,
            min_replicas: s.min_replicas,
            scaling: s.scaling,
        },
        gpu_hour: gpu_price.usd(),
        ops_monthly: s.ops_fte * s.fte_cost / 12.0 + s.ops_monthly,
        ops_per_gpu: s.ops_gpus_per_fte.map_or(0.0, |n| s.fte_cost / 12.0 / n),
        overflow_warm: s.overflow_warm,
    };
    let context = Context {
        model,
        offer,
        curve: curve_row,
        chip,
        api_source,
        tps_source,
        tps_capped_from,
        gpu_hour_source,
        owned_parts,
        tier: tier_in_force,
        commitment,
    };
    Ok((resolved, context))
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
