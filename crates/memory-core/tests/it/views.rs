//! Agent-memory JSON: the MemoryView of agent-memory.md, its constant fields, settings, roles and
//! scopes, and the storage record.

use std::collections::BTreeMap;

use memory_core::{
    AgentMemory, AgentMemoryId, Citation, CredentialId, MaskedCounts, MemberId, MemoryText,
    MemoryView, Ranks, RecalledMemory, Role, Scope, Settings, SourceState, Timestamp, WorkspaceId,
};
use pii_mask::Category;
use serde_json::{Value, json};

fn ts(s: &str) -> Timestamp {
    s.parse().unwrap()
}

fn keyed_record() -> AgentMemory {
    AgentMemory {
        id: AgentMemoryId::parse("amem_01jq0000000000000000000000").unwrap(),
        workspace: WorkspaceId::new("ws1").unwrap(),
        member: MemberId::new("alice").unwrap(),
        credential: CredentialId::new("cred_a").unwrap(),
        namespace: "prefs".into(),
        key: Some("tone".into()),
        text: MemoryText::mask("masked text").0,
        collection_id: Some("c1".into()),
        version: 2,
        citations: vec![Citation {
            passage_id: "p1".into(),
            document_id: "d1".into(),
            collection_id: "c1".into(),
            document_version: 3,
            sha256: "ab".repeat(32),
        }],
        created_at: ts("2026-01-01T00:00:00Z"),
        superseded_at: None,
        ranking: Default::default(),
    }
}

#[test]
fn memory_view_matches_the_spec_example() {
    let view = MemoryView::new(&keyed_record(), SourceState::Current);
    let expected = json!({
        "id": "amem_01jq0000000000000000000000", "namespace": "prefs", "key": "tone", "text": "masked text",
        "collectionId": "c1", "version": 2,
        "citations": [{"passageId": "p1", "documentId": "d1", "collectionId": "c1", "documentVersion": 3, "sha256": "ab".repeat(32)}],
        "createdAt": "2026-01-01T00:00:00Z", "supersededAt": null,
        "sourceState": "current",
        "type": "memory", "evidence": false, "trust": "untrusted"
    });
    assert_eq!(serde_json::to_value(&view).unwrap(), expected);

    // Keys come out in the spec's order.
    let text = serde_json::to_string(&view).unwrap();
    let order = [
        "\"id\"",
        "\"namespace\"",
        "\"key\"",
        "\"text\"",
        "\"collectionId\"",
        "\"version\"",
        "\"citations\"",
        "\"createdAt\"",
        "\"supersededAt\"",
        "\"sourceState\"",
        "\"type\"",
        "\"evidence\"",
        "\"trust\"",
    ];
    let positions: Vec<usize> = order.iter().map(|k| text.find(k).unwrap()).collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{text}");

    let back: MemoryView = serde_json::from_value(expected).unwrap();
    assert_eq!(back, view);
}

#[test]
fn absent_optionals_are_null_and_states_are_lowercase() {
    let mut record = keyed_record();
    record.key = None;
    record.collection_id = None;
    record.citations.clear();
    record.version = 1;
    record.superseded_at = Some(ts("2026-01-02T03:04:05.678Z"));
    let view = serde_json::to_value(MemoryView::new(&record, SourceState::Uncited)).unwrap();
    assert_eq!(view["key"], Value::Null);
    assert_eq!(view["collectionId"], Value::Null);
    assert_eq!(view["citations"], json!([]));
    assert_eq!(view["supersededAt"], "2026-01-02T03:04:05.678Z");
    assert_eq!(view["sourceState"], "uncited");
    assert_eq!(view.as_object().unwrap().len(), 13);
    for (state, name) in [
        (SourceState::Current, "current"),
        (SourceState::Changed, "changed"),
        (SourceState::Uncited, "uncited"),
        (SourceState::Unavailable, "unavailable"),
    ] {
        assert_eq!(serde_json::to_value(state).unwrap(), json!(name));
        assert_eq!(state.as_str(), name);
    }
}

