//! The cost over the years: renting, self-hosting and the best hybrid month by month over a
//! horizon of one to five years, while the volume grows and prices move.
//!
//! Month `m` (1 to 12 × horizon) is priced at `t = (m - 1) / 12` years from now: the volume is
//! the scenario's times `(1 + growth)^t`, API prices times `(1 + api_trend)^t` and GPU prices
//! times `(1 + gpu_trend)^t`. How the GPUs are held decides how the fleet follows:
//!
//! - rented by the hour (on demand, spot, a price of your own): the fleet is sized each month for
//!   that month's demand, at that month's price;
//! - reserved for a term: the replicas a month needs beyond those already reserved are reserved
//!   from that month for a whole term, at that month's price; a block is billed every month of
//!   its term whatever the demand, so the fleet never shrinks within a term; at its end the
//!   block is renewed as the demand then needs;
//! - owned (your capex, or a published owner's cost): GPUs are bought when first needed and
//!   kept; each is charged its capital recovery (the annuity of its capex over the years it is
//!   paid off, at the cost of capital, and at the capex of its purchase month) for those years,
//!   then only its running costs: the one-month answer's capital charge, so that the plan agrees
//!   with it. Discounted at the cost of capital, that charge is worth a little more than the
//!   capex paid up front (3.6 % more at 8 %: a yearly annuity paid in twelfths, each month
//!   rather than at the year's end); the hardware's value left at the horizon's end is what the
//!   annuity has not yet charged.
//!
//! Costs are as billed in the month they fall in; the net present value discounts month `m` by
//! `(1 + discount_rate)^(-m / 12)` (end of month). With growth and trends at 0 every month costs
//! what the one-month report says (owned hardware until it is paid off), and with no discounting
//! the present value is the sum.

use serde::{Deserialize, Serialize};

use crate::costing::{Costing, PlanCost};
use crate::decision::Strategy;
use crate::fleet::Scaling;
use crate::units::HOURS_PER_MONTH;

/// servecost's default assumptions over the years: each is shown on `/method` with its reason.
pub mod defaults {
    /// Years ahead: the term of the longest reserved price the dataset lists (3-year rental),
    /// and within the four years owned hardware is paid off over.
    pub const HORIZON: f64 = 3.0;
    /// Yearly growth of the monthly volume: none. A forecast is the user's to make.
    pub const GROWTH: f64 = 0.0;
    /// Yearly change of API prices: none. List prices of an offer change in steps the dataset
    /// cannot foresee; a fall is the user's forecast.
    pub const API_TREND: f64 = 0.0;
    /// Yearly change of GPU-hour prices (and of the capex of GPUs bought later): none, likewise.
    pub const GPU_TREND: f64 = 0.0;
    /// Discount rate per year: the same 8 % as the cost of capital owned hardware is paid off at.
    pub const DISCOUNT_RATE: f64 = 0.08;
    /// Value of owned GPUs at the horizon's end, as a share of their purchase price: none. A
    /// resale price years ahead is a forecast no source gives; a value of your own goes here.
    pub const RESIDUAL: f64 = 0.0;
}

/// What the scenario sets for the years ahead.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ProjectionSpec {
    /// Years ahead, 1 to 5.
    pub horizon: f64,
    /// Yearly growth of the monthly volume (0.5: half as much again each year; negative for a
    /// decline).
    pub growth: f64,
    /// Yearly change of API prices (negative for a fall).
    pub api_trend: f64,
    /// Yearly change of GPU-hour prices and of the capex of GPUs bought later.
    pub gpu_trend: f64,
    /// Discount rate per year for the present values.
    pub discount_rate: f64,
    /// Value of owned GPUs at the horizon's end, as a share of their purchase price.
    pub residual: f64,
}

impl Default for ProjectionSpec {
    fn default() -> Self {
        Self {
            horizon: defaults::HORIZON,
            growth: defaults::GROWTH,
            api_trend: defaults::API_TREND,
            gpu_trend: defaults::GPU_TREND,
            discount_rate: defaults::DISCOUNT_RATE,
            residual: defaults::RESIDUAL,
        }
    }
}

