//! `GET /api/v1/openapi.json`: the OpenAPI 3 document, generated from the handlers' annotations
//! and the engine's types (utoipa), with the scenario parameters taken from the codec's own
//! table, so the document cannot drift from what the server accepts.

use axum::Json;
use serde_json::{json, Value};
use servecost::codec::{spec, syntax, NumSpec, Param, FLAG_OFF, FLAG_ON, PARAMS, SCALING};
use servecost::workload::Preset;
use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::{OpenApi as Document, Required};
use utoipa::{Modify, OpenApi};

use crate::api::{dataset, evaluate, export, oembed, options, scenarios, usage};

/// The document.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "servecost API",
        description = "Self-host an open-weight model or rent it per token: the calculator's \
                       computation as JSON. Every number in a report comes from the dataset, whose \
                       rows cite their sources (`GET /api/v1/dataset`). The scenario query is the \
                       calculator page's own: a link's query string works unchanged here. Every \
                       scenario parameter is optional, and an empty value (`tps=`) means not given: \
                       the default applies, as on the page. A value that cannot be read is a 400; \
                       readable values that have no answer together (two workload forms, `tokens` \
                       without `mix`, `own=1` without `capex`, a mix of nothing, a point outside \
                       the curve's ranges, a replica too small for the weights) are a 422. A target faster \
                       than the curve is answered: see the report's `speed`."
    ),
    paths(
        evaluate::evaluate,
        options::options,
        options::options_csv,
        scenarios::create,
        scenarios::get,
        scenarios::csv,
        dataset::dataset,
        export::csv,
        export::chart,
        oembed::oembed,
        usage::read,
    ),
    tags(
        (name = "scenarios", description = "Evaluate and save scenarios"),
        (name = "exports", description = "The report as CSV, its charts as SVG"),
        (name = "data", description = "The dataset the figures come from"),
        (name = "embeds", description = "oEmbed for wikis and chat tools"),
    ),
    modifiers(&ScenarioQuery)
)]
pub struct ApiDoc;

/// Paths that take the calculator's scenario query.
pub const SCENARIO_PATHS: [&str; 5] = [
    "/api/v1/evaluate",
    "/api/v1/options",
    "/api/v1/options.csv",
    "/api/v1/export.csv",
    "/api/v1/charts/{file}",
];

/// Paths whose list is paged (besides `/api/v1/dataset`, which takes no scenario).
pub const PAGED_PATHS: [&str; 1] = ["/api/v1/options"];

/// `limit` and `cursor`, as [`crate::api::page`] reads them.
fn paging_parameters() -> Vec<Parameter> {
    let limit = ParameterBuilder::new()
        .name("limit")
        .parameter_in(ParameterIn::Query)
        .required(Required::False)
        .description(Some(format!(
            "Most rows of each list in one answer: a whole number from 1 to {} (default {}).",
            crate::api::page::MAX_LIMIT,
            crate::api::page::DEFAULT_LIMIT
        )))
        .schema(Some(ObjectBuilder::new().schema_type(Type::Integer)))
        .build();
    let cursor = ParameterBuilder::new()
        .name("cursor")
        .parameter_in(ParameterIn::Query)
        .required(Required::False)
        .description(Some(
            "Where the page starts: the `next_cursor` of the page before (absent: the first)."
                .to_owned(),
        ))
        .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
        .build();
    vec![limit, cursor]
}

/// The exact schema of a paging parameter, or `None` for another.
fn paging_schema(name: &str) -> Option<Value> {
    match name {
        "limit" => Some(json!({ "anyOf": [
            { "type": "integer", "minimum": 1, "maximum": crate::api::page::MAX_LIMIT },
            empty(),
        ] })),
        "cursor" => Some(json!({ "anyOf": [
            { "type": "string", "pattern": crate::api::page::CURSOR_SYNTAX },
            empty(),
        ] })),
        _ => None,
    }
}

/// Adds every scenario parameter, with its unit and accepted range, to the paths that take one,
/// and the chart names to the chart path.
struct ScenarioQuery;

