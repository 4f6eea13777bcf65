//! Rows of the agent-memory tables, in a transaction: the advisory locks, versions read and
//! written with their index rows, the recall index's rebuilds that migrations 2 and 3 run, and
//! the key bookkeeping a forget needs.

use memory_core::{AgentMemory, Timestamp, WorkspaceId};
use r2d2_postgres::postgres::{Row, Transaction};
use store_trait::{Error, Owner};

use crate::client::{db, lock};

pub(crate) const COLUMNS: &str = "record, superseded_at";

/// Locks `key` (length-delimited components, so no two keys collide by concatenation) of
/// `class` until the transaction ends.
pub(crate) fn lock(
    tx: &mut Transaction<'_>,
    class: i32,
    parts: &[&str],
    shared: bool,
) -> Result<(), Error> {
    let mut key = String::new();
    for part in parts {
        key.push_str(&part.len().to_string());
        key.push(':');
        key.push_str(part);
    }
    let sql = if shared {
        "SELECT pg_advisory_xact_lock_shared($1, hashtext(current_schema() || ':' || $2))"
    } else {
        "SELECT pg_advisory_xact_lock($1, hashtext(current_schema() || ':' || $2))"
    };
    tx.execute(sql, &[&class, &key]).map_err(db)?;
    Ok(())
}

/// The locks of an operation on one owner's versions.
pub(crate) fn lock_owner(tx: &mut Transaction<'_>, owner: &Owner) -> Result<(), Error> {
    lock(tx, lock::WORKSPACE, &[owner.workspace.as_str()], true)?;
    lock(
        tx,
        lock::OWNER,
        &[owner.workspace.as_str(), owner.member.as_str()],
        false,
    )
}

/// The lock of a workspace-wide change.
pub(crate) fn lock_workspace(
    tx: &mut Transaction<'_>,
    workspace: &WorkspaceId,
) -> Result<(), Error> {
    lock(tx, lock::WORKSPACE, &[workspace.as_str()], false)
}

pub(crate) fn decode(row: &Row) -> Result<AgentMemory, Error> {
    let bytes: &[u8] = row.get(0);
    let mut memory = store_trait::codec::decode(bytes)
        .map_err(|e| Error::undecodable("agent_memory_versions: undecodable version", e))?;
    // The column is authoritative: superseding updates it without rewriting the record.
    memory.superseded_at = row
        .get::<_, Option<i64>>(1)
        .map(Timestamp::from_millis_saturating);
    Ok(memory)
}

pub(crate) fn decode_all(rows: &[Row]) -> Result<Vec<AgentMemory>, Error> {
    rows.iter().map(decode).collect()
}

/// Writes a version: its row and its recall-index rows, in the caller's transaction.
pub(crate) fn insert(tx: &mut Transaction<'_>, memory: &AgentMemory) -> Result<(), Error> {
    insert_row(tx, memory)?;
    insert_index(tx, std::slice::from_ref(memory))
}

/// The version's row in `agent_memory_versions` (all that schema version 1 wrote).
pub(crate) fn insert_row(tx: &mut Transaction<'_>, memory: &AgentMemory) -> Result<(), Error> {
    let record =
        store_trait::codec::encode(memory).map_err(|e| Error::other("encoding a version", e))?;
    let documents: Vec<&str> = memory
        .citations
        .iter()
        .map(|c| c.document_id.as_str())
        .collect();
    let collections: Vec<&str> = memory
        .citations
        .iter()
        .map(|c| c.collection_id.as_str())
        .collect();
    tx.execute(
        "INSERT INTO agent_memory_versions (workspace, member, id, created_at, superseded_at, \
         namespace, key, collection_id, documents, collections, record) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        &[
            &memory.workspace.as_str(),
            &memory.member.as_str(),
            &memory.id.as_str(),
            &memory.created_at.as_millis(),
            &memory.superseded_at.map(Timestamp::as_millis),
            &memory.namespace,
            &memory.key,
            &memory.collection_id,
            &documents,
            &collections,
            &record,
        ],
    )
    .map_err(db)?;
    Ok(())
}

