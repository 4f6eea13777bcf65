//! Agent memories and governance state: [`Backend`] on relational tables.
//!
//! Every operation that decides (remember) or changes an owner's versions runs in one
//! transaction holding, in this order, the workspace's advisory lock (shared; workspace-wide
//! purges and deletions take it exclusively), the owner's and — for remember — the credential's.
//! The fixed order makes the locks deadlock-free; holding them makes the decision and its writes
//! atomic across every process on the database.
//!
//! The recall index (schema version 2) lives beside the versions: `agent_memory_postings`, one
//! row per term of a version with its frequency, and `agent_memory_vectors`, its embedding. The
//! one function that writes a version (`insert`) writes its index rows in the same
//! transaction, `set_embedding` replaces the vector row in the transaction that rewrites the
//! record, and no code deletes index rows: both tables reference their version `ON DELETE
//! CASCADE`, so every statement that deletes versions deletes their index rows with them.
//! [`Backend::history`] reads versions, vectors and postings in one snapshot.

use std::collections::HashMap;
use std::sync::Arc;

use memory_core::{
    AgentMemory, AgentMemoryId, ApiError, CredentialId, Settings, StoredEmbedding, Timestamp,
    WorkspaceId,
};
use r2d2_postgres::postgres::GenericClient;
use r2d2_postgres::postgres::types::ToSql;
use store_trait::{
    Backend, Error, History, IndexStats, JsonError, MemberHistory, Owner, Postings,
    RememberOutcome, RememberState, RememberWrite, ScanQuery, VectorTable, check_decided_write,
    key_instant,
};

use crate::PostgresBackend;
use crate::client::{db, lock};
use crate::rows::{
    COLUMNS, corrupt, decode, decode_all, decode_vector, encode_vector, forget_key_in, insert,
    lock, lock_owner, lock_workspace, orphan_keys, too_many,
};

impl PostgresBackend {
    fn purge_where(
        &self,
        workspace: &WorkspaceId,
        condition: &str,
        param: &(dyn ToSql + Sync),
    ) -> Result<u64, Error> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction().map_err(db)?;
        lock_workspace(&mut tx, workspace)?;
        let removed = tx
            .execute(
                &format!("DELETE FROM agent_memory_versions WHERE workspace = $1 AND {condition}"),
                &[&workspace.as_str(), param],
            )
            .map_err(db)?;
        if removed > 0 {
            orphan_keys(&mut tx, workspace)?;
        }
        tx.commit().map_err(db)?;
        Ok(removed)
    }

    /// Versions of `owner` in scan order with the extra conditions (parameters from `$3`).
    fn select_versions(
        &self,
        owner: &Owner,
        conditions: &[String],
        params: &[&(dyn ToSql + Sync)],
        limit: usize,
    ) -> Result<Vec<AgentMemory>, Error> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let mut sql = format!(
            "SELECT {COLUMNS} FROM agent_memory_versions WHERE workspace = $1 AND member = $2"
        );
        for c in conditions {
            sql.push_str(" AND ");
            sql.push_str(c);
        }
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let ws = owner.workspace.as_str();
        let member = owner.member.as_str();
        let mut all: Vec<&(dyn ToSql + Sync)> = vec![&ws, &member];
        all.extend_from_slice(params);
        sql.push_str(&format!(
            " ORDER BY created_at DESC, id DESC LIMIT ${}",
            all.len() + 1
        ));
        all.push(&limit);
        let mut conn = self.conn()?;
        let rows = conn.query(&sql, &all).map_err(db)?;
        decode_all(&rows)
    }
}

