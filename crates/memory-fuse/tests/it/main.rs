//! The mount for real: a session's stores mounted through the kernel, used with `std::fs` and
//! with `ls`, `cat`, `mv` and `rm`, and the versions checked through the facade afterwards.
//!
//! Every test here needs FUSE (`/dev/fuse`, and root or the `fusermount3` helper of Debian's
//! `fuse3`), so every one is `#[ignore]`d: a plain `cargo test` lists them as ignored, and
//! `cargo test -p govmem-memory-fuse -- --ignored` runs them, failing when `/dev/fuse` cannot be opened
//! or the mount is refused. A guard unmounts (`fusermount3 -u`, then the library's lazy detach)
//! even when a test fails.

#![cfg(target_os = "linux")]

mod mount;
