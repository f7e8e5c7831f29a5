//! Scenario to query string: `v=1` first, defaults left out, numbers in their shortest exact form.

use crate::codec::{number, NumSpec, Param, Slot, PARAMS, VERSION};
use crate::fleet::Scaling;
use crate::profile::{ProfilePreset, ProfileSpec};
use crate::scenario::{CurveChoice, OwnedInputs, Scenario};
use crate::workload::{Preset, Workload};

/// The query string (without `?`) that [`crate::codec::parse`] reads back into `scenario`:
/// every parameter in the link's order, those at their default left out.
pub fn to_query(scenario: &Scenario) -> String {
    let defaults = Scenario::default();
    let mut pairs = Vec::new();
    for param in PARAMS {
        let value = match param {
            Param::Number(spec) => number(spec, scenario, &defaults),
            Param::Text(spec) => text(spec.name, scenario),
        };
        if let Some(value) = value {
            pairs.push(format!("{}={value}", param.name()));
        }
    }
    pairs.join("&")
}

/// The value a link writes for numeric parameter `spec`, if any: its own, unless at its default.
fn number(spec: &NumSpec, s: &Scenario, defaults: &Scenario) -> Option<String> {
    let value = match spec.slot? {
        Slot::Value { get, .. } => Some(get(s)).filter(|v| *v != get(defaults)),
        Slot::Given { get, .. } => get(s),
        Slot::Owned { get, .. } => {
            // The purchase price has no default (`NAN`): it is always written.
            let defaults = OwnedInputs::with_capex(f64::NAN);
            s.owned
                .and_then(|hw| get(&hw).filter(|v| Some(*v) != get(&defaults)))
        }
        Slot::Workload { get, default, .. } => {
            get(&s.workload).filter(|v| Some(*v) != default(&s.workload))
        }
    }?;
    // A monthly rate (`8%/month`) carries characters a query string escapes.
    Some(if spec.rate {
        encode(&spec.write(value))
    } else {
        spec.write(value)
    })
}

/// The value a link writes for text parameter `name`, if any.
fn text(name: &str, s: &Scenario) -> Option<String> {
    let parts = |parts: &[f64; 3]| parts.map(|p| number::write(p, false)).join(":");
    match name {
        "v" => Some(VERSION.to_string()),
        "model" => s.model.clone(),
        "mix" => match &s.workload {
            Workload::Mix { mix, .. } => Some(parts(mix)),
            _ => None,
        },
        "workload" => match &s.workload {
            Workload::Requests { preset, .. } if *preset != Preset::CodingAgent => {
                Some(preset.key().to_owned())
            }
            _ => None,
        },
        "profile" => match &s.profile {
            ProfileSpec::Preset(ProfilePreset::Business) => None,
            ProfileSpec::Preset(p) => Some(p.key().to_owned()),
            ProfileSpec::Custom(weights) => Some(
                weights
                    .iter()
                    .map(|v| number::write(*v, false))
                    .collect::<Vec<_>>()
                    .join(","),
            ),
            ProfileSpec::Peak(p) => Some(encode(&p.text())),
        },
        "api" => s.api.clone(),
        "curve" => match &s.curve {
            CurveChoice::Dataset { id } => id.clone(),
            CurveChoice::Own { .. } => None,
        },
        "points" => match &s.curve {
            CurveChoice::Own { points, .. } => Some(
                points
                    .iter()
                    .map(|p| {
                        format!(
                            "{}:{}",
                            number::write(p.tps, false),
                            number::write(p.tokens_per_s_per_gpu, true)
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(","),
            ),
            CurveChoice::Dataset { .. } => None,
        },
        "curve_mix" => match &s.curve {
            CurveChoice::Dataset { .. } => s.curve_mix.as_ref().map(parts),
            CurveChoice::Own { mix, .. } => Some(parts(mix)),
        },
        "chip" => match &s.curve {
            CurveChoice::Own { chip, .. } => chip.clone(),
            CurveChoice::Dataset { .. } => None,
        },
        "gpu_kind" => s
            .gpu_kind
            .filter(|_| s.gpu_hour.is_some())
            .map(|k| k.key().to_owned()),
        "gpu_tier" => s.gpu_tier.clone().filter(|_| s.gpu_hour.is_none()),
        "scaling" => (s.scaling == Scaling::Hourly).then(|| Scaling::Hourly.key().to_owned()),
        "hybrid" => (!s.hybrid).then(|| "0".to_owned()),
        "own" => s.owned.map(|_| "1".to_owned()),
        "chip_name" => s.chip_name.as_deref().map(encode),
        _ => None,
    }
}

/// The query of the canonical form of `scenario`: every mix written as shares of one, to twelve
/// significant digits, so that equivalent links (`mix=2:7:1` and `mix=20:70:10`) read the same.
/// The sureness sample is seeded from it.
pub fn canonical_query(scenario: &Scenario) -> String {
    let shares = |parts: &[f64; 3]| {
        let total: f64 = parts.iter().sum();
        if total > 0.0 && total.is_finite() {
            parts.map(|p| {
                let share = p / total;
                format!("{share:.11e}").parse().unwrap_or(share)
            })
        } else {
            *parts
        }
    };
    let mut s = scenario.clone();
    if let Workload::Mix { mix, .. } = &mut s.workload {
        *mix = shares(mix);
    }
    if let Some(mix) = &mut s.curve_mix {
        *mix = shares(mix);
    }
    if let CurveChoice::Own { mix, .. } = &mut s.curve {
        *mix = shares(mix);
    }
    to_query(&s)
}

/// Percent-encodes a free-text value for a query string: everything but unreserved characters.
fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::parse;

    #[test]
    fn default_scenario_is_just_the_version() {
        assert_eq!(to_query(&Scenario::default()), "v=1");
    }

    #[test]
    fn round_trips_a_busy_scenario() {
        let q = "v=1&model=m&tokens=27B&mix=2:7:1&tps=142.9&profile=flat&price_in=1.3&\
                 points=100:5k,200:2.5k&curve_mix=3:96:1&chip=b300&replica=8&util=0.7&\
                 scaling=hourly&hybrid=0&ops_fte=2&headline=150M";
        let s = parse(q).expect("valid").scenario;
        assert_eq!(to_query(&s), q);
        assert_eq!(parse(&to_query(&s)).expect("valid").scenario, s);
    }
}
