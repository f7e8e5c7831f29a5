//! The report of one evaluation, with the stable field names the JSON API exposes.

use serde::{Deserialize, Serialize};

use crate::break_even::BreakEven;
use crate::costing::Breakdown;
use crate::decision::{Flips, Strategy, Uncertainty};
use crate::gpu_price::OwnedHourParts;
use crate::gpu_time::GpuTime;
use crate::power::{HeadlineDecode, OperatingPoint};
use crate::sensitivity::Sensitivity;
use crate::series::{CostVsVolume, CurveSeries};
use crate::units::{PerMtok, Volumes};

/// Everything evaluated for one scenario.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Report {
    /// The scenario's canonical query string (defaults left out).
    pub query: String,
    /// Dataset revision the figures come from.
    pub dataset_revision: i64,
    /// The inputs as resolved against the dataset.
    pub inputs: Inputs,
    /// Renting.
    pub rent: RentReport,
    /// Self-hosting everything.
    pub self_host: SelfHostReport,
    /// The cheapest split between own replicas and the API (`None` when hybrid is off).
    pub hybrid: Option<HybridReport>,
    /// Which side wins, and the cheapest plan.
    pub verdict: Verdict,
    /// How sure the cheapest plan is, over documented ranges of the uncertain inputs (`None`
    /// with `draws=0`, or when no draw has an answer).
    pub uncertainty: Option<Uncertainty>,
    /// The values of the main inputs at which the cheapest plan changes.
    pub flips: Flips,
    /// Where each plan is cheapest along the inputs whose answer alternates (the monthly
    /// volume), exact at the replica steps; empty but in a full report.
    pub bands: crate::decision::Bands,
    /// Codes of the warnings that move the answer most, largest first (at most three): the
    /// caveats to read with the verdict.
    pub top_warnings: Vec<WarningCode>,
    /// Where the two cost the same.
    pub break_even: BreakEven,
    /// Each main input moved over its range, largest effect first.
    pub sensitivity: Vec<Sensitivity>,
    /// The chosen point in per-MW units and a decoded headline.
    pub power: PowerReport,
    /// What to keep in mind, each with its source.
    pub warnings: Vec<Warning>,
    /// Chart series.
    pub series: Series,
    /// The cost over the years: month by month, present values, payback.
    pub plan: crate::projection::Projection,
    /// What the batch traffic does to the bills (`None` without batch traffic).
    #[serde(default)]
    pub batch: Option<crate::batch::BatchReport>,
    /// A speed target the chosen curve does not reach: which of the model's curves do, and
    /// what self-hosting is priced on (`None` when the chosen curve reaches the target).
    #[serde(default)]
    pub speed: Option<SpeedReach>,
}

/// A speed target faster than the chosen curve's fastest measured point. Renting and the
/// verdict stay: self-hosting is priced on the cheapest of the model's curves that reach the
/// target where the curve was the model's default, else on the chosen curve at its fastest
/// point, as a floor (a faster speed per user serves fewer tokens a GPU, so at the target
/// self-hosting costs at least that).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SpeedReach {
    /// The speed target, tokens/s per user.
    pub target: f64,
    /// The chosen curve (`own` for your own points).
    pub chosen: String,
    /// The chosen curve's label.
    pub chosen_label: String,
    /// The chosen curve's fastest measured speed, tokens/s per user.
    pub chosen_fastest: f64,
    /// The curve self-hosting is priced on.
    pub priced_on: String,
    /// The speed self-hosting is priced at, tokens/s per user: the target, or the chosen
    /// curve's fastest point for a floor.
    pub priced_at: f64,
    /// True when the self-hosted figures are a floor, priced slower than the target.
    pub floor: bool,
    /// The model's dataset curves that reach the target, cheapest self-hosting first.
    pub reaching: Vec<ReachingCurve>,
}

