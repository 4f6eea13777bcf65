//! A request as the facade receives it: typed, from a Rust caller, or a JSON body, from the JSON
//! adapter. Both are read at the same point of the order of checks (step 5, after the caller's
//! access is settled) and by the same field rules.

use std::borrow::Cow;

use governance_policy::Request;
use memory_core::ApiError;
use serde_json::Value;

/// A request before step 5.
pub(crate) enum Input<'a, T: Clone> {
    /// Built in Rust: the field rules run on it.
    Typed(&'a T),
    /// A JSON body: parsed with the same field rules, plus JSON types and unknown fields.
    Json(&'a Value),
}

impl<'a, T: Request + Clone> Input<'a, T> {
    /// Step 5: the request, validated.
    pub(crate) fn read(self) -> Result<Cow<'a, T>, ApiError> {
        match self {
            Input::Typed(request) => request.validate().map(|()| Cow::Borrowed(request)),
            Input::Json(body) => T::from_json(body).map(Cow::Owned),
        }
    }
}
