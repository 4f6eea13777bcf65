//! The [`Backend`] trait and the plain data its methods exchange.

use std::ops::Deref;
use std::sync::Arc;

use crate::error::Error;
use crate::history::{History, MemberHistory};
use memory_core::{
    AgentMemory, AgentMemoryId, ApiError, CredentialId, MemberId, Settings, StoredEmbedding,
    Timestamp, WorkspaceId,
};

/// Whose memories: every agent-memory read and write is keyed by this pair, compared by exact
/// equality inside the backend (architecture invariant 2).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Owner {
    /// The workspace.
    pub workspace: WorkspaceId,
    /// The member who owns the memories.
    pub member: MemberId,
}

impl Owner {
    /// The owner `member` in `workspace`.
    pub fn new(workspace: WorkspaceId, member: MemberId) -> Self {
        Owner { workspace, member }
    }
}

/// A scan of one owner's memory versions, newest first (`created_at` desc, then `id` desc).
///
/// Every filter is exact equality; there is no prefix or pattern matching of any kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanQuery {
    /// Only versions valid at this instant: `created_at ≤ valid_at` and (`superseded_at` is none
    /// or `superseded_at > valid_at`).
    pub valid_at: Timestamp,
    /// Only versions created strictly after this instant (the retention cut-off: a version with
    /// `created_at ≤ expired_cutoff` is expired and never returned).
    pub expired_cutoff: Timestamp,
    /// Exact namespace filter.
    pub namespace: Option<String>,
    /// Exact key filter (keyless versions never match a key filter).
    pub key: Option<String>,
    /// Exact `collection_id` filter (versions without a collection never match it).
    pub collection_id: Option<String>,
    /// Keyset position: only versions strictly after `(created_at, id)` in scan order, that is
    /// strictly older, or as old with a smaller id. Pass the last version of the previous page.
    pub after: Option<(Timestamp, AgentMemoryId)>,
    /// At most this many versions (0 returns nothing).
    pub limit: usize,
}

impl ScanQuery {
    /// A query without filters or position: the first `limit` versions valid at `valid_at` and
    /// not expired at `expired_cutoff`.
    pub fn new(valid_at: Timestamp, expired_cutoff: Timestamp, limit: usize) -> Self {
        ScanQuery {
            valid_at,
            expired_cutoff,
            namespace: None,
            key: None,
            collection_id: None,
            after: None,
            limit,
        }
    }

    /// True when `memory` passes the query's instant, retention and filters (the position and
    /// the limit aside). Backends may filter with it; the conformance suite's model recomputes it
    /// on its own.
    pub fn matches(&self, memory: &AgentMemory) -> bool {
        self.matches_instants(memory.created_at, memory.superseded_at)
            && self.matches_filters(memory)
    }

    /// The part of [`matches`](Self::matches) that reads a version's instants alone: not
    /// expired at the cut-off, and valid at the query's instant. A reader that keeps the
    /// instants of many versions side by side ([`RowHead`](crate::RowHead)) checks them there.
    pub fn matches_instants(
        &self,
        created_at: Timestamp,
        superseded_at: Option<Timestamp>,
    ) -> bool {
        created_at > self.expired_cutoff
            && memory_core::valid_at(created_at, superseded_at, self.valid_at)
    }

    /// The part of [`matches`](Self::matches) that reads the version's namespace, key and
    /// collection: only the filters that are set read anything of `memory`.
    pub fn matches_filters(&self, memory: &AgentMemory) -> bool {
        self.namespace
            .as_ref()
            .is_none_or(|ns| *ns == memory.namespace)
            && self
                .key
                .as_ref()
                .is_none_or(|k| memory.key.as_ref() == Some(k))
            && self
                .collection_id
                .as_ref()
                .is_none_or(|c| memory.collection_id.as_ref() == Some(c))
    }
}

