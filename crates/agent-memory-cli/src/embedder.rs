//! `--embedder hash|local:DIR` (or `AGENT_MEMORY_EMBEDDER`): which model embeds memories and
//! queries, and `reembed`, which gives stored memories the chosen model's vectors.
//!
//! Every command that embeds flattens [`EmbedderArgs`] into its arguments and opens its
//! facade with [`EmbedderArgs::load`].

use std::io::Write;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;

#[cfg(feature = "candle")]
use agent_memory::CandleEmbedder;
use agent_memory::{Embedder, HashingEmbedder};
#[cfg(feature = "candle")]
use anyhow::Context;

use crate::local::Local;
use crate::output::{JsonFlag, emit};

/// A parsed `--embedder` value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum EmbedderChoice {
    /// The offline hashing embedder (character n-grams), the default.
    Hash,
    /// A BERT-style sentence-transformers model in a local directory.
    Local(PathBuf),
}

impl FromStr for EmbedderChoice {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "hash" {
            return Ok(EmbedderChoice::Hash);
        }
        match s.strip_prefix("local:") {
            Some("") | None => Err(format!(
                "`{s}` is not an embedder: use `hash`, or `local:DIR` with a directory holding \
                 config.json, tokenizer.json and model.safetensors"
            )),
            Some(dir) => Ok(EmbedderChoice::Local(expand_home(dir))),
        }
    }
}

/// `~/…` as the home directory (a shell leaves a tilde after `local:` as it is).
fn expand_home(dir: &str) -> PathBuf {
    match (dir.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => PathBuf::from(dir),
    }
}

/// `--embedder`, for every command that embeds text.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct EmbedderArgs {
    /// The model that embeds memories and queries: `hash` (offline character n-grams) or
    /// `local:DIR`, a sentence-transformers model directory (config.json, tokenizer.json,
    /// model.safetensors; nothing is downloaded). Memories embedded by another model sit out
    /// the semantic ranker until `agent-memory reembed`.
    #[arg(
        long,
        env = "AGENT_MEMORY_EMBEDDER",
        value_name = "hash|local:DIR",
        default_value = "hash"
    )]
    pub(crate) embedder: EmbedderChoice,
}

/// `--candidate-window`, for every command that recalls.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct WindowArgs {
    /// Which versions recall ranks: N, the N most recent matching versions (1-5000), or `all`,
    /// every version the member may see. Without it: the home's setting (`agent-memory config`;
    /// `init` records `all`), or 300, the contract's rule, where there is no home. Recall's
    /// `considered` says how many were ranked.
    #[arg(long, env = "AGENT_MEMORY_CANDIDATE_WINDOW", value_name = "N|all")]
    pub(crate) candidate_window: Option<agent_memory::CandidateWindow>,
}

impl EmbedderArgs {
    /// The chosen embedder, loaded (a local model is read from disk now).
    pub(crate) fn load(&self) -> anyhow::Result<Arc<dyn Embedder>> {
        load(&self.embedder)
    }
}

/// Loads `choice`.
pub(crate) fn load(choice: &EmbedderChoice) -> anyhow::Result<Arc<dyn Embedder>> {
    Ok(match choice {
        EmbedderChoice::Hash => Arc::new(HashingEmbedder::new()),
        EmbedderChoice::Local(dir) => load_model(dir)?,
    })
}

/// The sentence-embedding model in `dir`, read from disk now.
#[cfg(feature = "candle")]
fn load_model(dir: &std::path::Path) -> anyhow::Result<Arc<dyn Embedder>> {
    Ok(Arc::new(CandleEmbedder::load(dir).with_context(|| {
        format!("loading the embedding model in {}", dir.display())
    })?))
}

/// `--embedder local:DIR` in a build without candle.
#[cfg(not(feature = "candle"))]
fn load_model(_dir: &std::path::Path) -> anyhow::Result<Arc<dyn Embedder>> {
    Err(crate::features::missing("candle", "`--embedder local:DIR`"))
}

/// Arguments of `agent-memory reembed`.
#[derive(Debug, clap::Args)]
pub(crate) struct ReembedArgs {
    #[command(flatten)]
    pub(crate) embedder: EmbedderArgs,
    /// Only count the memory versions that need it; change nothing.
    #[arg(long)]
    dry_run: bool,
    #[command(flatten)]
    out: JsonFlag,
}

/// `reembed`: every version of the member (current and superseded) whose vector is missing or
/// of another model gets the chosen model's, with a progress bar on stderr (drawn only when
/// stderr is a terminal).
pub(crate) fn reembed(
    local: &Local,
    args: &ReembedArgs,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let model = local.service.embedding_model().to_owned();
    if args.dry_run {
        let stale = local.service.stale_embeddings(&local.owner());
        return emit(
            out,
            args.out,
            stale.map(|n| serde_json::json!({"model": model, "stale": n})),
            |out, r| {
                writeln!(
                    out,
                    "{} memory versions have no {model} embedding; `agent-memory reembed` \
                     would embed them",
                    r["stale"]
                )
            },
        );
    }
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "reembed {bar:40.cyan/blue} {pos}/{len} memory versions ({eta} left)",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let result = local.service.reembed(&local.owner(), &mut |done, total| {
        bar.set_length(total);
        bar.set_position(done);
    });
    bar.finish_and_clear();
    emit(out, args.out, result, |out, r| {
        writeln!(
            out,
            "re-embedded {} of {} memory versions with {}{}",
            r.reembedded,
            r.examined,
            r.model,
            if r.failed > 0 {
                format!(" ({} failed and keep their old vectors)", r.failed)
            } else {
                String::new()
            }
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_hash_and_local_directories() {
        assert_eq!("hash".parse(), Ok(EmbedderChoice::Hash));
        assert_eq!(
            "local:/opt/models/minilm".parse(),
            Ok(EmbedderChoice::Local(PathBuf::from("/opt/models/minilm")))
        );
        assert_eq!(
            "local:models/a:b".parse(),
            Ok(EmbedderChoice::Local(PathBuf::from("models/a:b")))
        );
        for bad in ["", "local:", "onnx:/x", "Hash", "local"] {
            assert!(bad.parse::<EmbedderChoice>().is_err(), "{bad:?}");
        }
    }
}
