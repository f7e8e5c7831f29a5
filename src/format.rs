//! Numbers as people read them: dollars, token volumes, rates, shares. The one formatter of
//! servecost: the page, the charts (their ticks too), the embed, the exports and the messages
//! all write numbers through it. Thousands are grouped by commas, a suffix or `%` follows a
//! no-break space (so the two never part at a line end), negatives take the minus sign (−), and
//! no figure shows float noise. The link syntax (`20M`, `0.85`) is another thing: see
//! [`crate::codec`].

/// `$12,345` (no cents from $100), `$5.71`, `$0.0205` below a dollar; `?` for a figure that is
/// not a number (none should reach a person).
pub fn usd(v: f64) -> String {
    let mut out = String::with_capacity(16);
    push_usd(&mut out, v);
    out
}

/// [`usd`], written at the end of `out`: for text made of many figures (a chart's hover
/// values), without a string for each.
pub fn push_usd(out: &mut String, v: f64) {
    dollars(out, v, 99.995);
}

/// Dollars: whole dollars from `whole` up, cents from a dollar, three significant digits below;
/// `?` for a figure that is not a number. The thresholds are where the rounding lands: $99.996
/// is $100, $0.9996 is $1.00.
fn dollars(out: &mut String, v: f64, whole: f64) {
    if !v.is_finite() {
        out.push('?');
        return;
    }
    if v < 0.0 {
        out.push('−');
        return dollars(out, -v, whole);
    }
    if v >= whole {
        out.push('$');
        push_grouped(out, v.round());
    } else if v >= 0.9995 {
        out.push('$');
        // Cents always show: `$5.70`, not `$5.7`.
        let start = out.len();
        if push_fixed(out, v, 2) {
            let cents = match out[start..].split_once('.') {
                None => {
                    out.push('.');
                    2
                }
                Some((_, f)) => 2 - f.len(),
            };
            for _ in 0..cents {
                out.push('0');
            }
        } else {
            out.push_str(&format!("{v:.2}"));
        }
    } else if v == 0.0 {
        out.push_str("$0");
    } else {
        out.push('$');
        let start = out.len();
        push_significant(out, v, 3);
        // From ten cents, cents always show, as above a dollar: `$0.50` beside `$2.00`.
        if v >= 0.1 {
            let decimals = out[start..].split_once('.').map_or(0, |(_, f)| f.len());
            if decimals == 0 {
                out.push('.');
            }
            for _ in decimals..2 {
                out.push('0');
            }
        }
    }
}

/// Dollars in short, for axis ticks: `$0`, `$0.1`, `$10`, `$850`, `$8.5 k`, `$1.2 M`, `−$60 k`
/// (no trailing zeros, three significant digits at most).
pub fn usd_short(v: f64) -> String {
    if v < 0.0 {
        return format!("−{}", usd_short(-v));
    }
    let mut out = String::with_capacity(12);
    out.push('$');
    if v < 1_000.0 {
        push_significant(&mut out, v, 3);
    } else {
        push_tokens(&mut out, v);
    }
    out
}

/// $ per million tokens with enough digits to tell small figures apart (cents up to $1,000).
pub fn per_mtok(v: f64) -> String {
    let mut out = String::with_capacity(16);
    dollars(&mut out, v, 999.995);
    out
}

/// `27.2 B`, `810 M`, `180 k`: the suffix after a no-break space, so the two never part.
pub fn tokens(v: f64) -> String {
    let mut out = String::with_capacity(12);
    push_tokens(&mut out, v);
    out
}

/// [`tokens`], written at the end of `out`.
pub fn push_tokens(out: &mut String, v: f64) {
    let (scaled, suffix) = token_units(v);
    if scaled.abs() >= 1_000.0 {
        push_grouped(out, scaled.round());
    } else {
        push_significant(out, scaled, 3);
    }
    out.push_str(suffix);
}

/// `v` in the unit [`tokens`] writes it in, and that unit's suffix. The suffix is chosen after
/// rounding: 999.7 B is 1 T.
fn token_units(v: f64) -> (f64, &'static str) {
    let v = if v.abs() < 1e15 {
        round_significant(v, 3)
    } else {
        v
    };
    if v.abs() >= 1e12 {
        (v / 1e12, "\u{a0}T")
    } else if v.abs() >= 1e9 {
        (v / 1e9, "\u{a0}B")
    } else if v.abs() >= 1e6 {
        (v / 1e6, "\u{a0}M")
    } else if v.abs() >= 1e3 {
        (v / 1e3, "\u{a0}k")
    } else {
        (v, "")
    }
}

