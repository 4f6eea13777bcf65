//! The runner: reads a scenario line by line, keeps the world and the aliases, moves the manual
//! clock, and answers each line through the facades.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::sync::Arc;

use agent_memory::backends::Storage;
use agent_memory::ops::{CallerKind, OperationName};
use agent_memory::{
    ApiError, BuildError, CandidateWindow, Clock, ContextSet, CredentialId, Embedder, ErrorCode,
    InMemoryPassageSource, ManualClock, MemberId, MemoryService, Role, Scope, SeededIdGenerator,
    StoreService, Timestamp, json,
};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::body::{bad_body, duplicate_id, error_line, parse_body, purged, to_value, workspace_id};
use crate::edge::{Edge, Transport};
use crate::embedder::{EmbedderMode, ReplayEmbedder};
use crate::stores::record_session;
use crate::world::{Credential, Member, World};

/// Where the manual clock starts.
const START: &str = "2026-01-01T00:00:00Z";

/// Why a run stopped before the end of its input.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The input could not be read.
    #[error("reading line {line}")]
    Read {
        /// The line, counted from 1.
        line: usize,
        /// What reading it answered.
        #[source]
        source: std::io::Error,
    },
    /// An answer could not be written.
    #[error("writing an answer")]
    Write(#[source] std::io::Error),
}

/// Why a line could not be executed.
struct BadLine(&'static str);

/// One input line, as the format defines it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    op: String,
    at: Option<String>,
    #[serde(rename = "as")]
    actor: Option<Value>,
    #[serde(default)]
    body: Option<Value>,
    #[serde(default)]
    save: Option<HashMap<String, String>>,
}

/// A scenario run: the world, the facades over one backend, the manual clock and the aliases.
pub struct Replay {
    world: World,
    edge: Edge,
    clock: Arc<ManualClock>,
    passages: Arc<InMemoryPassageSource>,
    aliases: HashMap<String, Value>,
    embedder: Arc<ReplayEmbedder>,
}

impl Replay {
    /// A fresh world over `backend`, the clock at the format's start instant, `embedder` as
    /// the `normal` embedder, recall ranking the candidates of `window`.
    pub fn new(
        backend: Arc<dyn Storage>,
        embedder: Arc<dyn Embedder>,
        window: CandidateWindow,
    ) -> Result<Self, BuildError> {
        let start = Timestamp::parse(START).expect("the start instant is valid RFC 3339");
        let clock = Arc::new(ManualClock::new(start));
        let passages = Arc::new(InMemoryPassageSource::new());
        let embedder = Arc::new(ReplayEmbedder::new(embedder));
        // One generator for both facades: ids made later sort after ids made earlier, whichever
        // facade made them.
        let ids = Arc::new(SeededIdGenerator::new(0));
        let stores = StoreService::over(backend.clone())
            .clock(clock.clone())
            .ids(ids.clone())
            .build();
        let service = MemoryService::builder(backend, passages.clone())
            .clock(clock.clone())
            .ids(ids)
            .embedder(embedder.clone())
            .candidate_window(window)
            // The contract's seed ranking, so that scenario answers compare across releases:
            // every word a term, plain Reciprocal Rank Fusion, every version listed.
            .analyzer(agent_memory::Analyzer::Words)
            .weights(agent_memory::Weights::EQUAL)
            .collapse_duplicates(false)
            .build()?;
        Ok(Replay {
            world: World::default(),
            edge: Edge {
                service: Arc::new(service),
                stores: Arc::new(stores),
                transport: None,
            },
            clock,
            passages,
            aliases: HashMap::new(),
            embedder,
        })
    }

    /// The agent-memory facade the scenario drives.
    pub fn service(&self) -> &Arc<MemoryService> {
        &self.edge.service
    }

    /// The memory-store facade the scenario drives, over the same backend, clock and ids.
    pub fn stores(&self) -> &Arc<StoreService> {
        &self.edge.stores
    }

