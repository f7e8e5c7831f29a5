//! The month-over-month growth of an export that spans calendar months.

use super::week::covered;
use super::*;

/// The month-over-month growth fitted (least squares on the logarithm of each calendar month's
/// tokens a day) over the calendar months with at least three weeks of the export; `None` with
/// fewer than two such months, or with a month of no tokens.
pub(super) fn growth(buckets: &[Bucket], from: i64, to: i64) -> Option<Growth> {
    // (months since 1970-01, days covered, tokens), from the period's first month on.
    let first = month_index(from);
    let mut months: Vec<(i64, f64, f64)> = Vec::new();
    for (day, part) in covered(DAY, from, to) {
        let index = month_index(day * DAY);
        match months.last_mut() {
            Some(m) if m.0 == index => m.1 += part,
            _ => months.push((index, part, 0.0)),
        }
    }
    for b in buckets {
        let at = usize::try_from(month_index(b.start) - first).ok();
        if let Some(m) = at.and_then(|i| months.get_mut(i)) {
            m.2 += b.tokens();
        }
    }
    let fitted: Vec<(f64, f64)> = months
        .iter()
        .filter(|m| m.1 >= GROWTH_MONTH_DAYS)
        .map(|m| (m.0 as f64, m.2 / m.1))
        .collect();
    if fitted.len() < 2 || fitted.iter().any(|(_, per_day)| *per_day <= 0.0) {
        return None;
    }
    let n = fitted.len() as f64;
    let mx = fitted.iter().map(|(x, _)| x).sum::<f64>() / n;
    let my = fitted.iter().map(|(_, y)| y.ln()).sum::<f64>() / n;
    let sxy: f64 = fitted.iter().map(|(x, y)| (x - mx) * (y.ln() - my)).sum();
    let sxx: f64 = fitted.iter().map(|(x, _)| (x - mx).powi(2)).sum();
    let slope = sxy / sxx;
    // The monthly rate to four significant digits (of its percentage), and the yearly rate it
    // compounds to exactly: the link writes it as `x%/month`.
    let monthly = crate::format::round_significant(slope.exp_m1() * 100.0, 4) / 100.0;
    Some(Growth {
        monthly,
        yearly: crate::codec::yearly_of_monthly(monthly),
        months: fitted.len(),
    })
}

/// Months since January 1970 of a time.
pub(super) fn month_index(t: i64) -> i64 {
    let (year, month, _) = civil_from_days(t.div_euclid(DAY));
    (year - 1970) * 12 + month - 1
}
