//! The backend conformance suite: one set of checks every [`Backend`]
//! runs (quality target R2), so that all backends answer alike.
//!
//! Each check is a public function taking a factory that returns a fresh, empty backend; a check
//! panics on the first divergence. Three groups:
//!
//! - scenario checks of the contract documented on [`Backend`]: remember, supersede and version
//!   numbering, forget by key and by id, purges, retention, scan order, filters and keyset
//!   pages, owner and workspace isolation, settings, refusals and rate windows;
//! - races ([`race_quota_edge`], [`race_rate_limit_edge`], [`race_one_key`],
//!   [`race_one_key_history_follows_commit_order`]): 8 threads at the quota and rate-limit edges
//!   and on one key (quality target R4), the last with callers whose clocks were read before the
//!   backend's step, checked with [`assert_key_history`];
//! - memory stores ([`StoreBackend`]): stores, path-addressed memories and their versions,
//!   the order of refusals, replacing renames, redaction, store deletion, sessions, and
//!   [`race_store_preconditions`] (8 writers on one memory with `content_sha256` preconditions:
//!   no lost update) and [`race_store_reads_see_whole_steps`] (readers against a writer: every
//!   read is one consistent view);
//! - [`model_matches_backend`] (agent memories) and [`store_model_matches_backend`] (memory
//!   stores): proptest model-based tests that apply random operation sequences to the backend
//!   and to a plain reference model and compare every answer. Each runs [`cases_from_env`]
//!   cases: `CONFORMANCE_CASES`, or 1,000 by default.
//!
//! A backend's integration tests generate one `#[test]` per check with [`conformance_tests!`]:
//!
//! ```
//! mod in_memory {
//!     store_conformance::conformance_tests!(store_kv::InMemoryBackend::new);
//! }
//! ```
//!
//! or run everything in one test with [`run_all`]. A durable backend's factory returns the
//! backend together with its temporary directory in a [`Guarded`].
//!
//! The durable backends' tests run more checks of their own, in `store-durable-suite`: the crash
//! test, the vacuum's erasure and the fixture history of the format upgrades.
//!
//! [`Backend`]: store_trait::Backend
//! [`conformance_tests!`]: crate::conformance_tests

mod fixture;
mod guarded;
mod model;
mod race;
mod scans;
mod scenarios;
mod store_fixture;
mod store_model;
mod store_races;
mod stores;

pub use fixture::cases_from_env;
pub use guarded::Guarded;
pub use model::{model_matches_backend, model_matches_backend_with};
pub use race::{
    assert_key_history, race_between_writes_orders_later_commits_after_it, race_one_key,
    race_one_key_history_follows_commit_order, race_quota_edge, race_rate_limit_edge,
};
pub use scans::*;
pub use scenarios::*;
pub use store_model::{store_model_matches_backend, store_model_matches_backend_with};
pub use store_races::*;
pub use stores::*;

use store_trait::{Backend, StoreBackend};

/// Runs every check of the suite against backends made by `make`, in order; panics at the first
/// failing check.
pub fn run_all<B: Backend + StoreBackend>(make: &dyn Fn() -> B) {
    crate::__conformance_checks!(@calls make);
}

/// The one list of checks, used by [`run_all`] and [`conformance_tests!`](crate::conformance_tests).
#[doc(hidden)]
#[macro_export]
macro_rules! __conformance_checks {
    (@emit calls ($make:expr) $($check:ident,)*) => {
        $( $crate::$check($make); )*
    };
    (@emit tests ($make:expr) $($check:ident,)*) => {
        $(
            #[test]
            fn $check() {
                $crate::$check(&$make);
            }
        )*
    };
    (@emit ignored_tests (($reason:literal) $make:expr) $($check:ident,)*) => {
        $(
            #[test]
            #[ignore = $reason]
            fn $check() {
                $crate::$check(&$make);
            }
        )*
    };
    (@$mode:ident $($args:tt)*) => {
        $crate::__conformance_checks!(@emit $mode ($($args)*)
            remember_writes_the_first_version,
            remember_supersedes_and_numbers_versions,
            keyless_versions_are_never_superseded,
            remember_state_counts_the_owner_only,
            refusal_writes_nothing,
            invalid_write_is_rejected_and_writes_nothing,
            forget_key_removes_every_version_and_resets_numbering,
            forget_id_of_a_keyed_version_removes_its_whole_key,
            forget_id_of_a_keyless_version_removes_it_alone,
            purges_keep_numbering_and_resurrect_nothing,
            purge_expired_is_inclusive_and_scoped_to_the_workspace,
            purge_document_and_collection_match_exactly,
            scan_orders_newest_first_with_stable_keyset_pages,
            scan_filters_are_exact,
            scan_valid_at_follows_the_validity_rule,
            expired_versions_are_never_scanned_or_counted,
            owners_are_isolated,
            deletes_are_scoped_and_reset_numbering,
            settings_roundtrip,
            remember_state_holds_the_workspace_settings,
            rate_window_is_pruned_and_kept_per_credential,
            versions_and_set_embedding_touch_only_the_owners_versions,
            race_quota_edge,
            race_rate_limit_edge,
            race_one_key,
            race_one_key_history_follows_commit_order,
            race_between_writes_orders_later_commits_after_it,
            model_matches_backend,
            stores_roundtrip_and_list,
            memory_lifecycle_writes_one_version_per_change,
            refusals_follow_the_order_of_checks,
            replace_renames_onto_a_live_memory_in_one_step,
            redaction_is_irreversible_and_spares_current_versions,
            memories_list_by_path_with_prefix_and_pages,
            store_delete_removes_everything_of_the_store_only,
            sessions_roundtrip_per_workspace,
            passages_roundtrip_per_workspace,
            passage_stamps_move_with_every_change,
            race_store_preconditions,
            race_store_reads_see_whole_steps,
            store_model_matches_backend,
        );
    };
}

/// Generates one `#[test]` function per conformance check, each running it against backends
/// made by the given factory (a path to a function or a closure returning a fresh backend).
///
/// ```
/// mod in_memory {
///     store_conformance::conformance_tests!(|| store_kv::InMemoryBackend::new());
/// }
/// ```
///
/// `conformance_tests!(make, ignore = "needs …: how to provide it")` marks every generated test
/// `#[ignore]` with that reason: for a backend whose server may be absent on a developer's
/// machine. `cargo test` then reports the checks as ignored rather than passed, and
/// `cargo test -- --ignored` runs them, where `make` must fail when the server is missing.
#[macro_export]
macro_rules! conformance_tests {
    ($make:expr) => {
        $crate::__conformance_checks!(@tests $make);
    };
    // A backend that needs an external service (a database server): the tests are ignored
    // unless asked for, so that a machine without the service does not count them as passed.
    ($make:expr, ignore = $reason:literal) => {
        $crate::__conformance_checks!(@ignored_tests ($reason) $make);
    };
}
