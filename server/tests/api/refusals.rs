//! Every refusal answers with the documented JSON error, whether the router or the HTTP parser
//! refuses; a save keeps what it is given or is refused, naming why.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::common::{app, body_text, post_json, problem_params, send};

/// The JSON error's body of `response`, which must have `status`.
async fn error_body(response: axum::http::Response<Body>, status: StatusCode) -> serde_json::Value {
    assert_eq!(response.status(), status);
    let text = body_text(response).await;
    assert!(text.len() < 1_024, "{} bytes: {text:.200}", text.len());
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not the JSON error ({e}): {text}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_router_refuses_long_queries_and_many_headers_in_json() {
    let (app, _db) = app().await;
    // (A request line over 65,534 bytes is not even a URI the router can be handed: the
    // socket test below sends one.)
    let long = format!("/api/v1/evaluate?requests=20M&x={}", "a".repeat(60 * 1024));
    let res = send(
        &app,
        Request::get(long).body(Body::empty()).expect("request"),
    )
    .await;
    let v = error_body(res, StatusCode::URI_TOO_LONG).await;
    assert_eq!(problem_params(&v), ["query"]);

    let mut many = Request::get("/api/v1/evaluate?requests=20M");
    for i in 0..120 {
        many = many.header(format!("x-extra-{i}"), "1");
    }
    let res = send(&app, many.body(Body::empty()).expect("request")).await;
    let v = error_body(res, StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE).await;
    assert_eq!(problem_params(&v), ["headers"]);
    assert!(
        v["problems"][0]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("100 headers")),
        "{v}"
    );

    let big = Request::get("/").header("x-big", "b".repeat(40 * 1024));
    let res = send(&app, big.body(Body::empty()).expect("request")).await;
    let v = error_body(res, StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE).await;
    assert!(
        v["problems"][0]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("32,768 bytes")),
        "{v}"
    );
}

/// Sends `request` raw to a server on a socket and reads the whole answer.
async fn raw(addr: std::net::SocketAddr, request: &[u8]) -> String {
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
    // The server may answer and close before it has read everything.
    let _ = s.write_all(request).await;
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut out)).await;
    String::from_utf8_lossy(&out).into_owned()
}

/// The status and JSON body of a raw answer.
fn parsed(answer: &str) -> (u16, serde_json::Value) {
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((answer, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let value =
        serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {answer:.300}"));
    (status, value)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_http_parsers_refusals_answer_in_json_too() {
    let (app, _db) = app().await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(server::serve::serve(
        listener,
        app,
        server::serve::Limits::default(),
        async {
            let _ = stopped.await;
        },
    ));

    // A request line over the parser's own limit (65,534 bytes), which no server can raise.
    let line = format!(
        "GET /api/v1/evaluate?x={} HTTP/1.1\r\nHost: x\r\n\r\n",
        "a".repeat(70 * 1024)
    );
    let (status, v) = parsed(&raw(addr, line.as_bytes()).await);
    assert_eq!(status, 414);
    assert_eq!(v["problems"][0]["param"], "query");

    // Between the documented limit and the parser's: the application's answer.
    let mut head = String::from("GET /healthz HTTP/1.1\r\nHost: x\r\n");
    for i in 0..120 {
        head.push_str(&format!("x-extra-{i}: 1\r\n"));
    }
    let (status, v) = parsed(&raw(addr, format!("{head}\r\n").as_bytes()).await);
    assert_eq!(status, 431);
    assert_eq!(v["problems"][0]["param"], "headers");

    // Over the parser's header count.
    for i in 120..server::serve::PARSER_MAX_HEADERS + 10 {
        head.push_str(&format!("x-extra-{i}: 1\r\n"));
    }
    let (status, v) = parsed(&raw(addr, format!("{head}\r\n").as_bytes()).await);
    assert_eq!(status, 431);
    assert_eq!(v["problems"][0]["param"], "headers");

    // Bytes that are not HTTP.
    let (status, v) = parsed(&raw(addr, b"GET /\x01\x02 HTTP/1.1\r\nHost: x\r\n\r\n").await);
    assert_eq!(status, 400);
    assert_eq!(v["problems"][0]["param"], "request");

    // And an answer of the application passes as it was.
    let ok = raw(
        addr,
        b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert!(
        ok.starts_with("HTTP/1.1 200 OK\r\n") && ok.ends_with("ok"),
        "{ok}"
    );

    let _ = stop.send(());
    let _ = server.await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_save_keeps_every_parameter_or_is_refused_naming_it() {
    let (app, _db) = app().await;
    let save = |query: &str, name: &str| {
        post_json(
            "/api/v1/scenarios",
            &serde_json::json!({ "query": query, "name": name }).to_string(),
        )
    };
    for (query, param) in [
        ("requests=20M&colour=blue", "colour"),
        ("requests=20M&tps=100000", "tps"),
        ("not a query at all", "not a query at all"),
        ("requests=20M&chip_name=Mine", "chip_name"),
    ] {
        let res = send(&app, save(query, "A name")).await;
        assert_eq!(res.status(), StatusCode::BAD_REQUEST, "{query}");
        let v = error_body(res, StatusCode::BAD_REQUEST).await;
        assert_eq!(problem_params(&v), [param], "{query}: {v}");
    }
    let res = send(&app, save("requests=20M", "A name")).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let v: serde_json::Value = serde_json::from_str(&body_text(res).await).expect("JSON");
    assert_eq!(v["query"], "v=1&requests=20M");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn saved_names_and_notes_refuse_control_and_invisible_characters() {
    let (app, _db) = app().await;
    let save = |name: &str, note: &str| {
        post_json(
            "/api/v1/scenarios",
            &serde_json::json!({ "query": "requests=20M", "name": name, "note": note }).to_string(),
        )
    };
    for (name, note, field, says) in [
        ("Bad\u{0}name", "", "name", "U+0000 at character 4"),
        ("Bell\u{7}", "", "name", "U+0007 at character 5"),
        ("\u{200b}\u{2060}\u{feff} ", "", "name", "visible"),
        (
            "Fine",
            "line one\u{1b}[31m",
            "note",
            "U+001B at character 9",
        ),
    ] {
        let res = send(&app, save(name, note)).await;
        let v = error_body(res, StatusCode::BAD_REQUEST).await;
        assert_eq!(problem_params(&v), [field], "{name:?}: {v}");
        let reason = v["problems"][0]["reason"].as_str().unwrap_or_default();
        assert!(reason.contains(says), "{name:?}: {reason}");
    }
    // A 100 KB name is refused with a short error quoting at most 80 characters of it.
    let res = send(&app, save(&"n".repeat(100 * 1024), "")).await;
    let v = error_body(res, StatusCode::BAD_REQUEST).await;
    let quoted = v["problems"][0]["value"].as_str().unwrap_or_default();
    assert!(
        quoted.chars().count() <= 81,
        "{} characters quoted",
        quoted.chars().count()
    );
    // Tabs and line breaks (as a form sends them, CR LF) are kept as text.
    let res = send(&app, save("Q3\tplan", "first line\r\nsecond line")).await;
    assert_eq!(res.status(), StatusCode::CREATED);
}
