//! R4: eight writers updating one memory with `content_sha256` preconditions lose no update, and
//! the versions form one chain.

use agent_memory::CreateStoreRequest;
use std::collections::HashMap;
use std::sync::Mutex;

use agent_memory::ErrorCode;
use memory_core::{VersionOperation, content_sha256};
use serde_json::json;

use super::{Stores, editor};

const THREADS: usize = 8;
const UPDATES_PER_THREAD: usize = 12;

#[test]
fn eight_writers_with_preconditions_lose_no_update() {
    let st = Stores::new();
    let store = st.store(CreateStoreRequest::new("Race"));
    let memory = st.memory(&store, "/counter", "start");
    // (precondition hash, version written) of every accepted update.
    let accepted = Mutex::new(Vec::new());
    let conflicts = Mutex::new(0usize);
    std::thread::scope(|scope| {
        for t in 0..THREADS {
            let (st, store, memory, accepted, conflicts) =
                (&st, &store, &memory, &accepted, &conflicts);
            scope.spawn(move || {
                for i in 0..UPDATES_PER_THREAD {
                    loop {
                        let current = st
                            .service
                            .memories_get(&editor(), &json!({"memory_store_id": store, "memory_id": memory.id}))
                            .unwrap();
                        let result = st.service.memories_update(
                            &editor(),
                            &json!({
                                "memory_store_id": store,
                                "memory_id": memory.id,
                                "content": format!("{}\nwriter {t} update {i}", current.content),
                                "precondition": {"type": "content_sha256", "content_sha256": current.content_sha256},
                            }),
                        );
                        match result {
                            Ok(updated) => {
                                accepted
                                    .lock()
                                    .unwrap()
                                    .push((current.content_sha256.clone(), updated.version_id.clone()));
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
    let last = st
        .service
        .memories_get(
            &editor(),
            &json!({"memory_store_id": store, "memory_id": memory.id}),
        )
        .unwrap();
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
    let mut versions = st.versions(&store);
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
        .map(|_| st.session(json!([{"type": "memory_store", "memory_store_id": store}])))
        .collect();
    std::thread::scope(|scope| {
        for (t, agent) in agents.iter().enumerate() {
            let st = &st;
            scope.spawn(move || {
                // A create that meets a concurrent create retries as an update: every write lands.
                st.service
                    .fs_write(agent, &json!({"path": "/mnt/memory/race/same.md", "content": format!("writer {t}")}))
                    .unwrap();
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
