//! Integration tests of `governance-policy`: the order of checks, request validation, rate limit,
//! quota, retention and context sets, through the public API only.

mod access;
mod budget;
mod context;
mod requests;