impl Backend for PostgresBackend {
    fn remember(
        &self,
        owner: &Owner,
        credential: &CredentialId,
        key: Option<(&str, &str)>,
        window_start: Timestamp,
        expired_cutoff: Timestamp,
        decide: &mut dyn FnMut(&RememberState) -> Result<RememberWrite, ApiError>,
    ) -> Result<RememberOutcome, Error> {
        let ws = owner.workspace.as_str();
        let member = owner.member.as_str();
        let mut conn = self.conn()?;
        let mut tx = conn.transaction().map_err(db)?;
        lock_owner(&mut tx, owner)?;
        lock(&mut tx, lock::CREDENTIAL, &[ws, credential.as_str()], false)?;

        let window: Vec<i64> = tx
            .query_opt(
                "SELECT instants FROM rate_windows WHERE workspace = $1 AND credential = $2",
                &[&ws, &credential.as_str()],
            )
            .map_err(db)?
            .map_or_else(Vec::new, |r| r.get(0));
        let window: Vec<i64> = window
            .into_iter()
            .filter(|t| *t > window_start.as_millis())
            .collect();
        let stored: i64 = tx
            .query_one(
                "SELECT count(*) FROM agent_memory_versions WHERE workspace = $1 AND member = $2 \
                 AND created_at > $3",
                &[&ws, &member, &expired_cutoff.as_millis()],
            )
            .map_err(db)?
            .get(0);
        let (current, last_version) = match key {
            None => (None, 0),
            Some((namespace, k)) => {
                let row = tx
                    .query_opt(
                        &format!(
                            "SELECT {COLUMNS}, k.last_version FROM agent_memory_keys k \
                             LEFT JOIN agent_memory_versions v ON v.workspace = k.workspace \
                             AND v.member = k.member AND v.id = k.current_id \
                             WHERE k.workspace = $1 AND k.member = $2 AND k.namespace = $3 \
                             AND k.key = $4"
                        ),
                        &[&ws, &member, &namespace, &k],
                    )
                    .map_err(db)?;
                match row {
                    None => (None, 0),
                    Some(row) => {
                        let last: i32 = row.get(2);
                        let current = match row.get::<_, Option<&[u8]>>(0) {
                            Some(_) => Some(decode(&row)?),
                            None => None,
                        };
                        (current, u32::try_from(last).unwrap_or(0))
                    }
                }
            }
        };
        let state = RememberState {
            window: window
                .iter()
                .map(|t| Timestamp::from_millis_saturating(*t))
                .collect(),
            stored_versions: u64::try_from(stored).unwrap_or(0),
            current,
            last_version,
            settings: settings_in(&mut tx, &owner.workspace)?,
        };
        let write = match decide(&state) {
            Ok(write) => write,
            Err(refusal) => return Ok(RememberOutcome::Refused(refusal)),
        };
        let mut record = write.record;
        let id_taken = tx
            .query_opt(
                "SELECT 1 FROM agent_memory_versions WHERE workspace = $1 AND member = $2 AND id = $3",
                &[&ws, &member, &record.id.as_str()],
            )
            .map_err(db)?
            .is_some();
        check_decided_write(owner, credential, key, &record, id_taken)
            .map_err(Error::InvalidWrite)?;
        if let Some((namespace, k)) = key {
            // The owner's lock is held: no other remember of the key runs until this commits.
            let latest = match &state.current {
                Some(current) => Some(current.created_at),
                // A purge took the current version: the rest's latest `superseded_at`.
                None => tx
                    .query_one(
                        "SELECT max(GREATEST(created_at, superseded_at)) FROM agent_memory_versions \
                         WHERE workspace = $1 AND member = $2 AND namespace = $3 AND key = $4",
                        &[&ws, &member, &namespace, &k],
                    )
                    .map_err(db)?
                    .get::<_, Option<i64>>(0)
                    .map(Timestamp::from_millis_saturating),
            };
            record.created_at = key_instant(record.created_at, latest);
        }

        let mut superseded = None;
        if write.supersede_current
            && let Some(mut current) = state.current
        {
            tx.execute(
                "UPDATE agent_memory_versions SET superseded_at = $4 \
                 WHERE workspace = $1 AND member = $2 AND id = $3",
                &[
                    &ws,
                    &member,
                    &current.id.as_str(),
                    &record.created_at.as_millis(),
                ],
            )
            .map_err(db)?;
            current.superseded_at = Some(record.created_at);
            superseded = Some(current);
        }
        insert(&mut tx, &record)?;
        let mut instants = window;
        instants.push(record.created_at.as_millis());
        // Oldest first, whatever order concurrent callers' clocks gave.
        instants.sort_unstable();
        tx.execute(
            "INSERT INTO rate_windows (workspace, credential, instants) VALUES ($1, $2, $3) \
             ON CONFLICT (workspace, credential) DO UPDATE SET instants = EXCLUDED.instants",
            &[&ws, &credential.as_str(), &instants],
        )
        .map_err(db)?;
        if let Some((namespace, k)) = key {
            let version = i32::try_from(record.version).unwrap_or(i32::MAX);
            tx.execute(
                "INSERT INTO agent_memory_keys (workspace, member, namespace, key, current_id, \
                 last_version) VALUES ($1, $2, $3, $4, $5, $6) \
                 ON CONFLICT (workspace, member, namespace, key) DO UPDATE SET \
                 current_id = EXCLUDED.current_id, \
                 last_version = GREATEST(agent_memory_keys.last_version, EXCLUDED.last_version)",
                &[&ws, &member, &namespace, &k, &record.id.as_str(), &version],
            )
            .map_err(db)?;
        }
        tx.commit().map_err(db)?;
        Ok(RememberOutcome::Written { record, superseded })
    }

