//! Every example from the specification, as tables.

use pii_mask::{Category, contains_personal_data, mask, only_placeholders};

/// Must mask: input and the exact masked output.
const MUST_MASK: &[(&str, &str)] = &[
    ("Call me at 050-123-4567", "Call me at [PHONE]"),
    ("התקשרו ל0523456789 מחר", "התקשרו ל[PHONE] מחר"),
    ("+972 (0)52-345-6789", "[PHONE]"),
    ("０５２－３４５－６７８９ is my cell", "[PHONE] is my cell"),
    ("הטלפון: ٠٥٢٣٤٥٦٧٨٩", "הטלפון: [PHONE]"),
    ("phone 05\u{200b}2-345\u{200b}-6789", "phone [PHONE]"),
    ("携帯は090-1234-5678です", "携帯は[PHONE]です"),
    ("ת.ז. 123456782", "ת.ז. [IL_ID]"),
    ("ID 12345678-2", "ID [IL_ID]"),
    ("mc 2221 0000 0000 0009", "mc [CARD]"),
    ("unionpay 6212 3456 7890 1234 569", "unionpay [CARD]"),
    ("iban il620108000000099999999.", "iban [IBAN]."),
    (
        "Leumi account 10-800-99999999",
        "Leumi account [BANK_ACCOUNT]",
    ),
    ("write to Dana.Levi@Example.CO.IL!", "write to [EMAIL]!"),
    ("contact dana[at]gmail[dot]com", "contact [EMAIL]"),
    ("contact da\u{200b}na@gm\u{200b}ail.com", "contact [EMAIL]"),
    ("tracking 1234567890", "tracking [NUMBER]"),
    ("ref ١٢٣٤٥٦٧٨٩٠١٢", "ref [NUMBER]"),
    // Invisible characters just outside a value stay; those inside are swallowed.
    ("\u{200e}052-345-6789\u{200e}", "\u{200e}[PHONE]\u{200e}"),
    // Further forms named in the contract.
    (
        "IBAN IL62 0108 0000 0009 9999 999 and more",
        "IBAN [IBAN] and more",
    ),
    ("ת\"ז 123 456 782", "ת\"ז [IL_ID]"),
    (
        "visa 4111 1111 1111 1112 exp 12/27",
        "visa [CARD] exp 12/27",
    ),
    ("account 29106136", "account [BANK_ACCOUNT]"),
    ("סניף 123/456789", "סניף [BANK_ACCOUNT]"),
    ("dana (at) gmail.com", "[EMAIL]"),
    ("dana at gmail dot com", "[EMAIL]"),
    ("\"dana levi\"@example.com", "[EMAIL]"),
    ("+1 (555) 123-4567", "[PHONE]"),
    ("call 1-800-123-456", "call [PHONE]"),
    // Shapes that no rule listed, which the digit groups and the email grammar now cover whole.
    (
        "account no. (738/246883) for next time",
        "account no. ([BANK_ACCOUNT]) for next time",
    ),
    (
        "bank account (52-186-863859)",
        "bank account ([BANK_ACCOUNT])",
    ),
    ("account no.: 4-963-942200", "account no.: [BANK_ACCOUNT]"),
    ("lyn76'o@hotmail.com", "[EMAIL]"),
    ("josé.núñez@correo.example", "[EMAIL]"),
    ("dana@xn--4dbrk0ce", "[EMAIL]"),
    (
        "My Teudat Zehut is 126-747-385.",
        "My Teudat Zehut is [IL_ID].",
    ),
    ("call 0 5 2 3 4 5 6 7 8 9", "call [PHONE]"),
    ("pcoleman שטרודל gmail נקודה com", "[EMAIL]"),
    ("id 123 456 782", "id [IL_ID]"),
    ("id 123-456-782", "id [IL_ID]"),
    ("id 1 2 3 4 5 6 7 8 2", "id [IL_ID]"),
    ("ref 12 34 56 78 90", "ref [NUMBER]"),
    ("ref 12.34.56.78.90", "ref [NUMBER]"),
    ("mail user@[192.0.2.1] now", "mail [EMAIL] now"),
    ("dana [at] example [dot] org", "[EMAIL]"),
    (
        "メールはdanaアットマークexample.jpです",
        "メールは[EMAIL]です",
    ),
    ("call 0523456789 0541234567", "call [PHONE] [PHONE]"),
    // Credentials, Social Security numbers, IP addresses and encoded at signs.
    ("key AKIAIOSFODNN7EXAMPLE", "key [SECRET]"),
    (
        "token ghp_16C7e42F292c6912E7710c838347Ae178B4a",
        "token [SECRET]",
    ),
    (
        "key sk-proj-abcdEFGH1234567890abcdEFGH1234567890",
        "key [SECRET]",
    ),
    (
        "jwt eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U ok",
        "jwt [SECRET] ok",
    ),
    ("eyJhbGciOi….eyJzdWIi….sig", "[SECRET]"),
    (
        "postgres://admin:hunter2@db.example.com/prod",
        "postgres://admin:[SECRET]@db.example.com/prod",
    ),
    (
        "postgres://admin:hunter2@db/prod",
        "postgres://admin:[SECRET]@db/prod",
    ),
    ("My password is Tr0ub4dor&3", "My password is [SECRET]"),
    (
        "Authorization: Bearer abc123def456ghi789",
        "Authorization: Bearer [SECRET]",
    ),
    ("DB_PASSWORD=hunter2", "DB_PASSWORD=[SECRET]"),
    (
        "{\"password\": \"s3cr3t!\", \"user\": \"dana\"}",
        "{\"password\": \"[SECRET]\", \"user\": \"dana\"}",
    ),
    ("パスワードはTr0ub4dor&3です", "パスワードは[SECRET]です"),
    ("הסיסמה שלי היא Tr0ub4dor&3", "הסיסמה שלי היא [SECRET]"),
    (
        "-----BEGIN RSA PRIVATE KEY-----\\nMIIEpAIBAAKCAQEA1234abcd\\n-----END RSA PRIVATE KEY-----\\n",
        "[SECRET]\\n",
    ),
    ("ssn 123-45-6789", "ssn [SSN]"),
    ("logged in from 203.0.113.7", "logged in from [IP]"),
    ("Server 192.168.100.200", "Server [IP]"),
    (
        "via fe80::1%eth0 and 2001:db8::8a2e:370:7334",
        "via [IP] and [IP]",
    ),
    ("dana&#64;example.com", "[EMAIL]"),
    ("dana%40example.com", "[EMAIL]"),
    (
        "brownjohnathan&#x40;example.org, mary%40walla.co.il",
        "[EMAIL], [EMAIL]",
    ),
    ("05\u{a0}4903\u{a0}982\u{a0}1", "[PHONE]"),
    ("531. 06. 04. 106. 25", "[NUMBER]"),
];

