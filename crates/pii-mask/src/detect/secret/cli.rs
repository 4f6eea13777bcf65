//! Passwords given to command-line tools by their own flags: `mysql -pS3cret`, `sshpass -p
//! …`, `redis-cli -a …`, `docker login -p …`, `keytool -storepass …`, `sqlcmd -P …`,
//! `ldapsearch -w …`, `zip -P …`, `7z -p…`, `smbclient -U user%…`, `xfreerdp /p:…`, `sqlplus
//! user/…@db`, `htpasswd -b file user …`, `net user name …` and PowerShell's
//! `ConvertTo-SecureString "…" -AsPlainText`.
//!
//! A flag such as `-p` means a password only to the tool that defines it, so each tool's word
//! is an anchor of its own and its flags are read on its command only: from the tool's word to
//! the end of the line or a shell separator (`|`, `;`, `&`).

use super::assign::{past_value, skip_blanks, value_at};
use super::value::assigned_value;
use crate::Category;
use crate::detect::Sink;

/// A command-line tool, by how it takes a password.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tool {
    /// `mysql`, `mysqldump`, `mariadb`…: `-pPASSWORD`, glued (`-p` alone prompts, and the word
    /// after it is the database).
    MySql,
    /// `sshpass -p PASSWORD`, glued or not.
    SshPass,
    /// `redis-cli -a PASSWORD`.
    RedisCli,
    /// `docker|podman|nerdctl|buildah|skopeo|oras|helm registry|az|cf|oc login -p PASSWORD`,
    /// and `psexec`, `rdesktop` and `cqlsh`, which take it the same way.
    Login,
    /// `lftp -u user,PASSWORD`.
    Lftp,
    /// `ssh-keygen -N PASSPHRASE` (new) and `-P PASSPHRASE` (old).
    SshKeygen,
    /// `netsh wlan … key=PASSWORD`.
    Netsh,
    /// `wpa_passphrase SSID PASSPHRASE`.
    WpaPassphrase,
    /// `mongosh`, `mongodump`…: `-p PASSWORD`.
    Mongo,
    /// `keytool` and `jarsigner`: `-storepass`, `-keypass` and their `src`/`dest` forms.
    Keytool,
    /// `sqlcmd`, `osql`, `ipmitool`, `mosquitto_pub`/`_sub`: `-P PASSWORD`.
    SqlCmd,
    /// `ldapsearch`, `ldapadd`, `ldapmodify`…: `-w PASSWORD`.
    Ldap,
    /// `zip`, `unzip`, `zipcloak`: `-P PASSWORD`.
    Zip,
    /// `7z`, `7za`, `7zz`, `unrar`: `-pPASSWORD`, glued.
    SevenZip,
    /// `smbclient`, `rpcclient`: `-U user%PASSWORD`.
    SmbClient,
    /// `xfreerdp`: `/p:PASSWORD`.
    FreeRdp,
    /// `sqlplus`, `expdp`, `impdp`, `sqlldr`, `exp`, `imp`, `rman`: `user/PASSWORD@db` as the
    /// first argument, after `userid=`, or after `target` or `catalog`.
    OracleLogin,
    /// `htpasswd -b file user PASSWORD`.
    HtPasswd,
    /// `net user name PASSWORD`.
    NetUser,
    /// `ConvertTo-SecureString "PASSWORD" -AsPlainText`.
    SecureString,
}

