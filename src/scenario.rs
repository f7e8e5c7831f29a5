//! A scenario: everything a user can set, as it travels in a link.
//!
//! Dataset references (model, API offer, curve, chip) and prices the dataset supplies are
//! `Option`s: `None` means "the dataset's default", resolved when the scenario is evaluated.
//! Everything else carries its value, with the defaults below.

use serde::{Deserialize, Serialize};

use crate::curve::CurvePoint;
use crate::fleet::Scaling;
use crate::profile::{ProfilePreset, ProfileSpec};
use crate::workload::{Preset, Workload};

/// servecost's default assumptions. None is a published figure: each is shown in the UI as an
/// assumption (source `servecost-assumptions`) for the user to replace with their own.
pub mod defaults {
    /// Requests per month of the default workload: a team of about 100 developers running
    /// coding agents (50 sessions of 200 turns each per developer per month).
    pub const REQUESTS: f64 = 1e6;
    /// Prefill rate `P`: uncached input tokens/s one GPU prefills. An assumption for a large
    /// mixture-of-experts model at FP4 on a Blackwell-class GPU; it must leave decode time at every
    /// shipped curve's own mix (the SGLang 40.9 tok/s point needs more than about 23,400 at `k = 0.1`).
    pub const PREFILL: f64 = 50_000.0;
    /// Cache-hit cost ratio `k`: GPU time of a cached input token over an uncached one (attention
    /// over the cached prefix is still computed; its prefill is not).
    pub const CACHE_COST: f64 = 0.1;
    /// Utilisation a replica may reach at peak while holding the target speed.
    pub const UTIL: f64 = 0.8;
    /// Spare replicas.
    pub const REDUNDANCY: f64 = 0.0;
    /// Replicas kept even without load.
    pub const MIN_REPLICAS: f64 = 1.0;
    /// Operations staff, full-time equivalents.
    pub const OPS_FTE: f64 = 0.5;
    /// Fully loaded annual cost of one operations FTE, $.
    pub const FTE_COST: f64 = 200_000.0;
    /// Other fixed monthly costs, $.
    pub const OPS_MONTHLY: f64 = 0.0;
    /// Years over which owned hardware is paid off.
    pub const YEARS: f64 = 4.0;
    /// Cost of capital per year.
    pub const RATE: f64 = 0.08;
    /// Facility power usage effectiveness.
    pub const PUE: f64 = 1.3;
    /// Electricity, $ per kWh.
    pub const KWH: f64 = 0.10;
    /// Facility charge, $ per kW per month.
    pub const COLO: f64 = 150.0;
    /// Maintenance per year, share of capex.
    pub const MAINT: f64 = 0.05;
}

/// Which throughput curve self-hosting is priced from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CurveChoice {
    /// A dataset curve by id (`None`: the model's default, [`crate::Dataset::default_curve`]).
    Dataset {
        /// Curve id.
        id: Option<String>,
    },
    /// The user's own measured points.
    Own {
        /// Points `(tps, tokens/s per GPU)`.
        points: Vec<CurvePoint>,
        /// Mix the points were measured at, parts `input:cached:output` as given.
        mix: [f64; 3],
        /// Chip they ran on (`None`: the chip of the model's default curve).
        chip: Option<String>,
    },
}

/// Owned hardware as the user states it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OwnedInputs {
    /// Purchase price per GPU, $ (no default: it must be given).
    pub capex: f64,
    /// Years paid off over.
    pub years: f64,
    /// Cost of capital per year.
    pub rate: f64,
    /// All-in kW per GPU (`None`: the chip's figure in the dataset).
    pub kw: Option<f64>,
    /// Power usage effectiveness.
    pub pue: f64,
    /// $ per kWh.
    pub kwh: f64,
    /// Facility, $ per kW per month.
    pub colo: f64,
    /// Maintenance per year, share of capex.
    pub maint: f64,
}

impl OwnedInputs {
    /// Owned hardware at `capex` per GPU with every other input at its default.
    pub fn with_capex(capex: f64) -> Self {
        Self {
            capex,
            years: defaults::YEARS,
            rate: defaults::RATE,
            kw: None,
            pue: defaults::PUE,
            kwh: defaults::KWH,
            colo: defaults::COLO,
            maint: defaults::MAINT,
        }
    }
}

