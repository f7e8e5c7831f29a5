//! A scenario the codec has checked: what `evaluate` takes.

use std::borrow::Cow;
use std::ops::Deref;
use std::sync::OnceLock;

use crate::codec::{parse, to_query};
use crate::error::Problem;
use crate::scenario::Scenario;

/// A scenario whose every value is within its range and whose combination the link could
/// answer: one the codec read from a link (`Parsed::scenario`), or one made in code and passed
/// through the codec ([`Checked::new`]). It reads as a [`Scenario`]; changing it means making a
/// new one, which is checked again.
#[derive(Debug, Clone)]
pub struct Checked(Scenario, OnceLock<String>);

impl Checked {
    /// Checks a scenario made in code by writing it as a link and reading it back: the one
    /// reader every link goes through, so its problems name their parameters as a link's do.
    pub fn new(scenario: &Scenario) -> Result<Self, Vec<Problem>> {
        let query = to_query(scenario);
        let checked = parse(&query)?.scenario;
        // Writing the scenario read back gives the same link (the codec's round trip).
        let _ = checked.1.set(query);
        Ok(checked)
    }

    /// The codec's own: `scenario` was just read and checked.
    pub(super) fn read(scenario: Scenario) -> Self {
        Self(scenario, OnceLock::new())
    }

    /// The scenario, to change and check again.
    pub fn into_scenario(self) -> Scenario {
        self.0
    }

    /// Its link, written once.
    pub fn query(&self) -> &str {
        self.1.get_or_init(|| to_query(&self.0))
    }
}

/// Two checked scenarios are the same when they write the same link: the codec's round trip
/// makes the link the scenario, and the link is written once.
impl PartialEq for Checked {
    fn eq(&self, other: &Self) -> bool {
        self.query() == other.query()
    }
}

/// The default scenario reads from the empty link: it is checked.
impl Default for Checked {
    fn default() -> Self {
        Self::read(Scenario::default())
    }
}

impl Deref for Checked {
    type Target = Scenario;

    fn deref(&self) -> &Scenario {
        &self.0
    }
}

impl PartialEq<Scenario> for Checked {
    fn eq(&self, other: &Scenario) -> bool {
        self.0 == *other
    }
}

impl serde::Serialize for Checked {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// What `evaluate` accepts: a [`Checked`] scenario as it is, or a [`Scenario`] made in code,
/// checked first.
pub trait Checkable {
    /// The checked scenario.
    fn checked(&self) -> Result<Cow<'_, Checked>, Vec<Problem>>;
}

impl Checkable for Checked {
    fn checked(&self) -> Result<Cow<'_, Checked>, Vec<Problem>> {
        Ok(Cow::Borrowed(self))
    }
}

impl Checkable for Scenario {
    fn checked(&self) -> Result<Cow<'_, Checked>, Vec<Problem>> {
        Checked::new(self).map(Cow::Owned)
    }
}
