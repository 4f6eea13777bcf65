//! Agent memories: the masked text type, citations, the storage record and the JSON view.

use std::collections::BTreeMap;
use std::fmt;

pub use fusion_rank::{Ranker, Ranks};
use pii_mask::Category;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

use crate::{AgentMemoryId, CredentialId, MemberId, Timestamp, WorkspaceId};

/// The storable text of an agent memory: the output of the PII masker.
///
/// Architecture invariant 3: plain text never reaches storage unmasked. The one public
/// constructor, [`mask`](Self::mask), runs the masker; there is no way to wrap a `String` (or
/// a hand-built [`pii_mask::Masked`]) without it, and `MemoryText` itself does not implement
/// `Deserialize`.
///
/// The one other way in is the storage decode path: deserializing a whole [`AgentMemory`], which
/// backends do to read back the records they wrote (serialized from a `MemoryText`, so masker
/// output). That path trusts its input — it does not mask again, since recall decodes hundreds
/// of records per call — so an `AgentMemory` must only ever be deserialized from a backend's own
/// storage, never from a request or other untrusted bytes. The facade never does; requests
/// carry their text as a `String` that the facade masks.
///
/// Request text cannot be stored without passing through the masker; none of these compiles:
///
/// ```compile_fail
/// let text = memory_core::MemoryText(String::from("call 050-123-4567"));
/// ```
///
/// ```compile_fail
/// let text: memory_core::MemoryText = serde_json::from_str("\"call 050-123-4567\"").unwrap();
/// ```
///
/// ```compile_fail
/// let masked = pii_mask::Masked { text: "call 050-123-4567".into(), spans: vec![], counts: Default::default() };
/// let text = memory_core::MemoryText::from_masked(masked);
/// ```
///
/// ```compile_fail
/// let text = memory_core::MemoryText::from_storage_unchecked("call 050-123-4567".into());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct MemoryText(String);

impl MemoryText {
    /// Masks `text` and returns the storable text with the per-category counts.
    pub fn mask(text: &str) -> (Self, MaskedCounts) {
        let masked = pii_mask::mask(text);
        let counts = MaskedCounts::from_counts(&masked.counts);
        (MemoryText(masked.text), counts)
    }

    /// Rebuilds a text that a backend stored earlier from a `MemoryText` (the decode of
    /// [`AgentMemory`]); it skips the masker, so it is private to this module.
    fn from_storage_unchecked(stored: String) -> Self {
        MemoryText(stored)
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The text as an owned string.
    pub fn into_string(self) -> String {
        self.0
    }

    /// False when nothing but placeholders, whitespace and punctuation is left
    /// (`AGENT_MEMORY_EMPTY`).
    pub fn has_content(&self) -> bool {
        !pii_mask::only_placeholders(&self.0)
    }

    /// Length in Unicode scalar values.
    pub fn char_count(&self) -> usize {
        self.0.chars().count()
    }
}

impl AsRef<str> for MemoryText {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for MemoryText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn deserialize_stored_text<'de, D: Deserializer<'de>>(d: D) -> Result<MemoryText, D::Error> {
    String::deserialize(d).map(MemoryText::from_storage_unchecked)
}

/// How many values of each category the masker replaced; the response's `masked` object.
///
/// Serializes as `{"<category>": count, …}` with only non-zero counts (`{}` when nothing was
/// masked).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(
    feature = "openapi",
    schema(
        description = "How many values of each category the masker replaced; only non-zero counts"
    )
)]
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MaskedCounts(BTreeMap<Category, usize>);

impl MaskedCounts {
    /// Copies the non-zero counts of a masker result.
    pub fn from_counts(counts: &BTreeMap<Category, usize>) -> Self {
        MaskedCounts(
            counts
                .iter()
                .filter(|(_, n)| **n > 0)
                .map(|(c, n)| (*c, *n))
                .collect(),
        )
    }

    /// The count for `category` (0 when absent).
    pub fn get(&self, category: Category) -> usize {
        self.0.get(&category).copied().unwrap_or(0)
    }

    /// True when nothing was masked.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Total number of masked values.
    pub fn total(&self) -> usize {
        self.0.values().sum()
    }

    /// The non-zero counts.
    pub fn as_map(&self) -> &BTreeMap<Category, usize> {
        &self.0
    }
}

