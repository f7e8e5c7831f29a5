//! The table of every parameter of the link: one row each, in the order a link writes them.
//! A numeric row gives the parameter's name, meaning, unit, accepted range, part of the form and
//! the field of [`Scenario`](crate::Scenario) its value lives in.

use super::params::{NumSpec, Param, Resolved, Section, Slot, TextSpec};
use crate::report::Inputs;
use crate::workload::Workload;

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
        rate: false,
        whole: false,
        section: Section::SelfHosting,
        slot: None,
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
/// Smallest positive price in $: a millionth of a cent.
const MICRO_CENT: f64 = 1e-8;
/// Smallest positive share: a millionth.
const MILLIONTH: f64 = 1e-6;

/// A count of tokens or requests from 0 to `max`, suffixes accepted, none between 0 and one.
const fn counted(name: &'static str, label: &'static str, unit: &'static str, max: f64) -> NumSpec {
    least(vol(name, label, unit, 0.0, max), ONE)
}

/// A price in $ from 0 to `max`, none between 0 and a millionth of a cent.
const fn price(name: &'static str, label: &'static str, unit: &'static str, max: f64) -> NumSpec {
    least(num(name, label, unit, 0.0, max), MICRO_CENT)
}

const fn share(name: &'static str, label: &'static str, max: f64) -> NumSpec {
    NumSpec {
        percent: true,
        least: MILLIONTH,
        ..num(name, label, "fraction (or %)", 0.0, max)
    }
}