/// How the self-hosted GPUs are held over time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Holding {
    /// Rented by the hour: the fleet follows the demand month by month.
    Follows,
    /// Reserved: each block of replicas is billed every month of a term of this many months,
    /// its upfront share in the month it is signed.
    Term {
        /// Months of the term.
        months: u32,
        /// Share of the term's bill paid when the block is signed.
        upfront: f64,
    },
    /// Owned: GPUs are bought when first needed and kept.
    Owned {
        /// Capital recovery, $ per GPU-hour, for GPUs bought now.
        capital: f64,
        /// Months the capital is charged for.
        payoff_months: u32,
        /// Costs that follow the capex of the purchase month (maintenance; an owner's cost
        /// stated as one figure), $ per GPU-hour.
        with_capex: f64,
        /// Running costs that do not (power, facility), $ per GPU-hour.
        running: f64,
        /// Purchase price of a GPU bought now, $ (0 for a published owner's cost).
        capex: f64,
    },
}

impl Holding {
    /// The key the report names it by: `follows`, `term`, `owned`.
    pub fn key(self) -> &'static str {
        match self {
            Holding::Follows => "follows",
            Holding::Term { .. } => "term",
            Holding::Owned { .. } => "owned",
        }
    }
}

/// One month of the plan.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ProjectionMonth {
    /// Month, from 1.
    pub month: u32,
    /// All tokens this month.
    pub tokens: f64,
    /// Renting, $.
    pub rent_usd: f64,
    /// Self-hosting everything, $.
    pub self_host_usd: f64,
    /// The best hybrid, $ (`None` when the hybrid is off).
    pub hybrid_usd: Option<f64>,
    /// GPUs held for self-hosting.
    pub gpus: f64,
    /// GPUs held for the hybrid (`None` when the hybrid is off).
    pub hybrid_gpus: Option<f64>,
}

/// A figure for each plan.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlanTotals {
    /// Renting, $.
    pub rent: f64,
    /// Self-hosting everything, $.
    pub self_host: f64,
    /// The best hybrid, $ (`None` when the hybrid is off).
    pub hybrid: Option<f64>,
}

impl PlanTotals {
    /// The cheapest plan, by the rule of the one-month verdict: renting wins a tie with
    /// self-hosting; the hybrid is named only when it is cheaper than both by more than rounding.
    pub fn best(&self) -> (Strategy, f64) {
        crate::decision::Totals {
            rent: self.rent,
            self_host: self.self_host,
            hybrid: self.hybrid,
        }
        .best()
    }
}

/// The cost over the years.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Projection {
    /// What the scenario set.
    pub spec: ProjectionSpec,
    /// How the self-hosted GPUs are held: `follows` (rented by the hour, sized each month),
    /// `term` (reserved blocks billed for their whole term) or `owned` (bought and kept).
    pub holding: String,
    /// Months of a reserved term (`None` unless `holding` is `term`).
    pub term_months: Option<u32>,
    /// Share of a reserved block's term bill paid when it is signed (`None` unless `holding` is
    /// `term`).
    pub upfront_share: Option<f64>,
    /// Month by month.
    pub months: Vec<ProjectionMonth>,
    /// The sum over the horizon, $.
    pub total_usd: PlanTotals,
    /// The net present value of each plan's costs within the horizon, $.
    pub npv_usd: PlanTotals,
    /// What is committed past the horizon and not in the totals, $: the rest of reserved terms
    /// that run past it, and the capital of owned GPUs not yet charged (renting commits nothing).
    pub committed_after_usd: PlanTotals,
    /// Owned GPUs' value at the horizon's end (`residual` times their purchase price), $.
    pub residual_usd: PlanTotals,
    /// The net present value with what is committed past the horizon (each payment discounted
    /// to its month) and less the residual value at the horizon's end, $.
    pub npv_with_commitments_usd: PlanTotals,
    /// The cheapest plan by present value.
    pub best: Strategy,
    /// When self-hosting costs more than renting in the first month: the first month by whose
    /// end its cumulative cost is no longer above renting's (`None`: not within the horizon).
    pub payback_month: Option<u32>,
    /// When self-hosting costs less in the first month: the first month by whose end its
    /// cumulative cost is no longer below renting's (`None`: not within the horizon).
    pub lead_lost_month: Option<u32>,
    /// What to read with it.
    pub notes: Vec<String>,
}

