//! The per-text term statistics BM25 reads: computed once at write time from the analyzer's
//! terms ([`crate::analyze`]) and stored, then borrowed by every query.

use crate::TermCounts;
use crate::hash::hash;

/// Term frequencies and length of one text: what BM25 needs from a candidate.
///
/// Compute it once when the text is written ([`TermStats::from_text`]) and store it next to the
/// text, so that ranking never tokenizes a candidate. With the `serde` feature it serializes as
/// `{ "terms": [[term, count], ...], "length": n }`; reading it back restores the order and
/// merges repeated terms, so a hand-edited store cannot break lookups.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(from = "StoredTermStats", into = "StoredTermStats")
)]
pub struct TermStats {
    /// Distinct terms with their counts, sorted by term (byte order).
    terms: Vec<(String, u32)>,
    /// `prefix` of each term, in the same order: lookups scan these integers and touch a
    /// term's text only on a prefix match.
    keys: Vec<u64>,
    /// Bloom filter of the terms (two bits each), so that most absent query terms cost a few
    /// bit tests instead of a search.
    filter: Filter,
    length: u32,
}

/// 256 bits: with the ~40 distinct terms of a memory, a false positive rate of about 6 %.
type Filter = [u64; 4];

/// The two filter bits of a term.
fn filter_bits(term: &[u8]) -> [u32; 2] {
    let h = hash(b'f', term);
    [(h & 0xff) as u32, ((h >> 8) & 0xff) as u32]
}

/// The stored form of [`TermStats`]: what is derived from it (the lookup keys) is not stored.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct StoredTermStats {
    terms: Vec<(String, u32)>,
    length: u32,
}

#[cfg(feature = "serde")]
impl From<StoredTermStats> for TermStats {
    fn from(stored: StoredTermStats) -> Self {
        TermStats::from_counts(stored.terms, stored.length)
    }
}

#[cfg(feature = "serde")]
impl From<TermStats> for StoredTermStats {
    fn from(stats: TermStats) -> Self {
        StoredTermStats {
            terms: stats.terms,
            length: stats.length,
        }
    }
}

impl TermStats {
    /// Analyzes `text` (see [`analyze`](crate::analyze)) and counts its terms.
    pub fn from_text(text: &str) -> Self {
        Self::from_tokens(crate::analyze(text))
    }

    /// Counts already tokenized terms.
    pub fn from_tokens(tokens: Vec<String>) -> Self {
        let length = u32::try_from(tokens.len()).unwrap_or(u32::MAX);
        Self::from_counts(tokens.into_iter().map(|t| (t, 1)).collect(), length)
    }

    /// Statistics from `(term, count)` pairs in any order (repeated terms are added up) and the
    /// text's length in terms.
    pub fn from_counts(mut counts: Vec<(String, u32)>, length: u32) -> Self {
        counts.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut terms: Vec<(String, u32)> = Vec::with_capacity(counts.len());
        for (term, count) in counts {
            match terms.last_mut() {
                Some((last, total)) if *last == term => *total = total.saturating_add(count),
                _ => terms.push((term, count)),
            }
        }
        let keys = terms.iter().map(|(t, _)| prefix(t.as_bytes())).collect();
        let mut filter = Filter::default();
        for (term, _) in &terms {
            for bit in filter_bits(term.as_bytes()) {
                filter[(bit / 64) as usize] |= 1 << (bit % 64);
            }
        }
        TermStats {
            terms,
            keys,
            filter,
            length,
        }
    }

    /// Distinct terms with their counts, sorted by term (byte order).
    pub fn terms(&self) -> &[(String, u32)] {
        &self.terms
    }

    /// Number of terms in the text, repeats included.
    pub fn length(&self) -> u32 {
        self.length
    }

    /// The stored form: `(terms with counts, length)`; [`TermStats::from_counts`] restores it,
    /// and [`Terms::from_term_counts`] ranks from it as it is.
    pub fn into_counts(self) -> (TermCounts, u32) {
        (TermCounts::from_pairs(self.terms), self.length)
    }

    /// How often `term` occurs (0 when absent).
    pub fn frequency(&self, term: &str) -> u32 {
        self.frequency_of(&Probe::new(term))
    }

