//! The one memory-store operation whose answer the replay world keeps: a session's workspace.

use agent_memory::{ApiError, ErrorCode, SessionId, StoreCaller};
use serde_json::Value;

use crate::world::World;

/// Notes the workspace of the session `sessions.create` answered: the host resolves a session
/// id to its workspace, and `fs.*` and `memory_tool` lines name the session only.
pub(crate) fn record_session(
    world: &mut World,
    caller: &StoreCaller,
    answer: &Value,
) -> Result<(), ApiError> {
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
    Ok(())
}
