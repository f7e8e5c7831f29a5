//! Numbers as people type them and as links carry them: `27k`, `10B`, `97%`, `41,000,000,000`,
//! `41 B`, `$2.10`, and the shortest form that reads back exactly.

/// Suffixes for volumes, largest first.
const SUFFIXES: [(&str, f64); 4] = [("T", 1e12), ("B", 1e9), ("M", 1e6), ("k", 1e3)];

/// Characters that may group thousands: comma, space, no-break space, thin space and narrow
/// no-break space (the page writes suffixes after the last two).
const GROUPS: [char; 5] = [',', ' ', '\u{a0}', '\u{2009}', '\u{202f}'];

/// Space people put before a suffix or a `%` sign: any of [`GROUPS`] but the comma.
fn is_space(c: char) -> bool {
    c != ',' && GROUPS.contains(&c)
}

/// Reads a number; `suffixes` allows `k`/`M`/`B`/`T` (also lower-case `m`, `b`, `t`, upper `K`),
/// `percent` allows a trailing `%` meaning hundredths. Also read, the way invoices and the page
/// print numbers: thousands grouped by commas or spaces (`41,000,000,000`, `41 000 000 000`),
/// a space before the suffix or `%` (`41 B`, `97 %`) and a leading `$` (`$2.10`). A comma that
/// does not group thousands (`2,5`) is refused rather than guessed at.
pub fn read(text: &str, suffixes: bool, percent: bool) -> Option<f64> {
    let text = text.trim_matches(|c: char| c.is_whitespace() || is_space(c));
    // The minus sign the page prints (−) reads as a hyphen, before or after a `$`.
    let text = text.replace('\u{2212}', "-");
    let text = match text.strip_prefix("-$") {
        Some(rest) => format!("-{rest}"),
        None => text,
    };
    let text = text.as_str();
    let text = text
        .strip_prefix('$')
        .unwrap_or(text)
        .trim_start_matches(is_space);
    let (body, scale) = if let Some(body) = text.strip_suffix('%').filter(|_| percent) {
        (body, 0.01)
    } else if suffixes {
        match text.char_indices().last() {
            Some((i, c)) => match c {
                'k' | 'K' => (&text[..i], 1e3),
                'm' | 'M' => (&text[..i], 1e6),
                'b' | 'B' => (&text[..i], 1e9),
                't' | 'T' => (&text[..i], 1e12),
                _ => (text, 1.0),
            },
            None => (text, 1.0),
        }
    } else {
        (text, 1.0)
    };
    let body = ungrouped(body.trim_end_matches(is_space))?;
    // Only plain decimal notation: no "inf", "NaN", hex or `1_000` that `f64::from_str` (or a
    // Rust literal) would accept.
    if body.is_empty()
        || !body
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E'))
    {
        return None;
    }
    let value: f64 = body.parse().ok()?;
    let value = if scale == 0.01 {
        value / 100.0
    } else {
        value * scale
    };
    value.is_finite().then_some(value)
}

/// `body` without its thousands separators, or `None` when they do not group thousands: one
/// kind of separator, in the whole part only, between a first group of one to three digits and
/// groups of exactly three.
fn ungrouped(body: &str) -> Option<String> {
    let Some(sep) = body.chars().find(|c| GROUPS.contains(c)) else {
        return Some(body.to_owned());
    };
    let unsigned = body.trim_start_matches(['-', '+']);
    let sign = &body[..body.len() - unsigned.len()];
    let end = unsigned.find(['.', 'e', 'E']).unwrap_or(unsigned.len());
    let (whole, rest) = unsigned.split_at(end);
    if rest.contains(|c| GROUPS.contains(&c)) {
        return None;
    }
    let groups: Vec<&str> = whole.split(sep).collect();
    let digits = |g: &str| g.chars().all(|c| c.is_ascii_digit());
    let first_ok = (1..=3).contains(&groups[0].len()) && digits(groups[0]);
    let rest_ok = groups[1..].iter().all(|g| g.len() == 3 && digits(g));
    (first_ok && rest_ok).then(|| format!("{sign}{}{rest}", groups.concat()))
}