/// What a remember transaction reads before deciding; every field is a point read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RememberState {
    /// The writing credential's accepted remember instants still in its rate window record
    /// (those after the `window_start` the caller passed), oldest first.
    pub window: Vec<Timestamp>,
    /// The owner's stored, unexpired versions (`created_at > expired_cutoff`; all namespaces,
    /// superseded and hidden included).
    pub stored_versions: u64,
    /// The key's current version, for a keyed remember; `None` for a keyless one, a key that
    /// never had a version, or one whose current version was forgotten or purged.
    ///
    /// It is returned even when expired but not yet purged: the caller judges its `created_at`
    /// against its own cut-off (the spec's `superseded` is 1 only for an unexpired one), and
    /// should still supersede it so that the key keeps a single current version.
    pub current: Option<AgentMemory>,
    /// The highest version number the key has had since it was last forgotten (0 if none).
    /// Purges do not lower it; forgetting the key and deleting the owner or workspace reset it.
    pub last_version: u32,
    /// The owner's workspace settings as stored ([`Backend::settings`]), read in the same
    /// transaction: a caller that decided on settings it read earlier (or kept) checks them
    /// against these, so that the write and the switch, retention and limits it obeyed are one
    /// state.
    pub settings: Option<Settings>,
}

/// What a remember transaction writes once the caller's decision accepted it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RememberWrite {
    /// The new version to insert (id, version number and `created_at` decided by the caller;
    /// for a keyed write the backend moves `created_at` past the key's latest instant, see
    /// [`key_instant`]).
    ///
    /// Its `workspace`, `member`, `credential`, `namespace` and `key` must be those passed to
    /// [`Backend::remember`], its id must be new for the owner and `superseded_at` must be none;
    /// otherwise the backend answers [`Error::InvalidWrite`] and writes nothing.
    pub record: AgentMemory,
    /// Set the key's current version's `superseded_at` to `record.created_at` (a no-op when the
    /// key has no current version). For a keyed write the new record becomes the key's current
    /// version either way, so pass `state.current.is_some()`: leaving it `false` while a current
    /// version exists would leave that version unsuperseded without being the key's current.
    pub supersede_current: bool,
}

/// The result of [`Backend::remember`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(
    clippy::large_enum_variant,
    reason = "one value per remember call, matched on by value; a Box would only add an allocation"
)]
pub enum RememberOutcome {
    /// Written: the inserted version and the version it superseded, if any.
    Written {
        /// The stored version.
        record: AgentMemory,
        /// The previous current version as now stored, with its `superseded_at` set.
        superseded: Option<AgentMemory>,
    },
    /// The decision refused the write; nothing was written.
    Refused(ApiError),
}

