//! Credentials known by their layout rather than by a word before a value: password hashes
//! (`$6$salt$hash`, `{SSHA}…`), the password field of a Wi-Fi QR code (`WIFI:…;P:…;;`),
//! session cookies, and the second factors people paste into notes — recovery codes, wallet
//! seed phrases, and secrets written in groups of four (`ozmj msah hqge aoyd`).

use super::assign::skip_blanks;
use super::value::{is_placeholder, random_looking};
use super::{REACH, line_end, line_start};
use crate::Category;
use crate::detect::Sink;

/// Characters of a crypt(3) or LDAP password hash after its prefix.
fn hash_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'/' | b'$' | b'=' | b',' | b'+' | b'-')
}

/// A password hash starting at `start` with a scheme prefix (`$1$`, `$2b$`, `$5$`, `$6$`,
/// `$apr1$`, `$y$`, `$argon2id$`, `$scrypt$`, `$pbkdf2-sha256$`, `{SHA}`, `{SSHA}`, …): a hash
/// is as good as the password to whoever can test guesses against it. At least twenty
/// characters after the prefix, and not inside a word.
pub(super) fn password_hash(v: &[u8], start: usize, prefix_end: usize, sink: &mut Sink) {
    if start > 0 && (v[start - 1].is_ascii_alphanumeric() || v[start - 1] == b'$') {
        return;
    }
    // The hash ends where its alphabet does (a shadow line's next field follows a `:`); a
    // trailing comma is the sentence's, while `.` is a character of the hash.
    let mut end = prefix_end;
    while end < v.len() && end - prefix_end < REACH && hash_char(v[end]) {
        end += 1;
    }
    while end > prefix_end && v[end - 1] == b',' {
        end -= 1;
    }
    if end - prefix_end >= 20 {
        sink.unit(start, end);
        sink.push(start, end, Category::Secret, true);
    }
}

/// The password field of a Wi-Fi QR code whose `WIFI:` ends at `after`: `P:` up to the next
/// `;` that no backslash escapes.
pub(super) fn wifi_qr(v: &[u8], after: usize, sink: &mut Sink) {
    let mut k = after;
    let mut field_start = after;
    while k < v.len() && v[k] != b'\n' && k - after < 512 {
        match v[k] {
            b'\\' => k += 2,
            b';' => {
                password_field(v, field_start, k, sink);
                field_start = k + 1;
                k += 1;
            }
            _ => k += 1,
        }
    }
    password_field(v, field_start, k.min(v.len()), sink);
}

fn password_field(v: &[u8], from: usize, to: usize, sink: &mut Sink) {
    if to > from + 2 && v[from..from + 2].eq_ignore_ascii_case(b"p:") {
        let value = &v[from + 2..to];
        if !value.is_empty() && !is_placeholder(value) {
            sink.push(from + 2, to, Category::Secret, true);
        }
    }
}

/// The password of an Oracle thin JDBC URL whose `jdbc:oracle:thin:` ends at `after`:
/// `user/PASSWORD@host…`, up to the last `@` before the URL ends.
pub(super) fn oracle_thin(v: &[u8], after: usize, sink: &mut Sink) {
    let end = after
        + v[after..]
            .iter()
            .take(REACH)
            .take_while(|&&b| b > b' ' && !matches!(b, b'"' | b'\'' | b'<' | b'>'))
            .count();
    let url = &v[after..end];
    let (Some(slash), Some(at)) = (
        url.iter().position(|&b| b == b'/'),
        url.iter().rposition(|&b| b == b'@'),
    ) else {
        return;
    };
    if slash > 0 && at > slash + 1 && !is_placeholder(&url[slash + 1..at]) {
        sink.push(after + slash + 1, after + at, Category::Secret, true);
    }
}

