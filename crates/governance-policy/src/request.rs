//! Request bodies of the agent, member and owner operations, and the personal-data check of
//! identifiers (step 6 of the order of checks).
//!
//! Each request is a typed value: required fields are constructor arguments, optional ones are
//! set with builder methods, and [`Request::validate`] applies the field rules (lengths,
//! identifiers, bounds) that step 5 of the order of checks requires. The same rules, in the same
//! order, run when a request is read from JSON with `from_json`, which adds what only JSON can
//! get wrong (types, unknown fields): there is one set of rules, not one per door.
//!
//! Common rules: the body is a JSON object (a `null` body counts as `{}`), field names are
//! camelCase, unknown fields are refused, an optional field sent as `null` is absent, lengths
//! are Unicode scalar values, and integers must be JSON integers within bounds (no floats, no
//! strings). Every refusal is `400 AGENT_MEMORY_INVALID_REQUEST` with a static message naming
//! the field; a refused value (or an unknown field's name) is never echoed.

use std::collections::HashSet;
use std::fmt;

use memory_core::{ApiError, ErrorCode, Settings, Timestamp};
use serde_json::{Map, Value};

use crate::limits::*;

fn invalid(message: &'static str) -> ApiError {
    ApiError::new(ErrorCode::AgentMemoryInvalidRequest, message)
}

/// A request the facade validates at the call: built in Rust, or read from a JSON body.
pub trait Request: Sized {
    /// Reads and validates a JSON body: the field rules of [`Request::validate`] plus JSON
    /// types and unknown fields, field by field in the order of the contract.
    fn from_json(value: &Value) -> Result<Self, ApiError>;

    /// Applies the field rules, in the same order as `from_json`, with the same messages.
    fn validate(&self) -> Result<(), ApiError>;
}

/// The bounds of one string field and the message that refuses it.
struct StringRule {
    name: &'static str,
    min: usize,
    max: usize,
    /// Namespaces and keys: no control characters, no leading or trailing whitespace.
    identifier: bool,
    message: &'static str,
}

impl StringRule {
    fn check(&self, s: &str) -> Result<(), ApiError> {
        let chars = s.chars().count();
        let mut ok = (self.min..=self.max).contains(&chars);
        if ok && self.identifier {
            ok = !s.chars().any(char::is_control)
                && !s.starts_with(char::is_whitespace)
                && !s.ends_with(char::is_whitespace);
        }
        if ok {
            Ok(())
        } else {
            Err(invalid(self.message))
        }
    }
}

const NAMESPACE: StringRule = StringRule {
    name: "namespace",
    min: NAMESPACE_MIN_CHARS,
    max: NAMESPACE_MAX_CHARS,
    identifier: true,
    message: "namespace must be a string of 1 to 64 characters without control characters or \
              leading or trailing whitespace",
};
const KEY: StringRule = StringRule {
    name: "key",
    min: KEY_MIN_CHARS,
    max: KEY_MAX_CHARS,
    identifier: true,
    message: "key must be a string of 1 to 120 characters without control characters or \
              leading or trailing whitespace",
};
const TEXT: StringRule = StringRule {
    name: "text",
    min: TEXT_MIN_CHARS,
    max: TEXT_MAX_CHARS,
    identifier: false,
    message: "text must be a string of 1 to 1000 characters",
};
const COLLECTION_ID: StringRule = StringRule {
    name: "collectionId",
    min: COLLECTION_ID_MIN_CHARS,
    max: COLLECTION_ID_MAX_CHARS,
    identifier: false,
    message: "collectionId must be a string of 1 to 128 characters",
};
const QUERY: StringRule = StringRule {
    name: "query",
    min: QUERY_MIN_CHARS,
    max: QUERY_MAX_CHARS,
    identifier: false,
    message: "query must be a string of 1 to 1000 characters",
};
const PASSAGE_ID: StringRule = StringRule {
    name: "citations",
    min: PASSAGE_ID_MIN_CHARS,
    max: PASSAGE_ID_MAX_CHARS,
    identifier: false,
    message: "citations must be an array of at most 20 passage ids of 1 to 128 characters",
};
const MEMORY_ID: StringRule = StringRule {
    name: "memoryId",
    min: 1,
    max: MEMORY_ID_MAX_CHARS,
    identifier: false,
    message: "memoryId must be a string of 1 to 128 characters",
};
const CURSOR: StringRule = StringRule {
    name: "cursor",
    min: 1,
    max: CURSOR_MAX_CHARS,
    identifier: false,
    message: "cursor must be a cursor string returned by an earlier page",
};

