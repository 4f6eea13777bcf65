//! R4: eight writers updating one memory with `content_sha256` preconditions lose no update, and
//! the versions form one chain.

use std::collections::HashMap;
use std::sync::Mutex;

use agent_memory::{
    Access, CreateSessionRequest, CreateStoreRequest, ErrorCode, FsWriteRequest, MemoryIdRequest,
    UpdateMemoryRequest,
};
use memory_core::{VersionOperation, content_sha256};

use super::{Stores, editor, store_id};

const THREADS: usize = 8;
const UPDATES_PER_THREAD: usize = 12;

#[test]
fn eight_writers_with_preconditions_lose_no_update() {
    let st = Stores::new();
    let store = st.store(CreateStoreRequest::new("Race"));
    let memory = st.memory(&store, "/counter", "start");
    let store = store_id(&store);
    let this = MemoryIdRequest::new(store.clone(), memory.id.clone());
    // (precondition hash, version written) of every accepted update.
    let accepted = Mutex::new(Vec::new());
    let conflicts = Mutex::new(0usize);
    std::thread::scope(|scope| {
        for t in 0..THREADS {
            let (st, store, memory, this, accepted, conflicts) =
                (&st, &store, &memory, &this, &accepted, &conflicts);
            scope.spawn(move || {
                for i in 0..UPDATES_PER_THREAD {
                    loop {
                        let current = st.typed().memories_get(&editor(), this).unwrap();
                        let request = UpdateMemoryRequest::new(store.clone(), memory.id.clone())
                            .content(format!("{}\nwriter {t} update {i}", current.content))
                            .if_content_sha256(current.content_sha256.as_str());
                        let result = st.typed().memories_update(&editor(), &request);
                        match result {
                            Ok(updated) => {
                                accepted.lock().unwrap().push((
                                    current.content_sha256.clone(),
                                    updated.version_id.clone(),
                                ));
                                break;
                            }
                            Err(e) => {
                                assert_eq!(e.code(), ErrorCode::MemoryPreconditionFailed);
                                assert!(e.current_content_sha256().is_some());
                                *conflicts.lock().unwrap() += 1;
                            }
                        }
                    }
                }
            });
        }
    });
    let accepted = accepted.into_inner().unwrap();
    assert_eq!(accepted.len(), THREADS * UPDATES_PER_THREAD);
    // No lost update: every writer's every line made it into the final content.
    let last = st.typed().memories_get(&editor(), &this).unwrap();
    for t in 0..THREADS {
        for i in 0..UPDATES_PER_THREAD {
            assert!(
                last.content.contains(&format!("\nwriter {t} update {i}\n"))
                    || last.content.ends_with(&format!("\nwriter {t} update {i}"))
            );
        }
    }
    assert_eq!(
        last.content.lines().count(),
        1 + THREADS * UPDATES_PER_THREAD
    );
    // One chain: versions = accepted updates + the creation, and each update's precondition is
    // the hash of the version right before it.
    let mut versions = st.versions(store.as_str());
    assert_eq!(versions.len(), accepted.len() + 1);
    versions.reverse();
    assert_eq!(versions[0].operation, VersionOperation::Created);
    let precondition_of: HashMap<_, _> = accepted
        .iter()
        .map(|(hash, id)| (id.clone(), hash.clone()))
        .collect();
    for pair in versions.windows(2) {
        let (before, after) = (&pair[0], &pair[1]);
        assert_eq!(after.operation, VersionOperation::Modified);
        assert_eq!(
            precondition_of[&after.id],
            *before.content_sha256.as_ref().unwrap(),
            "each version was written on top of the one before it"
        );
        assert_eq!(
            before.content_sha256.as_deref(),
            Some(content_sha256(before.content.as_deref().unwrap()).as_str())
        );
    }
    assert_eq!(versions.last().unwrap().id, last.version_id);
    let _ = conflicts.into_inner().unwrap();
}

#[test]
fn eight_sessions_writing_one_new_path_make_one_memory() {
    let st = Stores::new();
    let store = st.store(CreateStoreRequest::new("Race"));
    let agents: Vec<_> = (0..THREADS)
        .map(|_| {
            st.typed_session(
                &CreateSessionRequest::new().memory_store(store_id(&store), Access::ReadWrite),
            )
        })
        .collect();
    std::thread::scope(|scope| {
        for (t, agent) in agents.iter().enumerate() {
            let st = &st;
            scope.spawn(move || {
                // A create that meets a concurrent create retries as an update: every write lands.
                let request =
                    FsWriteRequest::new("/mnt/memory/race/same.md", format!("writer {t}"));
                st.typed().fs_write(agent, &request).unwrap();
            });
        }
    });
    assert_eq!(st.paths(&store), ["/same.md"]);
    let versions = st.versions(&store);
    assert_eq!(versions.len(), THREADS);
    assert_eq!(
        versions.last().unwrap().operation,
        VersionOperation::Created
    );
    assert!(
        versions[..THREADS - 1]
            .iter()
            .all(|v| v.operation == VersionOperation::Modified)
    );
}
