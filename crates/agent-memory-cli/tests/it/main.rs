//! End-to-end tests of the `agent-memory` binary, run as a user would run it.

mod architecture;
mod demo;
mod docs_map;
mod embedder;
mod first_use;
mod local;
mod mask;
mod mcp;
mod mcp_backpressure;
mod migrate;
#[cfg(target_os = "linux")]
mod mount;
mod passages;
#[cfg(unix)]
mod private_home;
mod read_only_home;
mod replay_db;
mod scenarios;
mod serve;
mod serve_limits;
mod shared_home;
mod storage;
mod stores;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// Runs the built `agent-memory` binary with `args`, feeding `stdin`; returns (status, stdout, stderr).
pub(crate) fn run_cli(args: &[&str], stdin: &str) -> (i32, String, String) {
    run_cli_with(args, stdin, None, &[])
}

/// [`run_cli`] in working directory `dir` (when given) with extra environment variables. The
/// caller's `AGENT_MEMORY_HOME` and `AGENT_MEMORY_EMBEDDER` are never inherited, so every test
/// chooses its own home and embedder.
pub(crate) fn run_cli_with(
    args: &[&str],
    stdin: &str,
    dir: Option<&Path>,
    env: &[(&str, &Path)],
) -> (i32, String, String) {
    run_cli_bytes(args, stdin.as_bytes(), dir, env)
}

/// [`run_cli_with`] with `stdin` as bytes (input that is not UTF-8).
pub(crate) fn run_cli_bytes(
    args: &[&str],
    stdin: &[u8],
    dir: Option<&Path>,
    env: &[(&str, &Path)],
) -> (i32, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_agent-memory"));
    command
        .args(args)
        .env_remove("AGENT_MEMORY_HOME")
        .env_remove("AGENT_MEMORY_EMBEDDER")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    for (key, value) in env {
        command.env(key, value);
    }
    let mut child = command.spawn().expect("the agent-memory binary starts");
    let written = child.stdin.take().expect("stdin is piped").write_all(stdin);
    // A command that exits before reading its input (a usage error, say) closes the pipe first.
    if let Err(e) = written {
        assert_eq!(
            e.kind(),
            std::io::ErrorKind::BrokenPipe,
            "stdin accepts input: {e}"
        );
    }
    let out = child.wait_with_output().expect("the binary finishes");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    )
}
