//! Detection: finds candidate values in the detection view around hotspots (digit runs, `@`,
//! a standalone `at`) and reports them in original byte offsets.

mod email;
mod iban;
mod keywords;
mod numeric;

use crate::Category;
use crate::view::{View, is_at_word, needs_scan};

/// One detected value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Found {
    /// Start byte offset (inclusive).
    pub(crate) start: usize,
    /// End byte offset (exclusive).
    pub(crate) end: usize,
    /// What was detected.
    pub(crate) category: Category,
    /// False for detections that rest on a context word alone (a bare account number, a short
    /// ID, a Luhn-invalid card after a card word); identifiers are only refused for validated ones.
    pub(crate) validated: bool,
}

/// Collects candidates in the view, in view offsets.
pub(crate) struct Sink {
    found: Vec<Found>,
}

impl Sink {
    fn push(&mut self, start: usize, end: usize, category: Category, validated: bool) {
        debug_assert!(start < end);
        self.found.push(Found {
            start,
            end,
            category,
            validated,
        });
    }
}

/// Appends every candidate in `text` to `out`, in original byte offsets, unmerged.
pub(crate) fn detect(text: &str, out: &mut Vec<Found>) {
    if !needs_scan(text) {
        return;
    }
    let view = View::new(text);
    let s = view.as_str();
    let v = s.as_bytes();
    let mut sink = Sink { found: Vec::new() };
    let mut i = 0;
    while i < v.len() {
        let b = v[i];
        if b.is_ascii_digit() {
            i = numeric::scan_cluster(s, i, &mut sink);
            continue;
        }
        if b == b'@' {
            email::at_sign(s, i, &mut sink);
        } else if (b | 0x20) == b'a' && is_at_word(v, i) {
            email::at_word(s, i, &mut sink);
        }
        i += 1;
    }
    out.extend(sink.found.into_iter().map(|f| {
        let (start, end) = view.original_range(f.start, f.end);
        Found { start, end, ..f }
    }));
}

/// Start of the character that ends at `end` (a character boundary greater than zero).
fn prev_char_start(v: &[u8], end: usize) -> usize {
    let mut p = end - 1;
    while p > 0 && (v[p] & 0xC0) == 0x80 {
        p -= 1;
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn categories(text: &str) -> Vec<(String, Category, bool)> {
        let mut out = Vec::new();
        detect(text, &mut out);
        out.iter()
            .map(|f| (text[f.start..f.end].to_owned(), f.category, f.validated))
            .collect()
    }

    #[test]
    fn reports_original_offsets_through_the_view() {
        let found = categories("tel ０５２－３４５－６７８９.");
        assert!(found.contains(&("０５２－３４５－６７８９".to_owned(), Category::Phone, true)));
    }

    #[test]
    fn nothing_without_hotspots() {
        assert!(categories("plain words only, that and what").is_empty());
    }
}
