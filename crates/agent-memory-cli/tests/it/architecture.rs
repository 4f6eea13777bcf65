//! The dependency invariants of `docs/ARCHITECTURE.md`, checked over `cargo metadata`: the
//! workspace's crates come from the metadata, not from a list written here, so a crate added
//! later is checked as soon as it exists.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

use serde_json::Value;

/// The prefix every published package carries on the registry; the checks below name crates by
/// their plain names (their folders under `crates/` and their libraries' names).
const PREFIX: &str = "govmem-";

/// A package's plain name: its registry name without [`PREFIX`].
fn plain(name: &str) -> String {
    name.strip_prefix(PREFIX).unwrap_or(name).to_owned()
}

/// Crates that open sockets or speak a network protocol: async runtimes and their I/O layers,
/// HTTP clients and servers, RPC frameworks, the MCP SDK, the model hub client.
const NETWORK: &[&str] = &[
    "async-std",
    "axum",
    "curl",
    "h2",
    "hf-hub",
    "hyper",
    "isahc",
    "mio",
    "reqwest",
    "rmcp",
    "socket2",
    "surf",
    "tokio",
    "tonic",
    "tungstenite",
    "ureq",
];

/// Library crates allowed to link network code, each for its reason: the PostgreSQL client,
/// the HTTP surface a host opts into (axum, rmcp's Streamable HTTP), and the benchmarks, which
/// measure recall on PostgreSQL beside redb.
const NETWORK_EXCEPTIONS: &[&str] = &["store-postgres", "agent-memory-http", "benches"];

/// The workspace's normal (non-dev, non-build) dependency graph for the host platform, as one
/// `cargo metadata` call resolves it with `features` on.
struct Graph {
    /// Package id → name.
    names: BTreeMap<String, String>,
    /// Package id → its normal dependencies' ids.
    deps: BTreeMap<String, Vec<String>>,
    /// Workspace member name → (id, whether it has a library target).
    members: BTreeMap<String, (String, bool)>,
}

impl Graph {
    fn load(features: &[&str]) -> Graph {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let version = Command::new(&cargo)
            .arg("-vV")
            .output()
            .expect("cargo -vV runs");
        let version = String::from_utf8(version.stdout).unwrap();
        let host = version
            .lines()
            .find_map(|l| l.strip_prefix("host: "))
            .expect("cargo -vV names the host");
        let mut command = Command::new(&cargo);
        command
            .args(["metadata", "--format-version", "1", "--locked"])
            .args(["--filter-platform", host])
            .arg("--manifest-path")
            .arg(root.join("Cargo.toml"));
        if !features.is_empty() {
            command.args(["--features", &features.join(",")]);
        }
        let out = command.output().expect("cargo metadata runs");
        assert!(
            out.status.success(),
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let metadata: Value = serde_json::from_slice(&out.stdout).expect("metadata is JSON");

        let mut names = BTreeMap::new();
        let mut libs = BTreeMap::new();
        for package in metadata["packages"].as_array().unwrap() {
            let id = package["id"].as_str().unwrap().to_owned();
            let has_lib = package["targets"].as_array().unwrap().iter().any(|t| {
                t["kind"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|k| k == "lib" || k == "rlib" || k == "proc-macro")
            });
            names.insert(id.clone(), plain(package["name"].as_str().unwrap()));
            libs.insert(id, has_lib);
        }
        let members = metadata["workspace_members"]
            .as_array()
            .unwrap()
            .iter()
            .map(|id| {
                let id = id.as_str().unwrap().to_owned();
                (names[&id].clone(), (id.clone(), libs[&id]))
            })
            .collect();
        let deps = metadata["resolve"]["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|node| {
                let normal = node["deps"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|d| {
                        d["dep_kinds"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .any(|k| k["kind"].is_null())
                    })
                    .map(|d| d["pkg"].as_str().unwrap().to_owned())
                    .collect();
                (node["id"].as_str().unwrap().to_owned(), normal)
            })
            .collect();
        Graph {
            names,
            deps,
            members,
        }
    }

    /// The graph with default features (what a host gets that asks for no feature).
    fn default_features() -> &'static Graph {
        static GRAPH: OnceLock<Graph> = OnceLock::new();
        GRAPH.get_or_init(|| Graph::load(&[]))
    }