    /// From now on, the operations of the JSON edge that `transport` carries go through it
    /// (over HTTP, say) instead of in process; the world operations, the host events and the
    /// rest stay in process.
    pub fn through(&mut self, transport: Arc<dyn Transport>) {
        self.edge.transport = Some(transport);
    }

    /// Runs every line of `input`, writing one output line per non-blank, non-comment line;
    /// returns whether every line was executed (`false` after a line that is not JSON, names an
    /// unknown op or could not run, which is answered `REPLAY_BAD_LINE` and skipped).
    pub fn run(&mut self, input: impl BufRead, mut output: impl Write) -> Result<bool, RunError> {
        let mut all_executed = true;
        // Lines are read as bytes: a line that is not UTF-8 is a bad line like one that is not
        // JSON (it gets its answer and the run goes on), not the end of the run.
        for (number, line) in input.split(b'\n').enumerate() {
            let line = line.map_err(|source| RunError::Read {
                line: number + 1,
                source,
            })?;
            let bytes = line.trim_ascii();
            if bytes.is_empty() || bytes.starts_with(b"#") {
                continue;
            }
            let (out, executed) = match std::str::from_utf8(bytes) {
                Ok(text) => self.line(text.trim()),
                Err(_) => (
                    error_line(&ApiError::new(
                        ErrorCode::ReplayBadLine,
                        "the line is not valid UTF-8",
                    )),
                    false,
                ),
            };
            all_executed &= executed;
            writeln!(output, "{out}").map_err(RunError::Write)?;
        }
        output.flush().map_err(RunError::Write)?;
        Ok(all_executed)
    }

    /// Executes one line; returns the output line and whether the line was executed.
    fn line(&mut self, text: &str) -> (String, bool) {
        match self.parse_and_run(text) {
            Ok(Ok(body)) => (format!("{{\"status\":200,\"body\":{body}}}"), true),
            Ok(Err(err)) => (error_line(&err), true),
            Err(BadLine(message)) => (
                error_line(&ApiError::new(ErrorCode::ReplayBadLine, message)),
                false,
            ),
        }
    }

    fn parse_and_run(&mut self, text: &str) -> Result<Result<Value, ApiError>, BadLine> {
        let line: Line = serde_json::from_str(text)
            .map_err(|_| BadLine("the line is not a valid operation object"))?;
        let actor = line.actor.map(|a| self.substitute(a)).transpose()?;
        let body = self.substitute(line.body.unwrap_or_else(|| json!({})))?;
        if !is_known(&line.op) {
            return Err(BadLine("unknown op"));
        }
        if let Some(at) = line.at {
            let at =
                Timestamp::parse(&at).map_err(|_| BadLine("`at` is not an RFC 3339 instant"))?;
            if at < self.clock.now() {
                return Err(BadLine(
                    "`at` is earlier than the clock: time never runs backwards",
                ));
            }
            self.clock.set(at);
        }
        let result = self.execute(&line.op, actor.as_ref(), &body);
        if let (Ok(out), Some(save)) = (&result, line.save) {
            for (name, pointer) in save {
                // A pointer that finds nothing saves nothing; a later use of the alias is then a
                // bad line, which is where the scenario's author will look.
                if let Some(value) = out.pointer(&pointer) {
                    self.aliases.insert(name, value.clone());
                }
            }
        }
        Ok(result)
    }

    /// Replaces every string that is exactly `"$NAME"` with the saved value; `"$$…"` stands for
    /// a literal string starting with `$`.
    fn substitute(&self, value: Value) -> Result<Value, BadLine> {
        Ok(match value {
            Value::String(s) => {
                if let Some(literal) = s.strip_prefix("$$") {
                    Value::String(format!("${literal}"))
                } else if let Some(name) = s.strip_prefix('$') {
                    self.aliases
                        .get(name)
                        .cloned()
                        .ok_or(BadLine("unknown alias"))?
                } else {
                    Value::String(s)
                }
            }
            Value::Array(items) => Value::Array(
                items
                    .into_iter()
                    .map(|v| self.substitute(v))
                    .collect::<Result<_, _>>()?,
            ),
            Value::Object(map) => Value::Object(
                map.into_iter()
                    .map(|(k, v)| Ok((k, self.substitute(v)?)))
                    .collect::<Result<_, BadLine>>()?,
            ),
            other => other,
        })
    }

