//! Email detection: `local@domain.tld` (Unicode labels, quoted local parts) and the obfuscated
//! forms `x[at]y[dot]com`, `x (at) y.com` and `x at y dot com`.

use super::{Sink, prev_char_start};
use crate::Category;

/// File extensions that follow `@` in asset names (`icon@2x.png`), never top-level domains.
const FILE_EXTENSIONS: &[&str] = &[
    "png", "jpg", "jpeg", "svg", "gif", "webp", "js", "ts", "css",
];

/// Top-level domains accepted in obfuscated addresses, where prose would otherwise match.
const COMMON_TLDS: &[&str] = &[
    "com", "net", "org", "edu", "gov", "mil", "int", "io", "co", "il", "uk", "us", "ca", "au",
    "de", "fr", "es", "it", "nl", "ru", "jp", "cn", "in", "br", "info", "biz", "me", "dev", "app",
    "ai",
];

/// How a domain may be written.
#[derive(Clone, Copy)]
struct Rules {
    /// Obfuscated address: ASCII labels and a top-level domain from [`COMMON_TLDS`].
    obfuscated: bool,
    /// `.` may separate labels (not in `x at y dot com`, where a dot ends a sentence).
    plain_dot: bool,
    /// ` dot ` may separate labels.
    word_dot: bool,
}

/// An email around the `@` at view offset `at`.
pub(super) fn at_sign(s: &str, at: usize, sink: &mut Sink) {
    let Some(start) = local_part_start(s, at) else {
        return;
    };
    let rules = Rules {
        obfuscated: false,
        plain_dot: true,
        word_dot: false,
    };
    if let Some(end) = domain_end(s, at + 1, rules) {
        sink.push(start, end, Category::Email, true);
    }
}

/// An obfuscated email around the standalone `at` at view offset `a`.
pub(super) fn at_word(s: &str, a: usize, sink: &mut Sink) {
    let v = s.as_bytes();
    let (Some(prev), Some(&next)) = (a.checked_sub(1).map(|p| v[p]), v.get(a + 2)) else {
        return;
    };
    let bracketed = matches!((prev, next), (b'[', b']') | (b'(', b')') | (b'{', b'}'));
    let (token_start, token_end) = match (bracketed, prev, next) {
        (true, _, _) => (a - 1, a + 3),
        (false, b' ', b' ') => (a, a + 2),
        _ => return,
    };
    let mut local_end = token_start;
    if local_end > 0 && v[local_end - 1] == b' ' {
        local_end -= 1;
    }
    let mut start = local_end;
    while start > 0 && is_local_ascii(v[start - 1]) {
        start -= 1;
    }
    start = trim_leading_punctuation(v, start, local_end);
    if start == local_end || (!bracketed && local_end == token_start) {
        return;
    }
    let mut domain_start = token_end;
    if v.get(domain_start) == Some(&b' ') {
        domain_start += 1;
    }
    let rules = Rules {
        obfuscated: true,
        plain_dot: bracketed,
        word_dot: true,
    };
    if let Some(end) = domain_end(s, domain_start, rules) {
        sink.push(start, end, Category::Email, true);
    }
}

fn is_local_ascii(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'%' | b'+' | b'-')
}

/// Quotes, dots and dashes before an address belong to the sentence, not to the address.
fn trim_leading_punctuation(v: &[u8], mut start: usize, end: usize) -> usize {
    while start < end && !(v[start].is_ascii_alphanumeric() || v[start] == b'_' || v[start] >= 0x80)
    {
        start += 1;
    }
    start
}

fn local_part_start(s: &str, at: usize) -> Option<usize> {
    let v = s.as_bytes();
    if at == 0 {
        return None;
    }
    if v[at - 1] == b'"' {
        // A quoted local part: at most 64 characters, on one line.
        let from = (at - 1).saturating_sub(66);
        let open = v[from..at - 1]
            .iter()
            .rposition(|&b| b == b'"' || b == b'\n')?
            + from;
        return (v[open] == b'"' && open + 2 < at).then_some(open);
    }
    let mut start = at;
    while start > 0 && is_local_ascii(v[start - 1]) {
        start -= 1;
    }
    // A Unicode local part, or a Unicode word joined to one by punctuation; a Unicode letter
    // glued straight onto an ASCII address is a prefix (the Hebrew `ל`), not part of it.
    if start == at || !v[start].is_ascii_alphanumeric() {
        while start > 0 {
            let q = prev_char_start(v, start);
            let c = s[q..start].chars().next().unwrap_or(' ');
            if c.is_alphanumeric() || matches!(c, '.' | '_' | '%' | '+' | '-') {
                start = q;
            } else {
                break;
            }
        }
    }
    let start = trim_leading_punctuation(v, start, at);
    (start < at).then_some(start)
}

/// End of the label starting at `p`.
fn label_end(s: &str, mut p: usize, ascii_only: bool) -> usize {
    let v = s.as_bytes();
    while p < v.len() {
        let b = v[p];
        if b.is_ascii_alphanumeric() || b == b'-' {
            p += 1;
        } else if b >= 0x80 && !ascii_only {
            let c = s[p..].chars().next().unwrap_or(' ');
            if !c.is_alphanumeric() {
                break;
            }
            p += c.len_utf8();
        } else {
            break;
        }
    }
    p
}

