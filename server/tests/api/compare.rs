//! `/compare`: two scenarios side by side, each a saved id (at its pinned revision) or a link;
//! a bad or missing side is named on the page, never an error page; `/embed/compare` frames it.

use crate::common::{app, body_text, get, json, post_json, send};
use axum::http::{header, StatusCode};

/// The `data-` attribute `name` of the element with `data-testid="side-{key}"`.
fn side_attr(html: &str, key: &str, name: &str) -> f64 {
    let part = html
        .split(&format!(r#"data-testid="side-{key}""#))
        .nth(1)
        .unwrap_or_else(|| panic!("side {key} is shown"));
    part.split(&format!(r#"{name}=""#))
        .nth(1)
        .and_then(|t| t.split('"').next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("side {key} has {name}"))
}

async fn saved_id(app: &axum::Router, body: &str) -> String {
    let response = send(app, post_json("/api/v1/scenarios", body)).await;
    let saved: serde_json::Value = serde_json::from_str(&body_text(response).await).expect("json");
    saved["id"].as_str().expect("id").to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_saved_scenarios_side_by_side() {
    let (app, _db) = app().await;
    let a = saved_id(&app, r#"{"query":"requests=20M","name":"This year"}"#).await;
    let b = saved_id(
        &app,
        r#"{"query":"requests=60M&horizon=5","name":"Next year"}"#,
    )
    .await;
    // A pasted link to a saved page reads as its id.
    let b_link = format!("http%3A%2F%2F127.0.0.1%3A3000%2Fs%2F{b}");
    let response = get(&app, &format!("/compare?a={a}&b={b_link}")).await;
    assert_eq!(response.status(), StatusCode::OK);
    let html = body_text(response).await;
    assert!(html.contains("A: This year") && html.contains("B: Next year"));
    for (key, id) in [("a", &a), ("b", &b)] {
        let pinned = json(&app, &format!("/api/v1/scenarios/{id}"), StatusCode::OK).await;
        let report = &pinned["report"];
        for (attr, line) in [("data-rent", "rent"), ("data-self", "self_host")] {
            let expected = report[line]["monthly_usd"].as_f64().expect("total");
            let shown = side_attr(&html, key, attr);
            assert!(
                (shown - expected).abs() <= 1e-9 * expected,
                "{key} {attr}: {shown} {expected}"
            );
        }
    }
    // The inputs that differ: the volume and the horizon (3 years by default on A).
    let inputs = html
        .split(r#"data-testid="differing-inputs""#)
        .nth(1)
        .expect("the inputs that differ");
    assert!(inputs.contains("Requests per month") && inputs.contains("Years ahead"));
    assert!(inputs.contains("3 years (default)"), "A's horizon in force");
    assert!(
        html.contains(r#"data-testid="bills""#) && html.contains(r#"data-testid="chart-compare""#)
    );
    // Its embed frames the same two.
    let embed = get(&app, &format!("/embed/compare?a={a}&b={b}")).await;
    assert!(embed.headers()[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .expect("csp")
        .ends_with("frame-ancestors *"));
    let embedded = body_text(embed).await;
    assert!(embedded.contains("A: This year") && embedded.contains("B: Next year"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_links_side_by_side_each_the_calculators() {
    let (app, _db) = app().await;
    let html = body_text(
        get(
            &app,
            "/compare?a=requests%3D40M&b=https%3A%2F%2Fcosts.example.com%2F%3Frequests%3D40M%26gpu_hour%3D2.1",
        )
        .await,
    )
    .await;
    for (key, q) in [("a", "requests=40M"), ("b", "requests=40M&gpu_hour=2.1")] {
        let r = json(&app, &format!("/api/v1/evaluate?{q}"), StatusCode::OK).await;
        let expected = r["self_host"]["monthly_usd"].as_f64().expect("total");
        let shown = side_attr(&html, key, "data-self");
        assert!(
            (shown - expected).abs() <= 1e-9 * expected,
            "{key}: {shown} {expected}"
        );
    }
    let inputs = html
        .split(r#"data-testid="differing-inputs""#)
        .nth(1)
        .expect("the inputs that differ");
    assert!(inputs.contains("GPU-hour price"));
    assert!(
        !inputs.contains("Requests per month"),
        "the same volume is not listed"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_or_missing_side_is_named_not_an_error_page() {
    let (app, _db) = app().await;
    for (uri, key, says) in [
        ("/compare?a=requests%3D40M&b=tokens%3Dlots", "b", "tokens"),
        (
            "/compare?a=ZZZZZZZZZZZZ&b=requests%3D40M",
            "a",
            "no saved scenario",
        ),
        ("/compare?a=requests%3D40M", "b", "not given"),
        ("/compare?a=horizon%3D9&b=requests%3D40M", "a", "1 to 5"),
    ] {
        let response = get(&app, uri).await;
        assert_eq!(response.status(), StatusCode::OK, "{uri}");
        let html = body_text(response).await;
        let message = html
            .split(&format!(r#"data-testid="side-{key}-error""#))
            .nth(1)
            .and_then(|t| t.split_once('>'))
            .and_then(|(_, t)| t.split("</p>").next())
            .unwrap_or_else(|| panic!("{uri}: side {key} is named"));
        assert!(message.contains(says), "{uri}: {message}");
        // The form keeps what was given, to fix it.
        assert!(html.contains(r#"data-testid="compare-form""#));
    }
}
