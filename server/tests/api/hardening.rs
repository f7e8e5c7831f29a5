//! Regression tests for the defects an outside test of the release build found, one per defect,
//! each named after it (SECURITY.md lists them with the promise each one now keeps).

use std::time::Duration;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use tower::ServiceExt;

use crate::common::{app, body_text, get, json, post_json, problem_params, send};

/// Longest any request of these tests may take: far above a real answer (milliseconds), far
/// below "never".
const BOUND: Duration = Duration::from_secs(20);

async fn bounded(app: &axum::Router, uri: &str) -> axum::http::Response<Body> {
    tokio::time::timeout(BOUND, get(app, uri))
        .await
        .unwrap_or_else(|_| panic!("{uri} took longer than {BOUND:?}"))
}

/// Defect 1: a value near 1e-300 in a volume or price sent plotters' log axis into an endless
/// loop; 27 page, 21 embed and 5 chart queries of the outside fuzz hung this way. Each shape of
/// them now answers in bounded time, with a named problem or a finite answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tiny_numbers_do_not_hang_the_server() {
    let (app, _db) = app().await;
    let tiny = ["1e-300", "1e-320", "5e-324", "0.0000001", "1e-9"];
    let params = [
        "requests",
        "input",
        "cached",
        "output",
        "tokens",
        "price_in",
        "price_out",
        "ops_monthly",
        "fte_cost",
        "kwh",
        "colo",
        "input_per_request",
        "output_per_request",
    ];
    let routes = ["/", "/embed", "/api/v1/evaluate", "/api/v1/export.csv"];
    for value in tiny {
        for param in params {
            let extra = if param == "tokens" { "&mix=2:7:1" } else { "" };
            for route in routes {
                let uri = format!("{route}?{param}={value}{extra}");
                let res = bounded(&app, &uri).await;
                assert!(!res.status().is_server_error(), "{uri}: {}", res.status());
            }
            for chart in ["volume", "classes", "tps", "tornado", "breakdown", "years"] {
                let uri = format!("/api/v1/charts/{chart}.svg?{param}={value}{extra}");
                let res = bounded(&app, &uri).await;
                assert!(!res.status().is_server_error(), "{uri}: {}", res.status());
            }
        }
    }
    // The two requests of the report, then the health check, as it was run against the server.
    let (a, b) = tokio::join!(
        bounded(&app, "/?requests=1e-300"),
        bounded(&app, "/embed?input=1e-300")
    );
    assert!(!a.status().is_server_error() && !b.status().is_server_error());
    let health = bounded(&app, "/healthz").await;
    assert_eq!(health.status(), StatusCode::OK);
    // The API names the field and its floor in the page's number format.
    let r = json(
        &app,
        "/api/v1/evaluate?requests=1e-300",
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert_eq!(problem_params(&r), ["requests"]);
    let reason = r["problems"][0]["reason"].as_str().expect("reason");
    assert!(
        reason.contains("0, or a number from 1 to 10\u{a0}T requests/month"),
        "{reason}"
    );
    let r = json(
        &app,
        "/api/v1/evaluate?price_in=1e-300",
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert!(r["problems"][0]["reason"]
        .as_str()
        .expect("reason")
        .contains("0.00000001 to 1,000 $/M tokens"));
}

/// Defect 1, the guarantee behind the inputs' floors: work that never yields cannot take the
/// health check with it. Two requests that spin (bounded here, for the test's sake, to 4 s) get
/// a 503 at the deadline while `/healthz` keeps answering.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stuck_work_does_not_stop_the_health_check() {
    use axum::routing::get as route;
    let spin = || async {
        let end = std::time::Instant::now() + Duration::from_secs(4);
        while std::time::Instant::now() < end {
            std::hint::spin_loop();
        }
        "done"
    };
    let app = axum::Router::new()
        .route("/spin", route(spin))
        .route("/healthz", route(|| async { "ok" }))
        .layer(axum::middleware::from_fn_with_state(
            Duration::from_secs(1),
            server::work::offload,
        ));
    let started = std::time::Instant::now();
    let (a, b, health) = tokio::join!(get(&app, "/spin"), get(&app, "/spin"), async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        get(&app, "/healthz").await
    });
    assert_eq!(health.status(), StatusCode::OK);
    assert_eq!(body_text(health).await, "ok");
    assert_eq!(a.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(b.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        b.headers().get(header::RETRY_AFTER).map(|v| v.as_bytes()),
        Some(&b"5"[..])
    );
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    // Let the spinning work end before the next test shares the work runtime.
    tokio::time::sleep(Duration::from_secs(4)).await;
}

