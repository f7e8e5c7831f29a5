//! The formats `import` reads, each recognised by its content: servecost's own CSV (by its
//! extension) and JSON, a cloud's GPU rental table (a CSV with the catalogue's columns),
//! InferenceX result rows and raw benchmark output, LiteLLM-style price tables and llm-prices
//! vendor files. A new format is a reader module and one entry in [`JSON_FORMATS`].

use super::fetch::Incoming;
use super::{
    genai_prices, inferencex, litellm, llm_prices, mlperf, native, rental, runs, sizing,
    ImportProblem, Options, Read,
};

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

/// A JSON format: a unit type, what it is, how it is recognised and how it is read.
macro_rules! json_format {
    ($(#[$doc:meta])* $format:ident, $name:literal, $recognises:path,
     |$file:ident, $value:ident, $opts:ident, $read:ident| $body:expr) => {
        $(#[$doc])*
        struct $format;

        impl Format for $format {
            fn name(&self) -> &'static str {
                $name
            }
            fn recognises(&self, value: &serde_json::Value) -> bool {
                $recognises(value)
            }
            fn read(
                &self,
                $file: &Incoming,
                $value: &serde_json::Value,
                $opts: &Options,
                $read: &mut Read,
            ) -> Result<(), Vec<ImportProblem>> {
                $body
            }
        }
    };
}

json_format!(
    /// servecost's own JSON: tables by name.
    NativeJson,
    "servecost's JSON (sources, models, chips, price_tiers, api_offers, curves, curve_points…)",
    native::is_native,
    |file, _value, _opts, read| native::json(&file.name, &file.text, read)
);
json_format!(
    /// An InferenceX `agg_*.json` result row.
    InferenceXAgg,
    "an InferenceX agg_*.json row",
    inferencex::is_agg,
    |file, value, _opts, read| inferencex::agg(&file.name, value, read)
);
json_format!(
    /// Raw InferenceX benchmark client output.
    InferenceXRaw,
    "raw InferenceX benchmark output",
    inferencex::is_raw,
    |file, value, opts, read| inferencex::raw(&file.name, value, opts, read)
);
json_format!(
    /// A `together_runner` baseline of the InferenceX repository.
    TogetherRunner,
    "an InferenceX together_runner result",
    runs::is_together_runner,
    |file, value, _opts, read| runs::together_runner(&file.name, value, read)
);
json_format!(
    /// A `token_position_decode_slo` result of the InferenceX repository.
    DecodeSlo,
    "an InferenceX token_position_decode_slo result",
    runs::is_decode_slo,
    |file, value, opts, read| runs::decode_slo(&file.name, value, opts, read)
);
json_format!(
    /// A LiteLLM-style price table.
    LiteLlm,
    "a LiteLLM-style price table",
    litellm::is_price_table,
    |file, value, opts, read| skippable(opts, read, |read| litellm::read(&file.name, value, read))
);

json_format!(
    /// A vendor file of simonw/llm-prices.
    LlmPrices,
    "an llm-prices vendor file",
    llm_prices::is_vendor_file,
    |file, value, opts, read| skippable(opts, read, |read| llm_prices::read(&file.name, value, read))
);

json_format!(
    /// pydantic/genai-prices' `data.json`.
    GenaiPrices,
    "genai-prices data.json",
    genai_prices::is_price_data,
    |file, value, opts, read| {
        let day = opts.date.clone().unwrap_or_else(crate::clock::today);
        skippable(opts, read, |read| genai_prices::read(&file.name, value, &day, read))
    }
);

/// A price table read by `reader`, which reads every entry it can and names each one it
/// cannot: with `--skip-invalid` those are left out (listed in `read.left_out`) and the rest
/// kept; without it, any of them refuses the import.
fn skippable(
    opts: &Options,
    read: &mut Read,
    reader: impl FnOnce(&mut Read) -> Result<(), Vec<ImportProblem>>,
) -> Result<(), Vec<ImportProblem>> {
    match reader(read) {
        Err(problems) if opts.skip_invalid => {
            read.left_out.extend(problems);
            Ok(())
        }
        other => other,
    }
}

/// The JSON formats, tried in this order: the first that recognises a document reads it.
/// An llm-prices file comes first: servecost's own JSON also has `models`, but no `vendor`.
pub const JSON_FORMATS: &[&dyn Format] = &[
    &LlmPrices,
    &NativeJson,
    &InferenceXAgg,
    &InferenceXRaw,
    &TogetherRunner,
    &DecodeSlo,
    &LiteLlm,
    &GenaiPrices,
];

/// Reads one file into `read` by its format: servecost's CSV by its extension, else the first
/// JSON format that recognises it.
pub fn read(file: &Incoming, opts: &Options, read: &mut Read) -> Result<(), Vec<ImportProblem>> {
    let is_csv = file
        .extension
        .as_deref()
        .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
    if is_csv {
        if rental::is_rental_table(&file.text) {
            return rental::read(&file.name, &file.text, read);
        }
        if mlperf::is_summary(&file.text) {
            return mlperf::read(&file.name, &file.text, read);
        }
        if sizing::is_parallelism_table(&file.text) {
            return sizing::read(&file.name, &file.text, &mut read.configs);
        }
        return native::csv(&file.name, &file.text, read);
    }
    let value: serde_json::Value = super::json::parse(&file.text).map_err(|e| {
        vec![ImportProblem::new(
            &file.name,
            format!("line {}, column {}", e.line(), e.column()),
            "",
            if e.is_data() {
                // A key given twice, or a limit passed: said as it is, without the place
                // serde_json appends (given above).
                let text = e.to_string();
                text.split(" at line ").next().unwrap_or(&text).to_owned()
            } else {
                format!("not valid JSON: {e}")
            },
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
