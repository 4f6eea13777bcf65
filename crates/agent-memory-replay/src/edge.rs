//! The way to the facades: every operation of the JSON edge goes through
//! [`agent_memory::json::JsonApi`], the entry point a REST host uses, unless a [`Transport`]
//! takes it.

use std::sync::Arc;

use agent_memory::json::{self, Caller, Operation};
use agent_memory::{ApiError, MemoryService, StoreService};
use serde_json::Value;

/// Another way to the same facades for the operations of the JSON edge, such as a REST router
/// on a loopback port: a scenario run through it must answer every line as it does in process.
pub trait Transport {
    /// `operation` for `caller` with `body`, answered as the JSON edge answers it; `None` when
    /// this transport cannot carry it, which leaves it in process.
    fn call(
        &self,
        operation: Operation,
        caller: Caller<'_>,
        body: &Value,
    ) -> Option<Result<Value, ApiError>>;
}

/// Both facades over one backend, and the transport the JSON edge's operations take, if any.
pub(crate) struct Edge {
    pub(crate) service: Arc<MemoryService>,
    /// Memory stores, over the same backend, clock and id generator as `service`.
    pub(crate) stores: Arc<StoreService>,
    pub(crate) transport: Option<Arc<dyn Transport>>,
}

impl Edge {
    /// `operation` for `caller`.
    pub(crate) fn call(
        &self,
        operation: Operation,
        caller: Caller<'_>,
        body: &Value,
    ) -> Result<Value, ApiError> {
        if let Some(answer) = self
            .transport
            .as_ref()
            .and_then(|transport| transport.call(operation, caller, body))
        {
            return answer;
        }
        json::JsonApi::new(&self.service)
            .with_stores(&self.stores)
            .call(operation, caller, body)
    }
}
