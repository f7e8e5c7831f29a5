//! Every input in force behind a report: what its link sets and what it leaves to a default,
//! each with its value as people read it and, for a default, the source it comes from. The
//! decision record lists them (the saved page, the printout, the CSV), and the comparison of
//! two scenarios names the ones that differ.

use crate::codec::{self, write_rounded, NumSpec, Slot};
use crate::dataset::ASSUMPTIONS_SOURCE;
use crate::format::{exact, exact_percent, per_mtok, usd};
use crate::profile::ProfileSpec;
use crate::report::Report;
use crate::scenario::{CurveChoice, OwnedInputs, Scenario};
use crate::workload::Workload;

pub use crate::codec::Section;

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

/// A yearly rate as people read it, a year and a month: `151.8 % a year (8 % a month)`. The
/// month's is the rate that compounds to the year's.
pub fn rate(yearly: f64) -> String {
    let pct = crate::format::percent_rate;
    format!(
        "{} a year ({} a month)",
        pct(yearly),
        pct(codec::monthly_of_yearly(yearly))
    )
}

/// `v` as people read it in the unit of parameter `spec`.
pub fn shown(spec: &NumSpec, v: f64) -> String {
    let v = clean(v);
    match spec.unit {
        "$/M tokens" => format!("{} per M tokens", per_mtok(v)),
        unit if unit.starts_with("$/") => format!("{} per {}", usd(v), &unit[2..]),
        "fraction (or %)" => exact_percent(v),
        _ if spec.rate => rate(v),
        "times" => format!("×{}", exact(v, false)),
        // One replica, one GPU, one year.
        unit if v == 1.0 && !unit.contains(' ') && unit.ends_with('s') => {
            format!("1 {}", &unit[..unit.len() - 1])
        }
        unit => format!("{} {unit}", exact(v, spec.suffixes)),
    }
}

/// The figure the report resolves for numeric parameter `name` when the link leaves it out,
/// in words ("the offer's"), where the dataset or the scenario's other inputs decide it.
pub fn default_words(name: &str) -> Option<&'static str> {
    match codec::spec(name)?.slot? {
        Slot::Given {
            resolved: Some(r), ..
        } => Some(r.default),
        _ => None,
    }
}

/// The default of numeric parameter `name` as people read it, where servecost assumes one (a
/// field of the scenario, or of owned hardware), for the form's "Assumption: …".
pub fn default_shown(name: &str) -> Option<String> {
    let spec = codec::spec(name)?;
    let v = match spec.slot? {
        Slot::Value { get, .. } => get(&Scenario::default()),
        Slot::Owned { get, .. } => {
            get(&OwnedInputs::with_capex(f64::NAN)).filter(|v| !v.is_nan())?
        }
        Slot::Given { .. } | Slot::Workload { .. } => return None,
    };
    // A ratio reads as its number beside the field's own unit.
    Some(if spec.unit == "ratio" {
        exact(v, false)
    } else {
        shown(spec, v)
    })
}

/// The value of `name` as people read it, unit included ("" when `value` is empty).
fn shown_text(name: &str, value: &str) -> String {
    match codec::spec(name) {
        Some(spec) => spec
            .read(value)
            .map_or_else(|| value.to_owned(), |v| shown(spec, v)),
        None => value.to_owned(),
    }
}

/// Every input in force behind `report`, in the form's order: those its link sets and the
/// defaults that apply to it (owned hardware's only with owned hardware, a preset's shape only
/// with that workload). A decoded headline is not an input of the answer and is left out.
pub fn list(report: &Report) -> Vec<InForce> {
    let (parsed, _) = crate::parse_lenient(&report.query);
    let l = Lister::new(report, &parsed.scenario);
    let mut out = l.workload_choices();
    out.extend(l.numbers());
    out.extend(l.chip_power());
    out.extend(l.offer_and_curve());
    out.extend(l.fleet_choices());
    for row in &mut out {
        if let Some(brief) = brief(row, l.s, report) {
            row.brief = brief;
        }
    }
    out.sort_by_key(|row| Section::ALL.iter().position(|s| *s == row.section));
    out
}

/// Servecost's assumption, as a default's origin.
fn assumption() -> Origin {
    Origin::Default(Some(ASSUMPTIONS_SOURCE.to_owned()))
}

/// The origin a source key gives: `user` is yours, any other a default from that source.
fn from(key: &str) -> Origin {
    if key == "user" {
        Origin::Yours
    } else {
        Origin::Default(Some(key.to_owned()))
    }
}