    fn get(&self, owner: &Owner, id: &AgentMemoryId) -> Result<Option<AgentMemory>, Error> {
        let mut conn = self.conn()?;
        let row = conn
            .query_opt(
                &format!(
                    "SELECT {COLUMNS} FROM agent_memory_versions \
                     WHERE workspace = $1 AND member = $2 AND id = $3"
                ),
                &[
                    &owner.workspace.as_str(),
                    &owner.member.as_str(),
                    &id.as_str(),
                ],
            )
            .map_err(db)?;
        row.as_ref().map(decode).transpose()
    }

    fn current_of_key(
        &self,
        owner: &Owner,
        namespace: &str,
        key: &str,
    ) -> Result<Option<AgentMemory>, Error> {
        let mut conn = self.conn()?;
        let row = conn
            .query_opt(
                &format!(
                    "SELECT {COLUMNS} FROM agent_memory_keys k JOIN agent_memory_versions v \
                     ON v.workspace = k.workspace AND v.member = k.member AND v.id = k.current_id \
                     WHERE k.workspace = $1 AND k.member = $2 AND k.namespace = $3 AND k.key = $4"
                ),
                &[
                    &owner.workspace.as_str(),
                    &owner.member.as_str(),
                    &namespace,
                    &key,
                ],
            )
            .map_err(db)?;
        row.as_ref().map(decode).transpose()
    }

