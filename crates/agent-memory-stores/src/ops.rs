//! The memory-store operations as types ([`Operation`](agent_memory_ops::ops::Operation)); their
//! implementations are next to the service methods that call them. The facade re-exports them
//! in its `ops` module, with the agent-memory operations.

agent_memory_ops::operation_types! {
    /// Memory stores: create a store.
    StoresCreate,
    /// Memory stores: read a store.
    StoresGet,
    /// Memory stores: page through the stores.
    StoresList,
    /// Memory stores: rename or describe a store.
    StoresUpdate,
    /// Memory stores: make a store read-only.
    StoresArchive,
    /// Memory stores: delete a store with its memories and versions.
    StoresDelete,
    /// Memory stores: create a memory.
    MemoriesCreate,
    /// Memory stores: read a memory.
    MemoriesGet,
    /// Memory stores: page through a store's memories by path.
    MemoriesList,
    /// Memory stores: change a memory's content or path.
    MemoriesUpdate,
    /// Memory stores: delete a memory.
    MemoriesDelete,
    /// Memory stores: bring back a version's content and path.
    MemoriesRestore,
    /// Memory stores: page through versions.
    VersionsList,
    /// Memory stores: read a version.
    VersionsGet,
    /// Memory stores: erase a version's content.
    VersionsRedact,
    /// Memory stores: create a session with stores mounted.
    SessionsCreate,
    /// Memory stores: add a resource other than a store to a session.
    SessionsResourcesAdd,
    /// Memory stores: the system-prompt text of a session's mounts.
    SessionsSystemPrompt,
    /// Agent file interface: list a directory of the mounts.
    FsList,
    /// Agent file interface: read a file.
    FsRead,
    /// Agent file interface: create or update a file.
    FsWrite,
    /// Agent file interface: delete a file.
    FsDelete,
    /// Agent file interface: move a file within its mount.
    FsRename,
    /// The client-side memory tool's commands (the body is the tool input).
    MemoryTool,
}
