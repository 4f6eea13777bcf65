//! Passwords written where the English rules do not look: after the word for a password in
//! other languages, in the flags of command-line tools, in URLs whose password holds
//! characters a URL should have encoded, and starting with `$`. Each generated password is
//! masked whole, and what only looks like one stays.

use pii_mask::mask;
use proptest::prelude::*;
use proptest::sample::select;

/// Characters a generated password is made of, besides its first and last (letters and digits).
const MIDDLE: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789!#$%&*+?@^~=/";

/// A password of 8–20 characters that mixes capitals, small letters and digits, starts and
/// ends with a letter or digit, and holds symbols between.
fn password() -> impl Strategy<Value = String> {
    (
        "[A-HJ-NP-Z][a-km-z][2-9]",
        proptest::collection::vec(select(MIDDLE), 4..16),
        "[a-km-z2-9]",
    )
        .prop_map(|(head, middle, tail)| {
            let middle: String = middle.into_iter().map(char::from).collect();
            format!("{head}{middle}{tail}")
        })
        .prop_filter("no placeholder marks", |p| {
            let lower = p.to_lowercase();
            !["***", "xxx", "your", "here", "..."]
                .iter()
                .any(|m| lower.contains(m))
        })
}

/// Sentences and assignments that give a password in languages other than English, Hebrew and
/// Japanese: the text before it and after it.
const LANGUAGES: &[(&str, &str)] = &[
    ("Das Passwort ist ", ""),
    ("Kennwort: ", ""),
    ("WLAN-Schlüssel: ", " (nicht teilen)"),
    ("mon mot de passe est ", " pour le wifi"),
    ("MDP : ", ""),
    ("la contraseña es ", " y el usuario es root"),
    ("La clave del wifi es ", ""),
    ("a senha do servidor é ", ""),
    ("a palavra-passe é ", ""),
    ("la password è ", ", non cambiarla"),
    ("mijn wachtwoord is ", ""),
    ("hasło: ", ""),
    ("Пароль до базы: ", ""),
    ("пароль — ", ""),
    ("lösenordet är ", ""),
    ("passordet er ", ""),
    ("Kodeord: ", ""),
    ("wifin salasana on ", ""),
    ("heslo je ", ""),
    ("ŞİFRE: ", ""),
    ("şifrem ", ""),
    ("Parola: ", ""),
    ("pass wifi là ", ""),
    ("kata sandi: ", ""),
    ("पासवर्ड: ", ""),
    ("كلمة المرور: ", ""),
    ("我的密码是", ""),
    ("密碼：", "，别外传"),
    ("비밀번호는 ", ""),
    ("비번: ", ""),
    ("รหัสผ่าน: ", ""),
];

/// Commands that give a tool its password by a flag of that tool; `{}` is the password.
const COMMANDS: &[&str] = &[
    "mysql -u root -p{} -h db.internal",
    "mysqldump -uroot -p'{}' app > app.sql",
    "mariadb -u admin -p{}",
    "sshpass -p '{}' ssh deploy@10.0.0.5",
    "sshpass -p{} scp a.txt host:/tmp",
    "redis-cli -h cache -a {} ping",
    "docker login -u bob -p {} registry.example.com",
    "podman login --username bob -p={} quay.io",
    "az login -u ops@contoso.com -p {}",
    "mongosh --host db -u admin -p {} --authenticationDatabase admin",
    "keytool -list -keystore ks.jks -storepass {}",
    "jarsigner -keystore ks.jks -storepass {} -keypass other app.jar",
    "sqlcmd -S sql01 -U sa -P {} -Q \"select 1\"",
    "ldapsearch -x -D cn=admin,dc=example -w {} -b dc=example",
    "zip -P {} out.zip notes.txt",
    "7z a -p{} backup.7z docs",
    "smbclient //fs01/share -U bob%{}",
    "xfreerdp /v:host /u:bob /p:{}",
    "sqlplus scott/{}@orcl",
    "htpasswd -bc /etc/nginx/.htpasswd bob {}",
    "sudo htpasswd -b -B /etc/apache2/.htpasswd deploy {}",
    "net user bob {} /add",
    "lftp -u bob,{} ftp.example.com",
    "psexec \\\\srv01 -u CORP\\admin -p {} cmd",
    "$cred = ConvertTo-SecureString \"{}\" -AsPlainText -Force",
];

