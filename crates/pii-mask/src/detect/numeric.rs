//! Digit groups, deny by default.
//!
//! A *chunk* is a maximal run of ASCII digits in the detection view. Consecutive chunks join into
//! one *digit group* when the gap between them is a short separator run (see [`joins`]). A group
//! is then cut into *units*:
//!
//! 1. If the whole group is a sequence of safe shapes (dates, IPv4 addresses, decimals, prices
//!    with a fraction or a currency, ISBNs, versions, compact timestamps; see [`safe`]), it is
//!    one safe unit and nothing in it is masked.
//! 2. Otherwise the *distinctive* safe shapes (dates and IPv4 addresses, which no phone, card,
//!    ID or account is written as) that stand closed inside the group are cut out as safe units,
//!    and every run of chunks between them is one *value*.
//! 3. A value with 10 or more digits is always masked; a 9-digit value is masked when a
//!    validator accepts it (Israeli ID check digit, phone structure, bank structure); shorter
//!    values keep the context rules (an account number after an account word, a short ID after
//!    an ID keyword, `+` and eight digits). Validators only choose the category.
//! 4. A value is masked whole or not at all: the span always runs from its first chunk to its
//!    last. A value of several chunks may be emitted as several spans only when each of them is
//!    a complete validated value itself (two phone numbers in a row).
//!
//! Every unit is also reported to the caller so that a span found by any other rule (an email,
//! an IBAN) that touches part of a unit grows to cover it.

use super::keywords::{
    ACCOUNT_WORDS, CARD_WORDS, ID_WORDS, SSN_WORDS, VERSION_WORDS, word_before, word_before_on_line,
};
use super::{Sink, iban};
use crate::Category;
use crate::validate::{il_id_valid, il_id_valid_padded, luhn_valid, ssn_valid};

/// A maximal run of ASCII digits in the view.
#[derive(Clone, Copy, Debug)]
pub(super) struct Chunk {
    start: usize,
    end: usize,
}

impl Chunk {
    fn len(self) -> usize {
        self.end - self.start
    }
}

/// Longest gap between two chunks of one group, as in `) (` or ` - `.
const MAX_GAP: usize = 3;

/// Groups with more chunks than this are never split into several values (the split search is
/// quadratic in the chunk count).
const MAX_SPLIT_CHUNKS: usize = 12;

/// True when `gap` (the bytes between two chunks) joins them into one group.
///
/// A gap is one to three bytes of space, `-`, `.`, `/`, `(` and `)`. Parentheses may stand
/// anywhere (at most one of each); what is left must be spaces alone, or one `-` or `/` with
/// optional spaces around it, or one `.` alone. A `.` followed by spaces (`531. 06. 04`) joins
/// chunks of at most six digits on both sides, or any chunk after one of up to three digits
/// (`short`; `83. 362. 393396205`), since after a whole number it is
/// a sentence end. So `--`, `-.` and `..` end a group, and so does any other character: a
/// letter, a comma, a colon, a newline.
fn joins(gap: &[u8], short: bool) -> bool {
    if gap.is_empty() || gap.len() > MAX_GAP {
        return false;
    }
    let (mut opens, mut closes) = (0, 0);
    let mut core = [0u8; MAX_GAP];
    let mut n = 0;
    for &b in gap {
        match b {
            b'(' => opens += 1,
            b')' => closes += 1,
            b' ' | b'-' | b'.' | b'/' => {
                core[n] = b;
                n += 1;
            }
            _ => return false,
        }
    }
    if opens > 1 || closes > 1 {
        return false;
    }
    let core = &core[..n];
    let marks = core.iter().filter(|&&b| b != b' ').count();
    match marks {
        0 => true,
        1 if core.contains(&b'.') => {
            core == b"." || (short && core[0] == b'.' && core[1..].iter().all(|&b| b == b' '))
        }
        1 => true,
        _ => false,
    }
}

fn is_gap_byte(b: u8) -> bool {
    matches!(b, b' ' | b'-' | b'.' | b'/' | b'(' | b')')
}

