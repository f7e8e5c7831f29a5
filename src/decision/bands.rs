//! Bands: where each plan is cheapest along an input. Fleets come in whole replicas, so the
//! cheapest plan alternates with the monthly volume: the band map says over which volumes
//! each plan is cheapest (with the plans tied with it), so that what would change the answer
//! is stated with how far the change lasts, not as a threshold.
//!
//! Along the volume (all three classes scaled by one factor) renting is a line and a fixed
//! fleet's self-hosting is constant between two replica steps (the busiest hour needs one more
//! replica each time the scale passes a whole multiple of `1 / peak need`). So between two
//! steps renting and self-hosting cross at most once, at a point solved exactly. Each step is
//! probed just past it, at that crossing, at its end and, where a hybrid is possible, a tie apart
//! within it (eight probes at most); any change of the cheapest plan between two probes (the
//! hybrid's caps) is narrowed to a ten-millionth: first where the two bills that tell the
//! plans apart cross (nearly straight between two probes, so two probes a hair either side of
//! a secant's guess mostly close it), else by bisection. Past the step where one more replica
//! is less than the tie of the fleet, probes stand a tie apart and a change is narrowed to a
//! ten-thousandth: no band a tie wide lies between two probes. A fleet that scales by the hour
//! grows a replica-hour at a time, with no step of its own; its probes stand 5 % apart (each
//! costs an hourly hybrid search) and its changes are narrowed to a ten-millionth.

use serde::{Deserialize, Serialize};

use super::{Strategy, Totals};
use crate::costing::Costing;
use crate::fleet::Scaling;

/// Where one plan is cheapest along an input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Band {
    /// Where the band starts, in the input's unit (tokens a month for the volume).
    pub from: f64,
    /// Where it ends.
    pub to: f64,
    /// The cheapest plan in the band.
    pub best: Strategy,
    /// The plans that cost the same as it within the tie threshold in the band.
    pub ties: Vec<Strategy>,
}

impl Band {
    /// Whether `plan` is the band's cheapest or ties with it.
    pub fn holds(&self, plan: Strategy) -> bool {
        self.best == plan || self.ties.contains(&plan)
    }

    /// Whether the band is at least the tie threshold wide (its end at least `1 + tie` times
    /// its start): a narrower one is no change a decision can rest on.
    pub fn material(&self, tie: f64) -> bool {
        self.to >= self.from * (1.0 + tie)
    }
}

/// The band maps of the inputs whose answer can alternate.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Bands {
    /// Along the monthly volume (all tokens, the mix and the profile kept), from a thousandth
    /// to a thousand times yours within the accepted range; consecutive volumes with the same
    /// cheapest plan and ties merged.
    pub volume: Vec<Band>,
}

/// Steps of a fixed fleet probed one by one at most; beyond, probes by the tie threshold.
const MAX_STEPS: f64 = 250.0;
/// The least tie the probes are spaced by (a tie of 0 is probed as this).
const MIN_TIE: f64 = 0.004;
/// Probes inside one replica step at most (a tie apart, where the step is wider than that).
const STEP_PROBES: usize = 8;
/// Probes of an hourly fleet stand this factor apart.
const HOURLY_STEP: f64 = 1.05;
/// Steps narrowing a change between two probes: a bisection step judges the plans once, a
/// secant step ([`SECANT_TRIES`] at most) twice.
const BISECT: usize = 60;
/// Secant steps tried first when narrowing a change.
const SECANT_TRIES: usize = 3;
/// A change is narrowed to within this share of its value (a ten-millionth: far below the
/// three significant digits a page shows).
const PRECISION: f64 = 1e-7;
/// The same where the probes stand a tie apart.
const DENSE_PRECISION: f64 = 1e-4;

fn index(p: Strategy) -> usize {
    match p {
        Strategy::Rent => 0,
        Strategy::SelfHost => 1,
        Strategy::Hybrid => 2,
    }
}