/// A count of GPUs: `1 GPU`, `8 GPUs`.
pub fn gpus(n: f64) -> String {
    if n == 1.0 {
        "1 GPU".to_owned()
    } else {
        format!("{} GPUs", number(n))
    }
}

/// A plain number: thousands separated, up to 3 significant digits below 1,000.
pub fn number(v: f64) -> String {
    // 999.7 rounds to 1,000: grouped like any thousand.
    if v.abs() >= 999.5 {
        thousands(v)
    } else {
        significant(v, 3)
    }
}

/// A share to a tenth of a percent, without a trailing `.0`: `13.4 %`, `41 %`.
pub fn percent_precise(v: f64) -> String {
    if v < 0.0 {
        return format!("−{}", percent_precise(-v));
    }
    let text = format!("{:.1}", v * 100.0);
    let text = text.strip_suffix(".0").unwrap_or(&text);
    format!("{text}\u{a0}%")
}

/// A rate that may be negative, to three significant digits: `8 %`, `−20 %`, `2.5 %`.
pub fn percent_signed(v: f64) -> String {
    let text = significant(v * 100.0, 3);
    format!("{text}\u{a0}%")
}

/// A rate of change to four significant digits, a minus sign for a fall: `151.8 %`, `−0.6434 %`.
pub fn percent_rate(v: f64) -> String {
    if v < 0.0 {
        return format!("−{}", percent_rate(-v));
    }
    let pct = v * 100.0;
    if pct >= 999.5 {
        format!("{}\u{a0}%", thousands(pct))
    } else {
        format!("{}\u{a0}%", significant(pct, 4))
    }
}

/// A share of demand, with a decimal below 10 %: `1.2 %`, `35 %`.
pub fn percent_share(v: f64) -> String {
    if v < 0.1 {
        format!("{}\u{a0}%", significant(v * 100.0, 2))
    } else {
        percent(v)
    }
}

/// A share as `41 %` (a no-break space before the sign).
pub fn percent(v: f64) -> String {
    if v < 0.0 {
        return format!("−{}", percent(-v));
    }
    format!("{:.0}\u{a0}%", v * 100.0)
}

/// A share of a sample, written no more precisely than its standard error `se`: `more than
/// 99 %`, `less than 1 %`, or `about 62 %`, rounded to a step of 1, 2, 5 or 10 points, the
/// first at least twice the standard error.
pub fn share_about(p: f64, se: f64) -> String {
    if p >= ALMOST_ALL {
        return "more than 99\u{a0}%".to_owned();
    }
    if p <= ALMOST_NONE {
        return "less than 1\u{a0}%".to_owned();
    }
    format!("about {}", percent(rounded_share(p, se)))
}

/// Shares written as "more than 99 %" and "less than 1 %" ([`share_about`]).
const ALMOST_ALL: f64 = 0.995;
const ALMOST_NONE: f64 = 0.005;

/// `p` rounded to a step of 1, 2, 5 or 10 points, the first at least twice `se`, kept within
/// 1 % and 99 %.
fn rounded_share(p: f64, se: f64) -> f64 {
    let step = [0.01, 0.02, 0.05, 0.1]
        .into_iter()
        .find(|step| *step >= 2.0 * se)
        .unwrap_or(0.1);
    ((p / step).round() * step).clamp(0.01, 0.99)
}

/// The rest of a sample beside a share `p` written by [`share_about`] with error `se`, written
/// so that the two add up as printed: `about 12 %` beside `about 88 %` (where rounding each on
/// its own could give 88 and 14 on a half step), `less than 1 %` beside `more than 99 %`.
pub fn rest_about(p: f64, se: f64) -> String {
    if p >= ALMOST_ALL {
        return "less than 1\u{a0}%".to_owned();
    }
    if p <= ALMOST_NONE {
        return "more than 99\u{a0}%".to_owned();
    }
    format!("about {}", percent(1.0 - rounded_share(p, se)))
}

