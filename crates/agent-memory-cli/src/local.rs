//! Opening the facades on a local home: the embedded backend `config.json` names (agent memories
//! and memory stores share it, and the passages memories cite), the JSON-lines audit log,
//! and the callers every local command acts as (the owner member, and the agent credential `init`
//! created for them).

use std::sync::Arc;

#[cfg(any(feature = "sqlite", feature = "redb", feature = "sled"))]
use agent_memory::backends::Durability;
#[cfg(feature = "postgres")]
use agent_memory::backends::PostgresBackend;
#[cfg(feature = "redb")]
use agent_memory::backends::RedbBackend;
#[cfg(feature = "sled")]
use agent_memory::backends::SledBackend;
#[cfg(feature = "sqlite")]
use agent_memory::backends::SqliteBackend;
use agent_memory::backends::Storage;
#[cfg(any(feature = "sqlite", feature = "redb"))]
use agent_memory::storage::StorageFailure;
use agent_memory::{
    AgentCaller, AgentCredential, CandidateWindow, Clock, ContextBinding, CredentialId, Embedder,
    HashingEmbedder, MemberCaller, MemberId, MemoryService, Passage, Role, Scope, Settings,
    StoreCaller, StoreService, SystemClock, WorkspaceId,
};
use anyhow::{Context, bail};

use crate::audit_log::JsonLinesAuditSink;
use crate::home::{BackendKind, Config, Home, require_unused_database};
use crate::passages::StoredPassages;

/// The facades opened on a home, with the identities `init` created.
pub(crate) struct Local {
    pub(crate) home: Home,
    pub(crate) config: Config,
    pub(crate) service: Arc<MemoryService>,
    /// Memory stores, over the same database as `service`.
    pub(crate) stores: Arc<StoreService>,
    /// The database both facades use, which keeps the passages too.
    storage: Arc<dyn Storage>,
    workspace: WorkspaceId,
    member: MemberId,
    credential: CredentialId,
}

/// The PostgreSQL URL of `--database-url` / `AGENT_MEMORY_DATABASE_URL`, set once by `main`.
static DATABASE_URL: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Records the command line's database URL for [`open_backend`] (the first call wins).
pub(crate) fn set_database_url(url: String) {
    let _ = DATABASE_URL.set(url);
}

/// The database URL, or an error saying how to give one.
#[cfg(feature = "postgres")]
pub(crate) fn database_url() -> anyhow::Result<&'static str> {
    DATABASE_URL.get().map(String::as_str).with_context(|| {
        "--backend postgres needs --database-url URL or AGENT_MEMORY_DATABASE_URL".to_owned()
    })
}

/// Connections of the CLI's pool: a command runs one operation at a time; the MCP server a few.
#[cfg(feature = "postgres")]
const POSTGRES_POOL: u32 = 4;

/// Opens the embedded database of `backend` at `path`; `create` allows a new one. PostgreSQL
/// ignores `path` and connects to the URL of `--database-url` (creating or upgrading its
/// schema). A backend this build lacks is refused with the feature it needs.
pub(crate) fn open_backend(
    backend: BackendKind,
    path: &std::path::Path,
    create: bool,
) -> anyhow::Result<Arc<dyn Storage>> {
    open_storage(backend, path, create).map(|(storage, _)| storage)
}

