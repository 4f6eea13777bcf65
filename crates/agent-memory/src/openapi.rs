//! OpenAPI 3.1 schemas of the JSON edge's REST operations (feature `openapi`): the request body
//! or query parameters, the success body and the error body of each [`Operation`], generated
//! from the types the edge reads and writes, with every named schema in [`components`].
//!
//! The schemas come from the types, not from a second description: request and response types
//! derive `utoipa::ToSchema` next to their serde derive (names as on the wire — camelCase for
//! agent memories, snake_case for memory stores —, required fields, the bounds `validate`
//! checks, defaults, and `additionalProperties: false`, since unknown fields are refused).
//! `forget`'s body is described by `governance_policy::request::ForgetForms`, its two forms.
//!
//! What a router adds to a body before [`JsonApi`](crate::json::JsonApi) reads it:
//!
//! - **Path parameters** (`memory_store_id`, `memory_id`, `version_id`, `session_id`) are merged
//!   into the body by the router, so the request schemas list them but never require them; they
//!   are described by [`path_parameters`]. `wsId` names the workspace of a
//!   [`MemberCaller`](crate::MemberCaller) and is never part of a body.
//! - **Query parameters** of the `GET` lists (`agentMemories.list`, `stores.list`,
//!   `memories.list`, `versions.list`) are described by [`query_parameters`]; the router merges
//!   them into the body with their JSON types (`limit=5` as the integer `5`, `include_archived=true`
//!   as `true`): the edge refuses a string where the contract has an integer or a boolean.
//!
//! Operations without a body ([`request_schema`] is `None`): `settings.get`,
//! `agentMemories.deleteAll`, the lists above, and the memory-store operations whose only fields
//! are path parameters (`stores.get`, `stores.archive`, `stores.delete`, `memories.get`,
//! `versions.get`, `versions.redact`, `sessions.system_prompt`). The agent file interface
//! (`fs.*`) and `memory_tool` are not REST routes and are not described.
//!
//! ```
//! use agent_memory::json::Operation;
//! use agent_memory::openapi;
//! use utoipa::openapi::RefOr;
//!
//! let remember = Operation::from_name("remember").ok_or("unknown operation")?;
//! let Some(RefOr::Ref(body)) = openapi::request_schema(remember) else { panic!() };
//! assert_eq!(body.ref_location, "#/components/schemas/RememberRequest");
//! let components = openapi::components();
//! assert!(components.schemas.contains_key("RememberResponse"));
//! assert!(components.schemas.contains_key("Error"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::borrow::Cow;

use governance_policy::request::ForgetForms;
use governance_policy::{
    ForgetRequest, ListRequest, MemberDeleteRequest, MemberListRequest, RecallRequest,
    RememberBatchRequest, RememberRequest, SettingsPatch,
};
use memory_core::error::ErrorBody;
use memory_core::schema::reference;
use memory_core::session::{
    FsListing, FsRead, ResourceRequestSchema, Session, SessionResourceSchema, TextAnswer,
};
use memory_core::store::{Page, PreconditionSchema};
use memory_core::{
    Access, MemoryDeleted, MemoryStore, MemoryStoreDeleted, MemoryStoreId, MemoryVersion,
    MemoryVersionId, PiiPolicy, SessionId, Settings, StoreMemory, StoreMemoryId,
    StoreMemoryMetadata, StorePath, Timestamp,
};
use utoipa::openapi::path::{Parameter, ParameterIn};
use utoipa::openapi::schema::{AnyOf, ObjectBuilder, Schema, SchemaType, Type};
use utoipa::openapi::{Components, RefOr, Required};
use utoipa::{PartialSchema, ToSchema};

use crate::ops::{HttpInput, HttpRoute, NoRequest, Operation, OperationName, ToolInput};
use crate::recall::RecallResponse;
use crate::responses::{DeletedResponse, ListResponse, RememberBatchResponse, RememberResponse};
use crate::stores::FsDeleted;
use crate::stores::requests::{
    AddSessionResourceRequest, CreateMemoryRequest, CreateSessionRequest, CreateStoreRequest,
    DeleteMemoryRequest, FsPathRequest, FsRenameRequest, FsWriteRequest, ListMemoriesRequest,
    ListStoresRequest, ListVersionsRequest, MemoryIdRequest, RestoreMemoryRequest,
    SessionIdRequest, StoreIdRequest, UpdateMemoryRequest, UpdateStoreRequest, VersionIdRequest,
};