/// Defect 2: a saved name went into `<title>` unescaped, and the CSP's `'unsafe-inline'` let it
/// run on every view of the link.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn saved_name_cannot_run_a_script() {
    let (app, _db) = app().await;
    let name = "</title><script>alert(3)</script><img src=x onerror=alert(4)>";
    let note = "\"><script>alert(5)</script>";
    let body = serde_json::json!({ "query": "requests=5M", "name": name, "note": note });
    let res = send(&app, post_json("/api/v1/scenarios", &body.to_string())).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let id = serde_json::from_str::<serde_json::Value>(&body_text(res).await).expect("json")["id"]
        .as_str()
        .expect("id")
        .to_owned();
    for uri in [format!("/s/{id}"), format!("/embed/s/{id}")] {
        let res = get(&app, &uri).await;
        let csp = res
            .headers()
            .get(header::CONTENT_SECURITY_POLICY)
            .and_then(|v| v.to_str().ok())
            .expect("csp")
            .to_owned();
        let html = body_text(res).await;
        for raw in ["<script>alert", "<img src=x", "</title><script>"] {
            assert!(!html.contains(raw), "{uri} carries {raw:?} unescaped");
        }
        assert!(
            html.contains("&lt;/title&gt;&lt;script&gt;alert(3)"),
            "{uri}"
        );
        let scripts = csp
            .split(';')
            .find(|d| d.trim_start().starts_with("script-src"))
            .expect("script-src");
        assert!(!scripts.contains("unsafe-inline"), "{csp}");
    }
}

/// A textarea's text comes from the link (a paste the server could not read, the load editor's
/// weights): it cannot close the element and become markup, and the field still shows it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn text_in_a_textarea_cannot_close_it() {
    let (app, _db) = app().await;
    let hostile = "%3C%2Ftextarea%3E%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E";
    for uri in [
        format!("/?curve=own&paste={hostile}&paste_error=x"),
        format!("/?profile={hostile}"),
        "/?profile=1,2%3C%2Ftextarea%3E%3Cimg%20src%3Dx%3E".to_owned(),
    ] {
        let html = body_text(get(&app, &uri).await).await;
        assert!(!html.contains("<img src=x"), "{uri} carries markup");
        assert!(
            html.contains("&lt;/textarea&gt;&lt;img src=x"),
            "{uri}: the text is kept"
        );
    }
}

/// Defect 2, the second line of defence: the calculator's inline scripts carry this response's
/// nonce, the CSP allows that nonce and no other inline script, and each response has its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inline_scripts_run_only_with_the_response_nonce() {
    let (app, _db) = app().await;
    let mut nonces = Vec::new();
    for _ in 0..2 {
        let res = get(&app, "/").await;
        let csp = res
            .headers()
            .get(header::CONTENT_SECURITY_POLICY)
            .and_then(|v| v.to_str().ok())
            .expect("csp")
            .to_owned();
        assert!(
            res.headers().get(app::NONCE_HEADER).is_none(),
            "internal header leaked"
        );
        let html = body_text(res).await;
        let nonce = csp
            .split("'nonce-")
            .nth(1)
            .and_then(|r| r.split('\'').next())
            .expect("a nonce in script-src")
            .to_owned();
        let scripts = csp
            .split(';')
            .find(|d| d.trim_start().starts_with("script-src"))
            .expect("script-src");
        assert!(!scripts.contains("unsafe-inline"), "{csp}");
        let inline = html.matches("<script").count();
        let with_nonce = html.matches(&format!("nonce=\"{nonce}\"")).count();
        assert!(inline > 0, "the calculator inlines its hydration script");
        assert!(
            with_nonce >= inline,
            "{with_nonce} of {inline} inline scripts carry the nonce"
        );
        nonces.push(nonce);
    }
    assert_ne!(nonces[0], nonces[1], "a fresh nonce for every response");
    let api = get(&app, "/api/v1/evaluate").await;
    let csp = api
        .headers()
        .get(header::CONTENT_SECURITY_POLICY)
        .and_then(|v| v.to_str().ok())
        .expect("csp");
    assert!(
        csp.contains("script-src 'self' 'wasm-unsafe-eval'"),
        "{csp}"
    );
}