/// [`open_backend`], and whether the database could only be opened for reading: an existing
/// SQLite or redb database that cannot be written (a read-only mount, no write permission on
/// the file or its directory) is opened read-only, and then every write answers
/// `STORAGE_READ_ONLY` while reads work.
// A build without any embedded backend refuses every kind before the embedded part is reached.
#[cfg_attr(
    not(any(feature = "sqlite", feature = "redb", feature = "sled")),
    allow(unreachable_code, unused_variables)
)]
fn open_storage(
    backend: BackendKind,
    path: &std::path::Path,
    create: bool,
) -> anyhow::Result<(Arc<dyn Storage>, bool)> {
    backend.require_built()?;
    if backend == BackendKind::Postgres {
        #[cfg(feature = "postgres")]
        {
            let backend = PostgresBackend::connect(database_url()?, POSTGRES_POOL)
                .context("opening the PostgreSQL database")?;
            return Ok((Arc::new(backend), false));
        }
        #[cfg(not(feature = "postgres"))]
        return Err(backend.not_built());
    }
    if !create && !path.exists() {
        bail!(
            "the {} database {} is missing (config.json names it); restore it or start over \
             with a new home",
            backend.name(),
            path.display()
        );
    }
    let context = || format!("opening the {} database {}", backend.name(), path.display());
    // A database this process may not write, or in a directory it may not write (SQLite keeps
    // its -wal and -shm there), is opened read-only at once: SQLite may otherwise open it for
    // writing and fail only at the first write.
    if !create && matches!(backend, BackendKind::Sqlite | BackendKind::Redb) && !writable(path) {
        return Ok((
            open_file_read_only(backend, path).with_context(context)?,
            true,
        ));
    }
    // Every acknowledged command is on disk: the CLI's writes are few and a person is waiting
    // for exactly one of them.
    let opened: (Arc<dyn Storage>, bool) = match backend {
        #[cfg(feature = "sqlite")]
        BackendKind::Sqlite if create => (
            Arc::new(SqliteBackend::create(path, Durability::Immediate).with_context(context)?),
            false,
        ),
        #[cfg(feature = "sqlite")]
        BackendKind::Sqlite => match SqliteBackend::open(path, Durability::Immediate) {
            Ok(opened) => (Arc::new(opened), false),
            Err(err) if err.failure() == StorageFailure::Full => {
                return Err(anyhow::Error::new(err).context(context()));
            }
            // A full disk can fail the open as an I/O error (growing the WAL index): said as a
            // full disk, not as the read-only home of the fallback below.
            Err(agent_memory::backends::Error::Storage { .. })
                if let Some(full) = path.parent().and_then(no_space_in) =>
            {
                return Err(anyhow::Error::new(agent_memory::backends::Error::io(
                    "sqlite: no space left to open the database for writing",
                    full,
                ))
                .context(context()));
            }
            // A file SQLite cannot open for writing (a read-only mount, no permission) is still
            // read; its writes then answer STORAGE_READ_ONLY.
            Err(err @ agent_memory::backends::Error::Storage { .. }) => {
                match SqliteBackend::open_read_only(path) {
                    Ok(opened) => (Arc::new(opened), true),
                    Err(_) => return Err(anyhow::Error::new(err).context(context())),
                }
            }
            Err(err) => return Err(anyhow::Error::new(err).context(context())),
        },
        #[cfg(feature = "redb")]
        BackendKind::Redb if create => (
            Arc::new(RedbBackend::create(path, Durability::Immediate).with_context(context)?),
            false,
        ),
        #[cfg(feature = "redb")]
        BackendKind::Redb => match RedbBackend::open(path, Durability::Immediate) {
            Ok(opened) => (Arc::new(opened), false),
            // The same for a redb file: read, and its writes answer STORAGE_READ_ONLY.
            Err(err) if err.failure() == StorageFailure::ReadOnly => {
                match RedbBackend::open_read_only(path) {
                    Ok(opened) => (Arc::new(opened), true),
                    Err(_) => return Err(anyhow::Error::new(err).context(context())),
                }
            }
            Err(err) => return Err(anyhow::Error::new(err).context(context())),
        },
        // sled 0.34 writes its directory on every open: a read-only sled home does not open.
        #[cfg(feature = "sled")]
        BackendKind::Sled => (
            Arc::new(SledBackend::open(path, Durability::Immediate).with_context(context)?),
            false,
        ),
        // A backend this build lacks (PostgreSQL was opened above).
        _ => return Err(backend.not_built()),
    };
    Ok(opened)
}

