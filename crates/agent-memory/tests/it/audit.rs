//! Audit events carry actors, times and counts — never memory text, namespaces or keys.

use serde_json::json;

use crate::{Fixture, agent, member, owner, req};

#[test]
fn governance_events_are_recorded_without_content() {
    let fx = Fixture::new();
    let alice = agent("alice", "cred_a");
    let secret = "the launch codeword is marmalade";
    fx.service
        .remember(
            &alice,
            &req(json!({"namespace": "secretns", "key": "secretkey", "text": secret})),
        )
        .unwrap();
    fx.service
        .forget(
            &alice,
            &req(json!({"namespace": "secretns", "key": "secretkey"})),
        )
        .unwrap();
    fx.service
        .remember(
            &alice,
            &req(json!({"namespace": "secretns", "text": secret})),
        )
        .unwrap();
    fx.service
        .member_delete(&member("alice"), &req(json!({})))
        .unwrap();
    fx.service
        .remember(
            &alice,
            &req(json!({"namespace": "secretns", "text": secret})),
        )
        .unwrap();
    fx.service.owner_delete_all(&owner()).unwrap();
    fx.service
        .settings_put(&owner(), &req(json!({"retentionDays": 30})))
        .unwrap();

    let records = fx.audit.records();
    let kinds: Vec<String> = records
        .iter()
        .map(|r| {
            serde_json::to_value(r).unwrap()["event"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "settings_changed",
            "forget",
            "member_delete",
            "owner_delete_all",
            "settings_changed"
        ],
        "one event per governance action, in order"
    );
    let all = serde_json::to_string(&records).unwrap();
    for needle in ["marmalade", "secretns", "secretkey", "codeword"] {
        assert!(!all.contains(needle), "audit log leaks {needle}: {all}");
    }
    let deleted: Vec<u64> = records
        .iter()
        .filter_map(|r| match &r.event {
            agent_memory::AuditEvent::Forget { deleted, .. }
            | agent_memory::AuditEvent::MemberDelete { deleted }
            | agent_memory::AuditEvent::OwnerDeleteAll { deleted } => Some(*deleted),
            _ => None,
        })
        .collect();
    assert_eq!(deleted, [1, 1, 1]);
}
