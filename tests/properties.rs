//! Invariants of the engine over generated inputs (proptest).

mod common;

use common::published;
use proptest::prelude::*;
use servecost::curve::CurvePoint;
use servecost::finite;
use servecost::fleet::Scaling;
use servecost::gpu_price::Commitment;
use servecost::profile::{ProfilePreset, ProfileSpec};
use servecost::scenario::{CurveChoice, OwnedInputs};
use servecost::workload::{Preset, RequestShape, Workload};
use servecost::{evaluate, parse, to_query, Scenario};

/// Numbers that break naive code, as text, plus ordinary ones.
fn wild_number() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("NaN".to_owned()),
        Just("inf".to_owned()),
        Just("-inf".to_owned()),
        Just("-1".to_owned()),
        Just("0".to_owned()),
        Just("1e308".to_owned()),
        Just("1e-308".to_owned()),
        Just("1e-300".to_owned()),
        Just("5e-324".to_owned()),
        Just("1e-9".to_owned()),
        Just("1_000".to_owned()),
        Just("".to_owned()),
        Just("99%".to_owned()),
        Just("5T".to_owned()),
        any::<f64>().prop_map(|f| f.to_string()),
        (0.0..1e4f64).prop_map(|f| f.to_string()),
        (0.0..1.0f64).prop_map(|f| f.to_string()),
    ]
}

const PARAMS: &[&str] = &[
    "tokens",
    "mix",
    "input",
    "cached",
    "output",
    "requests",
    "input_per_request",
    "cache_hit",
    "output_per_request",
    "tps",
    "price_in",
    "price_out",
    "cache_discount",
    "markup",
    "gpu_hour",
    "replica",
    "prefill",
    "cache_cost",
    "util",
    "redundancy",
    "min_replicas",
    "ops_fte",
    "fte_cost",
    "ops_monthly",
    "capex",
    "years",
    "rate",
    "kw",
    "pue",
    "kwh",
    "colo",
    "maint",
    "headline",
    "own",
    "scaling",
    "hybrid",
    "profile",
    "curve",
    "points",
    "curve_mix",
    "workload",
];

fn wild_query() -> impl Strategy<Value = String> {
    prop::collection::vec(
        (
            prop::sample::select(PARAMS),
            prop_oneof![
                wild_number(),
                wild_number().prop_map(|n| format!("{n}:{n}:1")),
                wild_number().prop_map(|n| format!("100:{n},{n}:50")),
                Just("hourly".to_owned()),
                Just("1".to_owned()),
                Just("inferencex-mi355x-fp4".to_owned()),
                Just("sglang-gb300-tp4".to_owned()),
                "[a-z%:,]{0,12}",
            ],
        ),
        0..8,
    )
    .prop_map(|pairs| {
        pairs
            .into_iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("&")
    })
}

fn positive(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    (lo.ln()..hi.ln()).prop_map(f64::exp)
}

fn workload() -> impl Strategy<Value = Workload> {
    prop_oneof![
        (0.0..1e13f64, 0.0..1e12f64, 0.0..1e11f64).prop_map(|(input, cached, output)| {
            Workload::Totals {
                input,
                cached,
                output,
            }
        }),
        (
            positive(1e3, 1e14),
            0.0..10.0f64,
            0.0..10.0f64,
            0.01..10.0f64
        )
            .prop_map(|(tokens, a, b, c)| Workload::Mix {
                tokens,
                mix: [a, b, c]
            }),
        (
            positive(1.0, 1e9),
            prop::sample::select(Preset::ALL.to_vec()),
            1.0..2e5f64,
            // The codec takes a cache hit of 0, or a millionth and more: nothing between.
            prop_oneof![Just(0.0), 1e-6..1.0f64],
            // The codec takes 0, or 1 token and more: nothing between.
            prop_oneof![Just(0.0), 1.0..5e3f64]
        )
            .prop_map(
                |(requests, preset, input, hit, output)| Workload::Requests {
                    requests,
                    preset,
                    shape: RequestShape {
                        input_per_request: input,
                        cache_hit: hit,
                        output_per_request: output,
                    },
                }
            ),
    ]
}

