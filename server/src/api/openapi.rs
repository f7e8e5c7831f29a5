//! `GET /api/v1/openapi.json`: the OpenAPI 3 document, generated from the handlers' annotations
//! and the engine's types (utoipa), with the scenario parameters taken from the codec's own
//! table, so the document cannot drift from what the server accepts.

use axum::Json;
use servecost::codec::{NumSpec, NUMBERS, OTHERS};
use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::{OpenApi as Document, Required};
use utoipa::{Modify, OpenApi};

use crate::api::{dataset, evaluate, export, oembed, scenarios};

/// The document.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "servecost API",
        description = "Self-host an open-weight model or rent it per token: the calculator's \
                       computation as JSON. Every number in a report comes from the dataset, whose \
                       rows cite their sources (`GET /api/v1/dataset`). The scenario query is the \
                       calculator page's own: a link's query string works unchanged here."
    ),
    paths(
        evaluate::evaluate,
        scenarios::create,
        scenarios::get,
        dataset::dataset,
        export::csv,
        export::chart,
        oembed::oembed,
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
pub const SCENARIO_PATHS: [&str; 3] = [
    "/api/v1/evaluate",
    "/api/v1/export.csv",
    "/api/v1/charts/{file}",
];

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
    OTHERS
        .iter()
        .map(|(name, accepted)| other(name, accepted))
        .chain(NUMBERS.iter().map(number))
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

/// The document, built once.
pub fn document() -> &'static Document {
    static DOC: std::sync::OnceLock<Document> = std::sync::OnceLock::new();
    DOC.get_or_init(ApiDoc::openapi)
}

/// Serves the document.
pub async fn openapi() -> Json<&'static Document> {
    Json(document())
}
