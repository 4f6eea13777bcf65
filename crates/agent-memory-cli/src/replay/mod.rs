//! `agent-memory replay`: drives the whole library from a JSON-lines scenario (the executable
//! contract of the spec's `replay.md`), printing exactly one JSON line per executed input line.

#[cfg(test)]
mod http;
mod stores;
mod world;

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::sync::Arc;

use agent_memory::{Clock, ManualClock, MemoryService, StoreService, json};
use anyhow::Context;
use citation_verify::InMemoryPassageSource;
use memory_core::{
    ApiError, ContextSet, CredentialId, ErrorCode, MemberId, Role, Scope, SeededIdGenerator,
    Timestamp, WorkspaceId,
};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use store_kv::InMemoryBackend;
use store_trait::Storage;

use crate::home::{BackendKind, require_unused_database};
use crate::local::open_backend;
use world::{Credential, Member, World};

/// Where the manual clock starts.
const START: &str = "2026-01-01T00:00:00Z";

/// Arguments of `agent-memory replay`.
#[derive(Debug, clap::Args)]
pub(crate) struct ReplayArgs {
    /// The scenario file; `-` or nothing reads standard input.
    file: Option<std::path::PathBuf>,
    /// Run on the embedded database at PATH instead of in memory. It must be new or empty (an
    /// empty file for redb and sqlite, an empty directory for sled): replay refuses a used one.
    #[arg(long, value_name = "PATH")]
    db: Option<std::path::PathBuf>,
    /// The embedded database `--db` names; or `postgres`: run in a throw-away schema of the
    /// database at `--database-url` (dropped at the end), without `--db`.
    #[arg(long, value_enum, default_value_t = BackendKind::Redb)]
    backend: BackendKind,
    /// Scenarios' `embedder.set` modes switch this model on and off (`normal` runs it).
    #[command(flatten)]
    embedder: crate::embedder::EmbedderArgs,
    #[command(flatten)]
    window: crate::embedder::WindowArgs,
}

