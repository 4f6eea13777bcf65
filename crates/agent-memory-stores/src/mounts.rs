//! Resolving an agent's path against a session's mounts: pure parsing, no storage access.
//!
//! `/mnt/memory` (and, for the memory tool, `/memories`) is the directory of mounts;
//! `/mnt/memory/<slug>` a mount root; `/mnt/memory/<slug>/<path>` the memory path `/<path>` in the
//! mounted store, which must satisfy every path rule ([`StorePath`]). The slug must name one of
//! the session's mounts exactly. Anything else — another root, an unknown slug, a `..` that would
//! climb out of a mount, an encoded separator — is `400 MEMORY_PATH_INVALID`, decided here before
//! any store is read.

use memory_core::session::{MEMORY_TOOL_ROOT, MOUNT_ROOT, MemoryStoreResource};
use memory_core::{ApiError, ErrorCode, Session, StorePath};

/// Where an agent's path leads.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Target {
    /// The directory of mounts (`/mnt/memory`, `/memories`).
    Mounts,
    /// A mount's root directory.
    MountRoot(MemoryStoreResource),
    /// A path inside a mount (a memory, an implicit directory, or nothing yet).
    Inside(MemoryStoreResource, StorePath),
}

/// Which roots a caller may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Roots {
    /// `/mnt/memory/` only (the `fs.*` operations).
    MountOnly,
    /// `/mnt/memory/` and the memory tool's `/memories/`.
    MountAndTool,
}

pub(crate) fn outside() -> ApiError {
    ApiError::new(
        ErrorCode::MemoryPathInvalid,
        "the path does not resolve inside a mount of the session",
    )
}

/// Resolves `raw` against `session`'s mounts. A trailing `/` after a mount-relative path is
/// accepted only when `directory` is true (listing, and the memory tool's directory commands).
pub(crate) fn resolve(
    session: &Session,
    raw: &str,
    roots: Roots,
    directory: bool,
) -> Result<Target, ApiError> {
    let mount_root = MOUNT_ROOT.trim_end_matches('/');
    let tool_root = MEMORY_TOOL_ROOT.trim_end_matches('/');
    let rest = match raw.strip_prefix(mount_root) {
        Some(rest) => rest,
        None if roots == Roots::MountAndTool => raw.strip_prefix(tool_root).ok_or_else(outside)?,
        None => return Err(outside()),
    };
    if rest.is_empty() || rest == "/" {
        return Ok(Target::Mounts);
    }
    let rest = rest.strip_prefix('/').ok_or_else(outside)?;
    let (slug, inner) = match rest.split_once('/') {
        Some((slug, inner)) => (slug, inner),
        None => (rest, ""),
    };
    let mount = session
        .memory_stores()
        .find(|m| m.slug() == slug)
        .cloned()
        .ok_or_else(outside)?;
    if inner.is_empty() {
        return Ok(Target::MountRoot(mount));
    }
    let inner = match inner.strip_suffix('/') {
        Some(stripped) if directory => stripped,
        _ => inner,
    };
    let path = StorePath::parse(format!("/{inner}")).map_err(ApiError::from)?;
    Ok(Target::Inside(mount, path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use memory_core::session::SessionResource;
    use memory_core::{Access, MemoryStoreId, SessionId, Timestamp};

    fn session() -> Session {
        Session {
            id: SessionId::parse("sesn_1").unwrap(),
            kind: Default::default(),
            agent: None,
            resources: vec![SessionResource::MemoryStore(MemoryStoreResource {
                memory_store_id: MemoryStoreId::parse("memstore_1").unwrap(),
                access: Access::ReadWrite,
                instructions: None,
                mount_path: "/mnt/memory/notes/".into(),
            })],
            created_at: Timestamp::UNIX_EPOCH,
        }
    }

    #[test]
    fn resolves_roots_mounts_and_paths() {
        let s = session();
        let r = |p: &str| resolve(&s, p, Roots::MountAndTool, true);
        assert_eq!(r("/mnt/memory").unwrap(), Target::Mounts);
        assert_eq!(r("/memories/").unwrap(), Target::Mounts);
        assert!(matches!(
            r("/mnt/memory/notes/").unwrap(),
            Target::MountRoot(_)
        ));
        match r("/memories/notes/a/b.md").unwrap() {
            Target::Inside(_, p) => assert_eq!(p.as_str(), "/a/b.md"),
            other => panic!("{other:?}"),
        }
        for bad in [
            "/mnt/memoryx",
            "/mnt/memory/other/a",
            "/mnt/memory/../etc",
            "/mnt/memory/notes/../x",
            "/mnt/memory/notes/a%2fb",
            "/mnt/memory/notes//a",
            "mnt/memory/notes/a",
            "/memoriesx",
        ] {
            assert!(r(bad).is_err(), "{bad}");
        }
        assert!(resolve(&s, "/memories/notes/a", Roots::MountOnly, false).is_err());
        assert!(resolve(&s, "/mnt/memory/notes/a/", Roots::MountOnly, false).is_err());
    }
}
