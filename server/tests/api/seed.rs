//! The seeded dataset: every figure equals its published value (and the SemiAnalysis tiers
//! those listed in `server/tests/fixtures/inferencex-samples/README.md`), and every row names a
//! source that exists.

use crate::common::{fresh_db, SEEDED};
use sqlx::AnyPool;

async fn value(pool: &AnyPool, sql: &str) -> f64 {
    sqlx::query_scalar::<_, f64>(sql)
        .fetch_one(pool)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

async fn fact(pool: &AnyPool, key: &str) -> f64 {
    sqlx::query_scalar::<_, f64>("SELECT value FROM facts WHERE key = $1")
        .bind(key)
        .fetch_one(pool)
        .await
        .unwrap_or_else(|e| panic!("fact {key}: {e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_published_figure_is_seeded_with_its_value() {
    let db = fresh_db().await;
    let pool = &db.pool;
    // (fact key, published value) as printed in published-figures.md.
    let facts: &[(&str, f64)] = &[
        // AA-AgentPerf
        ("agentperf-input-mean", 27_000.0),
        ("agentperf-input-min", 5_000.0),
        ("agentperf-input-max", 131_000.0),
        ("agentperf-output-median", 150.0),
        ("agentperf-session-turns", 200.0),
        ("agentperf-active-window", 30.0),
        ("agentperf-ceiling-gb300-b300", 150e6),
        ("agentperf-mi355x", 70e6),
        ("agentperf-deepseek-agents", 91_500.0),
        ("agentperf-gb300-node-kw-low", 5.0),
        ("agentperf-gb300-node-kw-high", 6.0),
        ("agentperf-node-tps-low", 750_000.0),
        ("agentperf-node-tps-high", 900_000.0),
        ("agentperf-gpu-tps-low", 190_000.0),
        ("agentperf-gpu-tps-high", 225_000.0),
        // Hosted model listing
        ("aa-output-speed", 142.9),
        ("aa-output-speed-median", 75.4),
        ("aa-ttft", 0.76),
        ("aa-intelligence-index", 39.0),
        ("aa-intelligence-index-median", 19.0),
        ("aa-price-in", 1.25),
        ("aa-price-out", 4.25),
        ("aa-cache-discount", 0.88),
        ("aa-price-cached", 0.15),
        ("aa-price-blended", 0.78),
        ("aa-cost-per-task", 0.84),
        // SGLang cookbook
        ("sglang-configurations", 43.0),
        ("sglang-deployments", 5.0),
        ("sglang-frontier-area", 0.81),
        ("sglang-c1-concurrency", 1.0),
        ("sglang-c1-tps", 485.8),
        ("sglang-c1-total", 2_514.0),
        ("sglang-c1-ttft-p95", 0.10),
        ("sglang-c16-concurrency", 16.0),
        ("sglang-c16-tps", 208.7),
        ("sglang-c16-total", 49_646.0),
        ("sglang-c64-concurrency", 64.0),
        ("sglang-c64-tps", 97.1),
        ("sglang-c64-total", 114_342.0),
        ("sglang-c160-concurrency", 160.0),
        ("sglang-c160-tps", 40.9),
        ("sglang-c160-total", 185_382.0),
        ("sglang-c160-output", 1_237.0),
        ("sglang-cache-hit-low", 0.968),
        ("sglang-cache-hit-high", 0.976),
        ("sglang-output-share", 0.007),
        ("sglang-cached-share-of-input", 0.97),
        ("sglang-usable-points", 4.0),
        // InferenceX
        ("inferencex-b300-price", 2.26),
        ("inferencex-mi355x-price", 1.50),
        ("inferencex-b300-128", 0.019),
        ("inferencex-b300-191", 0.027),
        ("inferencex-b300-254", 0.046),
        ("inferencex-mi355x-128", 0.024),
        ("inferencex-mi355x-191", 0.044),
        ("inferencex-mi355x-254", 0.076),
        // Deployment facts
        ("weights-bf16", 1_650.0),
        ("weights-nvfp4", 537.0),
        ("smallest-node", 4.0),
        ("workstation-demo", 2.0),
        ("licence-threshold", 20e6),
        // Router
        ("router-price-in", 1.25),
        ("router-price-out", 4.25),
        ("router-markup", 0.0),
        // SemiAnalysis April 2026 all-in power per GPU
        ("tco-b300-allin-kw", 2.17),
        ("tco-gb300-allin-kw", 2.1),
        ("tco-mi355x-allin-kw", 2.65),
    ];
    for (key, expected) in facts {
        assert_eq!(fact(pool, key).await, *expected, "{key}");
    }
    for key in [
        "agentperf-unit",
        "agentperf-gb300-vs-b300",
        "agentperf-mi355x-floor",
        "agentperf-mi35x-accuracy",
        "licence-attribution",
        "router-checkpoints",
        "router-features",
    ] {
        let text: Option<String> =
            sqlx::query_scalar("SELECT value_text FROM facts WHERE key = $1")
                .bind(key)
                .fetch_one(pool)
                .await
                .expect(key);
        assert!(text.is_some_and(|t| !t.is_empty()), "{key}");
    }

    // SemiAnalysis AI Cloud TCO, July 2026: costh / costr per GPU-hour.
    let tiers = [
        ("h100", 1.17, 2.00),
        ("h200", 1.22, 2.90),
        ("b200", 1.73, 3.70),
        ("b300", 2.26, 4.25),
        ("gb200", 1.86, 4.00),
        ("gb300", 2.31, 5.00),
        ("mi300x", 0.95, 1.30),
        ("mi325x", 1.10, 1.60),
        ("mi355x", 1.50, 2.90),
    ];
    for (chip, costh, costr) in tiers {
        for (tier, expected) in [("costh", costh), ("costr", costr)] {
            let sql = format!(
                "SELECT usd_per_gpu_hour FROM price_tiers WHERE chip = '{chip}' AND tier = '{tier}'"
            );
            assert_eq!(value(pool, &sql).await, expected, "{chip} {tier}");
        }
    }
    // April 2026: mi355x 1.48 / 1.90 (neocloud) / 2.10.
    for (tier, expected) in [
        ("costh-2026-04", 1.48),
        ("neocloud-2026-04", 1.90),
        ("costr-2026-04", 2.10),
    ] {
        let sql = format!(
            "SELECT usd_per_gpu_hour FROM price_tiers WHERE chip = 'mi355x' AND tier = '{tier}'"
        );
        assert_eq!(value(pool, &sql).await, expected, "{tier}");
    }

    // The API offer the calculator rents from.
    for (column, expected) in [
        ("price_in", 1.25),
        ("price_out", 4.25),
        ("cache_discount", 0.88),
        ("speed_tps", 142.9),
    ] {
        let sql = format!("SELECT {column} FROM api_offers WHERE id = 'muse-spark-open-api'");
        assert_eq!(value(pool, &sql).await, expected, "{column}");
    }

    // Curve points exactly as published.
    let points = [
        ("inferencex-b300-fp4", 128.0, "usd_per_mtok", 0.019),
        ("inferencex-b300-fp4", 191.0, "usd_per_mtok", 0.027),
        ("inferencex-b300-fp4", 254.0, "usd_per_mtok", 0.046),
        ("inferencex-mi355x-fp4", 128.0, "usd_per_mtok", 0.024),
        ("inferencex-mi355x-fp4", 191.0, "usd_per_mtok", 0.044),
        ("inferencex-mi355x-fp4", 254.0, "usd_per_mtok", 0.076),
        ("sglang-gb300-tp4", 208.7, "tokens_per_s_per_gpu", 49_646.0),
        ("sglang-gb300-tp4", 97.1, "tokens_per_s_per_gpu", 114_342.0),
        ("sglang-gb300-tp4", 40.9, "tokens_per_s_per_gpu", 185_382.0),
        (
            "sglang-gb300-tp8ep8",
            485.8,
            "tokens_per_s_per_gpu",
            2_514.0,
        ),
    ];
    for (curve, tps, column, expected) in points {
        let sql =
            format!("SELECT {column} FROM curve_points WHERE curve = '{curve}' AND tps = {tps}");
        assert_eq!(value(pool, &sql).await, expected, "{curve} at {tps}");
    }
    for (curve, price) in [
        ("inferencex-b300-fp4", 2.26),
        ("inferencex-mi355x-fp4", 1.50),
    ] {
        let sql = format!("SELECT price_basis_usd FROM curves WHERE id = '{curve}'");
        assert_eq!(value(pool, &sql).await, price, "{curve}");
    }

    // Headlines and deployment facts the engine computes with.
    for (id, column, expected) in [
        ("agentperf-gb300", "tokens_per_s_per_mw", 150e6),
        ("agentperf-b300", "tokens_per_s_per_mw", 150e6),
        ("agentperf-mi355x", "tokens_per_s_per_mw", 70e6),
        ("agentperf-deepseek-gb300-nvl72", "agents_per_mw", 91_500.0),
    ] {
        let sql = format!("SELECT {column} FROM headlines WHERE id = '{id}'");
        assert_eq!(value(pool, &sql).await, expected, "{id}");
    }
    let floor: i64 = sqlx::query_scalar(
        "SELECT CASE WHEN is_floor THEN 1 ELSE 0 END FROM headlines WHERE id = 'agentperf-mi355x'",
    )
    .fetch_one(pool)
    .await
    .expect("floor");
    assert_eq!(floor, 1, "the MI355X AgentPerf figure is a floor");
    for (precision, gb) in [("bf16", 1_650.0), ("fp4", 537.0)] {
        let sql = format!("SELECT gigabytes FROM model_weights WHERE precision = '{precision}'");
        assert_eq!(value(pool, &sql).await, gb);
    }
    assert_eq!(
        value(
            pool,
            "SELECT licence_revenue_threshold_usd FROM models WHERE id = 'muse-spark-open'"
        )
        .await,
        20e6
    );
    for (chip, kw) in [("b300", 2.17), ("gb300", 2.1), ("mi355x", 2.65)] {
        let sql = format!("SELECT all_in_kw FROM chips WHERE id = '{chip}'");
        assert_eq!(value(pool, &sql).await, kw, "{chip}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_row_names_an_existing_source() {
    let db = fresh_db().await;
    let checks = [
        ("facts", "source"),
        ("models", "licence_source"),
        ("model_weights", "source"),
        ("chips", "memory_source"),
        ("chips", "accelerator_kw_source"),
        ("chips", "all_in_kw_source"),
        ("price_tiers", "source"),
        ("api_offers", "source"),
        ("curves", "source"),
        ("headlines", "source"),
    ];
    for (table, column) in checks {
        let sql = format!(
            "SELECT COUNT(*) FROM {table} WHERE {column} IS NOT NULL AND {column} NOT IN (SELECT key FROM sources)"
        );
        let orphans: i64 = sqlx::query_scalar(&sql)
            .fetch_one(&db.pool)
            .await
            .expect(&sql);
        assert_eq!(orphans, 0, "{table}.{column} names a missing source");
    }
    let vendor: Vec<String> =
        sqlx::query_scalar("SELECT DISTINCT key FROM sources WHERE trust = 'vendor' ORDER BY key")
            .fetch_all(&db.pool)
            .await
            .expect("vendors");
    // The published figures' vendors, then the clouds' catalogues of the open models' revision
    // (each provider's own list prices; the API price tables are a third party's lists).
    let (published, tables): (Vec<&String>, Vec<&String>) =
        vendor.iter().partition(|k| !k.starts_with("rental-"));
    assert_eq!(
        published,
        [
            "chip-compute",
            "orcarouter",
            "sglang-cookbook",
            "vendor-specs"
        ]
    );
    assert_eq!(tables.len(), 6, "{tables:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn starting_twice_changes_nothing() {
    let db = fresh_db().await;
    let count = |pool: AnyPool| async move {
        let mut total = 0;
        for table in [
            "sources",
            "facts",
            "curves",
            "curve_points",
            "price_tiers",
            "dataset_revisions",
        ] {
            let n: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
                .fetch_one(&pool)
                .await
                .expect(table);
            total += n;
        }
        total
    };
    let before = count(db.pool.clone()).await;
    data::migrate(&db.pool).await.expect("second start");
    assert_eq!(count(db.pool.clone()).await, before);
    let data = app::db::Store::open(db.pool.clone()).await.expect("load");
    assert_eq!(data.current().revision, SEEDED);
}

/// Revision 2 classifies every shipped GPU-hour price by its commitment (costh an owner's cost,
/// costr a 36-month reservation with 25 % upfront, as SemiAnalysis's table names them), makes
/// the cheapest rentable tier of each chip's newest survey its default, and corrects three rows
/// of revision 1, which keeps its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn revision_2_classifies_prices_and_corrects_revision_1() {
    use servecost::gpu_price::Commitment;
    let db = fresh_db().await;
    let now = data::load_dataset(&db.pool, SEEDED)
        .await
        .expect("revision 2");
    let then = data::load_dataset(&db.pool, 1).await.expect("revision 1");
    // Every tier has a kind but the neocloud price, whose source does not state it.
    for t in &now.price_tiers {
        assert_eq!(t.kind.is_none(), t.tier == "neocloud-2026-04", "{}", t.tier);
    }
    assert!(
        then.price_tiers.iter().all(|t| t.kind.is_none()),
        "revision 1 is untouched"
    );
    for t in &now.price_tiers {
        match t.tier.as_str() {
            "costh" | "costh-2026-04" => {
                assert_eq!(t.kind, Some(Commitment::OwnerCost), "{}", t.tier)
            }
            "costr" => {
                assert_eq!(t.kind, Some(Commitment::Reserved));
                assert_eq!((t.term_months, t.upfront_share), (Some(36.0), Some(0.25)));
            }
            "neocloud-2026-04" => assert_eq!(t.kind, None),
            _ => assert!(t.kind.is_some_and(Commitment::is_rentable), "{}", t.tier),
        }
    }
    // Each chip's default: the cheapest rentable tier of its newest survey (July 2026).
    for chip in [
        "h100", "h200", "b200", "b300", "gb200", "gb300", "mi300x", "mi325x", "mi355x",
    ] {
        let newest = now
            .price_tiers
            .iter()
            .filter(|t| t.chip == chip && t.source == "semianalysis-tco-2026-07")
            .filter(|t| t.kind.is_some_and(Commitment::is_rentable))
            .min_by(|a, b| a.usd_per_gpu_hour.total_cmp(&b.usd_per_gpu_hour))
            .expect("a rentable tier");
        assert_eq!(
            now.default_tier(chip).map(|t| &t.tier),
            Some(&newest.tier),
            "{chip}"
        );
        assert_eq!(
            then.default_tier(chip).map(|t| t.tier.as_str()),
            Some("costh"),
            "{chip}"
        );
    }
    // The SGLang TP8 EP8 run is two 4-GPU nodes.
    let replica = |d: &servecost::Dataset| d.curve("sglang-gb300-tp8ep8").map(|c| c.replica_gpus);
    assert_eq!((replica(&then), replica(&now)), (Some(16.0), Some(8.0)));
    assert_eq!(
        now.curve("sglang-gb300-tp8ep8").map(|c| c.points.len()),
        Some(1),
        "the corrected curve keeps its point"
    );
    // The router publishes no cache discount; the provider's page does.
    let stated = |d: &servecost::Dataset, id: &str| {
        d.api_offers
            .iter()
            .find(|o| o.id == id)
            .map(|o| o.cache_discount_stated)
    };
    assert_eq!(stated(&now, "orcarouter-muse-spark"), Some(false));
    assert_eq!(stated(&now, "muse-spark-open-api"), Some(true));
    // The MI355X's 1.4 kW is board power, not AgentPerf's accelerator power.
    let mi355x = now.chip("mi355x").expect("mi355x");
    assert_eq!(mi355x.accelerator_kw_measure.as_deref(), Some("board"));
    assert!(mi355x
        .power_caveat
        .as_deref()
        .is_some_and(|c| c.contains("board power")));
}
