//! The dataset the engine prices from: sources, models, chips, price tiers, API offers, curves and
//! published headlines. The engine does no I/O: the server loads these from the database and the
//! browser receives them with the page.

use serde::{Deserialize, Serialize};

use crate::curve::CurvePoint;
use crate::units::Mix;

mod parts;

/// How far a source can be trusted about what it measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Trust {
    /// An independent benchmark or listing.
    Independent,
    /// A party selling the thing measured.
    Vendor,
    /// The licensor of the model.
    Licensor,
    /// servecost's own default assumption: no publication behind it; replace it with yours.
    Assumption,
}

/// Where figures come from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Source {
    /// Stable key, e.g. `aa-agentperf`.
    pub key: String,
    /// Who published it.
    pub publisher: String,
    /// What was published.
    pub title: String,
    /// Address, when there is one.
    pub url: Option<String>,
    /// Publication date as published (`2026-10-23`, `2026-10`).
    pub date: String,
    /// Independent, vendor, licensor or assumption.
    pub trust: Trust,
    /// What to keep in mind when using it.
    pub caveat: Option<String>,
}

/// Share of a replica's memory kept for the KV cache and activations: servecost's assumption
/// when it sizes a replica itself (serving engines give the KV cache what the weights leave;
/// vLLM takes 90 % of memory in all by default), and the least a replica should leave before a
/// warning says so.
pub const KV_RESERVE: f64 = 0.3;

/// A size of the model's weights at one precision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WeightsSize {
    /// Precision, e.g. `fp4`, `bf16`.
    pub precision: String,
    /// Size in GB.
    pub gigabytes: f64,
    /// Source key.
    pub source: String,
}

impl Model {
    /// The weights a replica at `precision` holds: that precision's, or the smallest recorded
    /// where the precision is not known (`None`) or has no size of its own.
    pub fn weights_at(&self, precision: Option<&str>) -> Option<&WeightsSize> {
        let smallest = || {
            self.weights
                .iter()
                .min_by(|a, b| a.gigabytes.total_cmp(&b.gigabytes))
        };
        precision
            .and_then(|p| {
                self.weights
                    .iter()
                    .find(|w| w.precision.eq_ignore_ascii_case(p))
            })
            .or_else(smallest)
    }
}

/// An open-weight model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Model {
    /// Stable id used in links.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Weight sizes by precision.
    pub weights: Vec<WeightsSize>,
    /// Licence terms in a sentence.
    pub licence: String,
    /// Annual gross revenue above which serving it needs an agreement, $.
    pub licence_revenue_threshold_usd: Option<f64>,
    /// Source key of the licence.
    pub licence_source: String,
}

/// An accelerator: as the engine reads it, as the database stores it and as an import file
/// gives it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "sqlx", derive(sqlx::FromRow))]
#[serde(deny_unknown_fields)]
pub struct Chip {
    /// Stable id used in links, e.g. `b300`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// High-bandwidth memory per GPU, GB.
    pub memory_gb: f64,
    /// Source key of the memory figure.
    pub memory_source: String,
    /// Accelerator power per GPU (GPU, die and HBM, as AgentPerf measures), kW.
    pub accelerator_kw: Option<f64>,
    /// Source key of the accelerator power.
    pub accelerator_kw_source: Option<String>,
    /// All-in power per GPU (host and network share included), kW.
    pub all_in_kw: Option<f64>,
    /// Source key of the all-in power.
    pub all_in_kw_source: Option<String>,
    /// What `accelerator_kw` measures: `accelerator` (GPU, die and HBM, as AgentPerf measures)
    /// or `board` (a data sheet's total board power); `None`: not stated.
    #[serde(default)]
    pub accelerator_kw_measure: Option<String>,
    /// What to keep in mind about the power figures.
    #[serde(default)]
    pub power_caveat: Option<String>,
    /// The chip's family (`blackwell-ultra`): curves of one model on chips of one family are
    /// compared for the spread between independent measurements (`None`: compared with none).
    #[serde(default)]
    pub family: Option<String>,
    /// Dense (not sparse) tensor throughput per GPU at FP4, TFLOPS (none: not recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dense_tflops_fp4: Option<f64>,
    /// Dense tensor throughput per GPU at FP8, TFLOPS.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dense_tflops_fp8: Option<f64>,
    /// Dense tensor throughput per GPU at BF16, TFLOPS.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dense_tflops_bf16: Option<f64>,
    /// Memory bandwidth per GPU, TB/s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_tb_s: Option<f64>,
    /// Source key of the compute and bandwidth figures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compute_source: Option<String>,
}