    /// [`TermStats::frequency`] with the probe's key and filter bits computed once per query.
    ///
    /// Most query terms are absent from most candidates: the filter answers those. Otherwise a
    /// scan of the sorted keys (a few cache lines, read in order) finds the term or passes it;
    /// a term's text is compared only when its key matches.
    #[inline]
    pub(crate) fn frequency_of(&self, probe: &Probe<'_>) -> u32 {
        let present = probe
            .bits
            .iter()
            .all(|&bit| self.filter[(bit / 64) as usize] & (1 << (bit % 64)) != 0);
        if !present {
            return 0;
        }
        for (i, &key) in self.keys.iter().enumerate() {
            if key >= probe.prefix {
                if key > probe.prefix {
                    break;
                }
                let (term, count) = &self.terms[i];
                // Up to eight bytes, the key and the length say it all; skip the comparison.
                let same = if probe.bytes.len() <= 8 {
                    term.len() == probe.bytes.len()
                } else {
                    term.as_bytes() == probe.bytes
                };
                if same {
                    return *count;
                }
            }
        }
        0
    }
}

/// The term statistics a [`Candidate`](crate::Candidate) borrows: a [`TermStats`], stored
/// [`TermCounts`], or stored `(term, count)` pairs already in the order [`TermStats::terms`]
/// keeps them.
///
/// The borrowed forms let a caller that stores [`TermStats::into_counts`] rank straight from its
/// stored records: rebuilding a `TermStats` per candidate per query copied every term and cost
/// more than the ranking itself. [`TermCounts`] are sorted by construction, so borrowing them
/// checks nothing, and their terms lie in one buffer.
#[derive(Debug, Clone, Copy)]
pub struct Terms<'a>(TermsRepr<'a>);

#[derive(Debug, Clone, Copy)]
enum TermsRepr<'a> {
    Stats(&'a TermStats),
    Sorted {
        terms: &'a [(String, u32)],
        length: u32,
    },
    Counts {
        counts: &'a TermCounts,
        length: u32,
    },
}

impl<'a> Terms<'a> {
    /// Borrows `(term, count)` pairs strictly ascending by term (byte order, so each term once)
    /// with the text's length; `None` when they are not, and the caller should build a
    /// [`TermStats`] with [`TermStats::from_counts`] instead.
    pub fn from_sorted(terms: &'a [(String, u32)], length: u32) -> Option<Self> {
        // One pass computing each term's key once (comparing pairs computed every key twice,
        // and this check runs for every candidate of every recall). The keys decide almost
        // every pair without a call to compare the bytes.
        let mut previous: Option<(u64, &[u8])> = None;
        for (term, _) in terms {
            let bytes = term.as_bytes();
            let key = prefix(bytes);
            if let Some((before, before_bytes)) = previous {
                let ascending = match before.cmp(&key) {
                    std::cmp::Ordering::Equal => before_bytes < bytes,
                    order => order.is_lt(),
                };
                if !ascending {
                    return None;
                }
            }
            previous = Some((key, bytes));
        }
        Some(Terms(TermsRepr::Sorted { terms, length }))
    }

    /// Borrows stored [`TermCounts`] with the text's length; nothing is checked or copied.
    pub fn from_term_counts(counts: &'a TermCounts, length: u32) -> Self {
        Terms(TermsRepr::Counts { counts, length })
    }

    /// A text's length without its terms: for callers that rank BM25 from posting lists
    /// ([`bm25_postings`](crate::bm25_postings)), which need only each candidate's length.
    pub fn length_only(length: u32) -> Terms<'static> {
        Terms(TermsRepr::Sorted { terms: &[], length })
    }

    /// Number of terms in the text, repeats included.
    pub fn length(&self) -> u32 {
        match self.0 {
            TermsRepr::Stats(stats) => stats.length,
            TermsRepr::Sorted { length, .. } | TermsRepr::Counts { length, .. } => length,
        }
    }

    /// How often `term` occurs (0 when absent).
    pub fn frequency(&self, term: &str) -> u32 {
        self.frequency_of(&Probe::new(term))
    }

    /// [`Terms::frequency`] with the probe computed once per query.
    #[inline]
    pub(crate) fn frequency_of(&self, probe: &Probe<'_>) -> u32 {
        match self.0 {
            TermsRepr::Stats(stats) => stats.frequency_of(probe),
            TermsRepr::Sorted { terms, .. } => terms
                .binary_search_by(|(t, _)| probe.cmp_term(t.as_bytes()).reverse())
                .map_or(0, |i| terms[i].1),
            TermsRepr::Counts { counts, .. } => {
                let (text, entries) = counts.parts();
                let mut start = 0;
                for &(end, count) in entries {
                    match probe.cmp_term(&text[start..end]) {
                        std::cmp::Ordering::Greater => start = end,
                        std::cmp::Ordering::Equal => return count,
                        std::cmp::Ordering::Less => return 0,
                    }
                }
                0
            }
        }
    }
}

