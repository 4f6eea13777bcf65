//! The local data directory: its layout, the `config.json` that `init` writes, and the backend
//! kinds a home (or a replay database) can use.
//!
//! ```text
//! <home>/config.json    workspace, member and credential ids, backend kind, creation time
//! <home>/memory.sqlite  the SQLite database file (backend sqlite, the default), with its
//!                       memory.sqlite-wal and memory.sqlite-shm while a process has it open, or
//! <home>/memory.redb    the redb database file (backend redb), with its write-ahead journal
//!                       memory.redb.journal while a process has it open, or
//! <home>/memory.sled/   the sled database directory (backend sled)
//! <home>/passages.json  passages of a home written before they moved into its database; the
//!                       first read-write open moves them there and removes the file
//! <home>/audit.jsonl    one governance event per line; events carry ids and counts, no content
//! <home>/tokens.json    the bearer tokens of `serve` (`agent-memory token`)
//! <home>/home.lock      held while a process creates the home or its tokens (first use)
//! ```
//!
//! A home is its user's only: the CLI runs with the umask 077 ([`private_by_default`]), so the
//! directory is created 0700 and every file in it — the database and whatever files its engine
//! adds (SQLite's `-wal` and `-shm`, sled's directory), `config.json`, `audit.jsonl`,
//! `tokens.json`, the lock — 0600, and so is every file `vacuum` and `migrate` write later. A home
//! whose modes let other users in still opens, with a warning ([`Home::warn_if_not_private`]).

use std::path::{Path, PathBuf};

use agent_memory::{CandidateWindow, Limits, Weights};
use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};

/// The directory used when neither `--home` nor `AGENT_MEMORY_HOME` names one.
pub(crate) const DEFAULT_HOME: &str = ".agent-memory";

/// The layout version of `config.json`; a home written by another version is refused.
const CONFIG_FORMAT: u32 = 1;

/// Which embedded database stores the memories.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub(crate) enum BackendKind {
    /// SQLite (WAL): one file that any number of processes (`mcp`, `mount`, the CLI) open at
    /// once, an fsync per commit, limits that hold across the processes. The default of `init`.
    Sqlite,
    /// redb: ACID, a real fsync per commit, a stable file format; one process at a time.
    Redb,
    /// sled 0.34: crash-consistent, but its flush is `sync_file_range`, not `fsync`, so an
    /// acknowledged write may be lost on power loss or an operating-system crash.
    Sled,
    /// PostgreSQL at `--database-url` (or `AGENT_MEMORY_DATABASE_URL`): one memory shared by
    /// every instance that uses the database, with limits that hold across processes.
    Postgres,
}

impl BackendKind {
    /// The name used on the command line and in `config.json`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            BackendKind::Sqlite => "sqlite",
            BackendKind::Redb => "redb",
            BackendKind::Sled => "sled",
            BackendKind::Postgres => "postgres",
        }
    }

    /// `Ok` when this build has the backend (the Cargo feature of the same name), else the error
    /// that names the feature: a home, a replay or a migration on it is refused before anything
    /// is opened.
    pub(crate) fn require_built(self) -> anyhow::Result<()> {
        let built = match self {
            BackendKind::Sqlite => cfg!(feature = "sqlite"),
            BackendKind::Redb => cfg!(feature = "redb"),
            BackendKind::Sled => cfg!(feature = "sled"),
            BackendKind::Postgres => cfg!(feature = "postgres"),
        };
        if built { Ok(()) } else { Err(self.not_built()) }
    }

    /// The error of this backend in a build without its feature.
    pub(crate) fn not_built(self) -> anyhow::Error {
        crate::features::missing(self.name(), &format!("the {} backend", self.name()))
    }
}

/// What `init` created, as `config.json` records it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Config {
    /// Layout version of this file.
    pub(crate) format: u32,
    /// The local workspace.
    pub(crate) workspace: String,
    /// The owner member every local command acts as.
    pub(crate) member: String,
    /// The credential agent commands use (scopes `memory:read` and `memory:write`).
    pub(crate) credential: String,
    /// The embedded database.
    pub(crate) backend: BackendKind,
    /// When `init` ran (RFC 3339).
    pub(crate) created_at: String,
    /// How recall ranks in this home (`agent-memory config` shows and changes it). A home
    /// written before the setting existed has none: the contract's latest 300 and the default
    /// weights.
    #[serde(default)]
    pub(crate) recall: RecallConfig,
    /// The limits of this home's service: the hourly rate limit of agents' remembers (`mcp`,
    /// `serve`; the owner's own commands are not rate-limited), the quota, the longest text and
    /// the retention bounds. Absent: the contract's values.
    #[serde(default, skip_serializing_if = "is_contract")]
    pub(crate) limits: Limits,
}

