//! Every parameter of the link, defined once: its name, what it means, its unit and accepted
//! range, its part of the form and where its value lives in a [`Scenario`]. The codec's reader
//! and writer, the values in force (`crate::in_force`), the form's fields, the OpenAPI document
//! and the crate README's table all read this table; a numeric input is one row here and one
//! field of [`Scenario`].

use crate::report::Inputs;
use crate::scenario::{OwnedInputs, Scenario};
use crate::workload::Workload;

pub use super::table::{PARAMS, POINT_THROUGHPUT};

/// The part of the page an input belongs to.
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
    /// The headline decoder beside the form: not an input of the answer.
    Decoder,
}

impl Section {
    /// Every section of the form, in its order.
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
            Self::Decoder => "Decoding a headline",
        }
    }
}

/// A figure the report resolves for a parameter the link leaves out: its value and the key of
/// its source (`None`: servecost's assumptions; `"user"`: the link's own figure).
#[derive(Debug, Clone, Copy)]
pub struct Resolved {
    /// The value in force.
    pub value: fn(&Inputs) -> f64,
    /// Its source's key.
    pub source: fn(&Inputs) -> Option<&str>,
    /// Where it comes from, in words, for docs ("the offer's").
    pub default: &'static str,
}

/// Where a numeric parameter's value lives in a [`Scenario`]: how the codec reads and writes it,
/// and what stands in for it when the link leaves it out.
#[derive(Debug, Clone, Copy)]
pub enum Slot {
    /// Always set; left out of a link at [`Scenario::default`]'s value, servecost's assumption.
    Value {
        /// Its value.
        get: fn(&Scenario) -> f64,
        /// Sets it.
        set: fn(&mut Scenario, f64),
    },
    /// Set only when given; else the report's resolved figure, if any applies.
    Given {
        /// Its value, when given.
        get: fn(&Scenario) -> Option<f64>,
        /// Gives it.
        set: fn(&mut Scenario, f64),
        /// The dataset's figure in force when it is not given.
        resolved: Option<Resolved>,
    },
    /// A part of owned hardware (`own=1`), left out at [`OwnedInputs::with_capex`]'s value.
    Owned {
        /// Its value (`None`: the chip's figure).
        get: fn(&OwnedInputs) -> Option<f64>,
        /// Sets it.
        set: fn(&mut OwnedInputs, f64),
    },
    /// A part of one of the workload's forms, read and written with it.
    Workload {
        /// Its value, in its form (`None`: the workload is given another way).
        get: fn(&Workload) -> Option<f64>,
        /// The value at which it is left out of a link (`None`: it is always written).
        default: fn(&Workload) -> Option<f64>,
        /// Its default is the workload preset's (else servecost's assumption).
        preset: bool,
    },
}

/// A numeric parameter: its name, meaning, unit and accepted range, its part of the form and its
/// place in a scenario.
#[derive(Debug, Clone, Copy)]
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
    /// A yearly rate, also accepted per month (`8 %/month`) or per year (`152 %/year`).
    pub rate: bool,
    /// Must be a whole number.
    pub whole: bool,
    /// Its part of the form.
    pub section: Section,
    /// Where its value lives (`None`: a range only, not a parameter of the link).
    pub slot: Option<Slot>,
}

/// A parameter whose value is text: an id, a word, a list.
#[derive(Debug, Clone, Copy)]
pub struct TextSpec {
    /// Query parameter.
    pub name: &'static str,
    /// What it means, for docs.
    pub label: &'static str,
    /// Its accepted values, in words.
    pub accepted: &'static str,
    /// What applies when the link leaves it out, in words.
    pub default: &'static str,
}

/// A parameter of the link.
#[derive(Debug, Clone, Copy)]
pub enum Param {
    /// A number.
    Number(NumSpec),
    /// Text.
    Text(TextSpec),
}

/// Every numeric parameter, in the link's order.
pub fn numbers() -> impl Iterator<Item = &'static NumSpec> {
    PARAMS.iter().filter_map(|p| match p {
        Param::Number(spec) => Some(spec),
        Param::Text(_) => None,
    })
}

/// Every parameter whose value is text, in the link's order.
pub fn texts() -> impl Iterator<Item = &'static TextSpec> {
    PARAMS.iter().filter_map(|p| match p {
        Param::Text(spec) => Some(spec),
        Param::Number(_) => None,
    })
}

/// The numeric parameters of `section`, in the link's order.
pub fn in_section(section: Section) -> impl Iterator<Item = &'static str> {
    numbers()
        .filter(move |s| s.section == section)
        .map(|s| s.name)
}

/// The spec of a numeric parameter.
pub fn spec(name: &str) -> Option<&'static NumSpec> {
    numbers().find(|s| s.name == name)
}

impl Param {
    /// Its query parameter.
    pub fn name(&self) -> &'static str {
        match self {
            Param::Number(s) => s.name,
            Param::Text(s) => s.name,
        }
    }
}

impl NumSpec {
    /// Reads its value from `text` as people type it (`None`: not a number of its kind).
    pub fn read(&self, text: &str) -> Option<f64> {
        if self.rate {
            super::number::read_rate(text)
        } else {
            super::number::read(text, self.suffixes, self.percent)
        }
    }

    /// Writes `v` as a link carries it: the shortest text [`NumSpec::read`] reads back exactly.
    pub fn write(&self, v: f64) -> String {
        if self.rate {
            super::number::write_rate(v)
        } else {
            super::number::write(v, self.suffixes)
        }
    }

    /// Whether `v` is accepted: within the range, whole when it must be, and either 0 or at
    /// least [`NumSpec::least`].
    pub fn accepts(&self, v: f64) -> bool {
        v.is_finite()
            && v >= self.min
            && v <= self.max
            && (!self.whole || v.fract() == 0.0)
            && (v == 0.0 || v.abs() >= self.least)
    }

    /// The accepted bounds as the form's hints write them, numbers as the error messages write
    /// them: `0, or 1 to 10 T`, `whole numbers 1 to 4,096`, `−0.9 to 10 (−90 % to 1,000 %)`.
    pub fn bounds_text(&self) -> String {
        let show = |v: f64| crate::format::exact(v, self.suffixes);
        let kind = if self.whole { "whole numbers " } else { "" };
        let pct = crate::format::exact_percent;
        if self.percent && self.min < 0.0 {
            format!(
                "{} to {} ({} to {})",
                show(self.min),
                show(self.max),
                pct(self.min),
                pct(self.max)
            )
        } else if self.min == 0.0 && self.least > 0.0 {
            format!("0, or {kind}{} to {}", show(self.least), show(self.max))
        } else {
            format!("{kind}{} to {}", show(self.min), show(self.max))
        }
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
            if self.rate {
                let month =
                    |y: f64| crate::format::percent_rate(super::number::monthly_of_yearly(y));
                text.push_str(&format!(
                    ", or a monthly rate from {} to {} a month such as 8\u{a0}%/month",
                    month(self.min),
                    month(self.max)
                ));
            }
        } else if self.percent && !self.unit.contains('%') {
            text.push_str(" (or a percentage such as 40%)");
        }
        text
    }
}