/// Runs `agent-memory replay`; returns whether every line was executed.
pub(crate) fn run(args: &ReplayArgs, output: impl Write) -> anyhow::Result<bool> {
    if args.backend == BackendKind::Postgres {
        if args.db.is_some() {
            anyhow::bail!("--backend postgres takes --database-url, not --db");
        }
        let url = crate::local::database_url()?;
        let schema = format!(
            "replay_{}_{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        );
        let backend = store_postgres::PostgresBackend::connect_in_schema(url, &schema, 4)
            .context("opening the PostgreSQL database");
        let result = backend.and_then(|b| replay_on(args, Arc::new(b), output));
        store_postgres::PostgresBackend::drop_schema(url, &schema)
            .context("dropping the replay's schema")?;
        return result;
    }
    let backend: Arc<dyn Storage> = match &args.db {
        None if args.backend != BackendKind::Redb => {
            anyhow::bail!("--backend {} needs --db PATH", args.backend.name())
        }
        None => Arc::new(InMemoryBackend::new()),
        Some(path) => {
            require_unused_database(path, args.backend)?;
            open_backend(args.backend, path, true)?
        }
    };
    replay_on(args, backend, output)
}

/// Runs the scenario on `backend`.
fn replay_on(
    args: &ReplayArgs,
    backend: Arc<dyn Storage>,
    output: impl Write,
) -> anyhow::Result<bool> {
    let window = args.window.candidate_window.unwrap_or_default();
    let mut replay = Replay::new(backend, args.embedder.load()?, window)?;
    match args.file.as_deref() {
        None => replay.run(std::io::stdin().lock(), output),
        Some(path) if path.as_os_str() == "-" => replay.run(std::io::stdin().lock(), output),
        Some(path) => {
            let file =
                std::fs::File::open(path).with_context(|| format!("opening {}", path.display()))?;
            replay.run(std::io::BufReader::new(file), output)
        }
    }
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
pub(crate) struct Replay {
    world: World,
    service: Arc<MemoryService>,
    /// Memory stores, over the same backend, clock and id generator as `service`.
    stores: Arc<StoreService>,
    clock: Arc<ManualClock>,
    passages: Arc<InMemoryPassageSource>,
    aliases: HashMap<String, Value>,
    embedder: Arc<ReplayEmbedder>,
    /// Tests only: the operations the router serves go to it over loopback HTTP.
    #[cfg(test)]
    http: Option<http::HttpTransport>,
}

/// How the replay embedder answers (`embedder.set`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum EmbedderMode {
    /// The offline hashing embedder.
    Normal,
    /// Blocks for 5 s before answering: the semantic budget must cut it off.
    Slow,
    /// Fails every call.
    Failing,
}

/// The chosen embedder (the hashing one unless `--embedder` says otherwise) behind a switch
/// that scenarios flip with `embedder.set`.
struct ReplayEmbedder {
    /// 0 normal, 1 slow, 2 failing.
    mode: std::sync::atomic::AtomicU8,
    inner: Arc<dyn agent_memory::Embedder>,
}

impl ReplayEmbedder {
    fn set(&self, mode: EmbedderMode) {
        let value = match mode {
            EmbedderMode::Normal => 0,
            EmbedderMode::Slow => 1,
            EmbedderMode::Failing => 2,
        };
        self.mode.store(value, std::sync::atomic::Ordering::SeqCst);
    }
}

impl agent_memory::Embedder for ReplayEmbedder {
    fn model_id(&self) -> &str {
        self.inner.model_id()
    }

    fn understands_meaning(&self) -> bool {
        self.inner.understands_meaning()
    }

    fn embed(&self, text: &str) -> Result<Vec<f32>, agent_memory::EmbedError> {
        match self.mode.load(std::sync::atomic::Ordering::SeqCst) {
            0 => {}
            1 => std::thread::sleep(std::time::Duration::from_secs(5)),
            _ => {
                return Err(agent_memory::EmbedError::Failed(
                    "the replay embedder is set to fail".into(),
                ));
            }
        }
        self.inner.embed(text)
    }
}

fn bad_body() -> ApiError {
    ApiError::new(
        ErrorCode::ReplayBadLine,
        "the body of this world operation is invalid",
    )
}

/// `409 REPLAY_DUPLICATE_ID`: the script's ids are unique across it (see `docs/replay.md`).
fn duplicate_id(message: &'static str) -> ApiError {
    ApiError::new(ErrorCode::ReplayDuplicateId, message)
}

fn parse_body<T: DeserializeOwned>(body: &Value) -> Result<T, ApiError> {
    serde_json::from_value(body.clone()).map_err(|_| bad_body())
}

fn workspace_id(s: &str) -> Result<WorkspaceId, ApiError> {
    WorkspaceId::new(s).map_err(|_| bad_body())
}

fn purged(p: agent_memory::PurgedResponse) -> Value {
    json!({ "purged": p.purged })
}

impl Replay {
    /// A fresh world over `backend`, the clock at the format's start instant, `embedder` as
    /// the `normal` embedder, recall ranking the candidates of `window`.
    pub(crate) fn new(
        backend: Arc<dyn Storage>,
        embedder: Arc<dyn agent_memory::Embedder>,
        window: agent_memory::CandidateWindow,
    ) -> anyhow::Result<Self> {
        let start = Timestamp::parse(START).expect("the start instant is valid RFC 3339");
        let clock = Arc::new(ManualClock::new(start));
        let passages = Arc::new(InMemoryPassageSource::new());
        let embedder = Arc::new(ReplayEmbedder {
            mode: Default::default(),
            inner: embedder,
        });
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
            service: Arc::new(service),
            stores: Arc::new(stores),
            clock,
            passages,
            aliases: HashMap::new(),
            embedder,
            #[cfg(test)]
            http: None,
        })
    }

    /// From now on, the operations that have a REST route go through `agent-memory-http`'s
    /// router on a loopback port, over the same services.
    #[cfg(test)]
    pub(crate) fn serve_over_http(&mut self) {
        self.http = Some(http::HttpTransport::start(
            self.service.clone(),
            self.stores.clone(),
        ));
    }

    /// How many requests each operation sent over HTTP (none in process).
    #[cfg(test)]
    pub(crate) fn served_over_http(&self) -> std::collections::BTreeMap<&'static str, usize> {
        self.http.as_ref().map(|h| h.served()).unwrap_or_default()
    }

    /// Runs every line of `input`, writing one output line per non-blank, non-comment line.
    pub(crate) fn run(
        &mut self,
        input: impl BufRead,
        mut output: impl Write,
    ) -> anyhow::Result<bool> {
        let mut all_executed = true;
        // Lines are read as bytes: a line that is not UTF-8 is a bad line like one that is not
        // JSON (it gets its answer and the run goes on), not the end of the run.
        for (number, line) in input.split(b'\n').enumerate() {
            let line = line.with_context(|| format!("reading line {}", number + 1))?;
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
            writeln!(output, "{out}")?;
        }
        output.flush()?;
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
                    passage: citation_verify::Passage,
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
                self.service
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
                self.service
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
                self.service
                    .purge_expired(&workspace_id(&b.workspace)?)
                    .map(purged)
            }

            // Agent operations (`as` = credential), through the facade's JSON edge.
            "remember" | "recall" | "list" | "forget" => {
                let caller = self.agent(actor);
                self.json_call(op, json::Caller::Agent(&caller), body)
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
                to_value(
                    &self
                        .service
                        .call_tool(&self.agent(actor), &b.tool, &arguments),
                )
            }

            // Member and owner operations (`as` = member), through the facade's JSON edge.
            "settings.get"
            | "settings.put"
            | "agentMemories.list"
            | "agentMemories.delete"
            | "agentMemories.deleteAll" => {
                let caller = self.member(actor)?;
                self.json_call(op, json::Caller::Member(&caller), body)
            }

            // Memory stores (`as` = member, API key or session).
            op if stores::STORE_OPS.contains(&op) => self.store_op(op, actor, body),
            _ => unreachable!("is_known admitted only the ops above"),
        }
    }

    /// One operation through `agent_memory::json`, the same entry point a REST host uses.
    fn json_call(
        &self,
        op: &str,
        caller: json::Caller<'_>,
        body: &Value,
    ) -> Result<Value, ApiError> {
        let operation = json::Operation::from_name(op)
            .unwrap_or_else(|| unreachable!("replay names only the facade's operations here"));
        #[cfg(test)]
        if let Some(answer) = self
            .http
            .as_ref()
            .and_then(|http| http.call(operation, caller, body))
        {
            return answer;
        }
        json::JsonApi::new(&self.service)
            .with_stores(&self.stores)
            .call(operation, caller, body)
    }

    fn agent(&self, actor: Option<&Value>) -> agent_memory::AgentCaller {
        match actor.and_then(Value::as_str) {
            Some(id) => self.world.agent_caller(id),
            None => agent_memory::AgentCaller::Unresolved,
        }
    }

    fn member(&self, actor: Option<&Value>) -> Result<agent_memory::MemberCaller, ApiError> {
        actor
            .and_then(Value::as_str)
            .and_then(|id| self.world.member_caller(id))
            .ok_or_else(|| ApiError::new(ErrorCode::MemberNotFound, "member not found"))
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
            self.service
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
        self.service.on_member_removed(&workspace, &id).map(purged)
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
        self.service.check_grant(member.role, &b.scopes)?;
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
    "remember",
    "recall",
    "list",
    "forget",
    "mcp.tools",
    "mcp.call",
    "settings.get",
    "settings.put",
    "agentMemories.list",
    "agentMemories.delete",
    "agentMemories.deleteAll",
];

fn is_known(op: &str) -> bool {
    KNOWN_OPS.contains(&op) || stores::STORE_OPS.contains(&op)
}

/// `{"status": s, "error": {...}}` with the error body's fields.
fn error_line(err: &ApiError) -> String {
    let body = serde_json::to_value(err).unwrap_or_else(|_| json!({}));
    format!(
        "{{\"status\":{},\"error\":{}}}",
        err.http_status(),
        body["error"]
    )
}

/// A response body as JSON.
fn to_value<T: serde::Serialize>(response: &T) -> Result<Value, ApiError> {
    serde_json::to_value(response).map_err(|_| {
        ApiError::new(
            ErrorCode::InternalError,
            "a response could not be serialized",
        )
    })
}
