//! The request types: each is its own wire struct (serde derive) and schema (`utoipa` derive,
//! feature `openapi`), with one `check` holding its field rules in the contract's order.
//!
//! The schema attributes state the bounds the rules check; `tests/it/openapi.rs` of
//! `agent-memory` checks that the schemas accept exactly the bodies `from_json` accepts.

use std::fmt;

use memory_core::{ApiError, Settings, Timestamp};
use serde::Deserialize;
use serde_json::Value;

use super::rules::{
    COLLECTION_ID, CURSOR, Checks, KEY, LIST_LIMIT, MEMORY_ID, NAMESPACE, QUERY, RECALL_LIMIT,
    RETENTION_DAYS, Redacted, TEXT, distinct, invalid, read_body,
};
use crate::limits::{LIST_LIMIT_DEFAULT, RECALL_LIMIT_DEFAULT};
use crate::wire::null_as_default;

const AS_OF: &str = "asOf must be an RFC 3339 timestamp";
const CREATED_AFTER: &str = "createdAfter must be an RFC 3339 timestamp";
const CREATED_BEFORE: &str = "createdBefore must be an RFC 3339 timestamp";

/// The period filters of recall and list: both are instants sent like `asOf`, and a period
/// that cannot hold an instant (`createdAfter` not before `createdBefore`) is refused rather
/// than read as empty.
fn check_period(
    checks: &Checks<'_>,
    after: Option<Timestamp>,
    before: Option<Timestamp>,
) -> Result<(), ApiError> {
    checks.typed("createdAfter", CREATED_AFTER)?;
    checks.typed("createdBefore", CREATED_BEFORE)?;
    match (after, before) {
        (Some(after), Some(before)) if after >= before => {
            Err(invalid("createdAfter must be earlier than createdBefore"))
        }
        _ => Ok(()),
    }
}

fn recall_limit_default() -> usize {
    RECALL_LIMIT_DEFAULT
}

fn list_limit_default() -> usize {
    LIST_LIMIT_DEFAULT
}

/// `limit` of recall: absent or `null` is 10.
fn recall_limit<'de, D: serde::Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    Ok(Option::<usize>::deserialize(d)?.unwrap_or(RECALL_LIMIT_DEFAULT))
}

/// `limit` of the lists: absent or `null` is 20.
fn list_limit<'de, D: serde::Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    Ok(Option::<usize>::deserialize(d)?.unwrap_or(LIST_LIMIT_DEFAULT))
}

/// The body of `remember`: `{ namespace, text, key?, collectionId?, citations? }`; the text is
/// masked before it is stored.
///
/// ```
/// use governance_policy::{Request, RememberRequest};
///
/// let request = RememberRequest::new("prefs", "Reply tersely")
///     .key("tone")
///     .citations(["psg_1", "psg_2", "psg_1"]);
/// assert_eq!(request.citations, ["psg_1", "psg_2"]);
/// assert!(request.validate().is_ok());
/// assert!(RememberRequest::new("prefs", "").validate().is_err());
/// ```
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(
    feature = "openapi",
    schema(description = "The body of remember; the text is masked before it is stored")
)]
pub struct RememberRequest {
    /// 1–64 characters, without control characters or leading or trailing whitespace.
    #[serde(default, deserialize_with = "null_as_default")]
    #[cfg_attr(
        feature = "openapi",
        schema(
            required = true,
            min_length = 1,
            max_length = 64,
            pattern = r"^(?:[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]|[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000][^\u0000-\u001F\u007F-\u009F]*[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000])$"
        )
    )]
    pub namespace: String,
    /// 1–1000 characters, counted before masking; not yet masked.
    #[serde(default, deserialize_with = "null_as_default")]
    #[cfg_attr(
        feature = "openapi",
        schema(required = true, min_length = 1, max_length = 1000)
    )]
    pub text: String,
    /// 1–120 characters, without control characters or leading or trailing whitespace.
    #[serde(default)]
    #[cfg_attr(
        feature = "openapi",
        schema(
            min_length = 1,
            max_length = 120,
            pattern = r"^(?:[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]|[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000][^\u0000-\u001F\u007F-\u009F]*[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000])$"
        )
    )]
    pub key: Option<String>,
    /// 1–128 characters.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 128))]
    pub collection_id: Option<String>,
    /// Cited passage ids: at most 20 as sent, each 1–128 characters; duplicates collapse,
    /// first occurrence order kept.
    #[serde(default, deserialize_with = "null_as_default")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Vec<PassageId>>, max_items = 20))]
    pub citations: Vec<String>,
    /// How many ids were given before duplicates collapsed: at most 20.
    #[serde(skip)]
    citations_sent: usize,
}

