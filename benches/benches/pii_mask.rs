//! P1–P3: throughput and latency of `pii_mask::mask` (targets in the spec's quality table).
#![allow(
    missing_docs,
    reason = "criterion_group! generates an undocumented pub fn"
)]

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

fn p1_clean_prose(c: &mut Criterion) {
    let text = benches::clean_prose(0x5EED_0001, 1024);
    let mut group = c.benchmark_group("P1_mask_clean_prose_1KB");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("pii_mask", |b| b.iter(|| pii_mask::mask(black_box(&text))));
    group.finish();
}

fn p2_dense_pii(c: &mut Criterion) {
    let text = benches::dense_pii(0x5EED_0002, 1024, 60);
    let mut group = c.benchmark_group("P2_mask_dense_pii_1KB");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("pii_mask", |b| b.iter(|| pii_mask::mask(black_box(&text))));
    group.finish();
}

fn p3_store_file(c: &mut Criterion) {
    let text = benches::store_file(0x5EED_0003, 100 * 1024);
    let mut group = c.benchmark_group("P3_mask_store_file_100KB");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_with_input(BenchmarkId::new("pii_mask", "100KB"), &text, |b, text| {
        b.iter(|| pii_mask::mask(black_box(text)))
    });
    group.finish();
}

criterion_group!(benches, p1_clean_prose, p2_dense_pii, p3_store_file);
criterion_main!(benches);
