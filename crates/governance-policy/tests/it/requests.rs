//! Step 5 (request validation) for every body, and step 6 (personal data in identifiers).

use governance_policy::{
    CITATIONS_MAX, ForgetRequest, LIST_LIMIT_DEFAULT, ListRequest, MemberDeleteRequest,
    MemberListRequest, RECALL_LIMIT_DEFAULT, RecallRequest, RememberRequest, SettingsPatch,
    check_identifiers,
};
use memory_core::{ApiError, ErrorCode, Settings, Timestamp};
use serde_json::{Value, json};

/// Asserts a 400 invalid-request refusal whose message does not echo `secret`.
#[track_caller]
fn assert_invalid<T: std::fmt::Debug>(result: Result<T, ApiError>, secret: &str) {
    let err = result.expect_err("expected a refusal");
    assert_eq!(err.code(), ErrorCode::AgentMemoryInvalidRequest);
    assert_eq!(err.http_status(), 400);
    assert!(!err.message().is_empty());
    if !secret.is_empty() {
        assert!(
            !err.message().contains(secret),
            "message echoes the value: {}",
            err.message()
        );
    }
}

fn with(base: &Value, field: &str, value: Value) -> Value {
    let mut body = base.clone();
    body[field] = value;
    body
}

fn remember_base() -> Value {
    json!({"namespace": "prefs", "text": "Reply tersely"})
}

#[test]
fn remember_minimal_and_full() {
    let req = RememberRequest::from_json(&remember_base()).unwrap();
    assert_eq!(req.namespace, "prefs");
    assert_eq!(req.text, "Reply tersely");
    assert_eq!((req.key, req.collection_id), (None, None));
    assert!(req.citations.is_empty());

    let full = json!({"namespace": "prefs", "text": "t", "key": "tone", "collectionId": "c1",
                      "citations": ["p1", "p2"]});
    let req = RememberRequest::from_json(&full).unwrap();
    assert_eq!(req.key.as_deref(), Some("tone"));
    assert_eq!(req.collection_id.as_deref(), Some("c1"));
    assert_eq!(req.citations, ["p1", "p2"]);
}

#[test]
fn remember_field_lengths_at_and_past_the_bounds() {
    let base = remember_base();
    let cases: [(&str, usize); 4] = [
        ("namespace", 64),
        ("text", 1000),
        ("key", 120),
        ("collectionId", 128),
    ];
    for (field, max) in cases {
        // Multi-byte characters: the bound is in scalar values, not bytes.
        let at = "é".repeat(max);
        assert!(
            RememberRequest::from_json(&with(&base, field, json!(at))).is_ok(),
            "{field} at max"
        );
        let over = format!("{at}x");
        assert_invalid(
            RememberRequest::from_json(&with(&base, field, json!(over))),
            &over,
        );
        assert_invalid(
            RememberRequest::from_json(&with(&base, field, json!(""))),
            "",
        );
    }
}

#[test]
fn required_fields_missing_or_null() {
    assert_invalid(RememberRequest::from_json(&json!({"text": "t"})), "");
    assert_invalid(RememberRequest::from_json(&json!({"namespace": "n"})), "");
    assert_invalid(
        RememberRequest::from_json(&json!({"namespace": null, "text": "t"})),
        "",
    );
    assert_invalid(RecallRequest::from_json(&json!({})), "");
    assert_invalid(RecallRequest::from_json(&json!({"query": ""})), "");
}

#[test]
fn wrong_json_types_are_refused() {
    let base = remember_base();
    for (field, value) in [
        ("namespace", json!(5)),
        ("text", json!(["t"])),
        ("text", json!(true)),
        ("key", json!({"k": 1})),
        ("collectionId", json!(12)),
        ("citations", json!("p1")),
        ("citations", json!([1, 2])),
        ("citations", json!([null])),
    ] {
        assert_invalid(RememberRequest::from_json(&with(&base, field, value)), "");
    }
    for body in [json!("text"), json!([1]), json!(3), json!(true)] {
        assert_invalid(RememberRequest::from_json(&body), "");
    }
    assert_invalid(
        SettingsPatch::from_json(&json!({"agentMemoriesEnabled": "true"})),
        "",
    );
    assert_invalid(
        SettingsPatch::from_json(&json!({"agentMemoriesEnabled": 1})),
        "",
    );
    assert_invalid(
        SettingsPatch::from_json(&json!({"retentionDays": "30"})),
        "",
    );
    assert_invalid(ListRequest::from_json(&json!({"cursor": 7})), "");
    assert_invalid(MemberDeleteRequest::from_json(&json!({"memoryId": 7})), "");
}

