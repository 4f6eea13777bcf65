//! The local commands — `remember`, `recall`, `list`, `forget`, `settings`, `purge`, `export`
//! and `passage put` — acting as the credential and owner `init` created. Each builds the REST
//! body, calls the facade, and prints a human summary or, with `--json`, the response exactly.

use std::io::{Read, Write};

use agent_memory::{
    ApiError, Entity, ErrorCode, ForgetRequest, ListRequest, ListResponse, MemoryView, Passage,
    Ranker, RecallRequest, RecallResponse, RememberRequest, RememberResponse, SettingsPatch,
    Timestamp,
};
use anyhow::Context;
use serde::Serialize;
use serde_json::Value;

use crate::embedder::{EmbedderArgs, WindowArgs};
use crate::local::Local;
use crate::output::{JsonFlag, emit};

/// Arguments of `agent-memory remember`.
#[derive(Debug, clap::Args)]
pub(crate) struct RememberArgs {
    /// The note (1–1,000 characters; personal data in it is masked before it is stored); `-`
    /// reads it from standard input.
    text: String,
    /// The namespace (1–64 characters; must not contain personal data).
    #[arg(long, short, default_value = "notes")]
    namespace: String,
    /// A key: remembering under a key that has a current version supersedes it.
    #[arg(long, short)]
    key: Option<String>,
    /// The collection the memory is anchored in.
    #[arg(long)]
    collection: Option<String>,
    /// A passage the memory cites (repeatable); see `agent-memory passage put`.
    #[arg(long = "cite", value_name = "PASSAGE_ID")]
    citations: Vec<String>,
    #[command(flatten)]
    pub(crate) embedder: EmbedderArgs,
    #[command(flatten)]
    out: JsonFlag,
}

/// Arguments of `agent-memory recall`.
#[derive(Debug, clap::Args)]
pub(crate) struct RecallArgs {
    /// What to look for (1–1,000 characters; masked before any ranker sees it).
    query: String,
    /// Only this namespace.
    #[arg(long, short)]
    namespace: Option<String>,
    /// Only memories anchored in this collection.
    #[arg(long)]
    collection: Option<String>,
    /// Read the memories as they were at this RFC 3339 instant.
    #[arg(long)]
    as_of: Option<String>,
    /// Only memories created after this RFC 3339 instant (`createdAfter`).
    #[arg(long)]
    after: Option<String>,
    /// Only memories created before this RFC 3339 instant (`createdBefore`).
    #[arg(long)]
    before: Option<String>,
    /// How many memories (1–50, default 10).
    #[arg(long)]
    limit: Option<u64>,
    #[command(flatten)]
    pub(crate) embedder: EmbedderArgs,
    #[command(flatten)]
    pub(crate) window: WindowArgs,
    /// Also print what recall looked for: the query's terms as BM25 matches them (masked,
    /// function words dropped, words stemmed), the candidate window and the ranker weights.
    #[arg(long, short)]
    verbose: bool,
    #[command(flatten)]
    out: JsonFlag,
}

/// Arguments of `agent-memory list`.
#[derive(Debug, clap::Args)]
pub(crate) struct ListArgs {
    /// Only this namespace.
    #[arg(long, short)]
    namespace: Option<String>,
    /// Only this key (every version valid at `--as-of`).
    #[arg(long, short)]
    key: Option<String>,
    /// Only memories anchored in this collection.
    #[arg(long)]
    collection: Option<String>,
    /// List the memories as they were at this RFC 3339 instant.
    #[arg(long)]
    as_of: Option<String>,
    /// Only memories created after this RFC 3339 instant (`createdAfter`).
    #[arg(long)]
    after: Option<String>,
    /// Only memories created before this RFC 3339 instant (`createdBefore`).
    #[arg(long)]
    before: Option<String>,
    /// Page size (1–100, default 20).
    #[arg(long)]
    limit: Option<u64>,
    /// The `nextCursor` of the previous page.
    #[arg(long)]
    cursor: Option<String>,
    #[command(flatten)]
    out: JsonFlag,
}

