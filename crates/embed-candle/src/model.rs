//! `CandleEmbedder`: the tokenizer and the BERT encoder, mean pooling and L2 normalisation.

use std::fmt;
use std::path::Path;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::BertModel;
use fusion_rank::{EmbedError, Embedder};
use tokenizers::Tokenizer;

use crate::Error;
use crate::files::ModelFiles;

/// A BERT-style sentence-transformers model loaded from a local directory, run on the CPU.
///
/// `Send + Sync`: one instance serves every thread (the facade's embedding workers call it
/// concurrently). The same text always gives the same bits.
pub struct CandleEmbedder {
    model: BertModel,
    tokenizer: Tokenizer,
    model_id: String,
    name: String,
    weights_sha256: String,
    dimension: usize,
    max_length: usize,
}

impl fmt::Debug for CandleEmbedder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CandleEmbedder")
            .field("model_id", &self.model_id)
            .field("dimension", &self.dimension)
            .field("max_length", &self.max_length)
            .finish_non_exhaustive()
    }
}

fn inference(e: candle_core::Error) -> Error {
    Error::Inference(e.to_string())
}

impl CandleEmbedder {
    /// Loads the model in `dir` (`config.json`, `tokenizer.json`, `model.safetensors`); the
    /// model id's name is the directory's.
    ///
    /// # Errors
    ///
    /// [`Error::NotADirectory`], [`Error::MissingFile`], [`Error::Read`], [`Error::Malformed`]
    /// (a file that does not parse, weights that lack a tensor or have the wrong shape) or
    /// [`Error::Unsupported`] (not BERT, not mean pooling).
    pub fn load(dir: impl AsRef<Path>) -> Result<Self, Error> {
        Self::from_files(ModelFiles::read(dir.as_ref(), None)?)
    }

    /// [`CandleEmbedder::load`] with `name` in the model id instead of the directory's name
    /// (for a model that moved to a directory of another name).
    ///
    /// # Errors
    ///
    /// As [`CandleEmbedder::load`].
    pub fn load_with_name(dir: impl AsRef<Path>, name: &str) -> Result<Self, Error> {
        Self::from_files(ModelFiles::read(dir.as_ref(), Some(name))?)
    }

    fn from_files(files: ModelFiles) -> Result<Self, Error> {
        let model_id = files.model_id();
        let ModelFiles {
            config,
            tokenizer,
            weights,
            weights_path,
            weights_sha256,
            max_length,
            name,
        } = files;
        let malformed = |e: candle_core::Error| Error::Malformed {
            path: weights_path.clone(),
            what: "safetensors weights file for this config",
            message: e.to_string(),
        };
        // The weights are read into memory, not mapped: mapping a file is `unsafe` (another
        // process could change it underneath), and this workspace forbids unsafe code.
        let vars = VarBuilder::from_buffered_safetensors(weights, DType::F32, &Device::Cpu)
            .map_err(malformed)?;
        let model = BertModel::load(vars, &config).map_err(malformed)?;
        Ok(CandleEmbedder {
            model,
            tokenizer,
            model_id,
            name,
            weights_sha256,
            dimension: config.hidden_size,
            max_length,
        })
    }

    /// The model id: `NAME@` and 12 hex digits of the weights' SHA-256.
    pub fn model_id(&self) -> &str {
        &self.model_id
    }

    /// The name part of the model id.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The SHA-256 of `model.safetensors`, 64 lowercase hex digits.
    pub fn weights_sha256(&self) -> &str {
        &self.weights_sha256
    }

    /// Number of dimensions of every vector (the model's hidden size).
    pub fn dimension(&self) -> usize {
        self.dimension
    }

    /// Tokens per text, special tokens included; longer texts are truncated.
    pub fn max_length(&self) -> usize {
        self.max_length
    }

    /// Token ids of `text`, truncated to [`max_length`](Self::max_length).
    fn token_ids(&self, text: &str) -> Result<Vec<u32>, Error> {
        // The tokenizer's message could quote the input: report a fixed one.
        let encoding = self
            .tokenizer
            .encode_fast(text, true)
            .map_err(|_| Error::Inference("tokenization failed".into()))?;
        Ok(encoding.get_ids().to_vec())
    }

    /// The unit-length embedding of `text`.
    ///
    /// # Errors
    ///
    /// [`Error::Inference`] when tokenization or the forward pass fails.
    pub fn embed_one(&self, text: &str) -> Result<Vec<f32>, Error> {
        let ids = self.token_ids(text)?;
        let mut vectors = self.forward(&[ids])?;
        Ok(vectors.pop().unwrap_or_default())
    }

    /// The unit-length embeddings of `texts`, computed together (padded to the longest, with
    /// an attention mask): faster per text than one call each for bulk work such as
    /// re-embedding. Equal to [`embed_one`](Self::embed_one) up to float rounding, not bit for
    /// bit; store vectors from one or the other consistently if bit-equality matters.
    ///
    /// # Errors
    ///
    /// As [`embed_one`](Self::embed_one).
    pub fn embed_batch(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, Error> {
        let ids = texts
            .iter()
            .map(|t| self.token_ids(t))
            .collect::<Result<Vec<_>, _>>()?;
        self.forward(&ids)
    }

    /// Encoder, attention-masked mean pooling and L2 normalisation of tokenized texts.
    fn forward(&self, batch: &[Vec<u32>]) -> Result<Vec<Vec<f32>>, Error> {
        if batch.is_empty() {
            return Ok(Vec::new());
        }
        let width = batch.iter().map(Vec::len).max().unwrap_or(0).max(1);
        let mut ids = Vec::with_capacity(batch.len() * width);
        let mut mask = Vec::with_capacity(batch.len() * width);
        for text in batch {
            ids.extend_from_slice(text);
            mask.extend(std::iter::repeat_n(1u32, text.len()));
            // Padding: token 0 (BERT's [PAD]) with mask 0, excluded from attention and pooling.
            ids.extend(std::iter::repeat_n(0u32, width - text.len()));
            mask.extend(std::iter::repeat_n(0u32, width - text.len()));
        }
        let device = &self.model.device;
        let shape = (batch.len(), width);
        let ids = Tensor::from_vec(ids, shape, device).map_err(inference)?;
        let mask = Tensor::from_vec(mask, shape, device).map_err(inference)?;
        let token_types = ids.zeros_like().map_err(inference)?;
        let hidden = self
            .model
            .forward(&ids, &token_types, Some(&mask))
            .map_err(inference)?;
        // Mean over the real tokens: Σ hidden · mask / Σ mask.
        let mask = mask
            .to_dtype(DType::F32)
            .and_then(|m| m.unsqueeze(2))
            .map_err(inference)?;
        let summed = hidden
            .broadcast_mul(&mask)
            .and_then(|h| h.sum(1))
            .map_err(inference)?;
        let counts = mask
            .sum(1)
            .and_then(|c| c.clamp(1f32, f32::MAX))
            .map_err(inference)?;
        let mean = summed.broadcast_div(&counts).map_err(inference)?;
        let mut vectors = mean.to_vec2::<f32>().map_err(inference)?;
        for v in &mut vectors {
            fusion_rank::normalize(v);
        }
        Ok(vectors)
    }
}

impl Embedder for CandleEmbedder {
    fn model_id(&self) -> &str {
        &self.model_id
    }

    fn embed(&self, text: &str) -> Result<Vec<f32>, EmbedError> {
        self.embed_one(text)
            .map_err(|e| EmbedError::Failed(e.to_string()))
    }
}
