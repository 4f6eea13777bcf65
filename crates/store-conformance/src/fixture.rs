//! Builders shared by the checks: instants, owners, ids and a remember with the usual decision.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use memory_core::{
    AgentMemory, AgentMemoryId, ApiError, Citation, CredentialId, MemberId, MemoryText,
    RankingData, Timestamp, WorkspaceId,
};

use store_trait::{Backend, Owner, RememberOutcome, RememberState, RememberWrite, ScanQuery};

/// 2026-01-01T00:00:00Z: the checks' instants are offsets from it, in milliseconds.
const T0_MILLIS: i64 = 1_767_225_600_000;

/// The instant `ms` milliseconds after 2026-01-01T00:00:00Z (negative: before).
pub(super) fn t(ms: i64) -> Timestamp {
    Timestamp::from_millis_saturating(T0_MILLIS + ms)
}

pub(super) fn ws(name: &str) -> WorkspaceId {
    WorkspaceId::new(name).expect("non-empty workspace id")
}

pub(super) fn cred(name: &str) -> CredentialId {
    CredentialId::new(name).expect("non-empty credential id")
}

pub(super) fn owner(workspace: &str, member: &str) -> Owner {
    Owner::new(
        ws(workspace),
        MemberId::new(member).expect("non-empty member id"),
    )
}

/// An id whose byte order is `n`'s order.
pub(super) fn mid(n: u64) -> AgentMemoryId {
    AgentMemoryId::parse(format!("amem_{n:012}")).expect("valid id")
}

/// A fresh id, larger than any [`mid`] of a small number and than every earlier fresh id.
fn fresh_id() -> AgentMemoryId {
    static NEXT: AtomicU64 = AtomicU64::new(1_000_000);
    mid(NEXT.fetch_add(1, Ordering::Relaxed))
}

/// The masked text every check stores (masked once: the masker is not what is tested here).
pub(super) fn text() -> MemoryText {
    static TEXT: OnceLock<MemoryText> = OnceLock::new();
    TEXT.get_or_init(|| MemoryText::mask("Reply tersely").0)
        .clone()
}

/// One remember call: who, where, when, and what the record looks like.
#[derive(Debug, Clone)]
pub(super) struct Note {
    pub owner: Owner,
    pub credential: CredentialId,
    pub namespace: String,
    pub key: Option<String>,
    pub collection_id: Option<String>,
    pub citations: Vec<Citation>,
    pub at: Timestamp,
    pub id: AgentMemoryId,
    pub window_start: Timestamp,
    pub expired_cutoff: Timestamp,
    pub ranking: RankingData,
}

impl Note {
    /// A keyless note of `owner` in `namespace` at `at`, written by the credential
    /// `cred_<member>`, with a fresh id, the whole past as rate window and no expiry.
    pub fn new(owner: &Owner, namespace: &str, at: Timestamp) -> Note {
        Note {
            owner: owner.clone(),
            credential: cred(&format!("cred_{}", owner.member)),
            namespace: namespace.to_owned(),
            key: None,
            collection_id: None,
            citations: Vec::new(),
            at,
            id: fresh_id(),
            window_start: Timestamp::MIN,
            expired_cutoff: Timestamp::MIN,
            ranking: RankingData::default(),
        }
    }

    /// Stores `ranking` as the record's derived data (term counts, length, embedding), which
    /// the recall index is built from.
    pub fn ranking(mut self, ranking: RankingData) -> Note {
        self.ranking = ranking;
        self
    }

    pub fn key(mut self, key: &str) -> Note {
        self.key = Some(key.to_owned());
        self
    }

    pub fn collection(mut self, collection_id: &str) -> Note {
        self.collection_id = Some(collection_id.to_owned());
        self
    }

    /// Cites a passage of `document_id` recorded in `collection_id`.
    pub fn cites(mut self, document_id: &str, collection_id: &str) -> Note {
        self.citations.push(Citation {
            passage_id: format!("p_{document_id}_{}", self.citations.len()),
            document_id: document_id.to_owned(),
            collection_id: collection_id.to_owned(),
            document_version: 1,
            sha256: "0".repeat(64),
        });
        self
    }