/// Arguments of `agent-memory forget`.
#[derive(Debug, clap::Args)]
pub(crate) struct ForgetArgs {
    /// The memory's id (a keyed memory's whole key is forgotten).
    id: Option<String>,
    /// With `--key`: forget every version of this namespace's key.
    #[arg(long, short)]
    namespace: Option<String>,
    /// With `--namespace`: the key to forget.
    #[arg(long, short)]
    key: Option<String>,
    #[command(flatten)]
    out: JsonFlag,
}

/// Arguments of `agent-memory settings`.
#[derive(Debug, clap::Args)]
pub(crate) struct SettingsArgs {
    /// Turn agent memories on.
    #[arg(long, conflicts_with = "disable")]
    enable: bool,
    /// Turn agent memories off (stored memories stay, agents are refused).
    #[arg(long)]
    disable: bool,
    /// Keep memory versions this many days (1–365); a shorter retention purges at once.
    #[arg(long)]
    retention_days: Option<u64>,
    #[command(flatten)]
    out: JsonFlag,
}

/// Arguments of `agent-memory purge`.
#[derive(Debug, clap::Args)]
pub(crate) struct PurgeArgs {
    /// Delete every agent memory of the workspace (the owner's delete-all), not only the
    /// expired versions.
    #[arg(long)]
    all: bool,
    #[command(flatten)]
    out: JsonFlag,
}

/// Arguments of `agent-memory passage`.
#[derive(Debug, clap::Args)]
pub(crate) struct PassageArgs {
    #[command(subcommand)]
    command: PassageCommand,
}

#[derive(Debug, clap::Subcommand)]
enum PassageCommand {
    /// Insert or replace (by id) a passage that memories can cite with `remember --cite`.
    ///
    /// Replacing a cited passage's text or version makes the memories citing it
    /// `sourceState: changed`.
    Put {
        /// The passage id.
        #[arg(long)]
        id: String,
        /// Its document.
        #[arg(long)]
        document: String,
        /// The document's collection.
        #[arg(long)]
        collection: String,
        /// The document's version.
        #[arg(long, default_value_t = 1)]
        version: u64,
        /// The passage body.
        #[arg(long)]
        text: String,
        /// An entity the passage mentions (repeatable); recall's entity ranker matches its name
        /// in queries.
        #[arg(long = "entity", value_name = "NAME")]
        entities: Vec<String>,
    },
    /// Print a passage as JSON (`id`, `documentId`, `collectionId`, `documentVersion`, `text`,
    /// `entities`).
    Get {
        /// The passage id.
        #[arg(long)]
        id: String,
    },
    /// List the passages in id order: one line each, or with --json one JSON object a line.
    List {
        #[command(flatten)]
        out: JsonFlag,
    },
    /// Delete a passage: the memories citing it are hidden from then on.
    Delete {
        /// The passage id.
        #[arg(long)]
        id: String,
    },
}

/// `namespace/key`, or the namespace alone for a keyless memory.
fn label(view: &MemoryView) -> String {
    match &view.key {
        Some(key) => format!("{}/{key}", view.namespace),
        None => view.namespace.clone(),
    }
}

/// The lines every human view shows: id, label, version, state, creation and text.
fn write_view(out: &mut dyn Write, view: &MemoryView) -> std::io::Result<()> {
    write!(
        out,
        "{}  {} v{}  [{}]  created {}",
        view.id,
        label(view),
        view.version,
        view.source_state.as_str(),
        view.created_at
    )?;
    if let Some(at) = view.superseded_at {
        write!(out, ", superseded {at}")?;
    }
    writeln!(out)?;
    for c in &view.citations {
        writeln!(
            out,
            "    cites {} (document {} v{}, collection {})",
            c.passage_id, c.document_id, c.document_version, c.collection_id
        )?;
    }
    writeln!(out, "    {}", view.text)
}

