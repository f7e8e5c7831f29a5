//! Every input in force behind a report: what its link sets and what it leaves to a default,
//! each with its value as people read it and, for a default, the source it comes from. The
//! decision record lists them (the saved page, the printout, the CSV), and the comparison of
//! two scenarios names the ones that differ.

use crate::codec::{self, write_rounded, NumSpec};
use crate::dataset::ASSUMPTIONS_SOURCE;
use crate::format::{exact, exact_percent, per_mtok, usd};
use crate::profile::ProfileSpec;
use crate::report::Report;
use crate::scenario::{CurveChoice, Scenario};
use crate::workload::Workload;

/// The part of the form an input belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    /// The volumes, their shape and the speed per user.
    Workload,
    /// The API side.
    Renting,
    /// The curve, the GPU-hour and the fleet.
    SelfHosting,
    /// Owned hardware's costs.
    Owned,
    /// The plan over the years.
    Years,
    /// The ranges of the sureness sample and the tie.
    Sureness,
}

impl Section {
    /// Every section, in the form's order.
    pub const ALL: [Section; 6] = [
        Self::Workload,
        Self::Renting,
        Self::SelfHosting,
        Self::Owned,
        Self::Years,
        Self::Sureness,
    ];

    /// Its heading.
    pub fn label(self) -> &'static str {
        match self {
            Self::Workload => "Workload",
            Self::Renting => "Renting",
            Self::SelfHosting => "Self-hosting",
            Self::Owned => "Owned hardware",
            Self::Years => "Over the years",
            Self::Sureness => "Ranges of the sureness sample",
        }
    }
}

/// Where a value in force comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// The link sets it.
    Yours,
    /// A default: from this source key (a dataset row's source, or servecost's assumptions),
    /// or `None` for the dataset's own choice (its first model, the chip's own power).
    Default(Option<String>),
}

/// One input in force.
#[derive(Debug, Clone, PartialEq)]
pub struct InForce {
    /// Its query parameter.
    pub name: &'static str,
    /// What it is.
    pub label: &'static str,
    /// Its part of the form.
    pub section: Section,
    /// Its value as people read it, unit included: `$2.35 per GPU-hour`, `88 %`.
    pub shown: String,
    /// Its value as the link writes it (`2.35`, `0.88`): what a spreadsheet or a script reads.
    pub value: String,
    /// Its value in a few words, to name a scenario by: `$2.35 per GPU-hour`, `reserved, 12
    /// months`, `hourly sizing`.
    pub brief: String,
    /// Typed or default.
    pub origin: Origin,
}

impl InForce {
    /// An input whose few words are its value as shown.
    fn new(
        name: &'static str,
        label: &'static str,
        section: Section,
        shown: String,
        value: String,
        origin: Origin,
    ) -> Self {
        InForce {
            name,
            label,
            section,
            brief: shown.clone(),
            shown,
            value,
            origin,
        }
    }
}

/// `v` to nine significant digits: a figure from arithmetic or a data file without its float
/// noise, any typed figure exactly.
fn clean(v: f64) -> f64 {
    format!("{v:.8e}").parse().unwrap_or(v)
}

/// `v` as people read it in the unit of parameter `spec`.
pub fn shown(spec: &NumSpec, v: f64) -> String {
    let v = clean(v);
    match spec.unit {
        "$/M tokens" => format!("{} per M tokens", per_mtok(v)),
        unit if unit.starts_with("$/") => format!("{} per {}", usd(v), &unit[2..]),
        "fraction (or %)" => exact_percent(v),
        "per year (or %)" => format!("{} a year", exact_percent(v)),
        "times" => format!("×{}", exact(v, false)),
        // One replica, one GPU, one year.
        unit if v == 1.0 && !unit.contains(' ') && unit.ends_with('s') => {
            format!("1 {}", &unit[..unit.len() - 1])
        }
        unit => format!("{} {unit}", exact(v, spec.suffixes)),
    }
}

