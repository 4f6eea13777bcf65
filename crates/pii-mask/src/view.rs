//! The folded detection view: a copy of the text in which look-alike characters are folded to
//! ASCII and invisible ones dropped, with a map from view bytes back to original byte offsets.

use std::borrow::Cow;

use crate::tables::{
    decimal_value, is_dash, is_invisible, is_mark, is_space_separator, is_variation_selector,
};

/// Bytes that may start something worth scanning: ASCII digits, `@`, `a`/`A` (the obfuscated
/// `at`), and lead bytes of characters at or above U+0640, where non-ASCII digits and the
/// full-width forms live. Lead bytes below 0xD9 encode U+0080..U+063F, which hold none of them.
const TRIGGER: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = b'0';
    while b <= b'9' {
        t[b as usize] = true;
        b += 1;
    }
    t[b'@' as usize] = true;
    t[b'a' as usize] = true;
    t[b'A' as usize] = true;
    // Hebrew letters, for the spelled-out at sign `שטרודל`; U+0080..U+00BF for the soft hyphen.
    t[0xD7] = true;
    t[0xC2] = true;
    let mut lead = 0xD9;
    while lead <= 0xF4 {
        t[lead] = true;
        lead += 1;
    }
    t
};

/// True when `text` may contain personal data, i.e. it has a digit of any script, an at sign in
/// any width, `at` as a whole word, or the Hebrew or Japanese word for the at sign. Everything else skips detection entirely.
pub(crate) fn needs_scan(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if !TRIGGER[c as usize] {
            i += 1;
            continue;
        }
        match c {
            b'0'..=b'9' | b'@' => return true,
            b'a' | b'A' => {
                if is_at_word(b, i) {
                    return true;
                }
                i += 1;
            }
            0xC2 => {
                if b.get(i + 1) == Some(&0xAD) {
                    return true;
                }
                i += 2;
            }
            0xD7 => {
                if b.get(i + 1) == Some(&0xA9) && text[i..].starts_with("שטרודל") {
                    return true;
                }
                i += 2;
            }
            _ => {
                // `i` is a lead byte (continuation bytes are below 0xC0 and never triggers).
                let ch = text[i..].chars().next().unwrap_or('\0');
                if might_be_hotspot(ch) {
                    return true;
                }
                if matches!(ch, 'ア' | 'あ')
                    && (text[i..].starts_with("アット") || text[i..].starts_with("あっと"))
                {
                    return true;
                }
                i += ch.len_utf8();
            }
        }
    }
    false
}

fn might_be_hotspot(c: char) -> bool {
    let cp = c as u32;
    // Full-width ASCII (digits, `＠`, letters of a full-width `at`) and the small at sign.
    if (0xFF01..=0xFF5E).contains(&cp) || cp == 0xFE6B {
        return true;
    }
    // Invisible characters can split an `at` or a spelled-out at sign; text that has them is
    // scanned through the view, which drops them.
    if is_invisible(c) {
        return true;
    }
    // No decimal digit block lies between the Ol Chiki digits and Vai digits, which covers
    // CJK and kana, so they need no table lookup.
    if (0x1C5A..0xA620).contains(&cp) {
        return false;
    }
    decimal_value(c).is_some()
}

/// True when the ASCII `a`/`A` at `i` starts `at` standing alone as a word.
fn is_at_word(b: &[u8], i: usize) -> bool {
    b.get(i + 1).is_some_and(|&t| t | 0x20 == b't')
        && (i == 0 || !b[i - 1].is_ascii_alphanumeric())
        && b.get(i + 2).is_none_or(|n| !n.is_ascii_alphanumeric())
}

/// The Latin letter a Cyrillic or Greek letter is drawn like, for the letters that are.
fn look_alike(c: char) -> Option<u8> {
    Some(match c {
        'А' | 'Α' => b'A',
        'В' | 'Β' => b'B',
        'С' => b'C',
        'Е' | 'Ε' => b'E',
        'Н' | 'Η' => b'H',
        'І' | 'Ι' => b'I',
        'Ј' => b'J',
        'К' | 'Κ' => b'K',
        'М' | 'Μ' => b'M',
        'Ν' => b'N',
        'О' | 'Ο' => b'O',
        'Р' | 'Ρ' => b'P',
        'Ѕ' => b'S',
        'Т' | 'Τ' => b'T',
        'Х' | 'Χ' => b'X',
        'У' | 'Υ' => b'Y',
        'Ζ' => b'Z',
        'а' => b'a',
        'с' => b'c',
        'ԁ' => b'd',
        'е' => b'e',
        'һ' => b'h',
        'і' | 'ι' => b'i',
        'ј' => b'j',
        'κ' => b'k',
        'ӏ' => b'l',
        'о' | 'ο' => b'o',
        'р' | 'ρ' => b'p',
        'ѕ' => b's',
        'υ' => b'u',
        'ν' => b'v',
        'х' => b'x',
        'у' => b'y',
        _ => return None,
    })
}

