//! The command set of Anthropic's client-side memory tool (`memory_20250818`: `view`, `create`,
//! `str_replace`, `insert`, `delete`, `rename`) over a session's mounts, answering the tool's
//! documented result texts.
//!
//! `/memories` lists the mounts; `/memories/<slug>/…` and `/mnt/memory/<slug>/…` name the same
//! mount. Directories are implicit: a directory exists while a memory lies under it.
//!
//! # Errors
//!
//! Every failure of this operation is `400 MEMORY_TOOL_ERROR` (a storage failure stays `500
//! INTERNAL_ERROR`: it is not the tool's answer but the host's problem). The tool's documented
//! error texts quote the agent's own input — paths and `old_str` — and paths may hold personal
//! data, so they never go into an [`ApiError`] message, which is `'static`, ends up in logs and
//! must carry no request content. Instead:
//!
//! - the `ApiError` message is a fixed text: the documented error text with its placeholders
//!   left out ("The path does not exist. Please provide a valid path."), or the underlying
//!   refusal's own message (read-only mount, archived store, too large, personal data);
//! - [`StoreService::memory_tool_call`] also returns the full documented text, placeholders
//!   filled in, as [`MemoryToolFailure::text`], for a host to hand back to the model as the
//!   `tool_result` content. It quotes only what the agent sent (never stored content it did not
//!   send) and is neither traced nor logged by the library.
//!
//! Texts of failures the documentation does not cover (a traversal attempt, a mount root, a
//! rename across mounts) follow the documented ones' style.
//!
//! # Writes
//!
//! `str_replace` and `insert` read the file, edit it and write it back with a `content_sha256`
//! precondition on what they read, retrying on a concurrent change, so no edit is lost. `create`
//! refuses an existing file (the reference behaviour). `delete` and `rename` of a directory act on
//! each memory under it in turn: not atomic as a whole — a concurrent writer can see a
//! half-renamed directory, and a failure part-way leaves the memories done so far renamed.

use memory_core::session::{Access, MemoryStoreResource, TextAnswer};
use memory_core::{ApiError, ErrorCode, Precondition, Session, StoreMemoryMetadata, StorePath};
use serde::Deserialize;
use serde_json::Value;
use store_trait::MemoryChange;

use super::fs::read_only;
use super::mounts::{Roots, Target, resolve};
use super::tool_text::{
    Tree, display_path, insert_after, line_at, lines_of, listing, numbered, occurrences, view_file,
};
use crate::ops;
use crate::service::{StoreService, check_path, internal, trace_op};
use agent_memory_ops::caller::SessionCaller;
use agent_memory_ops::ops::{Body, Operation, ToolInput};

/// Attempts of a read-edit-write before a concurrent writer wins for good.
const EDIT_ATTEMPTS: usize = 8;

/// An edit of a file's content: the new content and the command's answer, or the tool failure.
type Edit<'a> = &'a dyn Fn(&str) -> Result<(String, String), MemoryToolFailure>;

/// Lines of context around an edit in the `str_replace` snippet.
const SNIPPET_CONTEXT: usize = 4;

/// A failed memory-tool command: the `400 MEMORY_TOOL_ERROR` (or `500`) answer, and the tool's
/// full error text for the model. `Debug` shows the error only: the text quotes agent input.
#[derive(Clone, PartialEq, Eq)]
pub struct MemoryToolFailure {
    error: ApiError,
    text: String,
}

impl MemoryToolFailure {
    /// The API error (`MEMORY_TOOL_ERROR` with a fixed message, or `INTERNAL_ERROR`).
    pub fn api_error(&self) -> &ApiError {
        &self.error
    }

    /// The tool's error text with its placeholders filled in (paths, `old_str`, line numbers),
    /// for the model's `tool_result`; may hold personal data the agent sent, so do not log it.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The API error alone.
    pub fn into_api_error(self) -> ApiError {
        self.error
    }
}

impl std::fmt::Debug for MemoryToolFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemoryToolFailure")
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}

impl std::fmt::Display for MemoryToolFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.error, f)
    }
}

