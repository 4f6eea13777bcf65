//! `<home>/audit.jsonl`: an [`AuditSink`] that appends one JSON line per governance event.
//!
//! The facade's events carry ids and counts only, so the log never holds memory text, queries or
//! personal data; it can be kept and shared like any operational log.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

use agent_memory::{AuditRecord, AuditSink};
use anyhow::Context;

/// Appends each record to a JSON-lines file.
#[derive(Debug)]
pub(crate) struct JsonLinesAuditSink {
    file: Mutex<File>,
}

impl JsonLinesAuditSink {
    /// Opens `path` for appending, creating it when missing.
    pub(crate) fn open(path: &Path) -> anyhow::Result<Self> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            // Classified as the database's failures are: a home on a read-only mount answers
            // STORAGE_READ_ONLY (exit 5) here when its database opened for reading.
            .map_err(|e| agent_memory::backends::Error::io("opening the audit log", e))
            .with_context(|| format!("opening the audit log {}", path.display()))?;
        Ok(JsonLinesAuditSink {
            file: Mutex::new(file),
        })
    }
}

impl AuditSink for JsonLinesAuditSink {
    fn record(&self, record: AuditRecord) {
        // The trait says recording must not fail the operation: a write error is reported on
        // stderr (the operation itself already happened) and otherwise ignored.
        let Ok(mut line) = serde_json::to_vec(&record) else {
            eprintln!("warning: an audit event could not be serialized");
            return;
        };
        line.push(b'\n');
        let mut file = self
            .file
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // One write call per line: with O_APPEND, lines of concurrent writers do not interleave.
        if let Err(err) = file.write_all(&line) {
            eprintln!("warning: the audit log could not be written: {err}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agent_memory::AuditEvent;
    use agent_memory::{MemberId, Timestamp, WorkspaceId};

    #[test]
    fn each_record_becomes_one_json_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("audit.jsonl");
        let sink = JsonLinesAuditSink::open(&path).unwrap();
        for deleted in [1, 2] {
            sink.record(AuditRecord {
                at: Timestamp::parse("2026-01-01T00:00:00Z").unwrap(),
                workspace: WorkspaceId::new("ws1").unwrap(),
                actor: Some(MemberId::new("owner").unwrap()),
                event: AuditEvent::MemberDelete { deleted },
            });
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[1]["event"], "member_delete");
        assert_eq!(lines[1]["deleted"], 2);
    }
}
