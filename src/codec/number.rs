//! Numbers in links: `27k`, `10B`, `97%`, and the shortest form that reads back exactly.

/// Suffixes for volumes, largest first.
const SUFFIXES: [(&str, f64); 4] = [("T", 1e12), ("B", 1e9), ("M", 1e6), ("k", 1e3)];

/// Reads a number; `suffixes` allows `k`/`M`/`B`/`T` (also lower-case `m`, `b`, `t`, upper `K`),
/// `percent` allows a trailing `%` meaning hundredths.
pub fn read(text: &str, suffixes: bool, percent: bool) -> Option<f64> {
    let text = text.trim();
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

/// `value` as the page writes numbers, for messages: thousands separated (`10,000`), with a
/// `k`/`M`/`B`/`T` suffix after a space when `suffixes` (`10,000 T`), at most four significant
/// digits after a suffix, never in exponent notation.
pub fn human(value: f64, suffixes: bool) -> String {
    if !value.is_finite() {
        return String::from("?");
    }
    if suffixes && value.abs() >= 1e3 {
        for (s, scale) in SUFFIXES {
            let scaled = value / scale;
            if scaled.abs() >= 1.0 {
                let rounded = (scaled * 1e3).round() / 1e3;
                return format!("{} {s}", grouped(rounded));
            }
        }
    }
    grouped(value)
}

/// Thousands separators on the whole part; the fraction as Rust prints it (shortest exact).
fn grouped(value: f64) -> String {
    let text = format!("{}", value.abs());
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let mut out = String::new();
    if value < 0.0 {
        out.push('-');
    }
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if !fraction.is_empty() {
        out.push('.');
        out.push_str(fraction);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn human_numbers() {
        assert_eq!(human(1e16, true), "10,000 T");
        assert_eq!(human(1e13, true), "10 T");
        assert_eq!(human(1_000.0, false), "1,000");
        assert_eq!(human(1e-8, false), "0.00000001");
        assert_eq!(human(0.05, false), "0.05");
        assert_eq!(human(1.0, true), "1");
        assert_eq!(human(27_000.0, true), "27 k");
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
