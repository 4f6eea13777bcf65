//! The memory-store commands — `stores`, `memories`, `versions`, `sessions`, `fs` and `vacuum` —
//! on the local database, acting as the owner member `init` created (`user_actor`) or, for `fs`,
//! as a session (`session_actor`). Each builds the operation's typed request, calls the facade
//! and prints a human summary or, with `--json`, the response exactly.

mod fs;
mod memories;
mod sessions;
mod shared;
mod stores;
mod versions;

pub(crate) use fs::{FsArgs, fs};
pub(crate) use memories::{MemoriesArgs, memories};
pub(crate) use sessions::{SessionsArgs, sessions};
// For the commands that act as a session: `mcp --session` and `mount`.
#[cfg(any(feature = "mcp", all(feature = "fuse", target_os = "linux")))]
pub(crate) use sessions::session_caller;
pub(crate) use stores::{StoresArgs, VacuumArgs, stores, vacuum};
pub(crate) use versions::{VersionsArgs, versions};
