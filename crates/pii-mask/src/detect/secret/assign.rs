//! Values assigned to credential words: `DB_PASSWORD=…`, `"api_key": "…"`, `--token …`,
//! `password: …` in YAML, `My password is …`, `הסיסמה שלי היא …`, `パスワードは…です`, and
//! high-entropy tokens a few words after such a word.

use super::shapes::grouped;
use super::value::{assigned_value, is_placeholder, is_variable, random_looking, secret_looking};
use super::{REACH, line_end, short_line};
use crate::Category;
use crate::detect::Sink;

/// How much a credential word proves about the value after it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Strength {
    /// `password`, `token`, `api_key`, `client_secret`: any real value assigned to it.
    Strong,
    /// `key`, `auth`, `credentials`: only a value that looks machine-generated.
    Weak,
    /// `pin`, `pincode`: four to eight digits.
    Pin,
    /// `door code`, `safe combination`: what `Strong` takes, or four to twelve digits,
    /// grouped or ended by a key (`7946`, `08-37-32`, `4800#`).
    Code,
}

/// Names that are a credential when they end an identifier (`DB_PASSWORD`, `githubToken`).
const HEADS: &[&str] = &[
    "password",
    "passwd",
    "pwd",
    "pw",
    "pass",
    "passphrase",
    "passcode",
    "psw",
    "pword",
    "sshpass",
    "requirepass",
    "masterauth",
    "psk",
    "bindpw",
    "secret",
    "token",
    "apikey",
    "secretkey",
    "accesskey",
    "privatekey",
    "authtoken",
    "accesstoken",
    "refreshtoken",
    "clientsecret",
    "sessiontoken",
    "bearertoken",
    "apitoken",
];

/// Credential names that may be glued to a word before them in one lower-case component
/// (`dbpassword`, `mytoken`).
const GLUED: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "secret",
    "token",
    "apikey",
];

/// Words that make `key` a credential when they come before it (`API key`, `access_key`).
const KEY_QUALIFIERS: &[&str] = &[
    "api",
    "access",
    "secret",
    "private",
    "auth",
    "master",
    "encryption",
    "enc",
    "signing",
    "client",
    "app",
    "account",
    "license",
    "licence",
    "session",
    "jwt",
    "hmac",
    "webhook",
    "service",
    "admin",
    "root",
    "consumer",
    "subscription",
    "shared",
    "storage",
    "deploy",
    "ingest",
    "write",
    "sas",
    "x",
    // A Wi-Fi network's key (`WPA2 key: …`, `network key`).
    "wpa",
    "wpa2",
    "wpa3",
    "wep",
    "psk",
    "network",
    "wifi",
    "wlan",
];

/// Words that make `code` a credential when they come before it (`wifi code`, `door code`).
const CODE_QUALIFIERS: &[&str] = &[
    "wifi",
    "wi-fi",
    "door",
    "alarm",
    "gate",
    "access",
    "security",
    "entry",
    "lock",
    "garage",
    "safe",
    "verification",
    "backup",
    "recovery",
    "unlock",
    "building",
    "keypad",
    "lock",
    "locker",
    "padlock",
    "bike",
    "lockbox",
    "garage",
    "alarm",
];

/// Components after a credential name that still name its value (`PASSWORD_HASH`,
/// `SECRET_KEY_BASE`, `password_confirmation`).
const SUFFIXES: &[&str] = &[
    "value",
    "val",
    "b64",
    "base64",
    "hex",
    "str",
    "string",
    "raw",
    "plain",
    "plaintext",
    "hash",
    "hashed",
    "base",
    "confirmation",
    "confirm",
    "again",
    "repeat",
    "enc",
    "encrypted",
    "new",
];

const WEAK: &[&str] = &[
    "key",
    "auth",
    "credential",
    "credentials",
    "cred",
    "creds",
    "seed",
    "totp",
];

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')
}

