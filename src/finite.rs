//! Every number that leaves the engine is finite: a serializer that walks any `Serialize` value
//! (a whole [`crate::Report`]) and names the first non-finite float by its field path, e.g.
//! `power.operating_point.tokens_per_s_per_gpu`. JSON would write NaN and infinities as
//! `null` (where the schema says number) and CSV as `NaN` or `inf`; the engine returns a problem
//! instead.

use serde::ser::{self, Serialize};
use std::fmt;

/// The path of the first non-finite number found, and its value.
#[derive(Debug, Clone, PartialEq)]
pub struct NonFinite {
    /// Field path from the root, `.`-separated, with `[i]` for list elements.
    pub path: String,
    /// The number (NaN or an infinity), or a serializer message.
    pub value: String,
}

impl fmt::Display for NonFinite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is {}", self.path, self.value)
    }
}

impl std::error::Error for NonFinite {}

/// Fails with the first non-finite number in `value`, named by its path. The walk allocates
/// nothing while every number is finite: the path is put together only for the one that is not.
pub fn check<T: Serialize + ?Sized>(value: &T) -> Result<(), NonFinite> {
    value.serialize(Walker).map_err(|found| {
        let mut path = String::new();
        for step in found.steps.iter().rev() {
            match step {
                Step::Key(key) => {
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(key);
                }
                Step::Index(i) => path.push_str(&format!("[{i}]")),
            }
        }
        NonFinite {
            path,
            value: found.value,
        }
    })
}

/// One step of a path: a field, or a list element.
enum Step {
    Key(&'static str),
    Index(usize),
}

/// What the walk found: the value, and its path from the inside out.
#[derive(Debug)]
struct Found {
    steps: Vec<Step>,
    value: String,
}

impl fmt::Debug for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Key(k) => write!(f, ".{k}"),
            Step::Index(i) => write!(f, "[{i}]"),
        }
    }
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.value)
    }
}

impl std::error::Error for Found {}

impl ser::Error for Found {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Found {
            steps: Vec::new(),
            value: msg.to_string(),
        }
    }
}

impl Found {
    fn at(mut self, step: Step) -> Self {
        self.steps.push(step);
        self
    }
}

/// Walks one value.
struct Walker;

/// Walks the parts of a compound value.
struct Parts {
    index: usize,
}

impl Parts {
    fn element<T: ?Sized + Serialize>(&mut self, v: &T) -> R {
        let i = self.index;
        self.index += 1;
        v.serialize(Walker).map_err(|e| e.at(Step::Index(i)))
    }
}

type R = Result<(), Found>;

macro_rules! fine {
    ($($name:ident: $t:ty),*) => { $(fn $name(self, _: $t) -> R { Ok(()) })* };
}

impl ser::Serializer for Walker {
    type Ok = ();
    type Error = Found;
    type SerializeSeq = Parts;
    type SerializeTuple = Parts;
    type SerializeTupleStruct = Parts;
    type SerializeTupleVariant = Parts;
    type SerializeMap = Parts;
    type SerializeStruct = Parts;
    type SerializeStructVariant = Parts;

    fine!(serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
        serialize_i64: i64, serialize_u8: u8, serialize_u16: u16, serialize_u32: u32,
        serialize_u64: u64, serialize_char: char, serialize_str: &str, serialize_bytes: &[u8]);

    fn serialize_f32(self, v: f32) -> R {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> R {
        if v.is_finite() {
            Ok(())
        } else {
            Err(Found {
                steps: Vec::new(),
                value: v.to_string(),
            })
        }
    }
    fn serialize_none(self) -> R {
        Ok(())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, v: &T) -> R {
        v.serialize(self)
    }
    fn serialize_unit(self) -> R {
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> R {
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> R {
        Ok(())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, v: &T) -> R {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        v: &T,
    ) -> R {
        v.serialize(self)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Parts, Found> {
        Ok(Parts { index: 0 })
    }
    fn serialize_tuple(self, _: usize) -> Result<Parts, Found> {
        Ok(Parts { index: 0 })
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Parts, Found> {
        Ok(Parts { index: 0 })
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Parts, Found> {
        Ok(Parts { index: 0 })
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Parts, Found> {
        Ok(Parts { index: 0 })
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Parts, Found> {
        Ok(Parts { index: 0 })
    }
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Parts, Found> {
        self.serialize_tuple_variant(name, index, variant, len)
    }
}

macro_rules! elements {
    ($($trait:ident: $method:ident),*) => {$(
        impl ser::$trait for Parts {
            type Ok = ();
            type Error = Found;
            fn $method<T: ?Sized + Serialize>(&mut self, v: &T) -> R {
                self.element(v)
            }
            fn end(self) -> R {
                Ok(())
            }
        }
    )*};
}

elements!(SerializeSeq: serialize_element, SerializeTuple: serialize_element,
    SerializeTupleStruct: serialize_field, SerializeTupleVariant: serialize_field);

macro_rules! fields {
    ($($trait:ident),*) => {$(
        impl ser::$trait for Parts {
            type Ok = ();
            type Error = Found;
            fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, v: &T) -> R {
                v.serialize(Walker).map_err(|e| e.at(Step::Key(key)))
            }
            fn end(self) -> R {
                Ok(())
            }
        }
    )*};
}

fields!(SerializeStruct, SerializeStructVariant);

impl ser::SerializeMap for Parts {
    type Ok = ();
    type Error = Found;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, k: &T) -> R {
        self.element(k)
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, v: &T) -> R {
        self.element(v)
    }
    fn end(self) -> R {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize)]
    struct Inner {
        a: f64,
        list: Vec<f64>,
    }

    #[derive(serde::Serialize)]
    struct Outer {
        name: &'static str,
        inner: Option<Inner>,
    }

    #[test]
    fn names_the_path_of_the_first_non_finite_number() {
        let ok = Outer {
            name: "x",
            inner: Some(Inner {
                a: 1.0,
                list: vec![1.0, 2.0],
            }),
        };
        assert_eq!(check(&ok), Ok(()));
        let bad = Outer {
            name: "x",
            inner: Some(Inner {
                a: 1.0,
                list: vec![1.0, f64::NAN],
            }),
        };
        let err = check(&bad).expect_err("NaN");
        assert_eq!(err.path, "inner.list[1]");
        let inf = Inner {
            a: f64::INFINITY,
            list: vec![],
        };
        assert_eq!(check(&inf).expect_err("inf").path, "a");
    }
}