/// The tools' words, each an anchor of the credential automaton.
pub(super) const TOOLS: &[(&str, Tool)] = &[
    ("mysql", Tool::MySql),
    ("mysqldump", Tool::MySql),
    ("mysqladmin", Tool::MySql),
    ("mysqlimport", Tool::MySql),
    ("mysqlshow", Tool::MySql),
    ("mysqlcheck", Tool::MySql),
    ("mysqlpump", Tool::MySql),
    ("mysqlsh", Tool::MySql),
    ("mariadb", Tool::MySql),
    ("mariadb-dump", Tool::MySql),
    ("mariadb-admin", Tool::MySql),
    ("sshpass", Tool::SshPass),
    ("redis-cli", Tool::RedisCli),
    ("valkey-cli", Tool::RedisCli),
    ("docker login", Tool::Login),
    ("podman login", Tool::Login),
    ("nerdctl login", Tool::Login),
    ("buildah login", Tool::Login),
    ("skopeo login", Tool::Login),
    ("oras login", Tool::Login),
    ("helm registry login", Tool::Login),
    ("az login", Tool::Login),
    ("psexec", Tool::Login),
    ("rdesktop", Tool::Login),
    ("lftp", Tool::Lftp),
    ("cf login", Tool::Login),
    ("cqlsh", Tool::Login),
    ("oc login", Tool::Login),
    ("ssh-keygen", Tool::SshKeygen),
    ("ipmitool", Tool::SqlCmd),
    ("mosquitto_pub", Tool::SqlCmd),
    ("mosquitto_sub", Tool::SqlCmd),
    ("unrar", Tool::SevenZip),
    ("netsh", Tool::Netsh),
    ("wpa_passphrase", Tool::WpaPassphrase),
    ("mongo", Tool::Mongo),
    ("mongosh", Tool::Mongo),
    ("mongodump", Tool::Mongo),
    ("mongorestore", Tool::Mongo),
    ("mongoexport", Tool::Mongo),
    ("mongoimport", Tool::Mongo),
    ("keytool", Tool::Keytool),
    ("jarsigner", Tool::Keytool),
    ("sqlcmd", Tool::SqlCmd),
    ("osql", Tool::SqlCmd),
    ("ldapsearch", Tool::Ldap),
    ("ldapadd", Tool::Ldap),
    ("ldapmodify", Tool::Ldap),
    ("ldapdelete", Tool::Ldap),
    ("ldapwhoami", Tool::Ldap),
    ("ldappasswd", Tool::Ldap),
    ("ldapcompare", Tool::Ldap),
    ("ldapmodrdn", Tool::Ldap),
    ("zip", Tool::Zip),
    ("unzip", Tool::Zip),
    ("zipcloak", Tool::Zip),
    ("7z", Tool::SevenZip),
    ("7za", Tool::SevenZip),
    ("7zz", Tool::SevenZip),
    ("smbclient", Tool::SmbClient),
    ("rpcclient", Tool::SmbClient),
    ("xfreerdp", Tool::FreeRdp),
    ("xfreerdp3", Tool::FreeRdp),
    ("sqlplus", Tool::OracleLogin),
    ("expdp", Tool::OracleLogin),
    ("impdp", Tool::OracleLogin),
    ("sqlldr", Tool::OracleLogin),
    ("exp", Tool::OracleLogin),
    ("imp", Tool::OracleLogin),
    ("rman", Tool::OracleLogin),
    ("htpasswd", Tool::HtPasswd),
    ("net user", Tool::NetUser),
    ("convertto-securestring", Tool::SecureString),
];

/// How a flag carries its value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Take {
    /// Written against the flag (`-pS3cret`).
    Glued,
    /// The next word (`-p S3cret`), or after `=` (`-p=S3cret`).
    Next,
    /// Either.
    Both,
}

/// The password flags of `tool`, compared with their case.
fn flags(tool: Tool) -> &'static [(&'static str, Take)] {
    match tool {
        Tool::MySql | Tool::SevenZip => &[("-p", Take::Glued)],
        Tool::SshPass | Tool::Login | Tool::Mongo => &[("-p", Take::Both)],
        Tool::RedisCli => &[("-a", Take::Both)],
        Tool::Keytool => &[
            ("-storepass", Take::Next),
            ("-keypass", Take::Next),
            ("-srcstorepass", Take::Next),
            ("-deststorepass", Take::Next),
            ("-srckeypass", Take::Next),
            ("-destkeypass", Take::Next),
        ],
        Tool::SqlCmd | Tool::Zip => &[("-P", Take::Both)],
        Tool::Ldap => &[("-w", Take::Both)],
        Tool::FreeRdp => &[("/p:", Take::Glued)],
        Tool::SshKeygen => &[("-N", Take::Next), ("-P", Take::Next)],
        Tool::Netsh => &[("key=", Take::Glued), ("keyMaterial=", Take::Glued)],
        Tool::SmbClient
        | Tool::WpaPassphrase
        | Tool::Lftp
        | Tool::OracleLogin
        | Tool::HtPasswd
        | Tool::NetUser
        | Tool::SecureString => &[],
    }
}

