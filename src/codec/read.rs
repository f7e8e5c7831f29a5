//! Query string to scenario: every problem at once, unknown parameters as warnings.

use crate::codec::{number, spec, Checked, NumSpec, Param, Slot, PARAMS, VERSION};
use crate::curve::{CurvePoint, ThroughputCurve};
use crate::error::Problem;
use crate::fleet::Scaling;
use crate::gpu_price::Commitment;
use crate::profile::{LoadProfile, PeakHours, ProfilePreset, ProfileSpec};
use crate::scenario::{defaults, CurveChoice, OwnedInputs, Scenario};
use crate::units::Mix;
use crate::workload::{Preset, RequestShape, Workload};

mod inputs;

/// A scenario read from a query, with what was ignored.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// The scenario.
    pub scenario: Checked,
    /// Parameters that were ignored (unknown, or not applicable), each with the reason.
    pub warnings: Vec<Problem>,
}

/// `curve=own`: the user's own points rather than a dataset curve.
pub const OWN_CURVE: &str = "own";
/// `chip=other`: own points measured on a chip the dataset does not hold.
pub const OTHER_CHIP: &str = "other";

/// Most points a user's own curve may have.
const MAX_POINTS: usize = 64;

/// Why a query gives no scenario, in two kinds the JSON API answers differently.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Refused {
    /// Values that cannot be read: not a number, out of a scalar range, not an accepted word,
    /// or a composite value (`mix`, `profile`, `points`) whose syntax is wrong (HTTP 400).
    pub unreadable: Vec<Problem>,
    /// Readable values that have no answer together: two workload forms, `tokens` without
    /// `mix`, `own=1` without `capex`, a mix of nothing, a point outside the curve's ranges…
    /// (HTTP 422, like a scenario the dataset cannot answer).
    pub no_answer: Vec<Problem>,
}

impl Refused {
    /// Every problem, in the order they were found.
    pub fn all(self) -> Vec<Problem> {
        let mut all = self.unreadable;
        all.extend(self.no_answer);
        all
    }
}

/// Reads a query string (with or without a leading `?`); any problem fails the whole read.
pub fn parse(query: &str) -> Result<Parsed, Vec<Problem>> {
    parse_checked(query).map_err(Refused::all)
}

/// As [`parse`], with the problems sorted into unreadable values and combinations that have no
/// answer.
pub fn parse_checked(query: &str) -> Result<Parsed, Refused> {
    let mut r = Reader::new(query);
    let scenario = r.scenario();
    let warnings = r.leftovers();
    if r.problems.is_empty() {
        return Ok(Parsed {
            scenario: Checked::read(scenario),
            warnings,
        });
    }
    let mut refused = Refused::default();
    for (problem, readable) in r.problems {
        if readable {
            refused.no_answer.push(problem);
        } else {
            refused.unreadable.push(problem);
        }
    }
    Err(refused)
}

/// Reads a query string, putting the default in place of every bad field and returning the
/// problems beside the scenario: for pages that must render whatever link they are given.
pub fn parse_lenient(query: &str) -> (Parsed, Vec<Problem>) {
    let mut r = Reader::new(query);
    let scenario = r.scenario();
    let warnings = r.leftovers();
    let problems = std::mem::take(&mut r.problems)
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    (
        Parsed {
            scenario: Checked::read(scenario),
            warnings,
        },
        problems,
    )
}

struct Reader {
    params: Vec<(String, String, bool)>,
    /// Each problem, and whether its values were readable (a combination without an answer).
    problems: Vec<(Problem, bool)>,
    warnings: Vec<Problem>,
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).and_then(|d| u8::try_from(d).ok())
}

