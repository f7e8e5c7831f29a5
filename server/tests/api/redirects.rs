//! What every answer keeps to, whatever bytes a form carries: a form post is answered by a 303
//! whose `Location` is a valid, percent-encoded path of this site, or by a JSON 4xx; redirects
//! never name another host; refusals under `/api/` are JSON, elsewhere a small page; a 429 says
//! when to come back; and the page shows only the messages the server wrote into a link.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use servecost::codec::{Param, PARAMS};

use crate::common::{app, app_with_site, body_text, get, send};

/// The bytes each field is sent with: every control byte, DEL, and a non-ASCII character.
fn hostile() -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = (0u8..=31).chain([127]).map(|b| vec![b]).collect();
    out.push("é".as_bytes().to_vec());
    out.push(vec![0xff]);
    out
}

/// The whole `Location` is ASCII a URI allows, every `%` starts an escape, and it is a path of
/// this site (one leading slash), which `http` parses as a URI.
fn assert_valid(location: &str, what: &str) {
    let bytes = location.as_bytes();
    assert!(
        bytes.first() == Some(&b'/') && !matches!(bytes.get(1), Some(b'/') | Some(b'\\')),
        "{what}: {location}"
    );
    for (i, &b) in bytes.iter().enumerate() {
        let allowed = b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?".contains(&b);
        let escape = b == b'%'
            && bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
            && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit);
        assert!(allowed || escape, "{what}: byte {i} of {location:?}");
    }
    location
        .parse::<axum::http::Uri>()
        .unwrap_or_else(|e| panic!("{what}: {location}: {e}"));
}

/// A 303 with a valid `Location`, or a 4xx in JSON.
async fn assert_answered(res: axum::http::Response<Body>, what: &str) -> Option<String> {
    let status = res.status();
    if status == StatusCode::SEE_OTHER {
        let location = res.headers()[header::LOCATION]
            .to_str()
            .unwrap_or_else(|_| panic!("{what}: Location is not ASCII"))
            .to_owned();
        assert_valid(&location, what);
        return Some(location);
    }
    assert!(status.is_client_error(), "{what}: {status}");
    let kind = res.headers()[header::CONTENT_TYPE]
        .to_str()
        .unwrap_or("")
        .to_owned();
    assert!(
        kind.starts_with("application/json"),
        "{what}: {status} {kind}"
    );
    None
}

/// Every field of the form, and its cells: the link's parameters and the form's own.
fn fields() -> Vec<&'static str> {
    let mut names: Vec<&str> = PARAMS
        .iter()
        .map(|p| match p {
            Param::Number(s) => s.name,
            Param::Text(s) => s.name,
        })
        .collect();
    names.extend(app::form::FORM_ONLY);
    names.extend(["open", "curve", "unknown_field"]);
    names
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_form_post_with_any_byte_in_any_field_is_redirected_on_site() {
    let (app, _db) = app().await;
    let mut redirected = 0;
    for name in fields() {
        for bytes in hostile() {
            let mut body = b"tokens=1B&mix=1:1:1&".to_vec();
            body.extend_from_slice(name.as_bytes());
            body.extend_from_slice(b"=a");
            body.extend_from_slice(&bytes);
            body.extend_from_slice(b"b");
            let req = Request::post("/")
                .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
                .body(Body::from(body))
                .expect("request");
            let what = format!("POST / {name}={bytes:?}");
            if assert_answered(send(&app, req).await, &what)
                .await
                .is_some()
            {
                redirected += 1;
            }
        }
    }
    assert_eq!(redirected, fields().len() * hostile().len());
    // The issue's own reproduction: a raw line feed between two fields.
    let req = Request::post("/")
        .body(Body::from("tokens=1B\nmix=1:1:1"))
        .expect("request");
    let to = assert_answered(send(&app, req).await, "line feed")
        .await
        .expect("redirected");
    assert_eq!(to, "/?tokens=1B%0Amix=1:1:1");
}

