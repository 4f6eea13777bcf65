//! An export and a paged listing are each one snapshot: whatever commits while they run, every
//! key appears exactly once. The writer reads its clock inside its step, as `remember` does, and
//! takes a while to commit after it (as a sync to disk does), so a read that happens meanwhile
//! sees a clock past the coming version's instant.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use agent_memory::{Clock, MemberListRequest, MemoryService, SystemClock};
use citation_verify::InMemoryPassageSource;
use memory_core::{AgentMemory, AgentMemoryId, CredentialId, MemoryText, SeededIdGenerator};
use store_trait::{Backend, Owner, RememberOutcome, RememberWrite};

use crate::{Fixture, owner};

const KEYS: usize = 300;

fn write(
    fx: &Fixture,
    ids: &SeededIdGenerator,
    key: usize,
    at: memory_core::Timestamp,
    clock: Option<&SystemClock>,
) {
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
                if let Some(clock) = clock {
                    record.created_at = clock.now();
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
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
fn listing(service: &MemoryService) -> HashMap<String, usize> {
    let mut seen = HashMap::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut request = MemberListRequest::new().limit(10);
        if let Some(c) = cursor.take() {
            request = request.cursor(c);
        }
        let page = service.member_list(&owner(), &request).unwrap();
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
fn export(service: &MemoryService) -> HashMap<String, usize> {
    let mut seen = HashMap::new();
    for m in service.member_export(&owner()).unwrap() {
        *seen.entry(m.key.clone().unwrap_or_default()).or_insert(0) += 1;
    }
    seen
}

#[test]
fn every_key_appears_once_in_an_export_while_a_thread_supersedes_keys() {
    race(export);
}

#[test]
fn every_key_appears_once_in_a_paged_listing_while_a_thread_supersedes_keys() {
    race(listing);
}

fn race(read: fn(&MemoryService) -> HashMap<String, usize>) {
    let fx = Fixture::new();
    // The reader runs on the real clock, as the writer does.
    let reader = MemoryService::builder(fx.backend.clone(), Arc::new(InMemoryPassageSource::new()))
        .build()
        .unwrap();
    let clock = SystemClock;
    let start = clock.now();
    let ids = SeededIdGenerator::new(41);
    for key in 0..KEYS {
        write(
            &fx,
            &ids,
            key,
            start.minus_seconds(10_000 - key as i64),
            None,
        );
    }
    let stop = Arc::new(AtomicBool::new(false));
    let fx = Arc::new(fx);
    let writer = {
        let (fx, stop) = (fx.clone(), stop.clone());
        std::thread::spawn(move || {
            let ids = SeededIdGenerator::new(42);
            let mut key = 0usize;
            while !stop.load(Ordering::Relaxed) {
                write(&fx, &ids, key % KEYS, start, Some(&SystemClock));
                key = key.wrapping_mul(7).wrapping_add(13);
            }
        })
    };
    let mut broken = Vec::new();
    for round in 0..30 {
        let seen = read(&reader);
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
        "reads that missed or repeated keys (round, keys): {broken:?}"
    );
}