/// The cheapest plan at one volume and the plans tied with it (a bit for each of
/// [`PLANS`]): compared at every probe, so it holds no allocation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Class {
    best: Strategy,
    ties: u8,
}

/// The plans in the order a band lists its ties.
const PLANS: [Strategy; 3] = [Strategy::Rent, Strategy::SelfHost, Strategy::Hybrid];

impl Class {
    /// The cheapest plan of `t` and the plans within `tie` of it.
    fn of(t: &Totals, tie: f64) -> Class {
        let (best, usd) = t.best();
        let ties = PLANS
            .into_iter()
            .filter(|&p| p != best)
            .filter(|&p| t.cost(p).is_some_and(|c| super::within_tie(usd, c, tie)))
            .fold(0u8, |m, p| m | (1 << index(p)));
        Class { best, ties }
    }

    /// The tied plans, in [`PLANS`]' order.
    fn tied(self) -> Vec<Strategy> {
        PLANS
            .into_iter()
            .filter(|p| self.ties & (1 << index(*p)) != 0)
            .collect()
    }

    /// The cheapest plan and those tied with it.
    fn holding(self) -> u8 {
        self.ties | (1 << index(self.best))
    }
}

/// The cheapest plan at `scale` and the plans tied with it, with the totals they are read
/// from.
fn judge(c: &Costing, scale: f64, hybrid: bool, tie: f64) -> (Class, Totals) {
    let t = super::judged(c, scale, hybrid);
    (Class::of(&t, tie), t)
}

/// A bill difference whose sign tells `here` from `next`, in the totals at one volume: the
/// new cheapest plan's bill minus the old one's where the cheapest changes, else a plan's
/// bill minus the tie's edge where that plan joins or leaves the ties. Between two volumes the
/// bills are straight lines or nearly (renting's is, a fixed fleet's is constant between two
/// replica steps, a hybrid's bends where an hour's need crosses its cap), so where this
/// difference crosses zero is found in a step or two by a secant. `None` when the change
/// cannot be told by one difference (a plan whose bill is missing at one end).
fn gap(here: Class, next: Class, tie: f64) -> Option<impl Fn(&Totals) -> Option<f64>> {
    let (p, q) = if here.best != next.best {
        (here.best, next.best)
    } else {
        let changed = here.ties ^ next.ties;
        let plan = PLANS
            .into_iter()
            .find(|p| changed & (1 << index(*p)) != 0)?;
        (here.best, plan)
    };
    let tied = here.best == next.best;
    Some(move |t: &Totals| {
        let (a, b) = (t.cost(p)?, t.cost(q)?);
        Some(if tied { b - a - tie * a.abs() } else { b - a })
    })
}

