//! A local sentence-embedding model as a [`fusion_rank::Embedder`]: BERT-style
//! sentence-transformers models (such as all-MiniLM-L6-v2) run in-process on the CPU with
//! [candle](https://github.com/huggingface/candle), loaded from a directory on disk.
//!
//! The directory holds the model's `config.json`, `tokenizer.json` and `model.safetensors`.
//! Nothing is downloaded, ever: a missing or malformed file is an [`Error`] naming the file.
//! Each text is tokenized (truncated to the model's maximum length), run through the encoder,
//! mean-pooled over its tokens (attention-masked) and scaled to unit length.
//!
//! ```no_run
//! use std::sync::Arc;
//! use embed_candle::CandleEmbedder;
//! use fusion_rank::Embedder;
//!
//! let model = CandleEmbedder::load("/opt/models/all-MiniLM-L6-v2")?;
//! // The name of the directory and a prefix of the weights' SHA-256: vectors stored under
//! // another id (another model, other weights) are never compared with this model's.
//! println!("{}", model.model_id()); // all-MiniLM-L6-v2@53aa51172d14
//! let v = model.embed("wants answers short and direct, bullet points over prose")?;
//! assert_eq!(v.len(), model.dimension());
//!
//! // A host hands it to the facade:
//! // MemoryService::builder(backend, passages).embedder(Arc::new(model)).build()?;
//! # let _ = Arc::new(model);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The model id
//!
//! [`Embedder::model_id`](fusion_rank::Embedder::model_id) is `NAME@HASH`: `NAME` is the
//! directory's name (its parent's when the directory is called `model`, as in packages that ship
//! one) unless [`CandleEmbedder::load_with_name`] gives one, and `HASH` the first 12 hex digits
//! of the SHA-256 of `model.safetensors`. Other weights give another id, so their vectors are
//! never compared; the same weights under another name also give another id (re-embed, or load
//! with the old name).
//!
//! # Which models
//!
//! BERT encoders (`model_type` `bert` or absent) with mean pooling: the sentence-transformers
//! `1_Pooling/config.json`, when present, must select mean pooling; `sentence_bert_config.json`'s
//! `max_seq_length`, when present, is the truncation length (else the tokenizer's own, else the
//! model's position limit). Other architectures or poolings are refused at load time rather
//! than run wrongly.
//!
//! # Cost
//!
//! Loading reads the weights once into memory (about 90 MB for all-MiniLM-L6-v2). A short query
//! takes a few milliseconds on one core; see `docs/embed-candle.md` for measured figures.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod files;
mod model;

pub use model::CandleEmbedder;

use std::path::PathBuf;

/// The environment variable naming a model directory for the test suites and benchmarks of
/// this workspace (`.ci/run` sets it to all-MiniLM-L6-v2's files).
pub const TEST_MODEL_DIR_VAR: &str = "AGENT_MEMORY_TEST_MODEL_DIR";

/// The model directory that tests should use: `AGENT_MEMORY_TEST_MODEL_DIR`, which must name a
/// directory with the three files.
///
/// Panics, naming `what`, when it is unset or incomplete: the tests that need the model are
/// `#[ignore]`d and run only when asked for (`cargo test -- --ignored`), where a missing model is
/// a failure rather than a skip.
pub fn test_model_dir(what: &str) -> PathBuf {
    let found = std::env::var_os(TEST_MODEL_DIR_VAR).map(PathBuf::from);
    let problem = match &found {
        None => format!("{TEST_MODEL_DIR_VAR} is not set"),
        Some(dir) => match files::missing_file(dir) {
            Some(file) => format!("{} has no {file}", dir.display()),
            None => return dir.clone(),
        },
    };
    panic!(
        "{what} needs the model: {problem} (point it at a directory with config.json, \
         tokenizer.json and model.safetensors, as .ci/run does)"
    );
}

/// Why a model could not be loaded or run. Messages name files, never the text being embedded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The model directory does not exist or is not a directory.
    #[error("the model directory {} does not exist or is not a directory", .dir.display())]
    NotADirectory {
        /// The directory given.
        dir: PathBuf,
    },
    /// One of the required files is missing from the directory.
    #[error(
        "the model directory {} has no {file} (a model directory holds config.json, \
         tokenizer.json and model.safetensors; nothing is downloaded)",
        .dir.display()
    )]
    MissingFile {
        /// The directory given.
        dir: PathBuf,
        /// The missing file's name.
        file: &'static str,
    },
    /// A file could not be read; the I/O error is the [`source`](std::error::Error::source)
    /// (printed by whoever prints the chain, not by this error's `Display`).
    #[error("reading {}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A file could not be parsed, or does not hold what the model needs.
    #[error("{} is not a valid {what}: {message}", .path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// What the file should be ("model config", "tokenizer", "safetensors weights", …).
        what: &'static str,
        /// The parser's or loader's explanation.
        message: String,
    },
    /// The model is valid but not one this crate runs correctly (another architecture, another
    /// pooling).
    #[error("{}: unsupported model: {message}", .path.display())]
    Unsupported {
        /// The file that says so.
        path: PathBuf,
        /// What is unsupported.
        message: String,
    },
    /// Tokenizing or running the model failed for a text (the text is not included).
    #[error("the embedding model failed: {0}")]
    Inference(String),
}