/// One of the model's curves that reaches the speed target, with what self-hosting the
/// workload on it costs: at your GPU-hour inputs on the chosen curve's chip, else at the
/// chip's default price.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ReachingCurve {
    /// Curve id.
    pub curve: String,
    /// Curve label.
    pub label: String,
    /// Its fastest measured speed, tokens/s per user.
    pub fastest: f64,
    /// Self-hosting's bill on it, $ per month.
    pub monthly_usd: f64,
    /// The calculator link (query string) that prices the workload on it.
    pub query: String,
}

/// Inputs as resolved: ids, names, and the numbers the dataset supplied.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Inputs {
    /// Model id.
    pub model: String,
    /// Model name.
    pub model_name: String,
    /// API offer id (`None` with own prices and no offer).
    pub api: Option<String>,
    /// Where the API prices come from: a source key, or `user`.
    pub api_source: String,
    /// The API offer's measured output speed per user, tokens/s (`None`: its source states
    /// none, or your own prices).
    #[serde(default)]
    pub api_tps: Option<f64>,
    /// $ per million input tokens.
    pub price_in: f64,
    /// $ per million output tokens.
    pub price_out: f64,
    /// Cache discount.
    pub cache_discount: f64,
    /// Router markup.
    pub markup: f64,
    /// The API's discount on batch tokens (0 when neither the offer nor the link states one).
    #[serde(default)]
    pub batch_discount: f64,
    /// Curve id (`own` for the user's points).
    pub curve: String,
    /// Curve label.
    pub curve_label: String,
    /// Curve source key (`user` for the user's points).
    pub curve_source: String,
    /// Chip id, when known.
    pub chip: Option<String>,
    /// Chip name, when known.
    pub chip_name: Option<String>,
    /// GPUs per replica.
    pub replica_gpus: f64,
    /// Target output tokens/s per user.
    pub tps: f64,
    /// Where the target comes from: `user`, or the API offer's measured speed (its source key).
    pub tps_source: String,
    /// Monthly volumes.
    pub volumes: Volumes,
    /// All tokens per month.
    pub total_tokens: f64,
    /// $ per GPU-hour.
    pub gpu_hour_usd: f64,
    /// Where the GPU-hour price comes from: a source key, `user`, or `owned`.
    pub gpu_hour_source: String,
    /// The owned GPU-hour's parts, for owned hardware.
    pub owned_parts: Option<OwnedHourParts>,
    /// The dataset price tier in force (`None`: your own price, or owned hardware).
    pub gpu_tier: Option<String>,
    /// What the GPU-hour price commits to (`None`: owned hardware, or a tier whose source does
    /// not say).
    pub gpu_kind: Option<crate::gpu_price::Commitment>,
    /// The GPU-hour price as labels show it, its commitment named: `3-year rental, 25 %
    /// upfront (July 2026): reserved, 36 months`, `Owned: capital, power, facility and
    /// maintenance`.
    pub gpu_hour_label: String,
    /// Prefill rate `P`.
    pub prefill: f64,
    /// Where `P` comes from: `user`, the curve's source key (the curve's own `P`), or
    /// `servecost-assumptions`.
    #[serde(default = "assumed")]
    pub prefill_source: String,
    /// Cache-hit cost ratio `k`.
    pub cache_cost: f64,
    /// Operations, $ per month.
    pub ops_monthly_usd: f64,
    /// Peak-to-average ratio of the load profile.
    pub profile_peak: f64,
    /// The 168 hourly weights (mean 1).
    pub profile_weights: Vec<f64>,
}

/// Renting.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RentReport {
    /// $ per month.
    pub monthly_usd: f64,
    /// $ per million tokens by class and blended.
    pub per_mtok: PerMtok,
    /// The estimate against what was paid (`None` without `bill`).
    pub bill: Option<BillCheck>,
}

/// Last month's API bill against the list-price estimate for the same volumes.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct BillCheck {
    /// What was paid, $ per month.
    pub paid_usd: f64,
    /// The estimate at the prices in force, $ per month.
    pub estimate_usd: f64,
    /// Paid minus estimate, $ per month (negative: paid less than list).
    pub difference_usd: f64,
    /// The effective discount on the prices in force, `1 - paid / estimate` (negative: paid
    /// more than the estimate).
    pub discount: f64,
    /// Input price that reproduces the bill, $/M (`price_in * paid / estimate`).
    pub price_in: f64,
    /// Output price that reproduces the bill, $/M.
    pub price_out: f64,
}