/// A block of replicas held from `start`, at the prices of that month.
#[derive(Debug, Clone, Copy)]
struct Block {
    start: u32,
    replicas: f64,
    /// $ per GPU-hour while its capital is charged, then `after`.
    hourly: f64,
    after: f64,
    /// Months the block lasts (reserved) or charges capital (owned).
    months: u32,
    /// Share of the term's bill paid in the month it starts (reserved).
    upfront: f64,
    /// Purchase price per GPU (owned), $.
    capex: f64,
}

impl Block {
    /// What the block bills in month `m` (from 0), $ per GPU of a replica.
    fn bill(&self, m: u32) -> f64 {
        let end = self.start.saturating_add(self.months);
        let hourly = if m < end { self.hourly } else { self.after };
        let monthly = self.replicas * hourly * HOURS_PER_MONTH;
        if self.upfront > 0.0 && m < end {
            // The upfront share of the whole term at signing; the rest month by month.
            let rest = monthly * (1.0 - self.upfront);
            if m == self.start {
                rest + monthly * self.upfront * f64::from(self.months)
            } else {
                rest
            }
        } else {
            monthly
        }
    }

    /// The month after its term or its capital's last month (from 0).
    fn end(&self) -> u32 {
        self.start.saturating_add(self.months)
    }
}

/// The blocks held for one plan.
struct Held {
    holding: Holding,
    blocks: Vec<Block>,
}

impl Held {
    fn new(holding: Holding) -> Self {
        Self {
            holding,
            blocks: Vec::new(),
        }
    }

    /// Holds at least `needed` replicas in month `m` (from 0), adding a block at the price of
    /// the month (`gpu` times the price of month 0) for what is missing; returns the replicas
    /// held and their compute bill for the month per GPU of a replica.
    fn hold(&mut self, m: u32, needed: f64, base_hourly: f64, gpu: f64) -> (f64, f64) {
        match self.holding {
            Holding::Term { months, .. } => self.blocks.retain(|b| m < b.start + months),
            Holding::Follows => self.blocks.clear(),
            Holding::Owned { .. } => {}
        }
        let held: f64 = self.blocks.iter().map(|b| b.replicas).sum();
        if needed > held {
            let block = match self.holding {
                // A fleet that follows the demand holds what the month needs, at its price.
                Holding::Follows => Block {
                    start: m,
                    replicas: needed - held,
                    hourly: base_hourly * gpu,
                    after: base_hourly * gpu,
                    months: 1,
                    upfront: 0.0,
                    capex: 0.0,
                },
                Holding::Term { months, upfront } => Block {
                    start: m,
                    replicas: needed - held,
                    hourly: base_hourly * gpu,
                    after: base_hourly * gpu,
                    months,
                    upfront,
                    capex: 0.0,
                },
                Holding::Owned {
                    capital,
                    payoff_months,
                    with_capex,
                    running,
                    capex,
                } => Block {
                    start: m,
                    replicas: needed - held,
                    hourly: (capital + with_capex) * gpu + running,
                    after: with_capex * gpu + running,
                    months: payoff_months,
                    upfront: 0.0,
                    capex: capex * gpu,
                },
            };
            self.blocks.push(block);
        }
        let held = held.max(needed);
        let per_gpu: f64 = self.blocks.iter().map(|b| b.bill(m)).sum();
        (held, per_gpu)
    }

    /// What the held blocks commit to from month `horizon` (from 0) on, per GPU of a replica:
    /// the rest of reserved terms, and owned GPUs' capital not yet charged; each payment with
    /// its month (from 1).
    fn committed_after(&self, horizon: u32) -> Vec<(u32, f64)> {
        let months = |b: &Block| horizon.max(b.start)..b.end();
        match self.holding {
            Holding::Follows => Vec::new(),
            // The rest of each term, billed whether the replicas are used or not.
            Holding::Term { .. } => self
                .blocks
                .iter()
                .flat_map(|b| months(b).map(move |m| (m + 1, b.bill(m))))
                .collect(),
            // The capital not yet charged; running costs stop with the GPUs.
            Holding::Owned { .. } => self
                .blocks
                .iter()
                .flat_map(|b| {
                    let capital = b.replicas * (b.hourly - b.after) * HOURS_PER_MONTH;
                    months(b).map(move |m| (m + 1, capital))
                })
                .collect(),
        }
    }