/// The value of `name` as people read it, unit included ("" when `value` is empty).
fn shown_text(name: &str, value: &str) -> String {
    match codec::spec(name) {
        Some(spec) => codec::read_number(value, spec.suffixes, spec.percent)
            .map_or_else(|| value.to_owned(), |v| shown(spec, v)),
        None => value.to_owned(),
    }
}

/// The section of numeric parameter `name`.
fn section(name: &str) -> Section {
    match name {
        "tokens" | "input" | "cached" | "output" | "requests" | "input_per_request"
        | "cache_hit" | "output_per_request" | "tps" | "bill" => Section::Workload,
        "price_in" | "price_out" | "cache_discount" | "markup" | "overflow_warm" => {
            Section::Renting
        }
        "capex" | "years" | "rate" | "kw" | "pue" | "kwh" | "colo" | "maint" => Section::Owned,
        _ if codec::PLAN_PARAMS.contains(&name) => Section::Years,
        _ if codec::RANGE_PARAMS.contains(&name) => Section::Sureness,
        _ => Section::SelfHosting,
    }
}

/// Every input in force behind `report`, in the form's order: those its link sets and the
/// defaults that apply to it (owned hardware's only with owned hardware, a preset's shape only
/// with that workload). A decoded headline is not an input of the answer and is left out.
pub fn list(report: &Report) -> Vec<InForce> {
    let (parsed, _) = crate::parse_lenient(&report.query);
    let s = &parsed.scenario;
    let typed: Vec<String> = report
        .query
        .split('&')
        .filter_map(|pair| pair.split('=').next().map(str::to_owned))
        .collect();
    let yours = |name: &str| typed.iter().any(|t| t == name);
    let given = |name: &str| {
        report.query.split('&').find_map(|pair| {
            let (k, v) = pair.split_once('=')?;
            (k == name).then(|| codec::decode(v))
        })
    };
    let i = &report.inputs;
    let assumption = || Origin::Default(Some(ASSUMPTIONS_SOURCE.to_owned()));
    let from = |key: &str| {
        if key == "user" {
            Origin::Yours
        } else {
            Origin::Default(Some(key.to_owned()))
        }
    };
    let mut out = Vec::new();
    let mut text = |name, label, section, shown, value, origin| {
        out.push(InForce::new(name, label, section, shown, value, origin));
    };
    let model_origin = if yours("model") {
        Origin::Yours
    } else {
        Origin::Default(None)
    };
    text(
        "model",
        "Model",
        Section::Workload,
        i.model_name.clone(),
        i.model.clone(),
        model_origin,
    );
    if let Workload::Requests { preset, .. } = &s.workload {
        let origin = if yours("workload") {
            Origin::Yours
        } else {
            Origin::Default(Some(preset.source().to_owned()))
        };
        text(
            "workload",
            "Per-request shape (preset)",
            Section::Workload,
            preset.label().to_owned(),
            preset.key().to_owned(),
            origin,
        );
    }
    let (profile, profile_value) = match &s.profile {
        ProfileSpec::Preset(p) => (p.key().to_owned(), p.key().to_owned()),
        ProfileSpec::Custom(w) => (
            format!("your own {} weights", w.len()),
            w.iter()
                .map(|v| codec::write_rounded(*v, false))
                .collect::<Vec<_>>()
                .join(","),
        ),
    };
    let profile_origin = if yours("profile") {
        Origin::Yours
    } else {
        assumption()
    };
    text(
        "profile",
        "Load over the week",
        Section::Workload,
        format!(
            "{profile}: busiest hour {}× the average",
            crate::format::significant(i.profile_peak, 3)
        ),
        profile_value,
        profile_origin,
    );
    for spec in codec::NUMBERS {
        let name = spec.name;
        // A typed figure as typed, a default rounded as a field shows it.
        let value = given(name).unwrap_or_else(|| link_text(name, s, Some(report)));
        if value.is_empty() || name == "headline" {
            continue;
        }
        let owned_part = section(name) == Section::Owned && name != "capex";
        if owned_part && s.owned.is_none() {
            continue;
        }
        // With owned hardware the GPU-hour is a result, its parts the inputs.
        if name == "gpu_hour" && s.owned.is_some() {
            continue;
        }
        let origin = if yours(name) {
            Origin::Yours
        } else {
            match (name, &s.workload) {
                (
                    "input_per_request" | "cache_hit" | "output_per_request",
                    Workload::Requests { preset, .. },
                ) => Origin::Default(Some(preset.source().to_owned())),
                ("price_in" | "price_out" | "cache_discount" | "markup", _) if i.api.is_some() => {
                    from(&i.api_source)
                }
                ("tps", _) => from(&i.tps_source),
                ("gpu_hour", _) => from(&i.gpu_hour_source),
                ("replica", _) => from(&i.curve_source),
                _ => assumption(),
            }
        };
        text(
            name,
            spec.label,
            section(name),
            shown_text(name, &value),
            value,
            origin,
        );
    }
    if s.owned.is_some() && !yours("kw") {
        // The chip's own all-in power: the facility charge is colo × kW / 730.
        if let (Some(parts), Some(hw)) = (i.owned_parts, s.owned) {
            if hw.colo > 0.0 {
                let kw = parts.facility * crate::units::HOURS_PER_MONTH / hw.colo;
                let spec = codec::spec("kw");
                text(
                    "kw",
                    "All-in power per GPU",
                    Section::Owned,
                    spec.map(|sp| shown(sp, kw)).unwrap_or_default(),
                    codec::write_rounded(kw, false),
                    Origin::Default(None),
                );
            }
        }
    }
    choices(report, s, &yours, &mut out);
    for row in &mut out {
        if let Some(brief) = brief(row, s, report) {
            row.brief = brief;
        }
    }
    out.sort_by_key(|row| Section::ALL.iter().position(|s| *s == row.section));
    out
}

