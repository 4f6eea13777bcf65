//! [`Guarded`]: a backend together with what must outlive it, for factories of durable
//! backends.

use std::ops::Deref;

/// A backend and a guard dropped after it, such as the temporary directory of a durable
/// backend's files. It dereferences to `backend`, so it is a [`Backend`](store_trait::Backend), a
/// [`StoreBackend`](store_trait::StoreBackend) and a [`Database`](store_trait::Database) whenever `backend`
/// is.
///
/// ```
/// use store_kv::InMemoryBackend;
/// use store_conformance::Guarded;
///
/// // A durable backend's factory would open its files in a fresh temporary directory and
/// // return the directory as the guard.
/// let make = || Guarded { backend: InMemoryBackend::new(), guard: () };
/// store_conformance::settings_roundtrip(&make);
/// ```
#[derive(Debug, Default)]
pub struct Guarded<B, G> {
    /// The backend under test (dropped first: fields drop in declaration order).
    pub backend: B,
    /// What must stay alive while the backend is open.
    pub guard: G,
}

impl<B, G> Deref for Guarded<B, G> {
    type Target = B;

    fn deref(&self) -> &B {
        &self.backend
    }
}