/// What the list is drawn from: the report, its scenario and the parameters its link sets.
struct Lister<'a> {
    report: &'a Report,
    s: &'a Scenario,
    typed: Vec<&'a str>,
}

impl<'a> Lister<'a> {
    fn new(report: &'a Report, s: &'a Scenario) -> Self {
        let typed = report
            .query
            .split('&')
            .filter_map(|pair| pair.split('=').next())
            .collect();
        Self { report, s, typed }
    }

    /// Whether the link sets `name`.
    fn yours(&self, name: &str) -> bool {
        self.typed.contains(&name)
    }

    /// The value the link gives `name`, as typed.
    fn given(&self, name: &str) -> Option<String> {
        self.report.query.split('&').find_map(|pair| {
            let (k, v) = pair.split_once('=')?;
            (k == name).then(|| codec::decode(v))
        })
    }

    /// Yours when the link sets `name`, else a default from `default`.
    fn origin(&self, name: &str, default: Option<String>) -> Origin {
        if self.yours(name) {
            Origin::Yours
        } else {
            Origin::Default(default)
        }
    }

    /// The model, the preset shape and the load over the week.
    fn workload_choices(&self) -> Vec<InForce> {
        let (s, i) = (self.s, &self.report.inputs);
        let mut out = vec![InForce::new(
            "model",
            "Model",
            Section::Workload,
            i.model_name.clone(),
            i.model.clone(),
            self.origin("model", None),
        )];
        if let Workload::Requests { preset, .. } = &s.workload {
            out.push(InForce::new(
                "workload",
                "Per-request shape (preset)",
                Section::Workload,
                preset.label().to_owned(),
                preset.key().to_owned(),
                self.origin("workload", Some(preset.source().to_owned())),
            ));
        }
        let (profile, profile_value) = match &s.profile {
            ProfileSpec::Preset(p) => (p.key().to_owned(), p.key().to_owned()),
            ProfileSpec::Peak(p) => (
                format!(
                    "peak {}× the average, {} {:02}–{:02}",
                    crate::format::significant(p.factor, 3),
                    if p.weekdays { "weekdays" } else { "every day" },
                    p.from,
                    p.to
                ),
                p.text(),
            ),
            ProfileSpec::Custom(w) => (
                format!("your own {} weights", w.len()),
                w.iter()
                    .map(|v| codec::write_rounded(*v, false))
                    .collect::<Vec<_>>()
                    .join(","),
            ),
        };
        out.push(InForce::new(
            "profile",
            "Load over the week",
            Section::Workload,
            format!(
                "{profile}: busiest hour {}× the average",
                crate::format::significant(i.profile_peak, 3)
            ),
            profile_value,
            self.origin("profile", Some(ASSUMPTIONS_SOURCE.to_owned())),
        ));
        out
    }

    /// Every numeric input that applies: owned hardware's only with owned hardware, the
    /// rented GPU-hour only without it, never the decoder's headline.
    fn numbers(&self) -> Vec<InForce> {
        let (s, report) = (self.s, self.report);
        let mut out = Vec::new();
        for spec in codec::numbers() {
            let name = spec.name;
            // A typed figure as typed, a default rounded as a field shows it.
            let value = self
                .given(name)
                .unwrap_or_else(|| link_text(name, s, Some(report)));
            if value.is_empty() || !Section::ALL.contains(&spec.section) {
                continue;
            }
            if matches!(spec.slot, Some(Slot::Owned { .. })) && s.owned.is_none() {
                continue;
            }
            // With owned hardware the GPU-hour is a result, its parts the inputs.
            if name == "gpu_hour" && s.owned.is_some() {
                continue;
            }
            out.push(InForce::new(
                name,
                spec.label,
                spec.section,
                shown_text(name, &value),
                value,
                self.number_origin(spec),
            ));
        }
        out
    }

    /// Where a numeric input comes from: the link, the preset's shape, the dataset row the
    /// report resolved it from, or servecost's assumptions.
    fn number_origin(&self, spec: &NumSpec) -> Origin {
        match spec.slot {
            _ if self.yours(spec.name) => Origin::Yours,
            Some(Slot::Workload { preset: true, .. }) => match &self.s.workload {
                Workload::Requests { preset, .. } => {
                    Origin::Default(Some(preset.source().to_owned()))
                }
                _ => assumption(),
            },
            Some(Slot::Given {
                resolved: Some(r), ..
            }) => (r.source)(&self.report.inputs).map_or_else(assumption, from),
            _ => assumption(),
        }
    }

