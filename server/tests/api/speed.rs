//! An answer at any speed, on the seeded dataset: a target above the default curve's fastest
//! point keeps the rent figure and the verdict, and prices self-hosting on the cheapest of the
//! model's curves that reach it; the page served without JavaScript says so and lists them.

use crate::common::{app, body_text, get, json};
use axum::http::StatusCode;

/// gpt-oss-120b's default curve is an MLPerf Server result (12.5 tokens/s per user, the TPOT
/// floor); DeepSeek-R1's too. Their Interactive results and the InferenceX runs reach further.
const FASTER: [(&str, f64); 2] = [("gpt-oss-120b", 50.0), ("deepseek-r1", 40.0)];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_speed_beyond_the_default_curve_keeps_renting_and_the_verdict() {
    let (app, _db) = app().await;
    for (model, tps) in FASTER {
        let q = format!("model={model}&tps={tps}");
        let r = json(&app, &format!("/api/v1/evaluate?{q}"), StatusCode::OK).await;
        let rent = r["rent"]["monthly_usd"].as_f64().expect("rent");
        assert!(rent > 0.0, "{q}");
        assert!(r["verdict"]["winner"].is_string(), "{q}");
        assert_eq!(r["verdict"]["decided"], true, "{q}");
        let speed = &r["speed"];
        assert_eq!(speed["target"].as_f64(), Some(tps), "{q}");
        assert_eq!(speed["floor"], false, "{q}");
        assert!(
            speed["chosen_fastest"].as_f64().expect("fastest") < tps,
            "{q}"
        );
        let reaching = speed["reaching"].as_array().expect("reaching");
        assert!(!reaching.is_empty(), "{q}");
        for c in reaching {
            assert!(c["fastest"].as_f64().expect("fastest") >= tps, "{c}");
        }
        // Priced on the cheapest that reaches the target, at the target.
        assert_eq!(speed["priced_on"], reaching[0]["curve"], "{q}");
        assert_eq!(r["inputs"]["curve"], reaching[0]["curve"], "{q}");
        assert_eq!(r["inputs"]["tps"].as_f64(), Some(tps), "{q}");
        assert_eq!(
            r["self_host"]["monthly_usd"], reaching[0]["monthly_usd"],
            "{q}"
        );
        // Each listed curve's link prices the workload at that figure.
        let link = reaching[1]["query"].as_str().expect("query");
        let other = json(&app, &format!("/api/v1/evaluate?{link}"), StatusCode::OK).await;
        assert_eq!(
            other["self_host"]["monthly_usd"],
            reaching[1]["monthly_usd"]
        );
        assert!(other["speed"].is_null(), "{link}");
        // No offer of these models states a speed: the verdict says so.
        assert!(r["inputs"]["api_tps"].is_null(), "{q}");
        let page = body_text(get(&app, &format!("/?{q}")).await).await;
        assert!(page.contains(r#"data-testid="speed-reach""#), "{q}");
        assert_eq!(
            page.matches(r#"data-testid="reaching-curve""#).count(),
            reaching.len().min(6),
            "{q}"
        );
        assert!(
            page.contains("the offer&#x27;s speed not stated")
                || page.contains("the offer's speed not stated"),
            "{q}"
        );
        assert!(page.contains(&servecost::format::usd(rent)), "{q}");
    }
}

/// A curve chosen by id that stops below the target is priced at its fastest point as a floor;
/// one the user's volume makes self-hosting cheaper at decides nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chosen_curve_below_the_target_is_a_floor() {
    let (app, _db) = app().await;
    let q = "model=gpt-oss-120b&requests=300M&tps=50&curve=mlperf-cisco-cisco_ucs_b300x16_g200_4x2_ro-gpt-oss-120b";
    let r = json(&app, &format!("/api/v1/evaluate?{q}"), StatusCode::OK).await;
    let speed = &r["speed"];
    assert_eq!(speed["floor"], true);
    assert_eq!(speed["priced_at"], speed["chosen_fastest"]);
    // 300 M requests: the floor ($30,051) is far below renting ($658,125), which says nothing
    // about the cost at 50 tokens/s per user.
    assert_ne!(r["verdict"]["best"], "rent");
    assert_eq!(r["verdict"]["decided"], false, "{}", r["verdict"]);
    let page = body_text(get(&app, &format!("/?{q}")).await).await;
    assert!(page.contains(r#"data-floor="true""#));
    assert!(page.contains("Not decided at 50 tokens/s per user"));
    // At the default volume renting is cheaper than the floor: that decides.
    let q = q.replace("&requests=300M", "");
    let r = json(&app, &format!("/api/v1/evaluate?{q}"), StatusCode::OK).await;
    assert_eq!(r["verdict"]["best"], "rent");
    assert_eq!(r["verdict"]["decided"], true);
    // A speed no curve of the model reaches: renting still answers, and the page says none
    // reaches it.
    let r = json(
        &app,
        "/api/v1/evaluate?model=llama-3.1-8b&tps=50",
        StatusCode::OK,
    )
    .await;
    assert!(r["rent"]["monthly_usd"].as_f64().expect("rent") > 0.0);
    assert!(r["speed"]["reaching"]
        .as_array()
        .expect("reaching")
        .is_empty());
    let page = body_text(get(&app, "/?model=llama-3.1-8b&tps=50").await).await;
    assert!(
        page.contains("None of the model&#x27;s curves reaches 50")
            || page.contains("None of the model's curves reaches 50")
    );
}

/// The gpt-oss-120b ranking marks every offer "speed not stated": none of their sources states
/// one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn offers_without_a_measured_speed_say_so_in_the_ranking() {
    let (app, _db) = app().await;
    let body = json(
        &app,
        "/api/v1/options?model=gpt-oss-120b&tps=50",
        StatusCode::OK,
    )
    .await;
    let rows = body["options"].as_array().expect("options");
    let rent: Vec<_> = rows.iter().filter(|o| o["kind"] == "rent").collect();
    assert!(!rent.is_empty());
    assert!(rent.iter().all(|o| o["speed_tps"].is_null()));
    assert!(rows
        .iter()
        .filter(|o| o["kind"] != "rent")
        .all(|o| o["speed_tps"].as_f64() == Some(50.0)));
    let page = body_text(get(&app, "/options?model=gpt-oss-120b&tps=50").await).await;
    assert_eq!(
        page.matches(r#"data-testid="option-speed""#).count(),
        rent.len()
    );
    assert_eq!(page.matches(">speed not stated<").count(), rent.len());
    assert!(!page.contains("all at your speed target"));
}

/// Batch work waits: where the curve has an Offline result (an MLPerf curve), it is served at
/// that rate, and the page says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batch_is_served_at_the_offline_rate_where_measured() {
    let (app, _db) = app().await;
    let q = "model=llama-3.1-8b&requests=20M&batch=0.5";
    let r = json(&app, &format!("/api/v1/evaluate?{q}"), StatusCode::OK).await;
    assert_eq!(r["batch"]["offline"], true, "{}", r["batch"]);
    assert_eq!(r["batch"]["tps"].as_f64(), Some(0.0));
    let page = body_text(get(&app, &format!("/?{q}")).await).await;
    assert!(page.contains(r#"data-offline="true""#));
    assert!(
        page.contains("at the curve&#x27;s Offline rate")
            || page.contains("at the curve's Offline rate")
    );
}
