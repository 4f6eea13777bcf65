//! `reembed`: gives a member's stored versions the embedding of the service's current model.
//!
//! Recall compares only vectors of the query's model: after a host switches embedders, versions
//! written before sit out the semantic ranker (BM25 and entities still rank them) until they are
//! re-embedded here. Nothing else of a version changes; the embedding is derived data.

use memory_core::{AgentMemory, ApiError, StoredEmbedding, Timestamp};
use serde::Serialize;
use store_trait::Owner;

use crate::caller::MemberCaller;
use crate::service::{MemoryService, internal};

/// Versions read from the backend per page.
const PAGE: usize = 256;

/// What [`MemoryService::reembed`] did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReembedResponse {
    /// The model id the re-embedded versions now carry (the service's embedder).
    pub model: String,
    /// The member's unexpired versions looked at (current and superseded).
    pub examined: u64,
    /// Versions given a new embedding: they had none, or one of another model.
    pub reembedded: u64,
    /// Versions the embedder failed on; they keep what they had.
    pub failed: u64,
}

fn stale(memory: &AgentMemory, model: &str) -> bool {
    memory
        .ranking
        .embedding
        .as_ref()
        .is_none_or(|e| e.model != model)
}

impl MemoryService {
    /// The model id of the service's embedder: what remember stores with each vector and what
    /// recall compares against.
    pub fn embedding_model(&self) -> &str {
        self.embeddings.model_id()
    }

    /// Every unexpired version of the member, superseded ones included, page by page.
    fn each_version(
        &self,
        owner: &Owner,
        cutoff: Timestamp,
        visit: &mut dyn FnMut(&AgentMemory),
    ) -> Result<(), ApiError> {
        let mut after = None;
        loop {
            let page = self
                .backend
                .versions(owner, cutoff, after.as_ref(), PAGE)
                .map_err(internal)?;
            page.iter().for_each(&mut *visit);
            if page.len() < PAGE {
                return Ok(());
            }
            after = page.last().map(|m| (m.created_at, m.id.clone()));
        }
    }

    fn member_scope(&self, caller: &MemberCaller) -> Result<(Owner, Timestamp), ApiError> {
        let settings = self.settings_of(&caller.workspace)?;
        let cutoff = governance_policy::expired_cutoff(self.now(), settings.retention_days);
        Ok((
            Owner::new(caller.workspace.clone(), caller.member.clone()),
            cutoff,
        ))
    }

    /// How many of the member's unexpired versions (current and superseded) carry no
    /// embedding of the service's model: what [`reembed`](Self::reembed) would embed.
    pub fn stale_embeddings(&self, caller: &MemberCaller) -> Result<u64, ApiError> {
        let (owner, cutoff) = self.member_scope(caller)?;
        let model = self.embeddings.model_id();
        let mut count = 0u64;
        self.each_version(&owner, cutoff, &mut |m| count += u64::from(stale(m, model)))?;
        Ok(count)
    }

    /// Re-embeds the member's own versions whose embedding is missing or of another model
    /// with the service's embedder, without a time budget (this is maintenance, not a
    /// request), and stores each new vector in place ([`store_trait::Backend::set_embedding`]).
    /// Allowed to the member at any time, like [`member_list`](Self::member_list).
    ///
    /// `progress(done, total)` is called before the first version and after each one; `total`
    /// is counted first and grows if versions are written meanwhile. A version the embedder
    /// fails on is counted in [`ReembedResponse::failed`] and keeps what it had.
    pub fn reembed(
        &self,
        caller: &MemberCaller,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<ReembedResponse, ApiError> {
        let (owner, cutoff) = self.member_scope(caller)?;
        let model = self.embeddings.model_id();
        let mut total = 0u64;
        self.each_version(&owner, cutoff, &mut |m| total += u64::from(stale(m, model)))?;
        progress(0, total);

        let mut answer = ReembedResponse {
            model: model.to_owned(),
            examined: 0,
            reembedded: 0,
            failed: 0,
        };
        let mut stored: Result<(), ApiError> = Ok(());
        self.each_version(&owner, cutoff, &mut |memory| {
            answer.examined += 1;
            if stored.is_err() || !stale(memory, model) {
                return;
            }
            match self.embeddings.embed(memory.text.as_str()) {
                Ok(vector) => {
                    let embedding = StoredEmbedding {
                        model: model.to_owned(),
                        vector,
                    };
                    // `false`: forgotten meanwhile; nothing left to embed.
                    match self.backend.set_embedding(&owner, &memory.id, &embedding) {
                        Ok(true) => answer.reembedded += 1,
                        Ok(false) => {}
                        Err(e) => stored = Err(internal(e)),
                    }
                }
                Err(_) => answer.failed += 1,
            }
            let done = answer.reembedded + answer.failed;
            progress(done, total.max(done));
        })?;
        stored?;
        tracing::info!(
            op = "reembed",
            workspace = caller.workspace.as_str(),
            member = caller.member.as_str(),
            model,
            examined = answer.examined,
            reembedded = answer.reembedded,
            failed = answer.failed,
        );
        Ok(answer)
    }
}