#[test]
fn unknown_fields_are_named_only_when_the_name_is_a_plain_identifier() {
    // A name with personal data, or that is no plain identifier, is the client's content.
    for secret in [
        "mail_me_at_dana@example.com",
        "call 050-123-4567",
        "x-secret",
    ] {
        assert_invalid(
            RememberRequest::from_json(&with(&remember_base(), secret, json!(1))),
            secret,
        );
    }
    // A plain name is named; its value never is.
    let err = RememberRequest::from_json(&with(&remember_base(), "tags", json!("mail_me_at_x")))
        .unwrap_err();
    assert_eq!(err.message(), "the request body has an unknown field: tags");
    assert_invalid(
        RecallRequest::from_json(&json!({"query": "q", "memoryId": "amem_x"})),
        "",
    );
    assert_invalid(ListRequest::from_json(&json!({"query": "q"})), "");
    assert_invalid(
        ForgetRequest::from_json(&json!({"memoryId": "amem_x", "extra": null})),
        "",
    );
    assert_invalid(SettingsPatch::from_json(&json!({"retaining": false})), "");
    assert_invalid(MemberDeleteRequest::from_json(&json!({"id": "amem_x"})), "");
    assert_invalid(MemberListRequest::from_json(&json!({"namespace": "n"})), "");
    // Field names are camelCase only.
    assert_invalid(
        RememberRequest::from_json(&with(&remember_base(), "collection_id", json!("c"))),
        "",
    );
}

#[test]
fn null_is_the_same_as_absent() {
    let body = json!({"namespace": "n", "text": "t", "key": null, "collectionId": null, "citations": null});
    assert_eq!(
        RememberRequest::from_json(&body).unwrap(),
        RememberRequest::from_json(&json!({"namespace": "n", "text": "t"})).unwrap()
    );
    let recall = RecallRequest::from_json(
        &json!({"query": "q", "namespace": null, "collectionId": null,
                                                   "asOf": null, "limit": null}),
    )
    .unwrap();
    assert_eq!(recall.limit, RECALL_LIMIT_DEFAULT);
    assert_eq!(
        (recall.namespace, recall.collection_id, recall.as_of),
        (None, None, None)
    );
    let list =
        ListRequest::from_json(&json!({"cursor": null, "limit": null, "key": null})).unwrap();
    assert_eq!(
        (list.limit, list.cursor, list.key),
        (LIST_LIMIT_DEFAULT, None, None)
    );
    assert_eq!(
        SettingsPatch::from_json(&json!({"retentionDays": null})).unwrap(),
        SettingsPatch::default()
    );
    assert_eq!(
        MemberDeleteRequest::from_json(&json!({"memoryId": null}))
            .unwrap()
            .memory_id,
        None
    );
}

#[test]
fn identifiers_refuse_control_characters_and_outer_whitespace() {
    let base = remember_base();
    for field in ["namespace", "key"] {
        for bad in [
            " prefs",
            "prefs ",
            "\tprefs",
            "pre\u{7}fs",
            "pre\u{1b}fs",
            "line\nbreak",
            "prefs\u{a0}",
        ] {
            assert_invalid(
                RememberRequest::from_json(&with(&base, field, json!(bad))),
                "",
            );
        }
        assert!(RememberRequest::from_json(&with(&base, field, json!("two words"))).is_ok());
    }
    // Filters follow the same rules.
    assert_invalid(ListRequest::from_json(&json!({"namespace": "prefs "})), "");
    assert_invalid(ListRequest::from_json(&json!({"key": "\u{0}"})), "");
    assert_invalid(
        RecallRequest::from_json(&json!({"query": "q", "namespace": " x"})),
        "",
    );
    // Text and query may hold newlines and outer whitespace.
    let req = RememberRequest::from_json(&with(&base, "text", json!(" a\nb "))).unwrap();
    assert_eq!(req.text, " a\nb ");
}

