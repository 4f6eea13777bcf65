//! The requests of the session operations (`sessions.create`, `sessions.resources.add`,
//! `sessions.system_prompt`) and of the agent file interface (`fs.*`).

use std::fmt;

use memory_core::session::{Access, ResourceRequest};
use memory_core::{ApiError, MemoryStoreId, Precondition, SessionId};
use serde::Deserialize;
use serde_json::Value;

use super::rules::{
    Mistyped, RESOURCE, Redacted, check_added_resource, check_precondition, check_resources,
    no_own, own_precondition, redacted_path, shape, store_requests,
};

store_requests!(
    CreateSessionRequest,
    AddSessionResourceRequest,
    SessionIdRequest,
    FsPathRequest,
    FsWriteRequest,
    FsRenameRequest,
);

/// `sessions.create {agent?, resources}`: at most 8 memory stores, none twice, instructions of
/// at most 4096 characters; other resources are objects with a string `type`, kept as given.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(
    feature = "openapi",
    schema(
        description = "The body of sessions.create: at most 8 memory stores, none twice; other resources are kept as given"
    )
)]
#[non_exhaustive]
pub struct CreateSessionRequest {
    /// The agent as the host describes it, kept as given.
    #[serde(default, deserialize_with = "not_null")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Value>))]
    pub agent: Option<Value>,
    /// The resources, in order.
    #[serde(default)]
    #[cfg_attr(
        feature = "openapi",
        schema(value_type = Vec<memory_core::session::ResourceRequestSchema>)
    )]
    pub resources: Vec<ResourceRequest>,
}

/// `agent`: `null` is absent.
fn not_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Ok(Option::<Value>::deserialize(d)?.filter(|a| !a.is_null()))
}

/// A `resources` array with a resource of the wrong shape has its own message.
fn own_resources(field: &str, value: &Value) -> bool {
    field == "resources" && value.is_array()
}

impl CreateSessionRequest {
    /// A session without resources.
    pub fn new() -> Self {
        CreateSessionRequest::default()
    }

    /// Records the agent (any JSON the host keeps with the session).
    pub fn agent(mut self, agent: Value) -> Self {
        self.agent = Some(agent);
        self
    }

    /// Attaches a resource.
    pub fn resource(mut self, resource: ResourceRequest) -> Self {
        self.resources.push(resource);
        self
    }

    /// Attaches the store `memory_store_id` with `access`, mounted at `/mnt/memory/<slug>/`.
    pub fn memory_store(self, memory_store_id: MemoryStoreId, access: Access) -> Self {
        self.resource(ResourceRequest::MemoryStore {
            memory_store_id,
            access,
            instructions: None,
        })
    }

    /// Like [`Self::memory_store`], with instructions for the agent (at most 4096 characters).
    pub fn memory_store_with_instructions(
        self,
        memory_store_id: MemoryStoreId,
        access: Access,
        instructions: impl Into<String>,
    ) -> Self {
        self.resource(ResourceRequest::MemoryStore {
            memory_store_id,
            access,
            instructions: Some(instructions.into()),
        })
    }

    /// Applies the field rules.
    pub fn validate(&self) -> Result<(), ApiError> {
        self.check(&Mistyped::NONE)
    }

    fn check(&self, mistyped: &Mistyped) -> Result<(), ApiError> {
        mistyped.check("resources", RESOURCE)?;
        check_resources(&self.resources)
    }

    /// Reads and validates a `sessions.create` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        let (request, mistyped) = shape::<Self>(body, own_resources)?;
        request.check(&mistyped)?;
        Ok(request)
    }
}

/// `sessions.resources.add {session_id, resource}`: any resource but a memory store.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(
    feature = "openapi",
    schema(description = "The body of sessions.resources.add")
)]
#[non_exhaustive]
pub struct AddSessionResourceRequest {
    /// The session (in the route's path; the router merges it into the body).
    #[cfg_attr(feature = "openapi", schema(required = false))]
    pub session_id: SessionId,
    /// The resource: an object with a string `type` other than `memory_store` (memory stores
    /// are attached at creation only).
    #[cfg_attr(
        feature = "openapi",
        schema(value_type = memory_core::session::OtherResource)
    )]
    pub resource: Value,
}

