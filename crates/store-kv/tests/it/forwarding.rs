//! The whole suite through `run_all`, on a backend behind `Arc` inside a `Guarded`: the
//! forwarding implementations answer exactly like the backend they wrap.

use std::sync::Arc;

use store_conformance::{Guarded, run_all};
use store_kv::InMemoryBackend;

#[test]
fn a_shared_guarded_backend_passes_the_suite() {
    run_all(&|| Guarded {
        backend: Arc::new(InMemoryBackend::new()),
        guard: (),
    });
}
