//! Choosing another model keeps the workload and your figures of a chip only where the new model
//! has a curve on that chip (priced on it); otherwise they are dropped, and the page says which.

use crate::common::{app, body_text, get, json};
use axum::http::{header, StatusCode};

/// Where `/model?{query}` sends the browser: its query.
async fn switched(app: &axum::Router, query: &str) -> String {
    let res = get(app, &format!("/model?{query}")).await;
    assert_eq!(res.status(), StatusCode::SEE_OTHER, "{query}");
    let to = res.headers()[header::LOCATION]
        .to_str()
        .expect("ascii")
        .to_owned();
    assert!(to.starts_with("/?"), "{to}");
    to.trim_start_matches("/?").to_owned()
}

fn has(q: &str, name: &str) -> bool {
    q.split('&').any(|p| p.split('=').next() == Some(name))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn owned_figures_of_a_chip_the_new_model_lacks_are_dropped_with_a_notice() {
    let (app, _db) = app().await;
    // GLM-5 is measured on H200 only; DeepSeek-R1 has no H200 curve.
    let from = "model=deepseek-r1&from=h200&requests=20M&own=1&capex=45k&kw=1.275&pue=1.3&curve=ix-slo-glm-5-fp8-h200-vllm-tp8-1024-128&api=x";
    let to = switched(&app, from).await;
    for gone in ["own", "capex", "kw", "curve", "api", "from"] {
        assert!(!has(&to, gone), "{gone} in {to}");
    }
    // The workload and the site's figures stay.
    assert!(has(&to, "requests") && has(&to, "pue"), "{to}");
    assert!(has(&to, "model_dropped") && has(&to, "notice"), "{to}");
    let page = body_text(get(&app, &format!("/?{to}")).await).await;
    assert!(page.contains(r#"data-testid="model-dropped""#));
    assert!(
        page.contains("DeepSeek-R1 has no curve on the NVIDIA H200"),
        "the notice"
    );
    assert!(page.contains("purchase price $45,000 a GPU"));
    // The answer is the new model's, on its own chip's prices, with a curve and an offer chosen.
    let r = json(&app, &format!("/api/v1/evaluate?{to}"), StatusCode::OK).await;
    assert_eq!(r["inputs"]["model"], "deepseek-r1");
    assert!(r["inputs"]["owned_parts"].is_null());
    assert!(r["inputs"]["api"].is_string() && r["inputs"]["curve"].is_string());
    // The notice is the server's: a link that writes its own is shown without it.
    let forged = format!("/?{}", to.split("&notice=").next().expect("query"));
    let page = body_text(get(&app, &forged).await).await;
    assert!(!page.contains(r#"data-testid="model-dropped""#));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn figures_of_a_chip_the_new_model_runs_on_are_kept_and_priced_there() {
    let (app, _db) = app().await;
    // MiniMax-M2.5 runs on H200 too: the owned H200 stays, on a MiniMax H200 curve.
    let to = switched(
        &app,
        "model=minimax-m2.5&from=h200&own=1&capex=45k&kw=1.275",
    )
    .await;
    assert!(
        has(&to, "own") && has(&to, "capex") && has(&to, "kw"),
        "{to}"
    );
    assert!(!has(&to, "model_dropped"), "{to}");
    let r = json(&app, &format!("/api/v1/evaluate?{to}"), StatusCode::OK).await;
    assert_eq!(r["inputs"]["chip"], "h200");
    assert!(r["inputs"]["owned_parts"].is_object());
    // DeepSeek-R1 priced on MI355X at a GPU-hour of one's own: Llama 2 70B's default is a B300,
    // so its MI355X curve is chosen and the price kept.
    let to = switched(&app, "model=llama-2-70b&from=mi355x&gpu_hour=2.9&curve=x").await;
    assert!(has(&to, "gpu_hour"), "{to}");
    let r = json(&app, &format!("/api/v1/evaluate?{to}"), StatusCode::OK).await;
    assert_eq!(r["inputs"]["chip"], "mi355x");
    assert_eq!(r["inputs"]["gpu_hour_usd"].as_f64(), Some(2.9));
    // Without a chip named, only what belonged to the model goes.
    let to = switched(&app, "model=llama-2-70b&gpu_hour=2.9&curve=x").await;
    assert_eq!(to, "model=llama-2-70b&gpu_hour=2.9");
}
