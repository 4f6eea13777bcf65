//! What an operation tells an operator: one `tracing` span per call and a few metrics through
//! the `metrics` facade, both made by [`Operation::run`] and by
//! small hooks of the product crates that call the functions below.
//!
//! Every span field and every metric label is an id, a count, a duration, or a value of a fixed
//! set — operation names, error codes, masker categories, OpenTelemetry's GenAI operation names,
//! the reasons of [`SemanticSkip`] — and never memory text, a query, a namespace, a key, a path, a
//! token or a credential. The libraries install no metrics recorder: without one the calls cost
//! next to nothing, and a host that wants numbers installs the recorder of its choice (the
//! CLI's `serve --metrics` installs a Prometheus one). `docs/observability.md` lists every field
//! and metric.

use std::time::Instant;

use memory_core::{ApiError, MaskedCounts};
use tracing::Span;
use tracing::field::Empty;

use crate::ops::{Operation, TypedCaller};

/// The name of the span every operation runs in.
pub const SPAN_NAME: &str = "agent_memory.operation";

/// Counter: operations answered, by `operation` and `outcome` (`ok` or the error code).
pub const OPERATIONS_TOTAL: &str = "agent_memory_operations_total";
/// Histogram: seconds an operation took, by `operation`.
pub const OPERATION_DURATION_SECONDS: &str = "agent_memory_operation_duration_seconds";
/// Counter: refusals (answers with a status below 500), by error `code`.
pub const REFUSALS_TOTAL: &str = "agent_memory_refusals_total";
/// Counter: memories stored by `remember`, by `superseded` (`true` when one replaced the key's
/// current version).
pub const REMEMBERS_ACCEPTED_TOTAL: &str = "agent_memory_remembers_accepted_total";
/// Counter: values the masker replaced in accepted memories, by masker `category`.
pub const MASKED_VALUES_TOTAL: &str = "agent_memory_masked_values_total";
/// Counter: recalls answered.
pub const RECALLS_TOTAL: &str = "agent_memory_recalls_total";
/// Counter: recalls whose semantic ranker sat out, by `reason` ([`SemanticSkip`]).
pub const SEMANTIC_SKIPS_TOTAL: &str = "agent_memory_semantic_skips_total";

/// Every metric with its kind and one line on what it counts, for a recorder's descriptions and
/// for the documentation's check.
pub const METRICS: &[(&str, MetricKind, &str)] = &[
    (
        OPERATIONS_TOTAL,
        MetricKind::Counter,
        "Operations answered, by operation and outcome (ok or the error code).",
    ),
    (
        OPERATION_DURATION_SECONDS,
        MetricKind::Histogram,
        "Seconds an operation took, by operation.",
    ),
    (
        REFUSALS_TOTAL,
        MetricKind::Counter,
        "Refused operations (status below 500), by error code.",
    ),
    (
        REMEMBERS_ACCEPTED_TOTAL,
        MetricKind::Counter,
        "Memories stored by remember, by whether one superseded the key's current version.",
    ),
    (
        MASKED_VALUES_TOTAL,
        MetricKind::Counter,
        "Values the masker replaced in stored memories, by category.",
    ),
    (RECALLS_TOTAL, MetricKind::Counter, "Recalls answered."),
    (
        SEMANTIC_SKIPS_TOTAL,
        MetricKind::Counter,
        "Recalls ranked without the semantic ranker, by reason.",
    ),
];

/// The kinds of metric this crate emits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetricKind {
    /// Only goes up.
    Counter,
    /// A distribution of observed values.
    Histogram,
}

/// Gives every metric its description to the installed recorder (a Prometheus recorder writes
/// them as `# HELP` lines). Call it after installing one; without one it does nothing.
pub fn describe() {
    for &(name, kind, help) in METRICS {
        match kind {
            MetricKind::Counter => metrics::describe_counter!(name, help),
            MetricKind::Histogram => {
                metrics::describe_histogram!(name, metrics::Unit::Seconds, help)
            }
        }
    }
}

/// The values of OpenTelemetry's `gen_ai.operation.name` for memory operations that an
/// operation of this library can be: [`Operation::GEN_AI_OPERATION`] names one where it fits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GenAiOperation {
    /// `search_memory`: reads memories (recall, lists, reads by id or path).
    SearchMemory,
    /// `update_memory`: creates or changes a memory (remember, which creates or supersedes; the
    /// writes of memory stores).
    UpdateMemory,
    /// `delete_memory`: removes memories (forget, the member's and the owner's deletes).
    DeleteMemory,
    /// `create_memory_store`: creates a memory store.
    CreateMemoryStore,
    /// `delete_memory_store`: deletes a memory store.
    DeleteMemoryStore,
}

impl GenAiOperation {
    /// The attribute's value.
    pub const fn as_str(self) -> &'static str {
        match self {
            GenAiOperation::SearchMemory => "search_memory",
            GenAiOperation::UpdateMemory => "update_memory",
            GenAiOperation::DeleteMemory => "delete_memory",
            GenAiOperation::CreateMemoryStore => "create_memory_store",
            GenAiOperation::DeleteMemoryStore => "delete_memory_store",
        }
    }
}

