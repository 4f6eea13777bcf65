//! A FUSE mount (Linux) of an agent session's memory stores: each mount of the session appears
//! as `<dir>/<slug>/`, and plain file tools — `ls`, `cat`, `echo >`, `mv`, `rm`, any program's
//! `open`/`read`/`write` — reach the memories through the facade's agent file interface, acting
//! as the session (every version they write is a `session_actor`'s).
//!
//! ```no_run
//! # #[cfg(target_os = "linux")]
//! # {
//! use std::sync::Arc;
//! use agent_memory::{SessionCaller, StoreService};
//! use memory_core::{SessionId, WorkspaceId};
//!
//! let service = Arc::new(StoreService::builder(Arc::new(agent_memory::backends::InMemoryBackend::new())).build());
//! let caller = SessionCaller {
//!     workspace: WorkspaceId::new("ws1")?,
//!     session: SessionId::parse("sesn_01")?,
//! };
//! let mounted = memory_fuse::mount(service, caller, std::path::Path::new("/tmp/memory"))?;
//! let notes = std::fs::read_to_string("/tmp/memory/project-notes/decisions.md")?;
//! std::fs::write("/tmp/memory/project-notes/decisions.md", notes + "- one more\n")?; // one version
//! mounted.unmount()?;
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! What each file operation maps to is tabled in `docs/fuse-mount.md`. In short: a file's
//! content is read at `open` and committed as **one** version when the file is flushed or
//! released (never one per `write()`), with a `content_sha256` precondition on what was read, so
//! a writer that lost a race gets `EIO` and nothing of its write is stored; a rename onto an
//! existing file replaces it in one transaction; read-only mounts answer `EROFS`, files over
//! 102,400 bytes `EFBIG`, invalid names `EINVAL`.
//!
//! The mount uses fuser's pure-Rust mount: the mount system call as root, the setuid
//! `fusermount3` helper (package `fuse3`) otherwise. No libfuse is linked. On other systems the
//! crate is empty.

#[cfg(target_os = "linux")]
mod fuse;
#[cfg(target_os = "linux")]
mod layer;

#[cfg(target_os = "linux")]
pub use fuse::{Mount, mount};

use std::path::PathBuf;

/// Why a mount could not be made or ended.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The mount directory does not exist.
    #[error("the mount directory {0} does not exist; create an empty directory first")]
    MissingDirectory(PathBuf),
    /// The mount directory is a file or something else.
    #[error("{0} is not a directory")]
    NotADirectory(PathBuf),
    /// The mount directory has entries: mounting would hide them.
    #[error("the mount directory {0} is not empty; mount on an empty directory")]
    DirectoryNotEmpty(PathBuf),
    /// The mount directory could not be read.
    #[error("reading the mount directory {0}: {1}")]
    Directory(PathBuf, std::io::Error),
    /// The session cannot be used (`404 SESSION_NOT_FOUND`, …).
    #[error("the session cannot be mounted: {0}")]
    Session(agent_memory::ApiError),
    /// The kernel or the mount helper refused (no `/dev/fuse`, no permission, …).
    #[error("mounting failed: {0}")]
    Mount(std::io::Error),
    /// Unmounting failed.
    #[error("unmounting failed: {0}")]
    Unmount(std::io::Error),
    /// Files under the mount were still open 5 seconds after it was detached.
    #[error("{0} was detached, but files under it are still open")]
    Busy(PathBuf),
}
