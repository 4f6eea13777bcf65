//! The JSON-lines scenario runner of `docs/replay.md`, the executable form of the behaviour
//! contract: each input line is one operation — a world operation of the host (workspaces,
//! members, credentials, context sets, passages, documents), a host event, or an operation of
//! either product made as an agent credential, a member, an API key or a session — and gets
//! exactly one JSON output line, `{"status":200,"body":…}` or `{"status":…,"error":…}`.
//!
//! The run is deterministic, so that recorded answers compare byte for byte across releases and
//! backends: a manual clock that lines move forward (`at`), ids from one seeded generator for
//! both facades, an in-memory world and passage source, and the seeds' ranking (every word a
//! term, plain Reciprocal Rank Fusion, every version listed). Operations of the products go
//! through [`agent_memory::json::JsonApi`], the entry point a REST host uses, or through a
//! [`Transport`] the caller adds (the CLI's tests add its HTTP router on a loopback port).
//!
//! ```
//! use std::sync::Arc;
//! use agent_memory::HashingEmbedder;
//! use agent_memory::backends::InMemoryBackend;
//! use agent_memory_replay::Replay;
//!
//! let mut replay = Replay::new(
//!     Arc::new(InMemoryBackend::new()),
//!     Arc::new(HashingEmbedder::new()),
//!     Default::default(),
//! )?;
//! let script = br#"{"op":"workspace.create","body":{"id":"ws1"}}
//! {"op":"member.add","body":{"workspace":"ws1","id":"olivia","role":"owner"}}
//! {"op":"settings.get","as":"olivia"}
//! "#;
//! let mut out = Vec::new();
//! assert!(replay.run(&script[..], &mut out)?);
//! let out = String::from_utf8(out)?;
//! assert_eq!(out.lines().count(), 3);
//! assert!(out.lines().all(|line| line.starts_with(r#"{"status":200,"#)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod body;
mod edge;
mod embedder;
mod runner;
mod stores;
mod world;

pub use edge::Transport;
pub use runner::{Replay, RunError};
