//! Credentials (`[SECRET]`): provider keys and tokens by their published shapes, JWTs, PEM
//! private-key blocks, the password of a URL, `Authorization` values, values assigned to
//! credential words, and high-entropy tokens next to such words.
//!
//! Words and structural marks are found in one pass of an Aho-Corasick automaton (the
//! `aho-corasick` crate: linear time, no backtracking, and a vectorised prefilter that keeps
//! text without any of them on a fast path). Provider shapes and JWTs are read from the start
//! of every token of sixteen or more characters.
//!
//! Every token that mixes letters and digits is reported as a unit, so a rule that fires on a
//! digit run inside it (a `[NUMBER]` in the middle of an API key) masks the whole token.

mod assign;
mod cli;
mod provider;
mod shapes;
mod value;

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};

use self::assign::{Strength, skip_blanks};
use self::value::{is_placeholder, plausible_body};
use super::{Sink, is_word};
use crate::Category;
use crate::validate::base64_prefix;

#[derive(Clone, Copy)]
enum Anchor {
    /// An English credential word; its identifier decides how strong it is.
    Word,
    /// A credential word of a script written without spaces between words, or of Hebrew,
    /// where a prefix may be glued to it.
    Foreign(Strength),
    /// A credential word of a language written with spaces between words (`Passwort`,
    /// `contraseña`, `пароль`): a word, or the start of one (`lösenordet`), never the inside of
    /// one (`desenhar` holds no `senha`).
    Spaced(Strength),
    /// A command-line tool that takes a password by a flag of its own (`mysql -p…`).
    Tool(cli::Tool),
    /// The scheme prefix of a password hash (`$6$`, `{SSHA}`).
    Hash,
    /// `WIFI:` of a Wi-Fi QR code.
    WifiQr,
    /// `jdbc:oracle:thin:user/password@…`.
    OracleThin,
    /// A URL query parameter that carries a signature (`&sig=…`, Azure's shared access
    /// signatures).
    QuerySecret,
    /// `Cookie` or `Set-Cookie`.
    Cookie,
    /// `recovery codes`, `backup codes`: the codes after them.
    RecoveryCodes,
    /// `seed phrase`, `recovery phrase`, `mnemonic`: the words after them.
    SeedPhrase,
    /// `@tcp(` of a Go MySQL DSN.
    GoDsn,
    /// A call that takes a password as an argument (`NetworkCredential(`).
    Call(shapes::Call),
    /// A command that reads a password piped into it; `true` for `user:password`.
    Piped(bool),
    Authorization,
    /// SQL's `IDENTIFIED BY 'password'`.
    IdentifiedBy,
    /// MySQL's `IDENTIFIED WITH plugin BY 'password'`.
    IdentifiedWith,
    /// A word that a user name and its password may follow (`login: root / …`, `credentials:
    /// ops:…`); `credential` and `creds` are credential words too.
    Login,
    Bearer,
    PemBegin,
    Scheme,
    CurlUser,
    Webhook,
    /// A mark that only wakes the detection: an encoded at sign without digits.
    Wake,
    /// The start of a JWT, also one shortened by an ellipsis (`eyJhbGciOi….eyJzdWIi…`).
    Jwt,
}

