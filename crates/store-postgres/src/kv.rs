//! Memory stores: the ordered key space of `store_trait::kv` on the table
//! `memory_store_kv (k bytea primary key, v bytea)` ([`StoreTable`]). `bytea` compares byte by
//! byte, so the table's order is the key space's order. The backend's
//! [`StoreBackend`](store_trait::StoreBackend) is `store_kv::KvStores` over it (agent memories
//! keep tables of their own, in `crate::agent`, so this backend is no `KvBackend`).

use std::cell::RefCell;

use r2d2_postgres::postgres::{Client, IsolationLevel, Transaction};
use store_trait::Error;
use store_trait::kv::{Decided, Kv, KvOp, KvRead};

use crate::client::{Conn, Pool, db, lock};

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

/// The key space of the memory stores: the table `memory_store_kv`, reached through the
/// backend's connection pool (which serves agent memories too).
pub struct StoreTable {
    pub(crate) pool: Pool,
}

impl StoreTable {
    /// A connection from the pool.
    pub(crate) fn conn(&self) -> Result<Conn, Error> {
        self.pool
            .get()
            .map_err(|e| Error::other("no database connection", e))
    }
}

impl Kv for StoreTable {
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