/// The names of the memory-store list pages (`Page<T>` is one generic type).
const STORE_PAGE: &str = "MemoryStorePage";
const MEMORY_PAGE: &str = "StoreMemoryMetadataPage";
const VERSION_PAGE: &str = "MemoryVersionPage";

/// The named schemas a type adds to [`components`]: its own and those it refers to.
type Refs = fn(&mut Vec<(String, RefOr<Schema>)>);

/// A request or response type of an operation, as the document describes it. Every operation's
/// request and response implement it (see [`OperationName::visit_documented`]), so an operation
/// whose types are not described does not compile.
pub trait Documented {
    /// The name of its schema in [`components`]; `None` for the types that no REST route reads
    /// as a body or query, or writes (requests made of path parameters only, the agent file
    /// interface).
    fn name() -> Option<Cow<'static, str>>;
    /// The schema itself (a query's parameters are read from its properties).
    fn schema() -> RefOr<Schema>;
    /// Adds its named schema and those it refers to.
    fn schemas(out: &mut Vec<(String, RefOr<Schema>)>);
}

/// The types that derive `ToSchema` under their own name.
macro_rules! derived {
    ($($t:ty),* $(,)?) => {$(
        impl Documented for $t {
            fn name() -> Option<Cow<'static, str>> {
                Some(<$t as ToSchema>::name())
            }
            fn schema() -> RefOr<Schema> {
                <$t as PartialSchema>::schema()
            }
            fn schemas(out: &mut Vec<(String, RefOr<Schema>)>) {
                out.push((<$t as ToSchema>::name().into_owned(), <$t as PartialSchema>::schema()));
                <$t as ToSchema>::schemas(out);
            }
        }
    )*};
}

/// Types described by another type's schema, under a name of their own where given.
macro_rules! described_as {
    ($($t:ty => $as:ty, $name:expr;)*) => {$(
        impl Documented for $t {
            fn name() -> Option<Cow<'static, str>> {
                Some($name)
            }
            fn schema() -> RefOr<Schema> {
                <$as as PartialSchema>::schema()
            }
            fn schemas(out: &mut Vec<(String, RefOr<Schema>)>) {
                out.push((String::from($name), <$as as PartialSchema>::schema()));
                <$as as ToSchema>::schemas(out);
            }
        }
    )*};
}

/// Types no REST route reads as a body or query or writes.
macro_rules! undescribed {
    ($($t:ty),* $(,)?) => {$(
        impl Documented for $t {
            fn name() -> Option<Cow<'static, str>> {
                None
            }
            fn schema() -> RefOr<Schema> {
                not_rest()
            }
            fn schemas(_: &mut Vec<(String, RefOr<Schema>)>) {}
        }
    )*};
}

derived!(
    RememberRequest,
    RememberBatchRequest,
    RememberBatchResponse,
    RecallRequest,
    ListRequest,
    SettingsPatch,
    MemberListRequest,
    MemberDeleteRequest,
    RememberResponse,
    RecallResponse,
    ListResponse,
    DeletedResponse,
    Settings,
    CreateStoreRequest,
    ListStoresRequest,
    UpdateStoreRequest,
    CreateMemoryRequest,
    ListMemoriesRequest,
    UpdateMemoryRequest,
    DeleteMemoryRequest,
    RestoreMemoryRequest,
    ListVersionsRequest,
    CreateSessionRequest,
    AddSessionResourceRequest,
    MemoryStore,
    MemoryStoreDeleted,
    StoreMemory,
    MemoryDeleted,
    MemoryVersion,
    Session,
    TextAnswer,
);