/// A SQLite or redb database file opened for reading only (`path` is unused in a build with
/// neither).
#[cfg_attr(
    not(any(feature = "sqlite", feature = "redb")),
    allow(unused_variables)
)]
fn open_file_read_only(
    backend: BackendKind,
    path: &std::path::Path,
) -> anyhow::Result<Arc<dyn Storage>> {
    match backend {
        #[cfg(feature = "sqlite")]
        BackendKind::Sqlite => Ok(Arc::new(SqliteBackend::open_read_only(path)?)),
        #[cfg(feature = "redb")]
        BackendKind::Redb => Ok(Arc::new(RedbBackend::open_read_only(path)?)),
        _ => Err(backend.not_built()),
    }
}

/// The full-disk error of a probe write beside the database — 64 KiB, about what opening a
/// SQLite file for writing needs (its WAL index, a first WAL frame) — or `None` when there is room
/// (or the failure is another one).
#[cfg(feature = "sqlite")]
fn no_space_in(dir: &std::path::Path) -> Option<std::io::Error> {
    use std::io::Write;
    let probe = dir.join(format!(".space-probe-{}", std::process::id()));
    let written = std::fs::File::create(&probe).and_then(|mut file| {
        file.write_all(&[0; 64 * 1024])?;
        file.sync_all()
    });
    let _ = std::fs::remove_file(&probe);
    match written {
        Err(err) if StorageFailure::of_io(&err) == StorageFailure::Full => Some(err),
        _ => None,
    }
}

/// Whether this process may write `path` and create files beside it (`access(2)`: a read-only
/// mount or missing write permission says no; root may write wherever the mount allows).
fn writable(path: &std::path::Path) -> bool {
    #[cfg(unix)]
    {
        use nix::unistd::{AccessFlags, access};
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => std::path::Path::new("."),
        };
        access(path, AccessFlags::W_OK).is_ok() && access(dir, AccessFlags::W_OK).is_ok()
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        true
    }
}

/// Opens the database of `backend` at `path` for commands that only read (`list`, `recall`,
/// `export`), so that a home on a read-only mount or in a backup can still be read. redb opens
/// read-only (a file another process has open stays `STORAGE_LOCKED`); a file that needs a repair
/// after a crash, which only a writer can do, is opened read-write as before. sled 0.34 has no
/// read-only mode (it locks and writes its directory on every open), nor do SQLite (whose
/// readers never wait for a writer in another process, and which reads a file it may not write)
/// and the PostgreSQL backend need one: they open as usual, and a sled home on a read-only file
/// system answers `STORAGE_READ_ONLY`.
pub(crate) fn open_backend_read_only(
    backend: BackendKind,
    path: &std::path::Path,
) -> anyhow::Result<Arc<dyn Storage>> {
    if backend != BackendKind::Redb || !path.exists() {
        return open_backend(backend, path, false);
    }
    #[cfg(feature = "redb")]
    {
        match RedbBackend::open_read_only(path) {
            Ok(opened) => Ok(Arc::new(opened)),
            Err(err) if err.failure() == StorageFailure::Other => {
                open_backend(backend, path, false)
            }
            Err(err) => Err(anyhow::Error::new(err)
                .context(format!("opening the redb database {}", path.display()))),
        }
    }
    #[cfg(not(feature = "redb"))]
    {
        Err(backend.not_built())
    }
}

impl Local {
    /// Opens an initialised home for reading only (see [`open_backend_read_only`]); no audit
    /// log is opened, as reads record no governance event.
    pub(crate) fn open_read_only(
        home: &Home,
        embedder: Arc<dyn Embedder>,
        window: Option<CandidateWindow>,
    ) -> anyhow::Result<Local> {
        let config = home.load_config()?;
        Self::start(
            home,
            config,
            Arc::new(SystemClock),
            (embedder, window),
            Open::ReadOnly,
        )
    }

