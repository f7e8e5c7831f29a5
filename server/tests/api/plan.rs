//! The plan over the years through the JSON API, the page and the chart export: the months the
//! horizon asks for, the payback month the months give, and a bad rate named with its range.

use crate::common::{app, body_text, get, json, problem_params};
use axum::http::StatusCode;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_plan_runs_the_horizon_and_the_page_shows_its_figures() {
    let (app, _db) = app().await;
    let q = "requests=2M&gpu_hour=2.1&growth=200%25&horizon=5";
    let r = json(&app, &format!("/api/v1/evaluate?{q}"), StatusCode::OK).await;
    let plan = &r["plan"];
    let months = plan["months"].as_array().expect("months");
    assert_eq!(months.len(), 60);
    // The payback month is the first whose cumulative difference leaves the first month's sign.
    let mut cumulative = 0.0;
    let mut payback = None;
    for m in months {
        let d = m["self_host_usd"].as_f64().expect("self_host_usd")
            - m["rent_usd"].as_f64().expect("rent_usd");
        let first = cumulative == 0.0;
        cumulative += d;
        assert!(!first || cumulative > 0.0, "dearer in the first month");
        if cumulative <= 0.0 {
            payback = m["month"].as_u64();
            break;
        }
    }
    assert!(payback.is_some(), "paid back within five years");
    assert_eq!(plan["payback_month"].as_u64(), payback);
    // Renting is cheapest this month, not over five years.
    assert_eq!(r["verdict"]["best"], "rent");
    assert_ne!(plan["best"], "rent");

    // The page says so in its decision block and draws the chart; the export carries its title.
    let page = body_text(get(&app, &format!("/?{q}")).await).await;
    let month = payback.expect("payback");
    assert!(
        page.contains(&format!("pays back in month {month}")),
        "the decision block names it"
    );
    assert!(page.contains(r#"data-testid="chart-years""#));
    let svg = body_text(get(&app, &format!("/api/v1/charts/years.svg?{q}")).await).await;
    assert!(svg.contains("Cumulative cost of each plan over the years"));
    assert!(
        svg.contains("<polyline") || svg.contains("<path"),
        "lines are drawn"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_horizon_or_trend_is_named_with_its_range() {
    let (app, _db) = app().await;
    for (q, param, range) in [
        ("horizon=9", "horizon", "1 to 5"),
        ("horizon=2.5", "horizon", "whole number"),
        ("growth=-95%25", "growth", "−0.9 to 10"),
        ("api_trend=3", "api_trend", "−0.9 to 1"),
        ("discount_rate=-1", "discount_rate", "to 1"),
    ] {
        let body = json(
            &app,
            &format!("/api/v1/evaluate?{q}"),
            StatusCode::BAD_REQUEST,
        )
        .await;
        assert_eq!(problem_params(&body), [param], "{q}");
        let reason = body["problems"][0]["reason"].as_str().expect("reason");
        assert!(reason.contains(range), "{q}: {reason}");
    }
}
