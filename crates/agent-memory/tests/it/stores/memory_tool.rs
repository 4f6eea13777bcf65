//! The client-side memory tool's command set over the mounts, with its documented texts.

use agent_memory::CreateStoreRequest;
use agent_memory::{ErrorCode, SessionCaller, StoreService};
use serde_json::{Value, json};

use super::{Stores, ghost_session};

fn ok(s: &StoreService, agent: &SessionCaller, body: Value) -> String {
    match s.memory_tool_call(agent, &body) {
        Ok(answer) => answer.text,
        Err(f) => panic!("{body} failed: {}", f.text()),
    }
}

/// The failure's full text, after checking its code and that its message quotes no input.
#[track_caller]
fn fails(s: &StoreService, agent: &SessionCaller, body: Value) -> String {
    let failure = s.memory_tool_call(agent, &body).unwrap_err();
    let err = failure.api_error();
    assert_eq!(err.code(), ErrorCode::MemoryToolError, "{body}");
    assert_eq!(err.http_status(), 400);
    assert!(
        !err.message().contains("/memories/"),
        "message quotes a path: {}",
        err.message()
    );
    assert_eq!(s.memory_tool(agent, &body).unwrap_err(), *err);
    failure.text().to_owned()
}

fn fixture() -> (Stores, SessionCaller, String) {
    let st = Stores::new();
    let store = st.store(CreateStoreRequest::new("Notes"));
    let agent = st.session(json!([{"type": "memory_store", "memory_store_id": store}]));
    (st, agent, store)
}

#[test]
fn view_create_and_the_documented_texts() {
    let (st, agent, store) = fixture();
    let s = &st.service;
    assert_eq!(
        ok(s, &agent, json!({"command": "view", "path": "/memories"})),
        "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n0B\t/memories\n0B\t/memories/notes/"
    );
    assert_eq!(
        ok(
            s,
            &agent,
            json!({"command": "create", "path": "/memories/notes/prefs.md", "file_text": "Tone: brief.\nPrices: with tax.\n"})
        ),
        "File created successfully at: /memories/notes/prefs.md"
    );
    assert_eq!(
        fails(
            s,
            &agent,
            json!({"command": "create", "path": "/memories/notes/prefs.md", "file_text": "x"})
        ),
        "Error: File /memories/notes/prefs.md already exists"
    );
    ok(
        s,
        &agent,
        json!({"command": "create", "path": "/memories/notes/people/ana.md", "file_text": "Likes crime novels."}),
    );
    ok(
        s,
        &agent,
        json!({"command": "create", "path": "/memories/notes/people/deep/x.md", "file_text": "x"}),
    );
    ok(
        s,
        &agent,
        json!({"command": "create", "path": "/memories/notes/.hidden", "file_text": "h"}),
    );
    assert_eq!(
        fails(
            s,
            &agent,
            json!({"command": "create", "path": "/memories/notes/people", "file_text": "x"})
        ),
        "Error: File /memories/notes/people already exists",
        "a directory is there"
    );
    assert_eq!(
        ok(
            s,
            &agent,
            json!({"command": "view", "path": "/memories/notes/prefs.md"})
        ),
        "Here's the content of /memories/notes/prefs.md with line numbers:\n     1\tTone: brief.\n     2\tPrices: with tax."
    );
    assert_eq!(
        ok(
            s,
            &agent,
            json!({"command": "view", "path": "/memories/notes/prefs.md", "view_range": [2, -1]})
        ),
        "Here's the content of /memories/notes/prefs.md with line numbers:\n     2\tPrices: with tax."
    );
    assert_eq!(
        ok(
            s,
            &agent,
            json!({"command": "view", "path": "/memories/notes"})
        ),
        "Here're the files and directories up to 2 levels deep in /memories/notes, excluding hidden items and node_modules:\n\
         52B\t/memories/notes\n\
         20B\t/memories/notes/people/\n\
         19B\t/memories/notes/people/ana.md\n\
         1B\t/memories/notes/people/deep/\n\
         31B\t/memories/notes/prefs.md"
    );
    // The mount also answers under /mnt/memory.
    assert_eq!(
        ok(
            s,
            &agent,
            json!({"command": "view", "path": "/mnt/memory/notes/people/ana.md"})
        ),
        "Here's the content of /mnt/memory/notes/people/ana.md with line numbers:\n     1\tLikes crime novels."
    );
    assert_eq!(
        fails(
            s,
            &agent,
            json!({"command": "view", "path": "/memories/notes/nope.md"})
        ),
        "The path /memories/notes/nope.md does not exist. Please provide a valid path."
    );
    let root = ok(s, &agent, json!({"command": "view", "path": "/memories/"}));
    assert!(
        root.starts_with("Here're the files and directories up to 2 levels deep in /memories, ")
    );
    assert!(root.contains(
        "\n52B\t/memories/notes/\n20B\t/memories/notes/people/\n31B\t/memories/notes/prefs.md"
    ));
    assert_eq!(
        st.paths(&store),
        [
            "/.hidden",
            "/people/ana.md",
            "/people/deep/x.md",
            "/prefs.md"
        ]
    );
}