/// True when the tool's word at `start..end` stands as a command: after the start of the text,
/// a blank, a path (`/usr/bin/mysql`), a quote, a bracket, `$(` or a shell separator, and
/// followed by a blank.
pub(super) fn stands(v: &[u8], start: usize, end: usize, tool: Tool) -> bool {
    if tool == Tool::NetUser {
        // `net user` is also prose ("the net user base"): only at the start of a line or
        // after a prompt.
        let Some((line, _)) = super::short_line(v, start, start) else {
            return false;
        };
        let prefix = &v[line..start];
        let prompt = prefix.iter().all(|&b| b == b' ' || b == b'\t')
            || prefix.trim_ascii_end().ends_with(b">")
            || prefix.trim_ascii_end().ends_with(b"$");
        if !prompt {
            return false;
        }
    }
    let before_ok = start == 0
        || matches!(
            v[start - 1],
            b' ' | b'\t'
                | b'\n'
                | b'/'
                | b'\\'
                | b'"'
                | b'\''
                | b'`'
                | b'('
                | b';'
                | b'|'
                | b'&'
                | b'>'
                | b'$'
        );
    before_ok && matches!(v.get(end), Some(b' ' | b'\t'))
}

/// Where a word of the command line ends: `(start, end, quoted)` of its text, and the position
/// after it. `None` at the end of the command.
fn word(v: &[u8], p: usize) -> Option<((usize, usize, bool), usize)> {
    let p = skip_blanks(v, p);
    match v.get(p) {
        None | Some(b'\n' | b'\r' | b'|' | b';' | b'&') => None,
        Some(b'"' | b'\'') => match value_at(v, p, b"") {
            Some((s, e, true)) => Some(((s, e, true), past_value(v, e, true))),
            _ => None,
        },
        Some(_) => {
            let mut e = p;
            while e < v.len() && !v[e].is_ascii_whitespace() && !matches!(v[e], b'|' | b';') {
                e += 1;
            }
            Some(((p, e, false), e))
        }
    }
}

/// Masks the value in the word `s..e` when it is one and not a placeholder or a reference
/// (`$DB_PASS`).
fn value(v: &[u8], (s, e, quoted): (usize, usize, bool), sink: &mut Sink) -> bool {
    // A word's value may be quoted (`-p'S3cret'`), and loses the punctuation a sentence puts
    // after it.
    let (s, e, quoted) = if quoted {
        (s, e, true)
    } else {
        match value_at(v, s, b"") {
            Some((vs, ve, true)) => (vs, ve, true),
            Some((vs, ve, false)) => (vs, ve.min(e), false),
            None => return false,
        }
    };
    if e > s && assigned_value(&v[s..e], quoted) {
        sink.push(s, e, Category::Secret, true);
        return true;
    }
    false
}