/// A cited passage id (feature `openapi`: the schema of `citations`' items).
#[cfg(feature = "openapi")]
#[derive(utoipa::ToSchema)]
#[schema(
    value_type = String,
    pattern = r"^[\s\S]{1,128}$",
    description = "A cited passage id of 1 to 128 characters"
)]
pub struct PassageId(#[allow(dead_code)] String);

impl RememberRequest {
    /// A memory `text` in `namespace`, without a key, collection or citations.
    pub fn new(namespace: impl Into<String>, text: impl Into<String>) -> Self {
        RememberRequest {
            namespace: namespace.into(),
            text: text.into(),
            key: None,
            collection_id: None,
            citations: Vec::new(),
            citations_sent: 0,
        }
    }

    /// Writes under `key`: the new version supersedes the key's current one.
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }

    /// Anchors the memory to a collection.
    pub fn collection_id(mut self, collection_id: impl Into<String>) -> Self {
        self.collection_id = Some(collection_id.into());
        self
    }

    /// Cites these passages (at most 20 given, duplicates included).
    pub fn citations<I, S>(mut self, ids: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let (sent, ids) = distinct(ids.into_iter().map(Into::into));
        self.citations = ids;
        self.citations_sent = sent;
        self
    }

    /// Parses and validates a remember body.
    pub fn from_json(value: &Value) -> Result<Self, ApiError> {
        read_body(value, |request: &mut Self, checks| {
            let (sent, ids) = distinct(std::mem::take(&mut request.citations));
            request.citations = ids;
            request.citations_sent = sent;
            request.check(checks)
        })
    }

    /// Applies the field rules.
    pub fn validate(&self) -> Result<(), ApiError> {
        self.check(&Checks::TYPED)
    }

    fn check(&self, checks: &Checks<'_>) -> Result<(), ApiError> {
        checks.string(&NAMESPACE, Some(&self.namespace))?;
        checks.string(&TEXT, Some(&self.text))?;
        checks.string(&KEY, self.key.as_deref())?;
        checks.string(&COLLECTION_ID, self.collection_id.as_deref())?;
        checks.citations(self.citations_sent, &self.citations)
    }
}

impl fmt::Debug for RememberRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RememberRequest")
            .field("namespace", &self.namespace)
            .field("text", &Redacted(&self.text))
            .field("key", &self.key)
            .field("collection_id", &self.collection_id)
            .field("citations", &self.citations)
            .finish()
    }
}

/// The body of `recall`: `{ query, namespace?, collectionId?, asOf?, createdAfter?,
/// createdBefore?, limit? }`.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[non_exhaustive]
pub struct RecallRequest {
    /// 1–1000 characters; not yet masked.
    #[serde(default, deserialize_with = "null_as_default")]
    #[cfg_attr(
        feature = "openapi",
        schema(required = true, min_length = 1, max_length = 1000)
    )]
    pub query: String,
    /// Exact-match namespace filter.
    #[serde(default)]
    #[cfg_attr(
        feature = "openapi",
        schema(
            min_length = 1,
            max_length = 64,
            pattern = r"^(?:[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]|[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000][^\u0000-\u001F\u007F-\u009F]*[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000])$"
        )
    )]
    pub namespace: Option<String>,
    /// Exact-match collection filter.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 128))]
    pub collection_id: Option<String>,
    /// The instant to read at, as sent (see [`crate::effective_as_of`]); absent reads at now,
    /// a future instant reads at now.
    #[serde(default)]
    pub as_of: Option<Timestamp>,
    /// Only versions created strictly after this instant.
    #[serde(default)]
    pub created_after: Option<Timestamp>,
    /// Only versions created strictly before this instant.
    #[serde(default)]
    pub created_before: Option<Timestamp>,
    /// 1–50, default 10.
    #[serde(default = "recall_limit_default", deserialize_with = "recall_limit")]
    #[cfg_attr(
        feature = "openapi",
        schema(nullable, minimum = 1, maximum = 50, default = 10)
    )]
    pub limit: usize,
}