/// Entries of [`MUST_MASK`] found only through a context word. (A Luhn-invalid card after a
/// card word has sixteen digits, and a group of ten or more digits is personal data by itself.)
const CONTEXT_ONLY: &[&str] = &["account 29106136"];

/// Must stay unchanged.
const UNCHANGED: &[&str] = &[
    "Meeting on 2024-03-15 at 12:30",
    "2024-03-15T12:30:45Z",
    "Order #482910375 shipped",
    "Price ₪1,234,567.89",
    "Upgraded to v10.4.12",
    "ISBN 0-306-40615-2",
    "ISBN 978-3-16-148410-0",
    "Location 32.0853, 34.7818",
    "Upgraded to v1.2.3.4",
    "commit 9fceb02d0ae598e95dc970b74767f19372d61af8",
    "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d08e82f0f1234",
    "export GITHUB_TOKEN=${GITHUB_TOKEN}",
    "reset your password tomorrow",
    "listen on 127.0.0.1:8080",
    "bind 0.0.0.0 and ::1",
    "api_key: YOUR_API_KEY",
    "token: <token>",
    "OPENAI_API_KEY=sk-...",
    "password: xxxx",
    "password: ***",
    "password = get_password()",
    "token=os.environ[\"TOKEN\"]",
    "api_key: process.env.API_KEY",
    "the word password, and a token",
    "Password: reset it tomorrow",
    "The token expired and we rotate the API key monthly.",
    "std::vector and 12:30:45 and 00:1A:2B:3C:4D:5E",
    "max_tokens=1500",
    "npm i lodash@4.17.21",
    "use icon@2x.png",
    "ext. 1234, room 305",
    "Invoice 29106136 paid",
    "card ending in 4242",
    "Screen 3840x2160 @ 144Hz",
    "550e8400-e29b-41d4-a716-446655440000",
    "request 550E8400-E29B-41D4-A716-446655440000 failed",
    "root@localhost",
    "15/03/2024 and 15.03.2024",
    "Order #482910375 shipped",
    "2024-03-15 12:30:45",
    "from 2024-03-15 2024-03-16",
    "15.03.2024 12.30",
    "Location 32.0853 34.7818",
    "Total 12 345 678.90 today",
    "Budget €1 234 567 890",
    "ISBN 0-8044-2957-X",
    "build 20240315123045",
    "prices 1234567.89 2345678.90",
    "I ate a strudel, שטרודל תפוחים",
    "we met at noon, that is what we ate",
    "",
];