/// A yearly rate of change from `min` to `max`, negative for a fall, `%` accepted, and a
/// monthly rate (`8 %/month`).
const fn yearly(name: &'static str, label: &'static str, min: f64, max: f64) -> NumSpec {
    NumSpec {
        percent: true,
        rate: true,
        ..num(name, label, "a year, or %/month", min, max)
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

/// `spec` as a parameter of `section`, living in `slot`.
const fn at(spec: NumSpec, section: Section, slot: Slot) -> Param {
    Param::Number(NumSpec {
        section,
        slot: Some(slot),
        ..spec
    })
}

const fn text(
    name: &'static str,
    label: &'static str,
    accepted: &'static str,
    default: &'static str,
) -> Param {
    Param::Text(TextSpec {
        name,
        label,
        accepted,
        default,
    })
}

/// A field of the scenario that always has a value.
macro_rules! value {
    ($($f:ident).+) => {
        Slot::Value { get: |s| s.$($f).+, set: |s, v| s.$($f).+ = v }
    };
}

/// A field of the scenario that is `None` until given.
macro_rules! given {
    ($($f:ident).+) => {
        given!($($f).+; None)
    };
    ($($f:ident).+; $resolved:expr) => {
        Slot::Given { get: |s| s.$($f).+, set: |s, v| s.$($f).+ = Some(v), resolved: $resolved }
    };
}

/// A field of owned hardware.
macro_rules! owned {
    ($f:ident) => {
        Slot::Owned {
            get: |o| Some(o.$f),
            set: |o, v| o.$f = v,
        }
    };
}

/// A field of the workload's requests and their shape, at the preset's value.
macro_rules! shape {
    ($f:ident) => {
        Slot::Workload {
            get: |w| match w {
                Workload::Requests { shape, .. } => Some(shape.$f),
                _ => None,
            },
            default: |w| match w {
                Workload::Requests { preset, .. } => Some(preset.shape().$f),
                _ => None,
            },
            preset: true,
        }
    };
}

/// A class's monthly total (`input`, `cached`, `output`), always written in that form.
macro_rules! total {
    ($f:ident) => {
        Slot::Workload {
            get: |w| match w {
                Workload::Totals { $f, .. } => Some(*$f),
                _ => None,
            },
            default: |_| None,
            preset: false,
        }
    };
}

/// The report's figure `$value` of [`Inputs`], from the source `$source` names, described in
/// the docs as `$default`.
macro_rules! resolved {
    ($value:ident, $source:expr, $default:literal) => {
        Some(Resolved {
            value: |i| i.$value,
            source: $source,
            default: $default,
        })
    };
}

/// The API offer's source, when the price is the offer's.
fn offer_source(i: &Inputs) -> Option<&str> {
    i.api.as_ref().map(|_| i.api_source.as_str())
}

/// The GPU-hour range's factor by the price's kind, as the report applies it.
fn kind_spread(i: &Inputs) -> f64 {
    crate::decision::gpu_hour_spread(i.gpu_kind, i.owned_parts.is_some())
}

/// Every parameter of the link, in the order a link writes them.
pub const PARAMS: &[Param] = &[
    text(
        "v",
        "Link version",
        "1",
        "1",
    ),
    text(
        "model",
        "Model",
        "a model id from the dataset",
        "the dataset's first model",
    ),
    at(
        counted("tokens", "All tokens per month", "tokens/month", 1e16),
        Section::Workload,
        Slot::Workload {
            get: |w| match w {
                Workload::Mix { tokens, .. } => Some(*tokens),
                _ => None,
            },
            default: |_| None,
            preset: false,
        },
    ),
    text(
        "mix",
        "Monthly token mix with tokens",
        "input:cached:output parts, e.g. 2:7:1",
        "none",
    ),
    at(
        counted("input", "Uncached input tokens per month", "tokens/month", 1e16),
        Section::Workload,
        total!(input),
    ),
    at(
        counted("cached", "Cached input tokens per month", "tokens/month", 1e16),
        Section::Workload,
        total!(cached),
    ),
    at(
        counted("output", "Output tokens per month", "tokens/month", 1e16),
        Section::Workload,
        total!(output),
    ),
    text(
        "workload",
        "Per-request preset",
        "coding-agent, chat, rag or batch",
        "coding-agent",
    ),
    at(
        counted("requests", "Requests per month", "requests/month", 1e13),
        Section::Workload,
        Slot::Workload {
            get: |w| match w {
                Workload::Requests { requests, .. } => Some(*requests),
                _ => None,
            },
            default: |w| match w {
                Workload::Requests { .. } => Some(crate::scenario::defaults::REQUESTS),
                _ => None,
            },
            preset: false,
        },
    ),
    at(
        counted("input_per_request", "Input tokens per request", "tokens", 1e7),
        Section::Workload,
        shape!(input_per_request),
    ),
    at(
        share("cache_hit", "Share of input served from cache", 1.0),
        Section::Workload,
        shape!(cache_hit),
    ),
    at(
        counted("output_per_request", "Output tokens per request", "tokens", 1e6),
        Section::Workload,
        shape!(output_per_request),
    ),
    at(
        num("tps", "Output speed per user to sustain", "tokens/s per user", 0.1, 10_000.0),
        Section::Workload,
        given!(tps; resolved!(tps, |i| Some(i.tps_source.as_str()), "the API's measured speed")),
    ),
    at(
        share("batch", "Share of the tokens sent as batch traffic", 1.0),
        Section::Workload,
        value!(batch),
    ),
    text(
        "profile",
        "Weekly load",
        "flat, business, diurnal, peak hours at a multiple of the average (peak:3:9-17, :weekdays for Monday to Friday), or 24 or 168 comma-separated weights",
        "business",
    ),
    text(
        "api",
        "API offer",
        "an API offer id from the dataset",
        "the model's offer at the median list price (its first of one or two)",
    ),
    at(
        price("price_in", "API input price", "$/M tokens", 1_000.0),
        Section::Renting,
        given!(price_in; resolved!(price_in, offer_source, "the offer's")),
    ),
    at(
        price("price_out", "API output price", "$/M tokens", 1_000.0),
        Section::Renting,
        given!(price_out; resolved!(price_out, offer_source, "the offer's")),
    ),
    at(
        share("cache_discount", "API discount on cached input", 1.0),
        Section::Renting,
        given!(cache_discount; resolved!(cache_discount, offer_source, "the offer's")),
    ),
    at(
        share("markup", "Router markup", 10.0),
        Section::Renting,
        given!(markup; resolved!(markup, offer_source, "the offer's")),
    ),
    at(
        share("batch_discount", "API discount on batch tokens", 1.0),
        Section::Renting,
        given!(batch_discount; resolved!(batch_discount, offer_source, "the offer's (none when it states none)")),
    ),
    text(
        "curve",
        "Throughput curve",
        "a curve id from the dataset, or own (your benchmark's points)",
        "the model's first curve of its most trusted data tier",
    ),
    text(
        "points",
        "Your own benchmark's points",
        "tps:tokens_per_s_per_gpu pairs separated by commas",
        "none",
    ),
    text(
        "curve_mix",
        "Mix your own points were measured at",
        "input:cached:output parts the points were measured at",
        "required with points",
    ),
    text(
        "chip",
        "Chip of your own points",
        "a chip id from the dataset, or other (with points)",
        "the default curve's chip",
    ),
    at(
        whole("replica", "GPUs per replica", "GPUs", 1.0, 4_096.0),
        Section::SelfHosting,
        given!(replica; resolved!(replica_gpus, |i| Some(i.curve_source.as_str()), "the curve's (1 for your own points)")),
    ),
    at(
        num("gpu_hour", "GPU-hour price", "$/GPU-hour", 0.01, 1_000.0),
        Section::SelfHosting,
        given!(gpu_hour; resolved!(gpu_hour_usd, |i| Some(i.gpu_hour_source.as_str()), "the chip's price tier")),
    ),
    text(
        "gpu_kind",
        "What your own GPU-hour price commits to",
        "on_demand, spot, reserved or owner_cost: what your own gpu_hour commits to (with gpu_hour)",
        "on_demand",
    ),
    text(
        "gpu_tier",
        "Price tier of the chip",
        "a price tier id of the chip from the dataset (e.g. costr)",
        "the cheapest rentable tier of the chip's newest survey",
    ),
    at(
        vol(
            "prefill",
            "Prefill rate P",
            "uncached input tokens/s per GPU",
            1.0,
            1e8,
        ),
        Section::SelfHosting,
        given!(prefill; resolved!(prefill, |i| Some(i.prefill_source.as_str()), "the curve's own where its revision gives one, else 50,000")),
    ),
    at(
        share("cache_cost", "Cache-hit cost ratio k", 1.0),
        Section::SelfHosting,
        value!(cache_cost),
    ),
    at(
        NumSpec {
            min: 0.05,
            ..share("util", "Target utilisation at peak", 1.0)
        },
        Section::SelfHosting,
        value!(util),
    ),
    at(
        whole("redundancy", "Spare replicas", "replicas", 0.0, 1_000.0),
        Section::SelfHosting,
        value!(redundancy),
    ),
    at(
        whole("min_replicas", "Minimum replicas", "replicas", 0.0, 10_000.0),
        Section::SelfHosting,
        value!(min_replicas),
    ),
    text(
        "scaling",
        "Fleet sizing",
        "fixed or hourly (hourly only on on_demand or spot prices)",
        "fixed",
    ),
    text(
        "hybrid",
        "Search the cheapest split with API overflow",
        "1 or 0",
        "1",
    ),
    at(
        least(num("ops_fte", "Operations staff", "FTE", 0.0, 1_000.0), 0.001),
        Section::SelfHosting,
        value!(ops_fte),
    ),
    at(
        least(vol("fte_cost", "Loaded cost per FTE", "$/year", 0.0, 1e7), 0.01),
        Section::SelfHosting,
        value!(fte_cost),
    ),
    at(
        least(vol("ops_monthly", "Other fixed costs", "$/month", 0.0, 1e9), 0.01),
        Section::SelfHosting,
        value!(ops_monthly),
    ),
    at(
        num(
            "ops_gpus_per_fte",
            "GPUs one more operations FTE looks after",
            "GPUs per FTE",
            1.0,
            1e6,
        ),
        Section::SelfHosting,
        given!(ops_gpus_per_fte),
    ),
    at(
        share(
            "overflow_warm",
            "Share of the overflow's cached input the API still has cached",
            1.0,
        ),
        Section::Renting,
        value!(overflow_warm),
    ),
    text(
        "own",
        "Owned hardware instead of rented GPU-hours",
        "1 or 0",
        "0",
    ),
    at(
        vol("capex", "Purchase price per GPU", "$/GPU", 1.0, 1e7),
        Section::Owned,
        owned!(capex),
    ),
    at(
        num("years", "Paid off over", "years", 1.0, 15.0),
        Section::Owned,
        owned!(years),
    ),
    at(
        share("rate", "Cost of capital", 1.0),
        Section::Owned,
        owned!(rate),
    ),
    at(
        num("kw", "All-in power per GPU", "kW", 0.01, 100.0),
        Section::Owned,
        Slot::Owned {
            get: |o| o.kw,
            set: |o, v| o.kw = Some(v),
        },
    ),
    at(
        num("pue", "Power usage effectiveness", "ratio", 1.0, 3.0),
        Section::Owned,
        owned!(pue),
    ),
    at(
        price("kwh", "Electricity price", "$/kWh", 10.0),
        Section::Owned,
        owned!(kwh),
    ),
    at(
        least(num("colo", "Facility charge", "$/kW-month", 0.0, 10_000.0), 0.01),
        Section::Owned,
        owned!(colo),
    ),
    at(
        share("maint", "Maintenance per year", 1.0),
        Section::Owned,
        owned!(maint),
    ),
    at(
        vol(
            "headline",
            "Published headline to decode",
            "tokens/s per MW",
            1.0,
            1e12,
        ),
        Section::Decoder,
        given!(headline),
    ),
    at(
        num("bill", "API bill last month", "$/month", 0.01, 1e10),
        Section::Workload,
        given!(bill),
    ),
    text(
        "chip_name",
        "Name of a chip not in the dataset, for labels",
        "the name of a chip not in the dataset, 1 to 60 characters (with chip=other)",
        "none",
    ),
    at(
        whole(
            "draws",
            "Draws of the uncertainty sample at most (it stops once its shares are known within one point)",
            "draws",
            0.0,
            10_000.0,
        ),
        Section::Sureness,
        value!(uncertainty.draws),
    ),
    at(
        num(
            "u_prefill",
            "Range of the prefill rate P: ×1/f to ×f",
            "times",
            1.0,
            100.0,
        ),
        Section::Sureness,
        value!(uncertainty.prefill),
    ),
    at(
        num(
            "u_cache_cost",
            "Range of the cache-hit cost ratio k: ×1/f to ×f",
            "times",
            1.0,
            100.0,
        ),
        Section::Sureness,
        value!(uncertainty.cache_cost),
    ),
    at(
        share(
            "u_curve_mix",
            "Range of an assumed curve mix: share of the way to the other reading",
            1.0,
        ),
        Section::Sureness,
        value!(uncertainty.curve_mix),
    ),
    at(
        share(
            "u_haircut",
            "Range of the haircut on a vendor's curve: throughput ×(1 − h) to ×1",
            0.9,
        ),
        Section::Sureness,
        value!(uncertainty.haircut),
    ),
    at(
        share(
            "u_curves",
            "Share of the spread between curves of the model on chips of one family",
            1.0,
        ),
        Section::Sureness,
        value!(uncertainty.curves),
    ),
    at(
        num(
            "u_gpu_hour",
            "Range of the GPU-hour price: ×1/f to ×f (default by the price's kind)",
            "times",
            1.0,
            10.0,
        ),
        Section::Sureness,
        given!(uncertainty.gpu_hour; Some(Resolved { value: kind_spread, source: |_| None, default: "by the price's kind: reserved 1.1, on demand 1.25, spot 1.5, owner's cost 1.3, owned 1.2, not stated 1.3" })),
    ),
    at(
        share(
            "u_util",
            "Range of the target utilisation: ± this step",
            0.5,
        ),
        Section::Sureness,
        value!(uncertainty.util),
    ),
    at(
        num(
            "u_api",
            "Range of the API prices: ×1/f to ×f",
            "times",
            1.0,
            10.0,
        ),
        Section::Sureness,
        value!(uncertainty.api),
    ),
    at(
        share(
            "tie",
            "Tie threshold: plans within this share of the cheapest's monthly bill cost the same",
            0.2,
        ),
        Section::Sureness,
        value!(uncertainty.tie),
    ),
    at(
        whole("horizon", "Years ahead", "years", 1.0, 5.0),
        Section::Years,
        value!(plan.horizon),
    ),
    at(
        yearly("growth", "Growth of the monthly volume", -0.9, 10.0),
        Section::Years,
        value!(plan.growth),
    ),
    at(
        yearly("api_trend", "Change of API prices", -0.9, 1.0),
        Section::Years,
        value!(plan.api_trend),
    ),
    at(
        yearly("gpu_trend", "Change of GPU-hour prices", -0.9, 1.0),
        Section::Years,
        value!(plan.gpu_trend),
    ),
    at(
        share("discount_rate", "Discount rate per year", 1.0),
        Section::Years,
        value!(plan.discount_rate),
    ),
    at(
        share(
            "residual",
            "Value of owned GPUs at the horizon's end, share of their price",
            1.0,
        ),
        Section::Years,
        value!(plan.residual),
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