/// The scales probed between `lo` and `hi` (both included), ascending, and the scale from
/// which they stand a tie apart (past the replica steps probed one by one).
fn probes(c: &Costing, lo: f64, hi: f64, tie: f64, hybrid: bool) -> (Vec<f64>, f64) {
    let peak = c.demand().peak_need();
    let tie = tie.max(MIN_TIE);
    let mut out = vec![lo, hi];
    let geometric = |out: &mut Vec<f64>, a: f64, b: f64, factor: f64| {
        if b > a {
            let n = ((b / a).ln() / factor.ln()).ceil().max(1.0) as usize;
            out.extend((1..n).map(|i| a * (b / a).powf(i as f64 / n as f64)));
        }
    };
    // Where probes stand a tie apart past whole replicas probed one by one; an hourly fleet's
    // few changes are narrowed as finely as a fixed fleet's steps.
    let mut dense_from = hi;
    if c.policy.scaling == Scaling::Hourly || !(peak > 0.0) {
        // An hourly fleet grows a replica-hour at a time: no step worth a band of its own.
        geometric(&mut out, lo, hi, HOURLY_STEP);
    } else {
        // Whole replicas up to where one more is less than the tie of the fleet; beyond, a
        // probe every tie, so that no band a tie wide lies between two probes.
        let exact = (1.0 / tie).ceil().min(MAX_STEPS);
        let first = (peak * lo).floor() + 1.0;
        let last = (peak * hi).floor().min(exact);
        let rent = c.rent(1.0);
        let mut k = first;
        while k <= last + 1.0 {
            // The step interval (k - 1, k] / peak: just past its start, the crossing of
            // renting's line with self-hosting's constant within it, and its end.
            let (a, b) = (((k - 1.0) / peak).max(lo), (k / peak).min(hi));
            if b > a {
                out.push(a * (1.0 + 1e-12));
                // A hybrid needs a cap below the full fleet and at least the least one: where
                // the fleet is that small, only renting's line crosses self-hosting's constant.
                let full = c.demand().full_replicas(0.5 * (a + b));
                let least = c.policy.min_replicas.max(1.0);
                if hybrid && full - 1.0 >= least {
                    let n =
                        (((b / a).ln() / (1.0 + tie).ln()).ceil() as usize).clamp(1, STEP_PROBES);
                    out.extend((1..n).map(|i| a * (b / a).powf(i as f64 / n as f64)));
                }
                if rent > 0.0 {
                    let cross = c.self_host(0.5 * (a + b)).total() / rent;
                    if cross > a && cross < b {
                        out.extend([cross * (1.0 - 1e-12), cross * (1.0 + 1e-12)]);
                    }
                }
                out.push(b);
            }
            k += 1.0;
        }
        dense_from = (last / peak).max(lo);
        geometric(&mut out, dense_from, hi, 1.0 + tie);
    }
    out.retain(|s| s.is_finite() && *s >= lo && *s <= hi);
    out.sort_by(f64::total_cmp);
    out.dedup();
    (out, dense_from)
}

/// The band map along the volume, from `lo` to `hi` tokens a month, for a workload of `total`
/// tokens a month costed by `c`.
pub fn volume_bands(
    c: &Costing,
    total: f64,
    lo: f64,
    hi: f64,
    hybrid: bool,
    tie: f64,
) -> Vec<Band> {
    if !(total > 0.0 && lo > 0.0 && hi > lo) {
        return Vec::new();
    }
    let (s_lo, s_hi) = (lo / total, hi / total);
    let (points, dense_from) = probes(c, s_lo, s_hi, tie, hybrid);
    let Some(&first) = points.first() else {
        return Vec::new();
    };
    let mut bands = Banding {
        total,
        bands: Vec::new(),
        widths: Vec::new(),
    };
    let mut start = first;
    let mut prev = first;
    let (mut here, mut t_prev) = judge(c, first, hybrid, tie);
    let find = |lo: (f64, Totals), hi: (f64, Totals), classes: (Class, Class)| {
        // Where one more replica is less than the tie of the fleet, a change is found to a
        // ten-thousandth: far finer than the tie, and than the three digits a page shows.
        let precision = if lo.0 >= dense_from {
            DENSE_PRECISION
        } else {
            PRECISION
        };
        first_change(lo, hi, classes, precision, tie, |m| {
            judge(c, m, hybrid, tie)
        })
    };
    for &s in &points[1..] {
        let (next, t_next) = judge(c, s, hybrid, tie);
        // Every change between `prev` (still `here`) and `s` (`next`), one after another: each
        // narrowed to the first value at which the plans differ from `here`.
        let (mut a, mut t_a) = (prev, t_prev);
        while here != next {
            let (at, then, t_at) = find((a, t_a), (s, t_next), (here, next));
            bands.close(start, at, here);
            start = at;
            here = then;
            (a, t_a) = (at, t_at);
        }
        (prev, t_prev) = (s, t_next);
    }
    bands.close(start, s_hi, here);
    bands.bands
}

