//! What an import changes: the rows of the incoming files that are new or differ from the
//! dataset in force, and each change in words. Rows are keyed as in the schema (a source by
//! `key`, a curve by `id`, a price tier by chip and tier…); an imported row whose key exists and
//! whose content is the same changes nothing.

use std::collections::{BTreeMap, BTreeSet};

use crate::rows::Rows;
use serde::Serialize;

/// What an import does to one row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    /// `source`, `model`, `curve`…
    pub kind: &'static str,
    /// Its key.
    pub key: String,
    /// True for a key the dataset does not have yet.
    pub new: bool,
    /// The fields whose content changes, with the old and new values (empty for a new row).
    pub fields: Vec<(String, String, String)>,
}

impl std::fmt::Display for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.new {
            return write!(f, "+ new {} {}", self.kind, self.key);
        }
        write!(f, "~ {} {}:", self.kind, self.key)?;
        for (field, old, new) in &self.fields {
            write!(f, " {field} {old} -> {new};")?;
        }
        Ok(())
    }
}

fn field_changes(
    old: &serde_json::Value,
    new: &serde_json::Value,
) -> Vec<(String, String, String)> {
    let (Some(old), Some(new)) = (old.as_object(), new.as_object()) else {
        return vec![("row".into(), old.to_string(), new.to_string())];
    };
    let keys: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    keys.into_iter()
        .filter_map(|k| {
            let (a, b) = (old.get(k), new.get(k));
            (a != b).then(|| {
                let show = |v: Option<&serde_json::Value>| {
                    let text = v.map_or_else(|| "null".to_owned(), ToString::to_string);
                    if text.chars().count() > 80 {
                        format!("{}…", text.chars().take(80).collect::<String>())
                    } else {
                        text
                    }
                };
                (k.clone(), show(a), show(b))
            })
        })
        .collect()
}

/// The rows of `incoming` that are new or differ from `current`, and the changes they make.
pub fn plan(current: &Rows, incoming: &Rows) -> (Rows, Vec<Change>) {
    let now: BTreeMap<(&str, String), serde_json::Value> = current
        .keyed()
        .into_iter()
        .map(|(kind, key, value)| ((kind, key), value))
        .collect();
    let mut changes = Vec::new();
    let mut keep = BTreeSet::new();
    for (kind, key, value) in incoming.keyed() {
        match now.get(&(kind, key.clone())) {
            None => changes.push(Change {
                kind,
                key: key.clone(),
                new: true,
                fields: Vec::new(),
            }),
            Some(old) if *old != value => changes.push(Change {
                kind,
                key: key.clone(),
                new: false,
                fields: field_changes(old, &value),
            }),
            Some(_) => continue,
        }
        keep.insert((kind, key));
    }
    let rows = incoming.filtered(|kind, key| keep.contains(&(kind, key)));
    (rows, changes)
}
