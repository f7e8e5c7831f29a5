//! What would change it: for each main input, the nearest values at which the cheapest plan
//! changes. A change to a plan that costs the same within the tie threshold is no change.

use serde::{Deserialize, Serialize};

use super::{holds_within, scratch, Band, Draw, Knob, Pick, Strategy};
use crate::costing::Costing;
use crate::curve::Reading;
use crate::resolved::Resolved;

/// A value at which the cheapest plan changes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Flip {
    /// The input: `volume` (all tokens per month), `gpu_hour`, `price_in`, `price_out`,
    /// `cache_discount`, `util`, `prefill`, `cache_cost`, `ops` ($ per month of operations),
    /// `throughput` (a factor on the curve's throughput).
    pub param: String,
    /// The input in words.
    pub label: String,
    /// Its value as given.
    pub base: f64,
    /// The value past which the cheapest plan changes (searched to within a millionth).
    pub value: f64,
    /// `above` or `below`: the side of `value` on which the new plan is cheapest.
    pub direction: String,
    /// The cheapest plan as given.
    pub from: Strategy,
    /// The cheapest plan past the value.
    pub to: Strategy,
    /// Where the new plan's band ends, for an input with a band map (the volume): it is
    /// cheapest from `value` to here (`None`: to the end of the searched range).
    pub until: Option<f64>,
    /// For an input with a band map, the plan cheapest over most of the change when that is not
    /// `to` (the hybrid just past a replica step, then renting, say).
    pub mostly: Option<Strategy>,
    /// For an input with a band map, the value past which the plan as given never holds again
    /// (is never the cheapest nor within the tie of it) up to the end of the searched range,
    /// when that is further than `value`: the change is reliable from there on.
    pub reliably_from: Option<f64>,
}

/// The nearest material change of `from` along a band map, each way from `value`: bands narrower
/// than the tie, and bands in which `from` still ties, are no change.
pub fn band_flips(
    bands: &[Band],
    param: &str,
    label: &str,
    value: f64,
    from: Strategy,
    tie: f64,
) -> Vec<Flip> {
    let Some(at) = bands.iter().position(|b| b.from <= value && value <= b.to) else {
        return Vec::new();
    };
    let flip = |direction: &str, edge: f64, b: &Band, run: &Run| Flip {
        param: param.into(),
        label: label.into(),
        base: value,
        value: edge,
        direction: direction.into(),
        from,
        to: b.best,
        until: run.until,
        mostly: widest(&bands[run.begin..run.end]).filter(|p| *p != b.best),
        reliably_from: run.reliably,
    };
    let mut out = Vec::new();
    if let Some(run) = run_above(bands, at, from, tie) {
        out.push(flip(
            "above",
            bands[run.begin].from,
            &bands[run.begin],
            &run,
        ));
    }
    if let Some(run) = run_below(bands, at, from, tie) {
        let last = &bands[run.end - 1];
        out.push(flip("below", last.to, last, &run));
    }
    out
}

/// A change: a run of consecutive bands `begin..end` in which the plan as given does not hold,
/// at least the tie wide as a whole (narrow bands of other plans side by side are one change);
/// its plan is the one cheapest just past its edge. `until`: where the plan as given holds
/// again; `reliably`: past which it never does.
struct Run {
    begin: usize,
    end: usize,
    until: Option<f64>,
    reliably: Option<f64>,
}

/// The first change above band `at`.
fn run_above(bands: &[Band], at: usize, from: Strategy, tie: f64) -> Option<Run> {
    let mut i = at + 1;
    while i < bands.len() {
        if bands[i].holds(from) {
            i += 1;
            continue;
        }
        let end = (i..bands.len())
            .find(|&j| bands[j].holds(from))
            .unwrap_or(bands.len());
        let (start, stop) = (bands[i].from, bands[end - 1].to);
        if stop >= start * (1.0 + tie) {
            // Past the last band in which the plan as given holds, it never comes back.
            let reliably = bands
                .iter()
                .rposition(|x| x.holds(from))
                .filter(|&j| j >= end && j + 1 < bands.len())
                .map(|j| bands[j].to);
            return Some(Run {
                begin: i,
                end,
                until: (end < bands.len()).then_some(stop),
                reliably,
            });
        }
        i = end;
    }
    None
}

/// The first change below band `at`.
fn run_below(bands: &[Band], at: usize, from: Strategy, tie: f64) -> Option<Run> {
    let mut i = at;
    while i > 0 {
        if bands[i - 1].holds(from) {
            i -= 1;
            continue;
        }
        let begin = (0..i)
            .rev()
            .find(|&j| bands[j].holds(from))
            .map_or(0, |j| j + 1);
        let (start, stop) = (bands[begin].from, bands[i - 1].to);
        if stop >= start * (1.0 + tie) {
            let reliably = bands
                .iter()
                .position(|x| x.holds(from))
                .filter(|&j| j < begin && j > 0)
                .map(|j| bands[j].from);
            return Some(Run {
                begin,
                end: i,
                until: (begin > 0).then_some(start),
                reliably,
            });
        }
        i = begin;
    }
    None
}

