//! Export with history and import: a generated history (keyed supersessions, keyless notes,
//! citations, masked values) goes out and back in to an empty backend and comes out again byte
//! for byte, `asOf` answers the same before and after, a second import changes nothing, and the
//! import keeps the rules of a remember (masking, identifiers, quota, a key's order).

use std::sync::Arc;

use agent_memory::{
    Clock, ExportedVersion, ImportRequest, InMemoryPassageSource, Limits, ListRequest, ManualClock,
    MemberListRequest, MemoryService, Passage, RecallRequest, RememberRequest,
};
use memory_core::{CredentialId, Timestamp, WorkspaceId};
use proptest::prelude::*;
use store_kv::InMemoryBackend;

use crate::{agent, enabled, member, owner};

struct Home {
    service: MemoryService,
    clock: Arc<ManualClock>,
}

fn home(limits: Limits) -> Home {
    let passages = InMemoryPassageSource::new();
    passages.put_passage(
        &WorkspaceId::new("ws").unwrap(),
        Passage::new("p1", "handbook", "docs", 1, "Replies stay short."),
    );
    let clock = Arc::new(ManualClock::new(
        Timestamp::parse("2026-01-01T00:00:00Z").unwrap(),
    ));
    let service = enabled(
        MemoryService::builder(Arc::new(InMemoryBackend::new()), Arc::new(passages))
            .clock(clock.clone())
            .limits(limits)
            .rate_limited(false),
    );
    Home { service, clock }
}

/// One generated remember: a key among a few (or none), a text, maybe a citation, and how many
/// minutes later it comes.
fn step() -> impl Strategy<Value = (Option<u8>, String, bool, u16)> {
    (
        prop::option::of(0u8..4),
        prop_oneof![
            "[a-z]{3,12}( [a-z]{2,9}){0,6}",
            Just("call me on 050-123-4567".to_owned()),
            Just("mail olivia@example.com about it".to_owned()),
        ],
        any::<bool>(),
        1u16..600,
    )
}

fn lines(versions: &[ExportedVersion]) -> String {
    versions
        .iter()
        .map(|v| serde_json::to_string(v).unwrap() + "\n")
        .collect()
}

fn import_all(to: &Home, versions: Vec<ExportedVersion>) -> agent_memory::ImportReport {
    let request = ImportRequest::new(versions, CredentialId::new("cred_import").unwrap());
    let mut last = 0;
    let report = to
        .service
        .import(&owner(), &request, &mut |done| last = done)
        .unwrap();
    assert_eq!(
        last as usize,
        request.versions.len(),
        "progress reaches the end"
    );
    report
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn a_history_survives_export_and_import_byte_for_byte(steps in prop::collection::vec(step(), 1..40)) {
        let from = home(Limits::default());
        // Written as the owner, so that the export is the owner's own memories.
        let writer = agent("olivia", "cred_o");
        let mut instants = Vec::new();
        for (key, text, cite, minutes) in &steps {
            let now = from.clock.now().plus_seconds(i64::from(*minutes) * 60);
            from.clock.set(now);
            let mut request = RememberRequest::new("n", text.clone());
            if let Some(key) = key {
                request = request.key(format!("k{key}"));
            }
            if *cite {
                request = request.citations(["p1"]);
            }
            from.service.remember(&writer, &request).unwrap();
            instants.push(now);
        }
        let exported = from.service.export_history(&owner()).unwrap();
        prop_assert_eq!(exported.len(), steps.len(), "every version is exported");

        let to = home(Limits::default());
        to.clock.set(from.clock.now());
        let report = import_all(&to, exported.clone());
        prop_assert_eq!(report.imported as usize, steps.len());
        prop_assert_eq!(report.masked_again + report.embedded_again + report.conflicts, 0);
        let again = to.service.export_history(&owner()).unwrap();
        prop_assert_eq!(lines(&again), lines(&exported), "export → import → export is the same");

        // asOf reads the same past on both sides.
        for at in instants.iter().step_by(3) {
            let request = RecallRequest::new("short replies mail").as_of(*at).limit(50);
            let before = from.service.recall(&writer, &request).unwrap();
            let after = to.service.recall(&writer, &request).unwrap();
            let ids = |r: &agent_memory::RecallResponse| {
                let mut ids: Vec<String> = r.memories.iter().map(|m| m.view.id.to_string()).collect();
                ids.sort();
                ids
            };
            prop_assert_eq!(ids(&before), ids(&after));
            let list = |s: &MemoryService| s.list(&writer, &ListRequest::new().as_of(*at).limit(100)).unwrap().memories;
            prop_assert_eq!(list(&from.service), list(&to.service));
        }

        // A second import writes nothing.
        let second = import_all(&to, exported);
        prop_assert_eq!(second.imported, 0);
        prop_assert_eq!(second.unchanged as usize, steps.len());
        prop_assert_eq!(lines(&to.service.export_history(&owner()).unwrap()), lines(&again));
    }
}