/// A published price per GPU-hour.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PriceTier {
    /// Chip id.
    pub chip: String,
    /// Tier key, e.g. `costh` (hyperscaler-owned) or `costr` (3-year rental).
    pub tier: String,
    /// Human label.
    pub label: String,
    /// $ per GPU-hour.
    pub usd_per_gpu_hour: f64,
    /// Source key.
    pub source: String,
    /// The tier used when the user names no price.
    pub is_default: bool,
    /// What the price commits its buyer to (`None`: not stated, as in revision 1).
    #[serde(default)]
    pub kind: Option<crate::gpu_price::Commitment>,
    /// Term of a reserved price, months.
    #[serde(default)]
    pub term_months: Option<f64>,
    /// Share of a reserved term paid upfront, 0 to 1.
    #[serde(default)]
    pub upfront_share: Option<f64>,
    /// Who rents it out (none: not stated).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
}

/// A per-token offer for the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ApiOffer {
    /// Stable id used in links.
    pub id: String,
    /// Model id.
    pub model: String,
    /// Display name.
    pub name: String,
    /// $ per million input tokens.
    pub price_in: f64,
    /// $ per million output tokens.
    pub price_out: f64,
    /// Discount for cached input, 0 to 1.
    pub cache_discount: f64,
    /// Markup on the provider's price, 0 = none.
    pub markup: f64,
    /// Measured output speed, tokens/s per user.
    pub speed_tps: Option<f64>,
    /// Source key.
    pub source: String,
    /// What to keep in mind.
    pub note: Option<String>,
    /// False when the offer's publisher states no cache discount (it is then priced at 0).
    #[serde(default = "stated")]
    pub cache_discount_stated: bool,
    /// Discount on every class for batch traffic, 0 to 1, from the offer's source (`None`: it
    /// states no batch price).
    #[serde(default)]
    pub batch_discount: Option<f64>,
    /// Who sells it, one spelling per provider across price tables (none: not stated).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
}

impl ApiOffer {
    /// The offer's prices, for a workload that sends `batch` of its tokens as batch traffic.
    pub fn pricing(&self, batch: f64) -> crate::rent::ApiPricing {
        crate::rent::ApiPricing {
            price_in: self.price_in,
            price_out: self.price_out,
            cache_discount: self.cache_discount,
            markup: self.markup,
            batch_saving: batch * self.batch_discount.unwrap_or(0.0),
        }
    }
}

fn stated() -> bool {
    true
}

/// A measured throughput curve for a deployable replica.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Curve {
    /// Stable id used in links.
    pub id: String,
    /// Model id.
    pub model: String,
    /// Chip id.
    pub chip: String,
    /// Precision, e.g. `fp4`.
    pub precision: String,
    /// Serving framework.
    pub framework: String,
    /// GPUs per deployable replica.
    pub replica_gpus: f64,
    /// Mix of tokens the points were measured at.
    pub mix: Mix,
    /// True when the publication states the mix; false when it is assumed.
    pub mix_stated: bool,
    /// Measured points.
    pub points: Vec<CurvePoint>,
    /// Source key.
    pub source: String,
    /// What to keep in mind.
    pub note: Option<String>,
    /// How far the measurement can be trusted (none: not stated).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tier: Option<DataTier>,
    /// What tells it apart from the model's other curves on its chip (an MLPerf submitter and
    /// system, a run's input length); none: nothing more to say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<String>,
    /// The prefill rate `P` (uncached input tokens/s per GPU) the curve holds, from the revision
    /// that brought it (its note says how it was worked out); a scenario that gives no
    /// `prefill` prices the curve with it. None: servecost's general assumption.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefill: Option<f64>,
    /// Where the replica's size comes from, in a sentence (a submitter's configuration, a run's
    /// name, servecost's sizing rule); none: the measured system as a whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replica_basis: Option<String>,
    /// Tokens/s per GPU at the curve's mix without a latency bound (MLPerf's Offline scenario):
    /// the rate batch traffic, which waits, is served at; none: not measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch_tokens_per_s_per_gpu: Option<f64>,
    /// Where the sources bound the curve's input rather than state it (MLPerf publishes each
    /// benchmark's longest prompt, not its mean): the least and greatest uncached-input share
    /// of its mix they allow, output the rest. `mix` is then servecost's assumption inside them,
    /// and the judgement draws the mix across them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_share_bounds: Option<[f64; 2]>,
    /// The model's default curve (where no curve of the model is, its first is).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub is_default: bool,
    /// Where each point comes from in its source (a file and line, a run's file), in the order
    /// of `points`; empty where the source names no row per point. Pages leave them out: /data
    /// and the dataset API show them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub point_sources: Vec<String>,
}

/// How far a curve's measurement can be trusted, named wherever the curve is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum DataTier {
    /// An MLPerf result, reviewed by the other submitters before publication.
    Audited,
    /// A framework or chip maker measuring its own stack.
    Vendor,
    /// Development runs: the curve's note says what makes them so.
    Experimental,
}

