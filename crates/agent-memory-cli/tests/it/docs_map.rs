//! `docs/ARCHITECTURE.md` names files, crates, types and functions in backticks; this test checks
//! that each one still exists, so the map cannot drift from the code without a failing test.
//!
//! What a backticked span is taken to be:
//!
//! - a **file or folder** when it has a `/` or ends in a known extension: it must exist relative to
//!   the repository, to `docs/`, or to the crate whose `### crates/...` section names it (its
//!   root, `src/` or `tests/`);
//! - a **Rust path** `a::b::C` (an optional `()` or `!` and generics are dropped): when it starts
//!   with a workspace crate's library name, every later segment must be an item, module, field,
//!   variant or alias somewhere in the workspace's sources; `Type::item` must name an item defined
//!   in a file that declares or implements `Type`;
//! - a **type** (a bare CamelCase name) or a **function** (`name()`): it must be defined in the
//!   workspace, unless it is one of the few outside names the doc mentions ([`OUTSIDE`]);
//! - anything else (commands, JSON, error codes, prose) is not checked here.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Names from other crates and the standard library that the map mentions on purpose.
const OUTSIDE: &[&str] = &[
    "Arc",
    "Box",
    "Error",
    "HashMap",
    "Mutex",
    "Option",
    "Result",
    "RwLock",
    "String",
    "Vec",
    "Value",
    "Router",
    "ServerHandler",
    "Send",
    "Sync",
    "Clone",
    "Debug",
    "Display",
    "Default",
    "Serialize",
    "Deserialize",
    "ToSchema",
    "PartialSchema",
    "JoinHandle",
    "Duration",
    "Instant",
    "SystemTime",
    "File",
    "PathBuf",
    "Path",
    "Connection",
    "Transaction",
    "Deref",
    "BTreeMap",
    "OnceLock",
    "StreamableHttpService",
];

/// Crates outside the workspace whose paths the map may name (`std::`, `serde_json::`, …).
fn is_outside_crate(first: &str) -> bool {
    matches!(
        first,
        "std"
            | "core"
            | "alloc"
            | "serde"
            | "serde_json"
            | "tokio"
            | "axum"
            | "rmcp"
            | "utoipa"
            | "tracing"
            | "redb"
            | "sled"
            | "rusqlite"
            | "postgres"
            | "r2d2"
            | "candle_core"
            | "fuser"
            | "clap"
            | "proptest"
            | "criterion"
            | "hyper"
            | "thiserror"
            | "tantivy"
            | "aho_corasick"
            | "memchr"
            | "libc"
            | "nix"
            | "rustix"
            | "sha2"
            | "metrics"
    )
}