impl std::error::Error for MemoryToolFailure {}

fn fail(message: &'static str, text: String) -> MemoryToolFailure {
    MemoryToolFailure {
        error: ApiError::new(ErrorCode::MemoryToolError, message),
        text,
    }
}

/// A refusal of the layers below, as a tool failure about `path`.
fn from_api(err: ApiError, path: &str) -> MemoryToolFailure {
    if err.code() == ErrorCode::InternalError {
        let text = format!("Error: {}", err.message());
        return MemoryToolFailure { error: err, text };
    }
    let message = static_message(&err);
    MemoryToolFailure {
        error: ApiError::new(ErrorCode::MemoryToolError, message),
        text: format!("Error: {path}: {message}"),
    }
}

/// The fixed message of a refusal from below. Every message the layers below make is `'static`
/// and content-free, but `ApiError::message` only lends it; the known codes are re-stated here.
fn static_message(err: &ApiError) -> &'static str {
    match err.code() {
        ErrorCode::MemoryStoreReadOnly => "the memory store is mounted read-only",
        ErrorCode::MemoryStoreArchived => "the memory store is archived",
        ErrorCode::MemoryStoreNotFound => "the memory store behind this mount no longer exists",
        ErrorCode::MemoryTooLarge => "the content would be larger than 102400 bytes",
        ErrorCode::MemoryPersonalData => "the store refuses content with personal data",
        ErrorCode::MemoryPathPersonalData => {
            "the store refuses paths with personal data; choose a path without it"
        }
        ErrorCode::MemoryPreconditionFailed => {
            "the file kept changing while it was being edited; try again"
        }
        ErrorCode::MemoryPathConflict => {
            "a file already has this path, or a path above or under it"
        }
        ErrorCode::MemoryNotFound => "the file no longer exists",
        ErrorCode::SessionNotFound => "session not found",
        ErrorCode::MemoryPathInvalid => "the path is not valid",
        other => other.default_message(),
    }
}

fn does_not_exist_valid(path: &str) -> MemoryToolFailure {
    fail(
        "The path does not exist. Please provide a valid path.",
        format!("The path {path} does not exist. Please provide a valid path."),
    )
}

fn error_does_not_exist_valid(path: &str) -> MemoryToolFailure {
    fail(
        "Error: The path does not exist. Please provide a valid path.",
        format!("Error: The path {path} does not exist. Please provide a valid path."),
    )
}

fn error_does_not_exist(path: &str) -> MemoryToolFailure {
    fail(
        "Error: The path does not exist",
        format!("Error: The path {path} does not exist"),
    )
}

fn invalid_path(path: &str) -> MemoryToolFailure {
    let reason = path_reason(path);
    fail(
        "Error: The path is not valid (it must lie inside one of the session's mounts)",
        format!("Error: The path {path} is not valid: {reason}"),
    )
}

/// Why a path does not resolve, without quoting it.
fn path_reason(path: &str) -> &'static str {
    let inner = path
        .strip_prefix("/memories/")
        .or_else(|| path.strip_prefix("/mnt/memory/"))
        .and_then(|rest| rest.split_once('/'))
        .map(|(_, inner)| format!("/{inner}"));
    match inner.map(|p| StorePath::check(&p)) {
        Some(Err(rejection)) => rejection.message(),
        _ => "it does not lie inside a mount of this session (/memories/<mount>/…)",
    }
}

/// The tool's input: `command` and the command's own fields; anything else is refused.
#[derive(Deserialize)]
#[serde(tag = "command", rename_all = "snake_case")]
enum Command {
    View(ViewInput),
    Create(CreateInput),
    StrReplace(StrReplaceInput),
    Insert(InsertInput),
    Delete(DeleteInput),
    Rename(RenameInput),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ViewInput {
    path: String,
    #[serde(default, deserialize_with = "lenient_range")]
    view_range: Option<Vec<i64>>,
}

/// An integer of the tool's input as sent: a JSON integer, or a string holding one (some
/// clients send integers as strings, whatever the schema says). One rule for every caller —
/// MCP, replay, a host's own adapter — so that the same input gets the same answer everywhere.
#[derive(Deserialize)]
#[serde(untagged)]
enum LenientInteger {
    Integer(i64),
    Text(String),
}

impl LenientInteger {
    fn value<E: serde::de::Error>(self) -> Result<i64, E> {
        match self {
            LenientInteger::Integer(n) => Ok(n),
            LenientInteger::Text(s) => s.trim().parse().map_err(|_| E::custom("not an integer")),
        }
    }
}

/// `insert_line`: an integer or a numeric string (see [`LenientInteger`]).
fn lenient_integer<'de, D: serde::Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    LenientInteger::deserialize(d)?.value()
}

