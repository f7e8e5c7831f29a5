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
    let body = body.replace('_', "");
    // Only plain decimal notation: no "inf", "NaN" or hex that `f64::from_str` would accept.
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