#[test]
fn str_replace_and_insert() {
    let (st, agent, _) = fixture();
    let s = &st.service;
    ok(
        s,
        &agent,
        json!({"command": "create", "path": "/memories/notes/p.md", "file_text": "a\nb\nFavorite color: blue\nc\nd\ne\nf\ng\n"}),
    );
    assert_eq!(
        ok(
            s,
            &agent,
            json!({"command": "str_replace", "path": "/memories/notes/p.md", "old_str": "blue", "new_str": "green"})
        ),
        "The memory file has been edited.\n     1\ta\n     2\tb\n     3\tFavorite color: green\n     4\tc\n     5\td\n     6\te\n     7\tf"
    );
    assert_eq!(
        fails(
            s,
            &agent,
            json!({"command": "str_replace", "path": "/memories/notes/p.md", "old_str": "purple", "new_str": "x"})
        ),
        "No replacement was performed, old_str `purple` did not appear verbatim in /memories/notes/p.md."
    );
    ok(
        s,
        &agent,
        json!({"command": "insert", "path": "/memories/notes/p.md", "insert_line": 0, "insert_text": "a\n"}),
    );
    assert_eq!(
        fails(
            s,
            &agent,
            json!({"command": "str_replace", "path": "/memories/notes/p.md", "old_str": "a\n", "new_str": "x"})
        ),
        "No replacement was performed. Multiple occurrences of old_str `a\n` in lines: 1, 2. Please ensure it is unique"
    );
    assert_eq!(
        fails(
            s,
            &agent,
            json!({"command": "str_replace", "path": "/memories/notes/none.md", "old_str": "a", "new_str": "b"})
        ),
        "Error: The path /memories/notes/none.md does not exist. Please provide a valid path."
    );
    // new_str may be left out: old_str is deleted.
    ok(
        s,
        &agent,
        json!({"command": "str_replace", "path": "/memories/notes/p.md", "old_str": "Favorite color: green\n"}),
    );
    assert_eq!(
        ok(
            s,
            &agent,
            json!({"command": "insert", "path": "/memories/notes/p.md", "insert_line": 8, "insert_text": "last"})
        ),
        "The file /memories/notes/p.md has been edited."
    );
    assert_eq!(
        s.fs_read(&agent, &json!({"path": "/mnt/memory/notes/p.md"}))
            .unwrap()
            .content,
        "a\na\nb\nc\nd\ne\nf\ng\nlast"
    );
    assert_eq!(
        fails(
            s,
            &agent,
            json!({"command": "insert", "path": "/memories/notes/p.md", "insert_line": 10, "insert_text": "x"})
        ),
        "Error: Invalid `insert_line` parameter: 10. It should be within the range of lines of the file: [0, 9]"
    );
    assert_eq!(
        fails(
            s,
            &agent,
            json!({"command": "insert", "path": "/memories/notes/p.md", "insert_line": -1, "insert_text": "x"})
        ),
        "Error: Invalid `insert_line` parameter: -1. It should be within the range of lines of the file: [0, 9]"
    );
    // Integers sent as numeric strings (some clients do) mean the integer, for every caller of
    // the facade (MCP and replay alike); any other string is not a command.
    assert_eq!(
        ok(
            s,
            &agent,
            json!({"command": "view", "path": "/memories/notes/p.md", "view_range": [" 2", "3"]})
        ),
        ok(
            s,
            &agent,
            json!({"command": "view", "path": "/memories/notes/p.md", "view_range": [2, 3]})
        ),
    );
    assert_eq!(
        ok(
            s,
            &agent,
            json!({"command": "insert", "path": "/memories/notes/p.md", "insert_line": "9", "insert_text": "x"})
        ),
        "The file /memories/notes/p.md has been edited."
    );
    assert!(
        fails(
            s,
            &agent,
            json!({"command": "insert", "path": "/memories/notes/p.md", "insert_line": "two", "insert_text": "x"})
        )
        .starts_with("Error: The input is not a memory tool command"),
    );
    assert_eq!(
        s.fs_read(&agent, &json!({"path": "/mnt/memory/notes/p.md"}))
            .unwrap()
            .content,
        "a\na\nb\nc\nd\ne\nf\ng\nlast\nx"
    );
    assert_eq!(
        fails(
            s,
            &agent,
            json!({"command": "insert", "path": "/memories/notes/none.md", "insert_line": 0, "insert_text": "x"})
        ),
        "Error: The path /memories/notes/none.md does not exist"
    );
}

