//! The host-supplied passage source and what one lookup answers.

use std::sync::Arc;

use memory_core::{MemberId, WorkspaceId, content_sha256};
use serde::{Deserialize, Serialize};

/// An entity mentioned by a passage, as the host's extraction knows it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Entity {
    /// Stable entity id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Other names it goes by.
    #[serde(default)]
    pub aliases: Vec<String>,
}

impl Entity {
    /// An entity without aliases.
    pub fn new(id: impl Into<String>, name: impl Into<String>) -> Self {
        Entity {
            id: id.into(),
            name: name.into(),
            aliases: Vec::new(),
        }
    }

    /// This entity with `aliases` added.
    pub fn with_aliases<I>(mut self, aliases: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        self.aliases.extend(aliases.into_iter().map(Into::into));
        self
    }
}

/// A passage the member can read, as the host reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PassageInfo {
    /// The passage id.
    pub passage_id: String,
    /// The passage's document.
    pub document_id: String,
    /// The document's collection.
    pub collection_id: String,
    /// The document's current version.
    pub document_version: u64,
    /// Hex SHA-256 of the body's UTF-8 bytes, when the host has it (either case).
    pub sha256: Option<String>,
    /// The body, needed only when `sha256` is `None`; hashed, never stored.
    pub body: Option<String>,
    /// Entities the passage mentions.
    pub entities: Vec<Entity>,
}

impl PassageInfo {
    /// The lowercase hex SHA-256 of the body: the host's hash when it is 64 hex digits, else the
    /// hash of `body`. `None` when the host gave neither; such a passage cannot be verified and
    /// is treated as gone.
    pub fn content_sha256(&self) -> Option<String> {
        match &self.sha256 {
            Some(hash) if hash.len() == 64 && hash.bytes().all(|b| b.is_ascii_hexdigit()) => {
                Some(hash.to_ascii_lowercase())
            }
            _ => self.body.as_deref().map(content_sha256),
        }
    }
}

/// The answer for one requested passage id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PassageLookup {
    /// Readable by the member. Shared, so that a source holding its passages in memory answers
    /// the hundreds of ids of one recall without copying each passage's strings and entities.
    Found(Arc<PassageInfo>),
    /// Deleted, expired, unreadable for the member, not found, or in another workspace. The
    /// reasons are deliberately not told apart.
    Gone,
}

impl PassageLookup {
    /// [`PassageLookup::Found`] for `info`.
    pub fn found(info: PassageInfo) -> Self {
        PassageLookup::Found(Arc::new(info))
    }
}

/// Batched passage lookup, supplied by the host.
///
/// The library makes at most one call per request, with every passage id it needs (none when
/// [`generation`](Self::generation) shows that it already knows every answer).
pub trait PassageSource: Send + Sync {
    /// Looks up `passage_ids` in `workspace` as `member` may read them. Returns one answer per
    /// id, in input order (an id may repeat; answer each occurrence). A missing answer is treated
    /// as [`PassageLookup::Gone`].
    ///
    /// The ids are borrowed from the memories being verified: a recall over a whole history
    /// asks for thousands, and copying each one cost more than most hosts' lookup of it.
    fn lookup(
        &self,
        workspace: &WorkspaceId,
        member: &MemberId,
        passage_ids: &[&str],
    ) -> Vec<PassageLookup>;

    /// A stamp of everything [`lookup`](Self::lookup) answers in `workspace`, so that a reader
    /// may keep the verdicts of one lookup and reuse them while the stamp stands; `None` (the
    /// default) says the source gives no stamp, and then every read looks every cited passage up
    /// again.
    ///
    /// A source that answers `Some` promises, for `workspace`:
    ///
    /// - **every change moves the stamp**: whatever would make any `lookup` answer differ, for
    ///   any member and any passage id — a passage put (new text or hash, document version,
    ///   document, collection or entities), a passage, document or collection deleted, a
    ///   document expired, a member's read access granted or revoked — gives the stamp a value
    ///   it never had before (a counter that only grows keeps this);
    /// - **never ahead of the change**: the new stamp is not returned before `lookup` answers
    ///   with the change: both move in one step (one transaction, one lock), or the change
    ///   first and the stamp right after.
    ///
    /// Two calls answering the same `Some(g)` thus promise that no answer changed between them.
    /// A coarser stamp (one for every workspace, moved by any change anywhere) keeps the promise
    /// too, at the price of fewer reuses. Recall reads the stamp before its lookup and again
    /// after it, and keeps what it learnt only when both agree.
    fn generation(&self, workspace: &WorkspaceId) -> Option<u64> {
        let _ = workspace;
        None
    }
}

impl<S: PassageSource + ?Sized> PassageSource for &S {
    fn lookup(&self, ws: &WorkspaceId, member: &MemberId, ids: &[&str]) -> Vec<PassageLookup> {
        (**self).lookup(ws, member, ids)
    }

    fn generation(&self, ws: &WorkspaceId) -> Option<u64> {
        (**self).generation(ws)
    }
}

impl<S: PassageSource + ?Sized> PassageSource for Arc<S> {
    fn lookup(&self, ws: &WorkspaceId, member: &MemberId, ids: &[&str]) -> Vec<PassageLookup> {
        (**self).lookup(ws, member, ids)
    }

    fn generation(&self, ws: &WorkspaceId) -> Option<u64> {
        (**self).generation(ws)
    }
}

impl<S: PassageSource + ?Sized> PassageSource for Box<S> {
    fn lookup(&self, ws: &WorkspaceId, member: &MemberId, ids: &[&str]) -> Vec<PassageLookup> {
        (**self).lookup(ws, member, ids)
    }

    fn generation(&self, ws: &WorkspaceId) -> Option<u64> {
        (**self).generation(ws)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(sha256: Option<&str>, body: Option<&str>) -> PassageInfo {
        PassageInfo {
            passage_id: "p".into(),
            document_id: "d".into(),
            collection_id: "c".into(),
            document_version: 1,
            sha256: sha256.map(Into::into),
            body: body.map(Into::into),
            entities: vec![],
        }
    }

    #[test]
    fn host_hash_wins_and_is_lowercased() {
        let upper = "A".repeat(64);
        assert_eq!(
            info(Some(&upper), Some("x")).content_sha256(),
            Some("a".repeat(64))
        );
    }

    #[test]
    fn body_is_hashed_when_no_usable_hash() {
        // SHA-256 of "abc".
        let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        assert_eq!(
            info(None, Some("abc")).content_sha256().as_deref(),
            Some(abc)
        );
        assert_eq!(
            info(Some("not-a-hash"), Some("abc"))
                .content_sha256()
                .as_deref(),
            Some(abc)
        );
        assert_eq!(info(None, None).content_sha256(), None);
    }

    #[test]
    fn entities_deserialize_without_aliases() {
        let e: Entity = serde_json::from_str(r#"{"id":"e1","name":"Acme"}"#).unwrap();
        assert_eq!(e, Entity::new("e1", "Acme"));
    }
}
