//! `agent-memory export [--history]` and `agent-memory import FILE`: the member's memories out
//! as JSON lines, and such a file back in (see `agent_memory::transfer` for the rules).

use std::io::{BufRead, BufReader, IsTerminal, Write};
use std::path::PathBuf;

use agent_memory::{CredentialId, ExportedVersion, ImportRequest};
use anyhow::Context;

use crate::embedder::EmbedderArgs;
use crate::local::Local;
use crate::output::{JsonFlag, emit};

/// Arguments of `agent-memory export`.
#[derive(Debug, clap::Args)]
pub(crate) struct ExportArgs {
    /// Every stored version, oldest first — superseded and hidden ones too — with the credential
    /// that wrote it and its embedding: what `agent-memory import` restores with its history.
    /// Without it, the current memories only, as `list` shows them.
    #[arg(long)]
    history: bool,
}

/// Arguments of `agent-memory import`.
#[derive(Debug, clap::Args)]
pub(crate) struct ImportArgs {
    /// A file `agent-memory export` wrote (with or without `--history`); `-` reads standard
    /// input.
    file: PathBuf,
    #[command(flatten)]
    pub(crate) embedder: EmbedderArgs,
    #[command(flatten)]
    out: JsonFlag,
}

pub(crate) fn export(local: &Local, args: &ExportArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    if args.history {
        for version in local.service.export_history(&local.owner())? {
            writeln!(out, "{}", serde_json::to_string(&version)?)?;
        }
        return Ok(());
    }
    // One read: the export is one snapshot of the member's memories, whatever other
    // processes commit while it runs.
    for view in local.service.member_export(&local.owner())? {
        writeln!(out, "{}", serde_json::to_string(&view)?)?;
    }
    Ok(())
}

pub(crate) fn import(local: &Local, args: &ImportArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let reader: Box<dyn BufRead> = if args.file.as_os_str() == "-" {
        Box::new(BufReader::new(std::io::stdin().lock()))
    } else {
        let file = std::fs::File::open(&args.file)
            .with_context(|| format!("opening {}", args.file.display()))?;
        Box::new(BufReader::new(file))
    };
    let mut versions = Vec::new();
    for (number, line) in reader.lines().enumerate() {
        let line = line.with_context(|| format!("reading line {}", number + 1))?;
        if line.trim().is_empty() {
            continue;
        }
        // serde's message could quote the line's text: only the line number is said.
        let version: ExportedVersion = serde_json::from_str(&line).map_err(|_| {
            anyhow::anyhow!(
                "line {} is not a memory as `agent-memory export` writes it; nothing was imported",
                number + 1
            )
        })?;
        versions.push(version);
    }
    let total = versions.len() as u64;
    let credential = CredentialId::new(local.config.credential.clone())?;
    let request = ImportRequest::new(versions, credential);
    // A bar on a terminal; a script gets the summary line only.
    let bar = indicatif::ProgressBar::new(total);
    if !std::io::stderr().is_terminal() {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "import {bar:40.cyan/blue} {pos}/{len} memory versions ({eta} left)",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let result = local
        .service
        .import(&local.owner(), &request, &mut |done| bar.set_position(done));
    bar.finish_and_clear();
    emit(out, args.out, result, |out, r| {
        let refused: u64 = r.refused.values().sum();
        write!(
            out,
            "imported {} of {total} memory versions ({} already here, {} conflicting with newer \
             versions of their key, {refused} refused",
            r.imported, r.unchanged, r.conflicts
        )?;
        for (code, n) in &r.refused {
            write!(out, "; {code}: {n}")?;
        }
        writeln!(
            out,
            "); {} masked again, {} embedded again",
            r.masked_again, r.embedded_again
        )
    })
}
