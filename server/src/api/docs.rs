//! `GET /api/v1/docs`: the OpenAPI document as a readable page, rendered on the server from the
//! same document `/api/v1/openapi.json` serves (no script, no assets fetched from elsewhere).

use std::fmt::Write;

use app::components::SiteNav;
use axum::response::Html;
use leptos::prelude::*;
use serde_json::{Map, Value};

use crate::api::escape;
use crate::api::openapi::document;

const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

/// Text escaped, with `code` spans.
fn inline(text: &str) -> String {
    escape(text)
        .split('`')
        .enumerate()
        .map(|(i, s)| {
            if i % 2 == 1 {
                format!("<code>{s}</code>")
            } else {
                s.to_owned()
            }
        })
        .collect()
}

/// Paragraphs (split on blank lines) of [`inline`] text.
fn prose(text: &str) -> String {
    text.split("\n\n")
        .filter(|p| !p.trim().is_empty())
        .map(|p| format!("<p>{}</p>", inline(p.trim())))
        .collect()
}

/// The text at `key` of a JSON object, or "".
fn text_at<'a>(value: &'a Value, key: &str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or_default()
}

/// Every (path, method, operation) of the document's paths, in order.
fn operations(paths: &Map<String, Value>) -> Vec<(&str, &'static str, &Value)> {
    paths
        .iter()
        .flat_map(|(path, item)| {
            METHODS
                .iter()
                .filter_map(move |m| item.get(*m).map(|op| (path.as_str(), *m, op)))
        })
        .collect()
}

fn anchor(path: &str, method: &str) -> String {
    let slug: String = path
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    format!("op-{method}{slug}")
}

/// A schema's type in words, with links to named schemas.
fn type_of(schema: &Value) -> String {
    let Some(obj) = schema.as_object() else {
        return "any".to_owned();
    };
    if let Some(r) = obj.get("$ref").and_then(Value::as_str) {
        let name = r.rsplit('/').next().unwrap_or(r);
        return format!("<a href=\"#schema-{0}\">{0}</a>", escape(name));
    }
    if let Some(values) = obj.get("enum").and_then(Value::as_array) {
        let values: Vec<String> = values
            .iter()
            .map(|v| format!("<code>{}</code>", escape(&v.to_string())))
            .collect();
        return format!("one of {}", values.join(", "));
    }
    for (key, joiner) in [("oneOf", " or "), ("anyOf", " or "), ("allOf", " and ")] {
        if let Some(list) = obj.get(key).and_then(Value::as_array) {
            let parts: Vec<String> = list.iter().map(type_of).collect();
            return parts.join(joiner);
        }
    }
    let types: Vec<&str> = match obj.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec!["object"],
    };
    types
        .iter()
        .map(|t| match *t {
            "array" => format!(
                "array of {}",
                obj.get("items").map_or_else(|| "any".to_owned(), type_of)
            ),
            "integer" | "number" => {
                let range = match (obj.get("minimum"), obj.get("maximum")) {
                    (Some(lo), Some(hi)) => match (lo.as_f64(), hi.as_f64()) {
                        (Some(lo), Some(hi)) => format!(
                            " ({} to {})",
                            app::format::exact(lo, false),
                            app::format::exact(hi, false)
                        ),
                        _ => format!(" ({lo} to {hi})"),
                    },
                    _ => String::new(),
                };
                format!("{t}{range}")
            }
            other => other.to_owned(),
        })
        .collect::<Vec<_>>()
        .join(" or ")
}

/// A field's description: its own, or that of the schema it wraps (`Option<T>` becomes
/// `oneOf: [null, T]` with the description on `T`).
fn description_of(schema: &Value) -> &str {
    schema
        .get("description")
        .and_then(Value::as_str)
        .or_else(|| {
            ["oneOf", "anyOf", "allOf"].iter().find_map(|k| {
                schema
                    .get(*k)?
                    .as_array()?
                    .iter()
                    .find_map(|s| s.get("description").and_then(Value::as_str))
            })
        })
        .unwrap_or_default()
}

fn properties_table(out: &mut String, obj: &Map<String, Value>) {
    let Some(props) = obj.get("properties").and_then(Value::as_object) else {
        return;
    };
    let required: Vec<&str> = obj
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    out.push_str(
        "<table class=\"api-fields\"><thead><tr><th scope=\"col\">Field</th><th scope=\"col\">Type</th>\
         <th scope=\"col\">Description</th></tr></thead><tbody>",
    );
    for (name, schema) in props {
        let description = description_of(schema);
        let optional = if required.contains(&name.as_str()) {
            ""
        } else {
            " <span class=\"optional\">optional</span>"
        };
        let _ = write!(
            out,
            "<tr><td><code>{}</code>{optional}</td><td>{}</td><td>{}</td></tr>",
            escape(name),
            type_of(schema),
            prose(description)
        );
    }
    out.push_str("</tbody></table>");
}

fn schema_section(out: &mut String, name: &str, schema: &Value) {
    let _ = write!(
        out,
        "<section class=\"api-schema\" id=\"schema-{0}\"><h3>{0}</h3>",
        escape(name)
    );
    if let Some(d) = schema.get("description").and_then(Value::as_str) {
        out.push_str(&prose(d));
    }
    let Some(obj) = schema.as_object() else {
        out.push_str("</section>");
        return;
    };
    if obj.contains_key("properties") {
        properties_table(out, obj);
    } else if let Some(variants) = obj
        .get("oneOf")
        .or_else(|| obj.get("allOf"))
        .and_then(Value::as_array)
    {
        let joiner = if obj.contains_key("oneOf") {
            "One of:"
        } else {
            "All of:"
        };
        let _ = write!(out, "<p>{joiner}</p><ul>");
        for v in variants {
            out.push_str("<li>");
            if let Some(d) = v.get("description").and_then(Value::as_str) {
                out.push_str(&prose(d));
            }
            match v.as_object() {
                Some(o) if o.contains_key("properties") => properties_table(out, o),
                _ => out.push_str(&type_of(v)),
            }
            out.push_str("</li>");
        }
        out.push_str("</ul>");
    } else {
        let _ = write!(out, "<p>Type: {}</p>", type_of(schema));
    }
    out.push_str("</section>");
}