/// Lower-case components of an identifier: split at `_`, `-`, `.`, a lower-to-upper case change
/// and a letter-digit change.
fn components(id: &[u8]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut prev: u8 = 0;
    for &b in id {
        if matches!(b, b'_' | b'-' | b'.') {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev = b;
            continue;
        }
        let split = (prev.is_ascii_lowercase() && b.is_ascii_uppercase())
            || (prev.is_ascii_alphabetic() && b.is_ascii_digit())
            || (prev.is_ascii_digit() && b.is_ascii_alphabetic());
        if split && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        cur.push(char::from(b.to_ascii_lowercase()));
        prev = b;
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Whether the identifier `id` names a credential, and how strongly; `prev_word` is the word
/// before it in a sentence (`API` in `API key`).
fn credential_name(id: &[u8], prev_word: &str) -> Option<Strength> {
    let comps = components(id);
    let mut k = comps.len();
    while k > 0 {
        let c = comps[k - 1].as_str();
        if SUFFIXES.contains(&c) || c.bytes().all(|b| b.is_ascii_digit()) {
            k -= 1;
        } else {
            break;
        }
    }
    if k == 0 {
        return None;
    }
    let head = comps[k - 1].as_str();
    let before = if k >= 2 {
        comps[k - 2].as_str()
    } else {
        prev_word
    };
    if head == "passcode" || head == "keypad" {
        return Some(Strength::Code);
    }
    if head == "pin" || head == "pincode" || head == "puk" {
        return Some(Strength::Pin);
    }
    if HEADS.contains(&head) {
        return Some(Strength::Strong);
    }
    if GLUED
        .iter()
        .any(|g| head.len() > g.len() && head.ends_with(g))
    {
        return Some(Strength::Strong);
    }
    if head == "code" || head == "combination" {
        return CODE_QUALIFIERS.contains(&before).then_some(Strength::Code);
    }
    if head == "key" {
        return Some(if KEY_QUALIFIERS.contains(&before) {
            Strength::Strong
        } else {
            Strength::Weak
        });
    }
    if let Some(q) = head.strip_suffix("key")
        && KEY_QUALIFIERS.contains(&q)
    {
        return Some(Strength::Strong);
    }
    WEAK.contains(&head).then_some(Strength::Weak)
}

/// The ASCII word before `pos`, across spaces, lower-cased.
fn prev_word(v: &[u8], pos: usize) -> String {
    let mut e = pos;
    while e > 0 && v[e - 1] == b' ' {
        e -= 1;
    }
    let mut s = e;
    while s > 0 && v[s - 1].is_ascii_alphanumeric() {
        s -= 1;
    }
    String::from_utf8_lossy(&v[s..e]).to_ascii_lowercase()
}

pub(super) fn skip_blanks(v: &[u8], mut p: usize) -> usize {
    while p < v.len() && matches!(v[p], b' ' | b'\t') {
        p += 1;
    }
    p
}

/// Where the text after a value ending at `end` starts: past its closing quote, which may be
/// a typographic one of several bytes, when it was quoted.
pub(super) fn past_value(v: &[u8], end: usize, quoted: bool) -> usize {
    if !quoted || end >= v.len() {
        return end;
    }
    let len = match v[end] {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    };
    (end + len).min(v.len())
}

/// Typographic quotes around a value, opening and closing.
const CURLY_QUOTES: &[(&str, &str)] = &[
    ("\u{201C}", "\u{201D}"),
    ("\u{2018}", "\u{2019}"),
    ("\u{AB}", "\u{BB}"),
    ("\u{201E}", "\u{201C}"),
];

/// True when a typographic quote opens at `p`.
pub(super) fn curly_quote_at(v: &[u8], p: usize) -> bool {
    CURLY_QUOTES
        .iter()
        .any(|(open, _)| v[p..].starts_with(open.as_bytes()))
}

/// A value starting at `p`: a quoted string (on one line), the text of an XML element, or a
/// run of printable ASCII up to whitespace, with trailing sentence punctuation and unmatched
/// closing brackets left out. Returns `(start, end, quoted)`.
pub(super) fn value_at(v: &[u8], p: usize, stop_at: &[u8]) -> Option<(usize, usize, bool)> {
    let c = *v.get(p)?;
    // Typographic quotes: `“…”`, `‘…’`, `«…»`, `„…“`.
    for (open, close) in CURLY_QUOTES {
        let (open, close) = (open.as_bytes(), close.as_bytes());
        if v[p..].starts_with(open) {
            let from = p + open.len();
            let len = v[from..]
                .windows(close.len())
                .take(1024)
                .take_while(|w| w[0] != b'\n')
                .position(|w| w == close)?;
            return (len > 0).then_some((from, from + len, true));
        }
    }
    if matches!(c, b'"' | b'\'' | b'`') {
        let mut q = p + 1;
        while q < v.len() && v[q] != c && v[q] != b'\n' && q - p < 1024 {
            if v[q] == b'\\' {
                q += 1;
            }
            q += 1;
        }
        return (q < v.len() && v[q] == c && q > p + 1).then_some((p + 1, q, true));
    }
    if c == b'\\' && matches!(v.get(p + 1), Some(b'"' | b'\'')) {
        // A string inside an escaped JSON string: `\"…\"`.
        let quote = [b'\\', v[p + 1]];
        let from = p + 2;
        let len = v[from..].windows(2).take(1024).position(|w| w == quote)?;
        return (len > 0).then_some((from, from + len, true));
    }
    let mut end = p;
    // A value is read at most 1 KiB far: a longer run is no password (the token pass reads
    // long generated runs), and an unbounded read from every match of a long run would make
    // the scan quadratic.
    while end < v.len() && end - p < 1024 {
        if v[end] >= 0x80 {
            // A letter of another alphabet is part of the value (`Grüße2024!`, `Kx9#mPévL7`):
            // stopping there would leave the rest of it visible.
            match glued_letter(v, end) {
                Some(len) => {
                    end += len;
                    continue;
                }
                None => break,
            }
        }
        if v[end] <= b' ' || v[end] == 0x7F {
            break;
        }
        if stop_at.contains(&v[end]) {
            // In a URL query, `&` ends the value only where the next parameter starts.
            let next_param = v[end] != b'&' || {
                let name = run_of_name(v, end + 1);
                name > end + 1 && v.get(name) == Some(&b'=')
            };
            if next_param {
                break;
            }
        }
        end += 1;
    }
    let run_end = end;
    // A literal `\n` (an escaped newline inside a JSON string) ends a value too.
    if let Some(k) = v[p..end].windows(2).position(|w| w == b"\\n") {
        end = p + k;
    }
    while let Some(&last) = v[p..end].last() {
        let strip = match last {
            // An ellipsis (`sk-...`) is part of a placeholder, not sentence punctuation; after
            // a whole value it trails the sentence (`Iv<lrKT-fg#9... I think`).
            b'.' => {
                !v[p..end].ends_with(b"..") || {
                    let body = v[p..end].trim_ascii_end();
                    let body =
                        &body[..body.len() - body.iter().rev().take_while(|&&b| b == b'.').count()];
                    body.len() >= 6
                        && body.iter().any(u8::is_ascii_digit)
                        && body.iter().any(u8::is_ascii_alphabetic)
                        && !body.ends_with(b"-")
                        && !body.ends_with(b"_")
                }
            }
            b',' | b';' | b':' | b'"' | b'\'' | b'`' => true,
            // An opening bracket at the end belongs to the value where a blank or the end
            // follows (`x]3.i;6OM{`); against the text of a script without spaces it opens an
            // aside (`…ebcb（本番では使わない）`).
            b'(' | b'[' | b'{' | b'<' => run_end < v.len() && v[run_end] >= 0x80,
            b')' => count(&v[p..end], b'(') < count(&v[p..end], b')'),
            b']' => count(&v[p..end], b'[') < count(&v[p..end], b']'),
            b'}' => count(&v[p..end], b'{') < count(&v[p..end], b'}'),
            b'>' => count(&v[p..end], b'<') < count(&v[p..end], b'>'),
            _ => false,
        };
        if !strip {
            break;
        }
        end -= 1;
    }
    (end > p).then_some((p, end, false))
}

/// The length of the character at `at` when it is a letter or digit of an alphabet written
/// with spaces between words (Latin, Greek, Cyrillic, Hebrew, Arabic…), which a value may hold;
/// `None` for anything else, and for the scripts written without spaces (Han, kana, Hangul),
/// where the sentence goes on right after a value (`パスワードはabc123です`).
pub(super) fn glued_letter(v: &[u8], at: usize) -> Option<usize> {
    let len = match v.get(at)? {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => return None,
    };
    let c = std::str::from_utf8(v.get(at..at + len)?)
        .ok()?
        .chars()
        .next()?;
    let unspaced = matches!(c as u32,
        0x2E80..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0xFF00..=0xFFEF | 0x20000..=0x3FFFF);
    (c.is_alphanumeric() && !unspaced).then_some(len)
}

/// The start of the letters of [`glued_letter`]'s kind written right before `at`, or `at`.
pub(super) fn glued_start(v: &[u8], at: usize) -> usize {
    let mut start = at;
    loop {
        let mut before = start;
        while before > 0 {
            before -= 1;
            if v[before] & 0xC0 != 0x80 {
                break;
            }
        }
        if before == start || v[before] < 0x80 || glued_letter(v, before) != Some(start - before) {
            return start;
        }
        start = before;
    }
}

/// The end of the parameter name starting at `from`.
fn run_of_name(v: &[u8], from: usize) -> usize {
    let mut e = from;
    while e < v.len()
        && (v[e].is_ascii_alphanumeric() || matches!(v[e], b'_' | b'-' | b'.' | b'[' | b']'))
    {
        e += 1;
    }
    e
}

fn count(v: &[u8], b: u8) -> usize {
    v.iter().filter(|&&x| x == b).count()
}

/// Words that join a credential name to its value in a sentence.
fn is_connector(word: &[u8]) -> bool {
    [
        "is",
        "was",
        "are",
        "be",
        "to",
        "=",
        ":",
        "->",
        "=>",
        "is:",
        "was:",
        "now",
        "\u{2192}",
        "\u{21D2}",
        "\u{306F}",
        "\u{304C}",
        "\u{3092}",
        "\u{306F}:",
        ">>",
        // Dashes, and the copulas of other languages after an English word (`la password è
        // …`, `pass wifi là …`).
        "\u{2013}",
        "\u{2014}",
        "::",
        "è",
        "é",
        "es",
        "est",
        "ist",
        "er",
        "är",
        "je",
        "jest",
        "este",
        "là",
        "adalah",
        "c'est",
        "\u{662F}",
    ]
    .iter()
    .any(|c| word.eq_ignore_ascii_case(c.as_bytes()))
}

/// A value a sentence gives after a credential word: it reads as a secret, and is no word
/// with a question's or an exclamation's mark (`vergessen?`, `Jenkins?`), no URL and no call
/// (`sys.exit("set`).
fn sentence_value(value: &[u8]) -> bool {
    secret_looking(value)
        && !punctuated_word(value)
        && !value.windows(3).any(|w| w == b"://")
        && !opens_call(value)
}

/// True when `value` starts with a name and an opening bracket: a call (`prompt_password(`,
/// `sys.exit("set`), whose arguments the value's end cut.
fn opens_call(value: &[u8]) -> bool {
    let name = value
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':'))
        .count();
    name > 0
        && value[0].is_ascii_alphabetic()
        && value.get(name) == Some(&b'(')
        && !value[name..].contains(&b')')
}

