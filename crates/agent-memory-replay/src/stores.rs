//! The memory-store operations of replay: host-side ones made as a member (`user_actor`) or with
//! an API key (`api_actor`), and the agent's file interface made as a session (`session_actor`).

use agent_memory::json;
use agent_memory::{ApiError, ErrorCode, SessionId};
use serde_json::{Value, json};

use crate::edge::Edge;
use crate::world::World;

/// The memory-store ops, in the order of `replay.md`, and the `vacuum` world op. Each but
/// `vacuum` goes through [`json::JsonApi`], the entry point a REST host uses.
pub(crate) const STORE_OPS: &[&str] = &[
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

/// Runs memory-store op `op` (one of [`STORE_OPS`]) as `actor`.
pub(crate) fn store_op(
    world: &mut World,
    edge: &Edge,
    op: &str,
    actor: Option<&Value>,
    body: &Value,
) -> Result<Value, ApiError> {
    match op {
        "sessions.create" => {
            let caller = world.store_caller(actor)?;
            let answer = edge.call(op, json::Caller::Store(&caller), body)?;
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
            world.sessions.insert(session, caller.workspace().clone());
            Ok(answer)
        }
        "fs.list" | "fs.read" | "fs.write" | "fs.delete" | "fs.rename" | "memory_tool" => {
            let caller = world.session_caller(actor)?;
            edge.call(op, json::Caller::Session(&caller), body)
        }
        "vacuum" => {
            // The report's sizes depend on the backend; scenarios compare answers across
            // backends, so the line answers `{}` and later lines show what vacuum kept.
            edge.stores.vacuum(&|_, _| {})?;
            Ok(json!({}))
        }
        _ => {
            let caller = world.store_caller(actor)?;
            edge.call(op, json::Caller::Store(&caller), body)
        }
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