described_as! {
    ForgetRequest => ForgetForms, ForgetForms::name();
    Page<MemoryStore> => Page<MemoryStore>, Cow::Borrowed(STORE_PAGE);
    Page<StoreMemoryMetadata> => Page<StoreMemoryMetadata>, Cow::Borrowed(MEMORY_PAGE);
    Page<MemoryVersion> => Page<MemoryVersion>, Cow::Borrowed(VERSION_PAGE);
}

undescribed!(
    NoRequest,
    ToolInput,
    StoreIdRequest,
    MemoryIdRequest,
    VersionIdRequest,
    SessionIdRequest,
    FsPathRequest,
    FsWriteRequest,
    FsRenameRequest,
    FsListing,
    FsRead,
    FsDeleted,
);

/// Calls [`DocumentedVisitor::visit`] with an operation's type; see
/// [`OperationName::visit_documented`].
pub trait DocumentedVisitor {
    /// What the visit answers.
    type Output;

    /// Visits the operation `O`, whose request and response are described.
    fn visit<O: Operation>(self) -> Self::Output
    where
        O::Request: Documented,
        O::Response: Documented;
}

/// What the document reads of one operation type.
struct Described {
    route: Option<HttpRoute>,
    request: Option<Cow<'static, str>>,
    request_schema: fn() -> RefOr<Schema>,
    request_refs: Refs,
    response: Option<Cow<'static, str>>,
    response_refs: Refs,
}

struct Describe;

impl DocumentedVisitor for Describe {
    type Output = Described;

    fn visit<O: Operation>(self) -> Described
    where
        O::Request: Documented,
        O::Response: Documented,
    {
        Described {
            route: O::HTTP,
            request: O::Request::name(),
            request_schema: O::Request::schema,
            request_refs: O::Request::schemas,
            response: O::Response::name(),
            response_refs: O::Response::schemas,
        }
    }
}

fn describe(op: OperationName) -> Described {
    op.visit_documented(Describe)
}

fn not_rest() -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(SchemaType::AnyValue)
        .description(Some("Not a REST route"))
        .into()
}

/// The path parameters of `op`'s route, read from its path (`{ws_id}` is named `wsId`, as the
/// mapping names it).
fn path_fields(op: OperationName) -> Vec<&'static str> {
    let Some(route) = describe(op).route else {
        return Vec::new();
    };
    route
        .path
        .split('/')
        .filter_map(|segment| segment.strip_prefix('{')?.strip_suffix('}'))
        .map(|name| if name == "ws_id" { "wsId" } else { name })
        .collect()
}

/// The JSON body `op` reads, as a `$ref` into [`components`]; `None` when the operation takes
/// no body (its fields are path or query parameters) or is not a REST route.
pub fn request_schema(op: OperationName) -> Option<RefOr<Schema>> {
    let described = describe(op);
    match described.route?.input {
        HttpInput::Body => described.request.map(|name| reference(&name)),
        HttpInput::Query | HttpInput::None => None,
    }
}

/// The query parameters of a `GET` list (`agentMemories.list`, `stores.list`, `memories.list`,
/// `versions.list`), from the fields of its request type; empty for every other operation.
/// None is required; the router merges them into the body with their JSON types.
pub fn query_parameters(op: OperationName) -> Vec<Parameter> {
    let described = describe(op);
    if described.route.map(|r| r.input) != Some(HttpInput::Query) {
        return Vec::new();
    }
    let RefOr::T(Schema::Object(object)) = (described.request_schema)() else {
        return Vec::new();
    };
    let path = path_fields(op);
    object
        .properties
        .into_iter()
        .filter(|(name, _)| !path.contains(&name.as_str()))
        .map(|(name, schema)| {
            let description = description_of(&schema);
            Parameter::builder()
                .name(name)
                .parameter_in(ParameterIn::Query)
                .required(Required::False)
                .description(description)
                .schema(Some(without_null(schema)))
                .build()
        })
        .collect()
}

