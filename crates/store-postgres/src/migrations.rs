//! The embedded, versioned schema migrations, applied at open.
//!
//! Each entry is one version; a database records the versions applied in `schema_migrations`.
//! Migrations only ever append: a released entry never changes.

use r2d2_postgres::postgres::Transaction;
use store_trait::Error;

/// `(version, SQL)` in order. Text columns that order or match identifiers use the `C`
/// collation, so that ordering is byte order (the order `memory_core`'s ids sort in) whatever the
/// database's default collation.
///
/// Version 2 is the recall index: `agent_memory_postings` (one row per term of a version's
/// masked text, with its frequency) and `agent_memory_vectors` (a version's embedding: the model
/// and the vector as f32 little-endian bytes). Both reference their version with `ON DELETE
/// CASCADE`, so deleting a version deletes its index rows in the same statement; the index on
/// the postings' `(workspace, member, id)` keeps that cascade an index lookup.
///
/// Version 3 is analyzer version 2 (`fusion_rank::ANALYZER_VERSION`: function words dropped,
/// words stemmed): every posting is deleted, and its Rust step computes every version's term
/// counts again from its masked text, rewrites the record where they changed and writes the new
/// postings (the vectors do not depend on the analyzer and stay).
pub(crate) const MIGRATIONS: &[(i32, &str)] = &[
    (
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
    ),
    (
        2,
        r#"
CREATE TABLE agent_memory_postings (
    workspace text COLLATE "C" NOT NULL,
    member    text COLLATE "C" NOT NULL,
    term      text COLLATE "C" NOT NULL,
    id        text COLLATE "C" NOT NULL,
    frequency bigint NOT NULL CHECK (frequency > 0 AND frequency <= 4294967295),
    PRIMARY KEY (workspace, member, term, id),
    FOREIGN KEY (workspace, member, id)
        REFERENCES agent_memory_versions (workspace, member, id) ON DELETE CASCADE
);
CREATE INDEX agent_memory_postings_version ON agent_memory_postings (workspace, member, id);
CREATE TABLE agent_memory_vectors (
    workspace text COLLATE "C" NOT NULL,
    member    text COLLATE "C" NOT NULL,
    id        text COLLATE "C" NOT NULL,
    model     text NOT NULL,
    vector    bytea NOT NULL CHECK (length(vector) % 4 = 0),
    PRIMARY KEY (workspace, member, id),
    FOREIGN KEY (workspace, member, id)
        REFERENCES agent_memory_versions (workspace, member, id) ON DELETE CASCADE
);
"#,
    ),
    (
        3,
        r#"
DELETE FROM agent_memory_postings;
"#,
    ),
];

/// The Rust step of a version, run after its SQL in the same transaction (before the version is
/// recorded): a backfill of what the SQL created from the data already stored. Like the SQL, a
/// released step never changes.
///
/// - 2: the recall index of every version already stored (`crate::rows::build_index`).
/// - 3: every version analyzed again (`crate::rows::reanalyze`).
pub(crate) fn after_sql(version: i32, tx: &mut Transaction<'_>) -> Result<(), Error> {
    match version {
        2 => crate::rows::build_index(tx),
        3 => crate::rows::reanalyze(tx),
        _ => Ok(()),
    }
}

/// The newest schema version this build knows.
pub(crate) fn latest() -> i32 {
    MIGRATIONS.last().map_or(0, |(v, _)| *v)
}
