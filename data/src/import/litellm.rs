//! LiteLLM-style price tables: one JSON object whose entries map a model name to its prices per
//! token (`input_cost_per_token`, `output_cost_per_token`, and optionally
//! `cache_read_input_token_cost`). They import as API offers, in $ per million tokens, with the
//! cache discount `1 - cached / input`.
//!
//! An entry becomes an offer of a dataset model when its name, without a `provider/` prefix,
//! is the model's id or name (case and punctuation aside), or when `--model` names the model
//! (then every entry of the file is an offer of that model). Other entries are counted and
//! left out.

use crate::rows::Rows;
use crate::rows::{Keyed, OfferRow, SourceRow};
use serde_json::Value;

use super::{ImportProblem, Options, Read};

/// The kind of table an entry came from: it names the offer's id and source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Table {
    /// A LiteLLM-style map of model names to prices per token.
    LiteLlm,
    /// simonw/llm-prices' vendor files (`data/*.json`), with a dated price history.
    LlmPrices,
    /// pydantic/genai-prices' `data.json`: providers and their models' prices.
    GenaiPrices,
}

impl Table {
    /// The prefix of its offers' ids and source keys.
    fn prefix(self) -> &'static str {
        match self {
            Table::LiteLlm => "litellm",
            Table::LlmPrices => "llm-prices",
            Table::GenaiPrices => "genai-prices",
        }
    }

    /// Its source row's publisher.
    fn publisher(self) -> &'static str {
        match self {
            Table::LiteLlm => "LiteLLM-style price table",
            Table::LlmPrices => "llm-prices vendor price file",
            Table::GenaiPrices => "genai-prices price data",
        }
    }
}

/// A price entry.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The table it came from.
    pub table: Table,
    /// What the table says beyond the prices (an earlier price, the date this one holds from).
    pub history: Option<String>,
    /// The file (its name only).
    pub file: String,
    /// The entry's name in the table.
    pub name: String,
    /// The provider, when given.
    pub provider: Option<String>,
    /// $ per token.
    pub input: f64,
    /// $ per token.
    pub output: f64,
    /// $ per cached input token, when given.
    pub cached: Option<f64>,
    /// $ per input and per output token of batch traffic, when given.
    pub batch: Option<(f64, f64)>,
}

/// True for an object with at least one entry carrying `input_cost_per_token`.
pub fn is_price_table(value: &Value) -> bool {
    value
        .as_object()
        .is_some_and(|o| o.values().any(|v| v.get("input_cost_per_token").is_some()))
}