#[test]
fn a_view_claiming_evidence_or_trust_does_not_deserialize() {
    let good =
        serde_json::to_value(MemoryView::new(&keyed_record(), SourceState::Current)).unwrap();
    for (field, value) in [
        ("evidence", json!(true)),
        ("evidence", json!("false")),
        ("trust", json!("trusted")),
        ("type", json!("evidence")),
        ("type", json!(null)),
    ] {
        let mut bad = good.clone();
        bad[field] = value.clone();
        assert!(
            serde_json::from_value::<MemoryView>(bad).is_err(),
            "{field} = {value}"
        );
    }
    let mut missing = good.clone();
    missing.as_object_mut().unwrap().remove("evidence");
    assert!(serde_json::from_value::<MemoryView>(missing).is_err());
}

#[test]
fn recalled_memory_adds_score_and_ranks() {
    let recalled = RecalledMemory {
        view: MemoryView::new(&keyed_record(), SourceState::Changed),
        score: 0.5,
        ranks: Ranks {
            bm25: Some(1),
            semantic: None,
            entity: Some(2),
            time: None,
        },
        duplicates: 0,
    };
    let value = serde_json::to_value(&recalled).unwrap();
    assert!(
        value.get("duplicates").is_none(),
        "a unique text says nothing"
    );
    let collapsed = RecalledMemory {
        duplicates: 2,
        ..recalled.clone()
    };
    assert_eq!(serde_json::to_value(&collapsed).unwrap()["duplicates"], 2);
    assert_eq!(value["score"], 0.5);
    assert_eq!(
        value["ranks"],
        json!({"bm25": 1, "semantic": null, "entity": 2})
    );
    assert_eq!(value["evidence"], false);
    assert_eq!(value["sourceState"], "changed");
    assert_eq!(
        serde_json::from_value::<RecalledMemory>(value).unwrap(),
        recalled
    );
}

#[test]
fn storage_record_round_trips() {
    let record = keyed_record();
    let encoded = serde_json::to_string(&record).unwrap();
    let decoded: AgentMemory = serde_json::from_str(&encoded).unwrap();
    assert_eq!(decoded, record);
    assert_eq!(decoded.text.as_str(), "masked text");
}

#[test]
fn masked_counts_list_only_non_zero_categories() {
    let counts = MaskedCounts::from_counts(&BTreeMap::from([
        (Category::Email, 1),
        (Category::Phone, 2),
        (Category::Iban, 0),
    ]));
    assert_eq!(
        serde_json::to_value(&counts).unwrap(),
        json!({"email": 1, "phone": 2})
    );
    assert_eq!(counts.total(), 3);
    assert_eq!(
        serde_json::to_value(MaskedCounts::default()).unwrap(),
        json!({})
    );
    let back: MaskedCounts = serde_json::from_value(json!({"email": 1, "phone": 2})).unwrap();
    assert_eq!(back, counts);
    assert!(serde_json::from_value::<MaskedCounts>(json!({"ssn": 1})).is_err());
}

#[test]
fn memory_text_runs_the_masker() {
    let (text, counts) = MemoryText::mask("likes short answers");
    // Text without personal data comes back unchanged, whatever the masker's rule set.
    assert_eq!(text.as_str(), "likes short answers");
    assert!(counts.is_empty());
    assert!(text.has_content());
    assert_eq!(text.char_count(), 19);
}

#[test]
fn settings_roles_and_scopes_on_the_wire() {
    assert_eq!(
        serde_json::to_value(Settings::default()).unwrap(),
        json!({"agentMemoriesEnabled": false, "retentionDays": 90})
    );
    let s: Settings = serde_json::from_value(json!({"agentMemoriesEnabled": true})).unwrap();
    assert_eq!(
        s,
        Settings {
            agent_memories_enabled: true,
            retention_days: 90
        }
    );
    assert!(serde_json::from_value::<Settings>(json!({"retentionDays": 0})).is_err());
    assert!(serde_json::from_value::<Settings>(json!({"retentionDays": "30"})).is_err());
    assert!(Settings::new(false, 366).is_err());
    assert_eq!(
        (Settings::RETENTION_DAYS_MIN, Settings::RETENTION_DAYS_MAX),
        (1, 365)
    );

    let roles: Vec<Role> =
        serde_json::from_value(json!(["viewer", "editor", "admin", "owner"])).unwrap();
    assert!(roles.windows(2).all(|w| w[0] < w[1]));
    assert!(serde_json::from_value::<Role>(json!("Owner")).is_err());
    assert_eq!(
        serde_json::to_value([Scope::MemoryRead, Scope::MemoryWrite]).unwrap(),
        json!(["memory:read", "memory:write"])
    );
    assert!(serde_json::from_value::<Scope>(json!("memory:admin")).is_err());
}
