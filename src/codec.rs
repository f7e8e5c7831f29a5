//! The scenario codec: a link's query string to a validated [`Scenario`] and back.
//!
//! Versioned by `v=1`; parameters at their default are left out so links stay short; every
//! problem is reported at once, each naming the parameter, the value and the accepted range;
//! unknown parameters come back as warnings rather than being dropped silently.

mod number;
mod read;
mod write;

pub use number::{
    read as read_number, rounded as write_rounded, significant as write_significant,
    write as write_number,
};
pub use read::{
    decode, is_known, parse, parse_checked, parse_lenient, Parsed, Refused, OTHER_CHIP, OWN_CURVE,
};
pub use write::{canonical_query, to_query};

/// The codec version written into every link.
pub const VERSION: u32 = 1;

/// A numeric parameter: its name, meaning, unit and accepted range.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NumSpec {
    /// Query parameter.
    pub name: &'static str,
    /// What it means, for labels and docs.
    pub label: &'static str,
    /// Unit, for labels and docs.
    pub unit: &'static str,
    /// Smallest accepted value.
    pub min: f64,
    /// Largest accepted value.
    pub max: f64,
    /// Smallest positive value accepted when `min` is 0: a value between 0 and this means
    /// nothing (less than a token a month, less than a millionth of a cent) and is refused, so
    /// that no answer is computed on figures hundreds of orders of magnitude apart.
    pub least: f64,
    /// Accepts `k`, `M`, `B`, `T` suffixes.
    pub suffixes: bool,
    /// Accepts a trailing `%`.
    pub percent: bool,
    /// Must be a whole number.
    pub whole: bool,
}

const fn num(
    name: &'static str,
    label: &'static str,
    unit: &'static str,
    min: f64,
    max: f64,
) -> NumSpec {
    NumSpec {
        name,
        label,
        unit,
        min,
        max,
        least: 0.0,
        suffixes: false,
        percent: false,
        whole: false,
    }
}

const fn vol(
    name: &'static str,
    label: &'static str,
    unit: &'static str,
    min: f64,
    max: f64,
) -> NumSpec {
    NumSpec {
        suffixes: true,
        ..num(name, label, unit, min, max)
    }
}

/// `spec` with the smallest meaningful positive value `least`.
const fn least(spec: NumSpec, least: f64) -> NumSpec {
    NumSpec { least, ..spec }
}

/// Smallest positive count: a token (or a request).
const ONE: f64 = 1.0;

/// A count of tokens or requests from 0 to `max`, suffixes accepted, none between 0 and one.
const fn counted(name: &'static str, label: &'static str, unit: &'static str, max: f64) -> NumSpec {
    least(vol(name, label, unit, 0.0, max), ONE)
}
/// Smallest positive price in $: a millionth of a cent.
const MICRO_CENT: f64 = 1e-8;
/// Smallest positive share: a millionth.
const MILLIONTH: f64 = 1e-6;

const fn share(name: &'static str, label: &'static str, max: f64) -> NumSpec {
    NumSpec {
        percent: true,
        least: MILLIONTH,
        ..num(name, label, "fraction (or %)", 0.0, max)
    }
}

/// A yearly rate of change from `min` to `max`, negative for a fall, `%` accepted.
const fn yearly(name: &'static str, label: &'static str, min: f64, max: f64) -> NumSpec {
    NumSpec {
        percent: true,
        ..num(name, label, "per year (or %)", min, max)
    }
}

const fn whole(
    name: &'static str,
    label: &'static str,
    unit: &'static str,
    min: f64,
    max: f64,
) -> NumSpec {
    NumSpec {
        whole: true,
        ..num(name, label, unit, min, max)
    }
}