impl Terms<'_> {
    /// Writes the frequency of each of `probes` into `row` (same order). `by_term` lists the
    /// indices of `probes` in ascending term order ([`Probe::order`]): borrowed sorted counts
    /// are then read in one merge pass of cheap key comparisons instead of one binary search
    /// per probe, whose mispredicted branches cost most of a query's BM25.
    #[inline]
    pub(crate) fn frequencies(&self, probes: &[Probe<'_>], by_term: &[usize], row: &mut [u32]) {
        match self.0 {
            TermsRepr::Stats(stats) => {
                for (slot, probe) in row.iter_mut().zip(probes) {
                    *slot = stats.frequency_of(probe);
                }
            }
            TermsRepr::Sorted { terms, .. } => {
                let mut rest = terms;
                for &j in by_term {
                    let probe = &probes[j];
                    while let Some(((term, count), tail)) = rest.split_first() {
                        match probe.cmp_term(term.as_bytes()) {
                            std::cmp::Ordering::Greater => rest = tail,
                            std::cmp::Ordering::Equal => {
                                row[j] = *count;
                                break;
                            }
                            std::cmp::Ordering::Less => {
                                row[j] = 0;
                                break;
                            }
                        }
                    }
                    if rest.is_empty() {
                        row[j] = 0;
                    }
                }
            }
            TermsRepr::Counts { counts, .. } => {
                // One merge pass over the candidate's terms, which lie in one buffer.
                let (text, entries) = counts.parts();
                let (mut i, mut start) = (0, 0);
                for &j in by_term {
                    let probe = &probes[j];
                    row[j] = 0;
                    while let Some(&(end, count)) = entries.get(i) {
                        match probe.cmp_term(&text[start..end]) {
                            std::cmp::Ordering::Greater => {
                                start = end;
                                i += 1;
                            }
                            std::cmp::Ordering::Equal => {
                                row[j] = count;
                                break;
                            }
                            std::cmp::Ordering::Less => break,
                        }
                    }
                }
            }
        }
    }
}

impl<'a> From<&'a TermStats> for Terms<'a> {
    fn from(stats: &'a TermStats) -> Self {
        Terms(TermsRepr::Stats(stats))
    }
}

/// A term to look up in many [`TermStats`], with its key computed once.
pub(crate) struct Probe<'a> {
    bytes: &'a [u8],
    prefix: u64,
    bits: [u32; 2],
}

impl<'a> Probe<'a> {
    pub(crate) fn new(term: &'a str) -> Self {
        Probe {
            bytes: term.as_bytes(),
            prefix: prefix(term.as_bytes()),
            bits: filter_bits(term.as_bytes()),
        }
    }

    /// The probe against a term in byte order; the keys decide almost every pair without a
    /// call to compare the bytes (key order never contradicts byte order, see `prefix`).
    #[inline]
    fn cmp_term(&self, term: &[u8]) -> std::cmp::Ordering {
        self.prefix
            .cmp(&prefix(term))
            .then_with(|| self.bytes.cmp(term))
    }

    /// Indices of `probes` in ascending term order, for [`Terms::frequencies`].
    pub(crate) fn order(probes: &[Probe<'_>]) -> Vec<usize> {
        let mut order: Vec<usize> = (0..probes.len()).collect();
        order.sort_unstable_by(|&a, &b| {
            let (a, b) = (&probes[a], &probes[b]);
            a.prefix.cmp(&b.prefix).then_with(|| a.bytes.cmp(b.bytes))
        });
        order
    }
}

/// The first eight bytes as a big-endian integer, zero-padded.
///
/// Byte order of strings never contradicts the order of their keys (a string that sorts
/// first has a smaller or equal key), so sorted terms have sorted keys.
#[inline]
fn prefix(bytes: &[u8]) -> u64 {
    if let Some(head) = bytes.first_chunk::<8>() {
        return u64::from_be_bytes(*head);
    }
    // Shorter terms: byte by byte, which compiles to a few shifts instead of a copy call.
    bytes
        .iter()
        .enumerate()
        .fold(0, |key, (i, &b)| key | u64::from(b) << (56 - 8 * i))
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #[test]
        fn key_order_never_contradicts_byte_order(
            a in "[a\\x00b]{0,11}",
            b in "[a\\x00b]{0,11}",
        ) {
            if a < b {
                proptest::prop_assert!(prefix(a.as_bytes()) <= prefix(b.as_bytes()));
            }
        }

        #[test]
        fn lookups_agree_with_counting(
            words in proptest::collection::vec("[ab\\x00]{0,10}", 0..40),
            probes in proptest::collection::vec("[ab\\x00]{0,10}", 0..12),
        ) {
            let stats = TermStats::from_tokens(words.clone());
            let (counts, length) = stats.clone().into_counts();
            let stored = Terms::from_term_counts(&counts, length);
            let all: Vec<&String> = probes.iter().chain(&words).collect();
            for p in &all {
                let want = words.iter().filter(|w| w == p).count() as u32;
                proptest::prop_assert_eq!(stats.frequency(p), want);
                proptest::prop_assert_eq!(stored.frequency(p), want);
            }
            // The merge of every probe at once reads the same counts, repeated probes included.
            let probes: Vec<Probe<'_>> = all.iter().map(|p| Probe::new(p)).collect();
            let order = Probe::order(&probes);
            let (mut merged, mut searched) = (vec![9; probes.len()], vec![9; probes.len()]);
            stored.frequencies(&probes, &order, &mut merged);
            Terms::from(&stats).frequencies(&probes, &order, &mut searched);
            proptest::prop_assert_eq!(&merged, &searched);
            proptest::prop_assert_eq!(stored.length(), stats.length());
        }
    }

