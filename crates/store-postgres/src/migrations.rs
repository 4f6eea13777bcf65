//! The embedded, versioned schema migrations, applied at open.
//!
//! Each entry is one version; a database records the versions applied in `schema_migrations`.
//! Migrations only ever append: a released entry never changes.

/// `(version, SQL)` in order. Text columns that order or match identifiers use the `C`
/// collation, so that ordering is byte order (the order `memory_core`'s ids sort in) whatever the
/// database's default collation.
pub(crate) const MIGRATIONS: &[(i32, &str)] = &[(
    1,
    r#"
CREATE TABLE agent_memory_versions (
    workspace     text COLLATE "C" NOT NULL,
    member        text COLLATE "C" NOT NULL,
    id            text COLLATE "C" NOT NULL,
    created_at    bigint NOT NULL,
    superseded_at bigint,
    namespace     text COLLATE "C" NOT NULL,
    key           text COLLATE "C",
    collection_id text COLLATE "C",
    documents     text[] COLLATE "C" NOT NULL,
    collections   text[] COLLATE "C" NOT NULL,
    record        bytea NOT NULL,
    PRIMARY KEY (workspace, member, id)
);
CREATE INDEX agent_memory_versions_recent
    ON agent_memory_versions (workspace, member, created_at DESC, id DESC);
CREATE INDEX agent_memory_versions_key
    ON agent_memory_versions (workspace, member, namespace, key) WHERE key IS NOT NULL;
CREATE INDEX agent_memory_versions_workspace_created
    ON agent_memory_versions (workspace, created_at);
CREATE TABLE agent_memory_keys (
    workspace    text COLLATE "C" NOT NULL,
    member       text COLLATE "C" NOT NULL,
    namespace    text COLLATE "C" NOT NULL,
    key          text COLLATE "C" NOT NULL,
    current_id   text COLLATE "C",
    last_version integer NOT NULL,
    PRIMARY KEY (workspace, member, namespace, key)
);
CREATE TABLE rate_windows (
    workspace  text COLLATE "C" NOT NULL,
    credential text COLLATE "C" NOT NULL,
    instants   bigint[] NOT NULL,
    PRIMARY KEY (workspace, credential)
);
CREATE TABLE workspace_settings (
    workspace text COLLATE "C" PRIMARY KEY,
    settings  text NOT NULL
);
CREATE TABLE memory_store_kv (
    k bytea PRIMARY KEY,
    v bytea NOT NULL
);
"#,
)];

/// The newest schema version this build knows.
pub(crate) fn latest() -> i32 {
    MIGRATIONS.last().map_or(0, |(v, _)| *v)
}