fn is_contract(limits: &Limits) -> bool {
    *limits == Limits::CONTRACT
}

/// The home's recall settings, as `config.json` records them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct RecallConfig {
    /// `all`, or the number of most recent versions recall ranks (1–5,000).
    #[serde(with = "window_text")]
    pub(crate) candidate_window: CandidateWindow,
    /// Each ranker's weight in the fusion; absent: the defaults for the embedder in use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) weights: Option<WeightsConfig>,
}

impl Default for RecallConfig {
    /// What a home without the setting gets: the library's default window (the latest 300).
    fn default() -> Self {
        RecallConfig {
            candidate_window: CandidateWindow::default(),
            weights: None,
        }
    }
}

impl RecallConfig {
    /// What `init` records: a home searches everything its member may see.
    pub(crate) fn for_new_home() -> Self {
        RecallConfig {
            candidate_window: CandidateWindow::All,
            weights: None,
        }
    }
}

/// Ranker weights as `config.json` records them (each finite and not negative, not all 0).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WeightsConfig {
    pub(crate) bm25: f64,
    pub(crate) semantic: f64,
    pub(crate) entity: f64,
}

impl WeightsConfig {
    /// The library's weights, or an error naming the rule a hand-edited file breaks.
    pub(crate) fn weights(self) -> anyhow::Result<Weights> {
        Weights::new(self.bm25, self.semantic, self.entity)
            .with_context(|| "recall weights must be finite, not negative and not all 0".to_owned())
    }
}

impl From<Weights> for WeightsConfig {
    fn from(w: Weights) -> Self {
        WeightsConfig {
            bm25: w.bm25,
            semantic: w.semantic,
            entity: w.entity,
        }
    }
}

/// A candidate window as its text (`"all"`, `"300"`).
mod window_text {
    use agent_memory::CandidateWindow;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(w: &CandidateWindow, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(w)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<CandidateWindow, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(|_| {
            serde::de::Error::custom(format!(
                "candidateWindow {text:?} is neither `all` nor a number from 1 to 5000"
            ))
        })
    }
}

impl Config {
    /// A new configuration with fresh, unguessable workspace and credential ids.
    pub(crate) fn new(backend: BackendKind, created_at: String) -> Self {
        let tag = random_tag();
        Config {
            format: CONFIG_FORMAT,
            workspace: format!("ws_local_{tag}"),
            member: "owner".to_owned(),
            credential: format!("cred_local_{tag}"),
            backend,
            created_at,
            recall: RecallConfig::for_new_home(),
            limits: Limits::default(),
        }
    }
}

/// 16 hex digits from the standard library's per-process random hasher keys and the time: ids
/// of two homes never collide in practice, which keeps exports from different homes apart.
fn random_tag() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default(),
    );
    hasher.write_u32(std::process::id());
    format!("{:016x}", hasher.finish())
}

/// A local data directory.
#[derive(Debug, Clone)]
pub(crate) struct Home {
    root: PathBuf,
}

impl Home {
    /// The home at `root` (nothing is touched yet).
    pub(crate) fn new(root: impl Into<PathBuf>) -> Self {
        Home { root: root.into() }
    }

    /// The directory itself.
    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    /// `config.json`.
    pub(crate) fn config_path(&self) -> PathBuf {
        self.root.join("config.json")
    }

    /// The database file (SQLite, redb) or directory (sled).
    pub(crate) fn database_path(&self, backend: BackendKind) -> PathBuf {
        match backend {
            BackendKind::Sqlite => self.root.join("memory.sqlite"),
            BackendKind::Redb => self.root.join("memory.redb"),
            BackendKind::Sled => self.root.join("memory.sled"),
            // Not a path: where the URL comes from (the URL may hold a password).
            BackendKind::Postgres => PathBuf::from("$AGENT_MEMORY_DATABASE_URL"),
        }
    }

