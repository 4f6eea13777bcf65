//! Governance events for the host's audit trail: who did what, when, and how many — never content.

use std::sync::Mutex;

use memory_core::{MemberId, Timestamp, WorkspaceId};
use serde::Serialize;

/// What happened. Variants carry ids and counts only: no memory text, query, namespace or key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
#[non_exhaustive]
pub enum AuditEvent {
    /// The owner changed the workspace's agent-memory settings.
    SettingsChanged {
        /// Whether agent memories are now enabled.
        agent_memories_enabled: bool,
        /// The retention now in force.
        retention_days: u16,
        /// Versions purged because the retention became shorter.
        purged: u64,
    },
    /// The owner deleted every agent memory of the workspace.
    OwnerDeleteAll {
        /// Versions removed.
        deleted: u64,
    },
    /// A member deleted their own memories (one key or all).
    MemberDelete {
        /// Versions removed.
        deleted: u64,
    },
    /// An agent forgot a memory.
    Forget {
        /// The credential that asked.
        credential: String,
        /// Versions removed.
        deleted: u64,
    },
    /// The retention purge ran.
    Purge {
        /// Versions removed.
        purged: u64,
    },
    /// A host-reported source deletion purged memories citing it.
    SourceDeletionPurge {
        /// `document` or `collection`.
        source: &'static str,
        /// Versions removed.
        purged: u64,
    },
    /// A member was removed from the workspace; their memories were purged.
    MemberRemovedPurge {
        /// Versions removed.
        purged: u64,
    },
    /// The workspace stopped retaining; every agent memory was purged.
    WorkspaceStoppedRetainingPurge {
        /// Versions removed.
        purged: u64,
    },
    /// A memory store was deleted with its memories and versions.
    MemoryStoreDeleted {
        /// The store.
        memory_store_id: String,
    },
    /// A memory version was redacted (content, path, hash and size cleared).
    MemoryVersionRedacted {
        /// The store.
        memory_store_id: String,
        /// The version.
        version_id: String,
    },
}

/// One audit record: the event with its actor and time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AuditRecord {
    /// When it happened.
    pub at: Timestamp,
    /// The workspace.
    pub workspace: WorkspaceId,
    /// The member who acted or whose memories were affected; `None` for host-initiated events.
    pub actor: Option<MemberId>,
    /// What happened.
    #[serde(flatten)]
    pub event: AuditEvent,
}

/// Receives governance events. The default sink drops them.
pub trait AuditSink: Send + Sync {
    /// Records one event; must not fail the operation that caused it.
    fn record(&self, record: AuditRecord);
}

/// Drops every event.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoopAuditSink;

impl AuditSink for NoopAuditSink {
    fn record(&self, _record: AuditRecord) {}
}

/// Keeps events in memory; for tests and hosts that forward them in batches.
#[derive(Debug, Default)]
pub struct MemoryAuditSink(Mutex<Vec<AuditRecord>>);

impl MemoryAuditSink {
    /// An empty sink.
    pub fn new() -> Self {
        Self::default()
    }

    /// Every event recorded so far, oldest first.
    pub fn records(&self) -> Vec<AuditRecord> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }
}

impl AuditSink for MemoryAuditSink {
    fn record(&self, record: AuditRecord) {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(record);
    }
}