/// The password of every `.pgpass` line in the text: a token of five fields joined by `:`
/// (`host:port:database:user:PASSWORD`), the port digits or `*`, the host not a number.
pub(super) fn pgpass(v: &[u8], sink: &mut Sink) {
    if v.iter().filter(|&&b| b == b':').count() < 4 {
        return;
    }
    let mut k = 0;
    while k < v.len() {
        if matches!(v[k], b' ' | b'\t' | b'\n' | b'\r' | b'"' | b'\'' | b'`') {
            k += 1;
            continue;
        }
        let start = k;
        while k < v.len() && !matches!(v[k], b' ' | b'\t' | b'\n' | b'\r' | b'"' | b'\'' | b'`') {
            k += 1;
        }
        let token = &v[start..k];
        let fields: Vec<&[u8]> = token.split(|&b| b == b':').collect();
        // A pwdump line: `user:RID:LM hash:NT hash:::`.
        let hex32 = |f: &[u8]| f.len() == 32 && f.iter().all(u8::is_ascii_hexdigit);
        if fields.len() >= 4
            && !fields[1].is_empty()
            && fields[1].iter().all(u8::is_ascii_digit)
            && hex32(fields[2])
            && hex32(fields[3])
        {
            let lm = start + fields[0].len() + fields[1].len() + 2;
            sink.push(lm, lm + 32 + 1 + 32, Category::Secret, true);
            continue;
        }
        if fields.len() != 5 || token.windows(3).any(|w| w == b"://") {
            continue;
        }
        let port_ok = fields[1] == b"*"
            || ((1..=5).contains(&fields[1].len()) && fields[1].iter().all(u8::is_ascii_digit));
        // The host, database and user are ASCII names (or `*`); the host and the user hold a
        // letter or are `*` (a timestamp's fields are numbers).
        let name = |f: &[u8]| {
            !f.is_empty()
                && f.iter()
                    .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'*'))
        };
        let lettered = |f: &[u8]| f == b"*" || f.iter().any(u8::is_ascii_alphabetic);
        let host_ok = name(fields[0])
            && name(fields[2])
            && name(fields[3])
            && lettered(fields[0])
            && lettered(fields[3]);
        let password = fields[4];
        if port_ok && host_ok && !password.is_empty() && !is_placeholder(password) {
            sink.push(k - password.len(), k, Category::Secret, true);
        }
    }
}

/// The password of a Go MySQL DSN whose `@tcp(` or `@unix(` starts at `at`:
/// `user:PASSWORD@tcp(host:3306)/db`.
pub(super) fn go_dsn(v: &[u8], at: usize, sink: &mut Sink) {
    let from = at.saturating_sub(REACH);
    let start = v[from..at]
        .iter()
        .rposition(|&b| b <= b' ' || matches!(b, b'"' | b'\'' | b'`' | b'=' | b'('))
        .map_or(from, |k| from + k + 1);
    if let Some(colon) = v[start..at]
        .iter()
        .position(|&b| b == b':')
        .map(|k| start + k)
        && at > colon + 1
        && !is_placeholder(&v[colon + 1..at])
    {
        sink.push(colon + 1, at, Category::Secret, true);
    }
}

/// Which argument of a call is a password.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Call {
    /// The second: `NetworkCredential("u", "…")`, `HTTPBasicAuth("u", "…")`, `auth=("u",
    /// "…")`, `jwt.sign(payload, "…")`.
    Second,
    /// The third: `DriverManager.getConnection(url, "u", "…")`.
    Third,
}