fn curve() -> impl Strategy<Value = CurveChoice> {
    prop_oneof![
        prop::sample::select(vec![
            None,
            Some("inferencex-b300-fp4".to_owned()),
            Some("inferencex-mi355x-fp4".to_owned()),
            Some("sglang-gb300-tp4".to_owned()),
        ])
        .prop_map(|id| CurveChoice::Dataset { id }),
        (positive(1e3, 1e6), 0.5..0.99f64).prop_map(|(t, fall)| CurveChoice::Own {
            points: vec![
                CurvePoint::measured(20.0, t),
                CurvePoint::measured(400.0, t * (1.0 - fall)),
            ],
            mix: [1.0, 8.0, 1.0],
            chip: None,
        }),
    ]
}

prop_compose! {
    fn scenario()(
        workload in workload(),
        tps in prop::option::of(1.0..300.0f64),
        profile in prop::sample::select(ProfilePreset::ALL.to_vec()),
        price_in in prop::option::of(0.0..20.0f64),
        price_out in prop::option::of(0.0..60.0f64),
        curve in curve(),
        gpu_hour in prop::option::of(positive(0.1, 50.0)),
        prefill in positive(2e5, 1e8),
        cache_cost in prop_oneof![Just(0.0), 0.001..0.5f64],
        util in 0.3..1.0f64,
        redundancy in 0u8..3,
        min_replicas in 0u8..3,
        hourly in any::<bool>(),
        hybrid in any::<bool>(),
        // Values between 0 and the codec's floors are refused by design: none is generated.
        ops_fte in prop_oneof![Just(0.0), 0.001..5.0f64],
        owned in prop::option::of(positive(1e3, 2e5)),
    ) -> Scenario {
        let owned = owned.map(OwnedInputs::with_capex);
        Scenario {
            workload,
            tps,
            profile: ProfileSpec::Preset(profile),
            price_in,
            price_out,
            curve,
            gpu_hour: if owned.is_some() { None } else { gpu_hour },
            prefill: Some(prefill),
            cache_cost,
            util,
            redundancy: f64::from(redundancy),
            min_replicas: f64::from(min_replicas),
            scaling: if hourly && owned.is_none() { Scaling::Hourly } else { Scaling::Fixed },
            hybrid,
            ops_fte,
            owned,
            ..Scenario::default()
        }
    }
}

fn with_requests(s: &Scenario, factor: f64) -> Scenario {
    let mut s = s.clone();
    s.workload = match s.workload {
        Workload::Totals {
            input,
            cached,
            output,
        } => Workload::Totals {
            input: input * factor,
            cached: cached * factor,
            output: output * factor,
        },
        Workload::Mix { tokens, mix } => Workload::Mix {
            tokens: tokens * factor,
            mix,
        },
        Workload::Requests {
            requests,
            preset,
            shape,
        } => Workload::Requests {
            requests: requests * factor,
            preset,
            shape,
        },
    };
    s
}

