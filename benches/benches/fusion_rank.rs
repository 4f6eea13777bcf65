//! P4–P5: `fusion-rank` over 300 candidates of about 40 words (targets in the spec's quality
//! table). Term statistics, embeddings and entities are computed before timing, as a caller
//! stores them at write time; the query is tokenized and embedded before timing too.
#![allow(
    missing_docs,
    reason = "criterion_group! generates an undocumented pub fn"
)]

use criterion::{Criterion, criterion_group, criterion_main};
use fusion_rank::{
    Candidate, HashingEmbedder, PreparedQuery, TermStats, Terms, bm25_postings, bm25_ranking, fuse,
};
use std::collections::HashMap;
use std::hint::black_box;

const CANDIDATES: usize = 300;
const WORDS_PER_TEXT: usize = 40;

/// What a caller keeps per stored text.
struct Stored {
    texts: Vec<String>,
    ids: Vec<String>,
    stats: Vec<TermStats>,
    embeddings: Vec<Vec<f32>>,
    entities: Vec<Vec<String>>,
    query: String,
}

impl Stored {
    fn generate() -> Self {
        let vocabulary = benches::vocabulary(0x5EED_0004, 2000);
        let texts = benches::recall_texts(0x5EED_0005, &vocabulary, CANDIDATES, WORDS_PER_TEXT);
        Stored {
            ids: (0..CANDIDATES).map(|i| format!("mem-{i:04}")).collect(),
            stats: texts.iter().map(|t| TermStats::from_text(t)).collect(),
            embeddings: texts.iter().map(|t| HashingEmbedder.vector(t)).collect(),
            entities: benches::entity_lists(0x5EED_0006, CANDIDATES, 50),
            query: benches::recall_query(&vocabulary),
            texts,
        }
    }

    fn candidates(&self) -> Vec<Candidate<'_>> {
        (0..self.texts.len())
            .map(|i| Candidate {
                // Few distinct recencies, so that tie-breaks run as they do on real data.
                recency: (i / 3) as i64,
                id: &self.ids[i],
                terms: (&self.stats[i]).into(),
                embedding: Some(&self.embeddings[i]),
                entities: &self.entities[i],
            })
            .collect()
    }

    fn prepared_query(&self) -> PreparedQuery {
        PreparedQuery::new(&self.query)
            .with_embedding(HashingEmbedder.vector(&self.query))
            .with_entities(["ent:3", "ent:17"])
    }
}

fn p4_fuse_300(c: &mut Criterion) {
    let stored = Stored::generate();
    let candidates = stored.candidates();
    let query = stored.prepared_query();
    let mut group = c.benchmark_group("P4_fuse_300");
    group.bench_function("fusion_rank", |b| {
        b.iter(|| fuse(black_box(&query), black_box(&candidates), 10))
    });
    group.finish();
}

fn p5_bm25_vs_tantivy(c: &mut Criterion) {
    let stored = Stored::generate();
    let candidates = stored.candidates();
    let query = stored.prepared_query();
    let mut group = c.benchmark_group("P5_bm25_vs_tantivy");
    // Our side ranks every matching candidate (a full sort), as fusion needs; tantivy is run
    // both ways: top 10 (with its pruning) and every match. Queries are prepared outside.
    group.bench_function("fusion_rank_bm25", |b| {
        b.iter(|| bm25_ranking(black_box(&query.terms), black_box(&candidates)))
    });
    #[cfg(feature = "peers")]
    peer::tantivy(&mut group, &stored.texts, &stored.query);
    group.finish();
}

#[cfg(feature = "peers")]
mod peer {
    //! tantivy's BM25 query over a prebuilt in-RAM index of the same texts.

    use criterion::BenchmarkGroup;
    use criterion::measurement::WallTime;
    use std::hint::black_box;
    use tantivy::collector::TopDocs;
    use tantivy::query::QueryParser;
    use tantivy::schema::{Schema, TEXT};
    use tantivy::{Index, IndexWriter, ReloadPolicy, doc};

    pub fn tantivy(group: &mut BenchmarkGroup<'_, WallTime>, texts: &[String], query: &str) {
        let mut schema = Schema::builder();
        let body = schema.add_text_field("body", TEXT);
        let index = Index::create_in_ram(schema.build());
        let mut writer: IndexWriter = index
            .writer_with_num_threads(1, 50_000_000)
            .expect("tantivy writer");
        for text in texts {
            writer
                .add_document(doc!(body => text.as_str()))
                .expect("tantivy add");
        }
        writer.commit().expect("tantivy commit");
        let reader: tantivy::IndexReader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()
            .expect("tantivy reader");
        let searcher = reader.searcher();
        // Default conjunction is OR, as BM25 over the terms is for us.
        let query = QueryParser::for_index(&index, vec![body])
            .parse_query(query)
            .expect("tantivy query");
        let top10 = TopDocs::with_limit(10).order_by_score();
        let hits = searcher.search(&query, &top10).expect("tantivy search");
        assert!(!hits.is_empty(), "tantivy found nothing");
        group.bench_function("tantivy_top10", |b| {
            b.iter(|| searcher.search(black_box(&query), &top10))
        });
        // Every match ranked, as fusion needs from a ranker: no top-k pruning.
        let all = TopDocs::with_limit(texts.len()).order_by_score();
        group.bench_function("tantivy_all", |b| {
            b.iter(|| searcher.search(black_box(&query), &all))
        });
    }
}