    /// Opens an initialised home with the system clock and the hashing embedder (for commands
    /// that embed nothing).
    pub(crate) fn open(home: &Home) -> anyhow::Result<Local> {
        Self::open_with_embedder(home, Arc::new(HashingEmbedder::new()), None)
    }

    /// Opens an initialised home with the system clock; `embedder` embeds what is remembered
    /// and recalled (see `--embedder`), and recall ranks the candidates of `window` (the
    /// command's flag), or else of the home's recorded window.
    pub(crate) fn open_with_embedder(
        home: &Home,
        embedder: Arc<dyn Embedder>,
        window: Option<CandidateWindow>,
    ) -> anyhow::Result<Local> {
        let config = home.load_config()?;
        Self::start(
            home,
            config,
            Arc::new(SystemClock),
            (embedder, window),
            Open::ReadWrite,
        )
    }

    /// `init`: creates the database, turns agent memories on and writes `config.json` last, so
    /// an interrupted init leaves no config behind and can be run again on a clean directory.
    pub(crate) fn init(
        home: &Home,
        backend: BackendKind,
        clock: Arc<dyn Clock>,
    ) -> anyhow::Result<(Local, Settings)> {
        Self::init_with_embedder(home, backend, clock, Arc::new(HashingEmbedder::new()), None)
    }

    /// [`Local::init`], embedding with `embedder` from the start and recalling over `window`
    /// (the demo's tour).
    pub(crate) fn init_with_embedder(
        home: &Home,
        backend: BackendKind,
        clock: Arc<dyn Clock>,
        embedder: Arc<dyn Embedder>,
        window: Option<CandidateWindow>,
    ) -> anyhow::Result<(Local, Settings)> {
        let already = || {
            anyhow::anyhow!(
                "{} is already initialised ({} exists); use it as it is, or remove the \
                 directory to start over",
                home.root().display(),
                home.config_path().display()
            )
        };
        if home.is_initialized() {
            return Err(already());
        }
        // Nothing is created for a backend this build lacks.
        backend.require_built()?;
        std::fs::create_dir_all(home.root())
            .with_context(|| format!("creating {}", home.root().display()))?;
        // One init at a time: a concurrent one finds config.json once it holds the lock, and
        // says the home is initialised, as an init run after this one would.
        let _lock = home.lock()?;
        if home.is_initialized() {
            return Err(already());
        }
        home.warn_if_not_private();
        require_unused_database(&home.database_path(backend), backend)?;
        let config = Config::new(backend, clock.now().to_string());
        let local = Self::start(home, config, clock, (embedder, window), Open::Create)?;
        let settings = local.service.settings_put(
            &local.owner(),
            &agent_memory::SettingsPatch::default().agent_memories_enabled(true),
        )?;
        home.write_config(&local.config)?;
        Ok((local, settings))
    }

    /// [`Local::open_with_embedder`] for a process that agents reach (`mcp`, `serve`): their
    /// remembers are held to the home's hourly rate limit. Every other command is the owner's
    /// own and is not.
    #[cfg(any(feature = "mcp", feature = "http"))]
    pub(crate) fn open_for_agents(
        home: &Home,
        embedder: Arc<dyn Embedder>,
        window: Option<CandidateWindow>,
    ) -> anyhow::Result<Local> {
        let config = home.load_config()?;
        Self::start_with(
            home,
            config,
            Arc::new(SystemClock),
            (embedder, window),
            (Open::ReadWrite, true),
        )
    }

    fn start(
        home: &Home,
        config: Config,
        clock: Arc<dyn Clock>,
        models: (Arc<dyn Embedder>, Option<CandidateWindow>),
        open: Open,
    ) -> anyhow::Result<Local> {
        Self::start_with(home, config, clock, models, (open, false))
    }

