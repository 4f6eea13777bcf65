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
    ListRequest, MemberDeleteRequest, MemberListRequest, RecallRequest, RememberRequest,
    SettingsPatch,
};
use memory_core::error::ErrorBody;
use memory_core::schema::reference;
use memory_core::session::{ResourceRequestSchema, Session, SessionResourceSchema, TextAnswer};
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

use crate::json::Operation;
use crate::recall::RecallResponse;
use crate::responses::{DeletedResponse, ListResponse, RememberResponse};
use crate::stores::requests::{
    AddSessionResourceRequest, CreateMemoryRequest, CreateSessionRequest, CreateStoreRequest,
    DeleteMemoryRequest, ListMemoriesRequest, ListStoresRequest, ListVersionsRequest,
    RestoreMemoryRequest, UpdateMemoryRequest, UpdateStoreRequest,
};

/// The names of the memory-store list pages (`Page<T>` is one generic type).
const STORE_PAGE: &str = "MemoryStorePage";
const MEMORY_PAGE: &str = "StoreMemoryMetadataPage";
const VERSION_PAGE: &str = "MemoryVersionPage";

/// Where an operation's request fields come from.
enum Request {
    /// Nothing beyond path parameters.
    None,
    /// A JSON body of the named type.
    Body(Cow<'static, str>),
    /// The query string, read as the type whose schema this is.
    Query(fn() -> RefOr<Schema>),
    /// Not a REST route (`fs.*`, `memory_tool`).
    NotRest,
}

fn body<T: ToSchema>() -> Request {
    Request::Body(T::name())
}

fn query<T: PartialSchema>() -> Request {
    Request::Query(T::schema)
}

fn request(op: Operation) -> Request {
    use Operation as Op;
    match op {
        Op::Remember => body::<RememberRequest>(),
        Op::Recall => body::<RecallRequest>(),
        Op::List => body::<ListRequest>(),
        Op::Forget => body::<ForgetForms>(),
        Op::SettingsPut => body::<SettingsPatch>(),
        Op::MemberList => query::<MemberListRequest>(),
        Op::MemberDelete => body::<MemberDeleteRequest>(),
        Op::SettingsGet | Op::OwnerDeleteAll => Request::None,
        Op::StoresCreate => body::<CreateStoreRequest>(),
        Op::StoresList => query::<ListStoresRequest>(),
        Op::StoresUpdate => body::<UpdateStoreRequest>(),
        Op::MemoriesCreate => body::<CreateMemoryRequest>(),
        Op::MemoriesList => query::<ListMemoriesRequest>(),
        Op::MemoriesUpdate => body::<UpdateMemoryRequest>(),
        Op::MemoriesDelete => body::<DeleteMemoryRequest>(),
        Op::MemoriesRestore => body::<RestoreMemoryRequest>(),
        Op::VersionsList => query::<ListVersionsRequest>(),
        Op::SessionsCreate => body::<CreateSessionRequest>(),
        Op::SessionsResourcesAdd => body::<AddSessionResourceRequest>(),
        Op::StoresGet
        | Op::StoresArchive
        | Op::StoresDelete
        | Op::MemoriesGet
        | Op::VersionsGet
        | Op::VersionsRedact
        | Op::SessionsSystemPrompt => Request::None,
        Op::FsList | Op::FsRead | Op::FsWrite | Op::FsDelete | Op::FsRename | Op::MemoryTool => {
            Request::NotRest
        }
    }
}

/// The path parameters of `op`'s route, as the mapping names them.
fn path_fields(op: Operation) -> &'static [&'static str] {
    use Operation as Op;
    match op {
        Op::SettingsGet
        | Op::SettingsPut
        | Op::MemberList
        | Op::MemberDelete
        | Op::OwnerDeleteAll => &["wsId"],
        Op::StoresGet
        | Op::StoresUpdate
        | Op::StoresArchive
        | Op::StoresDelete
        | Op::MemoriesCreate
        | Op::MemoriesList
        | Op::VersionsList => &["memory_store_id"],
        Op::MemoriesGet | Op::MemoriesUpdate | Op::MemoriesDelete | Op::MemoriesRestore => {
            &["memory_store_id", "memory_id"]
        }
        Op::VersionsGet | Op::VersionsRedact => &["memory_store_id", "version_id"],
        Op::SessionsResourcesAdd | Op::SessionsSystemPrompt => &["session_id"],
        _ => &[],
    }
}

