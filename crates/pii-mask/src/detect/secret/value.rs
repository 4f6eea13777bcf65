//! What a candidate value looks like: a placeholder, a variable, a password, random.

/// Values that stand for a secret without being one, compared without case.
const PLACEHOLDER_WORDS: &[&str] = &[
    "password",
    "passwd",
    "pass",
    "pwd",
    "pw",
    "secret",
    "token",
    "apikey",
    "api_key",
    "key",
    "null",
    "none",
    "nil",
    "undefined",
    "true",
    "false",
    "yes",
    "no",
    "on",
    "off",
    "empty",
    "required",
    "optional",
    "hidden",
    "masked",
    "redacted",
    "removed",
    "string",
    "str",
    "int",
    "number",
    "env",
    "todo",
    "tbd",
    "n/a",
    "unset",
    "default",
    "value",
    "foo",
    "bar",
    "baz",
    "dummy",
    "sample",
    "example",
    "placeholder",
    // What a form or a note says about a password instead of giving it.
    "same",
    "unchanged",
    "unknown",
    "forgotten",
    "expired",
    "pending",
    "changed",
    "missing",
    "blank",
    "clear",
    "!vault",
];

/// Marks of a documentation placeholder wherever they stand in a value.
const PLACEHOLDER_MARKS: &[&str] = &["...", "***"];

/// Brackets of a template, a placeholder where the opening one is closed after it (`<token>`,
/// `{{ token }}`, `${TOKEN}`); one alone is a character of a password (`9x<Kq2!Lm`).
const PLACEHOLDER_BRACKETS: &[(&str, &str)] = &[("<", ">"), ("{{", "}}"), ("${", "}")];

/// Words that mark a documentation placeholder where they are written as words
/// ([`written_as_word`]): "YOUR_KEY", "sk-your-key-here", "replaceme".
const PLACEHOLDER_PIECES: &[&str] = &[
    "your",
    "_here",
    "-here",
    "placeholder",
    "redacted",
    "replace_me",
    "replaceme",
    "changeit",
];

fn eq_ignore_case(a: &[u8], b: &str) -> bool {
    a.eq_ignore_ascii_case(b.as_bytes())
}

fn contains_ignore_case(hay: &[u8], needle: &str) -> bool {
    let n = needle.as_bytes();
    hay.len() >= n.len() && hay.windows(n.len()).any(|w| w.eq_ignore_ascii_case(n))
}

