//! `agent-memory demo`: a self-contained tour on a fresh home — masking, supersede by key, a
//! citation whose passage changes, recall with each ranker's position, `asOf` and forget —
//! printing the facade's real answers next to the command that gives each one.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

use agent_memory::{
    Clock, Entity, ForgetRequest, ListRequest, ManualClock, Passage, RecallRequest,
    RememberRequest, Timestamp,
};
use anyhow::Context;

use crate::commands::{write_listed, write_recalled, write_remembered};
use crate::home::{BackendKind, Home};
use crate::local::Local;

/// Arguments of `agent-memory demo`.
#[derive(Debug, clap::Args)]
pub(crate) struct DemoArgs {
    /// The embedded database to run the tour on.
    #[arg(long, value_enum, default_value_t = BackendKind::Sqlite)]
    backend: BackendKind,
    #[command(flatten)]
    embedder: crate::embedder::EmbedderArgs,
    #[command(flatten)]
    window: crate::embedder::WindowArgs,
}

/// One minute, the step between the tour's events.
const STEP_SECONDS: i64 = 60;

/// Runs the tour in `home` (which must be fresh), or in a temporary directory removed at the end.
pub(crate) fn run(
    args: &DemoArgs,
    home: Option<PathBuf>,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let temp;
    let (home, kept) = match home {
        Some(path) => (Home::new(path), true),
        None => {
            temp = tempfile::Builder::new()
                .prefix("agent-memory-demo-")
                .tempdir()
                .context("creating a temporary directory for the demo")?;
            (Home::new(temp.path()), false)
        }
    };
    // The story runs on a manual clock that starts an hour ago and moves a minute per step: the
    // `asOf` step needs instants between writes, and every instant stays in the past, so a kept
    // home reads normally afterwards with the system clock.
    let start = Timestamp::now().minus_seconds(3600);
    let start = start.minus_millis(start.as_millis().rem_euclid(60_000));
    let clock = Arc::new(ManualClock::new(start));
    let tick = || clock.advance_seconds(STEP_SECONDS);

    // 1. init (first: a home that is not fresh is refused before anything is printed)
    let embedder = args.embedder.load()?;
    let (local, settings) = Local::init_with_embedder(
        &home,
        args.backend,
        clock.clone(),
        embedder,
        args.window.candidate_window,
    )?;
    writeln!(
        out,
        "agent-memory demo: a tour on a fresh {} database in {}",
        args.backend.name(),
        home.root().display()
    )?;
    if args.embedder.embedder != crate::embedder::EmbedderChoice::Hash {
        writeln!(out, "  (embeddings: {})", local.service.embedding_model())?;
    }
    step(out, 1, "Create a local workspace", &["agent-memory init"])?;
    writeln!(
        out,
        "     workspace {}, owner member `{}`, credential {} (memory:read, memory:write)",
        local.config.workspace, local.config.member, local.config.credential
    )?;
    writeln!(
        out,
        "     agent memories enabled: {}, retention: {} days",
        settings.agent_memories_enabled, settings.retention_days
    )?;
    let agent = local.agent();

    // 2. masking
    tick();
    step(
        out,
        2,
        "An agent remembers a note with personal data: it is masked before anything is stored",
        &[
            "agent-memory remember --namespace contacts \"Dana prefers mail at dana@example.com; call 050-123-4567 only if urgent\"",
        ],
    )?;
    let dana = local.service.remember(
        &agent,
        &RememberRequest::new(
            "contacts",
            "Dana prefers mail at dana@example.com; call 050-123-4567 only if urgent",
        ),
    )?;
    indented(out, |w| write_remembered(w, &dana))?;

    // 3. supersede by key
    tick();
    step(
        out,
        3,
        "A note under a key, then a newer one under the same key: the first is superseded, not lost",
        &["agent-memory remember --namespace prefs --key tone \"Keep replies short.\""],
    )?;
    let first = local.service.remember(
        &agent,
        &RememberRequest::new("prefs", "Keep replies short.").key("tone"),
    )?;
    indented(out, |w| write_remembered(w, &first))?;
    tick();
    let between = clock.now();
    tick();
    command(
        out,
        "agent-memory remember --namespace prefs --key tone \"Keep replies short and use bullet points.\"",
    )?;
    let second = local.service.remember(
        &agent,
        &RememberRequest::new("prefs", "Keep replies short and use bullet points.").key("tone"),
    )?;
    indented(out, |w| write_remembered(w, &second))?;

    // 4. a citation
    tick();
    step(
        out,
        4,
        "A note citing a passage: the memory records the passage's document version and SHA-256",
        &[
            "agent-memory passage put --id refunds-1 --document handbook --collection policies --version 1 --entity \"Acme\" --text \"Acme refunds are processed within 14 days.\"",
            "agent-memory remember --namespace policies --collection policies --cite refunds-1 \"Acme refunds take 14 days\"",
        ],
    )?;
    local.put_passage(handbook(1, "Acme refunds are processed within 14 days."))?;
    let cited = local.service.remember(
        &agent,
        &RememberRequest::new("policies", "Acme refunds take 14 days")
            .collection_id("policies")
            .citations(["refunds-1"]),
    )?;
    indented(out, |w| write_remembered(w, &cited))?;

    // 5. recall
    tick();
    step(
        out,
        5,
        "Recall ranks with BM25, embeddings and entities, fused by RRF; each ranker's position is shown",
        &["agent-memory recall \"How long do Acme refunds take?\""],
    )?;
    let query = RecallRequest::new("How long do Acme refunds take?").limit(3);
    let found = local.service.recall(&agent, &query)?;
    indented(out, |w| write_recalled(w, &found))?;

    // 6. the cited passage changes
    tick();
    step(
        out,
        6,
        "The handbook changes: the memory is re-verified on every read and now says `changed`",
        &[
            "agent-memory passage put --id refunds-1 --document handbook --collection policies --version 2 --entity \"Acme\" --text \"Acme refunds are processed within 30 days.\"",
            "agent-memory recall \"How long do Acme refunds take?\"",
        ],
    )?;
    local.put_passage(handbook(2, "Acme refunds are processed within 30 days."))?;
    let found = local.service.recall(&agent, &query)?;
    indented(out, |w| write_recalled(w, &found))?;

    // 7. asOf
    tick();
    let by_key = ListRequest::new().namespace("prefs").key("tone");
    let then = by_key.clone().as_of(between);
    step(
        out,
        7,
        "asOf reads the past: before the second write the key held its first version",
        &[&format!(
            "agent-memory list --namespace prefs --key tone --as-of {between}"
        )],
    )?;
    let page = local.service.list(&agent, &then)?;
    indented(out, |w| write_listed(w, &page))?;
    command(out, "agent-memory list --namespace prefs --key tone")?;
    let page = local.service.list(&agent, &by_key)?;
    indented(out, |w| write_listed(w, &page))?;

    // 8. forget
    tick();
    step(
        out,
        8,
        "Forget removes every version of the key; asOf cannot bring it back",
        &["agent-memory forget --namespace prefs --key tone"],
    )?;
    let forgotten = local
        .service
        .forget(&agent, &ForgetRequest::by_key("prefs", "tone"))?;
    writeln!(out, "     forgot {} versions", forgotten.deleted)?;
    command(
        out,
        &format!("agent-memory list --namespace prefs --key tone --as-of {between}"),
    )?;
    let page = local.service.list(&agent, &then)?;
    indented(out, |w| write_listed(w, &page))?;

    // 9. the audit trail
    step(
        out,
        9,
        "The audit log holds governance events only: ids and counts, never content",
        &["cat audit.jsonl"],
    )?;
    drop(local);
    let audit = std::fs::read_to_string(home.audit_path()).context("reading the audit log")?;
    indented(out, |w| w.write_all(audit.as_bytes()))?;

    writeln!(out)?;
    if kept {
        writeln!(
            out,
            "The demo's home stays in {}; explore it with `agent-memory --home {} list`.",
            home.root().display(),
            home.root().display()
        )?;
    } else {
        writeln!(
            out,
            "Done; the temporary directory was removed. Start your own with `agent-memory init`."
        )?;
    }
    Ok(())
}

/// The handbook's refund passage at `version`.
fn handbook(version: u64, text: &str) -> Passage {
    let mut passage = Passage::new("refunds-1", "handbook", "policies", version, text);
    passage.entities = vec![Entity::new("Acme", "Acme")];
    passage
}

/// Writes what `write` prints, each line indented under the command that printed it.
fn indented(
    out: &mut dyn Write,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut buffer = Vec::new();
    write(&mut buffer)?;
    for line in String::from_utf8_lossy(&buffer).lines() {
        writeln!(out, "     {line}")?;
    }
    Ok(())
}

fn step(out: &mut dyn Write, n: u32, title: &str, commands: &[&str]) -> std::io::Result<()> {
    writeln!(out, "\n{n}. {title}")?;
    for c in commands {
        command(out, c)?;
    }
    Ok(())
}

fn command(out: &mut dyn Write, line: &str) -> std::io::Result<()> {
    writeln!(out, "   $ {line}")
}
