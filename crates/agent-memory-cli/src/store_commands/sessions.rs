//! `agent-memory sessions` (create, prompt), and the session `fs` and `mount` act as.

use std::io::Write;

use agent_memory::types::session::TextAnswer;
use agent_memory::{
    Access, ApiError, CreateSessionRequest, Session, SessionCaller, SessionId, SessionIdRequest,
    SessionResource,
};

use super::shared::{parse_id, store_id, write_text};
use crate::local::Local;
use crate::output::{JsonFlag, emit};

/// Arguments of `agent-memory sessions`.
#[derive(Debug, clap::Args)]
pub(crate) struct SessionsArgs {
    #[command(subcommand)]
    command: SessionsCommand,
}

#[derive(Debug, clap::Subcommand)]
enum SessionsCommand {
    /// Create an agent session with memory stores mounted under /mnt/memory/.
    Create {
        /// A store to attach (repeatable, at most 8): `ID` read-write, `ID:ro` read-only.
        #[arg(long = "store", value_name = "ID[:ro]")]
        stores: Vec<String>,
        /// Instructions for the agent about a store (repeatable: the first goes with the first
        /// --store, and so on).
        #[arg(long = "instructions", value_name = "TEXT")]
        instructions: Vec<String>,
        #[command(flatten)]
        out: JsonFlag,
    },
    /// Print the text a host puts in the session agent's system prompt about its mounts.
    Prompt {
        /// The session id (`sesn_…`).
        id: String,
        #[command(flatten)]
        out: JsonFlag,
    },
}

/// Attaches `ID`, `ID:ro` or `ID:rw` to `request`.
fn attach_store(
    request: CreateSessionRequest,
    spec: &str,
    instructions: Option<&String>,
) -> Result<CreateSessionRequest, ApiError> {
    let (id, access) = match spec.rsplit_once(':') {
        Some((id, "ro")) => (id, Access::ReadOnly),
        Some((id, "rw")) => (id, Access::ReadWrite),
        _ => (spec, Access::ReadWrite),
    };
    let id = store_id(id)?;
    Ok(match instructions {
        Some(text) => request.memory_store_with_instructions(id, access, text.as_str()),
        None => request.memory_store(id, access),
    })
}

fn write_session(out: &mut dyn Write, session: &Session) -> std::io::Result<()> {
    writeln!(out, "session {}", session.id)?;
    let mut mounts = 0;
    for resource in &session.resources {
        if let SessionResource::MemoryStore(m) = resource {
            mounts += 1;
            writeln!(
                out,
                "  {}  {}  {}",
                m.mount_path,
                m.access.as_str(),
                m.memory_store_id
            )?;
        }
    }
    if mounts == 0 {
        writeln!(out, "  (no memory stores mounted)")?;
    }
    Ok(())
}

pub(crate) fn sessions(
    local: &Local,
    args: SessionsArgs,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let caller = local.store_caller();
    match args.command {
        SessionsCommand::Create {
            stores,
            instructions,
            out: flag,
        } => {
            if instructions.len() > stores.len() {
                anyhow::bail!(
                    "{} --instructions for {} --store: each --instructions goes with the --store \
                     in the same position",
                    instructions.len(),
                    stores.len()
                );
            }
            let result = stores
                .iter()
                .enumerate()
                .try_fold(CreateSessionRequest::new(), |request, (i, spec)| {
                    attach_store(request, spec, instructions.get(i))
                })
                .and_then(|request| local.stores.sessions_create(&caller, &request));
            emit(out, flag, result, write_session)
        }
        SessionsCommand::Prompt { id, out: flag } => {
            let result = parse_id(
                &id,
                "the session id must be sesn_ and 1 to 64 letters, digits, - or _",
            )
            .and_then(|id| {
                local
                    .stores
                    .sessions_system_prompt(&caller, &SessionIdRequest::new(id))
            });
            emit(out, flag, result, |out, answer: &TextAnswer| {
                write_text(out, &answer.text)
            })
        }
    }
}

/// The session `--session` names, in the local workspace (an id that is no session id is not
/// found, as the facade answers for an unknown one).
pub(crate) fn session_caller(local: &Local, id: &str) -> anyhow::Result<SessionCaller> {
    let session = SessionId::parse(id).map_err(|_| {
        agent_memory::ApiError::new(
            agent_memory::ErrorCode::SessionNotFound,
            "session not found",
        )
    })?;
    Ok(SessionCaller {
        workspace: local.owner().workspace,
        session,
    })
}
