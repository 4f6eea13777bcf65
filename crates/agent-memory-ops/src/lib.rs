//! What both products of `agent-memory` share, below both: agent memories (the facade's
//! `MemoryService`) and memory stores (`agent-memory-stores`' `StoreService`) are built on it,
//! and the facade re-exports it whole, so a host never names this crate.
//!
//! - [`ops`]: the [`Operation`](ops::Operation) trait every operation of both products
//!   implements (its service, caller kind, request, response, REST route and MCP tool), the
//!   request [`Body`](ops::Body) an operation reads, and the shorthands the product crates write
//!   their operations with;
//! - [`caller`]: who is calling, one type per caller kind;
//! - [`audit`] and [`clock`]: the governance events a host records and the clock decisions use;
//! - [`fence`]: the model-facing rendering of memories inside fences their content cannot close;
//! - [`cursor`]: the opaque string form of both products' list cursors;
//! - [`internal`]: the one place a storage failure becomes an error answer;
//! - [`telemetry`]: the span every operation runs in and the metrics it counts.
//!
//! # Sealing across crates
//!
//! The traits of [`ops`] are sealed: only the operations, services and callers of this crate
//! and of the two product crates implement them. The seal is the trait [`sealed::Sealed`] of a
//! `#[doc(hidden)]` public module, public only so that the product crates can name it; it is no
//! part of the API, and a type of a host that implements it is outside every promise the
//! facade makes.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod audit;
pub mod caller;
pub mod clock;
pub mod cursor;
pub mod fence;
mod input;
mod internal;
pub mod ops;
pub mod telemetry;

pub use internal::internal;

#[doc(hidden)]
pub mod sealed {
    /// Keeps the operations, services and caller types of the `ops` traits to this crate and the
    /// two product crates (see the crate docs).
    pub trait Sealed {}
}