/// The recall-index rows of `memories` (whose version rows exist): one posting per term with a
/// positive frequency, and the embedding when there is one. Two statements whatever the number
/// of versions. A version's terms are read through `store_trait::indexed_terms`, as every
/// backend's index reads them (a term listed twice counts its frequencies added up).
///
/// Nothing deletes these rows one by one: they reference their version `ON DELETE CASCADE`, so
/// every statement that deletes a version (forget, purge, deletion) deletes its index with it.
pub(crate) fn insert_index(
    tx: &mut Transaction<'_>,
    memories: &[AgentMemory],
) -> Result<(), Error> {
    insert_postings(tx, memories)?;
    insert_vectors(tx, memories)
}

/// The posting rows of `memories` (one statement).
pub(crate) fn insert_postings(
    tx: &mut Transaction<'_>,
    memories: &[AgentMemory],
) -> Result<(), Error> {
    let (mut p_ws, mut p_member, mut p_term, mut p_id, mut p_frequency) = (
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::<i64>::new(),
    );
    for memory in memories {
        for (term, frequency) in store_trait::indexed_terms(memory) {
            p_ws.push(memory.workspace.as_str());
            p_member.push(memory.member.as_str());
            p_term.push(term);
            p_id.push(memory.id.as_str());
            p_frequency.push(i64::from(frequency));
        }
    }
    if !p_term.is_empty() {
        tx.execute(
            "INSERT INTO agent_memory_postings (workspace, member, term, id, frequency) \
             SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[])",
            &[&p_ws, &p_member, &p_term, &p_id, &p_frequency],
        )
        .map_err(db)?;
    }
    Ok(())
}

/// The vector rows of `memories` that have an embedding (one statement).
pub(crate) fn insert_vectors(
    tx: &mut Transaction<'_>,
    memories: &[AgentMemory],
) -> Result<(), Error> {
    let (mut v_ws, mut v_member, mut v_id, mut v_model, mut v_vector) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for memory in memories {
        if let Some(embedding) = &memory.ranking.embedding {
            v_ws.push(memory.workspace.as_str());
            v_member.push(memory.member.as_str());
            v_id.push(memory.id.as_str());
            v_model.push(embedding.model.as_str());
            v_vector.push(encode_vector(&embedding.vector));
        }
    }
    if !v_id.is_empty() {
        tx.execute(
            "INSERT INTO agent_memory_vectors (workspace, member, id, model, vector) \
             SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bytea[])",
            &[&v_ws, &v_member, &v_id, &v_model, &v_vector],
        )
        .map_err(db)?;
    }
    Ok(())
}

/// A vector as the vectors table stores it: each value's f32 little-endian bytes, in order.
pub(crate) fn encode_vector(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The values of [`encode_vector`]'s bytes into `out` (cleared first).
pub(crate) fn decode_vector(bytes: &[u8], out: &mut Vec<f32>) -> Result<(), Error> {
    let chunks = bytes.chunks_exact(4);
    if !chunks.remainder().is_empty() {
        return Err(corrupt(
            "a vector whose length is not a multiple of 4 bytes",
        ));
    }
    out.clear();
    out.extend(chunks.map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])));
    Ok(())
}

pub(crate) fn too_many(e: std::num::TryFromIntError) -> Error {
    Error::other("a history of more than u32::MAX versions", e)
}

pub(crate) fn corrupt(what: &'static str) -> Error {
    Error::corrupt(format!("recall index: {what}"))
}