const ANCHORS: &[(&str, Anchor)] = &[
    ("password", Anchor::Word),
    ("passwd", Anchor::Word),
    ("passphrase", Anchor::Word),
    ("passcode", Anchor::Word),
    ("pass", Anchor::Word),
    ("pwd", Anchor::Word),
    ("psw", Anchor::Word),
    ("pword", Anchor::Word),
    ("pw", Anchor::Word),
    ("secret", Anchor::Word),
    ("token", Anchor::Word),
    ("apikey", Anchor::Word),
    ("api_key", Anchor::Word),
    ("api-key", Anchor::Word),
    ("key", Anchor::Word),
    ("auth", Anchor::Word),
    ("credential", Anchor::Login),
    ("creds", Anchor::Login),
    ("login", Anchor::Login),
    ("requirepass", Anchor::Word),
    ("masterauth", Anchor::Word),
    ("puk", Anchor::Word),
    ("combination", Anchor::Word),
    ("keypad", Anchor::Word),
    ("psk", Anchor::Word),
    ("bindpw", Anchor::Word),
    ("&sig=", Anchor::QuerySecret),
    ("?sig=", Anchor::QuerySecret),
    ("pin", Anchor::Word),
    ("code", Anchor::Word),
    ("authorization", Anchor::Authorization),
    ("identified by", Anchor::IdentifiedBy),
    ("identified with", Anchor::IdentifiedWith),
    ("bearer", Anchor::Bearer),
    ("-----begin", Anchor::PemBegin),
    ("://", Anchor::Scheme),
    ("--user", Anchor::CurlUser),
    (" -u ", Anchor::CurlUser),
    ("hooks.slack.com/", Anchor::Webhook),
    ("discord.com/api/webhooks/", Anchor::Webhook),
    ("discordapp.com/api/webhooks/", Anchor::Webhook),
    ("webhook.office.com/", Anchor::Webhook),
    // The same inside a JSON string, whose slashes may be escaped.
    ("hooks.slack.com\\/", Anchor::Webhook),
    ("discord.com\\/api\\/webhooks\\/", Anchor::Webhook),
    ("discordapp.com\\/api\\/webhooks\\/", Anchor::Webhook),
    ("webhook.office.com\\/", Anchor::Webhook),
    ("jdbc:oracle:thin:", Anchor::OracleThin),
    ("&commat;", Anchor::Wake),
    ("eyJ", Anchor::Jwt),
    ("$1$", Anchor::Hash),
    ("$2a$", Anchor::Hash),
    ("$2b$", Anchor::Hash),
    ("$2y$", Anchor::Hash),
    ("$5$", Anchor::Hash),
    ("$6$", Anchor::Hash),
    ("$7$", Anchor::Hash),
    ("$y$", Anchor::Hash),
    ("$gy$", Anchor::Hash),
    ("$apr1$", Anchor::Hash),
    ("$argon2", Anchor::Hash),
    ("$scrypt$", Anchor::Hash),
    ("$pbkdf2", Anchor::Hash),
    ("{sha}", Anchor::Hash),
    ("{ssha}", Anchor::Hash),
    ("{ssha256}", Anchor::Hash),
    ("{ssha512}", Anchor::Hash),
    ("{crypt}", Anchor::Hash),
    ("{bcrypt}", Anchor::Hash),
    ("wifi:", Anchor::WifiQr),
    ("cookie", Anchor::Cookie),
    ("set-cookie", Anchor::Cookie),
    ("recovery codes", Anchor::RecoveryCodes),
    ("recovery code", Anchor::RecoveryCodes),
    ("backup codes", Anchor::RecoveryCodes),
    ("backup code", Anchor::RecoveryCodes),
    ("2fa recovery", Anchor::RecoveryCodes),
    ("seed phrase", Anchor::SeedPhrase),
    ("recovery phrase", Anchor::SeedPhrase),
    ("secret phrase", Anchor::SeedPhrase),
    ("seed words", Anchor::SeedPhrase),
    ("seed", Anchor::SeedPhrase),
    ("totp", Anchor::Word),
    ("mnemonic", Anchor::SeedPhrase),
    ("@tcp(", Anchor::GoDsn),
    ("@unix(", Anchor::GoDsn),
    ("networkcredential(", Anchor::Call(shapes::Call::Second)),
    ("httpbasicauth(", Anchor::Call(shapes::Call::Second)),
    ("basicauth(", Anchor::Call(shapes::Call::Second)),
    ("setbasicauth(", Anchor::Call(shapes::Call::Second)),
    ("auth=(", Anchor::Call(shapes::Call::Second)),
    ("jwt.sign(", Anchor::Call(shapes::Call::Second)),
    ("jwt.encode(", Anchor::Call(shapes::Call::Second)),
    ("getconnection(", Anchor::Call(shapes::Call::Third)),
    ("sudo -s", Anchor::Piped(false)),
    ("passwd --stdin", Anchor::Piped(false)),
    ("chpasswd", Anchor::Piped(true)),
    ("pbkdf2_sha256$", Anchor::Hash),
    ("pbkdf2_sha1$", Anchor::Hash),
    ("bcrypt_sha256$", Anchor::Hash),
    ("argon2$", Anchor::Hash),
    ("סיסמ", Anchor::Foreign(Strength::Strong)),
    ("ססמ", Anchor::Foreign(Strength::Strong)),
    ("טוקן", Anchor::Foreign(Strength::Strong)),
    ("קוד סודי", Anchor::Foreign(Strength::Strong)),
    ("קוד גישה", Anchor::Foreign(Strength::Strong)),
    ("מפתח", Anchor::Foreign(Strength::Weak)),
    ("パスワード", Anchor::Foreign(Strength::Strong)),
    ("暗証番号", Anchor::Foreign(Strength::Pin)),
    ("トークン", Anchor::Foreign(Strength::Strong)),
    ("シークレット", Anchor::Foreign(Strength::Strong)),
    ("秘密鍵", Anchor::Foreign(Strength::Strong)),
    ("アクセスキー", Anchor::Foreign(Strength::Strong)),
    ("キー", Anchor::Foreign(Strength::Weak)),
];

