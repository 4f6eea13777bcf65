//! R6: path attacks through every door — `memories.create`, `fs.*` and the memory tool — are
//! refused with 400 and write nothing.

use agent_memory::CreateStoreRequest;
use agent_memory::ErrorCode;
use agent_memory::{FsPathRequest, FsRenameRequest, FsWriteRequest};
use memory_core::StorePath;
use proptest::prelude::*;
use serde_json::json;

use super::{Stores, code, editor};

/// Store-relative attacks (each is also tried behind both mount roots).
fn attacks() -> Vec<String> {
    let mut out: Vec<String> = [
        "..",
        "/..",
        "/../etc/passwd",
        "/a/../b",
        "/a/./b",
        "/./a",
        "/a/..",
        "/%2e%2e%2fetc",
        "/%2e%2e/etc",
        "/%2E./x",
        "/.%2E/x",
        "/a%2fb",
        "/a%2Fb",
        "/a%5cb",
        "/..\\x",
        "/a\\b",
        "/a\0b",
        "/\0",
        "/a\u{1}b",
        "/a\nb",
        "/a\rb",
        "/a\tb",
        "/a\u{7f}b",
        "/a\u{85}b",
        "//a",
        "/a//b",
        "/a/",
        "/",
        "",
        "a/b",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    out.push(format!("/{}", "a".repeat(256)));
    out.push("/aaaaaaaaaa".repeat(103));
    out.push("/a".repeat(33));
    out
}

#[test]
fn attacks_are_refused_through_every_door_and_nothing_is_written() {
    let st = Stores::new();
    let s = &st.service;
    let store = st.store(CreateStoreRequest::new("Notes"));
    let other = st.store(CreateStoreRequest::new("Other"));
    let agent = st.session(json!([
        {"type": "memory_store", "memory_store_id": store},
        {"type": "memory_store", "memory_store_id": other},
    ]));
    for attack in attacks() {
        assert_eq!(
            code(s.memories_create(
                &editor(),
                &json!({"memory_store_id": store, "path": attack, "content": "x"})
            )),
            ErrorCode::MemoryPathInvalid,
            "memories.create {attack:?}"
        );
        let mut mounted = vec![format!("/mnt/memory/notes{attack}")];
        if attack == ".." {
            mounted.push("/mnt/memory/notes/..".to_owned());
        }
        for path in &mounted {
            if path == "/mnt/memory/notes/" || path == "/mnt/memory/notes" {
                continue; // the mount root itself: listed, never written
            }
            assert_eq!(
                code(st.typed().fs_write(&agent, &FsWriteRequest::new(path, "x"))),
                ErrorCode::MemoryPathInvalid,
                "fs.write {path:?}"
            );
            assert_eq!(
                code(
                    st.typed()
                        .fs_rename(&agent, &FsRenameRequest::new(path, "/mnt/memory/notes/ok"))
                ),
                ErrorCode::MemoryPathInvalid,
                "fs.rename {path:?}"
            );
            assert_eq!(
                code(st.typed().fs_read(&agent, &FsPathRequest::new(path))),
                ErrorCode::MemoryPathInvalid
            );
            assert_eq!(
                code(st.typed().fs_delete(&agent, &FsPathRequest::new(path))),
                ErrorCode::MemoryPathInvalid
            );
            let tool = path.replacen("/mnt/memory", "/memories", 1);
            for body in [
                json!({"command": "create", "path": tool, "file_text": "x"}),
                json!({"command": "create", "path": path, "file_text": "x"}),
                json!({"command": "rename", "old_path": "/memories/notes/ok", "new_path": tool}),
                json!({"command": "insert", "path": tool, "insert_line": 0, "insert_text": "x"}),
            ] {
                assert_eq!(
                    code(s.memory_tool(&agent, &body)),
                    ErrorCode::MemoryToolError,
                    "{body}"
                );
            }
        }
    }
    // Escapes from a mount: into another mount, up to the mounts directory, out of it.
    for escape in [
        "/mnt/memory/notes/../other/a",
        "/mnt/memory/../etc",
        "/mnt/memory/../../etc/passwd",
        "/mnt/memory/%2e%2e/other/a",
        "/mnt/memory/notes%2f..%2fother/a",
        "/mnt/memory/NOTES/a",
        "/mnt/memory//notes/a",
        "/mnt/memory/notes\\..\\other/a",
        "/mnt/memoryx/notes/a",
        "/mnt/memory/other/../notes/../../x",
        "/tmp/a",
        "/memories/notes/a",
    ] {
        assert_eq!(
            code(
                st.typed()
                    .fs_write(&agent, &FsWriteRequest::new(escape, "x"))
            ),
            ErrorCode::MemoryPathInvalid,
            "fs.write {escape:?}"
        );
        assert_eq!(
            code(st.typed().fs_list(&agent, &FsPathRequest::new(escape))),
            ErrorCode::MemoryPathInvalid,
            "{escape:?}"
        );
        let tool = escape.replacen("/mnt/memory", "/memories", 1);
        if tool != "/memories/notes/a" {
            assert_eq!(
                code(s.memory_tool(
                    &agent,
                    &json!({"command": "create", "path": tool, "file_text": "x"})
                )),
                ErrorCode::MemoryToolError,
                "{tool:?}"
            );
        }
    }
    assert!(st.versions(&store).is_empty());
    assert!(st.versions(&other).is_empty());
    // A file is still writable next to all of that: the refusals were about the paths.
    st.typed()
        .fs_write(&agent, &FsWriteRequest::new("/mnt/memory/notes/ok", "x"))
        .unwrap();
    assert_eq!(st.paths(&store), ["/ok"]);
    // A path that is valid inside the store but longer than the limit once inside the mount
    // is fine: limits apply to the store path, not to the mount prefix.
    let deep = format!("/{}", "a".repeat(31)).repeat(32);
    assert_eq!(deep.len(), 1024);
    st.typed()
        .fs_write(
            &agent,
            &FsWriteRequest::new(format!("/mnt/memory/notes{deep}"), ""),
        )
        .unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// Any path either is refused with 400 and writes nothing, or is stored exactly as the
    /// mount-relative path, which then satisfies every path rule.
    #[test]
    fn any_path_is_refused_or_stored_exactly(
        inner in prop::collection::vec(
            prop_oneof![
                Just(".".to_owned()),
                Just("..".to_owned()),
                Just("%2e".to_owned()),
                Just("%2E".to_owned()),
                Just("%2f".to_owned()),
                Just("%5C".to_owned()),
                Just("%".to_owned()),
                Just("\\".to_owned()),
                Just("\0".to_owned()),
                Just("\u{1b}".to_owned()),
                Just("/".to_owned()),
                Just("é".to_owned()),
                "[a-z]{1,3}",
            ],
            0..12,
        ).prop_map(|parts| parts.concat())
    ) {
        let st = Stores::new();
        let store = st.store(CreateStoreRequest::new("Notes"));
        let agent = st.session(json!([{"type": "memory_store", "memory_store_id": store}]));
        let path = format!("/mnt/memory/notes/{inner}");
        let wrote = st.typed().fs_write(&agent, &FsWriteRequest::new(path, "x"));
        let valid = StorePath::check(&format!("/{inner}")).is_ok();
        match wrote {
            Ok(memory) => {
                prop_assert!(valid);
                prop_assert_eq!(memory.path.as_str(), format!("/{inner}"));
                prop_assert!(memory.path.segments().all(|s| s != "." && s != ".."));
                prop_assert_eq!(st.paths(&store), vec![format!("/{inner}")]);
            }
            Err(err) => {
                prop_assert!(!valid);
                prop_assert_eq!(err.code(), ErrorCode::MemoryPathInvalid);
                prop_assert!(st.versions(&store).is_empty());
            }
        }
        let before = st.paths(&store);
        let tool = st.service.memory_tool(
            &agent,
            &json!({"command": "create", "path": format!("/memories/notes/{inner}x"), "file_text": "y"}),
        );
        let tool_valid = StorePath::check(&format!("/{inner}x")).is_ok();
        prop_assert_eq!(tool.is_ok(), tool_valid && !before.iter().any(|p| {
            let p = StorePath::parse(p.clone()).unwrap();
            StorePath::parse(format!("/{inner}x")).is_ok_and(|q| q.conflicts_with(&p))
        }));
        if let Err(err) = tool {
            prop_assert_eq!(err.code(), ErrorCode::MemoryToolError);
        }
    }
}
