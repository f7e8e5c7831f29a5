//! simonw/llm-prices' vendor files (`data/<vendor>.json`): `{"vendor", "models": [{"id", "name",
//! "price_history": [{"input", "output", "input_cached", "from_date", "to_date"}]}]}`, prices in
//! $ per million tokens. A model's current price is the entry without `to_date` (the latest
//! `from_date` when several); its earlier prices go in the offer's note. The entries then match
//! dataset models as LiteLLM's do ([`super::litellm::offers`]).

use serde_json::Value;

use super::litellm::{Entry, Table};
use super::{ImportProblem, Read};

/// True for an object with a `vendor` and `models` that carry a `price_history`.
pub fn is_vendor_file(value: &Value) -> bool {
    value.get("vendor").is_some_and(Value::is_string)
        && value
            .get("models")
            .and_then(Value::as_array)
            .is_some_and(|m| m.iter().any(|m| m.get("price_history").is_some()))
}

/// One dated price as the file gives it, $ per million tokens.
struct Dated {
    input: f64,
    output: f64,
    cached: Option<f64>,
    from: Option<String>,
    to: Option<String>,
}

/// Reads a vendor file's current prices into `read`; a price that is not one is a problem
/// naming its path in the file.
pub fn read(file: &str, value: &Value, read: &mut Read) -> Result<(), Vec<ImportProblem>> {
    let short = super::file_name(file);
    let vendor = value
        .get("vendor")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let models = value
        .get("models")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut problems = Vec::new();
    for (i, model) in models.iter().enumerate() {
        let id = model.get("id").and_then(Value::as_str).unwrap_or_default();
        let history = model
            .get("price_history")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let mut dated = Vec::new();
        for (j, h) in history.iter().enumerate() {
            let at = format!("models[{i}].price_history[{j}]");
            let number = |field: &str| -> Result<Option<f64>, ImportProblem> {
                match h.get(field) {
                    None | Some(Value::Null) => Ok(None),
                    Some(v) => match v.as_f64() {
                        Some(n) if (0.0..1_000.0).contains(&n) => Ok(Some(n)),
                        _ => Err(ImportProblem::new(
                            file,
                            &at,
                            field,
                            format!(
                                "{v} is not a price: $ per million tokens, from 0 to below 1,000"
                            ),
                        )),
                    },
                }
            };
            let date = |field: &str| h.get(field).and_then(Value::as_str).map(str::to_owned);
            match (number("input"), number("output"), number("input_cached")) {
                (Ok(Some(input)), Ok(Some(output)), Ok(cached)) => {
                    if let Some(c) = cached.filter(|c| *c > input) {
                        problems.push(ImportProblem::new(
                            file,
                            &at,
                            "input_cached",
                            format!("{c} is above the uncached input price {input}"),
                        ));
                        continue;
                    }
                    dated.push(Dated {
                        input,
                        output,
                        cached,
                        from: date("from_date"),
                        to: date("to_date"),
                    });
                }
                (Ok(None), ..) | (_, Ok(None), _) => problems.push(ImportProblem::new(
                    file,
                    &at,
                    "input",
                    "an entry needs both an input and an output price",
                )),
                (a, b, c) => {
                    problems.extend(a.err());
                    problems.extend(b.err());
                    problems.extend(c.err());
                }
            }
        }
        // The current price: no end date, the latest start.
        let Some(now) = dated
            .iter()
            .filter(|d| d.to.is_none())
            .max_by(|a, b| a.from.cmp(&b.from))
        else {
            continue;
        };
        let per_mtok = servecost::format::per_mtok;
        let mut note = match &now.from {
            Some(from) => format!(" Price from {from}."),
            None => String::new(),
        };
        for d in dated.iter().filter(|d| d.to.is_some()) {
            note.push_str(&format!(
                " Earlier {} in / {} out per million, until {}.",
                per_mtok(d.input),
                per_mtok(d.output),
                d.to.as_deref().unwrap_or_default()
            ));
        }
        read.prices.push(Entry {
            table: Table::LlmPrices,
            history: Some(note),
            file: short.clone(),
            name: format!("{vendor}/{id}"),
            provider: Some(vendor.clone()),
            input: now.input / 1e6,
            output: now.output / 1e6,
            cached: now.cached.map(|c| c / 1e6),
            batch: None,
        });
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}
