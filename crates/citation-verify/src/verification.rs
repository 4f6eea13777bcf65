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
    let ids: Vec<&str> = passage_ids
        .iter()
        .map(String::as_str)
        .filter(|id| seen.insert(*id))
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
                passage_id: passage_id.to_owned(),
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
    let mut verification = Verification {
        verdicts: Vec::with_capacity(memories.len()),
        entities: Vec::with_capacity(memories.len()),
    };
    verify_each(source, workspace, member, memories, |verdict, entities| {
        verification.verdicts.push(verdict);
        verification
            .entities
            .push(entities.iter().map(|&e| e.clone()).collect());
    });
    verification
}

/// The result of [`verify_entity_ids`], index-aligned with the memories passed in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EntityIdVerification {
    /// One verdict per memory.
    pub verdicts: Vec<Verdict>,
    /// Per memory, the ids of the entities of its cited passages, each once, in citation order
    /// (empty for hidden and uncited memories): [`Verification::entities`] without the names.
    pub entity_ids: Vec<Vec<String>>,
    /// The entities of all visible memories, each id once, in order of first appearance (memory
    /// by memory, then citation order).
    pub distinct: Vec<Entity>,
}

/// [`verify`] for callers that need each memory's entity ids and the distinct entities of all
/// visible memories (recall ranks by ids and resolves the query against the distinct entities).
///
/// Copying every entity (name and aliases included) per memory and then deduplicating them was
/// a third of recall's re-verification; here each id is copied once per memory and each
/// distinct entity once.
pub fn verify_entity_ids<S: PassageSource + ?Sized>(
    source: &S,
    workspace: &WorkspaceId,
    member: &MemberId,
    memories: &[&AgentMemory],
) -> EntityIdVerification {
    let mut result = EntityIdVerification {
        verdicts: Vec::with_capacity(memories.len()),
        entity_ids: Vec::with_capacity(memories.len()),
        distinct: Vec::new(),
    };
    let mut seen: HashSet<String, BuildHasherDefault<Fnv1a>> = HashSet::default();
    verify_each(source, workspace, member, memories, |verdict, entities| {
        result.verdicts.push(verdict);
        result
            .entity_ids
            .push(entities.iter().map(|e| e.id.clone()).collect());
        for &entity in entities {
            if !seen.contains(entity.id.as_str()) {
                seen.insert(entity.id.clone());
                result.distinct.push(entity.clone());
            }
        }
    });
    result
}

/// The result of [`verify_entity_indices`], index-aligned with the memories passed in: the
/// verdicts, and each memory's entities as positions in [`distinct`](Self::distinct).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntityIndexVerification {
    /// One verdict per memory.
    pub verdicts: Vec<Verdict>,
    /// Memory `i`'s entities are `indices[starts[i]..starts[i + 1]]` (one more start than
    /// memories).
    pub starts: Vec<u32>,
    /// Positions in `distinct`: per memory each entity id once, in citation order (none for
    /// hidden and uncited memories).
    pub indices: Vec<u32>,
    /// The entities of all visible memories, each id once, in order of first appearance (memory
    /// by memory, then citation order), each as its first appearance reports it.
    pub distinct: Vec<Entity>,
}

impl Default for EntityIndexVerification {
    fn default() -> Self {
        EntityIndexVerification::with_capacity(0)
    }
}

impl EntityIndexVerification {
    /// An empty result with room for `memories` memories, for callers that fill one themselves
    /// (one verdict, its indices, then the next start, per memory).
    pub fn with_capacity(memories: usize) -> Self {
        let mut starts = Vec::with_capacity(memories + 1);
        starts.push(0);
        EntityIndexVerification {
            verdicts: Vec::with_capacity(memories),
            starts,
            indices: Vec::with_capacity(memories * 2),
            distinct: Vec::new(),
        }
    }

    /// Memory `i`'s entities, as positions in [`distinct`](Self::distinct).
    pub fn entities_of(&self, i: usize) -> &[u32] {
        &self.indices[self.starts[i] as usize..self.starts[i + 1] as usize]
    }
}

/// A count or position that fits in `u32`: a recall has at most a member's quota of candidates
/// and twenty citations each.
fn to_u32(n: usize) -> u32 {
    u32::try_from(n).expect("fewer than 2^32 entities")
}