/// The bounds of one integer field.
struct IntRule {
    name: &'static str,
    min: u64,
    max: u64,
    message: &'static str,
}

const RECALL_LIMIT: IntRule = IntRule {
    name: "limit",
    min: RECALL_LIMIT_MIN as u64,
    max: RECALL_LIMIT_MAX as u64,
    message: "limit must be an integer from 1 to 50",
};
const LIST_LIMIT: IntRule = IntRule {
    name: "limit",
    min: LIST_LIMIT_MIN as u64,
    max: LIST_LIMIT_MAX as u64,
    message: "limit must be an integer from 1 to 100",
};
const RETENTION_DAYS: IntRule = IntRule {
    name: "retentionDays",
    min: Settings::RETENTION_DAYS_MIN as u64,
    max: Settings::RETENTION_DAYS_MAX as u64,
    message: "retentionDays must be an integer from 1 to 365",
};

impl IntRule {
    fn check(&self, v: u64) -> Result<(), ApiError> {
        if (self.min..=self.max).contains(&v) {
            Ok(())
        } else {
            Err(invalid(self.message))
        }
    }
}

/// The schemas of the field rules (feature `openapi`): each request's `ToSchema` is written next
/// to its `from_json` from the same rules, so the OpenAPI document states the bounds `from_json`
/// checks, and fields are named as on the wire.
#[cfg(feature = "openapi")]
mod schema {
    use memory_core::schema::{closed_object, date_time, integer, nullable, string};
    use utoipa::openapi::schema::ObjectBuilder;
    use utoipa::openapi::{RefOr, schema::Schema};

    use super::{IntRule, StringRule};

    /// No control character (`char::is_control`: U+0000–U+001F, U+007F–U+009F), and no
    /// whitespace (`char::is_whitespace`) at either end.
    const IDENTIFIER_PATTERN: &str = concat!(
        "^(?:[^\\u0000-\\u0020\\u007F-\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000]",
        "|[^\\u0000-\\u0020\\u007F-\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000]",
        "[^\\u0000-\\u001F\\u007F-\\u009F]*",
        "[^\\u0000-\\u0020\\u007F-\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000])$"
    );

    impl StringRule {
        /// The string's bounds (and the identifier pattern), described by the refusal message.
        pub(super) fn schema(&self) -> ObjectBuilder {
            let schema = string(Some(self.min), Some(self.max)).description(Some(self.message));
            if self.identifier {
                schema.pattern(Some(IDENTIFIER_PATTERN))
            } else {
                schema
            }
        }

        /// The field may be absent or `null`.
        pub(super) fn optional(&self) -> RefOr<Schema> {
            nullable(self.schema())
        }
    }

    impl IntRule {
        /// An optional integer within the rule's bounds, `default` when absent.
        pub(super) fn optional(&self, default: Option<usize>) -> RefOr<Schema> {
            nullable(
                integer(self.min, self.max, default.map(|d| d as u64))
                    .description(Some(self.message)),
            )
        }
    }

    /// An optional `asOf`.
    pub(super) fn as_of() -> RefOr<Schema> {
        nullable(date_time().description(Some(
            "The instant to read at (RFC 3339); absent reads at now, a future instant reads at now",
        )))
    }

    /// A body object: every field it does not name is refused.
    pub(super) fn body(description: &'static str) -> ObjectBuilder {
        closed_object().description(Some(description))
    }
}

fn check_optional(rule: &StringRule, value: Option<&str>) -> Result<(), ApiError> {
    value.map_or(Ok(()), |v| rule.check(v))
}

fn check_citations(sent: usize, ids: &[String]) -> Result<(), ApiError> {
    if sent > CITATIONS_MAX || ids.len() > CITATIONS_MAX {
        return Err(invalid(PASSAGE_ID.message));
    }
    ids.iter().try_for_each(|id| PASSAGE_ID.check(id))
}

/// Distinct ids in first-occurrence order.
fn distinct(ids: impl IntoIterator<Item = String>) -> (usize, Vec<String>) {
    let mut sent = 0;
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for id in ids {
        sent += 1;
        if seen.insert(id.clone()) {
            out.push(id);
        }
    }
    (sent, out)
}

/// A request body's fields, after the object and unknown-field checks.
struct Body<'a> {
    fields: Option<&'a Map<String, Value>>,
}

