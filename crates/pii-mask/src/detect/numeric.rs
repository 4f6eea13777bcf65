//! Digit clusters: runs of digits joined by short separators, and the detectors that read them
//! (Israeli ID, card, bank account, phone, long number), plus the UUID exemption.

use super::keywords::{ACCOUNT_WORDS, CARD_WORDS, ID_WORDS, word_before};
use super::{Sink, iban};
use crate::Category;
use crate::validate::{il_id_valid, il_id_valid_padded, luhn_valid};

/// A maximal run of ASCII digits in the view.
#[derive(Clone, Copy)]
struct Group {
    start: usize,
    end: usize,
}

impl Group {
    fn len(self) -> usize {
        self.end - self.start
    }
}

/// Characters that may join two digit groups of one value.
fn is_gap_byte(b: u8) -> bool {
    matches!(b, b' ' | b'-' | b'.' | b'/' | b'(' | b')')
}

/// Longest gap between two groups of one value, as in `) (`.
const MAX_GAP: usize = 3;

/// Reads the cluster that starts with the digit at `first`, runs every numeric detector on it
/// and returns the view offset where scanning resumes.
pub(super) fn scan_cluster(s: &str, first: usize, sink: &mut Sink) -> usize {
    let v = s.as_bytes();
    if let Some(end) = uuid_containing(v, first) {
        return end;
    }
    let mut groups = Vec::with_capacity(4);
    let mut p = first;
    loop {
        let start = p;
        while p < v.len() && v[p].is_ascii_digit() {
            p += 1;
        }
        groups.push(Group { start, end: p });
        let mut q = p;
        while q < v.len() && q - p < MAX_GAP && is_gap_byte(v[q]) {
            q += 1;
        }
        if q == p || q >= v.len() || !v[q].is_ascii_digit() || uuid_containing(v, q).is_some() {
            break;
        }
        p = q;
    }
    let cluster = Cluster { s, v, groups };
    if first >= 2 {
        iban::at_country_code(v, first - 2, sink);
    }
    for i in 0..cluster.groups.len() {
        cluster.number(i, sink);
        cluster.il_id(i, sink);
        cluster.card(i, sink);
        cluster.bank_account(i, sink);
        cluster.phone(i, sink);
    }
    cluster.groups.last().map_or(first + 1, |g| g.end)
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
    let mut start = pos;
    while start > 0 && pos - start < 36 && hexish(v[start - 1]) {
        start -= 1;
    }
    let mut end = pos;
    while end < v.len() && end - start < 37 && hexish(v[end]) {
        end += 1;
    }
    if end - start != 36 {
        return None;
    }
    let alnum_at = |p: Option<usize>| {
        p.and_then(|p| v.get(p))
            .is_some_and(u8::is_ascii_alphanumeric)
    };
    if alnum_at(start.checked_sub(1)) || alnum_at(Some(end)) {
        return None;
    }
    let t = &v[start..end];
    let shape_ok = t.iter().enumerate().all(|(i, &b)| {
        if matches!(i, 8 | 13 | 18 | 23) {
            b == b'-'
        } else {
            b.is_ascii_hexdigit()
        }
    });
    shape_ok.then_some(end)
}

struct Cluster<'a> {
    s: &'a str,
    v: &'a [u8],
    groups: Vec<Group>,
}

/// Digits of up to a few groups, gathered without allocating.
struct Digits {
    buf: [u8; 40],
    len: usize,
}

impl Digits {
    fn new() -> Self {
        Digits {
            buf: [0; 40],
            len: 0,
        }
    }

    fn push(&mut self, d: &[u8]) -> bool {
        if self.len + d.len() > self.buf.len() {
            return false;
        }
        self.buf[self.len..self.len + d.len()].copy_from_slice(d);
        self.len += d.len();
        true
    }

