//! The cost over the years: with nothing changing it is the one-month answer month after month,
//! reserved blocks hold for their term, owned GPUs are kept, present values discount, and the
//! payback month is where the cumulative difference changes sign.

mod common;

use common::revision_3;
use servecost::decision::Strategy;
use servecost::projection::Projection;
use servecost::{evaluate, parse, Report};

fn report(q: &str) -> Report {
    let s = parse(q).unwrap_or_else(|p| panic!("{q}: {p:?}")).scenario;
    evaluate(&s, &revision_3()).unwrap_or_else(|p| panic!("{q}: {p:?}"))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// The month at which the cumulative difference (self-hosting minus renting) first has the
/// other sign than the first month's, counted here from the months themselves.
fn sign_change(plan: &Projection) -> Option<(u32, bool)> {
    let mut cumulative = 0.0;
    let mut first: Option<bool> = None;
    for m in &plan.months {
        cumulative += m.self_host_usd - m.rent_usd;
        match first {
            // Level so far: the first month with a difference sets the sign.
            None if cumulative == 0.0 => {}
            None => first = Some(cumulative > 0.0),
            Some(dearer) if (cumulative > 0.0) != dearer || cumulative == 0.0 => {
                return Some((m.month, dearer))
            }
            Some(_) => {}
        }
    }
    None
}

/// Rented by the hour, reserved (the chip's default tier), your price reserved with no term,
/// owned, hourly, and with the hybrid off.
const FLAT: [&str; 7] = [
    "",
    "requests=40M",
    "requests=20M&gpu_hour=2.1&gpu_kind=on_demand",
    "requests=20M&gpu_hour=2.1&gpu_kind=reserved",
    "requests=20M&own=1&capex=45k&years=5",
    "requests=20M&gpu_hour=2.1&gpu_kind=on_demand&scaling=hourly",
    "requests=300M&profile=diurnal&hybrid=0",
];

#[test]
fn with_nothing_changing_every_month_is_the_one_month_answer() {
    for q in FLAT {
        let q = format!("{q}&horizon=5&discount_rate=0");
        let r = report(&q);
        let p = &r.plan;
        assert_eq!(p.months.len(), 60, "{q}");
        // A reserved block bills its upfront share of the whole term in the month it is signed
        // (month 1, and again when it is renewed), the rest month by month: over a whole term
        // it bills what the one-month answer does every month.
        let compute = r.self_host.monthly_usd - r.self_host.breakdown.ops;
        let (term, upfront) = (p.term_months.unwrap_or(1), p.upfront_share.unwrap_or(0.0));
        let expected = |month: u32| {
            let signed = (month - 1) % term == 0;
            let share = if signed {
                1.0 - upfront + upfront * f64::from(term)
            } else {
                1.0 - upfront
            };
            r.self_host.breakdown.ops + compute * share
        };
        for m in &p.months {
            assert!(
                close(m.rent_usd, r.rent.monthly_usd),
                "{q}: month {}",
                m.month
            );
            assert!(
                close(m.self_host_usd, expected(m.month)),
                "{q}: month {}: {} against {}",
                m.month,
                m.self_host_usd,
                expected(m.month)
            );
            assert!(close(m.gpus, r.self_host.gpus), "{q}: month {}", m.month);
            match (&r.hybrid, m.hybrid_usd) {
                // A month a block is signed in also bills its upfront share.
                (Some(h), Some(usd))
                    if upfront > 0.0 && h.gpus > 0.0 && (m.month - 1) % term == 0 =>
                {
                    assert!(usd > h.monthly_usd, "{q}: month {}", m.month)
                }
                (Some(h), Some(usd)) => {
                    let share = if upfront > 0.0 { 1.0 - upfront } else { 1.0 };
                    let gpus = h.breakdown.busy_compute + h.breakdown.idle_compute;
                    let month = h.monthly_usd - gpus * (1.0 - share);
                    assert!(
                        close(usd, month),
                        "{q}: month {}: {usd} against {month}",
                        m.month
                    )
                }
                (None, None) => {}
                other => panic!("{q}: hybrid {other:?}"),
            }
        }
        // Undiscounted, the present value is the sum.
        let sum = |f: fn(&servecost::projection::ProjectionMonth) -> f64| {
            p.months.iter().map(f).sum::<f64>()
        };
        assert!(close(p.npv_usd.rent, sum(|m| m.rent_usd)), "{q}");
        assert!(close(p.npv_usd.self_host, sum(|m| m.self_host_usd)), "{q}");
        assert!(close(p.total_usd.self_host, p.npv_usd.self_host), "{q}");
        assert!(close(p.npv_usd.rent, 60.0 * r.rent.monthly_usd), "{q}");
        // Within a whole term the plan bills the one-month answer each month; with what runs
        // past the horizon counted, every month of every term is.
        // (Staff are not committed: only the GPUs' bill runs past the horizon.)
        let terms = 60_u32.div_ceil(term);
        let whole = f64::from(terms * term) * compute + 60.0 * r.self_host.breakdown.ops;
        assert!(
            close(
                p.total_usd.self_host + p.committed_after_usd.self_host,
                whole
            ) || p.holding == "owned",
            "{q}: {} + {} against {whole}",
            p.total_usd.self_host,
            p.committed_after_usd.self_host
        );
        // The answer over the years is the month's, the commitments counted.
        assert_eq!(p.npv_with_commitments_usd.best().0, r.verdict.best, "{q}");
        if upfront == 0.0 {
            assert_eq!(p.best, r.verdict.best, "{q}");
            assert_eq!(sign_change(p), None, "{q}");
        }
    }
}

#[test]
fn discounting_lowers_the_present_value_by_the_rate() {
    let r = report("requests=40M&horizon=2&discount_rate=10%");
    let p = &r.plan;
    assert!(p.npv_usd.rent < p.total_usd.rent);
    // Month m is discounted by 1.1^(-m/12): a constant bill's value is its annuity.
    let expected: f64 = (1..=24)
        .map(|m| r.rent.monthly_usd * 1.1f64.powf(-f64::from(m) / 12.0))
        .sum();
    assert!(
        close(p.npv_usd.rent, expected),
        "{} against {expected}",
        p.npv_usd.rent
    );
}

#[test]
fn a_reserved_term_never_shrinks_within_its_term() {
    // The default tier is a 3-year reservation: as the volume halves each year its fleet stays.
    let r = report("requests=300M&growth=-50%&horizon=5&hybrid=0");
    let p = &r.plan;
    assert_eq!(p.holding, "term");
    assert_eq!(p.term_months, Some(36));
    let first = p.months[0].gpus;
    assert!(first > 8.0, "a fleet of more than one replica: {first}");
    for m in &p.months[..36] {
        assert_eq!(m.gpus, first, "month {}", m.month);
    }
    // Renewed at month 37 for the demand then, a quarter of the first year's at most.
    assert!(
        p.months[36].gpus < first,
        "{} then {}",
        first,
        p.months[36].gpus
    );
    // Growing, blocks are added and none is dropped within the term.
    let r = report("requests=40M&growth=200%&horizon=3&hybrid=0");
    let gpus: Vec<f64> = r.plan.months.iter().map(|m| m.gpus).collect();
    assert!(gpus.windows(2).all(|w| w[1] >= w[0]), "{gpus:?}");
    assert!(gpus[35] > gpus[0], "{gpus:?}");
    // Your own reserved price without a term is taken as a year, and says so.
    let r = report("requests=300M&gpu_hour=2.1&gpu_kind=reserved&growth=-50%&horizon=2&hybrid=0");
    assert_eq!(r.plan.term_months, Some(12));
    assert!(r
        .plan
        .notes
        .iter()
        .any(|n| n.contains("12 months are assumed")));
    let first = r.plan.months[0].gpus;
    assert!(r.plan.months[..12].iter().all(|m| m.gpus == first));
    assert!(r.plan.months[12].gpus < first);
}

#[test]
fn a_fleet_rented_by_the_hour_follows_the_demand() {
    let r = report("requests=300M&gpu_hour=2.1&gpu_kind=on_demand&growth=-50%&horizon=2&hybrid=0");
    assert_eq!(r.plan.holding, "follows");
    let gpus: Vec<f64> = r.plan.months.iter().map(|m| m.gpus).collect();
    assert!(gpus[23] < gpus[0], "{gpus:?}");
}

#[test]
fn owned_gpus_are_kept_and_charge_capital_until_paid_off() {
    let r = report("requests=300M&own=1&capex=45k&years=2&growth=-50%&horizon=4&hybrid=0");
    let p = &r.plan;
    assert_eq!(p.holding, "owned");
    let first = p.months[0].gpus;
    assert!(p.months.iter().all(|m| m.gpus == first), "never sold");
    assert!(p
        .notes
        .iter()
        .any(|n| n.contains("paid off after 24 months")));
    // From month 25 the capital is paid: the bill drops by the fleet's capital recovery.
    let Some(parts) = r.inputs.owned_parts else {
        panic!("owned hardware has its parts")
    };
    let capital = parts.capital * first * 730.0;
    let drop = p.months[23].self_host_usd - p.months[24].self_host_usd;
    assert!(close(drop, capital), "{drop} against {capital}");
}

#[test]
fn prices_and_volume_move_each_plan_as_they_should() {
    let base = report("requests=40M&horizon=2&discount_rate=0");
    // API prices halving each year leave self-hosting as it is and lower renting.
    let falling = report("requests=40M&horizon=2&discount_rate=0&api_trend=-50%");
    assert!(close(
        falling.plan.total_usd.self_host,
        base.plan.total_usd.self_host
    ));
    let month_13 = &falling.plan.months[12];
    assert!(
        close(month_13.rent_usd, base.rent.monthly_usd * 0.5),
        "a year on, half"
    );
    // Volume doubling each year doubles renting a year on.
    let growing = report("requests=40M&horizon=2&growth=100%");
    assert!(close(
        growing.plan.months[12].rent_usd,
        2.0 * base.rent.monthly_usd
    ));
    assert!(close(
        growing.plan.months[12].tokens,
        2.0 * base.inputs.total_tokens
    ));
}

#[test]
fn the_payback_month_is_where_the_cumulative_difference_changes_sign() {
    // Self-hosting dearer at first, the volume tripling each year and GPU prices falling.
    let cases = [
        "requests=2M&growth=200%&horizon=5&gpu_hour=2.1&gpu_kind=on_demand",
        "requests=5M&growth=300%&horizon=4&gpu_trend=-20%",
        "requests=40M&api_trend=-60%&horizon=5&gpu_hour=2.1&gpu_kind=on_demand",
        "requests=40M&growth=100%&horizon=3",
    ];
    let mut paid_back = 0;
    let mut lost = 0;
    for q in cases {
        let r = report(q);
        let p = &r.plan;
        match sign_change(p) {
            Some((m, true)) => {
                paid_back += 1;
                assert_eq!((p.payback_month, p.lead_lost_month), (Some(m), None), "{q}");
            }
            Some((m, false)) => {
                lost += 1;
                assert_eq!((p.payback_month, p.lead_lost_month), (None, Some(m)), "{q}");
            }
            None => assert_eq!((p.payback_month, p.lead_lost_month), (None, None), "{q}"),
        }
    }
    assert!(paid_back >= 1, "a case pays back");
    assert!(lost >= 1, "a case loses its lead");
}

#[test]
fn the_horizon_can_change_the_answer() {
    // Cheaper to rent this month; with the volume tripling each year, self-hosting over five.
    let r = report("requests=2M&growth=200%&horizon=5&gpu_hour=2.1&gpu_kind=on_demand&hybrid=0");
    assert_eq!(r.verdict.best, Strategy::Rent);
    assert_eq!(r.plan.best, Strategy::SelfHost, "{:?}", r.plan.npv_usd);
}

#[test]
fn a_reserved_price_is_locked_for_its_term_and_renewed_at_the_price_then() {
    // GPU prices fall a fifth a year: the 3-year block keeps its price, then renews lower.
    let r = report("requests=40M&gpu_trend=-20%&horizon=5&hybrid=0");
    let p = &r.plan;
    // The first month also bills the block's upfront share; every other month of the term the
    // same, and after its renewal at the lower price less.
    let second = p.months[1].self_host_usd;
    assert!(p.months[0].self_host_usd > second);
    assert!(p.months[1..36]
        .iter()
        .all(|m| close(m.self_host_usd, second)));
    assert!(p.months[37].self_host_usd < second);
    // Rented by the hour, the same fall shows from the second month.
    let r =
        report("requests=40M&gpu_hour=4.25&gpu_kind=on_demand&gpu_trend=-20%&horizon=5&hybrid=0");
    assert!(r.plan.months[1].self_host_usd < r.plan.months[0].self_host_usd);
}

#[test]
fn the_hybrids_reserved_fleet_holds_for_its_term_too() {
    let r = report("requests=300M&growth=-50%&horizon=5");
    let p = &r.plan;
    let held: Vec<f64> = p
        .months
        .iter()
        .map(|m| m.hybrid_gpus.unwrap_or(-1.0))
        .collect();
    assert!(held[0] > 0.0, "the hybrid keeps replicas: {held:?}");
    assert!(held[..36].iter().all(|g| *g == held[0]), "{held:?}");
    // Every month has its bill, the held replicas serving what they can.
    for m in &p.months {
        let Some(h) = m.hybrid_usd else {
            panic!("the hybrid is on")
        };
        assert!(h.is_finite() && h > 0.0, "month {}: {h}", m.month);
    }
}

#[test]
fn a_published_owners_cost_is_held_as_owned_with_one_all_in_figure() {
    let r = report("requests=300M&gpu_tier=costh&growth=-50%&horizon=3&hybrid=0");
    let p = &r.plan;
    assert_eq!(p.holding, "owned");
    assert!(
        !p.notes.iter().any(|n| n.contains("paid off")),
        "{:?}",
        p.notes
    );
    let first = p.months[0].gpus;
    assert!(p.months.iter().all(|m| m.gpus == first), "kept");
    assert!(p
        .months
        .iter()
        .all(|m| close(m.self_host_usd, r.self_host.monthly_usd)));
}

/// A reserved block bills its upfront share of the whole term in the month it is signed, and
/// what runs past the horizon is reported as committed: the rest of the term's bill.
#[test]
fn a_reserved_blocks_upfront_is_billed_at_signing_and_the_rest_of_its_term_is_committed() {
    let r = report("requests=40M&horizon=2&hybrid=0&discount_rate=0");
    let p = &r.plan;
    assert_eq!(p.holding, "term");
    let term = p.term_months.expect("term");
    let upfront = p.upfront_share.expect("upfront");
    assert!(upfront > 0.0 && term == 36, "{upfront} {term}");
    let compute = r.self_host.monthly_usd - r.self_host.breakdown.ops;
    let ops = r.self_host.breakdown.ops;
    let first = p.months[0].self_host_usd;
    assert!(close(
        first,
        ops + compute * (1.0 - upfront) + compute * upfront * 36.0
    ));
    // 24 months within the horizon, 12 left: each bills the rest of its monthly share.
    let committed = p.committed_after_usd.self_host;
    assert!(
        close(committed, 12.0 * compute * (1.0 - upfront)),
        "{committed}"
    );
    assert_eq!(p.committed_after_usd.rent, 0.0);
    // Undiscounted, the present value with commitments is the total and the commitment.
    let with = p.npv_with_commitments_usd.self_host;
    assert!(close(with, p.total_usd.self_host + committed), "{with}");
    // Renting commits to nothing.
    assert_eq!(p.npv_with_commitments_usd.rent, p.npv_usd.rent);
    // The caveat states the commitment's size and term.
    let w = r
        .warnings
        .iter()
        .find(|w| w.code == "reserved_term")
        .expect("reserved caveat");
    let all = servecost::format::usd(r.self_host.gpus * r.inputs.gpu_hour_usd * 730.0 * 36.0);
    assert!(
        w.message.contains(&format!("for 36 months: {all} in all")),
        "{}",
        w.message
    );
}

/// Owned GPUs' capital not yet charged at the horizon is committed, and their value then is the
/// residual parameter's share of their price, credited in the present value with commitments.
#[test]
fn owned_gpus_carry_their_unpaid_capital_and_an_explicit_residual_value() {
    let q = "requests=20M&own=1&capex=45k&years=4&horizon=2&discount_rate=0&hybrid=0";
    let r = report(q);
    let p = &r.plan;
    assert_eq!(p.holding, "owned");
    // Two of four years' capital is still owed.
    let capital = r.self_host.breakdown.busy_compute + r.self_host.breakdown.idle_compute;
    assert!(p.committed_after_usd.self_host > 0.0);
    assert!(p.committed_after_usd.self_host < 24.0 * capital);
    assert_eq!(p.residual_usd.self_host, 0.0, "none by default");
    let valued = report(&format!("{q}&residual=0.3"));
    let bought = r.self_host.gpus * 45_000.0;
    assert!(close(valued.plan.residual_usd.self_host, 0.3 * bought));
    assert!(close(
        valued.plan.npv_with_commitments_usd.self_host,
        p.npv_with_commitments_usd.self_host - 0.3 * bought
    ));
}
