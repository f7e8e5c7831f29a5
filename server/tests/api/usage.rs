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

/// A request body sent as a client sends it: chunk by chunk, as the test hands them over,
/// stalled in between.
struct Sent(tokio::sync::mpsc::Receiver<axum::body::Bytes>);

impl http_body::Body for Sent {
    type Data = axum::body::Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        self.0
            .poll_recv(cx)
            .map(|chunk| chunk.map(|c| Ok(http_body::Frame::data(c))))
    }
}

/// An upload from `client` (the socket's address) whose body arrives as the sender returned
/// gives it, answered in the task returned.
fn upload_from(
    app: &axum::Router,
    client: u8,
) -> (
    tokio::sync::mpsc::Sender<axum::body::Bytes>,
    tokio::task::JoinHandle<(StatusCode, String)>,
) {
    let (to, from) = tokio::sync::mpsc::channel(4);
    let mut req = Request::post("/api/v1/usage")
        .header(header::CONTENT_TYPE, "text/csv")
        .body(Body::new(Sent(from)))
        .expect("request");
    let peer = std::net::SocketAddr::from(([198, 51, 100, client], 40_000));
    req.extensions_mut()
        .insert(axum::extract::ConnectInfo(peer));
    let app = app.clone();
    let answer = tokio::spawn(async move {
        let res = send(&app, req).await;
        (res.status(), body_text(res).await)
    });
    (to, answer)
}

/// Waits until the server has taken what was sent on `to`: the body is read only once its
/// upload has a turn, so a drained channel proves the turn (and its client's claim) is held.
async fn taken(to: &tokio::sync::mpsc::Sender<axum::body::Bytes>) {
    let waited = tokio::time::timeout(std::time::Duration::from_secs(10), async {
        while to.capacity() < to.max_capacity() {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
    })
    .await;
    assert!(waited.is_ok(), "the upload was never given a turn");
}

/// An export is read as it arrives: a mistake on its second line is answered while the rest
/// has not been sent, and a stalled upload holds one turn of three, not the server: another
/// client's export is read meanwhile; the same client's next upload waits for its first, and
/// is told to come back when that one stays stalled; with three stalled, a fourth client's
/// upload finds no turn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_are_read_as_they_arrive_a_few_at_once() {
    let (app, _db) = app().await;
    let bytes = |s: &str| axum::body::Bytes::from(s.to_owned());
    let (to, answer) = upload_from(&app, 1);
    to.send(bytes("time,uncached,cached,output\n2026-06-01,x,1,1\n"))
        .await
        .expect("sent");
    let (status, body) = answer.await.expect("answered");
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body.contains("line 2, uncached"), "{body}");
    drop(to);

    // Client 1 starts an export and stalls halfway.
    let (half, rest) = CSV.split_at(CSV.len() / 2);
    let (stalled, first) = upload_from(&app, 1);
    stalled.send(bytes(half)).await.expect("sent");
    taken(&stalled).await;
    // Client 2's export is read all the while.
    let (to, other) = upload_from(&app, 2);
    to.send(bytes(CSV)).await.expect("sent");
    drop(to);
    let (status, body) = other.await.expect("answered");
    assert_eq!(status, StatusCode::OK, "{body}");
    // Two more stalled uploads take the other turns.
    let mut held = Vec::new();
    for client in [3, 4] {
        let (to, answer) = upload_from(&app, client);
        to.send(bytes(half)).await.expect("sent");
        taken(&to).await;
        held.push((to, answer));
    }
    // Client 1's second upload waits for its first, then is asked to come back; a fifth
    // client's finds no turn. (Both within the 10 s a stalled body is given.)
    let (to, second) = upload_from(&app, 1);
    to.send(bytes(CSV)).await.expect("sent");
    drop(to);
    let (to, fifth) = upload_from(&app, 5);
    to.send(bytes(CSV)).await.expect("sent");
    drop(to);
    let (status, body) = second.await.expect("answered");
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert!(body.contains("from this client"), "{body}");
    let (status, body) = fifth.await.expect("answered");
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert!(body.contains("other usage exports"), "{body}");
    // The stalled export, its rest sent, is the whole file's workload.
    stalled.send(bytes(rest)).await.expect("sent");
    drop(stalled);
    let (status, body) = first.await.expect("answered");
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, whole) = post(&app, "/api/v1/usage", CSV).await;
    let read: serde_json::Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(read["query"], whole["query"]);
    // Half a file is read as what it is, never a failure of the server's.
    for (to, answer) in held {
        drop(to);
        let (status, body) = answer.await.expect("answered");
        assert!(status.is_success() || status.is_client_error(), "{body}");
    }
}

/// An upload dropped while it waits for a turn (its client gone) leaves its client free to
/// send the next one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upload_dropped_while_waiting_frees_its_client() {
    let (app, _db) = app().await;
    let bytes = |s: &str| axum::body::Bytes::from(s.to_owned());
    let mut held = Vec::new();
    for client in [1, 2, 3] {
        let (to, answer) = upload_from(&app, client);
        to.send(bytes("time,uncached,cached,output\n"))
            .await
            .expect("sent");
        taken(&to).await;
        held.push((to, answer));
    }
    let (to, waiting) = upload_from(&app, 9);
    to.send(bytes(CSV)).await.expect("sent");
    drop(to);
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    waiting.abort();
    for (to, answer) in held {
        drop(to);
        answer.await.expect("answered");
    }
    let (to, next) = upload_from(&app, 9);
    to.send(bytes(CSV)).await.expect("sent");
    drop(to);
    let (status, body) = next.await.expect("answered");
    assert_eq!(status, StatusCode::OK, "{body}");
}
