//! The memory-store operations of replay: host-side ones made as a member (`user_actor`) or with
//! an API key (`api_actor`), and the agent's file interface made as a session (`session_actor`).

use agent_memory::{SessionCaller, StoreCaller};
use memory_core::{ApiError, ErrorCode, SessionId, WorkspaceId};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Replay, bad_body, to_value, workspace_id};

/// The memory-store ops, in the order of `replay.md`, and the `vacuum` world op.
pub(super) const STORE_OPS: &[&str] = &[
    "stores.create",
    "stores.get",
    "stores.list",
    "stores.update",
    "stores.archive",
    "stores.delete",
    "memories.create",
    "memories.get",
    "memories.list",
    "memories.update",
    "memories.delete",
    "memories.restore",
    "versions.list",
    "versions.get",
    "versions.redact",
    "sessions.create",
    "sessions.resources.add",
    "sessions.system_prompt",
    "fs.list",
    "fs.read",
    "fs.write",
    "fs.delete",
    "fs.rename",
    "memory_tool",
    "vacuum",
];

/// `"as": {"apiKey": ID, "workspace": WS}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ApiKeyActor {
    api_key: String,
    workspace: String,
}

impl Replay {
    /// Runs memory-store op `op` (one of [`STORE_OPS`]).
    pub(super) fn store_op(
        &mut self,
        op: &str,
        actor: Option<&Value>,
        body: &Value,
    ) -> Result<Value, ApiError> {
        let stores = &self.stores;
        match op {
            "stores.create" => to_value(&stores.stores_create(&self.store_caller(actor)?, body)?),
            "stores.get" => to_value(&stores.stores_get(&self.store_caller(actor)?, body)?),
            "stores.list" => to_value(&stores.stores_list(&self.store_caller(actor)?, body)?),
            "stores.update" => to_value(&stores.stores_update(&self.store_caller(actor)?, body)?),
            "stores.archive" => to_value(&stores.stores_archive(&self.store_caller(actor)?, body)?),
            "stores.delete" => to_value(&stores.stores_delete(&self.store_caller(actor)?, body)?),
            "memories.create" => {
                to_value(&stores.memories_create(&self.store_caller(actor)?, body)?)
            }
            "memories.get" => to_value(&stores.memories_get(&self.store_caller(actor)?, body)?),
            "memories.list" => to_value(&stores.memories_list(&self.store_caller(actor)?, body)?),
            "memories.update" => {
                to_value(&stores.memories_update(&self.store_caller(actor)?, body)?)
            }
            "memories.delete" => {
                to_value(&stores.memories_delete(&self.store_caller(actor)?, body)?)
            }
            "memories.restore" => {
                to_value(&stores.memories_restore(&self.store_caller(actor)?, body)?)
            }
            "versions.list" => to_value(&stores.versions_list(&self.store_caller(actor)?, body)?),
            "versions.get" => to_value(&stores.versions_get(&self.store_caller(actor)?, body)?),
            "versions.redact" => {
                to_value(&stores.versions_redact(&self.store_caller(actor)?, body)?)
            }
            "sessions.create" => {
                let caller = self.store_caller(actor)?;
                let session = stores.sessions_create(&caller, body)?;
                // The host resolves a session id to its workspace; `fs.*` and `memory_tool`
                // lines name the session only.
                let workspace = match caller {
                    StoreCaller::Member(member) => member.workspace,
                    StoreCaller::ApiKey { workspace, .. } => workspace,
                };
                let answer = to_value(&session)?;
                self.world.sessions.insert(session.id, workspace);
                Ok(answer)
            }
            "sessions.resources.add" => {
                to_value(&stores.sessions_resources_add(&self.store_caller(actor)?, body)?)
            }
            "sessions.system_prompt" => {
                to_value(&stores.sessions_system_prompt(&self.store_caller(actor)?, body)?)
            }
            "fs.list" => to_value(&stores.fs_list(&self.session_caller(actor)?, body)?),
            "fs.read" => to_value(&stores.fs_read(&self.session_caller(actor)?, body)?),
            "fs.write" => to_value(&stores.fs_write(&self.session_caller(actor)?, body)?),
            "fs.delete" => to_value(&stores.fs_delete(&self.session_caller(actor)?, body)?),
            "fs.rename" => to_value(&stores.fs_rename(&self.session_caller(actor)?, body)?),
            "memory_tool" => to_value(&stores.memory_tool(&self.session_caller(actor)?, body)?),
            "vacuum" => {
                // The report's sizes depend on the backend; scenarios compare answers across
                // backends, so the line answers `{}` and later lines show what vacuum kept.
                stores.vacuum(&|_, _| {})?;
                Ok(json!({}))
            }
            _ => unreachable!("STORE_OPS admitted only the ops above"),
        }
    }

    /// The caller of a host-side memory-store operation: a member id, or
    /// `{"apiKey": ID, "workspace": WS}` (the workspace must exist in the script).
    fn store_caller(&self, actor: Option<&Value>) -> Result<StoreCaller, ApiError> {
        match actor {
            Some(object @ Value::Object(_)) => {
                let key: ApiKeyActor =
                    serde_json::from_value(object.clone()).map_err(|_| bad_body())?;
                if !self.world.workspaces.contains_key(&key.workspace) || key.api_key.is_empty() {
                    return Err(bad_body());
                }
                Ok(StoreCaller::ApiKey {
                    workspace: workspace_id(&key.workspace)?,
                    api_key_id: key.api_key,
                })
            }
            _ => self.member(actor).map(StoreCaller::Member),
        }
    }

    /// The session a `fs.*` or `memory_tool` line acts as; `404 SESSION_NOT_FOUND` unless
    /// `sessions.create` made it in this script.
    fn session_caller(&self, actor: Option<&Value>) -> Result<SessionCaller, ApiError> {
        let not_found = || ApiError::new(ErrorCode::SessionNotFound, "session not found");
        let session = actor
            .and_then(Value::as_str)
            .and_then(|id| SessionId::parse(id).ok())
            .ok_or_else(not_found)?;
        let workspace: WorkspaceId = self
            .world
            .sessions
            .get(&session)
            .cloned()
            .ok_or_else(not_found)?;
        Ok(SessionCaller { workspace, session })
    }
}
