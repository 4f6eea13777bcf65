//! The scenario's embedder: the chosen model behind a switch that `embedder.set` lines flip, so
//! that scenarios can make the semantic stage slow or failing.

use std::sync::Arc;

use serde::Deserialize;

/// How the replay embedder answers (`embedder.set`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum EmbedderMode {
    /// The offline hashing embedder.
    Normal,
    /// Blocks for 5 s before answering: the semantic budget must cut it off.
    Slow,
    /// Fails every call.
    Failing,
}

/// The chosen embedder (the hashing one unless the runner was given another) behind a switch
/// that scenarios flip with `embedder.set`.
pub(crate) struct ReplayEmbedder {
    /// 0 normal, 1 slow, 2 failing.
    mode: std::sync::atomic::AtomicU8,
    inner: Arc<dyn agent_memory::Embedder>,
}

impl ReplayEmbedder {
    /// The chosen embedder, answering `normal`ly.
    pub(crate) fn new(inner: Arc<dyn agent_memory::Embedder>) -> Self {
        ReplayEmbedder {
            mode: Default::default(),
            inner,
        }
    }

    /// Switches how it answers from now on.
    pub(crate) fn set(&self, mode: EmbedderMode) {
        let value = match mode {
            EmbedderMode::Normal => 0,
            EmbedderMode::Slow => 1,
            EmbedderMode::Failing => 2,
        };
        self.mode.store(value, std::sync::atomic::Ordering::SeqCst);
    }
}

impl agent_memory::Embedder for ReplayEmbedder {
    fn model_id(&self) -> &str {
        self.inner.model_id()
    }

    fn understands_meaning(&self) -> bool {
        self.inner.understands_meaning()
    }

    fn embed(&self, text: &str) -> Result<Vec<f32>, agent_memory::EmbedError> {
        match self.mode.load(std::sync::atomic::Ordering::SeqCst) {
            0 => {}
            1 => std::thread::sleep(std::time::Duration::from_secs(5)),
            _ => {
                return Err(agent_memory::EmbedError::Failed(
                    "the replay embedder is set to fail".into(),
                ));
            }
        }
        self.inner.embed(text)
    }
}
