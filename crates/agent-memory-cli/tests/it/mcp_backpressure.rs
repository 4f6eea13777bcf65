//! `agent-memory mcp` with a client that stops reading its answers: the server stops reading
//! requests, and its memory stays bounded.

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::run_cli;

/// The server's resident memory in KiB (`VmRSS` of `/proc/PID/status`).
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

#[cfg(target_os = "linux")]
#[test]
fn a_client_that_stops_reading_stops_the_server_reading_and_memory_stays_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let home = home.to_str().unwrap();
    let (status, _, err) = run_cli(&["--home", home, "init"], "");
    assert_eq!(status, 0, "{err}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_agent-memory"))
        .args(["--home", home, "mcp"])
        .env_remove("AGENT_MEMORY_HOME")
        .env_remove("AGENT_MEMORY_EMBEDDER")
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        // Piped and never read: the client stopped reading.
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let _stdout = child.stdout.take().unwrap();
    stdin
        .write_all(
            concat!(
                r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
                "\n",
                r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
                "\n"
            )
            .as_bytes(),
        )
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let before = rss_kib(pid);
    // 100,000 tools/list requests, each answered with every tool's schema (kilobytes): about
    // half a gigabyte of answers if the server queued them all.
    const REQUESTS: usize = 100_000;
    let written = Arc::new(AtomicUsize::new(0));
    let writer = {
        let written = written.clone();
        std::thread::spawn(move || {
            for id in 1..=REQUESTS {
                let line =
                    format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"tools/list\"}}\n");
                if stdin.write_all(line.as_bytes()).is_err() {
                    return;
                }
                written.fetch_add(1, Ordering::Relaxed);
            }
        })
    };
    let deadline = Instant::now() + Duration::from_secs(8);
    let mut peak = before;
    while Instant::now() < deadline {
        peak = peak.max(rss_kib(pid));
        std::thread::sleep(Duration::from_millis(100));
    }
    let sent = written.load(Ordering::Relaxed);
    let _ = child.kill();
    let _ = child.wait();
    let _ = writer.join();
    assert!(
        sent < REQUESTS,
        "the server read every request although nobody read its answers"
    );
    assert!(
        peak < before + 64 * 1024,
        "the server grew from {before} KiB to {peak} KiB"
    );
    eprintln!("mcp backpressure: {sent} requests accepted, RSS {before} KiB -> peak {peak} KiB");
}