    /// The owned GPUs' purchase price, per GPU of a replica, $.
    fn bought(&self) -> f64 {
        self.blocks.iter().map(|b| b.replicas * b.capex).sum()
    }
}

/// A month's volume, API price and GPU-hour price, as factors of the first month's.
type Factors = (f64, f64, f64);

/// A month's self-hosting and best hybrid (none when the hybrid is not searched).
type MonthPlans = (PlanCost, Option<PlanCost>);

/// The plan of `c` over `spec`'s horizon, the self-hosted GPUs held as `holding`, with the
/// hybrid searched when `hybrid`.
pub fn project(c: &Costing, spec: &ProjectionSpec, holding: Holding, hybrid: bool) -> Projection {
    let months = (spec.horizon.clamp(1.0, 5.0) * 12.0).round() as u32;
    // Hour-by-hour scaling needs prices stoppable by the hour: such a fleet follows demand.
    let holding = if c.policy.scaling == Scaling::Hourly {
        Holding::Follows
    } else {
        holding
    };
    let mut own_held = Held::new(holding);
    let mut hybrid_held = Held::new(holding);
    let replica_gpus = c.policy.replica_gpus;
    let mut rows = Vec::with_capacity(months as usize);
    // With nothing changing from month to month, the month's costing and its plans are the
    // first month's (the default: no growth, no trend).
    let mut last: Option<(Factors, Costing, MonthPlans)> = None;
    // A rate of 0 moves nothing: 1 to any power is 1.
    let moved = |rate: f64, t: f64| {
        if rate == 0.0 {
            1.0
        } else {
            (1.0 + rate).powf(t)
        }
    };
    for m in 0..months {
        let t = f64::from(m) / 12.0;
        let factors = (
            moved(spec.growth, t),
            moved(spec.api_trend, t),
            moved(spec.gpu_trend, t),
        );
        let (scale, api, gpu) = factors;
        let (priced, (own, best)) = match last.take() {
            Some((f, priced, plans)) if f == factors => (priced, plans),
            _ => {
                let priced = c.repriced(api, gpu);
                let plans = priced.self_host_and_hybrid_if(scale, hybrid);
                (priced, plans)
            }
        };
        let rent = priced.rent(scale);
        let (self_host_usd, gpus, hybrid_usd, hybrid_gpus) = match holding {
            Holding::Follows => (
                own.total(),
                own.plan.gpus,
                best.map(|b| b.total()),
                best.map(|b| b.plan.gpus),
            ),
            Holding::Term { .. } | Holding::Owned { .. } => {
                let month = HeldMonth {
                    m,
                    priced: &priced,
                    own: &own,
                    best: best.as_ref(),
                    scale,
                    gpu,
                    rent,
                };
                let (own_usd, own_gpus) = month.own(c, &mut own_held);
                let hybrid = month.hybrid(c, &mut hybrid_held);
                (own_usd, own_gpus, hybrid.map(|h| h.0), hybrid.map(|h| h.1))
            }
        };
        rows.push(ProjectionMonth {
            month: m + 1,
            tokens: c.volumes.total() * scale,
            rent_usd: rent,
            self_host_usd,
            hybrid_usd,
            gpus,
            hybrid_gpus,
        });
        last = Some((factors, priced, (own, best)));
    }
    // Past the horizon: what the held GPUs still commit to, and what owned ones are worth.
    let after = |held: &Held| {
        let payments: Vec<(u32, f64)> = held
            .committed_after(months)
            .into_iter()
            .map(|(m, usd)| (m, usd * replica_gpus))
            .collect();
        let residual = spec.residual * held.bought() * replica_gpus;
        (payments, residual)
    };
    let own_after = after(&own_held);
    let hybrid_after = hybrid.then(|| after(&hybrid_held));
    summarise(rows, spec, holding, hybrid, own_after, hybrid_after)
}

