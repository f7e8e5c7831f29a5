//! `/api/v1/options`: every way to serve the workload, sorted, each row's link evaluating to its
//! total on the line its kind names; the CSV holds the same rows.

use crate::common::{app, body_text, get, json, problem_params};
use axum::http::{header, StatusCode};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn options_are_sorted_and_each_link_evaluates_to_its_total() {
    let (app, _db) = app().await;
    for query in [
        "",
        "requests=40M",
        "requests=20M&capex=45k",
        "requests=5M&price_in=0.9&price_out=3",
    ] {
        let body = json(&app, &format!("/api/v1/options?{query}"), StatusCode::OK).await;
        let options = body["options"].as_array().expect("options");
        assert!(options.len() >= 4, "{query}: {}", options.len());
        // What one can rent or buy first, then a vendor's best cases, then the floors; each
        // cheapest first.
        let order = |g: &str| {
            ["buyable", "vendor_best_case", "floor"]
                .iter()
                .position(|x| *x == g)
        };
        let keys: Vec<(usize, f64)> = options
            .iter()
            .map(|o| {
                (
                    order(o["group"].as_str().expect("group")).expect("a known group"),
                    o["monthly_usd"].as_f64().expect("monthly_usd"),
                )
            })
            .collect();
        assert!(
            keys.windows(2)
                .all(|w| w[0].0 < w[1].0 || (w[0].0 == w[1].0 && w[0].1 <= w[1].1)),
            "{query}: sorted {keys:?}"
        );
        assert_eq!(
            options
                .iter()
                .filter(|o| o["current"] == true && o["kind"] == "rent")
                .count(),
            1,
            "{query}: the scenario's renting line is marked"
        );
        for o in options {
            let link = o["query"].as_str().expect("query");
            let r = json(&app, &format!("/api/v1/evaluate?{link}"), StatusCode::OK).await;
            let line = match o["kind"].as_str().expect("kind") {
                "rent" => &r["rent"],
                "self_host" => &r["self_host"],
                "hybrid" => &r["hybrid"],
                other => panic!("kind {other}"),
            };
            let expected = line["monthly_usd"].as_f64().expect("the line has a total");
            let got = o["monthly_usd"].as_f64().expect("monthly_usd");
            assert!(
                (expected - got).abs() <= 1e-9 * expected.max(1.0),
                "{query}: {} costs {got}, its link {expected}",
                o["label"]
            );
            // The calculator opens the link.
            assert_eq!(
                get(&app, &format!("/?{link}")).await.status(),
                StatusCode::OK,
                "{link}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_csv_holds_the_same_rows_and_bad_input_is_named() {
    let (app, _db) = app().await;
    let body = json(&app, "/api/v1/options?requests=40M", StatusCode::OK).await;
    let options = body["options"].as_array().expect("options");
    let res = get(&app, "/api/v1/options.csv?requests=40M").await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.headers()[header::CONTENT_TYPE]
        .to_str()
        .expect("ascii")
        .starts_with("text/csv"));
    let csv = body_text(res).await;
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.expect("a CSV row")).collect();
    assert_eq!(rows.len(), options.len());
    for (row, o) in rows.iter().zip(options) {
        assert_eq!(
            &row[1],
            o["label"].as_str().expect("label").trim_start_matches('\'')
        );
        let usd: f64 = row[3].parse().expect("a number");
        let want = o["monthly_usd"].as_f64().expect("monthly_usd");
        assert!((usd - want).abs() <= 1e-9 * want, "{usd} vs {want}");
        match o["p_cheapest"].as_f64() {
            Some(want) => {
                let share: f64 = row[11].parse().expect("a share");
                assert!((share - want).abs() <= 1e-12, "{share} vs {want}");
            }
            // A floor is not in the joint sample.
            None => assert_eq!(&row[11], "", "{o}"),
        }
        assert!(row[14].ends_with(&format!("/?{}", o["query"].as_str().expect("query"))));
        assert_eq!(&row[15], o["group"].as_str().expect("group"));
        // The speed it serves, or that its source states none.
        match o["speed_tps"].as_f64() {
            Some(v) => assert_eq!(row[16].parse::<f64>().expect("a speed"), v),
            None => assert_eq!(&row[16], "speed not stated", "{o}"),
        }
    }
    let body = json(&app, "/api/v1/options?requests=-3", StatusCode::BAD_REQUEST).await;
    assert_eq!(problem_params(&body), ["requests"]);
    // A speed the default curve cannot reach (it stops at 254 tokens/s per user) leaves it out,
    // named with the reason, and ranks the curves that reach it (TP8 EP8: 485.8).
    let body = json(&app, "/api/v1/options?tps=300", StatusCode::OK).await;
    let skipped = body["skipped"].as_array().expect("skipped");
    assert!(
        skipped
            .iter()
            .any(|s| s["reason"].as_str().is_some_and(|r| r.contains("tps"))),
        "{skipped:?}"
    );
    let rows = body["options"].as_array().expect("options");
    assert!(rows.iter().any(|o| o["kind"] == "self_host"));
    // A speed no curve reaches ranks no self-hosting and says why for each; the offers whose
    // source states no speed stay, marked so. A model that does not exist is the scenario's
    // problem.
    let body = json(&app, "/api/v1/options?tps=600", StatusCode::OK).await;
    let rows = body["options"].as_array().expect("options");
    assert!(!rows.is_empty());
    assert!(
        rows.iter()
            .all(|o| o["kind"] == "rent" && o["speed_tps"].is_null()),
        "{body}"
    );
    let skipped = body["skipped"].as_array().expect("skipped");
    assert!(skipped.len() > 1);
    assert!(skipped
        .iter()
        .all(|s| s["reason"].as_str().is_some_and(|r| r.contains("tps"))));
    let body = json(
        &app,
        "/api/v1/options?model=nope",
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(problem_params(&body), ["model"]);
}

/// The calculator as served ranks nothing (each option is priced with a sureness sample of
/// its own: the browser ranks them when the section is opened); its section links to
/// `/options` with the page's own link, which ranks the same rows as the API, names a field it
/// could not read, and links back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ranking_page_has_the_apis_rows_and_the_calculator_links_to_it() {
    let (app, _db) = app().await;
    let page = body_text(get(&app, "/?requests=40M").await).await;
    assert!(!page.contains(r#"data-testid="option""#), "no ranked row");
    assert!(
        page.contains(r#"href="/options?v=1&amp;requests=40M""#),
        "the section links to the ranking of the page's own link"
    );
    let res = get(&app, "/options?v=1&requests=40M").await;
    assert_eq!(res.status(), StatusCode::OK);
    let html = body_text(res).await;
    let api = json(&app, "/api/v1/options?v=1&requests=40M", StatusCode::OK).await;
    let options = api["options"].as_array().expect("options");
    let shown: Vec<f64> = html
        .split(r#"data-testid="option""#)
        .skip(1)
        .map(|row| {
            let at = row.find(r#"data-usd=""#).expect("a total") + 10;
            row[at..at + row[at..].find('"').expect("end")]
                .parse()
                .expect("a number")
        })
        .collect();
    assert_eq!(shown.len(), options.len());
    for (got, o) in shown.iter().zip(options) {
        // The same figures, but for the last bits (the page ranks from its own copy of the
        // dataset, whose sums may run in another order).
        let want = o["monthly_usd"].as_f64().expect("monthly_usd");
        assert!((got - want).abs() <= 1e-12 * want, "{got} vs {want}");
    }
    assert!(
        html.contains(r#"href="/?v=1&amp;requests=40M""#),
        "back to the calculator"
    );
    // A field it cannot read is named, at its default, as on the calculator.
    let html = body_text(get(&app, "/options?requests=40M&util=lots").await).await;
    assert!(html.contains("util (at its default"), "{html}");
}