#[test]
fn citations_count_as_sent_then_collapse() {
    let base = remember_base();
    let twenty: Vec<String> = (0..CITATIONS_MAX).map(|i| format!("p{}", i % 3)).collect();
    let req = RememberRequest::from_json(&with(&base, "citations", json!(twenty))).unwrap();
    assert_eq!(req.citations, ["p0", "p1", "p2"]);

    let twenty_one = vec!["p1"; CITATIONS_MAX + 1];
    assert_invalid(
        RememberRequest::from_json(&with(&base, "citations", json!(twenty_one))),
        "",
    );

    let req =
        RememberRequest::from_json(&with(&base, "citations", json!(["b", "a", "b"]))).unwrap();
    assert_eq!(req.citations, ["b", "a"], "first occurrence order is kept");
    assert!(
        RememberRequest::from_json(&with(&base, "citations", json!([])))
            .unwrap()
            .citations
            .is_empty()
    );

    let long = "p".repeat(128);
    assert!(RememberRequest::from_json(&with(&base, "citations", json!([long]))).is_ok());
    assert_invalid(
        RememberRequest::from_json(&with(&base, "citations", json!([format!("{long}p")]))),
        "",
    );
    assert_invalid(
        RememberRequest::from_json(&with(&base, "citations", json!([""]))),
        "",
    );
}

#[test]
fn limits_are_bounded_integers() {
    let recall = |limit: Value| RecallRequest::from_json(&json!({"query": "q", "limit": limit}));
    assert_eq!(recall(json!(1)).unwrap().limit, 1);
    assert_eq!(recall(json!(50)).unwrap().limit, 50);
    let list = |limit: Value| ListRequest::from_json(&json!({"limit": limit}));
    assert_eq!(list(json!(100)).unwrap().limit, 100);
    assert_eq!(
        MemberListRequest::from_json(&json!({"limit": 100}))
            .unwrap()
            .limit,
        100
    );

    let bad: Vec<Value> = vec![
        json!(0),
        json!(-1),
        json!(10.0),
        json!(10.5),
        json!("10"),
        json!(true),
        json!([10]),
        json!(u64::MAX),
        json!(i64::MIN),
        serde_json::from_str("1e3").unwrap(),
        serde_json::from_str("184467440737095516160000").unwrap(),
    ];
    for value in &bad {
        assert_invalid(recall(value.clone()), "");
        assert_invalid(list(value.clone()), "");
        assert_invalid(MemberListRequest::from_json(&json!({"limit": value})), "");
    }
    assert_invalid(recall(json!(51)), "");
    assert_invalid(list(json!(101)), "");
    assert_invalid(MemberListRequest::from_json(&json!({"limit": 101})), "");
}

#[test]
fn as_of_is_rfc3339() {
    let list = |v: Value| ListRequest::from_json(&json!({"asOf": v}));
    let expected: Timestamp = "2026-01-01T00:00:00Z".parse().unwrap();
    assert_eq!(
        list(json!("2026-01-01T00:00:00Z")).unwrap().as_of,
        Some(expected)
    );
    assert_eq!(
        list(json!("2026-01-01T02:00:00+02:00")).unwrap().as_of,
        Some(expected)
    );
    let secret = "2026-13-01T00:00:00Z";
    assert_invalid(list(json!(secret)), secret);
    for bad in [
        json!("2026-01-01"),
        json!("yesterday"),
        json!(""),
        json!(1_767_225_600),
        json!("10000-01-01T00:00:00Z"),
    ] {
        assert_invalid(list(bad.clone()), "");
        assert_invalid(
            RecallRequest::from_json(&json!({"query": "q", "asOf": bad})),
            "",
        );
    }
}

#[test]
fn query_and_list_filters() {
    let q = "q".repeat(1000);
    assert!(RecallRequest::from_json(&json!({"query": q})).is_ok());
    let over = format!("{q}!");
    assert_invalid(RecallRequest::from_json(&json!({"query": over})), &over);
    let list = ListRequest::from_json(&json!({"namespace": "n", "key": "k", "collectionId": "c",
                                              "limit": 5, "cursor": "opaque"}))
    .unwrap();
    assert_eq!(list.namespace.as_deref(), Some("n"));
    assert_eq!(list.key.as_deref(), Some("k"));
    assert_eq!(list.collection_id.as_deref(), Some("c"));
    assert_eq!((list.limit, list.cursor.as_deref()), (5, Some("opaque")));
    assert_invalid(ListRequest::from_json(&json!({"cursor": ""})), "");
    assert_invalid(
        ListRequest::from_json(&json!({"cursor": "c".repeat(5000)})),
        "",
    );
}