/// The plan cheapest over most of a run, by the width of its bands.
fn widest(run: &[Band]) -> Option<Strategy> {
    let width = |p: Strategy| {
        run.iter()
            .filter(|b| b.best == p)
            .map(|b| (b.to / b.from).ln())
            .sum::<f64>()
    };
    [Strategy::Rent, Strategy::SelfHost, Strategy::Hybrid]
        .into_iter()
        .max_by(|a, b| width(*a).total_cmp(&width(*b)))
}

/// What would change the answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Flips {
    /// The nearest change above and below each input's value, within its accepted range.
    pub flips: Vec<Flip>,
    /// Inputs for which no value in their accepted range changes the cheapest plan.
    pub unchanged: Vec<String>,
}

/// The inputs the flips search.
const INPUTS: [Knob; 10] = [
    Knob::Volume,
    Knob::GpuHour,
    Knob::PriceIn,
    Knob::PriceOut,
    Knob::CacheDiscount,
    Knob::Util,
    Knob::Prefill,
    Knob::CacheCost,
    Knob::Ops,
    Knob::Throughput,
];

/// How far the volume is searched either way, as a factor of the scenario's.
const VOLUME_SPAN: f64 = 1_000.0;

/// Grid steps from the value to each end of its range before the change is refined: inputs
/// whose plans cost a straight line in them (prices, operations) cross at most once or twice;
/// those that change the fleet in whole replicas (utilisation, P, k, throughput) get a finer
/// grid. (The volume reads its changes from its band map.)
const GRID: usize = 12;
const GRID_STEPPED: usize = 24;
/// Bisection steps at most: a bracket of one grid step narrowed to within [`PRECISION`].
const BISECT: usize = 40;
/// A flip's value is found to within this share of itself (a millionth: far below the three
/// significant digits the page shows).
const PRECISION: f64 = 1e-6;

/// How the flips search each input.
impl Knob {
    fn grid(self) -> usize {
        match self {
            Knob::Util | Knob::Prefill | Knob::CacheCost | Knob::Throughput => GRID_STEPPED,
            _ => GRID,
        }
    }

    /// Whether every plan's cost is a straight line in the input (for a given cap): the API
    /// prices and discount, the operations and the GPU-hour price.
    fn straight(self) -> bool {
        matches!(
            self,
            Knob::PriceIn | Knob::PriceOut | Knob::CacheDiscount | Knob::Ops | Knob::GpuHour
        )
    }

    /// Whether the end of the input's range tells if the plan `from` changes on the way there:
    /// when `from` is cheapest over one interval of the input, and so no grid is needed.
    ///
    /// For a straight input each cap's bill is a line, and a plan is cheapest where its line is
    /// under every other. Renting's and self-hosting's lines are each under another over a
    /// half-line, so each is cheapest over an intersection of half-lines: an interval, for
    /// every straight input. The hybrid is cheapest where some cap's line is under both:
    /// one interval when every cap's slope lies between renting's and self-hosting's, so that
    /// the lowest line passes from one end to the other through the caps in order. It does for
    /// the output price, the discount, the operations and the GPU-hour price. For the input
    /// price it need not: the demand sent to the API arrives without its prefix cache (but for
    /// its warm share), so a small fleet's overflow pays more per unit of the input price than
    /// renting everything does, and along the price the hybrid can win, lose to renting and win
    /// again. From the hybrid, that input keeps its grid.
    fn end_tells(self, from: Strategy) -> bool {
        self.straight() && !(self == Knob::PriceIn && from == Strategy::Hybrid)
    }

    /// The value as given, the accepted range (the codec's; for the throughput, ×0.1 to ×10 of
    /// the curve; for the volume, ×1/1,000 to ×1,000 of yours within the codec's), and whether the grid is
    /// geometric (ranges over orders of magnitude) or even (shares).
    fn span(self, r: &Resolved) -> (f64, f64, f64, bool) {
        match self {
            // Within a thousandth to a thousand times yours (and the codec's range): a plan
            // that changes a million times further out says nothing about this workload.
            Knob::Volume => {
                let v = r.volumes.total();
                let (lo, hi) = volume_span(v);
                (v, lo, hi, true)
            }
            Knob::Throughput => (1.0, 0.1, 10.0, true),
            // The rest over the range their link parameter accepts: prices and operations
            // from 0 (or the least price) geometrically, shares evenly.
            k => {
                let value = k.value(r).unwrap_or(0.0);
                let (lo, hi) = k.accepted().unwrap_or((0.0, 1.0));
                match k {
                    Knob::PriceIn | Knob::PriceOut | Knob::Ops => (value, 0.0, hi, true),
                    Knob::CacheDiscount | Knob::CacheCost => (value, 0.0, 1.0, false),
                    Knob::Util => (value, lo, 1.0, false),
                    _ => (value, lo, hi, true),
                }
            }
        }
    }
}

