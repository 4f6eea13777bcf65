//! [`Database`]: the operations of a whole database, whichever product's records they touch,
//! and [`Storage`], the name of a database that serves both products.

use std::ops::Deref;

use crate::backend::Backend;
use crate::durability::Durability;
use crate::error::Error;
use crate::stores::StoreBackend;

/// A whole database: what acts on all of it at once rather than on agent memories
/// ([`Backend`]) or memory stores ([`StoreBackend`]) alone.
///
/// Every backend of this crate and `store-postgres` implements it; a pointer to one (`&D`,
/// `Box<D>`, `Arc<D>`, or anything else that dereferences to a database) is one too.
pub trait Database: Send + Sync {
    /// Rewrites the database so that removed and redacted content — of memory stores and of
    /// agent memories alike — is gone from its files: the live data is copied into a fresh
    /// database that then replaces the old one (or the engine rebuilds its files in place).
    /// Other calls wait while it runs. `progress` is called with (entries copied, entries in
    /// all) as it goes. In memory there is nothing to rewrite and the report is all zeros.
    fn vacuum(&self, progress: &dyn Fn(u64, u64)) -> Result<VacuumReport, Error>;

    /// The version of the storage format the database is in: the layout version a file
    /// records, or the newest schema migration a server applied. `None` for a database kept in
    /// memory, which has no format to keep.
    fn format_version(&self) -> Option<u32>;

    /// What an acknowledged write survives (see [`Durability`]); `None` for a database kept in
    /// memory, whose writes end with the process.
    fn durability(&self) -> Option<Durability>;
}

/// What [`Database::vacuum`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct VacuumReport {
    /// Bytes the database's files took before.
    pub bytes_before: u64,
    /// Bytes they take after.
    pub bytes_after: u64,
    /// Entries (keys) copied into the new database.
    pub entries: u64,
}

/// A database serving both products: agent memories, memory stores, and the database-wide
/// operations. Every type with the three traits is one, so that a host holds one handle
/// (`Arc<dyn Storage>`) and hands it to both facades.
pub trait Storage: Backend + StoreBackend + Database {}

impl<T: Backend + StoreBackend + Database + ?Sized> Storage for T {}

// A database shared by several users (two facades over one file) is still a database.
impl<P> Database for P
where
    P: Deref + Send + Sync,
    P::Target: Database,
{
    fn vacuum(&self, progress: &dyn Fn(u64, u64)) -> Result<VacuumReport, Error> {
        (**self).vacuum(progress)
    }

    fn format_version(&self) -> Option<u32> {
        (**self).format_version()
    }

    fn durability(&self) -> Option<Durability> {
        (**self).durability()
    }
}
