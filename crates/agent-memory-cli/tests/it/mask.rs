//! `agent-memory mask`: plain and JSON output.

use crate::run_cli;

#[test]
fn plain_output_masks_each_line_and_keeps_clean_lines() {
    let input = "Call me at 050-123-4567\nMeeting on 2024-03-15 at 12:30\r\nwrite to Dana.Levi@Example.CO.IL!\n";
    let (status, stdout, _) = run_cli(&["mask"], input);
    assert_eq!(status, 0);
    assert_eq!(
        stdout,
        "Call me at [PHONE]\nMeeting on 2024-03-15 at 12:30\nwrite to [EMAIL]!\n"
    );
}

#[test]
fn json_output_reports_byte_spans_into_the_input_line() {
    let line = "טל׳ 052-345-6789 או dana@example.com";
    let (status, stdout, _) = run_cli(&["mask", "--json"], &format!("{line}\n"));
    assert_eq!(status, 0);
    let value: serde_json::Value =
        serde_json::from_str(stdout.trim_end()).expect("one JSON object");
    assert_eq!(value["text"], "טל׳ [PHONE] או [EMAIL]");
    let spans = value["spans"].as_array().expect("spans is an array");
    assert_eq!(spans.len(), 2);
    let phone_start = line.find("052").unwrap();
    assert_eq!(spans[0]["start"], phone_start);
    assert_eq!(spans[0]["end"], phone_start + "052-345-6789".len());
    assert_eq!(spans[0]["category"], "phone");
    assert_eq!(spans[1]["category"], "email");
    assert_eq!(
        &line[spans[1]["start"].as_u64().unwrap() as usize..],
        "dana@example.com"
    );
    assert_eq!(value["counts"], serde_json::json!({"email": 1, "phone": 1}));
}

#[test]
fn json_output_has_one_object_per_line_even_for_clean_and_empty_lines() {
    let (status, stdout, _) = run_cli(&["mask", "--json"], "hello\n\n");
    assert_eq!(status, 0);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0], r#"{"text":"hello","spans":[],"counts":{}}"#);
    assert_eq!(lines[1], r#"{"text":"","spans":[],"counts":{}}"#);
}

#[test]
fn invalid_utf8_input_is_a_clear_error_not_a_panic() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_agent-memory"))
        .arg("mask")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"ok\n\xff\xfe\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("line 2"), "stderr names the line: {stderr}");
    assert!(!stderr.contains("panicked"));
}

#[test]
fn json_output_counts_categories_in_the_maskers_priority_order() {
    let (status, stdout, _) = run_cli(
        &["mask", "--json"],
        "mail a@b.io or 050-123-4567, ref 123456789012345\n",
    );
    assert_eq!(status, 0);
    // Byte for byte: spans as `start`, `end`, `category`; counts by priority, not by name.
    assert_eq!(
        stdout,
        concat!(
            r#"{"text":"mail [EMAIL] or [PHONE], ref [NUMBER]","spans":["#,
            r#"{"start":5,"end":11,"category":"email"},"#,
            r#"{"start":15,"end":27,"category":"phone"},"#,
            r#"{"start":33,"end":48,"category":"number"}],"#,
            r#""counts":{"email":1,"phone":1,"number":1}}"#,
            "\n"
        )
    );
}