const FILE_EXTENSIONS: &[&str] = &[
    ".rs", ".md", ".toml", ".jsonl", ".json", ".py", ".sh", ".redb", ".sqlite", ".lock", ".txt",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.rs` file of the workspace (crates, benches, fuzz), target directories left out.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if name == "target" || name.to_string_lossy().starts_with('.') {
            continue;
        }
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every file and folder below `dir` (relative to `root`), target directories left out.
fn all_paths(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = fs::read_dir(root.join(dir)) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        if name == "target" || name.to_string_lossy().starts_with('.') {
            continue;
        }
        let path = dir.join(&name);
        out.push(path.to_string_lossy().into_owned());
        if entry.path().is_dir() {
            all_paths(root, &path, out);
        }
    }
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn leading_ident(s: &str) -> &str {
    let end = s.find(|c: char| !is_ident_char(c)).unwrap_or(s.len());
    &s[..end]
}

fn is_camel(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_uppercase()) && s.chars().any(|c| c.is_ascii_lowercase())
}

/// What the workspace defines: every item name, the items each type owns (inside its `impl`,
/// `trait` or `enum` blocks), and the crates.
#[derive(Default)]
struct Index {
    defined: BTreeSet<String>,
    /// Type or trait → the items defined directly inside its blocks (methods, associated
    /// constants and types, variants).
    members: BTreeMap<String, BTreeSet<String>>,
    /// Workspace crates: library name (`memory_core`) → crate folder.
    crates: BTreeMap<String, PathBuf>,
    /// Every file name of the workspace (`view.rs`), for bare names in prose.
    file_names: BTreeSet<String>,
    /// Every file and folder below `crates/`, as a path from the repository's root.
    paths: Vec<String>,
}

const ITEM_KEYWORDS: &[&str] = &[
    "fn ",
    "struct ",
    "enum ",
    "trait ",
    "type ",
    "mod ",
    "const ",
    "static ",
    "union ",
    "macro_rules! ",
];

impl Index {
    fn build() -> Index {
        let root = root();
        let mut files = Vec::new();
        for dir in ["crates", "benches", "fuzz"] {
            rust_files(&root.join(dir), &mut files);
        }
        let mut index = Index::default();
        for file in &files {
            let text = fs::read_to_string(file).unwrap();
            index.scan(&text);
            index
                .file_names
                .insert(file.file_name().unwrap().to_string_lossy().into());
        }
        all_paths(&root, Path::new("crates"), &mut index.paths);
        for entry in fs::read_dir(root.join("crates")).unwrap().flatten() {
            let name = entry.file_name().to_string_lossy().replace('-', "_");
            index.crates.insert(name, entry.path());
        }
        index
    }

    /// Reads one file line by line, following brace depth to know which block an item is in.
    fn scan(&mut self, text: &str) {
        // (owner names, depth inside the owner's block)
        let mut blocks: Vec<(Vec<String>, usize)> = Vec::new();
        let mut depth = 0usize;
        for raw in text.lines() {
            let line = code_of(raw);
            let line = line.trim();
            let (names, owners) = items_of(line);
            let inside = blocks.last().filter(|(_, d)| *d + 1 == depth);
            for name in &names {
                self.defined.insert(name.clone());
                if let Some((owners, _)) = inside {
                    for owner in owners {
                        self.members
                            .entry(owner.clone())
                            .or_default()
                            .insert(name.clone());
                    }
                }
            }
            let opens = line.matches('{').count();
            let closes = line.matches('}').count();
            if !owners.is_empty() && opens > closes {
                blocks.push((owners, depth));
            }
            depth = (depth + opens).saturating_sub(closes);
            while blocks.last().is_some_and(|(_, d)| depth <= *d) {
                blocks.pop();
            }
        }
    }

    /// Whether `item` is defined inside a block of `owner`.
    fn has_member(&self, owner: &str, item: &str) -> bool {
        self.members.get(owner).is_some_and(|m| m.contains(item))
    }
}

/// A line without its `//` comment and with string literals emptied, so braces in them do not
/// count.
fn code_of(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' => {
                    in_string = false;
                    out.push('"');
                }
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push('"');
            }
            '\'' => {
                // A char literal ('{', '\'') or a lifetime ('a): skip a literal whole.
                let rest: String = chars.clone().take(3).collect();
                if rest.starts_with('\\') {
                    let mut n = 0;
                    for c in chars.by_ref() {
                        n += 1;
                        if c == '\'' && n > 1 {
                            break;
                        }
                    }
                } else if rest.chars().nth(1) == Some('\'') {
                    chars.next();
                    chars.next();
                } else {
                    out.push(c);
                }
            }
            '/' if chars.peek() == Some(&'/') => break,
            _ => out.push(c),
        }
    }
    out
}