/// Persistence for governed agent memory. Implementations are safe for concurrent use.
///
/// # Contract
///
/// - **Tenancy** (architecture invariant 2): every method that takes an [`Owner`] reads and
///   writes only that owner's versions, every method that takes a [`WorkspaceId`] only that
///   workspace's; owners, workspaces, namespaces, keys, collections and documents are compared by
///   exact equality inside the backend, never by prefix or pattern.
/// - **Governance state lives here** (invariant 6): the credentials' rate windows, what the
///   quota counts, the key index (current version and last version number) and the settings, so
///   that two facades over one backend enforce one limit.
/// - **Check-and-write is atomic** (invariant 7): [`remember`](Self::remember) reads its
///   [`RememberState`] and applies the decided write in one transaction; everything it reads or
///   writes is a point read or write.
/// - **Scan order** is `created_at` descending, then `id` descending, with keyset positions, so
///   that pagination is stable under concurrent writes.
/// - **Expiry**: a version with `created_at ≤ cutoff` is expired. It is never returned by
///   [`scan`](Self::scan) nor counted by [`stored_versions`](Self::stored_versions) or
///   [`RememberState::stored_versions`], even before [`purge_expired`](Self::purge_expired)
///   removes it. [`get`](Self::get), [`current_of_key`](Self::current_of_key) and the forgets
///   still see it (the caller filters).
/// - **Version numbering** of a key continues from [`RememberState::last_version`]. Forgetting
///   the key ([`forget_key`](Self::forget_key), [`forget_id`](Self::forget_id)) and deleting its
///   owner or workspace reset it; purges never do. A purge that removes a key's current version
///   leaves the key without a current version: older versions stay superseded.
/// - **Rate windows** only grow through accepted remembers; refusals, forgets, purges and
///   deletions leave them unchanged.
/// - **A key's instants increase in commit order**: the instant of a keyed write is decided
///   inside [`remember`](Self::remember)'s atomic step, as [`key_instant`] says: the
///   `created_at` the caller decided, or the next representable instant (1 ms later, the
///   resolution of [`Timestamp`]) after the latest instant of the key's stored versions when
///   the caller's clock has not passed it. So along a key's chain `created_at` strictly
///   increases with the version number, the superseded version's `superseded_at` is its
///   successor's `created_at`, at most one version of a key is valid at any instant, and every
///   written version is the valid one at its own `created_at`.
///
/// the `store-conformance` crate checks all of this against a reference
/// model; every backend's tests run it.
pub trait Backend: Send + Sync {
    /// Atomically: reads the [`RememberState`] for `owner`, `credential` and the key, calls
    /// `decide` (possibly more than once, when a backend retries a conflicting transaction), and
    /// if it returns a write, applies all of it in one transaction: for a keyed write moves
    /// `record.created_at` to [`key_instant`] of the key's stored versions (the answer carries
    /// the instant written), inserts the record, supersedes
    /// the current version when asked, appends `record.created_at` to the credential's window
    /// (dropping instants ≤ `window_start` from the stored record), counts the version for the
    /// owner and moves the key's current version and last version number (to the larger of the
    /// old one and `record.version`).
    ///
    /// `key` is `(namespace, key)` for a keyed remember and `None` for a keyless one. The
    /// credential's window is keyed by `(owner.workspace, credential)`. When `decide` returns an
    /// error the answer is [`RememberOutcome::Refused`] and nothing is written, the rate window
    /// included.
    ///
    /// `decide` must not call the backend (a backend may hold a lock or an open transaction
    /// while it runs) and must decide from the state it is given; it may read the caller's
    /// clock, which makes `created_at` the instant of the decision rather than of the request.
    fn remember(
        &self,
        owner: &Owner,
        credential: &CredentialId,
        key: Option<(&str, &str)>,
        window_start: Timestamp,
        expired_cutoff: Timestamp,
        decide: &mut dyn FnMut(&RememberState) -> Result<RememberWrite, ApiError>,
    ) -> Result<RememberOutcome, Error>;

    /// The owner's version `id`, if it exists (expired or not, superseded or not).
    fn get(&self, owner: &Owner, id: &AgentMemoryId) -> Result<Option<AgentMemory>, Error>;

    /// The current version of (namespace, key), if any, expired or not.
    fn current_of_key(
        &self,
        owner: &Owner,
        namespace: &str,
        key: &str,
    ) -> Result<Option<AgentMemory>, Error>;

    /// The owner's versions matching `query`, newest first (`created_at` desc, then `id` desc),
    /// starting strictly after `query.after`, at most `query.limit`.
    fn scan(&self, owner: &Owner, query: &ScanQuery) -> Result<Vec<AgentMemory>, Error>;

    /// Calls `settle` while no remember of the owner runs: after a remember in flight has
    /// committed, and before a waiting one goes on. A remember reads its clock inside its step,
    /// so a caller whose `settle` returns once its clock has passed an instant knows that every
    /// version committed afterwards takes a later instant: reads at that instant, however many
    /// they are, see one snapshot (a paged listing's pages). A backend opened read-only, which
    /// cannot hold another process's writers back, only calls `settle`.
    fn between_writes(&self, owner: &Owner, settle: &mut dyn FnMut()) -> Result<(), Error>;