/// The numbers of an answer that its operation's span records, from
/// [`Operation::tally`]. A field left `None` is not recorded.
#[derive(Debug, Clone, Copy, Default)]
pub struct Tally<'a> {
    /// Items in the answer (memories recalled or listed, a page's entries).
    pub returned: Option<u64>,
    /// Candidates a recall ranked.
    pub considered: Option<u64>,
    /// Memories left out because a cited source is gone.
    pub hidden: Option<u64>,
    /// Memories deleted.
    pub deleted: Option<u64>,
    /// Values the masker replaced, by category; the span records their total and the run counts
    /// them in [`MASKED_VALUES_TOTAL`].
    pub masked: Option<&'a MaskedCounts>,
    /// Whether a remember superseded the key's current version.
    pub superseded: Option<bool>,
    /// Whether a recall ranked without the semantic ranker.
    pub semantic_skipped: Option<bool>,
}

/// Why recall's semantic ranker sat out: the values of [`SEMANTIC_SKIPS_TOTAL`]'s `reason`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SemanticSkip {
    /// `timeout`: the query's embedding did not arrive within the semantic budget.
    Timeout,
    /// `busy`: every embedding worker was still stuck on an earlier call.
    Busy,
    /// `failed`: the embedder answered with an error.
    Failed,
    /// `unavailable`: the embedding pool could not run the call at all.
    Unavailable,
}

impl SemanticSkip {
    /// The label value.
    pub const fn as_str(self) -> &'static str {
        match self {
            SemanticSkip::Timeout => "timeout",
            SemanticSkip::Busy => "busy",
            SemanticSkip::Failed => "failed",
            SemanticSkip::Unavailable => "unavailable",
        }
    }
}

/// Counts a recall ranked without its semantic ranker; recall calls it where it gives the
/// ranker up.
pub fn semantic_skipped(reason: SemanticSkip) {
    metrics::counter!(SEMANTIC_SKIPS_TOTAL, "reason" => reason.as_str()).increment(1);
}

/// Counts a memory `remember` stored; its masked values are counted by the run from
/// [`Tally::masked`].
pub fn remember_accepted(superseded: bool) {
    let superseded = if superseded { "true" } else { "false" };
    metrics::counter!(REMEMBERS_ACCEPTED_TOTAL, "superseded" => superseded).increment(1);
}

/// Counts an answered recall.
pub fn recall_answered() {
    metrics::counter!(RECALLS_TOTAL).increment(1);
}

/// One call of an operation being observed: its span and when it started.
pub(crate) struct Observation {
    span: Span,
    started: Instant,
}

impl Observation {
    /// Opens the span of one call of `O` by `caller`: the operation's names and the caller's
    /// workspace id (none for an agent credential that resolved to no workspace).
    pub(crate) fn start<O: Operation>(caller: &O::Caller) -> Observation {
        let workspace = caller.to_dyn().workspace().map(|w| w.as_str());
        let span = tracing::info_span!(
            "agent_memory.operation",
            gen_ai.operation.name = O::GEN_AI_OPERATION.map(GenAiOperation::as_str),
            agent_memory.operation = O::NAME,
            agent_memory.caller = <O::Caller as TypedCaller>::KIND.name(),
            agent_memory.workspace = workspace,
            agent_memory.outcome = Empty,
            "error.type" = Empty,
            agent_memory.returned = Empty,
            agent_memory.considered = Empty,
            agent_memory.hidden = Empty,
            agent_memory.deleted = Empty,
            agent_memory.masked = Empty,
            agent_memory.superseded = Empty,
            agent_memory.semantic_skipped = Empty,
            agent_memory.latency_ms = Empty,
        );
        Observation {
            span,
            started: Instant::now(),
        }
    }

    /// The span, to enter while the operation runs.
    pub(crate) fn span(&self) -> &Span {
        &self.span
    }

    /// Records the answer on the span — outcome, counts, latency — and counts it.
    pub(crate) fn finish<O: Operation>(self, result: &Result<O::Response, ApiError>) {
        let elapsed = self.started.elapsed();
        let span = &self.span;
        let outcome = match result {
            Ok(response) => {
                record_tally(span, &O::tally(response));
                "ok"
            }
            Err(err) => {
                let code = err.code().as_str();
                span.record("error.type", code);
                if err.http_status() < 500 {
                    metrics::counter!(REFUSALS_TOTAL, "code" => code).increment(1);
                }
                code
            }
        };
        span.record("agent_memory.outcome", outcome);
        span.record("agent_memory.latency_ms", elapsed.as_secs_f64() * 1000.0);
        metrics::counter!(OPERATIONS_TOTAL, "operation" => O::NAME, "outcome" => outcome)
            .increment(1);
        metrics::histogram!(OPERATION_DURATION_SECONDS, "operation" => O::NAME)
            .record(elapsed.as_secs_f64());
    }
}

/// Records the counts of an answer on its span, and counts its masked values by category.
fn record_tally(span: &Span, tally: &Tally<'_>) {
    let counts = [
        ("agent_memory.returned", tally.returned),
        ("agent_memory.considered", tally.considered),
        ("agent_memory.hidden", tally.hidden),
        ("agent_memory.deleted", tally.deleted),
    ];
    for (field, value) in counts {
        if let Some(value) = value {
            span.record(field, value);
        }
    }
    if let Some(superseded) = tally.superseded {
        span.record("agent_memory.superseded", superseded);
    }
    if let Some(skipped) = tally.semantic_skipped {
        span.record("agent_memory.semantic_skipped", skipped);
    }
    if let Some(masked) = tally.masked {
        span.record("agent_memory.masked", masked.total() as u64);
        for (category, count) in masked.as_map() {
            metrics::counter!(MASKED_VALUES_TOTAL, "category" => category.as_str())
                .increment(*count as u64);
        }
    }
}