    #[test]
    fn term_stats_count_and_sort() {
        let stats = TermStats::from_text("b d b c B");
        assert_eq!(stats.length(), 5);
        assert_eq!(
            stats.terms(),
            [
                ("b".to_owned(), 3),
                ("c".to_owned(), 1),
                ("d".to_owned(), 1)
            ]
        );
        // Terms are the analyzer's: function words dropped, words stemmed.
        assert_eq!(
            TermStats::from_text("The dogs were running").terms(),
            [("dog".to_owned(), 1), ("run".to_owned(), 1)]
        );
        let stats = TermStats::from_tokens(["b", "a", "b", "c", "b"].map(str::to_owned).to_vec());
        assert_eq!(
            stats.terms(),
            [
                ("a".to_owned(), 1),
                ("b".to_owned(), 3),
                ("c".to_owned(), 1)
            ]
        );
        assert_eq!(stats.frequency("b"), 3);
        assert_eq!(stats.frequency("z"), 0);
        assert_eq!(TermStats::from_text("[EMAIL]"), TermStats::default());
        let (counts, length) = stats.clone().into_counts();
        let pairs = counts.iter().map(|(t, c)| (t.to_owned(), c)).collect();
        assert_eq!(TermStats::from_counts(pairs, length), stats);
        let merged =
            TermStats::from_counts(vec![("b".into(), 2), ("a".into(), 1), ("b".into(), 1)], 4);
        assert_eq!(merged, stats_of(&["a", "b", "b", "b"]));
    }

    #[cfg(feature = "serde")]
    #[test]
    fn stored_form_is_terms_and_length_and_reading_restores_order() -> serde_json::Result<()> {
        let stats = TermStats::from_tokens(["b", "a", "b"].map(str::to_owned).to_vec());
        let json = serde_json::to_string(&stats)?;
        assert_eq!(json, r#"{"terms":[["a",1],["b",2]],"length":3}"#);
        assert_eq!(serde_json::from_str::<TermStats>(&json)?, stats);
        // An edited store with unsorted, repeated terms still looks up correctly.
        let edited: TermStats =
            serde_json::from_str(r#"{"terms":[["b",1],["a",1],["b",1]],"length":3}"#)?;
        assert_eq!(edited, stats);
        assert_eq!(edited.frequency("b"), 2);
        Ok(())
    }

    #[test]
    fn borrowed_sorted_counts_look_up_like_term_stats() {
        let stats = TermStats::from_tokens(["b", "a", "b", "c", "b"].map(str::to_owned).to_vec());
        let sorted = Terms::from_sorted(stats.terms(), stats.length()).unwrap();
        let owned = Terms::from(&stats);
        for term in ["a", "b", "c", "z", ""] {
            assert_eq!(sorted.frequency(term), owned.frequency(term), "{term}");
        }
        assert_eq!(sorted.length(), 5);
        let words = ["z", "b", "", "a", "c", "bb"];
        let probes: Vec<Probe<'_>> = words.iter().map(|w| Probe::new(w)).collect();
        let order = Probe::order(&probes);
        let (mut merged, mut searched) = ([9; 6], [9; 6]);
        sorted.frequencies(&probes, &order, &mut merged);
        owned.frequencies(&probes, &order, &mut searched);
        assert_eq!(merged, [0, 3, 0, 1, 1, 0]);
        assert_eq!(searched, merged);
        let unsorted = [("b".to_owned(), 1), ("a".to_owned(), 1)];
        assert!(Terms::from_sorted(&unsorted, 2).is_none());
        let repeated = [("a".to_owned(), 1), ("a".to_owned(), 1)];
        assert!(Terms::from_sorted(&repeated, 2).is_none());
    }

    fn stats_of(words: &[&str]) -> TermStats {
        TermStats::from_tokens(words.iter().map(|w| (*w).to_owned()).collect())
    }
}
