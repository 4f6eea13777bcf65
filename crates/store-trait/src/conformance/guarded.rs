//! [`Guarded`]: a backend together with what must outlive it, for factories of durable
//! backends.

use memory_core::{
    AgentMemory, AgentMemoryId, ApiError, CredentialId, Settings, Timestamp, WorkspaceId,
};

use crate::backend::forward_backend;
use crate::{Backend, Error, Owner, RememberOutcome, RememberState, RememberWrite, ScanQuery};

/// A backend and a guard dropped after it, such as the temporary directory of a durable
/// backend's files; a [`Backend`] forwarding every method to `backend`.
///
/// ```
/// use store_trait::InMemoryBackend;
/// use store_trait::conformance::Guarded;
///
/// // A durable backend's factory would open its files in a fresh temporary directory and
/// // return the directory as the guard.
/// let make = || Guarded { backend: InMemoryBackend::new(), guard: () };
/// store_trait::conformance::settings_roundtrip(&make);
/// ```
#[derive(Debug, Default)]
pub struct Guarded<B, G> {
    /// The backend under test (dropped first: fields drop in declaration order).
    pub backend: B,
    /// What must stay alive while the backend is open.
    pub guard: G,
}

forward_backend!(impl[B: Backend, G: Send + Sync] Guarded<B, G>, |this| &this.backend);

mod store {
    use memory_core::{
        MemoryStore, MemoryStoreId, MemoryVersion, MemoryVersionId, Session, SessionId,
        StoreMemory, StoreMemoryId, StoreMemoryMetadata, StorePath, Timestamp, WorkspaceId,
    };

    use super::Guarded;
    use crate::stores::forward_store_backend;
    use crate::{
        Error, MemoryWrite, MemoryWriteOutcome, RedactOutcome, StoreBackend, VacuumReport,
    };

    forward_store_backend!(impl[B: StoreBackend, G: Send + Sync] Guarded<B, G>, |this| &this.backend);
}
