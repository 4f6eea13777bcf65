//! How a command answers: `--json` prints the facade's response (or its error body) exactly, on
//! one line; without it, a human summary.

use std::io::Write;

use agent_memory::ApiError;
use serde::Serialize;

/// `--json`, shared by the commands that answer with a facade response.
#[derive(Debug, Clone, Copy, clap::Args)]
pub(crate) struct JsonFlag {
    /// Print the facade's response JSON exactly, on one line; on a spec error, print the spec's
    /// error body (`{"error":{"code",…}}`) on stdout as well.
    #[arg(long)]
    pub(crate) json: bool,
}

/// Prints `result` as JSON or through `human`; a spec error is returned for `main` to report
/// (with the stored content's hash after a failed `content_sha256` precondition, so that the
/// human can retry against it).
pub(crate) fn emit<T: Serialize>(
    out: &mut dyn Write,
    flag: JsonFlag,
    result: Result<T, ApiError>,
    human: impl FnOnce(&mut dyn Write, &T) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    match result {
        Ok(response) if flag.json => writeln!(out, "{}", serde_json::to_string(&response)?)?,
        Ok(response) => human(out, &response)?,
        Err(err) => {
            if flag.json {
                writeln!(out, "{}", serde_json::to_string(&err)?)?;
            }
            if let Some(current) = err.current_content_sha256() {
                anyhow::bail!("{err} (current content_sha256: {current})");
            }
            return Err(err.into());
        }
    }
    Ok(())
}