/// Narrows the change between `lo` (plans `here`, totals `t_lo`) and `hi` (plans `next`,
/// totals `t_hi`) to a value, within `precision`, at which the plans differ from `here` while
/// just below it they are `here`: that value, its plans and its totals. Every step keeps a
/// value of `here` below and one of another class above, as a bisection does. Where one bill
/// difference tells `here` from the class above ([`gap`]), a step first tries where it crosses zero
/// (a secant through its values at both ends), probed a hair either side: the bracket closes
/// at once where the bills are straight between the ends, as they mostly are. After three
/// tries, or without such a difference, it bisects.
fn first_change(
    (mut lo, mut t_lo): (f64, Totals),
    (mut hi, mut t_hi): (f64, Totals),
    (here, next): (Class, Class),
    precision: f64,
    tie: f64,
    judge_at: impl Fn(f64) -> (Class, Totals),
) -> (f64, Class, Totals) {
    let mut hi_class = next;
    let mut tries = 0;
    for _ in 0..BISECT {
        if hi - lo <= precision * hi {
            break;
        }
        // The difference telling `here` from the class found above: the first change may be
        // another one than the class at the far end shows.
        let guess = gap(here, hi_class, tie)
            .filter(|_| tries < SECANT_TRIES)
            .and_then(|g| {
                let (d_lo, d_hi) = (g(&t_lo)?, g(&t_hi)?);
                let r = lo - d_lo * (hi - lo) / (d_hi - d_lo);
                (d_lo * d_hi < 0.0 && r > lo && r < hi).then_some(r)
            });
        let Some(r) = guess else {
            let m = (lo * hi).sqrt();
            let (at, t) = judge_at(m);
            if at == here {
                (lo, t_lo) = (m, t);
            } else {
                (hi, hi_class, t_hi) = (m, at, t);
            }
            continue;
        };
        tries += 1;
        let half = 0.5 * precision * r;
        // An end the guess lies within a hair of is known already: it is not judged again.
        if r - half > lo {
            let (at, t) = judge_at(r - half);
            if at != here {
                (hi, hi_class, t_hi) = (r - half, at, t);
                continue;
            }
            (lo, t_lo) = (r - half, t);
        }
        if r + half < hi {
            let (at, t) = judge_at(r + half);
            if at == here {
                (lo, t_lo) = (r + half, t);
            } else {
                (hi, hi_class, t_hi) = (r + half, at, t);
            }
        }
    }
    (hi, hi_class, t_hi)
}

/// The bands as they are found, and how wide each plan's stretch of each band is (in log
/// volume).
struct Banding {
    total: f64,
    bands: Vec<Band>,
    widths: Vec<[f64; 3]>,
}

impl Banding {
    /// Ends the stretch from `from` to `to` (shares of the volume) at which plans `at` hold:
    /// consecutive volumes at which the same plans hold (the cheapest and those tied with it)
    /// are one band, named after the plan cheapest over most of it.
    fn close(&mut self, from: f64, to: f64, at: Class) {
        let total = self.total;
        let width = (to / from).ln();
        if !(width > PRECISION) {
            // A single point (a fleet exactly full at a replica step): part of its neighbours.
            if let Some(last) = self.bands.last_mut() {
                last.to = to * total;
            }
            return;
        }
        let holding = |b: &Band| {
            b.ties
                .iter()
                .fold(1u8 << index(b.best), |m, p| m | (1 << index(*p)))
        };
        match (self.bands.last_mut(), self.widths.last_mut()) {
            (Some(last), Some(w)) if holding(last) == at.holding() => {
                last.to = to * total;
                w[index(at.best)] += width;
                let widest = PLANS
                    .into_iter()
                    .max_by(|a, b| w[index(*a)].total_cmp(&w[index(*b)]))
                    .unwrap_or(at.best);
                let set = at.holding();
                last.best = widest;
                last.ties = PLANS
                    .into_iter()
                    .filter(|p| *p != widest && set & (1 << index(*p)) != 0)
                    .collect();
            }
            _ => {
                let mut w = [0.0; 3];
                w[index(at.best)] = width;
                self.widths.push(w);
                self.bands.push(Band {
                    from: from * total,
                    to: to * total,
                    best: at.best,
                    ties: at.tied(),
                });
            }
        }
    }
}