/// Words for a password in other languages written with spaces. Each is also matched with
/// its first letter in capitals, and written in capitals.
const SPACED: &[(&str, Strength)] = &[
    ("passwort", Strength::Strong),
    ("kennwort", Strength::Strong),
    ("mot de passe", Strength::Strong),
    ("contraseña", Strength::Strong),
    ("contrasena", Strength::Strong),
    ("senha", Strength::Strong),
    ("wachtwoord", Strength::Strong),
    ("hasło", Strength::Strong),
    ("haslo", Strength::Strong),
    ("пароль", Strength::Strong),
    ("парола", Strength::Strong),
    ("lösenord", Strength::Strong),
    ("losenord", Strength::Strong),
    ("passord", Strength::Strong),
    ("adgangskode", Strength::Strong),
    ("salasana", Strength::Strong),
    ("heslo", Strength::Strong),
    ("jelszó", Strength::Strong),
    ("jelszo", Strength::Strong),
    ("şifre", Strength::Strong),
    ("sifre", Strength::Strong),
    ("parola d'ordine", Strength::Strong),
    ("palavra-passe", Strength::Strong),
    ("mật khẩu", Strength::Strong),
    ("kata sandi", Strength::Strong),
    ("κωδικός", Strength::Strong),
    ("كلمة المرور", Strength::Strong),
    ("كلمة السر", Strength::Strong),
    ("parola", Strength::Strong),
    ("lozinka", Strength::Strong),
    // An API key in other languages; a generated value only.
    ("clé api", Strength::Weak),
    ("clé d'api", Strength::Weak),
    ("api-schlüssel", Strength::Weak),
    ("api-ключ", Strength::Weak),
    ("ключ api", Strength::Weak),
    ("chiave api", Strength::Weak),
    ("clave api", Strength::Weak),
    ("clave de api", Strength::Weak),
    ("chave de api", Strength::Weak),
    ("chave api", Strength::Weak),
    ("api-sleutel", Strength::Weak),
    ("klucz api", Strength::Weak),
    ("api-nyckel", Strength::Weak),
    ("api-nøgle", Strength::Weak),
    ("api-avain", Strength::Weak),
    ("api anahtarı", Strength::Weak),
    ("лозинка", Strength::Strong),
    ("geslo", Strength::Strong),
    ("slaptažodis", Strength::Strong),
    ("parool", Strength::Strong),
    ("lykilorð", Strength::Strong),
    ("contrasenya", Strength::Strong),
    ("pasahitza", Strength::Strong),
    ("رمز عبور", Strength::Strong),
    ("clave", Strength::Strong),
    ("mdp", Strength::Strong),
    ("kodeord", Strength::Strong),
    ("wlan-schlüssel", Strength::Strong),
    ("ŞİFRE", Strength::Strong),
    ("पासवर्ड", Strength::Strong),
    ("الرقم السري", Strength::Strong),
];

/// Words for a password in scripts written without spaces.
const UNSPACED: &[(&str, Strength)] = &[
    ("密码", Strength::Strong),
    ("密碼", Strength::Strong),
    ("口令", Strength::Strong),
    ("비밀번호", Strength::Strong),
    ("비번", Strength::Strong),
    ("패스워드", Strength::Strong),
    ("암호", Strength::Strong),
    ("รหัสผ่าน", Strength::Strong),
    ("密钥", Strength::Weak),
    ("金鑰", Strength::Weak),
    ("키", Strength::Weak),
];

/// Every pattern of the automaton: the anchors, the password words of other languages with
/// their capitalised forms, and the command-line tools.
static PATTERNS: LazyLock<Vec<(String, Anchor)>> = LazyLock::new(|| {
    let mut patterns: Vec<(String, Anchor)> = ANCHORS
        .iter()
        .map(|&(p, anchor)| (p.to_owned(), anchor))
        .collect();
    for &(word, strength) in SPACED {
        let mut chars = word.chars();
        let first = chars.next().map(|c| c.to_uppercase().collect::<String>());
        let capital = first.unwrap_or_default() + chars.as_str();
        for form in [word.to_owned(), capital, word.to_uppercase()] {
            if !patterns.iter().any(|(p, _)| *p == form) {
                patterns.push((form, Anchor::Spaced(strength)));
            }
        }
    }
    for &(word, strength) in UNSPACED {
        patterns.push((word.to_owned(), Anchor::Foreign(strength)));
    }
    for &(word, tool) in cli::TOOLS {
        patterns.push((word.to_owned(), Anchor::Tool(tool)));
    }
    patterns
});

static AUTOMATON: LazyLock<AhoCorasick> = LazyLock::new(|| {
    // A DFA: one table lookup per byte, the fastest search the crate has for a pattern set
    // this small, which matters because every text without digits is searched once.
    AhoCorasickBuilder::new()
        .ascii_case_insensitive(true)
        .match_kind(MatchKind::LeftmostLongest)
        .kind(Some(AhoCorasickKind::DFA))
        .build(PATTERNS.iter().map(|(p, _)| p))
        .unwrap_or_else(|_| unreachable!("the anchors are a small fixed set"))
});

/// True when `text` holds a run of sixteen or more letters, digits, `_` and `-`: the shortest
/// provider key. Prose words are shorter, so this is what lets a key without a digit
/// (`AKIAJZRXOOGPRJUXPOAQ`) wake the token pass without searching for every prefix.
fn has_long_token(text: &[u8]) -> bool {
    let mut run = 0;
    for &b in text {
        if b.is_ascii_alphanumeric() || b == b'_' || b == b'-' {
            run += 1;
            if run >= provider::SHORTEST {
                return true;
            }
        } else {
            run = 0;
        }
    }
    false
}

/// The most bytes a rule reads on the line around one match. A rule that looks back to the
/// start of a line, or on to its end, reads at most this far, so that the scan of a text stays
/// linear however many matches one long line holds (100 KB of `password=` repeated).
pub(super) const REACH: usize = 512;

