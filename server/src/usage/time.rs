//! The times exports give: `2026-06-01T09:00:00Z` (with an offset, a fraction of a second or a
//! space instead of `T`), `2026-06-01 09:00`, `2026-06-01`, or seconds since 1970 (UTC).

use servecost::freshness::{days_from_civil, days_in_month};
use servecost::Problem;

const ACCEPTED: &str = "expected a time such as 2026-06-01T09:00:00Z (an offset as +02:00), 2026-06-01 09:00, 2026-06-01 or seconds since 1970 (ten digits)";

/// Seconds since 1970-01-01 UTC of `text`; `field` names it in the problem.
pub fn parse(field: &str, text: &str) -> Result<i64, Problem> {
    read(text.trim()).ok_or_else(|| Problem::new(field, text, ACCEPTED))
}

fn read(text: &str) -> Option<i64> {
    if !text.is_ascii() {
        return None;
    }
    // Seconds since 1970: nine or ten digits (not milliseconds, not `20260601`).
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        return (9..=10)
            .contains(&text.len())
            .then(|| text.parse().ok())
            .flatten();
    }
    let (date, rest) = text.split_at(text.len().min(10));
    let mut parts = date.split('-');
    let year: i64 = number(parts.next()?, 4)?;
    let month: i64 = number(parts.next()?, 2)?;
    let day: i64 = number(parts.next()?, 2)?;
    if !(1..=12).contains(&month) || !(1..=days_in_month(year, month)).contains(&day) {
        return None;
    }
    let days = days_from_civil(year, month, day);
    let rest = match rest.strip_prefix(['T', ' ']) {
        Some(r) => r,
        None if rest.is_empty() => return Some(days * 86_400),
        None => return None,
    };
    // Clock, then an optional offset.
    let split = rest.find(['Z', 'z', '+', '-']).unwrap_or(rest.len());
    let (clock, zone) = rest.split_at(split);
    let mut hms = clock.split(':');
    let hour: i64 = number(hms.next()?, 2)?;
    let minute: i64 = number(hms.next()?, 2)?;
    let second: i64 = match hms.next() {
        Some(s) => number(s.split('.').next()?, 2)?,
        None => 0,
    };
    if hms.next().is_some() || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let offset = match zone {
        "" | "Z" | "z" => 0,
        z => {
            let sign = if z.starts_with('-') { -1 } else { 1 };
            let (h, m) = z[1..].split_once(':').unwrap_or((&z[1..], "00"));
            sign * (number(h, 2)? * 3_600 + number(m, 2)? * 60)
        }
    };
    Some(days * 86_400 + hour * 3_600 + minute * 60 + second - offset)
}

/// A number of exactly `width` digits.
fn number(text: &str, width: usize) -> Option<i64> {
    (text.len() == width && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::read;

    #[test]
    fn reads_the_times_exports_give() {
        let monday = 1_780_272_000;
        assert_eq!(read("2026-06-01T00:00:00Z"), Some(monday));
        assert_eq!(read("2026-06-01"), Some(monday));
        assert_eq!(read("2026-06-01 09:30"), Some(monday + 9 * 3_600 + 1_800));
        assert_eq!(read("2026-06-01T02:00:00+02:00"), Some(monday));
        assert_eq!(read("2026-05-31T19:00:00.000-05:00"), Some(monday));
        assert_eq!(read("1780272000"), Some(monday));
        for bad in [
            "",
            "2026-13-01",
            "2026-02-30",
            "2026-06-01T25:00",
            "June 1",
            "2026-06-01X",
        ] {
            assert_eq!(read(bad), None, "{bad}");
        }
    }
}