/// `masked` as `email ×1, phone ×2`, or `nothing`.
pub(crate) fn masked_summary(masked: &impl Serialize) -> String {
    let counts = match serde_json::to_value(masked) {
        Ok(Value::Object(map)) if !map.is_empty() => map,
        _ => return "nothing".to_owned(),
    };
    counts
        .iter()
        .map(|(category, n)| format!("{category} ×{n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(crate) fn write_remembered(
    out: &mut dyn Write,
    response: &RememberResponse,
) -> std::io::Result<()> {
    let view = &response.memory;
    writeln!(
        out,
        "remembered {} in {} (version {})",
        view.id,
        label(view),
        view.version
    )?;
    if response.superseded {
        writeln!(out, "  superseded: the key's previous version")?;
    }
    writeln!(out, "  masked: {}", masked_summary(&response.masked))?;
    for c in &view.citations {
        writeln!(
            out,
            "  cites {} (document {} v{})",
            c.passage_id, c.document_id, c.document_version
        )?;
    }
    writeln!(out, "  stored text: {}", view.text)
}

fn rank(r: Option<u32>) -> String {
    r.map_or_else(|| "-".to_owned(), |r| r.to_string())
}

pub(crate) fn write_recalled(
    out: &mut dyn Write,
    response: &RecallResponse,
) -> std::io::Result<()> {
    writeln!(
        out,
        "{} {} (considered {}, hidden {}{})",
        response.memories.len(),
        if response.memories.len() == 1 {
            "memory"
        } else {
            "memories"
        },
        response.considered,
        response.hidden,
        if response.semantic_skipped {
            ", semantic ranker skipped"
        } else {
            ""
        }
    )?;
    if let Some(period) = &response.period {
        writeln!(
            out,
            "period named by the query: from {} to {} (the time ranker's)",
            period.from, period.to
        )?;
    }
    for (i, m) in response.memories.iter().enumerate() {
        let view = &m.view;
        // The time ranker is shown when the query named a period.
        let ranks: Vec<String> = m
            .ranks
            .iter()
            .filter(|(ranker, _)| *ranker != Ranker::Time || response.period.is_some())
            .map(|(ranker, r)| format!("{} {}", ranker.name(), rank(r)))
            .collect();
        writeln!(
            out,
            "#{}  score {:.4}  ranks: {}  [{}]",
            i + 1,
            m.score,
            ranks.join(", "),
            view.source_state.as_str()
        )?;
        writeln!(out, "    {}  {} v{}", view.id, label(view), view.version)?;
        if m.duplicates > 0 {
            writeln!(
                out,
                "    (also stands for {} identical earlier {})",
                m.duplicates,
                if m.duplicates == 1 { "note" } else { "notes" }
            )?;
        }
        writeln!(out, "    {}", view.text)?;
    }
    Ok(())
}

pub(crate) fn write_listed(out: &mut dyn Write, response: &ListResponse) -> std::io::Result<()> {
    if response.memories.is_empty() {
        writeln!(out, "no memories")?;
    }
    for view in &response.memories {
        write_view(out, view)?;
    }
    if response.hidden > 0 {
        writeln!(
            out,
            "({} hidden: a cited source is gone; `agent-memory export` shows them)",
            response.hidden
        )?;
    }
    if let Some(cursor) = &response.next_cursor {
        writeln!(out, "more: --cursor {cursor}")?;
    }
    Ok(())
}

fn versions(n: u64) -> &'static str {
    if n == 1 { "version" } else { "versions" }
}

/// Reads `text`, or all of standard input when it is `-` (without its final line break).
fn text_or_stdin(text: String) -> anyhow::Result<String> {
    if text != "-" {
        return Ok(text);
    }
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .context("reading the text from standard input (is it UTF-8?)")?;
    Ok(input.trim_end_matches(['\n', '\r']).to_owned())
}

pub(crate) fn remember(
    local: &Local,
    args: RememberArgs,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let mut request =
        RememberRequest::new(args.namespace, text_or_stdin(args.text)?).citations(args.citations);
    if let Some(key) = args.key {
        request = request.key(key);
    }
    if let Some(collection) = args.collection {
        request = request.collection_id(collection);
    }
    let result = local.service.remember(&local.agent(), &request);
    emit(out, args.out, result, write_remembered)
}

/// `--as-of` as the facade reads `asOf`: an RFC 3339 timestamp, or the same 400 it answers.
fn as_of(value: Option<&str>) -> Result<Option<Timestamp>, ApiError> {
    instant(value, "asOf must be an RFC 3339 timestamp")
}

/// An instant flag (`--as-of`, `--after`, `--before`) read as the facade reads its field:
/// an RFC 3339 timestamp, or the 400 with the field's message.
fn instant(value: Option<&str>, message: &'static str) -> Result<Option<Timestamp>, ApiError> {
    value
        .map(|v| {
            Timestamp::parse(v)
                .map_err(|_| ApiError::new(ErrorCode::AgentMemoryInvalidRequest, message))
        })
        .transpose()
}

/// `--after` and `--before` as `createdAfter` and `createdBefore`.
fn period(
    after: Option<&str>,
    before: Option<&str>,
) -> Result<(Option<Timestamp>, Option<Timestamp>), ApiError> {
    Ok((
        instant(after, "createdAfter must be an RFC 3339 timestamp")?,
        instant(before, "createdBefore must be an RFC 3339 timestamp")?,
    ))
}

/// A count from the command line; one beyond `usize` is out of every bound the facade checks.
fn count(value: u64) -> usize {
    usize::try_from(value).unwrap_or(usize::MAX)
}

pub(crate) fn recall(local: &Local, args: RecallArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    if args.verbose && !args.out.json {
        let terms = local.service.analyzed_query(&args.query);
        let w = local.service.weights();
        writeln!(
            out,
            "query terms: {}",
            if terms.is_empty() {
                "(none: BM25 sits out)".to_owned()
            } else {
                terms.join(" ")
            }
        )?;
        writeln!(
            out,
            "window: {}; weights: bm25 {}, semantic {}, entity {}",
            local.service.candidate_window(),
            w.bm25,
            w.semantic,
            w.entity
        )?;
    }
    let result = (|| {
        let mut request = RecallRequest::new(args.query);
        if let Some(namespace) = args.namespace {
            request = request.namespace(namespace);
        }
        if let Some(collection) = args.collection {
            request = request.collection_id(collection);
        }
        if let Some(t) = as_of(args.as_of.as_deref())? {
            request = request.as_of(t);
        }
        let (after, before) = period(args.after.as_deref(), args.before.as_deref())?;
        request.created_after = after;
        request.created_before = before;
        if let Some(limit) = args.limit {
            request = request.limit(count(limit));
        }
        local.service.recall(&local.agent(), &request)
    })();
    emit(out, args.out, result, write_recalled)
}

pub(crate) fn list(local: &Local, args: ListArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let result = (|| {
        let mut request = ListRequest::new();
        if let Some(namespace) = args.namespace {
            request = request.namespace(namespace);
        }
        if let Some(key) = args.key {
            request = request.key(key);
        }
        if let Some(collection) = args.collection {
            request = request.collection_id(collection);
        }
        if let Some(t) = as_of(args.as_of.as_deref())? {
            request = request.as_of(t);
        }
        let (after, before) = period(args.after.as_deref(), args.before.as_deref())?;
        request.created_after = after;
        request.created_before = before;
        if let Some(limit) = args.limit {
            request = request.limit(count(limit));
        }
        if let Some(cursor) = args.cursor {
            request = request.cursor(cursor);
        }
        local.service.list(&local.agent(), &request)
    })();
    emit(out, args.out, result, write_listed)
}

pub(crate) fn forget(local: &Local, args: ForgetArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let request = match (args.id, args.namespace, args.key) {
        (Some(id), None, None) => Ok(ForgetRequest::by_id(id)),
        (None, Some(namespace), Some(key)) => Ok(ForgetRequest::by_key(namespace, key)),
        // The facade's answer to a body with both forms, or half of one.
        _ => Err(ApiError::new(
            ErrorCode::AgentMemoryInvalidRequest,
            "send either memoryId, or namespace and key",
        )),
    };
    let result = request.and_then(|r| local.service.forget(&local.agent(), &r));
    emit(out, args.out, result, |out, r| {
        writeln!(out, "forgot {} {}", r.deleted, versions(r.deleted))
    })
}

pub(crate) fn settings(
    local: &Local,
    args: SettingsArgs,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let mut patch = SettingsPatch::default();
    if args.enable || args.disable {
        patch = patch.agent_memories_enabled(args.enable);
    }
    if let Some(days) = args.retention_days {
        patch = patch.retention_days(u16::try_from(days).unwrap_or(u16::MAX));
    }
    let owner = local.owner();
    let result = if patch == SettingsPatch::default() {
        local.service.settings_get(&owner)
    } else {
        local.service.settings_put(&owner, &patch)
    };
    emit(out, args.out, result, |out, s| {
        let state = if s.agent_memories_enabled {
            "enabled"
        } else {
            "disabled"
        };
        writeln!(out, "agent memories: {state}")?;
        writeln!(out, "retention: {} days", s.retention_days)
    })
}

pub(crate) fn purge(local: &Local, args: PurgeArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    if args.all {
        let result = local.service.owner_delete_all(&local.owner());
        emit(out, args.out, result, |out, r| {
            writeln!(
                out,
                "deleted {} {} (every agent memory of the workspace)",
                r.deleted,
                versions(r.deleted)
            )
        })
    } else {
        let result = local.service.purge_expired(&local.owner().workspace);
        emit(out, args.out, result, |out, r| {
            writeln!(out, "purged {} expired {}", r.purged, versions(r.purged))
        })
    }
}

/// `export`: every current memory of the member, hidden ones included as `unavailable`, one
/// MemoryView JSON per line, newest first.
pub(crate) fn passage(local: &Local, args: PassageArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    match args.command {
        PassageCommand::Put {
            id,
            document,
            collection,
            version,
            text,
            entities,
        } => {
            let mut passage = Passage::new(&id, &document, &collection, version, text);
            passage.entities = entities
                .into_iter()
                .map(|name| Entity::new(name.clone(), name))
                .collect();
            local.put_passage(passage)?;
            writeln!(
                out,
                "passage {id} stored (document {document} v{version}, collection {collection})"
            )?;
        }
        PassageCommand::Get { id } => match local.get_passage(&id)? {
            Some(passage) => writeln!(out, "{}", serde_json::to_string(&passage)?)?,
            None => anyhow::bail!("no passage {id} in this home"),
        },
        PassageCommand::List { out: flag } => {
            let mut after: Option<String> = None;
            loop {
                let page = local.list_passages(after.as_deref(), 100)?;
                for passage in &page {
                    if flag.json {
                        writeln!(out, "{}", serde_json::to_string(passage)?)?;
                    } else {
                        writeln!(
                            out,
                            "{} (document {} v{}, collection {})",
                            passage.id,
                            passage.document_id,
                            passage.document_version,
                            passage.collection_id
                        )?;
                    }
                }
                match page.last() {
                    Some(last) if page.len() == 100 => after = Some(last.id.clone()),
                    _ => break,
                }
            }
        }
        PassageCommand::Delete { id } => {
            if !local.delete_passage(&id)? {
                anyhow::bail!("no passage {id} in this home");
            }
            writeln!(out, "passage {id} deleted")?;
        }
    }
    Ok(())
}