/// True when `value` is a documentation placeholder, a template or a reference rather than a
/// secret: `YOUR_API_KEY`, `${TOKEN}`, `$TOKEN`, `%TOKEN%`, `<token>`, `sk-...`, `xxxx`, `***`,
/// the bare word `password`, `null`, or one of our own placeholders.
pub(super) fn is_placeholder(value: &[u8]) -> bool {
    let Some(&first) = value.first() else {
        return true;
    };
    let last = value[value.len() - 1];
    let ident =
        |t: &[u8]| !t.is_empty() && t.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'_');
    let templated = match first {
        // `$TOKEN`, `${TOKEN}`, `$(cat token)`, `$env:TOKEN`.
        b'$' => {
            // `$TOKEN`, `${TOKEN}`, `$(cat token)`, `$env:TOKEN`, `$_POST['password']`,
            // `$this->password`: a variable, whatever follows its name.
            let rest = &value[1..];
            let name = rest
                .iter()
                .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                .count();
            // A name that mixes lower case, capitals and digits is a password that starts
            // with `$` (`$Admin2023`, `$ecretValue9`): variables are named in words.
            let name_text = &rest[..name];
            let password_like = name_text.iter().any(u8::is_ascii_lowercase)
                && name_text.iter().any(u8::is_ascii_uppercase)
                && name_text.iter().any(u8::is_ascii_digit);
            matches!(rest.first(), Some(b'{' | b'('))
                || (name > 0
                    && !password_like
                    && rest[0].is_ascii_alphabetic() | (rest[0] == b'_')
                    && (name == rest.len()
                        || matches!(rest[name], b'[' | b'(' | b'-' | b'.' | b'{' | b':')))
        }
        // `%TOKEN%`, `%s`, `%(token)s`.
        b'%' => {
            (value.len() >= 2 && last == b'%' && ident(&value[1..value.len() - 1]))
                || value == b"%s"
                || value.starts_with(b"%(")
        }
        b'<' => last == b'>',
        // A YAML tag that reads the value from elsewhere (`!env_var API_KEY`, `!vault`,
        // `!Ref`), and an Azure Key Vault reference (`@Microsoft.KeyVault(…)`).
        b'!' => {
            value.len() > 1
                && value[1..]
                    .iter()
                    .all(|b| b.is_ascii_alphabetic() || *b == b'_')
        }
        b'@' => value.contains(&b'(') && last == b')',
        // A file the value is read from (`--from-file=password=./pw.txt`).
        b'.' => value.starts_with(b"./") || value.starts_with(b"../"),
        b'~' => value.starts_with(b"~/"),
        b'{' => last == b'}',
        b'[' => last == b']',
        b'(' => last == b')',
        _ => false,
    };
    if templated {
        return true;
    }
    if value.len() >= 3 && value.iter().all(|&b| b == first) {
        return true;
    }
    // An ellipsis in any form (`…` is three bytes starting 0xE2).
    if value.windows(3).any(|w| w == "…".as_bytes()) {
        return true;
    }
    if PLACEHOLDER_WORDS.iter().any(|w| eq_ignore_case(value, w)) {
        return true;
    }
    let closed = |(open, close): &(&str, &str)| {
        let (open, close) = (open.as_bytes(), close.as_bytes());
        value
            .windows(open.len())
            .position(|w| w == open)
            .is_some_and(|at| {
                value[at + open.len()..]
                    .windows(close.len())
                    .any(|w| w == close)
            })
    };
    if PLACEHOLDER_MARKS
        .iter()
        .any(|p| contains_ignore_case(value, p))
        || PLACEHOLDER_BRACKETS.iter().any(closed)
        || (PLACEHOLDER_PIECES
            .iter()
            .any(|p| contains_word_ignore_case(value, p))
            && !random_run(value))
    {
        return true;
    }
    // A run of four `x` or `X` (`sk-xxxx`, `XXXX-XXXX`, `AKIAXXXXXXXXXXXXXXXX`), not a
    // mixed-case chance (`cxXXY`) nor four in a row among random characters (`ab3XXXXd9`).
    let x_run = value.chunk_by(|a, b| a == b).scan(0, |at, run| {
        let start = *at;
        *at += run.len();
        Some((start, run))
    });
    if x_run
        .filter(|(_, run)| run.len() >= 4 && matches!(run[0], b'x' | b'X'))
        .any(|(at, run)| {
            (run.len() >= 8 || at == 0 || !value[at - 1].is_ascii_alphanumeric())
                && no_digit_after(value, at + run.len())
        })
        && !random_run(value)
    {
        return true;
    }
    // `EXAMPLE_PASSWORD`, `dummy-token`, `TestSecret`: letters only, one of whose words is a
    // placeholder word (not inside another word: `ProtestMarch` is a password).
    let wordy = value
        .iter()
        .all(|b| b.is_ascii_alphabetic() || matches!(b, b'_' | b'-'));
    wordy
        && words(value).any(|word| {
            ["example", "dummy", "sample", "fake", "test", "changeme"]
                .iter()
                .any(|w| eq_ignore_case(word, w))
        })
}

/// The words of an identifier: runs of letters, split where a capital starts a word
/// (`userPassword` is `user`, `Password`; `APIKey` is `API`, `Key`; `HockeyFanatic` is
/// `Hockey`, `Fanatic`).
fn words(value: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut starts = Vec::new();
    let mut ends = Vec::new();
    let mut start: Option<usize> = None;
    for (i, &b) in value.iter().enumerate() {
        if !b.is_ascii_alphabetic() {
            if let Some(s) = start.take() {
                starts.push(s);
                ends.push(i);
            }
            continue;
        }
        let capital_starts = b.is_ascii_uppercase()
            && i > 0
            && (value[i - 1].is_ascii_lowercase()
                || (value[i - 1].is_ascii_uppercase()
                    && value.get(i + 1).is_some_and(u8::is_ascii_lowercase)));
        match start {
            Some(s) if capital_starts => {
                starts.push(s);
                ends.push(i);
                start = Some(i);
            }
            Some(_) => {}
            None => start = Some(i),
        }
    }
    if let Some(s) = start {
        starts.push(s);
        ends.push(value.len());
    }
    starts.into_iter().zip(ends).map(move |(s, e)| &value[s..e])
}

