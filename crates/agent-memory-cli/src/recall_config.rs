//! `agent-memory config`: shows and changes how recall ranks in this home — the candidate
//! window and each ranker's weight in the fusion — as `config.json` records them.

use std::io::Write;

use agent_memory::{CandidateWindow, Embedder, Weights};
use anyhow::bail;
use serde_json::json;

use crate::home::{Home, WeightsConfig};

/// Arguments of `agent-memory config`.
#[derive(Debug, clap::Args)]
pub(crate) struct ConfigArgs {
    /// Rank this many of the most recent matching versions (1-5000), or `all` (every version
    /// the member may see; what `init` records).
    #[arg(long, value_name = "N|all")]
    candidate_window: Option<CandidateWindow>,
    /// Each ranker's weight in the fusion: `bm25=W,semantic=W,entity=W` (every ranker named,
    /// each finite and not negative, not all 0), `equal` (plain Reciprocal Rank Fusion, every
    /// weight 1) or `default` (the library's defaults for the embedder in use).
    #[arg(long, value_name = "SPEC")]
    weights: Option<String>,
    #[command(flatten)]
    out: crate::output::JsonFlag,
}

/// `--weights` read: `None` for `default`.
fn parse_weights(spec: &str) -> anyhow::Result<Option<Weights>> {
    match spec.trim() {
        "default" => return Ok(None),
        "equal" => return Ok(Some(Weights::EQUAL)),
        _ => {}
    }
    let (mut bm25, mut semantic, mut entity) = (None, None, None);
    for part in spec.split(',') {
        let Some((name, value)) = part.split_once('=') else {
            bail!("--weights: `{part}` is not NAME=WEIGHT");
        };
        let value: f64 = value
            .trim()
            .parse()
            .map_err(|_| anyhow::anyhow!("--weights: `{}` is not a number", value.trim()))?;
        let slot = match name.trim() {
            "bm25" => &mut bm25,
            "semantic" => &mut semantic,
            "entity" => &mut entity,
            other => bail!("--weights: no ranker is called `{other}` (bm25, semantic, entity)"),
        };
        if slot.replace(value).is_some() {
            bail!("--weights: {} is named twice", name.trim());
        }
    }
    let (Some(bm25), Some(semantic), Some(entity)) = (bm25, semantic, entity) else {
        bail!("--weights: name every ranker: bm25=W,semantic=W,entity=W");
    };
    Weights::new(bm25, semantic, entity)
        .map(Some)
        .ok_or_else(|| anyhow::anyhow!("--weights: each weight finite and not negative, not all 0"))
}

/// Shows the home's recall settings, after changing those the flags name.
pub(crate) fn run(
    home: &Home,
    args: &ConfigArgs,
    embedder: &dyn Embedder,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let mut config = home.load_config()?;
    let weights = args.weights.as_deref().map(parse_weights).transpose()?;
    if args.candidate_window.is_some() || weights.is_some() {
        if let Some(window) = args.candidate_window {
            config.recall.candidate_window = window;
        }
        if let Some(weights) = weights {
            config.recall.weights = weights.map(WeightsConfig::from);
        }
        home.write_config(&config)?;
    }
    let recorded = config
        .recall
        .weights
        .map(WeightsConfig::weights)
        .transpose()?;
    let effective = recorded.unwrap_or_else(|| Weights::for_embedder(embedder));
    if args.out.json {
        let answer = json!({
            "candidateWindow": config.recall.candidate_window.to_string(),
            "weights": {
                "bm25": effective.bm25,
                "semantic": effective.semantic,
                "entity": effective.entity,
                "source": if recorded.is_some() { "home" } else { "default" },
            },
            "embedder": embedder.model_id(),
        });
        writeln!(out, "{answer}")?;
        return Ok(());
    }
    writeln!(out, "candidate window: {}", config.recall.candidate_window)?;
    writeln!(
        out,
        "weights:          bm25 {}, semantic {}, entity {} ({})",
        effective.bm25,
        effective.semantic,
        effective.entity,
        if recorded.is_some() {
            "set for this home".to_owned()
        } else {
            format!("the defaults for {}", embedder.model_id())
        }
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weight_specs_parse_or_say_what_is_wrong() {
        assert_eq!(parse_weights("default").unwrap(), None);
        assert_eq!(parse_weights("equal").unwrap(), Some(Weights::EQUAL));
        assert_eq!(
            parse_weights("bm25=1, semantic=0.5,entity=2").unwrap(),
            Weights::new(1.0, 0.5, 2.0)
        );
        for (bad, says) in [
            ("bm25=1,semantic=1", "name every ranker"),
            ("bm25=1,semantic=1,entity=1,bm25=2", "named twice"),
            ("bm25=x,semantic=1,entity=1", "not a number"),
            ("bm25=-1,semantic=1,entity=1", "not negative"),
            ("bm25=0,semantic=0,entity=0", "not all 0"),
            ("bm25=NaN,semantic=1,entity=1", "finite"),
            ("time=1", "no ranker"),
            ("bm25", "NAME=WEIGHT"),
        ] {
            let err = parse_weights(bad).unwrap_err().to_string();
            assert!(err.contains(says), "{bad}: {err}");
        }
    }
}