/// `GET /path`, as headings and the list of operations show it.
fn label(path: &str, method: &str) -> String {
    format!(
        "<span class=\"method\">{}</span> <code>{}</code>",
        method.to_uppercase(),
        escape(path)
    )
}

fn operation(out: &mut String, path: &str, method: &str, op: &Value) {
    let summary = text_at(op, "summary");
    let _ = write!(
        out,
        "<section class=\"api-op\" id=\"{}\"><h3>{}</h3>",
        anchor(path, method),
        label(path, method)
    );
    out.push_str(&prose(summary));
    if let Some(d) = op.get("description").and_then(Value::as_str) {
        out.push_str(&prose(d));
    }
    if let Some(params) = op.get("parameters").and_then(Value::as_array) {
        out.push_str(
            "<h4>Parameters</h4><table class=\"api-params\"><thead><tr><th scope=\"col\">Name</th>\
             <th scope=\"col\">In</th><th scope=\"col\">Type</th><th scope=\"col\">Description</th>\
             </tr></thead><tbody>",
        );
        for p in params {
            let text = |k: &str| text_at(p, k);
            let required = if p.get("required").and_then(Value::as_bool) == Some(true) {
                " <span class=\"required\">required</span>"
            } else {
                ""
            };
            let _ = write!(
                out,
                "<tr><td><code>{}</code>{required}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(text("name")),
                escape(text("in")),
                p.get("schema").map_or_else(|| "any".to_owned(), type_of),
                prose(text("description"))
            );
        }
        out.push_str("</tbody></table>");
    }
    if let Some(content) = op
        .pointer("/requestBody/content")
        .and_then(Value::as_object)
    {
        out.push_str("<h4>Request body</h4><ul>");
        for (media, c) in content {
            let _ = write!(
                out,
                "<li><code>{}</code>: {}</li>",
                escape(media),
                c.get("schema").map_or_else(|| "any".to_owned(), type_of)
            );
        }
        out.push_str("</ul>");
    }
    if let Some(responses) = op.get("responses").and_then(Value::as_object) {
        out.push_str(
            "<h4>Responses</h4><table class=\"api-responses\"><thead><tr><th scope=\"col\">Status</th>\
             <th scope=\"col\">Meaning</th><th scope=\"col\">Body</th></tr></thead><tbody>",
        );
        for (status, r) in responses {
            let body: Vec<String> = r
                .get("content")
                .and_then(Value::as_object)
                .map(|content| {
                    content
                        .iter()
                        .map(|(media, c)| {
                            format!(
                                "<code>{}</code> {}",
                                escape(media),
                                c.get("schema").map_or_else(String::new, type_of)
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
            let _ = write!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(status),
                escape(text_at(r, "description")),
                body.join("<br>")
            );
        }
        out.push_str("</tbody></table>");
    }
    out.push_str("</section>");
}

/// The page.
pub fn render(stylesheet: &str) -> String {
    let doc = serde_json::to_value(document()).unwrap_or(Value::Null);
    let title = doc
        .pointer("/info/title")
        .and_then(Value::as_str)
        .unwrap_or("API");
    let mut out = String::with_capacity(64 * 1024);
    let _ = write!(
        out,
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"/>\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\
         <title>servecost: {0}</title><link rel=\"stylesheet\" href=\"{2}\"/></head>\
         <body><main class=\"api-docs\"><header class=\"masthead\"><h1>{0}</h1>{1}</header>",
        escape(title),
        view! { <SiteNav current="/api/v1/docs"/> }.to_html(),
        escape(stylesheet)
    );
    if let Some(d) = doc.pointer("/info/description").and_then(Value::as_str) {
        out.push_str(&prose(d));
    }
    let version = text_at(&doc, "openapi");
    let _ = write!(
        out,
        "<p>The machine-readable document: <a href=\"/api/v1/openapi.json\">/api/v1/openapi.json</a> \
         (OpenAPI {}). Errors are JSON naming each parameter, the value given and the reason \
         (<a href=\"#schema-ErrorBody\">ErrorBody</a>); bad input never gets a 500.</p>",
        escape(version)
    );
    let paths = doc
        .get("paths")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    out.push_str("<nav aria-label=\"Operations\"><h2>Operations</h2><ul>");
    for (path, method, op) in operations(&paths) {
        let _ = write!(
            out,
            "<li><a href=\"#{}\">{}</a>: {}</li>",
            anchor(path, method),
            label(path, method),
            inline(text_at(op, "summary"))
        );
    }
    out.push_str("</ul></nav><h2>Operations in detail</h2>");
    for (path, method, op) in operations(&paths) {
        operation(&mut out, path, method, op);
    }
    out.push_str("<h2>Schemas</h2>");
    if let Some(schemas) = doc
        .pointer("/components/schemas")
        .and_then(Value::as_object)
    {
        for (name, schema) in schemas {
            schema_section(&mut out, name, schema);
        }
    }
    out.push_str("</main></body></html>");
    out
}

/// Serves the page (rendered once per server: the document is fixed at build time).
pub async fn docs(
    axum::extract::State(state): axum::extract::State<crate::AppState>,
) -> Html<String> {
    Html(
        state
            .docs_page
            .get_or_init(|| render(&state.stylesheet.0))
            .clone(),
    )
}