impl Serialize for MaskedCounts {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (category, count) in &self.0 {
            map.serialize_entry(category.as_str(), count)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for MaskedCounts {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CountsVisitor;

        impl<'de> Visitor<'de> for CountsVisitor {
            type Value = MaskedCounts;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of category counts")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<MaskedCounts, A::Error> {
                let mut counts = BTreeMap::new();
                while let Some((name, count)) = access.next_entry::<String, usize>()? {
                    let category = Category::ALL
                        .into_iter()
                        .find(|c| c.as_str() == name)
                        .ok_or_else(|| de::Error::custom("unknown category"))?;
                    if count > 0 {
                        counts.insert(category, count);
                    }
                }
                Ok(MaskedCounts(counts))
            }
        }

        deserializer.deserialize_map(CountsVisitor)
    }
}

/// What a memory records about a cited passage (never the passage body).
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Citation {
    /// The passage id as the agent sent it.
    pub passage_id: String,
    /// The passage's document.
    pub document_id: String,
    /// The document's collection.
    pub collection_id: String,
    /// The document version the passage had at write time.
    pub document_version: u64,
    /// Lowercase hex SHA-256 of the passage body's UTF-8 bytes at write time.
    pub sha256: String,
}

/// One stored agent memory version.
///
/// Serde encodes it for storage (camelCase); deserializing is the storage decode path of
/// [`MemoryText`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentMemory {
    /// This version's id.
    pub id: AgentMemoryId,
    /// The workspace.
    pub workspace: WorkspaceId,
    /// The owner: the member who created the writing credential.
    pub member: MemberId,
    /// The credential that wrote this version.
    pub credential: CredentialId,
    /// The namespace (exact match).
    pub namespace: String,
    /// The key, for versioned memories.
    pub key: Option<String>,
    /// The masked text.
    #[serde(deserialize_with = "deserialize_stored_text")]
    pub text: MemoryText,
    /// The collection the memory is anchored to, if any.
    pub collection_id: Option<String>,
    /// Version number within the key (1 for the first, and for keyless memories).
    pub version: u32,
    /// Cited passages, as recorded at write time.
    pub citations: Vec<Citation>,
    /// When this version was written.
    pub created_at: Timestamp,
    /// When a newer version of the key replaced this one.
    pub superseded_at: Option<Timestamp>,
    /// Ranking data computed once at write time (never part of any view).
    #[serde(default)]
    pub ranking: RankingData,
}

/// What recall needs of a memory, computed once when it is written, so that recall tokenizes and
/// embeds only the query.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RankingData {
    /// Term frequencies of the masked text, sorted by term (by construction).
    pub terms: fusion_rank::TermCounts,
    /// Number of tokens of the masked text.
    pub length: u32,
    /// The masked text's embedding, with the model that made it; `None` when the embedder was
    /// unavailable at write time.
    pub embedding: Option<StoredEmbedding>,
}

/// An embedding vector tagged with the model that produced it; vectors of different models are
/// never compared.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StoredEmbedding {
    /// The embedder's model id.
    pub model: String,
    /// The vector.
    pub vector: Vec<f32>,
}

/// Bitwise equality: a stored vector equals itself exactly (NaN included), which is what storage
/// round-trips and the reference model compare.
impl PartialEq for StoredEmbedding {
    fn eq(&self, other: &Self) -> bool {
        self.model == other.model
            && self.vector.len() == other.vector.len()
            && self
                .vector
                .iter()
                .zip(&other.vector)
                .all(|(a, b)| a.to_bits() == b.to_bits())
    }
}

impl Eq for StoredEmbedding {}

/// Whether a version created at `created_at` and superseded at `superseded_at` (if it was) is
/// valid at `t`: `created_at ≤ t` and (`superseded_at` is null or `superseded_at > t`). The one
/// definition, for a version and for the copies of its instants a recall index keeps.
pub fn valid_at(created_at: Timestamp, superseded_at: Option<Timestamp>, t: Timestamp) -> bool {
    created_at <= t && superseded_at.is_none_or(|s| s > t)
}

impl AgentMemory {
    /// Valid at `t`: `created_at ≤ t` and (`superseded_at` is null or `superseded_at > t`)
    /// ([`valid_at`]).
    pub fn is_valid_at(&self, t: Timestamp) -> bool {
        valid_at(self.created_at, self.superseded_at, t)
    }

    /// Expired at `now`: `created_at ≤ now − retention_days`.
    pub fn is_expired(&self, now: Timestamp, retention_days: u16) -> bool {
        self.created_at <= now.minus_days(i64::from(retention_days))
    }

    /// Not superseded.
    pub fn is_current(&self) -> bool {
        self.superseded_at.is_none()
    }

    /// Anchored: has a `collection_id` or at least one citation.
    pub fn is_anchored(&self) -> bool {
        self.collection_id.is_some() || !self.citations.is_empty()
    }

    /// True when a citation records `document_id`.
    pub fn cites_document(&self, document_id: &str) -> bool {
        self.citations.iter().any(|c| c.document_id == document_id)
    }