/// The start of the line holding `pos`, or `pos - REACH` on a longer line.
pub(super) fn line_start(v: &[u8], pos: usize) -> usize {
    let from = pos.saturating_sub(REACH);
    v[from..pos]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(from, |k| from + k + 1)
}

/// The end of the line holding `pos`, or `pos + REACH` on a longer line.
pub(super) fn line_end(v: &[u8], pos: usize) -> usize {
    let to = (pos + REACH).min(v.len());
    v[pos..to]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(to, |k| pos + k)
}

/// The line holding `start..end` when it is no longer than `REACH` on each side: rules that
/// read a whole line (a table's header, a configuration line) do not apply to longer ones.
pub(super) fn short_line(v: &[u8], start: usize, end: usize) -> Option<(usize, usize)> {
    let from = line_start(v, start);
    let to = line_end(v, end);
    let whole_start = from == 0 || v[from - 1] == b'\n';
    let whole_end = to == v.len() || v[to] == b'\n';
    (whole_start && whole_end).then_some((from, to))
}

/// True when `text` holds a credential word or mark; text without one (and without digits,
/// which the token pass needs) cannot hold a secret.
pub(crate) fn may_hold(text: &str) -> bool {
    has_long_token(text.as_bytes()) || AUTOMATON.is_match(text)
}

/// Reports every credential in the view `s`.
pub(super) fn scan(s: &str, sink: &mut Sink) {
    let v = s.as_bytes();
    let mut last = (usize::MAX, usize::MAX);
    for m in AUTOMATON.find_iter(s) {
        let (start, end) = (m.start(), m.end());
        match PATTERNS[m.pattern().as_usize()].1 {
            Anchor::Word => assign::english(v, start, end, &mut last, sink),
            Anchor::Foreign(strength) => assign::foreign(s, end, strength, sink),
            Anchor::Spaced(strength) => {
                if let Some(end) = spaced_word(s, start, end) {
                    assign::spaced(s, end, strength, sink);
                }
            }
            Anchor::Tool(tool) => {
                if cli::stands(v, start, end, tool) {
                    cli::command(v, end, tool, sink);
                } else {
                    // A name that holds the tool's (`SSHPASS=…`).
                    assign::english(v, start, end, &mut last, sink);
                }
            }
            Anchor::Authorization => authorization(v, end, sink),
            Anchor::IdentifiedBy => assign::quoted_after(v, end, sink),
            Anchor::IdentifiedWith => {
                // The plugin's name, then `BY`.
                let plugin = run_of(v, skip_blanks(v, end), |b| {
                    b.is_ascii_alphanumeric() || b == b'_'
                });
                let by = skip_blanks(v, plugin);
                if v.len() >= by + 2 && v[by..by + 2].eq_ignore_ascii_case(b"by") {
                    assign::quoted_after(v, by + 2, sink);
                }
            }
            Anchor::Login => {
                let word = &v[start..end];
                if !word.eq_ignore_ascii_case(b"login") {
                    assign::english(v, start, end, &mut last, sink);
                }
                assign::login_pair(v, start, end, sink);
            }
            Anchor::Hash => shapes::password_hash(v, start, end, sink),
            Anchor::WifiQr => shapes::wifi_qr(v, end, sink),
            Anchor::OracleThin => shapes::oracle_thin(v, end, sink),
            Anchor::QuerySecret => {
                let stop = run_of(v, end, |b| {
                    b > b' ' && !matches!(b, b'&' | b'#' | b'"' | b'\'' | b'<' | b'>')
                });
                if stop - end >= 16 {
                    sink.push(end, stop, Category::Secret, true);
                }
            }
            Anchor::Cookie => shapes::cookies(v, end, sink),
            Anchor::RecoveryCodes => {
                // `recovery code: …` is also a credential word with one value.
                let code = start
                    + v[start..end]
                        .iter()
                        .rposition(|&b| b == b' ')
                        .map_or(0, |k| k + 1);
                let code_end = if v[end - 1] == b's' { end - 1 } else { end };
                assign::english(v, code, code_end, &mut last, sink);
                shapes::recovery_codes(v, end, sink);
            }
            Anchor::GoDsn => shapes::go_dsn(v, start, sink),
            Anchor::Call(which) => shapes::call_argument(v, end, which, sink),
            Anchor::Piped(after_colon) => {
                // `sudo -S` reads a password; `sudo -s` starts a shell.
                if after_colon || &v[start..end] != b"sudo -s" {
                    shapes::piped(v, start, after_colon, sink);
                }
            }
            Anchor::SeedPhrase => {
                // `seed` is also a weak credential word (`TOTP seed: …`).
                if v[start..end].eq_ignore_ascii_case(b"seed") {
                    assign::english(v, start, end, &mut last, sink);
                }
                shapes::seed_phrase(v, end, sink);
            }
            Anchor::Bearer => bearer(v, start, end, sink),
            Anchor::PemBegin => pem(v, start, end, sink),
            Anchor::Scheme => userinfo(v, start, sink),
            Anchor::CurlUser => curl_user(v, end, sink),
            Anchor::Webhook => webhook(v, end, sink),
            Anchor::Wake => {}
            Anchor::Jwt => {
                if (start == 0 || CLASS[usize::from(v[start - 1])] & WORD == 0)
                    && let Some(e) = jwt(v, start)
                {
                    sink.unit(start, e);
                    sink.push(start, e, Category::Secret, true);
                }
            }
        }
    }
    tokens(v, sink);
    shapes::pgpass(v, sink);
}