impl DataTier {
    /// Every tier, with the key the database and import files use.
    pub const ALL: [(DataTier, &'static str); 3] = [
        (DataTier::Audited, "audited"),
        (DataTier::Vendor, "vendor"),
        (DataTier::Experimental, "experimental"),
    ];

    /// The tier a key names.
    pub fn from_key(key: &str) -> Option<Self> {
        Self::ALL.iter().find(|(_, k)| *k == key).map(|(t, _)| *t)
    }

    /// Its key, which is also the word the page shows.
    pub fn key(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(t, _)| *t == self)
            .map_or("", |(_, k)| k)
    }
}

/// A published throughput-per-power headline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Headline {
    /// Stable id.
    pub id: String,
    /// Chip id it was measured on.
    pub chip: String,
    /// What it says.
    pub label: String,
    /// Total tokens/s per MW of accelerator power.
    pub tokens_per_s_per_mw: Option<f64>,
    /// Concurrent agents per MW.
    pub agents_per_mw: Option<f64>,
    /// True when the figure is a floor (a configuration that may have more headroom).
    pub is_floor: bool,
    /// Source key.
    pub source: String,
}

/// Everything the engine prices from.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Dataset {
    /// Dataset revision the rows come from.
    pub revision: i64,
    /// Sources.
    pub sources: Vec<Source>,
    /// Models.
    pub models: Vec<Model>,
    /// Chips.
    pub chips: Vec<Chip>,
    /// GPU-hour price tiers.
    pub price_tiers: Vec<PriceTier>,
    /// API offers.
    pub api_offers: Vec<ApiOffer>,
    /// Curves.
    pub curves: Vec<Curve>,
    /// Power headlines.
    pub headlines: Vec<Headline>,
    /// The day the dataset is viewed on (`YYYY-MM-DD`, UTC), which the age of each price is
    /// judged against; set by the server that serves it, absent in a dataset as stored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub as_of: Option<String>,
    /// API offers of the page's model left out of this part of the dataset
    /// ([`Dataset::for_page`]); 0 in a whole dataset.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub offers_left_out: u32,
    /// GPU-hour price tiers left out of this part of the dataset ([`Dataset::for_page`]), by
    /// chip id; empty in a whole dataset.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub tiers_left_out: std::collections::BTreeMap<String, u32>,
    /// What the whole dataset holds of each model, when this is a part of it that carries one
    /// model's curves and offers ([`Dataset::for_model`]); empty for a whole dataset.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reach: Vec<Reach>,
    /// The default offer of a model whose offers a page trimmed ([`Dataset::for_page`]), as the
    /// whole dataset names it: the median of the offers kept is not the median of all.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub offer_defaults: std::collections::BTreeMap<String, String>,
}

/// What the dataset holds of one model: the chips it was measured on, its API offers and the
/// providers selling them, so that a choice of model can say what each brings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Reach {
    /// Model id.
    pub model: String,
    /// Chip ids of its curves, in the dataset's order.
    pub chips: Vec<String>,
    /// Its throughput curves.
    pub curves: u32,
    /// Its API offers.
    pub offers: u32,
    /// The providers of those offers (an offer that names none counts as its own).
    pub providers: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The source of servecost's own assumptions (the defaults a source does not give), which the
/// engine cites by name.
pub const ASSUMPTIONS_SOURCE: &str = "servecost-assumptions";

/// Most API offers of one model a page carries (and the ranking ranks): the offers a scenario
/// reads and the cheapest others. The rest are found on `/data`, which searches and pages them.
pub const PAGE_OFFERS: usize = 24;
/// Most GPU-hour price tiers of one chip a page carries (and the ranking ranks): the default,
/// the link's, the cheapest of each commitment kind, then the cheapest others.
pub const PAGE_TIERS: usize = 12;

