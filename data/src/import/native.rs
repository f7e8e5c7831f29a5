//! servecost's own formats. JSON: one object with any of the arrays `sources`, `models`,
//! `model_weights`, `chips`, `price_tiers`, `api_offers`, `curves`, `curve_points`, `headlines`,
//! each element with the columns of that table. CSV: one table per file, recognised by its header
//! (the same column names). The README documents both, with a complete example of each.

use crate::rows::{
    ChipRow, CurveRow, HeadlineRow, Keyed, ModelRow, OfferRow, PointRow, SourceRow, TierRow,
    WeightsRow,
};
use serde::de::DeserializeOwned;
use serde::Deserialize;

use super::limits::{MAX_ID, MAX_NAME, MAX_NOTE, MAX_TITLE, MAX_URL, MAX_WORD};
use super::{is_slug, ImportProblem, Read};

/// The kinds of row, by table name, with their required and optional columns.
const KINDS: &[(&str, &[&str], &[&str])] = &[
    (
        "sources",
        &["key", "publisher", "title", "date", "trust"],
        &["url", "caveat"],
    ),
    (
        "models",
        &["id", "name", "licence", "licence_source"],
        &["licence_revenue_threshold_usd"],
    ),
    (
        "model_weights",
        &["model", "precision", "gigabytes", "source"],
        &[],
    ),
    (
        "chips",
        &["id", "name", "memory_gb", "memory_source"],
        &[
            "accelerator_kw",
            "accelerator_kw_source",
            "all_in_kw",
            "all_in_kw_source",
            "accelerator_kw_measure",
            "power_caveat",
            "family",
            "dense_tflops_fp4",
            "dense_tflops_fp8",
            "dense_tflops_bf16",
            "memory_tb_s",
            "compute_source",
        ],
    ),
    (
        "price_tiers",
        &["chip", "tier", "label", "usd_per_gpu_hour", "source"],
        &[
            "is_default",
            "kind",
            "term_months",
            "upfront_share",
            "provider",
        ],
    ),
    (
        "api_offers",
        &["id", "model", "name", "price_in", "price_out", "source"],
        &[
            "cache_discount",
            "markup",
            "speed_tps",
            "note",
            "cache_discount_stated",
            "batch_discount",
            "provider",
        ],
    ),
    (
        "curves",
        &[
            "id",
            "model",
            "chip",
            "precision",
            "framework",
            "replica_gpus",
            "mix_uncached",
            "mix_cached",
            "mix_output",
            "mix_stated",
            "source",
        ],
        &[
            "price_basis_usd",
            "note",
            "tier",
            "setup",
            "prefill",
            "replica_basis",
            "batch_tokens_per_s_per_gpu",
            "is_default",
        ],
    ),
    (
        "curve_points",
        &["curve", "tps"],
        &[
            "idx",
            "tokens_per_s_per_gpu",
            "usd_per_mtok",
            "note",
            "power_w_per_gpu",
        ],
    ),
    (
        "headlines",
        &["id", "chip", "label", "source"],
        &["tokens_per_s_per_mw", "agents_per_mw", "is_floor"],
    ),
];