/// Every numeric parameter, with its accepted range.
pub const NUMBERS: &[NumSpec] = &[
    counted("tokens", "All tokens per month", "tokens/month", 1e16),
    counted(
        "input",
        "Uncached input tokens per month",
        "tokens/month",
        1e16,
    ),
    counted(
        "cached",
        "Cached input tokens per month",
        "tokens/month",
        1e16,
    ),
    counted("output", "Output tokens per month", "tokens/month", 1e16),
    counted("requests", "Requests per month", "requests/month", 1e13),
    counted(
        "input_per_request",
        "Input tokens per request",
        "tokens",
        1e7,
    ),
    share("cache_hit", "Share of input served from cache", 1.0),
    counted(
        "output_per_request",
        "Output tokens per request",
        "tokens",
        1e6,
    ),
    num(
        "tps",
        "Output speed per user to sustain",
        "tokens/s per user",
        0.1,
        10_000.0,
    ),
    least(
        num("price_in", "API input price", "$/M tokens", 0.0, 1_000.0),
        MICRO_CENT,
    ),
    least(
        num("price_out", "API output price", "$/M tokens", 0.0, 1_000.0),
        MICRO_CENT,
    ),
    share("cache_discount", "API discount on cached input", 1.0),
    share("markup", "Router markup", 10.0),
    num("gpu_hour", "GPU-hour price", "$/GPU-hour", 0.01, 1_000.0),
    whole("replica", "GPUs per replica", "GPUs", 1.0, 4_096.0),
    vol(
        "prefill",
        "Prefill rate P",
        "uncached input tokens/s per GPU",
        1.0,
        1e8,
    ),
    share("cache_cost", "Cache-hit cost ratio k", 1.0),
    NumSpec {
        min: 0.05,
        ..share("util", "Target utilisation at peak", 1.0)
    },
    whole("redundancy", "Spare replicas", "replicas", 0.0, 1_000.0),
    whole(
        "min_replicas",
        "Minimum replicas",
        "replicas",
        0.0,
        10_000.0,
    ),
    least(
        num("ops_fte", "Operations staff", "FTE", 0.0, 1_000.0),
        0.001,
    ),
    least(
        vol("fte_cost", "Loaded cost per FTE", "$/year", 0.0, 1e7),
        0.01,
    ),
    least(
        vol("ops_monthly", "Other fixed costs", "$/month", 0.0, 1e9),
        0.01,
    ),
    num(
        "ops_gpus_per_fte",
        "GPUs one more operations FTE looks after",
        "GPUs per FTE",
        1.0,
        1e6,
    ),
    share(
        "overflow_warm",
        "Share of the overflow's cached input the API still has cached",
        1.0,
    ),
    vol("capex", "Purchase price per GPU", "$/GPU", 1.0, 1e7),
    num("years", "Paid off over", "years", 1.0, 15.0),
    share("rate", "Cost of capital", 1.0),
    num("kw", "All-in power per GPU", "kW", 0.01, 100.0),
    num("pue", "Power usage effectiveness", "ratio", 1.0, 3.0),
    least(
        num("kwh", "Electricity price", "$/kWh", 0.0, 10.0),
        MICRO_CENT,
    ),
    least(
        num("colo", "Facility charge", "$/kW-month", 0.0, 10_000.0),
        0.01,
    ),
    share("maint", "Maintenance per year", 1.0),
    num("bill", "API bill last month", "$/month", 0.01, 1e10),
    vol(
        "headline",
        "Published headline to decode",
        "tokens/s per MW",
        1.0,
        1e12,
    ),
    whole(
        "draws",
        "Draws of the uncertainty sample at most (it stops once its shares are known within one point)",
        "draws",
        0.0,
        10_000.0,
    ),
    num(
        "u_prefill",
        "Range of the prefill rate P: ×1/f to ×f",
        "times",
        1.0,
        100.0,
    ),
    num(
        "u_cache_cost",
        "Range of the cache-hit cost ratio k: ×1/f to ×f",
        "times",
        1.0,
        100.0,
    ),
    share(
        "u_curve_mix",
        "Range of an assumed curve mix: share of the way to the other reading",
        1.0,
    ),
    share(
        "u_haircut",
        "Range of the haircut on a vendor's curve: throughput ×(1 − h) to ×1",
        0.9,
    ),
    share(
        "u_curves",
        "Share of the spread between curves of the model on chips of one family",
        1.0,
    ),
    num(
        "u_gpu_hour",
        "Range of the GPU-hour price: ×1/f to ×f (default by the price's kind)",
        "times",
        1.0,
        10.0,
    ),
    share(
        "u_util",
        "Range of the target utilisation: ± this step",
        0.5,
    ),
    num(
        "u_api",
        "Range of the API prices: ×1/f to ×f",
        "times",
        1.0,
        10.0,
    ),
    share(
        "tie",
        "Tie threshold: plans within this share of the cheapest's monthly bill cost the same",
        0.2,
    ),
    whole("horizon", "Years ahead", "years", 1.0, 5.0),
    yearly("growth", "Growth of the monthly volume", -0.9, 10.0),
    yearly("api_trend", "Change of API prices", -0.9, 1.0),
    yearly("gpu_trend", "Change of GPU-hour prices", -0.9, 1.0),
    share("discount_rate", "Discount rate per year", 1.0),
    share(
        "residual",
        "Value of owned GPUs at the horizon's end, share of their price",
        1.0,
    ),
];

