//! Exports, embeds and oEmbed, in process against a fresh SQLite.

use crate::common::{app, body_text, get, json, post_json, send, SEEDED};
use axum::http::{header, StatusCode};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn csv_holds_numbers_with_units() {
    let (app, _db) = app().await;
    let response = get(&app, "/api/v1/export.csv?requests=20M").await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers()[header::CONTENT_TYPE]
        .to_str()
        .expect("type")
        .starts_with("text/csv"));
    let csv = body_text(response).await;
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("section,name,value,unit,source"));
    let rent = csv
        .lines()
        .find(|l| l.starts_with("monthly,rent,"))
        .expect("rent row");
    let value: f64 = rent
        .split(',')
        .nth(2)
        .expect("value")
        .parse()
        .expect("a plain number");
    let api = json(&app, "/api/v1/evaluate?requests=20M", StatusCode::OK).await;
    // serde_json's default float parsing may differ from the exact value in the last bit.
    let expected = api["rent"]["monthly_usd"].as_f64().expect("rent");
    assert!(
        (value - expected).abs() <= expected * 1e-12,
        "{value} vs {expected}"
    );
    assert!(csv.contains("per_mtok,self_host_effective.output,"));
    assert!(csv.contains("$/M tokens"));
}

/// The text lines of an exported SVG marked `data-part="{part}"`, joined by spaces.
fn svg_part(svg: &str, part: &str) -> String {
    svg.split(&format!("data-part=\"{part}\">"))
        .skip(1)
        .filter_map(|t| t.split("</text>").next())
        .collect::<Vec<_>>()
        .join(" ")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_chart_exports_as_svg() {
    let (app, _db) = app().await;
    for name in app::charts::NAMES {
        let response = get(&app, &format!("/api/v1/charts/{name}.svg?requests=20M")).await;
        assert_eq!(response.status(), StatusCode::OK, "{name}");
        assert!(response.headers()[header::CONTENT_TYPE]
            .to_str()
            .expect("type")
            .starts_with("image/svg+xml"));
        let svg = body_text(response).await;
        assert!(
            svg.starts_with("<svg") && svg.contains("xmlns=\"http://www.w3.org/2000/svg\""),
            "{name}"
        );
        // Self-describing, for a slide: title, the scenario in one line, the dataset revision
        // and day, the sources, and the link that reproduces it.
        let title = app::charts::export::title(name).expect("a title");
        assert!(
            svg.contains(&format!("<title>{}</title>", app::escape_html(title))),
            "{name}"
        );
        let scenario = svg_part(&svg, "scenario");
        assert!(
            scenario.contains("tokens a month") && scenario.contains("/GPU-hour"),
            "{name}: {scenario}"
        );
        assert!(
            svg.contains(&format!(
                "dataset revision {SEEDED}, prices judged on 2026-12-01"
            )),
            "{name}"
        );
        assert!(svg.contains("/?v=1&amp;requests=20M"), "{name}: the link");
        let sources = svg_part(&svg, "sources");
        assert!(
            sources.starts_with("Sources: ") && sources.contains("Artificial Analysis"),
            "{name}: {sources}"
        );
        // One chart inside, whole: every element the file opens it closes.
        assert_eq!(svg.matches("<svg").count(), 2, "{name}");
        assert_eq!(svg.matches("</svg>").count(), 2, "{name}");
    }
    let r = json(&app, "/api/v1/charts/pie.svg", StatusCode::NOT_FOUND).await;
    assert_eq!(r["problems"][0]["param"], "chart");
    json(
        &app,
        "/api/v1/charts/volume.svg?tps=0",
        StatusCode::BAD_REQUEST,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_embed_routes_may_be_framed() {
    let (app, _db) = app().await;
    let embed = get(&app, "/embed?requests=20M&chart=tornado").await;
    assert_eq!(embed.status(), StatusCode::OK);
    let csp = embed.headers()[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .expect("csp")
        .to_owned();
    assert!(csp.ends_with("frame-ancestors *"), "{csp}");
    assert!(!embed.headers().contains_key(header::X_FRAME_OPTIONS));
    let html = body_text(embed).await;
    assert!(html.contains("data-testid=\"embed\"") && html.contains("<svg"));
    assert!(!html.contains("modulepreload"), "embeds load no WASM");
    let page = get(&app, "/").await;
    assert_eq!(page.headers()[header::X_FRAME_OPTIONS], "DENY");
    assert!(page.headers()[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .expect("csp")
        .ends_with("frame-ancestors 'none'"));
    let html = body_text(page).await;
    assert!(
        html.contains("rel=\"modulepreload\""),
        "the calculator hydrates"
    );
    assert!(html.contains("application/json+oembed") && html.contains("og:description"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oembed_answers_for_calculator_links() {
    let (app, _db) = app().await;
    let r = json(
        &app,
        "/oembed?url=http%3A%2F%2F127.0.0.1%3A3000%2F%3Frequests%3D20M&maxwidth=500",
        StatusCode::OK,
    )
    .await;
    assert_eq!(r["type"], "rich");
    assert_eq!(r["version"], "1.0");
    assert_eq!(r["width"], 500);
    assert_eq!(r["height"], 400);
    let html = r["html"].as_str().expect("html");
    assert!(
        html.contains(r#"src="http://127.0.0.1:3000/embed?v=1&amp;requests=20M""#),
        "{html}"
    );
    json(
        &app,
        "/oembed?url=http%3A%2F%2F127.0.0.1%3A3000%2Fdata",
        StatusCode::NOT_FOUND,
    )
    .await;
    json(&app, "/oembed", StatusCode::BAD_REQUEST).await;
    // Only this server's own origin (SERVECOST_PUBLIC_URL; the tests run on the default).
    for other in ["ftp%3A%2F%2Fx%2F", "https%3A%2F%2Fwiki.example.com%2F"] {
        json(&app, &format!("/oembed?url={other}"), StatusCode::NOT_FOUND).await;
    }
    json(
        &app,
        "/oembed?url=http%3A%2F%2Fx%2F&format=xml",
        StatusCode::NOT_IMPLEMENTED,
    )
    .await;
    json(
        &app,
        "/oembed?url=http%3A%2F%2F127.0.0.1%3A3000%2F&maxwidth=tiny",
        StatusCode::BAD_REQUEST,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oembed_reads_a_link_as_the_page_does() {
    let (app, _db) = app().await;
    // `tokens` without `mix`, a volume that is not a number and an unknown parameter: the page
    // renders this link at the defaults of those fields and lists them; so do oEmbed and the
    // embed it points at.
    let link = "http://127.0.0.1:3000/?tokens=10B&requests=lots&colour=blue";
    let encoded: String = link
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'.' | b'-' | b'_' => (b as char).to_string(),
            other => format!("%{other:02X}"),
        })
        .collect();
    let r = json(&app, &format!("/oembed?url={encoded}"), StatusCode::OK).await;
    assert_eq!(r["type"], "rich");
    let title = r["title"].as_str().expect("title");
    assert!(
        title.contains("not used from the link: ")
            && title.contains("requests")
            && title.contains("colour"),
        "{title}"
    );
    let html = r["html"].as_str().expect("html");
    let src = html
        .split("src=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("an iframe src")
        .replace("&amp;", "&");
    assert_eq!(
        src,
        "http://127.0.0.1:3000/embed?tokens=10B&requests=lots&colour=blue"
    );
    let embed = body_text(get(&app, "/embed?tokens=10B&requests=lots&colour=blue").await).await;
    assert!(embed.contains("Not used from the link: "), "{embed}");
    for name in ["requests (at its default", "colour (unknown parameter"] {
        assert!(embed.contains(name), "{name} listed in the embed");
    }
    // `chart` picks the embed's chart: used, so not listed.
    let r = json(
        &app,
        "/oembed?url=http%3A%2F%2F127.0.0.1%3A3000%2Fembed%3Frequests%3D20M%26chart%3Dtps",
        StatusCode::OK,
    )
    .await;
    let title = r["title"].as_str().expect("title");
    assert!(!title.contains("not used"), "{title}");
    assert!(r["html"].as_str().expect("html").contains("chart=tps"));
    // The embed's numbers are the page's: the defaults of the fields it could not read.
    let page = body_text(get(&app, "/?tokens=10B&requests=lots&colour=blue").await).await;
    let usd = |html: &str| {
        html.split("data-testid=\"self-monthly\" data-usd=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .map(str::to_owned)
    };
    assert!(usd(&embed).is_some());
    assert_eq!(usd(&embed), usd(&page));
}

/// A saved scenario's CSV is a record of its own: the pinned figures, every input in force
/// with the source of each default, its name, note, date and link, and its sources.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_saved_scenarios_csv_is_its_decision_record() {
    let (app, _db) = app().await;
    let body = serde_json::json!({"query": "requests=2M&own=1&capex=45k&bill=13900&growth=1.5", "name": "Board pack, Q1", "note": "For the CFO"});
    let response = send(&app, post_json("/api/v1/scenarios", &body.to_string())).await;
    let saved: serde_json::Value = serde_json::from_str(&body_text(response).await).expect("json");
    let id = saved["id"].as_str().expect("an id").to_owned();
    let response = get(&app, &format!("/api/v1/scenarios/{id}/export.csv")).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers()[header::CONTENT_DISPOSITION]
        .to_str()
        .expect("disposition")
        .contains(&id));
    let csv = body_text(response).await;
    assert!(csv.starts_with("section,name,value,unit,source\n"));
    // Typed and default inputs, each with where it comes from.
    assert!(
        csv.contains("in_force,capex,45k,\"$45,000 per GPU\",yours\n"),
        "{csv}"
    );
    assert!(
        csv.contains("in_force,bill,13900,\"$13,900 per month\",yours\n"),
        "{csv}"
    );
    assert!(
        csv.contains("in_force,pue,1.3,1.3 ratio,default: servecost-assumptions\n"),
        "{csv}"
    );
    assert!(
        csv.contains("saved,name,\"Board pack, Q1\",text,\n"),
        "{csv}"
    );
    assert!(csv.contains("saved,note,For the CFO,text,\n"), "{csv}");
    assert!(csv.contains(&format!("/s/{id},text,\n")), "{csv}");
    assert!(csv.contains("link,dataset_revision,"), "{csv}");
    assert!(csv.contains("\nsource,servecost-assumptions,"), "{csv}");
    // A saved scenario that does not exist is named as such.
    let missing = get(&app, "/api/v1/scenarios/AAAAAAAAAAAA/export.csv").await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
}

/// The calculator the server sends draws its charts without hover targets (the browser draws
/// them when a pointer comes over a chart); the pages nothing takes over, the embeds and the
/// exported files keep them, since nothing would draw them later.
#[tokio::test]
async fn hover_targets_are_sent_where_nothing_draws_them_later() {
    let (app, _db) = app().await;
    let page = body_text(get(&app, "/?requests=21M").await).await;
    assert!(
        page.contains("data-testid=\"chart-volume\""),
        "the calculator draws its charts"
    );
    assert!(
        !page.contains("chart-hover"),
        "the calculator sends no hover targets"
    );
    let body = serde_json::json!({"query": "requests=21M", "name": "Hovers"});
    let response = send(&app, post_json("/api/v1/scenarios", &body.to_string())).await;
    let saved: serde_json::Value = serde_json::from_str(&body_text(response).await).expect("json");
    let id = saved["id"].as_str().expect("an id").to_owned();
    let record = body_text(get(&app, &format!("/s/{id}")).await).await;
    assert!(
        record.contains("data-testid=\"chart-volume\""),
        "the record draws the volume chart"
    );
    assert!(
        record.contains("<g class=\"chart-hover\""),
        "the saved record keeps its hovers"
    );
    for uri in [
        "/embed?requests=21M",
        "/api/v1/charts/volume.svg?requests=21M",
    ] {
        let text = body_text(get(&app, uri).await).await;
        assert!(
            text.contains("<g class=\"chart-hover\""),
            "{uri} keeps its hovers"
        );
    }
}
