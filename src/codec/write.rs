//! Scenario to query string: `v=1` first, defaults left out, numbers in their shortest exact form.

use crate::codec::{number, spec, VERSION};
use crate::fleet::Scaling;
use crate::profile::{ProfilePreset, ProfileSpec};
use crate::scenario::{defaults, CurveChoice, OwnedInputs, Scenario};
use crate::workload::Workload;

struct Writer(Vec<String>);

impl Writer {
    fn text(&mut self, name: &str, value: &str) {
        self.0.push(format!("{name}={value}"));
    }

    fn num(&mut self, name: &str, value: f64) {
        let suffixes = spec(name).is_some_and(|s| s.suffixes);
        self.text(name, &number::write(value, suffixes));
    }

    fn opt(&mut self, name: &str, value: Option<f64>) {
        if let Some(v) = value {
            self.num(name, v);
        }
    }

    fn unless(&mut self, name: &str, value: f64, default: f64) {
        if value != default {
            self.num(name, value);
        }
    }

    fn parts(&mut self, name: &str, parts: &[f64; 3]) {
        let text = parts.map(|p| number::write(p, false)).join(":");
        self.text(name, &text);
    }
}

/// The query string (without `?`) that [`crate::codec::parse`] reads back into `scenario`.
pub fn to_query(scenario: &Scenario) -> String {
    let s = scenario;
    let mut w = Writer(vec![format!("v={VERSION}")]);
    if let Some(m) = &s.model {
        w.text("model", m);
    }
    match &s.workload {
        Workload::Totals {
            input,
            cached,
            output,
        } => {
            w.num("input", *input);
            w.num("cached", *cached);
            w.num("output", *output);
        }
        Workload::Mix { tokens, mix } => {
            w.num("tokens", *tokens);
            w.parts("mix", mix);
        }
        Workload::Requests {
            requests,
            preset,
            shape,
        } => {
            if *preset != crate::workload::Preset::CodingAgent {
                w.text("workload", preset.key());
            }
            w.unless("requests", *requests, defaults::REQUESTS);
            let base = preset.shape();
            w.unless(
                "input_per_request",
                shape.input_per_request,
                base.input_per_request,
            );
            w.unless("cache_hit", shape.cache_hit, base.cache_hit);
            w.unless(
                "output_per_request",
                shape.output_per_request,
                base.output_per_request,
            );
        }
    }
    w.opt("tps", s.tps);
    match &s.profile {
        ProfileSpec::Preset(ProfilePreset::Business) => {}
        ProfileSpec::Preset(p) => w.text("profile", p.key()),
        ProfileSpec::Custom(weights) => {
            let text: Vec<String> = weights.iter().map(|v| number::write(*v, false)).collect();
            w.text("profile", &text.join(","));
        }
    }
    if let Some(api) = &s.api {
        w.text("api", api);
    }
    w.opt("price_in", s.price_in);
    w.opt("price_out", s.price_out);
    w.opt("cache_discount", s.cache_discount);
    w.opt("markup", s.markup);
    match &s.curve {
        CurveChoice::Dataset { id } => {
            if let Some(id) = id {
                w.text("curve", id);
            }
            if let Some(mix) = &s.curve_mix {
                w.parts("curve_mix", mix);
            }
        }
        CurveChoice::Own { points, mix, chip } => {
            let text: Vec<String> = points
                .iter()
                .map(|p| {
                    format!(
                        "{}:{}",
                        number::write(p.tps, false),
                        number::write(p.tokens_per_s_per_gpu, true)
                    )
                })
                .collect();
            w.text("points", &text.join(","));
            w.parts("curve_mix", mix);
            if let Some(chip) = chip {
                w.text("chip", chip);
            }
        }
    }
    w.opt("replica", s.replica);
    w.opt("gpu_hour", s.gpu_hour);
    if let Some(kind) = s.gpu_kind.filter(|_| s.gpu_hour.is_some()) {
        w.text("gpu_kind", kind.key());
    }
    if let Some(tier) = s.gpu_tier.as_deref().filter(|_| s.gpu_hour.is_none()) {
        w.text("gpu_tier", tier);
    }
    w.unless("prefill", s.prefill, defaults::PREFILL);
    w.unless("cache_cost", s.cache_cost, defaults::CACHE_COST);
    w.unless("util", s.util, defaults::UTIL);
    w.unless("redundancy", s.redundancy, defaults::REDUNDANCY);
    w.unless("min_replicas", s.min_replicas, defaults::MIN_REPLICAS);
    if s.scaling == Scaling::Hourly {
        w.text("scaling", Scaling::Hourly.key());
    }
    if !s.hybrid {
        w.text("hybrid", "0");
    }
    w.unless("ops_fte", s.ops_fte, defaults::OPS_FTE);
    w.unless("fte_cost", s.fte_cost, defaults::FTE_COST);
    w.unless("ops_monthly", s.ops_monthly, defaults::OPS_MONTHLY);
    w.opt("ops_gpus_per_fte", s.ops_gpus_per_fte);
    w.unless("overflow_warm", s.overflow_warm, 0.0);
    if let Some(hw) = &s.owned {
        let d = OwnedInputs::with_capex(hw.capex);
        w.text("own", "1");
        w.num("capex", hw.capex);
        w.unless("years", hw.years, d.years);
        w.unless("rate", hw.rate, d.rate);
        w.opt("kw", hw.kw);
        w.unless("pue", hw.pue, d.pue);
        w.unless("kwh", hw.kwh, d.kwh);
        w.unless("colo", hw.colo, d.colo);
        w.unless("maint", hw.maint, d.maint);
    }
    w.opt("headline", s.headline);
    w.opt("bill", s.bill);
    if let Some(name) = &s.chip_name {
        w.text("chip_name", &encode(name));
    }
    let (u, d) = (&s.uncertainty, crate::decision::UncertaintySpec::default());
    w.unless("draws", u.draws, d.draws);
    w.unless("u_prefill", u.prefill, d.prefill);
    w.unless("u_cache_cost", u.cache_cost, d.cache_cost);
    w.unless("u_curve_mix", u.curve_mix, d.curve_mix);
    w.unless("u_haircut", u.haircut, d.haircut);
    w.unless("u_curves", u.curves, d.curves);
    w.opt("u_gpu_hour", u.gpu_hour);
    w.unless("u_util", u.util, d.util);
    w.unless("u_api", u.api, d.api);
    w.unless("tie", u.tie, d.tie);
    let (p, d) = (&s.plan, crate::projection::ProjectionSpec::default());
    w.unless("horizon", p.horizon, d.horizon);
    w.unless("growth", p.growth, d.growth);
    w.unless("api_trend", p.api_trend, d.api_trend);
    w.unless("gpu_trend", p.gpu_trend, d.gpu_trend);
    w.unless("discount_rate", p.discount_rate, d.discount_rate);
    w.unless("residual", p.residual, d.residual);
    w.0.join("&")
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
