//! The home's passages: kept in the home's database (`StoreBackend`'s passages, one record per
//! passage id), written in one transaction each and read live, so that every process on the
//! home — CLI commands, `serve`, `mcp`, `mount` — sees a passage as soon as its `passage put`
//! has answered.
//!
//! A home written before kept its passages in `passages.json`; the first read-write open moves
//! them into the database ([`import_legacy_file`]): one transaction imports them and records the
//! import, then the file is removed, so a crash in between imports nothing twice and a passage
//! put since is never overwritten. A read-only open of such a home reads the file beside the
//! database until then.

use std::collections::HashMap;
use std::sync::Arc;

use agent_memory::backends::Storage;
use agent_memory::storage::StorageFailure;
use agent_memory::types::content_sha256;
use agent_memory::{
    InMemoryPassageSource, MemberId, Passage, PassageInfo, PassageLookup, PassageSource,
    WorkspaceId,
};
use anyhow::Context;
use serde::{Deserialize, Serialize};

use crate::home::Home;

/// The import source name recorded in the database for `passages.json`.
const LEGACY_SOURCE: &str = "passages.json";

/// A passage as the database keeps it: the passage as put, and its body's SHA-256, so that a
/// lookup hashes nothing.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Record {
    #[serde(flatten)]
    passage: Passage,
    sha256: String,
}

/// The database record of `passage`.
pub(crate) fn encode(passage: &Passage) -> anyhow::Result<Vec<u8>> {
    let record = Record {
        sha256: content_sha256(&passage.text),
        passage: passage.clone(),
    };
    Ok(serde_json::to_vec(&record)?)
}

fn decode_record(bytes: &[u8]) -> Option<Record> {
    serde_json::from_slice(bytes).ok()
}

/// The passage a database record holds; an error for bytes that are not one.
pub(crate) fn decode(id: &str, bytes: &[u8]) -> anyhow::Result<Passage> {
    decode_record(bytes)
        .map(|r| r.passage)
        .with_context(|| format!("the stored passage {id} is not readable"))
}

/// The [`PassageSource`] of a home: every lookup reads the database, in one read per call.
pub(crate) struct StoredPassages {
    storage: Arc<dyn Storage>,
    /// `passages.json` of a home not yet moved into its database, read when the database could
    /// not take it (a read-only open or a read-only home); asked for ids the database lacks.
    legacy: Option<InMemoryPassageSource>,
    /// Whether the database's passage stamp may be answered as the source's generation: only
    /// when no process that writes passages without moving it can share the database.
    stamped: bool,
}

impl StoredPassages {
    /// The passages of `storage`; `stamped` when every process that may write them moves the
    /// database's passage stamp (an embedded database of this build's format).
    pub(crate) fn new(
        storage: Arc<dyn Storage>,
        legacy: Option<InMemoryPassageSource>,
        stamped: bool,
    ) -> Self {
        StoredPassages {
            storage,
            legacy,
            stamped,
        }
    }
}

impl PassageSource for StoredPassages {
    fn lookup(
        &self,
        workspace: &WorkspaceId,
        member: &MemberId,
        passage_ids: &[&str],
    ) -> Vec<PassageLookup> {
        // A recall asks for an id once per memory citing it: read and decode each id once.
        let mut unique: Vec<&str> = passage_ids.to_vec();
        unique.sort_unstable();
        unique.dedup();
        let records = match self.storage.passages(workspace, &unique) {
            Ok(records) => records,
            Err(err) => {
                // The trait has no error to answer: the passages read as gone, and the memories
                // citing them as hidden, until the database answers again.
                eprintln!("warning: reading passages: {err}");
                vec![None; unique.len()]
            }
        };
        let mut answers: HashMap<&str, PassageLookup> = HashMap::with_capacity(unique.len());
        let mut missing = Vec::new();
        for (id, record) in unique.iter().zip(records) {
            match record.as_deref().and_then(decode_record) {
                Some(Record { passage, sha256 }) => {
                    answers.insert(
                        id,
                        PassageLookup::found(PassageInfo {
                            passage_id: passage.id,
                            document_id: passage.document_id,
                            collection_id: passage.collection_id,
                            document_version: passage.document_version,
                            sha256: Some(sha256),
                            body: None,
                            entities: passage.entities,
                        }),
                    );
                }
                None => missing.push(*id),
            }
        }
        if let Some(legacy) = &self.legacy
            && !missing.is_empty()
        {
            for (id, found) in missing
                .iter()
                .zip(legacy.lookup(workspace, member, &missing))
            {
                answers.insert(id, found);
            }
        }
        passage_ids
            .iter()
            .map(|id| answers.get(id).cloned().unwrap_or(PassageLookup::Gone))
            .collect()
    }

    /// The database's passage stamp: every put, delete and import of any process on the home
    /// moves it in the transaction that makes the change. None for a home still reading
    /// `passages.json` beside its database, for a database that may be shared with a process
    /// that does not move it, and while the database does not answer.
    fn generation(&self, workspace: &WorkspaceId) -> Option<u64> {
        if !self.stamped || self.legacy.is_some() {
            return None;
        }
        self.storage.passage_generation(workspace).ok().flatten()
    }
}

/// Moves `passages.json` of a home into its database, once: imports it in one transaction that
/// records the import (a second import of it writes nothing), then removes the file. Answers
/// the file's passages as a fallback source when the database cannot be written (a read-only
/// home or open), and `None` when there is no file or it was imported.
pub(crate) fn import_legacy_file(
    home: &Home,
    storage: &dyn Storage,
    workspace: &WorkspaceId,
    writable: bool,
) -> anyhow::Result<Option<InMemoryPassageSource>> {
    let path = home.passages_path();
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(err).with_context(|| format!("reading {}", path.display())),
    };
    let passages: Vec<Passage> = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a JSON array of passages", path.display()))?;
    let fallback = || {
        let source = InMemoryPassageSource::new();
        for passage in &passages {
            source.put_passage(workspace, passage.clone());
        }
        Some(source)
    };
    if !writable {
        return Ok(fallback());
    }
    let records = passages
        .iter()
        .map(|p| Ok((p.id.clone(), encode(p)?)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    match storage.import_passages(workspace, LEGACY_SOURCE, &records) {
        Ok(_) => {}
        // A home the process cannot write keeps its file, read beside the database.
        Err(err) if err.failure() == StorageFailure::ReadOnly => return Ok(fallback()),
        Err(err) => {
            return Err(anyhow::Error::new(err)
                .context(format!("moving {} into the database", path.display())));
        }
    }
    // The import is recorded: the file goes (another process may have removed it already). One
    // that cannot be removed is harmless: the next open finds the import recorded and tries again.
    match std::fs::remove_file(&path) {
        Ok(()) => {}
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
        Err(err) => eprintln!(
            "warning: {} was moved into the database but could not be removed: {err}",
            path.display()
        ),
    }
    Ok(None)
}