/// A choice in a few words, where its full text is a sentence.
fn brief(row: &InForce, s: &Scenario, report: &Report) -> Option<String> {
    let i = &report.inputs;
    Some(match row.name {
        "scaling" => format!("{} sizing", s.scaling.key()),
        "hybrid" => if s.hybrid {
            "hybrid considered"
        } else {
            "no hybrid"
        }
        .to_owned(),
        // The price's terms after its description: `reserved, 36 months`, `on demand`.
        "gpu_tier" => i
            .gpu_hour_label
            .rsplit_once(": ")
            .map_or_else(|| i.gpu_hour_label.clone(), |(_, terms)| terms.to_owned()),
        "own" => "owned hardware".to_owned(),
        "workload" => format!("{} shape", row.shown),
        _ => return None,
    })
}

/// The inputs that are choices rather than numbers: the API offer, the curve, the chip, the
/// price's commitment, the scaling and the hybrid.
fn choices(report: &Report, s: &Scenario, yours: &dyn Fn(&str) -> bool, out: &mut Vec<InForce>) {
    let i = &report.inputs;
    let origin = |name: &str, default: Option<String>| {
        if yours(name) {
            Origin::Yours
        } else {
            Origin::Default(default)
        }
    };
    let mut push = |name, label, section, shown, value, origin| {
        out.push(InForce::new(name, label, section, shown, value, origin));
    };
    if let Some(api) = &i.api {
        push(
            "api",
            "API offer",
            Section::Renting,
            api.clone(),
            api.clone(),
            origin("api", Some(i.api_source.clone())),
        );
    }
    match &s.curve {
        CurveChoice::Dataset { .. } => push(
            "curve",
            "Throughput curve",
            Section::SelfHosting,
            i.curve_label.clone(),
            i.curve.clone(),
            origin("curve", Some(i.curve_source.clone())),
        ),
        CurveChoice::Own { points, mix, .. } => {
            let pairs: Vec<String> = points
                .iter()
                .map(|p| {
                    format!(
                        "{}:{}",
                        codec::write_rounded(p.tps, false),
                        codec::write_rounded(p.tokens_per_s_per_gpu, true)
                    )
                })
                .collect();
            push(
                "points",
                "Your benchmark's points (tokens/s per user : tokens/s per GPU)",
                Section::SelfHosting,
                pairs.join(", "),
                pairs.join(","),
                Origin::Yours,
            );
            let parts = mix.map(|p| codec::write_rounded(p, false)).join(":");
            push(
                "curve_mix",
                "Mix they were measured at (input : cached : output)",
                Section::SelfHosting,
                parts.replace(':', " : "),
                parts,
                origin("curve_mix", None),
            );
        }
    }
    if let Some(chip) = &i.chip_name {
        push(
            "chip",
            "Chip",
            Section::SelfHosting,
            chip.clone(),
            i.chip.clone().unwrap_or_default(),
            origin("chip", Some(i.curve_source.clone())),
        );
    }
    if s.owned.is_none() {
        push(
            "gpu_tier",
            "GPU-hour price's terms",
            Section::SelfHosting,
            i.gpu_hour_label.clone(),
            i.gpu_tier.clone().unwrap_or_default(),
            if yours("gpu_tier") || yours("gpu_kind") || yours("gpu_hour") {
                Origin::Yours
            } else {
                Origin::Default(Some(i.gpu_hour_source.clone()))
            },
        );
    } else {
        push(
            "own",
            "Owned hardware",
            Section::Owned,
            "yes: the GPU-hour is capital, power, facility and maintenance".to_owned(),
            "1".to_owned(),
            Origin::Yours,
        );
    }
    push(
        "scaling",
        "Fleet sizing",
        Section::SelfHosting,
        match s.scaling {
            crate::fleet::Scaling::Fixed => {
                "fixed: replicas for the busiest hour, every hour".to_owned()
            }
            crate::fleet::Scaling::Hourly => {
                "hourly: replicas follow the load hour by hour".to_owned()
            }
        },
        s.scaling.key().to_owned(),
        origin("scaling", Some(ASSUMPTIONS_SOURCE.to_owned())),
    );
    push(
        "hybrid",
        "Hybrid (GPUs for the base load, the API for peaks)",
        Section::Renting,
        if s.hybrid {
            "considered"
        } else {
            "not considered"
        }
        .to_owned(),
        if s.hybrid { "1" } else { "0" }.to_owned(),
        origin("hybrid", Some(ASSUMPTIONS_SOURCE.to_owned())),
    );
}

