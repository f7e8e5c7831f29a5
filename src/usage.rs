//! A provider's usage export as the workload: buckets of tokens by class over time become the
//! monthly volumes, the weekly load profile and its peak, the batch share and the growth, and a
//! scenario link that carries them. The readers of the export formats (OpenAI, Anthropic, CSV)
//! live with the server; this module works on their buckets.

use serde::Serialize;

use crate::codec::Checked;
use crate::error::Problem;
use crate::format::{exact, round_significant, thousands};
use crate::freshness::civil_from_days;
use crate::profile::{ProfileSpec, HOURS_PER_WEEK};
use crate::scenario::Scenario;
use crate::workload::Workload;

/// Seconds in a minute, an hour and a day.
mod growth;
mod week;

use growth::growth;
use week::{daily_profile, hourly_profile, week_of};

const MINUTE: i64 = 60;
const HOUR: i64 = 3_600;
const DAY: i64 = 86_400;
/// Days in the Gregorian calendar's average month (365.2425 / 12).
pub const MONTH_DAYS: f64 = 30.436_875;
/// Hours from a Monday 00:00 to 1970-01-01 00:00, a Thursday.
const EPOCH_HOUR_OF_WEEK: i64 = 72;
/// Days from a Monday to 1970-01-01.
const EPOCH_DAY_OF_WEEK: i64 = 3;
/// The largest weight a link writes: weights are whole numbers up to it, so rounding moves
/// each by at most 1 / 19,998 of the peak.
const WEIGHT_SCALE: f64 = 9_999.0;
/// Days of a calendar month an export must cover for the month to count towards growth: three
/// weeks, so that two adjacent weeks are never read as a month apart.
const GROWTH_MONTH_DAYS: f64 = 21.0;
/// The earliest and latest times an export may hold: 2000-01-01 and 2100-01-01 UTC.
const EARLIEST: i64 = 946_684_800;
const LATEST: i64 = 4_102_444_800;
/// The longest period read: three years of buckets.
const MAX_DAYS: i64 = 3 * 366;

/// One bucket of an export: a span of time and the tokens of one kind of traffic in it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bucket {
    /// Its start, seconds since 1970-01-01 UTC.
    pub start: i64,
    /// Its end (exclusive), seconds since 1970-01-01 UTC.
    pub end: i64,
    /// Input tokens not read from a cache (cache writes included).
    pub uncached: f64,
    /// Input tokens read from a cache.
    pub cached: f64,
    /// Output tokens.
    pub output: f64,
    /// Requests, when the export counts them.
    pub requests: Option<f64>,
    /// Batch traffic (asynchronous, at the provider's batch price).
    pub batch: bool,
}

impl Bucket {
    fn tokens(&self) -> f64 {
        self.uncached + self.cached + self.output
    }
}

/// How finely the export measures the load over time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Resolution {
    /// Hourly or finer buckets: 168 weights, one an hour of the week (24, one an hour of the
    /// day, for an export of less than a week).
    Hourly,
    /// Daily buckets: one weight a day of the week, flat within each day (coarser: the hours
    /// of a day are not known).
    Daily,
}

/// The span the export covers.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Period {
    /// Its first bucket's start, `YYYY-MM-DDTHH:MM:SSZ`.
    pub from: String,
    /// Its last bucket's end.
    pub to: String,
    /// Days between the two.
    pub days: f64,
}

/// The export's totals scaled to an average month, to four significant digits.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Monthly {
    /// Uncached input tokens (cache writes included).
    pub input: f64,
    /// Cached input tokens.
    pub cached: f64,
    /// Output tokens.
    pub output: f64,
    /// Requests, when every bucket counts them.
    pub requests: Option<f64>,
}

/// The average request, where the export counts requests.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Shape {
    /// Input tokens per request, cached or not.
    pub input_per_request: f64,
    /// Share of input read from a cache.
    pub cache_hit: f64,
    /// Output tokens per request.
    pub output_per_request: f64,
}

/// The volume's change from month to month, fitted over the calendar months the export covers.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Growth {
    /// Change a month (0.08: 8 % a month).
    pub monthly: f64,
    /// The same change over a year, as the link's `growth` takes it.
    pub yearly: f64,
    /// Calendar months fitted (each with at least three weeks of the export).
    pub months: usize,
}