/// Reads the command of `tool` whose word ends at `end`, and masks the password it is given.
pub(super) fn command(v: &[u8], end: usize, tool: Tool, sink: &mut Sink) {
    let mut p = end;
    // Positional arguments so far (words that are not flags).
    let mut positional = 0;
    // `htpasswd -b`: the password is the third positional argument.
    let mut batch = false;
    // `htpasswd -n`: no file argument.
    let mut no_file = false;
    let mut count = 0;
    // The word before this one.
    let mut previous: Option<(usize, usize)> = None;
    while let Some(((s, e, quoted), next)) = word(v, p) {
        count += 1;
        if count > 64 {
            return;
        }
        let text = &v[s..e];
        // `/p:` is a flag of Windows tools only; elsewhere `/…` is a path.
        let is_flag = !quoted
            && text.len() > 1
            && (text[0] == b'-' || (text[0] == b'/' && tool == Tool::FreeRdp));
        for &(flag, take) in flags(tool) {
            let flag = flag.as_bytes();
            if quoted || !text.starts_with(flag) {
                continue;
            }
            let rest = &text[flag.len()..];
            if rest.is_empty() {
                if take != Take::Glued
                    && let Some((arg, _)) = word(v, next)
                {
                    value(v, arg, sink);
                }
            } else if rest[0] == b'=' && take != Take::Glued {
                value(v, (s + flag.len() + 1, e, false), sink);
            } else if take != Take::Next {
                value(v, (s + flag.len(), e, false), sink);
            }
        }
        match tool {
            Tool::SmbClient if text == b"-U" || text.starts_with(b"--user") => {
                let arg = if text == b"-U" || text == b"--user" {
                    word(v, next).map(|(a, _)| a)
                } else {
                    text.iter()
                        .position(|&b| b == b'=')
                        .map(|k| (s + k + 1, e, false))
                };
                if let Some((as_, ae, aq)) = arg
                    && let Some(k) = v[as_..ae].iter().position(|&b| b == b'%')
                {
                    value(v, (as_ + k + 1, ae, aq), sink);
                }
            }
            Tool::Lftp if text == b"-u" => {
                if let Some(((as_, ae, aq), _)) = word(v, next)
                    && let Some(k) = v[as_..ae].iter().position(|&b| b == b',')
                {
                    value(v, (as_ + k + 1, ae, aq), sink);
                }
            }
            // `user/…@db` first, after `userid=` (`exp`, `imp`), or after `target` or
            // `catalog` (`rman`); not `/ as sysdba` nor a path.
            Tool::OracleLogin if !is_flag => {
                let userid = text.len() > 7 && text[..7].eq_ignore_ascii_case(b"userid=");
                let after_target = previous.is_some_and(|(ps, pe)| {
                    v[ps..pe].eq_ignore_ascii_case(b"target")
                        || v[ps..pe].eq_ignore_ascii_case(b"catalog")
                });
                if userid {
                    oracle_login(v, (s + 7, e, quoted), sink);
                } else if positional == 0 || after_target {
                    oracle_login(v, (s, e, quoted), sink);
                }
            }
            Tool::HtPasswd if is_flag && text[0] == b'-' && !text.starts_with(b"--") => {
                batch |= text.contains(&b'b');
                no_file |= text.contains(&b'n');
            }
            // With `-n` there is no file: user, then password.
            Tool::HtPasswd if batch && !is_flag && positional == if no_file { 1 } else { 2 } => {
                value(v, (s, e, quoted), sink);
            }
            Tool::WpaPassphrase if !is_flag && positional == 1 => {
                value(v, (s, e, quoted), sink);
            }
            Tool::NetUser if !is_flag && positional == 1 && text != b"*" => {
                value(v, (s, e, quoted), sink);
            }
            // The string to convert; a `$variable` is a reference, not a value.
            Tool::SecureString if !is_flag && positional == 0 => {
                value(v, (s, e, quoted), sink);
            }
            _ => {}
        }
        if !is_flag {
            positional += 1;
        }
        previous = Some((s, e));
        p = next;
    }
}

/// The password of `user/PASSWORD@db` (or `user/PASSWORD`) in the word `s..e`, the user a
/// name.
fn oracle_login(v: &[u8], (s, e, quoted): (usize, usize, bool), sink: &mut Sink) {
    let text = &v[s..e];
    if let Some(slash) = text.iter().position(|&b| b == b'/')
        && slash > 0
        && text[..slash].iter().any(u8::is_ascii_alphabetic)
        && text[..slash]
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'#' | b'-'))
    {
        let stop = text[slash + 1..]
            .iter()
            .rposition(|&b| b == b'@')
            .map_or(e, |k| s + slash + 1 + k);
        value(v, (s + slash + 1, stop, quoted), sink);
    }
}
