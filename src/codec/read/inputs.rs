//! The composite inputs of a query: the workload in its three forms, the load profile, the
//! curve (a dataset curve or your points), the GPU-hour price and owned hardware. Each step
//! reads its parameters and reports its own problems.

use super::*;

impl Reader {
    pub(super) fn workload(&mut self) -> Option<Workload> {
        use crate::codec::forms::{MIX, SHAPE, TOTALS};
        let forms: Vec<&str> = [
            ("tokens", MIX.iter().any(|p| self.has(p))),
            ("input", TOTALS.iter().any(|p| self.has(p))),
            ("requests", SHAPE.iter().any(|p| self.has(p))),
        ]
        .into_iter()
        .filter_map(|(name, given)| given.then_some(name))
        .collect();
        if forms.len() > 1 {
            let all = forms.join(" and ");
            self.conflict(
                forms[0],
                &all,
                format!(
                    "give one workload form: tokens+mix, input+cached+output, or requests with a \
                     per-request shape; got {all}"
                ),
            );
            // Every value is still read, so an unreadable one is named as such.
            for p in MIX.iter().chain(&TOTALS).chain(&SHAPE) {
                if self.has(p) {
                    self.validate(p);
                }
            }
            return None;
        }
        match forms.first().copied() {
            Some("tokens") => {
                let tokens = self.number("tokens");
                let mix = self.parts("mix");
                if !self.has("tokens") {
                    self.conflict("tokens", "", "required with mix: all tokens per month");
                }
                if !self.has("mix") {
                    self.conflict(
                        "mix",
                        "",
                        "required with tokens: input:cached:output, e.g. 2:7:1",
                    );
                }
                Some(Workload::Mix {
                    tokens: tokens?,
                    mix: mix?,
                })
            }
            Some("input") => {
                let [input, cached, output] = TOTALS.map(|p| self.number(p));
                Some(Workload::Totals {
                    input: input.unwrap_or(0.0),
                    cached: cached.unwrap_or(0.0),
                    output: output.unwrap_or(0.0),
                })
            }
            _ => {
                let preset = self.preset().unwrap_or(Preset::CodingAgent);
                let base = preset.shape();
                Some(Workload::Requests {
                    requests: self.number("requests").unwrap_or(defaults::REQUESTS),
                    preset,
                    shape: RequestShape {
                        input_per_request: self
                            .number("input_per_request")
                            .unwrap_or(base.input_per_request),
                        cache_hit: self.number("cache_hit").unwrap_or(base.cache_hit),
                        output_per_request: self
                            .number("output_per_request")
                            .unwrap_or(base.output_per_request),
                    },
                })
            }
        }
    }

    /// Peak hours at a multiple of the average (`peak:3:9-17:weekdays`).
    fn peak(&mut self, text: &str) -> Option<ProfileSpec> {
        let p = match PeakHours::parse(text) {
            Ok(p) => p,
            Err(reason) => {
                self.fail("profile", text, reason);
                return None;
            }
        };
        if p.weights().is_some() {
            return Some(ProfileSpec::Peak(p));
        }
        let reason = if p.from == p.to {
            "the peak hours run from an hour to the same hour: give two different hours".to_owned()
        } else {
            format!(
                "the peak factor {} is more than {} peak hours a week can hold: it must be from 1 \
                 to {} (all of the week's load in the peak hours)",
                crate::format::exact(p.factor, false),
                p.hours(),
                crate::format::significant(p.max_factor(), 4)
            )
        };
        self.fail("profile", text, reason);
        None
    }

    pub(super) fn profile(&mut self) -> Option<ProfileSpec> {
        let text = self.get("profile")?;
        if let Some(p) = ProfilePreset::from_key(&text) {
            return Some(ProfileSpec::Preset(p));
        }
        if text.starts_with("peak:") {
            return self.peak(&text);
        }
        let weights: Option<Vec<f64>> = text
            .split(',')
            .map(|w| {
                number::read(w, false, false)
                    .filter(|w| (0.0..=1e6).contains(w) && !w.is_sign_negative())
            })
            .collect();
        match weights {
            Some(w) if w.len() == 24 || w.len() == 168 => {
                let spec = ProfileSpec::Custom(w);
                if LoadProfile::from_spec(&spec).is_some() {
                    Some(spec)
                } else {
                    self.conflict(
                        "profile",
                        &text,
                        "the weights add up to 0: the week has no load; at least one must be positive",
                    );
                    None
                }
            }
            _ => {
                self.fail("profile", &text, weights_problem(&text));
                None
            }
        }
    }

    pub(super) fn curve(&mut self) -> CurveChoice {
        let id = self.id("curve");
        // `curve=own` picks your own points; without them there is no curve to price.
        let own = id.as_deref() == Some(OWN_CURVE);
        let id = id.filter(|_| !own);
        if own && !self.has("points") {
            self.conflict(
                "points",
                "",
                "required with curve=own: your benchmark's points, tps:tokens_per_s_per_gpu pairs",
            );
        }
        if !self.has("points") {
            self.ignore(
                "chip",
                "ignored: applies only with points (a dataset curve has its chip)",
            );
            return CurveChoice::Dataset { id };
        }
        if id.is_some() {
            self.conflict(
                "curve",
                id.as_deref().unwrap_or_default(),
                "give either a dataset curve or your own points, not both",
            );
        }
        let points = self.points();
        let mix = if self.has("curve_mix") {
            self.parts("curve_mix")
        } else {
            self.conflict(
                "curve_mix",
                "",
                "required with points: the input:cached:output mix they were measured at",
            );
            None
        };
        if let Some(m) = mix {
            if !(m[2] > 0.0) {
                self.conflict(
                    "curve_mix",
                    &format!("{}:{}:{}", m[0], m[1], m[2]),
                    "needs a positive output part: the decode rate is derived from it",
                );
            }
        }
        let chip = self.id("chip");
        match (points, mix) {
            (Some(points), Some(mix)) if mix[2] > 0.0 => CurveChoice::Own { points, mix, chip },
            _ => CurveChoice::Dataset { id: None },
        }
    }