/// Defect 3: any `X-Forwarded-For` value made a new client, so the save limit never held.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarded_for_does_not_bypass_the_rate_limit() {
    let (app, _db) = app().await;
    let mut statuses = Vec::new();
    for i in 0..(server::SAVES_PER_MINUTE + 5) {
        let body = serde_json::json!({ "query": format!("requests={}M", i + 1), "name": "limit" });
        let mut req = post_json("/api/v1/scenarios", &body.to_string());
        req.extensions_mut().insert(peer("203.0.113.9"));
        req.headers_mut().insert(
            "x-forwarded-for",
            format!("198.51.100.{}", i % 250).parse().expect("header"),
        );
        statuses.push(send(&app, req).await.status());
    }
    let accepted = statuses
        .iter()
        .filter(|s| **s == StatusCode::CREATED)
        .count();
    assert_eq!(accepted, server::SAVES_PER_MINUTE as usize, "{statuses:?}");
    assert_eq!(statuses.last(), Some(&StatusCode::TOO_MANY_REQUESTS));
    // Another peer is another client.
    let mut req = post_json(
        "/api/v1/scenarios",
        r#"{"query":"requests=2M","name":"someone else"}"#,
    );
    req.extensions_mut().insert(peer("203.0.113.10"));
    assert_eq!(send(&app, req).await.status(), StatusCode::CREATED);
}

/// The connection's peer, as the accept loop records it.
pub fn peer(ip: &str) -> axum::extract::ConnectInfo<std::net::SocketAddr> {
    axum::extract::ConnectInfo(std::net::SocketAddr::new(ip.parse().expect("ip"), 40_000))
}

/// Defect 4: with no header-read or idle timeout, about 20,000 idle or half-sent connections
/// exhausted the file descriptors and `/healthz` stopped answering. Here, against the real
/// accept loop with a limit of 32 connections: 300 idle and 100 half-sent connections, then
/// the health check answers at once, and the idle ones are closed by the header timeout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_cannot_starve_healthz() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (app, _db) = app().await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let limits = server::serve::Limits {
        max_connections: 32,
        header_read_timeout: Duration::from_secs(2),
        drain: Duration::from_secs(1),
    };
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(server::serve::serve(listener, app, limits, async {
        let _ = stopped.await;
    }));
    let mut idle = Vec::new();
    for i in 0..400 {
        let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
        if i % 4 == 0 {
            s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
                .await
                .expect("half a request");
        }
        idle.push(s);
    }
    // And a few requests whose body never comes: busy, so never closed to make room, but
    // they free their slots when the body timeout ends them.
    let mut stalled = Vec::new();
    for _ in 0..8 {
        let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
        s.write_all(
            b"POST /api/v1/scenarios HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
              Content-Length: 1000\r\n\r\n{",
        )
        .await
        .expect("headers and a byte of body");
        stalled.push(s);
    }
    let health = async {
        let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
        s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            .await
            .expect("request");
        let mut answer = String::new();
        s.read_to_string(&mut answer).await.expect("answer");
        answer
    };
    let answer = tokio::time::timeout(Duration::from_secs(3), health)
        .await
        .expect("/healthz answers within 3 s under the flood");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // The survivors of the flood are closed by the header-read timeout: reading gives EOF.
    let last = idle.last_mut().expect("a connection");
    let mut buf = [0u8; 64];
    let read = tokio::time::timeout(Duration::from_secs(5), last.read(&mut buf))
        .await
        .expect("closed within the header timeout");
    assert!(matches!(read, Ok(0) | Err(_)), "{read:?}");
    let mut answer = [0u8; 12];
    let n = tokio::time::timeout(
        server::BODY_TIMEOUT + Duration::from_secs(5),
        stalled[0].read(&mut answer),
    )
    .await
    .expect("a stalled body is answered after the body timeout")
    .unwrap_or(0);
    let status = String::from_utf8_lossy(&answer[..n]).into_owned();
    assert!(n == 0 || status.starts_with("HTTP/1.1 4"), "{status}");
    let _ = stop.send(());
    tokio::time::timeout(Duration::from_secs(5), server)
        .await
        .expect("the server stops")
        .expect("join");
}