/// Characters a URL should have encoded, and letters of other alphabets, that people paste
/// into a URL's password as they are.
const URL_MIDDLE: &[&str] = &[
    "a", "B", "c", "7", "9", "#", "?", "/", "\\", "!", "$", "&", "+", "=", "ä", "ø", "ż", "ß",
];

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 1024,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// The word for a password in thirty languages masks the value given after it, whole.
    #[test]
    fn a_password_word_of_another_language_masks_its_value(
        password in password(),
        carrier in select(LANGUAGES),
    ) {
        let (before, after) = carrier;
        let text = format!("{before}{password}{after}");
        prop_assert_eq!(mask(&text).text, format!("{before}[SECRET]{after}"), "{:?}", text);
    }

    /// A password starting with `$` is a password when its name mixes small letters, capitals
    /// and digits (`$Admin2023`); a variable is named in words.
    #[test]
    fn a_password_that_starts_with_a_dollar_is_masked(
        password in password(),
        carrier in select(&[("DB_PASSWORD='$", "'"), ("password: $", ""), ("Passwort: $", ""), ("\"client_secret\": \"$", "\"")][..]),
    ) {
        let password: String = password.chars().filter(char::is_ascii_alphanumeric).collect();
        let (before, after) = carrier;
        let text = format!("{before}{password}{after}");
        let want = format!("{}[SECRET]{after}", before.trim_end_matches('$'));
        prop_assert_eq!(mask(&text).text, want, "{:?}", text);
    }

    /// A tool's own password flag masks its value, whole, and nothing else on the line.
    #[test]
    fn a_tool_s_password_flag_masks_its_value(
        password in password(),
        command in select(COMMANDS),
    ) {
        let text = command.replace("{}", &password);
        let want = command.replace("{}", "[SECRET]");
        let m = mask(&text);
        // Addresses and IPs on the line are masked by their own rules.
        let want = mask(&want).text;
        // A value glued to its flag is one run of letters and digits with the flag's letter,
        // which is masked whole (`-[SECRET]`).
        let glued = want.replace("-p[SECRET]", "-[SECRET]");
        prop_assert!(m.text == want || m.text == glued, "{:?} -> {:?}", text, m.text);
    }

    /// A URL's password that holds `#`, `?`, `/`, `\` or letters of other alphabets is masked
    /// up to the `@` before the host, and the host and path stay.
    #[test]
    fn a_url_password_with_characters_a_url_should_encode_is_masked_whole(
        middle in proptest::collection::vec(select(URL_MIDDLE), 3..14),
        scheme in select(&["postgres", "mongodb+srv", "amqps", "redis", "https", "ftp"][..]),
        host in select(&["db.example.com", "mq.local:5672", "redis-master", "10.0.4.17:5432"][..]),
    ) {
        let password = format!("p{}9", middle.concat());
        let text = format!("connect to {scheme}://app:{password}@{host}/prod for the dump");
        let want = format!("connect to {scheme}://app:[SECRET]@{host}/prod for the dump");
        // An IP address host is masked by its own rule.
        prop_assert_eq!(mask(&text).text, mask(&want).text, "{:?}", text);
    }
}