    /// Owned hardware's power when the link leaves it to the chip: the facility charge is
    /// colo × kW / 730.
    fn chip_power(&self) -> Option<InForce> {
        if self.yours("kw") {
            return None;
        }
        let (parts, hw) = (self.report.inputs.owned_parts?, self.s.owned?);
        if !(hw.colo > 0.0) {
            return None;
        }
        let kw = parts.facility * crate::units::HOURS_PER_MONTH / hw.colo;
        Some(InForce::new(
            "kw",
            "All-in power per GPU",
            Section::Owned,
            codec::spec("kw")
                .map(|sp| shown(sp, kw))
                .unwrap_or_default(),
            codec::write_rounded(kw, false),
            Origin::Default(None),
        ))
    }

    /// The API offer, the curve (or your points and their mix) and the chip.
    fn offer_and_curve(&self) -> Vec<InForce> {
        let (s, i) = (self.s, &self.report.inputs);
        let origin = |name: &str, default: Option<String>| self.origin(name, default);
        let mut out = Vec::new();
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
        out
    }

    /// The GPU-hour price's terms (or owned hardware), the fleet's sizing and the hybrid.
    fn fleet_choices(&self) -> Vec<InForce> {
        let (s, i) = (self.s, &self.report.inputs);
        let origin = |name: &str, default: Option<String>| self.origin(name, default);
        let mut out = Vec::new();
        let mut push = |name, label, section, shown, value, origin| {
            out.push(InForce::new(name, label, section, shown, value, origin));
        };
        if s.owned.is_none() {
            push(
                "gpu_tier",
                "GPU-hour price's terms",
                Section::SelfHosting,
                i.gpu_hour_label.clone(),
                i.gpu_tier.clone().unwrap_or_default(),
                if self.yours("gpu_tier") || self.yours("gpu_kind") || self.yours("gpu_hour") {
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
        out
    }
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

/// The value in force for parameter `name`, as a field would show it ("" when none applies).
pub fn link_text(name: &str, s: &Scenario, report: Option<&Report>) -> String {
    if let Some(spec) = codec::spec(name) {
        return number_in_force(spec, s, report)
            .map(|v| {
                if spec.rate {
                    codec::write_rate(v)
                } else {
                    write_rounded(v, spec.suffixes)
                }
            })
            .unwrap_or_default();
    }
    match (name, &s.workload, &s.curve) {
        ("workload", Workload::Requests { preset, .. }, _) => preset.key().to_owned(),
        ("mix", Workload::Mix { mix, .. }, _) => mix.map(|p| write_rounded(p, false)).join(":"),
        ("curve", _, CurveChoice::Dataset { id }) => id
            .clone()
            .or_else(|| report.map(|r| r.inputs.curve.clone()))
            .unwrap_or_default(),
        ("curve", _, CurveChoice::Own { .. }) => codec::OWN_CURVE.to_owned(),
        _ => String::new(),
    }
}

/// The value in force of numeric parameter `spec`: the scenario's, else the report's figure.
fn number_in_force(spec: &NumSpec, s: &Scenario, report: Option<&Report>) -> Option<f64> {
    match spec.slot? {
        Slot::Value { get, .. } => Some(get(s)),
        Slot::Given { get, resolved, .. } => {
            get(s).or_else(|| Some((resolved?.value)(&report?.inputs)))
        }
        // Owned hardware's defaults show even before it is chosen; its price has none.
        Slot::Owned { get, .. } => {
            get(&s.owned.unwrap_or_else(|| OwnedInputs::with_capex(f64::NAN)))
                .filter(|v| !v.is_nan())
        }
        Slot::Workload { get, .. } => get(&s.workload),
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

    #[test]
    fn assumptions_are_read_from_the_parameters_definitions() {
        assert_eq!(default_shown("pue").as_deref(), Some("1.3"));
        assert_eq!(default_shown("years").as_deref(), Some("4 years"));
        assert_eq!(default_shown("rate").as_deref(), Some("8\u{a0}%"));
        assert_eq!(default_shown("colo").as_deref(), Some("$150 per kW-month"));
        assert_eq!(default_shown("ops_fte").as_deref(), Some("0.5 FTE"));
        // No assumption: a price given by the dataset, a purchase price, a workload figure.
        assert_eq!(default_shown("tps"), None);
        assert_eq!(default_shown("capex"), None);
        assert_eq!(default_shown("requests"), None);
    }
}