    /// [`scan`](Self::scan) with each version behind an `Arc`, for read paths that only borrow
    /// the versions (recall reads up to 300 per call). A backend that keeps its versions in
    /// memory hands out shared references instead of deep copies, which cost more than the
    /// rest of a recall; the default wraps the answer of `scan`, which is all a backend that
    /// decodes every version anyway can do.
    fn scan_shared(
        &self,
        owner: &Owner,
        query: &ScanQuery,
    ) -> Result<Vec<Arc<AgentMemory>>, Error> {
        Ok(self.scan(owner, query)?.into_iter().map(Arc::new).collect())
    }

    /// Every unexpired version of the owner (`created_at > expired_cutoff`) whatever its
    /// validity — current, superseded and hidden alike — in scan order, starting strictly after
    /// `after`, at most `limit`. For maintenance that must visit every version a read could
    /// return, such as re-embedding; requests read through [`scan`](Self::scan).
    ///
    /// The default answers [`Error::Unsupported`], so that a backend written before this
    /// method existed still builds; every backend of this crate implements it, and the
    /// conformance suite checks it.
    fn versions(
        &self,
        owner: &Owner,
        expired_cutoff: Timestamp,
        after: Option<&(Timestamp, AgentMemoryId)>,
        limit: usize,
    ) -> Result<Vec<AgentMemory>, Error> {
        let _ = (owner, expired_cutoff, after, limit);
        Err(Error::Unsupported("versions"))
    }

    /// The owner's whole history in one consistent view: every stored version newest first
    /// (expired, superseded and hidden ones included: the caller applies its instant, retention,
    /// filters and re-verification), their vectors side by side, the index statistics, and the
    /// posting lists of `terms` (the query's distinct terms).
    ///
    /// Recall over a window wider than the default reads this instead of scanning. The
    /// key-space backends decode every version (checked against the statistics written in the
    /// same step as each version), take the vectors and the posting lists from the versions' own
    /// embeddings and term counts, and share one decoded history, with the posting lists derived
    /// into it, between reads until a step changes the owner's versions. The default derives
    /// everything from [`versions`](Self::versions), which is correct for any backend and as
    /// slow as decoding the whole history.
    fn history(&self, owner: &Owner, terms: &[String]) -> Result<History, Error> {
        let mut all: Vec<Arc<AgentMemory>> = Vec::new();
        let mut after: Option<(Timestamp, AgentMemoryId)> = None;
        loop {
            let page = self.versions(owner, Timestamp::MIN, after.as_ref(), 1024)?;
            let done = page.len() < 1024;
            after = page.last().map(|m| (m.created_at, m.id.clone()));
            all.extend(page.into_iter().map(Arc::new));
            if done {
                break;
            }
        }
        let versions = Arc::new(MemberHistory::from_versions(all));
        let postings = versions.derived_postings(terms);
        Ok(History { versions, postings })
    }

    /// Replaces the stored embedding (`ranking.embedding`) of the owner's version `id` with
    /// `embedding`; returns `false`, changing nothing, when the owner has no version `id`.
    ///
    /// Nothing else changes: the version's text, validity and place in scan order, the key
    /// index, the counts and the rate windows stay as they are. The embedding is derived data
    /// (a model's view of the text), so replacing it writes no new version.
    ///
    /// The default answers [`Error::Unsupported`], as [`versions`](Self::versions) does.
    fn set_embedding(
        &self,
        owner: &Owner,
        id: &AgentMemoryId,
        embedding: &StoredEmbedding,
    ) -> Result<bool, Error> {
        let _ = (owner, id, embedding);
        Err(Error::Unsupported("set_embedding"))
    }

    /// Removes every version of (namespace, key), expired ones included, and resets the key's
    /// version numbering; returns the removed versions newest first. When the key has no version
    /// (never had one, or all were purged) nothing changes, its numbering included, and the
    /// answer is empty.
    fn forget_key(
        &self,
        owner: &Owner,
        namespace: &str,
        key: &str,
    ) -> Result<Vec<AgentMemory>, Error>;

    /// Removes version `id`: for a keyed memory every version of its key (and resets the key's
    /// numbering), for a keyless one that version alone. Returns the removed versions newest
    /// first (empty when the owner has no version `id`).
    fn forget_id(&self, owner: &Owner, id: &AgentMemoryId) -> Result<Vec<AgentMemory>, Error>;