/// The end of the word that the password word at `start..end` starts, taking up to six more
/// letters of an inflection (`lösenordet`, `salasanani`, `паролем`); `None` when the match is
/// inside a word.
fn spaced_word(s: &str, start: usize, end: usize) -> Option<usize> {
    // A word starts the text or follows a space or an opening bracket or quote; after other
    // marks it is a piece of a value (`Pm2!MDPm`).
    // A compound's hyphen may come before it (`Wifi-lösenord`).
    if s[..start].chars().next_back().is_some_and(|c| {
        c.is_alphanumeric()
            || (c.is_ascii_punctuation() && !matches!(c, '"' | '\'' | '(' | '[' | '-'))
    }) {
        return None;
    }
    // A short word takes no inflection (`mdp`).
    let most = if end - start <= 3 { 0 } else { 6 };
    let mut end = end;
    for (taken, c) in s[end..].chars().enumerate() {
        if !c.is_alphabetic() {
            break;
        }
        if taken == most {
            // Seven more letters: another word that merely starts the same way.
            return None;
        }
        end += c.len_utf8();
    }
    Some(end)
}

const WORD: u8 = 1;
const LETTER: u8 = 2;
const DIGIT: u8 = 4;
/// Characters a key may hold besides word characters (`.`, `+`, `/`, `=`, `~`, `$`).
const KEYISH: u8 = 8;

/// Character classes of ASCII bytes, so the token pass takes one lookup per byte.
const CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        t[b] = if c.is_ascii_alphabetic() {
            WORD | LETTER | KEYISH
        } else if c.is_ascii_digit() {
            WORD | DIGIT | KEYISH
        } else if c == b'_' || c == b'-' {
            WORD | KEYISH
        } else if matches!(c, b'.' | b'+' | b'/' | b'=' | b'~' | b'$') {
            KEYISH
        } else {
            0
        };
        b += 1;
    }
    t
};

/// Token pass: the credentials that start a token of sixteen or more characters. It probes
/// every sixteenth byte and reads only the runs that a probe lands in, since a run that long
/// must hold a probed byte.
fn tokens(v: &[u8], sink: &mut Sink) {
    let n = v.len();
    let keyish = |b: u8| CLASS[usize::from(b)] & KEYISH != 0;
    let mut probe = provider::SHORTEST - 1;
    while probe < n {
        if !keyish(v[probe]) {
            probe += provider::SHORTEST;
            continue;
        }
        let mut start = probe;
        while start > 0 && keyish(v[start - 1]) {
            start -= 1;
        }
        let mut end = probe + 1;
        while end < n && keyish(v[end]) {
            end += 1;
        }
        if end - start >= provider::SHORTEST {
            run(v, start, end, sink);
        }
        probe = end + provider::SHORTEST;
    }
}

/// Tries every token start inside the run `start..end` of key characters.
fn run(v: &[u8], start: usize, end: usize, sink: &mut Sink) {
    let mut i = start;
    while i < end {
        let at_start = CLASS[usize::from(v[i])] & (LETTER | DIGIT) != 0
            && (i == 0 || CLASS[usize::from(v[i - 1])] & WORD == 0);
        if at_start && let Some((s, e)) = credential_at(v, i) {
            sink.unit(s, e);
            sink.push(s, e, Category::Secret, true);
            i = e.max(i + 1);
            continue;
        }
        i += 1;
    }
}

/// The credential that starts at `start`, as a view range.
fn credential_at(v: &[u8], start: usize) -> Option<(usize, usize)> {
    if let Some((end, _)) = provider::at(v, start, || credential_context(v, start)) {
        return Some((start, end));
    }
    if let Some(end) = jwt(v, start) {
        return Some((start, end));
    }
    if let Some(s) = telegram(v, start) {
        return Some(s);
    }
    azure_client_secret(v, start)
        .or_else(|| mailchimp(v, start))
        .or_else(|| discord_bot(v, start))
        .map(|end| (start, end))
}

/// True when the line before `start` says a credential follows: a credential word within
/// eighty bytes, or an `=` or `:` right before the token.
fn credential_context(v: &[u8], start: usize) -> bool {
    if start > 0
        && matches!(v[start - 1], b'=' | b':' | b'"' | b'\'')
        && start > 1
        && v[start - 2] != b' '
    {
        return true;
    }
    let from = line_start(v, start).max(start.saturating_sub(80));
    let before = &v[from..start];
    [
        "token",
        "key",
        "secret",
        "password",
        "passwd",
        "pwd",
        "auth",
        "bearer",
        "credential",
        "login",
        "טוקן",
        "מפתח",
        "סיסמ",
        "トークン",
        "キー",
    ]
    .iter()
    .any(|w| {
        let w = w.as_bytes();
        before.len() >= w.len() && before.windows(w.len()).any(|x| x.eq_ignore_ascii_case(w))
    })
}