/// The range the volume is searched over, tokens a month: a thousandth to a thousand times
/// `total`, within the accepted range.
pub fn volume_span(total: f64) -> (f64, f64) {
    let max = crate::codec::spec("tokens").map_or(f64::INFINITY, |s| s.max);
    (
        (total / VOLUME_SPAN).max(1.0),
        (total * VOLUME_SPAN).min(max),
    )
}

/// The plans' totals with one input set to a value.
struct Probe<'a> {
    base: &'a Resolved,
    reading: &'a Reading,
    costing: &'a Costing,
    hybrid: bool,
    /// A costing of the same volumes and profile, refitted for each probe of an input that
    /// changes the prices, the GPU time, the policy or the operations.
    scratch: Costing,
    /// The inputs as given, with the one probed set.
    draw: Draw,
    /// The plan as given: a probe at which it is within the tie of the cheapest names it.
    from: Strategy,
    /// The tie threshold, a share of the cheapest's bill.
    tie: f64,
}

/// One end of a bracket: a value, and self-hosting minus renting there (not a number when it
/// was not probed).
#[derive(Clone, Copy)]
struct End {
    value: f64,
    margin: f64,
}

impl Probe<'_> {
    /// The plans' totals with `input` at `v`; the plan named is the one as given wherever it
    /// is within the tie of the cheapest.
    fn totals(&mut self, input: Knob, v: f64) -> Option<Pick> {
        let mut pick = self.cheapest(input, v)?;
        if pick.plan != self.from {
            let c = &self.scratch;
            if holds_within(c, 1.0, self.hybrid, self.from, self.tie, &pick) {
                pick.plan = self.from;
            }
        }
        Some(pick)
    }

    /// The plans' totals with `input` at `v`, the cheapest named.
    fn cheapest(&mut self, input: Knob, v: f64) -> Option<Pick> {
        Some(match input {
            Knob::GpuHour => {
                let c = self.costing;
                self.scratch.refit(
                    c.api,
                    c.gpu_time,
                    c.policy,
                    v,
                    c.ops_monthly,
                    c.ops_per_gpu,
                    self.base.overflow_warm,
                );
                Pick::of(&self.scratch, 1.0, self.hybrid)
            }
            _ => {
                // The inputs as given, but for this one (no copy of the curve or the profile).
                let d = &mut self.draw;
                let base = self.base;
                d.r.api = base.api;
                d.r.policy = base.policy;
                d.r.prefill = base.prefill;
                d.r.cache_cost = base.cache_cost;
                d.r.ops_monthly = base.ops_monthly;
                d.throughput = 1.0;
                if input == Knob::Throughput {
                    d.throughput = v;
                } else {
                    input.set(&mut d.r, v);
                }
                self.draw
                    .totals(self.reading, self.hybrid, &mut self.scratch)?
            }
        })
    }

    /// The nearest value from `base` towards `end` at which the best plan is not `from`: the
    /// value found and the plan there.
    fn search(
        &mut self,
        input: Knob,
        from: Strategy,
        base: f64,
        end: f64,
        geometric: bool,
    ) -> Option<(f64, Strategy)> {
        if base == end {
            return None;
        }
        // A geometric grid cannot start or end at 0: it runs to a millionth of the other end,
        // and 0 itself is the last step.
        let (a, b) = if geometric {
            let tiny = base.abs().max(end.abs()) * 1e-6;
            (base.max(tiny), if end == 0.0 { tiny } else { end })
        } else {
            (base, end)
        };
        let (la, lb) = if geometric {
            (a.ln(), b.ln())
        } else {
            (0.0, 0.0)
        };
        let grid = input.grid();
        let on_grid = |i: usize| {
            let t = i as f64 / grid as f64;
            if geometric {
                (la + (lb - la) * t).exp()
            } else {
                a + (b - a) * t
            }
        };
        // The steps, the last of them the end itself; a geometric grid that ends at 0 takes
        // 0 as a step of its own after its millionth.
        let end_only = input.end_tells(from);
        let to_zero = geometric && end == 0.0 && !end_only;
        let count = if end_only {
            1
        } else {
            grid + usize::from(to_zero)
        };
        let step = |i: usize| if i == count { end } else { on_grid(i) };
        // The margin at the value as given is not probed: the refinement bisects first then.
        let mut same = End {
            value: base,
            margin: f64::NAN,
        };
        for v in (1..=count).map(step) {
            // No answer past here (the inputs contradict the curve): nothing changes within
            // the part of the range that has one.
            let t = self.totals(input, v)?;
            let margin = t.difference();
            match t.plan {
                p if p == from => same = End { value: v, margin },
                p => {
                    let other = End { value: v, margin };
                    return Some(self.refine(input, from, same, other, p, geometric));
                }
            }
        }
        None
    }

    /// Narrows the bracket between `same` (where `from` is the cheapest plan) and `other`
    /// (where `to` is) to within [`PRECISION`], by bisection, but for a change between renting
    /// and self-hosting in an input both cost straight lines in (prices, operations): there the
    /// difference of the two at the bracket's ends says where they cross, and two or three
    /// probes close the bracket around it. Should two of those in a row fail to halve it, the
    /// rest is bisection.
    fn refine(
        &mut self,
        input: Knob,
        from: Strategy,
        mut same: End,
        mut other: End,
        mut to: Strategy,
        geometric: bool,
    ) -> (f64, Strategy) {
        let pair = |p: Strategy| matches!(p, Strategy::Rent | Strategy::SelfHost);
        let mut lines = input.straight() && pair(from) && pair(to);
        if lines && same.margin.is_nan() {
            // The value as given was not probed on the way here.
            match self.totals(input, same.value) {
                Some(t) => same.margin = t.difference(),
                None => lines = false,
            }
        }
        let mut misses = 0;
        for _ in 0..2 * BISECT {
            let (lo, hi) = (same.value.min(other.value), same.value.max(other.value));
            let tolerance = PRECISION * other.value.abs().max(same.value.abs());
            let width = hi - lo;
            if width <= tolerance {
                break;
            }
            let midpoint = if geometric && same.value > 0.0 && other.value > 0.0 {
                (same.value * other.value).sqrt()
            } else {
                0.5 * (same.value + other.value)
            };
            let crossing = lines.then(|| {
                let (s, o) = (same.value, other.value);
                s + same.margin * (o - s) / (same.margin - other.margin)
            });
            // Never within a quarter of the tolerance of either end, so that a probe at the
            // crossing and the next one past it close the bracket.
            let keep_off = 0.25 * tolerance;
            let v = match crossing {
                Some(v) if v.is_finite() => v.clamp(lo + keep_off, hi - keep_off),
                _ => midpoint,
            };
            let probed = self.totals(input, v).map(|t| (t.plan, t.difference()));
            match probed {
                Some((best, d)) if best != from => {
                    other = End {
                        value: v,
                        margin: d,
                    };
                    to = best;
                    lines &= pair(best);
                }
                // No answer here (the inputs contradict the curve) counts as no change.
                Some((_, d)) => {
                    same = End {
                        value: v,
                        margin: d,
                    }
                }
                None => {
                    same.value = v;
                    lines = false;
                }
            }
            if crossing.is_some() {
                let now = (same.value - other.value).abs();
                misses = if now > 0.5 * width { misses + 1 } else { 0 };
                if misses == 2 {
                    lines = false;
                }
            }
        }
        (other.value, to)
    }
}

