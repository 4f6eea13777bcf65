//! Memory stores: the ordered key space of `store_trait::kv` on the table
//! `memory_store_kv (k bytea primary key, v bytea)`. `bytea` compares byte by byte, so the
//! table's order is the key space's order. [`StoreBackend`] is `store_trait::kv`'s one
//! implementation over it, method by method (agent memories keep tables of their own, in
//! `crate::agent`, so this backend is no `KvBackend`).

use std::cell::RefCell;

use memory_core::{
    MemoryStore, MemoryStoreId, MemoryVersion, MemoryVersionId, Session, SessionId, StoreMemory,
    StoreMemoryId, StoreMemoryMetadata, StorePath, Timestamp, WorkspaceId,
};
use r2d2_postgres::postgres::{Client, IsolationLevel, Transaction};
use store_trait::kv::{self, Decided, Kv, KvOp, KvRead};
use store_trait::{Error, MemoryWrite, MemoryWriteOutcome, RedactOutcome, StoreBackend};

use crate::{PostgresBackend, db, lock};

/// Rows fetched per round trip of a range scan.
const BATCH: i32 = 256;

/// A view over one transaction. The `RefCell` lets the `&self` reads of [`KvRead`] use the
/// transaction; no borrow is held while a visitor runs, so a visitor may read again.
struct View<'t, 'c> {
    tx: RefCell<&'t mut Transaction<'c>>,
}

impl KvRead for View<'_, '_> {
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, Error> {
        let row = self
            .tx
            .borrow_mut()
            .query_opt("SELECT v FROM memory_store_kv WHERE k = $1", &[&key])
            .map_err(db)?;
        Ok(row.map(|r| r.get(0)))
    }

    fn range(
        &self,
        start: &[u8],
        end: &[u8],
        reverse: bool,
        visit: &mut dyn FnMut(&[u8], &[u8]) -> bool,
    ) -> Result<(), Error> {
        let sql = if reverse {
            "SELECT k, v FROM memory_store_kv WHERE k >= $1 AND k < $2 ORDER BY k DESC"
        } else {
            "SELECT k, v FROM memory_store_kv WHERE k >= $1 AND k < $2 ORDER BY k"
        };
        let portal = {
            let mut tx = self.tx.borrow_mut();
            let statement = tx.prepare(sql).map_err(db)?;
            tx.bind(&statement, &[&start, &end]).map_err(db)?
        };
        loop {
            let rows = self
                .tx
                .borrow_mut()
                .query_portal(&portal, BATCH)
                .map_err(db)?;
            let last = rows.len() < BATCH as usize;
            for row in rows {
                let k: &[u8] = row.get(0);
                let v: &[u8] = row.get(1);
                if !visit(k, v) {
                    return Ok(());
                }
            }
            if last {
                return Ok(());
            }
        }
    }
}

/// A read-only `REPEATABLE READ` transaction: one snapshot for every read made in it.
pub(crate) fn snapshot(conn: &mut Client) -> Result<Transaction<'_>, Error> {
    conn.build_transaction()
        .isolation_level(IsolationLevel::RepeatableRead)
        .read_only(true)
        .start()
        .map_err(db)
}

impl Kv for PostgresBackend {
    /// A read-only `REPEATABLE READ` transaction: one snapshot for every read of `f`.
    fn read<R>(&self, f: &mut dyn FnMut(&dyn KvRead) -> Result<R, Error>) -> Result<R, Error> {
        let mut conn = self.conn()?;
        let mut tx = snapshot(&mut conn)?;
        let answer = f(&View {
            tx: RefCell::new(&mut tx),
        })?;
        tx.commit().map_err(db)?;
        Ok(answer)
    }

    /// One transaction under the schema's store lock (an advisory transaction lock taken before
    /// the first read), so steps of every process run one at a time and each reads everything
    /// the previous ones committed; the writes commit together.
    fn step<R>(&self, f: &mut dyn FnMut(&dyn KvRead) -> Decided<R>) -> Result<R, Error> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction().map_err(db)?;
        tx.execute(
            "SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))",
            &[&lock::STORES],
        )
        .map_err(db)?;
        let (answer, ops) = f(&View {
            tx: RefCell::new(&mut tx),
        })?;
        if ops.is_empty() {
            return Ok(answer);
        }
        let put = tx
            .prepare(
                "INSERT INTO memory_store_kv (k, v) VALUES ($1, $2) \
                 ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v",
            )
            .map_err(db)?;
        let delete = tx
            .prepare("DELETE FROM memory_store_kv WHERE k = $1")
            .map_err(db)?;
        for op in &ops {
            match op {
                KvOp::Put(k, v) => tx.execute(&put, &[k, v]),
                KvOp::Delete(k) => tx.execute(&delete, &[k]),
            }
            .map_err(db)?;
        }
        tx.commit().map_err(db)?;
        Ok(answer)
    }
}