    fn start_with(
        home: &Home,
        config: Config,
        clock: Arc<dyn Clock>,
        (embedder, window): (Arc<dyn Embedder>, Option<CandidateWindow>),
        (open, rate_limited): (Open, bool),
    ) -> anyhow::Result<Local> {
        // A flag wins over the home's recorded setting.
        let window = window.unwrap_or(config.recall.candidate_window);
        let weights = config
            .recall
            .weights
            .map(crate::home::WeightsConfig::weights)
            .transpose()?;
        let workspace = WorkspaceId::new(config.workspace.clone())?;
        let member = MemberId::new(config.member.clone())?;
        let credential = CredentialId::new(config.credential.clone())?;
        let path = home.database_path(config.backend);
        // `read_only`: no write can succeed, so no governance event can happen either.
        let (backend, read_only) = match open {
            Open::Create => open_storage(config.backend, &path, true)?,
            Open::ReadWrite => open_storage(config.backend, &path, false)?,
            Open::ReadOnly => (open_backend_read_only(config.backend, &path)?, true),
        };
        // A home written before passages moved into the database moves them there now.
        let legacy =
            crate::passages::import_legacy_file(home, backend.as_ref(), &workspace, !read_only)?;
        // An embedded database's format shuts out every build whose passage writes do not move
        // the stamp; a PostgreSQL database may still be shared with one, so it gives none.
        let stamped = config.backend != BackendKind::Postgres;
        let passages = Arc::new(StoredPassages::new(backend.clone(), legacy, stamped));
        // One handle (one open SQLite or redb file, one sled directory) serves both facades.
        let mut stores = StoreService::over(backend.clone()).clock(clock.clone());
        let mut service = MemoryService::builder(backend.clone(), passages)
            .clock(clock)
            .embedder(embedder)
            .candidate_window(window)
            .limits(config.limits)
            .rate_limited(rate_limited);
        if let Some(weights) = weights {
            service = service.weights(weights);
        }
        if !read_only {
            // One audit log for both facades (store deletions and redactions are events too).
            let audit = Arc::new(JsonLinesAuditSink::open(&home.audit_path())?);
            stores = stores.audit(audit.clone());
            service = service.audit(audit);
        }
        let stores = Arc::new(stores.build());
        let service = Arc::new(service.build()?);
        Ok(Local {
            home: home.clone(),
            config,
            service,
            stores,
            storage: backend,
            workspace,
            member,
            credential,
        })
    }

    /// The owner member, for settings and the member's own list and delete.
    pub(crate) fn owner(&self) -> MemberCaller {
        MemberCaller {
            workspace: self.workspace.clone(),
            member: self.member.clone(),
            role: Role::Owner,
        }
    }

    /// The owner member as the caller of memory-store operations (recorded as `user_actor`).
    pub(crate) fn store_caller(&self) -> StoreCaller {
        StoreCaller::Member(self.owner())
    }

    /// The local agent credential: the owner's, with both scopes, bound to no context set.
    pub(crate) fn agent(&self) -> AgentCaller {
        AgentCaller::Resolved(AgentCredential {
            workspace: self.workspace.clone(),
            workspace_retaining: true,
            member: self.member.clone(),
            credential: self.credential.clone(),
            role: Some(Role::Owner),
            active: true,
            scopes: Scope::ALL.to_vec(),
            binding: ContextBinding::Unbound,
        })
    }

    /// Inserts or replaces a passage (by id) in the home's database, in one transaction.
    pub(crate) fn put_passage(&self, passage: Passage) -> anyhow::Result<()> {
        let record = crate::passages::encode(&passage)?;
        self.storage
            .put_passage(&self.workspace, &passage.id, &record)
            .map_err(anyhow::Error::new)
            .with_context(|| format!("storing passage {}", passage.id))
    }