    fn execute(
        &mut self,
        op: &str,
        actor: Option<&Value>,
        body: &Value,
    ) -> Result<Value, ApiError> {
        match op {
            // World operations (host side).
            "workspace.create" => self.workspace_create(body),
            "workspace.update" => self.workspace_update(body),
            "member.add" => self.member_add(body),
            "member.setRole" => self.member_set_role(body),
            "member.remove" => self.member_remove(body),
            "embedder.set" => {
                #[derive(Deserialize)]
                #[serde(deny_unknown_fields)]
                struct B {
                    mode: EmbedderMode,
                }
                self.embedder.set(parse_body::<B>(body)?.mode);
                Ok(json!({}))
            }
            "credential.create" => self.credential_create(body),
            "credential.revoke" => {
                #[derive(Deserialize)]
                #[serde(deny_unknown_fields)]
                struct B {
                    id: String,
                }
                let b: B = parse_body(body)?;
                self.world
                    .credentials
                    .get_mut(&b.id)
                    .ok_or_else(bad_body)?
                    .revoked = true;
                Ok(json!({}))
            }
            "contextSet.put" => {
                #[derive(Deserialize)]
                #[serde(deny_unknown_fields)]
                struct B {
                    workspace: String,
                    id: String,
                    #[serde(default)]
                    collections: Vec<String>,
                    #[serde(default)]
                    documents: Vec<String>,
                }
                let b: B = parse_body(body)?;
                // Put replaces a set of the same workspace (how a host changes a set: bound
                // credentials follow); the id of another workspace's set is a duplicate.
                if self
                    .world
                    .context_sets
                    .keys()
                    .any(|(ws, id)| *id == b.id && *ws != b.workspace)
                {
                    return Err(duplicate_id(
                        "a context set of another workspace has this id",
                    ));
                }
                self.world.context_sets.insert(
                    (b.workspace, b.id),
                    ContextSet::new(b.collections, b.documents),
                );
                Ok(json!({}))
            }
            "contextSet.delete" => {
                #[derive(Deserialize)]
                #[serde(deny_unknown_fields)]
                struct B {
                    workspace: String,
                    id: String,
                }
                let b: B = parse_body(body)?;
                self.world.context_sets.remove(&(b.workspace, b.id));
                Ok(json!({}))
            }
            "passage.put" => {
                #[derive(Deserialize)]
                struct B {
                    workspace: String,
                    #[serde(flatten)]
                    passage: agent_memory::Passage,
                }
                let b: B = parse_body(body)?;
                self.passages
                    .put_passage(&workspace_id(&b.workspace)?, b.passage);
                Ok(json!({}))
            }
            "document.delete" => {
                let b: DocumentBody = parse_body(body)?;
                let ws = workspace_id(&b.workspace)?;
                self.passages.delete_document(&ws, &b.document_id);
                self.edge
                    .service
                    .on_document_deleted(&ws, &b.document_id)
                    .map(purged)
            }
            "document.expire" => {
                let b: DocumentBody = parse_body(body)?;
                self.passages
                    .expire_document(&workspace_id(&b.workspace)?, &b.document_id);
                Ok(json!({}))
            }
            "document.setReadable" => {
                #[derive(Deserialize)]
                #[serde(deny_unknown_fields, rename_all = "camelCase")]
                struct B {
                    workspace: String,
                    document_id: String,
                    member: String,
                    readable: bool,
                }
                let b: B = parse_body(body)?;
                let member = MemberId::new(b.member).map_err(|_| bad_body())?;
                self.passages.set_document_readable(
                    &workspace_id(&b.workspace)?,
                    &b.document_id,
                    &member,
                    b.readable,
                );
                Ok(json!({}))
            }
            "collection.delete" => {
                #[derive(Deserialize)]
                #[serde(deny_unknown_fields, rename_all = "camelCase")]
                struct B {
                    workspace: String,
                    collection_id: String,
                }
                let b: B = parse_body(body)?;
                let ws = workspace_id(&b.workspace)?;
                self.passages.delete_collection(&ws, &b.collection_id);
                self.edge
                    .service
                    .on_collection_deleted(&ws, &b.collection_id)
                    .map(purged)
            }
            "purge" => {
                #[derive(Deserialize)]
                #[serde(deny_unknown_fields)]
                struct B {
                    workspace: String,
                }
                let b: B = parse_body(body)?;
                self.edge
                    .service
                    .purge_expired(&workspace_id(&b.workspace)?)
                    .map(purged)
            }

            "mcp.tools" => Ok(json!({ "tools": agent_memory::tools() })),
            "mcp.call" => {
                #[derive(Deserialize)]
                #[serde(deny_unknown_fields)]
                struct B {
                    tool: String,
                    #[serde(default)]
                    arguments: Option<Value>,
                }
                let b: B = parse_body(body)?;
                let arguments = b.arguments.unwrap_or_else(|| json!({}));
                to_value(&self.edge.service.call_tool(
                    &self.world.agent(actor),
                    &b.tool,
                    &arguments,
                ))
            }
            "vacuum" => {
                // The report's sizes depend on the backend; scenarios compare answers across
                // backends, so the line answers `{}` and later lines show what vacuum kept.
                self.edge.stores.vacuum(&|_, _| {})?;
                Ok(json!({}))
            }

            // The facades' operations, through their JSON edge, as the caller the operation
            // type names: `as` is a credential (agent), a member (member, or a store's host side
            // as a member or an API key) or a session (the agent's file interface).
            op => match OperationName::from_name(op) {
                Some(operation) => self.operation(operation, actor, body),
                None => unreachable!("is_known admitted only the ops above"),
            },
        }
    }