impl<'a> Body<'a> {
    fn new(value: &'a Value, allowed: &[&str]) -> Result<Self, ApiError> {
        let fields = match value {
            Value::Null => None,
            Value::Object(map) => Some(map),
            _ => return Err(invalid("the request body must be a JSON object")),
        };
        if let Some(map) = fields
            && map.keys().any(|k| !allowed.contains(&k.as_str()))
        {
            return Err(invalid("the request body has an unknown field"));
        }
        Ok(Body { fields })
    }

    /// The field's value; `null` is the same as absent.
    fn get(&self, name: &str) -> Option<&'a Value> {
        self.fields
            .and_then(|m| m.get(name))
            .filter(|v| !v.is_null())
    }

    fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    fn optional_string(&self, rule: &StringRule) -> Result<Option<String>, ApiError> {
        match self.get(rule.name) {
            None => Ok(None),
            Some(Value::String(s)) => rule.check(s).map(|()| Some(s.clone())),
            Some(_) => Err(invalid(rule.message)),
        }
    }

    fn required_string(&self, rule: &StringRule) -> Result<String, ApiError> {
        self.optional_string(rule)?
            .ok_or_else(|| invalid(rule.message))
    }

    fn optional_int(&self, rule: &IntRule) -> Result<Option<u64>, ApiError> {
        match self.get(rule.name) {
            None => Ok(None),
            // `as_u64` is `None` for negatives and for any number written with a fraction or an
            // exponent, and for integers beyond u64 (serde_json reads those as floats).
            Some(Value::Number(n)) => match n.as_u64() {
                Some(v) if (rule.min..=rule.max).contains(&v) => Ok(Some(v)),
                _ => Err(invalid(rule.message)),
            },
            Some(_) => Err(invalid(rule.message)),
        }
    }

    fn limit(&self, rule: &IntRule, default: usize) -> Result<usize, ApiError> {
        // Bounds are at most 100, so the conversion cannot truncate.
        Ok(self.optional_int(rule)?.map_or(default, |v| v as usize))
    }

    fn optional_bool(&self, name: &str, message: &'static str) -> Result<Option<bool>, ApiError> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(_) => Err(invalid(message)),
        }
    }

    fn as_of(&self) -> Result<Option<Timestamp>, ApiError> {
        const MESSAGE: &str = "asOf must be an RFC 3339 timestamp";
        match self.get("asOf") {
            None => Ok(None),
            Some(Value::String(s)) => Timestamp::parse(s).map(Some).map_err(|_| invalid(MESSAGE)),
            Some(_) => Err(invalid(MESSAGE)),
        }
    }

    /// The ids as sent (count) and distinct, each checked.
    fn citations(&self) -> Result<(usize, Vec<String>), ApiError> {
        let items = match self.get("citations") {
            None => return Ok((0, Vec::new())),
            Some(Value::Array(items)) => items,
            Some(_) => return Err(invalid(PASSAGE_ID.message)),
        };
        // Counted as sent: 21 ids are refused even when duplicates would collapse them to one.
        if items.len() > CITATIONS_MAX {
            return Err(invalid(PASSAGE_ID.message));
        }
        let mut ids = Vec::with_capacity(items.len());
        for item in items {
            let Value::String(id) = item else {
                return Err(invalid(PASSAGE_ID.message));
            };
            PASSAGE_ID.check(id)?;
            ids.push(id.clone());
        }
        Ok(distinct(ids))
    }
}

/// Writes a text field as its length only, so a `{:?}` in a log never carries memory text or
/// a query.
struct Redacted<'a>(&'a str);

impl fmt::Debug for Redacted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<{} chars>", self.0.chars().count())
    }
}