#[test]
fn words_and_commands_that_give_no_password_stay() {
    for text in [
        // Prose in other languages that names a password without giving one.
        "Ich habe mein Passwort vergessen",
        "desenhar é divertido",
        "mot de passe oublié ? cliquez ici",
        "la contraseña debe tener ocho caracteres",
        "Пароль: <ваш пароль>",
        "забыл пароль от почты",
        "密码学是一门学科",
        // A tool's word in prose, or its flag without a value.
        "the net user base grew strongly",
        "my zip code is in Germany",
        "I use mysql -p to log in",
        "mysql -u root -p mydb",
        "redis-cli -a $REDIS_PASS ping",
        "keytool -storepass:env STOREPASS -list",
        "sqlplus / as sysdba",
        "ConvertTo-SecureString $plain -AsPlainText -Force",
        // What a note says about a password instead of giving it.
        "password: expired",
        "Password: unchanged",
        "what's the password again?",
        "token count: 5402",
        "password: !vault |",
        "kubectl create secret generic db --from-file=password=./pw.txt",
        // Templates of a URL, and an address in a URL's query.
        "git clone https://<token>@github.com/org/repo.git",
        "https://host.example.com:8080/x?to=[EMAIL]",
    ] {
        assert_eq!(mask(text).text, text, "{text:?}");
    }
    // A password with `@` and `:` in it, before a name that a `#` ends.
    assert_eq!(
        mask("connect to ldap://root:C0l:on@At#@git.corp.example for the dump").text,
        "connect to ldap://root:[SECRET]@git.corp.example for the dump"
    );
    // An XML element's text is its value only where its end tag closes it.
    assert_eq!(
        mask("<password>Tr0ub4dor&3</password>").text,
        "<password>[SECRET]</password>"
    );
}

/// Pieces of the rules above, concatenated at random: words for a password, tools and their
/// flags, URL marks, typographic quotes (of several bytes each), brackets and letters of other
/// scripts. An unclosed `«` once panicked the reader of values after a word.
const PIECES: &[&str] = &[
    "password",
    "Passwort",
    "пароль",
    "密码",
    "비밀번호",
    "كلمة المرور",
    "mot de passe",
    "MDP",
    "lösenordet",
    "şifre",
    "ŞİFRE",
    "login",
    "credentials",
    "creds",
    "mysql",
    "sshpass",
    "redis-cli",
    "docker login",
    "keytool",
    "net user",
    "sqlplus",
    "htpasswd",
    "smbclient",
    "lftp",
    "xfreerdp",
    "ConvertTo-SecureString",
    "7z",
    "-p",
    "-P",
    "-a",
    "-w",
    "-U",
    "-u",
    "/p:",
    "-storepass",
    "-b",
    "://",
    "postgres://",
    "@",
    "#",
    "?",
    "/",
    "\\",
    ":",
    "=",
    ";",
    "|",
    "&",
    "%",
    ",",
    ".",
    "...",
    "…",
    "'s",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "<",
    ">",
    "\"",
    "'",
    "`",
    "\u{201C}",
    "\u{201D}",
    "\u{2018}",
    "\u{2019}",
    "\u{AB}",
    "\u{BB}",
    "\u{201E}",
    "\n",
    " ",
    " ",
    "\t",
    "$",
    "$Admin2023",
    "${X}",
    "Tr0ub4dor&3",
    "abc123",
    "ä",
    "ż",
    "ש",
    "ж",
    "\u{200b}",
    "\u{3164}",
    "１",
    "٣",
    "22",
    "is",
    "es",
    "è",
    "—",
    ">>",
    "::",
    "PASSWORD(",
    "IDENTIFIED WITH",
    " BY ",
    "requirepass",
    "PUK",
    "token",
    "Bearer",
    "| Password |",
    "|---|",
    "| x |",
    "name,password",
    "password:\n",
    "password: |\n  ",
    ">-\n",
    "\r\n",
    "$6$",
    "$2b$12$",
    "{SSHA}",
    "WIFI:",
    "P:",
    "Cookie: ",
    "sessionid=",
    "seed phrase: ",
    "abcd ",
    "w2x9 ",
    "recovery codes: ",
    "a1b2c-",
    "app password",
    "passphrase: ",
    "a-b-c ",
    "word-word-word",
    "| sudo -S",
    "echo '",
    "| chpasswd",
    "@tcp(",
    "NetworkCredential(",
    "getConnection(",
    "MNEMONIC=\"",
    "pbkdf2_sha256$",
    "aad3b435b51404eeaad3b435b51404ee",
    "%",
    "[::1]",
];

proptest! {
    #![proptest_config(config())]

    /// Whatever the pieces, the spans are in order, on character boundaries, the text outside
    /// them is untouched, and masking the result again changes nothing.
    #[test]
    fn pieces_of_these_rules_keep_the_structural_promises(
        pieces in proptest::collection::vec(select(PIECES), 1..24),
    ) {
        // The structural checks every property of the masker uses: spans in order on
        // character boundaries, counts, untouched text, and nothing left on a second pass.
        crate::props::check_idempotent(&pieces.concat())?;
    }
}

