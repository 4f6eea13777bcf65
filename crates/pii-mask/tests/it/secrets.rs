//! Credentials are masked whole or not at all: generated tokens of every published shape, in
//! every carrier the rules read, with digit runs inside them that the number rules would
//! otherwise cut out.

use pii_mask::{Category, contains_personal_data, mask};
use proptest::prelude::*;
use proptest::sample::select;

const BASE62: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const URL: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
const HEX: &[u8] = b"0123456789abcdef";
const UPPER: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/// A provider shape: prefix, body alphabet and body length, as the providers publish them.
const SHAPES: &[(&str, &[u8], usize)] = &[
    ("AKIA", UPPER, 16),
    ("ASIA", UPPER, 16),
    ("AIza", URL, 35),
    ("ghp_", BASE62, 36),
    ("gho_", BASE62, 36),
    ("ghs_", BASE62, 36),
    ("github_pat_", BASE62, 82),
    ("glpat-", URL, 20),
    ("xoxb-", URL, 50),
    ("xoxp-", URL, 60),
    ("sk_live_", BASE62, 24),
    ("rk_live_", BASE62, 99),
    ("whsec_", BASE62, 32),
    ("SK", HEX, 32),
    ("key-", HEX, 32),
    ("sk-proj-", URL, 120),
    ("sk-ant-api03-", URL, 93),
    ("sk-", BASE62, 48),
    ("hf_", BASE62, 34),
    ("npm_", BASE62, 36),
    ("gsk_", BASE62, 52),
    ("r8_", BASE62, 37),
    ("pplx-", BASE62, 48),
    ("dckr_pat_", URL, 27),
    ("shpat_", HEX, 32),
    ("dop_v1_", HEX, 64),
    ("pypi-AgEIcHlwaS5vcmc", URL, 70),
    ("glsa_", BASE62, 41),
    ("lin_api_", BASE62, 40),
    ("sq0atp-", URL, 22),
];

/// Where a token stands: text before and after it.
const CARRIERS: &[(&str, &str)] = &[
    ("", ""),
    ("key ", " for prod"),
    ("export API_TOKEN=", "\n"),
    ("{\"apiKey\": \"", "\"}"),
    ("api_key: ", "\n"),
    (
        "curl -H \"Authorization: Bearer ",
        "\" https://api.example.com",
    ),
    ("https://api.example.com/v1?key=", "&page=2"),
    ("the token is ", ", keep it safe."),
    ("הטוקן שלי הוא ", " תודה"),
    ("トークンは", "です"),
    ("log: using ", " (rotated 2024-03-15)"),
    ("(", ")"),
    ("`", "`"),
];

/// CRC-32 (IEEE, reflected), bit by bit.
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// GitHub's and npm's tokens end in the CRC-32 of their thirty random characters, in six
/// base62 digits (`0-9A-Z a-z`): replaces the last six characters of `body` by it.
fn with_checksum(body: &mut [u8]) {
    const DIGITS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let mut check = u64::from(crc32(&body[..30]));
    for d in body[30..].iter_mut().rev() {
        *d = DIGITS[(check % 62) as usize];
        check /= 62;
    }
}