    /// `passages.json` of an older home (moved into the database by its first read-write open).
    pub(crate) fn passages_path(&self) -> PathBuf {
        self.root.join("passages.json")
    }

    /// `audit.jsonl`.
    pub(crate) fn audit_path(&self) -> PathBuf {
        self.root.join("audit.jsonl")
    }

    /// `home.lock`: held while a process creates the home or its tokens.
    fn lock_path(&self) -> PathBuf {
        self.root.join("home.lock")
    }

    /// Waits for, then holds, the home's lock (released when the guard drops or the process
    /// ends, however it ends). First use — `init`, creating the tokens — happens under it, so
    /// that concurrent processes make one workspace and one pair of tokens.
    pub(crate) fn lock(&self) -> anyhow::Result<HomeLock> {
        let path = self.lock_path();
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            // Classified as the database's failures are: a read-only home is STORAGE_READ_ONLY.
            .map_err(|e| agent_memory::backends::Error::io("opening the home's lock file", e))
            .with_context(|| format!("opening {}", path.display()))?;
        file.lock()
            .map_err(|e| agent_memory::backends::Error::io("locking the home", e))
            .with_context(|| format!("locking {}", path.display()))?;
        Ok(HomeLock { _file: file })
    }

    /// Warns on stderr, once per process, about the home's directory and files that other users
    /// may read or write (a home created before homes were private, or opened up by hand): each
    /// path with its mode, and the command that makes the home private again. Nothing else is
    /// printed, and the home opens as usual.
    pub(crate) fn warn_if_not_private(&self) {
        static WARNED: std::sync::Once = std::sync::Once::new();
        WARNED.call_once(|| {
            let open = open_to_others(&self.root);
            for (path, mode) in open.iter().take(MAX_WARNED) {
                eprintln!(
                    "warning: {} is open to other users (mode {mode:04o}); make the home \
                     private with `chmod -R go-rwx {}`",
                    path.display(),
                    self.root.display()
                );
            }
            if open.len() > MAX_WARNED {
                eprintln!(
                    "warning: and {} more paths in {}",
                    open.len() - MAX_WARNED,
                    self.root.display()
                );
            }
        });
    }

    /// Whether `init` already ran here.
    pub(crate) fn is_initialized(&self) -> bool {
        self.config_path().exists()
    }

    /// The configuration `init` wrote; a clear error when there is none.
    pub(crate) fn load_config(&self) -> anyhow::Result<Config> {
        let path = self.config_path();
        if !path.exists() {
            bail!(
                "no agent-memory workspace in {} (no config.json): run `agent-memory init` first, \
                 or point --home or AGENT_MEMORY_HOME at an initialised directory",
                self.root.display()
            );
        }
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        let config: Config = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a valid agent-memory config", path.display()))?;
        if config.format != CONFIG_FORMAT {
            bail!(
                "{} has config format {}; this build reads format {CONFIG_FORMAT}",
                path.display(),
                config.format
            );
        }
        self.warn_if_not_private();
        Ok(config)
    }

    /// Writes `config.json` (through a temporary file and a rename, so a crash never leaves half
    /// a config behind).
    pub(crate) fn write_config(&self, config: &Config) -> anyhow::Result<()> {
        write_atomically(&self.config_path(), &serde_json::to_string_pretty(config)?)
    }
}

/// The guard of [`Home::lock`]: the lock is held until it drops.
#[derive(Debug)]
pub(crate) struct HomeLock {
    _file: std::fs::File,
}

/// How many paths [`Home::warn_if_not_private`] names before it counts the rest.
const MAX_WARNED: usize = 8;

/// The paths under `root` (itself included) that grant other users any access, with their
/// modes; at most a few thousand entries are looked at (a home holds a handful).
fn open_to_others(root: &Path) -> Vec<(PathBuf, u32)> {
    let mut open = Vec::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mut stack = vec![root.to_path_buf()];
        let mut seen = 0;
        while let Some(path) = stack.pop() {
            seen += 1;
            if seen > 4096 {
                break;
            }
            let Ok(meta) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            let mode = meta.permissions().mode() & 0o7777;
            if mode & 0o077 != 0 && !meta.file_type().is_symlink() {
                open.push((path.clone(), mode));
            }
            if meta.is_dir()
                && let Ok(entries) = std::fs::read_dir(&path)
            {
                stack.extend(entries.filter_map(|e| e.ok().map(|e| e.path())));
            }
        }
        open.sort();
    }
    #[cfg(not(unix))]
    let _ = root;
    open
}