#[test]
fn more_carriers_of_a_password() {
    for (text, want) in [
        // A user name and its password after a login word.
        ("my login is dana / PU4qG8BE", "my login is dana / [SECRET]"),
        ("Login jdoe:Autumn#15", "Login jdoe:[SECRET]"),
        ("creds: deploy/W6=KEwS_3@@^", "creds: deploy/[SECRET]"),
        ("login: root / admin", "login: root / admin"),
        (
            "login: https://example.com/signin",
            "login: https://example.com/signin",
        ),
        // SQL, code and configuration.
        (
            "SET PASSWORD FOR 'u'@'%' = PASSWORD('nwJV93ga');",
            "SET PASSWORD FOR 'u'@'%' = PASSWORD('[SECRET]');",
        ),
        (
            "CREATE USER 'web'@'%' IDENTIFIED WITH mysql_native_password BY 'Xx8Zp$tQkb1';",
            "CREATE USER 'web'@'%' IDENTIFIED WITH mysql_native_password BY '[SECRET]';",
        ),
        (
            "define('DB_PASSWORD', 'Sunshine9');",
            "define('DB_PASSWORD', '[SECRET]');",
        ),
        (
            "props.put(\"password\", \"DAilO03Y\");",
            "props.put(\"password\", \"[SECRET]\");",
        ),
        ("requirepass Ca$hFl0w#", "requirepass [SECRET]"),
        (
            "SSHPASS='Monkey123$' sshpass -e ssh deploy",
            "SSHPASS='[SECRET]' sshpass -e ssh deploy",
        ),
        ("PUK: 91801285", "PUK: [SECRET]"),
        // Typographic quotes, a trailing opener, an ellipsis after the value, "'s".
        (
            "password: \u{201C}Welcome1\u{201D}",
            "password: \u{201C}[SECRET]\u{201D}",
        ),
        (
            "password: \u{AB}|6@!r03CH.hzax\u{BB}",
            "password: \u{AB}[SECRET]\u{BB}",
        ),
        ("DB_PASSWORD=x]3.i;6OM{", "DB_PASSWORD=[SECRET]"),
        (
            "password is Iv<lrKT-fg#9... I think",
            "password is [SECRET]... I think",
        ),
        ("the password's 1p0Js5Tl", "the password's [SECRET]"),
        (
            "curl --user 'dana:\u{DE}\u{F3}r2024#' https://ci.example.com",
            "curl --user 'dana:[SECRET]' https://ci.example.com",
        ),
    ] {
        assert_eq!(mask(text).text, want, "{text:?}");
    }
}

#[test]
fn a_value_on_the_line_under_its_name() {
    for (text, want) in [
        (
            "password: |\n  dD<]3t6dkN(ynW\n",
            "password: |\n  [SECRET]\n",
        ),
        (
            "db:\n  password: >-\n    v48~L&B~c)?]IX",
            "db:\n  password: >-\n    [SECRET]",
        ),
        ("password:\nWelcome1", "password:\n[SECRET]"),
        (
            "wifi password:\nAdmin@123\nthanks",
            "wifi password:\n[SECRET]\nthanks",
        ),
        // A mapping, prose and a placeholder under the name stay.
        ("password:\n  value: x\n", "password:\n  value: x\n"),
        (
            "Password:\nreset it tomorrow",
            "Password:\nreset it tomorrow",
        ),
        ("password:\nunknown", "password:\nunknown"),
        ("key:\nabc123", "key:\nabc123"),
        // A block must be indented.
        ("password: |\nnotes follow", "password: |\nnotes follow"),
    ] {
        assert_eq!(mask(text).text, want, "{text:?}");
    }
}

