//! The Paths rules of memory-stores.md, as one table.

use memory_core::{PathRejection, StorePath};

#[test]
fn valid_paths() {
    let long_segment = format!("/{}", "s".repeat(255));
    let max_segments = "/a".repeat(32);
    let exactly_1024 = format!("/{}", "q".repeat(255)).repeat(4);
    assert_eq!(exactly_1024.len(), 1024);
    let valid: Vec<String> = vec![
        "/formatting_standards.md".into(),
        "/notes/todo.md".into(),
        "/a".into(),
        "/.hidden".into(),
        "/...".into(),
        "/a..b/c.".into(),
        "/100%".into(),
        "/%zz".into(),
        "/%2".into(),
        "/%41bc".into(),
        "/a%2eb".into(),
        "/%2e%2e%2e".into(),
        "/%252e%252e".into(),
        "/%00".into(),
        "/with space/ünïcødé 文字.md".into(),
        "/CaseSensitive".into(),
        long_segment,
        max_segments,
        exactly_1024,
    ];
    for path in valid {
        let parsed = StorePath::parse(path.clone()).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        // Never decoded or normalized.
        assert_eq!(parsed.as_str(), path);
    }
}

#[test]
fn refused_paths() {
    use PathRejection::*;
    let table: Vec<(String, PathRejection)> = vec![
        ("".into(), NotAbsolute),
        ("notes/a.md".into(), NotAbsolute),
        ("./a".into(), NotAbsolute),
        ("/".into(), EmptySegment),
        ("/a//b".into(), EmptySegment),
        ("/a/".into(), EmptySegment),
        ("/.".into(), DotSegment),
        ("/..".into(), DotSegment),
        ("/a/../b".into(), DotSegment),
        ("/a/./b".into(), DotSegment),
        ("/a/..".into(), DotSegment),
        ("/%2e%2e".into(), EncodedDotOrSeparator),
        ("/%2E%2E/x".into(), EncodedDotOrSeparator),
        ("/%2E.".into(), EncodedDotOrSeparator),
        ("/.%2e".into(), EncodedDotOrSeparator),
        ("/%2e".into(), EncodedDotOrSeparator),
        ("/a%2fb".into(), EncodedDotOrSeparator),
        ("/a%2Fb".into(), EncodedDotOrSeparator),
        ("/a%5cb".into(), EncodedDotOrSeparator),
        ("/a%5Cb".into(), EncodedDotOrSeparator),
        ("/..\\".into(), Backslash),
        ("/a\\b".into(), Backslash),
        ("/a\0b".into(), ControlCharacter),
        ("/a\nb".into(), ControlCharacter),
        ("/a\tb".into(), ControlCharacter),
        ("/a\u{7f}".into(), ControlCharacter),
        ("/a\u{85}".into(), ControlCharacter),
        (format!("/{}", "s".repeat(256)), SegmentTooLong),
        ("/a".repeat(33), TooManySegments),
        (
            format!("{}/{}", "/abc".repeat(31), "q".repeat(1024 - 124)),
            TooLong,
        ),
        (format!("/{}", "x/".repeat(600)), TooLong),
        (
            format!("{}/a", format!("/{}", "q".repeat(255)).repeat(4)),
            TooLong,
        ),
    ];
    for (path, reason) in table {
        assert_eq!(StorePath::check(&path), Err(reason), "{path:?}");
        assert!(StorePath::parse(path.clone()).is_err());
        assert!(serde_json::from_value::<StorePath>(serde_json::Value::String(path)).is_err());
    }
}

#[test]
fn whole_segment_prefixes_and_conflicts() {
    let p = |s: &str| StorePath::parse(s).unwrap();
    assert!(p("/a/b").is_under(&p("/a")));
    assert!(p("/a/b/c").is_under(&p("/a")));
    assert!(!p("/ab").is_under(&p("/a")));
    assert!(!p("/a").is_under(&p("/a")));
    assert!(!p("/A/b").is_under(&p("/a")));

    assert!(p("/a").conflicts_with(&p("/a")));
    assert!(p("/a").conflicts_with(&p("/a/b")));
    assert!(p("/a/b").conflicts_with(&p("/a")));
    assert!(!p("/a").conflicts_with(&p("/ab")));
    assert!(!p("/a/b").conflicts_with(&p("/a/c")));

    assert!(p("/notes/a.md").has_prefix("/notes"));
    assert!(p("/notes/a.md").has_prefix("/notes/"));
    assert!(p("/notes").has_prefix("/notes"));
    assert!(!p("/notes2/a.md").has_prefix("/notes"));
    assert!(!p("/notes/a.md").has_prefix("/note"));
    assert!(p("/x").has_prefix("/"));
    assert!(p("/x").has_prefix(""));
}

#[test]
fn paths_order_by_bytes() {
    let mut paths: Vec<StorePath> = ["/b", "/a/z", "/B", "/a", "/a-b", "/é"]
        .into_iter()
        .map(|s| StorePath::parse(s).unwrap())
        .collect();
    paths.sort();
    let sorted: Vec<&str> = paths.iter().map(StorePath::as_str).collect();
    assert_eq!(sorted, ["/B", "/a", "/a-b", "/a/z", "/b", "/é"]);
}