    /// Removes every version of the owner and resets all of its keys; returns the count.
    fn delete_owner(&self, owner: &Owner) -> Result<u64, Error>;

    /// Removes every agent-memory version of the workspace, of every member, and resets their
    /// keys; returns the count. The workspace's settings and rate windows stay.
    fn delete_workspace(&self, workspace: &WorkspaceId) -> Result<u64, Error>;

    /// Retention purge: removes the workspace's versions with `created_at ≤ cutoff`. Key
    /// numbering is kept (purges never reset it); returns the count.
    fn purge_expired(&self, workspace: &WorkspaceId, cutoff: Timestamp) -> Result<u64, Error>;

    /// Removes the workspace's versions citing `document_id`; returns the count. Key numbering
    /// is kept.
    fn purge_document(&self, workspace: &WorkspaceId, document_id: &str) -> Result<u64, Error>;

    /// Removes the workspace's versions whose `collection_id` is `collection_id` or that cite a
    /// passage recorded in it; returns the count. Key numbering is kept.
    fn purge_collection(&self, workspace: &WorkspaceId, collection_id: &str) -> Result<u64, Error>;

    /// The owner's stored versions with `created_at > expired_cutoff` (the quota's count).
    fn stored_versions(&self, owner: &Owner, expired_cutoff: Timestamp) -> Result<u64, Error>;

    /// The workspace's settings, or `None` when never set.
    fn settings(&self, workspace: &WorkspaceId) -> Result<Option<Settings>, Error>;

    /// Stores the workspace's settings (replacing any earlier ones).
    fn put_settings(&self, workspace: &WorkspaceId, settings: &Settings) -> Result<(), Error>;
}

// One backend shared by several users (for example two facade instances that must enforce one
// limit) is still a backend.
impl<P> Backend for P
where
    P: Deref + Send + Sync,
    P::Target: Backend,
{
    fn remember(
        &self,
        owner: &Owner,
        credential: &CredentialId,
        key: Option<(&str, &str)>,
        window_start: Timestamp,
        expired_cutoff: Timestamp,
        decide: &mut dyn FnMut(&RememberState) -> Result<RememberWrite, ApiError>,
    ) -> Result<RememberOutcome, Error> {
        (**self).remember(owner, credential, key, window_start, expired_cutoff, decide)
    }

    fn get(&self, owner: &Owner, id: &AgentMemoryId) -> Result<Option<AgentMemory>, Error> {
        (**self).get(owner, id)
    }

    fn history(&self, owner: &Owner, terms: &[String]) -> Result<History, Error> {
        (**self).history(owner, terms)
    }

    fn current_of_key(
        &self,
        owner: &Owner,
        namespace: &str,
        key: &str,
    ) -> Result<Option<AgentMemory>, Error> {
        (**self).current_of_key(owner, namespace, key)
    }

    fn scan(&self, owner: &Owner, query: &ScanQuery) -> Result<Vec<AgentMemory>, Error> {
        (**self).scan(owner, query)
    }

    fn between_writes(&self, owner: &Owner, settle: &mut dyn FnMut()) -> Result<(), Error> {
        (**self).between_writes(owner, settle)
    }

    fn scan_shared(
        &self,
        owner: &Owner,
        query: &ScanQuery,
    ) -> Result<Vec<Arc<AgentMemory>>, Error> {
        (**self).scan_shared(owner, query)
    }

    fn versions(
        &self,
        owner: &Owner,
        expired_cutoff: Timestamp,
        after: Option<&(Timestamp, AgentMemoryId)>,
        limit: usize,
    ) -> Result<Vec<AgentMemory>, Error> {
        (**self).versions(owner, expired_cutoff, after, limit)
    }

    fn set_embedding(
        &self,
        owner: &Owner,
        id: &AgentMemoryId,
        embedding: &StoredEmbedding,
    ) -> Result<bool, Error> {
        (**self).set_embedding(owner, id, embedding)
    }

    fn forget_key(
        &self,
        owner: &Owner,
        namespace: &str,
        key: &str,
    ) -> Result<Vec<AgentMemory>, Error> {
        (**self).forget_key(owner, namespace, key)
    }

    fn forget_id(&self, owner: &Owner, id: &AgentMemoryId) -> Result<Vec<AgentMemory>, Error> {
        (**self).forget_id(owner, id)
    }

    fn delete_owner(&self, owner: &Owner) -> Result<u64, Error> {
        (**self).delete_owner(owner)
    }

    fn delete_workspace(&self, workspace: &WorkspaceId) -> Result<u64, Error> {
        (**self).delete_workspace(workspace)
    }

    fn purge_expired(&self, workspace: &WorkspaceId, cutoff: Timestamp) -> Result<u64, Error> {
        (**self).purge_expired(workspace, cutoff)
    }

    fn purge_document(&self, workspace: &WorkspaceId, document_id: &str) -> Result<u64, Error> {
        (**self).purge_document(workspace, document_id)
    }

    fn purge_collection(&self, workspace: &WorkspaceId, collection_id: &str) -> Result<u64, Error> {
        (**self).purge_collection(workspace, collection_id)
    }

    fn stored_versions(&self, owner: &Owner, expired_cutoff: Timestamp) -> Result<u64, Error> {
        (**self).stored_versions(owner, expired_cutoff)
    }

    fn settings(&self, workspace: &WorkspaceId) -> Result<Option<Settings>, Error> {
        (**self).settings(workspace)
    }

    fn put_settings(&self, workspace: &WorkspaceId, settings: &Settings) -> Result<(), Error> {
        (**self).put_settings(workspace, settings)
    }
}