#[test]
fn delete_and_rename_files_and_directories() {
    let (st, agent, store) = fixture();
    let s = &st.service;
    for p in [
        "/memories/notes/draft.txt",
        "/memories/notes/dir/a",
        "/memories/notes/dir/sub/b",
        "/memories/notes/keep",
    ] {
        ok(
            s,
            &agent,
            json!({"command": "create", "path": p, "file_text": "t"}),
        );
    }
    assert_eq!(
        ok(
            s,
            &agent,
            json!({"command": "rename", "old_path": "/memories/notes/draft.txt", "new_path": "/memories/notes/final.txt"})
        ),
        "Successfully renamed /memories/notes/draft.txt to /memories/notes/final.txt"
    );
    assert_eq!(
        fails(
            s,
            &agent,
            json!({"command": "rename", "old_path": "/memories/notes/draft.txt", "new_path": "/memories/notes/x"})
        ),
        "Error: The path /memories/notes/draft.txt does not exist"
    );
    assert_eq!(
        fails(
            s,
            &agent,
            json!({"command": "rename", "old_path": "/memories/notes/final.txt", "new_path": "/memories/notes/keep"})
        ),
        "Error: The destination /memories/notes/keep already exists"
    );
    assert_eq!(
        fails(
            s,
            &agent,
            json!({"command": "rename", "old_path": "/memories/notes/final.txt", "new_path": "/memories/notes/dir"})
        ),
        "Error: The destination /memories/notes/dir already exists"
    );
    ok(
        s,
        &agent,
        json!({"command": "rename", "old_path": "/memories/notes/dir", "new_path": "/memories/notes/moved/dir"}),
    );
    assert_eq!(
        st.paths(&store),
        ["/final.txt", "/keep", "/moved/dir/a", "/moved/dir/sub/b"]
    );
    assert_eq!(
        ok(
            s,
            &agent,
            json!({"command": "delete", "path": "/memories/notes/moved"})
        ),
        "Successfully deleted /memories/notes/moved"
    );
    assert_eq!(
        fails(
            s,
            &agent,
            json!({"command": "delete", "path": "/memories/notes/moved"})
        ),
        "Error: The path /memories/notes/moved does not exist"
    );
    ok(
        s,
        &agent,
        json!({"command": "delete", "path": "/mnt/memory/notes/keep"}),
    );
    assert_eq!(st.paths(&store), ["/final.txt"]);
    for root in ["/memories", "/memories/notes", "/memories/notes/"] {
        fails(s, &agent, json!({"command": "delete", "path": root}));
        fails(
            s,
            &agent,
            json!({"command": "rename", "old_path": root, "new_path": "/memories/notes/x"}),
        );
    }
    fails(
        s,
        &agent,
        json!({"command": "rename", "old_path": "/memories/notes/final.txt", "new_path": "/memories/notes/final.txt/x"}),
    );
    assert_eq!(st.paths(&store), ["/final.txt"]);
}

#[test]
fn mounts_access_and_bad_input_are_tool_errors() {
    let st = Stores::new();
    let s = &st.service;
    let ro = st.store(CreateStoreRequest::new("Shared"));
    let rw = st.store(CreateStoreRequest::new("Mine"));
    st.memory(&ro, "/fact.md", "fixed");
    let agent = st.session(json!([
        {"type": "memory_store", "memory_store_id": ro, "access": "read_only"},
        {"type": "memory_store", "memory_store_id": rw},
    ]));
    assert!(
        ok(
            s,
            &agent,
            json!({"command": "view", "path": "/memories/shared/fact.md"})
        )
        .ends_with("1\tfixed")
    );
    for body in [
        json!({"command": "create", "path": "/memories/shared/new.md", "file_text": "x"}),
        json!({"command": "str_replace", "path": "/memories/shared/fact.md", "old_str": "fixed", "new_str": "x"}),
        json!({"command": "insert", "path": "/memories/shared/fact.md", "insert_line": 0, "insert_text": "x"}),
        json!({"command": "delete", "path": "/memories/shared/fact.md"}),
        json!({"command": "rename", "old_path": "/memories/shared/fact.md", "new_path": "/memories/shared/b.md"}),
    ] {
        let text = fails(s, &agent, body);
        assert!(text.contains("read-only"), "{text}");
    }
    let text = fails(
        s,
        &agent,
        json!({"command": "rename", "old_path": "/memories/mine/x", "new_path": "/memories/shared/x"}),
    );
    assert!(text.contains("between mounts"), "{text}");
    for body in [
        json!({"command": "format", "path": "/memories"}),
        json!({"command": "view"}),
        json!({"command": "view", "path": "/memories", "recursive": true}),
        json!({"command": "create", "path": "/memories/mine/a", "file_text": 3}),
        json!({"path": "/memories"}),
        json!("view /memories"),
    ] {
        fails(s, &agent, body);
    }
    assert_eq!(
        fails(
            s,
            &agent,
            json!({"command": "view", "path": "/memories/other/x"})
        ),
        "Error: The path /memories/other/x is not valid: it does not lie inside a mount of this session (/memories/<mount>/…)"
    );
    assert_eq!(
        fails(
            s,
            &agent,
            json!({"command": "create", "path": "/memories/mine/../shared/x", "file_text": "x"})
        ),
        "Error: The path /memories/mine/../shared/x is not valid: a path segment is . or .."
    );
    let ghost = s
        .memory_tool(
            &ghost_session(),
            &json!({"command": "view", "path": "/memories"}),
        )
        .unwrap_err();
    assert_eq!(ghost.code(), ErrorCode::MemoryToolError);
    assert_eq!(st.versions(&ro).len(), 1);
    assert!(st.paths(&rw).is_empty());
}