#[test]
fn forget_takes_exactly_one_form() {
    assert_eq!(
        ForgetRequest::from_json(&json!({"memoryId": "amem_x"})).unwrap(),
        ForgetRequest::ById("amem_x".into())
    );
    assert_eq!(
        ForgetRequest::from_json(&json!({"namespace": "n", "key": "k", "memoryId": null})).unwrap(),
        ForgetRequest::ByKey {
            namespace: "n".into(),
            key: "k".into()
        }
    );
    for body in [
        json!({}),
        json!({"memoryId": "amem_x", "namespace": "n", "key": "k"}),
        json!({"memoryId": "amem_x", "key": "k"}),
        json!({"namespace": "n"}),
        json!({"key": "k"}),
        json!({"memoryId": ""}),
        json!({"memoryId": 5}),
        json!({"namespace": "n", "key": " k"}),
    ] {
        assert_invalid(ForgetRequest::from_json(&body), "");
    }
}

#[test]
fn settings_patch_merges() {
    let stored = Settings::new(true, 30).unwrap();
    let patch = SettingsPatch::from_json(&json!({"retentionDays": 365})).unwrap();
    assert_eq!(patch.apply(stored), Settings::new(true, 365).unwrap());
    let patch = SettingsPatch::from_json(&json!({"agentMemoriesEnabled": false})).unwrap();
    assert_eq!(patch.apply(stored), Settings::new(false, 30).unwrap());
    assert_eq!(
        SettingsPatch::from_json(&json!({})).unwrap().apply(stored),
        stored
    );
    for bad in [json!(0), json!(366), json!(-5), json!(30.5), json!(70_000)] {
        assert_invalid(SettingsPatch::from_json(&json!({"retentionDays": bad})), "");
    }
}

#[test]
fn member_requests() {
    assert_eq!(
        MemberDeleteRequest::from_json(&json!({}))
            .unwrap()
            .memory_id,
        None
    );
    assert_eq!(
        MemberDeleteRequest::from_json(&json!({"memoryId": "amem_1"}))
            .unwrap()
            .memory_id
            .as_deref(),
        Some("amem_1")
    );
    let list = MemberListRequest::from_json(&json!({"limit": 3, "cursor": "x"})).unwrap();
    assert_eq!((list.limit, list.cursor.as_deref()), (3, Some("x")));
}

#[test]
fn personal_data_in_identifiers() {
    assert!(check_identifiers("prefs", Some("tone"), None).is_ok());
    assert!(check_identifiers("prefs", None, Some("c1")).is_ok());
    let err = check_identifiers("user a@b.io", None, None).unwrap_err();
    assert_eq!(
        (err.code(), err.http_status()),
        (ErrorCode::AgentMemoryPersonalData, 400)
    );
    assert!(!err.message().contains("a@b.io"));
    let err = check_identifiers("prefs", Some("john.doe@example.com"), None).unwrap_err();
    assert_eq!(err.code(), ErrorCode::AgentMemoryPersonalData);
    // collectionId follows the same rule, with a message naming it (never the value).
    let err = check_identifiers("prefs", Some("tone"), Some("crm +14155550100")).unwrap_err();
    assert_eq!(
        (err.code(), err.message()),
        (
            ErrorCode::AgentMemoryPersonalData,
            "collectionId contains personal data"
        )
    );
    // The namespace and key answer first.
    let err = check_identifiers("a@b.io", None, Some("+14155550100")).unwrap_err();
    assert_eq!(err.message(), "namespace or key contains personal data");
}