/// Where the next label starts when a label separator follows `p`.
fn after_separator(v: &[u8], p: usize, rules: Rules) -> Option<usize> {
    let rest = &v[p..];
    if rules.plain_dot && rest.first() == Some(&b'.') {
        return Some(p + 1);
    }
    if rules.word_dot && rest.len() >= 5 && rest[..5].eq_ignore_ascii_case(b" dot ") {
        return Some(p + 5);
    }
    let q = if rest.first() == Some(&b' ') {
        p + 1
    } else {
        p
    };
    let t = &v[q..];
    if t.len() >= 5
        && t[1..4].eq_ignore_ascii_case(b"dot")
        && matches!((t[0], t[4]), (b'[', b']') | (b'(', b')') | (b'{', b'}'))
    {
        let r = q + 5;
        return Some(if v.get(r) == Some(&b' ') { r + 1 } else { r });
    }
    None
}

/// End of the domain starting at `from`: at least two labels, the last a top-level domain.
fn domain_end(s: &str, from: usize, rules: Rules) -> Option<usize> {
    let v = s.as_bytes();
    let mut labels = Vec::new();
    let mut p = from;
    loop {
        let end = label_end(s, p, rules.obfuscated);
        if end == p {
            break;
        }
        labels.push((p, end));
        match after_separator(v, end, rules) {
            Some(next) if label_end(s, next, rules.obfuscated) > next => p = next,
            _ => break,
        }
    }
    // The longest run of labels that ends in a top-level domain: `x@a.b.png` is not an address,
    // but `x@a.com.png` would keep `a.com`.
    (2..=labels.len()).rev().find_map(|k| {
        let (start, end) = labels[k - 1];
        tld_end(&s[start..end], rules).map(|len| start + len)
    })
}

/// Length of the top-level domain at the start of `label`, if it is one.
fn tld_end(label: &str, rules: Rules) -> Option<usize> {
    let letters = label
        .char_indices()
        .find(|&(_, c)| !c.is_alphabetic())
        .map_or(label.len(), |(i, _)| i);
    let tld = &label[..letters];
    // Letters may run on into `-suffix` (`example.com-based`); never into digits.
    let ends_cleanly = letters == label.len() || label.as_bytes()[letters] == b'-';
    if rules.obfuscated {
        let known = COMMON_TLDS.iter().any(|t| t.eq_ignore_ascii_case(tld));
        return (known && ends_cleanly).then_some(letters);
    }
    if label.len() > 4 && label.as_bytes()[..4].eq_ignore_ascii_case(b"xn--") {
        return Some(label.len());
    }
    let is_file = FILE_EXTENSIONS.iter().any(|e| e.eq_ignore_ascii_case(tld));
    (tld.chars().count() >= 2 && ends_cleanly && !is_file).then_some(letters)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn emails(text: &str) -> Vec<String> {
        let mut sink = Sink { found: Vec::new() };
        let v = text.as_bytes();
        for i in 0..v.len() {
            if v[i] == b'@' {
                at_sign(text, i, &mut sink);
            } else if (v[i] | 0x20) == b'a' && crate::view::is_at_word(v, i) {
                at_word(text, i, &mut sink);
            }
        }
        sink.found
            .iter()
            .map(|f| text[f.start..f.end].to_owned())
            .collect()
    }

    #[test]
    fn plain_addresses() {
        assert_eq!(
            emails("write to Dana.Levi@Example.CO.IL!"),
            ["Dana.Levi@Example.CO.IL"]
        );
        assert_eq!(
            emails("(dana+tag@mail.example.com)"),
            ["dana+tag@mail.example.com"]
        );
        assert_eq!(
            emails("\"dana levi\"@example.com"),
            ["\"dana levi\"@example.com"]
        );
        assert_eq!(emails("דנה@דוגמה.ישראל"), ["דנה@דוגמה.ישראל"]);
        assert_eq!(
            emails("x@xn--80ak6aa92e.xn--p1ai"),
            ["x@xn--80ak6aa92e.xn--p1ai"]
        );
        assert_eq!(emails("כתבו לdana@example.com."), ["dana@example.com"]);
        assert_eq!(emails("'dana@example.com'"), ["dana@example.com"]);
        assert_eq!(emails("dana@example.com-based"), ["dana@example.com"]);
    }

    #[test]
    fn not_addresses() {
        assert!(emails("npm i lodash@4.17.21").is_empty());
        assert!(emails("use icon@2x.png").is_empty());
        assert!(emails("root@localhost").is_empty());
        assert!(emails("Screen 3840x2160 @ 144Hz").is_empty());
        assert!(emails("@mention here").is_empty());
        assert!(emails("[EMAIL]@example.com").is_empty());
    }

    #[test]
    fn obfuscated_addresses() {
        assert_eq!(
            emails("contact dana[at]gmail[dot]com"),
            ["dana[at]gmail[dot]com"]
        );
        assert_eq!(emails("dana (at) gmail.com"), ["dana (at) gmail.com"]);
        assert_eq!(emails("dana at gmail dot com"), ["dana at gmail dot com"]);
        assert_eq!(
            emails("dana AT mail DOT co DOT il"),
            ["dana AT mail DOT co DOT il"]
        );
        assert!(emails("meet at noon").is_empty());
        assert!(emails("look at this dot matrix").is_empty());
        assert!(emails("we met at home.com").is_empty());
        assert!(emails("[EMAIL] at gmail dot com").is_empty());
    }
}
