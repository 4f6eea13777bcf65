//! Schema builders (feature `openapi`) for the few wire shapes `utoipa`'s derive cannot state
//! (a single-valued constant, a map whose keys are an enum), used next to those types, and the
//! `$ref` helpers the OpenAPI document of `agent-memory` is assembled with.
//!
//! Every other wire type derives `utoipa::ToSchema` where it is defined. This module uses no
//! other module of the crate.

use utoipa::ToSchema;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{
    AdditionalProperties, AnyOfBuilder, ArrayBuilder, ArrayItems, KnownFormat, ObjectBuilder,
    OneOfBuilder, Schema, SchemaFormat, SchemaType, Type,
};

/// `#/components/schemas/<name>`.
pub fn reference(name: &str) -> RefOr<Schema> {
    RefOr::Ref(utoipa::openapi::Ref::from_schema_name(name))
}

/// The `$ref` of a named schema type (its name is [`ToSchema::name`]).
pub fn reference_to<T: ToSchema>() -> RefOr<Schema> {
    reference(&T::name())
}

/// A string of `min..=max` characters (Unicode scalar values, as JSON Schema counts them).
pub fn string(min: Option<usize>, max: Option<usize>) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length(min)
        .max_length(max)
}

/// An integer within `min..=max`, with the value taken when the field is absent.
pub fn integer(min: u64, max: u64, default: Option<u64>) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .minimum(Some(min as f64))
        .maximum(Some(max as f64))
        .default(default.map(serde_json::Value::from))
}

/// An RFC 3339 instant.
pub fn date_time() -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime)))
}

/// An object that refuses every field it does not list (`additionalProperties: false`).
pub fn closed_object() -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .additional_properties(Some(AdditionalProperties::<Schema>::FreeForm(false)))
}

/// The one string `value` (a single-valued `enum`, which every OpenAPI tool reads).
pub fn constant(value: &str) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some([value]))
}

/// Only `null` (a field of another form that may be sent as `null`, which reads as absent).
pub fn null() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::Null)
}

/// Exactly one of `forms`.
pub fn one_of(
    forms: impl IntoIterator<Item = impl Into<RefOr<Schema>>>,
    description: &str,
) -> RefOr<Schema> {
    let mut builder = OneOfBuilder::new().description(Some(description));
    for form in forms {
        builder = builder.item(form);
    }
    builder.into()
}

/// `schema`, or `null`: the JSON edge reads an optional field sent as `null` as absent. An
/// inline object gets `null` added to its `type`; a `$ref` or a composite is wrapped in `anyOf`.
pub fn nullable(schema: impl Into<RefOr<Schema>>) -> RefOr<Schema> {
    match schema.into() {
        RefOr::T(Schema::Object(mut object)) => {
            object.schema_type = match object.schema_type {
                SchemaType::Type(t) => SchemaType::from_iter([t, Type::Null]),
                SchemaType::Array(mut types) => {
                    types.push(Type::Null);
                    SchemaType::Array(types)
                }
                SchemaType::AnyValue => SchemaType::AnyValue,
            };
            RefOr::T(Schema::Object(object))
        }
        other => AnyOfBuilder::new()
            .item(other)
            .item(ObjectBuilder::new().schema_type(Type::Null))
            .into(),
    }
}

/// A pattern matching every string except `word` exactly, written without look-around so that
/// ECMA-262 and the common regex engines read it alike: a string of another length, or one that
/// differs from `word` at some position. `word` is ASCII without regex metacharacters.
pub fn not_exactly(word: &str) -> String {
    let n = word.len();
    let mut branches = vec![
        format!("[\\s\\S]{{0,{}}}", n - 1),
        format!("[\\s\\S]{{{},}}", n + 1),
    ];
    for (i, c) in word.char_indices() {
        branches.push(format!(
            "{}[^{c}][\\s\\S]{{{}}}",
            &word[..i],
            n - i - c.len_utf8()
        ));
    }
    format!("^(?:{})$", branches.join("|"))
}

/// A constant wire value that has a type of its own (a `type` tag, `evidence`, `trust`).
pub(crate) fn constant_schema(value: serde_json::Value) -> RefOr<Schema> {
    let schema_type = if value.is_boolean() {
        Type::Boolean
    } else {
        Type::String
    };
    ObjectBuilder::new()
        .schema_type(schema_type)
        .enum_values(Some([value]))
        .into()
}

/// An array of `items`, with at most `max` of them.
pub fn array(items: impl Into<RefOr<Schema>>, max: Option<usize>) -> ArrayBuilder {
    ArrayBuilder::new()
        .items(ArrayItems::RefOrSchema(Box::new(items.into())))
        .max_items(max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_exactly_spells_every_other_string() {
        let re = not_exactly("abc");
        assert_eq!(
            re,
            "^(?:[\\s\\S]{0,2}|[\\s\\S]{4,}|[^a][\\s\\S]{2}|a[^b][\\s\\S]{1}|ab[^c][\\s\\S]{0})$"
        );
    }
}