/// What an export says about the workload, and the scenario link that carries it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Usage {
    /// The scenario: the monthly totals, the measured profile (weights rounded to whole numbers
    /// up to 9,999) and the growth, when measured and within the link's range.
    pub query: String,
    /// The span the export covers.
    pub period: Period,
    /// The factor from the period to an average month (30.44 days over the period's days).
    pub scale: f64,
    /// The totals scaled to an average month.
    pub monthly: Monthly,
    /// The average request, where the export counts requests.
    pub shape: Option<Shape>,
    /// The busiest hour of the week against the average hour.
    pub peak_to_average: f64,
    /// Share of all tokens sent as batch traffic.
    pub batch_share: f64,
    /// Month-over-month growth, when two calendar months have three weeks of the export each.
    pub growth: Option<Growth>,
    /// How finely the profile is measured.
    pub resolution: Resolution,
    /// The measured weights, mean 1: 168 (hours of the week from Monday 00:00 UTC), 24 (hours
    /// of the day) or 7 (days of the week from Monday).
    pub profile: Vec<f64>,
    /// What the reading could not take as given, in words.
    pub notes: Vec<String>,
}

/// The problem of the export, named as the API names it.
fn problem(reason: impl Into<String>) -> Problem {
    Problem::new("buckets", "", reason)
}

impl Usage {
    /// What was read, in a few sentences for the page: the period and its scaling to a month,
    /// how finely the hours are known, the peak, and the export's notes.
    pub fn summary(&self) -> String {
        // `2026-06-01T00:00:00Z` as `2026-06-01 00:00`: the end is the last bucket's end.
        let day = |t: &str| t.get(..16).unwrap_or(t).replace('T', " ");
        let mut text = format!(
            "{} days of {} buckets ({} to {} UTC), scaled ×{} to an average month; the busiest hour carries {}× the average.",
            crate::format::significant(self.period.days, 3),
            match self.resolution {
                Resolution::Hourly => "hourly",
                Resolution::Daily => "daily",
            },
            day(&self.period.from),
            day(&self.period.to),
            crate::format::significant(self.scale, 4),
            crate::format::significant(self.peak_to_average, 3),
        );
        if let Some(g) = &self.growth {
            text.push_str(&format!(
                " Growth over {} months: {}.",
                g.months,
                crate::in_force::rate(g.yearly)
            ));
        }
        for note in &self.notes {
            text.push(' ');
            text.push_str(note);
        }
        text
    }
}

/// The workload the buckets measure, over the period they span.
pub fn read(buckets: &[Bucket]) -> Result<Usage, Problem> {
    let from = buckets.iter().map(|b| b.start).min().unwrap_or_default();
    let to = buckets.iter().map(|b| b.end).max().unwrap_or_default();
    read_over(buckets, (from, to))
}

