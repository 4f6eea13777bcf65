//! Every conformance check (scenarios, races, the model-based test) on `InMemoryBackend`.

store_conformance::conformance_tests!(store_kv::InMemoryBackend::new);