enum Fold {
    Drop,
    Ascii(u8),
    Keep,
}

fn fold(c: char, after_digit: bool) -> Fold {
    let cp = c as u32;
    // Letters of the scripts most memory text is written in fold to themselves; skip the tables.
    if (0x05D0..=0x05EA).contains(&cp)
        || (0x0400..=0x04FF).contains(&cp)
        || (0x4E00..=0x9FFF).contains(&cp)
        || (0x3041..=0x309F).contains(&cp)
    {
        return Fold::Keep;
    }
    if is_invisible(c) || is_variation_selector(c) || (after_digit && is_mark(c)) {
        return Fold::Drop;
    }
    if let Some(d) = decimal_value(c) {
        return Fold::Ascii(b'0' + d);
    }
    match cp {
        // Full-width ASCII sits at a fixed offset from ASCII; the cast cannot truncate.
        0xFF01..=0xFF5E => Fold::Ascii((cp - 0xFEE0) as u8),
        0x3002 | 0xFF61 => Fold::Ascii(b'.'),
        0xFE6B => Fold::Ascii(b'@'),
        _ if is_space_separator(c) => Fold::Ascii(b' '),
        _ if is_dash(c) => Fold::Ascii(b'-'),
        _ => Fold::Keep,
    }
}

/// The detection view of one text.
pub(crate) struct View<'a> {
    original: &'a str,
    folded: Cow<'a, str>,
    /// `(view offset, original offset)` wherever the two stop moving in step (after a folded
    /// multi-byte character or a dropped one), sorted; between anchors, offsets advance
    /// together. Text that folds to itself has none and borrows the original.
    anchors: Vec<(usize, usize)>,
    /// View offsets of spaces and dashes that were not ASCII in the original, sorted.
    exotic: Vec<usize>,
}

/// The length of an encoded at sign at `i` (`%40`, `&#64;`, `&#x40;`, `&commat;`), if any.
fn encoded_at(b: &[u8], i: usize) -> Option<usize> {
    let rest = &b[i..];
    // `%40` before a digit stays digits: `%40108…` is the number `40108…` as often as an
    // address, and reading `%40` as an at sign would cut a digit group after its `40`.
    if rest.starts_with(b"%40") {
        return (!rest.get(3).is_some_and(u8::is_ascii_digit)).then_some(3);
    }
    if rest.len() >= 8 && rest[..8].eq_ignore_ascii_case(b"&commat;") {
        return Some(8);
    }
    if !rest.starts_with(b"&#") {
        return None;
    }
    let hex = matches!(rest.get(2), Some(b'x' | b'X'));
    let from = if hex { 3 } else { 2 };
    let len = rest[from..]
        .iter()
        .take(8)
        .take_while(|b| {
            if hex {
                b.is_ascii_hexdigit()
            } else {
                b.is_ascii_digit()
            }
        })
        .count();
    if len == 0 || rest.get(from + len) != Some(&b';') {
        return None;
    }
    let digits = std::str::from_utf8(&rest[from..from + len]).ok()?;
    let value = u32::from_str_radix(digits, if hex { 16 } else { 10 }).ok()?;
    (value == 0x40).then_some(from + len + 1)
}