/// The workload the buckets measure over `period` (from, to), the whole export's when these
/// are one model's buckets of it. Batch buckets count in the volumes and the batch share; the
/// profile is the shape of the other traffic with the batch share spread evenly over the week
/// (batch runs at any hour), so that the fleet is sized for the hours that need it.
pub fn read_over(buckets: &[Bucket], (from, to): (i64, i64)) -> Result<Usage, Problem> {
    let step = step(buckets)?;
    let from = buckets.iter().map(|b| b.start).fold(from, i64::min);
    let to = buckets.iter().map(|b| b.end).fold(to, i64::max);
    if to - from > MAX_DAYS * DAY {
        return Err(problem(format!(
            "the buckets span {} days: at most {} days (three years) are read",
            thousands(((to - from) / DAY) as f64),
            thousands(MAX_DAYS as f64)
        )));
    }
    let days = (to - from) as f64 / DAY as f64;
    if days < 1.0 {
        return Err(problem(format!(
            "the buckets cover {} days: at least a day is needed to measure a load profile",
            exact(days, false)
        )));
    }
    let total = |f: fn(&Bucket) -> f64| buckets.iter().map(f).sum::<f64>();
    let all = total(Bucket::tokens);
    if all <= 0.0 {
        return Err(problem("the buckets hold no tokens"));
    }
    let scale = MONTH_DAYS / days;
    // Four significant digits, as the page pre-fills a figure: a month scaled from a period is
    // an estimate, and the link should not carry more digits than it knows.
    let month = |v: f64| round_significant(v * scale, 4).round();
    let requests = buckets
        .iter()
        .map(|b| b.requests)
        .sum::<Option<f64>>()
        .filter(|r| *r > 0.0);
    let monthly = Monthly {
        input: month(total(|b| b.uncached)),
        cached: month(total(|b| b.cached)),
        output: month(total(|b| b.output)),
        requests: requests.map(month),
    };
    let shape = requests.map(|r| {
        let input = total(|b| b.uncached) + total(|b| b.cached);
        Shape {
            input_per_request: input / r,
            cache_hit: if input > 0.0 {
                total(|b| b.cached) / input
            } else {
                0.0
            },
            output_per_request: total(|b| b.output) / r,
        }
    });
    let batch = buckets
        .iter()
        .filter(|b| b.batch)
        .map(Bucket::tokens)
        .sum::<f64>();
    // `+ 0.0`: no negative zero in the answer.
    let batch_share = batch / all + 0.0;
    let interactive: Vec<Bucket> = buckets.iter().filter(|b| !b.batch).copied().collect();
    let mut notes = Vec::new();
    let measured = if step == DAY {
        notes.push(
            "Daily buckets: the hours within a day are not known, so each day is taken as flat and the busiest hour is underestimated; an hourly export sizes the fleet better."
                .to_owned(),
        );
        daily_profile(&interactive, from, to, &mut notes)
    } else {
        hourly_profile(&interactive, from, to)
    };
    // The other traffic's shape: batch runs at any hour, so it is not part of the peak; the
    // link's `batch` share has it served in the fleet's quietest hours.
    let profile: Vec<f64> = measured.unwrap_or_else(|| vec![1.0; if step == DAY { 7 } else { 24 }]);
    if batch_share > 0.0 {
        notes.push(format!(
            "Batch traffic ({} of the tokens) goes in the link as its batch share: renting prices it at the API's batch discount where the offer states one (or you give it), and your own fleet serves it at its most efficient point in the hours the other traffic leaves idle; the profile is the other traffic's.",
            crate::format::percent(batch_share)
        ));
    }
    let resolution = if step == DAY {
        Resolution::Daily
    } else {
        Resolution::Hourly
    };
    let week = week_of(&profile);
    let peak_to_average = week.iter().copied().fold(0.0, f64::max);
    let growth = growth(buckets, from, to);
    // Four significant digits keep the link short and move no bill by 0.1 %.
    let link_batch = crate::format::round_significant(batch_share, 4);
    let query = link(&monthly, &profile, link_batch, growth.as_ref(), &mut notes)?;
    Ok(Usage {
        query,
        period: Period {
            from: timestamp(from),
            to: timestamp(to),
            days,
        },
        scale,
        monthly,
        shape,
        peak_to_average,
        batch_share,
        growth,
        resolution,
        profile,
        notes,
    })
}

/// The buckets' common length, in seconds: a minute, an hour or a day.
fn step(buckets: &[Bucket]) -> Result<i64, Problem> {
    let first = buckets
        .first()
        .ok_or_else(|| problem("the export holds no bucket"))?;
    let within = |t: i64| (EARLIEST..=LATEST).contains(&t);
    if let Some((i, b)) = buckets
        .iter()
        .enumerate()
        .find(|(_, b)| !within(b.start) || !within(b.end))
    {
        return Err(problem(format!(
            "bucket {} runs from {} to {}: accepted are times from 2000-01-01 to 2100-01-01 (seconds since 1970, not milliseconds)",
            thousands((i + 1) as f64),
            b.start,
            b.end
        )));
    }
    let step = first.end - first.start;
    for (i, b) in buckets.iter().enumerate() {
        let counts = [b.uncached, b.cached, b.output, b.requests.unwrap_or(0.0)];
        if counts.iter().any(|c| !c.is_finite() || *c < 0.0) {
            return Err(problem(format!(
                "bucket {} holds a count that is not a non-negative number",
                thousands((i + 1) as f64)
            )));
        }
        if b.end - b.start != step {
            return Err(problem(format!(
                "bucket {} lasts {} seconds, the first {}: every bucket must have one length",
                thousands((i + 1) as f64),
                thousands((b.end - b.start) as f64),
                thousands(step as f64)
            )));
        }
    }
    let off = buckets.iter().find(|b| step <= 0 || b.start % step != 0);
    if ![MINUTE, HOUR, DAY].contains(&step) || off.is_some() {
        return Err(problem(format!(
            "buckets last {} seconds from {}: accepted are buckets of a minute, an hour or a day (60, 3,600 or 86,400 seconds), each starting on the minute, hour or day UTC",
            thousands(step as f64),
            timestamp(off.unwrap_or(first).start)
        )));
    }
    Ok(step)
}

