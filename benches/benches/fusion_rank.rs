//! P4–P5: `fusion-rank` over 300 candidates of about 40 words (targets in the spec's quality
//! table). Term statistics, embeddings and entities are computed before timing, as a caller
//! stores them at write time; the query is tokenized and embedded before timing too.
#![allow(
    missing_docs,
    reason = "criterion_group! generates an undocumented pub fn"
)]

use criterion::{Criterion, criterion_group, criterion_main};
use fusion_rank::{Candidate, HashingEmbedder, PreparedQuery, TermStats, bm25_ranking, fuse};
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

criterion_group!(benches, p4_fuse_300, p5_bm25_vs_tantivy);
criterion_main!(benches);