/// Four to twelve digits, in groups joined by `-` or ended by `#` or `*`: what a keypad takes.
fn code_digits(value: &[u8]) -> bool {
    let digits = value.iter().filter(|b| b.is_ascii_digit()).count();
    (4..=12).contains(&digits)
        && value.first().is_some_and(u8::is_ascii_digit)
        && value
            .iter()
            .all(|b| b.is_ascii_digit() || matches!(b, b'-' | b'#' | b'*'))
}

fn accept(strength: Strength, value: &[u8], quoted: bool, explicit: bool) -> bool {
    match strength {
        Strength::Weak => random_looking(value),
        Strength::Pin => (4..=8).contains(&value.len()) && value.iter().all(u8::is_ascii_digit),
        Strength::Strong | Strength::Code if explicit || quoted => assigned_value(value, quoted),
        Strength::Strong => sentence_value(value),
        Strength::Code => sentence_value(value) || code_digits(value),
    }
}

/// True when everything on the line before `pos` is indentation, a list dash, a comment mark
/// or a shell word such as `export`: the name starts a configuration line.
fn starts_line(v: &[u8], pos: usize) -> bool {
    let Some((line_start, _)) = short_line(v, pos, pos) else {
        return false;
    };
    let prefix = &v[line_start..pos];
    let trimmed: Vec<u8> = prefix
        .iter()
        .copied()
        .filter(|b| !matches!(b, b' ' | b'\t' | b'-' | b'#' | b'{' | b','))
        .collect();
    trimmed.is_empty()
        || ["export", "set", "env", "arg", "setx"]
            .iter()
            .any(|w| trimmed.eq_ignore_ascii_case(w.as_bytes()))
}