impl Dataset {
    /// The API offers of `model`, cheapest first at list price for `volumes` of which `batch`
    /// is batch traffic (each class at its own price, the markup on top, batch at the offer's
    /// batch price); on equal cost, in dataset order.
    pub fn offers_by_cost<'a>(
        &'a self,
        model: &str,
        volumes: &crate::units::Volumes,
        batch: f64,
    ) -> Vec<&'a ApiOffer> {
        let cost = |o: &ApiOffer| o.pricing(batch).cost(volumes).monthly_usd;
        let mut offers: Vec<(f64, &ApiOffer)> = self
            .api_offers
            .iter()
            .filter(|o| o.model == model)
            .map(|o| (cost(o), o))
            .collect();
        offers.sort_by(|a, b| a.0.total_cmp(&b.0));
        offers.into_iter().map(|(_, o)| o).collect()
    }

    /// How many API offers `model` has in the whole dataset (those a page left out included).
    pub fn offer_count(&self, model: &str) -> usize {
        let here = self.api_offers.iter().filter(|o| o.model == model).count();
        here + self.offers_left_out as usize
    }

    /// How many GPU-hour price tiers `chip` has in the whole dataset (those a page left out
    /// included).
    pub fn tier_count(&self, chip: &str) -> usize {
        let here = self.price_tiers.iter().filter(|t| t.chip == chip).count();
        here + self.tiers_left_out.get(chip).copied().unwrap_or(0) as usize
    }

    /// The source with this key.
    pub fn source(&self, key: &str) -> Option<&Source> {
        self.sources.iter().find(|s| s.key == key)
    }

    /// The model with this id.
    pub fn model(&self, id: &str) -> Option<&Model> {
        self.models.iter().find(|m| m.id == id)
    }

    /// The API offer a link without `api=` takes: of a model's three offers or more, the one at
    /// the median list price (input plus output per million; the lower middle of an even count;
    /// of equal prices, the first in the dataset), so that a model priced by many providers
    /// opens on a typical price, not the dearest or the cheapest; of one or two, the first (the
    /// dataset's own choice, as a middle of two is no middle).
    pub fn default_offer(&self, model: &str) -> Option<&ApiOffer> {
        if let Some(id) = self.offer_defaults.get(model) {
            return self.api_offers.iter().find(|o| &o.id == id);
        }
        let mut offers: Vec<&ApiOffer> = self
            .api_offers
            .iter()
            .filter(|o| o.model == model)
            .collect();
        if offers.len() < 3 {
            return offers.first().copied();
        }
        // A stable sort: equal prices keep the dataset's order.
        offers.sort_by(|a, b| (a.price_in + a.price_out).total_cmp(&(b.price_in + b.price_out)));
        offers.get(offers.len().saturating_sub(1) / 2).copied()
    }

    /// The curve a link without `curve=` takes: the model's first of the most trusted data tier
    /// it has (audited, then vendor, then not stated, then experimental), so that a model opens
    /// on an audited measurement where one exists, never on a development run when another is.
    pub fn default_curve<'a>(&'a self, model: &'a str) -> Option<&'a Curve> {
        let rank = |c: &Curve| match c.tier {
            Some(DataTier::Audited) => 0,
            Some(DataTier::Vendor) => 1,
            None => 2,
            Some(DataTier::Experimental) => 3,
        };
        // A revision that names the model's default is followed; else `min_by_key` keeps the
        // first of equal ranks.
        self.curves_of(model)
            .find(|c| c.is_default)
            .or_else(|| self.curves_of(model).min_by_key(|c| rank(c)))
    }

    /// How a curve is named wherever it is: its replica, chip, precision and framework, its
    /// publisher and its data tier (`8 × NVIDIA H200, FP8, vLLM (publisher, experimental)`).
    pub fn curve_label(&self, c: &Curve) -> String {
        let chip = self
            .chip(&c.chip)
            .map_or(c.chip.as_str(), |ch| ch.name.as_str());
        let publisher = self
            .source(&c.source)
            .map_or(c.source.as_str(), |s| s.publisher.as_str());
        let tier = c.tier.map_or(String::new(), |t| format!(", {}", t.key()));
        // A submission's software list names the serving framework first.
        let framework = c.framework.split(',').next().unwrap_or_default().trim();
        let setup = c
            .setup
            .as_deref()
            .map_or(String::new(), |s| format!(", {s}"));
        format!(
            "{} × {chip}, {}, {framework}{setup} ({publisher}{tier})",
            crate::format::number(c.replica_gpus),
            c.precision.to_ascii_uppercase(),
        )
    }

    /// The chip with this id.
    pub fn chip(&self, id: &str) -> Option<&Chip> {
        self.chips.iter().find(|c| c.id == id)
    }

    /// The curve with this id.
    pub fn curve(&self, id: &str) -> Option<&Curve> {
        self.curves.iter().find(|c| c.id == id)
    }

    /// The API offer with this id.
    pub fn api_offer(&self, id: &str) -> Option<&ApiOffer> {
        self.api_offers.iter().find(|o| o.id == id)
    }

    /// Curves of a model, in dataset order.
    pub fn curves_of<'a>(&'a self, model: &'a str) -> impl Iterator<Item = &'a Curve> + 'a {
        self.curves.iter().filter(move |c| c.model == model)
    }

    /// The default GPU-hour price tier of a chip.
    pub fn default_tier(&self, chip: &str) -> Option<&PriceTier> {
        let mut tiers = self.price_tiers.iter().filter(|t| t.chip == chip);
        let first = tiers.clone().next();
        tiers.find(|t| t.is_default).or(first)
    }

    /// Whether a source is a vendor's.
    pub fn is_vendor(&self, key: &str) -> bool {
        self.source(key).is_some_and(|s| s.trust == Trust::Vendor)
    }
}