/// True when an unquoted value reads as a reference to something else: a call
/// (`get_password()`), an attribute or index path (`self.password`, `os.environ["TOKEN"]`,
/// `process.env.API_KEY`), or an identifier without digits that is snake case (`db_password`,
/// `GITHUB_TOKEN`) or names a credential itself (`userPassword`).
pub(super) fn is_variable(value: &[u8]) -> bool {
    let Some(&first) = value.first() else {
        return false;
    };
    let ident_start = first.is_ascii_alphabetic() || first == b'_';
    if !ident_start {
        return false;
    }
    // The longest `ident(.ident)*` prefix.
    let mut head = 0;
    loop {
        let len = value[head..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        if len == 0 || !(value[head].is_ascii_alphabetic() || value[head] == b'_') {
            break;
        }
        head += len;
        if value.get(head) == Some(&b'.') && head + 1 < value.len() {
            head += 1;
        } else {
            break;
        }
    }
    let rest = &value[head..];
    // A call or an index closes what it opens: `get_password()`, `os.environ["TOKEN"]`,
    // `std::env::var("TOKEN")?`.
    if let Some(&open) = rest.first().filter(|&&b| b == b'(' || b == b'[') {
        // What follows the bracket is an argument (a string, a name) or nothing; a digit after
        // it is the rest of a password (`hunter2(2023)`), and so is a bracket never closed
        // (`Kx9m(P2vLqW3r`).
        let close = if open == b'(' { b')' } else { b']' };
        return rest.contains(&close)
            && rest.get(1).is_none_or(|&b| {
                matches!(b, b'"' | b'\'' | b')' | b']' | b'_') || b.is_ascii_alphabetic()
            });
    }
    if rest.starts_with(b"::") {
        return rest.contains(&b'(') && rest.contains(&b')');
    }
    let digits = value.iter().any(u8::is_ascii_digit);
    if !rest.is_empty() {
        return false;
    }
    if value.contains(&b'.') {
        return !digits;
    }
    if digits {
        return false;
    }
    // Snake case: every part one case (`db_password`, `GITHUB_TOKEN`), not a random mix
    // (`nxuQToYURK_H_UV`).
    if value.contains(&b'_') {
        return value.split(|&b| b == b'_').all(|part| {
            part.iter().all(|b| !b.is_ascii_uppercase())
                || part.iter().all(|b| !b.is_ascii_lowercase())
        });
    }
    // Camel case that names a credential in one of its words (`userPassword`, `apiKey`), not
    // letters that happen to spell one (`HockeyFanatic`, `qWeRtKEYzXcV`).
    const CREDENTIAL_WORDS: &[&str] = &[
        "pass",
        "password",
        "passwd",
        "pwd",
        "secret",
        "token",
        "key",
        "auth",
        "cred",
        "creds",
        "credential",
        "credentials",
        "passphrase",
        "apikey",
    ];
    words(value).any(|word| CREDENTIAL_WORDS.iter().any(|w| eq_ignore_case(word, w)))
        && value[1..].iter().any(u8::is_ascii_uppercase)
}

/// Character classes of a value.
#[derive(Default, Clone, Copy)]
pub(super) struct Classes {
    pub(super) lower: bool,
    pub(super) upper: bool,
    pub(super) digit: bool,
    pub(super) symbol: bool,
}

pub(super) fn classes(value: &[u8]) -> Classes {
    let mut c = Classes::default();
    for &b in value {
        match b {
            b'a'..=b'z' => c.lower = true,
            b'A'..=b'Z' => c.upper = true,
            b'0'..=b'9' => c.digit = true,
            // A byte of a non-ASCII character: in an unquoted value a letter of another
            // alphabet ([`super::assign::glued_letter`]), in a quoted one what the quotes hold,
            // read as letters are.
            0x80.. => c.lower = true,
            _ => c.symbol = true,
        }
    }
    c
}

/// Shannon entropy of the bytes of `value`, in bits per byte.
pub(super) fn entropy(value: &[u8]) -> f64 {
    if value.is_empty() {
        return 0.0;
    }
    let mut counts = [0u32; 256];
    for &b in value {
        counts[usize::from(b)] += 1;
    }
    let n = value.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / n;
            -p * p.log2()
        })
        .sum()
}

/// Number of distinct bytes in `value`.
pub(super) fn distinct(value: &[u8]) -> usize {
    let mut seen = [false; 256];
    value
        .iter()
        .filter(|&&b| !std::mem::replace(&mut seen[usize::from(b)], true))
        .count()
}