/// Reads the group that starts with the digit at `first`, reports its units and masked values,
/// and returns the view offset where scanning resumes.
///
/// `exotic` lists, sorted, the view offsets of separators that were not ASCII in the text
/// (no-break and thin spaces, en and figure dashes): ISBNs are never written with them.
pub(super) fn scan_group(s: &str, first: usize, exotic: &[usize], sink: &mut Sink) -> usize {
    let v = s.as_bytes();
    if let Some(end) = uuid_containing(v, first).or_else(|| digest_containing(v, first)) {
        sink.unit(first, end);
        return end;
    }
    // The chunk buffer is the sink's, reused from group to group.
    let mut chunks = std::mem::take(&mut sink.chunks);
    chunks.clear();
    let mut p = first;
    loop {
        let start = p;
        while p < v.len() && v[p].is_ascii_digit() {
            p += 1;
        }
        chunks.push(Chunk { start, end: p });
        let mut q = p;
        while q < v.len() && q - p < MAX_GAP && is_gap_byte(v[q]) {
            q += 1;
        }
        let next_len = v[q..].iter().take_while(|b| b.is_ascii_digit()).count();
        let short = (p - start <= 6 && next_len <= 6) || p - start <= 3;
        if q == p
            || q >= v.len()
            || !v[q].is_ascii_digit()
            || !joins(&v[p..q], short)
            || uuid_containing(v, q).is_some()
            || digest_containing(v, q).is_some()
        {
            break;
        }
        p = q;
    }
    if first >= 2 {
        iban::at_country_code(v, first - 2, sink);
    }
    let group = Group {
        s,
        v,
        chunks,
        exotic,
    };
    group.decide(sink);
    let end = group.chunks.last().map_or(first + 1, |c| c.end);
    sink.chunks = group.chunks;
    end
}

/// If the digit at `pos` lies in a canonical UUID (8-4-4-4-12 hex digits), the UUID's end.
fn uuid_containing(v: &[u8], pos: usize) -> Option<usize> {
    let hexish = |b: u8| b.is_ascii_hexdigit() || b == b'-';
    // A digit run inside a UUID touches a hex letter, or fills a whole 8-, 4- or 12-character
    // block between hyphens; checking that first keeps the scan off phones and plain numbers.
    let mut run_start = pos;
    while run_start > 0 && v[run_start - 1].is_ascii_digit() {
        run_start -= 1;
    }
    let mut run_end = pos;
    while run_end < v.len() && v[run_end].is_ascii_digit() {
        run_end += 1;
    }
    let before = run_start.checked_sub(1).map(|p| v[p]);
    let after = v.get(run_end).copied();
    let hex_letter =
        |b: Option<u8>| b.is_some_and(|b| b.is_ascii_hexdigit() && !b.is_ascii_digit());
    let hyphen = |b: Option<u8>| b == Some(b'-');
    let whole_block =
        matches!(run_end - run_start, 4 | 8 | 12) && (hyphen(before) || hyphen(after));
    if !hex_letter(before) && !hex_letter(after) && !whole_block {
        return None;
    }
    // A UUID lies inside the run of hex digits and hyphens around `pos`; most runs (dates,
    // phone numbers) are shorter than one.
    let mut lo = run_start;
    while lo > 0 && hexish(v[lo - 1]) && run_start - lo < 36 {
        lo -= 1;
    }
    let mut hi = run_end;
    while hi < v.len() && hexish(v[hi]) && hi - run_end < 36 {
        hi += 1;
    }
    if hi - lo < 36 {
        return None;
    }
    // Try every 36-byte window that holds `pos`: the bytes before a UUID may be hex letters or
    // a hyphen of the sentence (`ב-550e8400-…`).
    let alnum_at = |p: Option<usize>| {
        p.and_then(|p| v.get(p))
            .is_some_and(u8::is_ascii_alphanumeric)
    };
    let first = pos.saturating_sub(35).max(lo);
    (first..=pos.min(hi - 36)).find_map(|start| {
        let end = start + 36;
        let t = v.get(start..end)?;
        let shape_ok = t.iter().enumerate().all(|(i, &b)| {
            if matches!(i, 8 | 13 | 18 | 23) {
                b == b'-'
            } else {
                b.is_ascii_hexdigit()
            }
        });
        (shape_ok && !alnum_at(start.checked_sub(1)) && !alnum_at(Some(end)) && hexish(v[start]))
            .then_some(end)
    })
}