fn num(v: f64, name: &str) -> String {
    let suffixes = crate::codec::spec(name).is_some_and(|s| s.suffixes);
    write_rounded(v, suffixes)
}

/// The value in force for parameter `name`, as a field would show it ("" when none applies).
pub fn link_text(name: &str, s: &Scenario, report: Option<&Report>) -> String {
    let inputs = report.map(|r| &r.inputs);
    let from_report =
        |f: fn(&crate::report::Inputs) -> f64| inputs.map(|i| num(f(i), name)).unwrap_or_default();
    match (name, &s.workload) {
        ("workload", Workload::Requests { preset, .. }) => preset.key().to_owned(),
        ("requests", Workload::Requests { requests, .. }) => num(*requests, name),
        ("input_per_request", Workload::Requests { shape, .. }) => {
            num(shape.input_per_request, name)
        }
        ("cache_hit", Workload::Requests { shape, .. }) => num(shape.cache_hit, name),
        ("output_per_request", Workload::Requests { shape, .. }) => {
            num(shape.output_per_request, name)
        }
        ("tokens", Workload::Mix { tokens, .. }) => num(*tokens, name),
        ("mix", Workload::Mix { mix, .. }) => mix.map(|p| write_rounded(p, false)).join(":"),
        ("input", Workload::Totals { input, .. }) => num(*input, name),
        ("cached", Workload::Totals { cached, .. }) => num(*cached, name),
        ("output", Workload::Totals { output, .. }) => num(*output, name),
        ("tps", _) => from_report(|i| i.tps),
        ("price_in", _) => from_report(|i| i.price_in),
        ("price_out", _) => from_report(|i| i.price_out),
        ("cache_discount", _) => from_report(|i| i.cache_discount),
        ("markup", _) => from_report(|i| i.markup),
        ("gpu_hour", _) => from_report(|i| i.gpu_hour_usd),
        ("replica", _) => from_report(|i| i.replica_gpus),
        ("prefill", _) => num(s.prefill, name),
        ("cache_cost", _) => num(s.cache_cost, name),
        ("util", _) => num(s.util, name),
        ("redundancy", _) => num(s.redundancy, name),
        ("min_replicas", _) => num(s.min_replicas, name),
        ("ops_fte", _) => num(s.ops_fte, name),
        ("fte_cost", _) => num(s.fte_cost, name),
        ("ops_monthly", _) => num(s.ops_monthly, name),
        ("ops_gpus_per_fte", _) => s.ops_gpus_per_fte.map(|v| num(v, name)).unwrap_or_default(),
        ("overflow_warm", _) => num(s.overflow_warm, name),
        ("headline", _) => s.headline.map(|h| num(h, name)).unwrap_or_default(),
        ("capex", _) => s.owned.map(|o| num(o.capex, name)).unwrap_or_default(),
        ("years" | "rate" | "pue" | "kwh" | "colo" | "maint" | "kw", _) => {
            let hw = s
                .owned
                .unwrap_or_else(|| crate::scenario::OwnedInputs::with_capex(1.0));
            let v = match name {
                "years" => Some(hw.years),
                "rate" => Some(hw.rate),
                "pue" => Some(hw.pue),
                "kwh" => Some(hw.kwh),
                "colo" => Some(hw.colo),
                "maint" => Some(hw.maint),
                _ => hw.kw,
            };
            v.map(|v| num(v, name)).unwrap_or_default()
        }
        ("draws", _) => num(s.uncertainty.draws, name),
        ("u_prefill", _) => num(s.uncertainty.prefill, name),
        ("u_cache_cost", _) => num(s.uncertainty.cache_cost, name),
        ("u_curve_mix", _) => num(s.uncertainty.curve_mix, name),
        ("u_haircut", _) => num(s.uncertainty.haircut, name),
        ("u_curves", _) => num(s.uncertainty.curves, name),
        ("u_util", _) => num(s.uncertainty.util, name),
        ("u_api", _) => num(s.uncertainty.api, name),
        ("tie", _) => num(s.uncertainty.tie, name),
        ("horizon", _) => num(s.plan.horizon, name),
        ("growth", _) => num(s.plan.growth, name),
        ("residual", _) => num(s.plan.residual, name),
        ("api_trend", _) => num(s.plan.api_trend, name),
        ("gpu_trend", _) => num(s.plan.gpu_trend, name),
        ("discount_rate", _) => num(s.plan.discount_rate, name),
        // By the price's kind, as the report applies it.
        ("u_gpu_hour", _) => s
            .uncertainty
            .gpu_hour
            .map(|v| num(v, name))
            .or_else(|| {
                report.map(|r| {
                    num(
                        crate::decision::gpu_hour_spread(
                            r.inputs.gpu_kind,
                            r.inputs.owned_parts.is_some(),
                        ),
                        name,
                    )
                })
            })
            .unwrap_or_default(),
        ("curve", _) => match &s.curve {
            CurveChoice::Dataset { id } => id
                .clone()
                .or_else(|| inputs.map(|i| i.curve.clone()))
                .unwrap_or_default(),
            CurveChoice::Own { .. } => "own".to_owned(),
        },
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    #[test]
    fn defaults_show_as_link_text() {
        let s = Scenario::default();
        assert_eq!(link_text("requests", &s, None), "1M");
        assert_eq!(link_text("cache_hit", &s, None), "0.97");
        assert_eq!(link_text("util", &s, None), "0.8");
        assert_eq!(link_text("fte_cost", &s, None), "200k");
        assert_eq!(link_text("tokens", &s, None), "");
        assert_eq!(link_text("workload", &s, None), "coding-agent");
    }
}