    fn between_writes(&self, owner: &Owner, settle: &mut dyn FnMut()) -> Result<(), Error> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction().map_err(db)?;
        // The owner's lock: a remember of the owner in flight commits first, later ones wait.
        lock_owner(&mut tx, owner)?;
        settle();
        tx.commit().map_err(db)?;
        Ok(())
    }

    fn scan(&self, owner: &Owner, query: &ScanQuery) -> Result<Vec<AgentMemory>, Error> {
        let cutoff = query.expired_cutoff.as_millis();
        let valid_at = query.valid_at.as_millis();
        let mut conditions = vec![
            "created_at > $3".to_owned(),
            "created_at <= $4".to_owned(),
            "(superseded_at IS NULL OR superseded_at > $4)".to_owned(),
        ];
        let mut params: Vec<&(dyn ToSql + Sync)> = vec![&cutoff, &valid_at];
        let after_at = query.after.as_ref().map(|(t, _)| t.as_millis());
        let after_id = query.after.as_ref().map(|(_, id)| id.as_str());
        for (column, value) in [
            ("namespace", &query.namespace),
            ("key", &query.key),
            ("collection_id", &query.collection_id),
        ] {
            if let Some(value) = value {
                params.push(value);
                conditions.push(format!("{column} = ${}", params.len() + 2));
            }
        }
        if let (Some(at), Some(id)) = (&after_at, &after_id) {
            params.push(at);
            params.push(id);
            conditions.push(format!(
                "(created_at, id) < (${}, ${})",
                params.len() + 1,
                params.len() + 2
            ));
        }
        self.select_versions(owner, &conditions, &params, query.limit)
    }

    fn scan_shared(
        &self,
        owner: &Owner,
        query: &ScanQuery,
    ) -> Result<Vec<Arc<AgentMemory>>, Error> {
        Ok(self.scan(owner, query)?.into_iter().map(Arc::new).collect())
    }

    fn versions(
        &self,
        owner: &Owner,
        expired_cutoff: Timestamp,
        after: Option<&(Timestamp, AgentMemoryId)>,
        limit: usize,
    ) -> Result<Vec<AgentMemory>, Error> {
        let cutoff = expired_cutoff.as_millis();
        let mut conditions = vec!["created_at > $3".to_owned()];
        let mut params: Vec<&(dyn ToSql + Sync)> = vec![&cutoff];
        let after_at = after.map(|(t, _)| t.as_millis());
        let after_id = after.map(|(_, id)| id.as_str());
        if let (Some(at), Some(id)) = (&after_at, &after_id) {
            params.push(at);
            params.push(id);
            conditions.push("(created_at, id) < ($4, $5)".to_owned());
        }
        self.select_versions(owner, &conditions, &params, limit)
    }

    /// From the recall index, in one read-only `REPEATABLE READ` transaction (one snapshot):
    /// the owner's versions newest first, their vectors from `agent_memory_vectors` row-aligned,
    /// the statistics counted over those rows, and each asked term's postings from
    /// `agent_memory_postings` mapped to rows.
    fn history(&self, owner: &Owner, terms: &[String]) -> Result<History, Error> {
        let ws = owner.workspace.as_str();
        let member = owner.member.as_str();
        let mut conn = self.conn()?;
        let mut tx = crate::kv::snapshot(&mut conn)?;
        let rows: Vec<Arc<AgentMemory>> = tx
            .query(
                &format!(
                    "SELECT {COLUMNS} FROM agent_memory_versions WHERE workspace = $1 \
                     AND member = $2 ORDER BY created_at DESC, id DESC"
                ),
                &[&ws, &member],
            )
            .map_err(db)?
            .iter()
            .map(|row| decode(row).map(Arc::new))
            .collect::<Result<_, _>>()?;
        let row_of: HashMap<&str, u32> = rows
            .iter()
            .enumerate()
            .map(|(row, m)| Ok((m.id.as_str(), u32::try_from(row).map_err(too_many)?)))
            .collect::<Result<_, Error>>()?;

        let stored = tx
            .query(
                "SELECT id, model, vector FROM agent_memory_vectors \
                 WHERE workspace = $1 AND member = $2",
                &[&ws, &member],
            )
            .map_err(db)?;
        let mut slots: Vec<Option<usize>> = vec![None; rows.len()];
        for (i, vector) in stored.iter().enumerate() {
            let row = *row_of
                .get(vector.get::<_, &str>(0))
                .ok_or_else(|| corrupt("a vector without its version"))?;
            slots[row as usize] = Some(i);
        }
        let mut vectors = VectorTable::default();
        let mut values = Vec::new();
        for slot in slots {
            match slot {
                None => vectors.push(None),
                Some(i) => {
                    decode_vector(stored[i].get(2), &mut values)?;
                    vectors.push(Some((stored[i].get(1), values.as_slice())));
                }
            }
        }

        let mut wanted: Vec<&str> = terms.iter().map(String::as_str).collect();
        wanted.sort_unstable();
        wanted.dedup();
        let mut lists: HashMap<&str, Vec<(u32, u32)>> = HashMap::new();
        let found = if wanted.is_empty() {
            Vec::new()
        } else {
            tx.query(
                "SELECT term, id, frequency FROM agent_memory_postings \
                 WHERE workspace = $1 AND member = $2 AND term = ANY($3)",
                &[&ws, &member, &wanted],
            )
            .map_err(db)?
        };
        tx.commit().map_err(db)?;
        for posting in &found {
            let row = *row_of
                .get(posting.get::<_, &str>(1))
                .ok_or_else(|| corrupt("a posting without its version"))?;
            let frequency = u32::try_from(posting.get::<_, i64>(2))
                .map_err(|_| corrupt("a posting's frequency"))?;
            lists
                .entry(posting.get::<_, &str>(0))
                .or_default()
                .push((row, frequency));
        }
        let lists: HashMap<&str, Postings> = lists
            .into_iter()
            .map(|(term, mut list)| {
                list.sort_unstable();
                (term, Postings::from(list))
            })
            .collect();
        let empty: Postings = Postings::from(Vec::new());
        let postings = terms
            .iter()
            .map(|t| Arc::clone(lists.get(t.as_str()).unwrap_or(&empty)))
            .collect();

        let stats = IndexStats {
            documents: rows.len() as u64,
            total_length: rows.iter().map(|m| u64::from(m.ranking.length)).sum(),
        };
        Ok(History {
            versions: Arc::new(MemberHistory::from_parts(rows, vectors, stats)),
            postings,
        })
    }

    fn set_embedding(
        &self,
        owner: &Owner,
        id: &AgentMemoryId,
        embedding: &StoredEmbedding,
    ) -> Result<bool, Error> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction().map_err(db)?;
        lock_owner(&mut tx, owner)?;
        let params: [&(dyn ToSql + Sync); 3] = [
            &owner.workspace.as_str(),
            &owner.member.as_str(),
            &id.as_str(),
        ];
        let Some(row) = tx
            .query_opt(
                &format!(
                    "SELECT {COLUMNS} FROM agent_memory_versions \
                     WHERE workspace = $1 AND member = $2 AND id = $3"
                ),
                &params,
            )
            .map_err(db)?
        else {
            return Ok(false);
        };
        let mut memory = decode(&row)?;
        memory.ranking.embedding = Some(embedding.clone());
        memory.superseded_at = None;
        let record = store_trait::codec::encode(&memory)
            .map_err(|e| Error::other("encoding a version", e))?;
        tx.execute(
            "UPDATE agent_memory_versions SET record = $4 \
             WHERE workspace = $1 AND member = $2 AND id = $3",
            &[params[0], params[1], params[2], &record],
        )
        .map_err(db)?;
        // The index's copy of the embedding, replaced in the same transaction.
        tx.execute(
            "INSERT INTO agent_memory_vectors (workspace, member, id, model, vector) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (workspace, member, id) DO UPDATE SET \
             model = EXCLUDED.model, vector = EXCLUDED.vector",
            &[
                params[0],
                params[1],
                params[2],
                &embedding.model,
                &encode_vector(&embedding.vector),
            ],
        )
        .map_err(db)?;
        tx.commit().map_err(db)?;
        Ok(true)
    }

    fn forget_key(
        &self,
        owner: &Owner,
        namespace: &str,
        key: &str,
    ) -> Result<Vec<AgentMemory>, Error> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction().map_err(db)?;
        lock_owner(&mut tx, owner)?;
        let removed = forget_key_in(&mut tx, owner, namespace, key)?;
        tx.commit().map_err(db)?;
        Ok(removed)
    }

    fn forget_id(&self, owner: &Owner, id: &AgentMemoryId) -> Result<Vec<AgentMemory>, Error> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction().map_err(db)?;
        lock_owner(&mut tx, owner)?;
        let rows = tx
            .query(
                &format!(
                    "SELECT {COLUMNS} FROM agent_memory_versions \
                     WHERE workspace = $1 AND member = $2 AND id = $3"
                ),
                &[
                    &owner.workspace.as_str(),
                    &owner.member.as_str(),
                    &id.as_str(),
                ],
            )
            .map_err(db)?;
        let Some(row) = rows.first() else {
            return Ok(Vec::new());
        };
        let memory = decode(row)?;
        let removed = match &memory.key {
            Some(key) => forget_key_in(&mut tx, owner, &memory.namespace, key)?,
            None => {
                tx.execute(
                    "DELETE FROM agent_memory_versions WHERE workspace = $1 AND member = $2 \
                     AND id = $3",
                    &[
                        &owner.workspace.as_str(),
                        &owner.member.as_str(),
                        &id.as_str(),
                    ],
                )
                .map_err(db)?;
                vec![memory]
            }
        };
        tx.commit().map_err(db)?;
        Ok(removed)
    }

    fn delete_owner(&self, owner: &Owner) -> Result<u64, Error> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction().map_err(db)?;
        lock_owner(&mut tx, owner)?;
        let params: [&(dyn ToSql + Sync); 2] = [&owner.workspace.as_str(), &owner.member.as_str()];
        let removed = tx
            .execute(
                "DELETE FROM agent_memory_versions WHERE workspace = $1 AND member = $2",
                &params,
            )
            .map_err(db)?;
        tx.execute(
            "DELETE FROM agent_memory_keys WHERE workspace = $1 AND member = $2",
            &params,
        )
        .map_err(db)?;
        tx.commit().map_err(db)?;
        Ok(removed)
    }

    fn delete_workspace(&self, workspace: &WorkspaceId) -> Result<u64, Error> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction().map_err(db)?;
        lock_workspace(&mut tx, workspace)?;
        let removed = tx
            .execute(
                "DELETE FROM agent_memory_versions WHERE workspace = $1",
                &[&workspace.as_str()],
            )
            .map_err(db)?;
        tx.execute(
            "DELETE FROM agent_memory_keys WHERE workspace = $1",
            &[&workspace.as_str()],
        )
        .map_err(db)?;
        tx.commit().map_err(db)?;
        Ok(removed)
    }

    fn purge_expired(&self, workspace: &WorkspaceId, cutoff: Timestamp) -> Result<u64, Error> {
        self.purge_where(workspace, "created_at <= $2", &cutoff.as_millis())
    }

    fn purge_document(&self, workspace: &WorkspaceId, document_id: &str) -> Result<u64, Error> {
        self.purge_where(workspace, "$2 = ANY(documents)", &document_id)
    }

    fn purge_collection(&self, workspace: &WorkspaceId, collection_id: &str) -> Result<u64, Error> {
        self.purge_where(
            workspace,
            "(collection_id = $2 OR $2 = ANY(collections))",
            &collection_id,
        )
    }

    fn stored_versions(&self, owner: &Owner, expired_cutoff: Timestamp) -> Result<u64, Error> {
        let mut conn = self.conn()?;
        let n: i64 = conn
            .query_one(
                "SELECT count(*) FROM agent_memory_versions WHERE workspace = $1 AND member = $2 \
                 AND created_at > $3",
                &[
                    &owner.workspace.as_str(),
                    &owner.member.as_str(),
                    &expired_cutoff.as_millis(),
                ],
            )
            .map_err(db)?
            .get(0);
        Ok(u64::try_from(n).unwrap_or(0))
    }

    fn settings(&self, workspace: &WorkspaceId) -> Result<Option<Settings>, Error> {
        settings_in(&mut *self.conn()?, workspace)
    }

    fn put_settings(&self, workspace: &WorkspaceId, settings: &Settings) -> Result<(), Error> {
        let json = serde_json::to_string(settings)
            .map_err(|e| Error::other("encoding settings", JsonError::from(e)))?;
        let mut conn = self.conn()?;
        conn.execute(
            "INSERT INTO workspace_settings (workspace, settings) VALUES ($1, $2) \
             ON CONFLICT (workspace) DO UPDATE SET settings = EXCLUDED.settings",
            &[&workspace.as_str(), &json],
        )
        .map_err(db)?;
        Ok(())
    }
}

/// The workspace's stored settings, read through `client`: a connection, or a remember's
/// transaction, which reads them beside what it decides on.
fn settings_in(
    client: &mut impl GenericClient,
    workspace: &WorkspaceId,
) -> Result<Option<Settings>, Error> {
    let row = client
        .query_opt(
            "SELECT settings FROM workspace_settings WHERE workspace = $1",
            &[&workspace.as_str()],
        )
        .map_err(db)?;
    row.map(|r| {
        serde_json::from_str(r.get(0)).map_err(|e| {
            Error::undecodable(
                "workspace_settings: undecodable settings",
                JsonError::from(e),
            )
        })
    })
    .transpose()
}