/// The quoted password among the arguments of the call whose `(` ends at `after`, on its line.
pub(super) fn call_argument(v: &[u8], after: usize, which: Call, sink: &mut Sink) {
    let want = match which {
        Call::Second => 1,
        Call::Third => 2,
    };
    let mut k = after;
    let mut index = 0;
    let mut depth = 0usize;
    while k < v.len() && v[k] != b'\n' && k - after < 512 {
        match v[k] {
            b'"' | b'\'' => {
                let quote = v[k];
                let Some(end) = v[k + 1..]
                    .iter()
                    .position(|&b| b == quote || b == b'\n')
                    .map(|e| k + 1 + e)
                else {
                    return;
                };
                if v[end] != quote {
                    return;
                }
                if depth == 0 && index == want && end > k + 1 && !is_placeholder(&v[k + 1..end]) {
                    sink.push(k + 1, end, Category::Secret, true);
                    return;
                }
                k = end + 1;
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth == 0 => return,
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => index += 1,
            _ => {}
        }
        k += 1;
    }
}

/// What is piped into a command that reads a password from its input, whose name starts at
/// `at`: `echo 'PASSWORD' | sudo -S …`, `echo 'user:PASSWORD' | chpasswd`, `printf '…' |
/// passwd --stdin user`. The last argument of the `echo` or `printf` before the `|`.
pub(super) fn piped(v: &[u8], at: usize, after_colon: bool, sink: &mut Sink) {
    let mut before = v[..at].trim_ascii_end();
    // `… | sudo chpasswd`.
    if before.len() >= 4 && before[before.len() - 4..].eq_ignore_ascii_case(b"sudo") {
        before = before[..before.len() - 4].trim_ascii_end();
    }
    let Some(rest) = before.strip_suffix(b"|") else {
        return;
    };
    let line_start = line_start(v, rest.len());
    let command = &rest[line_start..];
    let trimmed = command.trim_ascii_end();
    // The command's last word, quoted or not.
    let end = line_start + trimmed.len();
    let (s, e) = match trimmed.last() {
        Some(&q @ (b'"' | b'\'')) => {
            let Some(open) = trimmed[..trimmed.len() - 1].iter().rposition(|&b| b == q) else {
                return;
            };
            (line_start + open + 1, end - 1)
        }
        Some(_) => {
            let open = trimmed
                .iter()
                .rposition(|&b| b == b' ')
                .map_or(0, |k| k + 1);
            (line_start + open, end)
        }
        None => return,
    };
    let head = v[line_start..s].trim_ascii_start();
    let echoed = [b"echo ".as_slice(), b"printf ".as_slice()]
        .iter()
        .any(|w| head.len() >= w.len() && head[..w.len()].eq_ignore_ascii_case(w));
    if !echoed || e <= s {
        return;
    }
    let (s, e) = if after_colon {
        match v[s..e].iter().position(|&b| b == b':') {
            Some(k) => (s + k + 1, e),
            None => return,
        }
    } else {
        (s, e)
    };
    // `\n` that printf or `echo -e` turn into a line break ends the value.
    let e = v[s..e]
        .windows(2)
        .position(|w| w == b"\\n")
        .map_or(e, |k| s + k);
    if e > s && !is_placeholder(&v[s..e]) && !v[s..e].starts_with(b"-") {
        sink.push(s, e, Category::Secret, true);
    }
}

/// Attributes of a `Set-Cookie` that are no cookie of their own.
const ATTRIBUTES: &[&str] = &[
    "path", "domain", "expires", "max-age", "samesite", "httponly", "secure", "priority",
];

/// The values of the cookies on a `Cookie:` or `Set-Cookie:` line whose word ends at `after`:
/// a cookie named for a session or a credential (`sessionid`, `JSESSIONID`, `connect.sid`,
/// `auth_token`), or any value that looks generated, of eight or more characters.
pub(super) fn cookies(v: &[u8], after: usize, sink: &mut Sink) {
    // `Cookie: a=b`, `cookie=a=b`, `--cookie "a=b"`; not the word in prose.
    let mut k = skip_blanks(v, after);
    let word_start = after.saturating_sub(6);
    let flag = v[..after].ends_with(b"--cookie") || v[word_start..after].starts_with(b"-");
    if matches!(v.get(k), Some(b':' | b'=')) {
        k = skip_blanks(v, k + 1);
    } else if !flag {
        return;
    }
    while matches!(v.get(k), Some(b'"' | b'\'')) {
        k += 1;
    }
    let line_end = line_end(v, k);
    while k < line_end {
        let pair_end = v[k..line_end]
            .iter()
            .position(|&b| b == b';')
            .map_or(line_end, |e| k + e);
        let pair = &v[k..pair_end];
        if let Some(eq) = pair.iter().position(|&b| b == b'=') {
            let name = pair[..eq].trim_ascii();
            let lower = name.to_ascii_lowercase();
            let mut s = k + eq + 1;
            while s < pair_end && matches!(v[s], b' ' | b'"' | b'\'') {
                s += 1;
            }
            // A cookie's value holds no blank and no quote: what follows them is the rest of
            // the command (`--cookie "a=b" https://…`).
            let e = s + v[s..pair_end]
                .iter()
                .take_while(|&&b| !matches!(b, b' ' | b'\t' | b'"' | b'\'' | b'\r'))
                .count();
            let value = &v[s..e];
            let named = ["sess", "sid", "token", "auth", "jwt", "remember", "login"]
                .iter()
                .any(|w| lower.windows(w.len()).any(|x| x == w.as_bytes()))
                && !lower.starts_with(b"csrf");
            let credential = (named && value.len() >= 8) || random_looking(value);
            if credential
                && !ATTRIBUTES.iter().any(|a| lower == a.as_bytes())
                && !is_placeholder(value)
            {
                sink.push(s, e, Category::Secret, true);
            }
        }
        k = pair_end + 1;
    }
}

/// A secret written in four or more groups of four letters and digits (`oygs tice vofk
/// 55uu`, an authenticator's setup key; `ozmj msah hqge aoyd`, an app password) starting at
/// `at`: `(start, end)`. Without a digit the line must name an app password or a setup key.
pub(super) fn grouped(v: &[u8], at: usize) -> Option<(usize, usize)> {
    let mut k = at;
    let mut groups = 0;
    let mut digit = false;
    loop {
        let group = &v.get(k..k + 4)?;
        if !group.iter().all(u8::is_ascii_alphanumeric) {
            break;
        }
        digit |= group.iter().any(u8::is_ascii_digit);
        groups += 1;
        // Sixteen groups at most: a longer run of four-letter words is prose (`door code door
        // code …`), and reading it all from every word would be quadratic.
        if groups > 16 {
            return None;
        }
        k += 4;
        if v.get(k) == Some(&b' ') && v.get(k + 1).is_some_and(u8::is_ascii_alphanumeric) {
            k += 1;
        } else {
            break;
        }
    }
    let end = if groups > 0 && v.get(k - 1) == Some(&b' ') {
        k - 1
    } else {
        k
    };
    let ends_word = v.get(end).is_none_or(|b| !b.is_ascii_alphanumeric());
    // The line is read only for a candidate without a digit, which is rare.
    (groups >= 4 && ends_word && (digit || line_names_grouped(v, at))).then_some((at, end))
}

/// True when the line holding `at` names a secret that is written in groups: an app password,
/// an authenticator's setup key, a TOTP, 2FA or MFA secret.
fn line_names_grouped(v: &[u8], at: usize) -> bool {
    let (from, to) = (line_start(v, at), line_end(v, at));
    let line = &v[from..to];
    [
        "app password",
        "app pw",
        "app-specific password",
        "app specific password",
        "setup key",
        "totp",
        "2fa",
        "mfa",
        "authenticator",
    ]
    .iter()
    .any(|w| {
        line.windows(w.len())
            .any(|x| x.eq_ignore_ascii_case(w.as_bytes()))
    })
}

/// The recovery codes after `recovery codes`, `backup codes` or `2fa recovery` (ending at
/// `after`), to the end of the line: each code is masked (`xrvit-9cx9o`, `4821-9930`,
/// `a8k2m9q1`).
pub(super) fn recovery_codes(v: &[u8], after: usize, sink: &mut Sink) {
    let mut k = after;
    let line_end = line_end(v, k);
    // The run of codes so far, masked as one.
    let mut run: Option<(usize, usize)> = None;
    while k < line_end {
        let gap = k;
        while k < line_end && !v[k].is_ascii_alphanumeric() {
            k += 1;
        }
        let start = k;
        while k < line_end && (v[k].is_ascii_alphanumeric() || v[k] == b'-') {
            k += 1;
        }
        let code = &v[start..k];
        let digits = code.iter().filter(|b| b.is_ascii_digit()).count();
        let alnum = code.iter().filter(|b| b.is_ascii_alphanumeric()).count();
        // Codes are small letters and digits, with a digit (`1Password` is a name).
        let shaped = (6..=20).contains(&alnum)
            && digits > 0
            && !code.iter().any(u8::is_ascii_uppercase)
            && code.iter().filter(|&&b| b == b'-').count() <= 2
            && !is_placeholder(code);
        // Codes are separated by blanks and commas only.
        let joined = v[gap..start]
            .iter()
            .all(|b| matches!(b, b' ' | b',' | b'\t'));
        match (shaped, run) {
            (true, Some((s, _))) if joined => run = Some((s, k)),
            (true, _) => {
                if let Some((s, e)) = run {
                    sink.push(s, e, Category::Secret, true);
                }
                run = Some((start, k));
            }
            (false, Some((s, e))) => {
                sink.push(s, e, Category::Secret, true);
                run = None;
            }
            (false, None) => {}
        }
    }
    if let Some((s, e)) = run {
        sink.push(s, e, Category::Secret, true);
    }
}

/// The words of a wallet's seed phrase after `seed phrase`, `recovery phrase` or `mnemonic`
/// (ending at `after`): twelve or more words of three to eight small letters in a row, after
/// an optional `:` or `is`.
pub(super) fn seed_phrase(v: &[u8], after: usize, sink: &mut Sink) {
    let mut k = skip_blanks(v, after);
    if matches!(v.get(k), Some(b':' | b'=')) {
        k = skip_blanks(v, k + 1);
    } else if v.get(k..k + 3) == Some(b"is ") {
        k = skip_blanks(v, k + 3);
    } else {
        // Prose after the word (`run the seed script and then …`) gives no phrase.
        return;
    }
    // `MNEMONIC="…"`.
    if matches!(v.get(k), Some(b'"' | b'\'')) {
        k += 1;
    }
    let start = k;
    let mut words = 0;
    let mut end = k;
    loop {
        let word_end = k + v[k..].iter().take_while(|b| b.is_ascii_lowercase()).count();
        if !(3..=8).contains(&(word_end - k)) {
            break;
        }
        words += 1;
        end = word_end;
        if words == 48 {
            break;
        }
        if v.get(word_end) == Some(&b' ') && v.get(word_end + 1).is_some_and(u8::is_ascii_lowercase)
        {
            k = word_end + 1;
        } else {
            break;
        }
    }
    if words >= 12 && v.get(end).is_none_or(|b| !b.is_ascii_alphanumeric()) {
        sink.push(start, end, Category::Secret, true);
    }
}
