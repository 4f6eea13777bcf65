//! Deterministic input generators shared by the criterion benchmarks.
//!
//! Every input is derived from a fixed seed so that runs on different days measure the same
//! bytes; the generators live here (not in the bench files) so they can be unit-tested.

pub mod world;

/// A small, fast, seedable generator (SplitMix64): good enough to vary benchmark inputs, and
/// dependency-free so that benchmark inputs never change with a crate upgrade.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator whose sequence is fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 pseudo-random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// One element of `items`.
    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const WORDS: &[&str] = &[
    "the",
    "user",
    "prefers",
    "short",
    "answers",
    "with",
    "bullet",
    "points",
    "over",
    "prose",
    "meeting",
    "notes",
    "that",
    "project",
    "deadline",
    "moved",
    "what",
    "review",
    "design",
    "quarterly",
    "report",
    "draft",
    "format",
    "summary",
    "tone",
    "direct",
    "formal",
    "latest",
    "customer",
    "feedback",
    "about",
    "onboarding",
    "flow",
    "chart",
    "data",
    "later",
    "team",
    "weekly",
    "sync",
    "priorities",
    "release",
    "plan",
    "backlog",
    "grooming",
    "attention",
    "status",
    "update",
    "translate",
    "Hebrew",
    "Japanese",
    "context",
    "catalog",
    "platform",
];

/// English-like prose of exactly `len` bytes with no digits, no `@` and no standalone "at"
/// (words such as "that", "what" and "attention" are included on purpose: they contain "at").
pub fn clean_prose(seed: u64, len: usize) -> String {
    let mut rng = SplitMix64::new(seed);
    let mut out = String::with_capacity(len + 16);
    while out.len() < len {
        if !out.is_empty() {
            out.push_str(if rng.below(12) == 0 { ". " } else { " " });
        }
        out.push_str(rng.pick(WORDS));
    }
    out.truncate(len);
    out
}

/// Personal values of every category, each valid for its validator.
const PII: &[&str] = &[
    "050-123-4567",
    "dana.levi@example.co.il",
    "+972 52-345-6789",
    "4111 1111 1111 1111",
    "IL620108000000099999999",
    "123456782",
    "10-800-99999999",
    "(212) 555-0147",
    "contact dana[at]gmail[dot]com",
    "1234567890123",
];

/// Text of exactly `len` bytes with at least one personal value per `every` bytes, mixed with
/// prose, dates and version numbers that must stay.
pub fn dense_pii(seed: u64, len: usize, every: usize) -> String {
    let mut rng = SplitMix64::new(seed);
    let mut out = String::with_capacity(len + 64);
    let mut next_pii = 0;
    while out.len() < len {
        if out.len() >= next_pii {
            out.push_str(rng.pick(PII));
            out.push(' ');
            next_pii += every;
        } else {
            out.push_str(rng.pick(&["on", "2024-03-15", "v10.4.12", "call", "mail", "ok", "note"]));
            out.push(' ');
        }
    }
    // Cut on a char boundary at or below `len`; every generated piece is ASCII.
    out.truncate(len);
    out
}

/// A memory-store file of about `len` bytes: prose paragraphs with a personal value every few
/// hundred bytes, as a realistic notes file looks.
pub fn store_file(seed: u64, len: usize) -> String {
    let mut rng = SplitMix64::new(seed);
    let mut out = String::with_capacity(len + 128);
    while out.len() < len {
        out.push_str(&clean_prose(rng.next_u64(), 200 + rng.below(200)));
        out.push_str(". ");
        out.push_str(rng.pick(PII));
        out.push_str(".\n");
    }
    out.truncate(len);
    out
}

/// Syllables from which [`vocabulary`] builds its words.
const SYLLABLES: &[&str] = &[
    "ka", "lo", "mi", "ren", "tu", "sa", "vi", "no", "dre", "pa", "qu", "el", "or", "in", "ba",
    "to", "shi", "mar", "en", "gu",
];