impl RecallRequest {
    /// Recalls the memories that answer `query`, at most 10, as of now.
    pub fn new(query: impl Into<String>) -> Self {
        RecallRequest {
            query: query.into(),
            namespace: None,
            collection_id: None,
            as_of: None,
            created_after: None,
            created_before: None,
            limit: RECALL_LIMIT_DEFAULT,
        }
    }

    /// Only memories in `namespace`.
    pub fn namespace(mut self, namespace: impl Into<String>) -> Self {
        self.namespace = Some(namespace.into());
        self
    }

    /// Only memories anchored to `collection_id`.
    pub fn collection_id(mut self, collection_id: impl Into<String>) -> Self {
        self.collection_id = Some(collection_id.into());
        self
    }

    /// Reads the versions valid at `as_of`.
    pub fn as_of(mut self, as_of: Timestamp) -> Self {
        self.as_of = Some(as_of);
        self
    }

    /// Only versions created strictly after `instant`.
    pub fn created_after(mut self, instant: Timestamp) -> Self {
        self.created_after = Some(instant);
        self
    }

    /// Only versions created strictly before `instant`.
    pub fn created_before(mut self, instant: Timestamp) -> Self {
        self.created_before = Some(instant);
        self
    }

    /// At most `limit` memories (1–50).
    pub fn limit(mut self, limit: usize) -> Self {
        self.limit = limit;
        self
    }

    /// Parses and validates a recall body.
    pub fn from_json(value: &Value) -> Result<Self, ApiError> {
        read_body(value, |request: &mut Self, checks| request.check(checks))
    }

    /// Applies the field rules.
    pub fn validate(&self) -> Result<(), ApiError> {
        self.check(&Checks::TYPED)
    }

    fn check(&self, checks: &Checks<'_>) -> Result<(), ApiError> {
        checks.string(&QUERY, Some(&self.query))?;
        checks.string(&NAMESPACE, self.namespace.as_deref())?;
        checks.string(&COLLECTION_ID, self.collection_id.as_deref())?;
        checks.typed("asOf", AS_OF)?;
        check_period(checks, self.created_after, self.created_before)?;
        checks.int(&RECALL_LIMIT, Some(self.limit as u64))
    }
}

impl fmt::Debug for RecallRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RecallRequest")
            .field("query", &Redacted(&self.query))
            .field("namespace", &self.namespace)
            .field("collection_id", &self.collection_id)
            .field("as_of", &self.as_of)
            .field("created_after", &self.created_after)
            .field("created_before", &self.created_before)
            .field("limit", &self.limit)
            .finish()
    }
}

/// The body of `list`: `{ namespace?, key?, collectionId?, asOf?, createdAfter?, createdBefore?,
/// limit?, cursor? }`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[non_exhaustive]
pub struct ListRequest {
    /// Exact-match namespace filter.
    #[serde(default)]
    #[cfg_attr(
        feature = "openapi",
        schema(
            min_length = 1,
            max_length = 64,
            pattern = r"^(?:[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]|[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000][^\u0000-\u001F\u007F-\u009F]*[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000])$"
        )
    )]
    pub namespace: Option<String>,
    /// Exact-match key filter.
    #[serde(default)]
    #[cfg_attr(
        feature = "openapi",
        schema(
            min_length = 1,
            max_length = 120,
            pattern = r"^(?:[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]|[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000][^\u0000-\u001F\u007F-\u009F]*[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000])$"
        )
    )]
    pub key: Option<String>,
    /// Exact-match collection filter.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 128))]
    pub collection_id: Option<String>,
    /// The instant to read at, as sent.
    #[serde(default)]
    pub as_of: Option<Timestamp>,
    /// Only versions created strictly after this instant.
    #[serde(default)]
    pub created_after: Option<Timestamp>,
    /// Only versions created strictly before this instant.
    #[serde(default)]
    pub created_before: Option<Timestamp>,
    /// 1–100, default 20.
    #[serde(default = "list_limit_default", deserialize_with = "list_limit")]
    #[cfg_attr(
        feature = "openapi",
        schema(nullable, minimum = 1, maximum = 100, default = 20)
    )]
    pub limit: usize,
    /// The opaque cursor of a previous page (1–4096 characters); decoding it and comparing its
    /// filters is the facade's job.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 4096))]
    pub cursor: Option<String>,
}

impl Default for ListRequest {
    fn default() -> Self {
        ListRequest::new()
    }
}