    fn get(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl Cluster<'_> {
    fn digits(&self, i: usize) -> &[u8] {
        &self.v[self.groups[i].start..self.groups[i].end]
    }

    fn len(&self, i: usize) -> usize {
        self.groups.get(i).map_or(0, |g| g.len())
    }

    /// The gap after group `i`, empty after the last group.
    fn gap(&self, i: usize) -> &[u8] {
        match self.groups.get(i + 1) {
            Some(next) => &self.v[self.groups[i].end..next.start],
            None => &[],
        }
    }

    fn joined(&self, from: usize, to: usize) -> Digits {
        let mut d = Digits::new();
        for i in from..=to {
            d.push(self.digits(i));
        }
        d
    }

    fn number(&self, i: usize, sink: &mut Sink) {
        if self.len(i) >= 10 {
            let g = self.groups[i];
            sink.push(g.start, g.end, Category::Number, true);
        }
    }

    fn il_id(&self, i: usize, sink: &mut Sink) {
        let g = self.groups[i];
        let n = self.len(i);
        if n == 9 && il_id_valid(self.digits(i)) {
            sink.push(g.start, g.end, Category::IlId, true);
        }
        let check_digit_after = self.gap(i) == b"-" && self.len(i + 1) == 1;
        if check_digit_after && (4..=8).contains(&n) {
            let d = self.joined(i, i + 1);
            let end = self.groups[i + 1].end;
            if n == 8 && il_id_valid(d.get()) {
                sink.push(g.start, end, Category::IlId, true);
            } else if n < 8 && il_id_valid_padded(d.get()) && self.id_word_before(g.start) {
                sink.push(g.start, end, Category::IlId, false);
            }
        }
        let spaced_threes = n == 3
            && self.gap(i) == b" "
            && self.len(i + 1) == 3
            && self.gap(i + 1) == b" "
            && self.len(i + 2) == 3;
        if spaced_threes && il_id_valid(self.joined(i, i + 2).get()) {
            sink.push(g.start, self.groups[i + 2].end, Category::IlId, true);
        }
        if (5..=8).contains(&n)
            && !check_digit_after
            && il_id_valid_padded(self.digits(i))
            && self.id_word_before(g.start)
        {
            sink.push(g.start, g.end, Category::IlId, false);
        }
    }

    fn id_word_before(&self, pos: usize) -> bool {
        word_before(self.s, pos, 20, &ID_WORDS)
    }

    fn card(&self, i: usize, sink: &mut Sink) {
        let g = self.groups[i];
        let n = self.len(i);
        if (13..=19).contains(&n) && luhn_valid(self.digits(i)) {
            sink.push(g.start, g.end, Category::Card, true);
            return;
        }
        if n != 4 {
            return;
        }
        // Up to five groups joined by one repeated separator.
        let sep = self.gap(i);
        if sep != b" " && sep != b"-" {
            return;
        }
        let mut last = i;
        while last + 1 < self.groups.len() && last - i < 4 && self.gap(last) == sep {
            last += 1;
        }
        let mut lens = [0usize; 5];
        for (slot, k) in lens.iter_mut().zip(i..=last) {
            *slot = self.len(k);
        }
        let lens = &lens[..=last - i];
        // Longest grouping first, so a trailing group is not left visible.
        for count in (3..=lens.len()).rev() {
            if !card_grouping(&lens[..count]) {
                continue;
            }
            let to = i + count - 1;
            let end = self.groups[to].end;
            if luhn_valid(self.joined(i, to).get()) {
                sink.push(g.start, end, Category::Card, true);
                return;
            }
            if lens[..count] == [4, 4, 4, 4] && word_before(self.s, g.start, 20, &CARD_WORDS) {
                sink.push(g.start, end, Category::Card, false);
                return;
            }
        }
    }

    fn bank_account(&self, i: usize, sink: &mut Sink) {
        let g = self.groups[i];
        let n = self.len(i);
        // The structured forms stand alone: the tail of a longer dashed or slashed number (a
        // phone after its country code, a date) is not an account.
        // (`+972 52-345-6789` holds `52-345-6789`: a group after a country code is a phone's.)
        let after_country_code = i > 0 && {
            let prev = self.groups[i - 1];
            (prev.start > 0 && self.v[prev.start - 1] == b'+')
                || self.digits(i - 1).starts_with(b"00")
        };
        let free_start = (i == 0 || self.gap(i - 1) == b" ")
            && !after_country_code
            && (g.start == 0 || !matches!(self.v[g.start - 1], b'(' | b')' | b'+' | b'.'));
        let free_end = |last: usize| !matches!(self.gap(last), b"-" | b"/" | b".");
        if free_start
            && n == 2
            && self.gap(i) == b"-"
            && self.len(i + 1) == 3
            && self.gap(i + 1) == b"-"
            && (4..=9).contains(&self.len(i + 2))
            && free_end(i + 2)
        {
            sink.push(g.start, self.groups[i + 2].end, Category::BankAccount, true);
        }
        if free_start
            && n == 3
            && self.gap(i) == b"/"
            && (4..=9).contains(&self.len(i + 1))
            && free_end(i + 1)
        {
            sink.push(g.start, self.groups[i + 1].end, Category::BankAccount, true);
        }
        if (6..=9).contains(&n) && word_before(self.s, g.start, 25, &ACCOUNT_WORDS) {
            sink.push(g.start, g.end, Category::BankAccount, false);
        }
    }

    fn phone(&self, i: usize, sink: &mut Sink) {
        let v = self.v;
        let first = self.groups[i];
        let mut start = first.start;
        let mut plus = false;
        if start > 0 && v[start - 1] == b'+' {
            plus = true;
            start -= 1;
        } else if start > 0 && v[start - 1] == b'(' && self.gap(i).first() == Some(&b')') {
            start -= 1;
            if start > 0 && v[start - 1] == b'+' {
                plus = true;
                start -= 1;
            }
        }
        // A number glued to a Latin letter or a dot is a version, a code or a decimal.
        if start > 0 && (v[start - 1].is_ascii_alphabetic() || v[start - 1] == b'.') {
            return;
        }
        let mut shape = Shape {
            plus,
            digits: Digits::new(),
            lens: [0; 8],
            groups: 0,
            gaps: [GapKind::None; 8],
            continues: false,
        };
        let mut best = None;
        let mut j = i;
        while j < self.groups.len() && shape.groups < shape.lens.len() {
            if j > i {
                let Some(kind) = phone_gap(self.gap(j - 1)) else {
                    break;
                };
                // `(0)` after the country code is the trunk prefix: shown, not dialled.
                let trunk = plus
                    && j == i + 1
                    && self.digits(j) == b"0"
                    && self.gap(j - 1).ends_with(b"(")
                    && self.gap(j).starts_with(b")");
                if trunk {
                    j += 1;
                    if j >= self.groups.len() {
                        break;
                    }
                    let Some(kind) = phone_gap(self.gap(j - 1)) else {
                        break;
                    };
                    shape.gaps[shape.groups - 1] = kind;
                } else {
                    shape.gaps[shape.groups - 1] = kind;
                }
            }
            if !shape.digits.push(self.digits(j)) || shape.digits.len > 17 {
                break;
            }
            shape.lens[shape.groups] = self.len(j);
            shape.groups += 1;
            shape.continues = j + 1 < self.groups.len()
                && shape.groups >= 2
                && phone_gap(self.gap(j)) == Some(shape.gaps[shape.groups - 2]);
            if shape.is_phone() {
                best = Some(self.groups[j].end);
            }
            j += 1;
        }
        if let Some(end) = best {
            sink.push(start, end, Category::Phone, true);
        }
    }
}

fn card_grouping(lens: &[usize]) -> bool {
    matches!(
        lens,
        [4, 4, 4, 4, 3] | [4, 6, 5] | [4, 6, 4] | [4, 4, 5] | [4, 4, 4, 1..=7]
    )
}

/// The kind of a gap inside a phone number, ignoring parentheses.
#[derive(Clone, Copy, PartialEq, Eq)]
enum GapKind {
    None,
    Space,
    Dash,
    Dot,
}

fn phone_gap(gap: &[u8]) -> Option<GapKind> {
    match gap {
        b" " => return Some(GapKind::Space),
        b"-" => return Some(GapKind::Dash),
        b"." => return Some(GapKind::Dot),
        _ => {}
    }
    let (mut opens, mut closes) = (0, 0);
    let mut rest = [0u8; MAX_GAP];
    let mut n = 0;
    for &b in gap.iter().take(MAX_GAP) {
        match b {
            b'(' => opens += 1,
            b')' => closes += 1,
            _ => {
                rest[n] = b;
                n += 1;
            }
        }
    }
    if opens > 1 || closes > 1 {
        return None;
    }
    match &rest[..n] {
        [] => Some(GapKind::None),
        b" " => Some(GapKind::Space),
        b"-" | b" - " => Some(GapKind::Dash),
        b"." => Some(GapKind::Dot),
        _ => None,
    }
}

/// The groups of a phone candidate read so far.
struct Shape {
    plus: bool,
    digits: Digits,
    lens: [usize; 8],
    groups: usize,
    /// Kind of the gap after each group but the last.
    gaps: [GapKind; 8],
    /// The cluster goes on after the last group with the same kind of gap: the loosest shape
    /// must not take the head of a longer number and leave its tail visible.
    continues: bool,
}

impl Shape {
    fn is_phone(&self) -> bool {
        let d = self.digits.get();
        let lens = &self.lens[..self.groups];
        let gaps = &self.gaps[..self.groups - 1];
        let total = d.len();
        // Fewer than nine digits in all is never a phone, except `+` and eight digits.
        if total < 8 || (total == 8 && !self.plus) {
            return false;
        }
        if self.looks_like_date() || self.looks_like_isbn() {
            return false;
        }
        // Dots join phone groups only in the 3-3-4 style; otherwise they are IPs or decimals.
        if gaps.contains(&GapKind::Dot) && !self.plus {
            let all_dots = gaps.iter().all(|&g| g == GapKind::Dot);
            let dotted_phone =
                matches!(lens, [3, 3, 4] | [1, 3, 3, 4]) || (self.plus && lens.len() >= 3);
            if !all_dots || !dotted_phone {
                return false;
            }
        }
        if self.plus {
            return (8..=15).contains(&total) && d[0] != b'0';
        }
        if d.starts_with(b"00") {
            return (8..=15).contains(&(total - 2)) && d[2] != b'0' && lens[0] >= 2;
        }
        if d[0] == b'0' {
            let israeli = (total == 10 && matches!(d[1], b'5' | b'7'))
                || (total == 9 && matches!(d[1], b'2' | b'3' | b'4' | b'8' | b'9'));
            if israeli && lens.iter().all(|&l| l >= 2) {
                return true;
            }
            // Other national numbers with a trunk zero, written in uniform groups.
            let uniform = gaps.iter().all(|&g| g == gaps[0])
                && matches!(gaps.first(), Some(GapKind::Dash | GapKind::Space));
            return d[1] != b'0'
                && !self.continues
                && (9..=12).contains(&total)
                && lens.len() >= 2
                && uniform
                && lens.iter().all(|&l| (2..=5).contains(&l));
        }
        if total == 10
            && (d.starts_with(b"1800") || d.starts_with(b"1700") || d.starts_with(b"1599"))
        {
            return true;
        }
        // North American numbering: an area code never starts with 0 or 1. (Exchanges do not
        // either, but the `555-123-4567` style is common enough in real text to keep.)
        let nanp = |n: &[u8]| n[0] >= b'2';
        match (total, lens) {
            (10, [10] | [3, 3, 4]) => nanp(d),
            (11, [11] | [1, 3, 3, 4]) => d[0] == b'1' && nanp(&d[1..]),
            _ => false,
        }
    }