#[test]
fn cells_under_a_password_heading() {
    for (text, want) in [
        (
            "| Service | User | Password |\n|---|---|---|\n| Grafana | jdoe | 8V]>J:b*+l_.$l |\n| Wiki | dana | hunter22 |\n\nDone.",
            "| Service | User | Password |\n|---|---|---|\n| Grafana | jdoe | [SECRET] |\n| Wiki | dana | [SECRET] |\n\nDone.",
        ),
        (
            "name,url,username,password\nGitHub,https://github.com,dana,Hello@World1\nWiki,https://wiki.example.org,dana,\"a,b;c9\"",
            "name,url,username,password\nGitHub,https://github.com,dana,[SECRET]\nWiki,https://wiki.example.org,dana,\"[SECRET]\"",
        ),
        (
            "host,user,DB Password\ndb1,app,S3cr3t!x",
            "host,user,DB Password\ndb1,app,[SECRET]",
        ),
        // Cells that hold no value, and prose with commas.
        (
            "| Service | Password |\n|---|---|\n| Grafana | n/a |",
            "| Service | Password |\n|---|---|\n| Grafana | n/a |",
        ),
        (
            "I changed my password, email, and phone\nthen logged out",
            "I changed my password, email, and phone\nthen logged out",
        ),
    ] {
        assert_eq!(mask(text).text, want, "{text:?}");
    }
}

#[test]
fn credentials_known_by_their_layout() {
    for (text, want) in [
        (
            "admin:$6$MuhrEPM.HiE81D9K$BkLCKBJVSKuPELysukmayMcVnd1hy2cYbvN34TVgEX:19820:0:99999:7:::",
            "admin:[SECRET]:19820:0:99999:7:::",
        ),
        ("ops:$apr1$2UEqQWR2$2.mSDplc1vSaRsAylyq5k3", "ops:[SECRET]"),
        ("dana:{SHA}JMg79Bw11Py3dEFnfu1RBdNjGzRg", "dana:[SECRET]"),
        (
            "hash $2b$12$KIXQJ9R8vWbK1hJ3yqkZ8eYV0sQ2vR1u5F3oGmZ7cX9pL2dN4aB6C done",
            "hash [SECRET] done",
        ),
        (
            "WIFI:T:WPA;S:MyNet;P:vault65%crx;;",
            "WIFI:T:WPA;S:MyNet;P:[SECRET];;",
        ),
        (
            "WIFI:S:Home;T:WPA2;P:a\\;b9x;H:false;;",
            "WIFI:S:Home;T:WPA2;P:[SECRET];H:false;;",
        ),
        (
            "Cookie: sessionid=NONnkCNscqzrkWtsWE1nFryrKVuZCxUP; theme=dark",
            "Cookie: sessionid=[SECRET]; theme=dark",
        ),
        (
            "Set-Cookie: session=WaRQGXgiKI5TKL1h19QuyFiN; Path=/; HttpOnly",
            "Set-Cookie: session=[SECRET]; Path=/; HttpOnly",
        ),
        (
            "curl --cookie \"laravel_session=8dad1F5vhgDKxaAcIMRIlEW\" https://app.example.com",
            "curl --cookie \"laravel_session=[SECRET]\" https://app.example.com",
        ),
        (
            "TOTP seed: 5Z66MC4LK5EU2CQAOVWW4UG7J723G4JM",
            "TOTP seed: [SECRET]",
        ),
        ("setup key: axdq 2igq w546 ymhk", "setup key: [SECRET]"),
        (
            "gmail app password: ozmj msah hqge aoyd",
            "gmail app password: [SECRET]",
        ),
        (
            "backup codes: lb2a9-lqp5p k8w6m-vyd54 viokv-5xfa7 ek1hb-spoux",
            "backup codes: [SECRET]",
        ),
        ("recovery code: 48213", "recovery code: [SECRET]"),
        (
            "seed phrase: afford acid age alert already act adjust age absent actor access advance",
            "seed phrase: [SECRET]",
        ),
    ] {
        assert_eq!(mask(text).text, want, "{text:?}");
    }
    for text in [
        "costs $1$ each",
        "the cookie policy changed",
        "Cookie: theme=dark; lang=en",
        "seed the database before the tests",
        "my password is take back your keys",
        "recovery codes are stored in 1Password",
        "the seed phrase must be written down",
    ] {
        assert_eq!(mask(text).text, text, "{text:?}");
    }
}

