//! `POST /api/v1/usage`: each format read into a scenario whose volumes are the file's totals
//! scaled to a month, and whose link the rest of the API and the page answer alike.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};

use crate::common::{app, body_text, get, json, problem_params, send};

const OPENAI: &str = include_str!("../../usage-examples/openai-completions.json");
const ANTHROPIC: &str = include_str!("../../usage-examples/anthropic-messages.json");
const CSV: &str = include_str!("../../usage-examples/usage.csv");

async fn post(app: &axum::Router, uri: &str, body: &str) -> (StatusCode, serde_json::Value) {
    let req = Request::post(uri)
        .header(header::CONTENT_TYPE, "text/plain")
        .body(Body::from(body.to_owned()))
        .expect("request");
    let res = send(app, req).await;
    let status = res.status();
    let text = body_text(res).await;
    (status, serde_json::from_str(&text).expect("a JSON answer"))
}

/// The file's totals (worked out when it was made) over its days, scaled to a month of
/// 30.436875 days, are the scenario's volumes; the report of its link has them, and the page
/// shows that report's totals.
async fn reads(file: &str, uri: &str, days: f64, totals: [f64; 3], batch: f64) {
    let (app, _db) = app().await;
    let (status, u) = post(&app, uri, file).await;
    assert_eq!(status, StatusCode::OK, "{u}");
    assert_eq!(u["period"]["days"], days);
    let scale = 30.436_875 / days;
    // Four significant digits: the link carries no more than a month scaled from a period
    // knows.
    for (class, total) in ["input", "cached", "output"].into_iter().zip(totals) {
        let exact = total * scale;
        let monthly = u["monthly"][class].as_f64().expect(class);
        assert_eq!(
            monthly,
            servecost::format::round_significant(exact, 4),
            "{class}"
        );
        assert!((monthly / exact - 1.0).abs() < 5e-4, "{class}");
    }
    let all: f64 = totals.iter().sum();
    assert!((u["batch_share"].as_f64().expect("share") - batch / all).abs() < 1e-12);
    let query = u["query"].as_str().expect("query");
    let r = json(&app, &format!("/api/v1/evaluate?{query}"), StatusCode::OK).await;
    for (class, field) in [
        ("input", "uncached"),
        ("cached", "cached"),
        ("output", "output"),
    ] {
        assert_eq!(
            r["inputs"]["volumes"][field], u["monthly"][class],
            "{class}"
        );
    }
    let page = body_text(get(&app, &format!("/?{query}")).await).await;
    let rent = servecost::format::usd(r["rent"]["monthly_usd"].as_f64().expect("rent"));
    assert!(page.contains(&rent), "the page shows the API's {rent}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_openai_export_is_the_workload() {
    // 14 daily buckets over two pages; one model picked of the two.
    reads(
        OPENAI,
        "/api/v1/usage?model=gpt-oss-120b",
        14.0,
        [45e6, 62e6, 15.9e6],
        17.5e6,
    )
    .await;
    let (app, _db) = app().await;
    let (_, u) = post(&app, "/api/v1/usage", OPENAI).await;
    assert_eq!(u["format"], "openai");
    assert_eq!(
        u["models"],
        serde_json::json!(["gpt-oss-120b", "llama-3.3-70b"])
    );
    assert_eq!(u["resolution"], "daily");
    assert_eq!(u["profile"].as_array().expect("profile").len(), 7);
    // The filter ignores case, and the answer names the model as the export does.
    let (_, one) = post(&app, "/api/v1/usage?model=GPT-OSS-120B", OPENAI).await;
    assert_eq!(one["model"], "gpt-oss-120b");
    assert_eq!(one["monthly"], {
        let (_, exact) = post(&app, "/api/v1/usage?model=gpt-oss-120b", OPENAI).await;
        exact["monthly"].clone()
    });
    // A week of May and a week of June are not two months: no growth, and daily buckets say
    // that the hours within a day are not known.
    assert!(u["growth"].is_null());
    assert!(u["notes"][0]
        .as_str()
        .expect("a note")
        .starts_with("Daily buckets:"));
    // One model's workload is measured over the whole export's period.
    let (_, llama) = post(&app, "/api/v1/usage?model=llama-3.3-70b", OPENAI).await;
    assert_eq!(llama["period"]["days"], 14.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_anthropic_report_is_the_workload() {
    reads(
        ANTHROPIC,
        "/api/v1/usage",
        2.0,
        [1_253_000.0, 4_600_000.0, 560_000.0],
        301_000.0,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_csv_export_is_the_workload_and_its_week_the_profile() {
    reads(
        CSV,
        "/api/v1/usage",
        8.0,
        [768_000.0, 1_152_000.0, 304_000.0],
        640_000.0,
    )
    .await;
    let (app, _db) = app().await;
    let (_, u) = post(&app, "/api/v1/usage", CSV).await;
    assert_eq!(u["resolution"], "hourly");
    let profile: Vec<f64> = serde_json::from_value(u["profile"].clone()).expect("weights");
    assert_eq!(profile.len(), 168);
    // Weekday working hours at 3 units, the other hours at 1, batch left out of the shape;
    // Monday is covered twice in 8 days, as every hour of it is.
    let mean = (40.0 * 3.0 + 128.0) / 168.0;
    let peak = 3.0 / mean;
    assert!((profile[9] - peak).abs() < 1e-12, "{}", profile[9]);
    assert!((u["peak_to_average"].as_f64().expect("peak") - peak).abs() < 1e-12);
    // The batch share (640,000 of 2,224,000 tokens) goes in the link, to 4 digits.
    let b = 640_000.0 / 2_224_000.0;
    assert!((u["batch_share"].as_f64().expect("share") - b).abs() < 1e-12);
    assert!(u["query"]
        .as_str()
        .expect("query")
        .contains("&batch=0.2878&"));
    assert_eq!(
        u["monthly"]["requests"],
        (608.0 * 30.436_875_f64 / 8.0).round()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_malformed_export_gets_a_400_naming_the_field() {
    let (app, _db) = app().await;
    let cases = [
        (
            OPENAI.replacen("\"input_tokens\": 9000000", "\"input_tokens\": -1", 1),
            "[0].data[0].results[0].input_tokens",
        ),
        (
            ANTHROPIC.replacen("\"output_tokens\": 5000,", "\"output_tokens\": null,", 1),
            "data[0].results[0].output_tokens",
        ),
        (
            CSV.replacen("2026-06-01 00:00", "2026-06-01 24:00", 1),
            "line 2, Hour",
        ),
        ("not an export".to_owned(), "header"),
    ];
    for (body, param) in cases {
        let (status, e) = post(&app, "/api/v1/usage", &body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{e}");
        assert_eq!(problem_params(&e), [param], "{e}");
    }
    let (status, e) = post(&app, "/api/v1/usage?model=gpt-5", OPENAI).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(problem_params(&e), ["model"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_export_over_16_mib_gets_a_413_in_json() {
    let (app, _db) = app().await;
    let big = "x".repeat(17 * 1024 * 1024);
    let req = Request::post("/api/v1/usage")
        .header(header::CONTENT_LENGTH, big.len())
        .body(Body::from(big))
        .expect("request");
    let res = send(&app, req).await;
    assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let v: serde_json::Value = serde_json::from_str(&body_text(res).await).expect("a JSON 413");
    assert_eq!(v["error"], "request body too large");
    // Under the limit, a large export is read (its size is not the problem).
    let (status, _) = post(
        &app,
        "/api/v1/usage",
        &format!("{OPENAI}{}", " ".repeat(2 << 20)),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
}

/// A multipart form body of text fields.
fn form(fields: &[(&str, &str)]) -> Request<Body> {
    let mut body = String::new();
    for (name, value) in fields {
        body.push_str(&format!(
            "--XyZ\r\ncontent-disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
        ));
    }
    body.push_str("--XyZ--\r\n");
    Request::post("/usage")
        .header(header::CONTENT_TYPE, "multipart/form-data; boundary=XyZ")
        .body(Body::from(body))
        .expect("request")
}

/// The page's form: the export's workload replaces the link's, the rest stays; an export that
/// cannot be read comes back with the reason and the text; a body that is not a form too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_form_answers_with_the_link() {
    let (app, _db) = app().await;
    let location = |res: axum::http::Response<Body>| {
        assert_eq!(res.status(), StatusCode::SEE_OTHER);
        let to = res.headers()[header::LOCATION]
            .to_str()
            .expect("ascii")
            .to_owned();
        to
    };
    let q = "requests=30M&gpu_hour=2.8";
    let to = location(send(&app, form(&[("query", q), ("usage", CSV)])).await);
    let (_, u) = post(&app, "/api/v1/usage", CSV).await;
    let link = app::query::with_usage(q, u["query"].as_str().expect("query"));
    // The link, and what was read for the page to say.
    let (to_link, read) = to.split_once("&usage_read=").expect("what was read");
    assert_eq!(to_link, format!("/?{link}"));
    let read = servecost::codec::decode(read);
    assert!(
        read.starts_with(
            "The export's qwen3-235b traffic. 8 days of hourly buckets (2026-06-01 00:00 to 2026-06-09 00:00 UTC)"
        ),
        "{read}"
    );
    assert!(read.contains("batch discount"), "{read}");
    assert!(
        to.contains("gpu_hour=2.8") && !to.contains("requests="),
        "{to}"
    );
    let to = location(
        send(
            &app,
            form(&[
                ("query", q),
                ("usage", "when,tokens"),
                ("usage_model", "gpt-oss"),
            ]),
        )
        .await,
    );
    assert!(
        to.starts_with("/?requests=30M&gpu_hour=2.8&usage_error=header"),
        "{to}"
    );
    // The model typed comes back; the export never goes in the address.
    assert!(to.contains("&usage_model=gpt-oss&notice="), "{to}");
    assert!(
        !to.contains("when,tokens") && !to.contains("&usage="),
        "{to}"
    );
    let bad = Request::post("/usage")
        .header(header::CONTENT_TYPE, "text/plain")
        .body(Body::from("x"))
        .expect("request");
    let to = location(send(&app, bad).await);
    assert!(
        to.starts_with("/?usage_error=the%20form%20could%20not%20be%20read"),
        "{to}"
    );
}
