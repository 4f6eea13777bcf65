//! The recall benchmarks' world (P6–P8 and the embedder group): alice's 5,000 memories, the
//! newest 300 citing two passages each, loaded through the `Backend` directly — the facade's
//! rate limit would make loading thousands take simulated days — with their write-time ranking
//! data computed exactly as `remember` computes it, plus any number of other members' memories.

use std::sync::Arc;

use agent_memory::{
    AgentCaller, AgentCredential, Embedder, ManualClock, MemberCaller, MemoryService,
    RecallRequest, SettingsPatch,
};
use citation_verify::{Entity, InMemoryPassageSource, Passage};
use fusion_rank::TermStats;
use memory_core::{
    AgentMemory, AgentMemoryId, Citation, ContextBinding, CredentialId, MemberId, MemoryText,
    RankingData, Role, Scope, SeededIdGenerator, StoredEmbedding, Timestamp, WorkspaceId,
};
use store_trait::{Backend, Owner, RememberWrite};

/// Alice's memories.
pub const MEMORIES: usize = 5_000;
/// The newest of them that cite two passages each (recall's candidate window).
pub const CITED: usize = 300;

/// A loaded world: the service, alice's agent and the query.
pub struct World {
    /// The facade over the loaded backend.
    pub service: MemoryService,
    /// Alice's agent.
    pub caller: AgentCaller,
    /// The recall request body.
    pub query: RecallRequest,
    /// The backend the service is over.
    pub backend: Arc<dyn Backend>,
    /// The host's passages the memories cite.
    pub passages: Arc<InMemoryPassageSource>,
}

/// Stores `record` as a remember would, without the facade's limits.
pub fn store(backend: &dyn Backend, record: AgentMemory) {
    let owner = Owner::new(record.workspace.clone(), record.member.clone());
    let credential = record.credential.clone();
    let start = record.created_at.minus_seconds(3600);
    let cutoff = record.created_at.minus_days(365);
    backend
        .remember(&owner, &credential, None, start, cutoff, &mut |_| {
            Ok(RememberWrite {
                record: record.clone(),
                supersede_current: false,
            })
        })
        .expect("the backend stores the record");
}

/// The `i`-th memory of another member: 100 workspaces, 1,000 members, instants spread over
/// 5,000 s from `start`, the text `filler`.
pub fn other_memory(
    i: usize,
    ids: &SeededIdGenerator,
    start: Timestamp,
    filler: &MemoryText,
) -> AgentMemory {
    let at = start.plus_seconds((i % 5_000) as i64);
    AgentMemory {
        id: AgentMemoryId::generate(ids, at).unwrap(),
        workspace: WorkspaceId::new(format!("other-ws-{}", i % 100)).unwrap(),
        member: MemberId::new(format!("member-{}", i % 1_000)).unwrap(),
        credential: CredentialId::new(format!("cred-{}", i % 1_000)).unwrap(),
        namespace: "notes".into(),
        key: None,
        text: filler.clone(),
        collection_id: None,
        version: 1,
        citations: Vec::new(),
        created_at: at,
        superseded_at: None,
        ranking: RankingData::default(),
    }
}

/// Loads alice's [`MEMORIES`] memories (the newest [`CITED`] with two citations each), embedded
/// under `embedder`'s model id with the vectors `vectors` returns for the masked texts (in
/// order), and `others` memories of other members spread over other workspaces; the service
/// recalls with `embedder`.
pub fn world(
    backend: Arc<dyn Backend>,
    others: usize,
    embedder: Arc<dyn Embedder>,
    vectors: &dyn Fn(&[&str]) -> Vec<Vec<f32>>,
) -> World {
    world_shaped(backend, others, embedder, vectors, Shape::default())
}

/// How many memories alice has, how many of the newest cite two passages each, and the
/// service's candidate window.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    /// Alice's memories.
    pub memories: usize,
    /// The newest of them that cite two passages each.
    pub cited: usize,
    /// The recall candidate window.
    pub window: agent_memory::CandidateWindow,
}

impl Default for Shape {
    /// P6: 5,000 memories, the newest 300 cited, the default window.
    fn default() -> Self {
        Shape {
            memories: MEMORIES,
            cited: CITED,
            window: agent_memory::CandidateWindow::default(),
        }
    }
}

