//! [`TermCounts`]: a text's distinct terms with their counts, sorted, in one buffer — the form a
//! stored version keeps and recall ranks from.

use std::fmt;

/// The distinct terms of one text with how often each occurs, sorted by term (byte order).
///
/// Every constructor sorts the pairs and adds up repeated terms, so the order holds by
/// construction: readers merge against it without checking it first. The terms' text lies in
/// one buffer and their ends and counts in another, two allocations for the whole text instead
/// of one per term: recall reads the counts of hundreds of candidates per call, and terms
/// scattered over the heap of a process holding millions of memories cost a cache miss each.
///
/// Zero counts are kept as given (they match nothing). With the `serde` feature it serializes as
/// `[[term, count], ...]`; reading it back sorts and merges like the constructors.
///
/// ```
/// use fusion_rank::TermCounts;
///
/// let counts = TermCounts::from_pairs([("pear", 1), ("apple", 2), ("pear", 1)]);
/// assert_eq!(counts.iter().collect::<Vec<_>>(), [("apple", 2), ("pear", 2)]);
/// assert_eq!(counts.count("pear"), 2);
/// assert_eq!(counts.count("plum"), 0);
/// ```
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct TermCounts {
    /// Every term's text, one after another in order.
    text: String,
    /// Per term: where its text ends in `text`, and its count.
    entries: Vec<(usize, u32)>,
}

impl TermCounts {
    /// No terms.
    pub fn new() -> Self {
        Self::default()
    }

    /// Counts from `(term, count)` pairs in any order; repeated terms are added up (saturating).
    /// Pairs already strictly ascending, as stored ones are, are copied in one pass.
    pub fn from_pairs<S: AsRef<str>>(pairs: impl IntoIterator<Item = (S, u32)>) -> Self {
        let mut pairs = pairs.into_iter();
        let mut out = TermCounts {
            text: String::new(),
            entries: Vec::with_capacity(pairs.size_hint().0),
        };
        let mut rest = Vec::new();
        for (term, count) in pairs.by_ref() {
            match out.last().map(|last| last.cmp(term.as_ref())) {
                Some(std::cmp::Ordering::Greater) => {
                    rest.push((term.as_ref().to_owned(), count));
                    break;
                }
                Some(std::cmp::Ordering::Equal) => out.add_to_last(count),
                _ => out.push(term.as_ref(), count),
            }
        }
        if rest.is_empty() {
            return out;
        }
        // Out of order: sort everything (stably) and merge.
        let mut all: Vec<(String, u32)> = out.iter().map(|(t, c)| (t.to_owned(), c)).collect();
        all.append(&mut rest);
        all.extend(pairs.map(|(t, c)| (t.as_ref().to_owned(), c)));
        all.sort_by(|a, b| a.0.cmp(&b.0));
        let mut sorted = TermCounts {
            text: String::with_capacity(all.iter().map(|(t, _)| t.len()).sum()),
            entries: Vec::with_capacity(all.len()),
        };
        for (term, count) in &all {
            if sorted.last() == Some(term.as_str()) {
                sorted.add_to_last(*count);
            } else {
                sorted.push(term, *count);
            }
        }
        sorted
    }

    fn push(&mut self, term: &str, count: u32) {
        self.text.push_str(term);
        self.entries.push((self.text.len(), count));
    }

    fn add_to_last(&mut self, count: u32) {
        if let Some((_, total)) = self.entries.last_mut() {
            *total = total.saturating_add(count);
        }
    }

    fn last(&self) -> Option<&str> {
        self.len().checked_sub(1).map(|i| self.term(i))
    }

    /// The text of the `i`-th term (`i < len`).
    fn term(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.entries[i - 1].0 };
        &self.text[start..self.entries[i].0]
    }

    /// Number of distinct terms.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no terms.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The terms with their counts, in ascending term order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            counts: self,
            front: 0,
            back: self.len(),
        }
    }

    /// How often `term` occurs (0 when absent).
    pub fn count(&self, term: &str) -> u32 {
        let (mut low, mut high) = (0, self.len());
        while low < high {
            let mid = low + (high - low) / 2;
            match self.term(mid).cmp(term) {
                std::cmp::Ordering::Less => low = mid + 1,
                std::cmp::Ordering::Greater => high = mid,
                std::cmp::Ordering::Equal => return self.entries[mid].1,
            }
        }
        0
    }

    /// The terms' text and, per term, its end in it and its count: for merges that walk the
    /// terms in order.
    pub(crate) fn parts(&self) -> (&[u8], &[(usize, u32)]) {
        (self.text.as_bytes(), &self.entries)
    }

    /// Bytes of all terms' text together.
    pub fn text_len(&self) -> usize {
        self.text.len()
    }
}