impl ListRequest {
    /// The first page of every visible memory, 20 to a page, as of now.
    pub fn new() -> Self {
        ListRequest {
            namespace: None,
            key: None,
            collection_id: None,
            as_of: None,
            created_after: None,
            created_before: None,
            limit: LIST_LIMIT_DEFAULT,
            cursor: None,
        }
    }

    /// Only memories in `namespace`.
    pub fn namespace(mut self, namespace: impl Into<String>) -> Self {
        self.namespace = Some(namespace.into());
        self
    }

    /// Only versions of `key`.
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }

    /// Only memories anchored to `collection_id`.
    pub fn collection_id(mut self, collection_id: impl Into<String>) -> Self {
        self.collection_id = Some(collection_id.into());
        self
    }

    /// Reads the versions valid at `as_of`.
    pub fn as_of(mut self, as_of: Timestamp) -> Self {
        self.as_of = Some(as_of);
        self
    }

    /// Only versions created strictly after `instant`.
    pub fn created_after(mut self, instant: Timestamp) -> Self {
        self.created_after = Some(instant);
        self
    }

    /// Only versions created strictly before `instant`.
    pub fn created_before(mut self, instant: Timestamp) -> Self {
        self.created_before = Some(instant);
        self
    }

    /// At most `limit` memories a page (1–100).
    pub fn limit(mut self, limit: usize) -> Self {
        self.limit = limit;
        self
    }

    /// The page after the one that returned `cursor`.
    pub fn cursor(mut self, cursor: impl Into<String>) -> Self {
        self.cursor = Some(cursor.into());
        self
    }

    /// Parses and validates a list body.
    pub fn from_json(value: &Value) -> Result<Self, ApiError> {
        read_body(value, |request: &mut Self, checks| request.check(checks))
    }

    /// Applies the field rules.
    pub fn validate(&self) -> Result<(), ApiError> {
        self.check(&Checks::TYPED)
    }

    fn check(&self, checks: &Checks<'_>) -> Result<(), ApiError> {
        checks.string(&NAMESPACE, self.namespace.as_deref())?;
        checks.string(&KEY, self.key.as_deref())?;
        checks.string(&COLLECTION_ID, self.collection_id.as_deref())?;
        checks.typed("asOf", AS_OF)?;
        check_period(checks, self.created_after, self.created_before)?;
        checks.int(&LIST_LIMIT, Some(self.limit as u64))?;
        checks.string(&CURSOR, self.cursor.as_deref())
    }
}

/// The body of `forget`: `{ memoryId }` or `{ namespace, key }`, exactly one form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ForgetRequest {
    /// Forget the memory with this id (its whole key, when keyed). The id is kept as sent: an id
    /// that matches nothing, well-formed or not, is the facade's `404`.
    ById(String),
    /// Forget every version of this key.
    ByKey {
        /// The namespace.
        namespace: String,
        /// The key.
        key: String,
    },
}

/// The wire form of `forget`: the fields of both forms, which `from_json` tells apart.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ForgetBody {
    #[serde(default)]
    memory_id: Option<String>,
    #[serde(default)]
    namespace: Option<String>,
    #[serde(default)]
    key: Option<String>,
}

impl ForgetRequest {
    /// Forgets the memory `memory_id` (its whole key, when keyed).
    pub fn by_id(memory_id: impl Into<String>) -> Self {
        ForgetRequest::ById(memory_id.into())
    }

    /// Forgets every version of `key` in `namespace`.
    pub fn by_key(namespace: impl Into<String>, key: impl Into<String>) -> Self {
        ForgetRequest::ByKey {
            namespace: namespace.into(),
            key: key.into(),
        }
    }

    /// Applies the field rules.
    pub fn validate(&self) -> Result<(), ApiError> {
        match self {
            ForgetRequest::ById(id) => MEMORY_ID.check(id),
            ForgetRequest::ByKey { namespace, key } => {
                NAMESPACE.check(namespace)?;
                KEY.check(key)
            }
        }
    }

