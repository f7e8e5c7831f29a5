//! The router in process, against a fresh SQLite with the migrations applied.

use crate::common::{app, body_text, get, json, problem_params, SEEDED};
use axum::http::{header, StatusCode};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn healthz_answers_once_migrated() {
    let (app, _db) = app().await;
    let response = get(&app, "/healthz").await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(body_text(response).await, "ok");
}

/// The default scenario, priced from the seeded published figures: 1 M coding-agent requests at
/// $1.25 / $4.25 with 88 % off cached input (aa-model-page).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn evaluate_returns_the_report_with_stable_names() {
    let (app, _db) = app().await;
    let r = json(&app, "/api/v1/evaluate", StatusCode::OK).await;
    let expected_rent = 810e6 * 1.25e-6 + 26_190e6 * 0.15e-6 + 180e6 * 4.25e-6;
    let rent = r["rent"]["monthly_usd"].as_f64().expect("rent");
    assert!((rent - expected_rent).abs() < 1e-6, "{rent}");
    for path in [
        "/self_host/monthly_usd",
        "/self_host/gpus",
        "/self_host/utilization",
        "/self_host/breakdown/idle_compute",
        "/self_host/per_mtok/output",
        "/self_host/effective_per_mtok/blended",
        "/hybrid/api_share",
        "/verdict/ratio",
        "/break_even/monthly_tokens",
    ] {
        assert!(r.pointer(path).and_then(|v| v.as_f64()).is_some(), "{path}");
    }
    // One replica of 4 B300 at the 3-year rental's $4.25 (the cheapest B300 price anyone can
    // rent, SemiAnalysis July 2026: the default since revision 2), every hour of the month, plus
    // 0.5 FTE at $200,000 a year: the worked example of src/README.md.
    let expected_self = 4.0 * 730.0 * 4.25 + 0.5 * 200_000.0 / 12.0;
    let own = r["self_host"]["monthly_usd"].as_f64().expect("self-host");
    assert!((own - expected_self).abs() < 1e-6, "{own}");
    assert_eq!(r["verdict"]["winner"], "rent");
    assert_eq!(r["inputs"]["curve"], "inferencex-b300-fp4");
    assert!(r["warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .any(|w| w["code"] == "licence_threshold"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_parameters_get_a_400_naming_each() {
    let (app, _db) = app().await;
    let r = json(
        &app,
        "/api/v1/evaluate?tps=-3&util=abc&requests=5",
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert_eq!(problem_params(&r), ["tps", "util"]);
    assert!(r["problems"][0]["reason"]
        .as_str()
        .expect("reason")
        .contains("0.1 to 10,000"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_answer_gets_a_422_naming_the_parameter() {
    let (app, _db) = app().await;
    let r = json(
        &app,
        "/api/v1/evaluate?curve=nope",
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(r["problems"][0]["param"], "curve");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_parameters_come_back_as_ignored() {
    let (app, _db) = app().await;
    let r = json(&app, "/api/v1/evaluate?colour=blue", StatusCode::OK).await;
    assert_eq!(r["ignored"][0]["param"], "colour");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dataset_lists_sources_and_curves() {
    let (app, _db) = app().await;
    let d = json(&app, "/api/v1/dataset", StatusCode::OK).await;
    assert_eq!(d["revision"], SEEDED);
    let sources = d["sources"].as_array().expect("sources");
    assert!(sources
        .iter()
        .any(|s| s["key"] == "aa-agentperf" && s["trust"] == "independent"));
    assert!(sources
        .iter()
        .any(|s| s["key"] == "sglang-cookbook" && s["trust"] == "vendor"));
    let curves = d["curves"].as_array().expect("curves");
    let of = |model: &str| curves.iter().filter(|c| c["model"] == model).count();
    assert_eq!(of("muse-spark-open"), 4);
    assert!(
        of("deepseek-r1") >= 2,
        "the open models' revision brings curves of other models"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_is_rendered_on_the_server_with_the_answer() {
    let (app, _db) = app().await;
    let response = get(&app, "/?requests=20M").await;
    assert_eq!(response.status(), StatusCode::OK);
    let headers = response.headers().clone();
    let html = body_text(response).await;
    assert!(html.contains("data-testid=\"verdict\""), "{html}");
    assert!(html.contains("Renting costs"));
    assert!(html.contains("<svg"));
    assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    assert!(headers[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .expect("csp")
        .contains("frame-ancestors 'none'"));
    assert!(headers.contains_key(header::REFERRER_POLICY));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_pages_are_404() {
    let (app, _db) = app().await;
    assert_eq!(
        get(&app, "/no-such-page").await.status(),
        StatusCode::NOT_FOUND
    );
}

/// The API's status tells an unreadable value (400) from readable values that have no answer
/// together (422); an empty value is not given.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unreadable_is_400_no_answer_together_is_422_and_empty_is_not_given() {
    let (app, _db) = app().await;
    let r = json(
        &app,
        "/api/v1/evaluate?tokens=1B",
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(problem_params(&r), ["mix"]);
    let r = json(
        &app,
        "/api/v1/evaluate?own=1",
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(problem_params(&r), ["capex"]);
    json(
        &app,
        "/api/v1/evaluate?tokens=abc&mix=2:7:1",
        StatusCode::BAD_REQUEST,
    )
    .await;
    let empty = json(&app, "/api/v1/evaluate?tps=&mix=&v=&capex=", StatusCode::OK).await;
    let default = json(&app, "/api/v1/evaluate", StatusCode::OK).await;
    assert_eq!(empty["rent"], default["rent"]);
    assert_eq!(empty["ignored"], serde_json::json!([]));
    // oEmbed: an empty format is JSON, any other format a 501, a repeated parameter a JSON 400.
    let url = "url=http%3A%2F%2F127.0.0.1%3A3000%2F";
    let r = json(
        &app,
        &format!("/oembed?{url}&maxwidth=&maxheight=&format="),
        StatusCode::OK,
    )
    .await;
    assert_eq!(r["type"], "rich");
    json(
        &app,
        &format!("/oembed?{url}&format=xml"),
        StatusCode::NOT_IMPLEMENTED,
    )
    .await;
    json(
        &app,
        &format!("/oembed?{url}&maxwidth=200&maxwidth=300"),
        StatusCode::BAD_REQUEST,
    )
    .await;
    let r = json(
        &app,
        &format!("/oembed?{url}&maxwidth=99999999999999999999999"),
        StatusCode::OK,
    )
    .await;
    assert_eq!(r["width"], 600);
}

/// Invoice totals as invoices print them, and last month's bill against the estimate: the
/// list-price estimate of 3.1 B uncached, 41 B cached and 900 M output tokens is $13,850
/// ($1.25, $0.15 and $4.25 per million); a $12,000 bill is a 13.4 % discount, and the prices it
/// implies reproduce the bill.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invoice_numbers_as_printed_and_the_bill_reconciled() {
    let (app, _db) = app().await;
    let q = "input=3.1+B&cached=41%2C000%2C000%2C000&output=900M&bill=%2412%2C000";
    let r = json(&app, &format!("/api/v1/evaluate?{q}"), StatusCode::OK).await;
    let estimate = 3.1e9 * 1.25e-6 + 41e9 * 0.15e-6 + 900e6 * 4.25e-6;
    let bill = &r["rent"]["bill"];
    assert!((bill["estimate_usd"].as_f64().expect("estimate") - estimate).abs() < 1e-6);
    assert_eq!(bill["paid_usd"].as_f64(), Some(12_000.0));
    let discount = bill["discount"].as_f64().expect("discount");
    assert!(
        (discount - (1.0 - 12_000.0 / estimate)).abs() < 1e-12,
        "{discount}"
    );
    let (pin, pout) = (
        bill["price_in"].as_f64().expect("in"),
        bill["price_out"].as_f64().expect("out"),
    );
    let applied = json(
        &app,
        &format!(
            "/api/v1/evaluate?input=3.1B&cached=41B&output=900M&price_in={pin}&price_out={pout}"
        ),
        StatusCode::OK,
    )
    .await;
    let rent = applied["rent"]["monthly_usd"].as_f64().expect("rent");
    assert!((rent - 12_000.0).abs() < 1e-6, "{rent}");
    // A comma that does not group thousands is refused, naming the field and its range.
    let refused = json(
        &app,
        "/api/v1/evaluate?input=2,5B&cached=0&output=1",
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert_eq!(problem_params(&refused), ["input"]);
}

/// Own points on a chip the dataset does not hold: priced at the GPU-hour given, and refused
/// without one, naming `gpu_hour`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn own_points_on_another_chip() {
    let (app, _db) = app().await;
    let q = "curve=own&points=10:2.6k,100:900,200:500&curve_mix=1:0:1&replica=8&chip=other&chip_name=TPU+v7";
    let r = json(
        &app,
        &format!("/api/v1/evaluate?{q}&gpu_hour=3"),
        StatusCode::OK,
    )
    .await;
    assert_eq!(r["inputs"]["gpu_hour_usd"].as_f64(), Some(3.0));
    assert!(r["inputs"]["chip"].is_null(), "{}", r["inputs"]["chip"]);
    let refused = json(
        &app,
        &format!("/api/v1/evaluate?{q}"),
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(problem_params(&refused), ["gpu_hour"]);
    let missing = json(
        &app,
        "/api/v1/evaluate?curve=own",
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(problem_params(&missing), ["points"]);
}

/// The router publishes no cache discount and serves the hosted checkpoints: its cached input
/// is priced in full, and the answer says what renting costs if the provider's 88 % passed
/// through, and which weights it serves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_routers_unknown_cache_discount_is_named_with_the_alternative() {
    let (app, _db) = app().await;
    let r = json(
        &app,
        "/api/v1/evaluate?api=orcarouter-muse-spark",
        StatusCode::OK,
    )
    .await;
    let full = 810e6 * 1.25e-6 + 26_190e6 * 1.25e-6 + 180e6 * 4.25e-6;
    assert!((r["rent"]["monthly_usd"].as_f64().expect("rent") - full).abs() < 1e-6);
    let codes: Vec<&str> = r["warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .filter_map(|w| w["code"].as_str())
        .collect();
    assert!(codes.contains(&"hosted_checkpoint"), "{codes:?}");
    let cache = r["warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .find(|w| w["code"] == "cache_discount_unknown")
        .expect("cache warning");
    let with_discount: f64 = 810e6 * 1.25e-6 + 26_190e6 * 0.15e-6 + 180e6 * 4.25e-6;
    let text = cache["message"].as_str().expect("message");
    assert!(text.contains("88\u{a0}%"), "{text}");
    // $5,706, written as every figure of the page is.
    let figure = format!("${}", servecost::format::thousands(with_discount.round()));
    assert!(text.contains(&format!("{figure} a month")), "{text}");
    // The router publishes no speed either: the target it falls back to is named.
    assert!(codes.contains(&"target_not_published"), "{codes:?}");
}

/// The rows of one `INSERT INTO {table} (…) VALUES` statement of a migration, each as its
/// fields (quotes removed; commas inside quotes kept).
fn inserted_rows(sql: &str, table: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let start = format!("INSERT INTO {table} (");
    for statement in sql.split(&start).skip(1) {
        let values = statement.split_once("VALUES").expect("VALUES").1;
        let (mut row, mut field, mut quoted, mut depth) = (Vec::new(), String::new(), false, 0);
        let mut chars = values.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\'' if quoted && chars.peek() == Some(&'\'') => {
                    field.push('\'');
                    chars.next();
                }
                '\'' => quoted = !quoted,
                '(' if !quoted => depth += 1,
                ')' if !quoted => {
                    depth -= 1;
                    row.push(field.trim().to_owned());
                    rows.push(std::mem::take(&mut row));
                    field.clear();
                }
                ',' if !quoted && depth == 1 => {
                    row.push(std::mem::take(&mut field).trim().to_owned())
                }
                ';' if !quoted => break,
                _ if depth == 1 => field.push(c),
                _ => {}
            }
        }
    }
    rows
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dataset_holds_every_published_figure_and_each_point_as_published() {
    let (app, _db) = app().await;
    let d = json(&app, "/api/v1/dataset", StatusCode::OK).await;
    let sql = include_str!("../../../migrations/20261129000002_published_dataset.sql");
    // Every published figure of the seeded dataset, with its value and source.
    let facts = d["facts"].as_array().expect("facts");
    let rows = inserted_rows(sql, "facts");
    assert!(rows.len() > 50, "{} fact rows read", rows.len());
    assert_eq!(facts.len(), rows.len());
    for row in &rows {
        let (key, value, value_text, source) = (&row[0], &row[4], &row[6], &row[7]);
        let fact = facts
            .iter()
            .find(|f| f["key"] == key.as_str())
            .unwrap_or_else(|| panic!("fact {key} in the API"));
        assert_eq!(fact["source"], source.as_str(), "{key}");
        match value.as_str() {
            "NULL" => assert!(fact["value"].is_null(), "{key}"),
            v => assert_eq!(fact["value"].as_f64(), v.parse::<f64>().ok(), "{key}"),
        }
        if value_text != "NULL" {
            assert_eq!(fact["value_text"], value_text.as_str(), "{key}");
        }
    }
    // The InferenceX points were published as $ per million tokens at a chip-hour price: the
    // API gives that cost and price beside the converted throughput.
    let curves = d["curves"].as_array().expect("curves");
    let mut costs = 0;
    for row in inserted_rows(sql, "curve_points") {
        let (curve, tps, cost) = (&row[0], row[3].parse::<f64>().expect("tps"), &row[5]);
        let Ok(cost) = cost.parse::<f64>() else {
            continue;
        };
        costs += 1;
        let c = curves
            .iter()
            .find(|c| c["id"] == curve.as_str())
            .unwrap_or_else(|| panic!("curve {curve}"));
        let point = c["points"]
            .as_array()
            .expect("points")
            .iter()
            .find(|p| p["tps"].as_f64() == Some(tps))
            .unwrap_or_else(|| panic!("{curve} at {tps}"));
        let published = &point["published"];
        assert_eq!(
            published["usd_per_mtok"].as_f64(),
            Some(cost),
            "{curve} at {tps}"
        );
        let price = published["usd_per_gpu_hour"].as_f64().expect("price basis");
        let converted = point["tokens_per_s_per_gpu"].as_f64().expect("throughput");
        assert!((converted - price / (cost * 3600.0) * 1e6).abs() < 1e-9 * converted);
    }
    assert!(costs >= 6, "{costs} points published as costs");
    // A point published as a throughput carries no cost.
    let sglang = curves
        .iter()
        .find(|c| c["id"] == "sglang-gb300-tp4")
        .expect("the SGLang curve");
    assert!(sglang["points"][0]["published"].is_null());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_price_older_than_90_days_is_named_with_its_age() {
    let stale = |r: &serde_json::Value| -> Vec<String> {
        r["warnings"]
            .as_array()
            .expect("warnings")
            .iter()
            .filter(|w| w["code"] == "price_stale")
            .map(|w| w["message"].as_str().unwrap_or_default().to_owned())
            .collect()
    };
    // The default GPU-hour price is SemiAnalysis's of July 2026: on 2026-12-01, 123 days after
    // the month's end; the API price (Artificial Analysis, 2026-10-15) 47 days old.
    // One app at a time: a test database is held until it is dropped.
    {
        let (app, _db, _) = crate::common::app_on("2026-12-01").await;
        let r = json(&app, "/api/v1/evaluate", StatusCode::OK).await;
        let found = stale(&r);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("The GPU-hour price is as of 2026-07 (SemiAnalysis)")
                && found[0].contains("123 days before today (2026-12-01)"),
            "{}",
            found[0]
        );
        // The page and the embed say it too, and the dataset says which day it judged on.
        let page = body_text(get(&app, "/").await).await;
        assert!(page.contains("123 days before today"));
        let d = json(&app, "/api/v1/dataset", StatusCode::OK).await;
        assert_eq!(d["as_of"], "2026-12-01");
        // Your own price has no age; neither has a price within 90 days.
        let r = json(&app, "/api/v1/evaluate?gpu_hour=3.5", StatusCode::OK).await;
        assert!(stale(&r).is_empty());
    }
    {
        let (app, _db, _) = crate::common::app_on("2026-09-01").await;
        assert!(stale(&json(&app, "/api/v1/evaluate", StatusCode::OK).await).is_empty());
        // Months later both are old.
    }
    {
        let (app, _db, _) = crate::common::app_on("2027-03-01").await;
        let found = stale(&json(&app, "/api/v1/evaluate", StatusCode::OK).await);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].starts_with("The API price is as of 2026-10-15 (Artificial Analysis)"));
    }
}

/// The calculator's form in a page (`q`, its link, for the message when there is none).
fn inputs_form<'a>(html: &'a str, q: &str) -> &'a str {
    html.split(r#"id="inputs""#)
        .nth(1)
        .and_then(|f| f.split("</form>").next())
        .unwrap_or_else(|| panic!("{q}: the form"))
}

/// The form submitted without JavaScript posts each parameter once: a field it shows is not
/// also carried hidden (the codec refuses a parameter given twice), on every path of the form.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_form_posts_each_parameter_once() {
    let (app, _db) = app().await;
    for q in [
        "",
        "requests=20M&gpu_hour=2.35&gpu_kind=spot&scaling=hourly&bill=13900",
        "tokens=5B&mix=2:7:1&profile=flat&hybrid=0",
        "input=3.1B&cached=41B&output=900M&growth=0.5&horizon=5&u_api=1.2&tie=0.02",
        "own=1&capex=45k&pue=1.2&kw=2&gpu_hour=2.1",
        "curve=own&points=20:2400,40:1800&curve_mix=1:0:1&chip=other&chip_name=Acme%20X1&replica=8",
        "workload=chat&tps=40&price_in=0.3&price_out=1.2&cache_discount=0.5&markup=0.05",
        "ops_fte=1&fte_cost=150k&ops_monthly=2000&ops_gpus_per_fte=64&overflow_warm=0.5&prefill=30k&cache_cost=0.2&util=0.7&redundancy=1&min_replicas=2",
    ] {
        let html = body_text(get(&app, &format!("/?{q}")).await).await;
        let form = inputs_form(&html, q);
        let mut names: Vec<&str> = Vec::new();
        for tag in form.split('<').skip(1) {
            let element = tag.split(['>', ' ']).next().unwrap_or_default();
            if !["input", "select", "textarea"].contains(&element) || tag.contains(r#"type="radio""#) {
                continue;
            }
            let Some(name) = tag.split(r#"name=""#).nth(1).and_then(|n| n.split('"').next()) else {
                continue;
            };
            // The points editor's rows post one cell each, read together.
            if !name.starts_with("pt_") {
                names.push(name);
            }
        }
        assert!(names.len() > 20, "{q}: {names:?}");
        let mut seen = std::collections::HashSet::new();
        let twice: Vec<&&str> = names.iter().filter(|n| !seen.insert(**n)).collect();
        assert!(twice.is_empty(), "{q}: posted twice: {twice:?}");
    }
}

/// The form's controls with a name, and the value each posts: an input's `value` (a checkbox or
/// radio only when checked), a select's selected option, a textarea's text.
fn posted(form: &str) -> Vec<(String, String)> {
    let attr = |tag: &str, name: &str| {
        tag.split(&format!(r#" {name}=""#))
            .nth(1)
            .and_then(|v| v.split('"').next())
            .map(str::to_owned)
    };
    let mut out = Vec::new();
    for (i, tag) in form.split('<').enumerate().skip(1) {
        let element = tag.split(['>', ' ']).next().unwrap_or_default();
        let Some(name) = attr(tag, "name") else {
            continue;
        };
        let value = match element {
            "input" => {
                let head = tag.split('>').next().unwrap_or_default();
                let checkable =
                    head.contains(r#"type="radio""#) || head.contains(r#"type="checkbox""#);
                if checkable && !head.contains(" checked") {
                    continue;
                }
                attr(head, "value").unwrap_or_default()
            }
            "select" => form
                .split('<')
                .skip(i + 1)
                .take_while(|t| !t.starts_with("/select"))
                .find(|t| {
                    t.starts_with("option")
                        && t.split('>').next().is_some_and(|h| h.contains(" selected"))
                })
                .and_then(|t| attr(t, "value"))
                .unwrap_or_default(),
            "textarea" => tag
                .split_once('>')
                .map(|(_, text)| text.to_owned())
                .unwrap_or_default(),
            _ => continue,
        };
        out.push((name, value));
    }
    out
}

/// A value of `spec` a link may set that is not its default: twice its least, or 2, or half of
/// a share's whole.
fn set_value(spec: &servecost::codec::NumSpec) -> f64 {
    let v = if spec.min > 0.0 {
        spec.min * 2.0
    } else if spec.max >= 4.0 {
        2.0
    } else {
        spec.max / 2.0
    };
    if spec.whole {
        v.round().max(spec.min)
    } else {
        v
    }
    .min(spec.max)
}

/// Every numeric parameter a link sets is posted again by the form a page without JavaScript
/// sends, with every fold closed: a field inside a fold whose `params` list forgot it would not
/// be carried hidden, and the post would silently drop it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_parameter_a_link_sets_survives_the_form_with_its_folds_closed() {
    let (app, _db) = app().await;
    let mut dropped = Vec::new();
    let mut checked = 0;
    for spec in servecost::codec::numbers() {
        let value = servecost::codec::write_number(set_value(spec), false);
        // Owned hardware's fields are the form's with owned GPUs only.
        let owned = if spec.section == servecost::codec::Section::Owned && spec.name != "capex" {
            "own=1&capex=45k&"
        } else {
            ""
        };
        let q = format!("{owned}{}={value}", spec.name);
        let html = body_text(get(&app, &format!("/?{q}")).await).await;
        let form = inputs_form(&html, &q);
        let fields = posted(form);
        if !fields
            .iter()
            .any(|(n, v)| n == spec.name && !v.trim().is_empty())
        {
            dropped.push(q);
        }
        checked += 1;
    }
    assert!(checked > 50, "{checked} parameters");
    assert!(dropped.is_empty(), "the form drops: {dropped:?}");
}
