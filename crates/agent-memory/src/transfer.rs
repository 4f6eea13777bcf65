//! Moving a member's agent memories out and back in: [`MemoryService::export_history`] writes
//! every stored version with its history, and [`MemoryService::import`] restores such a file —
//! or a plain export of current views — into a workspace.
//!
//! An exported version is its [`MemoryView`] (the JSON `list` and `export` show) plus the
//! credential that wrote it and, when one was stored, its embedding with the model that made it.
//! The import writes each version the way the remember that made it did — same id, namespace,
//! key, version number, instants, citations — oldest first, so that each keyed version
//! supersedes its predecessor at its successor's instant again. It is the owner's operation: no
//! agent rate limit, but the quota holds. Every text is masked again (a text that was masked
//! comes back unchanged; one edited by hand is masked now), namespaces, keys and collection ids
//! go through the same field rules and personal-data check as a remember, and an embedding is
//! reused only when it was made by the model this service embeds with (else the text is
//! embedded again).
//!
//! Importing is idempotent: a version whose id is already stored is left as it is, so a second
//! import of the same file writes nothing. A version older than what its key already holds
//! cannot be put back into that key's history without rewriting it, and is counted as a
//! conflict, not written. Each version is one transaction of the backend, so an interrupted
//! import keeps what it wrote and a second run finishes the rest.

use std::collections::BTreeMap;

use governance_policy as policy;
use memory_core::{
    AgentMemory, AgentMemoryId, ApiError, CredentialId, ErrorCode, MemoryText, MemoryView,
    RankingData, SourceState, StoredEmbedding, Timestamp,
};
use serde::{Deserialize, Serialize};
use store_trait::{Owner, RememberOutcome, RememberWrite};

use crate::service::internal;
use crate::{MemberCaller, MemoryService};

/// One version of an export with history (`agent-memory export --history`): the view of the
/// version, the credential that wrote it, and its embedding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ExportedVersion {
    /// The version as `list` shows it (its `sourceState` as re-verified at export time; an
    /// import ignores it and re-verifies on every read).
    #[serde(flatten)]
    pub view: MemoryView,
    /// The credential that wrote it; absent in a plain export of views, where the import's
    /// [`ImportRequest::credential`] stands in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credential: Option<CredentialId>,
    /// The stored embedding and its model; absent when none was stored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub embedding: Option<StoredEmbedding>,
}

/// What [`MemoryService::import`] restores.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ImportRequest {
    /// The versions, in any order (the import sorts them oldest first).
    pub versions: Vec<ExportedVersion>,
    /// The credential recorded for versions that name none (a plain export of views).
    pub credential: CredentialId,
}

impl ImportRequest {
    /// Imports `versions`, recording `credential` where a version names none.
    pub fn new(versions: Vec<ExportedVersion>, credential: CredentialId) -> Self {
        ImportRequest {
            versions,
            credential,
        }
    }
}

/// What an import did, version by version.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ImportReport {
    /// Versions written.
    pub imported: u64,
    /// Versions whose id was already stored: left unchanged.
    pub unchanged: u64,
    /// Versions older than what their key already holds: not written.
    pub conflicts: u64,
    /// Versions refused, by error code (a field rule, personal data in an identifier,
    /// nothing left after masking, the quota).
    pub refused: BTreeMap<String, u64>,
    /// Written versions whose text the masker changed (it had not been masked before).
    pub masked_again: u64,
    /// Written versions embedded again (no embedding, or another model's).
    pub embedded_again: u64,
}

impl ImportReport {
    fn refuse(&mut self, err: &ApiError) {
        *self
            .refused
            .entry(err.code().as_str().to_owned())
            .or_default() += 1;
    }
}

impl MemoryService {
    /// Every stored, unexpired version of the caller's own memories — current, superseded and
    /// hidden alike — oldest first, each with its credential and embedding: what
    /// [`import`](Self::import) restores. Allowed at any time, like the member's own list.
    pub fn export_history(&self, caller: &MemberCaller) -> Result<Vec<ExportedVersion>, ApiError> {
        let settings = self.settings_of(&caller.workspace)?;
        let owner = Owner::new(caller.workspace.clone(), caller.member.clone());
        let now = self.read_now(&owner)?;
        let cutoff = policy::expired_cutoff(now, settings.retention_days);
        let mut all = Vec::new();
        let mut after: Option<(Timestamp, AgentMemoryId)> = None;
        loop {
            let page = self
                .backend
                .versions(&owner, cutoff, after.as_ref(), 1024)
                .map_err(internal)?;
            let done = page.len() < 1024;
            after = page.last().map(|m| (m.created_at, m.id.clone()));
            all.extend(page);
            if done {
                break;
            }
        }
        all.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
        let refs: Vec<&AgentMemory> = all.iter().collect();
        let verification = citation_verify::verify(
            self.passages.as_ref(),
            &owner.workspace,
            &owner.member,
            &refs,
        );
        Ok(all
            .iter()
            .zip(&verification.verdicts)
            .map(|(memory, verdict)| {
                let state = match verdict {
                    citation_verify::Verdict::Hidden => SourceState::Unavailable,
                    citation_verify::Verdict::Visible(state) => *state,
                };
                ExportedVersion {
                    view: MemoryView::new(memory, state),
                    credential: Some(memory.credential.clone()),
                    embedding: memory.ranking.embedding.clone(),
                }
            })
            .collect())
    }

