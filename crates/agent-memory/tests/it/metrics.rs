//! The metrics every operation counts through the `metrics` facade, read with an in-memory
//! recorder: names and labels as documented, label values from fixed sets only.

use std::collections::BTreeMap;
use std::sync::Arc;

use agent_memory::telemetry::{self, METRICS, MetricKind};
use agent_memory::{EmbedError, Embedder, MemoryService};
use citation_verify::InMemoryPassageSource;
use metrics_util::MetricKind as Kind;
use metrics_util::debugging::{DebugValue, DebuggingRecorder};
use serde_json::json;
use store_kv::InMemoryBackend;

use crate::{agent, owner, req};

/// An embedder that always fails: every recall ranks without the semantic ranker.
struct Failing;

impl Embedder for Failing {
    fn model_id(&self) -> &str {
        "failing-v1"
    }

    fn embed(&self, _: &str) -> Result<Vec<f32>, EmbedError> {
        Err(EmbedError::Failed("no model here".to_owned()))
    }
}

/// A metric as the snapshot shows it: its name and its labels, sorted.
type Series = (String, BTreeMap<String, String>);

/// Runs `f` with a recorder of this thread only and returns the counters and histograms it saw.
fn recorded(f: impl FnOnce()) -> (BTreeMap<Series, u64>, BTreeMap<Series, Vec<f64>>) {
    let recorder = DebuggingRecorder::new();
    let snapshotter = recorder.snapshotter();
    metrics::with_local_recorder(&recorder, f);
    let mut counters = BTreeMap::new();
    let mut histograms = BTreeMap::new();
    for (key, _, _, value) in snapshotter.snapshot().into_vec() {
        let (kind, key) = key.into_parts();
        let labels = key
            .labels()
            .map(|l| (l.key().to_owned(), l.value().to_owned()))
            .collect();
        let series = (key.name().to_owned(), labels);
        match (kind, value) {
            (Kind::Counter, DebugValue::Counter(n)) => {
                counters.insert(series, n);
            }
            (Kind::Histogram, DebugValue::Histogram(values)) => {
                histograms.insert(series, values.into_iter().map(|v| v.0).collect());
            }
            (kind, value) => panic!("unexpected metric {series:?}: {kind:?} {value:?}"),
        }
    }
    (counters, histograms)
}

fn series(name: &str, labels: &[(&str, &str)]) -> Series {
    (
        name.to_owned(),
        labels
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
    )
}

#[test]
fn a_remember_a_recall_and_a_refusal_are_counted_by_name_outcome_code_and_category() {
    let service = MemoryService::builder(
        Arc::new(InMemoryBackend::new()),
        Arc::new(InMemoryPassageSource::new()),
    )
    .embedder(Arc::new(Failing))
    .build()
    .unwrap();
    service
        .settings_put(&owner(), &req(json!({"agentMemoriesEnabled": true})))
        .unwrap();
    let alice = agent("alice", "cred_a");
    let (counters, histograms) = recorded(|| {
        service
            .remember(
                &alice,
                &req(json!({
                    "namespace": "secretns",
                    "key": "secretkey",
                    "text": "marmalade codeword: call 050-123-4567 or write dana@example.com",
                })),
            )
            .unwrap();
        let found = service
            .recall(&alice, &req(json!({"query": "marmalade codeword"})))
            .unwrap();
        assert!(found.semantic_skipped);
        service
            .remember(
                &alice,
                &req(json!({"namespace": "dana@example.com", "text": "marmalade"})),
            )
            .unwrap_err();
    });

    let expected = [
        (
            series(
                telemetry::OPERATIONS_TOTAL,
                &[("operation", "remember"), ("outcome", "ok")],
            ),
            1,
        ),
        (
            series(
                telemetry::OPERATIONS_TOTAL,
                &[
                    ("operation", "remember"),
                    ("outcome", "AGENT_MEMORY_PERSONAL_DATA"),
                ],
            ),
            1,
        ),
        (
            series(
                telemetry::OPERATIONS_TOTAL,
                &[("operation", "recall"), ("outcome", "ok")],
            ),
            1,
        ),
        (
            series(
                telemetry::REFUSALS_TOTAL,
                &[("code", "AGENT_MEMORY_PERSONAL_DATA")],
            ),
            1,
        ),
        (
            series(
                telemetry::REMEMBERS_ACCEPTED_TOTAL,
                &[("superseded", "false")],
            ),
            1,
        ),
        (
            series(telemetry::MASKED_VALUES_TOTAL, &[("category", "phone")]),
            1,
        ),
        (
            series(telemetry::MASKED_VALUES_TOTAL, &[("category", "email")]),
            1,
        ),
        (series(telemetry::RECALLS_TOTAL, &[]), 1),
        (
            series(telemetry::SEMANTIC_SKIPS_TOTAL, &[("reason", "failed")]),
            1,
        ),
    ];
    let expected: BTreeMap<Series, u64> = expected.into_iter().collect();
    assert_eq!(counters, expected);

    let durations: BTreeMap<&str, usize> = histograms
        .iter()
        .map(|((name, labels), values)| {
            assert_eq!(name, telemetry::OPERATION_DURATION_SECONDS);
            assert!(values.iter().all(|v| (0.0..60.0).contains(v)), "{values:?}");
            (labels["operation"].as_str(), values.len())
        })
        .collect();
    assert_eq!(durations, BTreeMap::from([("recall", 1), ("remember", 2)]));

    // Every name is a documented one, and no label value holds anything the caller sent.
    for (name, labels) in counters.keys().chain(histograms.keys()) {
        assert!(
            METRICS.iter().any(|(n, _, _)| n == name),
            "{name} is not in telemetry::METRICS"
        );
        for value in labels.values() {
            for secret in [
                "marmalade",
                "codeword",
                "secretns",
                "secretkey",
                "050",
                "4567",
                "dana",
                "example",
            ] {
                assert!(
                    !value.contains(secret),
                    "a label leaks {secret}: {labels:?}"
                );
            }
        }
    }
}

#[test]
fn the_metric_table_names_each_metric_once_with_its_kind() {
    let mut names: Vec<&str> = METRICS.iter().map(|(n, _, _)| *n).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), METRICS.len());
    for (name, kind, help) in METRICS {
        assert!(name.starts_with("agent_memory_"), "{name}");
        assert!(!help.is_empty());
        match kind {
            MetricKind::Counter => assert!(name.ends_with("_total"), "{name}"),
            MetricKind::Histogram => assert!(name.ends_with("_seconds"), "{name}"),
        }
    }
}
