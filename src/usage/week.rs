//! The week measured from the buckets: the load of each hour (or day) of the week, mean 1,
//! each slot over the time the export covers it.

use super::*;

/// Mean-1 weights of `sums`, each over the time its slot is covered; `None` with no load.
pub(super) fn normalised(sums: &[f64], counts: &[f64]) -> Option<Vec<f64>> {
    let averages: Vec<f64> = sums
        .iter()
        .zip(counts)
        .map(|(s, n)| if *n > 0.0 { s / n } else { 0.0 })
        .collect();
    let mean = averages.iter().sum::<f64>() / averages.len() as f64;
    (mean > 0.0).then(|| averages.iter().map(|a| a / mean).collect())
}

/// Each `unit`-long span (hour or day, numbered from 1970) that `from..to` touches, with the
/// share of it covered: a period that ends within an hour counts that hour in part.
pub(super) fn covered(unit: i64, from: i64, to: i64) -> impl Iterator<Item = (i64, f64)> {
    (from.div_euclid(unit)..=(to - 1).div_euclid(unit)).map(move |n| {
        let (start, end) = (n * unit, (n + 1) * unit);
        (n, (end.min(to) - start.max(from)) as f64 / unit as f64)
    })
}

/// The load of each hour of the week (168 slots, Monday 00:00 UTC first) averaged over the
/// weeks the export covers, every hour of the period counted, those with no bucket as empty;
/// for less than a week, each hour of the day (24 slots). `None` with no load.
pub(super) fn hourly_profile(buckets: &[Bucket], from: i64, to: i64) -> Option<Vec<f64>> {
    let slots = if to - from >= 7 * DAY {
        HOURS_PER_WEEK
    } else {
        24
    };
    let slot = |hour: i64| (hour + EPOCH_HOUR_OF_WEEK).rem_euclid(slots as i64) as usize;
    let mut sums = vec![0.0; slots];
    let mut counts = vec![0.0; slots];
    for (hour, part) in covered(HOUR, from, to) {
        counts[slot(hour)] += part;
    }
    for b in buckets {
        sums[slot(b.start.div_euclid(HOUR))] += b.tokens();
    }
    normalised(&sums, &counts)
}

/// The load of each day of the week (Monday first) averaged over the weeks the export covers;
/// `None` with no load, or, with a note, for less than a week.
pub(super) fn daily_profile(
    buckets: &[Bucket],
    from: i64,
    to: i64,
    notes: &mut Vec<String>,
) -> Option<Vec<f64>> {
    if to - from < 7 * DAY {
        notes.push(
            "Daily buckets over less than a week: the load is taken as flat (no day of the week is known twice)."
                .to_owned(),
        );
        return None;
    }
    let slot = |day: i64| (day + EPOCH_DAY_OF_WEEK).rem_euclid(7) as usize;
    let mut sums = vec![0.0; 7];
    let mut counts = vec![0.0; 7];
    for (day, part) in covered(DAY, from, to) {
        counts[slot(day)] += part;
    }
    for b in buckets {
        sums[slot(b.start.div_euclid(DAY))] += b.tokens();
    }
    normalised(&sums, &counts)
}

/// The 168 hourly weights of the week a profile stands for.
pub(super) fn week_of(profile: &[f64]) -> Vec<f64> {
    match profile.len() {
        7 => (0..HOURS_PER_WEEK).map(|h| profile[h / 24]).collect(),
        n => (0..HOURS_PER_WEEK).map(|h| profile[h % n]).collect(),
    }
}
