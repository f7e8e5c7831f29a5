//! JSON files read as [`serde_json::Value`], strictly and within bounds: an object that gives a
//! key twice is refused naming the key (a plain parse keeps the last silently), and a document
//! of more than [`MAX_OBJECTS`] objects or [`MAX_VALUES`] values is refused as soon as the parse
//! passes the limit, before any entry is read, so a file over them costs time in proportion to
//! what was read of it.

use std::cell::Cell;
use std::fmt;

use serde::de::{DeserializeSeed, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// Most objects one JSON file holds: entries of a price table, rows of a benchmark file. The
/// full public tables hold far fewer (LiteLLM's 3,368, genai-prices' 6,031).
pub const MAX_OBJECTS: usize = 20_000;
/// Most values (numbers, strings, objects, arrays…) one JSON file holds (LiteLLM's full table:
/// 41,582).
pub const MAX_VALUES: usize = 500_000;

/// What a document has used of its limits so far.
struct Budget {
    objects: Cell<usize>,
    values: Cell<usize>,
    max_objects: usize,
    max_values: usize,
}

impl Budget {
    fn value<E: serde::de::Error>(&self) -> Result<(), E> {
        let n = self.values.get() + 1;
        self.values.set(n);
        if n > self.max_values {
            return Err(E::custom(format!(
                "more than {} values; one file holds at most that many: split it and import \
                 the parts in several runs",
                servecost::format::thousands(self.max_values as f64)
            )));
        }
        Ok(())
    }

    fn object<E: serde::de::Error>(&self) -> Result<(), E> {
        let n = self.objects.get() + 1;
        self.objects.set(n);
        if n > self.max_objects {
            return Err(E::custom(format!(
                "more than {} objects (entries, rows); one file holds at most that many: split \
                 it and import the parts in several runs",
                servecost::format::thousands(self.max_objects as f64)
            )));
        }
        Ok(())
    }
}

/// One value of the document, read under the budget.
#[derive(Clone, Copy)]
struct Strict<'a>(&'a Budget);

impl<'de> DeserializeSeed<'de> for Strict<'_> {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Value, E> {
        self.0.value()?;
        Ok(Value::Bool(v))
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Value, E> {
        self.0.value()?;
        Ok(Value::from(v))
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Value, E> {
        self.0.value()?;
        Ok(Value::from(v))
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Value, E> {
        self.0.value()?;
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Value, E> {
        self.0.value()?;
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Value, E> {
        self.0.value()?;
        Ok(Value::String(v))
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Value, E> {
        self.0.value()?;
        Ok(Value::Null)
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<Value, E> {
        self.visit_unit()
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.0.value()?;
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(self)? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        self.0.value()?;
        self.0.object()?;
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                return Err(A::Error::custom(format!(
                    "the key {key:?} is given twice in one object: keep one"
                )));
            }
            let value = map.next_value_seed(self)?;
            out.insert(key, value);
        }
        Ok(Value::Object(out))
    }
}

/// `text` as a JSON value: a key given twice, or a document over [`MAX_OBJECTS`] or
/// [`MAX_VALUES`], is an error (with its line and column).
pub fn parse(text: &str) -> Result<Value, serde_json::Error> {
    parse_within(text, MAX_OBJECTS, MAX_VALUES)
}

/// [`parse`] with other limits.
fn parse_within(
    text: &str,
    max_objects: usize,
    max_values: usize,
) -> Result<Value, serde_json::Error> {
    let budget = Budget {
        objects: Cell::new(0),
        values: Cell::new(0),
        max_objects,
        max_values,
    };
    let mut de = serde_json::Deserializer::from_str(text);
    let value = Strict(&budget).deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_given_twice_are_refused_by_name_and_place() {
        let e = parse("{\"a\": {\"x\": 1,\n \"x\": 2}}").expect_err("twice");
        let text = e.to_string();
        assert!(text.contains("the key \"x\" is given twice"), "{text}");
        assert_eq!(e.line(), 2);
        let v = parse(r#"{"a": [1, 2.5, "s", null, true, {"b": -3}]}"#).expect("reads");
        assert_eq!(
            v,
            serde_json::json!({"a": [1, 2.5, "s", null, true, {"b": -3}]})
        );
        assert!(parse("{} x").is_err());
    }

    #[test]
    fn a_document_over_its_limits_is_refused_where_it_passes_them() {
        let many = format!("[{}]", ["{}"; 11].join(","));
        let e = parse_within(&many, 10, 1_000).expect_err("objects");
        assert!(e.to_string().contains("more than 10 objects"), "{e}");
        // The parse stopped at the eleventh object, not at the end.
        assert!(e.column() < many.len(), "{}", e.column());
        let e = parse_within("[1,2,3,4]", 10, 3).expect_err("values");
        assert!(e.to_string().contains("more than 3 values"), "{e}");
        assert!(parse_within(&many, 11, 1_000).is_ok());
    }
}