    /// True when the memory's `collection_id` is `collection_id` or a citation was recorded in it.
    pub fn touches_collection(&self, collection_id: &str) -> bool {
        self.collection_id.as_deref() == Some(collection_id)
            || self
                .citations
                .iter()
                .any(|c| c.collection_id == collection_id)
    }
}

/// The state of a memory's sources, as re-verified at read time.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SourceState {
    /// Every cited passage is unchanged.
    Current,
    /// A cited document's version or passage hash changed.
    Changed,
    /// No citations.
    Uncited,
    /// Hidden from agents (a source is gone); only in the member's own list.
    Unavailable,
}

impl SourceState {
    /// The wire name.
    pub const fn as_str(self) -> &'static str {
        match self {
            SourceState::Current => "current",
            SourceState::Changed => "changed",
            SourceState::Uncited => "uncited",
            SourceState::Unavailable => "unavailable",
        }
    }
}

/// A constant string of the view (`type`, `trust`): a one-valued enum whose schema (feature
/// `openapi`) is derived, the one string, and a constant of the same name standing for its one
/// value, so that it reads like a unit struct.
macro_rules! constant_string {
    ($(#[$doc:meta])* $name:ident = $value:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        pub enum $name {
            /// The one value.
            #[default]
            #[cfg_attr(feature = "openapi", schema(rename = $value))]
            $name,
        }

        $(#[$doc])*
        #[allow(non_upper_case_globals)]
        pub const $name: $name = $name::$name;

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str($value)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct ConstantVisitor;

                impl<'de> Visitor<'de> for ConstantVisitor {
                    type Value = $name;

                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str(concat!("the string \"", $value, "\""))
                    }

                    fn visit_str<E: de::Error>(self, v: &str) -> Result<$name, E> {
                        if v == $value {
                            Ok($name)
                        } else {
                            Err(E::custom(concat!("expected the string \"", $value, "\"")))
                        }
                    }
                }

                deserializer.deserialize_any(ConstantVisitor)
            }
        }
    };
}

constant_string!(
    /// `"type": "memory"`, the only value a memory view's `type` can take.
    MemoryType = "memory"
);
constant_string!(
    /// `"trust": "untrusted"`: memory content is never trusted.
    Untrusted = "untrusted"
);

/// `"evidence": false`: memories are never evidence.
///
/// Its schema is stated where it is used ([`MemoryView`]'s `evidence`), with the schema builder
/// for the one constant the derive cannot state: a boolean.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct NotEvidence;

impl Serialize for NotEvidence {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bool(false)
    }
}

impl<'de> Deserialize<'de> for NotEvidence {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct FalseVisitor;

        impl Visitor<'_> for FalseVisitor {
            type Value = NotEvidence;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("false")
            }

            fn visit_bool<E: de::Error>(self, v: bool) -> Result<NotEvidence, E> {
                if v {
                    Err(E::custom("expected false"))
                } else {
                    Ok(NotEvidence)
                }
            }
        }

        deserializer.deserialize_any(FalseVisitor)
    }
}

/// The JSON view of an agent memory (camelCase; absent optionals are `null`).
///
/// `type`, `evidence` and `trust` are constants that cannot be set otherwise, and deserializing
/// a view with any other value fails.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MemoryView {
    /// The version's id.
    pub id: AgentMemoryId,
    /// The namespace.
    pub namespace: String,
    /// The key, or null.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub key: Option<String>,
    /// The masked text.
    pub text: String,
    /// The anchoring collection, or null.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub collection_id: Option<String>,
    /// Version number within the key.
    pub version: u32,
    /// Recorded citations.
    pub citations: Vec<Citation>,
    /// When the version was written.
    pub created_at: Timestamp,
    /// When it was superseded, or null.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub superseded_at: Option<Timestamp>,
    /// Re-verification result.
    pub source_state: SourceState,
    /// Always `"memory"`.
    #[cfg_attr(feature = "openapi", schema(inline))]
    #[serde(rename = "type")]
    pub kind: MemoryType,
    /// Always `false`.
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::schema::only_false))]
    pub evidence: NotEvidence,
    /// Always `"untrusted"`.
    #[cfg_attr(feature = "openapi", schema(inline))]
    pub trust: Untrusted,
}

impl MemoryView {
    /// The view of `record` with its re-verified `source_state`.
    pub fn new(record: &AgentMemory, source_state: SourceState) -> Self {
        MemoryView {
            id: record.id.clone(),
            namespace: record.namespace.clone(),
            key: record.key.clone(),
            text: record.text.as_str().to_owned(),
            collection_id: record.collection_id.clone(),
            version: record.version,
            citations: record.citations.clone(),
            created_at: record.created_at,
            superseded_at: record.superseded_at,
            source_state,
            kind: MemoryType,
            evidence: NotEvidence,
            trust: Untrusted,
        }
    }
}

