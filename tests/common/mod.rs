//! The published dataset as the engine's tests see it: every figure of revision 1
//! (`migrations/20261129000002_published_dataset.sql`) and the InferenceX price tiers, with its
//! source.
//! The server's seed migration holds the same figures; its tests check them against the
//! published values independently.
#![allow(dead_code)]

use servecost::curve::CurvePoint;
use servecost::dataset::{
    ApiOffer, Chip, Curve, Dataset, Headline, Model, PriceTier, Source, Trust, WeightsSize,
};
use servecost::units::Mix;

fn source(key: &str, publisher: &str, date: &str, trust: Trust) -> Source {
    Source {
        key: key.into(),
        publisher: publisher.into(),
        title: key.into(),
        url: None,
        date: date.into(),
        trust,
        caveat: None,
    }
}

fn chip(id: &str, memory_gb: f64, acc: Option<f64>, all_in: Option<f64>) -> Chip {
    Chip {
        id: id.into(),
        name: id.to_uppercase(),
        memory_gb,
        memory_source: "vendor-specs".into(),
        accelerator_kw: acc,
        accelerator_kw_source: acc.map(|_| "aa-agentperf".into()),
        all_in_kw: all_in,
        all_in_kw_source: all_in.map(|_| "semianalysis-tco-2026-04".into()),
        accelerator_kw_measure: None,
        power_caveat: None,
        family: None,
        dense_tflops_fp4: None,
        dense_tflops_fp8: None,
        dense_tflops_bf16: None,
        memory_tb_s: None,
        compute_source: None,
    }
}

fn tier(chip: &str, tier: &str, usd: f64, is_default: bool) -> PriceTier {
    PriceTier {
        chip: chip.into(),
        tier: tier.into(),
        label: tier.into(),
        usd_per_gpu_hour: usd,
        source: "semianalysis-tco-2026-07".into(),
        is_default,
        kind: None,
        term_months: None,
        upfront_share: None,
        provider: None,
    }
}

/// Revision 2 of the seed (`migrations/20261201000002_commitments_and_corrections.sql`): the
/// tiers classified by commitment (costh an owner's cost, costr a 36-month reservation with
/// 25 % upfront, now the default), as the engine's tests need them.
pub fn revision_2() -> Dataset {
    use servecost::gpu_price::Commitment;
    let mut d = published();
    d.revision = 2;
    for t in &mut d.price_tiers {
        if t.tier == "costh" {
            t.kind = Some(Commitment::OwnerCost);
            t.is_default = false;
        } else {
            t.kind = Some(Commitment::Reserved);
            t.term_months = Some(36.0);
            t.upfront_share = Some(0.25);
            t.is_default = true;
        }
    }
    d
}

/// Revision 3 of the seed: revision 2 with the chip families (B300 and GB300 are Blackwell
/// Ultra, MI355X is CDNA 4).
pub fn revision_3() -> Dataset {
    let mut d = revision_2();
    d.revision = 3;
    for c in &mut d.chips {
        c.family = Some(
            if c.id == "mi355x" {
                "cdna4"
            } else {
                "blackwell-ultra"
            }
            .into(),
        );
    }
    d
}

/// The mix assumed for the InferenceX curves, as the seed migration stores it: the AgentPerf
/// coding-agent request (27,000 input tokens at 97 % cache hits, 180 output).
pub fn agent_mix() -> Mix {
    Mix::from_parts(810.0, 26_190.0, 180.0).expect("mix")
}

/// The SGLang mix, as stored: the 40.9 tok/s run's 185,382 tokens/s per GPU, 1,237 of them
/// output, 97 % of the input served from cache.
pub fn sglang_mix() -> Mix {
    let input = 185_382.0 - 1_237.0;
    Mix::from_parts(input * 0.03, input * 0.97, 1_237.0).expect("mix")
}

/// InferenceX FP4 cost points: (tokens/s per user, B300 $/M at $2.26, MI355X $/M at $1.50).
pub const INFERENCEX: [(f64, f64, f64); 3] = [
    (128.0, 0.019, 0.024),
    (191.0, 0.027, 0.044),
    (254.0, 0.046, 0.076),
];

/// SGLang cookbook GB300 TP4 points: (output tokens/s per user, total tokens/s per GPU).
pub const SGLANG_TP4: [(f64, f64); 3] = [(208.7, 49_646.0), (97.1, 114_342.0), (40.9, 185_382.0)];

pub fn inferencex_curve(
    id: &str,
    chip: &str,
    price: f64,
    pick: fn(&(f64, f64, f64)) -> f64,
) -> Curve {
    Curve {
        id: id.into(),
        model: "muse-spark-open".into(),
        chip: chip.into(),
        precision: "fp4".into(),
        framework: "not stated".into(),
        replica_gpus: if chip == "b300" { 4.0 } else { 8.0 },
        mix: agent_mix(),
        mix_stated: false,
        points: INFERENCEX
            .iter()
            .map(|p| CurvePoint::from_cost(p.0, pick(p), price))
            .collect(),
        source: "inferencex".into(),
        note: None,
        tier: None,
        setup: None,
        point_sources: Vec::new(),
        prefill: None,
        replica_basis: None,
        batch_tokens_per_s_per_gpu: None,
        input_share_bounds: None,
        is_default: false,
    }
}