/// Self-hosting everything.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SelfHostReport {
    /// $ per month.
    pub monthly_usd: f64,
    /// GPUs at the busiest hour.
    pub gpus: f64,
    /// Replicas at the busiest hour (redundancy included).
    pub replicas: f64,
    /// Busy GPU-hours over provisioned GPU-hours.
    pub utilization: f64,
    /// The bill line by line; idle compute is its own line.
    pub breakdown: Breakdown,
    /// Marginal $ per million tokens at full use, by class.
    pub per_mtok: PerMtok,
    /// The whole bill allocated to classes by their share of GPU time.
    pub effective_per_mtok: PerMtok,
    /// Total tokens/s per GPU the curve gives at the target, at the curve's mix.
    pub curve_tokens_per_s_per_gpu: f64,
    /// True when the target is below the slowest measured point.
    pub clamped: bool,
    /// GPU-seconds per token by class.
    pub gpu_seconds_per_token: GpuTime,
    /// Busy GPU-hours per month.
    pub busy_gpu_hours: f64,
    /// Provisioned GPU-hours per month.
    pub provisioned_gpu_hours: f64,
}

/// The cheapest hybrid plan.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct HybridReport {
    /// $ per month.
    pub monthly_usd: f64,
    /// Own replicas (redundancy included); 0 means renting everything.
    pub replicas: f64,
    /// GPUs.
    pub gpus: f64,
    /// Share of demand sent to the API.
    pub api_share: f64,
    /// The bill.
    pub breakdown: Breakdown,
    /// The whole bill by class: the own fleet's part allocated by GPU time as for
    /// self-hosting, plus the overflow's tokens at the API's prices (its cached input at the
    /// overflow's warm share). Volumes times these rates give `monthly_usd`.
    pub effective_per_mtok: PerMtok,
}

/// Which side of the question wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// Renting per token.
    Rent,
    /// Self-hosting.
    SelfHost,
}

/// The verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Verdict {
    /// The cheaper side (renting on a tie).
    pub winner: Side,
    /// Dearer over cheaper (`None` when the cheaper costs nothing).
    pub ratio: Option<f64>,
    /// Monthly difference, $.
    pub difference_usd: f64,
    /// How much the best hybrid saves over the cheaper side, $ per month.
    pub hybrid_saves_usd: f64,
    /// The cheapest plan of the three: renting, self-hosting alone, or the best hybrid (named
    /// only when it is cheaper than both, with some replicas and some demand at the API).
    pub best: Strategy,
    /// What the cheapest plan costs, $ per month.
    pub best_monthly_usd: f64,
    /// The other plans that cost the same as the named one within the tie threshold, cheapest
    /// first: the verdict names them together. A hybrid whose cheapest cap is the full fleet
    /// or none ties at its cheapest proper cap (some replicas, some demand at the API).
    pub ties: Vec<Tie>,
    /// How much less the named plan costs than the next cheapest, $ per month (`None` when no
    /// other plan is costed).
    pub margin_usd: Option<f64>,
    /// The tie threshold: plans within this share of the cheapest's monthly bill cost the same.
    pub tie: f64,
    /// False when self-hosting is priced as a floor ([`SpeedReach::floor`]) and a plan with own
    /// replicas is cheapest: no measurement says which plan is cheaper at the speed target, and
    /// `winner` and `best` only order the figures. Renting cheaper than the floors decides.
    #[serde(default = "decided")]
    pub decided: bool,
}

fn decided() -> bool {
    true
}

/// A plan that costs the same as the named one within the tie threshold.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Tie {
    /// The plan.
    pub plan: Strategy,
    /// Its monthly bill, $.
    pub monthly_usd: f64,
}