    /// Day, month and year in three groups joined by one dash, slash or dot.
    fn looks_like_date(&self) -> bool {
        let lens = &self.lens[..self.groups];
        let gaps = &self.gaps[..self.groups.saturating_sub(1)];
        let d = self.digits.get();
        let mut offsets = [0usize; 9];
        for (k, len) in lens.iter().enumerate() {
            offsets[k + 1] = offsets[k] + len;
        }
        let value = |k: usize| {
            d[offsets[k]..offsets[k + 1]]
                .iter()
                .fold(0u32, |v, &b| v * 10 + u32::from(b - b'0'))
        };
        let day_month = |x: u32, y: u32| {
            (1..=31).contains(&x) && (1..=12).contains(&y)
                || (1..=12).contains(&x) && (1..=31).contains(&y)
        };
        (0..self.groups.saturating_sub(2)).any(|k| {
            let same_gap = gaps[k] == gaps[k + 1] && gaps[k] != GapKind::Space;
            let (a, b, c) = (lens[k], lens[k + 1], lens[k + 2]);
            same_gap
                && ((a == 4 && b <= 2 && c <= 2 && day_month(value(k + 2), value(k + 1)))
                    || (a <= 2 && b <= 2 && c == 4 && day_month(value(k), value(k + 1))))
        })
    }