    pub(super) fn points(&mut self) -> Option<Vec<CurvePoint>> {
        let text = self.get("points")?;
        let reason = format!(
            "must be 1 to {MAX_POINTS} pairs tps:tokens_per_s_per_gpu separated by commas, e.g. \
             128:33041,191:23251; tps from 0.1 to 10,000, throughput from 0.001 to 1 B"
        );
        // The pairs' syntax first (400 when wrong), then their ranges and the curve they make
        // (422: readable, but no curve the engine can use).
        let points: Option<Vec<CurvePoint>> = text
            .split(',')
            .map(|pair| {
                let (s, t) = pair.split_once(':')?;
                let tps = number::read(s, false, false).filter(|v| !v.is_sign_negative())?;
                let tokens_per_s_per_gpu =
                    number::read(t, true, false).filter(|v| !v.is_sign_negative())?;
                Some(CurvePoint::measured(tps, tokens_per_s_per_gpu))
            })
            .collect();
        match points {
            Some(p) if !p.is_empty() && p.len() <= MAX_POINTS => {
                let tps = crate::codec::spec("tps");
                let in_range = p.iter().all(|q| {
                    tps.is_some_and(|t| t.accepts(q.tps))
                        && crate::codec::POINT_THROUGHPUT.accepts(q.tokens_per_s_per_gpu)
                });
                if !in_range {
                    self.conflict("points", &text, reason);
                    return None;
                }
                if let Err(e) = ThroughputCurve::new(p.clone()) {
                    self.conflict("points", &text, e.to_string());
                    return None;
                }
                Some(p)
            }
            _ => {
                self.fail("points", &text, reason);
                None
            }
        }
    }

    /// The rented GPU-hour: your own price (with the commitment you declare) or a dataset tier
    /// of the chip; neither applies to owned hardware.
    pub(super) fn gpu_price(
        &mut self,
        owned: bool,
    ) -> (Option<f64>, Option<String>, Option<Commitment>) {
        if owned {
            for p in ["gpu_hour", "gpu_tier", "gpu_kind"] {
                self.ignore(p, "ignored: owned hardware (own=1) prices the GPU-hour");
            }
            return (None, None, None);
        }
        let usd = self.number("gpu_hour");
        // Your own price replaces the tier (a form keeps the tier it was opened with).
        let tier = if self.has("gpu_hour") {
            self.ignore(
                "gpu_tier",
                "ignored: your own gpu_hour replaces the price tier",
            );
            None
        } else {
            self.id("gpu_tier")
        };
        if !self.has("gpu_hour") {
            self.ignore("gpu_kind", "ignored: applies only with your own gpu_hour");
        }
        let kind = if self.has("gpu_hour") {
            self.commitment()
        } else {
            None
        };
        (usd, tier, kind)
    }

    pub(super) fn owned(&mut self) -> Option<OwnedInputs> {
        let parts = || {
            crate::codec::numbers().filter_map(|spec| match spec.slot {
                Some(Slot::Owned { set, .. }) => Some((spec.name, set)),
                _ => None,
            })
        };
        if self.flag("own") != Some(true) {
            for (p, _) in parts() {
                self.ignore(p, "ignored: applies only with own=1 (owned hardware)");
            }
            return None;
        }
        if !self.has("capex") {
            self.conflict(
                "capex",
                "",
                "required with own=1: purchase price per GPU in $, from 1 to 10,000,000",
            );
        }
        // Every input is read (and checked) even when the purchase price is missing or bad, so
        // that none of them is reported as ignored. The purchase price has no default.
        let mut hw = OwnedInputs::with_capex(f64::NAN);
        for (p, set) in parts() {
            if let Some(v) = self.number(p) {
                set(&mut hw, v);
            }
        }
        (!hw.capex.is_nan()).then_some(hw)
    }
}

/// Why `text` is not a profile, when it is neither a preset nor peak hours: read as weights, how
/// many there are, or the first that is not one.
fn weights_problem(text: &str) -> String {
    let all = "flat, business, diurnal, peak hours (peak:3:9-17:weekdays), or 24 or 168 weights \
               from 0 to 1,000,000 with a positive sum";
    let weights: Vec<&str> = text.split(',').collect();
    for (i, w) in weights.iter().enumerate() {
        match number::read(w, false, false) {
            Some(v) if (0.0..=1e6).contains(&v) && !v.is_sign_negative() => {}
            _ => {
                return format!(
                    "weight {} (“{}”) is not a number from 0 to 1,000,000: the week must be {all}",
                    i + 1,
                    w.trim()
                )
            }
        }
    }
    format!(
        "{} weights given: the week must be {all}",
        crate::format::thousands(weights.len() as f64)
    )
}
