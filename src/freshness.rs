//! How old a published price is on the day the answer is viewed. Sources give their dates as
//! published (`2026-10-23`, `2026-10`, `2026`); a price is counted from the last day its date
//! can mean, so that it is called old only when it certainly is.

/// A price whose source is older than this many days on the day of viewing gets a warning.
pub const STALE_AFTER_DAYS: i64 = 90;

/// Days since 1970-01-01 of a civil date (Howard Hinnant's `days_from_civil`).
pub fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date (year, month, day) of a number of days since 1970-01-01
/// (Howard Hinnant's `civil_from_days`).
pub fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

/// `YYYY-MM-DD` of a number of days since 1970-01-01.
pub fn date(days: i64) -> String {
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Days in a month of the Gregorian calendar.
pub fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The parts of `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, checked.
fn parts(date: &str) -> Option<(i64, Option<i64>, Option<i64>)> {
    let mut it = date.trim().split('-');
    let number = |s: Option<&str>, digits: usize| {
        s.filter(|s| s.len() == digits && s.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|s| s.parse::<i64>().ok())
    };
    let year = number(it.next(), 4)?;
    let month = match it.next() {
        None => None,
        some => Some(number(some, 2).filter(|m| (1..=12).contains(m))?),
    };
    let day = match it.next() {
        None => None,
        some => {
            let last = days_in_month(year, month?);
            Some(number(some, 2).filter(|d| (1..=last).contains(d))?)
        }
    };
    it.next().is_none().then_some((year, month, day))
}

/// The day `YYYY-MM-DD` stands for, in days since 1970-01-01.
pub fn day(date: &str) -> Option<i64> {
    match parts(date)? {
        (y, Some(m), Some(d)) => Some(days_from_civil(y, m, d)),
        _ => None,
    }
}

/// The last day a published date can mean: that day, the month's last day, the year's.
pub fn last_day(date: &str) -> Option<i64> {
    Some(match parts(date)? {
        (y, Some(m), Some(d)) => days_from_civil(y, m, d),
        (y, Some(m), None) => days_from_civil(y, m, days_in_month(y, m)),
        (y, None, _) => days_from_civil(y, 12, 31),
    })
}

/// How many days before `today` (`YYYY-MM-DD`) a source dated `published` was, at least.
pub fn age_days(published: &str, today: &str) -> Option<i64> {
    Some(day(today)? - last_day(published)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_counted_from_the_last_day_they_can_mean() {
        assert_eq!(day("1970-01-01"), Some(0));
        assert_eq!(day("2000-03-01"), Some(11_017));
        assert_eq!(age_days("2026-10-23", "2026-12-01"), Some(39));
        assert_eq!(age_days("2026-04", "2026-12-01"), Some(215));
        assert_eq!(age_days("2026-02", "2026-03-01"), Some(1));
        assert_eq!(
            age_days("2024-02", "2024-03-01"),
            Some(1),
            "a leap February ends on the 29th"
        );
        assert_eq!(age_days("2025", "2026-01-01"), Some(1));
        assert_eq!(age_days("2026-12-01", "2026-12-01"), Some(0));
        for days in [-1, 0, 59, 60, 11_016, 20_788, 100_000] {
            assert_eq!(day(&date(days)), Some(days), "{}", date(days));
        }
    }

    #[test]
    fn what_is_not_a_date_has_no_age() {
        for bad in [
            "",
            "July 2026",
            "2026-13",
            "2026-02-30",
            "26-01-01",
            "2026-01-01-01",
            "2026-1",
        ] {
            assert_eq!(last_day(bad), None, "{bad}");
        }
        assert_eq!(day("2026-10"), None, "today is a whole date");
    }
}
