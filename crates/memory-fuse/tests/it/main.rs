//! The mount for real: a session's stores mounted through the kernel, used with `std::fs` and
//! with `ls`, `cat`, `mv` and `rm`, and the versions checked through the facade afterwards.
//!
//! Where `/dev/fuse` cannot be opened or the kernel refuses the mount for lack of permission,
//! each test says so and passes; with the environment variable `CI` set (as `.ci/run` runs) it
//! fails instead. A guard unmounts (`fusermount3 -u`, then the library's lazy detach) even when
//! a test fails.

#![cfg(target_os = "linux")]

mod mount;