fn token() -> impl Strategy<Value = String> {
    (0..SHAPES.len(), any::<u64>(), 0usize..6).prop_map(|(i, seed, digit_run)| {
        let (prefix, alphabet, len) = SHAPES[i];
        let mut x = seed | 1;
        let mut body: Vec<u8> = (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                alphabet[(x % alphabet.len() as u64) as usize]
            })
            .collect();
        // A run of ten or more digits inside the body, where the alphabet allows digits: the
        // number rules must not cut it out of the token.
        if digit_run > 0 && alphabet.iter().any(u8::is_ascii_digit) && len >= 24 {
            let at = (x as usize) % (len - 10 - digit_run);
            for b in &mut body[at..at + 10 + digit_run] {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                *b = b'0' + (x % 10) as u8;
            }
        }
        if matches!(prefix, "ghp_" | "gho_" | "ghs_" | "npm_") {
            with_checksum(&mut body);
        }
        let mut t = prefix.as_bytes().to_vec();
        t.extend_from_slice(&body);
        String::from_utf8(t).unwrap_or_default()
    })
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 2048,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// Every token is covered by one `[SECRET]` span from its first byte to its last, and no
    /// span cuts into it.
    #[test]
    fn tokens_are_masked_whole(token in token(), carrier in select(CARRIERS)) {
        let (before, after) = carrier;
        let text = format!("{before}{token}{after}");
        let (a, b) = (before.len(), before.len() + token.len());
        let m = mask(&text);
        let covering: Vec<_> = m.spans.iter().filter(|s| s.start < b && a < s.end).collect();
        prop_assert_eq!(covering.len(), 1, "{:?} -> {:?}", text, m.text);
        let s = covering[0];
        prop_assert!(s.start <= a && b <= s.end, "{:?} -> {:?}", text, m.text);
        prop_assert_eq!(s.category, Category::Secret, "{:?} -> {:?}", text, m.text);
        prop_assert!(!m.text.contains(&token[token.len() - 8..]));
        prop_assert!(contains_personal_data(&token));
        let again = mask(&m.text);
        prop_assert!(again.spans.is_empty(), "{:?} -> {:?}", m.text, again.text);
    }

    /// A run of letters, digits, `_` and `-` that mixes letters and digits is masked whole or
    /// not at all, whatever rule fires inside it.
    #[test]
    fn mixed_tokens_are_whole_or_nothing(
        head in "[a-zA-Z_-]{0,12}",
        digits in "[0-9]{9,16}",
        tail in "[a-zA-Z0-9_]{0,12}",
        carrier in select(CARRIERS),
    ) {
        let token = format!("x{head}{digits}{tail}");
        let (before, after) = carrier;
        let text = format!("{before}{token}{after}");
        // Trailing `_` and `-` are punctuation around the token, not part of the value.
        let value_len = token.trim_end_matches(['_', '-']).len();
        let (a, b) = (before.len(), before.len() + value_len);
        let m = mask(&text);
        for s in &m.spans {
            let overlaps = s.start < b && a < s.end;
            prop_assert!(
                !overlaps || (s.start <= a && b <= s.end),
                "{:?} -> {:?}", text, m.text
            );
        }
    }
}

/// A GitHub token whose checksum fails is a key only where the text says a credential follows.
#[test]
fn checksum_failures_need_credential_context() {
    let bad = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
    assert!(
        mask(&format!("the scanner docs list {bad} as a sample"))
            .spans
            .is_empty()
    );
    assert_eq!(mask(&format!("my token {bad}")).text, "my token [SECRET]");
    assert_eq!(mask(&format!("GH_PAT={bad}")).text, "GH_PAT=[SECRET]");
}

/// Look-alikes that are documentation, identifiers or prose: none is changed.
#[test]
fn look_alikes_stay() {
    for text in [
        "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "export GITHUB_TOKEN=ghp_YOUR_TOKEN_HERE",
        "OPENAI_API_KEY=sk-...",
        "sk-your-openai-api-key-here",
        "sk_live_YOUR_SECRET_KEY",
        "AKIAXXXXXXXXXXXXXXXX",
        "Authorization: Bearer $TOKEN",
        "Authorization: Bearer <token>",
        "Authorization: Bearer ${ACCESS_TOKEN}",
        "postgres://user:password@localhost/db",
        "postgres://user:${DB_PASSWORD}@localhost/db",
        "postgres://localhost:5432/db",
        "password: ${DB_PASSWORD}",
        "\"password\": null",
        "password=password",
        "PASSWORD_MIN_LENGTH=12",
        "TOKEN_URL=https://auth.example.com/token",
        "token_type: bearer",
        "max_tokens: 4096",
        "the keyboard and the passport",
        "bearer authentication is required",
        "request id 550e8400-e29b-41d4-a716-446655440000",
        "image sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "checksum e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "merged commit da39a3ee5e6b4b0d3255bfef95601890afd80709 today",
        "-----BEGIN CERTIFICATE-----",
        "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC KEY-----",
        "パスワードを変更しました",
        "שכחתי את הסיסמה",
        "the secret to good bread is time",
        "pin the tab, then pass the salt",
    ] {
        let m = mask(text);
        assert!(m.spans.is_empty(), "{text:?} -> {:?}", m.text);
    }
}