/// True for a JSON object made only of servecost's table arrays (and a description).
pub fn is_native(value: &serde_json::Value) -> bool {
    value.as_object().is_some_and(|o| {
        !o.is_empty() && o.keys().any(|k| KINDS.iter().any(|(name, _, _)| name == k))
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Document {
    #[serde(default)]
    #[allow(dead_code)]
    description: Option<String>,
    #[serde(default)]
    sources: Vec<SourceRow>,
    #[serde(default)]
    models: Vec<ModelRow>,
    #[serde(default)]
    model_weights: Vec<WeightsRow>,
    #[serde(default)]
    chips: Vec<ChipRow>,
    #[serde(default)]
    price_tiers: Vec<TierRow>,
    #[serde(default)]
    api_offers: Vec<OfferRow>,
    #[serde(default)]
    curves: Vec<CurveRow>,
    #[serde(default)]
    curve_points: Vec<PointRow>,
    #[serde(default)]
    headlines: Vec<HeadlineRow>,
}

/// A field's problem: (field, what is wrong).
type Bad = (&'static str, String);

fn finite(field: &'static str, v: f64, lo: f64, hi: f64, open_lo: bool) -> Result<(), Bad> {
    let above = if open_lo { v > lo } else { v >= lo };
    if v.is_finite() && above && v <= hi {
        Ok(())
    } else {
        let show = |v: f64| servecost::format::exact(v, false);
        let low = if open_lo {
            format!("above {}", show(lo))
        } else {
            format!("from {}", show(lo))
        };
        Err((field, format!("{v} is out of range: {low} to {}", show(hi))))
    }
}

fn opt(field: &'static str, v: Option<f64>, lo: f64, hi: f64) -> Result<(), Bad> {
    v.map_or(Ok(()), |v| finite(field, v, lo, hi, true))
}

/// `v` within the range a link accepts for the same figure (`spec`, the link reader's own
/// definition): every imported row can then be chosen by a link and typed into one.
fn as_link(field: &'static str, v: f64, spec: &servecost::codec::NumSpec) -> Result<(), Bad> {
    if spec.accepts(v) {
        Ok(())
    } else {
        Err((
            field,
            format!(
                "{v} is out of range: {} (the range the calculator's `{}` takes)",
                spec.range_text(),
                spec.name
            ),
        ))
    }
}

fn as_link_opt(
    field: &'static str,
    v: Option<f64>,
    spec: &servecost::codec::NumSpec,
) -> Result<(), Bad> {
    v.map_or(Ok(()), |v| as_link(field, v, spec))
}

/// The link reader's range of the parameter `name`.
fn link(name: &str) -> &'static servecost::codec::NumSpec {
    servecost::codec::spec(name).unwrap_or(&servecost::codec::POINT_THROUGHPUT)
}

/// Text of at most `max` characters without control characters (tab and line feed aside).
fn bounded(field: &'static str, v: &str, max: usize) -> Result<(), Bad> {
    let count = v.chars().count();
    if count > max {
        let head: String = v.chars().take(40).collect();
        return Err((
            field,
            format!("{count} characters ({head:?}…); at most {max} are accepted"),
        ));
    }
    if let Some((at, c)) = v
        .chars()
        .enumerate()
        .find(|(_, c)| c.is_control() && !matches!(c, '\t' | '\n'))
    {
        return Err((
            field,
            format!(
                "holds the control character U+{:04X} at character {}",
                u32::from(c),
                at + 1
            ),
        ));
    }
    Ok(())
}

fn text(field: &'static str, v: &str, max: usize) -> Result<(), Bad> {
    if v.trim().is_empty() {
        Err((field, "must not be empty".into()))
    } else {
        bounded(field, v, max)
    }
}

fn opt_text(field: &'static str, v: Option<&String>, max: usize) -> Result<(), Bad> {
    v.map_or(Ok(()), |v| bounded(field, v, max))
}

fn id(field: &'static str, v: &str) -> Result<(), Bad> {
    if is_slug(v) && v.len() <= MAX_ID {
        Ok(())
    } else {
        let head: String = v.chars().take(40).collect();
        Err((
            field,
            format!(
                "{head:?} is not an id: 1 to {MAX_ID} lower-case letters, digits, '.', '_' and '-'"
            ),
        ))
    }
}

fn paired(
    value: &'static str,
    v: Option<f64>,
    source: &'static str,
    s: Option<&String>,
) -> Result<(), Bad> {
    if v.is_some() && s.is_none_or(|s| s.trim().is_empty()) {
        Err((source, format!("required when {value} is given")))
    } else {
        Ok(())
    }
}

/// Checks one row's fields (ranges, ids, text and its length); references are checked later.
pub trait Valid: Keyed {
    /// The first problem with a field.
    fn valid(&self) -> Result<(), Bad>;
}

impl Valid for SourceRow {
    fn valid(&self) -> Result<(), Bad> {
        id("key", &self.key)?;
        text("publisher", &self.publisher, MAX_NAME)?;
        text("title", &self.title, MAX_TITLE)?;
        opt_text("caveat", self.caveat.as_ref(), MAX_NOTE)?;
        let date_ok = {
            let parts: Vec<&str> = self.date.split('-').collect();
            !parts.is_empty()
                && parts.len() <= 3
                && parts[0].len() == 4
                && parts
                    .iter()
                    .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
        };
        if !date_ok {
            return Err((
                "date",
                format!("{:?} is not a date: YYYY, YYYY-MM or YYYY-MM-DD", self.date),
            ));
        }
        if !["independent", "vendor", "licensor", "assumption"].contains(&self.trust.as_str()) {
            return Err((
                "trust",
                format!(
                    "{:?} is not one of independent, vendor, licensor, assumption",
                    self.trust
                ),
            ));
        }
        if let Some(url) = &self.url {
            bounded("url", url, MAX_URL)?;
            if !(url.starts_with("https://") || url.starts_with("http://")) {
                return Err(("url", format!("{url:?} is not an http(s) address")));
            }
        }
        Ok(())
    }
}

impl Valid for ModelRow {
    fn valid(&self) -> Result<(), Bad> {
        id("id", &self.id)?;
        text("name", &self.name, MAX_NAME)?;
        text("licence", &self.licence, MAX_NAME)?;
        opt(
            "licence_revenue_threshold_usd",
            self.licence_revenue_threshold_usd,
            0.0,
            1e15,
        )
    }
}

impl Valid for WeightsRow {
    fn valid(&self) -> Result<(), Bad> {
        text("precision", &self.precision, MAX_WORD)?;
        finite("gigabytes", self.gigabytes, 0.0, 1e6, true)
    }
}

impl Valid for ChipRow {
    fn valid(&self) -> Result<(), Bad> {
        id("id", &self.id)?;
        text("name", &self.name, MAX_NAME)?;
        finite("memory_gb", self.memory_gb, 0.0, 1e5, true)?;
        as_link_opt("accelerator_kw", self.accelerator_kw, link("kw"))?;
        as_link_opt("all_in_kw", self.all_in_kw, link("kw"))?;
        opt_text("power_caveat", self.power_caveat.as_ref(), MAX_NOTE)?;
        opt_text("family", self.family.as_ref(), MAX_WORD)?;
        for (field, v) in [
            ("dense_tflops_fp4", self.dense_tflops_fp4),
            ("dense_tflops_fp8", self.dense_tflops_fp8),
            ("dense_tflops_bf16", self.dense_tflops_bf16),
            ("memory_tb_s", self.memory_tb_s),
        ] {
            if let Some(v) = v {
                finite(field, v, 0.0, 1e6, true)?;
            }
        }
        let figures = [
            self.dense_tflops_fp4,
            self.dense_tflops_fp8,
            self.dense_tflops_bf16,
            self.memory_tb_s,
        ];
        if figures.iter().any(Option::is_some) != self.compute_source.is_some() {
            return Err((
                "compute_source",
                "is given with the compute and bandwidth figures, and only with them".to_owned(),
            ));
        }
        paired(
            "accelerator_kw",
            self.accelerator_kw,
            "accelerator_kw_source",
            self.accelerator_kw_source.as_ref(),
        )?;
        paired(
            "all_in_kw",
            self.all_in_kw,
            "all_in_kw_source",
            self.all_in_kw_source.as_ref(),
        )?;
        match self.accelerator_kw_measure.as_deref() {
            None | Some("accelerator" | "board") => Ok(()),
            Some(other) => Err((
                "accelerator_kw_measure",
                format!("{other:?} is not a power measure: accelerator or board"),
            )),
        }
    }
}

impl Valid for TierRow {
    fn valid(&self) -> Result<(), Bad> {
        id("tier", &self.tier)?;
        text("label", &self.label, MAX_NAME)?;
        as_link("usd_per_gpu_hour", self.usd_per_gpu_hour, link("gpu_hour"))?;
        let kind = match &self.kind {
            None => None,
            Some(kind) => Some(servecost::gpu_price::Commitment::from_key(kind).ok_or_else(
                || {
                    (
                        "kind",
                        format!(
                            "{kind:?} is not a commitment: on_demand, spot, reserved or owner_cost"
                        ),
                    )
                },
            )?),
        };
        if let Some(m) = self.term_months {
            if !(m.is_finite() && m.fract() == 0.0 && (1.0..=120.0).contains(&m)) {
                return Err((
                    "term_months",
                    format!("{m} is out of range: a whole number of months from 1 to 120"),
                ));
            }
        }
        if kind == Some(servecost::gpu_price::Commitment::Reserved) && self.term_months.is_none() {
            return Err((
                "term_months",
                "required for a reserved price: the months the reservation commits to".into(),
            ));
        }
        if let Some(u) = self.upfront_share {
            finite("upfront_share", u, 0.0, 1.0, false)?;
        }
        opt_text("provider", self.provider.as_ref(), MAX_NAME)
    }
}

impl Valid for OfferRow {
    fn valid(&self) -> Result<(), Bad> {
        id("id", &self.id)?;
        text("name", &self.name, MAX_NAME)?;
        as_link("price_in", self.price_in, link("price_in"))?;
        as_link("price_out", self.price_out, link("price_out"))?;
        as_link(
            "cache_discount",
            self.cache_discount,
            link("cache_discount"),
        )?;
        as_link("markup", self.markup, link("markup"))?;
        as_link_opt(
            "batch_discount",
            self.batch_discount,
            link("batch_discount"),
        )?;
        as_link_opt("speed_tps", self.speed_tps, link("tps"))?;
        opt_text("provider", self.provider.as_ref(), MAX_NAME)?;
        opt_text("note", self.note.as_ref(), MAX_NOTE)
    }
}

impl Valid for CurveRow {
    fn valid(&self) -> Result<(), Bad> {
        id("id", &self.id)?;
        text("precision", &self.precision, MAX_WORD)?;
        text("framework", &self.framework, MAX_NAME)?;
        as_link("replica_gpus", self.replica_gpus, link("replica"))?;
        finite("mix_uncached", self.mix_uncached, 0.0, 1e12, false)?;
        finite("mix_cached", self.mix_cached, 0.0, 1e12, false)?;
        finite("mix_output", self.mix_output, 0.0, 1e12, true)?;
        as_link_opt("price_basis_usd", self.price_basis_usd, link("gpu_hour"))?;
        if let Some(tier) = &self.tier {
            if servecost::dataset::DataTier::from_key(tier).is_none() {
                return Err((
                    "tier",
                    format!("{tier:?} is not a data tier: audited, vendor or experimental"),
                ));
            }
        }
        opt_text("setup", self.setup.as_ref(), MAX_NAME)?;
        if let Some(p) = self.prefill {
            as_link("prefill", p, link("prefill"))?;
        }
        if let Some(t) = self.batch_tokens_per_s_per_gpu {
            finite("batch_tokens_per_s_per_gpu", t, 0.0, 1e9, true)?;
        }
        opt_text("replica_basis", self.replica_basis.as_ref(), MAX_NOTE)?;
        opt_text("note", self.note.as_ref(), MAX_NOTE)
    }
}

impl Valid for PointRow {
    fn valid(&self) -> Result<(), Bad> {
        as_link("tps", self.tps, link("tps"))?;
        as_link_opt(
            "tokens_per_s_per_gpu",
            self.tokens_per_s_per_gpu,
            &servecost::codec::POINT_THROUGHPUT,
        )?;
        opt("usd_per_mtok", self.usd_per_mtok, 0.0, 1e6)?;
        opt("power_w_per_gpu", self.power_w_per_gpu, 0.0, 1e5)?;
        opt_text("note", self.note.as_ref(), MAX_NOTE)?;
        match (self.tokens_per_s_per_gpu, self.usd_per_mtok) {
            (Some(_), None) | (None, Some(_)) => Ok(()),
            _ => Err((
                "tokens_per_s_per_gpu",
                "give exactly one of tokens_per_s_per_gpu and usd_per_mtok".into(),
            )),
        }
    }
}

impl Valid for HeadlineRow {
    fn valid(&self) -> Result<(), Bad> {
        id("id", &self.id)?;
        text("label", &self.label, MAX_NAME)?;
        as_link_opt(
            "tokens_per_s_per_mw",
            self.tokens_per_s_per_mw,
            link("headline"),
        )?;
        opt("agents_per_mw", self.agents_per_mw, 0.0, 1e12)?;
        if self.tokens_per_s_per_mw.is_none() && self.agents_per_mw.is_none() {
            return Err((
                "tokens_per_s_per_mw",
                "give tokens_per_s_per_mw, agents_per_mw or both".into(),
            ));
        }
        Ok(())
    }
}

/// Validates `rows` (each with where it is, or the problem reading it), records their origins and
/// appends them; problems keep the file's order.
fn take<T: Valid>(
    file: &str,
    rows: Vec<Result<(String, T), ImportProblem>>,
    read: &mut Read,
    out: &mut Vec<T>,
    problems: &mut Vec<ImportProblem>,
) {
    for row in rows {
        let (at, row) = match row {
            Ok(r) => r,
            Err(p) => {
                problems.push(p);
                continue;
            }
        };
        match row.valid() {
            Ok(()) => {
                // Points share their curve's key; the curve's own origin wins.
                read.origins
                    .entry((T::KIND, row.key()))
                    .or_insert_with(|| (file.to_owned(), at.clone()));
                out.push(row);
            }
            Err((field, problem)) => problems.push(ImportProblem::new(file, at, field, problem)),
        }
    }
}

/// Numbers the points of each curve in order of speed.
fn number_points(points: &mut [PointRow]) {
    points.sort_by(|a, b| a.curve.cmp(&b.curve).then(a.tps.total_cmp(&b.tps)));
    let mut last = String::new();
    let mut idx = 0;
    for p in points.iter_mut() {
        if p.curve != last {
            last.clone_from(&p.curve);
            idx = 0;
        }
        p.idx = idx;
        idx += 1;
    }
}

/// Reads servecost's JSON format.
pub fn json(file: &str, text: &str, read: &mut Read) -> Result<(), Vec<ImportProblem>> {
    // serde_path_to_error names the field of a type error (`price_tiers[3].usd_per_gpu_hour`),
    // which serde_json alone gives only as a line and column.
    let mut de = serde_json::Deserializer::from_str(text);
    let doc: Document = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        vec![ImportProblem::new(
            file,
            format!("line {}, column {}", inner.line(), inner.column()),
            if path == "." { "" } else { &path },
            inner.to_string(),
        )]
    })?;
    let mut problems = Vec::new();
    let at = |kind: &str, i: usize| format!("{kind}[{i}]");
    macro_rules! each {
        ($field:ident, $name:literal, $out:ident) => {{
            let rows = doc
                .$field
                .into_iter()
                .enumerate()
                .map(|(i, r)| Ok((at($name, i), r)))
                .collect();
            let mut out = std::mem::take(&mut read.rows.$out);
            take(file, rows, read, &mut out, &mut problems);
            read.rows.$out = out;
        }};
    }
    each!(sources, "sources", sources);
    each!(models, "models", models);
    each!(model_weights, "model_weights", weights);
    each!(chips, "chips", chips);
    each!(price_tiers, "price_tiers", tiers);
    each!(api_offers, "api_offers", offers);
    each!(curves, "curves", curves);
    each!(curve_points, "curve_points", points);
    each!(headlines, "headlines", headlines);
    number_points(&mut read.rows.points);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

fn rows_of<T: DeserializeOwned>(
    file: &str,
    reader: &mut csv::Reader<&[u8]>,
    headers: &csv::StringRecord,
) -> Vec<Result<(String, T), ImportProblem>> {
    let mut out = Vec::new();
    for record in reader.records() {
        match record {
            Err(e) => {
                let at = e
                    .position()
                    .map_or_else(String::new, |p| format!("line {}", p.line()));
                out.push(Err(ImportProblem::new(file, at, "", e.to_string())));
            }
            Ok(record) => {
                let at = record
                    .position()
                    .map_or_else(String::new, |p| format!("line {}", p.line()));
                match record.deserialize::<T>(Some(headers)) {
                    Ok(row) => out.push(Ok((at, row))),
                    Err(e) => {
                        let field = match e.kind() {
                            csv::ErrorKind::Deserialize { err, .. } => err
                                .field()
                                .and_then(|i| headers.get(usize::try_from(i).ok()?))
                                .unwrap_or_default()
                                .to_owned(),
                            _ => String::new(),
                        };
                        let message = match e.kind() {
                            csv::ErrorKind::Deserialize { err, .. } => err.to_string(),
                            _ => e.to_string(),
                        };
                        out.push(Err(ImportProblem {
                            file: file.to_owned(),
                            at,
                            field,
                            problem: message,
                        }));
                    }
                }
            }
        }
    }
    out
}

/// Reads one of servecost's CSV tables, recognised by its header.
pub fn csv(file: &str, text: &str, read: &mut Read) -> Result<(), Vec<ImportProblem>> {
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| vec![ImportProblem::new(file, "line 1", "", e.to_string())])?
        .clone();
    let columns: Vec<&str> = headers.iter().collect();
    let fits: Vec<&str> = KINDS
        .iter()
        .filter(|(_, required, optional)| {
            required.iter().all(|c| columns.contains(c))
                && columns
                    .iter()
                    .all(|c| required.contains(c) || optional.contains(c))
        })
        .map(|(name, _, _)| *name)
        .collect();
    let kind = match fits.as_slice() {
        [one] => *one,
        _ => {
            let expected: Vec<String> = KINDS
                .iter()
                .map(|(name, required, optional)| {
                    format!(
                        "{name}: {} [optional: {}]",
                        required.join(","),
                        optional.join(",")
                    )
                })
                .collect();
            return Err(vec![ImportProblem::new(
                file,
                "line 1",
                "",
                format!(
                    "the header `{}` is not that of a servecost table; the tables and their \
                     columns are: {}",
                    columns.join(","),
                    expected.join("; ")
                ),
            )]);
        }
    };
    let mut problems = Vec::new();
    macro_rules! table {
        ($ty:ty, $out:ident) => {{
            let rows = rows_of::<$ty>(file, &mut reader, &headers);
            let mut out = std::mem::take(&mut read.rows.$out);
            take(file, rows, read, &mut out, &mut problems);
            read.rows.$out = out;
        }};
    }
    match kind {
        "sources" => table!(SourceRow, sources),
        "models" => table!(ModelRow, models),
        "model_weights" => table!(WeightsRow, weights),
        "chips" => table!(ChipRow, chips),
        "price_tiers" => table!(TierRow, tiers),
        "api_offers" => table!(OfferRow, offers),
        "curves" => table!(CurveRow, curves),
        "curve_points" => table!(PointRow, points),
        _ => table!(HeadlineRow, headlines),
    }
    number_points(&mut read.rows.points);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}