/// One month of a fleet that is held (reserved blocks, owned GPUs) rather than following the
/// load: the month's costing, its plans and its factors.
struct HeldMonth<'a> {
    m: u32,
    priced: &'a Costing,
    own: &'a PlanCost,
    best: Option<&'a PlanCost>,
    scale: f64,
    gpu: f64,
    rent: f64,
}

impl HeldMonth<'_> {
    /// Self-hosting's bill and GPUs, the fleet held at least as large as it has been.
    fn own(&self, c: &Costing, held: &mut Held) -> (f64, f64) {
        let replica_gpus = c.policy.replica_gpus;
        let (replicas, compute) = held.hold(self.m, self.own.plan.replicas, c.gpu_hour, self.gpu);
        (
            compute * replica_gpus + c.ops(replicas * c.policy.replica_gpus),
            replicas * replica_gpus,
        )
    }

    /// The hybrid's bill and GPUs: the held replicas serve what they can, the rest overflows
    /// to the API.
    fn hybrid(&self, c: &Costing, held: &mut Held) -> Option<(f64, f64)> {
        let b = self.best?;
        let replica_gpus = c.policy.replica_gpus;
        let (replicas, compute) = held.hold(self.m, b.plan.replicas, c.gpu_hour, self.gpu);
        let serving = (replicas - c.policy.redundancy).max(0.0);
        let overflow = if replicas > 0.0 {
            self.priced
                .capped(serving, self.scale)
                .breakdown
                .overflow_api
        } else {
            self.rent
        };
        Some((
            compute * replica_gpus + c.ops(replicas * c.policy.replica_gpus) + overflow,
            replicas * replica_gpus,
        ))
    }
}

/// Payments past the horizon (month from 1, $) and the residual value at its end, $.
type After = (Vec<(u32, f64)>, f64);

fn summarise(
    rows: Vec<ProjectionMonth>,
    spec: &ProjectionSpec,
    holding: Holding,
    hybrid: bool,
    own_after: After,
    hybrid_after: Option<After>,
) -> Projection {
    let discount = |m: u32| (1.0 + spec.discount_rate).powf(-f64::from(m) / 12.0);
    let sum = |f: &dyn Fn(&ProjectionMonth) -> f64, discounted: bool| -> f64 {
        rows.iter()
            .map(|r| {
                if discounted {
                    f(r) * discount(r.month)
                } else {
                    f(r)
                }
            })
            .sum()
    };
    let totals = |discounted: bool| PlanTotals {
        rent: sum(&|r| r.rent_usd, discounted),
        self_host: sum(&|r| r.self_host_usd, discounted),
        hybrid: hybrid.then(|| sum(&|r| r.hybrid_usd.unwrap_or(r.rent_usd), discounted)),
    };
    let total_usd = totals(false);
    let npv_usd = totals(true);
    let horizon = rows.len() as u32;
    let committed = |a: &After| a.0.iter().map(|(_, usd)| usd).sum::<f64>();
    let committed_npv = |a: &After| a.0.iter().map(|(m, usd)| usd * discount(*m)).sum::<f64>();
    let residual_npv = |a: &After| a.1 * discount(horizon);
    let committed_after_usd = PlanTotals {
        rent: 0.0,
        self_host: committed(&own_after),
        hybrid: hybrid_after.as_ref().map(committed),
    };
    let residual_usd = PlanTotals {
        rent: 0.0,
        self_host: own_after.1,
        hybrid: hybrid_after.as_ref().map(|a| a.1),
    };
    let npv_with_commitments_usd = PlanTotals {
        rent: npv_usd.rent,
        self_host: npv_usd.self_host + committed_npv(&own_after) - residual_npv(&own_after),
        hybrid: npv_usd
            .hybrid
            .zip(hybrid_after.as_ref())
            .map(|(npv, a)| npv + committed_npv(a) - residual_npv(a)),
    };
    let (payback_month, lead_lost_month) = crossings(&rows);
    let notes = notes(holding, horizon);
    Projection {
        spec: *spec,
        holding: holding.key().into(),
        term_months: match holding {
            Holding::Term { months, .. } => Some(months),
            _ => None,
        },
        upfront_share: match holding {
            Holding::Term { upfront, .. } => Some(upfront),
            _ => None,
        },
        best: npv_usd.best().0,
        months: rows,
        total_usd,
        npv_usd,
        committed_after_usd,
        residual_usd,
        npv_with_commitments_usd,
        payback_month,
        lead_lost_month,
        notes,
    }
}

