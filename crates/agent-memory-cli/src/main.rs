//! The `agent-memory` command-line tool.
//!
//! Subcommands live in their own modules; `main` only parses arguments and dispatches. The CLI
//! may use `anyhow` (library crates may not) because its errors end at a human's terminal.

mod mask;
mod replay;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Governed agent memory on your own machine.
#[derive(Debug, Parser)]
#[command(name = "agent-memory", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Mask personal data in each line read from standard input.
    Mask(mask::MaskArgs),
    /// Run a JSON-lines scenario against the library and print one JSON line per operation.
    ///
    /// Exits 0 when every line was executed (whatever the statuses), 2 when a line was not
    /// valid JSON, named an unknown op or could not run.
    Replay(replay::ReplayArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Mask(args) => {
            mask::run(&args, std::io::stdin().lock(), std::io::stdout().lock()).map(|()| true)
        }
        Command::Replay(args) => replay::run(&args, std::io::stdout().lock()),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(2),
        Err(err) => {
            eprintln!("agent-memory: {err:#}");
            ExitCode::FAILURE
        }
    }
}