impl<'a> View<'a> {
    /// Builds the view of `original`.
    pub(crate) fn new(original: &'a str) -> Self {
        let bytes = original.as_bytes();
        if original.is_ascii() && memchr::memchr3(b'\t', b'&', b'%', bytes).is_none() {
            return View {
                original,
                folded: Cow::Borrowed(original),
                anchors: Vec::new(),
                exotic: Vec::new(),
            };
        }
        let mut exotic = Vec::new();
        let mut out = String::new();
        let mut copied = 0;
        let mut anchors: Vec<(usize, usize)> = Vec::new();
        // Replaces the character at `at` (`len` bytes) by `with`, copying what came before.
        let mut replace =
            |out: &mut String, copied: &mut usize, at: usize, len: usize, with: Option<u8>| {
                if out.capacity() == 0 {
                    out.reserve(original.len());
                }
                out.push_str(&original[*copied..at]);
                if let Some(b) = with {
                    out.push(char::from(b));
                }
                *copied = at + len;
                if len != usize::from(with.is_some()) {
                    let anchor = (out.len(), *copied);
                    match anchors.last_mut() {
                        Some(last) if last.0 == anchor.0 => *last = anchor,
                        _ => anchors.push(anchor),
                    }
                }
            };
        let mut after_digit = false;
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b < 0x80 {
                if b == b'\t' {
                    replace(&mut out, &mut copied, i, 1, Some(b' '));
                } else if (b == b'&' || b == b'%')
                    && let Some(len) = encoded_at(bytes, i)
                {
                    // An at sign written as an HTML entity or URL-encoded reads as `@`.
                    replace(&mut out, &mut copied, i, len, Some(b'@'));
                    after_digit = false;
                    i += len;
                    continue;
                }
                after_digit = b.is_ascii_digit();
                i += 1;
                continue;
            }
            let c = original[i..].chars().next().unwrap_or(' ');
            let len = c.len_utf8();
            // A Cyrillic or Greek letter that looks like a Latin one, written against ASCII
            // letters or digits, hides a token (`ghp_КMRGo2…`, `sk_livе_…`): it reads as the
            // Latin letter. Words of those scripts keep their letters.
            // A run of such letters (`хοxb-…`) reads so when either end touches ASCII.
            if look_alike(c).is_some() {
                let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
                let run_end = i + original[i..]
                    .chars()
                    .take_while(|&x| look_alike(x).is_some())
                    .map(char::len_utf8)
                    .sum::<usize>();
                let touches =
                    (i > 0 && word(bytes[i - 1])) || bytes.get(run_end).is_some_and(|&n| word(n));
                if touches {
                    for (at, x) in original[i..run_end].char_indices() {
                        let a = look_alike(x).unwrap_or(b'?');
                        replace(&mut out, &mut copied, i + at, x.len_utf8(), Some(a));
                    }
                }
                after_digit = false;
                i = run_end;
                continue;
            }
            match fold(c, after_digit) {
                Fold::Keep => after_digit = false,
                Fold::Ascii(a) => {
                    replace(&mut out, &mut copied, i, len, Some(a));
                    if a == b' ' || a == b'-' {
                        exotic.push(out.len() - 1);
                    }
                    after_digit = a.is_ascii_digit();
                }
                // A dropped character leaves `after_digit` alone: a mark after an invisible
                // after a digit still follows the digit in the view.
                Fold::Drop => replace(&mut out, &mut copied, i, len, None),
            }
            i += len;
        }
        if copied == 0 && out.is_empty() {
            return View {
                original,
                folded: Cow::Borrowed(original),
                anchors,
                exotic,
            };
        }
        out.push_str(&original[copied..]);
        View {
            original,
            folded: Cow::Owned(out),
            anchors,
            exotic,
        }
    }

    /// View offsets of the spaces and dashes that were not ASCII in the original, sorted.
    pub(crate) fn exotic(&self) -> &[usize] {
        &self.exotic
    }

    /// The folded text.
    pub(crate) fn as_str(&self) -> &str {
        &self.folded
    }

    /// Original offset of the view character boundary `p`.
    fn original_offset(&self, p: usize) -> usize {
        let i = self.anchors.partition_point(|a| a.0 <= p);
        match i.checked_sub(1) {
            Some(k) => self.anchors[k].1 + (p - self.anchors[k].0),
            None => p,
        }
    }

    /// Original byte range of the view range `start..end` (both on character boundaries of the
    /// view, `start < end`). Dropped characters inside the range are included; those before
    /// `start` or after `end` are not.
    pub(crate) fn original_range(&self, start: usize, end: usize) -> (usize, usize) {
        let v = self.folded.as_bytes();
        let mut last = end - 1;
        while last > start && (v[last] & 0xC0) == 0x80 {
            last -= 1;
        }
        let view_last = v[last];
        let last = self.original_offset(last);
        let ob = self.original.as_bytes();
        // An encoded at sign (`%40`, `&#64;`) is several ASCII characters read as one.
        let encoded = (view_last == b'@' && matches!(ob[last], b'%' | b'&'))
            .then(|| encoded_at(ob, last))
            .flatten();
        let last_len = encoded.unwrap_or_else(|| {
            self.original[last..]
                .chars()
                .next()
                .map_or(1, char::len_utf8)
        });
        (self.original_offset(start), last + last_len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(s: &str) -> String {
        View::new(s).as_str().to_owned()
    }

    #[test]
    fn folds_digits_widths_and_separators() {
        assert_eq!(view("٠٥٢٣٤٥٦٧٨٩"), "0523456789");
        assert_eq!(view("۰۵۲ ०५२"), "052 052");
        assert_eq!(view("０５２－３４５"), "052-345");
        assert_eq!(view("ａ＠ｂ﹫c"), "a@b@c");
        assert_eq!(view("a。b｡c．d"), "a.b.c.d");
        assert_eq!(view("1\u{00A0}2\u{3000}3\t4"), "1 2 3 4");
        assert_eq!(view("1\u{2013}2\u{2212}3\u{05BE}4"), "1-2-3-4");
        assert_eq!(view("שלום 5"), "שלום 5");
    }

    #[test]
    fn encoded_at_signs_read_as_at() {
        assert_eq!(view("dana&#64;example.com"), "dana@example.com");
        assert_eq!(
            view("dana&#x40;x.io &#064; %40 &commat;"),
            "dana@x.io @ @ @"
        );
        assert_eq!(view("100% &amp; 50%4 &#65;"), "100% &amp; 50%4 &#65;");
        let v = View::new("a%40b.io");
        assert_eq!(v.original_range(0, 6), (0, 8));
        // Before a digit, `%40` is the digits it shows: a number is not cut after its `40`.
        assert_eq!(view("%40108123456782"), "%40108123456782");
    }

    #[test]
    fn remembers_which_separators_were_not_ascii() {
        let v = View::new("1\u{00A0}2 3\u{2013}4-5");
        assert_eq!(v.as_str(), "1 2 3-4-5");
        assert_eq!(v.exotic(), &[1, 5]);
    }

    #[test]
    fn drops_invisible_characters_and_marks_after_digits() {
        assert_eq!(view("05\u{200B}2\u{200E}-\u{FEFF}3\u{00AD}4"), "052-34");
        assert_eq!(view("1\u{FE0F}\u{20E3}2"), "12");
        // A mark after a letter is part of the text, not an evasion.
        assert_eq!(view("e\u{0301}"), "e\u{0301}");
    }

    #[test]
    fn look_alike_letters_read_as_latin_only_against_ascii() {
        assert_eq!(view("ghp_\u{41a}MRG"), "ghp_KMRG");
        assert_eq!(view("\u{445}\u{3bf}xb-12"), "xoxb-12");
        assert_eq!(
            view("\u{432}\u{441}\u{442}\u{440}\u{435}\u{447}\u{430}"),
            "\u{432}\u{441}\u{442}\u{440}\u{435}\u{447}\u{430}"
        );
        assert_eq!(
            view("Windows-\u{432}\u{435}\u{440}"),
            "Windows-\u{432}\u{435}\u{440}"
        );
        // Offsets map back across the folded letters.
        let text = "sk_liv\u{435}_9x";
        let v = View::new(text);
        assert_eq!(v.as_str(), "sk_live_9x");
        assert_eq!(v.original_range(0, v.as_str().len()), (0, text.len()));
    }

    #[test]
    fn maps_back_to_original_offsets() {
        let s = "\u{200E}052-345-6789\u{200E}";
        let v = View::new(s);
        assert_eq!(v.as_str(), "052-345-6789");
        assert_eq!(v.original_range(0, 12), (3, 15));

        let s = "x ０5\u{200B}2 y";
        let v = View::new(s);
        assert_eq!(v.as_str(), "x 052 y");
        // The zero-width space inside the digits is swallowed.
        assert_eq!(v.original_range(2, 5), (2, 2 + 3 + 1 + 3 + 1));
        assert_eq!(&s[v.original_range(6, 7).0..v.original_range(6, 7).1], "y");

        let s = "אב 12";
        let v = View::new(s);
        assert_eq!(v.original_range(0, 2), (0, 2));
        assert_eq!(v.original_range(5, 7), (5, 7));
    }

    #[test]
    fn text_that_folds_to_itself_is_borrowed() {
        let v = View::new("שלום 052-345-6789");
        assert!(matches!(v.folded, Cow::Borrowed(_)) && v.anchors.is_empty());
        let v = View::new("שלום ０52");
        assert!(matches!(v.folded, Cow::Owned(_)));
        assert_eq!(v.original_range(9, 12), (9, 14));
    }

    #[test]
    fn ascii_view_is_the_identity() {
        let v = View::new("a\tb 12");
        assert_eq!(v.as_str(), "a b 12");
        assert_eq!(v.original_range(1, 4), (1, 4));
    }

    #[test]
    fn trigger_finds_only_hotspots() {
        assert!(!needs_scan("that is what we ate, a bat and a cat"));
        assert!(!needs_scan("שלום עולם, מה נשמע"));
        assert!(!needs_scan("日本語のテキスト"));
        assert!(needs_scan("meet at noon"));
        assert!(needs_scan("x[at]y"));
        assert!(needs_scan("AT the end"));
        assert!(needs_scan("year 2024"));
        assert!(needs_scan("a@b"));
        assert!(needs_scan("ב٣"));
        assert!(needs_scan("x＠y"));
        assert!(needs_scan("x﹫y"));
        assert!(needs_scan("１"));
        assert!(needs_scan("dana שטרודל gmail"));
        assert!(needs_scan("danaアットマークgmail"));
        assert!(!needs_scan("שלום, שבת שלום"));
    }
}
