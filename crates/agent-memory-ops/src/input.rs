//! A request as an operation receives it: typed, from a Rust caller, or a JSON body, from the
//! JSON edge, or a body that could not be read at all. All three are read at the same point of
//! the order of checks (step 5, after the caller's access is settled) and by the same field
//! rules.

use std::borrow::Cow;

use governance_policy::Request;
use memory_core::{ApiError, ErrorCode};
use serde_json::Value;

/// The request of one operation call, before the operation reads it.
#[derive(Debug)]
pub enum Body<'a, T> {
    /// Built in Rust: the field rules run on it.
    Typed(&'a T),
    /// A JSON body: read with the same field rules, plus JSON types and unknown fields.
    Json(&'a Value),
    /// Bytes that are not JSON, or a query string that is not one: refused at step 5 as a body
    /// that is not a JSON object, once the caller's access is settled. Made by
    /// [`Operation::unreadable`](crate::ops::Operation::unreadable).
    Unreadable(Unreadable),
}

/// Why a [`Body`] could not be read: the invalid-request code of the operation's product.
#[derive(Debug, Clone, Copy)]
pub struct Unreadable(pub(crate) ErrorCode);

impl<'a, T: Request + Clone> Body<'a, T> {
    /// Step 5: the request, validated.
    pub fn read(self) -> Result<Cow<'a, T>, ApiError> {
        match self {
            Body::Typed(request) => request.validate().map(|()| Cow::Borrowed(request)),
            Body::Json(body) => T::from_json(body).map(Cow::Owned),
            Body::Unreadable(Unreadable(code)) => Err(ApiError::new(
                code,
                "the request body must be a JSON object",
            )),
        }
    }
}