/// A body that could have come from a random generator rather than a person: no run of eight
/// equal characters, not a documentation placeholder, enough distinct characters for its length.
pub(super) fn plausible_body(body: &[u8]) -> bool {
    if body.is_empty() {
        return false;
    }
    let longest_run = body
        .chunk_by(|a, b| a == b)
        .map(<[u8]>::len)
        .max()
        .unwrap_or(0);
    longest_run < 8
        && distinct(body) >= (body.len() / 3).clamp(1, 8)
        && (random_run(body)
            || !["your", "replace", "insert", "redacted", "placeholder"]
                .iter()
                .any(|w| contains_word_ignore_case(body, w)))
}

/// Whether `value` holds a run of twelve or more letters and digits that mixes both: beside
/// one, a placeholder word written as a word is a chance piece of a key
/// (`sk-ant-api03-NqVwYS81…-youra-…`), not documentation (`sk_live_YOUR_KEY_HERE`,
/// `sk-proj-your-key-here-1234567890`).
fn random_run(value: &[u8]) -> bool {
    value.split(|b| !b.is_ascii_alphanumeric()).any(|run| {
        run.len() >= 12
            && run.iter().any(u8::is_ascii_digit)
            && run.iter().any(u8::is_ascii_alphabetic)
    })
}

/// Whether `needle` stands in `hay` written as a word ([`written_as_word`]).
fn contains_word_ignore_case(hay: &[u8], needle: &str) -> bool {
    let n = needle.as_bytes();
    hay.len() >= n.len()
        && hay
            .windows(n.len())
            .enumerate()
            .any(|(at, w)| w.eq_ignore_ascii_case(n) && written_as_word(hay, at, n))
}

/// Whether the placeholder word `needle`, found at `at` in `hay`, is written as a word: its
/// letters start a word (at the start, or after a character that is no letter or digit) and
/// the letters and digits right after it hold no digit ("sk-your-key", "YOUR_KEY",
/// "replaceme", "YOURKEYHERE"). Random characters that happen to spell it — inside a run
/// ("…BYOuROe…") or at a run's start before more random ones ("YOUR4E5l6QIZ…") — spell
/// nothing, and the key is still a key.
fn written_as_word(hay: &[u8], at: usize, needle: &[u8]) -> bool {
    let word_at = at
        + needle
            .iter()
            .take_while(|b| !b.is_ascii_alphanumeric())
            .count();
    (word_at == 0 || !hay[word_at - 1].is_ascii_alphanumeric())
        && no_digit_after(hay, at + needle.len())
}

/// Whether the letters and digits of `hay` from `at` up to the next other character hold no
/// digit.
fn no_digit_after(hay: &[u8], at: usize) -> bool {
    !hay[at.min(hay.len())..]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric())
        .any(u8::is_ascii_digit)
}

/// A canonical UUID (8-4-4-4-12 hex digits).
pub(super) fn is_uuid(value: &[u8]) -> bool {
    value.len() == 36
        && value.iter().enumerate().all(|(i, &b)| {
            if matches!(i, 8 | 13 | 18 | 23) {
                b == b'-'
            } else {
                b.is_ascii_hexdigit()
            }
        })
}

/// A token that looks machine-generated: sixteen or more characters of the base64, base62 or
/// hex alphabets with letters and digits, spread over many distinct characters. UUIDs are
/// identifiers, not secrets.
pub(super) fn random_looking(value: &[u8]) -> bool {
    if value.len() < 16
        || !value.iter().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'_' | b'-' | b'.' | b'~')
        })
    {
        return false;
    }
    let c = classes(value);
    (c.lower || c.upper)
        && c.digit
        && plausible_body(value)
        && entropy(value) >= 3.0
        && !is_uuid(value)
        && !is_placeholder(value)
}

/// Letters only, eight or more, whose case changes at least four times and at four in ten of
/// its letters or more, with no three lower-case letters in a row: typed or generated at random
/// (`qWeRtYuIoPaS`, `nFTvQOKEXn`), not a name or words run together (`McDonaldsBurger`,
/// `iPhoneCase`).
fn random_case(value: &[u8]) -> bool {
    let changes = value
        .windows(2)
        .filter(|w| w[0].is_ascii_uppercase() != w[1].is_ascii_uppercase())
        .count();
    value.len() >= 8
        && value.iter().all(u8::is_ascii_alphabetic)
        && changes >= 4
        && changes * 10 >= value.len() * 4
        && !value
            .windows(3)
            .any(|w| w.iter().all(u8::is_ascii_lowercase))
}

