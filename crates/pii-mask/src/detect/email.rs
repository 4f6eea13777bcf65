//! Email detection, as the standards write addresses and as people hide them.
//!
//! An address is a local part, an *at token* and a domain.
//!
//! - **Local part**: the RFC 5322 `atext` characters (letters, digits and
//!   ``!#$%&'*+/=?^_`{|}~-``) in dot-separated atoms, RFC 6531 Unicode letters, digits and marks,
//!   or a quoted string (`"dana levi"@…`). Leading punctuation belongs to the sentence and is left
//!   out; a letter of another script glued straight onto the local part (the Hebrew prefix in
//!   `לdana@…`, Japanese before `dana@…`) is a prefix, not part of the address.
//! - **At token**: `@` (any width, folded in the view), optionally with spaces around it;
//!   `@` or `at` in brackets (`[at]`, `(at)`, `{at}`, `<at>`, `[@]`); the Hebrew `שטרודל`; the
//!   Japanese `アットマーク`, `アット`, `あっと`; or `at` alone between spaces.
//! - **Domain**: labels of letters, digits and `-` (Unicode labels too, one script per label),
//!   separated by `.`, by `dot` in brackets or between spaces, by `[.]`, `(.)`, or by the Hebrew
//!   `נקודה` and the Japanese `ドット`/`どっと`; or an IP literal (`[192.0.2.1]`,
//!   `[IPv6:2001:db8::1]`) right after a plain `@`.
//! - **Top-level domain**: for a plain `@` written tight, at least two labels and a last label of
//!   two or more letters that is not a file extension (`icon@2x.png`, `lodash@4.17.21` and
//!   `root@localhost` are not addresses), or an `xn--` label (which may stand alone, as a
//!   punycode top-level domain). When the address is obfuscated the last label must be letters
//!   only; with the ambiguous bare `at` or the word `dot` it must also be a common top-level
//!   domain, so prose such as "look at this dot matrix" is left alone, and with a bare `at` a
//!   plain `.` does not join labels ("we met at home.com").

use super::{Sink, prev_char_start};
use crate::Category;

/// File extensions that follow `@` in asset names (`icon@2x.png`), never top-level domains.
const FILE_EXTENSIONS: &[&str] = &[
    "png", "jpg", "jpeg", "svg", "gif", "webp", "js", "ts", "css",
];

/// Top-level domains accepted where prose could otherwise read as an address.
const COMMON_TLDS: &[&str] = &[
    "com", "net", "org", "edu", "gov", "mil", "int", "io", "co", "il", "uk", "us", "ca", "au",
    "de", "fr", "es", "it", "nl", "ru", "jp", "cn", "in", "br", "info", "biz", "me", "dev", "app",
    "ai", "ac", "ne", "or", "ch", "at", "be", "se", "no", "dk", "fi", "pl", "pt", "gr", "tr", "kr",
    "tw", "hk", "sg", "nz", "za", "mx", "ar", "ae", "ly", "tv", "xyz", "online", "site", "tech",
];

/// Hebrew and Japanese words for `@` and for `.` in spelled-out addresses.
const FOREIGN_AT: &[&str] = &["שטרודל", "アットマーク", "あっとまーく", "アット", "あっと"];
const FOREIGN_DOT: &[&str] = &["נקודה", "ドット", "どっと"];

/// How the at token was written, from the most to the least certain.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    /// `local@domain`, nothing between.
    Tight,
    /// `@` with a space on at least one side.
    Spaced,
    /// `[at]`, `(@)`, `שטרודל`, `アットマーク`, …
    Spelled,
    /// ` at ` alone: common in prose.
    Word,
}

/// Bytes that can start an at token other than the bare word `at` (see [`bare_at`]): `@`, an
/// opening bracket, and the lead bytes of the Hebrew and Japanese at words.
pub(super) const STARTS: [bool; 256] = {
    let mut t = [false; 256];
    let bytes = [b'@', b'[', b'(', b'{', b'<', 0xD7, 0xE3];
    let mut i = 0;
    while i < bytes.len() {
        t[bytes[i] as usize] = true;
        i += 1;
    }
    t
};