    fn id(&self, member: &str) -> &str {
        &self
            .members
            .get(member)
            .unwrap_or_else(|| panic!("{member} is a workspace member"))
            .0
    }

    /// The names of `member`'s direct normal dependencies.
    fn direct(&self, member: &str) -> BTreeSet<&str> {
        self.deps[self.id(member)]
            .iter()
            .map(|id| self.names[id].as_str())
            .collect()
    }

    /// The names of every crate `member` depends on, directly or not, never descending into the
    /// crates named in `except`.
    fn closure(&self, member: &str, except: &[&str]) -> BTreeSet<&str> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![self.id(member)];
        while let Some(id) = todo.pop() {
            for dep in &self.deps[id] {
                let name = self.names[dep].as_str();
                if !except.contains(&name) && seen.insert(name) {
                    todo.push(dep);
                }
            }
        }
        seen
    }

    fn workspace_crates_in<'a>(&self, names: &BTreeSet<&'a str>) -> BTreeSet<&'a str> {
        names
            .iter()
            .copied()
            .filter(|n| self.members.contains_key(*n))
            .collect()
    }
}

fn network_in<'a>(names: &BTreeSet<&'a str>) -> BTreeSet<&'a str> {
    names
        .iter()
        .copied()
        .filter(|n| NETWORK.contains(n))
        .collect()
}

#[test]
fn the_masker_and_the_ranker_depend_on_no_workspace_crate() {
    let graph = Graph::default_features();
    for leaf in ["pii-mask", "fusion-rank"] {
        let inside = graph.workspace_crates_in(&graph.closure(leaf, &[]));
        assert!(inside.is_empty(), "{leaf} depends on {inside:?}");
    }
}

#[test]
fn the_domain_model_depends_on_the_masker_and_the_ranker_only() {
    let graph = Graph::default_features();
    let inside = graph.workspace_crates_in(&graph.closure("memory-core", &[]));
    assert_eq!(inside, BTreeSet::from(["fusion-rank", "pii-mask"]));
}

#[test]
fn the_two_products_sit_under_the_facade_on_their_shared_plumbing() {
    let graph = Graph::default_features();
    // Allow-lists, so that neither crate can come to depend on the facade, on the other product
    // or on an edge (HTTP, replay, CLI) unnoticed.
    let below = [
        "fusion-rank",
        "governance-policy",
        "memory-core",
        "pii-mask",
        "store-trait",
    ];
    let ops = graph.workspace_crates_in(&graph.closure("agent-memory-ops", &[]));
    assert!(
        ops.is_subset(&BTreeSet::from(below)),
        "agent-memory-ops depends on {ops:?}"
    );
    let stores = graph.workspace_crates_in(&graph.closure("agent-memory-stores", &[]));
    let mut allowed = BTreeSet::from(below);
    allowed.insert("agent-memory-ops");
    assert!(
        stores.is_subset(&allowed) && stores.contains("agent-memory-ops"),
        "agent-memory-stores depends on {stores:?}"
    );
    // The facade is the one crate above both.
    let facade = graph.direct("agent-memory");
    assert!(facade.contains("agent-memory-stores") && facade.contains("agent-memory-ops"));
}

#[test]
fn the_fuse_mount_reaches_storage_only_through_the_facade() {
    let graph = Graph::default_features();
    // An allow-list, so that a storage crate added later cannot become a direct dependency
    // unnoticed: the mount acts as the session through `agent-memory`.
    let inside = graph.workspace_crates_in(&graph.direct("memory-fuse"));
    assert!(
        inside.is_subset(&BTreeSet::from(["agent-memory", "memory-core"])),
        "memory-fuse depends directly on {inside:?}"
    );
}