/// The bands a decision can rest on: neighbours with the same cheapest plan merged (their ties
/// kept where both have them), then a band still narrower than the tie joined to the band
/// before it (the first, to the band after it).
pub fn material(bands: &[Band], tie: f64) -> Vec<Band> {
    // Neighbours with the same cheapest plan first, so that the pieces a change of ties cuts a
    // stretch into are measured as the stretch they are.
    let merge = |bands: Vec<Band>| {
        let mut out: Vec<Band> = Vec::new();
        for b in bands {
            match out.last_mut() {
                Some(last) if last.best == b.best => {
                    last.to = b.to;
                    last.ties.retain(|p| b.ties.contains(p));
                }
                _ => out.push(b),
            }
        }
        out
    };
    let mut out: Vec<Band> = Vec::new();
    for b in merge(bands.to_vec()) {
        match out.last_mut() {
            Some(last) if !b.material(tie) => last.to = b.to,
            _ => out.push(b),
        }
    }
    // A first band narrower than the tie joins the one after it.
    if out.len() > 1 && !out[0].material(tie) {
        let first = out.remove(0);
        out[0].from = first.from;
    }
    merge(out)
}

/// The end of the last band in which `plan` holds, when bands in which it does not follow it
/// to the end of the map: above it `plan` is never cheapest again (`None` when it holds at the
/// end, or nowhere).
pub fn never_again_above(bands: &[Band], plan: Strategy) -> Option<f64> {
    let j = bands.iter().rposition(|b| b.holds(plan))?;
    (j + 1 < bands.len()).then(|| bands[j].to)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plans at `s` times the volume where renting costs `100 s`, self-hosting `150` and
    /// no hybrid is searched, as [`judge`] reads them, counting the judgements in `count`.
    fn judged_line(s: f64, tie: f64, count: &std::cell::Cell<u32>) -> (Class, Totals) {
        count.set(count.get() + 1);
        let t = Totals {
            rent: 100.0 * s,
            self_host: 150.0,
            hybrid: None,
        };
        (Class::of(&t, tie), t)
    }

    /// Between a volume where renting wins alone and one where self-hosting does, the first
    /// change is self-hosting joining renting's tie (at `150 / 101` for a 1 % tie), not their
    /// crossing at 1.5: it is found to the precision asked in a few judgements, where a
    /// bisection takes twenty.
    #[test]
    fn a_change_between_straight_bills_is_found_in_a_few_judgements() {
        let count = std::cell::Cell::new(0);
        let tie = 0.01;
        let (lo, hi) = (judged_line(1.0, tie, &count), judged_line(2.0, tie, &count));
        assert_eq!((lo.0.best, hi.0.best), (Strategy::Rent, Strategy::SelfHost));
        count.set(0);
        let (at, class, _) = first_change(
            (1.0, lo.1),
            (2.0, hi.1),
            (lo.0, hi.0),
            PRECISION,
            tie,
            |s| judged_line(s, tie, &count),
        );
        let expected = 150.0 / 101.0;
        assert!((at - expected).abs() <= 2.0 * PRECISION * expected, "{at}");
        assert_eq!(class.best, Strategy::Rent);
        assert!(class.tied().contains(&Strategy::SelfHost));
        assert!(count.get() <= 6, "{} judgements", count.get());
        // Just below it the plans are still renting's alone.
        let below = judged_line(at * (1.0 - 2.0 * PRECISION), tie, &count).0;
        assert_eq!(below, lo.0);
    }
}