/// The power view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PowerReport {
    /// The chosen point per MW (`None` when the chip has no power figure).
    pub operating_point: Option<OperatingPoint>,
    /// The headline the scenario asks to decode, or the chip's published headline.
    pub headline: Option<HeadlineDecode>,
    /// Source key of the decoded headline (`user` when typed in).
    pub headline_source: Option<String>,
}

/// What a warning is about: a stable code, written in snake case in JSON and CSV.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum WarningCode {
    /// The speed target lies below the curve's slowest measured point.
    TargetBelowCurve,
    /// The API's measured speed lies above the curve's fastest point: capped there.
    TargetCapped,
    /// The API offer publishes no output speed: the target is the curve's slowest point.
    TargetNotPublished,
    /// The target is faster than the chosen curve's fastest point: self-hosting is priced on
    /// a curve that reaches it, or as a floor.
    TargetAboveCurve,
    /// The API offer's measured speed is below the target: renting from it is slower.
    OfferBelowTarget,
    /// Batch traffic priced at an interactive speed.
    BatchAtInteractiveSpeed,
    /// A vendor measuring its own product.
    VendorCurve,
    /// The curve is a development run (data tier experimental), not a published result.
    ExperimentalCurve,
    /// A published figure is a floor, not a ceiling: the configuration may have more headroom.
    FigureIsFloor,
    /// The curve's publication does not state its token mix: one is assumed.
    AssumedMix,
    /// The workload's mix is far from the curve's.
    MixFarFromCurve,
    /// The model's weights do not fit the replica's memory (reports before such a replica was
    /// refused; now an error).
    WeightsDoNotFit,
    /// The weights fit the replica but leave less than the KV reserve of its memory.
    LittleKvCache,
    /// The model's licence asks large companies for an agreement to offer it as a service.
    LicenceThreshold,
    /// Your own measured curve.
    OwnCurve,
    /// A reserved price bills the fixed fleet every hour of its term.
    ReservedTerm,
    /// An owner's cost is a floor, not an offer.
    OwnerCostPrice,
    /// A spot price: the GPUs can be taken back, which a fleet held all month cannot rely on.
    SpotPrice,
    /// A price tier that does not state its commitment.
    CommitmentNotStated,
    /// The API offer publishes no cache discount: cached input is priced at the full price.
    CacheDiscountUnknown,
    /// Batch traffic at an offer that states no batch price: priced as the other tokens.
    BatchPriceUnknown,
    /// What the API offer hosts, as its source notes it (another checkpoint than the weights).
    HostedCheckpoint,
    /// What a chip's power figure measures.
    PowerFigure,
    /// Independent curves of the model on chips of one family disagree.
    CurvesDisagree,
    /// A price older than the age after which servecost calls a price old.
    PriceStale,
}

impl WarningCode {
    /// Every code, in the order the crate's README lists them.
    pub const ALL: [WarningCode; 25] = [
        Self::TargetBelowCurve,
        Self::TargetCapped,
        Self::TargetNotPublished,
        Self::TargetAboveCurve,
        Self::OfferBelowTarget,
        Self::BatchAtInteractiveSpeed,
        Self::VendorCurve,
        Self::ExperimentalCurve,
        Self::FigureIsFloor,
        Self::AssumedMix,
        Self::MixFarFromCurve,
        Self::WeightsDoNotFit,
        Self::LittleKvCache,
        Self::LicenceThreshold,
        Self::OwnCurve,
        Self::ReservedTerm,
        Self::OwnerCostPrice,
        Self::SpotPrice,
        Self::CommitmentNotStated,
        Self::CacheDiscountUnknown,
        Self::BatchPriceUnknown,
        Self::HostedCheckpoint,
        Self::PowerFigure,
        Self::CurvesDisagree,
        Self::PriceStale,
    ];

