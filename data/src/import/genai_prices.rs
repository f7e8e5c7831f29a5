//! pydantic/genai-prices' `data.json`: an array of providers `{"id", "name", "models": [{"id",
//! "prices"}]}`, prices in $ per million tokens (`input_mtok`, `output_mtok`, `cache_read_mtok`,
//! `cache_write_mtok`). `prices` is one set, or a list of sets each under a `constraint`: a
//! `start_date` (a dated price change) or a time of day (an off-peak price). A price may be
//! tiered by context length, `{"base", "tiers": [{"start", "price"}]}`: the base is the price,
//! the tiers go in the note. The entries then match dataset models as LiteLLM's do
//! ([`super::litellm::offers`]).

use serde_json::Value;

use super::litellm::{Entry, Table};
use super::{ImportProblem, Read};

/// True for an array of providers that carry `models` with `prices`.
pub fn is_price_data(value: &Value) -> bool {
    value.as_array().is_some_and(|providers| {
        !providers.is_empty()
            && providers.iter().all(|p| {
                p.get("id").is_some_and(Value::is_string)
                    && p.get("models").is_some_and(Value::is_array)
            })
            && providers.iter().any(|p| {
                p["models"]
                    .as_array()
                    .is_some_and(|m| m.iter().any(|m| m.get("prices").is_some()))
            })
    })
}

/// One price set as the file gives it, $ per million tokens, with what its tiers say.
struct Set {
    input: Option<f64>,
    output: Option<f64>,
    cached: Option<f64>,
    cache_write: Option<f64>,
    tiers: String,
}

/// Reads one price: a number, or a tiered `{"base", "tiers"}` (its base; the tiers described
/// in `tiers`).
fn price(v: &Value, field: &str, tiers: &mut String) -> Result<Option<f64>, String> {
    let number = |v: &Value| {
        v.as_f64()
            .filter(|n| (0.0..1_000.0).contains(n))
            .ok_or_else(|| {
                format!("{v} is not a price: $ per million tokens, from 0 to below 1,000")
            })
    };
    match v {
        Value::Null => Ok(None),
        Value::Object(o) => {
            let base = number(o.get("base").unwrap_or(&Value::Null))?;
            for t in o
                .get("tiers")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let start = t.get("start").and_then(Value::as_f64).unwrap_or(0.0);
                let p = number(t.get("price").unwrap_or(&Value::Null))?;
                tiers.push_str(&format!(
                    " {field} {} per million above {} tokens of context.",
                    servecost::format::per_mtok(p),
                    servecost::format::thousands(start)
                ));
            }
            Ok(Some(base))
        }
        other => number(other).map(Some),
    }
}

fn set(prices: &Value) -> Result<Set, (String, String)> {
    let mut tiers = String::new();
    let mut get = |field: &str| {
        price(prices.get(field).unwrap_or(&Value::Null), field, &mut tiers)
            .map_err(|e| (field.to_owned(), e))
    };
    Ok(Set {
        input: get("input_mtok")?,
        output: get("output_mtok")?,
        cached: get("cache_read_mtok")?,
        cache_write: get("cache_write_mtok")?,
        tiers,
    })
}

/// Reads every model's price as of `day` (the table's date: the latest dated change not after
/// it; an off-peak price is named in the note, not used); a model without an input and an
/// output price (a free tier, an image model) is left out.
pub fn read(
    file: &str,
    value: &Value,
    day: &str,
    read: &mut Read,
) -> Result<(), Vec<ImportProblem>> {
    let short = super::file_name(file);
    let mut problems = Vec::new();
    for (i, provider) in value.as_array().into_iter().flatten().enumerate() {
        let pid = provider
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or_default();
        for (j, model) in provider["models"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            let at = format!("[{i}].models[{j}]");
            let id = model.get("id").and_then(Value::as_str).unwrap_or_default();
            let prices = model.get("prices").unwrap_or(&Value::Null);
            // (start date, set) for each set in force at some time; off-peak sets named only.
            let mut dated: Vec<(Option<String>, Set)> = Vec::new();
            let mut note = String::new();
            let listed: Vec<&Value> = match prices {
                Value::Array(list) => list.iter().collect(),
                other => vec![other],
            };
            for (k, entry) in listed.into_iter().enumerate() {
                let (constraint, body) = if entry.get("prices").is_some() {
                    (entry.get("constraint"), &entry["prices"])
                } else {
                    (None, entry)
                };
                let parsed = match set(body) {
                    Ok(s) => s,
                    Err((field, problem)) => {
                        let at = if matches!(prices, Value::Array(_)) {
                            format!("{at}.prices[{k}]")
                        } else {
                            format!("{at}.prices")
                        };
                        problems.push(ImportProblem::new(file, at, &field, problem));
                        continue;
                    }
                };
                match constraint.filter(|c| !c.is_null()) {
                    None => dated.push((None, parsed)),
                    Some(c) => match c.get("start_date").and_then(Value::as_str) {
                        Some(start) => dated.push((Some(start.to_owned()), parsed)),
                        None => {
                            if let (Some(i), Some(o)) = (parsed.input, parsed.output) {
                                let from = c.get("start_time").and_then(Value::as_str);
                                let to = c.get("end_time").and_then(Value::as_str);
                                note.push_str(&format!(
                                    " From {} to {} UTC: {} in / {} out per million (not used).",
                                    from.unwrap_or("?"),
                                    to.unwrap_or("?"),
                                    servecost::format::per_mtok(i),
                                    servecost::format::per_mtok(o)
                                ));
                            }
                        }
                    },
                }
            }
            // The set in force on `day`: the latest start not after it, else the undated one.
            let now = dated
                .iter()
                .filter(|(start, _)| start.as_deref().is_none_or(|s| s <= day))
                .max_by(|a, b| a.0.cmp(&b.0));
            let Some((start, now)) = now else { continue };
            let (Some(input), Some(output)) = (now.input, now.output) else {
                continue;
            };
            if let Some(c) = now.cached.filter(|c| *c > input) {
                problems.push(ImportProblem::new(
                    file,
                    &at,
                    "cache_read_mtok",
                    format!("{c} is above the uncached input price {input}"),
                ));
                continue;
            }
            if let Some(s) = start {
                note.insert_str(0, &format!(" Price from {s}."));
            }
            for (s, earlier) in dated.iter().filter(|(s, _)| s != start) {
                if let (Some(i), Some(o)) = (earlier.input, earlier.output) {
                    let when = match s {
                        Some(s) if s.as_str() > day => format!("from {s}, after the table's date"),
                        Some(s) => format!("from {s}"),
                        None => "before".to_owned(),
                    };
                    note.push_str(&format!(
                        " {} in / {} out per million {when}.",
                        servecost::format::per_mtok(i),
                        servecost::format::per_mtok(o)
                    ));
                }
            }
            if let Some(w) = now.cache_write {
                note.push_str(&format!(
                    " Cache writes at {} per million (priced here as uncached input).",
                    servecost::format::per_mtok(w)
                ));
            }
            note.push_str(&now.tiers);
            read.prices.push(Entry {
                table: Table::GenaiPrices,
                history: Some(note),
                file: short.clone(),
                name: format!("{pid}/{id}"),
                provider: Some(pid.to_owned()),
                input: input / 1e6,
                output: output / 1e6,
                cached: now.cached.map(|c| c / 1e6),
                batch: None,
            });
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}
