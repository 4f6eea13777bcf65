//! Context-set rules: what a bound credential may write (steps 7 and 9 of remember) and which
//! memories it may see, recall and forget.
//!
//! An unbound credential passes every check; a credential bound to a set that no longer exists
//! ([`ContextBinding::Invalid`]) fails every check.

use memory_core::{AgentMemory, ApiError, Citation, ContextBinding, ContextSet, ErrorCode};

fn refused() -> ApiError {
    ErrorCode::AgentContextSetScopeRefused.into()
}

/// Step 7 of remember (context set, first part): for a bound credential the set must be valid,
/// the memory anchored (a `collectionId` or at least one citation), and `collection_id`, when
/// given, one of the set's collections; else `403 AGENT_CONTEXT_SET_SCOPE_REFUSED`.
pub fn check_remember_anchor(
    binding: &ContextBinding,
    collection_id: Option<&str>,
    has_citations: bool,
) -> Result<(), ApiError> {
    match binding {
        ContextBinding::Unbound => Ok(()),
        ContextBinding::Invalid => Err(refused()),
        ContextBinding::Bound(set) => {
            let anchored = collection_id.is_some() || has_citations;
            let collection_inside = collection_id.is_none_or(|c| set.contains_collection(c));
            if anchored && collection_inside {
                Ok(())
            } else {
                Err(refused())
            }
        }
    }
}

/// Step 9 of remember (context set, second part): every resolved citation's document must be in
/// the bound set, listed itself or through its collection; else `403
/// AGENT_CONTEXT_SET_SCOPE_REFUSED`.
pub fn check_cited_documents(
    binding: &ContextBinding,
    citations: &[Citation],
) -> Result<(), ApiError> {
    match binding {
        ContextBinding::Unbound => Ok(()),
        ContextBinding::Invalid => Err(refused()),
        ContextBinding::Bound(set) => {
            if citations
                .iter()
                .all(|c| set.contains_document(&c.document_id, &c.collection_id))
            {
                Ok(())
            } else {
                Err(refused())
            }
        }
    }
}

/// The "context sets on reads" rule: `memory` is inside `set` when it is anchored, its
/// `collectionId` (if any) is one of the set's collections, and every recorded citation's
/// document is in the set (listed, or its recorded collection listed).
pub fn memory_in_set(set: &ContextSet, memory: &AgentMemory) -> bool {
    memory.is_anchored()
        && memory
            .collection_id
            .as_deref()
            .is_none_or(|c| set.contains_collection(c))
        && memory
            .citations
            .iter()
            .all(|c| set.contains_document(&c.document_id, &c.collection_id))
}

/// Whether a credential with `binding` may see `memory`: always when unbound, never when the
/// bound set is invalid, else [`memory_in_set`]. Use it to filter read candidates after
/// [`check_read_filter`] passed.
pub fn visible_through(binding: &ContextBinding, memory: &AgentMemory) -> bool {
    match binding {
        ContextBinding::Unbound => true,
        ContextBinding::Invalid => false,
        ContextBinding::Bound(set) => memory_in_set(set, memory),
    }
}

/// A bound credential acting on one existing memory: forget (after the `404` check), and
/// superseding a key's current version in remember. Outside the set, or an invalid set →
/// `403 AGENT_CONTEXT_SET_SCOPE_REFUSED`.
pub fn check_memory_in_binding(
    binding: &ContextBinding,
    memory: &AgentMemory,
) -> Result<(), ApiError> {
    if visible_through(binding, memory) {
        Ok(())
    } else {
        Err(refused())
    }
}

/// Recall and list with a bound credential: an invalid bound set, or an explicit `collectionId`
/// filter outside the set → `403 AGENT_CONTEXT_SET_SCOPE_REFUSED`.
pub fn check_read_filter(
    binding: &ContextBinding,
    collection_id: Option<&str>,
) -> Result<(), ApiError> {
    match binding {
        ContextBinding::Unbound => Ok(()),
        ContextBinding::Invalid => Err(refused()),
        ContextBinding::Bound(set) => {
            if collection_id.is_none_or(|c| set.contains_collection(c)) {
                Ok(())
            } else {
                Err(refused())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unbound_passes_and_invalid_fails_everything() {
        let unbound = ContextBinding::Unbound;
        assert!(check_remember_anchor(&unbound, None, false).is_ok());
        assert!(check_read_filter(&unbound, Some("any")).is_ok());
        assert!(check_cited_documents(&unbound, &[]).is_ok());

        let invalid = ContextBinding::Invalid;
        assert!(check_remember_anchor(&invalid, Some("c1"), true).is_err());
        assert!(check_read_filter(&invalid, None).is_err());
        assert!(check_cited_documents(&invalid, &[]).is_err());
    }
}