/// Everything a user can set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Scenario {
    /// Model id (`None`: the dataset's first model).
    pub model: Option<String>,
    /// The workload.
    pub workload: Workload,
    /// Output tokens/s per user to sustain (`None`: the API offer's measured speed).
    pub tps: Option<f64>,
    /// Weekly load profile.
    pub profile: ProfileSpec,
    /// API offer id (`None`: the model's default, [`crate::Dataset::default_offer`]).
    pub api: Option<String>,
    /// Own input price, $/M (`None`: the offer's).
    pub price_in: Option<f64>,
    /// Own output price, $/M.
    pub price_out: Option<f64>,
    /// Own cache discount, 0 to 1.
    pub cache_discount: Option<f64>,
    /// Own router markup.
    pub markup: Option<f64>,
    /// Own discount on batch tokens at the API, 0 to 1 (`None`: the offer's, if it states one).
    #[serde(default)]
    pub batch_discount: Option<f64>,
    /// Share of every class's tokens sent as batch traffic, 0 to 1 ([`crate::batch`]).
    #[serde(default)]
    pub batch: f64,
    /// The curve.
    pub curve: CurveChoice,
    /// GPUs per replica (`None`: the curve's).
    pub replica: Option<f64>,
    /// Rented $ per GPU-hour (`None`: the chip's default tier).
    pub gpu_hour: Option<f64>,
    /// Prefill rate `P`, uncached input tokens/s per GPU (`None`: the curve's, where its
    /// revision gives one, else [`defaults::PREFILL`]).
    pub prefill: Option<f64>,
    /// Cache-hit cost ratio `k`.
    pub cache_cost: f64,
    /// Target utilisation at peak.
    pub util: f64,
    /// Spare replicas.
    pub redundancy: f64,
    /// Replicas kept even without load.
    pub min_replicas: f64,
    /// Fixed or hourly.
    pub scaling: Scaling,
    /// Search the cheapest split between own replicas and API overflow.
    pub hybrid: bool,
    /// Operations FTEs.
    pub ops_fte: f64,
    /// Loaded annual cost per FTE, $.
    pub fte_cost: f64,
    /// Other fixed monthly costs, $.
    pub ops_monthly: f64,
    /// Owned hardware instead of rented GPU-hours.
    pub owned: Option<OwnedInputs>,
    /// A published tokens/s-per-MW headline to decode.
    pub headline: Option<f64>,
    /// What last month's API bill came to, $, to reconcile with the list-price estimate.
    pub bill: Option<f64>,
    /// With a dataset curve: the `input:cached:output` mix it was measured at, replacing the
    /// dataset's reading (`None`: the dataset's, stated by its publisher or assumed).
    pub curve_mix: Option<[f64; 3]>,
    /// The name of a chip that is not in the dataset (own points with `chip=other`).
    pub chip_name: Option<String>,
    /// Operations staff that grow with the fleet: one more FTE per this many GPUs, on top of
    /// `ops_fte` (`None`: staff do not grow with the fleet).
    pub ops_gpus_per_fte: Option<f64>,
    /// Share of the hybrid overflow's cached input that the API still serves from its cache
    /// (0: overflow sessions arrive cold, priced as uncached input).
    pub overflow_warm: f64,
    /// A dataset price tier of the chip (`None`: the chip's default tier).
    pub gpu_tier: Option<String>,
    /// What the user's own `gpu_hour` commits to (`None`: on demand).
    pub gpu_kind: Option<crate::gpu_price::Commitment>,
    /// The widths of the ranges the answer's sureness is drawn over.
    pub uncertainty: crate::decision::UncertaintySpec,
    /// The years ahead: horizon, growth, price trends and the discount rate.
    pub plan: crate::projection::ProjectionSpec,
}

impl Default for Scenario {
    fn default() -> Self {
        Self {
            model: None,
            workload: Workload::preset(Preset::CodingAgent, defaults::REQUESTS),
            tps: None,
            profile: ProfileSpec::Preset(ProfilePreset::Business),
            api: None,
            price_in: None,
            price_out: None,
            cache_discount: None,
            markup: None,
            batch_discount: None,
            batch: 0.0,
            curve: CurveChoice::Dataset { id: None },
            replica: None,
            gpu_hour: None,
            prefill: None,
            cache_cost: defaults::CACHE_COST,
            util: defaults::UTIL,
            redundancy: defaults::REDUNDANCY,
            min_replicas: defaults::MIN_REPLICAS,
            scaling: Scaling::Fixed,
            hybrid: true,
            ops_fte: defaults::OPS_FTE,
            fte_cost: defaults::FTE_COST,
            ops_monthly: defaults::OPS_MONTHLY,
            owned: None,
            headline: None,
            bill: None,
            chip_name: None,
            curve_mix: None,
            gpu_tier: None,
            gpu_kind: None,
            ops_gpus_per_fte: None,
            overflow_warm: 0.0,
            uncertainty: crate::decision::UncertaintySpec::default(),
            plan: crate::projection::ProjectionSpec::default(),
        }
    }
}