/// Handles an English credential word found at `ms..me` in the view.
pub(super) fn english(v: &[u8], ms: usize, me: usize, last: &mut (usize, usize), sink: &mut Sink) {
    // A short word (`pw`, `pin`, `key`, `auth`) counts only as a part of its own: inside a
    // random-looking token (`JEfePW8+…`) it is chance.
    if me - ms <= 4 {
        let camel_start = ms > 0 && v[ms - 1].is_ascii_lowercase() && v[ms].is_ascii_uppercase();
        let apart_before = ms == 0 || !v[ms - 1].is_ascii_alphanumeric() || camel_start;
        let camel_end =
            v[me - 1].is_ascii_lowercase() && v.get(me).is_some_and(u8::is_ascii_uppercase);
        let apart_after = v.get(me).is_none_or(|b| !b.is_ascii_alphanumeric()) || camel_end;
        if !apart_before || !apart_after {
            return;
        }
    }
    let mut is = ms;
    while is > 0 && is_ident(v[is - 1]) {
        is -= 1;
    }
    let mut ie = me;
    while ie < v.len() && is_ident(v[ie]) {
        ie += 1;
    }
    while ie > me && matches!(v[ie - 1], b'.' | b'-' | b'_') {
        ie -= 1;
    }
    if (is, ie) == *last {
        return;
    }
    *last = (is, ie);
    // A CLI flag starts after a space (`--password x`), not after a Hebrew prefix (`ה-password`).
    let flag = v[is] == b'-' && (is == 0 || v[is - 1].is_ascii_whitespace() || v[is - 1] == b'"');
    let mut name = is;
    while name < ie && matches!(v[name], b'-' | b'_' | b'.') {
        name += 1;
    }
    let Some(strength) = credential_name(&v[name..ie], &prev_word(v, is)) else {
        return;
    };
    if strength == Strength::Strong && column(v, is, ie, sink) {
        return;
    }
    let before = if is > 0 { v[is - 1] } else { 0 };
    let mut p = ie;
    let mut quoted_key = false;
    if matches!(before, b'"' | b'\'') && v.get(p) == Some(&before) {
        p += 1;
        quoted_key = true;
        // An index: `app.config["SECRET_KEY"] = …`, `ENV['TOKEN'] = …`.
        if v.get(p) == Some(&b']') {
            p += 1;
        }
    } else if before == b'"' && v.get(p..p + 2) == Some(b"\\\"") {
        p += 2;
        quoted_key = true;
    }
    // `- name: DB_PASSWORD` then `value: …` (Kubernetes, ECS): the value of the pair is the
    // credential's.
    if let Some(vp) = pair_value(v, is, p) {
        try_value(v, vp, strength, true, b"", sink);
        return;
    }
    // `define('DB_PASSWORD', '…')`, `props.put("password", "…")`: a quoted name and, after a
    // comma, its quoted value.
    if quoted_key {
        let comma = skip_blanks(v, p);
        if v.get(comma) == Some(&b',') {
            let vp = skip_blanks(v, comma + 1);
            if matches!(v.get(vp), Some(b'"' | b'\'')) {
                try_value(v, vp, strength, true, b"", sink);
                return;
            }
        }
    }
    // SQL's `PASSWORD('…')`; not a function that reads one (`get_password("acme", user)`).
    if v[is..ie].eq_ignore_ascii_case(b"password")
        && v.get(p) == Some(&b'(')
        && matches!(v.get(p + 1), Some(b'"' | b'\''))
    {
        try_value(v, p + 1, strength, true, b"", sink);
        return;
    }
    // `the password's …`.
    if v.get(p..p + 3) == Some(b"'s ") {
        prose(v, skip_blanks(v, p + 3), strength, sink);
        return;
    }
    let after_name = p;
    p = skip_blanks(v, p);
    let query = matches!(before, b'?' | b'&');
    let stop: &[u8] = if query { b"&#" } else { b"" };
    match v.get(p) {
        Some(b'=' | b':') => {
            let colon = v[p] == b':';
            p += 1;
            if matches!(v.get(p), Some(b'=' | b'>')) {
                p += 1;
            }
            let mut vp = skip_blanks(v, p);
            // The value on the next line: a YAML block scalar (`password: |`, `>-`), or a
            // line of one word under `name:` that ends its line.
            if colon && let Some((next, block)) = value_below(v, vp) {
                let quoted = matches!(v.get(next), Some(b'"' | b'\''));
                if let Some((s, e, q)) = value_at(v, next, b"") {
                    let rest = skip_blanks(v, past_value(v, e, q));
                    let alone = rest >= v.len() || matches!(v[rest], b'\n' | b'\r');
                    let value = &v[s..e];
                    // A block is configuration; a word under a label must read as a secret.
                    let ok = accept(strength, value, q, block || quoted);
                    if alone && ok && !is_placeholder(value) {
                        sink.push(s, e, Category::Secret, true);
                    }
                }
                return;
            }
            // A type between the name and the value: `SECRET: &str = "…"`, `token: string =
            // "…"`, `password: str = "…"`.
            let mut colon = colon;
            if colon
                && let Some((ts, te, false)) = value_at(v, vp, b"")
                && v[ts..te]
                    .iter()
                    .all(|&b| b.is_ascii_alphanumeric() || b"&<>[]:._'".contains(&b))
            {
                let eq = skip_blanks(v, te);
                if eq > te && v.get(eq) == Some(&b'=') && v.get(eq + 1) != Some(&b'=') {
                    vp = skip_blanks(v, eq + 1);
                    colon = false;
                }
            }
            // `name: value` starting a line is configuration when the value is one token
            // (`password: hunter`); with more words after it, it is a sentence
            // (`Password: reset it tomorrow`).
            let one_token = {
                let end = value_at(v, vp, stop).map_or(vp, |(_, e, q)| past_value(v, e, q));
                let rest = skip_blanks(v, end);
                rest >= v.len() || matches!(v[rest], b'\n' | b'\r' | b'#' | b',' | b'}')
            };
            // ODBC quotes a value in braces (`PWD={Sky65\Ox};`); a template in braces is a
            // name (`{DB_PASS}`, `{password}`).
            if !colon
                && v.get(vp) == Some(&b'{')
                && let Some(len) = v[vp + 1..]
                    .iter()
                    .take(REACH)
                    .take_while(|&&b| b != b'\n')
                    .position(|&b| b == b'}')
                && v.get(vp + 1 + len + 1)
                    .is_none_or(|&b| b == b';' || b.is_ascii_whitespace())
            {
                let inner = &v[vp + 1..vp + 1 + len];
                if secret_looking(inner) && !is_variable(inner) {
                    sink.push(vp + 1, vp + 1 + len, Category::Secret, true);
                }
                return;
            }
            // A passphrase is words: after `passphrase:` the rest of the line, three or more
            // words of letters (`golden aerobic baseball blizzard`).
            if v[name..ie].len() >= 10
                && v[ie - 10..ie].eq_ignore_ascii_case(b"passphrase")
                && let Some(end) = words_to_line_end(v, vp)
            {
                sink.push(vp, end, Category::Secret, true);
                return;
            }
            // A template in words (`[enter password]`, `<db password>`), and a call whose
            // arguments hold blanks (`prompt_password("Password: ")`), are no value.
            if opens_template(v, vp) {
                return;
            }
            if let Some((s, e, false)) = value_at(v, vp, stop)
                && opens_call(&v[s..e])
                && v[e..]
                    .iter()
                    .take(REACH)
                    .take_while(|&&b| b != b'\n')
                    .any(|&b| b == b')')
            {
                return;
            }
            let explicit = !colon || quoted_key || (starts_line(v, is) && one_token);
            if !try_value(v, vp, strength, explicit, stop, sink) && !explicit {
                near(v, vp, sink);
            }
        }
        Some(b'>') if before == b'<' => {
            // The text of an element, closed by its end tag (`<password>x</password>`); a
            // template (`https://<token>@host`) is followed by something else.
            if let Some((s, e, _)) = value_at(v, p + 1, b"<\n")
                && v[e..]
                    .iter()
                    .position(|&b| b == b'<' || b == b'\n')
                    .is_some_and(|k| v[e + k..].starts_with(b"</"))
                && accept(strength, &v[s..e], true, true)
            {
                sink.push(s, e, Category::Secret, true);
            }
        }
        Some(_) if flag && p > after_name => {
            // Documentation names the flag (`the --token flag or …`).
            let next = &v[p..v[p..]
                .iter()
                .position(|b| !b.is_ascii_alphabetic())
                .map_or(v.len(), |k| p + k)];
            let named = ["flag", "option", "argument", "parameter", "switch"]
                .iter()
                .any(|w| next.eq_ignore_ascii_case(w.as_bytes()));
            if !named {
                try_value(v, p, strength, true, b"", sink);
            }
        }
        Some(_) if p > after_name => prose(v, p, strength, sink),
        // `token, just in case: …`, `token — …`: no value of its own, maybe one nearby.
        Some(_) if strength != Strength::Pin => near(v, p, sink),
        _ => {}
    }
}