/// A recall result: a [`MemoryView`] plus `score` and `ranks`.
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecalledMemory {
    /// The view (its keys are inlined).
    #[serde(flatten)]
    pub view: MemoryView,
    /// The fused score.
    pub score: f64,
    /// Per-list positions.
    pub ranks: Ranks,
    /// How many other memories of the member in the same namespace with the same masked text
    /// this one stands for: recall answers the newest of identical texts once. Absent (0) when
    /// the text is unique.
    #[serde(default, skip_serializing_if = "is_zero")]
    #[cfg_attr(feature = "openapi", schema(minimum = 1))]
    pub duplicates: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(created: i64, superseded: Option<i64>) -> AgentMemory {
        AgentMemory {
            id: AgentMemoryId::parse("amem_test").unwrap(),
            workspace: WorkspaceId::new("ws").unwrap(),
            member: MemberId::new("m").unwrap(),
            credential: CredentialId::new("c").unwrap(),
            namespace: "ns".into(),
            key: None,
            text: MemoryText::from_storage_unchecked("t".into()),
            collection_id: None,
            version: 1,
            citations: vec![],
            created_at: Timestamp::from_millis(created).unwrap(),
            superseded_at: superseded.map(|s| Timestamp::from_millis(s).unwrap()),
            ranking: RankingData::default(),
        }
    }

    #[test]
    fn validity_window_is_half_open() {
        let m = record(100, Some(200));
        let at = |ms| Timestamp::from_millis(ms).unwrap();
        assert!(!m.is_valid_at(at(99)));
        assert!(m.is_valid_at(at(100)));
        assert!(m.is_valid_at(at(199)));
        assert!(!m.is_valid_at(at(200)));
        assert!(record(100, None).is_valid_at(Timestamp::MAX));
    }

    #[test]
    fn expiry_boundary_is_inclusive() {
        let day = 86_400_000;
        let m = record(0, None);
        assert!(!m.is_expired(Timestamp::from_millis(day - 1).unwrap(), 1));
        assert!(m.is_expired(Timestamp::from_millis(day).unwrap(), 1));
    }

    #[test]
    fn mask_takes_the_masked_text_and_counts_only_what_it_replaced() {
        let (text, counts) = MemoryText::mask("mail a@b.io");
        assert_eq!(text.as_str(), "mail [EMAIL]");
        assert!(text.has_content());
        assert_eq!(serde_json::to_string(&counts).unwrap(), r#"{"email":1}"#);
        let counts = MaskedCounts::from_counts(&BTreeMap::from([
            (Category::Email, 1),
            (Category::Phone, 0),
        ]));
        assert_eq!(serde_json::to_string(&counts).unwrap(), r#"{"email":1}"#);
        assert!(!MemoryText::from_storage_unchecked("[EMAIL] !".into()).has_content());
    }

    #[test]
    fn markers_refuse_other_values() {
        assert!(serde_json::from_str::<NotEvidence>("true").is_err());
        assert!(serde_json::from_str::<NotEvidence>("false").is_ok());
        assert!(serde_json::from_str::<Untrusted>("\"trusted\"").is_err());
        assert!(serde_json::from_str::<MemoryType>("\"memory\"").is_ok());
        assert!(serde_json::from_str::<MemoryType>("\"evidence\"").is_err());
    }

    #[cfg(feature = "openapi")]
    #[test]
    fn the_derived_schemas_state_the_counts_and_the_constants() {
        use serde_json::json;
        use utoipa::PartialSchema;

        let counts = serde_json::to_value(MaskedCounts::schema()).unwrap();
        let names: Vec<&str> = Category::ALL.into_iter().map(Category::as_str).collect();
        assert_eq!(counts["type"], "object");
        assert_eq!(counts["propertyNames"]["enum"], json!(names));
        assert_eq!(
            counts["additionalProperties"],
            json!({"type": "integer", "minimum": 0})
        );

        let view = serde_json::to_value(MemoryView::schema()).unwrap();
        let properties = &view["properties"];
        assert_eq!(properties["type"]["oneOf"][0]["enum"], json!(["memory"]));
        assert_eq!(
            properties["trust"]["oneOf"][0]["enum"],
            json!(["untrusted"])
        );
        assert_eq!(properties["evidence"]["type"], "boolean");
        assert_eq!(properties["evidence"]["enum"], json!([false]));
    }
}