#[test]
fn must_mask() {
    for &(input, expected) in MUST_MASK {
        let m = mask(input);
        assert_eq!(m.text, expected, "masking {input:?}");
        // Detections that rest on a context word alone do not make an identifier personal.
        let context_only = CONTEXT_ONLY.contains(&input);
        assert_eq!(contains_personal_data(input), !context_only, "{input:?}");
    }
}

#[test]
fn must_stay_unchanged() {
    for &input in UNCHANGED {
        let m = mask(input);
        assert_eq!(m.text, input, "masking {input:?}");
        assert!(m.spans.is_empty() && m.counts.is_empty(), "{input:?}");
        assert!(!contains_personal_data(input), "{input:?}");
    }
}

#[test]
fn spans_and_counts_point_into_the_original() {
    let input = "tel ０５２－３４５－６７８９, mail dana@example.com, again 050-123-4567";
    let m = mask(input);
    assert_eq!(m.text, "tel [PHONE], mail [EMAIL], again [PHONE]");
    let values: Vec<(&str, Category)> = m
        .spans
        .iter()
        .map(|s| (&input[s.start..s.end], s.category))
        .collect();
    assert_eq!(
        values,
        [
            ("０５２－３４５－６７８９", Category::Phone),
            ("dana@example.com", Category::Email),
            ("050-123-4567", Category::Phone),
        ]
    );
    assert_eq!(m.counts.get(&Category::Phone), Some(&2));
    assert_eq!(m.counts.get(&Category::Email), Some(&1));
    assert_eq!(m.counts.len(), 2);
}

#[test]
fn overlapping_detections_take_the_highest_priority() {
    // An email whose local part is a phone number and a ten-digit run is one email.
    assert_eq!(mask("0523456789@example.com").text, "[EMAIL]");
    // An Israeli ID that also has a landline shape is an ID.
    assert_eq!(mask("id 039876545").text, "id [IL_ID]");
}

#[test]
fn only_placeholders_cases() {
    assert!(!only_placeholders(&mask("tel: 052-345-6789").text));
    assert_eq!(mask("tel: 052-345-6789").text, "tel: [PHONE]");
    assert!(only_placeholders(
        &mask("052-345-6789, dana@example.com").text
    ));
    assert!(only_placeholders(""));
    assert!(only_placeholders("[PHONE] - [EMAIL]!"));
    assert!(!only_placeholders("[PHONE] ב"));
    assert!(!only_placeholders("[PHONE] ½"));
    assert!(!only_placeholders("[PHONE"));
}

#[test]
fn contains_personal_data_cases() {
    for key in [
        "dana@example.com",
        "user-0523456789",
        "card-4111111111111111",
        "il620108000000099999999",
        "id-123456782",
        "acct-10-800-99999999",
        "acct-123/45678",
        "ref-1234567890",
        "dana[at]gmail[dot]com",
        "ns_+972523456789",
    ] {
        assert!(contains_personal_data(key), "{key}");
    }
    for key in [
        "invoice-29106136",
        "account-29106136",
        "id-12345674",
        "project-alpha",
        "notes_at_home",
        "release-2024-03-15",
        "v10.4.12",
        "",
    ] {
        assert!(!contains_personal_data(key), "{key}");
    }
}