fn run_of(v: &[u8], from: usize, allowed: impl Fn(u8) -> bool) -> usize {
    let mut end = from;
    while end < v.len() && allowed(v[end]) {
        end += 1;
    }
    end
}

/// A JSON Web Token (or a JWE): base64url segments joined by dots, the first one a JSON
/// object (`eyJ` is the encoding of `{"`). A truncated token (`eyJhbGciOi…`) counts too.
fn jwt(v: &[u8], start: usize) -> Option<usize> {
    if !v[start..].starts_with(b"eyJ") {
        return None;
    }
    let ellipsis = "…".as_bytes();
    let mut end = start;
    let mut dots = 0;
    while end < v.len() {
        let b = v[end];
        if b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'=' {
            end += 1;
        } else if b == b'.'
            && v.get(end + 1)
                .is_some_and(|n| n.is_ascii_alphanumeric() || *n == b'_' || *n == b'-')
        {
            dots += 1;
            end += 1;
        } else if v[end..].starts_with(ellipsis) {
            end += ellipsis.len();
        } else {
            break;
        }
    }
    let first = run_of(v, start, |b| {
        b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
    });
    if first - start < 10 {
        return None;
    }
    let header = base64_prefix(&v[start..first], 48);
    let json = header.starts_with(b"{\"")
        && header
            .iter()
            .all(|&b| (0x20..0x7F).contains(&b) || b == b'\n' || b == b'\r' || b == b'\t');
    (json && (dots >= 1 || first - start >= 30)).then_some(end)
}

/// The secret half of a Telegram bot token (`123456789:AA…`), with its bot id.
fn telegram(v: &[u8], start: usize) -> Option<(usize, usize)> {
    if !telegram_tail(v, start) {
        return None;
    }
    let end = run_of(v, start, is_word);
    if end - start != 35 || !plausible_body(&v[start..end]) {
        return None;
    }
    let mut id = start - 1;
    while id > 0 && v[id - 1].is_ascii_digit() {
        id -= 1;
    }
    Some((id, end))
}

fn telegram_tail(v: &[u8], start: usize) -> bool {
    if start < 9 || v[start - 1] != b':' {
        return false;
    }
    let digits = v[..start - 1]
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_digit())
        .count();
    let id = start - 1 - digits;
    (8..=10).contains(&digits) && (id == 0 || !v[id - 1].is_ascii_alphanumeric())
}

/// A Microsoft Entra client secret: three characters, a digit, `Q~`, then 31 to 34 more.
fn azure_client_secret(v: &[u8], start: usize) -> Option<usize> {
    let allowed = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'~' | b'.' | b'-');
    if v.get(start + 4..start + 6) != Some(b"Q~") || !v.get(start + 3)?.is_ascii_digit() {
        return None;
    }
    let end = run_of(v, start, allowed);
    ((37..=40).contains(&(end - start)) && plausible_body(&v[start..end])).then_some(end)
}

/// A Mailchimp key: 32 hex digits, `-us` and a data-centre number.
fn mailchimp(v: &[u8], start: usize) -> Option<usize> {
    let end = run_of(v, start, is_word);
    let t = &v[start..end];
    let ok = (35..=36).contains(&t.len())
        && t[..32].iter().all(u8::is_ascii_hexdigit)
        && &t[32..35] == b"-us"
        && t[35..].iter().all(u8::is_ascii_digit)
        && plausible_body(&t[..32]);
    ok.then_some(end)
}

/// A Discord bot token: a base64 user id starting `M`, `N` or `O`, a six-character timestamp
/// and an HMAC, dot-separated.
fn discord_bot(v: &[u8], start: usize) -> Option<usize> {
    if !matches!(v[start], b'M' | b'N' | b'O') {
        return None;
    }
    let a = run_of(v, start, is_word);
    if !(24..=28).contains(&(a - start)) || v.get(a) != Some(&b'.') {
        return None;
    }
    let b = run_of(v, a + 1, is_word);
    if b - a - 1 != 6 || v.get(b) != Some(&b'.') {
        return None;
    }
    let c = run_of(v, b + 1, is_word);
    ((27..=40).contains(&(c - b - 1)) && plausible_body(&v[start..c])).then_some(c)
}

fn token_end(v: &[u8], from: usize) -> usize {
    run_of(v, from, |b| {
        b.is_ascii_alphanumeric()
            || matches!(b, b'_' | b'-' | b'.' | b'~' | b'+' | b'/' | b'=' | b':')
    })
}