#[test]
fn no_library_crate_links_network_code_but_the_postgres_client_and_the_http_crate() {
    let graph = Graph::default_features();
    for (name, (_, has_lib)) in &graph.members {
        if !has_lib || NETWORK_EXCEPTIONS.contains(&name.as_str()) {
            continue;
        }
        // The metadata resolves the workspace's features together, so the facade's `postgres`,
        // which the CLI turns on, shows in every crate above the facade: network code may come
        // in through the PostgreSQL client only, and only the facade (behind that feature)
        // depends on it. What a host gets without the feature is checked below.
        // So does the facade's `tokio` feature (the async facade), which the HTTP crate and
        // the CLI turn on: tokio with its `rt` feature only, which opens no socket (what a
        // host gets with that feature is checked below, on its own resolution).
        let network = network_in(&graph.closure(name, &["store-postgres", "tokio"]));
        assert!(network.is_empty(), "{name} links network code: {network:?}");
        assert!(
            name == "agent-memory" || !graph.direct(name).contains("store-postgres"),
            "{name} depends on the PostgreSQL client directly"
        );
    }
    // The list names what the crates are called: the CLI, which serves MCP, is caught by it,
    // and so is the HTTP crate.
    assert!(network_in(&graph.closure("agent-memory-cli", &[])).contains("rmcp"));
    assert!(network_in(&graph.closure("agent-memory-http", &[])).contains("axum"));
    // The HTTP crate reaches storage only through the facade.
    let inside = graph.workspace_crates_in(&graph.direct("agent-memory-http"));
    assert!(
        inside.is_subset(&BTreeSet::from(["agent-memory", "governance-policy"])),
        "agent-memory-http depends directly on {inside:?}"
    );
    // The facade in particular, whose tree a host gets with no feature.
    let host = facade_alone();
    assert!(host.contains("store-trait"), "{host:?}");
    assert!(!host.contains("store-postgres"), "{host:?}");
    let network = network_in(&host.iter().map(String::as_str).collect());
    assert!(
        network.is_empty(),
        "the facade links network code: {network:?}"
    );
    // With the async facade: tokio's runtime, and no I/O driver or socket crate under it.
    let host = facade_alone_with(&["tokio"]);
    let network = network_in(&host.iter().map(String::as_str).collect());
    assert_eq!(
        network,
        BTreeSet::from(["tokio"]),
        "the facade's tokio feature links network code: {network:?}"
    );
}

/// The names of every crate in the facade's normal dependency tree as a host that asks for no
/// feature gets it: `cargo tree -p govmem-agent-memory` resolves the facade's features alone, not
/// together with the other workspace members' (as `cargo metadata` does).
fn facade_alone() -> BTreeSet<String> {
    facade_alone_with(&[])
}

/// [`facade_alone`] with the facade's `features` on.
fn facade_alone_with(features: &[&str]) -> BTreeSet<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "tree",
            "--locked",
            "-p",
            "govmem-agent-memory",
            "-e",
            "normal",
        ])
        .args(if features.is_empty() {
            Vec::new()
        } else {
            vec!["--features".to_owned(), features.join(",")]
        })
        .args(["--prefix", "none", "--format", "{p}"])
        .arg("--manifest-path")
        .arg(root.join("Cargo.toml"))
        .output()
        .expect("cargo tree runs");
    assert!(
        out.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("cargo tree prints UTF-8")
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .map(plain)
        .collect()
}

/// The workspace crates the CLI may name: the facade, which re-exports the library's parts by
/// namespace (`agent_memory::types`, `::storage`, `::backends`, …), and the crates that exist
/// for a command of their own (`serve`, `replay`, `mount`).
const CLI_MAY_USE: &[&str] = &[
    "agent-memory",
    "agent-memory-http",
    "agent-memory-replay",
    "memory-fuse",
];

#[test]
fn the_cli_reaches_the_library_through_the_facade_only() {
    through_the_facade_only("agent-memory-cli", CLI_MAY_USE);
}

#[test]
fn the_replay_runner_reaches_the_library_through_the_facade_only() {
    through_the_facade_only("agent-memory-replay", &["agent-memory"]);
}