/// Percent-decodes a query component (`+` is a space); invalid escapes stay as they are.
pub fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = match bytes[i..] {
            [b'%', h, l, ..] => hex(h).zip(hex(l)).map(|(h, l)| h * 16 + l),
            _ => None,
        };
        match (escaped, bytes[i]) {
            (Some(b), _) => {
                out.push(b);
                i += 3;
            }
            (None, b'+') => {
                out.push(b' ');
                i += 1;
            }
            (None, b) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether `name` is a parameter of the link.
pub fn is_known(name: &str) -> bool {
    PARAMS.iter().any(|p| p.name() == name)
}

impl Reader {
    fn new(query: &str) -> Self {
        let mut r = Self {
            params: Vec::new(),
            problems: Vec::new(),
            warnings: Vec::new(),
        };
        let query = query.strip_prefix('?').unwrap_or(query);
        // Names seen, for "given more than once" in constant time (a long query of distinct
        // names once cost quadratic time).
        let mut seen = std::collections::HashSet::new();
        for piece in query.split('&').filter(|p| !p.is_empty()) {
            let (k, v) = piece.split_once('=').unwrap_or((piece, ""));
            let (k, v) = (decode(k), decode(v));
            // One rule everywhere (page, API, document): an empty value means "not given", so
            // a form's blank field (`capex=`) leaves the default in place.
            if v.is_empty() {
                continue;
            }
            if !seen.insert(k.clone()) {
                if is_known(&k) {
                    r.fail(&k, &v, "given more than once; give it once");
                }
                continue;
            }
            r.params.push((k, v, false));
        }
        r
    }

    fn has(&self, name: &str) -> bool {
        self.params.iter().any(|(k, _, _)| k == name)
    }

    fn get(&mut self, name: &str) -> Option<String> {
        self.params
            .iter_mut()
            .find(|(k, _, _)| k == name)
            .map(|(_, v, used)| {
                *used = true;
                v.clone()
            })
    }

    /// A value that cannot be read.
    fn fail(&mut self, name: &str, value: &str, reason: impl Into<String>) {
        self.problems
            .push((Problem::new(name, value, reason), false));
    }

    /// Readable values without an answer together (or a composite value's content).
    fn conflict(&mut self, name: &str, value: &str, reason: impl Into<String>) {
        self.problems
            .push((Problem::new(name, value, reason), true));
    }

    /// A parameter that does not apply: its value is still checked (a value the document
    /// refuses is refused whether or not it would be used), then it is listed as ignored.
    fn ignore(&mut self, name: &str, reason: &str) {
        let Some(v) = self.peek(name) else {
            return;
        };
        self.validate(name);
        self.warnings.push(Problem::new(name, v, reason));
    }

    /// The value of `name`, without reading it.
    fn peek(&self, name: &str) -> Option<String> {
        self.params
            .iter()
            .find(|(k, _, _)| k == name)
            .map(|(_, v, _)| v.clone())
    }

    /// Reads `name` by its kind, only for the problems that reading finds.
    fn validate(&mut self, name: &str) {
        match name {
            n if spec(n).is_some() => {
                self.number(n);
            }
            "mix" | "curve_mix" => {
                self.parts(name);
            }
            "profile" => {
                self.profile();
            }
            "points" => {
                self.points();
            }
            "model" | "api" | "curve" | "chip" | "gpu_tier" => {
                self.id(name);
            }
            "gpu_kind" => {
                self.commitment();
            }
            "chip_name" => {
                self.name(name);
            }
            "hybrid" | "own" => {
                self.flag(name);
            }
            "workload" => {
                self.preset();
            }
            "scaling" => {
                self.scaling();
            }
            _ => {
                self.get(name);
            }
        }
    }

    fn number(&mut self, name: &str) -> Option<f64> {
        self.number_of(spec(name)?)
    }

    /// Reads numeric parameter `s`, if given.
    fn number_of(&mut self, s: &NumSpec) -> Option<f64> {
        let name = s.name;
        let text = self.get(name)?;
        let value = s.read(&text);
        match value {
            // `-0` is 0: no figure of a report carries a negative zero.
            Some(v) if s.accepts(v) => Some(v + 0.0),
            _ => {
                self.fail(name, &text, format!("must be {}", s.range_text()));
                None
            }
        }
    }

    /// A name for people (`chip_name`): 1 to 60 characters, no control characters.
    fn name(&mut self, name: &str) -> Option<String> {
        let text = self.get(name)?;
        let count = text.chars().count();
        if (1..=60).contains(&count) && !text.chars().any(char::is_control) {
            Some(text)
        } else {
            self.fail(
                name,
                &text,
                "must be a name of 1 to 60 characters, without control characters",
            );
            None
        }
    }

    fn id(&mut self, name: &str) -> Option<String> {
        let text = self.get(name)?;
        let ok = (1..=64).contains(&text.len())
            && text
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
        if ok {
            Some(text)
        } else {
            self.fail(
                name,
                &text,
                "must be an id of 1 to 64 letters, digits, '.', '_' or '-'",
            );
            None
        }
    }

    /// `workload`: a preset key.
    fn preset(&mut self) -> Option<Preset> {
        let key = self.get("workload")?;
        let preset = Preset::from_key(&key);
        if preset.is_none() {
            self.fail("workload", &key, "must be coding-agent, chat, rag or batch");
        }
        preset
    }

    /// `scaling`: fixed or hourly.
    fn scaling(&mut self) -> Option<Scaling> {
        let text = self.get("scaling")?;
        // The words of `codec::SCALING`, in its order.
        match crate::codec::SCALING.iter().position(|w| *w == text) {
            Some(0) => Some(Scaling::Fixed),
            Some(_) => Some(Scaling::Hourly),
            None => {
                self.fail("scaling", &text, "must be fixed or hourly");
                None
            }
        }
    }

    fn commitment(&mut self) -> Option<Commitment> {
        let text = self.get("gpu_kind")?;
        let kind = Commitment::from_key(&text);
        if kind.is_none() {
            self.fail(
                "gpu_kind",
                &text,
                "must be on_demand, spot, reserved or owner_cost",
            );
        }
        kind
    }

    fn flag(&mut self, name: &str) -> Option<bool> {
        let text = self.get(name)?;
        match text.as_str() {
            t if crate::codec::FLAG_ON.contains(&t) => Some(true),
            t if crate::codec::FLAG_OFF.contains(&t) => Some(false),
            _ => {
                self.fail(name, &text, "must be 1 or 0");
                None
            }
        }
    }

    fn parts(&mut self, name: &str) -> Option<[f64; 3]> {
        let text = self.get(name)?;
        let values: Vec<Option<f64>> = text
            .split(':')
            .map(|p| number::read(p, false, true).filter(|v| !v.is_sign_negative()))
            .collect();
        match values.as_slice() {
            [Some(a), Some(b), Some(c)] => {
                if Mix::from_parts(*a, *b, *c).is_some() {
                    Some([*a, *b, *c])
                } else {
                    self.conflict(
                        name,
                        &text,
                        "is a mix of nothing: at least one of input:cached:output must be positive",
                    );
                    None
                }
            }
            _ => {
                self.fail(
                    name,
                    &text,
                    "must be three non-negative parts input:cached:output with a positive sum, e.g. 2:7:1",
                );
                None
            }
        }
    }

    fn scenario(&mut self) -> Scenario {
        let d = Scenario::default();
        if let Some(v) = self.get("v") {
            if v != VERSION.to_string() {
                self.fail("v", &v, "unsupported link version; this server reads v=1");
            }
        }
        let workload = self.workload().unwrap_or_else(|| d.workload.clone());
        let curve = self.curve();
        // With a dataset curve, `curve_mix` is your reading of the mix it was measured at.
        let dataset_curve_mix = match &curve {
            CurveChoice::Dataset { .. } if self.has("curve_mix") => {
                let m = self.parts("curve_mix");
                match m {
                    Some(m) if m[2] > 0.0 => Some(m),
                    Some(m) => {
                        self.conflict(
                            "curve_mix",
                            &format!("{}:{}:{}", m[0], m[1], m[2]),
                            "needs a positive output part: the decode rate is derived from it",
                        );
                        None
                    }
                    None => None,
                }
            }
            _ => None,
        };
        let chip_name = match &curve {
            CurveChoice::Own {
                chip: Some(chip), ..
            } if chip == OTHER_CHIP => self.name("chip_name"),
            _ => {
                self.ignore(
                    "chip_name",
                    "ignored: applies only with chip=other (your points on a chip not in the dataset)",
                );
                None
            }
        };
        let owned = self.owned();
        let scaling = self.scaling().unwrap_or(Scaling::Fixed);
        let scaling = if scaling == Scaling::Hourly && owned.is_some() {
            self.conflict(
                "scaling",
                "hourly",
                "hourly autoscaling needs rented GPUs; owned hardware (own=1) is paid every hour: use fixed",
            );
            Scaling::Fixed
        } else {
            scaling
        };
        let mut s = Scenario {
            workload,
            curve,
            scaling,
            owned,
            curve_mix: dataset_curve_mix,
            chip_name,
            ..d
        };
        self.rest(&mut s);
        s
    }

    /// Every parameter the steps above leave, in the link's order (so that problems come in
    /// it): the model, the profile, the API offer, the GPU-hour price with its terms, the hybrid
    /// and every number of the scenario's own fields.
    fn rest(&mut self, s: &mut Scenario) {
        for param in PARAMS {
            match param {
                Param::Text(spec) => match spec.name {
                    "model" => s.model = self.id("model"),
                    "profile" => {
                        if let Some(profile) = self.profile() {
                            s.profile = profile;
                        }
                    }
                    "api" => s.api = self.id("api"),
                    "hybrid" => s.hybrid = self.flag("hybrid").unwrap_or(s.hybrid),
                    _ => {}
                },
                Param::Number(spec) if spec.name == "gpu_hour" => {
                    (s.gpu_hour, s.gpu_tier, s.gpu_kind) = self.gpu_price(s.owned.is_some());
                }
                Param::Number(spec) => {
                    let set = match spec.slot {
                        Some(Slot::Value { set, .. } | Slot::Given { set, .. }) => set,
                        _ => continue,
                    };
                    if !self.has(spec.name) || self.was_read(spec.name) {
                        continue;
                    }
                    if let Some(v) = self.number_of(spec) {
                        set(s, v);
                    }
                }
            }
        }
    }

    /// Whether a step has read `name` already.
    fn was_read(&self, name: &str) -> bool {
        self.params.iter().any(|(k, _, used)| k == name && *used)
    }

    /// Warnings for every parameter nothing read.
    fn leftovers(&mut self) -> Vec<Problem> {
        let unused: Vec<(String, String)> = self
            .params
            .iter()
            .filter(|(_, _, used)| !used)
            .map(|(k, v, _)| (k.clone(), v.clone()))
            .collect();
        for (k, v) in unused {
            if is_known(&k) {
                self.validate(&k);
                self.warnings.push(Problem::new(
                    &k,
                    v,
                    "ignored: does not apply to this scenario",
                ));
            } else {
                self.warnings
                    .push(Problem::new(&k, v, "unknown parameter, ignored"));
            }
        }
        std::mem::take(&mut self.warnings)
    }
}

#[cfg(test)]
mod tests;