/// True when `at` stands alone between spaces at `i`.
#[inline]
pub(super) fn bare_at(v: &[u8], i: usize) -> bool {
    i > 0
        && v[i - 1] == b' '
        && v.len() >= i + 3
        && v[i] | 0x20 == b'a'
        && v[i + 1] | 0x20 == b't'
        && v[i + 2] == b' '
}

/// Tries an address whose at token starts at view offset `i`.
pub(super) fn at_token(s: &str, i: usize, sink: &mut Sink) {
    let v = s.as_bytes();
    let Some((token_start, token_end, kind)) = token_at(s, i) else {
        return;
    };
    let Some(start) = local_part_start(s, token_start, kind) else {
        return;
    };
    let mut from = token_end;
    if kind != Kind::Tight {
        while v.get(from) == Some(&b' ') && from - token_end < 2 {
            from += 1;
        }
    }
    if kind == Kind::Tight && v.get(from) == Some(&b'[') {
        if let Some(end) = ip_literal_end(v, from) {
            sink.push(start, end, Category::Email, true);
        }
        return;
    }
    if let Some(end) = domain_end(s, from, kind) {
        sink.push(start, end, Category::Email, true);
    }
}

/// The at token starting at `i`: its range and kind.
fn token_at(s: &str, i: usize) -> Option<(usize, usize, Kind)> {
    let v = s.as_bytes();
    let b = v[i];
    match b {
        b'@' => {
            // `[@]` is read from its bracket.
            if i > 0 && is_open(v[i - 1]) && v.get(i + 1) == Some(&close_of(v[i - 1])) {
                return None;
            }
            let spaced = (i > 0 && v[i - 1] == b' ') || v.get(i + 1) == Some(&b' ');
            Some((i, i + 1, if spaced { Kind::Spaced } else { Kind::Tight }))
        }
        b'[' | b'(' | b'{' | b'<' => {
            let close = close_of(b);
            let mut p = i + 1;
            if v.get(p) == Some(&b' ') {
                p += 1;
            }
            let word = if v.get(p) == Some(&b'@') {
                1
            } else if v.len() >= p + 2 && v[p..p + 2].eq_ignore_ascii_case(b"at") {
                2
            } else {
                return None;
            };
            p += word;
            if v.get(p) == Some(&b' ') {
                p += 1;
            }
            (v.get(p) == Some(&close)).then_some((i, p + 1, Kind::Spelled))
        }
        b'a' | b'A' => bare_at(v, i).then_some((i, i + 2, Kind::Word)),
        0xD7 | 0xE3 => FOREIGN_AT
            .iter()
            .find(|w| s[i..].starts_with(**w))
            .map(|w| (i, i + w.len(), Kind::Spelled)),
        _ => None,
    }
}

fn is_open(b: u8) -> bool {
    matches!(b, b'[' | b'(' | b'{' | b'<')
}

fn close_of(b: u8) -> u8 {
    match b {
        b'[' => b']',
        b'(' => b')',
        b'{' => b'}',
        _ => b'>',
    }
}

