//! The ranking's joint sample: one sample over every option at once, the same numbers drawn
//! for all, so that the share in which each option is the cheapest adds up over the options.

use super::sample::{Logs, SampleContext, LEVERS};
use super::{Draw, SplitMix64, Strategy};
use crate::costing::Costing;
use crate::curve::Reading;
use crate::resolved::Resolved;

/// One option of a joint sample: its inputs as resolved, its curve's reading, what the dataset
/// says of their ranges, and which plan's bill it is.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// The inputs as given.
    pub base: Resolved,
    /// The curve read at the option's speed target.
    pub reading: Reading,
    /// The ranges that apply to it.
    pub ctx: SampleContext,
    /// Renting, self-hosting alone or the best hybrid.
    pub plan: Strategy,
}

/// Shares of a joint sample over several options.
#[derive(Debug, Clone, PartialEq)]
pub struct JointShares {
    /// Per option, the share of draws in which it is the cheapest of all the options.
    pub cheapest: Vec<f64>,
    /// Draws made.
    pub draws: u32,
    /// Share of draws in which no option has an answer (with `cheapest` it adds up to 1).
    pub no_answer: f64,
}

/// One sample over every option at once: each draw takes every range's number once and applies
/// it to every option (so one offer's price and another's, or one curve's `P` and another's,
/// move together), costs each option's plan, and counts the cheapest. The shares add up to 1
/// with the draws in which no option has an answer.
pub fn joint_cheapest(cands: &[Candidate], draws: u32, seed: u64) -> JointShares {
    let logs: Vec<Logs> = cands
        .iter()
        .map(|c| Logs::of(&c.base, &c.reading, &c.ctx))
        .collect();
    let mut states: Vec<Draw> = cands.iter().map(|c| Draw::new(c.base.clone())).collect();
    let mut work: Vec<Option<Costing>> = cands
        .iter()
        .map(|c| (c.plan != Strategy::Rent).then(|| super::scratch(&c.base)))
        .collect();
    let mut rng = SplitMix64::new(seed);
    let mut wins = vec![0u32; cands.len()];
    let mut none = 0u32;
    for _ in 0..draws {
        for d in &mut states {
            d.throughput = 1.0;
        }
        for lever in LEVERS {
            let u = rng.next_unit();
            for ((c, d), l) in cands.iter().zip(&mut states).zip(&logs) {
                lever.apply(d, &c.base, &c.ctx, l, u);
            }
        }
        let mut best: Option<(usize, f64)> = None;
        for (i, ((c, d), w)) in cands.iter().zip(&states).zip(&mut work).enumerate() {
            let usd = match (c.plan, w) {
                (Strategy::Rent, _) => Some(d.r.api.cost(&d.r.volumes).monthly_usd),
                (Strategy::SelfHost, Some(w)) => {
                    d.totals(&c.reading, false, w).map(|p| p.self_host)
                }
                (Strategy::Hybrid, Some(w)) => d
                    .totals(&c.reading, false, w)
                    .and_then(|_| super::judged(w, 1.0, true).hybrid),
                _ => None,
            };
            if let Some(usd) = usd.filter(|u| u.is_finite()) {
                if best.is_none_or(|(_, b)| usd < b) {
                    best = Some((i, usd));
                }
            }
        }
        match best {
            Some((i, _)) => wins[i] += 1,
            None => none += 1,
        }
    }
    let n = f64::from(draws.max(1));
    JointShares {
        cheapest: wins.iter().map(|&w| f64::from(w) / n).collect(),
        draws,
        no_answer: f64::from(none) / n,
    }
}
