//! The value encoding of a stored memory version, shared by the durable backends.
//!
//! `0x02 ‖ u32 LE length ‖ JSON ‖ embedding`: the record as serde JSON of
//! `memory_core::AgentMemory` with its embedding vector left empty, followed by the vector as
//! little-endian `f32`s (4 bytes each; none when the record has no embedding).
//!
//! The vector is kept out of the JSON because it is most of a record — 384 numbers as decimal
//! text — and parsing those numbers back was most of the cost of a scan (recall decodes up to
//! 300 versions per call). The raw bytes also round-trip every vector bit for bit, NaN included.

use memory_core::AgentMemory;

/// First byte of every encoded version. A JSON record (the first format) starts with `{`, so
/// an old value is never mistaken for this encoding.
const TAG: u8 = 0x02;

/// Tag and JSON length.
const HEADER: usize = 5;

/// Encodes `memory` as described in the module documentation; the error says why it cannot be.
pub(crate) fn encode(memory: &AgentMemory) -> Result<Vec<u8>, String> {
    let vector: &[f32] = memory
        .ranking
        .embedding
        .as_ref()
        .map_or(&[], |e| e.vector.as_slice());
    let mut out = vec![TAG, 0, 0, 0, 0];
    if vector.is_empty() {
        serde_json::to_writer(&mut out, memory).map_err(|e| e.to_string())?;
    } else {
        // Writes are rare next to reads: a copy without the vector keeps the JSON derived from
        // the domain type's own serialization.
        let mut without = memory.clone();
        if let Some(e) = without.ranking.embedding.as_mut() {
            e.vector = Vec::new();
        }
        serde_json::to_writer(&mut out, &without).map_err(|e| e.to_string())?;
    }
    let json_len = u32::try_from(out.len() - HEADER)
        .map_err(|_| "a memory record longer than 4 GiB".to_owned())?;
    out[1..HEADER].copy_from_slice(&json_len.to_le_bytes());
    out.reserve(vector.len() * 4);
    for x in vector {
        out.extend_from_slice(&x.to_le_bytes());
    }
    Ok(out)
}

/// Decodes a value written by [`encode`]; the error says what is malformed, never the content.
pub(crate) fn decode(bytes: &[u8]) -> Result<AgentMemory, String> {
    let (&tag, rest) = bytes.split_first().ok_or("an empty value")?;
    if tag != TAG {
        return Err(format!("an unknown value tag {tag:#04x}"));
    }
    let (len, rest) = rest.split_first_chunk::<4>().ok_or("a truncated header")?;
    let json_len = usize::try_from(u32::from_le_bytes(*len)).map_err(|_| "an oversized record")?;
    let (json, vector) = rest
        .split_at_checked(json_len)
        .ok_or("a record shorter than its header says")?;
    // serde_json's messages name a position, never the content.
    let mut memory: AgentMemory = serde_json::from_slice(json).map_err(|e| e.to_string())?;
    let (floats, tail) = vector.as_chunks::<4>();
    if !tail.is_empty() {
        return Err("an embedding of a partial number of floats".into());
    }
    if !floats.is_empty() {
        let embedding = memory
            .ranking
            .embedding
            .as_mut()
            .filter(|e| e.vector.is_empty())
            .ok_or("embedding bytes without an empty stored embedding")?;
        embedding.vector = floats.iter().map(|b| f32::from_le_bytes(*b)).collect();
    }
    Ok(memory)
}

#[cfg(test)]
mod tests {
    use memory_core::{
        AgentMemoryId, CredentialId, MemberId, MemoryText, RankingData, StoredEmbedding, Timestamp,
        WorkspaceId,
    };

    use super::*;

    fn record(embedding: Option<Vec<f32>>) -> AgentMemory {
        AgentMemory {
            id: AgentMemoryId::parse("amem_1").unwrap(),
            workspace: WorkspaceId::new("ws").unwrap(),
            member: MemberId::new("m").unwrap(),
            credential: CredentialId::new("c").unwrap(),
            namespace: "ns".into(),
            key: Some("k".into()),
            text: MemoryText::mask("a note").0,
            collection_id: None,
            version: 1,
            citations: vec![],
            created_at: Timestamp::from_millis(5).unwrap(),
            superseded_at: None,
            ranking: RankingData {
                terms: vec![("a".into(), 1), ("note".into(), 1)],
                length: 2,
                embedding: embedding.map(|vector| StoredEmbedding {
                    model: "m1".into(),
                    vector,
                }),
            },
        }
    }

    #[test]
    fn records_round_trip_bit_for_bit() {
        for embedding in [
            None,
            Some(vec![]),
            Some(vec![0.5, -0.0, f32::NAN, f32::INFINITY, 1e-40]),
        ] {
            let memory = record(embedding);
            let bytes = encode(&memory).unwrap();
            assert_eq!(decode(&bytes).unwrap(), memory);
        }
    }

    #[test]
    fn malformed_values_are_refused() {
        let bytes = encode(&record(Some(vec![1.0, 2.0]))).unwrap();
        assert!(decode(&bytes[..bytes.len() - 1]).is_err());
        assert!(decode(&bytes[..3]).is_err());
        assert!(decode(b"{}").is_err());
        assert!(decode(&[]).is_err());
        let mut no_embedding = encode(&record(None)).unwrap();
        no_embedding.extend_from_slice(&1f32.to_le_bytes());
        assert!(decode(&no_embedding).is_err());
    }
}