/// Every carrier form the rules read, with the exact output.
#[test]
fn carriers_mask_the_value_only() {
    for (text, want) in [
        ("DB_PASSWORD='p@ss w0rd!'", "DB_PASSWORD='[SECRET]'"),
        ("password = \"hunter2\"", "password = \"[SECRET]\""),
        (
            "[db]\npassword=hunter22\nuser=app",
            "[db]\npassword=[SECRET]\nuser=app",
        ),
        ("  client_secret: Zx9-Qw8_Er7", "  client_secret: [SECRET]"),
        (
            "mysql --password=hunter2 -u app",
            "mysql --password=[SECRET] -u app",
        ),
        (
            "mysql --password hunter2 -u app",
            "mysql --password [SECRET] -u app",
        ),
        (
            "<password>hunter2</password>",
            "<password>[SECRET]</password>",
        ),
        (
            "CREATE USER app WITH PASSWORD 'Sup3rS3cret';",
            "CREATE USER app WITH PASSWORD '[SECRET]';",
        ),
        (
            "docker run -e POSTGRES_PASSWORD=s3cr3t db",
            "docker run -e POSTGRES_PASSWORD=[SECRET] db",
        ),
        (
            "{\\\"password\\\": \\\"hunter2\\\"}",
            "{\\\"password\\\": \\\"[SECRET]\\\"}",
        ),
        (
            "https://api.example.com/?api_key=abc123def456&x=1",
            "https://api.example.com/?api_key=[SECRET]&x=1",
        ),
        (
            "the wifi password is Tr0ub4dor&3.",
            "the wifi password is [SECRET].",
        ),
        ("my gmail password: hunter2", "my gmail password: [SECRET]"),
        ("PIN 4821 for the door", "PIN [SECRET] for the door"),
        (
            "redis://:s3cret@cache:6379/0",
            "redis://:[SECRET]@cache:6379/0",
        ),
        (
            "curl -u admin:hunter2 https://x.example",
            "curl -u admin:[SECRET] https://x.example",
        ),
        (
            "Authorization: Basic YWxhZGRpbjpvcGVuc2VzYW1l",
            "Authorization: Basic [SECRET]",
        ),
        (
            "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
            "https://hooks.slack.com/services/[SECRET]",
        ),
        (
            "bot 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1 works",
            "bot [SECRET] works",
        ),
        (
            "{\"private_key\": \"-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\nAKcwggSjAgEAAoIBAQC7\\n-----END PRIVATE KEY-----\\n\"}",
            "{\"private_key\": \"[SECRET]\"}",
        ),
        (
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\nAAAAAAAAAAEAAAAzAAAAC3NzaC1lZDI1NTE5AAAA\n-----END OPENSSH PRIVATE KEY-----\nthanks",
            "[SECRET]\nthanks",
        ),
    ] {
        assert_eq!(mask(text).text, want, "{text:?}");
    }
}

/// Letters of other alphabets that people put in passwords, and ASCII password characters.
const FOREIGN_LETTERS: &[&str] = &[
    "é", "ü", "ß", "ñ", "ø", "ç", "ł", "ş", "α", "λ", "ж", "щ", "ש", "ל", "ם", "ع",
];
const PASSWORD_ASCII: &[u8] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#%*+?@^~";

/// Sentences and assignments that introduce a password.
const PASSWORD_CARRIERS: &[(&str, &str)] = &[
    ("password: ", ""),
    ("pwd: ", " thanks"),
    ("DB_PASSWORD=", "\n"),
    ("the wifi password is ", "."),
    ("סיסמה: ", ""),
    ("הסיסמה שלי היא ", " ותודה"),
    ("\"password\": \"", "\""),
];