/// `value` rounded for people to at most four significant digits, in the link's own syntax
/// (`810M`, `0.3333`): what the page pre-fills into a field, so that a value derived by
/// arithmetic (`810.0000000000007M`) never reaches a field or a link with its float noise.
pub fn rounded(value: f64, suffixes: bool) -> String {
    significant(value, 4, suffixes)
}

/// `value` to `digits` significant digits (at least one), in the link's own syntax.
pub fn significant(value: f64, digits: usize, suffixes: bool) -> String {
    if !value.is_finite() || value == 0.0 {
        return write(if value.is_finite() { value } else { 0.0 }, suffixes);
    }
    let kept: f64 = format!("{value:.*e}", digits.max(1) - 1)
        .parse()
        .unwrap_or(value);
    write(kept, suffixes)
}

/// The shortest text that [`read`] turns back into exactly `value`.
pub fn write(value: f64, suffixes: bool) -> String {
    if suffixes && value != 0.0 {
        for (s, scale) in SUFFIXES {
            let scaled = value / scale;
            if scaled.abs() >= 1.0 {
                let text = format!("{scaled}{s}");
                if read(&text, true, false) == Some(value) {
                    return text;
                }
            }
        }
    }
    format!("{value}")
}

/// Periods a rate may be typed per, with the power that turns it into a yearly rate.
const PERIODS: [(&str, u32); 8] = [
    ("/month", 12),
    (" a month", 12),
    ("per month", 12),
    ("/mo", 12),
    ("/year", 1),
    (" a year", 1),
    ("per year", 1),
    ("/yr", 1),
];

/// `(1 + rate)^12`, by squaring: the same on every platform (no `powi` or `powf`), so that a
/// monthly rate written in a link reads back to the same yearly rate everywhere.
fn twelfth_power(base: f64) -> f64 {
    let b2 = base * base;
    let b4 = b2 * b2;
    b4 * b4 * b4
}

/// The yearly rate a monthly one compounds to: `(1 + m)^12 - 1` (8 % a month is 151.8 % a year).
pub fn yearly_of_monthly(monthly: f64) -> f64 {
    twelfth_power(1.0 + monthly) - 1.0
}

/// The monthly rate that compounds to `yearly`.
pub fn monthly_of_yearly(yearly: f64) -> f64 {
    (1.0 + yearly).powf(1.0 / 12.0) - 1.0
}

/// A yearly rate as people type it: a number or a percentage, optionally per month (`8 %/month`,
/// `8% a month`, compounded to a year) or per year (`152 %/year`); without a period, yearly.
pub fn read_rate(text: &str) -> Option<f64> {
    // `8 % / month` as `8 %/month`.
    let lower = text
        .trim()
        .to_ascii_lowercase()
        .replace(" /", "/")
        .replace("/ ", "/");
    for (period, power) in PERIODS {
        if let Some(body) = lower.strip_suffix(period) {
            let rate = read(body, false, true)?;
            return Some(if power == 12 {
                yearly_of_monthly(rate)
            } else {
                rate
            });
        }
    }
    read(text, false, true)
}

