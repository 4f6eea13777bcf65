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