/// Every number cell of the CSV export (all but the id, text, link and inputs-in-force rows,
/// whose source column is empty or a text) reads back as a finite number.
fn csv_numbers_are_finite(csv: &str) -> Result<(), String> {
    for line in csv.lines().skip(1) {
        if line.ends_with(",id,")
            || line.ends_with(",text,")
            || line.starts_with("link,")
            || line.starts_with("in_force,")
        {
            continue;
        }
        let value = line
            .split(',')
            .nth(2)
            .ok_or_else(|| format!("short row {line:?}"))?;
        match value.parse::<f64>() {
            Ok(v) if v.is_finite() => {}
            _ => return Err(format!("row {line:?}: {value:?} is not a finite number")),
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// No query, however wild, panics or yields a non-finite number: it is a report or named
    /// problems.
    #[test]
    fn wild_queries_give_a_report_or_named_problems(q in wild_query()) {
        let data = published();
        match parse(&q) {
            Ok(parsed) => match evaluate(&parsed.scenario, &data) {
                Ok(report) => {
                    prop_assert!(finite::check(&report).is_ok(), "{q}: {:?}", finite::check(&report));
                    let csv = servecost::export::csv(&report);
                    prop_assert!(csv_numbers_are_finite(&csv).is_ok(), "{q}: {:?}", csv_numbers_are_finite(&csv));
                }
                Err(problems) => prop_assert!(problems.iter().all(|p| !p.param.is_empty())),
            },
            Err(problems) => {
                prop_assert!(!problems.is_empty());
                prop_assert!(problems.iter().all(|p| !p.param.is_empty() && !p.reason.is_empty()));
            }
        }
    }

    /// A scenario built in code with non-finite or out-of-range numbers is refused, not computed.
    #[test]
    fn scenarios_built_in_code_are_validated(s in scenario(), bad in prop_oneof![Just(f64::NAN), Just(f64::INFINITY), Just(-1.0), Just(1e300)]) {
        let data = published();
        for field in 0..4 {
            let mut s = s.clone();
            match field {
                0 => s.util = bad,
                1 => s.prefill = Some(bad),
                2 => s.tps = Some(bad),
                _ => s.ops_fte = bad,
            }
            prop_assert!(evaluate(&s, &data).is_err());
        }
    }

    #[test]
    fn links_round_trip(s in scenario()) {
        let parsed = parse(&to_query(&s));
        prop_assert!(parsed.is_ok(), "{:?}", parsed);
        prop_assert_eq!(parsed.map(|p| p.scenario.into_scenario()).ok(), Some(s));
    }

    /// The calculator page carries only its model's curves and offers (`Dataset::for_model`):
    /// every scenario evaluates there exactly as on the whole dataset.
    #[test]
    fn the_page_dataset_gives_the_same_report(s in scenario()) {
        // A second model with its own curves and offer, which the page leaves out.
        let mut data = published();
        let mut other = data.models[0].clone();
        other.id = "other-model".into();
        data.models.push(other);
        let extra: Vec<_> = data.curves.iter().map(|c| {
            let mut c = c.clone();
            c.id = format!("{}-other", c.id);
            c.model = "other-model".into();
            c
        }).collect();
        data.curves.extend(extra);
        let mut offer = data.api_offers[0].clone();
        offer.id = "other-api".into();
        offer.model = "other-model".into();
        data.api_offers.push(offer);
        let page = data.for_model(s.model.as_deref());
        prop_assert!(page.curves.len() * 2 == data.curves.len());
        prop_assert_eq!(evaluate(&s, &page), evaluate(&s, &data));
    }

    /// A page carries at most `PAGE_OFFERS` of its model's offers (`Dataset::for_page`),
    /// whichever offer the link names: every scenario evaluates there exactly as on the whole.
    #[test]
    fn a_page_of_many_offers_gives_the_same_report(
        s in scenario(),
        pick in 0usize..120,
        spread in 0.5f64..2.0,
    ) {
        let mut data = published();
        let base = data.api_offers[0].clone();
        for i in 0..80 {
            let mut o = base.clone();
            o.id = format!("offer-{i}");
            o.name = format!("Offer {i}");
            let f = spread.powf((i % 17) as f64 / 8.0 - 1.0);
            o.price_in = (base.price_in * f * 1e6).round() / 1e6;
            o.price_out = (base.price_out * (2.0 - f / 2.0).max(0.1) * 1e6).round() / 1e6;
            o.cache_discount = [0.0, 0.5, 0.75, 0.9, 0.95][i % 5];
            o.cache_discount_stated = i % 3 != 0;
            o.speed_tps = Some(20.0 + i as f64);
            data.api_offers.push(o);
        }
        // The largest stated cache discount on the dearest offer: the caveat on an offer that
        // states none names it, so the page must carry it though it is never among the cheapest.
        let mut dear = base.clone();
        dear.id = "dear-cache".into();
        dear.price_in = base.price_in * 50.0;
        dear.price_out = base.price_out * 50.0;
        dear.cache_discount = 0.97;
        dear.cache_discount_stated = true;
        data.api_offers.push(dear);
        // And 40 more GPU-hour prices of each chip, of every kind.
        let kinds = [None, Some(Commitment::OnDemand), Some(Commitment::Spot), Some(Commitment::Reserved), Some(Commitment::OwnerCost)];
        let extra: Vec<_> = data.price_tiers.iter().take(3).flat_map(|t| {
            (0..40).map(move |i| {
                let mut x = t.clone();
                x.tier = format!("{}-more-{i}", t.tier);
                x.is_default = false;
                x.usd_per_gpu_hour = t.usd_per_gpu_hour * spread.powf((i % 13) as f64 / 6.0 - 1.0);
                x.kind = kinds[i % 5];
                x.term_months = (x.kind == Some(Commitment::Reserved)).then_some(12.0 * (1 + i % 3) as f64);
                x
            })
        }).collect();
        data.price_tiers.extend(extra);
        let mut s = s;
        if pick < 80 && s.model.is_none() {
            s.api = Some(format!("offer-{pick}"));
        }
        // Half the time, a price tier of the scenario's chip beyond those a page lists first.
        if pick % 2 == 0 && s.gpu_hour.is_none() && s.owned.is_none() {
            let chip = evaluate(&s, &data).ok().and_then(|r| r.inputs.chip);
            let more: Vec<String> = data.price_tiers.iter()
                .filter(|t| Some(&t.chip) == chip.as_ref() && t.tier.contains("-more-"))
                .map(|t| t.tier.clone())
                .collect();
            if !more.is_empty() {
                s.gpu_tier = Some(more[pick % more.len()].clone());
            }
        }
        // An id the dataset lacks: the problem says the same on the page as on the whole.
        if pick >= 110 {
            s.api = Some("no-such-offer".into());
        } else if pick >= 100 {
            s.gpu_tier = Some("no-such-tier".into());
        }
        let page = data.for_page(&s);
        prop_assert!(page.api_offers.len() <= servecost::dataset::PAGE_OFFERS);
        prop_assert_eq!(
            page.api_offers.len() + page.offers_left_out as usize,
            data.api_offers.len()
        );
        prop_assert_eq!(
            page.price_tiers.len() + page.tiers_left_out.values().map(|n| *n as usize).sum::<usize>(),
            data.price_tiers.len()
        );
        if let Some(id) = &s.api {
            prop_assert!(page.api_offer(id).is_some() || data.api_offer(id).is_none());
        }
        prop_assert_eq!(evaluate(&s, &page), evaluate(&s, &data));
    }

    /// Every report is finite; the hybrid never costs more than the cheaper side; the breakdown
    /// adds up.
    #[test]
    fn reports_are_consistent(s in scenario()) {
        if let Ok(r) = evaluate(&s, &published()) {
            prop_assert!(finite::check(&r).is_ok());
            let cheaper = r.rent.monthly_usd.min(r.self_host.monthly_usd);
            if let Some(h) = r.hybrid {
                prop_assert!(h.monthly_usd <= cheaper * (1.0 + 1e-9) + 1e-9, "{} > {}", h.monthly_usd, cheaper);
                // Its per-class rates times the volumes are its bill.
                let v = r.inputs.volumes;
                let e = h.effective_per_mtok;
                let billed = (v.uncached * e.input + v.cached * e.cached + v.output * e.output) / 1e6;
                prop_assert!((billed - h.monthly_usd).abs() <= 1e-6 * h.monthly_usd.max(1.0), "rates bill {billed}, plan {}", h.monthly_usd);
            }
            // The verdict's best plan is the cheapest of the three.
            let least = r.rent.monthly_usd.min(r.self_host.monthly_usd).min(r.hybrid.map_or(f64::INFINITY, |h| h.monthly_usd));
            prop_assert!((r.verdict.best_monthly_usd - least).abs() <= 1e-9 * least.max(1.0), "best {} vs least {least}", r.verdict.best_monthly_usd);
            // The sureness figures are shares and ordered percentiles.
            if let Some(u) = &r.uncertainty {
                prop_assert!((0.0..=1.0).contains(&u.p_best_holds) && (0.0..=1.0).contains(&u.p_self_host_cheaper));
                prop_assert!(u.difference_usd.p10 <= u.difference_usd.p50 && u.difference_usd.p50 <= u.difference_usd.p90);
                let p = u.p_cheapest;
                prop_assert!((p.rent + p.self_host + p.hybrid + u.p_no_answer - 1.0).abs() < 1e-9);
                // The cases the named plan does not hold, by the plan that beats it, make the
                // whole with the holding share: never the named plan, never more than a plan's
                // cheapest share.
                let b = u.p_beaten;
                prop_assert!((b.rent + b.self_host + b.hybrid + u.p_best_holds + u.p_no_answer - 1.0).abs() < 1e-9, "{u:?}");
                let own = match r.verdict.best {
                    servecost::decision::Strategy::Rent => b.rent,
                    servecost::decision::Strategy::SelfHost => b.self_host,
                    servecost::decision::Strategy::Hybrid => b.hybrid,
                };
                prop_assert!(own == 0.0, "{u:?}");
                prop_assert!(b.rent <= p.rent && b.self_host <= p.self_host && b.hybrid <= p.hybrid, "{u:?}");
                prop_assert!(u.p_best_holds_se <= servecost::decision::TARGET_SE + 1e-12 || f64::from(u.draws) == s.uncertainty.draws, "{u:?}");
            }
            let b = r.self_host.breakdown;
            prop_assert!((b.busy_compute + b.idle_compute + b.ops + b.overflow_api - r.self_host.monthly_usd).abs() <= 1e-9 * r.self_host.monthly_usd.max(1.0));
            prop_assert!(b.idle_compute >= 0.0 && (0.0..=1.0 + 1e-12).contains(&r.self_host.utilization));
        }
    }

    /// Every range of the sureness sample but a vendor's haircut has the input as given as its
    /// median, so the point answer is the middle of the ranges; and the sample's shares count
    /// every draw and are known within a point (or say how far).
    #[test]
    fn ranges_are_centred_on_the_point(s in scenario()) {
        let data = published();
        if let Ok(medians) = servecost::evaluate::range_medians(&s, &data) {
            prop_assert_eq!(medians.len(), servecost::decision::LEVERS.len());
            for (lever, at_point) in medians {
                // The haircut, one-sided, leaves the curve as given only where it does not apply.
                prop_assert!(at_point || !lever.centred(), "{:?}", lever);
            }
        }
    }

    /// Costs rise with prices and with volume.
    #[test]
    fn costs_rise_with_prices_and_volume(s in scenario(), up in 1.0..3.0f64) {
        let data = published();
        let Ok(base) = evaluate(&s, &data) else { return Ok(()) };
        let mut dearer = s.clone();
        dearer.price_in = Some(base.inputs.price_in * up);
        dearer.price_out = Some(base.inputs.price_out * up);
        if let Ok(r) = evaluate(&dearer, &data) {
            prop_assert!(r.rent.monthly_usd >= base.rent.monthly_usd * (1.0 - 1e-12));
        }
        if s.owned.is_none() {
            let mut dearer = s.clone();
            dearer.gpu_hour = Some((base.inputs.gpu_hour_usd * up).min(1_000.0));
            if let Ok(r) = evaluate(&dearer, &data) {
                prop_assert!(r.self_host.monthly_usd >= base.self_host.monthly_usd * (1.0 - 1e-12));
            }
        }
        if let Ok(r) = evaluate(&with_requests(&s, up), &data) {
            prop_assert!(r.rent.monthly_usd >= base.rent.monthly_usd * (1.0 - 1e-12));
            prop_assert!(r.self_host.monthly_usd >= base.self_host.monthly_usd * (1.0 - 1e-12));
        }
    }

    /// At the reported break-even volume the two sides differ by less than one replica's
    /// monthly cost, and above it self-hosting is cheaper.
    #[test]
    fn break_even_is_where_the_sides_meet(s in scenario()) {
        let data = published();
        let Ok(base) = evaluate(&s, &data) else { return Ok(()) };
        let Some(tokens) = base.break_even.monthly_tokens else { return Ok(()) };
        let factor = tokens / base.inputs.total_tokens;
        let Ok(at) = evaluate(&with_requests(&s, factor), &data) else { return Ok(()) };
        let replica_month = at.inputs.replica_gpus * at.inputs.gpu_hour_usd * 730.0;
        let gap = (at.self_host.monthly_usd - at.rent.monthly_usd).abs();
        prop_assert!(gap <= replica_month * (1.0 + 1e-6), "gap {gap} vs replica {replica_month}");
        if let Ok(above) = evaluate(&with_requests(&s, factor * 1.5), &data) {
            prop_assert!(above.self_host.monthly_usd < above.rent.monthly_usd);
        }
    }
}

/// `value` with its whole part grouped by `sep` in threes (`41,000,000`).
fn grouped(whole: u64, sep: char) -> String {
    let digits = whole.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(sep);
        }
        out.push(c);
    }
    out
}