#[test]
fn connection_strings_of_other_shapes() {
    for (text, want) in [
        ("PWD={Sky65\\Ox};UID=deploy", "PWD={[SECRET]};UID=deploy"),
        ("PASSWORD={DB_PASS}", "PASSWORD={DB_PASS}"),
        (
            "jdbc:oracle:thin:jdoe/9AAs0ABw4KjIPk+b@//sql01.example.com:1521/ORCL",
            "jdbc:oracle:thin:jdoe/[SECRET]@//sql01.example.com:1521/ORCL",
        ),
        (
            "jdbc:oracle:thin:@//host.example.com:1521/ORCL",
            "jdbc:oracle:thin:@//host.example.com:1521/ORCL",
        ),
        (
            "db.example.com:5432:app:svc-backup:blue09?5qgx",
            "db.example.com:5432:app:svc-backup:[SECRET]",
        ),
        ("*:*:*:postgres:FY)TJ=($%v0e", "*:*:*:postgres:[SECRET]"),
        (
            "meeting at 10:30:00 on 12:45:00",
            "meeting at 10:30:00 on 12:45:00",
        ),
        (
            "{\"webhook\":\"https:\\/\\/hooks.slack.com\\/services\\/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\"}",
            "{\"webhook\":\"https:\\/\\/hooks.slack.com\\/services\\/[SECRET]\"}",
        ),
    ] {
        assert_eq!(mask(text).text, want, "{text:?}");
    }
}

/// Latin letters and Cyrillic or Greek letters drawn like them.
const LOOK_ALIKES: &[(char, char)] = &[
    ('A', 'А'),
    ('B', 'Β'),
    ('E', 'Е'),
    ('K', 'К'),
    ('M', 'М'),
    ('O', 'Ο'),
    ('P', 'Р'),
    ('T', 'Т'),
    ('X', 'Х'),
    ('a', 'а'),
    ('e', 'е'),
    ('o', 'ο'),
    ('p', 'р'),
    ('c', 'с'),
    ('x', 'х'),
    ('y', 'у'),
    ('i', 'і'),
];

proptest! {
    #![proptest_config(config())]

    /// A provider key with Cyrillic or Greek letters drawn like Latin ones in its prefix or
    /// body is masked whole, without a credential word on the line (it stayed visible).
    #[test]
    fn a_key_with_look_alike_letters_is_masked_whole(
        body in "[A-Za-z0-9]{24}",
        swaps in proptest::collection::vec((0usize..32, 0..1), 1..4),
        prefix in select(&["sk_live_", "glpat-", "xoxb-1234567890-"][..]),
    ) {
        let ascii = format!("{prefix}{body}");
        // The key as issued is masked (a body of too few distinct characters is not a key).
        prop_assume!(mask(&format!("pushed the fix with {ascii} yesterday")).text == "pushed the fix with [SECRET] yesterday");
        let mut token: Vec<char> = ascii.chars().collect();
        for (at, _) in swaps {
            // A letter of the prefix or the body written as its look-alike of another script.
            let swappable: Vec<usize> = (0..token.len())
                .filter(|&k| LOOK_ALIKES.iter().any(|(latin, _)| *latin == token[k]))
                .collect();
            if let Some(&k) = swappable.get(at % swappable.len().max(1)) {
                let other = LOOK_ALIKES.iter().find(|(latin, _)| *latin == token[k]).map(|(_, o)| *o);
                token[k] = other.unwrap_or(token[k]);
            }
        }
        let token: String = token.into_iter().collect();
        let text = format!("pushed the fix with {token} yesterday");
        prop_assert_eq!(mask(&text).text, "pushed the fix with [SECRET] yesterday", "{:?}", text);
    }
}

#[test]
fn words_of_cyrillic_and_greek_keep_their_letters() {
    for text in [
        "встреча в среду, Windows-версия",
        "ο καιρός είναι καλός",
        "купил iPhone вчера",
    ] {
        assert_eq!(mask(text).text, text, "{text:?}");
    }
    // An address with a Cyrillic letter in it is an address.
    assert_eq!(mask("mail dаna@example.com").text, "mail [EMAIL]");
}

