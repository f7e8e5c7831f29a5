//! Caching: the hashed bundle is kept for a year and served precompressed as built; pages and
//! fixed-name files revalidate, and a page whose HTML has not changed answers 304.

use crate::common::{app_with_site, body_text, get, send};
use axum::body::Body;
use axum::http::{header, Request, Response, StatusCode};
use http_body_util::BodyExt;

const CODE: &str = "servecost-0123456789abcdef";
const STYLE: &str = "servecost-fedcba9876543210.css";

/// A built site as `scripts/site-assets.mjs` leaves it: each file of the bundle beside a brotli
/// and a gzip copy (distinct bytes here, so a test can tell which one it got) and the manifest.
fn site() -> std::path::PathBuf {
    let root = std::env::temp_dir().join(format!(
        "servecost-site-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    let pkg = root.join("pkg");
    std::fs::create_dir_all(&pkg).expect("site folder");
    for name in [
        format!("{CODE}.js"),
        format!("{CODE}_bg.wasm"),
        STYLE.to_owned(),
    ] {
        for suffix in ["", ".br", ".gz"] {
            let file = format!("{name}{suffix}");
            std::fs::write(pkg.join(&file), format!("contents of {file}")).expect("file");
        }
    }
    std::fs::write(
        pkg.join("assets.json"),
        format!("{{\"output_name\": \"{CODE}\", \"stylesheet\": \"{STYLE}\"}}"),
    )
    .expect("manifest");
    std::fs::write(root.join("favicon.ico"), "icon").expect("favicon");
    root
}

async fn get_with(
    app: &axum::Router,
    uri: &str,
    headers: &[(header::HeaderName, &str)],
) -> Response<Body> {
    let mut request = Request::get(uri);
    for (name, value) in headers {
        request = request.header(name, *value);
    }
    send(app, request.body(Body::empty()).expect("request")).await
}

fn header_of(res: &Response<Body>, name: header::HeaderName) -> Option<String> {
    res.headers()
        .get(name)
        .map(|v| v.to_str().expect("ascii header").to_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hashed_bundle_is_immutable_and_served_precompressed() {
    let root = site();
    let (app, _db) = app_with_site(&root).await;
    for file in [
        format!("{CODE}_bg.wasm"),
        format!("{CODE}.js"),
        STYLE.to_owned(),
    ] {
        let uri = format!("/pkg/{file}");
        for (accept, encoding, served) in [
            ("br, gzip", Some("br"), format!("{file}.br")),
            ("gzip", Some("gzip"), format!("{file}.gz")),
            ("identity", None, file.clone()),
        ] {
            let res = get_with(&app, &uri, &[(header::ACCEPT_ENCODING, accept)]).await;
            assert_eq!(res.status(), StatusCode::OK, "{uri} ({accept})");
            assert_eq!(
                header_of(&res, header::CACHE_CONTROL).as_deref(),
                Some("public, max-age=31536000, immutable"),
                "{uri}"
            );
            assert!(
                header_of(&res, header::VARY).is_some_and(|v| v.contains("accept-encoding")),
                "{uri}: a proxy keeps each encoding apart"
            );
            assert_eq!(
                header_of(&res, header::CONTENT_ENCODING).as_deref(),
                encoding,
                "{uri} ({accept})"
            );
            // The file built for that encoding, byte for byte: nothing compressed it again.
            let body = res.into_body().collect().await.expect("body").to_bytes();
            assert_eq!(
                body,
                format!("contents of {served}").as_bytes(),
                "{uri} ({accept})"
            );
        }
    }
    // A file with a fixed name revalidates (with its date) instead.
    let res = get(&app, "/favicon.ico").await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(
        header_of(&res, header::CACHE_CONTROL).as_deref(),
        Some("no-cache")
    );
    assert!(header_of(&res, header::LAST_MODIFIED).is_some());
    // Files of no build are not found, and not cached.
    let res = get(&app, "/pkg/servecost-0000000000000000_bg.wasm").await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert_eq!(header_of(&res, header::CACHE_CONTROL), None);
    let _ = std::fs::remove_dir_all(root);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_load_the_hashed_bundle_and_revalidate() {
    let root = site();
    let (app, _db) = app_with_site(&root).await;
    let first = get(&app, "/?requests=2M").await;
    assert_eq!(first.status(), StatusCode::OK);
    assert_eq!(
        header_of(&first, header::CACHE_CONTROL).as_deref(),
        Some("no-cache")
    );
    let tag = header_of(&first, header::ETAG).expect("the page has an ETag");
    assert!(tag.starts_with("W/\""), "{tag}");
    let csp = header_of(&first, header::CONTENT_SECURITY_POLICY).expect("CSP");
    let html = body_text(first).await;
    for href in [
        format!("/pkg/{CODE}.js"),
        format!("/pkg/{CODE}_bg.wasm"),
        format!("/pkg/{STYLE}"),
    ] {
        assert!(html.contains(&href), "the page loads {href}");
    }
    assert!(
        !html.contains("/pkg/servecost.css"),
        "no unhashed name is left"
    );

    // Rendered again, the page has a new nonce and the same tag.
    let again = get(&app, "/?requests=2M").await;
    assert_ne!(
        header_of(&again, header::CONTENT_SECURITY_POLICY).as_deref(),
        Some(csp.as_str())
    );
    assert_eq!(
        header_of(&again, header::ETAG).as_deref(),
        Some(tag.as_str())
    );
    // Another scenario is another page.
    let other = get(&app, "/?requests=3M").await;
    assert_ne!(
        header_of(&other, header::ETAG).as_deref(),
        Some(tag.as_str())
    );

    // The browser asks with its tag: 304, no body, and no CSP replacing the stored copy's.
    let res = get_with(
        &app,
        "/?requests=2M",
        &[(header::IF_NONE_MATCH, tag.as_str())],
    )
    .await;
    assert_eq!(res.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(header_of(&res, header::ETAG).as_deref(), Some(tag.as_str()));
    assert_eq!(
        header_of(&res, header::CACHE_CONTROL).as_deref(),
        Some("no-cache")
    );
    assert_eq!(header_of(&res, header::CONTENT_SECURITY_POLICY), None);
    assert!(header_of(&res, header::VARY).is_some_and(|v| v.contains("accept-encoding")));
    assert!(body_text(res).await.is_empty());
    // A HEAD is not tagged: its body is not the page's.
    let head = send(
        &app,
        Request::head("/?requests=2M")
            .body(Body::empty())
            .expect("request"),
    )
    .await;
    assert_eq!(head.status(), StatusCode::OK);
    assert_eq!(header_of(&head, header::ETAG), None);
    // A stale tag gets the page.
    let res = get_with(
        &app,
        "/?requests=2M",
        &[(header::IF_NONE_MATCH, "W/\"0000000000000000\"")],
    )
    .await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(body_text(res).await.contains(&format!("/pkg/{CODE}.js")));

    // The embed and the API documentation revalidate the same way and use the hashed stylesheet.
    for uri in ["/embed?requests=2M", "/api/v1/docs"] {
        let res = get(&app, uri).await;
        assert_eq!(res.status(), StatusCode::OK, "{uri}");
        let tag = header_of(&res, header::ETAG).expect("ETag");
        assert!(
            body_text(res).await.contains(&format!("/pkg/{STYLE}")),
            "{uri}"
        );
        let res = get_with(&app, uri, &[(header::IF_NONE_MATCH, tag.as_str())]).await;
        assert_eq!(res.status(), StatusCode::NOT_MODIFIED, "{uri}");
    }
    // JSON is not a page: no tag.
    let res = get(&app, "/api/v1/evaluate?requests=2M").await;
    assert_eq!(header_of(&res, header::ETAG), None);
    let _ = std::fs::remove_dir_all(root);
}