    /// Parses and validates a forget body.
    pub fn from_json(value: &Value) -> Result<Self, ApiError> {
        const ONE_FORM: &str = "send either memoryId, or namespace and key";
        let mut form = None;
        read_body(value, |body: &mut ForgetBody, checks| {
            // A field counts as sent when it is there and not `null`, whatever its type.
            let sent = |name: &str, value: &Option<String>| {
                value.is_some() || checks.typed(name, "").is_err()
            };
            let by_id = sent("memoryId", &body.memory_id);
            let (namespace, key) = (sent("namespace", &body.namespace), sent("key", &body.key));
            form = Some(match (by_id, namespace || key) {
                (true, false) => {
                    let id = body.memory_id.take().unwrap_or_default();
                    checks.string(&MEMORY_ID, Some(&id))?;
                    ForgetRequest::ById(id)
                }
                (false, true) if namespace && key => {
                    let namespace = body.namespace.take().unwrap_or_default();
                    checks.string(&NAMESPACE, Some(&namespace))?;
                    let key = body.key.take().unwrap_or_default();
                    checks.string(&KEY, Some(&key))?;
                    ForgetRequest::ByKey { namespace, key }
                }
                _ => return Err(invalid(ONE_FORM)),
            });
            Ok(())
        })?;
        form.ok_or_else(|| invalid(ONE_FORM))
    }
}

/// The schema of `forget`'s body (feature `openapi`): exactly one of the two forms.
#[cfg(feature = "openapi")]
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
#[schema(
    as = ForgetRequest,
    description = "The body of forget: memoryId, or namespace and key"
)]
#[allow(dead_code)] // Described, never built: `from_json` reads `ForgetBody`.
pub enum ForgetForms {
    /// Forget the memory with this id (its whole key, when keyed).
    ById(ForgetByIdForm),
    /// Forget every version of this key.
    ByKey(ForgetByKeyForm),
}

/// `forget` by id; the other form's fields may only be absent or `null`.
#[cfg(feature = "openapi")]
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(description = "Forget the memory with this id (its whole key, when keyed)")]
#[allow(dead_code)]
pub struct ForgetByIdForm {
    /// 1–128 characters.
    #[schema(min_length = 1, max_length = 128)]
    memory_id: String,
    #[schema(value_type = Absent, required = false)]
    namespace: Option<String>,
    #[schema(value_type = Absent, required = false)]
    key: Option<String>,
}

/// `forget` by key; `memoryId` may only be absent or `null`.
#[cfg(feature = "openapi")]
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(description = "Forget every version of this key")]
#[allow(dead_code)]
pub struct ForgetByKeyForm {
    #[schema(value_type = Absent, required = false)]
    memory_id: Option<String>,
    /// 1–64 characters, without control characters or leading or trailing whitespace.
    #[schema(
        min_length = 1,
        max_length = 64,
        pattern = r"^(?:[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]|[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000][^\u0000-\u001F\u007F-\u009F]*[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000])$"
    )]
    namespace: String,
    /// 1–120 characters, without control characters or leading or trailing whitespace.
    #[schema(
        min_length = 1,
        max_length = 120,
        pattern = r"^(?:[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]|[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000][^\u0000-\u001F\u007F-\u009F]*[^\u0000-\u0020\u007F-\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000])$"
    )]
    key: String,
}

/// A field of the other form: only `null` (an untagged unit is `null` on the wire).
#[cfg(feature = "openapi")]
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
#[schema(description = "Only null: a field of the other form")]
#[allow(dead_code)]
enum Absent {
    Null,
}

/// The body of `settings.put`: the fields to change, merged onto the stored settings; absent
/// fields keep their value.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[non_exhaustive]
pub struct SettingsPatch {
    /// New `agentMemoriesEnabled`, when sent.
    #[serde(default)]
    pub agent_memories_enabled: Option<bool>,
    /// New `retentionDays` (1–365), when sent.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 365))]
    pub retention_days: Option<u16>,
}

impl SettingsPatch {
    /// Turns agent memories on or off for the workspace.
    pub fn agent_memories_enabled(mut self, enabled: bool) -> Self {
        self.agent_memories_enabled = Some(enabled);
        self
    }

    /// Keeps memories for `days` (1–365).
    pub fn retention_days(mut self, days: u16) -> Self {
        self.retention_days = Some(days);
        self
    }

    /// Applies the field rules.
    pub fn validate(&self) -> Result<(), ApiError> {
        self.check(&Checks::TYPED)
    }

    fn check(&self, checks: &Checks<'_>) -> Result<(), ApiError> {
        checks.typed(
            "agentMemoriesEnabled",
            "agentMemoriesEnabled must be a boolean",
        )?;
        checks.int(&RETENTION_DAYS, self.retention_days.map(u64::from))
    }

    /// Parses and validates a settings body.
    pub fn from_json(value: &Value) -> Result<Self, ApiError> {
        read_body(value, |request: &mut Self, checks| request.check(checks))
    }