/// Calls `f` with every stored version, a batch at a time, read through a portal of the
/// migration's transaction and decoded with the codec. The portal reads the snapshot it was
/// opened in, so what `f` writes never feeds back into it.
pub(crate) fn each_batch(
    tx: &mut Transaction<'_>,
    mut f: impl FnMut(&mut Transaction<'_>, Vec<AgentMemory>) -> Result<(), Error>,
) -> Result<(), Error> {
    const BATCH: i32 = 1_000;
    let portal = tx
        .bind(&format!("SELECT {COLUMNS} FROM agent_memory_versions"), &[])
        .map_err(db)?;
    loop {
        let rows = tx.query_portal(&portal, BATCH).map_err(db)?;
        if rows.is_empty() {
            return Ok(());
        }
        f(tx, decode_all(&rows)?)?;
    }
}

/// Schema version 2's backfill: the recall index of every version already stored (the index
/// tables are new, so empty).
pub(crate) fn build_index(tx: &mut Transaction<'_>) -> Result<(), Error> {
    each_batch(tx, |tx, batch| insert_index(tx, &batch))
}

/// Schema version 3's step (analyzer version 2): every version's term counts computed again
/// from its masked text (`store_trait::reanalyzed`), its record rewritten where they changed,
/// and its postings written (the migration's SQL deleted them all).
pub(crate) fn reanalyze(tx: &mut Transaction<'_>) -> Result<(), Error> {
    each_batch(tx, |tx, stored| {
        let mut batch = Vec::with_capacity(stored.len());
        for stored in stored {
            let memory = store_trait::reanalyzed(&stored);
            if memory.ranking != stored.ranking {
                let record = store_trait::codec::encode(&memory)
                    .map_err(|e| Error::other("encoding a version", e))?;
                tx.execute(
                    "UPDATE agent_memory_versions SET record = $4 \
                     WHERE workspace = $1 AND member = $2 AND id = $3",
                    &[
                        &memory.workspace.as_str(),
                        &memory.member.as_str(),
                        &memory.id.as_str(),
                        &record,
                    ],
                )
                .map_err(db)?;
            }
            batch.push(memory);
        }
        insert_postings(tx, &batch)
    })
}

/// Newest first, as the trait answers removals.
pub(crate) fn newest_first(mut versions: Vec<AgentMemory>) -> Vec<AgentMemory> {
    versions.sort_by(|a, b| (b.created_at, &b.id).cmp(&(a.created_at, &a.id)));
    versions
}

/// Removes every version of (namespace, key) and, when there was one, the key's index entry
/// (resetting its numbering).
pub(crate) fn forget_key_in(
    tx: &mut Transaction<'_>,
    owner: &Owner,
    namespace: &str,
    key: &str,
) -> Result<Vec<AgentMemory>, Error> {
    let rows = tx
        .query(
            &format!(
                "DELETE FROM agent_memory_versions WHERE workspace = $1 AND member = $2 \
                 AND namespace = $3 AND key = $4 RETURNING {COLUMNS}"
            ),
            &[
                &owner.workspace.as_str(),
                &owner.member.as_str(),
                &namespace,
                &key,
            ],
        )
        .map_err(db)?;
    if !rows.is_empty() {
        tx.execute(
            "DELETE FROM agent_memory_keys WHERE workspace = $1 AND member = $2 \
             AND namespace = $3 AND key = $4",
            &[
                &owner.workspace.as_str(),
                &owner.member.as_str(),
                &namespace,
                &key,
            ],
        )
        .map_err(db)?;
    }
    Ok(newest_first(decode_all(&rows)?))
}

/// After a purge: keys whose current version is gone have none (older versions stay superseded).
pub(crate) fn orphan_keys(tx: &mut Transaction<'_>, workspace: &WorkspaceId) -> Result<(), Error> {
    tx.execute(
        "UPDATE agent_memory_keys k SET current_id = NULL WHERE k.workspace = $1 \
         AND k.current_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM agent_memory_versions v \
         WHERE v.workspace = k.workspace AND v.member = k.member AND v.id = k.current_id)",
        &[&workspace.as_str()],
    )
    .map_err(db)?;
    Ok(())
}