/// A point's throughput, in `points` and in an imported curve point: the range both take.
pub const POINT_THROUGHPUT: NumSpec = vol(
    "tokens_per_s_per_gpu",
    "Throughput of a point",
    "tokens/s per GPU",
    0.001,
    1e9,
);

/// The parameters of the plan over the years.
pub const PLAN_PARAMS: [&str; 6] = [
    "horizon",
    "growth",
    "api_trend",
    "gpu_trend",
    "discount_rate",
    "residual",
];

impl NumSpec {
    /// Whether `v` is accepted: within the range, whole when it must be, and either 0 or at
    /// least [`NumSpec::least`].
    pub fn accepts(&self, v: f64) -> bool {
        v.is_finite()
            && v >= self.min
            && v <= self.max
            && (!self.whole || v.fract() == 0.0)
            && (v == 0.0 || v.abs() >= self.least)
    }

    /// The accepted values in words, numbers written as the page writes them, e.g. `0, or a
    /// number from 1 to 10,000 T tokens/month (k, M, B, T suffixes accepted)`.
    pub fn range_text(&self) -> String {
        let kind = if self.whole {
            "a whole number"
        } else {
            "a number"
        };
        let show = |v: f64| crate::format::exact(v, self.suffixes);
        let mut text = if self.min == 0.0 && self.least > 0.0 {
            format!(
                "0, or {kind} from {} to {} {}",
                show(self.least),
                show(self.max),
                self.unit
            )
        } else {
            format!(
                "{kind} from {} to {} {}",
                show(self.min),
                show(self.max),
                self.unit
            )
        };
        if self.suffixes {
            text.push_str(" (k, M, B, T suffixes accepted)");
        }
        if self.percent && self.min < 0.0 {
            let pct = crate::format::exact_percent;
            text.push_str(&format!(" ({} to {})", pct(self.min), pct(self.max)));
        } else if self.percent && !self.unit.contains('%') {
            text.push_str(" (or a percentage such as 40%)");
        }
        text
    }
}

/// The spec of a numeric parameter.
pub fn spec(name: &str) -> Option<&'static NumSpec> {
    NUMBERS.iter().find(|s| s.name == name)
}

/// The parameters of each way to give the workload; a link uses one form only.
pub mod forms {
    /// All tokens and their mix.
    pub const MIX: [&str; 2] = ["tokens", "mix"];
    /// Each class's monthly total.
    pub const TOTALS: [&str; 3] = ["input", "cached", "output"];
    /// Requests with a per-request shape (or a preset).
    pub const SHAPE: [&str; 5] = [
        "requests",
        "workload",
        "input_per_request",
        "cache_hit",
        "output_per_request",
    ];
}

/// The parameters of the sureness sample: its number of draws and the width of each range.
pub const RANGE_PARAMS: [&str; 10] = [
    "draws",
    "u_prefill",
    "u_cache_cost",
    "u_curve_mix",
    "u_haircut",
    "u_curves",
    "u_gpu_hour",
    "u_util",
    "u_api",
    "tie",
];

/// Words `hybrid` and `own` accept for on.
pub const FLAG_ON: [&str; 4] = ["1", "true", "on", "yes"];
/// Words `hybrid` and `own` accept for off.
pub const FLAG_OFF: [&str; 4] = ["0", "false", "off", "no"];
/// Values of `scaling`.
pub const SCALING: [&str; 2] = ["fixed", "hourly"];