/// The cells of the table row `line`, split at `sep`, as ranges trimmed of blanks (a
/// Markdown row's outer bars are not cells; a CSV cell may be quoted).
fn cells(v: &[u8], line: (usize, usize), sep: u8) -> Vec<(usize, usize)> {
    let (mut from, mut to) = line;
    while from < to && matches!(v[from], b' ' | b'\t') {
        from += 1;
    }
    while to > from && matches!(v[to - 1], b' ' | b'\t' | b'\r') {
        to -= 1;
    }
    if sep == b'|' {
        if v.get(from) != Some(&b'|') {
            return Vec::new();
        }
        from += 1;
        if to > from && v[to - 1] == b'|' {
            to -= 1;
        }
    }
    let mut out = Vec::new();
    let mut start = from;
    let mut k = from;
    let mut quoted = false;
    while k <= to {
        if k < to && v[k] == b'"' && sep != b'|' {
            quoted = !quoted;
        }
        if k == to || (v[k] == sep && !quoted) {
            let (mut s, mut e) = (start, k);
            while s < e && matches!(v[s], b' ' | b'\t') {
                s += 1;
            }
            while e > s && matches!(v[e - 1], b' ' | b'\t') {
                e -= 1;
            }
            if sep != b'|' && e > s + 1 && v[s] == b'"' && v[e - 1] == b'"' {
                s += 1;
                e -= 1;
            }
            out.push((s, e));
            start = k + 1;
        }
        k += 1;
    }
    out
}

/// A credential name at `is..ie` that heads a column of a table (a Markdown table or CSV):
/// every cell under it, down to the first line of another shape, is a
/// value. True when the name is such a heading.
fn column(v: &[u8], is: usize, ie: usize, sink: &mut Sink) -> bool {
    let Some((header_start, header_end)) = short_line(v, is, ie) else {
        return false;
    };
    let header = &v[header_start..header_end];
    let sep = if header.trim_ascii_start().starts_with(b"|") {
        b'|'
    } else if header.contains(&b',') {
        b','
    } else {
        return false;
    };
    let heads = cells(v, (header_start, header_end), sep);
    // The name is its cell, alone or after at most two words (`DB Password`).
    let Some(column) = heads.iter().position(|&(s, e)| {
        s <= is && ie <= e && e - ie == 0 && v[s..is].iter().filter(|&&b| b == b' ').count() <= 2
    }) else {
        return false;
    };
    // A header is short names (`Service`, `DB Password`), not sentences with commas.
    let names = heads
        .iter()
        .all(|&(s, e)| e - s <= 32 && !v[s..e].iter().any(|b| matches!(b, b'?' | b'!' | b'.')));
    if heads.len() < if sep == b'|' { 2 } else { 3 } || !names {
        return false;
    }
    let mut at = header_end;
    let mut rows = 0;
    while at < v.len() && rows < 500 {
        let from = at + 1;
        let to = line_end(v, from);
        if to < v.len() && v[to] != b'\n' {
            break;
        }
        at = to;
        let row = cells(v, (from, to), sep);
        // A Markdown table's rule under its header.
        if sep == b'|'
            && rows == 0
            && !row.is_empty()
            && row
                .iter()
                .all(|&(s, e)| e > s && v[s..e].iter().all(|b| matches!(b, b'-' | b':')))
        {
            continue;
        }
        let shaped = if sep == b'|' {
            row.len() > column
        } else {
            row.len() == heads.len()
        };
        if !shaped {
            break;
        }
        rows += 1;
        let (s, e) = row[column];
        if e > s && assigned_value(&v[s..e], true) {
            sink.push(s, e, Category::Secret, true);
        }
    }
    rows > 0
}

/// Where a value written under its name starts, when the name's line ends at `at` (after
/// `name:`) or with a YAML block indicator (`|`, `>`, with `-` or `+`): `(start, block)` on
/// the next line, which a block must indent.
fn value_below(v: &[u8], at: usize) -> Option<(usize, bool)> {
    let mut p = at;
    let block = matches!(v.get(p), Some(b'|' | b'>'));
    if block {
        p += 1;
        if matches!(v.get(p), Some(b'-' | b'+')) {
            p += 1;
        }
        p = skip_blanks(v, p);
    }
    if v.get(p) == Some(&b'\r') {
        p += 1;
    }
    if v.get(p) != Some(&b'\n') {
        return None;
    }
    let line = p + 1;
    let start = skip_blanks(v, line);
    if start >= v.len() || matches!(v[start], b'\n' | b'\r') || (block && start == line) {
        return None;
    }
    Some((start, block))
}