/// [`world`] of another [`Shape`].
pub fn world_shaped(
    backend: Arc<dyn Backend>,
    others: usize,
    embedder: Arc<dyn Embedder>,
    vectors: &dyn Fn(&[&str]) -> Vec<Vec<f32>>,
    shape: Shape,
) -> World {
    let Shape {
        memories,
        cited,
        window,
    } = shape;
    let start = Timestamp::parse("2026-01-01T00:00:00Z").unwrap();
    let clock = Arc::new(ManualClock::new(start));
    let passages = Arc::new(InMemoryPassageSource::new());
    let ws = WorkspaceId::new("ws").unwrap();
    let alice = MemberId::new("alice").unwrap();
    let cred = CredentialId::new("cred_a").unwrap();
    let ids = SeededIdGenerator::new(1);
    let vocabulary = crate::vocabulary(0xBEEF, 2_000);
    let texts = crate::recall_texts(0xFACE, &vocabulary, memories, 40);
    for i in 0..cited * 2 {
        let passage = Passage::new(
            format!("p{i}"),
            format!("d{}", i / 2),
            "c1",
            1,
            format!("passage body {i}"),
        )
        .with_entities(vec![Entity::new(
            format!("e{}", i % 50),
            format!("{} entity", vocabulary[i % 50]),
        )]);
        passages.put_passage(&ws, passage);
    }
    let masked: Vec<MemoryText> = texts.iter().map(|t| MemoryText::mask(t).0).collect();
    let refs: Vec<&str> = masked.iter().map(MemoryText::as_str).collect();
    let vectors = vectors(&refs);
    assert_eq!(vectors.len(), masked.len(), "one vector per memory");
    for (i, (text, vector)) in masked.into_iter().zip(vectors).enumerate() {
        let at = start.plus_seconds(i as i64);
        let (terms, length) = TermStats::from_text(text.as_str()).into_counts();
        let citations = if i >= memories - cited {
            let j = i - (memories - cited);
            (0..2)
                .map(|k| Citation {
                    passage_id: format!("p{}", 2 * j + k),
                    document_id: format!("d{j}"),
                    collection_id: "c1".into(),
                    document_version: 1,
                    sha256: memory_core::content_sha256(&format!("passage body {}", 2 * j + k)),
                })
                .collect()
        } else {
            Vec::new()
        };
        store(
            backend.as_ref(),
            AgentMemory {
                id: AgentMemoryId::generate(&ids, at).unwrap(),
                workspace: ws.clone(),
                member: alice.clone(),
                credential: cred.clone(),
                namespace: "notes".into(),
                key: None,
                ranking: RankingData {
                    terms,
                    length,
                    embedding: Some(StoredEmbedding {
                        model: embedder.model_id().to_owned(),
                        vector,
                    }),
                },
                text,
                collection_id: None,
                version: 1,
                citations,
                created_at: at,
                superseded_at: None,
            },
        );
    }
    let filler = MemoryText::mask("a note of somebody else").0;
    for i in 0..others {
        store(backend.as_ref(), other_memory(i, &ids, start, &filler));
    }
    clock.set(start.plus_seconds(memories as i64 + 60));
    let service = MemoryService::builder(backend.clone(), passages.clone())
        .clock(clock)
        .embedder(embedder)
        .candidate_window(window)
        .build()
        .unwrap();
    let owner = MemberCaller {
        workspace: ws.clone(),
        member: MemberId::new("olivia").unwrap(),
        role: Role::Owner,
    };
    service
        .settings_put(
            &owner,
            &SettingsPatch::default()
                .agent_memories_enabled(true)
                .retention_days(365),
        )
        .unwrap();
    let caller = AgentCaller::Resolved(AgentCredential {
        workspace: ws,
        workspace_retaining: true,
        member: alice,
        credential: cred,
        role: Some(Role::Editor),
        active: true,
        scopes: vec![Scope::MemoryRead, Scope::MemoryWrite],
        binding: ContextBinding::Unbound,
    });
    let query = RecallRequest::new(format!(
        "{} {} entity",
        crate::recall_query(&vocabulary),
        vocabulary[7]
    ))
    .limit(10);
    World {
        service,
        caller,
        query,
        backend,
        passages,
    }
}
