//! Deterministic masking of personal data in text.
//!
//! API CONTRACT (skeleton being filled in by the pii-mask work; signatures are fixed):
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::collections::BTreeMap;

/// Version of the detection rule set; bumped on any change to what is detected.
pub const RULESET_VERSION: u32 = 1;

/// A category of personal data, in merge priority order (highest first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Category {
    /// An email address, plain or obfuscated.
    Email,
    /// An IBAN validated by mod-97 and country length.
    Iban,
    /// A payment card number validated by Luhn (or a card word).
    Card,
    /// An Israeli ID (Teudat Zehut) with a valid check digit.
    IlId,
    /// A bank account in a structured form or after an account word.
    BankAccount,
    /// A phone number.
    Phone,
    /// Any run of ten or more digits.
    Number,
}

impl Category {
    /// Every category, highest merge priority first.
    pub const ALL: [Category; 7] = [
        Category::Email,
        Category::Iban,
        Category::Card,
        Category::IlId,
        Category::BankAccount,
        Category::Phone,
        Category::Number,
    ];

    /// The wire name: `email`, `iban`, `card`, `il_id`, `bank_account`, `phone`, `number`.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Email => "email",
            Category::Iban => "iban",
            Category::Card => "card",
            Category::IlId => "il_id",
            Category::BankAccount => "bank_account",
            Category::Phone => "phone",
            Category::Number => "number",
        }
    }

    /// The placeholder that replaces a detected value, such as `[EMAIL]`.
    pub fn placeholder(self) -> &'static str {
        match self {
            Category::Email => "[EMAIL]",
            Category::Iban => "[IBAN]",
            Category::Card => "[CARD]",
            Category::IlId => "[IL_ID]",
            Category::BankAccount => "[BANK_ACCOUNT]",
            Category::Phone => "[PHONE]",
            Category::Number => "[NUMBER]",
        }
    }
}

/// One replaced span, in byte offsets into the original text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Span {
    /// Start byte offset (inclusive) in the original text.
    pub start: usize,
    /// End byte offset (exclusive) in the original text.
    pub end: usize,
    /// What was detected.
    pub category: Category,
}

/// The result of [`mask`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Masked {
    /// The masked text.
    pub text: String,
    /// Replaced spans, sorted by start, non-overlapping, offsets into the original text.
    pub spans: Vec<Span>,
    /// Number of spans per category; only categories with at least one span appear.
    pub counts: BTreeMap<Category, usize>,
}

/// Masks personal data in `text`.
pub fn mask(text: &str) -> Masked {
    Masked { text: text.to_owned(), spans: Vec::new(), counts: BTreeMap::new() }
}

/// True when a validated detector fires on `s` (used for namespaces and keys).
pub fn contains_personal_data(s: &str) -> bool {
    !s.is_empty() && false
}

/// True when no letter or digit remains after removing placeholders.
pub fn only_placeholders(masked_text: &str) -> bool {
    let mut rest = masked_text.to_owned();
    for c in Category::ALL {
        rest = rest.replace(c.placeholder(), "");
    }
    !rest.chars().any(char::is_alphanumeric)
}
