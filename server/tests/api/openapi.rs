//! The OpenAPI document: it lists every endpoint and every scenario parameter, and real answers
//! of each endpoint validate against the schema it documents for their status.

use std::collections::BTreeMap;

use axum::http::{header, StatusCode};
use serde_json::Value;

use crate::common::{app, app_with_store, body_text, get, json, post_json, reprice, send};

/// Checks `value` against `schema` (the subset of JSON Schema utoipa writes), strictly: an object
/// may only have documented fields, and must have the required ones.
fn check(doc: &Value, schema: &Value, value: &Value, at: &str, errors: &mut Vec<String>) {
    let schema = resolve(doc, schema);
    for key in ["oneOf", "anyOf"] {
        if let Some(options) = schema.get(key).and_then(Value::as_array) {
            let fits = options.iter().any(|o| {
                let mut e = Vec::new();
                check(doc, o, value, at, &mut e);
                e.is_empty()
            });
            if !fits {
                errors.push(format!("{at}: {value} fits none of {key}"));
            }
            return;
        }
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        if !values.contains(value) {
            errors.push(format!("{at}: {value} is not one of {values:?}"));
        }
        return;
    }
    let (props, required) = fields(doc, schema);
    if !props.is_empty() || schema.get("allOf").is_some() {
        let Some(obj) = value.as_object() else {
            errors.push(format!("{at}: expected an object, got {value}"));
            return;
        };
        for name in &required {
            if !obj.contains_key(name) {
                errors.push(format!("{at}: required field {name} is missing"));
            }
        }
        for (name, v) in obj {
            match props.get(name) {
                Some(s) => check(doc, s, v, &format!("{at}.{name}"), errors),
                None => errors.push(format!("{at}: field {name} is not documented")),
            }
        }
        return;
    }
    let types: Vec<&str> = match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => return,
    };
    let fits = types.iter().any(|t| match *t {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "string" => value.is_string(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "object" => value.is_object(),
        "array" => value.as_array().is_some_and(|items| {
            let item = schema.get("items").cloned().unwrap_or(Value::Null);
            items.iter().enumerate().all(|(i, v)| {
                let mut e = Vec::new();
                check(doc, &item, v, &format!("{at}[{i}]"), &mut e);
                errors.extend(e.iter().cloned());
                e.is_empty()
            })
        }),
        _ => false,
    });
    if !fits {
        errors.push(format!("{at}: {value} is not {types:?}"));
    }
}

fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => {
            let pointer = r.trim_start_matches('#');
            resolve(doc, doc.pointer(pointer).expect("a $ref that resolves"))
        }
        None => schema,
    }
}

/// An object schema's fields, merging `allOf` parts (serde's `flatten`).
fn fields(doc: &Value, schema: &Value) -> (BTreeMap<String, Value>, Vec<String>) {
    let schema = resolve(doc, schema);
    let mut props = BTreeMap::new();
    let mut required = Vec::new();
    if let Some(p) = schema.get("properties").and_then(Value::as_object) {
        props.extend(p.iter().map(|(k, v)| (k.clone(), v.clone())));
    }
    if let Some(r) = schema.get("required").and_then(Value::as_array) {
        required.extend(r.iter().filter_map(Value::as_str).map(str::to_owned));
    }
    for part in schema
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let (p, r) = fields(doc, part);
        props.extend(p);
        required.extend(r);
    }
    (props, required)
}

/// The schema documented for `method path` answering `status` as JSON.
fn response_schema(doc: &Value, path: &str, method: &str, status: u16) -> Value {
    let pointer = format!(
        "/paths/{}/{method}/responses/{status}/content/application~1json/schema",
        path.replace('~', "~0").replace('/', "~1")
    );
    doc.pointer(&pointer)
        .cloned()
        .unwrap_or_else(|| panic!("{method} {path} documents no JSON body for {status}"))
}

