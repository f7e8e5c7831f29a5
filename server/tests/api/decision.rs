//! The decision travels: the cheapest plan, the sureness line and the flips on `/`, `/s/{id}`,
//! `/embed` and `/embed/s/{id}` equal the API's report for the same link, and the CSV, oEmbed
//! and Open Graph text carry them.

use crate::common::{app, body_text, get, json, post_json, send};
use axum::http::StatusCode;

/// The value of `attr` on the element marked `data-testid="{testid}"`.
fn attr(html: &str, testid: &str, attr: &str) -> String {
    let at = html
        .find(&format!(r#"data-testid="{testid}""#))
        .unwrap_or_else(|| panic!("no {testid}"));
    let tag = &html[html[..at].rfind('<').expect("tag start")..];
    let tag = &tag[..tag.find('>').expect("tag end")];
    let key = format!(r#"{attr}=""#);
    let from = tag
        .find(&key)
        .unwrap_or_else(|| panic!("no {attr} on {testid}: {tag}"))
        + key.len();
    tag[from..from + tag[from..].find('"').expect("quote")].to_owned()
}

/// Equal to the last bits serde_json's float parsing may differ in (the CSV keeps 12 digits).
fn close(a: f64, b: f64, what: &str) {
    assert!(
        (a - b).abs() <= 1e-11 * b.abs().max(1.0),
        "{what}: {a} vs {b}"
    );
}

fn number(text: &str) -> f64 {
    text.parse()
        .unwrap_or_else(|_| panic!("{text:?} is not a number"))
}

/// The page's decision figures against the API's report.
fn assert_same(html: &str, api: &serde_json::Value, what: &str) {
    assert_eq!(
        attr(html, "best", "data-best"),
        api["verdict"]["best"].as_str().expect("best"),
        "{what}"
    );
    let usd = number(&attr(html, "best", "data-usd"));
    assert_eq!(
        usd,
        api["verdict"]["best_monthly_usd"].as_f64().expect("usd"),
        "{what}"
    );
    let u = &api["uncertainty"];
    for (data, field) in [
        ("data-p-best", "p_best_holds"),
        ("data-p-self", "p_self_host_cheaper"),
    ] {
        close(
            number(&attr(html, "sureness", data)),
            u[field].as_f64().expect("p"),
            what,
        );
    }
    close(
        number(&attr(html, "sureness", "data-p10")),
        u["difference_usd"]["p10"].as_f64().expect("p10"),
        what,
    );
    // Every flip of the report is on the page with its value.
    // The embed, a small frame, lists the first three.
    let shown = if what.contains("/embed") {
        3
    } else {
        usize::MAX
    };
    for f in api["flips"]["flips"]
        .as_array()
        .expect("flips")
        .iter()
        .take(shown)
    {
        let value = f["value"].as_f64().expect("value");
        let key = format!(
            r#"data-param="{}" data-value=""#,
            f["param"].as_str().expect("param")
        );
        let found = html.match_indices(&key).any(|(at, _)| {
            let rest = &html[at + key.len()..];
            rest[..rest.find('"').expect("quote")]
                .parse::<f64>()
                .is_ok_and(|v| (v - value).abs() <= 1e-11 * value.abs().max(1.0))
        });
        assert!(found, "{what}: flip {f}");
    }
    // The share as printed: no more precisely than its standard error.
    let percent = format!(
        "Holds in {}",
        servecost::format::share_about(
            u["p_best_holds"].as_f64().expect("p"),
            u["p_best_holds_se"].as_f64().expect("se")
        )
    );
    assert!(html.contains(&percent), "{what}: {percent}");
    for code in api["top_warnings"].as_array().expect("top") {
        let code = code.as_str().expect("code");
        let block = &html[html.find(r#"data-testid="top-caveats""#).expect("caveats")..];
        assert!(
            block.contains(&format!(r#"data-code="{code}""#)),
            "{what}: {code}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_decision_is_the_same_on_every_page_that_shows_it() {
    let (app, _db) = app().await;
    let q = "requests=20M";
    let api = json(&app, &format!("/api/v1/evaluate?{q}"), StatusCode::OK).await;
    assert!(api["uncertainty"]["draws"].as_u64().expect("draws") > 0);
    assert!(!api["flips"]["flips"].as_array().expect("flips").is_empty());
    for path in [format!("/?{q}"), format!("/embed?{q}")] {
        let html = body_text(get(&app, &path).await).await;
        assert_same(&html, &api, &path);
    }
    let response = send(
        &app,
        post_json(
            "/api/v1/scenarios",
            &format!(r#"{{"query":"{q}","name":"Board pack"}}"#),
        ),
    )
    .await;
    let saved: serde_json::Value = serde_json::from_str(&body_text(response).await).expect("json");
    let id = saved["id"].as_str().expect("id");
    for path in [format!("/s/{id}"), format!("/embed/s/{id}")] {
        let html = body_text(get(&app, &path).await).await;
        assert_same(&html, &api, &path);
    }
    // The saved page keeps the sources and the sensitivity.
    let html = body_text(get(&app, &format!("/s/{id}")).await).await;
    assert!(html.contains(r#"id="sources-title""#) && html.contains("src-inferencex"));
    assert!(html.contains(r#"data-testid="chart-tornado""#));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exports_and_previews_carry_the_decision() {
    let (app, _db) = app().await;
    let q = "requests=20M";
    let api = json(&app, &format!("/api/v1/evaluate?{q}"), StatusCode::OK).await;
    let csv = body_text(get(&app, &format!("/api/v1/export.csv?{q}")).await).await;
    let best = api["verdict"]["best"].as_str().expect("best");
    assert!(csv.contains(&format!("decision,best,{best},id")), "{csv}");
    let p = api["uncertainty"]["p_best_holds"].as_f64().expect("p");
    let row = csv
        .lines()
        .find(|l| l.starts_with("decision,p_best_holds,"))
        .expect("row");
    close(number(row.split(',').nth(2).expect("value")), p, "csv");
    for code in api["top_warnings"].as_array().expect("top") {
        assert!(csv.contains(&format!(
            "decision,top_warning,{},id",
            code.as_str().expect("code")
        )));
    }
    let oembed = json(
        &app,
        &format!("/oembed?url=http%3A%2F%2F127.0.0.1%3A3000%2F%3F{q}"),
        StatusCode::OK,
    )
    .await;
    let title = oembed["title"].as_str().expect("title");
    let se = api["uncertainty"]["p_best_holds_se"].as_f64().expect("se");
    assert!(
        title.contains(&format!(
            "holds in {}",
            servecost::format::share_about(p, se)
        )),
        "{title}"
    );
    let html = body_text(get(&app, &format!("/?{q}")).await).await;
    let og = &html[html.find(r#"property="og:description""#).expect("og")..];
    assert!(
        og[..og.find('>').expect("end")].contains("Holds in"),
        "{og}"
    );
}

/// With every range at zero width, the page's sureness collapses to the point answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn zero_width_ranges_are_certain() {
    let (app, _db) = app().await;
    let q = "requests=20M&u_prefill=1&u_cache_cost=1&u_curve_mix=0&u_haircut=0&u_curves=0&u_gpu_hour=1&u_util=0&u_api=1";
    let api = json(&app, &format!("/api/v1/evaluate?{q}"), StatusCode::OK).await;
    assert_eq!(api["uncertainty"]["p_best_holds"], 1.0);
    let bad = json(
        &app,
        "/api/v1/evaluate?u_prefill=0.5",
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert_eq!(bad["problems"][0]["param"], "u_prefill");
}

/// Where the plausible cases disagree with the figures as given, the page's verdict says so in
/// its first sentence, with the API's shares.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_verdict_the_sample_disagrees_with_says_so_first() {
    let (app, _db) = app().await;
    let q = "requests=3.7M";
    let api = json(&app, &format!("/api/v1/evaluate?{q}"), StatusCode::OK).await;
    let u = &api["uncertainty"];
    let p = u["p_best_holds"].as_f64().expect("p");
    assert!(p < 0.5, "{p}");
    let html = body_text(get(&app, &format!("/?{q}")).await).await;
    let best = &html[html.find(r#"data-testid="best""#).expect("best")..];
    let best = &best[best.find("<strong>").expect("strong") + 8..];
    let expected = format!(
        "As given self-hosting is cheapest, but it holds in only {} of plausible cases",
        servecost::format::share_about(p, u["p_best_holds_se"].as_f64().expect("se"))
    );
    assert!(
        best.starts_with(&expected),
        "{}",
        &best[..200.min(best.len())]
    );
    // The same scenario with the point well inside its band does not lead with a doubt.
    let html = body_text(get(&app, "/?requests=20M").await).await;
    assert!(!html.contains("As given "), "no doubt at 20M");
}