/// `Authorization: <scheme> <credentials>` in a header, JSON, YAML or a curl flag.
fn authorization(v: &[u8], after: usize, sink: &mut Sink) {
    let mut p = after;
    if matches!(v.get(p), Some(b'"' | b'\'')) {
        p += 1;
    }
    p = skip_blanks(v, p);
    if matches!(v.get(p), Some(b':' | b'=')) {
        p = skip_blanks(v, p + 1);
    } else if p == after || !matches!(v.get(p), Some(b'"' | b'\'')) {
        // Without `:` or `=`, only a quoted value after a space counts, as in nginx's
        // `proxy_set_header Authorization "Basic …";`.
        return;
    }
    let quote = v.get(p).copied().filter(|b| matches!(b, b'"' | b'\''));
    if quote.is_some() {
        p += 1;
    }
    let word_end = run_of(v, p, |b| b.is_ascii_alphanumeric() || b == b'-');
    let next = skip_blanks(v, word_end);
    let (from, to) = if word_end > p
        && next > word_end
        && v.get(next)
            .is_some_and(|b| b.is_ascii_graphic() && !matches!(b, b'"' | b'\''))
    {
        let scheme = &v[p..word_end];
        let whole_line = [
            "digest",
            "aws4-hmac-sha256",
            "hmac",
            "signature",
            "hawk",
            "oauth",
        ]
        .iter()
        .any(|s| scheme.eq_ignore_ascii_case(s.as_bytes()));
        if whole_line {
            // The parameter list runs to the end of the line, or to the quote that opened the
            // header's value; quotes inside it (`username="…"`) are its own.
            let mut end = next;
            while end < v.len() && v[end] != b'\n' {
                if Some(v[end]) == quote && v[end - 1] != b'\\' {
                    break;
                }
                end += 1;
            }
            while end > next && v[end - 1].is_ascii_whitespace() {
                end -= 1;
            }
            (next, end)
        } else {
            (next, token_end(v, next))
        }
    } else {
        (p, token_end(v, p))
    };
    let mut to = to;
    while to > from && matches!(v[to - 1], b'.' | b',' | b';' | b':') {
        to -= 1;
    }
    let value = &v[from..to];
    if value.len() >= 8 && !is_placeholder(value) {
        sink.push(from, to, Category::Secret, true);
    }
}

/// `Bearer <token>` anywhere.
fn bearer(v: &[u8], start: usize, end: usize, sink: &mut Sink) {
    if start > 0 && v[start - 1].is_ascii_alphabetic() {
        return;
    }
    let p = skip_blanks(v, end);
    if p == end {
        return;
    }
    let mut to = token_end(v, p);
    while to > p && matches!(v[to - 1], b'.' | b',' | b';' | b':') {
        to -= 1;
    }
    let t = &v[p..to];
    let c = value::classes(t);
    let tokenish = c.digit || (c.upper && c.lower) || t.len() >= 24;
    if t.len() >= 8 && tokenish && !is_placeholder(t) {
        sink.push(p, to, Category::Secret, true);
    }
}

/// A PEM private-key block from `-----BEGIN … PRIVATE KEY-----` to its `-----END …-----`, with
/// real or escaped (`\n`) line breaks; without an end, up to where the base64 body stops.
fn pem(v: &[u8], start: usize, end: usize, sink: &mut Sink) {
    let label_end = match v[end..].iter().take(48).position(|&b| b == b'-') {
        Some(k) => end + k,
        None => return,
    };
    let label = &v[end..label_end];
    if !label.windows(7).any(|w| w.eq_ignore_ascii_case(b"PRIVATE"))
        || !v[label_end..].starts_with(b"-----")
    {
        return;
    }
    let body = label_end + 5;
    let window = &v[body..v.len().min(body + 65_536)];
    let close = window
        .windows(8)
        .position(|w| w.eq_ignore_ascii_case(b"-----END"))
        .and_then(|k| {
            let after = body + k + 8;
            let dashes = v[after..].iter().take(64).position(|&b| b == b'-')?;
            let e = after + dashes;
            v[e..].starts_with(b"-----").then_some(e + 5)
        });
    let stop = close.unwrap_or_else(|| {
        let mut p = body;
        loop {
            if v[p..].starts_with(b"\\n") || v[p..].starts_with(b"\\r") {
                p += 2;
            } else if p < v.len()
                && (v[p].is_ascii_alphanumeric()
                    || matches!(
                        v[p],
                        b'+' | b'/' | b'=' | b'\n' | b'\r' | b' ' | b':' | b',' | b'-'
                    ))
            {
                p += 1;
            } else {
                break p;
            }
        }
    });
    sink.push(start, stop, Category::Secret, true);
}

/// The authority of the URL whose `://` is at `at`: `(start, end)` in the view.
fn authority(v: &[u8], at: usize) -> Option<(usize, usize)> {
    let mut scheme = at;
    while scheme > 0
        && (v[scheme - 1].is_ascii_alphanumeric() || matches!(v[scheme - 1], b'+' | b'.' | b'-'))
    {
        scheme -= 1;
    }
    if at - scheme < 2 || !v[scheme].is_ascii_alphabetic() {
        return None;
    }
    let from = at + 3;
    let end = run_of(v, from, |b| {
        b > b' '
            && b < 0x7F
            && !matches!(
                b,
                b'/' | b'?' | b'#' | b'"' | b'\'' | b'<' | b'>' | b'`' | b'\\'
            )
    });
    Some((from, end))
}

