//! The `utoipa` feature: `Category`'s derived schema names exactly the wire names.

use pii_mask::Category;
use utoipa::PartialSchema;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{Schema, SchemaType, Type};

#[test]
fn the_category_schema_is_the_string_enum_of_the_wire_names() {
    let RefOr::T(Schema::Object(object)) = Category::schema() else {
        panic!("Category's schema is not an inline object");
    };
    assert!(object.schema_type == SchemaType::new(Type::String));
    let values: Vec<&str> = object
        .enum_values
        .as_deref()
        .unwrap_or_default()
        .iter()
        .filter_map(|v| v.as_str())
        .collect();
    let names: Vec<&str> = Category::ALL.into_iter().map(Category::as_str).collect();
    assert_eq!(values, names);
}