/// For each main input, the nearest values above and below it at which the cheapest plan
/// changes to a plan more than `tie` cheaper, within the input's accepted range.
pub fn flips(
    base: &Resolved,
    reading: &Reading,
    costing: &Costing,
    hybrid: bool,
    from: Strategy,
    tie: f64,
    volume_bands: &[Band],
) -> Flips {
    let mut probe = Probe {
        base,
        reading,
        costing,
        hybrid,
        scratch: scratch(base),
        draw: Draw::new(base.clone()),
        from,
        tie,
    };
    let mut out = Flips {
        flips: Vec::new(),
        unchanged: Vec::new(),
    };
    for input in INPUTS {
        let (value, lo, hi, geometric) = input.span(base);
        if input == Knob::Volume {
            // The volume reads its changes from its band map (none without a volume).
            let found = band_flips(volume_bands, input.key(), input.label(), value, from, tie);
            if found.is_empty() {
                out.unchanged.push(input.key().into());
            }
            out.flips.extend(found);
            continue;
        }
        let mut found = false;
        for (end, direction) in [(hi, "above"), (lo, "below")] {
            if let Some((v, to)) = probe.search(input, from, value, end, geometric) {
                found = true;
                out.flips.push(Flip {
                    param: input.key().into(),
                    label: input.label().into(),
                    base: value,
                    value: v,
                    direction: direction.into(),
                    from,
                    to,
                    until: None,
                    mostly: None,
                    reliably_from: None,
                });
            }
        }
        if !found {
            out.unchanged.push(input.key().into());
        }
    }
    out
}