/// If the digit at `pos` lies in a hex token of a digest's length (MD5, SHA-1, SHA-224,
/// SHA-256, SHA-384, SHA-512: 32 to 128 hex digits; or the twelve of a short container image
/// id), with at least three letters, the token's end: a content hash is an identifier, and the
/// digit runs inside it are not numbers.
fn digest_containing(v: &[u8], pos: usize) -> Option<usize> {
    // A digit run inside a digest touches a hex letter or another digit run glued to one;
    // a run between spaces or separators (every phone, date and amount) is not inside one.
    let before = pos.checked_sub(1).map(|p| v[p]);
    let mut after = pos;
    while after < v.len() && v[after].is_ascii_digit() {
        after += 1;
    }
    let letter = |b: Option<u8>| b.is_some_and(|b| b.is_ascii_alphabetic());
    if !letter(before) && !letter(v.get(after).copied()) {
        return None;
    }
    let mut start = pos;
    while start > 0 && v[start - 1].is_ascii_alphanumeric() {
        start -= 1;
    }
    let mut end = pos;
    while end < v.len() && v[end].is_ascii_alphanumeric() {
        end += 1;
    }
    let t = &v[start..end];
    let letters = t.iter().filter(|b| b.is_ascii_alphabetic()).count();
    let ok = matches!(t.len(), 12 | 32 | 40 | 56 | 64 | 96 | 128)
        && t.iter().all(u8::is_ascii_hexdigit)
        && letters >= 3;
    ok.then_some(end)
}

struct Digits {
    buf: [u8; 40],
    len: usize,
}

impl Digits {
    fn get(&self) -> &[u8] {
        &self.buf[..self.len.min(self.buf.len())]
    }
}

/// How a masked value was recognised.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Verdict {
    category: Category,
    /// False when only a context word made it personal data.
    validated: bool,
    /// A validator recognised the whole value as one complete thing (a phone, a card, an ID, an
    /// account in its structured form): such values may stand side by side in one group.
    complete: bool,
}

struct Group<'a> {
    s: &'a str,
    v: &'a [u8],
    chunks: Vec<Chunk>,
    exotic: &'a [usize],
}