/// The syntax of the parameters whose values are text, as regular expressions that ECMA-262 (the
/// OpenAPI document's dialect) and Python's `re` read alike, for the API document. The codec
/// checks the same syntax by hand (the engine carries no regex engine into the browser); a
/// server test holds the two together. Digits are `[0-9]`, never `\d`, which would also match
/// other scripts' digits. Ranges inside composite values (a point's speed, a mix that sums to
/// nothing) are checked beyond the syntax and answered 422.
pub mod syntax {
    /// A dataset id: `model`, `api`, `curve`, `chip`.
    pub const ID: &str = "^[A-Za-z0-9._-]{1,64}$";
    /// `mix` and `curve_mix`: three non-negative numbers (or percentages) `input:cached:output`.
    pub const MIX: &str = "^(?:[0-9]{1,20}(?:\\.[0-9]{1,20})?(?:[eE][+-]?[0-9]{1,2})?%?)(?::(?:[0-9]{1,20}(?:\\.[0-9]{1,20})?(?:[eE][+-]?[0-9]{1,2})?%?)){2}$";
    /// `profile`: a preset, or 24 or 168 weights from 0 to 1,000,000.
    pub const PROFILE: &str = "^(?:flat|business|diurnal|(?:[0-9]{1,6}(?:\\.[0-9]{1,20})?|1000000)(?:,(?:[0-9]{1,6}(?:\\.[0-9]{1,20})?|1000000)){23}|(?:[0-9]{1,6}(?:\\.[0-9]{1,20})?|1000000)(?:,(?:[0-9]{1,6}(?:\\.[0-9]{1,20})?|1000000)){167})$";
    /// `chip_name`: 1 to 60 characters, none of them a control character.
    pub const NAME: &str = "^[^\\x00-\\x1F\\x7F-\\x9F]{1,60}$";
    /// `points`: 1 to 64 pairs `tps:tokens_per_s_per_gpu`, the throughput with an optional
    /// `k`/`M`/`B`/`T` suffix.
    pub const POINTS: &str = "^(?:[0-9]{1,20}(?:\\.[0-9]{1,20})?(?:[eE][+-]?[0-9]{1,2})?):(?:[0-9]{1,20}(?:\\.[0-9]{1,20})?(?:[eE][+-]?[0-9]{1,2})?[kKmMbBtT]?)(?:,(?:[0-9]{1,20}(?:\\.[0-9]{1,20})?(?:[eE][+-]?[0-9]{1,2})?):(?:[0-9]{1,20}(?:\\.[0-9]{1,20})?(?:[eE][+-]?[0-9]{1,2})?[kKmMbBtT]?)){0,63}$";
}

/// Parameters that are not numbers, with their accepted values.
pub const OTHERS: &[(&str, &str)] = &[
    ("v", "1"),
    ("model", "a model id from the dataset"),
    ("workload", "coding-agent, chat, rag or batch"),
    ("mix", "input:cached:output parts, e.g. 2:7:1"),
    (
        "profile",
        "flat, business, diurnal, or 24 or 168 comma-separated weights",
    ),
    ("api", "an API offer id from the dataset"),
    (
        "curve",
        "a curve id from the dataset, or own (your benchmark's points)",
    ),
    (
        "points",
        "tps:tokens_per_s_per_gpu pairs separated by commas",
    ),
    (
        "curve_mix",
        "input:cached:output parts the points were measured at",
    ),
    ("chip", "a chip id from the dataset, or other (with points)"),
    (
        "chip_name",
        "the name of a chip not in the dataset, 1 to 60 characters (with chip=other)",
    ),
    (
        "gpu_tier",
        "a price tier id of the chip from the dataset (e.g. costr)",
    ),
    (
        "gpu_kind",
        "on_demand, spot, reserved or owner_cost: what your own gpu_hour commits to (with gpu_hour)",
    ),
    (
        "scaling",
        "fixed or hourly (hourly only on on_demand or spot prices)",
    ),
    ("hybrid", "1 or 0"),
    ("own", "1 or 0"),
];

#[cfg(test)]
mod tests {
    #[test]
    fn the_crate_readme_documents_every_parameter() {
        let readme = include_str!("README.md");
        let names = super::NUMBERS
            .iter()
            .map(|s| s.name)
            .chain(super::OTHERS.iter().map(|(n, _)| *n));
        for name in names {
            assert!(
                readme.contains(&format!("`{name}`")),
                "{name} is not in src/README.md"
            );
        }
    }
}
