//! Numbers as people read them: dollars, token volumes, rates.

/// `$12,345` (no cents above $100), `$0.0205` below a dollar.
pub fn usd(v: f64) -> String {
    if v < 0.0 {
        return format!("−{}", usd(-v));
    }
    if v.abs() >= 100.0 {
        format!("${}", thousands(v.round()))
    } else if v.abs() >= 1.0 {
        format!("${v:.2}")
    } else if v == 0.0 {
        "$0".to_owned()
    } else {
        format!("${}", significant(v, 3))
    }
}

/// Dollars in short, for axis ticks: `$0`, `$0.1`, `$10`, `$850`, `$8.5 k`, `$1.2 M`, `−$60 k`
/// (no trailing zeros, three significant digits at most).
pub fn usd_short(v: f64) -> String {
    if v < 0.0 {
        return format!("−{}", usd_short(-v));
    }
    if v < 1_000.0 {
        format!("${}", significant(v, 3))
    } else {
        format!("${}", tokens(v))
    }
}

/// $ per million tokens with enough digits to tell small figures apart.
pub fn per_mtok(v: f64) -> String {
    if v.abs() >= 1.0 {
        format!("${v:.2}")
    } else if v == 0.0 {
        "$0".to_owned()
    } else {
        format!("${}", significant(v, 3))
    }
}

/// `27.2 B`, `810 M`, `180 k`: the suffix after a no-break space, so the two never part.
pub fn tokens(v: f64) -> String {
    let (scaled, suffix) = if v.abs() >= 1e12 {
        (v / 1e12, "\u{a0}T")
    } else if v.abs() >= 1e9 {
        (v / 1e9, "\u{a0}B")
    } else if v.abs() >= 1e6 {
        (v / 1e6, "\u{a0}M")
    } else if v.abs() >= 1e3 {
        (v / 1e3, "\u{a0}k")
    } else {
        (v, "")
    };
    if scaled.abs() >= 1_000.0 {
        return format!("{}{suffix}", thousands(scaled));
    }
    format!("{}{suffix}", significant(scaled, 3))
}

/// A plain number: thousands separated, up to 3 significant digits below 1,000.
pub fn number(v: f64) -> String {
    if v.abs() >= 1_000.0 {
        thousands(v)
    } else {
        significant(v, 3)
    }
}

/// A share to a tenth of a percent, without a trailing `.0`: `13.4 %`, `41 %`.
pub fn percent_precise(v: f64) -> String {
    let text = format!("{:.1}", v * 100.0);
    let text = text.strip_suffix(".0").unwrap_or(&text);
    format!("{text}\u{a0}%")
}

/// A share as `41 %` (a no-break space before the sign).
pub fn percent(v: f64) -> String {
    format!("{:.0}\u{a0}%", v * 100.0)
}

/// `1,234,567` for a whole number.
pub fn thousands(v: f64) -> String {
    let negative = v < 0.0;
    let digits = format!("{:.0}", v.abs());
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if negative {
        format!("−{out}")
    } else {
        out
    }
}

/// `v` with `digits` significant digits, trailing zeros dropped.
pub fn significant(v: f64, digits: i32) -> String {
    if v == 0.0 || !v.is_finite() {
        return "0".to_owned();
    }
    let magnitude = v.abs().log10().floor() as i32;
    let decimals = (digits - 1 - magnitude).max(0) as usize;
    let text = format!("{v:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(usd(14_932.53), "$14,933");
        assert_eq!(usd(5.706), "$5.71");
        assert_eq!(usd(0.0205), "$0.0205");
        assert_eq!(usd(-140_000.0), "−$140,000");
        assert_eq!(tokens(27.18e9), "27.2\u{a0}B");
        assert_eq!(tokens(810e6), "810\u{a0}M");
        assert_eq!(tokens(10e15), "10,000\u{a0}T");
        assert_eq!(usd_short(0.0), "$0");
        assert_eq!(usd_short(850.0), "$850");
        assert_eq!(usd_short(10.0), "$10");
        assert_eq!(usd_short(0.1), "$0.1");
        assert_eq!(usd_short(8_500.0), "$8.5\u{a0}k");
        assert_eq!(usd_short(-60_000.0), "−$60\u{a0}k");
        assert_eq!(usd_short(1.25e6), "$1.25\u{a0}M");
        assert_eq!(per_mtok(0.78), "$0.78");
        assert_eq!(per_mtok(0.00125), "$0.00125");
        assert_eq!(thousands(1_234_567.0), "1,234,567");
        assert_eq!(percent(0.4123), "41\u{a0}%");
        assert_eq!(thousands(-1_234.0), "−1,234");
    }
}