impl AddSessionResourceRequest {
    /// Appends `resource` to the session `session_id`.
    pub fn new(session_id: SessionId, resource: Value) -> Self {
        AddSessionResourceRequest {
            session_id,
            resource,
        }
    }

    /// Applies the field rules.
    pub fn validate(&self) -> Result<(), ApiError> {
        check_added_resource(&self.resource)
    }

    /// Reads and validates a `sessions.resources.add` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        let (request, _) = shape::<Self>(body, no_own)?;
        request.validate()?;
        Ok(request)
    }
}

/// `sessions.system_prompt {session_id}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct SessionIdRequest {
    /// The session.
    pub session_id: SessionId,
}

impl SessionIdRequest {
    /// The session `session_id`.
    pub fn new(session_id: SessionId) -> Self {
        SessionIdRequest { session_id }
    }

    /// No field rules beyond the id's own form.
    pub fn validate(&self) -> Result<(), ApiError> {
        Ok(())
    }

    /// Reads a `{session_id}` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        Ok(shape::<Self>(body, no_own)?.0)
    }
}

/// `fs.list`, `fs.read`, `fs.delete`: `{path}`, a path of the session's mounts (checked against
/// them once the session is read, so it has no field rule of its own). `Debug` shows its length.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct FsPathRequest {
    /// `/mnt/memory/…`.
    pub path: String,
}

impl FsPathRequest {
    /// The path `path`.
    pub fn new(path: impl Into<String>) -> Self {
        FsPathRequest { path: path.into() }
    }

    /// No field rules: the path is resolved against the session's mounts.
    pub fn validate(&self) -> Result<(), ApiError> {
        Ok(())
    }

    /// Reads a `{path}` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        Ok(shape::<Self>(body, no_own)?.0)
    }
}

impl fmt::Debug for FsPathRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FsPathRequest")
            .field("path", &redacted_path(&self.path))
            .finish()
    }
}

/// `fs.write {path, content, precondition?}`. `Debug` shows lengths only.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct FsWriteRequest {
    /// `/mnt/memory/…`.
    pub path: String,
    /// The content.
    pub content: String,
    /// Update only if the stored content has this hash (a missing memory is then `404`).
    #[serde(default)]
    pub precondition: Option<Precondition>,
}

impl FsWriteRequest {
    /// Writes `content` at `path`: a create, or an update of the memory there.
    pub fn new(path: impl Into<String>, content: impl Into<String>) -> Self {
        FsWriteRequest {
            path: path.into(),
            content: content.into(),
            precondition: None,
        }
    }

    /// Applies the field rules.
    pub fn validate(&self) -> Result<(), ApiError> {
        check_precondition(&Mistyped::NONE, self.precondition.as_ref())
    }

    /// Reads and validates an `fs.write` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        let (request, mistyped) = shape::<Self>(body, own_precondition)?;
        check_precondition(&mistyped, request.precondition.as_ref())?;
        Ok(request)
    }
}

impl fmt::Debug for FsWriteRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FsWriteRequest")
            .field("path", &redacted_path(&self.path))
            .field("content", &Redacted(&self.content))
            .field("precondition", &self.precondition)
            .finish()
    }
}

/// `fs.rename {from, to}`, within one mount. `Debug` shows lengths only.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct FsRenameRequest {
    /// The memory's path.
    pub from: String,
    /// Its new path.
    pub to: String,
}

impl FsRenameRequest {
    /// Moves the memory at `from` to `to`.
    pub fn new(from: impl Into<String>, to: impl Into<String>) -> Self {
        FsRenameRequest {
            from: from.into(),
            to: to.into(),
        }
    }

    /// No field rules: both paths are resolved against the session's mounts.
    pub fn validate(&self) -> Result<(), ApiError> {
        Ok(())
    }

    /// Reads an `fs.rename` body.
    pub fn from_json(body: &Value) -> Result<Self, ApiError> {
        Ok(shape::<Self>(body, no_own)?.0)
    }
}

impl fmt::Debug for FsRenameRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FsRenameRequest")
            .field("from", &redacted_path(&self.from))
            .field("to", &redacted_path(&self.to))
            .finish()
    }
}