impl StoreBackend for PostgresBackend {
    fn create_store(&self, workspace: &WorkspaceId, store: &MemoryStore) -> Result<(), Error> {
        kv::create_store(self, workspace, store)
    }

    fn get_store(
        &self,
        workspace: &WorkspaceId,
        id: &MemoryStoreId,
    ) -> Result<Option<MemoryStore>, Error> {
        kv::get_store(self, workspace, id)
    }

    fn list_stores(
        &self,
        workspace: &WorkspaceId,
        include_archived: bool,
        after: Option<&(Timestamp, MemoryStoreId)>,
        limit: usize,
    ) -> Result<Vec<MemoryStore>, Error> {
        kv::list_stores(self, workspace, include_archived, after, limit)
    }

    fn put_store(&self, workspace: &WorkspaceId, store: &MemoryStore) -> Result<bool, Error> {
        kv::put_store(self, workspace, store)
    }

    fn delete_store(&self, workspace: &WorkspaceId, id: &MemoryStoreId) -> Result<bool, Error> {
        kv::delete_store(self, workspace, id)
    }

    fn write_memory(&self, write: &MemoryWrite) -> Result<MemoryWriteOutcome, Error> {
        kv::write_memory(self, write)
    }

    fn get_memory(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        id: &StoreMemoryId,
    ) -> Result<Option<StoreMemory>, Error> {
        kv::get_memory(self, workspace, store, id)
    }

    fn memory_at_path(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        path: &StorePath,
    ) -> Result<Option<StoreMemory>, Error> {
        kv::memory_at_path(self, workspace, store, path)
    }

    fn list_memories(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        prefix: Option<&str>,
        after: Option<&StorePath>,
        limit: usize,
    ) -> Result<Vec<StoreMemoryMetadata>, Error> {
        kv::list_memories(self, workspace, store, prefix, after, limit)
    }

    fn get_version(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        id: &MemoryVersionId,
    ) -> Result<Option<MemoryVersion>, Error> {
        kv::get_version(self, workspace, store, id)
    }

    fn list_versions(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        memory: Option<&StoreMemoryId>,
        after: Option<&(Timestamp, MemoryVersionId)>,
        limit: usize,
    ) -> Result<Vec<MemoryVersion>, Error> {
        kv::list_versions(self, workspace, store, memory, after, limit)
    }

    fn redact_version(
        &self,
        workspace: &WorkspaceId,
        store: &MemoryStoreId,
        id: &MemoryVersionId,
        at: Timestamp,
    ) -> Result<RedactOutcome, Error> {
        kv::redact_version(self, workspace, store, id, at)
    }

    fn put_session(&self, workspace: &WorkspaceId, session: &Session) -> Result<(), Error> {
        kv::put_session(self, workspace, session)
    }

    fn get_session(
        &self,
        workspace: &WorkspaceId,
        id: &SessionId,
    ) -> Result<Option<Session>, Error> {
        kv::get_session(self, workspace, id)
    }

    fn put_passage(&self, workspace: &WorkspaceId, id: &str, record: &[u8]) -> Result<(), Error> {
        kv::put_passage(self, workspace, id, record)
    }

    fn passages(
        &self,
        workspace: &WorkspaceId,
        ids: &[&str],
    ) -> Result<store_trait::PassageRecords, Error> {
        kv::passages(self, workspace, ids)
    }

    fn list_passages(
        &self,
        workspace: &WorkspaceId,
        after: Option<&str>,
        limit: usize,
    ) -> Result<Vec<(String, Vec<u8>)>, Error> {
        kv::list_passages(self, workspace, after, limit)
    }

    fn delete_passage(&self, workspace: &WorkspaceId, id: &str) -> Result<bool, Error> {
        kv::delete_passage(self, workspace, id)
    }

    fn import_passages(
        &self,
        workspace: &WorkspaceId,
        source: &str,
        records: &[(String, Vec<u8>)],
    ) -> Result<bool, Error> {
        kv::import_passages(self, workspace, source, records)
    }
}
