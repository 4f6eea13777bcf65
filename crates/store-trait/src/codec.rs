//! The value encoding of a stored memory version, shared by the durable backends (public so that
//! backends in other crates, such as `store-postgres`, store versions byte for byte alike).
//!
//! `0x03 ‖ u32 LE length ‖ JSON ‖ u32 LE term count ‖ term table ‖ term text ‖ embedding`: the
//! record as serde JSON of `memory_core::AgentMemory` with its ranking terms and embedding vector
//! left empty; then the terms: per term `u32 LE byte length ‖ u32 LE count`, followed by all the
//! terms' UTF-8 bytes concatenated in the same order; then the vector as little-endian `f32`s
//! (4 bytes each; none when the record has no embedding).
//!
//! The vector is kept out of the JSON because it is most of a record — 384 numbers as decimal
//! text — and parsing those numbers back was most of the cost of a scan (recall decodes up to
//! 300 versions per call). The raw bytes also round-trip every vector bit for bit, NaN included.
//! The terms (some forty short strings with counts per record) are kept out of it for the same
//! reason: parsing them as JSON was most of what remained of a scan's decoding. Their text is
//! one run so that it is checked for UTF-8 once per record rather than once per term.

use std::borrow::Cow;

use memory_core::{AgentMemory, RankingData, StoredEmbedding};

use crate::error::{Error, JsonError};

/// First byte of every encoded version. A JSON record (the first format) starts with `{`, so
/// an old value is never mistaken for this encoding; `0x02` (format version 2) kept the terms
/// in the JSON.
const TAG: u8 = 0x03;

/// Tag and JSON length.
const HEADER: usize = 5;

/// Why a value is not an encoded version, or a version cannot be encoded. The message names a
/// position or a kind, never memory content.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CodecError {
    /// The record's JSON part, as the kind of failure and its position (serde's message, which
    /// may quote the content, is not kept).
    #[error("the JSON part")]
    Json(#[source] JsonError),
    /// The framing around the JSON part (header, term table, vector) is malformed, or too long
    /// to encode.
    #[error("{0}")]
    Malformed(Cow<'static, str>),
}

impl From<&'static str> for CodecError {
    fn from(what: &'static str) -> Self {
        CodecError::Malformed(Cow::Borrowed(what))
    }
}

/// Encodes `memory` as described in the module documentation; the error says why it cannot be.
pub fn encode(memory: &AgentMemory) -> Result<Vec<u8>, CodecError> {
    let ranking = &memory.ranking;
    let vector: &[f32] = ranking
        .embedding
        .as_ref()
        .map_or(&[], |e| e.vector.as_slice());
    // The JSON part is the domain type's own serialization of a copy without the terms and the
    // vector; copying field by field leaves those two uncopied.
    let without = AgentMemory {
        id: memory.id.clone(),
        workspace: memory.workspace.clone(),
        member: memory.member.clone(),
        credential: memory.credential.clone(),
        namespace: memory.namespace.clone(),
        key: memory.key.clone(),
        text: memory.text.clone(),
        collection_id: memory.collection_id.clone(),
        version: memory.version,
        citations: memory.citations.clone(),
        created_at: memory.created_at,
        superseded_at: memory.superseded_at,
        ranking: RankingData {
            terms: fusion_rank::TermCounts::new(),
            length: ranking.length,
            embedding: ranking.embedding.as_ref().map(|e| StoredEmbedding {
                model: e.model.clone(),
                vector: Vec::new(),
            }),
        },
    };
    let term_bytes = ranking.terms.text_len() + 8 * ranking.terms.len();
    // Sized once for the whole record: growing the buffer while the JSON is written was a
    // fifth of a remember's encoding. The JSON part is the text (escaped, at most twice its
    // length but for rare escapes) and about 200 bytes of fields, plus the citations'.
    let json_guess = 2 * memory.text.as_str().len()
        + 256
        + memory.citations.len() * 256
        + memory.namespace.len()
        + memory.key.as_ref().map_or(0, String::len);
    let mut out = Vec::with_capacity(HEADER + json_guess + 4 + term_bytes + vector.len() * 4);
    out.extend_from_slice(&[TAG, 0, 0, 0, 0]);
    serde_json::to_writer(&mut out, &without).map_err(|e| CodecError::Json(e.into()))?;
    let json_len = u32::try_from(out.len() - HEADER)
        .map_err(|_| CodecError::from("a memory record longer than 4 GiB"))?;
    out[1..HEADER].copy_from_slice(&json_len.to_le_bytes());
    let too_long = |_| CodecError::from("a memory record longer than 4 GiB");
    out.reserve(4 + term_bytes + vector.len() * 4);
    out.extend_from_slice(
        &u32::try_from(ranking.terms.len())
            .map_err(too_long)?
            .to_le_bytes(),
    );
    for (term, count) in &ranking.terms {
        out.extend_from_slice(&u32::try_from(term.len()).map_err(too_long)?.to_le_bytes());
        out.extend_from_slice(&count.to_le_bytes());
    }
    for (term, _) in &ranking.terms {
        out.extend_from_slice(term.as_bytes());
    }
    for x in vector {
        out.extend_from_slice(&x.to_le_bytes());
    }
    Ok(out)
}