/// Where the value of a name/value pair starts, when the credential name at `is` is the name of
/// one: `- name: DB_PASSWORD` followed by `value: …` on the next line, or
/// `{"name": "DB_PASSWORD", "value": "…"}`.
fn pair_value(v: &[u8], is: usize, after: usize) -> Option<usize> {
    let (line_start, _) = short_line(v, is, is)?;
    let prefix = &v[line_start..is];
    let named = prefix
        .windows(4)
        .rposition(|w| w.eq_ignore_ascii_case(b"name"))
        .is_some_and(|k| {
            prefix[k + 4..]
                .iter()
                .all(|b| matches!(b, b'"' | b'\'' | b':' | b'=' | b' '))
                && prefix[k + 4..].iter().any(|b| matches!(b, b':' | b'='))
        });
    if !named {
        return None;
    }
    let window = &v[after..v.len().min(after + 120)];
    let mut lines = 0;
    let mut k = 0;
    while k + 5 <= window.len() {
        if window[k] == b'\n' {
            lines += 1;
            if lines > 1 {
                return None;
            }
        }
        if window[k..k + 5].eq_ignore_ascii_case(b"value") {
            let mut q = k + 5;
            while q < window.len() && matches!(window[q], b'"' | b'\'' | b' ') {
                q += 1;
            }
            if q < window.len() && matches!(window[q], b':' | b'=') {
                return Some(skip_blanks(v, after + q + 1));
            }
        }
        k += 1;
    }
    None
}

/// A user name and its password after a login word (`ms..me`): `login: root / …`, `my login
/// is dana / …`, `Login jdoe:…`, `credentials: ops:…`, `creds: deploy/…`. The password must
/// read as one (a plain word after a name is not masked).
pub(super) fn login_pair(v: &[u8], ms: usize, me: usize, sink: &mut Sink) {
    if ms > 0 && v[ms - 1].is_ascii_alphanumeric() {
        return;
    }
    let mut p = me;
    while p < v.len() && v[p].is_ascii_alphabetic() && p - me < 2 {
        p += 1;
    }
    if p < v.len() && v[p].is_ascii_alphanumeric() {
        return;
    }
    // A call in a log line: `login(dana, "…")`.
    if v.get(p) == Some(&b'(') && v[ms..me].eq_ignore_ascii_case(b"login") {
        let comma = p + v[p..]
            .iter()
            .take(REACH)
            .take_while(|&&b| b != b'\n')
            .position(|&b| b == b',')
            .unwrap_or(0);
        if comma > p {
            let q = skip_blanks(v, comma + 1);
            // A message is no password (`login(request, "Please sign in")`).
            if matches!(v.get(q), Some(b'"' | b'\''))
                && let Some((s, e, true)) = value_at(v, q, b"")
                && !v[s..e].contains(&b' ')
            {
                try_value(v, q, Strength::Strong, true, b"", sink);
            }
        }
        return;
    }
    p = skip_blanks(v, p);
    let mut joined = true;
    if matches!(v.get(p), Some(b':' | b'=')) {
        p = skip_blanks(v, p + 1);
    } else if let Some(rest) = v.get(p..p + 3)
        && (rest.eq_ignore_ascii_case(b"is ") || rest.eq_ignore_ascii_case(b"are"))
    {
        p = skip_blanks(v, p + 3);
    } else {
        joined = false;
    }
    let user_end = p + v[p..]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'@' | b'\\'))
        .count();
    if user_end == p {
        return;
    }
    let mut q = user_end;
    match v.get(q) {
        // Not a URL (`login: https://…`).
        Some(b':') if v.get(q + 1) == Some(&b'/') => return,
        // `user/password` glued needs a joiner after the word (`Fixed login bug/CVE-…`).
        Some(b'/') if !joined => return,
        Some(b':' | b'/') => q += 1,
        Some(b' ') => {
            q = skip_blanks(v, q);
            if v.get(q) != Some(&b'/') {
                return;
            }
            q = skip_blanks(v, q + 1);
        }
        _ => return,
    }
    if let Some((s, e, quoted)) = value_at(v, q, b"") {
        let value = &v[s..e];
        let ok = if quoted {
            assigned_value(value, true)
        } else {
            secret_looking(value) || random_looking(value)
        };
        if ok && !is_placeholder(value) {
            sink.push(s, e, Category::Secret, true);
        }
    }
}

/// SQL's `IDENTIFIED BY 'password'`: the quoted value after it.
pub(super) fn quoted_after(v: &[u8], end: usize, sink: &mut Sink) {
    let p = skip_blanks(v, end);
    if matches!(v.get(p), Some(b'"' | b'\'' | b'`')) {
        try_value(v, p, Strength::Strong, true, b"", sink);
    }
}

/// Words after a credential name that make the sentence about something else than its value:
/// `token limit is 4096`, `password manager is 1Password`, `password policy: …`.
const NOT_ITS_VALUE: &[&str] = &[
    "limit",
    "limits",
    "count",
    "counts",
    "budget",
    "usage",
    "size",
    "length",
    "expiry",
    "expires",
    "expired",
    "ttl",
    "lifetime",
    "window",
    "cost",
    "costs",
    "rate",
    "quota",
    "policy",
    "reset",
    "rotation",
    "manager",
    "managers",
    "strength",
    "requirements",
    "requirement",
    "field",
    "hint",
    "type",
    "format",
    "prompt",
    "per",
    "used",
];

/// Masks the value at `p` if `strength` accepts it; true when it did.
fn try_value(
    v: &[u8],
    p: usize,
    strength: Strength,
    explicit: bool,
    stop: &[u8],
    sink: &mut Sink,
) -> bool {
    // A secret written in groups of four (`oygs tice vofk 55uu`) is one value.
    if let Some((s, e)) = grouped(v, p) {
        sink.push(s, e, Category::Secret, true);
        return true;
    }
    match value_at(v, p, stop) {
        Some((s, e, quoted)) if accept(strength, &v[s..e], quoted, explicit) => {
            sink.push(s, e, Category::Secret, true);
            true
        }
        _ => false,
    }
}