/// The names a line defines, and the types whose block it opens (`impl`, `trait`, `enum`).
fn items_of(line: &str) -> (Vec<String>, Vec<String>) {
    let mut names = Vec::new();
    let mut owners = Vec::new();
    let mut rest = line;
    loop {
        let before = rest;
        for prefix in [
            "pub(crate) ",
            "pub(super) ",
            "pub ",
            "async ",
            "unsafe ",
            "default ",
        ] {
            if let Some(r) = rest.strip_prefix(prefix) {
                rest = r;
            }
        }
        if rest.starts_with("pub(in ") {
            rest = rest.split_once(") ").map_or(rest, |(_, r)| r);
        }
        if rest.starts_with("const fn ") || rest.starts_with("const unsafe fn ") {
            rest = &rest["const ".len()..];
        }
        if before == rest {
            break;
        }
    }
    for keyword in ITEM_KEYWORDS {
        if let Some(r) = rest.strip_prefix(keyword) {
            let name = leading_ident(r);
            if !name.is_empty() {
                names.push(name.to_string());
                if matches!(*keyword, "struct " | "enum " | "trait " | "union ") {
                    owners.push(name.to_string());
                }
            }
        }
    }
    // `impl<T> Trait for Type<T> {` and `impl Type {`: both names own the items inside.
    if let Some(r) = rest.strip_prefix("impl")
        && r.starts_with([' ', '<'])
    {
        let r = skip_generics(r.trim_start());
        for part in r.split(" for ") {
            let part = part
                .trim_start_matches(['&', ' '])
                .trim_start_matches("dyn ");
            let path = part.split('<').next().unwrap_or(part);
            let last = path.split("::").last().unwrap_or(path);
            let name = leading_ident(last);
            if !name.is_empty() {
                owners.push(name.to_string());
            }
        }
    }
    // `use a::b as c;` and `pub use crate_name as module;`: the alias is a name.
    if rest.starts_with("use ") || rest.starts_with("extern crate ") {
        for (i, _) in rest.match_indices(" as ") {
            let alias = leading_ident(&rest[i + 4..]);
            if !alias.is_empty() {
                names.push(alias.to_string());
            }
        }
    }
    // Enum variants and fields: `Name,` `Name(..)` `Name {` `name: Type,`.
    let ident = leading_ident(rest);
    if !ident.is_empty() && names.is_empty() && owners.is_empty() {
        let after = &rest[ident.len()..];
        let camel_or_const =
            is_camel(ident) || ident.chars().all(|c| c.is_ascii_uppercase() || c == '_');
        if camel_or_const
            && (after.is_empty()
                || after.starts_with(',')
                || after.starts_with('(')
                || after.starts_with(" {")
                || after.starts_with(" ="))
        {
            names.push(ident.to_string());
        }
        if after.starts_with(": ") && !matches!(ident, "let" | "where" | "return") {
            names.push(ident.to_string());
        }
    }
    (names, owners)
}

fn skip_generics(s: &str) -> &str {
    if !s.starts_with('<') {
        return s;
    }
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => {
                depth -= 1;
                if depth == 0 {
                    return s[i + 1..].trim_start();
                }
            }
            _ => {}
        }
    }
    s
}

/// Backticked spans outside fenced blocks, each with the `crates/...` section it sits in.
fn spans(doc: &str) -> Vec<(usize, Option<String>, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    let mut section = None;
    for (n, line) in doc.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        if let Some(heading) = line.strip_prefix("### ") {
            section = heading
                .trim()
                .trim_matches('`')
                .starts_with("crates/")
                .then(|| heading.trim().trim_matches('`').to_string());
        } else if line.starts_with("## ") {
            section = None;
        }
        let mut parts = line.split('`');
        parts.next();
        while let (Some(code), Some(_)) = (parts.next(), parts.next()) {
            out.push((n + 1, section.clone(), code.to_string()));
        }
    }
    out
}

