//! Integration tests of `store-kv`: the conformance suite against `InMemoryBackend`, directly
//! (one test per check) and through the forwarding implementations, and the fixture history of
//! the format tests.

mod formats;
mod forwarding;
mod in_memory;
