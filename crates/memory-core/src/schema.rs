//! OpenAPI 3.1 schemas of the wire types (feature `openapi`): the `utoipa` impls of the types
//! whose JSON is written by hand (ids, instants, paths, constant tags, masked counts, error codes,
//! the error body), and the few schema builders the request types of `governance-policy` and
//! `agent-memory` describe their hand-parsed bodies with.
//!
//! Types with a plain serde shape derive `utoipa::ToSchema` where they are defined; a type whose
//! `Serialize` is written by hand gets its schema written next to it, from the same constants.

use std::borrow::Cow;

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{
    AdditionalProperties, AnyOfBuilder, ArrayBuilder, ArrayItems, KnownFormat, Object,
    ObjectBuilder, OneOfBuilder, Schema, SchemaFormat, SchemaType, Type,
};
use utoipa::{PartialSchema, ToSchema};

use crate::error::{ApiError, ErrorCode};
use crate::memory::MaskedCounts;
use crate::store::StorePath;
use crate::time::Timestamp;

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

/// The schema of an id type: its prefix and a body of 1–64 ASCII letters, digits, `_` or `-`.
pub(crate) fn id_schema(prefix: &str) -> RefOr<Schema> {
    string(
        Some(prefix.len() + 1),
        Some(prefix.len() + crate::id::ID_BODY_MAX_LEN),
    )
    .pattern(Some(format!("^{prefix}[A-Za-z0-9_-]{{1,64}}$")))
    .description(Some(format!(
        "{prefix} followed by 1 to 64 ASCII letters, digits, _ or -"
    )))
    .into()
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

impl PartialSchema for Timestamp {
    fn schema() -> RefOr<Schema> {
        date_time()
            .description(Some(
                "An RFC 3339 instant in UTC with millisecond precision, such as \
                 2026-01-01T12:00:00Z or 2026-01-01T12:00:00.250Z",
            ))
            .into()
    }
}

impl ToSchema for Timestamp {}

impl PartialSchema for StorePath {
    fn schema() -> RefOr<Schema> {
        string(Some(2), Some(StorePath::MAX_BYTES))
            .pattern(Some("^/"))
            .description(Some(
                "An absolute memory path: at most 1024 bytes and 32 segments of 1 to 255 bytes, \
                 no . or .. segment (also percent-encoded), no control character or backslash",
            ))
            .into()
    }
}

impl ToSchema for StorePath {}

impl PartialSchema for MaskedCounts {
    fn schema() -> RefOr<Schema> {
        let categories: Vec<&str> = pii_mask::Category::ALL
            .into_iter()
            .map(|c| c.as_str())
            .collect();
        let names: Object = ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(categories))
            .build();
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .property_names(Some(names))
            .additional_properties(Some(
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .minimum(Some(1.0)),
            ))
            .description(Some(
                "How many values of each category the masker replaced; only non-zero counts",
            ))
            .into()
    }
}

impl ToSchema for MaskedCounts {}

impl PartialSchema for ErrorCode {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(ErrorCode::ALL.iter().map(|c| c.as_str())))
            .description(Some("A stable machine-readable error code"))
            .into()
    }
}

impl ToSchema for ErrorCode {}

impl PartialSchema for ApiError {
    fn schema() -> RefOr<Schema> {
        let fields = closed_object()
            .property("code", reference_to::<ErrorCode>())
            .required("code")
            .property(
                "message",
                string(None, None).description(Some(
                    "For people; never carries memory text, queries or personal values",
                )),
            )
            .required("message")
            .property(
                "retryAfterSeconds",
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .minimum(Some(1.0))
                    .description(Some(
                        "Seconds until a rate-limited request may succeed (429)",
                    )),
            )
            .property(
                "current_content_sha256",
                string(Some(64), Some(64))
                    .pattern(Some("^[0-9a-f]{64}$"))
                    .description(Some(
                        "The stored content's hash, when a content_sha256 precondition failed",
                    )),
            );
        closed_object()
            .property("error", fields)
            .required("error")
            .description(Some("The error body of every refused or failed request"))
            .into()
    }
}

impl ToSchema for ApiError {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Error")
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((ErrorCode::name().into_owned(), ErrorCode::schema()));
    }
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