    /// The code as JSON and CSV write it: `vendor_curve`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::TargetBelowCurve => "target_below_curve",
            Self::TargetCapped => "target_capped",
            Self::TargetNotPublished => "target_not_published",
            Self::TargetAboveCurve => "target_above_curve",
            Self::OfferBelowTarget => "offer_below_target",
            Self::BatchAtInteractiveSpeed => "batch_at_interactive_speed",
            Self::VendorCurve => "vendor_curve",
            Self::ExperimentalCurve => "experimental_curve",
            Self::FigureIsFloor => "figure_is_floor",
            Self::AssumedMix => "assumed_mix",
            Self::MixFarFromCurve => "mix_far_from_curve",
            Self::WeightsDoNotFit => "weights_do_not_fit",
            Self::LittleKvCache => "little_kv_cache",
            Self::LicenceThreshold => "licence_threshold",
            Self::OwnCurve => "own_curve",
            Self::ReservedTerm => "reserved_term",
            Self::OwnerCostPrice => "owner_cost_price",
            Self::SpotPrice => "spot_price",
            Self::CommitmentNotStated => "commitment_not_stated",
            Self::CacheDiscountUnknown => "cache_discount_unknown",
            Self::BatchPriceUnknown => "batch_price_unknown",
            Self::HostedCheckpoint => "hosted_checkpoint",
            Self::PowerFigure => "power_figure",
            Self::CurvesDisagree => "curves_disagree",
            Self::PriceStale => "price_stale",
        }
    }
}

impl std::fmt::Display for WarningCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A code reads against its text, as a script holding the JSON would compare it.
impl PartialEq<str> for WarningCode {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for WarningCode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// Something to keep in mind, with a stable code and its source.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Warning {
    /// What it is about.
    pub code: WarningCode,
    /// What it means for this result.
    pub message: String,
    /// Source key it rests on.
    pub source: Option<String>,
    /// How far the range behind it moves (self-hosting minus renting), $ per month, when the
    /// same machinery as the sureness figures measures it (`None`: not measured).
    pub effect_usd: Option<f64>,
}

/// A bar of the breakdown chart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Bar {
    /// Stable key.
    pub key: String,
    /// Label.
    pub label: String,
    /// $ per month.
    pub usd: f64,
}

impl Bar {
    /// The lines of a bill as bars: busy compute, idle compute, operations, API overflow.
    pub fn lines(b: &Breakdown) -> Vec<Bar> {
        [
            ("busy_compute", "Busy compute", b.busy_compute),
            ("idle_compute", "Idle compute", b.idle_compute),
            ("ops", "Operations", b.ops),
            ("overflow_api", "API overflow", b.overflow_api),
        ]
        .into_iter()
        .map(|(key, label, usd)| Bar {
            key: key.into(),
            label: label.into(),
            usd,
        })
        .collect()
    }
}

/// One class on the per-class chart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ClassBars {
    /// `input`, `cached`, `output` or `blended`.
    pub class: String,
    /// Label.
    pub label: String,
    /// Renting, $/M.
    pub rent: f64,
    /// Self-hosting at full use, $/M.
    pub self_marginal: f64,
    /// Self-hosting with the whole bill, $/M.
    pub self_effective: f64,
}

/// Every chart's data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Series {
    /// Monthly cost vs monthly volume.
    pub cost_vs_volume: CostVsVolume,
    /// $/M vs interactivity for each curve of the model.
    pub cost_vs_tps: Vec<CurveSeries>,
    /// The self-hosting bill.
    pub breakdown: Vec<Bar>,
    /// Per-class $/M side by side.
    pub per_class: Vec<ClassBars>,
}

/// The source of a figure servecost assumes, where a stored report names none.
fn assumed() -> String {
    crate::dataset::ASSUMPTIONS_SOURCE.to_owned()
}

#[cfg(test)]
mod tests {
    use super::WarningCode;

    #[test]
    fn every_warning_code_is_documented_and_written_as_its_text() {
        let readme = include_str!("README.md");
        for code in WarningCode::ALL {
            assert!(
                readme.contains(&format!("`{code}`")),
                "{code} is not in src/README.md"
            );
            assert_eq!(
                serde_json::to_string(&code).expect("json"),
                format!("\"{}\"", code.as_str())
            );
        }
    }
}
