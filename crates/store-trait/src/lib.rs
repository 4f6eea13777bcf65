//! The storage traits of governed agent memory and the data they exchange: [`Backend`] (agent
//! memories and the governance state), [`StoreBackend`] (memory stores), [`Database`] (what acts
//! on a whole database) and [`Storage`] (all three), their [`Error`], and the pieces every
//! backend shares byte for byte: the version encoding ([`codec`]), the ordered key-value space a
//! key-space backend provides ([`kv`]) and the encodings of its keys ([`keys`]).
//!
//! A backend stores agent-memory versions per [`Owner`] (workspace, member) and the governance
//! state that must hold across processes: the credentials' rate windows, the quota's count, the
//! (namespace, key) index and the workspace settings. It decides nothing itself:
//! [`Backend::remember`] reads a [`RememberState`], hands it to the caller's `decide` closure
//! (rate limit, quota, version number, supersede) and applies the [`RememberWrite`] it returns
//! in the same transaction, so check-and-write is atomic.
//!
//! The crates around it, each with one job:
//!
//! - `store-kv`: the rules of both products over any [`kv::Kv`] (`KvBackend`, `KvStores`) and
//!   the in-memory backend (`InMemoryBackend`);
//! - `store-redb`, `store-sled`, `store-sqlite`: the durable key spaces, each with the upgrades
//!   of its own older formats;
//! - `store-postgres`: agent memories in tables of their own, memory stores in a key space;
//! - `store-conformance`: the suite every backend's tests run. The trait's documentation states
//!   the contract; the suite checks it.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod backend;
pub mod codec;
mod database;
mod durability;
mod error;
mod history;
pub mod keys;
pub mod kv;
mod stores;

pub use backend::{
    Backend, Owner, RememberOutcome, RememberState, RememberWrite, ScanQuery, check_decided_write,
    key_instant, latest_instant,
};
pub use database::{Database, Storage, VacuumReport};
pub use durability::Durability;
pub use error::{Error, JsonError, StorageFailure};
pub use history::{
    History, IndexStats, MemberHistory, Postings, RowHead, VectorTable, indexed_terms, reanalyzed,
};
pub use stores::{
    HasStores, MemoryChange, MemoryWrite, MemoryWriteOutcome, PassageRecords, RedactOutcome,
    StoreBackend,
};
