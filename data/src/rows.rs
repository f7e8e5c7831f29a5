//! Rows as stored, and the dataset they make at a revision.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use servecost::curve::CurvePoint;
use servecost::dataset::{
    ApiOffer, Curve, Dataset, Headline, Model, PriceTier, Source, Trust, WeightsSize,
};
use servecost::units::Mix;
use sqlx::{AnyPool, FromRow};

use crate::table::Table;

/// A boolean read through sqlx's `Any` driver, from an integer (SQLite) or a boolean.
pub struct Flag(bool);

impl sqlx::Type<sqlx::Any> for Flag {
    fn type_info() -> sqlx::any::AnyTypeInfo {
        <i64 as sqlx::Type<sqlx::Any>>::type_info()
    }

    fn compatible(ty: &sqlx::any::AnyTypeInfo) -> bool {
        <i64 as sqlx::Type<sqlx::Any>>::compatible(ty)
            || <bool as sqlx::Type<sqlx::Any>>::compatible(ty)
    }
}

impl<'r> sqlx::Decode<'r, sqlx::Any> for Flag {
    fn decode(value: sqlx::any::AnyValueRef<'r>) -> Result<Self, sqlx::error::BoxDynError> {
        match <bool as sqlx::Decode<sqlx::Any>>::decode(value.clone()) {
            Ok(b) => Ok(Flag(b)),
            Err(_) => Ok(Flag(<i64 as sqlx::Decode<sqlx::Any>>::decode(value)? != 0)),
        }
    }
}

impl From<Flag> for bool {
    fn from(f: Flag) -> Self {
        f.0
    }
}

/// A row's kind and key: an imported row replaces the row of the same kind and key, and `/data`
/// says which revision brought each. The one definition of both; `import::brought` writes the
/// same keys in SQL.
pub trait Keyed {
    /// The kind, as imports and `/data` name it.
    const KIND: &'static str;
    /// The key within the kind.
    fn key(&self) -> String;
}

/// The key of a row keyed by two columns (a model's weights at a precision, a chip's tier).
pub fn pair_key(a: &str, b: &str) -> String {
    format!("{a}/{b}")
}

macro_rules! keyed {
    ($row:ty, $kind:literal, |$r:ident| $key:expr) => {
        impl Keyed for $row {
            const KIND: &'static str = $kind;
            fn key(&self) -> String {
                let $r = self;
                $key
            }
        }
    };
}

keyed!(SourceRow, "source", |r| r.key.clone());
keyed!(ModelRow, "model", |r| r.id.clone());
keyed!(WeightsRow, "weights", |r| pair_key(&r.model, &r.precision));
keyed!(ChipRow, "chip", |r| r.id.clone());
keyed!(TierRow, "price tier", |r| pair_key(&r.chip, &r.tier));
keyed!(OfferRow, "API offer", |r| r.id.clone());
keyed!(CurveRow, "curve", |r| r.id.clone());
// A point belongs to its curve: they are imported, compared and replaced together.
keyed!(PointRow, "curve", |r| r.curve.clone());
keyed!(HeadlineRow, "headline", |r| r.id.clone());

/// Rows of every kind: what a set of files brings, or the dataset at a revision.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Rows {
    pub sources: Vec<SourceRow>,
    pub models: Vec<ModelRow>,
    pub weights: Vec<WeightsRow>,
    pub chips: Vec<ChipRow>,
    pub tiers: Vec<TierRow>,
    pub offers: Vec<OfferRow>,
    pub curves: Vec<CurveRow>,
    pub points: Vec<PointRow>,
    pub headlines: Vec<HeadlineRow>,
}

impl Rows {
    /// Appends `other`'s rows.
    pub fn extend(&mut self, other: Rows) {
        self.sources.extend(other.sources);
        self.models.extend(other.models);
        self.weights.extend(other.weights);
        self.chips.extend(other.chips);
        self.tiers.extend(other.tiers);
        self.offers.extend(other.offers);
        self.curves.extend(other.curves);
        self.points.extend(other.points);
        self.headlines.extend(other.headlines);
    }

    /// True when there is no row at all.
    pub fn is_empty(&self) -> bool {
        self.sources.is_empty()
            && self.models.is_empty()
            && self.weights.is_empty()
            && self.chips.is_empty()
            && self.tiers.is_empty()
            && self.offers.is_empty()
            && self.curves.is_empty()
            && self.points.is_empty()
            && self.headlines.is_empty()
    }