/// `view_range`: integers or numeric strings (see [`LenientInteger`]).
fn lenient_range<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Vec<i64>>, D::Error> {
    Option::<Vec<LenientInteger>>::deserialize(d)?
        .map(|items| items.into_iter().map(LenientInteger::value).collect())
        .transpose()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateInput {
    path: String,
    file_text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StrReplaceInput {
    path: String,
    old_str: String,
    #[serde(default)]
    new_str: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InsertInput {
    path: String,
    #[serde(deserialize_with = "lenient_integer")]
    insert_line: i64,
    insert_text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DeleteInput {
    path: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RenameInput {
    old_path: String,
    new_path: String,
}

impl Command {
    fn name(&self) -> &'static str {
        match self {
            Command::View(_) => "view",
            Command::Create(_) => "create",
            Command::StrReplace(_) => "str_replace",
            Command::Insert(_) => "insert",
            Command::Delete(_) => "delete",
            Command::Rename(_) => "rename",
        }
    }
}

fn parse_command(body: &Value) -> Result<Command, MemoryToolFailure> {
    const MESSAGE: &str = "Error: The input is not a memory tool command (command must be view, create, str_replace, insert, delete or rename, with that command's fields only)";
    if !body.is_object() {
        return Err(fail(MESSAGE, MESSAGE.to_owned()));
    }
    serde_json::from_value(body.clone()).map_err(|_| fail(MESSAGE, MESSAGE.to_owned()))
}

// ---------------------------------------------------------------------------------------------
// The commands

impl StoreService {
    /// `memory_tool {command, …}` → `{"text": …}` with the tool's documented result text; every
    /// failure is `400 MEMORY_TOOL_ERROR` (see the module docs for what the message carries).
    pub fn memory_tool(&self, s: &SessionCaller, body: &Value) -> Result<TextAnswer, ApiError> {
        let input = ToolInput(body.clone());
        ops::MemoryTool::run(self, s, Body::Typed(&input))
    }

    /// Like [`Self::memory_tool`], but a failure also carries the tool's full error text for the
    /// model ([`MemoryToolFailure::text`]).
    pub fn memory_tool_call(
        &self,
        s: &SessionCaller,
        body: &Value,
    ) -> Result<TextAnswer, MemoryToolFailure> {
        let command = parse_command(body);
        let name = command.as_ref().map_or("invalid", Command::name);
        let result = command.and_then(|c| self.run_command(s, c));
        let traced = result.as_ref().map_err(|f| f.error.clone());
        trace_op("memory_tool", &s.workspace, &traced, |t| {
            tracing::info!(
                op = "memory_tool",
                command = name,
                session_id = s.session.as_str(),
                chars = t.len()
            );
        });
        result.map(|text| TextAnswer { text })
    }

    fn run_command(
        &self,
        s: &SessionCaller,
        command: Command,
    ) -> Result<String, MemoryToolFailure> {
        let session = self
            .load_session(&s.workspace, &s.session)
            .map_err(|e| from_api(e, "the session"))?;
        match command {
            Command::View(i) => self.tool_view(s, &session, &i.path, i.view_range.as_deref()),
            Command::Create(i) => self.tool_create(s, &session, &i.path, i.file_text),
            Command::StrReplace(i) => self.tool_str_replace(
                s,
                &session,
                &i.path,
                &i.old_str,
                i.new_str.as_deref().unwrap_or(""),
            ),
            Command::Insert(i) => {
                self.tool_insert(s, &session, &i.path, i.insert_line, &i.insert_text)
            }
            Command::Delete(i) => self.tool_delete(s, &session, &i.path),
            Command::Rename(i) => self.tool_rename(s, &session, &i.old_path, &i.new_path),
        }
    }

    fn tool_target(
        &self,
        session: &Session,
        path: &str,
        directory: bool,
    ) -> Result<Target, MemoryToolFailure> {
        resolve(session, path, Roots::MountAndTool, directory).map_err(|_| invalid_path(path))
    }

    /// The mount's memories as a tree relative to `base`; a deleted store reads as empty.
    fn tree_of(
        &self,
        s: &SessionCaller,
        mount: &MemoryStoreResource,
        base: Option<&StorePath>,
        path: &str,
    ) -> Result<Tree, MemoryToolFailure> {
        let memories = self
            .memories_under(s, mount, base)
            .map_err(|e| from_api(e, path))?;
        Ok(Tree::of(
            &memories,
            base.map_or(0, |b| b.segments().count()),
        ))
    }

    fn tool_view(
        &self,
        s: &SessionCaller,
        session: &Session,
        path: &str,
        view_range: Option<&[i64]>,
    ) -> Result<String, MemoryToolFailure> {
        let display = display_path(path);
        match self.tool_target(session, path, true)? {
            Target::Mounts => {
                let mut root = Tree::default();
                for mount in session.memory_stores() {
                    let tree = self.tree_of(s, mount, None, path)?;
                    root.size += tree.size;
                    root.children.insert(mount.slug().to_owned(), tree);
                }
                Ok(listing(display, &root))
            }
            Target::MountRoot(mount) => {
                self.mounted_store(s, &mount)
                    .map_err(|e| from_api(e, path))?;
                Ok(listing(display, &self.tree_of(s, &mount, None, path)?))
            }
            Target::Inside(mount, inner) => {
                self.mounted_store(s, &mount)
                    .map_err(|e| from_api(e, path))?;
                if let Some(file) = self
                    .memory_at(s, &mount, &inner)
                    .map_err(|e| from_api(e, path))?
                {
                    return Ok(view_file(path, &file.content, view_range));
                }
                let tree = self.tree_of(s, &mount, Some(&inner), path)?;
                if tree.children.is_empty() {
                    return Err(does_not_exist_valid(path));
                }
                Ok(listing(display, &tree))
            }
        }
    }

    /// The file at `path` (a memory inside a mount) for an edit, with its mount.
    fn tool_file(
        &self,
        s: &SessionCaller,
        session: &Session,
        path: &str,
        missing: fn(&str) -> MemoryToolFailure,
    ) -> Result<(MemoryStoreResource, StorePath), MemoryToolFailure> {
        match self.tool_target(session, path, false)? {
            Target::Inside(mount, inner) => {
                if mount.access == Access::ReadOnly {
                    return Err(from_api(read_only(), path));
                }
                let store = self
                    .mounted_store(s, &mount)
                    .map_err(|e| from_api(e, path))?;
                // An edit stores the file's path again: the same rule as a create.
                check_path(Some(store.pii_policy), &inner).map_err(|e| from_api(e, path))?;
                Ok((mount, inner))
            }
            Target::Mounts | Target::MountRoot(_) => Err(missing(path)),
        }
    }

    fn tool_create(
        &self,
        s: &SessionCaller,
        session: &Session,
        path: &str,
        file_text: String,
    ) -> Result<String, MemoryToolFailure> {
        let exists = || {
            fail(
                "Error: File already exists",
                format!("Error: File {path} already exists"),
            )
        };
        let (mount, inner) = match self.tool_target(session, path, false)? {
            Target::Inside(mount, inner) => (mount, inner),
            Target::Mounts | Target::MountRoot(_) => return Err(exists()),
        };
        if mount.access == Access::ReadOnly {
            return Err(from_api(read_only(), path));
        }
        // A validation error: answered before the path is looked up.
        self.check_new_path(&s.workspace, &mount.memory_store_id, &inner)
            .map_err(|e| from_api(e, path))?;
        let taken = |this: &Self| -> Result<bool, MemoryToolFailure> {
            Ok(this
                .memory_at(s, &mount, &inner)
                .map_err(|e| from_api(e, path))?
                .is_some()
                || !this
                    .backend
                    .list_memories(
                        &s.workspace,
                        &mount.memory_store_id,
                        Some(inner.as_str()),
                        None,
                        1,
                    )
                    .map_err(|e| from_api(internal(e), path))?
                    .is_empty())
        };
        if taken(self)? {
            return Err(exists());
        }
        match self.create_memory(
            &s.workspace,
            &mount.memory_store_id,
            inner.clone(),
            file_text,
            s.actor(),
        ) {
            Ok(_) => Ok(format!("File created successfully at: {path}")),
            Err(e) if e.code() == ErrorCode::MemoryPathConflict => {
                if taken(self)? {
                    Err(exists())
                } else {
                    Err(fail(
                        "Error: A parent directory of the path is a file",
                        format!("Error: A parent directory of {path} is a file"),
                    ))
                }
            }
            Err(e) => Err(from_api(e, path)),
        }
    }

    /// Reads the file at `inner`, lets `edit` compute the new content, and writes it with a
    /// precondition on what was read; retries when another writer got in between.
    fn edit_file(
        &self,
        s: &SessionCaller,
        mount: &MemoryStoreResource,
        inner: &StorePath,
        path: &str,
        missing: fn(&str) -> MemoryToolFailure,
        edit: Edit<'_>,
    ) -> Result<String, MemoryToolFailure> {
        let mut last = None;
        for _ in 0..EDIT_ATTEMPTS {
            let Some(file) = self
                .memory_at(s, mount, inner)
                .map_err(|e| from_api(e, path))?
            else {
                return Err(missing(path));
            };
            let (content, answer) = edit(&file.content)?;
            match self.update_memory(
                &s.workspace,
                &mount.memory_store_id,
                &file.id,
                Some(content),
                None,
                Some(Precondition::ContentSha256 {
                    content_sha256: file.content_sha256.clone(),
                }),
                s.actor(),
            ) {
                Ok(_) => return Ok(answer),
                Err(e)
                    if matches!(
                        e.code(),
                        ErrorCode::MemoryPreconditionFailed | ErrorCode::MemoryNotFound
                    ) =>
                {
                    last = Some(e);
                }
                Err(e) => return Err(from_api(e, path)),
            }
        }
        Err(from_api(
            last.unwrap_or_else(|| ApiError::from(ErrorCode::MemoryPreconditionFailed)),
            path,
        ))
    }

    fn tool_str_replace(
        &self,
        s: &SessionCaller,
        session: &Session,
        path: &str,
        old_str: &str,
        new_str: &str,
    ) -> Result<String, MemoryToolFailure> {
        let (mount, inner) = self.tool_file(s, session, path, error_does_not_exist_valid)?;
        let edit = |content: &str| -> Result<(String, String), MemoryToolFailure> {
            let found = if old_str.is_empty() {
                Vec::new()
            } else {
                occurrences(content, old_str)
            };
            match found.as_slice() {
                [] => Err(fail(
                    "No replacement was performed, old_str did not appear verbatim in the file.",
                    format!(
                        "No replacement was performed, old_str `{old_str}` did not appear verbatim in {path}."
                    ),
                )),
                [at] => {
                    let mut updated = String::with_capacity(content.len() + new_str.len());
                    updated.push_str(&content[..*at]);
                    updated.push_str(new_str);
                    updated.push_str(&content[at + old_str.len()..]);
                    let first = line_at(&updated, *at);
                    let last = first + new_str.matches('\n').count();
                    let lines = lines_of(&updated);
                    let from = first.saturating_sub(SNIPPET_CONTEXT).max(1);
                    let to = (last + SNIPPET_CONTEXT).min(lines.len());
                    let snippet = if from <= to {
                        numbered(&lines[from - 1..to], from)
                    } else {
                        String::new()
                    };
                    Ok((
                        updated,
                        format!("The memory file has been edited.\n{snippet}"),
                    ))
                }
                many => {
                    let mut lines: Vec<usize> =
                        many.iter().map(|&at| line_at(content, at)).collect();
                    lines.dedup();
                    let list = lines
                        .iter()
                        .map(usize::to_string)
                        .collect::<Vec<_>>()
                        .join(", ");
                    Err(fail(
                        "No replacement was performed. Multiple occurrences of old_str. Please ensure it is unique",
                        format!(
                            "No replacement was performed. Multiple occurrences of old_str `{old_str}` in lines: {list}. Please ensure it is unique"
                        ),
                    ))
                }
            }
        };
        self.edit_file(s, &mount, &inner, path, error_does_not_exist_valid, &edit)
    }

    fn tool_insert(
        &self,
        s: &SessionCaller,
        session: &Session,
        path: &str,
        insert_line: i64,
        insert_text: &str,
    ) -> Result<String, MemoryToolFailure> {
        let (mount, inner) = self.tool_file(s, session, path, error_does_not_exist)?;
        let edit = |content: &str| -> Result<(String, String), MemoryToolFailure> {
            let n_lines = lines_of(content).len();
            usize::try_from(insert_line)
                .ok()
                .and_then(|after| insert_after(content, after, insert_text))
                .map(|updated| (updated, format!("The file {path} has been edited.")))
                .ok_or_else(|| {
                    fail(
                        "Error: Invalid `insert_line` parameter. It should be within the range of lines of the file",
                        format!(
                            "Error: Invalid `insert_line` parameter: {insert_line}. It should be within the range of lines of the file: [0, {n_lines}]"
                        ),
                    )
                })
        };
        self.edit_file(s, &mount, &inner, path, error_does_not_exist, &edit)
    }

    fn tool_delete(
        &self,
        s: &SessionCaller,
        session: &Session,
        path: &str,
    ) -> Result<String, MemoryToolFailure> {
        let (mount, inner) = match self.tool_target(session, path, true)? {
            Target::Inside(mount, inner) => (mount, inner),
            Target::Mounts | Target::MountRoot(_) => {
                return Err(fail(
                    "Error: The memory directory and its mounts cannot be deleted",
                    format!(
                        "Error: Cannot delete {path}: the memory directory and its mounts cannot be deleted"
                    ),
                ));
            }
        };
        if mount.access == Access::ReadOnly {
            return Err(from_api(read_only(), path));
        }
        self.mounted_store(s, &mount)
            .map_err(|e| from_api(e, path))?;
        let targets = match self
            .memory_at(s, &mount, &inner)
            .map_err(|e| from_api(e, path))?
        {
            Some(file) => vec![file.metadata()],
            None => self
                .memories_under(s, &mount, Some(&inner))
                .map_err(|e| from_api(e, path))?,
        };
        if targets.is_empty() {
            return Err(error_does_not_exist(path));
        }
        for memory in targets {
            match self.write_change(
                &s.workspace,
                &mount.memory_store_id,
                MemoryChange::Delete {
                    memory_id: memory.id,
                    precondition: None,
                },
                s.actor(),
                false,
            ) {
                // Deleted concurrently: the goal is reached all the same.
                Ok(_) => {}
                Err(e) if e.code() == ErrorCode::MemoryNotFound => {}
                Err(e) => return Err(from_api(e, path)),
            }
        }
        Ok(format!("Successfully deleted {path}"))
    }

    fn tool_rename(
        &self,
        s: &SessionCaller,
        session: &Session,
        old_path: &str,
        new_path: &str,
    ) -> Result<String, MemoryToolFailure> {
        let not_movable = |p: &str| {
            fail(
                "Error: The memory directory and its mounts cannot be renamed or replaced",
                format!(
                    "Error: Cannot rename {p}: the memory directory and its mounts cannot be renamed or replaced"
                ),
            )
        };
        let (mount, from) = match self.tool_target(session, old_path, true)? {
            Target::Inside(mount, from) => (mount, from),
            _ => return Err(not_movable(old_path)),
        };
        let (to_mount, to) = match self.tool_target(session, new_path, true)? {
            Target::Inside(mount, to) => (mount, to),
            _ => return Err(not_movable(new_path)),
        };
        if mount.memory_store_id != to_mount.memory_store_id {
            return Err(fail(
                "Error: Files cannot be moved between mounts",
                format!(
                    "Error: Cannot move {old_path} to {new_path}: files cannot be moved between mounts"
                ),
            ));
        }
        if mount.access == Access::ReadOnly {
            return Err(from_api(read_only(), old_path));
        }
        let policy = self
            .mounted_store(s, &mount)
            .map_err(|e| from_api(e, old_path))?
            .pii_policy;
        // The destination is checked before anything is looked up (the source is not: a file
        // under a path with personal data can be moved to a clean one).
        check_path(Some(policy), &to).map_err(|e| from_api(e, new_path))?;
        let ws = &s.workspace;
        let store = &mount.memory_store_id;
        let file = self
            .memory_at(s, &mount, &from)
            .map_err(|e| from_api(e, old_path))?;
        let sources = match file {
            Some(file) => vec![file.metadata()],
            None => self
                .memories_under(s, &mount, Some(&from))
                .map_err(|e| from_api(e, old_path))?,
        };
        if sources.is_empty() {
            return Err(fail(
                "Error: The path does not exist",
                format!("Error: The path {old_path} does not exist"),
            ));
        }
        if from == to {
            return Ok(format!("Successfully renamed {old_path} to {new_path}"));
        }
        if to.is_under(&from) {
            return Err(fail(
                "Error: A directory cannot be moved into itself",
                format!("Error: Cannot move {old_path} into itself ({new_path})"),
            ));
        }
        let destination_taken = self
            .memory_at(s, &mount, &to)
            .map_err(|e| from_api(e, new_path))?
            .is_some()
            || !self
                .backend
                .list_memories(ws, store, Some(to.as_str()), None, 1)
                .map_err(|e| from_api(internal(e), new_path))?
                .is_empty();
        if destination_taken {
            return Err(fail(
                "Error: The destination already exists",
                format!("Error: The destination {new_path} already exists"),
            ));
        }
        // Every new path first, so a rule broken by one of them (length, segment count, personal
        // data) refuses the whole rename before anything is written.
        let moves: Vec<(StoreMemoryMetadata, StorePath)> = sources
            .into_iter()
            .map(|m| {
                let suffix = &m.path.as_str()[from.as_str().len()..];
                let target = StorePath::parse(format!("{}{suffix}", to.as_str())).map_err(|_| {
                    fail(
                        "Error: The rename would give a file a path that breaks the path rules",
                        format!("Error: Renaming {old_path} to {new_path} would give a file a path that breaks the path rules (too long or too deep)"),
                    )
                })?;
                check_path(Some(policy), &target).map_err(|e| from_api(e, new_path))?;
                Ok((m, target))
            })
            .collect::<Result<_, MemoryToolFailure>>()?;
        for (memory, target) in moves {
            match self.update_memory(ws, store, &memory.id, None, Some(target), None, s.actor()) {
                Ok(_) => {}
                Err(e) if e.code() == ErrorCode::MemoryPathConflict => {
                    return Err(fail(
                        "Error: The destination already exists, or a parent directory of it is a file",
                        format!(
                            "Error: The destination {new_path} already exists, or a parent directory of it is a file"
                        ),
                    ));
                }
                Err(e) => return Err(from_api(e, old_path)),
            }
        }
        Ok(format!("Successfully renamed {old_path} to {new_path}"))
    }
}

impl Operation for ops::MemoryTool {
    const NAME: &'static str = "memory_tool";
    type Service = StoreService;
    type Caller = SessionCaller;
    type Request = ToolInput;
    type Response = TextAnswer;

    fn execute(
        service: &StoreService,
        s: &SessionCaller,
        input: Body<'_, ToolInput>,
    ) -> Result<TextAnswer, ApiError> {
        let input = input.read()?;
        service
            .memory_tool_call(s, &input.0)
            .map_err(MemoryToolFailure::into_api_error)
    }
}
