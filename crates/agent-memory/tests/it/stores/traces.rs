//! Memory-store traces name operations, ids, counts and codes — never content, paths, store
//! names, descriptions or instructions.

use agent_memory::{CreateStoreRequest, PiiPolicy};
use agent_memory::{FsPathRequest, FsWriteRequest};
use std::sync::{Arc, Mutex};

use serde_json::json;

use super::{Stores, editor};
use crate::tracing_logs::Capture;

#[test]
fn store_operations_trace_ids_and_codes_but_no_content_or_paths() {
    let text = Arc::new(Mutex::new(String::new()));
    let st = Stores::new();
    let s = &st.service;
    // tracing-core caches each callsite's interest when it is first hit. While exactly one
    // dispatcher is registered, it computes that interest with the *hitting thread's* default
    // subscriber, so a callsite first hit by another test's thread (no subscriber) would stay
    // disabled for this test too. A second registered dispatcher makes it ask every registered
    // one instead.
    let _second = tracing::Dispatch::new(Capture(Arc::new(Mutex::new(String::new()))));
    tracing::subscriber::with_default(Capture(text.clone()), || {
        tracing::callsite::rebuild_interest_cache();
        let store = st.store(
            CreateStoreRequest::new("Secretname")
                .description("Secretdesc")
                .pii_policy(PiiPolicy::Mask),
        );
        let m = st.memory(
            &store,
            "/secretpath/a.md",
            "codeword marmalade, mail dana@example.com",
        );
        s.memories_update(
            &editor(),
            &json!({"memory_store_id": store, "memory_id": m.id, "content": "codeword quince"}),
        )
        .unwrap();
        let _ = s.memories_create(
            &editor(),
            &json!({"memory_store_id": store, "path": "/secretpath/a.md", "content": "codeword again"}),
        );
        let agent = st.session(json!([
            {"type": "memory_store", "memory_store_id": store, "instructions": "Secretinstructions"}
        ]));
        s.sessions_system_prompt(&editor(), &json!({"session_id": agent.session}))
            .unwrap();
        st.typed()
            .fs_write(
                &agent,
                &FsWriteRequest::new("/mnt/memory/secretname/secretpath/b.md", "codeword plum"),
            )
            .unwrap();
        st.typed()
            .fs_read(
                &agent,
                &FsPathRequest::new("/mnt/memory/secretname/secretpath/b.md"),
            )
            .unwrap();
        st.typed()
            .fs_list(
                &agent,
                &FsPathRequest::new("/mnt/memory/secretname/secretpath"),
            )
            .unwrap();
        let _ = st.typed().fs_read(
            &agent,
            &FsPathRequest::new("/mnt/memory/secretname/secretpath/zzz"),
        );
        s.memory_tool(
            &agent,
            &json!({"command": "str_replace", "path": "/memories/secretname/secretpath/b.md", "old_str": "plum", "new_str": "pear"}),
        )
        .unwrap();
        let _ = s.memory_tool(
            &agent,
            &json!({"command": "str_replace", "path": "/memories/secretname/secretpath/b.md", "old_str": "codeword fig", "new_str": "x"}),
        );
        s.vacuum(&|_, _| {}).unwrap();
    });
    let text = text.lock().unwrap();
    for op in [
        "stores.create",
        "memories.create",
        "memories.update",
        "fs.write",
        "fs.read",
        "memory_tool",
        "vacuum",
    ] {
        assert!(text.contains(op), "{op} is traced:\n{text}");
    }
    assert!(
        text.contains("MEMORY_PATH_CONFLICT"),
        "refusals trace their code"
    );
    assert!(text.contains("MEMORY_NOT_FOUND"));
    assert!(text.contains("MEMORY_TOOL_ERROR"));
    let lower = text.to_lowercase();
    for secret in [
        "codeword",
        "marmalade",
        "dana",
        "secretname",
        "secretdesc",
        "secretinstructions",
        "secretpath",
        "plum",
        "fig",
    ] {
        assert!(
            !lower.contains(secret),
            "{secret} leaked into the traces:\n{text}"
        );
    }
}