/// Splits a little-endian `u32` off the front of `bytes`.
fn take_u32(bytes: &mut &[u8], what: &'static str) -> Result<u32, &'static str> {
    let (head, rest) = bytes.split_first_chunk::<4>().ok_or(what)?;
    *bytes = rest;
    Ok(u32::from_le_bytes(*head))
}

/// Decodes a value written by [`encode`]; the error says what is malformed, never the content.
pub fn decode(bytes: &[u8]) -> Result<AgentMemory, CodecError> {
    let (&tag, mut rest) = bytes.split_first().ok_or("an empty value")?;
    if tag != TAG {
        return Err(CodecError::Malformed(
            format!("an unknown value tag {tag:#04x}").into(),
        ));
    }
    let json_len = usize::try_from(take_u32(&mut rest, "a truncated header")?)
        .map_err(|_| "an oversized record")?;
    let (json, mut rest) = rest
        .split_at_checked(json_len)
        .ok_or("a record shorter than its header says")?;
    let mut memory: AgentMemory =
        serde_json::from_slice(json).map_err(|e| CodecError::Json(e.into()))?;
    if !memory.ranking.terms.is_empty() {
        return Err("terms in the JSON part".into());
    }
    let count = usize::try_from(take_u32(&mut rest, "a truncated term count")?)
        .map_err(|_| "an oversized term count")?;
    let (table, rest) = rest
        .split_at_checked(count.checked_mul(8).ok_or("an oversized term count")?)
        .ok_or("a truncated term table")?;
    let (table, _) = table.as_chunks::<8>();
    let text_len = table.iter().try_fold(0usize, |sum, entry| {
        let len = u32::from_le_bytes([entry[0], entry[1], entry[2], entry[3]]);
        sum.checked_add(usize::try_from(len).ok()?)
    });
    let (text, rest) = rest
        .split_at_checked(text_len.ok_or("an oversized term")?)
        .ok_or("truncated term text")?;
    let text = std::str::from_utf8(text).map_err(|_| "term text that is not UTF-8")?;
    // Stored terms are sorted (the encoder writes them from sorted counts), so this copies the
    // text once; counts stored otherwise are sorted and merged here.
    let mut start = 0;
    let mut split = Ok(());
    let terms = fusion_rank::TermCounts::from_pairs(table.iter().map_while(|entry| {
        // The lengths were summed above without overflow, so each fits in usize.
        let end = start + u32::from_le_bytes([entry[0], entry[1], entry[2], entry[3]]) as usize;
        let Some(term) = text.get(start..end) else {
            split = Err("a term split inside a character");
            return None;
        };
        start = end;
        Some((
            term,
            u32::from_le_bytes([entry[4], entry[5], entry[6], entry[7]]),
        ))
    }));
    split?;
    memory.ranking.terms = terms;
    let (floats, tail) = rest.as_chunks::<4>();
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

/// [`decode`] for a value read from a database: one that does not decode is corruption.
pub fn decode_version(bytes: &[u8]) -> Result<AgentMemory, Error> {
    decode(bytes).map_err(|e| Error::undecodable("key space: undecodable version", e))
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
                terms: [("a", 1), ("note", 1)].into_iter().collect(),
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

    #[test]
    fn malformed_terms_are_refused() {
        let memory = record(None);
        let bytes = encode(&memory).unwrap();
        let json_len = u32::from_le_bytes(bytes[1..HEADER].try_into().unwrap()) as usize;
        let terms_at = HEADER + json_len;
        // Cut inside the term list.
        assert!(decode(&bytes[..terms_at + 6]).is_err());
        // A term that is not UTF-8 ("a" → 0xff; after the count and two table entries).
        let mut not_utf8 = bytes.clone();
        not_utf8[terms_at + 4 + 16] = 0xff;
        assert!(decode(&not_utf8).is_err());
        // Valid UTF-8 that the lengths (1 and 4) split inside a character: "anote" → "éote".
        let mut split = bytes.clone();
        split[terms_at + 20..terms_at + 22].copy_from_slice("é".as_bytes());
        assert!(decode(&split).is_err());
        // Terms in the JSON part as well as after it.
        let mut both = vec![TAG, 0, 0, 0, 0];
        serde_json::to_writer(&mut both, &memory).unwrap();
        let len = u32::try_from(both.len() - HEADER).unwrap();
        both[1..HEADER].copy_from_slice(&len.to_le_bytes());
        both.extend_from_slice(&bytes[terms_at..]);
        assert!(decode(&both).is_err());
        // A count larger than the terms present.
        let mut short = bytes.clone();
        short[terms_at..terms_at + 4].copy_from_slice(&3u32.to_le_bytes());
        assert!(decode(&short).is_err());
    }

    /// A record without terms or embedding, encoded, with `pairs` written as its stored term
    /// table in the order given (as an older writer or a hand edit might leave them).
    fn with_stored_terms(pairs: &[(String, u32)]) -> Vec<u8> {
        let mut memory = record(None);
        memory.ranking.terms = fusion_rank::TermCounts::new();
        let mut bytes = encode(&memory).unwrap();
        bytes.truncate(bytes.len() - 4);
        bytes.extend_from_slice(&u32::try_from(pairs.len()).unwrap().to_le_bytes());
        for (term, count) in pairs {
            bytes.extend_from_slice(&u32::try_from(term.len()).unwrap().to_le_bytes());
            bytes.extend_from_slice(&count.to_le_bytes());
        }
        for (term, _) in pairs {
            bytes.extend_from_slice(term.as_bytes());
        }
        bytes
    }

    proptest::proptest! {
        /// Stored term tables in any order, with repeats, zero counts and multi-byte
        /// characters decode to the sorted, added-up counts, and re-encode to a table that
        /// decodes the same.
        #[test]
        fn any_stored_term_table_decodes_sorted_and_merged(
            pairs in proptest::collection::vec(("[ab\u{e9}\u{3042}]{0,4}", 0u32..3), 0..24),
        ) {
            let want = fusion_rank::TermCounts::from_pairs(pairs.iter().map(|(t, c)| (t.as_str(), *c)));
            let decoded = decode(&with_stored_terms(&pairs)).unwrap();
            proptest::prop_assert_eq!(&decoded.ranking.terms, &want);
            let again = decode(&encode(&decoded).unwrap()).unwrap();
            proptest::prop_assert_eq!(again, decoded);
        }

        /// A table whose lengths split a character anywhere — before or after the first term
        /// out of order — is refused, never decoded in part.
        #[test]
        fn a_term_split_inside_a_character_is_refused_anywhere(
            pairs in proptest::collection::vec(("[ab]{1,3}", 1u32..3), 1..12),
            at in 0usize..12,
        ) {
            let mut pairs = pairs;
            let at = at % pairs.len();
            // "é" is two bytes: a term of "xé" stored as "xé" with length 2 splits it.
            pairs[at].0 = "x\u{e9}".into();
            let mut bytes = with_stored_terms(&pairs);
            let json_len = u32::from_le_bytes(bytes[1..HEADER].try_into().unwrap()) as usize;
            let entry = HEADER + json_len + 4 + 8 * at;
            bytes[entry..entry + 4].copy_from_slice(&2u32.to_le_bytes());
            let next = (at + 1 < pairs.len()).then_some(entry + 8);
            if let Some(next) = next {
                // Give the byte to the next term, so that the total length still adds up.
                let len = u32::from_le_bytes(bytes[next..next + 4].try_into().unwrap());
                bytes[next..next + 4].copy_from_slice(&(len + 1).to_le_bytes());
                proptest::prop_assert!(decode(&bytes).is_err());
            }
        }
    }
}