impl Group<'_> {
    fn n(&self) -> usize {
        self.chunks.len()
    }

    fn len(&self, i: usize) -> usize {
        self.chunks.get(i).map_or(0, |c| c.len())
    }

    fn digits_of(&self, i: usize) -> &[u8] {
        &self.v[self.chunks[i].start..self.chunks[i].end]
    }

    /// The gap after chunk `i`; empty after the last chunk.
    fn gap(&self, i: usize) -> &[u8] {
        match self.chunks.get(i + 1) {
            Some(next) => &self.v[self.chunks[i].end..next.start],
            None => &[],
        }
    }

    /// True when the gap after chunk `i` holds a separator that was not ASCII in the text.
    fn exotic_gap(&self, i: usize) -> bool {
        let (from, to) = (self.chunks[i].end, self.chunks[i + 1].start);
        let k = self.exotic.partition_point(|&p| p < from);
        self.exotic.get(k).is_some_and(|&p| p < to)
    }

    /// The numeric value of chunk `i` (chunks longer than nine digits saturate).
    fn value(&self, i: usize) -> u64 {
        self.digits_of(i)
            .iter()
            .take(12)
            .fold(0u64, |v, &b| v * 10 + u64::from(b - b'0'))
    }

    fn no_leading_zero(&self, i: usize) -> bool {
        self.len(i) == 1 || self.digits_of(i)[0] != b'0'
    }

    fn joined(&self, from: usize, to: usize) -> Digits {
        let mut d = Digits {
            buf: [0; 40],
            len: 0,
        };
        for i in from..=to {
            for &b in self.digits_of(i) {
                if d.len < d.buf.len() {
                    d.buf[d.len] = b;
                }
                d.len += 1;
            }
        }
        d
    }

    fn decide(&self, sink: &mut Sink) {
        let n = self.n();
        let (start, end) = (self.chunks[0].start, self.chunks[n - 1].end);
        self.ip_addresses(sink);
        if self.all_safe(0, n - 1) {
            sink.unit(start, end);
            return;
        }
        // Cut out the distinctive safe shapes; what lies between them are values.
        let mut i = 0;
        let mut value_from = 0;
        while i < n {
            if let Some(j) = self.distinctive_at(i) {
                if value_from < i {
                    self.value_span(value_from, i - 1, sink);
                }
                sink.unit(self.chunks[i].start, self.chunks[j].end);
                i = j + 1;
                value_from = i;
            } else {
                i += 1;
            }
        }
        if value_from < n {
            self.value_span(value_from, n - 1, sink);
        }
    }

    /// Masks every IPv4 address in the group (`[IP]`) but loopback (`127.…`) and unspecified
    /// (`0.0.0.0`) ones, and those that read as versions: right after a letter or a `.`
    /// (`v1.2.3.4`), or after a version word on the same line (`version 10.0.0.1`). The address
    /// stays a distinctive shape that cuts the group.
    fn ip_addresses(&self, sink: &mut Sink) {
        if self.n() < 4 {
            return;
        }
        let mut i = 0;
        while i + 3 < self.n() {
            let Some(j) = self.ipv4(i) else {
                i += 1;
                continue;
            };
            let (start, end) = (self.chunks[i].start, self.chunks[j].end);
            let before = start.checked_sub(1).map(|p| self.v[p]);
            let versioned = before.is_some_and(|b| b.is_ascii_alphabetic() || b == b'.')
                || word_before_on_line(self.s, start, 12, &VERSION_WORDS);
            let first = self.value(i);
            let unspecified = (i..=j).all(|k| self.value(k) == 0);
            if !versioned && first != 127 && !unspecified {
                sink.push(start, end, Category::Ip, true);
            }
            i = j + 1;
        }
    }

    /// Reports chunks `from..=to` as one unit and masks them if they are personal data.
    fn value_span(&self, from: usize, to: usize, sink: &mut Sink) {
        let (start, end) = self.extent(from, to);
        if (from, to) != (0, self.n() - 1) && self.all_safe(from, to) {
            sink.unit(start, end);
            return;
        }
        let Some(verdict) = self.classify(from, to) else {
            sink.unit(start, end);
            return;
        };
        if to > from
            && to - from < MAX_SPLIT_CHUNKS
            && let Some(parts) = self.split(from, to)
        {
            // Each part is a unit of its own: together they cover the value.
            for (a, b, verdict) in parts {
                let (start, end) = self.extent(a, b);
                sink.unit(start, end);
                sink.push(start, end, verdict.category, verdict.validated);
            }
            return;
        }
        sink.unit(start, end);
        sink.push(start, end, verdict.category, verdict.validated);
    }

    /// Two or more complete values that together make up chunks `from..=to`, if there are.
    fn split(&self, from: usize, to: usize) -> Option<Vec<(usize, usize, Verdict)>> {
        let n = to - from + 1;
        // best[k]: the fewest complete values covering chunks from..from+k, with the last cut.
        let mut best: Vec<Option<(usize, usize, Verdict)>> = vec![None; n + 1];
        let mut reach = vec![false; n + 1];
        reach[0] = true;
        for k in 0..n {
            if !reach[k] {
                continue;
            }
            for l in k..n {
                let Some(verdict) = self.classify(from + k, from + l) else {
                    continue;
                };
                if verdict.complete && !reach[l + 1] {
                    reach[l + 1] = true;
                    best[l + 1] = Some((k, l, verdict));
                }
            }
        }
        if !reach[n] {
            return None;
        }
        let mut parts = Vec::new();
        let mut at = n;
        while at > 0 {
            let (k, l, verdict) = best[at]?;
            parts.push((from + k, from + l, verdict));
            at = k;
        }
        parts.reverse();
        (parts.len() >= 2).then_some(parts)
    }

    /// View range of chunks `from..=to`, with a leading `+` or `(` that belongs to the value.
    fn extent(&self, from: usize, to: usize) -> (usize, usize) {
        let mut start = self.chunks[from].start;
        let end = self.chunks[to].end;
        let v = self.v;
        let closes_inside = (from..to).any(|i| self.gap(i).contains(&b')'));
        if start > 0 && v[start - 1] == b'(' && closes_inside {
            start -= 1;
        }
        if start > 0 && v[start - 1] == b'+' {
            start -= 1;
        }
        (start, end)
    }

    /// A `+` written right before the value (or before its opening parenthesis).
    fn plus_before(&self, from: usize) -> bool {
        let (start, _) = self.extent(from, from);
        let first = self.chunks[from].start;
        start < first && self.v[start] == b'+'
    }

    fn classify(&self, from: usize, to: usize) -> Option<Verdict> {
        let d = self.joined(from, to);
        let n = d.len;
        let digits = d.get();
        let start = self.chunks[from].start;
        let plus = self.plus_before(from);
        let verdict = |category, validated, complete| {
            Some(Verdict {
                category,
                validated,
                complete,
            })
        };
        // The slashed and dashed account forms are more specific than a check digit that one
        // number in ten passes.
        if self.bank_structure(from, to) {
            return verdict(Category::BankAccount, true, true);
        }
        // No card number starts with 0 (that digit is the dialling prefix of phones) or a `+`.
        if (13..=19).contains(&n) && luhn_valid(digits) && !plus && digits[0] != b'0' {
            return verdict(Category::Card, true, true);
        }
        if n == 9 && !plus && ssn_valid(digits) {
            if self.ssn_structure(from, to) {
                return verdict(Category::UsSsn, true, true);
            }
            if to == from && word_before(self.s, start, 20, &SSN_WORDS) {
                return verdict(Category::UsSsn, false, false);
            }
        }
        if n == 9 && il_id_valid(digits) && !plus {
            return verdict(Category::IlId, true, true);
        }
        let phone = phone_digits(digits, n, plus);
        if n >= 9 {
            let account = word_before(self.s, start, 25, &ACCOUNT_WORDS);
            if (13..=19).contains(&n) && word_before(self.s, start, 20, &CARD_WORDS) {
                return verdict(Category::Card, true, false);
            }
            if account {
                return verdict(Category::BankAccount, n >= 10, false);
            }
            if phone {
                return verdict(Category::Phone, true, true);
            }
            if n >= 10 {
                return verdict(Category::Number, true, false);
            }
            return None;
        }
        if phone {
            return verdict(Category::Phone, true, true);
        }
        if (6..=8).contains(&n) && word_before(self.s, start, 25, &ACCOUNT_WORDS) {
            return verdict(Category::BankAccount, false, false);
        }
        if (5..=8).contains(&n)
            && il_id_valid_padded(digits)
            && word_before(self.s, start, 20, &ID_WORDS)
        {
            return verdict(Category::IlId, false, false);
        }
        None
    }

    /// `NNN-NN-NNNN` or `NNN NN NNNN`, one separator throughout: how a US Social Security
    /// number is written.
    fn ssn_structure(&self, from: usize, to: usize) -> bool {
        to - from == 2
            && self.len(from) == 3
            && self.len(from + 1) == 2
            && self.len(to) == 4
            && matches!(self.gap(from), b"-" | b" ")
            && self.gap(from + 1) == self.gap(from)
    }

    /// `NN-NNN-N{4,9}` (bank, branch, account) or `NNN/N{4,9}`, as the whole value.
    fn bank_structure(&self, from: usize, to: usize) -> bool {
        match to - from {
            2 => {
                self.len(from) == 2
                    && self.gap(from) == b"-"
                    && self.len(from + 1) == 3
                    && self.gap(from + 1) == b"-"
                    && (4..=9).contains(&self.len(to))
            }
            1 => self.len(from) == 3 && self.gap(from) == b"/" && (4..=9).contains(&self.len(to)),
            _ => false,
        }
    }

    // ---- safe shapes ----

    /// True when chunks `from..=to` are a sequence of safe shapes, each closed against the next.
    fn all_safe(&self, from: usize, to: usize) -> bool {
        if (from, to) == (0, self.n() - 1) && self.isbn_by_keyword() {
            return true;
        }
        let n = to - from + 1;
        // Which chunk boundaries a sequence of safe shapes reaches; groups longer than 63 chunks
        // are never all safe shapes (no such text is clean).
        if n >= 64 {
            return false;
        }
        let mut reach: u64 = 1;
        for k in 0..n {
            if reach & (1 << k) == 0 {
                continue;
            }
            for j in self.safe_ends(from + k) {
                if j <= to {
                    reach |= 1 << (j - from + 1);
                }
            }
        }
        reach & (1 << n) != 0
    }

    /// Ends of the safe shapes that start at chunk `i` and are closed on both sides.
    fn safe_ends(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let shapes: [Option<usize>; 9] = [
            self.version(i),
            self.time_edge(i),
            self.date(i),
            self.ipv4(i),
            self.decimal(i),
            self.price(i),
            self.isbn(i),
            self.compact_timestamp(i),
            self.isbn10_with_x(i),
        ];
        shapes.into_iter().flatten()
    }

    /// A distinctive safe shape (a date, an IPv4 address, a version after `v`, a part of a
    /// time) starting at chunk `i`: its last chunk.
    fn distinctive_at(&self, i: usize) -> Option<usize> {
        self.date(i)
            .or_else(|| self.ipv4(i))
            .or_else(|| self.version(i))
            .or_else(|| self.time_edge(i))
    }

    /// The hour of a time that ends the group (`… 05` in `… 05:00:52`) or the minutes or
    /// seconds of one that starts it (`07` in `08:57:07 …`): one or two digits against a colon
    /// and a digit.
    fn time_edge(&self, i: usize) -> Option<usize> {
        if !(1..=2).contains(&self.len(i)) {
            return None;
        }
        let c = self.chunks[i];
        let v = self.v;
        let hour = i + 1 == self.n()
            && self.value(i) <= 23
            && v.get(c.end) == Some(&b':')
            && v.get(c.end + 1).is_some_and(u8::is_ascii_digit);
        let tail = i == 0
            && self.value(i) <= 59
            && c.start >= 2
            && v[c.start - 1] == b':'
            && v[c.start - 2].is_ascii_digit();
        (hour || tail).then_some(i)
    }

    /// The shape `i..=j` joined inside by `sep` is closed: the gaps just outside it are not `sep`.
    fn closed(&self, i: usize, j: usize, sep: &[u8]) -> bool {
        let before_ok = i == 0 || self.gap(i - 1) != sep;
        before_ok && self.gap(j) != sep
    }

    /// `YYYY-MM-DD`, `DD-MM-YYYY` or `MM-DD-YYYY` with one of `-`, `/`, `.` throughout.
    fn date(&self, i: usize) -> Option<usize> {
        let j = i + 2;
        if j >= self.n() {
            return None;
        }
        let sep = self.gap(i);
        if !matches!(sep, b"-" | b"/" | b".") || self.gap(i + 1) != sep {
            return None;
        }
        let day_month = |x: u64, y: u64| {
            ((1..=31).contains(&x) && (1..=12).contains(&y))
                || ((1..=12).contains(&x) && (1..=31).contains(&y))
        };
        let year = |k: usize| self.len(k) == 4 && (1900..=2099).contains(&self.value(k));
        let small = |k: usize| (1..=2).contains(&self.len(k));
        let ok = (year(i)
            && small(i + 1)
            && small(j)
            && day_month(self.value(j), self.value(i + 1)))
            || (small(i) && small(i + 1) && year(j) && day_month(self.value(i), self.value(i + 1)));
        (ok && self.closed(i, j, sep)).then_some(j)
    }

    /// A dotted IPv4 address: four octets of at most 255, no leading zeros.
    fn ipv4(&self, i: usize) -> Option<usize> {
        let j = i + 3;
        if j >= self.n() {
            return None;
        }
        let ok = (i..=j).all(|k| {
            (1..=3).contains(&self.len(k))
                && self.value(k) <= 255
                && self.no_leading_zero(k)
                && (k == j || self.gap(k) == b".")
        });
        (ok && self.closed(i, j, b".")).then_some(j)
    }

    /// A decimal number: `I.F` with an integer part without a leading zero (or `0`), either
    /// short (up to three digits, as measurements and coordinates are) with a fraction of up to
    /// fifteen digits, or up to nine digits with a fraction of one or two (an amount).
    fn decimal(&self, i: usize) -> Option<usize> {
        let j = i + 1;
        if j >= self.n() || self.gap(i) != b"." || !self.no_leading_zero(i) {
            return None;
        }
        let (int, frac) = (self.len(i), self.len(j));
        let ok = (int <= 3 && frac <= 15) || (int <= 9 && frac <= 2);
        (ok && self.closed(i, j, b".")).then_some(j)
    }

    /// Thousands in groups of three after a first group of one to three digits, joined by one
    /// space or one dot throughout; with a space, a `.` fraction of one or two digits may
    /// follow. Safe only with a fraction, or with a currency sign or code right beside it.
    fn price(&self, i: usize) -> Option<usize> {
        if !(1..=3).contains(&self.len(i)) || !self.no_leading_zero(i) {
            return None;
        }
        let sep = self.gap(i);
        if sep != b" " && sep != b"." {
            return None;
        }
        let mut j = i;
        while j + 1 < self.n() && self.gap(j) == sep && self.len(j + 1) == 3 {
            j += 1;
        }
        if j == i {
            return None;
        }
        let mut fraction = false;
        if sep == b" "
            && j + 1 < self.n()
            && self.gap(j) == b"."
            && (1..=2).contains(&self.len(j + 1))
        {
            j += 1;
            fraction = true;
        }
        let closed = j + 1 >= self.n() || (self.gap(j) != sep && self.gap(j) != b".");
        let before_ok = i == 0 || (self.gap(i - 1) != sep && self.gap(i - 1) != b".");
        let currency = currency_near(self.v, self.chunks[i].start, self.chunks[j].end);
        ((fraction || currency) && closed && before_ok).then_some(j)
    }

    /// ISBN-10 (four parts, ten digits, one-digit check part) or ISBN-13 (978 or 979, five
    /// parts, one-digit check part), joined by hyphens or spaces throughout, with a valid check
    /// digit (a random number of that shape passes one time in eleven or ten).
    fn isbn(&self, i: usize) -> Option<usize> {
        for parts in [4usize, 5] {
            let j = i + parts - 1;
            if j >= self.n() || self.len(j) != 1 {
                continue;
            }
            let sep = self.gap(i);
            if sep != b"-" && sep != b" " {
                continue;
            }
            if !(i..j).all(|k| self.gap(k) == sep && !self.exotic_gap(k)) {
                continue;
            }
            let d = self.joined(i, j);
            let ok = match parts {
                4 => d.len == 10 && isbn10_valid(d.get()),
                _ => {
                    d.len == 13
                        && (d.get().starts_with(b"978") || d.get().starts_with(b"979"))
                        && isbn13_valid(d.get())
                }
            };
            if ok && self.closed(i, j, sep) {
                return Some(j);
            }
        }
        None
    }

    /// An ISBN-10 whose check character is `X`: three hyphenated parts of nine digits, then
    /// `-X` ending the group.
    fn isbn10_with_x(&self, i: usize) -> Option<usize> {
        let j = i + 2;
        if j + 1 != self.n() || self.gap(i) != b"-" || self.gap(i + 1) != b"-" {
            return None;
        }
        let d = self.joined(i, j);
        if d.len != 9 || !isbn10_valid_with_x(d.get()) {
            return None;
        }
        let end = self.chunks[j].end;
        let x = self.v.get(end..end + 2) == Some(b"-X") || self.v.get(end..end + 2) == Some(b"-x");
        let after = self
            .v
            .get(end + 2)
            .is_none_or(|b| !b.is_ascii_alphanumeric());
        (x && after).then_some(j)
    }

    /// `YYYYMMDDhhmm` or `YYYYMMDDhhmmss` with a year from 1900 to 2099, as one chunk.
    fn compact_timestamp(&self, i: usize) -> Option<usize> {
        let d = self.digits_of(i);
        if d.len() != 12 && d.len() != 14 {
            return None;
        }
        let num = |a: usize, b: usize| {
            d[a..b]
                .iter()
                .fold(0u32, |v, &c| v * 10 + u32::from(c - b'0'))
        };
        let ok = (1900..=2099).contains(&num(0, 4))
            && (1..=12).contains(&num(4, 6))
            && (1..=31).contains(&num(6, 8))
            && num(8, 10) <= 23
            && num(10, 12) <= 59
            && (d.len() == 12 || num(12, 14) <= 59);
        ok.then_some(i)
    }

    /// A version: dot-joined parts right after `v` or `V` (`v10.4.12`), or after a product name
    /// and a slash (`Chrome/120.0.6099.71`, as user agents write them), from the group's start.
    fn version(&self, i: usize) -> Option<usize> {
        let start = self.chunks[i].start;
        let after_v = i == 0
            && start > 0
            && matches!(self.v[start - 1], b'v' | b'V')
            && (start < 2 || !self.v[start - 2].is_ascii_alphabetic());
        let after_product = i == 0
            && start >= 2
            && self.v[start - 1] == b'/'
            && self.v[start - 2].is_ascii_alphabetic()
            && self.n() > 1
            && self.gap(0) == b".";
        if !after_v && !after_product {
            return None;
        }
        let mut j = i;
        while j + 1 < self.n() && self.gap(j) == b"." {
            j += 1;
        }
        Some(j)
    }

    /// Ten or thirteen digits (nine and an `X`) right after the word `ISBN`.
    fn isbn_by_keyword(&self) -> bool {
        let start = self.chunks[0].start;
        let from = start.saturating_sub(10);
        let window = &self.v[from..start];
        let keyword = window.windows(4).any(|w| w.eq_ignore_ascii_case(b"isbn"));
        let d = self.joined(0, self.n() - 1);
        let end = self.chunks[self.n() - 1].end;
        let x = matches!(self.v.get(end), Some(b'X' | b'x'))
            || (self.v.get(end) == Some(&b'-') && matches!(self.v.get(end + 1), Some(b'X' | b'x')));
        keyword && (d.len == 10 || d.len == 13 || (d.len == 9 && x))
    }
}

