//! The scenario codec: a link's query string to a validated [`Scenario`] and back.
//!
//! Versioned by `v=1`; parameters at their default are left out so links stay short; every
//! problem is reported at once, each naming the parameter, the value and the accepted range;
//! unknown parameters come back as warnings rather than being dropped silently.

mod checked;
mod number;
mod params;
mod read;
#[cfg(test)]
mod readme;
mod table;
mod write;

pub use checked::{Checkable, Checked};
pub use number::{
    monthly_of_yearly, read as read_number, read_rate, rounded as write_rounded,
    significant as write_significant, write as write_number, write_rate, yearly_of_monthly,
};
pub use params::{
    in_section, numbers, spec, texts, NumSpec, Param, Resolved, Section, Slot, TextSpec, PARAMS,
    POINT_THROUGHPUT,
};
pub use read::{
    decode, is_known, parse, parse_checked, parse_lenient, Parsed, Refused, OTHER_CHIP, OWN_CURVE,
};
pub use write::{canonical_query, to_query};

/// The codec version written into every link.
pub const VERSION: u32 = 1;

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

#[cfg(test)]
mod tests {
    #[test]
    fn the_crate_readme_documents_every_parameter() {
        let readme = include_str!("README.md");
        let names = super::PARAMS.iter().map(super::Param::name);
        for name in names {
            assert!(
                readme.contains(&format!("`{name}`")),
                "{name} is not in src/README.md"
            );
        }
    }
}
