//! Integration tests pinning memory-core's wire formats and invariants to the specs.

mod errors;
mod ids;
mod paths;
mod stores;
mod time;
mod views;