/// The body of `remember`: `{ namespace, text, key?, collectionId?, citations? }`.
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
#[derive(Clone, PartialEq, Eq)]
pub struct RememberRequest {
    /// 1–64 characters, an identifier.
    pub namespace: String,
    /// 1–1000 characters, counted before masking; not yet masked.
    pub text: String,
    /// 1–120 characters, an identifier.
    pub key: Option<String>,
    /// 1–128 characters.
    pub collection_id: Option<String>,
    /// Cited passage ids, each 1–128 characters; duplicates collapsed, first occurrence order
    /// kept.
    pub citations: Vec<String>,
    /// How many ids were given before duplicates collapsed: at most 20.
    citations_sent: usize,
}

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
        let body = Body::new(
            value,
            &["namespace", "text", "key", "collectionId", "citations"],
        )?;
        let namespace = body.required_string(&NAMESPACE)?;
        let text = body.required_string(&TEXT)?;
        let key = body.optional_string(&KEY)?;
        let collection_id = body.optional_string(&COLLECTION_ID)?;
        let (citations_sent, citations) = body.citations()?;
        Ok(RememberRequest {
            namespace,
            text,
            key,
            collection_id,
            citations,
            citations_sent,
        })
    }

    /// Applies the field rules.
    pub fn validate(&self) -> Result<(), ApiError> {
        NAMESPACE.check(&self.namespace)?;
        TEXT.check(&self.text)?;
        check_optional(&KEY, self.key.as_deref())?;
        check_optional(&COLLECTION_ID, self.collection_id.as_deref())?;
        check_citations(self.citations_sent, &self.citations)
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

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for RememberRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use memory_core::schema::{array, nullable};
        schema::body("The body of remember; the text is masked before it is stored")
            .property("namespace", NAMESPACE.schema())
            .required("namespace")
            .property("text", TEXT.schema())
            .required("text")
            .property("key", KEY.optional())
            .property("collectionId", COLLECTION_ID.optional())
            .property(
                "citations",
                nullable(
                    array(PASSAGE_ID.schema(), Some(CITATIONS_MAX))
                        .description(Some(PASSAGE_ID.message)),
                ),
            )
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for RememberRequest {}

/// The body of `recall`: `{ query, namespace?, collectionId?, asOf?, limit? }`.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RecallRequest {
    /// 1–1000 characters; not yet masked.
    pub query: String,
    /// Exact-match namespace filter.
    pub namespace: Option<String>,
    /// Exact-match collection filter.
    pub collection_id: Option<String>,
    /// The instant to read at, as sent (see [`crate::effective_as_of`]).
    pub as_of: Option<Timestamp>,
    /// 1–50, default 10.
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

    /// At most `limit` memories (1–50).
    pub fn limit(mut self, limit: usize) -> Self {
        self.limit = limit;
        self
    }

    /// Parses and validates a recall body.
    pub fn from_json(value: &Value) -> Result<Self, ApiError> {
        let body = Body::new(
            value,
            &["query", "namespace", "collectionId", "asOf", "limit"],
        )?;
        Ok(RecallRequest {
            query: body.required_string(&QUERY)?,
            namespace: body.optional_string(&NAMESPACE)?,
            collection_id: body.optional_string(&COLLECTION_ID)?,
            as_of: body.as_of()?,
            limit: body.limit(&RECALL_LIMIT, RECALL_LIMIT_DEFAULT)?,
        })
    }

    /// Applies the field rules.
    pub fn validate(&self) -> Result<(), ApiError> {
        QUERY.check(&self.query)?;
        check_optional(&NAMESPACE, self.namespace.as_deref())?;
        check_optional(&COLLECTION_ID, self.collection_id.as_deref())?;
        RECALL_LIMIT.check(self.limit as u64)
    }
}

impl fmt::Debug for RecallRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RecallRequest")
            .field("query", &Redacted(&self.query))
            .field("namespace", &self.namespace)
            .field("collection_id", &self.collection_id)
            .field("as_of", &self.as_of)
            .field("limit", &self.limit)
            .finish()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for RecallRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        schema::body("The body of recall")
            .property("query", QUERY.schema())
            .required("query")
            .property("namespace", NAMESPACE.optional())
            .property("collectionId", COLLECTION_ID.optional())
            .property("asOf", schema::as_of())
            .property("limit", RECALL_LIMIT.optional(Some(RECALL_LIMIT_DEFAULT)))
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for RecallRequest {}