/// A credential word in a sentence: the value after a connector (`is`, `was`, `:`, `set to`)
/// within a few words, or right after the word, or a high-entropy token nearby.
fn prose(v: &[u8], from: usize, strength: Strength, sink: &mut Sink) {
    let first_end = (from..v.len())
        .find(|&e| v[e].is_ascii_whitespace())
        .unwrap_or(v.len());
    let first = &v[from..first_end];
    let first = first.strip_suffix(b":").unwrap_or(first);
    if NOT_ITS_VALUE
        .iter()
        .any(|w| first.eq_ignore_ascii_case(w.as_bytes()))
    {
        return;
    }
    let mut k = from;
    for i in 0..6 {
        if k >= v.len() || v[k] == b'\n' {
            break;
        }
        let mut end = k;
        while end < v.len() && !v[end].is_ascii_whitespace() {
            end += 1;
        }
        let word = &v[k..end];
        if let Some((s, e)) = grouped(v, k) {
            sink.push(s, e, Category::Secret, true);
            return;
        }
        if i == 0 {
            // A quoted value right after the name (`WITH PASSWORD 'x'`), or the value itself
            // (`wifi password Tr0ub4dor&3`), which must then clearly not be a word.
            let quoted = matches!(word.first(), Some(b'"' | b'\'' | b'`')) || curly_quote_at(v, k);
            if quoted {
                if try_value(v, k, strength, true, b"", sink) {
                    return;
                }
            } else if matches!(word.first(), Some(b'(' | b'['))
                && word.len() > 2
                && word.last() == Some(if word[0] == b'(' { &b')' } else { &b']' })
                && secret_looking(&word[1..word.len() - 1])
                && word[1..word.len() - 1].iter().any(u8::is_ascii_digit)
            {
                // A value in brackets (`password [Test1234!a]`): the brackets stay.
                sink.push(k + 1, end - 1, Category::Secret, true);
                return;
            } else if let Some((s, e, _)) = value_at(v, k, b"") {
                let val = &v[s..e];
                let direct = match strength {
                    Strength::Code if code_digits(val) => true,
                    Strength::Strong | Strength::Code => {
                        sentence_value(val) && !val.iter().all(u8::is_ascii_digit)
                    }
                    _ => accept(strength, val, false, false),
                };
                if direct {
                    sink.push(s, e, Category::Secret, true);
                    return;
                }
            }
        }
        // A Hebrew preposition glued with a hyphen (`ל-…`, `ב-…`): what follows it is a value.
        if word.first().is_some_and(|&b| b == 0xD7)
            && let Some(h) = word.iter().position(|&b| b == b'-')
            && word[..h].iter().all(|&b| b >= 0x80)
            && h <= 4
            && try_value(v, k + h + 1, strength, false, b"", sink)
        {
            return;
        }
        if is_connector(word) || (word.len() > 1 && word.len() <= 12 && word.ends_with(b":")) {
            let vp = skip_blanks(v, end);
            if try_value(v, vp, strength, false, b"", sink) {
                return;
            }
        }
        k = skip_blanks(v, end);
    }
    if strength != Strength::Pin {
        near(v, from, sink);
    }
}

/// Masks the first high-entropy token among the next few words on the line.
pub(super) fn near(v: &[u8], from: usize, sink: &mut Sink) {
    let mut k = skip_blanks(v, from);
    for _ in 0..8 {
        if k >= v.len() || v[k] == b'\n' {
            return;
        }
        let mut end = k;
        while end < v.len() && !v[end].is_ascii_whitespace() {
            end += 1;
        }
        if let Some((s, e)) = grouped(v, k) {
            sink.push(s, e, Category::Secret, true);
            return;
        }
        let mut s = k;
        while s < end && !v[s].is_ascii_alphanumeric() {
            s += 1;
        }
        let mut e = end;
        while e > s && !(v[e - 1].is_ascii_alphanumeric() || v[e - 1] == b'=') {
            e -= 1;
        }
        let token = &v[s..e];
        if random_looking(token) && !sha_prefixed(v, s) {
            sink.push(s, e, Category::Secret, true);
            return;
        }
        k = skip_blanks(v, end);
    }
}

/// True when the token at `s` is a digest written with its algorithm (`sha256:…`).
fn sha_prefixed(v: &[u8], s: usize) -> bool {
    s > 0 && v[s - 1] == b':' && {
        let mut a = s - 1;
        while a > 0 && v[a - 1].is_ascii_alphanumeric() {
            a -= 1;
        }
        let alg = &v[a..s - 1];
        [
            "sha1", "sha224", "sha256", "sha384", "sha512", "md5", "blake2b", "blake3",
        ]
        .iter()
        .any(|x| alg.eq_ignore_ascii_case(x.as_bytes()))
    }
}

/// Handles a credential word in Hebrew or Japanese: the value is the first ASCII run that
/// follows on the line, within a short window.
pub(super) fn foreign(s: &str, me: usize, strength: Strength, sink: &mut Sink) {
    after_word(s, me, strength, true, sink);
}

/// Handles a password word of another language written with spaces (`Passwort`, `пароль`)
/// ending at `me`: a value right after `:` or `=` is assigned to it when it is the line's
/// last word (`Passwort: hunter`), as for an English name starting a line; otherwise the
/// first word on the line that reads as a secret (`la contraseña es Tr0ub4dor&3`).
pub(super) fn spaced(s: &str, me: usize, strength: Strength, sink: &mut Sink) {
    let v = s.as_bytes();
    let p = skip_blanks(v, me);
    if matches!(v.get(p), Some(b':' | b'=')) {
        let vp = skip_blanks(v, p + 1);
        if opens_template(v, vp) {
            return;
        }
        if let Some((vs, ve, quoted)) = value_at(v, vp, b"") {
            let vs = if quoted { vs } else { glued_start(v, vs) };
            let rest = skip_blanks(v, past_value(v, ve, quoted));
            let last =
                rest >= v.len() || matches!(v[rest], b'\n' | b'\r' | b'#' | b',' | b';' | b'}');
            if accept(strength, &v[vs..ve], quoted, last) && !is_placeholder(&v[vs..ve]) {
                sink.push(vs, ve, Category::Secret, true);
                return;
            }
        }
    }
    after_word(s, me, strength, false, sink);
}