    /// ISBN-10 (four groups, ten digits, one check digit last) or ISBN-13 (978/979, five groups).
    fn looks_like_isbn(&self) -> bool {
        let lens = &self.lens[..self.groups];
        let d = self.digits.get();
        match lens {
            [.., 1] if lens.len() == 4 && d.len() == 10 => true,
            [.., 1] if lens.len() == 5 && d.len() == 13 => {
                d.starts_with(b"978") || d.starts_with(b"979")
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(String, Category, bool)> {
        let mut sink = Sink { found: Vec::new() };
        let first = text.bytes().position(|b| b.is_ascii_digit()).unwrap();
        scan_cluster(text, first, &mut sink);
        sink.found
            .iter()
            .map(|f| (text[f.start..f.end].to_owned(), f.category, f.validated))
            .collect()
    }

    fn has(text: &str, value: &str, category: Category) -> bool {
        found(text)
            .iter()
            .any(|(v, c, _)| v == value && *c == category)
    }

    #[test]
    fn phones() {
        assert!(has("call 050-123-4567", "050-123-4567", Category::Phone));
        assert!(has(
            "+972 (0)52-345-6789",
            "+972 (0)52-345-6789",
            Category::Phone
        ));
        assert!(has("x 0523456789", "0523456789", Category::Phone));
        assert!(has("x 090-1234-5678", "090-1234-5678", Category::Phone));
        assert!(has("x (555) 123-4567", "(555) 123-4567", Category::Phone));
        assert!(has("x +1 555 123 4567", "+1 555 123 4567", Category::Phone));
        assert!(has(
            "x 00972-52-345-6789",
            "00972-52-345-6789",
            Category::Phone
        ));
        assert!(has("x 1-800-123-456", "1-800-123-456", Category::Phone));
        assert!(has("x 03-1234567", "03-1234567", Category::Phone));
        assert!(has("x 1599-50-50-50", "1599-50-50-50", Category::Phone));
        assert!(has("x +1 555.123.4567", "+1 555.123.4567", Category::Phone));
    }

    #[test]
    fn not_phones() {
        for text in [
            "2024-03-15 12",
            "15/03/2024",
            "15.03.2024",
            "192.168.100.200",
            "v10.4.12",
            "0-306-40615-2",
            "978-3-16-148410-0",
            "32.0853",
            "1234567.89",
            "12345678",
            "x0523456789",
            "v.0523456789",
            "0123 4567 8901 2345",
        ] {
            assert!(
                !found(text).iter().any(|(_, c, _)| *c == Category::Phone),
                "{text}: {:?}",
                found(text)
            );
        }
    }

    #[test]
    fn ids_cards_accounts_numbers() {
        assert!(has("x 123456782", "123456782", Category::IlId));
        assert!(has("x 12345678-2", "12345678-2", Category::IlId));
        assert!(has("x 123 456 782", "123 456 782", Category::IlId));
        assert!(!has("x 482910375", "482910375", Category::IlId));
        assert!(has(
            "x 4111 1111 1111 1111",
            "4111 1111 1111 1111",
            Category::Card
        ));
        assert!(has(
            "x 4111111111111111",
            "4111111111111111",
            Category::Card
        ));
        assert!(!has(
            "x 4111 1111 1111 1112",
            "4111 1111 1111 1112",
            Category::Card
        ));
        assert!(has(
            "visa 4111 1111 1111 1112",
            "4111 1111 1111 1112",
            Category::Card
        ));
        assert!(has(
            "x 10-800-99999999",
            "10-800-99999999",
            Category::BankAccount
        ));
        assert!(has("x 123/456789", "123/456789", Category::BankAccount));
        assert!(has("account 29106136", "29106136", Category::BankAccount));
        assert!(!has("invoice 29106136", "29106136", Category::BankAccount));
        assert!(has("x 1234567890", "1234567890", Category::Number));
        assert!(!has("x 123456789", "123456789", Category::Number));
    }

    #[test]
    fn short_ids_need_a_keyword_and_are_not_validated() {
        // 012345674 has a valid check digit.
        assert!(il_id_valid(b"012345674"));
        assert!(found("ID 12345674").contains(&("12345674".to_owned(), Category::IlId, false)));
        assert!(!has("no 12345674", "12345674", Category::IlId));
    }

    #[test]
    fn uuids_are_exempt() {
        let uuid = "550e8400-e29b-41d4-a716-446655440000";
        assert_eq!(uuid_containing(uuid.as_bytes(), 0), Some(36));
        assert_eq!(uuid_containing(uuid.as_bytes(), 24), Some(36));
        assert!(uuid_containing(b"x550e8400-e29b-41d4-a716-446655440000", 1).is_none());
        assert!(found(&format!("id {uuid}")).is_empty());
    }
}