/// Reads the entries; an entry without both prices (e.g. an image model), and the table's
/// `sample_spec`, are left out.
pub fn read(file: &str, value: &Value, read: &mut Read) -> Result<(), Vec<ImportProblem>> {
    let short = super::file_name(file);
    let mut problems = Vec::new();
    let Some(table) = value.as_object() else {
        return Ok(());
    };
    for (name, entry) in table {
        // LiteLLM's table opens with `sample_spec`, the schema of an entry (priced at 0), not a
        // listing.
        if name == "sample_spec" {
            continue;
        }
        let (Some(input), Some(output)) = (
            entry.get("input_cost_per_token"),
            entry.get("output_cost_per_token"),
        ) else {
            continue;
        };
        let number = |field: &str, v: &Value| -> Result<f64, ImportProblem> {
            match v.as_f64() {
                Some(n) if (0.0..1.0).contains(&n) => Ok(n),
                _ => Err(ImportProblem::new(
                    file,
                    format!("entry {name:?}"),
                    field,
                    format!("{v} is not a price per token: a number from 0 to below 1 ($)"),
                )),
            }
        };
        let parsed = (
            number("input_cost_per_token", input),
            number("output_cost_per_token", output),
            entry
                .get("cache_read_input_token_cost")
                .filter(|v| !v.is_null())
                .map(|v| number("cache_read_input_token_cost", v))
                .transpose(),
        );
        let batch = [
            "input_cost_per_token_batches",
            "output_cost_per_token_batches",
        ]
        .map(|f| {
            entry
                .get(f)
                .filter(|v| !v.is_null())
                .map(|v| number(f, v))
                .transpose()
        });
        let batch = match batch {
            [Ok(Some(i)), Ok(Some(o))] => Ok(Some((i, o))),
            [Ok(_), Ok(_)] => Ok(None),
            [a, b] => Err([a.err(), b.err()]),
        };
        let batch = match batch {
            Ok(b) => b,
            Err(errors) => {
                problems.extend(errors.into_iter().flatten());
                continue;
            }
        };
        match parsed {
            (Ok(input), Ok(output), Ok(cached)) => {
                if let Some((field, b, full)) = batch.and_then(|(i, o)| {
                    [
                        ("input_cost_per_token_batches", i, input),
                        ("output_cost_per_token_batches", o, output),
                    ]
                    .into_iter()
                    .find(|(_, b, full)| b > full)
                }) {
                    problems.push(ImportProblem::new(
                        file,
                        format!("entry {name:?}"),
                        field,
                        format!(
                            "{b} is above the price of the same tokens outside batches, {full}"
                        ),
                    ));
                    continue;
                }
                if let Some(c) = cached.filter(|c| *c > input) {
                    problems.push(ImportProblem::new(
                        file,
                        format!("entry {name:?}"),
                        "cache_read_input_token_cost",
                        format!("{c} is above the uncached input price {input}"),
                    ));
                    continue;
                }
                read.prices.push(Entry {
                    table: Table::LiteLlm,
                    history: None,
                    file: short.clone(),
                    name: name.clone(),
                    provider: entry
                        .get("litellm_provider")
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                    input,
                    output,
                    cached,
                    batch,
                });
            }
            (a, b, c) => {
                problems.extend(a.err());
                problems.extend(b.err());
                problems.extend(c.err());
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// Letters and digits only, lower case: how names are compared.
fn plain(text: &str) -> String {
    text.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The model of `models` (id, name) a table or benchmark calls `name`: its id or its name,
/// case and punctuation aside.
pub fn named(models: &[(String, String)], name: &str) -> Option<String> {
    let wanted = plain(name);
    models
        .iter()
        .find(|(id, model)| plain(id) == wanted || plain(model) == wanted)
        .map(|(id, _)| id.clone())
}

/// `1 - part / whole`, to nine decimals (0 for a free whole).
fn discount(part: f64, whole: f64) -> f64 {
    if whole > 0.0 {
        ((1.0 - part / whole) * 1e9).round() / 1e9
    } else {
        0.0
    }
}

/// The batch discount of an entry's batch prices: one per offer, so where the input's and the
/// output's differ the smaller is kept (what batch saves at least), and the note says so.
fn batch_discount(e: &Entry) -> Option<(f64, String)> {
    let (bi, bo) = e.batch?;
    let (di, dout) = (discount(bi, e.input), discount(bo, e.output));
    let pct = servecost::format::percent;
    let note = if (di - dout).abs() < 1e-6 {
        format!(" Batch traffic at {} off.", pct(di))
    } else {
        format!(
            " Batch input at {} off and output at {} off: priced at the smaller discount.",
            pct(di),
            pct(dout)
        )
    };
    Some((di.min(dout), note))
}

/// Entry `e`'s prices as an API offer of `model`, per million tokens, its cache discount from
/// its cached-input price (stated only when the table gives one) and its batch discount from
/// its batch prices.
fn offer(e: &Entry, id: String, model: String, source: String) -> OfferRow {
    let per_million = |v: f64| (v * 1e6 * 1e9).round() / 1e9;
    // Tables write a cached-input price of 0 where they do not know it (a paid input price
    // with free cached input is not an offer anyone makes).
    let placeholder = e.cached == Some(0.0) && e.input > 0.0;
    let cached = e.cached.filter(|_| !placeholder);
    let discount = cached.map_or(0.0, |c| discount(c, e.input));
    let batch = batch_discount(e);
    OfferRow {
        id,
        model,
        // The provider and its listing's own name (`Fireworks AI: gpt-oss-120b`): the table's
        // key, with its routing prefixes, is the offer's id.
        name: match &e.provider {
            Some(p) => format!(
                "{}: {}",
                provider_name(p),
                e.name.rsplit('/').next().unwrap_or(&e.name)
            ),
            None => format!("{} (list price)", e.name),
        },
        price_in: per_million(e.input),
        price_out: per_million(e.output),
        cache_discount: discount,
        // The table states a cache discount only when it gives a cached-input price.
        cache_discount_stated: cached.is_some(),
        markup: 0.0,
        speed_tps: None,
        source,
        note: Some(
            match cached {
                Some(c) => format!(
                    "Cached input at {} per million ({} off).",
                    servecost::format::per_mtok(c * 1e6),
                    servecost::format::percent(discount)
                ),
                None if placeholder => "The table gives 0 as the cached-input price, which \
                                        tables write where they do not know it: no cache \
                                        discount is assumed."
                    .into(),
                None => {
                    "The table gives no cached-input price: no cache discount is assumed.".into()
                }
            } + batch.as_ref().map_or("", |(_, n)| n.as_str())
                + e.history.as_deref().unwrap_or(""),
        ),
        batch_discount: batch.map(|(d, _)| d),
        provider: e.provider.as_deref().map(provider_name),
    }
}

/// Turns the entries into API offers of dataset models.
pub fn offers(
    current: &Rows,
    opts: &Options,
    read: &mut Read,
    notes: &mut Vec<String>,
) -> Result<(), Vec<ImportProblem>> {
    if read.prices.is_empty() {
        return Ok(());
    }
    let models = super::model_names(current, read);
    // The table's date when the command gives it (`--date`), else today's.
    let today = opts.date.clone().unwrap_or_else(crate::clock::today);
    let mut skipped = 0usize;
    let mut files = Vec::new();
    let mut ids: std::collections::BTreeSet<String> =
        read.rows.offers.iter().map(|o| o.id.clone()).collect();
    for e in std::mem::take(&mut read.prices) {
        let bare = e.name.rsplit('/').next().unwrap_or(&e.name);
        let model = match &opts.model {
            Some(m) => Some(m.clone()),
            None => named(&models, bare),
        };
        let Some(model) = model else {
            skipped += 1;
            continue;
        };
        let prefix = e.table.prefix();
        let source = super::id(&format!("{prefix}-{}", e.file.trim_end_matches(".json")));
        if !files.contains(&e.file) {
            files.push(e.file.clone());
            read.rows.sources.push(SourceRow {
                key: source.clone(),
                publisher: e.table.publisher().into(),
                title: e.file.clone(),
                url: None,
                date: today.clone(),
                // A third party's list of the providers' prices, not a seller measuring itself.
                trust: "independent".into(),
                caveat: Some(format!(
                    "List prices as the table gives them on {today}; they change without \
                     notice: check the provider's page."
                )),
            });
        }
        let mut id = super::id(&format!("{prefix}-{}", e.name));
        // Two entries whose names differ only in case or punctuation (`BAAI/…` and `baai/…`)
        // are two listings: the later one's id ends in a hash of its name as written.
        if !ids.insert(id.clone()) {
            id = super::id(&format!("{id}-{}", super::hash(&e.name)));
            ids.insert(id.clone());
        }
        read.origins
            .entry((OfferRow::KIND, id.clone()))
            .or_insert_with(|| (e.file.clone(), format!("entry {:?}", e.name)));
        read.rows.offers.push(offer(&e, id, model, source));
    }
    if skipped > 0 {
        notes.push(format!(
            "{skipped} price entries left out: no dataset model has their name (give --model to \
             import a file's entries as offers of one model)"
        ));
    }
    Ok(())
}

/// The listing an offer of a price table is: (model, provider, the listing's name as compared),
/// `None` for an offer of no table or of no stated provider.
fn listing(o: &OfferRow) -> Option<(String, String, String)> {
    let tables = [Table::LiteLlm, Table::LlmPrices, Table::GenaiPrices];
    if !tables.iter().any(|t| {
        o.id.strip_prefix(t.prefix())
            .is_some_and(|r| r.starts_with('-'))
    }) {
        return None;
    }
    let provider = o.provider.as_ref()?;
    let bare = o.name.strip_prefix(&format!("{provider}: "))?;
    Some((o.model.clone(), provider.clone(), plain(bare)))
}

/// Where an offer's note says where other tables disagree: these sentences end every note
/// that has them, and are written anew at each import.
const DISAGREE: &str = " Sources disagree: ";

/// Where two price tables list one listing (model, provider and name) at different prices,
/// each offer's note names the other's prices and table; both are kept. Worked out across the
/// whole dataset once the import is read, so a table imported in another run than the other is
/// compared too: an offer already in the dataset whose note changes is written again, with its
/// new note, in this revision. Notes are made from the offers' own figures, so importing the
/// same tables again changes nothing.
pub fn disagreements(current: &Rows, read: &mut Read) {
    use std::collections::{BTreeMap, BTreeSet};
    if !read.rows.offers.iter().any(|o| listing(o).is_some()) {
        return;
    }
    let prices = |o: &OfferRow| {
        let per_mtok = servecost::format::per_mtok;
        let cached = if o.cache_discount_stated {
            format!("{} cached", per_mtok(o.price_in * (1.0 - o.cache_discount)))
        } else {
            "no cached price".to_owned()
        };
        format!(
            "{} in, {} out, {cached} per million",
            per_mtok(o.price_in),
            per_mtok(o.price_out)
        )
    };
    let same = |a: &OfferRow, b: &OfferRow| {
        a.price_in == b.price_in
            && a.price_out == b.price_out
            && a.cache_discount_stated == b.cache_discount_stated
            && (!a.cache_discount_stated || (a.cache_discount - b.cache_discount).abs() < 1e-6)
    };
    // A table as people name it: its publisher and date (the import's rows over the dataset's).
    let mut tables: BTreeMap<&str, String> = BTreeMap::new();
    for s in current.sources.iter().chain(&read.rows.sources) {
        tables.insert(&s.key, format!("the {} of {}", s.publisher, s.date));
    }
    let table = |key: &str| tables.get(key).cloned().unwrap_or_else(|| key.to_owned());
    // Every offer in force once the import is written: the dataset's (those the import does
    // not replace), then the import's, each in its order; by (from the import, index).
    let incoming: BTreeSet<&str> = read.rows.offers.iter().map(|o| o.id.as_str()).collect();
    let all: Vec<(bool, usize)> = (current.offers.iter().enumerate())
        .filter(|(_, o)| !incoming.contains(o.id.as_str()))
        .map(|(k, _)| (false, k))
        .chain((0..read.rows.offers.len()).map(|k| (true, k)))
        .collect();
    let offer = |(from_import, k): (bool, usize)| {
        if from_import {
            &read.rows.offers[k]
        } else {
            &current.offers[k]
        }
    };
    let mut groups: BTreeMap<(String, String, String), Vec<(bool, usize)>> = BTreeMap::new();
    for &at in &all {
        if let Some(l) = listing(offer(at)) {
            groups.entry(l).or_default().push(at);
        }
    }
    // Each offer whose note changes, with its new note.
    let mut changed: Vec<((bool, usize), Option<String>)> = Vec::new();
    for members in groups.values().filter(|m| m.len() > 1) {
        for &at in members {
            let own = offer(at);
            let mut note = own.note.as_deref().map(|n| match n.find(DISAGREE) {
                Some(cut) => n[..cut].to_owned(),
                None => n.to_owned(),
            });
            // The other tables in the order of their sources, so a note does not change with
            // the order the tables were imported in.
            let mut others: Vec<(bool, usize)> = members.clone();
            others.sort_by(|a, b| {
                offer(*a)
                    .source
                    .cmp(&offer(*b).source)
                    .then(offer(*a).id.cmp(&offer(*b).id))
            });
            for &other_at in &others {
                let other = offer(other_at);
                if other_at == at || other.source == own.source || same(other, own) {
                    continue;
                }
                note.get_or_insert_with(String::new).push_str(&format!(
                    "{DISAGREE}{} lists {} for this listing.",
                    table(&other.source),
                    prices(other)
                ));
            }
            if note != own.note {
                changed.push((at, note));
            }
        }
    }
    drop(incoming);
    for ((from_import, k), note) in changed {
        if from_import {
            read.rows.offers[k].note = note;
        } else {
            let mut again = current.offers[k].clone();
            again.note = note;
            read.origins
                .entry((OfferRow::KIND, again.id.clone()))
                .or_insert_with(|| {
                    (
                        "dataset".to_owned(),
                        format!("offer {} (its note of another table's prices)", again.id),
                    )
                });
            read.rows.offers.push(again);
        }
    }
}

/// The providers the price tables name, each table with its own spelling: (spellings, name).
/// Offers of one model from one provider in two tables are compared by this name.
const PROVIDERS: &[(&[&str], &str)] = &[
    (&["together_ai", "together"], "Together AI"),
    (&["fireworks_ai", "fireworks"], "Fireworks AI"),
    (&["deepinfra"], "DeepInfra"),
    (&["groq"], "Groq"),
    (&["cerebras"], "Cerebras"),
    (&["openrouter"], "OpenRouter"),
    (&["nebius"], "Nebius"),
    (&["novita"], "Novita AI"),
    (&["sambanova"], "SambaNova"),
    (&["hyperbolic"], "Hyperbolic"),
    (&["lambda_ai", "lambda"], "Lambda"),
    (&["baseten"], "Baseten"),
    (&["azure_ai", "azure"], "Microsoft Azure"),
    (
        &["bedrock", "bedrock_converse", "bedrock_mantle", "aws"],
        "AWS Bedrock",
    ),
    (
        &[
            "vertex_ai-deepseek_models",
            "vertex_ai-openai_models",
            "vertex_ai-llama_models",
            "vertex_ai-zai_models",
            "google",
        ],
        "Google Vertex AI",
    ),
    (&["deepseek"], "DeepSeek"),
    (&["moonshot", "moonshotai", "moonshot ai"], "Moonshot AI"),
    (&["minimax"], "MiniMax"),
    (&["zai", "zhipuai"], "Z.ai"),
    (&["ovhcloud"], "OVHcloud"),
    (&["scaleway"], "Scaleway"),
    (&["crusoe"], "Crusoe"),
    (&["replicate"], "Replicate"),
    (&["snowflake"], "Snowflake"),
    (&["databricks"], "Databricks"),
    (&["cloudflare"], "Cloudflare"),
    (&["watsonx"], "IBM watsonx"),
    (&["perplexity"], "Perplexity"),
    (&["nscale"], "Nscale"),
    (&["friendliai"], "FriendliAI"),
    (&["avian"], "Avian"),
    (&["doubleword"], "Doubleword"),
    (&["tensormesh"], "Tensormesh"),
    (&["vercel_ai_gateway"], "Vercel AI Gateway"),
    (&["oci"], "Oracle Cloud (OCI)"),
    (&["llamagate"], "LlamaGate"),
    (&["anyscale"], "Anyscale"),
    (&["openai"], "OpenAI"),
    (&["qwen", "alibaba"], "Alibaba Cloud (Qwen)"),
    (&["meta", "meta ai"], "Meta"),
];

/// A provider's one spelling: `huggingface_nebius` is Nebius sold through Hugging Face; a
/// spelling no table shares is kept as written.
pub fn provider_name(spelling: &str) -> String {
    let lower = spelling.trim().to_ascii_lowercase();
    if let Some(rest) = lower.strip_prefix("huggingface_") {
        return format!("{} via Hugging Face", provider_name(rest));
    }
    PROVIDERS
        .iter()
        .find(|(spellings, _)| spellings.contains(&lower.as_str()))
        .map_or_else(
            || spelling.trim().to_owned(),
            |(_, name)| (*name).to_owned(),
        )
}