pub fn published() -> Dataset {
    Dataset {
        revision: 1,
        sources: vec![
            source(
                "aa-agentperf",
                "Artificial Analysis",
                "2026-10-23",
                Trust::Independent,
            ),
            source(
                "aa-model-page",
                "Artificial Analysis",
                "2026-10-15",
                Trust::Independent,
            ),
            source(
                "sglang-cookbook",
                "SGLang project",
                "2026-10-22",
                Trust::Vendor,
            ),
            source(
                "inferencex",
                "SemiAnalysis InferenceX",
                "2026-10",
                Trust::Independent,
            ),
            source("meta-license", "Meta", "2026-10-15", Trust::Licensor),
            source("meta-release", "Meta", "2026-10-15", Trust::Licensor),
            source("orcarouter", "OrcaRouter", "2026-10", Trust::Vendor),
            source(
                "semianalysis-tco-2026-07",
                "SemiAnalysis",
                "2026-07",
                Trust::Independent,
            ),
            source(
                "semianalysis-tco-2026-04",
                "SemiAnalysis",
                "2026-04",
                Trust::Independent,
            ),
            source("vendor-specs", "NVIDIA and AMD", "2026", Trust::Vendor),
            source(
                "servecost-assumptions",
                "servecost",
                "2026-11",
                Trust::Assumption,
            ),
        ],
        models: vec![Model {
            id: "muse-spark-open".into(),
            name: "Muse Spark Open".into(),
            weights: vec![
                WeightsSize {
                    precision: "bf16".into(),
                    gigabytes: 1_650.0,
                    source: "meta-release".into(),
                },
                WeightsSize {
                    precision: "fp4".into(),
                    gigabytes: 537.0,
                    source: "meta-release".into(),
                },
            ],
            licence: "Products must show \"Built with Muse Spark Open\".".into(),
            licence_revenue_threshold_usd: Some(20e6),
            licence_source: "meta-license".into(),
        }],
        chips: vec![
            chip("b300", 288.0, Some(1.375), Some(2.17)),
            chip("gb300", 288.0, Some(1.375), Some(2.1)),
            chip("mi355x", 288.0, None, Some(2.65)),
        ],
        price_tiers: vec![
            tier("b300", "costh", 2.26, true),
            tier("b300", "costr", 4.25, false),
            tier("gb300", "costh", 2.31, true),
            tier("gb300", "costr", 5.00, false),
            tier("mi355x", "costh", 1.50, true),
            tier("mi355x", "costr", 2.90, false),
        ],
        api_offers: vec![ApiOffer {
            id: "muse-spark-open-api".into(),
            model: "muse-spark-open".into(),
            name: "Muse Spark Open API".into(),
            price_in: 1.25,
            price_out: 4.25,
            cache_discount: 0.88,
            markup: 0.0,
            speed_tps: Some(142.9),
            source: "aa-model-page".into(),
            note: None,
            cache_discount_stated: true,
            batch_discount: None,
            provider: None,
        }],
        curves: vec![
            inferencex_curve("inferencex-b300-fp4", "b300", 2.26, |p| p.1),
            inferencex_curve("inferencex-mi355x-fp4", "mi355x", 1.50, |p| p.2),
            Curve {
                id: "sglang-gb300-tp4".into(),
                model: "muse-spark-open".into(),
                chip: "gb300".into(),
                precision: "fp4".into(),
                framework: "SGLang".into(),
                replica_gpus: 4.0,
                mix: sglang_mix(),
                mix_stated: true,
                points: SGLANG_TP4
                    .iter()
                    .map(|&(tps, t)| CurvePoint::measured(tps, t))
                    .collect(),
                source: "sglang-cookbook".into(),
                note: None,
                tier: None,
                setup: None,
                point_sources: Vec::new(),
                prefill: None,
                replica_basis: None,
                batch_tokens_per_s_per_gpu: None,
                input_share_bounds: None,
                is_default: false,
            },
        ],
        headlines: vec![
            Headline {
                id: "agentperf-b300".into(),
                chip: "b300".into(),
                label: "AgentPerf: up to ~150 M tokens/s per MW on 4x B300".into(),
                tokens_per_s_per_mw: Some(150e6),
                agents_per_mw: None,
                is_floor: false,
                source: "aa-agentperf".into(),
            },
            Headline {
                id: "agentperf-mi355x".into(),
                chip: "mi355x".into(),
                label: "AgentPerf: ~70 M tokens/s per MW on MI355X".into(),
                tokens_per_s_per_mw: Some(70e6),
                agents_per_mw: None,
                is_floor: true,
                source: "aa-agentperf".into(),
            },
        ],
        as_of: None,
        offers_left_out: 0,
        tiers_left_out: Default::default(),
        reach: Vec::new(),
        offer_defaults: Default::default(),
    }
}

/// Two weeks of hourly buckets from Monday 2026-06-01 00:00 UTC with a daily swing of uneven
/// weights, so that no weight is a round number; the hour of the day `batch_at` (if any) is
/// batch traffic.
pub fn measured_week(scale: f64, batch_at: Option<i64>) -> Vec<servecost::usage::Bucket> {
    const MONDAY: i64 = 1_780_272_000;
    (0..14 * 24)
        .map(|h: i64| {
            let hour = (h % 24) as f64;
            let day = ((h / 24) % 7) as f64;
            let load = scale
                * (1.3 + (std::f64::consts::TAU * (hour - 13.7) / 24.0).cos())
                * (1.0 + 0.037 * day);
            servecost::usage::Bucket {
                start: MONDAY + h * 3_600,
                end: MONDAY + (h + 1) * 3_600,
                uncached: (0.2 * load).round(),
                cached: (0.7 * load).round(),
                output: (0.1 * load).round(),
                requests: None,
                batch: batch_at == Some(h % 24),
            }
        })
        .collect()
}