/// `member`'s direct workspace dependencies are among `allowed`, and its sources name no other
/// workspace crate (a path such as `memory_core::…`, which a dependency of a dependency would
/// otherwise not make possible, or a `use` of one).
fn through_the_facade_only(member: &str, allowed: &[&str]) {
    let graph = Graph::default_features();
    let inside = graph.workspace_crates_in(&graph.direct(member));
    let allowed: BTreeSet<&str> = allowed.iter().copied().collect();
    assert!(
        inside.is_subset(&allowed),
        "{member} depends directly on {:?}",
        inside.difference(&allowed).collect::<Vec<_>>()
    );
    let forbidden: Vec<String> = graph
        .members
        .iter()
        .filter(|(name, (_, has_lib))| {
            *has_lib && name.as_str() != member && !allowed.contains(name.as_str())
        })
        .map(|(name, _)| name.replace('-', "_"))
        .collect();
    // Every workspace crate lives in `crates/<its name>`.
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(member)
        .join("src");
    let mut found = Vec::new();
    for file in rust_files(&src) {
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            for name in &forbidden {
                if names_crate(line, name) {
                    found.push(format!("{}:{}: {name}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "{member} names crates behind the facade:\n{}",
        found.join("\n")
    );
}

#[test]
fn a_crate_name_is_found_as_a_whole_word_only() {
    assert!(names_crate("use memory_core::Timestamp;", "memory_core"));
    assert!(names_crate("    x: memory_core::Id,", "memory_core"));
    assert!(names_crate("use store_trait as storage;", "store_trait"));
    assert!(!names_crate("use agent_memory::types::Id;", "memory_core"));
    assert!(!names_crate("let my_memory_core = 1;", "memory_core"));
    assert!(!names_crate("memory_cores", "memory_core"));
}

/// Whether `line` has `name` as a whole identifier.
fn names_crate(line: &str, name: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    line.match_indices(name).any(|(at, _)| {
        let before = line[..at].chars().next_back();
        let after = line[at + name.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

#[test]
fn the_facades_features_add_network_code_through_the_postgres_backend_only() {
    let graph = Graph::load(&[
        "agent-memory/redb",
        "agent-memory/sled",
        "agent-memory/sqlite",
        "agent-memory/postgres",
        "agent-memory/candle",
        "agent-memory/openapi",
        "agent-memory/tokio",
    ]);
    let direct = graph.direct("agent-memory");
    assert!(direct.contains("store-postgres") && direct.contains("embed-candle"));
    // tokio (the async facade's runtime, `rt` only) is checked on the facade's own resolution
    // in `no_library_crate_links_network_code_but_the_postgres_client_and_the_http_crate`.
    let network = network_in(&graph.closure("agent-memory", &["store-postgres", "tokio"]));
    assert!(
        network.is_empty(),
        "agent-memory's features link network code outside store-postgres: {network:?}"
    );
    // The model is read from a directory: no HTTP client or model hub, with every feature on.
    let network = network_in(&graph.closure("embed-candle", &[]));
    assert!(network.is_empty(), "embed-candle links {network:?}");
}

#[test]
fn the_storage_crates_point_down_and_link_no_network_code() {
    let graph = Graph::default_features();
    // What every storage crate may use: the domain model (and its masker) and the analyzer.
    let base = ["memory-core", "pii-mask", "fusion-rank"];
    // Each crate with the storage crates below it: the traits, the key-space rules, then the
    // backends; the suites check the traits' contracts and know no backend.
    let layers: [(&str, &[&str]); 8] = [
        ("store-trait", &[]),
        ("store-kv", &["store-trait"]),
        ("store-redb", &["store-trait", "store-kv"]),
        ("store-sled", &["store-trait", "store-kv"]),
        ("store-sqlite", &["store-trait", "store-kv"]),
        ("store-postgres", &["store-trait", "store-kv"]),
        ("store-conformance", &["store-trait"]),
        ("store-durable-suite", &["store-trait"]),
    ];
    for (name, below) in layers {
        let allowed: BTreeSet<&str> = base.iter().chain(below).copied().collect();
        let closure = graph.closure(name, &[]);
        let inside = graph.workspace_crates_in(&closure);
        assert!(inside.is_subset(&allowed), "{name} depends on {inside:?}");
        // PostgreSQL's client is the one network code of the storage crates.
        if name != "store-postgres" {
            let network = network_in(&closure);
            assert!(network.is_empty(), "{name} links network code: {network:?}");
        }
    }
}

#[test]
fn every_workspace_crate_has_a_section_in_the_architecture_map() {
    let graph = Graph::default_features();
    let doc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/ARCHITECTURE.md"),
    )
    .unwrap();
    let headings: Vec<&str> = doc.lines().filter(|l| l.starts_with("### ")).collect();
    for name in graph.members.keys() {
        let crate_dir = format!("`crates/{name}`");
        let top_dir = format!("`{name}/`");
        assert!(
            headings
                .iter()
                .any(|h| h.contains(&crate_dir) || h.contains(&top_dir)),
            "docs/ARCHITECTURE.md has no code-map section for {name}"
        );
    }
}

/// The table "Who depends on whom" in `docs/ARCHITECTURE.md`: one row per crate under `crates/`,
/// each with its normal dependencies among the workspace's crates.
fn documented_dependencies() -> BTreeMap<String, BTreeSet<String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let doc = std::fs::read_to_string(root.join("docs/ARCHITECTURE.md")).unwrap();
    let table = doc
        .split_once("### Who depends on whom")
        .expect("docs/ARCHITECTURE.md has the section \"Who depends on whom\"")
        .1;
    let mut rows = BTreeMap::new();
    for line in table.lines().skip_while(|l| !l.starts_with('|')) {
        let Some(line) = line.strip_prefix("| `") else {
            if line.starts_with('|') {
                continue; // the header and its rule
            }
            break;
        };
        let (name, deps) = line.split_once("` |").expect("a row: | `crate` | deps |");
        let deps = deps
            .split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_owned)
            .collect();
        rows.insert(name.to_owned(), deps);
    }
    rows
}

#[test]
fn the_dependency_table_of_the_map_is_the_workspaces_graph() {
    let graph = Graph::default_features();
    let documented = documented_dependencies();
    let mut actual = BTreeMap::new();
    for name in graph.members.keys() {
        if name == "benches" {
            continue;
        }
        let deps = graph
            .workspace_crates_in(&graph.direct(name))
            .into_iter()
            .map(str::to_owned)
            .collect::<BTreeSet<String>>();
        actual.insert(name.clone(), deps);
    }
    assert_eq!(
        documented, actual,
        "the table \"Who depends on whom\" in docs/ARCHITECTURE.md differs from cargo metadata \
         (left: the doc, right: the workspace)"
    );
}

/// Every package a `cargo publish` would upload is named `govmem-<folder>` (one prefix, since
/// some plain names are taken on crates.io), and its library keeps the folder's name, so that
/// code and docs say `memory_core::…` whichever name the registry shows.
#[test]
fn every_published_package_carries_the_prefix_and_keeps_its_plain_library_name() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked", "--no-deps"])
        .arg("--manifest-path")
        .arg(root.join("Cargo.toml"))
        .output()
        .expect("cargo metadata runs");
    assert!(out.status.success(), "cargo metadata failed");
    let metadata: Value = serde_json::from_slice(&out.stdout).expect("metadata is JSON");
    let mut published = 0;
    for package in metadata["packages"].as_array().unwrap() {
        let name = package["name"].as_str().unwrap();
        let manifest = Path::new(package["manifest_path"].as_str().unwrap());
        let folder = manifest
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_str()
            .unwrap();
        if package["publish"].as_array().is_some_and(Vec::is_empty) {
            assert!(
                !name.starts_with(PREFIX),
                "{name} is not published but carries the prefix"
            );
            continue;
        }
        published += 1;
        assert_eq!(
            name,
            format!("{PREFIX}{folder}"),
            "the package in {folder}/"
        );
        for target in package["targets"].as_array().unwrap() {
            if target["kind"]
                .as_array()
                .unwrap()
                .iter()
                .any(|k| k == "lib")
            {
                assert_eq!(
                    target["name"].as_str().unwrap(),
                    folder.replace('-', "_"),
                    "the library of {name}"
                );
            }
        }
    }
    assert!(
        published >= 19,
        "only {published} published packages were found"
    );
}
