//! The time of day in UTC, as the dataset and the saved scenarios write it.

use std::time::{SystemTime, UNIX_EPOCH};

fn seconds() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Today's date in UTC, `YYYY-MM-DD`.
pub fn today() -> String {
    servecost::freshness::date((seconds() / 86_400) as i64)
}

/// Now in UTC, RFC 3339 to the second (`YYYY-MM-DDTHH:MM:SSZ`).
pub fn now() -> String {
    let secs = seconds();
    let rem = secs % 86_400;
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        servecost::freshness::date((secs / 86_400) as i64),
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn now_is_rfc_3339_and_starts_with_today() {
        let (now, today) = (super::now(), super::today());
        assert_eq!(now.len(), 20, "{now}");
        assert!(now.ends_with('Z') && now.as_bytes()[10] == b'T', "{now}");
        // Today was read after now: the same day, or a later one if the day turned between.
        assert!(now[..10] <= *today, "{now} {today}");
    }
}