    /// The passage `id`, if the home has one.
    pub(crate) fn get_passage(&self, id: &str) -> anyhow::Result<Option<Passage>> {
        let record = self
            .storage
            .passages(&self.workspace, &[id])
            .map_err(anyhow::Error::new)
            .context("reading passages")?
            .pop()
            .flatten();
        record
            .map(|bytes| crate::passages::decode(id, &bytes))
            .transpose()
    }

    /// The home's passages in id order, strictly after `after`, at most `limit`.
    pub(crate) fn list_passages(
        &self,
        after: Option<&str>,
        limit: usize,
    ) -> anyhow::Result<Vec<Passage>> {
        self.storage
            .list_passages(&self.workspace, after, limit)
            .map_err(anyhow::Error::new)
            .context("listing passages")?
            .into_iter()
            .map(|(id, bytes)| crate::passages::decode(&id, &bytes))
            .collect()
    }

    /// Removes the passage `id`; `false` when there was none.
    pub(crate) fn delete_passage(&self, id: &str) -> anyhow::Result<bool> {
        self.storage
            .delete_passage(&self.workspace, id)
            .map_err(anyhow::Error::new)
            .with_context(|| format!("deleting passage {id}"))
    }
}

/// How [`Local::start`] opens the database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Open {
    /// `init`: a new database.
    Create,
    /// An existing database, for every command that may write.
    ReadWrite,
    /// An existing database, for `list`, `recall` and `export`.
    ReadOnly,
}

#[cfg(all(test, feature = "sqlite"))]
mod tests {
    use super::*;
    use agent_memory::types::SourceState;
    use agent_memory::{RecallRequest, RememberRequest};

    /// Two handles on one SQLite home stand for two processes: a passage put or deleted
    /// through one moves the stamp that the other's recall over the whole history checks
    /// before it reuses the verdicts it kept, so the change shows on its next recall.
    #[test]
    fn a_passage_changed_by_another_handle_is_seen_by_kept_verdicts() {
        let dir = tempfile::tempdir().unwrap();
        let home = Home::new(dir.path().join("home"));
        let (writer, _) = Local::init(&home, BackendKind::Sqlite, Arc::new(SystemClock)).unwrap();
        let reader = Local::open_with_embedder(
            &home,
            Arc::new(HashingEmbedder::new()),
            Some(CandidateWindow::All),
        )
        .unwrap();
        let passage =
            |text: &str, version| Passage::new("p1", "handbook", "policies", version, text);
        writer
            .put_passage(passage("Refunds take 14 days.", 1))
            .unwrap();
        reader
            .service
            .remember(
                &reader.agent(),
                &RememberRequest::new("notes", "refunds take 14 days").citations(["p1"]),
            )
            .unwrap();
        let recall = || {
            reader
                .service
                .recall(&reader.agent(), &RecallRequest::new("refunds"))
                .unwrap()
        };
        let stamp = || {
            reader
                .storage
                .passage_generation(&reader.workspace)
                .unwrap()
        };
        let states = |r: &agent_memory::RecallResponse| -> Vec<SourceState> {
            r.memories.iter().map(|m| m.view.source_state).collect()
        };

        let before = stamp();
        assert!(before.is_some(), "an embedded home stamps its passages");
        assert_eq!(states(&recall()), [SourceState::Current]);
        // Twice: the second recall reuses the kept verdict.
        assert_eq!(states(&recall()), [SourceState::Current]);

        writer
            .put_passage(passage("Refunds take 30 days.", 2))
            .unwrap();
        assert_ne!(stamp(), before);
        assert_eq!(states(&recall()), [SourceState::Changed]);

        let changed = stamp();
        assert!(writer.delete_passage("p1").unwrap());
        assert_ne!(stamp(), changed);
        let gone = recall();
        assert!(gone.memories.is_empty());
        assert_eq!(gone.hidden, 1);
        // Reads and a delete of nothing leave the stamp.
        let after = stamp();
        assert!(!writer.delete_passage("p1").unwrap());
        assert_eq!(stamp(), after);
    }
}