    /// `current` with the sent fields replaced.
    pub fn apply(&self, current: Settings) -> Settings {
        Settings {
            agent_memories_enabled: self
                .agent_memories_enabled
                .unwrap_or(current.agent_memories_enabled),
            retention_days: self.retention_days.unwrap_or(current.retention_days),
        }
    }
}

/// The body of the member's delete: `{ memoryId? }`; without an id, all of the member's own.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[non_exhaustive]
pub struct MemberDeleteRequest {
    /// The memory to delete (its whole key, 1–128 characters), or `None` for all.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 128))]
    pub memory_id: Option<String>,
}

impl MemberDeleteRequest {
    /// Deletes every memory of the member's own.
    pub fn all() -> Self {
        MemberDeleteRequest { memory_id: None }
    }

    /// Deletes the memory `memory_id` (its whole key).
    pub fn one(memory_id: impl Into<String>) -> Self {
        MemberDeleteRequest {
            memory_id: Some(memory_id.into()),
        }
    }

    /// Applies the field rules.
    pub fn validate(&self) -> Result<(), ApiError> {
        Checks::TYPED.string(&MEMORY_ID, self.memory_id.as_deref())
    }

    /// Parses and validates a member delete body.
    pub fn from_json(value: &Value) -> Result<Self, ApiError> {
        read_body(value, |request: &mut Self, checks| {
            checks.string(&MEMORY_ID, request.memory_id.as_deref())
        })
    }
}

/// The body of the member's own list: `{ limit?, cursor? }`, paginated like `list`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[non_exhaustive]
pub struct MemberListRequest {
    /// 1–100, default 20.
    #[serde(default = "list_limit_default", deserialize_with = "list_limit")]
    #[cfg_attr(
        feature = "openapi",
        schema(nullable, minimum = 1, maximum = 100, default = 20)
    )]
    pub limit: usize,
    /// The opaque cursor of a previous page.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 4096))]
    pub cursor: Option<String>,
}

impl Default for MemberListRequest {
    fn default() -> Self {
        MemberListRequest::new()
    }
}

impl MemberListRequest {
    /// The first page, 20 to a page.
    pub fn new() -> Self {
        MemberListRequest {
            limit: LIST_LIMIT_DEFAULT,
            cursor: None,
        }
    }

    /// At most `limit` memories a page (1–100).
    pub fn limit(mut self, limit: usize) -> Self {
        self.limit = limit;
        self
    }

    /// The page after the one that returned `cursor`.
    pub fn cursor(mut self, cursor: impl Into<String>) -> Self {
        self.cursor = Some(cursor.into());
        self
    }

    /// Applies the field rules.
    pub fn validate(&self) -> Result<(), ApiError> {
        self.check(&Checks::TYPED)
    }

    fn check(&self, checks: &Checks<'_>) -> Result<(), ApiError> {
        checks.int(&LIST_LIMIT, Some(self.limit as u64))?;
        checks.string(&CURSOR, self.cursor.as_deref())
    }

    /// Parses and validates a member list body.
    pub fn from_json(value: &Value) -> Result<Self, ApiError> {
        read_body(value, |request: &mut Self, checks| request.check(checks))
    }
}

#[cfg(all(test, feature = "openapi"))]
mod schema_tests {
    use utoipa::PartialSchema;

    use super::*;

    /// The identifier pattern is written as a literal on every namespace and key (the derive
    /// takes literals only): every copy is the same, and the bounds are the rules'.
    #[test]
    fn every_identifier_field_states_the_same_rule() {
        let schemas = [
            serde_json::to_value(RememberRequest::schema()).unwrap(),
            serde_json::to_value(RecallRequest::schema()).unwrap(),
            serde_json::to_value(ListRequest::schema()).unwrap(),
            serde_json::to_value(ForgetByKeyForm::schema()).unwrap(),
        ];
        let mut patterns = Vec::new();
        for schema in &schemas {
            for (field, rule) in [("namespace", &NAMESPACE), ("key", &KEY)] {
                let property = &schema["properties"][field];
                if property.is_null() {
                    continue;
                }
                assert_eq!(property["minLength"], rule.min, "{field}");
                assert_eq!(property["maxLength"], rule.max, "{field}");
                patterns.push(property["pattern"].clone());
            }
        }
        assert_eq!(patterns.len(), 7);
        assert!(patterns.iter().all(|p| p.is_string() && *p == patterns[0]));
    }
}
