//! The crate README's parameter table, written from [`PARAMS`]: a test keeps the README's copy
//! equal to it, and `SERVECOST_BLESS=1 cargo test -p servecost readme` rewrites the copy after
//! a change to the table.

use super::params::{NumSpec, Param, Slot, TextSpec, PARAMS};
use crate::in_force::{default_shown, default_words, shown};
use crate::scenario::{OwnedInputs, Scenario};

/// The lines that enclose the table in `src/README.md`.
const START: &str = "<!-- parameters: written from src/codec/table.rs -->";
const END: &str = "<!-- end of parameters -->";

/// The table, in the link's order.
fn table() -> String {
    let mut out = String::from("| parameter | meaning | accepted | default |\n|---|---|---|---|\n");
    for p in PARAMS {
        let (name, label, accepted, default) = match p {
            Param::Number(spec) => (
                spec.name,
                spec.label,
                spec.range_text(),
                number_default(spec),
            ),
            Param::Text(TextSpec {
                name,
                label,
                accepted,
                default,
            }) => (*name, *label, (*accepted).to_owned(), (*default).to_owned()),
        };
        out.push_str(&format!(
            "| `{name}` | {label} | {accepted} | {default} |\n"
        ));
    }
    out
}

/// What applies to a numeric parameter the link leaves out, in words.
fn number_default(spec: &NumSpec) -> String {
    let none = || "none".to_owned();
    match spec.slot {
        Some(Slot::Value { .. }) => default_shown(spec.name).unwrap_or_else(none),
        Some(Slot::Owned { get, .. }) => match get(&OwnedInputs::with_capex(f64::NAN)) {
            Some(v) if v.is_nan() => "required with own=1".to_owned(),
            Some(_) => default_shown(spec.name).unwrap_or_else(none),
            None => "the chip's figure".to_owned(),
        },
        Some(Slot::Given { .. }) => default_words(spec.name).map_or_else(none, str::to_owned),
        Some(Slot::Workload { preset: true, .. }) => "the preset's".to_owned(),
        Some(Slot::Workload { default, .. }) => {
            default(&Scenario::default().workload).map_or_else(none, |v| shown(spec, v))
        }
        None => none(),
    }
}

#[test]
fn the_crate_readmes_parameter_table_is_the_codecs() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/README.md");
    let readme = std::fs::read_to_string(path).expect("src/README.md");
    let (before, rest) = readme.split_once(START).expect("the table's opening line");
    let (_, after) = rest.split_once(END).expect("the table's closing line");
    let written = format!("{before}{START}\n{}{END}{after}", table());
    if std::env::var_os("SERVECOST_BLESS").is_some() {
        std::fs::write(path, &written).expect("src/README.md written");
    }
    assert!(
        written == readme,
        "src/README.md's parameter table is not the codec's: run \
         SERVECOST_BLESS=1 cargo test -p servecost readme"
    );
}

/// The GPU-hour range's default, written out by the price's kind, is the one the sample draws.
#[test]
fn the_gpu_hour_ranges_documented_defaults_are_the_ones_drawn() {
    use crate::decision::gpu_hour_spread;
    use crate::gpu_price::Commitment;
    let slot = crate::codec::spec("u_gpu_hour").and_then(|s| s.slot);
    let Some(Slot::Given {
        resolved: Some(r), ..
    }) = slot
    else {
        panic!("u_gpu_hour resolves by the price's kind");
    };
    let kinds = [
        ("reserved", Some(Commitment::Reserved), false),
        ("on demand", Some(Commitment::OnDemand), false),
        ("spot", Some(Commitment::Spot), false),
        ("owner's cost", Some(Commitment::OwnerCost), false),
        ("owned", None, true),
        ("not stated", None, false),
    ];
    for (word, kind, owned) in kinds {
        let said = format!("{word} {}", gpu_hour_spread(kind, owned));
        assert!(r.default.contains(&said), "{said} in {}", r.default);
    }
}