/// `YYYY-MM-DDTHH:MM:SSZ` of a time.
pub fn timestamp(t: i64) -> String {
    let (year, month, day) = civil_from_days(t.div_euclid(DAY));
    let s = t.rem_euclid(DAY);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        s / HOUR,
        s % HOUR / MINUTE,
        s % MINUTE
    )
}

/// The scenario link of the measured workload: the monthly totals, the profile's weights as
/// whole numbers up to 9,999 (168 of them, or 24 for less than a week of hours), and the
/// growth where it is within the link's range.
fn link(
    monthly: &Monthly,
    profile: &[f64],
    batch: f64,
    growth: Option<&Growth>,
    notes: &mut Vec<String>,
) -> Result<String, Problem> {
    let weights = if profile.len() == 7 {
        week_of(profile)
    } else {
        profile.to_vec()
    };
    let peak = weights.iter().copied().fold(0.0, f64::max);
    let mut s = Scenario {
        workload: Workload::Totals {
            input: monthly.input,
            cached: monthly.cached,
            output: monthly.output,
        },
        profile: if weights.iter().all(|w| *w == peak) {
            ProfileSpec::Preset(crate::profile::ProfilePreset::Flat)
        } else {
            ProfileSpec::Custom(
                weights
                    .iter()
                    .map(|w| (w / peak * WEIGHT_SCALE).round())
                    .collect(),
            )
        },
        batch,
        ..Scenario::default()
    };
    if let Some(g) = growth {
        let range = crate::codec::spec("growth").filter(|spec| spec.accepts(g.yearly));
        match range {
            Some(_) => s.plan.growth = g.yearly,
            None => notes.push(format!(
                "The measured growth ({} a year) is outside what a link takes (−90 % to 1,000 % a year): the link does not carry it.",
                crate::format::exact_percent(g.yearly)
            )),
        }
    }
    Checked::new(&s)
        .map(|c| c.query().to_owned())
        .map_err(|problems| {
            let reasons: Vec<String> = problems
                .iter()
                .map(|p| format!("{}: {}", p.param, p.reason))
                .collect();
            problem(format!(
                "the measured workload is outside what a scenario takes ({})",
                reasons.join("; ")
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::growth::month_index;
    use super::*;

    /// Monday 2026-06-01 00:00 UTC.
    const MONDAY: i64 = 1_780_272_000;

    fn hour(start: i64, tokens: (f64, f64, f64), batch: bool) -> Bucket {
        Bucket {
            start,
            end: start + HOUR,
            uncached: tokens.0,
            cached: tokens.1,
            output: tokens.2,
            requests: Some(1.0),
            batch,
        }
    }

    #[test]
    fn the_epoch_is_a_thursday_and_monday_is_hour_zero() {
        assert_eq!(timestamp(MONDAY), "2026-06-01T00:00:00Z");
        assert_eq!((MONDAY / HOUR + EPOCH_HOUR_OF_WEEK) % 168, 0);
        assert_eq!((MONDAY / DAY + EPOCH_DAY_OF_WEEK) % 7, 0);
    }

    /// Two weeks of hours, busy (3 units) on weekday working hours and quiet (1) otherwise,
    /// plus batch traffic at night: the profile, its peak, the batch share and the totals.
    #[test]
    fn hourly_buckets_give_the_weeks_profile_and_the_months_volumes() {
        let mut buckets = Vec::new();
        for h in 0..(14 * 24) {
            let (day, hod) = ((h / 24) % 7, h % 24);
            let busy = day < 5 && (9..17).contains(&hod);
            let load = if busy { 3.0 } else { 1.0 };
            buckets.push(hour(
                MONDAY + h * HOUR,
                (load * 100.0, load * 600.0, load * 50.0),
                false,
            ));
            if hod == 2 {
                buckets.push(hour(MONDAY + h * HOUR, (1_000.0, 0.0, 500.0), true));
            }
        }
        let u = read(&buckets).expect("reads");
        assert_eq!(u.resolution, Resolution::Hourly);
        assert_eq!(u.profile.len(), 168);
        // 40 busy hours at 3 and 128 quiet at 1: mean 248 / 168.
        // The other traffic's shape; the batch share goes in the link.
        let mean = (40.0 * 3.0 + 128.0) / 168.0;
        let interactive = 2.0 * (40.0 * 3.0 + 128.0) * 750.0;
        let batch = 14.0 * 1_500.0;
        let b = batch / (interactive + batch);
        assert!((u.batch_share - b).abs() < 1e-12);
        assert!((u.profile[9] - 3.0 / mean).abs() < 1e-12);
        assert!((u.profile[0] - 1.0 / mean).abs() < 1e-12);
        assert!((u.peak_to_average - 3.0 / mean).abs() < 1e-12);
        assert!(u.notes.iter().any(|n| n.contains("batch discount")));
        let batch_in_link = format!(
            "batch={}",
            crate::codec::write_rounded(round_significant(b, 4), false)
        );
        assert!(
            u.query.contains(&batch_in_link),
            "{} lacks {batch_in_link}",
            u.query
        );
        assert_eq!(u.period.days, 14.0);
        let uncached = 2.0 * (40.0 * 3.0 + 128.0) * 100.0 + 14.0 * 1_000.0;
        assert_eq!(
            u.monthly.input,
            round_significant(uncached * MONTH_DAYS / 14.0, 4)
        );
        assert!(u.growth.is_none());
        assert!(u.query.contains("input="), "{}", u.query);
        assert!(u.query.contains("profile="), "{}", u.query);
    }

    #[test]
    fn minute_buckets_add_up_to_their_hours() {
        let mut minutes = Vec::new();
        for m in 0..(7 * 24 * 60) {
            let start = MONDAY + m * MINUTE;
            let load = if (m / 60) % 24 == 12 { 2.0 } else { 1.0 };
            minutes.push(Bucket {
                start,
                end: start + MINUTE,
                uncached: load,
                cached: 0.0,
                output: load,
                requests: None,
                batch: false,
            });
        }
        let u = read(&minutes).expect("reads");
        let mean = (7.0 * 2.0 + 161.0) / 168.0;
        assert!((u.profile[12] - 2.0 / mean).abs() < 1e-12);
        assert!(u.monthly.requests.is_none() && u.shape.is_none());
    }

    #[test]
    fn daily_buckets_give_a_coarser_day_of_week_profile() {
        let days: Vec<Bucket> = (0..14)
            .map(|d| Bucket {
                start: MONDAY + d * DAY,
                end: MONDAY + (d + 1) * DAY,
                uncached: if d % 7 >= 5 { 10.0 } else { 40.0 },
                cached: 0.0,
                output: 0.0,
                requests: Some(2.0),
                batch: false,
            })
            .collect();
        let u = read(&days).expect("reads");
        assert_eq!(u.resolution, Resolution::Daily);
        let mean = (5.0 * 40.0 + 2.0 * 10.0) / 7.0;
        assert_eq!(u.profile.len(), 7);
        assert!((u.profile[0] - 40.0 / mean).abs() < 1e-12);
        assert!((u.profile[6] - 10.0 / mean).abs() < 1e-12);
        let shape = u.shape.expect("requests are counted");
        assert!((shape.input_per_request - 440.0 / 28.0).abs() < 1e-12);
    }

    /// 2026-01 to 2026-03, each month 10 % busier a day than the last: growth 10 % a month.
    #[test]
    fn months_of_buckets_give_the_growth() {
        let jan = 1_767_225_600; // 2026-01-01
        let mut buckets = Vec::new();
        for d in 0..(31 + 28 + 31) {
            let start = jan + d * DAY;
            let month = month_index(start) - month_index(jan);
            buckets.push(Bucket {
                start,
                end: start + DAY,
                uncached: 1_000.0 * 1.1_f64.powi(month as i32),
                cached: 0.0,
                output: 0.0,
                requests: None,
                batch: false,
            });
        }
        let u = read(&buckets).expect("reads");
        let g = u.growth.expect("three months");
        assert_eq!(g.months, 3);
        assert!((g.monthly - 0.1).abs() < 1e-12);
        assert!((g.yearly - (1.1_f64.powi(12) - 1.0)).abs() < 1e-9);
        assert!(u.query.contains("growth="), "{}", u.query);
    }

    #[test]
    fn bad_buckets_are_refused_by_what_is_wrong() {
        let one = hour(MONDAY, (1.0, 1.0, 1.0), false);
        let short = read(&[one]).expect_err("refused");
        assert!(short.reason.contains("at least a day"), "{}", short.reason);
        let mut mixed: Vec<Bucket> = (0..48)
            .map(|h| hour(MONDAY + h * HOUR, (1.0, 0.0, 1.0), false))
            .collect();
        mixed[5].end += HOUR;
        let e = read(&mixed).expect_err("refused");
        assert!(
            e.reason.contains("bucket 6 lasts 7,200 seconds"),
            "{}",
            e.reason
        );
        let mut negative = mixed.clone();
        negative[5].end -= HOUR;
        negative[7].output = -1.0;
        assert!(read(&negative)
            .expect_err("refused")
            .reason
            .contains("bucket 8"));
        let empty: Vec<Bucket> = (0..48)
            .map(|h| hour(MONDAY + h * HOUR, (0.0, 0.0, 0.0), false))
            .collect();
        assert!(read(&empty)
            .expect_err("refused")
            .reason
            .contains("no tokens"));
        assert!(read(&[]).expect_err("refused").reason.contains("no bucket"));
    }

    /// A period that ends within an hour counts that hour in part: an even load stays even.
    #[test]
    fn a_part_hour_at_the_end_counts_in_part() {
        let minutes: Vec<Bucket> = (0..(36 * 60 + 30))
            .map(|m| Bucket {
                start: MONDAY + m * MINUTE,
                end: MONDAY + (m + 1) * MINUTE,
                uncached: 1.0,
                cached: 0.0,
                output: 0.0,
                requests: None,
                batch: false,
            })
            .collect();
        let u = read(&minutes).expect("reads");
        assert_eq!(u.profile.len(), 24);
        assert!(
            u.profile.iter().all(|w| (w - 1.0).abs() < 1e-12),
            "{:?}",
            u.profile
        );
        assert!(u.query.contains("profile=flat"), "{}", u.query);
    }

    /// Two adjacent weeks of two months are not two months: no growth is read from them.
    #[test]
    fn weeks_either_side_of_a_month_end_give_no_growth() {
        let may_25 = MONDAY - 7 * DAY;
        let days: Vec<Bucket> = (0..14)
            .map(|d| Bucket {
                start: may_25 + d * DAY,
                end: may_25 + (d + 1) * DAY,
                uncached: if d < 7 { 100.0 } else { 200.0 },
                cached: 0.0,
                output: 0.0,
                requests: None,
                batch: false,
            })
            .collect();
        let u = read(&days).expect("reads");
        assert!(u.growth.is_none());
        assert!(!u.query.contains("growth="), "{}", u.query);
        assert!(u.notes.iter().any(|n| n.starts_with("Daily buckets:")));
    }

    #[test]
    fn times_outside_the_century_or_three_years_apart_are_refused() {
        let at = |start: i64| Bucket {
            start,
            end: start + DAY,
            uncached: 1.0,
            cached: 0.0,
            output: 0.0,
            requests: None,
            batch: false,
        };
        let e = read(&[at(0), at(DAY)]).expect_err("refused");
        assert!(
            e.reason.contains("from 2000-01-01 to 2100-01-01"),
            "{}",
            e.reason
        );
        let e = read(&[at(MONDAY), at(MONDAY + 4 * 366 * DAY)]).expect_err("refused");
        assert!(e.reason.contains("at most 1,098 days"), "{}", e.reason);
        let far = Bucket {
            end: i64::MAX,
            ..at(i64::MAX - DAY)
        };
        assert!(read(&[far]).is_err());
    }
}
