//! Integration tests for `pii-mask`: the specification's examples and property tests.

mod adversarial;
mod corpus;
mod digit_groups;
mod elsewhere;
mod emails;
mod examples;
mod heldout;
mod props;
#[cfg(feature = "utoipa")]
mod schema;
mod secrets;
