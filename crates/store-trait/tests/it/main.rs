//! Integration tests of `store-trait`: the conformance suite against `InMemoryBackend`, directly
//! (one test per check) and through the forwarding implementations.

mod forwarding;
mod in_memory;