#[test]
fn codes_brackets_and_more_tools() {
    for (text, want) in [
        ("door code 7946", "door code [SECRET]"),
        ("safe combination 08-37-32", "safe combination [SECRET]"),
        ("keypad code 4800#", "keypad code [SECRET]"),
        (
            "the door code changed in 2024",
            "the door code changed in 2024",
        ),
        ("password [Test1234!a]", "password [[SECRET]]"),
        (
            "password [your password here]",
            "password [your password here]",
        ),
        (
            "[warn] retrying login(dana, \"Ue&6[yXl|z$T0I1c\")",
            "[warn] retrying login(dana, \"[SECRET]\")",
        ),
        (
            "exp userid=svc-backup/hi3QK0KB@orcl file=x.dmp",
            "exp userid=svc-backup/[SECRET]@orcl file=x.dmp",
        ),
        (
            "rman target sys/zgOc2sdgm0NmofPelRjpMkkU@prod",
            "rman target sys/[SECRET]@prod",
        ),
        ("imp is a small demon", "imp is a small demon"),
        ("Wifi-lösenord: 4WqJs5BE", "Wifi-lösenord: [SECRET]"),
        ("lozinka: Test1234!a", "lozinka: [SECRET]"),
        (
            "https://x.blob.core.windows.net/c/f.zip?sv=2022-11-02&sp=r&sig=Spc06gh8KBx0JR951uQ%2B7855vWBjJcmgfS7TfMYjs%2Fcz",
            "https://x.blob.core.windows.net/c/f.zip?sv=2022-11-02&sp=r&sig=[SECRET]",
        ),
    ] {
        assert_eq!(mask(text).text, want, "{text:?}");
    }
}

#[test]
fn code_and_questions_that_handle_a_password_without_giving_one() {
    for text in [
        "Can you remind me how to reset the admin password on Jenkins?",
        "Passwort vergessen? Hier klicken.",
        "Wo ist das Passwort für the router?",
        "Password: [enter password]",
        "DB_PASSWORD=<db password>",
        "api_key: !env_var API_KEY",
        "token: \"@Microsoft.KeyVault(SecretUri=https://kv.vault.azure.net/secrets/api)\"",
        "let password = prompt_password(\"Password: \")?;",
        "token = keyring.get_password('github', 'me')",
        "if token is None: sys.exit(\"set OPENAI_API_KEY\")",
        "Pass the token with the --token flag or the TOKEN env var.",
        "curl -u USER:PASS https://api.example.com",
    ] {
        assert_eq!(mask(text).text, text, "{text:?}");
    }
    // The same carriers with a value.
    for (text, want) in [
        ("das Passwort ist Sommer2024!", "das Passwort ist [SECRET]"),
        ("password: !Xy7zPq", "password: [SECRET]"),
        ("my password is Welcome1!", "my password is [SECRET]"),
    ] {
        assert_eq!(mask(text).text, want, "{text:?}");
    }
}