/// [`verify_entity_ids`] without a copy of any id per memory: each memory's entities are
/// positions in the distinct entities, which recall ranks by and resolves the query against.
pub fn verify_entity_indices<S: PassageSource + ?Sized>(
    source: &S,
    workspace: &WorkspaceId,
    member: &MemberId,
    memories: &[&AgentMemory],
) -> EntityIndexVerification {
    let mut result = EntityIndexVerification::with_capacity(memories.len());
    // Each distinct id is copied once, as the key of its position.
    let mut position: HashMap<String, u32, BuildHasherDefault<Fnv1a>> = HashMap::default();
    verify_each(source, workspace, member, memories, |verdict, entities| {
        result.verdicts.push(verdict);
        for &entity in entities {
            let at = match position.get(entity.id.as_str()) {
                Some(&at) => at,
                None => {
                    let at = to_u32(result.distinct.len());
                    position.insert(entity.id.clone(), at);
                    result.distinct.push(entity.clone());
                    at
                }
            };
            result.indices.push(at);
        }
        result.starts.push(to_u32(result.indices.len()));
    });
    result
}

/// Re-verification with one batched lookup, as [`verify`] does it, for callers that keep the
/// results their own way: calls `each` once per memory, in order, with its verdict and the
/// entities of its cited passages (each id once, in citation order, the first passage's record
/// of an id; empty for hidden and uncited memories), borrowed from the lookup's answers. The
/// shared work of [`verify`] and [`verify_entity_ids`]; recall keeps entity indices instead of
/// copies through it.
pub fn verify_each<S: PassageSource + ?Sized>(
    source: &S,
    workspace: &WorkspaceId,
    member: &MemberId,
    memories: &[&AgentMemory],
    mut each: impl FnMut(Verdict, &[&Entity]),
) {
    // Sized for every citation being distinct up front: growing the index rehashed it several
    // times per recall.
    let cited: usize = memories.iter().map(|m| m.citations.len()).sum();
    let mut index: HashMap<&str, usize, BuildHasherDefault<Fnv1a>> =
        HashMap::with_capacity_and_hasher(cited, BuildHasherDefault::default());
    let mut ids: Vec<&str> = Vec::with_capacity(cited);
    // Each citation's place in `ids`, in citation order: the verdicts below walk it instead of
    // hashing every passage id a second time.
    let mut slots: Vec<usize> = Vec::with_capacity(cited);
    for citation in memories.iter().flat_map(|m| &m.citations) {
        let slot = *index.entry(&citation.passage_id).or_insert_with(|| {
            ids.push(&citation.passage_id);
            ids.len() - 1
        });
        slots.push(slot);
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

    // One buffer for every memory's entities: a memory's list is handed out borrowed.
    let mut entities: Vec<&Entity> = Vec::new();
    let mut rest = slots.as_slice();
    for memory in memories {
        entities.clear();
        let (mine, tail) = rest.split_at(memory.citations.len());
        rest = tail;
        let verdict = judge(memory, mine, &usable, &mut entities);
        each(verdict, &entities);
    }
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

/// The verdict for one memory, whose citations are answered by `usable[slots[i]]`; its
/// entities go to `entities` (left empty unless visible).
fn judge<'p>(
    memory: &AgentMemory,
    slots: &[usize],
    usable: &[Option<(&'p PassageInfo, Cow<'_, str>)>],
    entities: &mut Vec<&'p Entity>,
) -> Verdict {
    if memory.citations.is_empty() {
        return Verdict::Visible(SourceState::Uncited);
    }
    let mut state = SourceState::Current;
    for (citation, &slot) in memory.citations.iter().zip(slots) {
        let Some((info, sha256)) = &usable[slot] else {
            entities.clear();
            return Verdict::Hidden;
        };
        if info.document_version != citation.document_version || *sha256 != citation.sha256 {
            state = SourceState::Changed;
        }
        for entity in &info.entities {
            // A memory cites a few passages with a few entities each: a linear search beats
            // building a set per memory.
            if !entities.iter().any(|e| e.id == entity.id) {
                entities.push(entity);
            }
        }
    }
    Verdict::Visible(state)
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