#[test]
fn an_import_masks_again_checks_identifiers_keeps_the_quota_and_a_keys_order() {
    let from = home(Limits::default());
    let writer = agent("olivia", "cred_o");
    for i in 0..3 {
        from.clock.set(from.clock.now().plus_seconds(60));
        from.service
            .remember(
                &writer,
                &RememberRequest::new("n", format!("note {i}")).key("k"),
            )
            .unwrap();
    }
    for i in 0..3 {
        from.clock.set(from.clock.now().plus_seconds(60));
        from.service
            .remember(&writer, &RememberRequest::new("n", format!("loose {i}")))
            .unwrap();
    }
    let mut exported = from.service.export_history(&owner()).unwrap();
    // Edited by hand: personal data in a text, in a namespace, and another model's vector.
    exported[3].view.text = "ring 050-123-4567 later".to_owned();
    exported[4].view.namespace = "dana@example.com".to_owned();
    if let Some(embedding) = exported[5].embedding.as_mut() {
        embedding.model = "another-model".to_owned();
    }

    // The quota holds: 4 of the 6 fit, and the namespace with personal data is refused.
    let to = home(Limits {
        versions_per_member: 4,
        ..Limits::default()
    });
    to.clock.set(from.clock.now());
    let report = import_all(&to, exported.clone());
    assert_eq!(report.imported, 4, "{report:?}");
    assert_eq!(report.refused.get("AGENT_MEMORY_PERSONAL_DATA"), Some(&1));
    assert_eq!(report.refused.get("AGENT_MEMORY_FULL"), Some(&1));
    assert_eq!(report.masked_again, 1);
    let texts: Vec<String> = to
        .service
        .member_list(&member("olivia"), &MemberListRequest::new())
        .unwrap()
        .memories
        .into_iter()
        .map(|m| m.text)
        .collect();
    assert!(
        texts.contains(&"ring [PHONE] later".to_owned()),
        "{texts:?}"
    );
    assert!(texts.iter().all(|t| !t.contains("050-123-4567")));

    // Another model's vector is embedded again.
    let to = home(Limits::default());
    to.clock.set(from.clock.now());
    let mut only_last = exported.clone();
    only_last.drain(..5);
    assert_eq!(import_all(&to, only_last).embedded_again, 1);

    // A key's older version after its newer one is a conflict, not a rewrite of its history.
    let to = home(Limits::default());
    to.clock.set(from.clock.now());
    assert_eq!(import_all(&to, vec![exported[2].clone()]).imported, 1);
    let report = import_all(&to, vec![exported[0].clone(), exported[1].clone()]);
    assert_eq!((report.imported, report.conflicts), (0, 2));

    // Only the owner imports.
    let request = ImportRequest::new(exported, CredentialId::new("cred_import").unwrap());
    let err = to
        .service
        .import(&member("olivia"), &request, &mut |_| {})
        .unwrap_err();
    assert_eq!(err.code().as_str(), "ASK_HISTORY_MANAGE_REQUIRED");
}