fn number(spec: &NumSpec) -> Parameter {
    let mut forms = Vec::new();
    if spec.suffixes {
        forms.push("k, M, B and T suffixes (27k, 10B)");
    }
    if spec.percent {
        forms.push("a trailing % (97%)");
    }
    if spec.whole {
        forms.push("whole numbers only");
    }
    let forms = if forms.is_empty() {
        String::new()
    } else {
        format!("; {}", forms.join(", "))
    };
    let description = format!(
        "{} ({}): {}{forms}.",
        spec.label,
        spec.unit,
        spec.range_text()
    );
    // Suffixed and percent forms are text; plain numbers carry their range in the schema.
    let schema = if spec.suffixes || spec.percent {
        ObjectBuilder::new().schema_type(Type::String)
    } else {
        ObjectBuilder::new()
            .schema_type(if spec.whole {
                Type::Integer
            } else {
                Type::Number
            })
            .minimum(Some(spec.min))
            .maximum(Some(spec.max))
    };
    ParameterBuilder::new()
        .name(spec.name)
        .parameter_in(ParameterIn::Query)
        .required(Required::False)
        .description(Some(description))
        .schema(Some(schema))
        .build()
}

fn other(name: &str, accepted: &str) -> Parameter {
    ParameterBuilder::new()
        .name(name)
        .parameter_in(ParameterIn::Query)
        .required(Required::False)
        .description(Some(format!("Accepted: {accepted}.")))
        .schema(Some(ObjectBuilder::new().schema_type(Type::String)))
        .build()
}

/// Every parameter of the scenario query, in the codec's order.
pub fn scenario_parameters() -> Vec<Parameter> {
    PARAMS
        .iter()
        .map(|p| match p {
            Param::Number(spec) => number(spec),
            Param::Text(spec) => other(spec.name, spec.accepted),
        })
        .collect()
}

impl Modify for ScenarioQuery {
    fn modify(&self, doc: &mut Document) {
        for path in SCENARIO_PATHS {
            let Some(item) = doc.paths.paths.get_mut(path) else {
                continue;
            };
            let Some(op) = item.get.as_mut() else {
                continue;
            };
            let params = op.parameters.get_or_insert_with(Vec::new);
            if path == "/api/v1/charts/{file}" {
                for p in params.iter_mut().filter(|p| p.name == "file") {
                    let names = app::charts::NAMES.iter().map(|n| format!("{n}.svg"));
                    p.schema = Some(
                        ObjectBuilder::new()
                            .schema_type(Type::String)
                            .enum_values(Some(names))
                            .into(),
                    );
                }
            }
            params.extend(scenario_parameters());
            if PAGED_PATHS.contains(&path) {
                params.extend(paging_parameters());
            }
        }
        if let Some(op) = doc
            .paths
            .paths
            .get_mut("/api/v1/dataset")
            .and_then(|item| item.get.as_mut())
        {
            op.parameters
                .get_or_insert_with(Vec::new)
                .extend(paging_parameters());
        }
        if let Some(op) = doc
            .paths
            .paths
            .get_mut("/api/v1/scenarios")
            .and_then(|item| item.post.as_mut())
        {
            op.description = Some(format!(
                "Saves a scenario with a name ({} characters at most) and a note ({} at most), \
                 pinned to the newest dataset revision, and gives its short link. Saving identical \
                 content again returns the first save (200) instead of a new one (201). Bodies over \
                 {} KiB are refused, and so are more than {} saves a minute per client.",
                scenarios::NAME_MAX,
                scenarios::NOTE_MAX,
                crate::SAVE_LIMIT / 1024,
                crate::SAVES_PER_MINUTE
            ));
        }
    }
}

/// An empty value, which means "not given" (the default applies) wherever a parameter is read.
fn empty() -> Value {
    json!({ "type": "string", "maxLength": 0 })
}

/// The schema of a numeric parameter's value, from the codec's table: its range, with 0 beside
/// the smallest meaningful positive value where the range starts at 0, or an empty value.
/// Numbers are stated in plain form; the suffixed and percent forms the codec also reads are in
/// the description.
fn number_schema(spec: &NumSpec) -> Value {
    let ty = if spec.whole { "integer" } else { "number" };
    let range = if spec.min == 0.0 && spec.least > 0.0 {
        json!({ "anyOf": [
            { "type": ty, "const": 0 },
            { "type": ty, "minimum": spec.least, "maximum": spec.max },
        ] })
    } else {
        json!({ "type": ty, "minimum": spec.min, "maximum": spec.max })
    };
    json!({ "anyOf": [range, empty()] })
}