/// Why `span` names nothing that exists, or `None` when it does (or is not checked).
fn check(index: &Index, section: Option<&str>, span: &str) -> Option<String> {
    let root = root();
    let span = span.trim();
    if span.is_empty() || span.contains(char::is_whitespace) {
        return None;
    }
    let looks_like_file = FILE_EXTENSIONS.iter().any(|e| span.ends_with(e))
        || (span.contains('/') && !span.contains("::"));
    if looks_like_file {
        if span.starts_with('/')
            || span.starts_with('.') && !span.starts_with(".ci/")
            || span.contains(['*', '<', '{', '$', '…', '=', '?', ':'])
            || span.starts_with("http")
        {
            return None;
        }
        let plain = span.trim_end_matches('/');
        let mut candidates = vec![root.join(plain), root.join("docs").join(plain)];
        if let Some(section) = section {
            let krate = root.join(section);
            for sub in ["", "src", "tests", "tests/it"] {
                candidates.push(krate.join(sub).join(plain));
            }
        }
        if candidates.iter().any(|c| c.exists()) {
            return None;
        }
        // A path named from inside a crate (`tests/it/corpus/`, `agent/layout.rs`, a module's
        // `requests/`) may sit anywhere below `crates/`.
        let suffix = format!("/{plain}");
        if index.paths.iter().any(|p| p.ends_with(&suffix)) {
            return None;
        }
        // A bare file name (`view.rs`) names a file of the crate the prose is about.
        if !plain.contains('/') && index.file_names.contains(plain) {
            return None;
        }
        // Only paths with a folder or a Rust/Markdown file name are claims about this tree.
        if span.contains('/') || span.ends_with(".rs") || span.ends_with(".md") {
            return Some("no such file or folder".into());
        }
        return None;
    }
    let had_call = span.ends_with("()");
    let code = span
        .trim_start_matches('&')
        .trim_end_matches("()")
        .trim_end_matches('!');
    let code = code.split('<').next().unwrap_or(code);
    if code.is_empty() {
        return None;
    }
    let segments: Vec<&str> = code.split("::").collect();
    if segments
        .iter()
        .any(|s| s.is_empty() || !s.chars().all(is_ident_char))
    {
        return None;
    }
    if segments.len() == 1 {
        let name = segments[0];
        if ((is_camel(name) && !OUTSIDE.contains(&name)) || had_call)
            && !index.defined.contains(name)
        {
            return Some(format!("`{name}` is defined nowhere in the workspace"));
        }
        return None;
    }
    let first = segments[0];
    let workspace_crate = index.crates.contains_key(first);
    if !workspace_crate && (is_outside_crate(first) || OUTSIDE.contains(&first)) {
        return None;
    }
    if !workspace_crate && !is_camel(first) && first != "crate" && first != "self" {
        return None;
    }
    for segment in &segments[1..] {
        if !index.defined.contains(*segment) {
            return Some(format!("`{segment}` is defined nowhere in the workspace"));
        }
    }
    if !workspace_crate && is_camel(first) && !index.defined.contains(first) {
        return Some(format!("`{first}` is defined nowhere in the workspace"));
    }
    // `Type::item`: the item belongs to the type.
    let owner = segments[segments.len() - 2];
    let item = segments[segments.len() - 1];
    if is_camel(owner) && !index.has_member(owner, item) {
        return Some(format!(
            "no block of `{owner}` (its impl, trait or enum) defines `{item}`"
        ));
    }
    None
}

#[test]
fn every_name_in_the_architecture_doc_exists() {
    let doc = fs::read_to_string(root().join("docs/ARCHITECTURE.md")).unwrap();
    let index = Index::build();
    let mut stale = Vec::new();
    for (line, section, span) in spans(&doc) {
        if let Some(why) = check(&index, section.as_deref(), &span) {
            stale.push(format!("docs/ARCHITECTURE.md:{line}: `{span}`: {why}"));
        }
    }
    assert!(
        stale.is_empty(),
        "names in docs/ARCHITECTURE.md that no longer exist:\n{}",
        stale.join("\n")
    );
}

#[test]
fn the_check_finds_names_that_are_gone() {
    let index = Index::build();
    assert!(check(&index, None, "store_trait::NoSuchThing").is_some());
    assert!(check(&index, None, "MemoryService::no_such_method").is_some());
    assert!(check(&index, None, "crates/no-such-crate/src/lib.rs").is_some());
    assert!(check(&index, Some("crates/pii-mask"), "detect/no_such.rs").is_some());
    assert!(check(&index, None, "NoSuchTypeAnywhere").is_some());
    assert!(check(&index, None, "no_such_function()").is_some());
    // And accepts names that are there.
    assert!(check(&index, None, "agent_memory::MemoryService").is_none());
    assert!(check(&index, None, "MemoryService::recall").is_none());
    assert!(check(&index, Some("crates/pii-mask"), "detect/numeric.rs").is_none());
    assert!(check(&index, None, "docs/ARCHITECTURE.md").is_none());
}