/// The password of `scheme://user:PASS@host`.
fn userinfo(v: &[u8], at: usize, sink: &mut Sink) {
    if let Some((pass, at_sign)) = userinfo_password(v, at)
        && !is_placeholder(&v[pass..at_sign])
    {
        sink.push(pass, at_sign, Category::Secret, true);
    }
}

/// The password of the URL whose `://` is at `at`: `(start, end)`, its end the `@` before the
/// host. A password is often pasted with characters a URL should have encoded (`p#ss?w/rd`,
/// `back\slash`, `Żółć`): where the authority (up to the first `/`, `?`, `#` or `\`) holds no
/// `@`, the password runs to the last `@` before the URL ends, when a user name without those
/// characters comes before it and what follows the colon is not a port (`host:8080/x?to=a@b`).
fn userinfo_password(v: &[u8], at: usize) -> Option<(usize, usize)> {
    let (from, end) = authority(v, at)?;
    // An IPv6 literal host (`http://[::1]:8080/…`) has no user before it.
    if v.get(from) == Some(&b'[') {
        return None;
    }
    // Where the authority's `@` is followed by a name without a dot or a port that a `#`, `?`
    // or `\` ends (`ldap://root:C0l:on@At#@git.corp.example`), that `@` is part of the
    // password too.
    let inner = v[from..end]
        .iter()
        .rposition(|&b| b == b'@')
        .map(|k| from + k);
    let cut = inner.is_some_and(|a| {
        matches!(v.get(end), Some(b'#' | b'?' | b'\\'))
            && !v[a..end].iter().any(|&b| b == b'.' || b == b':')
    });
    let at_sign = match inner.filter(|_| !cut) {
        Some(at_sign) => at_sign,
        None => {
            let colon = from + v[from..end].iter().position(|&b| b == b':')?;
            let port = run_of(v, colon + 1, |b| b.is_ascii_digit());
            let end = if cut { from } else { end };
            if port > colon + 1 && matches!(v.get(port), None | Some(b'/' | b'?' | b'#' | b'\\')) {
                return None;
            }
            let stop = run_of(v, end, |b| {
                (b > b' ' && b != 0x7F && !matches!(b, b'"' | b'\'' | b'<' | b'>' | b'`'))
                    && b != b'\n'
            });
            let stop = stop.min(end + 256);
            let k = v[end..stop].iter().rposition(|&b| b == b'@')?;
            let host = v.get(end + k + 1)?;
            if !host.is_ascii_alphanumeric() {
                return None;
            }
            end + k
        }
    };
    let colon = from + v[from..at_sign].iter().position(|&b| b == b':')?;
    (at_sign > colon + 1).then_some((colon + 1, at_sign))
}

/// True when the `@` at `at` ends the user information of a URL with a password
/// (`postgres://admin:pw@db…`, also `postgres://admin:p#ss/w@db…`): it is not an email address.
pub(crate) fn ends_userinfo(v: &[u8], at: usize) -> bool {
    let mut p = at;
    while p > 0 && at - p < 512 {
        let b = v[p - 1];
        if b <= b' ' || matches!(b, b'"' | b'\'' | b'<' | b'>') {
            return false;
        }
        if b == b'/' && p >= 3 && &v[p - 3..p] == b"://" {
            return userinfo_password(v, p - 3).is_some_and(|(_, end)| end == at);
        }
        p -= 1;
    }
    false
}

/// `curl -u user:PASS` and `--user user:PASS`.
fn curl_user(v: &[u8], after: usize, sink: &mut Sink) {
    let mut p = skip_blanks(v, after);
    if matches!(v.get(p), Some(b'"' | b'\'')) {
        p += 1;
    }
    // Letters of other alphabets are part of the password (`dana:Þór2024#`).
    let end = run_of(v, p, |b| {
        b > b' ' && b != 0x7F && !matches!(b, b'"' | b'\'')
    });
    let Some(colon) = v[p..end].iter().position(|&b| b == b':').map(|k| p + k) else {
        return;
    };
    let pass = &v[colon + 1..end];
    if !pass.is_empty() && !is_placeholder(pass) {
        sink.push(colon + 1, end, Category::Secret, true);
    }
}

/// The secret path of a chat webhook URL (after `services/`, `workflows/`, `triggers/` or
/// `webhookb2/`, which name the kind of hook).
fn webhook(v: &[u8], after: usize, sink: &mut Sink) {
    // Inside a JSON string a slash may be written `\/`.
    let escaped = v[..after].ends_with(b"\\/");
    let slash: &[u8] = if escaped { b"\\/" } else { b"/" };
    let after = ["services", "workflows", "triggers", "webhookb2"]
        .iter()
        .find(|k| v[after..].starts_with(k.as_bytes()) && v[after + k.len()..].starts_with(slash))
        .map_or(after, |k| after + k.len() + slash.len());
    let mut end = run_of(v, after, |b| {
        b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'/' | b'\\')
    });
    while end > after && matches!(v[end - 1], b'.' | b'/' | b'\\') {
        end -= 1;
    }
    if end - after >= 10 {
        sink.push(after, end, Category::Secret, true);
    }
}