/// The shortest text [`read_rate`] turns back into exactly `yearly`: a monthly percentage with at
/// most four significant digits when it compounds to it exactly (`8%/month`), else the yearly
/// rate as [`write`] writes it.
pub fn write_rate(yearly: f64) -> String {
    let monthly = monthly_of_yearly(yearly);
    if monthly.is_finite() && monthly != 0.0 {
        let text = format!("{}%/month", significant(monthly * 100.0, 4, false));
        if read_rate(&text) == Some(yearly) {
            return text;
        }
    }
    write(yearly, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_are_typed_per_month_or_per_year() {
        let y = read_rate("8 %/month").expect("monthly");
        assert!((y - (1.08f64.powi(12) - 1.0)).abs() < 1e-15);
        assert_eq!(read_rate("8% a month"), Some(y));
        assert_eq!(read_rate("8 % / month"), Some(y));
        assert_eq!(read_rate("152 %/year"), Some(1.52));
        assert_eq!(read_rate("1.52"), Some(1.52));
        assert_eq!(read_rate("-20%"), Some(-0.2));
        assert_eq!(read_rate("8 %/fortnight"), None);
        // The link keeps the monthly rate when it is one; a yearly one stays yearly.
        assert_eq!(write_rate(y), "8%/month");
        assert_eq!(write_rate(0.5), "0.5");
        assert_eq!(write_rate(-0.2), "-0.2");
        assert_eq!(write_rate(0.0), "0");
        for m in [-0.05, 0.001, 0.0125, 0.08, 0.2] {
            let y = yearly_of_monthly(m);
            assert_eq!(read_rate(&write_rate(y)), Some(y), "{m}");
        }
    }

    #[test]
    fn suffixes_and_percent() {
        assert_eq!(read("27k", true, false), Some(27_000.0));
        assert_eq!(read("10B", true, false), Some(1e10));
        assert_eq!(read("1.5T", true, false), Some(1.5e12));
        assert_eq!(read("97%", false, true), Some(0.97));
        assert_eq!(read("27k", false, false), None);
        assert_eq!(read("inf", true, false), None);
        assert_eq!(read("NaN", true, false), None);
        assert_eq!(read("1e400", true, false), None);
        assert_eq!(read("", true, false), None);
        assert_eq!(read("1_000", true, false), None);
    }

    #[test]
    fn numbers_as_people_type_them() {
        for text in [
            "41000000000",
            "41,000,000,000",
            "41 000 000 000",
            "41\u{a0}000\u{a0}000\u{a0}000",
            "41 B",
            "41B",
            "41\u{202f}B",
            "41,000 M",
            " 41 b ",
        ] {
            assert_eq!(read(text, true, false), Some(41e9), "{text:?}");
        }
        assert_eq!(read("$2.10", false, false), Some(2.1));
        assert_eq!(read("$ 12,000", false, false), Some(12_000.0));
        assert_eq!(read("$8,333.50", false, false), Some(8_333.5));
        assert_eq!(read("97%", false, true), Some(0.97));
        assert_eq!(read("97 %", false, true), Some(0.97));
        assert_eq!(read("10,000 T", true, false), Some(1e16));
        assert_eq!(read("-1,000", false, false), Some(-1_000.0));
        // Commas that do not group thousands are refused, not guessed at.
        for text in [
            "2,5",
            "1,00",
            "1,0000",
            ",100",
            "1,000.000,5",
            "1, 000",
            "1,000 000",
            "$",
        ] {
            assert_eq!(read(text, true, true), None, "{text:?}");
        }
        // No suffix where none is accepted, no % where a share is not asked for.
        assert_eq!(read("41 B", false, false), None);
        assert_eq!(read("97%", true, false), None);
    }

    #[test]
    fn rounded_for_people() {
        assert_eq!(rounded(810_000_000.000_000_7, true), "810M");
        assert_eq!(rounded(0.1 + 0.2, false), "0.3");
        assert_eq!(rounded(1.0 / 3.0, false), "0.3333");
        assert_eq!(rounded(123_456_789.0, true), "123.5M");
        assert_eq!(rounded(0.0, true), "0");
        assert_eq!(rounded(2.26, false), "2.26");
    }

    #[test]
    fn writes_short_and_exact() {
        assert_eq!(write(27e9, true), "27B");
        assert_eq!(write(1_000_000.0, true), "1M");
        assert_eq!(write(0.88, false), "0.88");
        for v in [1.0 / 3.0, 123_456_789.123, 0.1 + 0.2, 9.99e15] {
            assert_eq!(read(&write(v, true), true, false), Some(v));
        }
    }
}