/// `size` distinct lowercase words of two to four syllables, fixed by `seed`.
pub fn vocabulary(seed: u64, size: usize) -> Vec<String> {
    let mut rng = SplitMix64::new(seed);
    let mut words: Vec<String> = Vec::with_capacity(size);
    let mut seen = std::collections::HashSet::new();
    while words.len() < size {
        let syllables = 2 + rng.below(3);
        let word: String = (0..syllables).map(|_| rng.pick(SYLLABLES)).collect();
        if seen.insert(word.clone()) {
            words.push(word);
        }
    }
    words
}

/// A word index with a Zipf-like (log-uniform) distribution: index `r` is drawn with
/// probability roughly proportional to `1 / (r + 1)`, as word frequencies in prose are.
fn zipf_index(rng: &mut SplitMix64, size: usize) -> usize {
    let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let r = (size as f64 + 1.0).powf(u) - 1.0;
    (r as usize).min(size - 1)
}

/// `count` texts of `words` words each over `vocabulary`, word frequencies Zipf-like: the
/// candidate set of the recall benchmarks (P4, P5).
pub fn recall_texts(seed: u64, vocabulary: &[String], count: usize, words: usize) -> Vec<String> {
    let mut rng = SplitMix64::new(seed);
    (0..count)
        .map(|_| {
            let mut text = String::new();
            for i in 0..words {
                if i > 0 {
                    text.push(' ');
                }
                text.push_str(&vocabulary[zipf_index(&mut rng, vocabulary.len())]);
            }
            text
        })
        .collect()
}

/// A query of words of falling frequency (ranks 3, 30, 120 and 400 of the vocabulary's Zipf
/// order), so that it matches many, some and few candidates.
pub fn recall_query(vocabulary: &[String]) -> String {
    [3, 30, 120, 400]
        .iter()
        .map(|&r| vocabulary[r.min(vocabulary.len() - 1)].as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// For each of `count` candidates, zero to three entity ids out of `pool` (such as `ent:17`).
pub fn entity_lists(seed: u64, count: usize, pool: usize) -> Vec<Vec<String>> {
    let mut rng = SplitMix64::new(seed);
    (0..count)
        .map(|_| {
            (0..rng.below(4))
                .map(|_| format!("ent:{}", rng.below(pool)))
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generators_are_deterministic_and_sized() {
        assert_eq!(clean_prose(7, 1024), clean_prose(7, 1024));
        assert_eq!(clean_prose(7, 1024).len(), 1024);
        assert_eq!(dense_pii(7, 1024, 60).len(), 1024);
        assert_eq!(store_file(7, 100 * 1024).len(), 100 * 1024);
    }

    #[test]
    fn clean_prose_contains_nothing_the_masker_replaces() {
        let text = clean_prose(1, 4096);
        assert_eq!(pii_mask::mask(&text).text, text);
    }

    #[test]
    fn dense_text_has_a_personal_value_at_least_every_sixty_bytes() {
        let text = dense_pii(3, 1024, 60);
        let masked = pii_mask::mask(&text);
        assert!(
            masked.spans.len() >= 1024 / 60,
            "{} spans",
            masked.spans.len()
        );
    }
    #[test]
    fn recall_inputs_are_deterministic_and_shaped_like_memories() {
        // The seeds of the P4 and P5 benchmarks.
        let vocabulary = vocabulary(0x5EED_0004, 2000);
        assert_eq!(vocabulary, super::vocabulary(0x5EED_0004, 2000));
        let texts = recall_texts(0x5EED_0005, &vocabulary, 300, 40);
        assert_eq!(texts, recall_texts(0x5EED_0005, &vocabulary, 300, 40));
        assert_eq!(texts.len(), 300);
        assert!(texts.iter().all(|t| t.split(' ').count() == 40));
        // Every query word occurs, the most frequent in many texts and the rarest in a few.
        let query = recall_query(&vocabulary);
        let containing = |w: &str| {
            texts
                .iter()
                .filter(|t| t.split(' ').any(|x| x == w))
                .count()
        };
        let counts: Vec<usize> = query.split(' ').map(containing).collect();
        assert!(counts.iter().all(|&n| n > 0), "{counts:?}");
        assert!(counts[0] > counts[3], "{counts:?}");
        assert_eq!(
            entity_lists(0x5EED_0006, 300, 50),
            entity_lists(0x5EED_0006, 300, 50)
        );
    }
}
