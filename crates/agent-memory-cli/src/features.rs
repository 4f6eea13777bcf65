//! What a build without some of this crate's Cargo features answers. The commands, flags and
//! backend names stay the same in every build, so that a script or a home's `config.json`
//! means the same thing everywhere; what a build lacks is refused with the feature it needs,
//! before anything is opened or created.

/// The error of `what` (a command, a flag or a backend), which needs `feature`, in a build
/// without it.
pub(crate) fn missing(feature: &str, what: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "this build of agent-memory was built without the `{feature}` feature, which {what} \
         needs; build it with `--features {feature}` (the default build has every feature)"
    )
}

/// The arguments of a command whose feature this build lacks: whatever follows the command's
/// name is accepted, and the command answers with [`missing`].
#[cfg(not(all(feature = "mcp", feature = "http")))]
#[derive(Debug, clap::Args)]
pub(crate) struct Unavailable {
    #[arg(hide = true, num_args = 0.., trailing_var_arg = true, allow_hyphen_values = true)]
    _args: Vec<std::ffi::OsString>,
}
