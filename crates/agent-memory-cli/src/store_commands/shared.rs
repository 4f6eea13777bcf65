//! What the memory-store commands share: the `--store` and `--if-sha256` arguments, ids and
//! page sizes typed on the command line, content read from a file or standard input, and the
//! lines every human view writes.

use std::io::{Read, Write};
use std::path::Path;

use agent_memory::{
    ApiError, DeleteMemoryRequest, ErrorCode, MemoryStoreId, MemoryVersionId, RestoreMemoryRequest,
    StoreMemory, StoreMemoryId, UpdateMemoryRequest,
};
use anyhow::Context;

/// `--store ID`, shared by the commands on one store's memories and versions.
#[derive(Debug, clap::Args)]
pub(super) struct StoreArg {
    /// The store (`memstore_…`).
    #[arg(long, short)]
    pub(super) store: String,
}

/// `--if-sha256 HASH`: the optimistic-concurrency precondition.
#[derive(Debug, clap::Args)]
pub(super) struct IfSha256 {
    /// Only if the memory's current content has this SHA-256 (64 lowercase hex digits, as
    /// `memories get` shows it); otherwise MEMORY_PRECONDITION_FAILED names the current hash.
    #[arg(long, value_name = "HASH")]
    if_sha256: Option<String>,
}

/// A request that can carry a `content_sha256` precondition.
pub(super) trait Preconditioned: Sized {
    fn if_content_sha256(self, hash: String) -> Self;
}

macro_rules! preconditioned {
    ($($t:ty),*) => {$(
        impl Preconditioned for $t {
            fn if_content_sha256(self, hash: String) -> Self {
                <$t>::if_content_sha256(self, hash)
            }
        }
    )*};
}

preconditioned!(
    UpdateMemoryRequest,
    DeleteMemoryRequest,
    RestoreMemoryRequest
);

impl IfSha256 {
    pub(super) fn apply<R: Preconditioned>(self, request: R) -> R {
        match self.if_sha256 {
            Some(hash) => request.if_content_sha256(hash),
            None => request,
        }
    }
}

/// The content of `file`, or of standard input for `None` and `-`, exactly as stored: no line
/// break is added or removed.
pub(super) fn read_content(file: Option<&Path>) -> anyhow::Result<String> {
    let mut bytes = Vec::new();
    match file {
        Some(path) if path.as_os_str() != "-" => {
            bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        }
        _ => {
            std::io::stdin()
                .read_to_end(&mut bytes)
                .context("reading the content from standard input")?;
        }
    }
    String::from_utf8(bytes).context("a memory's content must be UTF-8 text")
}

/// An id typed on the command line; a malformed one is refused as the facade refuses a
/// malformed id in a body (`400 MEMORY_INVALID_REQUEST`), so `--json` prints an error body.
pub(super) fn parse_id<T: std::str::FromStr>(
    id: &str,
    message: &'static str,
) -> Result<T, ApiError> {
    id.parse()
        .map_err(|_| ApiError::new(ErrorCode::MemoryInvalidRequest, message))
}

pub(super) fn store_id(id: &str) -> Result<MemoryStoreId, ApiError> {
    parse_id(
        id,
        "the memory store id must be memstore_ and 1 to 64 letters, digits, - or _",
    )
}

pub(super) fn memory_id(id: &str) -> Result<StoreMemoryId, ApiError> {
    parse_id(
        id,
        "the memory id must be mem_ and 1 to 64 letters, digits, - or _",
    )
}

pub(super) fn version_id(id: &str) -> Result<MemoryVersionId, ApiError> {
    parse_id(
        id,
        "the version id must be memver_ and 1 to 64 letters, digits, - or _",
    )
}

/// A page size from the command line; one beyond `usize` is refused by the facade's bounds.
pub(super) fn limit(limit: u64) -> usize {
    usize::try_from(limit).unwrap_or(usize::MAX)
}

pub(super) fn bytes(n: u64) -> String {
    if n == 1 {
        "1 byte".to_owned()
    } else {
        format!("{n} bytes")
    }
}

pub(super) fn write_more(out: &mut dyn Write, cursor: Option<&str>) -> std::io::Result<()> {
    match cursor {
        Some(cursor) => writeln!(out, "more: --cursor {cursor}"),
        None => Ok(()),
    }
}

/// `text` as it is, with a line break after it when it has none.
pub(super) fn write_text(out: &mut dyn Write, text: &str) -> std::io::Result<()> {
    write!(out, "{text}")?;
    if !text.is_empty() && !text.ends_with('\n') {
        writeln!(out)?;
    }
    Ok(())
}

/// A memory's header: id, path, size, full hash (the one `--if-sha256` takes) and version.
pub(super) fn write_memory_header(
    out: &mut dyn Write,
    memory: &StoreMemory,
) -> std::io::Result<()> {
    writeln!(
        out,
        "{}  {}  ({})",
        memory.id,
        memory.path,
        bytes(memory.content_size_bytes)
    )?;
    writeln!(out, "  sha256:  {}", memory.content_sha256)?;
    writeln!(
        out,
        "  version: {} (updated {})",
        memory.version_id, memory.updated_at
    )
}
