//! What the schema derive cannot state (feature `openapi`): the schema of a boolean constant
//! (a memory view's `evidence: false`), and the `$ref` the OpenAPI document of `agent-memory` is
//! assembled with.
//!
//! Every other wire type derives `utoipa::ToSchema` where it is defined. This module uses no
//! other module of the crate.

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{Object, ObjectBuilder, Schema, Type};

/// `#/components/schemas/<name>`.
pub fn reference(name: &str) -> RefOr<Schema> {
    RefOr::Ref(utoipa::openapi::Ref::from_schema_name(name))
}

/// `false` and nothing else: a memory view's `evidence`. The derive states constants of the
/// strings and integers an enum is written with, not a boolean, so `MemoryView` names this
/// builder with `schema_with`.
pub(crate) fn only_false() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::Boolean)
        .enum_values(Some([false]))
        .description(Some("Always `false`."))
        .build()
}

/// A pattern matching every string except `word` exactly, written without look-around so that
/// ECMA-262 and the common regex engines read it alike: a string of another length, or one that
/// differs from `word` at some position. `word` is ASCII without regex metacharacters. The tests
/// check the patterns written as literals in schema attributes against it.
#[cfg(test)]
pub(crate) fn not_exactly(word: &str) -> String {
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