/// The path parameters of `op`'s route (required strings; the ids as `$ref`s).
pub fn path_parameters(op: OperationName) -> Vec<Parameter> {
    path_fields(op)
        .into_iter()
        .map(|name| {
            let schema = match name {
                "memory_store_id" => reference(&MemoryStoreId::name()),
                "memory_id" => reference(&StoreMemoryId::name()),
                "version_id" => reference(&MemoryVersionId::name()),
                "session_id" => reference(&SessionId::name()),
                _ => ObjectBuilder::new()
                    .schema_type(Type::String)
                    .min_length(Some(1))
                    .into(),
            };
            Parameter::builder()
                .name(name)
                .parameter_in(ParameterIn::Path)
                .required(Required::True)
                .schema(Some(schema))
                .build()
        })
        .collect()
}

/// The success body (`200`) of `op`, as a `$ref` into [`components`]. The agent file interface
/// and `memory_tool` are not REST routes: their schema is any value.
pub fn response_schema(op: OperationName) -> RefOr<Schema> {
    let described = describe(op);
    match (described.route, described.response) {
        (Some(_), Some(name)) => reference(&name),
        _ => not_rest(),
    }
}

/// The error body of every operation: `{"error":{"code","message","retryAfterSeconds"?,
/// "current_content_sha256"?}}`, `code` one of the stable codes.
pub fn error_schema() -> RefOr<Schema> {
    reference(&ErrorBody::name())
}

/// Every named schema the functions above refer to, directly or through other schemas.
pub fn components() -> Components {
    let mut schemas = Vec::new();
    // What the REST routes read and write.
    for &op in OperationName::ALL {
        let described = describe(op);
        let Some(route) = described.route else {
            continue;
        };
        if route.input != HttpInput::None {
            (described.request_refs)(&mut schemas);
        }
        (described.response_refs)(&mut schemas);
    }
    // What the schemas above refer to without listing it (`Page<T>` lists no `T`; fields with
    // a `value_type` or `schema_with`), the path parameters' ids and the error body.
    macro_rules! named {
        ($($t:ty),* $(,)?) => {$(
            schemas.push((<$t as ToSchema>::name().into_owned(), <$t as PartialSchema>::schema()));
            <$t as ToSchema>::schemas(&mut schemas);
        )*};
    }
    named!(
        StoreMemoryMetadata,
        SessionResourceSchema,
        MemoryStoreId,
        StoreMemoryId,
        MemoryVersionId,
        SessionId,
        StorePath,
        Timestamp,
        PiiPolicy,
        PreconditionSchema,
        Access,
        ResourceRequestSchema,
        ErrorBody,
    );
    Components::builder().schemas_from_iter(schemas).build()
}

/// The description of a property, wherever it sits.
fn description_of(schema: &RefOr<Schema>) -> Option<String> {
    let text = match schema {
        RefOr::Ref(r) => Some(r.description.clone()),
        RefOr::T(Schema::Object(o)) => o.description.clone(),
        RefOr::T(Schema::AnyOf(a)) => a
            .description
            .clone()
            .or_else(|| a.items.iter().find_map(description_of)),
        RefOr::T(_) => None,
    };
    text.filter(|t| !t.is_empty())
}

/// A nullable body field as a query parameter, which cannot be `null`: the type without `null`.
fn without_null(schema: RefOr<Schema>) -> RefOr<Schema> {
    match schema {
        RefOr::T(Schema::Object(mut object)) => {
            if let SchemaType::Array(types) = &object.schema_type {
                let mut kept: Vec<Type> = types
                    .iter()
                    .filter(|t| **t != Type::Null)
                    .cloned()
                    .collect();
                object.schema_type = if kept.len() == 1 {
                    SchemaType::Type(kept.remove(0))
                } else {
                    SchemaType::Array(kept)
                };
            }
            RefOr::T(Schema::Object(object))
        }
        RefOr::T(Schema::AnyOf(AnyOf { items, .. })) => {
            let mut kept: Vec<RefOr<Schema>> = items
                .into_iter()
                .filter(|item| {
                    !matches!(item, RefOr::T(Schema::Object(o))
                        if o.schema_type == SchemaType::Type(Type::Null))
                })
                .collect();
            if kept.len() == 1 {
                kept.remove(0)
            } else {
                let mut any = AnyOf::new();
                any.items = kept;
                RefOr::T(Schema::AnyOf(any))
            }
        }
        other => other,
    }
}