/// RFC 5322 `atext`, ASCII part.
fn is_atext(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+/=?^_`{|}~-".contains(&b)
}

/// The script family of a letter, as far as address boundaries go: Latin, Greek and Cyrillic
/// (0), Hebrew (1), Arabic and Syriac (2), CJK and kana (3), Hangul (4). A change from one to
/// another between two letters ends an address part: `לdana@…` and `…@example.comです` are
/// glued to the sentence, not part of the address.
fn script_of(c: char) -> u8 {
    match c as u32 {
        0x0590..=0x05FF | 0xFB1D..=0xFB4F => 1,
        0x0600..=0x08FF => 2,
        0x3040..=0x9FFF | 0xF900..=0xFAFF | 0xFF66..=0xFF9F | 0x20000..=0x3FFFF => 3,
        0xAC00..=0xD7AF | 0x1100..=0x11FF => 4,
        _ => 0,
    }
}

/// Start of the local part that ends at `end` (the at token's start).
fn local_part_start(s: &str, token_start: usize, kind: Kind) -> Option<usize> {
    let v = s.as_bytes();
    let mut end = token_start;
    if kind != Kind::Tight {
        while end > 0 && v[end - 1] == b' ' && token_start - end < 2 {
            end -= 1;
        }
        if kind == Kind::Word && end == token_start {
            return None;
        }
    }
    if end == 0 {
        return None;
    }
    if kind == Kind::Tight && v[end - 1] == b'"' {
        // A quoted local part: at most 64 characters, on one line.
        let from = (end - 1).saturating_sub(66);
        let open = v[from..end - 1]
            .iter()
            .rposition(|&b| b == b'"' || b == b'\n')?
            + from;
        return (v[open] == b'"' && open + 2 < end).then_some(open);
    }
    let mut start = end;
    // A local part is written in one script: the nearest letter to the at token sets it.
    let mut script: Option<u8> = None;
    while start > 0 {
        let q = prev_char_start(v, start);
        let c = s[q..start].chars().next().unwrap_or(' ');
        let ok = if c.is_ascii() {
            is_atext(c as u8) || c == '.'
        } else {
            kind != Kind::Word && (c.is_alphanumeric() || crate::tables::is_mark(c))
        };
        if !ok {
            break;
        }
        if c.is_alphabetic() {
            let here = script_of(c);
            if script.is_some_and(|s| s != here) {
                break;
            }
            script = Some(here);
        }
        start = q;
    }
    // Quotes, dots, dashes and other marks before an address belong to the sentence.
    while start < end && v[start] < 0x80 && !(v[start].is_ascii_alphanumeric() || v[start] == b'_')
    {
        start += 1;
    }
    (start < end).then_some(start)
}

/// End of an IP-literal domain `[…]` starting at `p`.
fn ip_literal_end(v: &[u8], p: usize) -> Option<usize> {
    let close = v[p..].iter().take(48).position(|&b| b == b']')? + p;
    let inner = &v[p + 1..close];
    let inner = if inner.len() > 5 && inner[..5].eq_ignore_ascii_case(b"ipv6:") {
        &inner[5..]
    } else {
        inner
    };
    let ok = inner.len() >= 2
        && inner.iter().any(u8::is_ascii_digit)
        && inner
            .iter()
            .all(|&b| b.is_ascii_hexdigit() || b == b'.' || b == b':');
    ok.then_some(close + 1)
}

/// End of the label starting at `p`: letters, digits and `-`, one script per label.
fn label_end(s: &str, mut p: usize, ascii_only: bool) -> usize {
    let v = s.as_bytes();
    let mut prev_letter: Option<u8> = None;
    while p < v.len() {
        let b = v[p];
        let c = if b < 0x80 {
            char::from(b)
        } else if ascii_only {
            break;
        } else {
            s[p..].chars().next().unwrap_or(' ')
        };
        if !(c.is_alphanumeric() || c == '-' || (!c.is_ascii() && crate::tables::is_mark(c))) {
            break;
        }
        if c.is_alphabetic() {
            let script = script_of(c);
            if prev_letter.is_some_and(|prev| prev != script) {
                break;
            }
            prev_letter = Some(script);
        }
        p += c.len_utf8();
    }
    p
}

/// Where the next label starts when a label separator follows `p`, and whether the separator
/// was spelled out.
fn after_separator(s: &str, p: usize, kind: Kind) -> Option<(usize, bool)> {
    let v = s.as_bytes();
    let rest = &v[p..];
    if rest.first() == Some(&b'.') && kind != Kind::Word {
        return Some((p + 1, false));
    }
    if kind == Kind::Tight {
        return None;
    }
    // Spaces around a spelled separator (and around a plain dot once the address is spaced).
    let mut q = p;
    while v.get(q) == Some(&b' ') && q - p < 2 {
        q += 1;
    }
    let skip_spaces = |mut r: usize| {
        let from = r;
        while v.get(r) == Some(&b' ') && r - from < 2 {
            r += 1;
        }
        r
    };
    let t = &v[q..];
    if q > p && t.first() == Some(&b'.') && kind != Kind::Word {
        return Some((skip_spaces(q + 1), false));
    }
    if q > p && t.len() >= 4 && t[..3].eq_ignore_ascii_case(b"dot") && t[3] == b' ' {
        return Some((skip_spaces(q + 3), true));
    }
    if t.len() >= 3 && is_open(t[0]) {
        let close = close_of(t[0]);
        let mut r = 1;
        if t.get(r) == Some(&b' ') {
            r += 1;
        }
        let word = if t.get(r) == Some(&b'.') {
            1
        } else if t.len() >= r + 3 && t[r..r + 3].eq_ignore_ascii_case(b"dot") {
            3
        } else {
            0
        };
        if word > 0 {
            r += word;
            if t.get(r) == Some(&b' ') {
                r += 1;
            }
            if t.get(r) == Some(&close) {
                return Some((skip_spaces(q + r + 1), true));
            }
        }
    }
    if kind != Kind::Word
        && let Some(w) = FOREIGN_DOT.iter().find(|w| s[q..].starts_with(**w))
    {
        return Some((skip_spaces(q + w.len()), true));
    }
    None
}

/// End of the domain starting at `from`, if it is one.
fn domain_end(s: &str, from: usize, kind: Kind) -> Option<usize> {
    let ascii_only = kind == Kind::Word;
    let mut labels = Vec::new();
    let mut spelled = false;
    let mut p = from;
    loop {
        let end = label_end(s, p, ascii_only);
        if end == p {
            break;
        }
        labels.push((p, end, spelled));
        if labels.len() > 16 {
            break;
        }
        match after_separator(s, end, kind) {
            Some((next, sp)) if label_end(s, next, ascii_only) > next => {
                spelled |= sp;
                p = next;
            }
            _ => break,
        }
    }
    if labels.len() == 1 && kind == Kind::Tight {
        // A punycode top-level domain standing alone.
        let (start, end, _) = labels[0];
        let label = &s[start..end];
        let punycode = label.len() > 4 && label.as_bytes()[..4].eq_ignore_ascii_case(b"xn--");
        return punycode.then_some(end);
    }
    // The longest run of labels that ends in a top-level domain: `x@a.b.png` is not an address,
    // but `x@a.com.png` keeps `a.com`.
    (2..=labels.len()).rev().find_map(|k| {
        let (start, end, spelled) = labels[k - 1];
        tld_end(&s[start..end], kind, spelled).map(|len| start + len)
    })
}

/// Length of the top-level domain at the start of `label`, if it is one.
fn tld_end(label: &str, kind: Kind, spelled: bool) -> Option<usize> {
    if label.len() > 4 && label.as_bytes()[..4].eq_ignore_ascii_case(b"xn--") {
        return Some(label.len());
    }
    let letters = label
        .char_indices()
        .find(|&(_, c)| !c.is_alphabetic())
        .map_or(label.len(), |(i, _)| i);
    let tld = &label[..letters];
    // Letters may run on into `-suffix` (`example.com-based`); never into digits.
    let ends_cleanly = letters == label.len() || label.as_bytes()[letters] == b'-';
    if !ends_cleanly || tld.chars().count() < 2 {
        return None;
    }
    if FILE_EXTENSIONS.iter().any(|e| e.eq_ignore_ascii_case(tld)) {
        return None;
    }
    let common = COMMON_TLDS.iter().any(|t| t.eq_ignore_ascii_case(tld));
    let ok = match kind {
        Kind::Word => common,
        Kind::Tight => !spelled || common,
        Kind::Spaced | Kind::Spelled => !spelled || tld.is_ascii(),
    };
    ok.then_some(letters)
}