    pub fn id(mut self, n: u64) -> Note {
        self.id = mid(n);
        self
    }

    pub fn credential(mut self, credential: &str) -> Note {
        self.credential = cred(credential);
        self
    }

    pub fn window_start(mut self, window_start: Timestamp) -> Note {
        self.window_start = window_start;
        self
    }

    pub fn expired_cutoff(mut self, expired_cutoff: Timestamp) -> Note {
        self.expired_cutoff = expired_cutoff;
        self
    }

    /// The record this note stores as version `version`.
    pub fn record(&self, version: u32) -> AgentMemory {
        AgentMemory {
            id: self.id.clone(),
            workspace: self.owner.workspace.clone(),
            member: self.owner.member.clone(),
            credential: self.credential.clone(),
            namespace: self.namespace.clone(),
            key: self.key.clone(),
            text: text(),
            collection_id: self.collection_id.clone(),
            version,
            citations: self.citations.clone(),
            created_at: self.at,
            superseded_at: None,
            ranking: self.ranking.clone(),
        }
    }

    /// The usual decision: the next version number, superseding the current version.
    pub fn accept(&self, state: &RememberState) -> RememberWrite {
        let version = if self.key.is_some() {
            state.last_version + 1
        } else {
            1
        };
        RememberWrite {
            record: self.record(version),
            supersede_current: state.current.is_some(),
        }
    }

    /// Calls [`Backend::remember`] for this note with `decide`.
    pub fn remember_with<B: Backend + ?Sized>(
        &self,
        backend: &B,
        decide: &mut dyn FnMut(&RememberState) -> Result<RememberWrite, ApiError>,
    ) -> Result<RememberOutcome, store_trait::Error> {
        let key = self.key.as_deref().map(|k| (self.namespace.as_str(), k));
        backend.remember(
            &self.owner,
            &self.credential,
            key,
            self.window_start,
            self.expired_cutoff,
            decide,
        )
    }

    /// Remembers this note with the usual decision; returns the state the decision saw, the
    /// stored record and the version it superseded.
    pub fn remember<B: Backend + ?Sized>(
        &self,
        backend: &B,
    ) -> (RememberState, AgentMemory, Option<AgentMemory>) {
        let mut seen = None;
        let outcome = self
            .remember_with(backend, &mut |state| {
                seen = Some(state.clone());
                Ok(self.accept(state))
            })
            .expect("remember succeeds");
        match outcome {
            RememberOutcome::Written { record, superseded } => {
                (seen.expect("decide was called"), record, superseded)
            }
            RememberOutcome::Refused(refusal) => {
                panic!("the usual decision was refused: {refusal}")
            }
        }
    }

    /// The state a remember of this note would see, read through a decision that refuses.
    pub fn probe<B: Backend + ?Sized>(&self, backend: &B) -> RememberState {
        let mut seen = None;
        let outcome = self
            .remember_with(backend, &mut |state| {
                seen = Some(state.clone());
                Err(ApiError::from(memory_core::ErrorCode::AgentMemoryFull))
            })
            .expect("remember succeeds");
        assert!(
            matches!(outcome, RememberOutcome::Refused(_)),
            "a refusing decision wrote"
        );
        seen.expect("decide was called")
    }
}

/// The ids of `memories`, in order.
pub(super) fn ids(memories: &[AgentMemory]) -> Vec<AgentMemoryId> {
    memories.iter().map(|m| m.id.clone()).collect()
}

/// Everything of `owner` valid at `valid_at`, unexpired at `cutoff`.
pub(super) fn scan_all<B: Backend + ?Sized>(
    backend: &B,
    owner: &Owner,
    valid_at: Timestamp,
    cutoff: Timestamp,
) -> Vec<AgentMemory> {
    backend
        .scan(owner, &ScanQuery::new(valid_at, cutoff, usize::MAX))
        .expect("scan")
}

/// Cases the model-based test runs: the `CONFORMANCE_CASES` environment variable, or 1,000
/// when it is unset or not a positive number.
pub fn cases_from_env() -> u32 {
    std::env::var("CONFORMANCE_CASES")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(1_000)
}
