//! Reading a request body into its serde-derived wire struct, keeping the contract's order of
//! checks: an unknown field is refused before any field is looked at, and a field of the wrong
//! JSON type is reported where the contract checks that field, not where serde met it.
//!
//! serde stops at the first field it cannot read, in the order the body lists its fields. So a
//! field that does not read is noted and dropped, and the body read again, until the rest
//! reads; the request's own checks then walk the fields in the contract's order and answer a
//! noted field with that field's message. The memory-store requests of `agent-memory` read
//! their bodies the same way.

use serde::Deserialize;
use serde::de::{self, DeserializeOwned, Visitor};
use serde_json::{Map, Value};

/// Why a body could not be read.
#[derive(Debug, PartialEq, Eq)]
pub enum BodyError {
    /// Neither an object nor `null`.
    NotAnObject,
    /// A field the wire struct does not have: its name, as the client wrote it.
    UnknownField(String),
    /// A required field is missing: its name (`None` only if serde's message names none of
    /// the struct's fields). A mistyped required field is dropped and then missing; see
    /// [`Read::mistyped`] through [`BodyError::MissingAfterMistyped`].
    MissingField(Option<&'static str>),
    /// A required field's value did not read: its name.
    MissingAfterMistyped(&'static str),
}

/// A body read into `T`, with the fields that did not read (read as absent).
#[derive(Debug)]
pub struct Read<T> {
    /// The body, every mistyped field read as absent.
    pub value: T,
    /// The fields whose value did not read, in the order serde met them (the struct's own
    /// names, never the client's text).
    pub mistyped: Vec<&'static str>,
}

/// Reads `body` (`null` counts as `{}`) into `T`. A field whose value does not read is noted
/// and read as absent; when `T` requires it, that is [`BodyError::MissingField`]. (The
/// agent-memory requests give every field a default and check required ones with their rules,
/// so that a missing field and an empty one get the field's message.)
pub fn read<T: DeserializeOwned>(body: &Value) -> Result<Read<T>, BodyError> {
    let empty;
    let object = match body {
        Value::Null => {
            empty = Value::Object(Map::new());
            &empty
        }
        Value::Object(_) => body,
        _ => return Err(BodyError::NotAnObject),
    };
    let Value::Object(fields) = object else {
        return Err(BodyError::NotAnObject);
    };
    let known = field_names::<T>();
    if let Some(unknown) = fields.keys().find(|k| !known.contains(&k.as_str())) {
        return Err(BodyError::UnknownField(unknown.clone()));
    }
    // Read in place; the fields are copied only when one of them does not read.
    let mut error = match serde_path_to_error::deserialize(object) {
        Ok(value) => {
            return Ok(Read {
                value,
                mistyped: Vec::new(),
            });
        }
        Err(error) => error,
    };
    let mut rest = fields.clone();
    let mut mistyped: Vec<&'static str> = Vec::new();
    loop {
        let field = match error.path().iter().next() {
            Some(serde_path_to_error::Segment::Map { key }) => {
                known.iter().copied().find(|name| name == key)
            }
            _ => None,
        };
        // The names are known, so an error outside every field is a missing field: serde's
        // message names it, and only a name of the struct's own is taken from it.
        let Some(field) = field.filter(|field| rest.remove(*field).is_some()) else {
            let message = error.inner().to_string();
            let missing = known
                .iter()
                .copied()
                .find(|name| message == format!("missing field `{name}`"));
            return Err(match missing {
                Some(name) if mistyped.contains(&name) => BodyError::MissingAfterMistyped(name),
                other => BodyError::MissingField(other),
            });
        };
        mistyped.push(field);
        match serde_path_to_error::deserialize(&Value::Object(rest.clone())) {
            Ok(value) => return Ok(Read { value, mistyped }),
            Err(next) => error = next,
        }
    }
}

/// `#[serde(deserialize_with)]` for a field whose `null` means absent: absent and `null` read
/// as the type's default (for a required string, the empty string, which its rule refuses).
pub fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: de::Deserializer<'de>,
    T: de::Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

/// The field names `T`'s derived `Deserialize` reads, as serde lists them to the deserializer.
fn field_names<T: DeserializeOwned>() -> &'static [&'static str] {
    let mut names = None;
    let _ = T::deserialize(FieldNames(&mut names));
    names.unwrap_or(&[])
}

/// A deserializer that only records the fields a struct asks for.
struct FieldNames<'a>(&'a mut Option<&'static [&'static str]>);

#[derive(Debug)]
struct Recorded;

impl std::fmt::Display for Recorded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("field names recorded")
    }
}

impl std::error::Error for Recorded {}

impl de::Error for Recorded {
    fn custom<M: std::fmt::Display>(_: M) -> Self {
        Recorded
    }
}

impl<'de> de::Deserializer<'de> for FieldNames<'_> {
    type Error = Recorded;

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Recorded> {
        *self.0 = Some(fields);
        Err(Recorded)
    }

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Recorded> {
        Err(Recorded)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::json;

    use super::*;

    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    struct Sample {
        #[serde(default, deserialize_with = "null_as_default")]
        first_name: String,
        #[serde(default)]
        count: Option<u16>,
        #[serde(default)]
        flag: Option<bool>,
    }

    #[test]
    fn names_are_the_wire_names_in_declaration_order() {
        assert_eq!(field_names::<Sample>(), ["firstName", "count", "flag"]);
    }

    #[test]
    fn mistyped_fields_are_dropped_and_noted() {
        let read = read::<Sample>(&json!({"flag": 1, "count": "x", "firstName": "a"})).unwrap();
        assert_eq!(read.value.first_name, "a");
        assert_eq!(read.value.count, None);
        let mut noted = read.mistyped;
        noted.sort();
        assert_eq!(noted, ["count", "flag"]);
    }

    #[test]
    fn unknown_fields_win_and_null_is_an_empty_body() {
        assert_eq!(
            read::<Sample>(&json!({"count": "x", "zzz": 1})).err(),
            Some(BodyError::UnknownField("zzz".into()))
        );
        assert_eq!(
            read::<Sample>(&json!([])).err(),
            Some(BodyError::NotAnObject)
        );
        let read = read::<Sample>(&Value::Null).unwrap();
        assert_eq!(read.value.first_name, "");
        let read = super::read::<Sample>(&json!({"firstName": null, "count": null})).unwrap();
        assert!(read.mistyped.is_empty());
    }
}
