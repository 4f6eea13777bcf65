//! Write-time resolution of cited passages and read-time re-verification of memories' sources,
//! each in one batched [`PassageSource`] call.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use memory_core::{AgentMemory, ApiError, Citation, ErrorCode, MemberId, SourceState, WorkspaceId};

use crate::source::{Entity, PassageInfo, PassageLookup, PassageSource};

/// Step 8 of remember: resolves `passage_ids` for `member` in one lookup and records a
/// [`Citation`] for each, in order (a repeated id is recorded once).
///
/// Any passage that is gone, or that the host reports with neither a hash nor a body →
/// `400 AGENT_MEMORY_CITATION_INVALID`. The recorded `sha256` is the lowercase hex SHA-256 of the
/// body (the host's, or computed from the body it sent); the body is not kept. No ids, no lookup.
pub fn resolve_citations<S: PassageSource + ?Sized>(
    source: &S,
    workspace: &WorkspaceId,
    member: &MemberId,
    passage_ids: &[String],
) -> Result<Vec<Citation>, ApiError> {
    let mut seen = HashSet::with_capacity(passage_ids.len());
    let ids: Vec<String> = passage_ids
        .iter()
        .filter(|id| seen.insert(id.as_str()))
        .cloned()
        .collect();
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let answers = source.lookup(workspace, member, &ids);
    let invalid = || ApiError::from(ErrorCode::AgentMemoryCitationInvalid);
    ids.into_iter()
        .enumerate()
        .map(|(i, passage_id)| {
            let Some(PassageLookup::Found(info)) = answers.get(i) else {
                return Err(invalid());
            };
            let sha256 = info.content_sha256().ok_or_else(invalid)?;
            Ok(Citation {
                passage_id,
                document_id: info.document_id.clone(),
                collection_id: info.collection_id.clone(),
                document_version: info.document_version,
                sha256,
            })
        })
        .collect()
}

/// What re-verification decided for one memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// A cited passage (or its document) is gone: not returned to agents, counted in `hidden`.
    Hidden,
    /// Returned with this source state: `Current`, `Changed` or `Uncited`.
    Visible(SourceState),
}

impl Verdict {
    /// True for [`Verdict::Hidden`].
    pub fn is_hidden(self) -> bool {
        self == Verdict::Hidden
    }

    /// The state an agent sees, or `None` when hidden from agents.
    pub fn agent_state(self) -> Option<SourceState> {
        match self {
            Verdict::Hidden => None,
            Verdict::Visible(state) => Some(state),
        }
    }

    /// The state in the member's own list, where a hidden memory shows as `Unavailable`.
    pub fn member_state(self) -> SourceState {
        self.agent_state().unwrap_or(SourceState::Unavailable)
    }
}

/// The result of [`verify`], index-aligned with the memories passed in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verification {
    /// One verdict per memory.
    pub verdicts: Vec<Verdict>,
    /// Per memory, the entities of its cited passages, each entity id once, in citation order
    /// (empty for hidden and uncited memories).
    pub entities: Vec<Vec<Entity>>,
}

impl Verification {
    /// How many memories are hidden.
    pub fn hidden_count(&self) -> usize {
        self.verdicts.iter().filter(|v| v.is_hidden()).count()
    }
}

/// FNV-1a: the passage-id index of [`verify`] hashes hundreds of short ids per call, for which
/// the default SipHash was a fifth of the verification. The ids come from the caller's own
/// stored memories, so resistance to chosen collisions is not needed.
#[derive(Clone, Copy)]
struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv1a {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Re-verifies the sources of `memories` for `member` with one batched lookup of every distinct
/// cited passage id (none when nothing is cited).
///
/// Per memory: no citations → `Uncited`; any cited passage gone (or reported without hash and
/// body) → [`Verdict::Hidden`]; else `Changed` when a cited document's version or a passage's
/// SHA-256 differs from the recorded one; else `Current`.
pub fn verify<S: PassageSource + ?Sized>(
    source: &S,
    workspace: &WorkspaceId,
    member: &MemberId,
    memories: &[&AgentMemory],
) -> Verification {
    let mut index: HashMap<&str, usize, BuildHasherDefault<Fnv1a>> = HashMap::default();
    let mut ids: Vec<String> = Vec::new();
    for citation in memories.iter().flat_map(|m| &m.citations) {
        index.entry(&citation.passage_id).or_insert_with(|| {
            ids.push(citation.passage_id.clone());
            ids.len() - 1
        });
    }
    let answers = if ids.is_empty() {
        Vec::new()
    } else {
        source.lookup(workspace, member, &ids)
    };
    // A passage is usable only when found with a hash to compare; answers missing from a short
    // reply count as gone.
    let usable: Vec<Option<(&PassageInfo, Cow<'_, str>)>> = (0..ids.len())
        .map(|i| match answers.get(i) {
            Some(PassageLookup::Found(info)) => content_sha256(info).map(|h| (&**info, h)),
            _ => None,
        })
        .collect();

    let mut verification = Verification {
        verdicts: Vec::with_capacity(memories.len()),
        entities: Vec::with_capacity(memories.len()),
    };
    for memory in memories {
        let (verdict, entities) = judge(memory, &index, &usable);
        verification.verdicts.push(verdict);
        verification.entities.push(entities);
    }
    verification
}

/// [`PassageInfo::content_sha256`], borrowing the host's hash when it is already lowercase hex
/// (the usual answer), so that verifying hundreds of passages allocates no hashes.
fn content_sha256(info: &PassageInfo) -> Option<Cow<'_, str>> {
    match &info.sha256 {
        Some(hash)
            // A fold without an early exit: the compiler checks the 64 bytes with vector
            // instructions.
            if hash.len() == 64
                && hash.bytes().fold(true, |ok, b| {
                    ok & (b.is_ascii_digit() | (b'a'..=b'f').contains(&b))
                }) =>
        {
            Some(Cow::Borrowed(hash))
        }
        _ => info.content_sha256().map(Cow::Owned),
    }
}

fn judge(
    memory: &AgentMemory,
    index: &HashMap<&str, usize, BuildHasherDefault<Fnv1a>>,
    usable: &[Option<(&PassageInfo, Cow<'_, str>)>],
) -> (Verdict, Vec<Entity>) {
    if memory.citations.is_empty() {
        return (Verdict::Visible(SourceState::Uncited), Vec::new());
    }
    let mut state = SourceState::Current;
    let mut entities: Vec<Entity> = Vec::new();
    for citation in &memory.citations {
        let Some(Some((info, sha256))) =
            index.get(citation.passage_id.as_str()).map(|&i| &usable[i])
        else {
            return (Verdict::Hidden, Vec::new());
        };
        if info.document_version != citation.document_version || *sha256 != citation.sha256 {
            state = SourceState::Changed;
        }
        for entity in &info.entities {
            // A memory cites a few passages with a few entities each: a linear search beats
            // building a set per memory.
            if !entities.iter().any(|e| e.id == entity.id) {
                entities.push(entity.clone());
            }
        }
    }
    (Verdict::Visible(state), entities)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn member_list_shows_hidden_as_unavailable() {
        assert_eq!(Verdict::Hidden.member_state(), SourceState::Unavailable);
        assert_eq!(Verdict::Hidden.agent_state(), None);
        let changed = Verdict::Visible(SourceState::Changed);
        assert_eq!(changed.member_state(), SourceState::Changed);
        assert!(!changed.is_hidden());
    }
}
