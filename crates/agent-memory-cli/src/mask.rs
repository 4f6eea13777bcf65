//! `agent-memory mask`: shows what the masker does to a user's text, one input line at a time.

use std::io::{BufRead, Write};

use agent_memory::mask::{Category, Span};
use anyhow::Context;
use serde::{Serialize, Serializer};

/// Arguments of `agent-memory mask`.
#[derive(Debug, clap::Args)]
pub(crate) struct MaskArgs {
    /// Print one JSON object per line: {"text", "spans", "counts"} with byte offsets into the
    /// input line.
    #[arg(long)]
    json: bool,
}

/// The JSON shape printed with `--json`; offsets are bytes into the input line (without its
/// line terminator), categories by their wire names (`Category::as_str`).
#[derive(Serialize)]
struct JsonLine<'a> {
    text: &'a str,
    #[serde(serialize_with = "spans")]
    spans: &'a [Span],
    /// In the masker's priority order, as it counts them.
    #[serde(serialize_with = "counts")]
    counts: &'a std::collections::BTreeMap<Category, usize>,
}

/// One span as `{"start","end","category"}`.
#[derive(Serialize)]
struct JsonSpan {
    start: usize,
    end: usize,
    category: &'static str,
}

fn spans<S: Serializer>(spans: &&[Span], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(spans.iter().map(|s| JsonSpan {
        start: s.start,
        end: s.end,
        category: s.category.as_str(),
    }))
}

fn counts<S: Serializer>(
    counts: &&std::collections::BTreeMap<Category, usize>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_map(counts.iter().map(|(c, n)| (c.as_str(), n)))
}

/// Reads lines from `input` and writes each masked line to `output`.
///
/// Lines are split on `\n` with an optional preceding `\r` removed, so offsets refer to the line
/// as a user sees it. Input that is not UTF-8 is an error rather than being guessed at.
pub(crate) fn run(
    args: &MaskArgs,
    mut input: impl BufRead,
    mut output: impl Write,
) -> anyhow::Result<()> {
    let mut line = String::new();
    let mut number = 0usize;
    loop {
        line.clear();
        number += 1;
        let read = input
            .read_line(&mut line)
            .with_context(|| format!("reading line {number} of standard input (is it UTF-8?)"))?;
        if read == 0 {
            break;
        }
        let text = line.strip_suffix('\n').unwrap_or(&line);
        let text = text.strip_suffix('\r').unwrap_or(text);
        let masked = agent_memory::mask::mask(text);
        if args.json {
            let json = JsonLine {
                text: &masked.text,
                spans: &masked.spans,
                counts: &masked.counts,
            };
            serde_json::to_writer(&mut output, &json)?;
            output.write_all(b"\n")?;
        } else {
            writeln!(output, "{}", masked.text)?;
        }
    }
    output.flush()?;
    Ok(())
}
