//! A serializer that walks any `Serialize` value and fails on the first non-finite float, so a
//! test can check every number in a report (serde_json would silently write NaN as null).

use serde::ser::{self, Serialize};
use std::fmt;

#[derive(Debug)]
pub struct NonFinite(pub String);

impl fmt::Display for NonFinite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NonFinite {}

impl ser::Error for NonFinite {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        NonFinite(msg.to_string())
    }
}

pub struct Finite;

type R = Result<(), NonFinite>;

macro_rules! ok {
    ($($name:ident: $t:ty),*) => { $(fn $name(self, _: $t) -> R { Ok(()) })* };
}

impl ser::Serializer for Finite {
    type Ok = ();
    type Error = NonFinite;
    type SerializeSeq = Finite;
    type SerializeTuple = Finite;
    type SerializeTupleStruct = Finite;
    type SerializeTupleVariant = Finite;
    type SerializeMap = Finite;
    type SerializeStruct = Finite;
    type SerializeStructVariant = Finite;

    ok!(serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
        serialize_i64: i64, serialize_u8: u8, serialize_u16: u16, serialize_u32: u32,
        serialize_u64: u64, serialize_char: char, serialize_str: &str, serialize_bytes: &[u8]);

    fn serialize_f32(self, v: f32) -> R {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> R {
        if v.is_finite() {
            Ok(())
        } else {
            Err(NonFinite(format!("non-finite number {v}")))
        }
    }
    fn serialize_none(self) -> R {
        Ok(())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, v: &T) -> R {
        v.serialize(Finite)
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
        v.serialize(Finite)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        v: &T,
    ) -> R {
        v.serialize(Finite)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Finite, NonFinite> {
        Ok(Finite)
    }
    fn serialize_tuple(self, _: usize) -> Result<Finite, NonFinite> {
        Ok(Finite)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Finite, NonFinite> {
        Ok(Finite)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Finite, NonFinite> {
        Ok(Finite)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Finite, NonFinite> {
        Ok(Finite)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Finite, NonFinite> {
        Ok(Finite)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Finite, NonFinite> {
        Ok(Finite)
    }
}

macro_rules! compound {
    ($trait:ident, $method:ident $(, $key:ident)?) => {
        impl ser::$trait for Finite {
            type Ok = ();
            type Error = NonFinite;
            fn $method<T: ?Sized + Serialize>(&mut self, $($key: &'static str,)? v: &T) -> R {
                $(let _ = $key;)?
                v.serialize(Finite)
            }
            fn end(self) -> R {
                Ok(())
            }
        }
    };
}

compound!(SerializeSeq, serialize_element);
compound!(SerializeTuple, serialize_element);
compound!(SerializeTupleStruct, serialize_field);
compound!(SerializeTupleVariant, serialize_field);
compound!(SerializeStruct, serialize_field, key);
compound!(SerializeStructVariant, serialize_field, key);

impl ser::SerializeMap for Finite {
    type Ok = ();
    type Error = NonFinite;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, k: &T) -> R {
        k.serialize(Finite)
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, v: &T) -> R {
        v.serialize(Finite)
    }
    fn end(self) -> R {
        Ok(())
    }
}

/// Fails with the first non-finite number in `value`.
pub fn check<T: Serialize>(value: &T) -> R {
    value.serialize(Finite)
}