/// The terms of a [`TermCounts`] with their counts, in ascending term order.
#[derive(Debug, Clone)]
pub struct Iter<'a> {
    counts: &'a TermCounts,
    front: usize,
    back: usize,
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a str, u32);

    #[inline]
    fn next(&mut self) -> Option<(&'a str, u32)> {
        if self.front == self.back {
            return None;
        }
        let i = self.front;
        self.front += 1;
        Some((self.counts.term(i), self.counts.entries[i].1))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.front == self.back {
            return None;
        }
        self.back -= 1;
        Some((
            self.counts.term(self.back),
            self.counts.entries[self.back].1,
        ))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<'a> IntoIterator for &'a TermCounts {
    type Item = (&'a str, u32);
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl<S: AsRef<str>> FromIterator<(S, u32)> for TermCounts {
    fn from_iter<I: IntoIterator<Item = (S, u32)>>(pairs: I) -> Self {
        Self::from_pairs(pairs)
    }
}

impl From<Vec<(String, u32)>> for TermCounts {
    fn from(pairs: Vec<(String, u32)>) -> Self {
        Self::from_pairs(pairs)
    }
}

impl fmt::Debug for TermCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for TermCounts {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for TermCounts {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Vec::<(String, u32)>::deserialize(deserializer).map(Self::from_pairs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference: a sorted map of the added-up pairs.
    fn reference(pairs: &[(String, u32)]) -> Vec<(String, u32)> {
        let mut map = std::collections::BTreeMap::<String, u32>::new();
        for (t, c) in pairs {
            let total = map.entry(t.clone()).or_insert(0);
            *total = total.saturating_add(*c);
        }
        map.into_iter().collect()
    }

    proptest::proptest! {
        #[test]
        fn any_pairs_become_the_sorted_merged_counts(
            pairs in proptest::collection::vec(("[ab\\x00é]{0,6}", proptest::prelude::any::<u32>()), 0..40),
            probes in proptest::collection::vec("[ab\\x00é]{0,6}", 0..10),
        ) {
            let counts = TermCounts::from_pairs(pairs.iter().map(|(t, c)| (t.as_str(), *c)));
            let want = reference(&pairs);
            let got: Vec<(String, u32)> = counts.iter().map(|(t, c)| (t.to_owned(), c)).collect();
            proptest::prop_assert_eq!(&got, &want);
            let back: Vec<(String, u32)> =
                counts.iter().rev().map(|(t, c)| (t.to_owned(), c)).collect();
            proptest::prop_assert!(back.iter().rev().eq(want.iter()));
            proptest::prop_assert_eq!(counts.len(), want.len());
            proptest::prop_assert_eq!(counts.text_len(), want.iter().map(|(t, _)| t.len()).sum::<usize>());
            for p in probes.iter().chain(pairs.iter().map(|(t, _)| t)) {
                let want = want.iter().find(|(t, _)| t == p).map_or(0, |(_, c)| *c);
                proptest::prop_assert_eq!(counts.count(p), want);
            }
            // Sorted input is taken as it is, and gives the same value.
            proptest::prop_assert_eq!(TermCounts::from_pairs(got), counts);
        }
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serializes_as_pairs_and_reading_sorts_and_merges() -> serde_json::Result<()> {
        let counts = TermCounts::from_pairs([("b", 2), ("a", 1)]);
        let json = serde_json::to_string(&counts)?;
        assert_eq!(json, r#"[["a",1],["b",2]]"#);
        assert_eq!(serde_json::from_str::<TermCounts>(&json)?, counts);
        let edited: TermCounts = serde_json::from_str(r#"[["b",1],["a",1],["b",1]]"#)?;
        assert_eq!(edited, counts);
        Ok(())
    }

    #[test]
    fn empty_and_debug() {
        let none = TermCounts::new();
        assert!(none.is_empty());
        assert_eq!(none.count(""), 0);
        assert_eq!(format!("{none:?}"), "[]");
        let one = TermCounts::from_pairs([("", 0)]);
        assert_eq!(one.count(""), 0);
        assert_eq!(one.len(), 1);
        assert_eq!(format!("{one:?}"), r#"[("", 0)]"#);
    }
}