#[test]
fn passphrases_wifi_keys_pipes_calls_and_more_tools() {
    for (text, want) in [
        (
            "passphrase: golden aerobic baseball blizzard able adapt",
            "passphrase: [SECRET]",
        ),
        (
            "Het wachtwoord is granite-thomas-ginger",
            "Het wachtwoord is [SECRET]",
        ),
        (
            "cqlsh -u cassandra -p purple-storm-summer localhost",
            "cqlsh -u cassandra -p [SECRET] localhost",
        ),
        ("alarm code 2075", "alarm code [SECRET]"),
        ("garage door keypad: 6774", "garage door keypad: [SECRET]"),
        ("iPhone passcode 873854", "iPhone passcode [SECRET]"),
        ("psk=\"Tr0ub4dor&3\"", "psk=\"[SECRET]\""),
        ("WPA2 key: 6UN4-I0AS-VSLM", "WPA2 key: [SECRET]"),
        (
            "netsh wlan set hostednetwork mode=allow ssid=Cafe key=Espresso42!",
            "netsh wlan set hostednetwork mode=allow ssid=Cafe key=[SECRET]",
        ),
        (
            "wpa_passphrase HomeNet Sunny-Day-2024",
            "wpa_passphrase HomeNet [SECRET]",
        ),
        (
            "La clé API est 8f14e45fceea167a5a36dedd4bea2543",
            "La clé API est [SECRET]",
        ),
        (
            "ssh-keygen -t ed25519 -N \"Tr0ub4dor&3\" -f key",
            "ssh-keygen -t ed25519 -N \"[SECRET]\" -f key",
        ),
        (
            "echo 'Tr0ub4dor&3' | sudo -S apt update",
            "echo '[SECRET]' | sudo -S apt update",
        ),
        (
            "echo 'postgres:Spring24!!x' | sudo chpasswd",
            "echo 'postgres:[SECRET]' | sudo chpasswd",
        ),
        (
            "dsn := \"app:S3cr3t!x@tcp(db:3306)/shop\"",
            "dsn := \"app:[SECRET]@tcp(db:3306)/shop\"",
        ),
        (
            "var cred = new NetworkCredential(\"svc\", \"Tr0ub4dor&3\");",
            "var cred = new NetworkCredential(\"svc\", \"[SECRET]\");",
        ),
        (
            "requests.get(url, auth=(\"app\", \"Tr0ub4dor&3\"))",
            "requests.get(url, auth=(\"app\", \"[SECRET]\"))",
        ),
        (
            "DriverManager.getConnection(url, \"sa\", \"Tr0ub4dor&3\")",
            "DriverManager.getConnection(url, \"sa\", \"[SECRET]\")",
        ),
        (
            "Administrator:500:aad3b435b51404eeaad3b435b51404ee:31d6cfe0d16ae931b73c59d7e0c089c0:::",
            "Administrator:500:[SECRET]:::",
        ),
        (
            "pbkdf2_sha256$260000$abcdEFGH1234$Xy7zPqRsTuVwXyZ0123456789abcdefABCDEFG=",
            "[SECRET]",
        ),
        (
            "MNEMONIC=\"afford acid age alert already act adjust age absent actor access advance\"",
            "MNEMONIC=\"[SECRET]\"",
        ),
    ] {
        assert_eq!(mask(text).text, want, "{text:?}");
    }
    for text in [
        "a well-known state-of-the-art tool",
        "the keypad is broken",
        "my passphrase is long and hard to remember",
        "sudo -s",
        "ls | sudo -S true",
        "jwt.encode(payload, SECRET, algorithm=\"HS256\")",
    ] {
        assert_eq!(mask(text).text, text, "{text:?}");
    }
}

#[test]
fn a_lone_percent_sign_is_a_value_and_no_panic() {
    for (text, want) in [
        ("WIFI:T:WPA;P:%;;", "WIFI:T:WPA;P:[SECRET];;"),
        (
            "dsn := \"u:%@tcp(db:3306)/app\"",
            "dsn := \"u:[SECRET]@tcp(db:3306)/app\"",
        ),
        ("postgres://u:%@db/x", "postgres://u:[SECRET]@db/x"),
    ] {
        assert_eq!(mask(text).text, want, "{text:?}");
    }
}

#[test]
fn a_final_review_s_look_alikes_stay() {
    for text in [
        "netsh wlan show profile name=\"HomeNet\" key=clear",
        "Card exp 01/2027, CVV on the back",
        "run the seed script and then restart the app server once the data looks good to you",
        "Passwort ändern seit 2023 Pflicht",
        "token - 2024 rotation",
        "login(request, \"Please sign in to continue\")",
        "new Credentials(\"region\", \"us-east-1\")",
        "Fixed login bug/CVE-2024-1234",
        "http://[::1]:8080/users/@me",
        "Delete the cookie first; then set build=a1b2c3d4e5f6a7b8c9d0",
        "Forgot your password, or your username?\nClick Reset, then follow the link\nOpen Settings, choose Security",
    ] {
        assert_eq!(mask(text).text, text, "{text:?}");
    }
    assert_eq!(
        mask("htpasswd -nb admin S3cret!Pass").text,
        "htpasswd -nb admin [SECRET]"
    );
}
