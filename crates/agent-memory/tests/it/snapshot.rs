//! An export is one snapshot: whatever commits while it runs, every key appears exactly once.
//! The writer's clock reads earlier than the reader's, as a writer process whose transaction
//! began before a read and committed after it would: its versions' instants lie inside the
//! window the read looks at.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use agent_memory::MemberListRequest;
use memory_core::{AgentMemory, AgentMemoryId, CredentialId, MemoryText, SeededIdGenerator};
use store_trait::{Backend, Owner, RememberOutcome, RememberWrite};

use crate::{Fixture, owner};

const KEYS: usize = 300;

fn write(fx: &Fixture, ids: &SeededIdGenerator, key: usize, at: memory_core::Timestamp) {
    let caller = owner();
    let who = Owner {
        workspace: caller.workspace.clone(),
        member: caller.member.clone(),
    };
    let credential = CredentialId::new("writer").unwrap();
    let record = AgentMemory {
        id: AgentMemoryId::generate(ids, at).unwrap(),
        workspace: who.workspace.clone(),
        member: who.member.clone(),
        credential: credential.clone(),
        namespace: "notes".into(),
        key: Some(format!("k{key:03}")),
        text: MemoryText::mask(&format!("note for key {key}")).0,
        collection_id: None,
        version: 1,
        citations: vec![],
        created_at: at,
        superseded_at: None,
        ranking: Default::default(),
    };
    let ns_key = format!("k{key:03}");
    let outcome = fx
        .backend
        .remember(
            &who,
            &credential,
            Some(("notes", ns_key.as_str())),
            at.minus_seconds(3600),
            at.minus_days(3650),
            &mut |state| {
                let mut record = record.clone();
                record.version = state.last_version + 1;
                Ok(RememberWrite {
                    record,
                    supersede_current: state.current.is_some(),
                })
            },
        )
        .unwrap();
    assert!(matches!(outcome, RememberOutcome::Written { .. }));
}

/// Pages through the member's list and counts each key.
fn listing(fx: &Fixture) -> HashMap<String, usize> {
    let mut seen = HashMap::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut request = MemberListRequest::new().limit(10);
        if let Some(c) = cursor.take() {
            request = request.cursor(c);
        }
        let page = fx.service.member_list(&owner(), &request).unwrap();
        for m in &page.memories {
            *seen.entry(m.key.clone().unwrap_or_default()).or_insert(0) += 1;
        }
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => return seen,
        }
    }
}

/// The whole export, as `agent-memory export` writes it.
fn export(fx: &Fixture) -> HashMap<String, usize> {
    let mut seen = HashMap::new();
    for m in fx.service.member_export(&owner()).unwrap() {
        *seen.entry(m.key.clone().unwrap_or_default()).or_insert(0) += 1;
    }
    seen
}

#[test]
fn every_key_appears_once_in_an_export_while_a_thread_with_a_slower_clock_supersedes_keys() {
    race(export);
}

#[test]
#[ignore = "not met yet: list pages read separate snapshots, so a version whose instant lies \
            inside the listing's window but commits after its first page moves its key behind \
            the cursor (docs/agent-memory.md, List)"]
fn every_key_appears_once_in_a_paged_listing_while_a_thread_with_a_slower_clock_supersedes_keys() {
    race(listing);
}

fn race(read: fn(&Fixture) -> HashMap<String, usize>) {
    let fx = Fixture::new();
    let now = fx.service.now();
    let ids = SeededIdGenerator::new(41);
    for key in 0..KEYS {
        write(&fx, &ids, key, now.minus_seconds(10_000 - key as i64));
    }
    let stop = Arc::new(AtomicBool::new(false));
    let fx = Arc::new(fx);
    let writer = {
        let (fx, stop) = (fx.clone(), stop.clone());
        std::thread::spawn(move || {
            let ids = SeededIdGenerator::new(42);
            let mut key = 0usize;
            // The writer's clock reads one second behind the reader's.
            let lagging = fx.service.now().minus_seconds(1);
            while !stop.load(Ordering::Relaxed) {
                write(&fx, &ids, key % KEYS, lagging);
                key = key.wrapping_mul(7).wrapping_add(13);
            }
        })
    };
    let mut broken = Vec::new();
    for round in 0..30 {
        let seen = read(&fx);
        let wrong: Vec<_> = (0..KEYS)
            .map(|k| format!("k{k:03}"))
            .filter(|k| seen.get(k) != Some(&1))
            .collect();
        if !wrong.is_empty() {
            broken.push((round, wrong.len()));
        }
    }
    stop.store(true, Ordering::Relaxed);
    writer.join().unwrap();
    assert!(
        broken.is_empty(),
        "listings that missed or repeated keys (round, keys): {broken:?}"
    );
}
