//! The process's `tracing` subscriber: plain lines on stderr, filtered by `RUST_LOG`.
//!
//! `serve` logs its requests by default (`warn,agent_memory_http=info` when `RUST_LOG` is unset or
//! invalid); every other command installs the subscriber only when `RUST_LOG` is set, so their
//! stderr stays what it was. rmcp's target stays at `warn` unless `RUST_LOG` names it: below that
//! it logs session ids and, at `trace`, whole messages.

use tracing_subscriber::EnvFilter;

/// Installs the subscriber; `default` is the filter when `RUST_LOG` is unset (`None`: no
/// subscriber then).
pub(crate) fn install(default: Option<&str>) {
    let filter = match (std::env::var("RUST_LOG"), default) {
        // rmcp logs whole JSON-RPC messages (memory text) at trace and session ids at info:
        // kept at warn unless RUST_LOG names it.
        (Ok(spec), default) => match EnvFilter::try_new(if spec.contains("rmcp") {
            spec.clone()
        } else {
            format!("{spec},rmcp=warn")
        }) {
            Ok(filter) => filter,
            Err(err) => {
                eprintln!("agent-memory: RUST_LOG={spec:?} is not a valid filter ({err})");
                match default {
                    Some(default) => EnvFilter::new(default),
                    None => return,
                }
            }
        },
        (Err(_), Some(default)) => EnvFilter::new(default),
        (Err(_), None) => return,
    };
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init();
}