/// The end of the line from `at` when all of it is three or more words of three or more letters
/// separated by single blanks (a passphrase).
fn words_to_line_end(v: &[u8], at: usize) -> Option<usize> {
    let end = line_end(v, at);
    let line = v[at..end].trim_ascii_end();
    let words: Vec<&[u8]> = line.split(|&b| b == b' ').collect();
    (words.len() >= 3
        && words
            .iter()
            .all(|w| w.len() >= 3 && w.iter().all(u8::is_ascii_alphabetic)))
    .then_some(at + line.len())
}

/// True when a bracket at `at` is closed later on its line: a template in words
/// (`<ваш пароль>`, `[your password]`), not a value.
fn opens_template(v: &[u8], at: usize) -> bool {
    let close = match v.get(at) {
        Some(b'<') => b'>',
        Some(b'[') => b']',
        Some(b'{') => b'}',
        _ => return false,
    };
    v[at + 1..]
        .iter()
        .take(REACH)
        .take_while(|&&b| b != b'\n')
        .any(|&b| b == close)
}

/// A word with the punctuation of a question or an exclamation (`again?`, `now!`): prose,
/// not a value written right after a credential word.
fn punctuated_word(value: &[u8]) -> bool {
    let letters = value
        .iter()
        .take_while(|b| b.is_ascii_alphabetic() || **b == b'\'')
        .count();
    letters >= 2
        && letters < value.len()
        && value[letters..].iter().all(|b| matches!(b, b'?' | b'!'))
}

/// The value after a credential word ending at `me`: the first run on the line, within a
/// short window, that `strength` accepts; a `:` or `=` before it makes it assigned when
/// `colon_assigns`.
fn after_word(s: &str, me: usize, strength: Strength, colon_assigns: bool, sink: &mut Sink) {
    let v = s.as_bytes();
    let mut k = me;
    let mut explicit = false;
    let mut runs = 0;
    // Where the run of printable ASCII that `k` is in starts.
    let mut run_start = me;
    // A sentence puts more words between the word and its value (`le mot de passe de la base
    // est …`).
    let most_runs = if colon_assigns { 4 } else { 6 };
    while k < v.len() && k - me < 160 && v[k] != b'\n' && runs < most_runs {
        let b = v[k];
        if b == b':' || b == b'=' {
            explicit = colon_assigns;
            k += 1;
            continue;
        }
        let starts_value = b.is_ascii_alphanumeric()
            || (b.is_ascii_graphic()
                && !matches!(b, b',' | b'.' | b'(' | b')' | b'-' | b'"' | b'\''));
        let quoted = matches!(b, b'"' | b'\'') || curly_quote_at(v, k);
        if starts_value || quoted {
            let Some((vs, ve, q)) = value_at(v, k, b"") else {
                // A quote that is not closed: the next character (a typographic one has
                // several bytes).
                k += s[k..].chars().next().map_or(1, char::len_utf8);
                continue;
            };
            // Letters of the sentence's alphabet written against the value are part of it
            // (`סיסמה: שלום123!`), and so are marks (`){Gaci4_0F`, `=Q)saT9`).
            let vs = if q {
                vs
            } else {
                leading_marks(v, run_start, glued_start(v, vs))
            };
            // In a sentence a number is a year or a count (`Passwort ändern seit 2023`).
            let number = v[vs..ve].iter().all(u8::is_ascii_digit);
            if accept(strength, &v[vs..ve], q, explicit)
                && !is_placeholder(&v[vs..ve])
                && (explicit || q || !number || strength == Strength::Pin)
            {
                sink.push(vs, ve, Category::Secret, true);
                return;
            }
            // Only the first value after `:` counts as assigned; later ones must stand alone.
            explicit = false;
            runs += 1;
            k = past_value(v, ve, q);
            run_start = k;
            continue;
        }
        if b.is_ascii() {
            if b == b'.' && v.get(k + 1).is_none_or(|n| *n == b' ' || *n == b'\n') {
                return;
            }
            k += 1;
            if b.is_ascii_whitespace() {
                run_start = k;
            }
        } else {
            k += s[k..].chars().next().map_or(1, char::len_utf8);
            run_start = k;
        }
    }
}

/// The start of the marks written right before a value at `vs`, back to `run_start`: closing
/// brackets, `=`, `-`, `,`, `.` and the like, not `:` (a separator) nor an opening bracket or
/// quote (which wrap the value rather than belong to it).
fn leading_marks(v: &[u8], run_start: usize, vs: usize) -> usize {
    if run_start >= vs
        || !v[run_start..vs].iter().all(|&b| {
            b.is_ascii_punctuation()
                && !matches!(b, b':' | b'(' | b'[' | b'{' | b'<' | b'"' | b'\'' | b'`')
        })
    {
        return vs;
    }
    run_start
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for (id, want) in [
            ("DB_PASSWORD", Some(Strength::Strong)),
            ("githubToken", Some(Strength::Strong)),
            ("aws_secret_access_key", Some(Strength::Strong)),
            ("SECRET_KEY_BASE", Some(Strength::Strong)),
            ("api-key", Some(Strength::Strong)),
            ("dbpassword", Some(Strength::Strong)),
            ("password_confirmation", Some(Strength::Strong)),
            ("key", Some(Strength::Weak)),
            ("primary_key", Some(Strength::Weak)),
            ("PASSWORD_MIN_LENGTH", None),
            ("TOKEN_URL", None),
            ("passport", None),
            ("bypass", None),
            ("max_tokens", None),
            ("keyboard", None),
        ] {
            assert_eq!(credential_name(id.as_bytes(), ""), want, "{id}");
        }
        assert_eq!(credential_name(b"key", "api"), Some(Strength::Strong));
    }
}