/// The schema of a text parameter, from the codec's tables: its words or its syntax, or an
/// empty value.
fn text_schema(name: &str) -> Value {
    let words = |list: Vec<&str>| {
        let mut list: Vec<Value> = list.into_iter().map(Value::from).collect();
        list.push(Value::from(""));
        json!({ "type": "string", "enum": list })
    };
    let pattern = |p: &str| json!({ "anyOf": [{ "type": "string", "pattern": p }, empty()] });
    match name {
        "v" => words(vec!["1"]),
        "workload" => words(Preset::ALL.iter().map(|p| p.key()).collect()),
        "scaling" => words(SCALING.to_vec()),
        "gpu_kind" => words(
            servecost::gpu_price::Commitment::ALL
                .iter()
                .map(|k| k.key())
                .collect(),
        ),
        "hybrid" | "own" => words(FLAG_ON.iter().chain(FLAG_OFF.iter()).copied().collect()),
        "mix" | "curve_mix" => pattern(syntax::MIX),
        "profile" => pattern(syntax::PROFILE),
        "points" => pattern(syntax::POINTS),
        "chip_name" => pattern(syntax::NAME),
        _ => pattern(syntax::ID),
    }
}

/// Writes the schemas of the scenario parameters and of oEmbed's into the document: the
/// constraints the server enforces, from the tables it enforces them with.
fn exact(doc: &mut Value) {
    for path in SCENARIO_PATHS {
        let Some(params) = doc["paths"][path]["get"]["parameters"].as_array_mut() else {
            continue;
        };
        for p in params.iter_mut().filter(|p| p["in"] == "query") {
            let name = p["name"].as_str().unwrap_or_default().to_owned();
            p["schema"] = match (spec(&name), paging_schema(&name)) {
                (_, Some(schema)) => schema,
                (Some(spec), None) => number_schema(spec),
                (None, None) => text_schema(&name),
            };
        }
    }
    if let Some(params) = doc["paths"]["/api/v1/dataset"]["get"]["parameters"].as_array_mut() {
        for p in params.iter_mut() {
            let name = p["name"].as_str().unwrap_or_default().to_owned();
            if let Some(schema) = paging_schema(&name) {
                p["schema"] = schema;
            }
        }
    }
    if let Some(params) = doc["paths"]["/oembed"]["get"]["parameters"].as_array_mut() {
        for p in params.iter_mut() {
            match p["name"].as_str().unwrap_or_default() {
                "url" => {
                    p["required"] = Value::Bool(true);
                    p["schema"] = json!({ "type": "string", "minLength": 1 });
                }
                "maxwidth" | "maxheight" => {
                    p["schema"] =
                        json!({ "anyOf": [{ "type": "integer", "minimum": 100 }, empty()] });
                }
                "format" => p["schema"] = json!({ "type": "string", "enum": ["json", ""] }),
                _ => {}
            }
        }
    }
}

/// The document, built once.
pub fn document() -> &'static Value {
    static DOC: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    DOC.get_or_init(|| {
        let mut doc = serde_json::to_value(ApiDoc::openapi()).unwrap_or(Value::Null);
        exact(&mut doc);
        doc
    })
}

/// The document as this server serves it: its public origin as the server, and a link to its
/// own calculator as the example of oEmbed's `url` (so a client generator or a fuzzer starts
/// from a link that answers).
pub fn served(origin: &str) -> Value {
    let mut doc = document().clone();
    doc["servers"] =
        json!([{ "url": origin, "description": "This server (SERVECOST_PUBLIC_URL)" }]);
    if let Some(params) = doc["paths"]["/oembed"]["get"]["parameters"].as_array_mut() {
        for p in params.iter_mut().filter(|p| p["name"] == "url") {
            p["example"] = Value::from(format!("{origin}/?requests=20M"));
        }
    }
    doc
}

/// Serves the document.
pub async fn openapi(
    axum::extract::State(state): axum::extract::State<crate::AppState>,
) -> Json<Value> {
    Json(served(&state.public_url))
}
