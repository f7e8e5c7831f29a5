//! Saved scenarios: idempotent, validated, size- and rate-limited, pinned to their revision.

use crate::common::{
    app, app_with_state, app_with_store, body_text, get, json, post_json, problem_params, reprice,
    send, SEEDED, TODAY,
};
use axum::http::{header, Request, StatusCode};

/// Writes a saved scenario straight into the table, as an older release or another replica
/// could have left it (pinned to the seeded revision).
async fn insert_saved(pool: &sqlx::AnyPool, id: &str, query: &str, name: &str) {
    sqlx::query(
        "INSERT INTO scenarios (id, query, name, note, revision, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(id)
    .bind(query)
    .bind(name)
    .bind("")
    .bind(SEEDED)
    .bind("2026-12-01T00:00:00Z")
    .execute(pool)
    .await
    .expect("insert");
}

async fn save(app: &axum::Router, body: &str) -> (StatusCode, serde_json::Value) {
    let response = send(app, post_json("/api/v1/scenarios", body)).await;
    let status = response.status();
    (
        status,
        serde_json::from_str(&body_text(response).await).expect("json"),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_save_gives_a_short_unguessable_link_and_is_idempotent() {
    let (app, _db) = app().await;
    let body =
        r#"{"query":"requests=20M&gpu_hour=3","name":"Agents next year","note":"board pack"}"#;
    let (status, first) = save(&app, body).await;
    assert_eq!(status, StatusCode::CREATED);
    let id = first["id"].as_str().expect("id").to_owned();
    assert_eq!(id.len(), 12);
    assert_eq!(first["url"], format!("/s/{id}"));
    assert_eq!(first["query"], "v=1&requests=20M&gpu_hour=3");
    let (status, again) = save(&app, body).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["id"], first["id"]);
    let (_, other) = save(
        &app,
        r#"{"query":"requests=20M&gpu_hour=3","name":"Another"}"#,
    )
    .await;
    assert_ne!(other["id"], first["id"]);

    let saved = json(&app, &format!("/api/v1/scenarios/{id}"), StatusCode::OK).await;
    let live = json(
        &app,
        "/api/v1/evaluate?requests=20M&gpu_hour=3",
        StatusCode::OK,
    )
    .await;
    assert_eq!(
        saved["report"]["rent"]["monthly_usd"],
        live["rent"]["monthly_usd"]
    );
    assert_eq!(saved["revision"], SEEDED);
    assert_eq!(saved["newer_data_changes_result"], false);
    assert!(
        saved["current"].is_null(),
        "no newer revision, nothing to compare"
    );
    let page = get(&app, &format!("/s/{id}")).await;
    assert_eq!(page.status(), StatusCode::OK);
    let html = body_text(page).await;
    assert!(html.contains("Agents next year") && html.contains("data-testid=\"saved\""));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_saves_name_the_problem() {
    let (app, _db) = app().await;
    let (status, r) = save(&app, r#"{"query":"tps=-1","name":""}"#).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(problem_params(&r), ["name", "tps"]);
    let (status, _) = save(&app, "not json").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // A note over its 2,000 characters is named; a body over the save limit is a 413.
    let long = format!(
        r#"{{"query":"","name":"x","note":"{}"}}"#,
        "n".repeat(20_000)
    );
    let (status, r) = save(&app, &long).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(problem_params(&r), ["note"]);
    let huge = format!(
        r#"{{"query":"","name":"x","note":"{}"}}"#,
        "n".repeat(server::SAVE_LIMIT + 1)
    );
    let response = send(&app, post_json("/api/v1/scenarios", &huge)).await;
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    json(&app, "/api/v1/scenarios/nope", StatusCode::NOT_FOUND).await;
    assert_eq!(get(&app, "/s/nope").await.status(), StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn saves_are_rate_limited_per_client() {
    let (app, _db) = app().await;
    let mut last = StatusCode::OK;
    for i in 0..=server::SAVES_PER_MINUTE {
        let request = Request::post("/api/v1/scenarios")
            .header("content-type", "application/json")
            .extension(crate::hardening::peer("203.0.113.9"))
            .body(axum::body::Body::from(format!(
                r#"{{"query":"","name":"n{i}"}}"#
            )))
            .expect("request");
        last = send(&app, request).await.status();
    }
    assert_eq!(last, StatusCode::TOO_MANY_REQUESTS);
    let (status, _) = save(&app, r#"{"query":"","name":"someone else"}"#).await;
    assert_eq!(
        status,
        StatusCode::CREATED,
        "a request with no peer is another client"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_saved_link_keeps_its_numbers_after_new_data() {
    let (app, db, store) = app_with_store().await;
    let (_, first) = save(
        &app,
        r#"{"query":"requests=20M","name":"Before the price cut"}"#,
    )
    .await;
    let id = first["id"].as_str().expect("id").to_owned();
    let before = json(&app, &format!("/api/v1/scenarios/{id}"), StatusCode::OK).await;
    // A new dataset revision halves the API's input price.
    reprice(&db, &store, 0.5, 1.0).await;
    let after = json(&app, &format!("/api/v1/scenarios/{id}"), StatusCode::OK).await;
    assert_eq!(
        after["report"]["rent"]["monthly_usd"],
        before["report"]["rent"]["monthly_usd"]
    );
    assert_eq!(after["revision"], SEEDED);
    assert_eq!(after["newest_revision"], SEEDED + 1);
    assert_eq!(after["newer_data_changes_result"], true);
    let then = before["report"]["rent"]["monthly_usd"]
        .as_f64()
        .expect("then");
    let now = after["current"]["rent"]["monthly_usd"]
        .as_f64()
        .expect("now");
    assert!(
        now < then,
        "halving the input price lowers renting: {now} vs {then}"
    );
    assert_eq!(after["current"]["dataset_revision"], SEEDED + 1);
    let html = body_text(get(&app, &format!("/s/{id}")).await).await;
    assert!(html.contains("Newer data would change this result"));
    // Both results side by side, the current one a click from the calculator.
    assert!(html.contains(r#"data-testid="comparison""#));
    assert!(html.contains(&format!("Saved (revision {SEEDED})")));
    assert!(html.contains(&format!("Current data (revision {})", SEEDED + 1)));
    assert!(html.contains(&app::format::usd(then)));
    assert!(html.contains(&app::format::usd(now)));
    let (_, fresh) = save(
        &app,
        r#"{"query":"requests=20M","name":"After the price cut"}"#,
    )
    .await;
    assert_eq!(fresh["revision"], SEEDED + 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_form_saves_and_redirects() {
    let (app, _db) = app().await;
    let request = Request::post("/s")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(axum::body::Body::from(
            "query=v%3D1%26requests%3D5M&name=From+the+form&note=",
        ))
        .expect("request");
    let response = send(&app, request).await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let location = response.headers()[header::LOCATION]
        .to_str()
        .expect("location")
        .to_owned();
    assert!(
        location.starts_with("/s/") && location.len() == 15,
        "{location}"
    );
    assert_eq!(get(&app, &location).await.status(), StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn saved_scenarios_embed_and_answer_oembed() {
    let (app, _db) = app().await;
    let (_, first) = save(&app, r#"{"query":"requests=20M","name":"Wiki page"}"#).await;
    let id = first["id"].as_str().expect("id").to_owned();
    let embed = get(&app, &format!("/embed/s/{id}?chart=breakdown")).await;
    assert_eq!(embed.status(), StatusCode::OK);
    assert!(embed.headers()[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .expect("csp")
        .ends_with("frame-ancestors *"));
    let html = body_text(embed).await;
    assert!(html.contains("data-testid=\"embed\"") && html.contains("Wiki page"));
    // The saved page offers the pinned embed's snippet (the calculator's follows live data).
    let page = body_text(get(&app, &format!("/s/{id}")).await).await;
    let snippet = page
        .split("data-testid=\"pinned-embed-code\">")
        .nth(1)
        .and_then(|t| t.split("</textarea>").next())
        .expect("the saved page has an embed snippet");
    assert!(
        snippet.contains(&format!("src=\"http://127.0.0.1:3000/embed/s/{id}\"")),
        "{snippet}"
    );
    assert!(page.contains("Pinned: it shows these numbers, from dataset revision"));
    let calculator = body_text(get(&app, "/?requests=20M").await).await;
    assert!(calculator.contains("It follows live data"));
    let url = format!("/oembed?url=http%3A%2F%2F127.0.0.1%3A3000%2Fs%2F{id}");
    let r = json(&app, &url, StatusCode::OK).await;
    let expected = format!(r#"src="http://127.0.0.1:3000/embed/s/{id}""#);
    assert!(
        r["html"].as_str().expect("html").contains(&expected),
        "{}",
        r["html"]
    );
    json(
        &app,
        "/oembed?url=http%3A%2F%2F127.0.0.1%3A3000%2Fs%2Fnope",
        StatusCode::NOT_FOUND,
    )
    .await;
}

/// A saved embed says why it has nothing to show, in the same frame: 404 for an id no scenario
/// has (also one no saved id can be), the problems of a saved query that no longer evaluates,
/// 503 when the database failed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_saved_embed_says_why_it_has_nothing_to_show() {
    let (app, _db, store) = app_with_store().await;
    let missing = get(&app, "/embed/s/nope").await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    assert!(body_text(missing)
        .await
        .contains("No saved scenario has this link."));
    insert_saved(&store.pool, "brokenlink01", "v=1&requests=lots", "Old link").await;
    let broken = get(&app, "/embed/s/brokenlink01").await;
    assert_eq!(broken.status(), StatusCode::OK);
    let html = body_text(broken).await;
    assert!(
        html.contains("This saved scenario no longer evaluates: ") && html.contains("requests"),
        "{html}"
    );
    // An id no saved scenario can have (a NUL byte, which PostgreSQL refuses in text) is not
    // looked up: the same 404 as any unknown id, not a database error.
    for uri in [
        "/embed/s/%00bcdefghijkl",
        "/s/%00bcdefghijkl",
        "/embed/s/a%20b",
    ] {
        assert_eq!(
            get(&app, uri).await.status(),
            StatusCode::NOT_FOUND,
            "{uri}"
        );
    }
    json(
        &app,
        "/api/v1/scenarios/%00bcdefghijkl",
        StatusCode::NOT_FOUND,
    )
    .await;
    store.pool.close().await;
    let failed = get(&app, "/embed/s/brokenlink01").await;
    assert_eq!(failed.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        failed
            .headers()
            .get(header::RETRY_AFTER)
            .map(|v| v.as_bytes()),
        Some(&b"5"[..])
    );
    assert!(body_text(failed).await.contains("a database error"));
}

/// A link saved before revision 2 (pinned to revision 1) keeps its numbers: the B300 at $2.26,
/// whose tier stated no commitment; and it says that newer data (the 3-year rental at $4.25 as
/// the default) would change its result.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_link_pinned_to_revision_1_keeps_its_numbers() {
    let (app, db) = app().await;
    sqlx::query(
        "INSERT INTO scenarios (id, query, name, note, revision, created_at) \
         VALUES ('pinnedRev1ab', 'v=1', 'Before commitments', '', 1, '2026-11-30T00:00:00Z')",
    )
    .execute(&db.pool)
    .await
    .expect("old save");
    let saved = json(&app, "/api/v1/scenarios/pinnedRev1ab", StatusCode::OK).await;
    assert_eq!(saved["revision"], 1);
    assert_eq!(saved["report"]["inputs"]["gpu_hour_usd"], 2.26);
    let own = saved["report"]["self_host"]["monthly_usd"]
        .as_f64()
        .expect("own");
    assert!(
        (own - (4.0 * 730.0 * 2.26 + 0.5 * 200_000.0 / 12.0)).abs() < 1e-6,
        "{own}"
    );
    assert_eq!(saved["newest_revision"], SEEDED);
    assert_eq!(saved["newer_data_changes_result"], true);
    assert_eq!(saved["current"]["inputs"]["gpu_hour_usd"], 4.25);
    let html = body_text(get(&app, "/s/pinnedRev1ab").await).await;
    assert!(html.contains("Newer data would change this result"));
}

/// The rent an embed shows, as its `data-usd` carries it.
fn embed_rent(html: &str) -> f64 {
    let at = html
        .find(r#"data-testid="rent-monthly" data-usd=""#)
        .unwrap_or_else(|| panic!("no rent in {html}"));
    let rest = &html[at + r#"data-testid="rent-monthly" data-usd=""#.len()..];
    rest[..rest.find('"').expect("closing quote")]
        .parse()
        .expect("a number")
}

/// A wiki shows one embed link to every reader, so its document is kept: readers get the same
/// page, a new dataset revision shows at once, and a saved embed keeps its pinned numbers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kept_embeds_follow_new_data_and_saved_ones_keep_theirs() {
    let (app, db, store) = app_with_store().await;
    let (_, saved) = save(&app, r#"{"query":"requests=20M","name":"Wiki"}"#).await;
    let id = saved["id"].as_str().expect("id").to_owned();
    let pinned_uri = format!("/embed/s/{id}");
    let live = body_text(get(&app, "/embed?requests=20M").await).await;
    let pinned = body_text(get(&app, &pinned_uri).await).await;
    assert_eq!(
        body_text(get(&app, "/embed?requests=20M").await).await,
        live
    );
    assert_eq!(body_text(get(&app, &pinned_uri).await).await, pinned);
    let then = embed_rent(&live);
    assert_eq!(embed_rent(&pinned), then);

    // A new revision doubles the API's prices: the same link now rents at twice the price.
    reprice(&db, &store, 2.0, 2.0).await;
    let after = body_text(get(&app, "/embed?requests=20M").await).await;
    let api = json(&app, "/api/v1/evaluate?requests=20M", StatusCode::OK).await;
    let now = embed_rent(&after);
    assert_eq!(Some(now), api["rent"]["monthly_usd"].as_f64());
    assert!(
        (now / then - 2.0).abs() < 1e-9,
        "renting doubles with its prices: {then} then {now}"
    );
    let pinned_after = body_text(get(&app, &pinned_uri).await).await;
    assert_eq!(
        embed_rent(&pinned_after),
        then,
        "pinned to revision {SEEDED}"
    );
}

/// The document kept for a link is what every reader of that link gets, and only of that link:
/// another query, another saved scenario, or the same link on another day is rendered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_embed_kept_for_a_link_is_what_its_readers_get() {
    use axum::body::Bytes;
    use server::api::embed::Key;
    let config = server::config::Config::from_env().expect("default config");
    let (app, db, state) = app_with_state(TODAY, config).await;
    let data = state.store.current();
    let key = |saved: &str, query: &str| Key::new(saved, query, &data, state.store.today());
    state.embeds.put(
        key("", "requests=20M"),
        Bytes::from_static(b"kept for this link"),
    );
    assert_eq!(
        body_text(get(&app, "/embed?requests=20M").await).await,
        "kept for this link"
    );
    let other = body_text(get(&app, "/embed?requests=21M").await).await;
    assert!(other.contains(r#"data-testid="embed""#), "{other}");
    assert_eq!(state.embeds.usage().0, 2, "the other link is kept too");
    assert_eq!(
        body_text(get(&app, "/embed?requests=21M").await).await,
        other
    );
    assert_eq!(state.embeds.usage().0, 2, "and found again");

    // Two saved scenarios with the same query and the same (empty) embed query: each its own.
    let (_, a) = save(&app, r#"{"query":"requests=20M","name":"Plan A"}"#).await;
    let (_, b) = save(&app, r#"{"query":"requests=20M","name":"Plan B"}"#).await;
    for (saved, name, not) in [(&a, "Plan A", "Plan B"), (&b, "Plan B", "Plan A")] {
        let id = saved["id"].as_str().expect("id");
        for _ in 0..2 {
            let html = body_text(get(&app, &format!("/embed/s/{id}")).await).await;
            assert!(html.contains(name) && !html.contains(not), "{html}");
        }
    }
    assert_eq!(state.embeds.usage().0, 4);
    // An unknown id is not kept: a scenario saved under it later is shown.
    let unknown = get(&app, "/embed/s/abcdefghijkl").await;
    assert_eq!(unknown.status(), StatusCode::NOT_FOUND);
    assert_eq!(state.embeds.usage().0, 4);
    insert_saved(&db.pool, "abcdefghijkl", "v=1&requests=20M", "Saved since").await;
    let found = get(&app, "/embed/s/abcdefghijkl").await;
    assert_eq!(found.status(), StatusCode::OK);
    assert!(body_text(found).await.contains("Saved since"));

    // The same store of embeds under another viewing day renders the link again.
    let mut later = state.clone();
    later.store = app::db::Store::open(db.pool.clone())
        .await
        .expect("store")
        .with_today("2027-06-01");
    let later_app = server::router(later);
    let html = body_text(get(&later_app, "/embed?requests=20M").await).await;
    assert!(html.contains(r#"data-testid="embed""#), "{html}");
}

/// A wiki's readers' browsers accept brotli or gzip: the kept embed is sent in the coding each
/// prefers, made once, and is the same page; it still revalidates.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kept_embed_is_sent_in_the_coding_its_reader_accepts() {
    use server::api::embed::{Coding, Key};
    use std::io::Read;
    let config = server::config::Config::from_env().expect("default config");
    let (app, _db, state) = app_with_state(TODAY, config).await;
    let uri = "/embed?requests=20M&chart=years";
    let key = Key::new(
        "",
        "requests=20M&chart=years",
        &state.store.current(),
        state.store.today(),
    );
    let ask = |coding: &'static str, tag: Option<String>| {
        let mut request = Request::get(uri).header(header::ACCEPT_ENCODING, coding);
        if let Some(tag) = tag {
            request = request.header(header::IF_NONE_MATCH, tag);
        }
        request.body(axum::body::Body::empty()).expect("request")
    };
    let text = body_text(get(&app, uri).await).await;
    assert!(text.contains(r#"data-testid="embed""#), "{text}");
    let mut tags = Vec::new();
    for (accept, coding) in [
        ("gzip, deflate, br, zstd", "br"),
        ("gzip, deflate", "gzip"),
        ("br;q=0, gzip", "gzip"),
    ] {
        // The second asks for the copy made by the first.
        for _ in 0..2 {
            let response = send(&app, ask(accept, None)).await;
            assert_eq!(response.status(), StatusCode::OK);
            let h = response.headers().clone();
            assert_eq!(h[header::CONTENT_ENCODING], coding, "{accept}");
            assert!(h[header::CONTENT_TYPE]
                .to_str()
                .expect("type")
                .starts_with("text/html"));
            assert!(h
                .get_all(header::VARY)
                .iter()
                .any(|v| v.to_str().expect("vary").contains("accept-encoding")));
            let bytes = http_body_util::BodyExt::collect(response.into_body())
                .await
                .expect("body")
                .to_bytes();
            // The copy kept beside the page, not one made on the way out.
            let made = state
                .embeds
                .get(&key)
                .expect("kept")
                .made(if coding == "br" {
                    Coding::Br
                } else {
                    Coding::Gzip
                });
            assert_eq!(made.as_ref(), Some(&bytes), "{accept}");
            let mut page = Vec::new();
            if coding == "br" {
                brotli::BrotliDecompress(&mut &bytes[..], &mut page).expect("brotli");
            } else {
                flate2::read::GzDecoder::new(&bytes[..])
                    .read_to_end(&mut page)
                    .expect("gzip");
            }
            assert_eq!(String::from_utf8(page).expect("utf-8"), text, "{accept}");
            let tag = h[header::ETAG].to_str().expect("etag").to_owned();
            let again = send(&app, ask(accept, Some(tag.clone()))).await;
            assert_eq!(again.status(), StatusCode::NOT_MODIFIED, "{accept}");
            tags.push((accept, coding, tag));
        }
    }
    // Each coding is a representation of its own: another's tag does not revalidate it.
    for (accept, coding, _) in &tags {
        for (_, other, tag) in tags.iter().filter(|t| t.1 != *coding) {
            let response = send(&app, ask(accept, Some(tag.clone()))).await;
            assert_eq!(
                response.status(),
                StatusCode::OK,
                "{coding} with {other}'s tag"
            );
            assert_ne!(&response.headers()[header::ETAG], tag.as_str());
        }
    }
}
