//! Integration tests of `citation-verify`: write-time resolution, read-time verification with one
//! batched lookup, and the in-memory source's document and collection events.

mod resolve;
mod support;
mod verify;