/// Makes every file and directory this process creates from now on its user's only: the umask
/// 077. Set once at start, it holds for whatever creates a file — this crate, SQLite (the
/// database, its `-wal` and `-shm`, which SQLite gives the database's mode), redb, sled, a
/// vacuum's or a migration's new database — where a mode passed at each creation would cover
/// only the files this crate opens itself.
pub(crate) fn private_by_default() {
    #[cfg(unix)]
    {
        use nix::sys::stat::{Mode, umask};
        umask(Mode::from_bits_truncate(0o077));
    }
}

/// Replaces `path` with `contents` through a new temporary file of its own (readable by its
/// user only, synced) and a rename: a reader sees the old file or the new one, a crash leaves no
/// half-written file, and concurrent writers never share a temporary name. I/O failures are
/// classified as the database's are (a full disk is `STORAGE_FULL`, a read-only home
/// `STORAGE_READ_ONLY`).
pub(crate) fn write_atomically(path: &Path, contents: &str) -> anyhow::Result<()> {
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    let written = (|| {
        let mut tmp = tempfile::Builder::new()
            .prefix(".")
            .suffix(".tmp")
            .tempfile_in(dir)?;
        std::io::Write::write_all(&mut tmp, contents.as_bytes())?;
        tmp.as_file().sync_all()?;
        tmp.persist(path).map_err(|e| e.error)?;
        Ok(())
    })();
    written
        .map_err(|e| agent_memory::backends::Error::io("writing a file of the home", e))
        .with_context(|| format!("replacing {}", path.display()))
}

/// Refuses `path` unless it can hold a new `backend` database: it does not exist yet, or it is an
/// empty file (SQLite, redb) or an empty directory (sled). Replay, the demo and `migrate` start
/// from nothing.
pub(crate) fn require_unused_database(path: &Path, backend: BackendKind) -> anyhow::Result<()> {
    // A PostgreSQL database is no file of the home: its workspace ids are new, and replay runs
    // in a throw-away schema of its own.
    if backend == BackendKind::Postgres {
        return Ok(());
    }
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(());
    };
    let empty = match backend {
        BackendKind::Sqlite | BackendKind::Redb => meta.is_file() && meta.len() == 0,
        BackendKind::Sled => {
            meta.is_dir()
                && std::fs::read_dir(path)
                    .with_context(|| format!("reading {}", path.display()))?
                    .next()
                    .is_none()
        }
        BackendKind::Postgres => true,
    };
    if !empty {
        let what = match backend {
            BackendKind::Sqlite | BackendKind::Redb => "a new or empty file",
            BackendKind::Sled | BackendKind::Postgres => "a new or empty directory",
        };
        bail!(
            "{} is already in use: a {} database must be {what} (a used database would mix old \
             memories into this run); choose another path or remove it",
            path.display(),
            backend.name()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_round_trips_and_ids_differ_between_homes() {
        let a = Config::new(BackendKind::Sled, "2026-01-01T00:00:00Z".into());
        let b = Config::new(BackendKind::Redb, "2026-01-01T00:00:00Z".into());
        assert_ne!(a.workspace, b.workspace);
        let text = serde_json::to_string(&a).unwrap();
        assert!(text.contains("\"backend\":\"sled\""));
        assert_eq!(serde_json::from_str::<Config>(&text).unwrap(), a);
    }

    #[test]
    fn a_used_database_is_refused_and_a_new_or_empty_one_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("db");
        require_unused_database(&file, BackendKind::Redb).unwrap();
        std::fs::write(&file, "").unwrap();
        require_unused_database(&file, BackendKind::Redb).unwrap();
        std::fs::write(&file, "x").unwrap();
        assert!(require_unused_database(&file, BackendKind::Redb).is_err());
        // A file is no sled directory, and a directory no redb file.
        assert!(require_unused_database(&file, BackendKind::Sled).is_err());
        let sub = dir.path().join("sled");
        std::fs::create_dir(&sub).unwrap();
        require_unused_database(&sub, BackendKind::Sled).unwrap();
        assert!(require_unused_database(&sub, BackendKind::Redb).is_err());
        std::fs::write(sub.join("conf"), "x").unwrap();
        assert!(require_unused_database(&sub, BackendKind::Sled).is_err());
    }
}