/// A value that reads as a password or key when a sentence introduces it ("my password is
/// …"): four or more characters, not a placeholder, and not a plain word — it mixes letters
/// with digits or symbols, is a PIN-like run of digits, or letters in a random case.
pub(super) fn secret_looking(value: &[u8]) -> bool {
    if value.len() < 4 || is_placeholder(value) || is_variable(value) {
        return false;
    }
    if value.last() == Some(&b':') {
        return false;
    }
    let c = classes(value);
    let letters = c.lower || c.upper;
    (letters && c.digit)
        || (letters
            && c.symbol
            && value.len() >= 6
            && !value
                .iter()
                .all(|b| b.is_ascii_alphabetic() || *b == b'-' || *b == b'\''))
        || (!letters && !c.symbol && c.digit && value.len() <= 16)
        || random_case(value)
        || passphrase_token(value)
}

/// Three or more words of four or more letters joined by hyphens (`granite-thomas-ginger`):
/// a generated passphrase, where two words (`well-known`) or short ones (`state-of-the-art`)
/// are prose.
pub(super) fn passphrase_token(value: &[u8]) -> bool {
    let parts: Vec<&[u8]> = value.split(|&b| b == b'-').collect();
    parts.len() >= 3
        && parts
            .iter()
            .all(|p| p.len() >= 4 && p.iter().all(u8::is_ascii_alphabetic))
}

/// A value assigned with `=` or `:` in code or configuration: anything but a placeholder or a
/// reference, at least three characters.
pub(super) fn assigned_value(value: &[u8], quoted: bool) -> bool {
    value.len() >= 3 && !is_placeholder(value) && (quoted || !is_variable(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_not_secrets() {
        for p in [
            "YOUR_API_KEY",
            "${TOKEN}",
            "$TOKEN",
            "%TOKEN%",
            "<token>",
            "sk-...",
            "xxxx",
            "***",
            "password",
            "null",
            "[SECRET]",
            "changeme_placeholder",
            "EXAMPLE_PASSWORD",
            "…",
        ] {
            assert!(is_placeholder(p.as_bytes()), "{p}");
        }
        for s in [
            "Tr0ub4dor&3",
            "hunter2",
            "Summer2024!",
            "AKIAIOSFODNN7EXAMPLE",
            // Random characters that spell a placeholder word or a run of x.
            "YOUR4E5l6QIZDVeSKZEEHARd",
            "a9Kq_here7Zt2LmW",
            "ab3XXXXd9QpL2mTz",
        ] {
            assert!(!is_placeholder(s.as_bytes()), "{s}");
        }
        for p in [
            "sk-xxxx",
            "XXXX-XXXX",
            "AKIAXXXXXXXXXXXXXXXX",
            "yourkeyhere",
            "sk_live_YOUR_KEY_HERE",
        ] {
            assert!(is_placeholder(p.as_bytes()), "{p}");
        }
    }

    #[test]
    fn references_are_variables() {
        for v in [
            "get_password()",
            "self.password",
            "os.environ[\"TOKEN\"]",
            "process.env.API_KEY",
            "db_password",
            "GITHUB_TOKEN",
            "userPassword",
        ] {
            assert!(is_variable(v.as_bytes()), "{v}");
        }
        for s in ["hunter2", "Tr0ub4dor&3", "s3cr3t.pass", "correcthorse"] {
            assert!(!is_variable(s.as_bytes()), "{s}");
        }
    }

    #[test]
    fn randomness() {
        assert!(random_looking(b"8f14e45fceea167a5a36dedd4bea2543"));
        assert!(random_looking(b"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"));
        assert!(!random_looking(b"550e8400-e29b-41d4-a716-446655440000"));
        assert!(!random_looking(b"configuration_file"));
        assert!(!random_looking(b"aaaaaaaaaaaaaaaa1"));
    }

    #[test]
    fn sentence_values() {
        for s in [
            "Tr0ub4dor&3",
            "hunter2",
            "4821",
            "Summer2024!",
            "p@ss-w0rd",
            "qWeRtYuIoPaS",
            "nFTvQOKEXn",
        ] {
            assert!(secret_looking(s.as_bytes()), "{s}");
        }
        for s in [
            "tomorrow",
            "required",
            "12",
            "expired",
            "well-known",
            "reset:",
            "McDonaldsBurger",
            "iPhoneCase",
            "sunshine",
        ] {
            assert!(!secret_looking(s.as_bytes()), "{s}");
        }
    }
}
