//! Integration tests for `pii-mask`: the specification's examples and property tests.

mod adversarial;
mod corpus;
mod examples;
mod props;
mod secrets;