    fn operation(
        &mut self,
        operation: OperationName,
        actor: Option<&Value>,
        body: &Value,
    ) -> Result<Value, ApiError> {
        use json::Caller;
        match operation.caller_kind() {
            CallerKind::Agent => {
                let caller = self.world.agent(actor);
                self.edge.call(operation, Caller::Agent(&caller), body)
            }
            CallerKind::Member => {
                let caller = self.world.member(actor)?;
                self.edge.call(operation, Caller::Member(&caller), body)
            }
            CallerKind::Store => {
                let caller = self.world.store_caller(actor)?;
                let answer = self.edge.call(operation, Caller::Store(&caller), body)?;
                if operation == OperationName::SessionsCreate {
                    record_session(&mut self.world, &caller, &answer)?;
                }
                Ok(answer)
            }
            CallerKind::Session => {
                let caller = self.world.session_caller(actor)?;
                self.edge.call(operation, Caller::Session(&caller), body)
            }
        }
    }

    fn workspace_create(&mut self, body: &Value) -> Result<Value, ApiError> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct B {
            id: String,
            #[serde(default = "yes")]
            retaining: bool,
        }
        let b: B = parse_body(body)?;
        workspace_id(&b.id)?;
        // Re-creating would change `retaining` without `workspace.update`'s purge.
        if self.world.workspaces.contains_key(&b.id) {
            return Err(duplicate_id("a workspace with this id already exists"));
        }
        self.world.workspaces.insert(b.id, b.retaining);
        Ok(json!({}))
    }

    fn workspace_update(&mut self, body: &Value) -> Result<Value, ApiError> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct B {
            id: String,
            retaining: bool,
        }
        let b: B = parse_body(body)?;
        let retaining = self.world.workspaces.get_mut(&b.id).ok_or_else(bad_body)?;
        let stopped = *retaining && !b.retaining;
        *retaining = b.retaining;
        if stopped {
            self.edge
                .service
                .on_workspace_stopped_retaining(&workspace_id(&b.id)?)
                .map(purged)
        } else {
            Ok(json!({}))
        }
    }

    fn member_add(&mut self, body: &Value) -> Result<Value, ApiError> {
        let b: MemberBody = parse_body(body)?;
        if !self.world.workspaces.contains_key(&b.workspace) {
            return Err(bad_body());
        }
        MemberId::new(b.id.clone()).map_err(|_| bad_body())?;
        // A removed member's id stays taken: re-adding it would revive its credentials.
        if self.world.members.contains_key(&b.id) {
            return Err(duplicate_id("a member with this id already exists"));
        }
        let workspace = workspace_id(&b.workspace)?;
        self.world.members.insert(
            b.id,
            Member {
                workspace,
                role: b.role,
                removed: false,
            },
        );
        Ok(json!({}))
    }

    fn member_set_role(&mut self, body: &Value) -> Result<Value, ApiError> {
        let b: MemberBody = parse_body(body)?;
        let member = self.world.current_member_mut(&b.workspace, &b.id);
        member
            .ok_or_else(|| ApiError::new(ErrorCode::MemberNotFound, "member not found"))?
            .role = b.role;
        Ok(json!({}))
    }

    fn member_remove(&mut self, body: &Value) -> Result<Value, ApiError> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct B {
            workspace: String,
            id: String,
        }
        let b: B = parse_body(body)?;
        let member = self.world.current_member_mut(&b.workspace, &b.id);
        let member =
            member.ok_or_else(|| ApiError::new(ErrorCode::MemberNotFound, "member not found"))?;
        member.removed = true;
        let (workspace, id) = (
            workspace_id(&b.workspace)?,
            MemberId::new(b.id).map_err(|_| bad_body())?,
        );
        self.edge
            .service
            .on_member_removed(&workspace, &id)
            .map(purged)
    }

    fn credential_create(&mut self, body: &Value) -> Result<Value, ApiError> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields, rename_all = "camelCase")]
        struct B {
            workspace: String,
            member: String,
            id: String,
            scopes: Vec<Scope>,
            context_set: Option<String>,
        }
        let b: B = parse_body(body)?;
        let member = self
            .world
            .members
            .get(&b.member)
            .filter(|m| m.workspace.as_str() == b.workspace && !m.removed)
            .ok_or_else(|| ApiError::new(ErrorCode::MemberNotFound, "member not found"))?;
        self.edge.service.check_grant(member.role, &b.scopes)?;
        CredentialId::new(b.id.clone()).map_err(|_| bad_body())?;
        // A revoked credential's id stays taken too: re-creating it would un-revoke it, or move
        // it to another workspace.
        if self.world.credentials.contains_key(&b.id) {
            return Err(duplicate_id("a credential with this id already exists"));
        }
        let credential = Credential {
            workspace: member.workspace.clone(),
            member: MemberId::new(b.member).map_err(|_| bad_body())?,
            scopes: b.scopes,
            context_set: b.context_set,
            revoked: false,
        };
        self.world.credentials.insert(b.id, credential);
        Ok(json!({}))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MemberBody {
    workspace: String,
    id: String,
    role: Role,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct DocumentBody {
    workspace: String,
    document_id: String,
}

fn yes() -> bool {
    true
}

const KNOWN_OPS: &[&str] = &[
    "workspace.create",
    "workspace.update",
    "member.add",
    "member.setRole",
    "member.remove",
    "embedder.set",
    "credential.create",
    "credential.revoke",
    "contextSet.put",
    "contextSet.delete",
    "passage.put",
    "document.delete",
    "document.expire",
    "document.setReadable",
    "collection.delete",
    "purge",
    "mcp.tools",
    "mcp.call",
    "vacuum",
];

/// Whether `op` is an operation of the format: the world's and every facade operation.
fn is_known(op: &str) -> bool {
    KNOWN_OPS.contains(&op) || OperationName::from_name(op).is_some()
}