/// A small deterministic generator (xorshift64*), so every run checks the same values.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn digits(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| char::from(b'0' + self.below(10) as u8))
            .collect()
    }

    fn word(&mut self) -> &'static str {
        const WORDS: &[&str] = &["crm", "notes", "clients", "docs", "team", "inbox"];
        WORDS[self.below(WORDS.len() as u64) as usize]
    }

    /// An email, an international or Israeli phone number, an Israeli ID with its check
    /// digit, or a run of 10 to 14 digits, alone or beside a word.
    fn personal(&mut self) -> String {
        let value = match self.below(5) {
            0 => format!("{}{}@example.com", self.word(), self.below(100)),
            1 => format!("+1415{}", self.digits(7)),
            2 => format!("05{}-{}-{}", self.below(10), self.digits(3), self.digits(4)),
            3 => {
                let prefix = format!("{}{}", 1 + self.below(9), self.digits(7));
                let sum: u32 = prefix
                    .bytes()
                    .enumerate()
                    .map(|(i, b)| {
                        let p = u32::from(b - b'0') * if i % 2 == 0 { 1 } else { 2 };
                        if p > 9 { p - 9 } else { p }
                    })
                    .sum();
                format!("{prefix}{}", (10 - sum % 10) % 10)
            }
            _ => {
                let n = 9 + self.below(5) as usize;
                format!("{}{}", 1 + self.below(9), self.digits(n))
            }
        };
        match self.below(3) {
            0 => value,
            1 => format!("{} {value}", self.word()),
            _ => format!("{value} {}", self.word()),
        }
    }

    /// Words, dates, versions and short numbers.
    fn clean(&mut self) -> String {
        match self.below(4) {
            0 => self.word().to_owned(),
            1 => format!(
                "{}-{}-{:02}-{:02}",
                self.word(),
                2000 + self.below(30),
                1 + self.below(12),
                1 + self.below(28)
            ),
            2 => format!(
                "{}-v{}.{}.{}",
                self.word(),
                self.below(10),
                self.below(10),
                self.below(100)
            ),
            _ => format!("{}_{}", self.word(), self.below(1000)),
        }
    }
}

#[test]
fn generated_identifiers_are_refused_in_every_field_and_clean_ones_pass() {
    let mut g = Gen(0x1d5);
    for _ in 0..300 {
        let (personal, clean) = (g.personal(), g.clean());
        for (namespace, key, collection) in [
            (personal.as_str(), None, None),
            (clean.as_str(), Some(personal.as_str()), None),
            (
                clean.as_str(),
                Some(clean.as_str()),
                Some(personal.as_str()),
            ),
        ] {
            let err = check_identifiers(namespace, key, collection).unwrap_err();
            assert_eq!(err.code(), ErrorCode::AgentMemoryPersonalData, "{personal}");
            assert!(!err.message().contains(&personal));
        }
        assert!(
            check_identifiers(&clean, Some(&clean), Some(&clean)).is_ok(),
            "{clean}"
        );
    }
}

// ---- one set of rules: a request built in Rust and the same request read from JSON ----

mod typed_and_json_agree {
    use governance_policy::{ListRequest, RecallRequest, RememberRequest};
    use proptest::prelude::*;
    use serde_json::json;

    /// Strings near every bound: empty, spaces at the edges, control characters, long ones.
    fn field() -> impl Strategy<Value = String> {
        prop_oneof![
            Just(String::new()),
            "[a-z ]{1,8}",
            "[a-z]{60,70}",
            "[a-z]{115,125}",
            "[a-z]{995,1005}",
            " [a-z]{1,4}",
            "[a-z]{1,4} ",
            "[a-z]\u{0}[a-z]",
        ]
    }

    fn answer<T>(r: Result<T, memory_core::ApiError>) -> Result<(), String> {
        r.map(|_| ()).map_err(|e| e.message().to_owned())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

        #[test]
        fn remember(
            namespace in field(),
            text in field(),
            key in proptest::option::of(field()),
            collection in proptest::option::of(field()),
            citations in proptest::collection::vec(field(), 0..24),
        ) {
            let mut body = json!({"namespace": namespace, "text": text, "citations": citations});
            let mut typed = RememberRequest::new(namespace, text).citations(citations);
            if let Some(k) = key {
                body["key"] = json!(k);
                typed = typed.key(k);
            }
            if let Some(c) = collection {
                body["collectionId"] = json!(c);
                typed = typed.collection_id(c);
            }
            let from_json = RememberRequest::from_json(&body);
            prop_assert_eq!(answer(typed.validate()), answer(from_json.clone()));
            if let Ok(parsed) = from_json {
                prop_assert!(parsed == typed);
            }
        }

        #[test]
        fn recall_and_list(
            query in field(),
            namespace in proptest::option::of(field()),
            limit in 0usize..120,
        ) {
            let mut body = json!({"query": query, "limit": limit});
            let mut typed = RecallRequest::new(query).limit(limit);
            let mut list_body = json!({"limit": limit});
            let mut list = ListRequest::new().limit(limit);
            if let Some(n) = namespace {
                body["namespace"] = json!(n);
                list_body["namespace"] = json!(n);
                typed = typed.namespace(n.clone());
                list = list.namespace(n);
            }
            prop_assert_eq!(answer(typed.validate()), answer(RecallRequest::from_json(&body)));
            prop_assert_eq!(answer(list.validate()), answer(ListRequest::from_json(&list_body)));
        }
    }
}