    /// Every row as (kind, key, content), content as JSON for comparison and display.
    pub fn keyed(&self) -> Vec<(&'static str, String, serde_json::Value)> {
        fn put<T: Serialize + Keyed>(
            out: &mut Vec<(&'static str, String, serde_json::Value)>,
            rows: &[T],
        ) {
            for r in rows {
                let value = serde_json::to_value(r).unwrap_or(serde_json::Value::Null);
                out.push((T::KIND, r.key(), value));
            }
        }
        let mut out = Vec::new();
        put(&mut out, &self.sources);
        put(&mut out, &self.models);
        put(&mut out, &self.weights);
        put(&mut out, &self.chips);
        put(&mut out, &self.tiers);
        put(&mut out, &self.offers);
        put(&mut out, &self.headlines);
        // A curve and its points are one thing: a changed point is a changed curve.
        for c in &self.curves {
            let points: Vec<&PointRow> = self.points.iter().filter(|p| p.curve == c.id).collect();
            out.push((
                CurveRow::KIND,
                c.key(),
                serde_json::json!({ "curve": c, "points": points }),
            ));
        }
        out
    }

    /// These rows, each kind through `keep`.
    pub fn filtered(&self, keep: impl Fn(&'static str, String) -> bool) -> Rows {
        fn only<T: Clone + Keyed>(
            rows: &[T],
            keep: &impl Fn(&'static str, String) -> bool,
        ) -> Vec<T> {
            rows.iter()
                .filter(|r| keep(T::KIND, r.key()))
                .cloned()
                .collect()
        }
        Rows {
            sources: only(&self.sources, &keep),
            models: only(&self.models, &keep),
            weights: only(&self.weights, &keep),
            chips: only(&self.chips, &keep),
            tiers: only(&self.tiers, &keep),
            offers: only(&self.offers, &keep),
            curves: only(&self.curves, &keep),
            points: only(&self.points, &keep),
            headlines: only(&self.headlines, &keep),
        }
    }

    /// Every (kind, key) with how many rows of this set have it (a point counts with its curve,
    /// so points are left out).
    pub fn key_counts(&self) -> BTreeMap<(&'static str, String), usize> {
        fn count<T: Keyed>(out: &mut BTreeMap<(&'static str, String), usize>, rows: &[T]) {
            for r in rows {
                *out.entry((T::KIND, r.key())).or_default() += 1;
            }
        }
        let mut out = BTreeMap::new();
        count(&mut out, &self.sources);
        count(&mut out, &self.models);
        count(&mut out, &self.weights);
        count(&mut out, &self.chips);
        count(&mut out, &self.tiers);
        count(&mut out, &self.offers);
        count(&mut out, &self.curves);
        count(&mut out, &self.headlines);
        out
    }
}

impl Rows {
    /// These rows with `newer`'s on top: a row of `newer` replaces the row with its key, and a
    /// curve of `newer` comes with its own points only. What the dataset would be after an import.
    pub fn overlaid(&self, newer: &Rows) -> Rows {
        // A replaced row keeps its place (the first model, offer or curve is a default, as
        // the database orders rows by the revision that first brought their key); new keys
        // come last.
        fn merge<T: Clone + Keyed>(old: &[T], new: &[T]) -> Vec<T> {
            let newer: BTreeMap<String, &T> = new.iter().map(|r| (r.key(), r)).collect();
            let known: BTreeSet<String> = old.iter().map(Keyed::key).collect();
            old.iter()
                .map(|r| newer.get(&r.key()).map_or(r, |n| *n))
                .chain(new.iter().filter(|r| !known.contains(&r.key())))
                .cloned()
                .collect()
        }
        let new_curves: BTreeSet<&String> = newer.curves.iter().map(|c| &c.id).collect();
        Rows {
            sources: merge(&self.sources, &newer.sources),
            models: merge(&self.models, &newer.models),
            weights: merge(&self.weights, &newer.weights),
            chips: merge(&self.chips, &newer.chips),
            tiers: merge(&self.tiers, &newer.tiers),
            offers: merge(&self.offers, &newer.offers),
            curves: merge(&self.curves, &newer.curves),
            points: self
                .points
                .iter()
                .filter(|p| !new_curves.contains(&p.curve))
                .chain(&newer.points)
                .cloned()
                .collect(),
            headlines: merge(&self.headlines, &newer.headlines),
        }
    }
}

/// A source, as stored and as imported.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, FromRow)]
#[serde(deny_unknown_fields)]
pub struct SourceRow {
    pub key: String,
    pub publisher: String,
    pub title: String,
    #[serde(default)]
    pub url: Option<String>,
    pub date: String,
    pub trust: String,
    #[serde(default)]
    pub caveat: Option<String>,
}

/// A model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, FromRow)]
#[serde(deny_unknown_fields)]
pub struct ModelRow {
    pub id: String,
    pub name: String,
    pub licence: String,
    #[serde(default)]
    pub licence_revenue_threshold_usd: Option<f64>,
    pub licence_source: String,
}

/// A model's weights at one precision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, FromRow)]
#[serde(deny_unknown_fields)]
pub struct WeightsRow {
    pub model: String,
    pub precision: String,
    pub gigabytes: f64,
    pub source: String,
}

/// A chip: the engine's own, which the database's table and the import files give field for
/// field.
pub type ChipRow = servecost::dataset::Chip;

/// A chip-hour price tier.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, FromRow)]
#[serde(deny_unknown_fields)]
pub struct TierRow {
    pub chip: String,
    pub tier: String,
    pub label: String,
    pub usd_per_gpu_hour: f64,
    pub source: String,
    #[serde(default)]
    #[sqlx(try_from = "Flag")]
    pub is_default: bool,
    /// `on_demand`, `spot`, `reserved` or `owner_cost` (none: not stated).
    #[serde(default)]
    pub kind: Option<String>,
    /// Term of a reserved price, months.
    #[serde(default)]
    pub term_months: Option<f64>,
    /// Share of a reserved term paid upfront.
    #[serde(default)]
    pub upfront_share: Option<f64>,
    /// Who rents it out, one spelling per provider (none: not stated).
    #[serde(default)]
    pub provider: Option<String>,
}

/// An API offer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, FromRow)]
#[serde(deny_unknown_fields)]
pub struct OfferRow {
    pub id: String,
    pub model: String,
    pub name: String,
    pub price_in: f64,
    pub price_out: f64,
    #[serde(default)]
    pub cache_discount: f64,
    #[serde(default)]
    pub markup: f64,
    #[serde(default)]
    pub speed_tps: Option<f64>,
    pub source: String,
    #[serde(default)]
    pub note: Option<String>,
    /// False when the publisher states no cache discount.
    #[serde(default = "yes")]
    #[sqlx(try_from = "Flag")]
    pub cache_discount_stated: bool,
    /// Discount on batch traffic, 0 to 1 (`None`: the source states no batch price).
    #[serde(default)]
    pub batch_discount: Option<f64>,
    /// Who sells it, one spelling per provider across price tables (none: not stated).
    #[serde(default)]
    pub provider: Option<String>,
}

fn yes() -> bool {
    true
}

/// A throughput curve (its points are [`PointRow`]s of the same revision).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, FromRow)]
#[serde(deny_unknown_fields)]
pub struct CurveRow {
    pub id: String,
    /// The revision that brought it (set when stored, not imported).
    #[serde(skip)]
    #[sqlx(default)]
    pub revision: i64,
    pub model: String,
    pub chip: String,
    pub precision: String,
    pub framework: String,
    pub replica_gpus: f64,
    pub mix_uncached: f64,
    pub mix_cached: f64,
    pub mix_output: f64,
    #[sqlx(try_from = "Flag")]
    pub mix_stated: bool,
    #[serde(default)]
    pub price_basis_usd: Option<f64>,
    pub source: String,
    #[serde(default)]
    pub note: Option<String>,
    /// `audited`, `vendor` or `experimental` (none: not stated).
    #[serde(default)]
    pub tier: Option<String>,
    /// What tells it apart from the model's other curves on its chip.
    #[serde(default)]
    pub setup: Option<String>,
    /// The prefill rate P it holds (none: servecost's general assumption).
    #[serde(default)]
    pub prefill: Option<f64>,
    /// Where its replica's size comes from (none: the measured system as a whole).
    #[serde(default)]
    pub replica_basis: Option<String>,
    /// Tokens/s per GPU at its mix without a latency bound (none: not measured).
    #[serde(default)]
    pub batch_tokens_per_s_per_gpu: Option<f64>,
    /// The least uncached-input share of its mix its sources allow, where they bound it
    /// rather than state it (none: stated, or assumed without bounds).
    #[serde(default)]
    pub input_share_low: Option<f64>,
    /// The greatest such share.
    #[serde(default)]
    pub input_share_high: Option<f64>,
    /// The model's default curve.
    #[serde(default)]
    #[sqlx(try_from = "Flag")]
    pub is_default: bool,
}

/// A measured point of a curve: a throughput, or a cost at the curve's price basis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, FromRow)]
#[serde(deny_unknown_fields)]
pub struct PointRow {
    pub curve: String,
    /// Position in the curve, from 0 (assigned on import in order of speed).
    #[serde(default)]
    pub idx: i64,
    pub tps: f64,
    #[serde(default)]
    pub tokens_per_s_per_gpu: Option<f64>,
    #[serde(default)]
    pub usd_per_mtok: Option<f64>,
    #[serde(default)]
    pub note: Option<String>,
    /// Mean power per GPU measured at this point, W.
    #[serde(default)]
    pub power_w_per_gpu: Option<f64>,
}

/// A power headline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, FromRow)]
#[serde(deny_unknown_fields)]
pub struct HeadlineRow {
    pub id: String,
    pub chip: String,
    pub label: String,
    #[serde(default)]
    pub tokens_per_s_per_mw: Option<f64>,
    #[serde(default)]
    pub agents_per_mw: Option<f64>,
    #[serde(default)]
    #[sqlx(try_from = "Flag")]
    pub is_floor: bool,
    pub source: String,
}

fn trust(text: &str) -> Trust {
    match text {
        "vendor" => Trust::Vendor,
        "licensor" => Trust::Licensor,
        "assumption" => Trust::Assumption,
        _ => Trust::Independent,
    }
}

fn corrupt(what: String) -> sqlx::Error {
    sqlx::Error::Protocol(what)
}

/// The rows of table `T` in force at `revision`, in its order.
async fn newest<T: Table>(pool: &AnyPool, revision: i64) -> Result<Vec<T>, sqlx::Error> {
    sqlx::query_as::<_, T>(&T::newest())
        .bind(revision)
        .fetch_all(pool)
        .await
}

fn curve(row: CurveRow, points: &[PointRow]) -> Result<Curve, sqlx::Error> {
    let mine: Vec<&PointRow> = points.iter().filter(|p| p.curve == row.id).collect();
    let points = mine
        .iter()
        .map(
            |p| match (p.tokens_per_s_per_gpu, p.usd_per_mtok, row.price_basis_usd) {
                (Some(t), _, _) => Ok(CurvePoint::measured(p.tps, t).with_power(p.power_w_per_gpu)),
                (None, Some(cost), Some(price)) => Ok(CurvePoint::from_cost(p.tps, cost, price)),
                _ => Err(corrupt(format!(
                    "curve {} has a cost point without a price basis",
                    row.id
                ))),
            },
        )
        .collect::<Result<Vec<_>, _>>()?;
    let mix = Mix::from_parts(row.mix_uncached, row.mix_cached, row.mix_output)
        .ok_or_else(|| corrupt(format!("curve {} has an invalid mix", row.id)))?;
    Ok(Curve {
        id: row.id,
        model: row.model,
        chip: row.chip,
        precision: row.precision,
        framework: row.framework,
        replica_gpus: row.replica_gpus,
        mix,
        mix_stated: row.mix_stated,
        points,
        source: row.source,
        note: row.note,
        tier: row
            .tier
            .as_deref()
            .and_then(servecost::dataset::DataTier::from_key),
        setup: row.setup,
        prefill: row.prefill,
        replica_basis: row.replica_basis,
        batch_tokens_per_s_per_gpu: row.batch_tokens_per_s_per_gpu,
        input_share_bounds: row
            .input_share_low
            .zip(row.input_share_high)
            .map(|(low, high)| [low, high]),
        is_default: row.is_default,
        point_sources: if mine.iter().any(|p| p.note.is_some()) {
            mine.iter()
                .map(|p| p.note.clone().unwrap_or_default())
                .collect()
        } else {
            Vec::new()
        },
    })
}

/// The rows in force at `revision` (each curve with its own points).
pub async fn rows_at(pool: &AnyPool, revision: i64) -> Result<Rows, sqlx::Error> {
    let curves: Vec<CurveRow> = newest(pool, revision).await?;
    let mut points = Vec::new();
    let sql = format!(
        "SELECT {} FROM {} t WHERE t.curve = $1 AND t.revision = $2 ORDER BY t.idx",
        PointRow::select(),
        PointRow::TABLE
    );
    for c in &curves {
        let mut p: Vec<PointRow> = sqlx::query_as(&sql)
            .bind(&c.id)
            .bind(c.revision)
            .fetch_all(pool)
            .await?;
        points.append(&mut p);
    }
    Ok(Rows {
        sources: newest(pool, revision).await?,
        models: newest(pool, revision).await?,
        weights: newest(pool, revision).await?,
        chips: newest(pool, revision).await?,
        tiers: newest(pool, revision).await?,
        offers: newest(pool, revision).await?,
        curves,
        points,
        headlines: newest(pool, revision).await?,
    })
}

/// The dataset at `revision`.
pub async fn load(pool: &AnyPool, revision: i64) -> Result<Dataset, sqlx::Error> {
    dataset(rows_at(pool, revision).await?, revision)
}

/// The dataset the rows make, as revision `revision`.
pub fn dataset(rows: Rows, revision: i64) -> Result<Dataset, sqlx::Error> {
    let Rows {
        sources,
        models,
        weights,
        chips,
        tiers,
        offers,
        curves: curve_rows,
        points,
        headlines,
    } = rows;
    let curves = curve_rows
        .into_iter()
        .map(|row| curve(row, &points))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Dataset {
        revision,
        sources: sources
            .into_iter()
            .map(|s| Source {
                key: s.key,
                publisher: s.publisher,
                title: s.title,
                url: s.url,
                date: s.date,
                trust: trust(&s.trust),
                caveat: s.caveat,
            })
            .collect(),
        models: models
            .into_iter()
            .map(|m| Model {
                weights: weights
                    .iter()
                    .filter(|w| w.model == m.id)
                    .map(|w| WeightsSize {
                        precision: w.precision.clone(),
                        gigabytes: w.gigabytes,
                        source: w.source.clone(),
                    })
                    .collect(),
                id: m.id,
                name: m.name,
                licence: m.licence,
                licence_revenue_threshold_usd: m.licence_revenue_threshold_usd,
                licence_source: m.licence_source,
            })
            .collect(),
        chips,
        price_tiers: tiers
            .into_iter()
            .map(|t| PriceTier {
                chip: t.chip,
                tier: t.tier,
                label: t.label,
                usd_per_gpu_hour: t.usd_per_gpu_hour,
                source: t.source,
                is_default: t.is_default,
                kind: t
                    .kind
                    .as_deref()
                    .and_then(servecost::gpu_price::Commitment::from_key),
                term_months: t.term_months,
                upfront_share: t.upfront_share,
                provider: t.provider,
            })
            .collect(),
        api_offers: offers
            .into_iter()
            .map(|o| ApiOffer {
                id: o.id,
                model: o.model,
                name: o.name,
                price_in: o.price_in,
                price_out: o.price_out,
                cache_discount: o.cache_discount,
                markup: o.markup,
                speed_tps: o.speed_tps,
                source: o.source,
                note: o.note,
                cache_discount_stated: o.cache_discount_stated,
                batch_discount: o.batch_discount,
                provider: o.provider,
            })
            .collect(),
        curves,
        headlines: headlines
            .into_iter()
            .map(|h| Headline {
                id: h.id,
                chip: h.chip,
                label: h.label,
                tokens_per_s_per_mw: h.tokens_per_s_per_mw,
                agents_per_mw: h.agents_per_mw,
                is_floor: h.is_floor,
                source: h.source,
            })
            .collect(),
        as_of: None,
        offers_left_out: 0,
        tiers_left_out: Default::default(),
        reach: Vec::new(),
        offer_defaults: Default::default(),
    })
}