/// The body of `list`: `{ namespace?, key?, collectionId?, asOf?, limit?, cursor? }`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ListRequest {
    /// Exact-match namespace filter.
    pub namespace: Option<String>,
    /// Exact-match key filter.
    pub key: Option<String>,
    /// Exact-match collection filter.
    pub collection_id: Option<String>,
    /// The instant to read at, as sent.
    pub as_of: Option<Timestamp>,
    /// 1–100, default 20.
    pub limit: usize,
    /// The opaque cursor of a previous page (1–4096 characters); decoding it and comparing its
    /// filters is the facade's job.
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
        let body = Body::new(
            value,
            &[
                "namespace",
                "key",
                "collectionId",
                "asOf",
                "limit",
                "cursor",
            ],
        )?;
        Ok(ListRequest {
            namespace: body.optional_string(&NAMESPACE)?,
            key: body.optional_string(&KEY)?,
            collection_id: body.optional_string(&COLLECTION_ID)?,
            as_of: body.as_of()?,
            limit: body.limit(&LIST_LIMIT, LIST_LIMIT_DEFAULT)?,
            cursor: body.optional_string(&CURSOR)?,
        })
    }

    /// Applies the field rules.
    pub fn validate(&self) -> Result<(), ApiError> {
        check_optional(&NAMESPACE, self.namespace.as_deref())?;
        check_optional(&KEY, self.key.as_deref())?;
        check_optional(&COLLECTION_ID, self.collection_id.as_deref())?;
        LIST_LIMIT.check(self.limit as u64)?;
        check_optional(&CURSOR, self.cursor.as_deref())
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for ListRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        schema::body("The body of list")
            .property("namespace", NAMESPACE.optional())
            .property("key", KEY.optional())
            .property("collectionId", COLLECTION_ID.optional())
            .property("asOf", schema::as_of())
            .property("limit", LIST_LIMIT.optional(Some(LIST_LIMIT_DEFAULT)))
            .property("cursor", CURSOR.optional())
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for ListRequest {}

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
        let body = Body::new(value, &["memoryId", "namespace", "key"])?;
        let by_id = body.has("memoryId");
        let by_key = body.has("namespace") || body.has("key");
        match (by_id, by_key) {
            (true, false) => Ok(ForgetRequest::ById(body.required_string(&MEMORY_ID)?)),
            (false, true) if body.has("namespace") && body.has("key") => Ok(ForgetRequest::ByKey {
                namespace: body.required_string(&NAMESPACE)?,
                key: body.required_string(&KEY)?,
            }),
            _ => Err(invalid(ONE_FORM)),
        }
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for ForgetRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        // Exactly one form; the other form's fields may only be absent or `null`, as `from_json`
        // reads a `null` field as absent.
        use memory_core::schema::{null, one_of};
        let by_id = schema::body("Forget the memory with this id (its whole key, when keyed)")
            .property("memoryId", MEMORY_ID.schema())
            .required("memoryId")
            .property("namespace", null())
            .property("key", null());
        let by_key = schema::body("Forget every version of this key")
            .property("memoryId", null())
            .property("namespace", NAMESPACE.schema())
            .required("namespace")
            .property("key", KEY.schema())
            .required("key");
        one_of(
            [by_id, by_key],
            "The body of forget: memoryId, or namespace and key",
        )
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for ForgetRequest {}

/// The body of `settings.put`: the fields to change, merged onto the stored settings.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SettingsPatch {
    /// New `agentMemoriesEnabled`, when sent.
    pub agent_memories_enabled: Option<bool>,
    /// New `retentionDays` (1–365), when sent.
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
        self.retention_days
            .map_or(Ok(()), |d| RETENTION_DAYS.check(u64::from(d)))
    }

    /// Parses and validates a settings body.
    pub fn from_json(value: &Value) -> Result<Self, ApiError> {
        let body = Body::new(value, &["agentMemoriesEnabled", "retentionDays"])?;
        Ok(SettingsPatch {
            agent_memories_enabled: body.optional_bool(
                "agentMemoriesEnabled",
                "agentMemoriesEnabled must be a boolean",
            )?,
            // Bounded by 365, so the conversion cannot truncate.
            retention_days: body.optional_int(&RETENTION_DAYS)?.map(|d| d as u16),
        })
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

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for SettingsPatch {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use memory_core::schema::nullable;
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        schema::body("The settings to change; absent fields keep their value")
            .property(
                "agentMemoriesEnabled",
                nullable(ObjectBuilder::new().schema_type(Type::Boolean)),
            )
            .property("retentionDays", RETENTION_DAYS.optional(None))
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for SettingsPatch {}

/// The body of the member's delete: `{ memoryId? }`; without an id, all of the member's own.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct MemberDeleteRequest {
    /// The memory to delete (its whole key), or `None` for all.
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
        check_optional(&MEMORY_ID, self.memory_id.as_deref())
    }

    /// Parses and validates a member delete body.
    pub fn from_json(value: &Value) -> Result<Self, ApiError> {
        let body = Body::new(value, &["memoryId"])?;
        Ok(MemberDeleteRequest {
            memory_id: body.optional_string(&MEMORY_ID)?,
        })
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for MemberDeleteRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        schema::body(
            "The memory to delete (its whole key); without memoryId, all of the member's own",
        )
        .property("memoryId", MEMORY_ID.optional())
        .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for MemberDeleteRequest {}

/// The body of the member's own list: `{ limit?, cursor? }`, paginated like `list`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct MemberListRequest {
    /// 1–100, default 20.
    pub limit: usize,
    /// The opaque cursor of a previous page.
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
        LIST_LIMIT.check(self.limit as u64)?;
        check_optional(&CURSOR, self.cursor.as_deref())
    }

    /// Parses and validates a member list body.
    pub fn from_json(value: &Value) -> Result<Self, ApiError> {
        let body = Body::new(value, &["limit", "cursor"])?;
        Ok(MemberListRequest {
            limit: body.limit(&LIST_LIMIT, LIST_LIMIT_DEFAULT)?,
            cursor: body.optional_string(&CURSOR)?,
        })
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for MemberListRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        schema::body("A page of the member's own memories")
            .property("limit", LIST_LIMIT.optional(Some(LIST_LIMIT_DEFAULT)))
            .property("cursor", CURSOR.optional())
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for MemberListRequest {}

macro_rules! request_impl {
    ($($t:ty),*) => {$(
        impl Request for $t {
            fn from_json(value: &Value) -> Result<Self, ApiError> {
                <$t>::from_json(value)
            }

            fn validate(&self) -> Result<(), ApiError> {
                <$t>::validate(self)
            }
        }
    )*};
}

request_impl!(
    RememberRequest,
    RecallRequest,
    ListRequest,
    ForgetRequest,
    SettingsPatch,
    MemberDeleteRequest,
    MemberListRequest
);

/// Step 6 of remember: a namespace, key or `collectionId` in which a validated personal-data
/// detector fires → `400 AGENT_MEMORY_PERSONAL_DATA`. Identifiers are refused, never masked.
/// List and recall filters (`namespace`, `key`, `collectionId`) are never checked: a filter
/// stores nothing.
pub fn check_identifiers(
    namespace: &str,
    key: Option<&str>,
    collection_id: Option<&str>,
) -> Result<(), ApiError> {
    let found = pii_mask::contains_personal_data(namespace)
        || key.is_some_and(pii_mask::contains_personal_data);
    if found {
        return Err(ErrorCode::AgentMemoryPersonalData.into());
    }
    if collection_id.is_some_and(pii_mask::contains_personal_data) {
        return Err(ApiError::new(
            ErrorCode::AgentMemoryPersonalData,
            "collectionId contains personal data",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn identifier_rule_rejects_edges_and_controls() {
        assert!(NAMESPACE.check("prefs").is_ok());
        assert!(NAMESPACE.check("a b").is_ok());
        for bad in [
            "",
            " prefs",
            "prefs ",
            "pre\u{0}fs",
            "pre\nfs",
            "\u{3000}x",
            "x\u{85}",
        ] {
            assert!(NAMESPACE.check(bad).is_err(), "{bad:?}");
        }
        // Text may hold newlines; only identifiers are restricted.
        assert!(TEXT.check("line one\nline two ").is_ok());
    }

    #[test]
    fn lengths_count_scalar_values() {
        let emoji = "😀".repeat(NAMESPACE_MAX_CHARS);
        assert!(NAMESPACE.check(&emoji).is_ok());
        assert!(NAMESPACE.check(&format!("{emoji}😀")).is_err());
    }

    #[test]
    fn null_body_is_an_empty_object() {
        let req = MemberListRequest::from_json(&Value::Null).unwrap();
        assert_eq!(
            req,
            MemberListRequest {
                limit: LIST_LIMIT_DEFAULT,
                cursor: None
            }
        );
        assert!(MemberListRequest::from_json(&json!([])).is_err());
    }

    #[test]
    fn debug_never_shows_text_or_query() {
        let req =
            RememberRequest::from_json(&json!({"namespace": "n", "text": "secret plan"})).unwrap();
        let shown = format!("{req:?}");
        assert!(!shown.contains("secret") && shown.contains("<11 chars>"));
        let req = RecallRequest::from_json(&json!({"query": "secret plan"})).unwrap();
        assert!(!format!("{req:?}").contains("secret"));
    }
}