/// Defect 5: in-range inputs gave `null` where the schema says number, and the CSV printed `inf`
/// and `NaN`. Every number is now finite, or the input is refused by name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_number_in_every_answer_is_finite() {
    let (app, _db) = app().await;
    // Only cached input, at a cache-hit cost of 0: no GPU time at all, so no per-MW figure.
    let r = json(
        &app,
        "/api/v1/evaluate?cache_cost=0&cached=2.5T",
        StatusCode::OK,
    )
    .await;
    assert!(r["power"]["operating_point"].is_null(), "{}", r["power"]);
    let report: servecost::Report = serde_json::from_value(r).expect("every number present");
    servecost::finite::check(&report).expect("finite");
    let csv = body_text(get(&app, "/api/v1/export.csv?cache_cost=0&cached=2.5T").await).await;
    for cell in csv.split([',', '\n']) {
        let cell = cell.trim().trim_matches('"').to_ascii_lowercase();
        assert!(
            !matches!(cell.as_str(), "nan" | "inf" | "-inf" | "infinity"),
            "{cell}"
        );
    }
    for (uri, param) in [
        ("/api/v1/evaluate?output=1e-300", "output"),
        ("/api/v1/export.csv?cached=1e-300", "cached"),
    ] {
        let r = json(&app, uri, StatusCode::BAD_REQUEST).await;
        assert_eq!(problem_params(&r), [param], "{uri}");
    }
}

/// Defect 6: the `Host` header landed in `og:url` and the oEmbed discovery link, and oEmbed
/// answered for any origin.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn host_header_is_not_trusted() {
    let (app, _db) = app().await;
    let req = Request::get("/?requests=5M")
        .header(header::HOST, "evil.example")
        .header("x-forwarded-proto", "https")
        .body(Body::empty())
        .expect("request");
    let html = body_text(send(&app, req).await).await;
    assert!(
        !html.contains("evil.example"),
        "the Host header reached the page"
    );
    assert!(html.contains(r#"content="http://127.0.0.1:3000/?v=1&amp;requests=5M""#));
    let r = json(
        &app,
        "/oembed?url=https%3A%2F%2Fattacker.example%2F",
        StatusCode::NOT_FOUND,
    )
    .await;
    assert_eq!(problem_params(&r), ["url"]);
    // A look-alike host that starts with the public origin is not it either.
    json(
        &app,
        "/oembed?url=http%3A%2F%2F127.0.0.1%3A3000.attacker.example%2F",
        StatusCode::NOT_FOUND,
    )
    .await;
}

/// Defect 7: 16 identical saves at once, 50 times, gave 524 ids instead of 50.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn identical_saves_at_once_get_one_id() {
    let (app, _db) = app().await;
    let mut ids = std::collections::BTreeSet::new();
    // Two rounds of 16 and 12 identical saves: 28, under the 30 a minute one client may make.
    for (round, n) in [16, 12].into_iter().enumerate() {
        let body = serde_json::json!({
            "query": format!("requests={}M", round + 7),
            "name": "race",
            "note": "identical"
        })
        .to_string();
        let saves = (0..n).map(|_| {
            let (app, body) = (app.clone(), body.clone());
            tokio::spawn(async move {
                let res = app
                    .oneshot(post_json("/api/v1/scenarios", &body))
                    .await
                    .expect("response");
                let status = res.status();
                let v: serde_json::Value =
                    serde_json::from_str(&body_text(res).await).expect("json");
                (status, v["id"].as_str().map(str::to_owned))
            })
        });
        let mut round_ids = std::collections::BTreeSet::new();
        let mut created = 0;
        for save in saves.collect::<Vec<_>>() {
            let (status, id) = save.await.expect("join");
            assert!(status.is_success(), "{status}");
            created += usize::from(status == StatusCode::CREATED);
            round_ids.insert(id.expect("id"));
        }
        assert_eq!(
            round_ids.len(),
            1,
            "one id for {n} identical saves: {round_ids:?}"
        );
        assert_eq!(created, 1, "one 201, the others 200");
        ids.extend(round_ids);
    }
    assert_eq!(ids.len(), 2);
}

/// Defect 9: a body over the limit got a plain-text 413; a 64 KB query was echoed into a 1.1 MB
/// page; `price_in=1_000` was read as 1000.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_answer_in_json_and_numbers_are_plain() {
    let (app, _db) = app().await;
    let big = "x".repeat(server::BODY_LIMIT + 10);
    let req = Request::post("/api/v1/evaluate")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::CONTENT_LENGTH, big.len())
        .body(Body::from(big))
        .expect("request");
    let res = send(&app, req).await;
    assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let v: serde_json::Value = serde_json::from_str(&body_text(res).await).expect("a JSON 413");
    assert_eq!(v["error"], "request body too large");
    let long = format!("/?colour={}", "a".repeat(60 * 1024));
    let res = get(&app, &long).await;
    assert_eq!(res.status(), StatusCode::URI_TOO_LONG);
    let text = body_text(res).await;
    assert!(text.len() < 1_000, "{} bytes", text.len());
    let r = json(
        &app,
        "/api/v1/evaluate?price_in=1_000",
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert_eq!(problem_params(&r), ["price_in"]);
}
