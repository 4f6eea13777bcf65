//! `agent-memory fs`: a session's mounts used as files, as its agent does (ls, cat, write, rm,
//! mv).

use std::io::Write;
use std::path::PathBuf;

use agent_memory::types::session::{FsEntry, FsListing};
use agent_memory::{FsPathRequest, FsRenameRequest, FsWriteRequest};

use super::sessions::session_caller;
use super::shared::{bytes, read_content, write_memory_header};
use crate::local::Local;
use crate::output::{JsonFlag, emit};

/// Arguments of `agent-memory fs`.
#[derive(Debug, clap::Args)]
pub(crate) struct FsArgs {
    #[command(subcommand)]
    command: FsCommand,
}

/// `--session ID`: the session whose mounts `fs` uses.
#[derive(Debug, clap::Args)]
struct SessionArg {
    /// The session (`sesn_…`, from `sessions create`).
    #[arg(long)]
    session: String,
}

#[derive(Debug, clap::Subcommand)]
enum FsCommand {
    /// List a directory: `/mnt/memory/` lists the mounts, a mount its top-level entries.
    Ls {
        #[command(flatten)]
        session: SessionArg,
        /// The directory.
        #[arg(default_value = "/mnt/memory/")]
        path: String,
        #[command(flatten)]
        out: JsonFlag,
    },
    /// Print a file's content.
    Cat {
        #[command(flatten)]
        session: SessionArg,
        /// The file (`/mnt/memory/<slug>/…`).
        path: String,
        #[command(flatten)]
        out: JsonFlag,
    },
    /// Create or replace a file with the content of --file, or of standard input.
    Write {
        #[command(flatten)]
        session: SessionArg,
        /// The file.
        path: String,
        /// Read the content from this file (`-`: standard input, the default).
        #[arg(long, short)]
        file: Option<PathBuf>,
        #[command(flatten)]
        out: JsonFlag,
    },
    /// Delete a file.
    Rm {
        #[command(flatten)]
        session: SessionArg,
        /// The file.
        path: String,
        #[command(flatten)]
        out: JsonFlag,
    },
    /// Move a file within its mount.
    Mv {
        #[command(flatten)]
        session: SessionArg,
        /// The file.
        from: String,
        /// Its new path.
        to: String,
        #[command(flatten)]
        out: JsonFlag,
    },
}

fn write_listing(out: &mut dyn Write, listing: &FsListing) -> std::io::Result<()> {
    if listing.entries.is_empty() {
        writeln!(out, "(empty)")?;
    }
    for entry in &listing.entries {
        match entry {
            FsEntry::Dir { name } => writeln!(out, "dir   {name}/")?,
            FsEntry::File { name, size } => writeln!(out, "file  {name}  ({})", bytes(*size))?,
        }
    }
    Ok(())
}

pub(crate) fn fs(local: &Local, args: FsArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let service = &local.stores;
    match args.command {
        FsCommand::Ls {
            session,
            path,
            out: flag,
        } => {
            let caller = session_caller(local, &session.session)?;
            let result = service.fs_list(&caller, &FsPathRequest::new(path));
            emit(out, flag, result, write_listing)
        }
        FsCommand::Cat {
            session,
            path,
            out: flag,
        } => {
            let caller = session_caller(local, &session.session)?;
            let result = service.fs_read(&caller, &FsPathRequest::new(path));
            // Like cat: the content exactly, nothing added.
            emit(out, flag, result, |out, read| {
                out.write_all(read.content.as_bytes())
            })
        }
        FsCommand::Write {
            session,
            path,
            file,
            out: flag,
        } => {
            let caller = session_caller(local, &session.session)?;
            let content = read_content(file.as_deref())?;
            let result = service.fs_write(&caller, &FsWriteRequest::new(path.as_str(), content));
            emit(out, flag, result, |out, memory| {
                write!(out, "wrote {path}: ")?;
                write_memory_header(out, memory)
            })
        }
        FsCommand::Rm {
            session,
            path,
            out: flag,
        } => {
            let caller = session_caller(local, &session.session)?;
            let result = service.fs_delete(&caller, &FsPathRequest::new(path.as_str()));
            emit(out, flag, result, |out, _| writeln!(out, "deleted {path}"))
        }
        FsCommand::Mv {
            session,
            from,
            to,
            out: flag,
        } => {
            let caller = session_caller(local, &session.session)?;
            let result =
                service.fs_rename(&caller, &FsRenameRequest::new(from.as_str(), to.as_str()));
            emit(out, flag, result, |out, memory| {
                write!(out, "moved {from} to {to}: ")?;
                write_memory_header(out, memory)
            })
        }
    }
}
