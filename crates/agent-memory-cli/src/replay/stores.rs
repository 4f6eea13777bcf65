//! The memory-store operations of replay: host-side ones made as a member (`user_actor`) or with
//! an API key (`api_actor`), and the agent's file interface made as a session (`session_actor`).

use agent_memory::json;
use agent_memory::{ApiError, ErrorCode, SessionCaller, SessionId, StoreCaller, WorkspaceId};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{Replay, bad_body, workspace_id};

/// The memory-store ops, in the order of `replay.md`, and the `vacuum` world op. Each but
/// `vacuum` goes through [`json::JsonApi`], the entry point a REST host uses.
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
        match op {
            "sessions.create" => {
                let caller = self.store_caller(actor)?;
                let answer = self.json_call(op, json::Caller::Store(&caller), body)?;
                // The host resolves a session id to its workspace; `fs.*` and `memory_tool`
                // lines name the session only.
                let session = answer
                    .get("id")
                    .and_then(Value::as_str)
                    .and_then(|id| SessionId::parse(id).ok())
                    .ok_or_else(|| {
                        ApiError::new(
                            ErrorCode::InternalError,
                            "a session came back without an id",
                        )
                    })?;
                self.world
                    .sessions
                    .insert(session, caller.workspace().clone());
                Ok(answer)
            }
            "fs.list" | "fs.read" | "fs.write" | "fs.delete" | "fs.rename" | "memory_tool" => {
                let caller = self.session_caller(actor)?;
                self.json_call(op, json::Caller::Session(&caller), body)
            }
            "vacuum" => {
                // The report's sizes depend on the backend; scenarios compare answers across
                // backends, so the line answers `{}` and later lines show what vacuum kept.
                self.stores.vacuum(&|_, _| {})?;
                Ok(json!({}))
            }
            _ => {
                let caller = self.store_caller(actor)?;
                self.json_call(op, json::Caller::Store(&caller), body)
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_store_op_but_vacuum_is_an_operation_of_the_json_edge() {
        for op in STORE_OPS.iter().filter(|op| **op != "vacuum") {
            assert!(json::Operation::from_name(op).is_some(), "{op}");
        }
    }
}
