//! [`Durability`]: how much a durable backend syncs per write.

/// How much a durable backend (redb, sled, SQLite) syncs its files when a mutating call returns.
///
/// Either way a crash never corrupts the database: after a power loss or a killed process it
/// reopens in the state of some committed write. They differ only in which committed writes
/// survive.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Durability {
    /// Every mutating call syncs its commit to disk before returning: an acknowledged write
    /// survives a crash or power loss. The default.
    #[default]
    Immediate,
    /// Commits are not synced one by one: a crash of the operating system or a power loss may
    /// lose the most recent acknowledged writes (the database reopens in an older, consistent
    /// state). For bulk loads, tests and benchmarks.
    Eventual,
}