/// A multipart body whose field `name` holds `value` as raw bytes, beside a link.
fn multipart(fields: &[(&str, &[u8])]) -> Request<Body> {
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend_from_slice(
            format!("--XyZ\r\ncontent-disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes(),
        );
        body.extend_from_slice(value);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(b"--XyZ--\r\n");
    Request::post("/usage")
        .header(header::CONTENT_TYPE, "multipart/form-data; boundary=XyZ")
        .body(Body::from(body))
        .expect("request")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_usage_form_with_any_byte_in_any_field_is_redirected_on_site() {
    const CSV: &str = include_str!("../../usage-examples/usage.csv");
    let (app, _db) = app().await;
    // Uploads per client are limited: each comes from a client of its own.
    let mut sent = 0;
    for field in ["query", "usage", "usage_file", "usage_model"] {
        for bytes in hostile() {
            let mut value = b"requests=30M&x=a".to_vec();
            value.extend_from_slice(&bytes);
            value.extend_from_slice(b"b");
            let mut parts: Vec<(&str, &[u8])> =
                vec![("query", b"gpu_hour=2.8"), ("usage", CSV.as_bytes())];
            parts.retain(|(n, _)| *n != field);
            parts.push((field, &value));
            let what = format!("POST /usage {field}={bytes:?}");
            let mut req = multipart(&parts);
            from(&mut req, sent);
            let res = send(&app, req).await;
            sent += 1;
            let to = assert_answered(res, &what)
                .await
                .expect("the form is redirected");
            // What the server wrote into the link is shown: its signature holds.
            if to.contains("usage_error=") || to.contains("usage_read=") {
                assert!(to.contains("&notice="), "{what}: {to}");
            }
        }
    }
    assert_eq!(sent, 4 * hostile().len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_shows_only_the_messages_the_server_wrote() {
    let (app, _db) = app().await;
    let res = send(
        &app,
        multipart(&[("query", b"gpu_hour=2.8"), ("usage", b"when,tokens")]),
    )
    .await;
    let to = assert_answered(res, "unreadable export")
        .await
        .expect("303");
    let reason = servecost::codec::decode(
        &app::query::get(to.trim_start_matches("/?"), "usage_error").expect("a reason"),
    );
    let page = body_text(get(&app, &to).await).await;
    // The reason, as the page's alert shows it (its text escaped as HTML).
    let alert = format!("block\">{}<", app::escape_html(&reason));
    assert!(
        page.contains(&alert),
        "{reason}\n{}",
        page.split("error-usage")
            .nth(1)
            .unwrap_or("no alert")
            .chars()
            .take(300)
            .collect::<String>()
    );
    // The same words in a link the server did not sign, or under another message's signature,
    // are not shown.
    let forged = "/?gpu_hour=2.8&usage_error=Your%20account%20is%20closed%3A%20call%20555";
    let page = body_text(get(&app, forged).await).await;
    assert!(!page.contains("Your account is closed"), "shown unsigned");
    let notice = to.split("&notice=").nth(1).expect("signed");
    let resigned = format!("{forged}&notice={notice}");
    let page = body_text(get(&app, &resigned).await).await;
    assert!(
        !page.contains("Your account is closed"),
        "shown under another signature"
    );
    // Messages a client posts are not signed for it: the form's body and the usage form's link.
    let req = Request::post("/")
        .body(Body::from(
            "tokens=1B&paste_error=Call+555&usage_read=Call+556",
        ))
        .expect("request");
    let to = assert_answered(send(&app, req).await, "posted messages")
        .await
        .expect("303");
    let page = body_text(get(&app, &to).await).await;
    assert!(
        !page.contains("Call 555") && !page.contains("Call 556"),
        "{to}"
    );
    let res = send(
        &app,
        multipart(&[
            (
                "query",
                b"gpu_hour=2.8&usage_read=Call+557&paste_error=Call+558",
            ),
            ("usage", b"when,tokens"),
        ]),
    )
    .await;
    let to = assert_answered(res, "a link with messages")
        .await
        .expect("303");
    assert!(!to.contains("Call"), "{to}");
    // A blank first value before a forged one is not a way round the signature.
    let page = body_text(get(&app, "/?usage_read=+&usage_read=Your+account+is+closed").await).await;
    assert!(!page.contains("Your account is closed"));
    // A paste the server could not read: its reason signed, shown.
    let req = Request::post("/")
        .body(Body::from("curve=own&pt_tps=20&pt_tput=3000&paste=%7Boops"))
        .expect("request");
    let to = assert_answered(send(&app, req).await, "paste")
        .await
        .expect("303");
    assert!(
        to.contains("paste_error=") && to.contains("&notice="),
        "{to}"
    );
    let page = body_text(get(&app, &to).await).await;
    assert!(page.contains("not valid JSON"), "{to}");
    // A forged reason beside a kept paste: the page reads the paste itself and says its own.
    let page = body_text(
        get(
            &app,
            "/?curve=own&pt_tps=20&pt_tput=3000&paste=%7Boops&paste_error=Send%20money",
        )
        .await,
    )
    .await;
    assert!(!page.contains("Send money") && page.contains("not valid JSON"));
    // A paste the server read: it says how many rows, signed; a link that writes its own words
    // there is shown without them.
    let req = Request::post("/")
        .body(Body::from(
            "curve=own&pt_tps=20&pt_tput=3000&paste=40%092000%0A60%091000",
        ))
        .expect("request");
    let to = assert_answered(send(&app, req).await, "rows pasted")
        .await
        .expect("303");
    assert!(
        to.contains("paste_read=") && to.contains("&notice="),
        "{to}"
    );
    let page = body_text(get(&app, &to).await).await;
    assert!(page.contains("Read 2 rows, added to the rows."), "{to}");
    let forged = to
        .split("&notice=")
        .next()
        .expect("query")
        .replace("Read%202%20rows", "Call%20555%20rows");
    let page = body_text(get(&app, &forged).await).await;
    assert!(
        !page.contains("Call 555") && !page.contains("Read 2 rows"),
        "{forged}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redirects_stay_on_the_site() {
    let site = std::env::temp_dir().join(format!("servecost-redirects-{}", std::process::id()));
    std::fs::create_dir_all(site.join("pkg")).expect("pkg");
    std::fs::write(site.join("pkg/a.css"), "a{}").expect("file");
    let (app, _db) = app_with_site(&site).await;
    for uri in ["//pkg", "///pkg", "/pkg", "//%5Cpkg"] {
        let res = get(&app, uri).await;
        if let Some(location) = res.headers().get(header::LOCATION) {
            let location = location.to_str().expect("ascii");
            assert!(
                location.starts_with('/')
                    && !location.starts_with("//")
                    && !location.starts_with("/\\"),
                "{uri}: {location}"
            );
        }
    }
    let res = get(&app, "//pkg").await;
    assert!(res.status().is_redirection(), "{}", res.status());
    std::fs::remove_dir_all(&site).ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_are_json_under_the_api_and_a_page_elsewhere() {
    let (app, _db) = app().await;
    let json = |res: &axum::http::Response<Body>| {
        res.headers()[header::CONTENT_TYPE]
            .to_str()
            .unwrap_or("")
            .starts_with("application/json")
    };
    for (method, uri, status) in [
        ("GET", "/api/v1/nothing-here", StatusCode::NOT_FOUND),
        ("GET", "/api/v1/scenarios/%FF", StatusCode::NOT_FOUND),
        ("GET", "/api/v2", StatusCode::NOT_FOUND),
        ("DELETE", "/api/v1/evaluate", StatusCode::METHOD_NOT_ALLOWED),
        ("PUT", "/api/v1/scenarios", StatusCode::METHOD_NOT_ALLOWED),
        ("GET", "/api/v1/usage", StatusCode::METHOD_NOT_ALLOWED),
    ] {
        let req = Request::builder()
            .method(method)
            .uri(uri)
            .body(Body::empty())
            .expect("request");
        let res = send(&app, req).await;
        let what = format!("{method} {uri}");
        assert!(
            res.status() == status || res.status() == StatusCode::BAD_REQUEST,
            "{what}: {}",
            res.status()
        );
        assert!(json(&res), "{what}");
        let allowed = res.headers().get(header::ALLOW).cloned();
        let body: serde_json::Value =
            serde_json::from_str(&body_text(res).await).expect("a JSON error");
        assert!(
            body["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{what}: {body}"
        );
        assert!(
            !body["problems"].as_array().expect("problems").is_empty(),
            "{what}: {body}"
        );
        if status == StatusCode::METHOD_NOT_ALLOWED {
            assert!(allowed.is_some(), "{what}: Allow kept");
        }
    }
    for (method, uri, status) in [
        ("GET", "/nothing-here.txt", StatusCode::NOT_FOUND),
        ("PUT", "/", StatusCode::METHOD_NOT_ALLOWED),
        ("DELETE", "/s", StatusCode::METHOD_NOT_ALLOWED),
    ] {
        let req = Request::builder()
            .method(method)
            .uri(uri)
            .body(Body::empty())
            .expect("request");
        let res = send(&app, req).await;
        let what = format!("{method} {uri}");
        assert_eq!(res.status(), status, "{what}");
        let kind = res.headers()[header::CONTENT_TYPE]
            .to_str()
            .unwrap_or("")
            .to_owned();
        assert!(kind.starts_with("text/html"), "{what}: {kind}");
        let page = body_text(res).await;
        assert!(
            page.contains("<h1>") && page.contains("href=\"/\""),
            "{what}: {page}"
        );
        assert!(
            page.contains("color-scheme"),
            "{what}: dark where the reader's is"
        );
    }
    // A link over its limit: a page to a browser, with the limit in the page's words; the
    // JSON error to a script, and on the API and oEmbed to anyone.
    let long = format!("?note={}", "x".repeat(server::QUERY_LIMIT));
    for (path, accept, page) in [
        ("/", "text/html,application/xhtml+xml", true),
        ("/", "*/*", false),
        ("/api/v1/evaluate", "text/html", false),
        ("/oembed", "text/html", false),
    ] {
        let req = Request::get(format!("{path}{long}"))
            .header(header::ACCEPT, accept)
            .body(Body::empty())
            .expect("request");
        let res = send(&app, req).await;
        assert_eq!(res.status(), StatusCode::URI_TOO_LONG, "{path} {accept}");
        assert_eq!(json(&res), !page, "{path} {accept}");
        let text = body_text(res).await;
        if page {
            assert!(text.contains("<h1>The link is too long</h1>"), "{text}");
            assert!(text.contains("at most 8,192 bytes"), "{text}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_429_says_when_to_come_back() {
    let (app, _db) = app().await;
    // Saves: 30 a minute per client.
    let mut refused = None;
    for i in 0..=crate_limit() {
        let mut req = crate::common::post_json(
            "/api/v1/scenarios",
            &format!(r#"{{"query": "requests={}M", "name": "limit"}}"#, i + 1),
        );
        from(&mut req, 1);
        let res = send(&app, req).await;
        if res.status() == StatusCode::TOO_MANY_REQUESTS {
            refused = Some(res);
            break;
        }
    }
    let res = refused.expect("the 31st save is refused");
    let wait: u64 = res.headers()[header::RETRY_AFTER]
        .to_str()
        .expect("ascii")
        .parse()
        .expect("seconds");
    assert!((1..=60).contains(&wait), "{wait}");
    // Usage uploads: 20 a minute per client.
    let mut last = None;
    for _ in 0..=server::api::usage::PER_MINUTE {
        let mut req = Request::post("/api/v1/usage")
            .body(Body::from("time,input\n2026-01-01,1\n"))
            .expect("request");
        from(&mut req, 2);
        last = Some(send(&app, req).await);
    }
    let res = last.expect("sent");
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(res.headers().contains_key(header::RETRY_AFTER));
    let body: serde_json::Value = serde_json::from_str(&body_text(res).await).expect("json");
    assert!(
        body["error"]
            .as_str()
            .expect("error")
            .contains("usage uploads"),
        "{body}"
    );
}

fn crate_limit() -> u32 {
    server::SAVES_PER_MINUTE
}

/// Uploads past the ones being read wait their turn for a while, then get a 503 with
/// `Retry-After`, whatever their number; a slot is freed when its upload ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_past_the_ones_being_read_get_a_503_with_retry_after() {
    use server::api::usage::{AT_ONCE, WAIT};
    let (app, _db) = app().await;
    // Uploads whose bodies never end hold every slot; each comes from a client of its own.
    let stalled = |i: usize| {
        let mut req = Request::post("/api/v1/usage")
            .body(Body::new(Stalled))
            .expect("request");
        from(&mut req, i);
        req
    };
    let mut held = Vec::new();
    for i in 0..AT_ONCE {
        let app = app.clone();
        held.push(tokio::spawn(async move { send(&app, stalled(i)).await }));
    }
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let started = std::time::Instant::now();
    let res = send(
        &app,
        Request::post("/api/v1/usage")
            .body(Body::from("time,input\n2026-01-01,1\n"))
            .expect("request"),
    )
    .await;
    assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(started.elapsed() >= WAIT, "{:?}", started.elapsed());
    assert!(res.headers().contains_key(header::RETRY_AFTER));
    let body: serde_json::Value = serde_json::from_str(&body_text(res).await).expect("json");
    assert!(
        body["error"]
            .as_str()
            .expect("error")
            .contains("being read"),
        "{body}"
    );
    for h in held {
        h.abort();
    }
}

/// A request body that never sends a byte.
struct Stalled;

impl axum::body::HttpBody for Stalled {
    type Data = axum::body::Bytes;
    type Error = std::io::Error;

    fn poll_frame(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        std::task::Poll::Pending
    }
}

/// `req` as sent from a client of its own, the `n`th.
fn from<B>(req: &mut Request<B>, n: usize) {
    let ip = std::net::Ipv4Addr::from(0x0a00_0000 + n as u32);
    req.extensions_mut()
        .insert(axum::extract::ConnectInfo(std::net::SocketAddr::from((
            ip, 4000,
        ))));
}