/// P5 where an index matters: 5,000 texts. Our side is what recall over the window `all` does
/// for BM25: look up the query terms' posting lists in an inverted index built beforehand (as
/// the recall index is, at write time) and score only the candidates they name, every match
/// ranked; the texts' term counts are never read. tantivy answers the same query over its own
/// prebuilt in-RAM index of the same texts.
fn p5_bm25_5000_postings_vs_tantivy(c: &mut Criterion) {
    const TEXTS: usize = 5_000;
    let vocabulary = benches::vocabulary(0x5EED_0004, 2000);
    let texts = benches::recall_texts(0x5EED_0007, &vocabulary, TEXTS, WORDS_PER_TEXT);
    let query = benches::recall_query(&vocabulary);
    let ids: Vec<String> = (0..TEXTS).map(|i| format!("mem-{i:05}")).collect();
    let stats: Vec<TermStats> = texts.iter().map(|t| TermStats::from_text(t)).collect();
    let mut index: HashMap<&str, Vec<(u32, u32)>> = HashMap::new();
    for (i, s) in stats.iter().enumerate() {
        for (term, f) in s.terms() {
            index.entry(term.as_str()).or_default().push((i as u32, *f));
        }
    }
    let none: [String; 0] = [];
    let candidates: Vec<Candidate<'_>> = (0..TEXTS)
        .map(|i| Candidate {
            recency: (i / 3) as i64,
            id: &ids[i],
            terms: Terms::length_only(stats[i].length()),
            embedding: None,
            entities: &none,
        })
        .collect();
    let prepared = PreparedQuery::new(&query);
    let mut group = c.benchmark_group("P5_bm25_5000_postings_vs_tantivy");
    group.bench_function("fusion_rank_bm25_postings", |b| {
        b.iter(|| {
            let lists: Vec<&[(u32, u32)]> = black_box(&prepared.terms)
                .iter()
                .map(|t| index.get(t.as_str()).map_or(&[][..], Vec::as_slice))
                .collect();
            bm25_postings(&lists, &candidates)
        })
    });
    // Beside it, the same candidates ranked from their term counts (no index): what the scan
    // path costs at this size.
    let counted: Vec<Candidate<'_>> = (0..TEXTS)
        .map(|i| Candidate {
            terms: (&stats[i]).into(),
            ..candidates[i]
        })
        .collect();
    group.bench_function("fusion_rank_bm25_term_counts", |b| {
        b.iter(|| bm25_ranking(black_box(&prepared.terms), &counted))
    });
    #[cfg(feature = "peers")]
    peer::tantivy(&mut group, &texts, &query);
    group.finish();
}

/// Reading the time a query names, which every recall does before ranking: a short question,
/// a question of the longest length a recall takes (1,000 characters) with one time phrase,
/// and the same length made of nothing but time words, in English and in Japanese (no spaces:
/// the words around each expression are the whole query).
fn time_phrases(c: &mut Criterion) {
    const REFERENCE_MS: i64 = 1_796_225_400_000; // 2026-12-02T15:30Z
    // Everyday words, many of which begin some rule ("the", "on", "and", "in"), so that the
    // matcher tries its rules at most tokens.
    let prose = "the meeting with alice and bob about the budget for the offsite on the \
                 roadmap and the hiring plan in the new office with the team";
    let mut long = String::from("what did I note last week about");
    while long.chars().count() < 1000 - prose.len() {
        long.push(' ');
        long.push_str(prose);
    }
    let queries = [
        (
            "short",
            "what did I note about the dentist last week?".to_owned(),
        ),
        ("long_1000_chars", long),
        ("english_time_words_1000_chars", "last week ".repeat(100)),
        ("japanese_time_words_1000_chars", "昨夜".repeat(500)),
        ("digits_1000_chars", "9".repeat(1000)),
    ];
    let mut group = c.benchmark_group("time_phrases");
    for (name, query) in &queries {
        group.bench_function(*name, |b| {
            b.iter(|| fusion_rank::resolve_time(black_box(query), REFERENCE_MS))
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    p4_fuse_300,
    p5_bm25_vs_tantivy,
    p5_bm25_5000_postings_vs_tantivy,
    time_phrases
);
criterion_main!(benches);