/// What the projection's way of holding GPUs means for its figures, in words.
fn notes(holding: Holding, horizon: u32) -> Vec<String> {
    let mut notes = Vec::new();
    if let Holding::Term { months, upfront } = holding {
        let upfront = if upfront > 0.0 {
            format!(
                " {} of each block's term is billed upfront, in the month it is signed.",
                crate::format::percent(upfront)
            )
        } else {
            String::new()
        };
        notes.push(format!(
            "Reserved blocks are billed for their whole {months}-month term: the fleet never \
             shrinks within a term, and replicas added as the volume grows are reserved from the \
             month they are needed.{upfront} What a term running past the horizon still commits \
             to is reported beside the totals, not in them."
        ));
    }
    if let Holding::Owned { payoff_months, .. } = holding {
        if payoff_months > 0 && payoff_months < horizon {
            notes.push(format!(
                "Owned GPUs are paid off after {payoff_months} months: from then on they cost \
                 only power, facility and maintenance."
            ));
        }
        notes.push(
            "Owned GPUs are bought when first needed and kept: the fleet never shrinks. Capital \
             not yet charged at the horizon's end is reported beside the totals as committed, \
             and the GPUs' value then is the residual parameter's share of their price."
                .into(),
        );
    }
    notes
}

/// The months at which the cumulative difference (self-hosting minus renting) leaves the sign
/// of the first month's: `(payback, lead_lost)`.
fn crossings(rows: &[ProjectionMonth]) -> (Option<u32>, Option<u32>) {
    let mut cumulative = 0.0;
    let mut first = None;
    for r in rows {
        cumulative += r.self_host_usd - r.rent_usd;
        match first {
            None if cumulative > 0.0 => first = Some(true),
            None if cumulative < 0.0 => first = Some(false),
            // Level so far: the first month with a difference sets the sign.
            None => {}
            Some(true) if cumulative <= 0.0 => return (Some(r.month), None),
            Some(false) if cumulative >= 0.0 => return (None, Some(r.month)),
            Some(_) => {}
        }
    }
    (None, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn month(m: u32, rent: f64, own: f64) -> ProjectionMonth {
        ProjectionMonth {
            month: m,
            tokens: 0.0,
            rent_usd: rent,
            self_host_usd: own,
            hybrid_usd: None,
            gpus: 0.0,
            hybrid_gpus: None,
        }
    }

    #[test]
    fn payback_is_where_the_cumulative_difference_changes_sign() {
        // Self-hosting is 30 dearer, then 10 cheaper each month: +30, +20, +10, 0.
        let rows: Vec<_> = (1..=6)
            .map(|m| {
                if m == 1 {
                    month(m, 100.0, 130.0)
                } else {
                    month(m, 100.0, 90.0)
                }
            })
            .collect();
        assert_eq!(crossings(&rows), (Some(4), None));
        // Cheaper first by 5, then dearer by 2: -5, -3, -1, +1.
        let rows: Vec<_> = (1..=6)
            .map(|m| {
                if m == 1 {
                    month(m, 100.0, 95.0)
                } else {
                    month(m, 100.0, 102.0)
                }
            })
            .collect();
        assert_eq!(crossings(&rows), (None, Some(4)));
        let level: Vec<_> = (1..=6).map(|m| month(m, 100.0, 100.0)).collect();
        assert_eq!(crossings(&level), (None, None));
        // Level in the first month, then dearer, then paid back: 0, +10, +5, -5.
        let costs = [100.0, 110.0, 95.0, 90.0];
        let rows: Vec<_> = (1..=4)
            .map(|m| month(m, 100.0, costs[m as usize - 1]))
            .collect();
        assert_eq!(crossings(&rows), (Some(4), None));
    }
}