/// The standard error of a share `p` of `n` draws.
pub fn share_se(p: f64, n: f64) -> f64 {
    if n > 0.0 {
        (p * (1.0 - p) / n).sqrt()
    } else {
        0.0
    }
}

/// `1,234,567`: `v` rounded to a whole number, grouped.
pub fn thousands(v: f64) -> String {
    grouped(v.round())
}

/// [`significant`] written at the end of `out`.
fn push_significant(out: &mut String, v: f64, digits: i32) {
    if v == 0.0 {
        out.push('0');
    } else if !v.is_finite() {
        out.push('?');
    } else if v < 0.0 {
        out.push('−');
        push_significant(out, -v, digits);
    } else {
        let magnitude = v.abs().log10().floor() as i32;
        let decimals = (digits - 1 - magnitude).max(0) as usize;
        if !push_fixed(out, v, decimals) {
            let text = format!("{v:.decimals$}");
            if text.contains('.') {
                out.push_str(text.trim_end_matches('0').trim_end_matches('.'));
            } else {
                out.push_str(&text);
            }
        }
    }
}

/// `v` rounded to `digits` significant digits.
pub fn round_significant(v: f64, digits: i32) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    // Multiply or divide by an exact power of ten: 1e-9 is not one.
    let power = digits - 1 - v.abs().log10().floor() as i32;
    if power >= 0 {
        let scale = 10f64.powi(power);
        (v * scale).round() / scale
    } else {
        let scale = 10f64.powi(-power);
        (v / scale).round() * scale
    }
}

/// `v` with `digits` significant digits, trailing zeros dropped; `?` for a figure that is not a
/// number.
pub fn significant(v: f64, digits: i32) -> String {
    let mut out = String::with_capacity(12);
    push_significant(&mut out, v, digits);
    out
}

/// `format!("{v:.decimals$}")` without its trailing zeros (nor a bare point), written at the
/// end of `out`, for a non-negative `v`, the way a page writes hundreds of figures: through a
/// whole number of units of the last decimal. False, with nothing written, when that could
/// round otherwise than the exact decimal expansion `format!` rounds (a product within a
/// billionth of a half, or too large to be whole exactly): the caller formats those the slow
/// way.
fn push_fixed(out: &mut String, v: f64, decimals: usize) -> bool {
    // Powers of ten up to 10^15 are exact, and one product is one rounding.
    const POW10: [f64; 16] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    ];
    let Some(power) = POW10.get(decimals) else {
        return false;
    };
    let scaled = v * power;
    if !(scaled < 4e15) {
        return false;
    }
    let whole = scaled.floor();
    if ((scaled - whole) - 0.5).abs() < 1e-9 {
        return false;
    }
    let mut units = scaled.round() as u64;
    // The digits, last first.
    let mut digits = [0u8; 24];
    let mut n = 0;
    while units > 0 || n <= decimals {
        digits[n] = b'0' + (units % 10) as u8;
        units /= 10;
        n += 1;
    }
    // Trailing zeros of the fraction go.
    let mut first = 0;
    while first < decimals && digits[first] == b'0' {
        first += 1;
    }
    for i in (decimals..n).rev() {
        out.push(char::from(digits[i]));
    }
    if first < decimals {
        out.push('.');
        for i in (first..decimals).rev() {
            out.push(char::from(digits[i]));
        }
    }
    true
}

/// A bound or an echoed value exactly as given, for messages: thousands grouped (`10,000`),
/// with a `k`/`M`/`B`/`T` suffix when `suffixes` (`10,000 T`, at most three decimals after a
/// suffix), the fraction as written (`0.00000001`), never in exponent notation.
pub fn exact(value: f64, suffixes: bool) -> String {
    if !value.is_finite() {
        return String::from("?");
    }
    if suffixes && value.abs() >= 1e3 {
        for (s, scale) in [("T", 1e12), ("B", 1e9), ("M", 1e6), ("k", 1e3)] {
            let scaled = value / scale;
            if scaled.abs() >= 1.0 {
                let rounded = (scaled * 1e3).round() / 1e3;
                return format!("{}\u{a0}{s}", grouped(rounded));
            }
        }
    }
    grouped(value)
}

/// A share exactly as given, for messages: `−90 %`, `1,000 %`, `0.5 %`.
pub fn exact_percent(share: f64) -> String {
    // Hundredths read back exactly: 0.07 shows as 7, not 7.000000000000001.
    let pct = (share * 100.0 * 1e9).round() / 1e9;
    format!("{}\u{a0}%", exact(pct, false))
}

