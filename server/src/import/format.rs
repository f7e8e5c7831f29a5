//! The formats `import` reads, each recognised by its content: servecost's own CSV (by its
//! extension) and JSON, InferenceX result rows and raw benchmark output, LiteLLM-style price
//! tables. A new format is a reader module and one entry in [`JSON_FORMATS`].

use super::fetch::Incoming;
use super::{inferencex, litellm, native, ImportProblem, Options, Read};

/// A file format `import` reads.
pub trait Format: Sync {
    /// What it is, as the message for an unknown file lists it.
    fn name(&self) -> &'static str;
    /// Whether a JSON document is in this format.
    fn recognises(&self, value: &serde_json::Value) -> bool;
    /// Reads the document into `read`.
    fn read(
        &self,
        file: &Incoming,
        value: &serde_json::Value,
        opts: &Options,
        read: &mut Read,
    ) -> Result<(), Vec<ImportProblem>>;
}

/// servecost's own JSON: tables by name.
struct NativeJson;
/// An InferenceX `agg_*.json` result row.
struct InferenceXAgg;
/// Raw InferenceX benchmark client output.
struct InferenceXRaw;
/// A LiteLLM-style price table.
struct LiteLlm;

impl Format for NativeJson {
    fn name(&self) -> &'static str {
        "servecost's JSON (sources, models, chips, price_tiers, api_offers, curves, curve_points…)"
    }
    fn recognises(&self, value: &serde_json::Value) -> bool {
        native::is_native(value)
    }
    fn read(
        &self,
        file: &Incoming,
        _: &serde_json::Value,
        _: &Options,
        read: &mut Read,
    ) -> Result<(), Vec<ImportProblem>> {
        native::json(&file.name, &file.text, read)
    }
}

impl Format for InferenceXAgg {
    fn name(&self) -> &'static str {
        "an InferenceX agg_*.json row"
    }
    fn recognises(&self, value: &serde_json::Value) -> bool {
        inferencex::is_agg(value)
    }
    fn read(
        &self,
        file: &Incoming,
        value: &serde_json::Value,
        _: &Options,
        read: &mut Read,
    ) -> Result<(), Vec<ImportProblem>> {
        inferencex::agg(&file.name, value, read)
    }
}

impl Format for InferenceXRaw {
    fn name(&self) -> &'static str {
        "raw InferenceX benchmark output"
    }
    fn recognises(&self, value: &serde_json::Value) -> bool {
        inferencex::is_raw(value)
    }
    fn read(
        &self,
        file: &Incoming,
        value: &serde_json::Value,
        opts: &Options,
        read: &mut Read,
    ) -> Result<(), Vec<ImportProblem>> {
        inferencex::raw(&file.name, value, opts, read)
    }
}

impl Format for LiteLlm {
    fn name(&self) -> &'static str {
        "a LiteLLM-style price table"
    }
    fn recognises(&self, value: &serde_json::Value) -> bool {
        litellm::is_price_table(value)
    }
    fn read(
        &self,
        file: &Incoming,
        value: &serde_json::Value,
        _: &Options,
        read: &mut Read,
    ) -> Result<(), Vec<ImportProblem>> {
        litellm::read(&file.name, value, read)
    }
}

/// The JSON formats, tried in this order: the first that recognises a document reads it.
pub const JSON_FORMATS: &[&dyn Format] = &[&NativeJson, &InferenceXAgg, &InferenceXRaw, &LiteLlm];

/// Reads one file into `read` by its format: servecost's CSV by its extension, else the first
/// JSON format that recognises it.
pub fn read(file: &Incoming, opts: &Options, read: &mut Read) -> Result<(), Vec<ImportProblem>> {
    let is_csv = file
        .extension
        .as_deref()
        .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
    if is_csv {
        return native::csv(&file.name, &file.text, read);
    }
    let value: serde_json::Value = serde_json::from_str(&file.text).map_err(|e| {
        vec![ImportProblem::new(
            &file.name,
            format!("line {}, column {}", e.line(), e.column()),
            "",
            format!("not valid JSON: {e}"),
        )]
    })?;
    match JSON_FORMATS.iter().find(|f| f.recognises(&value)) {
        Some(format) => format.read(file, &value, opts, read),
        None => {
            let names: Vec<&str> = JSON_FORMATS.iter().map(|f| f.name()).collect();
            let (last, rest) = names.split_last().unwrap_or((&"", &[]));
            Err(vec![ImportProblem::new(
                &file.name,
                "",
                "",
                format!(
                    "not a format servecost imports: expected {}, or {last}",
                    rest.join(", ")
                ),
            )])
        }
    }
}