/// ISBN-10 check: the digits weighted 10 down to 1 add up to a multiple of 11.
fn isbn10_valid(d: &[u8]) -> bool {
    d.len() == 10 && isbn10_sum(&d[..9], u32::from(d[9] - b'0'))
}

/// ISBN-10 check for nine digits and the check character `X` (ten).
fn isbn10_valid_with_x(d: &[u8]) -> bool {
    d.len() == 9 && isbn10_sum(d, 10)
}

fn isbn10_sum(body: &[u8], check: u32) -> bool {
    let sum: u32 = body
        .iter()
        .enumerate()
        .map(|(i, &b)| (10 - i as u32) * u32::from(b - b'0'))
        .sum();
    (sum + check).is_multiple_of(11)
}

/// ISBN-13 check: the digits weighted 1, 3, 1, 3, … add up to a multiple of 10.
fn isbn13_valid(d: &[u8]) -> bool {
    let sum: u32 = d
        .iter()
        .enumerate()
        .map(|(i, &b)| u32::from(b - b'0') * if i % 2 == 0 { 1 } else { 3 })
        .sum();
    d.len() == 13 && sum.is_multiple_of(10)
}

/// A currency sign or code right before `start` or right after `end` (one space allowed).
fn currency_near(v: &[u8], start: usize, end: usize) -> bool {
    const SIGNS: &[&str] = &["₪", "$", "€", "£", "¥", "₩", "₹", "円", "ש\"ח", "ש״ח"];
    const CODES: &[&[u8]] = &[b"usd", b"eur", b"ils", b"nis", b"gbp", b"jpy", b"chf"];
    let before = &v[start.saturating_sub(5)..start];
    let before = before.strip_suffix(b" ").unwrap_or(before);
    let after = &v[end..(end + 5).min(v.len())];
    let after = after.strip_prefix(b" ").unwrap_or(after);
    SIGNS
        .iter()
        .any(|s| before.ends_with(s.as_bytes()) || after.starts_with(s.as_bytes()))
        || CODES.iter().any(|c| {
            (before.len() >= 3 && before[before.len() - 3..].eq_ignore_ascii_case(c))
                || (after.len() >= 3 && after[..3].eq_ignore_ascii_case(c))
        })
}

/// Phone structure read from the digits alone (separators do not matter): `+` and 8–15 digits;
/// `00` and an international number; a national number with a trunk zero (Israeli mobiles and
/// landlines, and 10–12 digit numbers elsewhere); Israeli `1-800`, `1-700`, `1599`; North
/// American numbers with or without the leading `1`.
fn phone_digits(d: &[u8], n: usize, plus: bool) -> bool {
    if d.len() != n || n < 8 {
        return false;
    }
    if plus {
        return (8..=15).contains(&n) && d[0] != b'0';
    }
    if d.starts_with(b"00") {
        return (8..=15).contains(&(n - 2)) && d[2] != b'0';
    }
    if d[0] == b'0' {
        return match n {
            9 => matches!(d[1], b'2' | b'3' | b'4' | b'8' | b'9'),
            10..=12 => d[1] != b'0',
            _ => false,
        };
    }
    if n == 10 && (d.starts_with(b"1800") || d.starts_with(b"1700") || d.starts_with(b"1599")) {
        return true;
    }
    match n {
        10 => d[0] >= b'2',
        11 => d[0] == b'1' && d[1] >= b'2',
        _ => false,
    }
}

#[cfg(test)]
mod tests;
