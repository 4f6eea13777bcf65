//! Detection: finds candidate values in the detection view around hotspots (digit runs, `@`,
//! a standalone `at`) and reports them in original byte offsets.

mod email;
mod iban;
mod ip;
mod keywords;
mod numeric;
mod secret;

use crate::Category;
use crate::view::{View, needs_scan};

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
#[derive(Default)]
pub(crate) struct Sink {
    found: Vec<Found>,
    /// Ranges that are masked whole or not at all: digit groups' values and safe shapes, and
    /// email-address tokens. Any detection that touches one grows to cover it.
    units: Vec<(usize, usize)>,
    /// Scratch space for the digit-group reader.
    chunks: Vec<numeric::Chunk>,
}

impl Sink {
    fn unit(&mut self, start: usize, end: usize) {
        debug_assert!(start < end);
        self.units.push((start, end));
    }

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
    if !needs_scan(text) && !secret::may_hold(text) {
        return;
    }
    let view = View::new(text);
    let s = view.as_str();
    let v = s.as_bytes();
    let mut sink = Sink::default();
    let mut i = 0;
    while i < v.len() {
        let b = v[i];
        if b.is_ascii_digit() {
            i = numeric::scan_group(s, i, view.exotic(), &mut sink);
            continue;
        }
        if (email::STARTS[usize::from(b)] || ((b | 0x20) == b'a' && email::bare_at(v, i)))
            && !(b == b'@' && secret::ends_userinfo(v, i))
        {
            email::at_token(s, i, &mut sink);
        }
        i += 1;
    }
    secret::scan(s, &mut sink);
    ip::scan_v6(v, &mut sink);
    sink.grow_to_units(v);
    out.extend(sink.found.into_iter().map(|f| {
        let (start, end) = view.original_range(f.start, f.end);
        Found { start, end, ..f }
    }));
}

impl Sink {
    /// Grows every detection over each unit it overlaps, and over each run of letters, digits,
    /// `_` and `-` that mixes letters and digits and that it cuts into, until none is cut:
    /// this is what makes a partial mask impossible whatever rule fired.
    fn grow_to_units(&mut self, v: &[u8]) {
        if self.found.is_empty() {
            return;
        }
        // Overlapping units (a digit group inside an address) merge first; growing a detection
        // over the disjoint merged units reaches the same fixed point as growing it unit by
        // unit until nothing changes, with one binary search per detection.
        self.units.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::with_capacity(self.units.len());
        for &(s, e) in &self.units {
            match merged.last_mut() {
                Some(last) if s < last.1 => last.1 = last.1.max(e),
                _ => merged.push((s, e)),
            }
        }
        for f in &mut self.found {
            loop {
                let before = (f.start, f.end);
                let mut k = merged.partition_point(|u| u.1 <= f.start);
                while k < merged.len() && merged[k].0 < f.end {
                    f.start = f.start.min(merged[k].0);
                    f.end = f.end.max(merged[k].1);
                    k += 1;
                }
                if let Some((s, _)) = mixed_token(v, f.start) {
                    f.start = f.start.min(s);
                }
                if let Some((_, e)) = mixed_token(v, f.end - 1) {
                    f.end = f.end.max(e);
                }
                if (f.start, f.end) == before {
                    break;
                }
            }
        }
    }
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// The run of letters, digits, `_` and `-` that holds the byte at `at`, without `_` and `-` at
/// its ends, if it mixes letters and digits: a token that is masked whole or not at all.
fn mixed_token(v: &[u8], at: usize) -> Option<(usize, usize)> {
    if !v.get(at).is_some_and(|&b| is_word(b)) {
        return None;
    }
    let mut s = at;
    while s > 0 && is_word(v[s - 1]) {
        s -= 1;
    }
    let mut e = at + 1;
    while e < v.len() && is_word(v[e]) {
        e += 1;
    }
    while s < e && matches!(v[s], b'-' | b'_') {
        s += 1;
    }
    while e > s && matches!(v[e - 1], b'-' | b'_') {
        e -= 1;
    }
    let t = &v[s..e];
    let mixed = t.iter().any(u8::is_ascii_alphabetic) && t.iter().any(u8::is_ascii_digit);
    (mixed && s <= at && at < e).then_some((s, e))
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