    /// Restores exported versions into the caller's own memories (the workspace owner only;
    /// see the [module docs](crate::transfer) for the rules). `progress` is told how many
    /// versions are done after each one.
    pub fn import(
        &self,
        caller: &MemberCaller,
        request: &ImportRequest,
        progress: &mut dyn FnMut(u64),
    ) -> Result<ImportReport, ApiError> {
        policy::require_owner(Some(caller.role))?;
        let owner = Owner::new(caller.workspace.clone(), caller.member.clone());
        let settings = self.settings_of(&caller.workspace)?;
        let mut versions: Vec<&ExportedVersion> = request.versions.iter().collect();
        versions
            .sort_by(|a, b| (a.view.created_at, &a.view.id).cmp(&(b.view.created_at, &b.view.id)));
        let mut report = ImportReport::default();
        for (done, version) in versions.into_iter().enumerate() {
            self.import_one(&owner, &settings, request, version, &mut report)?;
            progress(done as u64 + 1);
        }
        Ok(report)
    }

    fn import_one(
        &self,
        owner: &Owner,
        settings: &memory_core::Settings,
        request: &ImportRequest,
        version: &ExportedVersion,
        report: &mut ImportReport,
    ) -> Result<(), ApiError> {
        let view = &version.view;
        if self
            .backend
            .get(owner, &view.id)
            .map_err(internal)?
            .is_some()
        {
            report.unchanged += 1;
            return Ok(());
        }
        // The same field rules and identifier check as a remember's.
        let mut remember = policy::RememberRequest::new(view.namespace.clone(), view.text.clone());
        if let Some(key) = &view.key {
            remember = remember.key(key.clone());
        }
        if let Some(collection) = &view.collection_id {
            remember = remember.collection_id(collection.clone());
        }
        let checked = remember.validate().and_then(|()| {
            policy::check_identifiers(
                &view.namespace,
                view.key.as_deref(),
                view.collection_id.as_deref(),
            )
        });
        if let Err(err) = checked {
            report.refuse(&err);
            return Ok(());
        }
        let (text, masked) = MemoryText::mask(&view.text);
        if !text.has_content() {
            report.refuse(&ApiError::from(ErrorCode::AgentMemoryEmpty));
            return Ok(());
        }
        let masked_again = masked.total() > 0;
        let model = self.embeddings.model_id();
        let (ranking, embedded_again) = match &version.embedding {
            Some(embedding) if !masked_again && embedding.model == model => {
                let (terms, length) = self.analyzer.term_stats(text.as_str()).into_counts();
                let ranking = RankingData {
                    terms,
                    length,
                    embedding: Some(embedding.clone()),
                };
                (ranking, false)
            }
            _ => (self.ranking_data(text.as_str()), true),
        };
        let credential = version
            .credential
            .clone()
            .unwrap_or_else(|| request.credential.clone());
        let record = AgentMemory {
            id: view.id.clone(),
            workspace: owner.workspace.clone(),
            member: owner.member.clone(),
            credential: credential.clone(),
            namespace: view.namespace.clone(),
            key: view.key.clone(),
            text,
            collection_id: view.collection_id.clone(),
            version: view.version,
            citations: view.citations.clone(),
            created_at: view.created_at,
            superseded_at: None,
            ranking,
        };
        let key = view.key.as_deref().map(|k| (view.namespace.as_str(), k));
        let now = self.now();
        let quota = self.limits.versions_per_member;
        let mut conflict = false;
        let outcome = self
            .backend
            .remember(
                owner,
                &credential,
                key,
                policy::window_start(now),
                policy::expired_cutoff(now, settings.retention_days),
                &mut |state| {
                    // A key's history is written in order: a version older than the key's
                    // newest stored one would have to go back into the middle of it.
                    if key.is_some()
                        && (state.current.as_ref())
                            .is_some_and(|c| c.created_at >= record.created_at)
                    {
                        conflict = true;
                        return Err(ApiError::from(ErrorCode::AgentMemoryInvalidRequest));
                    }
                    policy::check_quota(state.stored_versions, quota)?;
                    Ok(RememberWrite {
                        record: record.clone(),
                        supersede_current: state.current.is_some(),
                    })
                },
            )
            .map_err(internal)?;
        match outcome {
            RememberOutcome::Written { .. } => {
                report.imported += 1;
                report.masked_again += u64::from(masked_again);
                report.embedded_again += u64::from(embedded_again);
            }
            RememberOutcome::Refused(_) if conflict => report.conflicts += 1,
            RememberOutcome::Refused(err) => report.refuse(&err),
        }
        Ok(())
    }
}
