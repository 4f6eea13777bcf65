//! The ordered key-value space a key-space backend provides: [`Kv`] — a consistent read view
//! ([`KvRead`]), and an exclusive read-then-write step whose writes ([`KvOp`]) land atomically.
//! The rules of both products over such a space are the `store-kv` crate's; the in-memory
//! backend, redb, sled and SQLite provide the space and nothing else, and `store-postgres` keeps
//! its memory stores in one.

use std::sync::Arc;

use memory_core::AgentMemory;

use crate::error::Error;

/// A consistent view of the key space.
pub trait KvRead {
    /// The value of `key`.
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, Error>;

    /// Visits the entries with `start <= key < end` in key order (descending when `reverse`)
    /// until `visit` returns false.
    fn range(
        &self,
        start: &[u8],
        end: &[u8],
        reverse: bool,
        visit: &mut dyn FnMut(&[u8], &[u8]) -> bool,
    ) -> Result<(), Error>;

    /// [`range`](Self::range) over entries whose values are agent-memory versions
    /// (`crate::codec`), each handed to `visit` decoded.
    ///
    /// The default decodes every value it visits. A key space private to one process may keep
    /// decoded versions and hand out the same one again, since a value changes only through a
    /// step; one that other processes write too (SQLite) must not, as its values change behind
    /// it.
    fn range_versions(
        &self,
        start: &[u8],
        end: &[u8],
        reverse: bool,
        visit: &mut dyn FnMut(&[u8], Arc<AgentMemory>) -> bool,
    ) -> Result<(), Error> {
        let mut failed = None;
        self.range(
            start,
            end,
            reverse,
            &mut |k, v| match crate::codec::decode_version(v) {
                Ok(version) => visit(k, Arc::new(version)),
                Err(e) => {
                    failed = Some(e);
                    false
                }
            },
        )?;
        failed.map_or(Ok(()), Err)
    }
}

/// One write of a step.
#[derive(Debug)]
pub enum KvOp {
    /// Sets a key to a value.
    Put(Vec<u8>, Vec<u8>),
    /// Removes a key (absent keys included).
    Delete(Vec<u8>),
}

/// A step's decision: its answer and the writes to apply.
pub type Decided<R> = Result<(R, Vec<KvOp>), Error>;

/// What a backend provides for memory stores.
pub trait Kv {
    /// Runs `f` over a consistent view.
    fn read<R>(&self, f: &mut dyn FnMut(&dyn KvRead) -> Result<R, Error>) -> Result<R, Error>;

    /// Runs `f` with no other step in between and applies the writes it returns atomically (and
    /// durably as the backend's durability says). No writes: nothing is committed.
    fn step<R>(&self, f: &mut dyn FnMut(&dyn KvRead) -> Decided<R>) -> Result<R, Error>;
}