/// The JSON body `op` reads, as a `$ref` into [`components`]; `None` when the operation takes
/// no body (its fields are path or query parameters) or is not a REST route.
pub fn request_schema(op: Operation) -> Option<RefOr<Schema>> {
    match request(op) {
        Request::Body(name) => Some(reference(&name)),
        Request::None | Request::Query(_) | Request::NotRest => None,
    }
}

/// The query parameters of a `GET` list (`agentMemories.list`, `stores.list`, `memories.list`,
/// `versions.list`), from the fields of its request type; empty for every other operation.
/// None is required; the router merges them into the body with their JSON types.
pub fn query_parameters(op: Operation) -> Vec<Parameter> {
    let Request::Query(schema) = request(op) else {
        return Vec::new();
    };
    let RefOr::T(Schema::Object(object)) = schema() else {
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
pub fn path_parameters(op: Operation) -> Vec<Parameter> {
    path_fields(op)
        .iter()
        .map(|&name| {
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
pub fn response_schema(op: Operation) -> RefOr<Schema> {
    use Operation as Op;
    let name: Cow<'static, str> = match op {
        Op::Remember => RememberResponse::name(),
        Op::Recall => RecallResponse::name(),
        Op::List | Op::MemberList => ListResponse::name(),
        Op::Forget | Op::MemberDelete | Op::OwnerDeleteAll => DeletedResponse::name(),
        Op::SettingsGet | Op::SettingsPut => Settings::name(),
        Op::StoresCreate | Op::StoresGet | Op::StoresUpdate | Op::StoresArchive => {
            MemoryStore::name()
        }
        Op::StoresList => Cow::Borrowed(STORE_PAGE),
        Op::StoresDelete => MemoryStoreDeleted::name(),
        Op::MemoriesCreate | Op::MemoriesGet | Op::MemoriesUpdate | Op::MemoriesRestore => {
            StoreMemory::name()
        }
        Op::MemoriesList => Cow::Borrowed(MEMORY_PAGE),
        Op::MemoriesDelete => MemoryDeleted::name(),
        Op::VersionsList => Cow::Borrowed(VERSION_PAGE),
        Op::VersionsGet | Op::VersionsRedact => MemoryVersion::name(),
        Op::SessionsCreate | Op::SessionsResourcesAdd => Session::name(),
        Op::SessionsSystemPrompt => TextAnswer::name(),
        Op::FsList | Op::FsRead | Op::FsWrite | Op::FsDelete | Op::FsRename | Op::MemoryTool => {
            return ObjectBuilder::new()
                .schema_type(SchemaType::AnyValue)
                .description(Some("Not a REST route"))
                .into();
        }
    };
    reference(&name)
}

/// The error body of every operation: `{"error":{"code","message","retryAfterSeconds"?,
/// "current_content_sha256"?}}`, `code` one of the stable codes.
pub fn error_schema() -> RefOr<Schema> {
    reference(&ErrorBody::name())
}

/// Every named schema the functions above refer to, directly or through other schemas.
pub fn components() -> Components {
    let mut schemas = Vec::new();
    let mut add = |name: Cow<'static, str>,
                   schema: RefOr<Schema>,
                   refs: fn(&mut Vec<(String, RefOr<Schema>)>)| {
        schemas.push((name.into_owned(), schema));
        refs(&mut schemas);
    };
    macro_rules! named {
        ($($t:ty),* $(,)?) => {$(
            add(<$t as ToSchema>::name(), <$t as PartialSchema>::schema(), <$t as ToSchema>::schemas);
        )*};
    }
    named!(
        // Agent memories.
        RememberRequest,
        RecallRequest,
        ListRequest,
        ForgetForms,
        SettingsPatch,
        MemberListRequest,
        MemberDeleteRequest,
        RememberResponse,
        RecallResponse,
        ListResponse,
        DeletedResponse,
        Settings,
        // Memory stores.
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
        StoreMemoryMetadata,
        MemoryDeleted,
        MemoryVersion,
        Session,
        SessionResourceSchema,
        TextAnswer,
        // What the request schemas refer to.
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
        // The error body.
        ErrorBody,
    );
    add(
        Cow::Borrowed(STORE_PAGE),
        Page::<MemoryStore>::schema(),
        Page::<MemoryStore>::schemas,
    );
    add(
        Cow::Borrowed(MEMORY_PAGE),
        Page::<StoreMemoryMetadata>::schema(),
        Page::<StoreMemoryMetadata>::schemas,
    );
    add(
        Cow::Borrowed(VERSION_PAGE),
        Page::<MemoryVersion>::schema(),
        Page::<MemoryVersion>::schemas,
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