/// Significant digits of a number written in the link's syntax (suffix and point ignored).
fn significant_digits(text: &str) -> usize {
    let digits: String = text
        .chars()
        .take_while(|c| !matches!(c, 'e' | 'E'))
        .filter(char::is_ascii_digit)
        .collect();
    digits
        .trim_start_matches('0')
        .trim_end_matches('0')
        .len()
        .max(1)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Every spelling people use for a volume (grouped by commas, spaces or no-break spaces, a
    /// suffix with or without a space before it) reads as the same value as the plain digits.
    #[test]
    fn every_spelling_of_a_volume_reads_the_same(whole in 1u64..10_000_000_000_000u64) {
        let plain = servecost::codec::read_number(&whole.to_string(), true, false);
        prop_assert_eq!(plain, Some(whole as f64));
        for sep in [',', ' ', '\u{a0}', '\u{2009}', '\u{202f}'] {
            let text = grouped(whole, sep);
            prop_assert_eq!(servecost::codec::read_number(&text, true, false), plain, "{:?}", text);
        }
        let millions = whole / 1_000_000;
        if millions > 0 {
            let expected = Some(millions as f64 * 1e6);
            for text in [format!("{millions}M"), format!("{millions} M"), format!("{} M", grouped(millions, ','))] {
                prop_assert_eq!(servecost::codec::read_number(&text, true, false), expected, "{:?}", text);
            }
        }
    }

    /// A price as an invoice prints it (`$1,234.56`) reads as the plain number.
    #[test]
    fn prices_read_with_their_dollar_sign(cents in 1u64..100_000_000_000u64) {
        let whole = cents / 100;
        let plain = format!("{whole}.{:02}", cents % 100);
        let value = servecost::codec::read_number(&plain, false, false);
        prop_assert!(value.is_some());
        let text = format!("${}.{:02}", grouped(whole, ','), cents % 100);
        prop_assert_eq!(servecost::codec::read_number(&text, false, false), value, "{:?}", text);
    }

    /// What the page pre-fills (a value rounded for people) has at most four significant digits,
    /// no float noise, and a scenario built from it survives its own link unchanged.
    #[test]
    fn prefilled_values_round_trip(input in 1.0..1e15f64, cached in prop_oneof![Just(0.0), 1.0..1e15f64], output in 1.0..1e15f64) {
        let texts: Vec<String> = [input, cached, output]
            .iter()
            .map(|v| servecost::codec::write_rounded(*v, true))
            .collect();
        for t in &texts {
            prop_assert!(significant_digits(t) <= 4, "{t}");
            prop_assert!(!t.contains("00000"), "{t}");
        }
        let q = format!("input={}&cached={}&output={}", texts[0], texts[1], texts[2]);
        let s = parse(&q).map(|p| p.scenario);
        prop_assert!(s.is_ok(), "{q}: {s:?}");
        let s = s.unwrap_or_default();
        prop_assert_eq!(parse(&to_query(&s)).map(|p| p.scenario).ok(), Some(s));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Scaling hour by hour never costs more than a fixed fleet at the same on-demand price.
    #[test]
    fn hourly_never_costs_more_than_fixed_on_demand(s in scenario(), usd in 0.5..20.0f64) {
        let data = common::revision_2();
        let mut s = s;
        s.owned = None;
        s.gpu_hour = Some(usd);
        s.gpu_kind = Some(servecost::gpu_price::Commitment::OnDemand);
        s.scaling = Scaling::Fixed;
        let Ok(fixed) = evaluate(&s, &data) else { return Ok(()) };
        s.scaling = Scaling::Hourly;
        let hourly = evaluate(&s, &data);
        prop_assert!(hourly.is_ok(), "{:?}", hourly.err());
        let hourly = hourly.map(|r| r.self_host.monthly_usd).unwrap_or_default();
        prop_assert!(hourly <= fixed.self_host.monthly_usd * (1.0 + 1e-9), "{hourly} > {}", fixed.self_host.monthly_usd);
    }

    /// An owner's-cost price is never called a rental: not in its label, not in the CSV.
    #[test]
    fn an_owner_cost_is_never_labelled_rented(s in scenario()) {
        let data = common::revision_2();
        let mut s = s;
        s.owned = None;
        s.gpu_hour = None;
        s.gpu_tier = Some("costh".into());
        s.scaling = Scaling::Fixed;
        s.curve = CurveChoice::Dataset { id: None };
        let Ok(r) = evaluate(&s, &data) else { return Ok(()) };
        prop_assert_eq!(r.inputs.gpu_kind, Some(servecost::gpu_price::Commitment::OwnerCost));
        let label = r.inputs.gpu_hour_label.to_lowercase();
        prop_assert!(!label.contains("rented") && !label.contains("rental"), "{}", label);
        let csv = servecost::export::csv(&r).to_lowercase();
        prop_assert!(!csv.contains("rented") && !csv.contains("rental"), "{}", csv);
        prop_assert!(r.warnings.iter().any(|w| w.code == "owner_cost_price"));
    }
}