fn assert_fits(doc: &Value, path: &str, method: &str, status: u16, body: &Value) {
    let mut errors = Vec::new();
    let schema = response_schema(doc, path, method, status);
    check(doc, &schema, body, "$", &mut errors);
    assert!(
        errors.is_empty(),
        "{method} {path} {status} does not fit its schema:\n{}",
        errors.join("\n")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_document_lists_every_endpoint() {
    let (app, _db) = app().await;
    let doc = json(&app, "/api/v1/openapi.json", StatusCode::OK).await;
    assert!(doc["openapi"].as_str().expect("version").starts_with("3."));
    let paths: Vec<&str> = doc["paths"]
        .as_object()
        .expect("paths")
        .keys()
        .map(String::as_str)
        .collect();
    for path in [
        "/api/v1/evaluate",
        "/api/v1/options",
        "/api/v1/options.csv",
        "/api/v1/dataset",
        "/api/v1/export.csv",
        "/api/v1/charts/{file}",
        "/api/v1/scenarios",
        "/api/v1/scenarios/{id}",
        "/oembed",
    ] {
        assert!(paths.contains(&path), "{path} is not documented");
    }
    // Every documented GET answers (none is a leftover of a removed route).
    for path in paths {
        if doc["paths"][path].get("get").is_none() {
            continue;
        }
        let uri = path
            .replace("{file}", "volume.svg")
            .replace("{id}", "not-saved");
        let uri = if uri == "/oembed" {
            "/oembed?url=http://127.0.0.1:3000/".to_owned()
        } else {
            uri
        };
        let status = get(&app, &uri).await.status();
        assert!(
            status == StatusCode::OK
                || (path.starts_with("/api/v1/scenarios/{id}") && status == StatusCode::NOT_FOUND),
            "{uri}: {status}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_scenario_parameter_is_documented_with_its_range() {
    let (app, _db) = app().await;
    let doc = json(&app, "/api/v1/openapi.json", StatusCode::OK).await;
    for path in server::api::openapi::SCENARIO_PATHS {
        let params = doc["paths"][path]["get"]["parameters"]
            .as_array()
            .expect("parameters");
        let named = |name: &str| {
            params
                .iter()
                .find(|p| p["name"] == name && p["in"] == "query")
                .unwrap_or_else(|| panic!("{path} lacks {name}"))
        };
        for spec in servecost::codec::numbers() {
            let p = named(spec.name);
            let text = p["description"].as_str().expect("description");
            assert!(text.contains(spec.unit), "{path} {}: {text}", spec.name);
            // The value's schema: the codec's range (0 beside its floor when it has one), or
            // an empty value, which means "not given".
            let options = p["schema"]["anyOf"].as_array().expect("anyOf");
            assert_eq!(
                options[1],
                serde_json::json!({"type": "string", "maxLength": 0})
            );
            let range = if spec.min == 0.0 && spec.least > 0.0 {
                assert_eq!(options[0]["anyOf"][0]["const"], 0, "{}", spec.name);
                &options[0]["anyOf"][1]
            } else {
                &options[0]
            };
            let lo = if spec.least > 0.0 && spec.min == 0.0 {
                spec.least
            } else {
                spec.min
            };
            assert_eq!(range["minimum"].as_f64(), Some(lo), "{}", spec.name);
            assert_eq!(range["maximum"].as_f64(), Some(spec.max), "{}", spec.name);
        }
        for spec in servecost::codec::texts() {
            let (name, accepted) = (spec.name, spec.accepted);
            let text = named(name)["description"].as_str().expect("description");
            assert!(text.contains(accepted), "{path} {name}: {text}");
        }
    }
    let files = doc["paths"]["/api/v1/charts/{file}"]["get"]["parameters"]
        .as_array()
        .expect("parameters")
        .iter()
        .find(|p| p["name"] == "file")
        .expect("file")["schema"]["enum"]
        .clone();
    for name in app::charts::NAMES {
        assert!(
            files
                .as_array()
                .expect("enum")
                .contains(&Value::from(format!("{name}.svg"))),
            "{name}"
        );
    }
    let save = doc["paths"]["/api/v1/scenarios"]["post"]["description"]
        .as_str()
        .expect("save description");
    assert!(save.contains(&format!("{} KiB", server::SAVE_LIMIT / 1024)));
    assert!(save.contains(&format!("{} saves a minute", server::SAVES_PER_MINUTE)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_fit_their_documented_schemas() {
    let (app, db, store) = app_with_store().await;
    let doc = json(&app, "/api/v1/openapi.json", StatusCode::OK).await;
    let evaluate = "/api/v1/evaluate";
    // Several shapes of report: defaults, hybrid with owned hardware, hourly scaling, own points.
    for query in [
        "",
        "?hybrid=1&own=1&capex=300k&requests=50M",
        "?scaling=hourly&chip=h100&gpu_hour=2&points=20:3000,60:1500&curve_mix=2:7:1",
        "?tokens=2B&mix=2:7:1&profile=business",
    ] {
        let body = json(&app, &format!("{evaluate}{query}"), StatusCode::OK).await;
        assert_fits(&doc, evaluate, "get", 200, &body);
    }
    let body = json(
        &app,
        &format!("{evaluate}?tokens=-1"),
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert_fits(&doc, evaluate, "get", 400, &body);
    let body = json(
        &app,
        &format!("{evaluate}?curve=nope"),
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_fits(&doc, evaluate, "get", 422, &body);
    let body = json(&app, "/api/v1/dataset", StatusCode::OK).await;
    assert_fits(&doc, "/api/v1/dataset", "get", 200, &body);
    let body = json(&app, &format!("{evaluate}?tps=600"), StatusCode::OK).await;
    assert_fits(&doc, evaluate, "get", 200, &body);
    for query in [
        "",
        "?tps=600",
        "?requests=20M&capex=45k",
        "?requests=300M&profile=diurnal",
    ] {
        let body = json(&app, &format!("/api/v1/options{query}"), StatusCode::OK).await;
        assert_fits(&doc, "/api/v1/options", "get", 200, &body);
    }
    let body = json(
        &app,
        "/api/v1/options?model=nope",
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_fits(&doc, "/api/v1/options", "get", 422, &body);
    let body = json(&app, "/api/v1/charts/nope.svg", StatusCode::NOT_FOUND).await;
    assert_fits(&doc, "/api/v1/charts/{file}", "get", 404, &body);
    let body = json(
        &app,
        "/oembed?url=http://127.0.0.1:3000/%3Frequests%3D5M",
        StatusCode::OK,
    )
    .await;
    assert_fits(&doc, "/oembed", "get", 200, &body);

    let saved = send(
        &app,
        post_json(
            "/api/v1/scenarios",
            r#"{"query":"requests=5M","name":"Schema check"}"#,
        ),
    )
    .await;
    assert_eq!(saved.status(), StatusCode::CREATED);
    assert!(saved.headers().contains_key(header::LOCATION));
    let saved: Value = serde_json::from_str(&body_text(saved).await).expect("json");
    assert_fits(&doc, "/api/v1/scenarios", "post", 201, &saved);
    let bad = send(
        &app,
        post_json("/api/v1/scenarios", r#"{"query":"","name":""}"#),
    )
    .await;
    assert_eq!(bad.status(), StatusCode::BAD_REQUEST);
    let bad: Value = serde_json::from_str(&body_text(bad).await).expect("json");
    assert_fits(&doc, "/api/v1/scenarios", "post", 400, &bad);

    let id = saved["id"].as_str().expect("id");
    let path = "/api/v1/scenarios/{id}";
    let body = json(&app, &format!("/api/v1/scenarios/{id}"), StatusCode::OK).await;
    assert_fits(&doc, path, "get", 200, &body);
    // With a newer revision the answer also carries the current report.
    reprice(&db, &store, 1.0, 2.0).await;
    let body = json(&app, &format!("/api/v1/scenarios/{id}"), StatusCode::OK).await;
    assert!(body["current"].is_object());
    assert_fits(&doc, path, "get", 200, &body);
    let body = json(&app, "/api/v1/scenarios/nope", StatusCode::NOT_FOUND).await;
    assert_fits(&doc, path, "get", 404, &body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_docs_page_shows_every_operation_and_schema() {
    let (app, _db) = app().await;
    let doc = json(&app, "/api/v1/openapi.json", StatusCode::OK).await;
    let response = get(&app, "/api/v1/docs").await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers()[header::CONTENT_TYPE]
        .to_str()
        .expect("type")
        .starts_with("text/html"));
    let html = body_text(response).await;
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for method in item.as_object().expect("item").keys() {
            assert!(
                html.contains(&format!(
                    "<span class=\"method\">{}</span> <code>{path}</code>",
                    method.to_uppercase()
                )),
                "{method} {path}"
            );
        }
    }
    for name in doc["components"]["schemas"]
        .as_object()
        .expect("schemas")
        .keys()
    {
        assert!(html.contains(&format!("id=\"schema-{name}\"")), "{name}");
    }
    // Every scenario parameter is on the page with its range.
    for spec in servecost::codec::numbers() {
        assert!(
            html.contains(&format!("<code>{}</code>", spec.name)),
            "{}",
            spec.name
        );
    }
    assert!(html.contains("href=\"/api/v1/openapi.json\""));
    // The site's navigation, as on every page.
    let nav = html.find("site-nav").map(|i| &html[i..i + 300]);
    assert!(
        html.contains(r#"<a href="/data" rel="external">Data"#),
        "{nav:?}"
    );
}

/// The document's patterns and the codec read the same syntax: every sample the pattern matches
/// is read by the codec without an "unreadable" problem (a 400), and samples the codec refuses
/// as unreadable do not match. (The codec is lenient where the document is strict, e.g. spaces
/// around numbers; that direction cannot fail a client that follows the document.)
#[test]
fn the_documents_patterns_are_the_codecs_syntax() {
    use servecost::codec::{parse_checked, syntax};
    let zeros = vec!["0"; 24].join(",");
    let day = vec!["1.5"; 24].join(",");
    let week = vec!["1000000"; 168].join(",");
    let cases: Vec<(&str, &str, Vec<String>, Vec<String>)> = vec![
        (
            "mix",
            syntax::MIX,
            [
                "2:7:1",
                "0:0:1",
                "1e-5:1:1",
                "40%:50%:10%",
                "0.5:0:99999999999999999999",
                "0:0:0",
            ]
            .map(String::from)
            .to_vec(),
            ["1:2", "-1:1:1", "a:b:c", "1:1:1:1", "1e400:1:1"]
                .map(String::from)
                .to_vec(),
        ),
        (
            "profile",
            syntax::PROFILE,
            vec!["flat".into(), "diurnal".into(), day, week, zeros],
            ["1,2,3", "weekly", "-1"].map(String::from).to_vec(),
        ),
        (
            "points",
            syntax::POINTS,
            ["128:33041,191:23251", "50:1.5M", "1e2:1e5", "0:0"]
                .map(String::from)
                .to_vec(),
            ["128", "1:2:3", "a:b", "128:33041,"]
                .map(String::from)
                .to_vec(),
        ),
        (
            "model",
            syntax::ID,
            ["muse-spark-open", "A.b_c-1", &"x".repeat(64)]
                .map(String::from)
                .to_vec(),
            ["", "has space", "é", &"x".repeat(65)]
                .map(String::from)
                .to_vec(),
        ),
        (
            "chip_name",
            syntax::NAME,
            ["TPU v7", "Gaudi 3 (8×)", &"é".repeat(60)]
                .map(String::from)
                .to_vec(),
            // U+0089 and U+009F are C1 control characters: refused by both (schemathesis found
            // the document allowing them).
            [
                "",
                "a\nb",
                "tab\there",
                &"x".repeat(61),
                "a\u{89}b",
                "\u{9f}",
            ]
            .map(String::from)
            .to_vec(),
        ),
    ];
    for (param, pattern, good, bad) in cases {
        let re = regex::Regex::new(pattern).expect("pattern");
        let unreadable = |value: &str| {
            let extra = match param {
                "mix" => "&tokens=1B",
                "points" => "&curve_mix=1:0:1",
                "chip_name" => "&points=10:900&curve_mix=1:0:1&chip=other&gpu_hour=2",
                _ => "",
            };
            let q = format!("{param}={value}{extra}");
            match parse_checked(&q.replace('%', "%25")) {
                Ok(_) => false,
                Err(r) => r.unreadable.iter().any(|p| p.param == param),
            }
        };
        for v in &good {
            assert!(re.is_match(v), "{param}: the pattern refuses {v:?}");
            assert!(!unreadable(v), "{param}: the codec cannot read {v:?}");
        }
        for v in &bad {
            if !v.is_empty() {
                assert!(unreadable(v), "{param}: the codec reads {v:?}");
            }
            assert!(!re.is_match(v), "{param}: the pattern matches {v:?}");
        }
    }
}