/// Checks that the record a `decide` closure returned belongs to the call before anything is
/// written: the call's owner, credential and key, not superseded yet, and an id not stored before.
/// Every backend calls it, so all of them refuse exactly the same writes; the reason is a static
/// text for [`Error::InvalidWrite`].
pub fn check_decided_write(
    owner: &Owner,
    credential: &CredentialId,
    key: Option<(&str, &str)>,
    record: &AgentMemory,
    id_taken: bool,
) -> Result<(), &'static str> {
    if record.workspace != owner.workspace || record.member != owner.member {
        return Err("the record belongs to another owner");
    }
    if record.credential != *credential {
        return Err("the record names another credential");
    }
    let same_key = match key {
        Some((namespace, key)) => {
            record.namespace == namespace && record.key.as_deref() == Some(key)
        }
        None => record.key.is_none(),
    };
    if !same_key {
        return Err("the record's namespace or key differs from the call's");
    }
    if record.superseded_at.is_some() {
        return Err("a new record cannot be superseded");
    }
    if id_taken {
        return Err("the record's id is already stored");
    }
    Ok(())
}

/// The instant a keyed write takes: `decided` (the caller's clock), or 1 ms — the resolution of
/// [`Timestamp`], so the next representable instant — after `latest` when the clock has not
/// passed it. `latest` is the latest instant of the key's stored versions: the `created_at` of
/// its current version, or, when a purge removed that, the largest `superseded_at` of the rest;
/// `None` when the key has no stored version (never written, forgotten, or everything purged).
///
/// Every backend calls it inside its remember step, after `decide`, so that a key's instants
/// strictly increase in commit order whatever order the callers' clocks were read in, and
/// whether or not a clock stands still or goes back. (At [`Timestamp::MAX`] it saturates.)
pub fn key_instant(decided: Timestamp, latest: Option<Timestamp>) -> Timestamp {
    match latest {
        Some(latest) if decided <= latest => latest.plus_millis(1),
        _ => decided,
    }
}

/// The latest instant `version` stands for in its key's chain: its `superseded_at`, or its
/// `created_at` while it is current. The largest over a key's stored versions is the `latest`
/// of [`key_instant`].
pub fn latest_instant(version: &AgentMemory) -> Timestamp {
    version
        .superseded_at
        .map_or(version.created_at, |s| s.max(version.created_at))
}