/// Thousands separators on the whole part; the fraction as Rust prints it (shortest exact).
fn grouped(value: f64) -> String {
    let mut out = String::with_capacity(16);
    push_grouped(&mut out, value);
    out
}

/// [`grouped`] written at the end of `out`.
fn push_grouped(out: &mut String, value: f64) {
    if value < 0.0 {
        out.push('−');
    }
    // A whole number below 2^53 prints as its digits: group them without the float printer.
    if value.fract() == 0.0 && value.abs() < 9.0e15 {
        let mut units = value.abs() as u64;
        let mut digits = [0u8; 20];
        let mut n = 0;
        loop {
            digits[n] = b'0' + (units % 10) as u8;
            units /= 10;
            n += 1;
            if units == 0 {
                break;
            }
        }
        for i in (0..n).rev() {
            out.push(char::from(digits[i]));
            if i > 0 && i % 3 == 0 {
                out.push(',');
            }
        }
        return;
    }
    let text = format!("{}", value.abs());
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
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
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 1,044 holding draws of 1,200 sit on a half step: each share rounded alone would read
    /// 88 % and 14 %; the rest of the sample is written from the holding share's figure.
    #[test]
    fn gpus_are_counted_in_the_singular_for_one() {
        assert_eq!(gpus(1.0), "1 GPU");
        assert_eq!(gpus(8.0), "8 GPUs");
        assert_eq!(gpus(1024.0), "1,024 GPUs");
    }

    #[test]
    fn the_rest_of_a_sample_adds_up_with_its_share_as_printed() {
        let n = 1_200.0;
        let p = 1_044.0 / n;
        let se = share_se(p, n);
        assert_eq!(share_about(p, se), "about 88\u{a0}%");
        assert_eq!(
            share_about(1.0 - p, share_se(1.0 - p, n)),
            "about 14\u{a0}%"
        );
        assert_eq!(rest_about(p, se), "about 12\u{a0}%");
        assert_eq!(rest_about(0.997, 0.001), "less than 1\u{a0}%");
        assert_eq!(rest_about(0.002, 0.001), "more than 99\u{a0}%");
        for k in 0..=1_200u32 {
            let p = f64::from(k) / n;
            let (a, b) = (
                share_about(p, share_se(p, n)),
                rest_about(p, share_se(p, n)),
            );
            let figure = |t: &str| {
                t.strip_prefix("about ")
                    .and_then(|t| t.trim_end_matches("\u{a0}%").parse::<u32>().ok())
            };
            if let (Some(a), Some(b)) = (figure(&a), figure(&b)) {
                assert_eq!(a + b, 100, "{k}: {a} + {b}");
            }
        }
    }

    use proptest::strategy::Strategy;

    /// The figures as they were written before the fast paths: `format!` for every one.
    fn significant_reference(v: f64, digits: i32) -> String {
        if v == 0.0 {
            return "0".to_owned();
        }
        if !v.is_finite() {
            return "?".to_owned();
        }
        if v < 0.0 {
            return format!("−{}", significant_reference(-v, digits));
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

    fn dollars_reference(v: f64, whole: f64) -> String {
        if !v.is_finite() {
            return "?".to_owned();
        }
        if v < 0.0 {
            return format!("−{}", dollars_reference(-v, whole));
        }
        if v >= whole {
            format!("${}", grouped_reference(v.round()))
        } else if v >= 0.9995 {
            format!("${v:.2}")
        } else if v == 0.0 {
            "$0".to_owned()
        } else {
            let text = significant_reference(v, 3);
            // From ten cents, cents always show.
            if v >= 0.1 {
                let decimals = text.split_once('.').map_or(0, |(_, f)| f.len());
                let point = if decimals == 0 { "." } else { "" };
                format!(
                    "${text}{point}{}",
                    "0".repeat(2usize.saturating_sub(decimals))
                )
            } else {
                format!("${text}")
            }
        }
    }

    /// The units are as before; the number in them is written the slow way.
    fn tokens_reference(v: f64) -> String {
        let (scaled, suffix) = token_units(v);
        if scaled.abs() >= 1_000.0 {
            return format!("{}{suffix}", grouped_reference(scaled.round()));
        }
        format!("{}{suffix}", significant_reference(scaled, 3))
    }

    fn usd_short_reference(v: f64) -> String {
        if v < 0.0 {
            return format!("−{}", usd_short_reference(-v));
        }
        if v < 1_000.0 {
            format!("${}", significant_reference(v, 3))
        } else {
            format!("${}", tokens_reference(v))
        }
    }

    fn grouped_reference(value: f64) -> String {
        let text = format!("{}", value.abs());
        let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
        let mut out = String::new();
        if value < 0.0 {
            out.push('−');
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

    proptest::proptest! {
        /// The fast paths write what `format!` wrote, digit for digit, on every scale the
        /// page shows and on the halves where rounding could part them.
        #[test]
        fn fast_figures_are_formats_figures(
            v in proptest::prop_oneof![
                0.0f64..1.0,
                1.0f64..1e4,
                1e4f64..1e15,
                proptest::num::f64::POSITIVE | proptest::num::f64::NEGATIVE,
                (0u64..1_000_000).prop_map(|n| n as f64 / 1000.0 + 0.0005),
                (0u64..100_000).prop_map(|n| n as f64 / 100.0 + 0.005),
            ],
            digits in 1i32..5,
        ) {
            proptest::prop_assert_eq!(significant(v, digits), significant_reference(v, digits));
            proptest::prop_assert_eq!(grouped(v.round()), grouped_reference(v.round()));
            proptest::prop_assert_eq!(grouped(v), grouped_reference(v));
            if v.is_finite() && (0.9995..99.995).contains(&v) {
                proptest::prop_assert_eq!(usd(v), format!("${v:.2}"));
            }
            proptest::prop_assert_eq!(usd(v), dollars_reference(v, 99.995));
            proptest::prop_assert_eq!(per_mtok(v), dollars_reference(v, 999.995));
            proptest::prop_assert_eq!(tokens(v), tokens_reference(v));
            proptest::prop_assert_eq!(usd_short(v), usd_short_reference(v));
        }
    }

    /// Every thousandth and its half-way neighbours up to 200, where rounding to two or three
    /// digits is decided: the fast path and `format!` agree on each.
    #[test]
    fn halves_round_as_format_rounds() {
        for n in 0..200_000u32 {
            for v in [f64::from(n) / 1000.0, f64::from(n) / 1000.0 + 0.0005] {
                for digits in [2, 3] {
                    assert_eq!(
                        significant(v, digits),
                        significant_reference(v, digits),
                        "{v}"
                    );
                }
                if (0.9995..99.995).contains(&v) {
                    assert_eq!(usd(v), format!("${v:.2}"), "{v}");
                }
            }
        }
    }

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
        assert_eq!(per_mtok(0.5), "$0.50");
        assert_eq!(per_mtok(0.1), "$0.10");
        assert_eq!(per_mtok(0.125), "$0.125");
        assert_eq!(per_mtok(0.05), "$0.05");
        assert_eq!(per_mtok(0.00125), "$0.00125");
        assert_eq!(thousands(1_234_567.0), "1,234,567");
        assert_eq!(percent(0.4123), "41\u{a0}%");
        assert_eq!(thousands(-1_234.0), "−1,234");
        assert_eq!(thousands(-0.4), "0");
        assert_eq!(number(999.7), "1,000");
        assert_eq!(tokens(999.7e9), "1\u{a0}T");
        assert_eq!(usd(99.996), "$100");
        assert_eq!(usd(0.9996), "$1.00");
        assert_eq!(usd(f64::NAN), "?");
        assert_eq!(per_mtok(-1.5), "−$1.50");
        assert_eq!(per_mtok(1_234.5), "$1,235");
        assert_eq!(significant(-0.25, 2), "−0.25");
        assert_eq!(exact(1e16, true), "10,000\u{a0}T");
        assert_eq!(exact(1e13, true), "10\u{a0}T");
        assert_eq!(exact(1_000.0, false), "1,000");
        assert_eq!(exact(1e-8, false), "0.00000001");
        assert_eq!(exact(-0.9, false), "−0.9");
        assert_eq!(exact(27_000.0, true), "27\u{a0}k");
        assert_eq!(exact_percent(-0.9), "−90\u{a0}%");
        assert_eq!(exact_percent(0.07), "7\u{a0}%");
    }
}
