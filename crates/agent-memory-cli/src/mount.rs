//! `agent-memory mount --session ID DIR`: a session's memory stores as a FUSE file system at DIR
//! (Linux), on the home's database, in the foreground until Ctrl-C, SIGTERM or SIGHUP, which
//! unmount it. Every version written through the mount is the session's (`session_actor`).

use std::io::Write;
use std::path::PathBuf;

use crate::home::Home;

/// Arguments of `agent-memory mount`.
#[derive(Debug, clap::Args)]
pub(crate) struct MountArgs {
    /// The session whose mounts appear under DIR (`sesn_…`, from `sessions create`).
    #[arg(long)]
    session: String,
    /// An existing, empty directory; each mount of the session appears as `DIR/<slug>/`.
    dir: PathBuf,
}

/// Runs `agent-memory mount` on the home's database until it is unmounted.
#[cfg(all(target_os = "linux", feature = "fuse"))]
pub(crate) fn run(home: &Home, args: MountArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    use std::sync::mpsc::{RecvTimeoutError, channel};
    use std::time::Duration;

    use agent_memory::FsStat;
    use agent_memory::types::session::{FsEntry, MOUNT_ROOT};
    use anyhow::Context;

    let local = crate::local::Local::open(home)?;
    let caller = crate::store_commands::session_caller(&local, &args.session)?;
    // The session first: an unknown one is the spec's error (`SESSION_NOT_FOUND: …`).
    let mounts = local.stores.fs_list_path(&caller, MOUNT_ROOT)?;
    // The handler is in place before the mount, so that no signal can end the process with the
    // file system still mounted.
    let (stop, stopped) = channel();
    ctrlc::set_handler(move || {
        let _ = stop.send(());
    })
    .context("installing the Ctrl-C / SIGTERM handler")?;
    let service = local.stores;
    let mounted = memory_fuse::mount(service.clone(), caller.clone(), &args.dir)?;
    let dir = args.dir.display();
    writeln!(out, "mounted session {} at {dir}", args.session)?;
    for entry in &mounts.entries {
        let FsEntry::Dir { name } = entry else {
            continue;
        };
        let access = match service.fs_stat_path(&caller, &format!("{MOUNT_ROOT}{name}")) {
            Ok(FsStat::Dir { read_only: true }) => "read-only",
            Ok(_) => "read-write",
            Err(_) => "store not found",
        };
        writeln!(out, "  {dir}/{name}/  ({access})")?;
    }
    out.flush()?;
    eprintln!("Ctrl-C or SIGTERM unmounts.");
    loop {
        match stopped.recv_timeout(Duration::from_millis(200)) {
            Ok(()) | Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) if !mounted.is_mounted() => {
                writeln!(out, "{dir} was unmounted from outside")?;
                return Ok(());
            }
            Err(RecvTimeoutError::Timeout) => {}
        }
    }
    mounted.unmount()?;
    writeln!(out, "unmounted {dir}")?;
    Ok(())
}

/// `agent-memory mount` in a build without the FUSE mount, or on another system than Linux.
#[cfg(not(all(target_os = "linux", feature = "fuse")))]
pub(crate) fn run(_home: &Home, _args: MountArgs, _out: &mut dyn Write) -> anyhow::Result<()> {
    if cfg!(feature = "fuse") {
        anyhow::bail!("agent-memory mount needs Linux (FUSE)")
    }
    Err(crate::features::missing("fuse", "`agent-memory mount`"))
}