proptest! {
    #![proptest_config(config())]

    /// A password that mixes letters of another alphabet with ASCII letters, digits and
    /// symbols is masked whole: none of its characters stays beside the placeholder (they
    /// once did: `pwd: Kx9#mPévL7` became `[SECRET]évL7`, and `Grüße2024!` stayed).
    #[test]
    fn a_password_with_letters_of_another_alphabet_is_masked_whole(
        parts in proptest::collection::vec(
            prop_oneof![
                3 => select(PASSWORD_ASCII).prop_map(|b| char::from(b).to_string()),
                1 => select(FOREIGN_LETTERS).prop_map(str::to_owned),
            ],
            6..16,
        ),
        digit in 0u8..10,
        carrier in select(PASSWORD_CARRIERS),
    ) {
        // At least one digit and one letter of another alphabet, inside the password.
        let mut parts = parts;
        parts.insert(parts.len() / 2, FOREIGN_LETTERS[usize::from(digit) % FOREIGN_LETTERS.len()].to_owned());
        parts.insert(1, char::from(b'0' + digit).to_string());
        let password: String = parts.concat();
        // Documented placeholder shapes ("***", a run of x, "your"…) are kept on purpose.
        let lower = password.to_lowercase();
        prop_assume!(!["***", "xxxx", "your", "here", "replace", "redacted", "placeholder", "changeit", "insert"]
            .iter()
            .any(|p| lower.contains(p)));
        let (before, after) = carrier;
        let text = format!("{before}{password}{after}");
        let m = mask(&text);
        prop_assert_eq!(&m.text, &format!("{before}[SECRET]{after}"), "{:?}", text);
    }

    /// Letters that spell a placeholder or credential word inside another word leave a
    /// password a password: `ProtestMarch`, `HockeyFanatic`, `ContestWinner` (they were kept as
    /// placeholders or variable names).
    #[test]
    fn a_word_inside_another_word_is_no_placeholder(
        head in "[A-Z][a-z]{2,6}",
        inner in select(&["test", "key", "pass", "token", "sample", "dummy", "example", "secret"][..]),
        tail in "[a-z]{1,4}[A-Z][a-z]{3,7}",
        carrier in select(&[("DB_PASSWORD=", ""), ("pwd: ", ""), ("\"password\": \"", "\"")][..]),
    ) {
        let password = format!("{head}{inner}{tail}");
        let (before, after) = carrier;
        let text = format!("{before}{password}{after}");
        prop_assert_eq!(mask(&text).text, format!("{before}[SECRET]{after}"), "{:?}", text);
    }
}

#[test]
fn placeholders_and_references_stay_while_their_look_alikes_go() {
    for (text, want) in [
        // Brackets of a template are closed; one alone is a password's character.
        ("token: <token>", "token: <token>"),
        ("KEY=${TOKEN}", "KEY=${TOKEN}"),
        ("password: 9x<Kq2!Lm", "password: [SECRET]"),
        // A call closes its bracket.
        ("password = get_password()", "password = get_password()"),
        ("password: Kx9m(P2vLqW3r", "password: [SECRET]"),
        ("API_KEY=Kx9m[P2vLqW3r", "API_KEY=[SECRET]"),
        // A credential or placeholder word as a word of the name.
        ("password: userPassword", "password: userPassword"),
        ("password: EXAMPLE_PASSWORD", "password: EXAMPLE_PASSWORD"),
        (
            "API_KEY=qWeRtKEYzXcVbNmAsDfGhJkLpOiUyTrE",
            "API_KEY=[SECRET]",
        ),
        ("DB_PASSWORD=HockeyFanatic", "DB_PASSWORD=[SECRET]"),
        // Characters that render as nothing split no value.
        ("card 4111 1111\u{3164} 1111 1111", "card [CARD]"),
        ("sk_live_4eC39HqLyj\u{034f}WDarjtT1zdp7dc", "[SECRET]"),
        ("dana.levi\u{3164}@gmail.com", "[EMAIL]"),
        // Letters in a random case are a password; a word is not.
        ("my password is qWeRtYuIoPaS", "my password is [SECRET]"),
        ("my password is sunshine", "my password is sunshine"),
        // A placeholder word beside a long random run is a chance piece of a key.
        (
            "Authorization: Bearer Kx9mP2vLqW3rT5yU7iO9-here-aB3dE5gH7j",
            "Authorization: Bearer [SECRET]",
        ),
        (
            "API_KEY=Kx9mP2vLqW3rT5yU7iO9_xxxx_aB3dE5gH7j",
            "API_KEY=[SECRET]",
        ),
        ("sk_live_YOUR_KEY_HERE", "sk_live_YOUR_KEY_HERE"),
        // A sentence in a script without spaces goes on after the value.
        ("パスワードはabc123です", "パスワードは[SECRET]です"),
    ] {
        assert_eq!(mask(text).text, want, "{text:?}");
    }
}
