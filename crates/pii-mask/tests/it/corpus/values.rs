//! Generators of the values themselves: provider credentials in their published shapes (with
//! real checksums where the format has one), passwords, JWTs, PEM blocks, SSNs, IP addresses,
//! obfuscated emails and the digit values of the older categories.

use super::util::*;

// ---------------------------------------------------------------- provider credentials

/// A provider credential: the form it is reported under, an environment variable people keep
/// it in, and its generator.
pub struct Provider {
    pub form: &'static str,
    pub var: &'static str,
    pub make: fn(&mut Rng) -> String,
}

pub const PROVIDERS: &[Provider] = &[
    Provider {
        form: "secret/aws-access-key-id",
        var: "AWS_ACCESS_KEY_ID",
        make: aws_key_id,
    },
    Provider {
        form: "secret/google-api-key",
        var: "GOOGLE_API_KEY",
        make: google_api_key,
    },
    Provider {
        form: "secret/github-classic",
        var: "GITHUB_TOKEN",
        make: github_classic,
    },
    Provider {
        form: "secret/github-fine-grained",
        var: "GH_TOKEN",
        make: github_fine_grained,
    },
    Provider {
        form: "secret/gitlab-pat",
        var: "GITLAB_TOKEN",
        make: gitlab_pat,
    },
    Provider {
        form: "secret/gitlab-pat-routable",
        var: "GITLAB_TOKEN",
        make: gitlab_pat_routable,
    },
    Provider {
        form: "secret/slack-bot",
        var: "SLACK_BOT_TOKEN",
        make: slack_bot,
    },
    Provider {
        form: "secret/slack-user",
        var: "SLACK_USER_TOKEN",
        make: slack_user,
    },
    Provider {
        form: "secret/stripe-secret",
        var: "STRIPE_SECRET_KEY",
        make: stripe_secret,
    },
    Provider {
        form: "secret/stripe-restricted",
        var: "STRIPE_API_KEY",
        make: stripe_restricted,
    },
    Provider {
        form: "secret/stripe-webhook",
        var: "STRIPE_WEBHOOK_SECRET",
        make: stripe_webhook,
    },
    Provider {
        form: "secret/twilio-api-key",
        var: "TWILIO_API_KEY",
        make: twilio_api_key,
    },
    Provider {
        form: "secret/sendgrid",
        var: "SENDGRID_API_KEY",
        make: sendgrid,
    },
    Provider {
        form: "secret/openai-legacy",
        var: "OPENAI_API_KEY",
        make: openai_legacy,
    },
    Provider {
        form: "secret/openai-project",
        var: "OPENAI_API_KEY",
        make: openai_project,
    },
    Provider {
        form: "secret/anthropic",
        var: "ANTHROPIC_API_KEY",
        make: anthropic,
    },
    Provider {
        form: "secret/huggingface",
        var: "HF_TOKEN",
        make: huggingface,
    },
    Provider {
        form: "secret/npm",
        var: "NPM_TOKEN",
        make: npm,
    },
    Provider {
        form: "secret/pypi",
        var: "TWINE_PASSWORD",
        make: pypi,
    },
    Provider {
        form: "secret/docker-pat",
        var: "DOCKERHUB_TOKEN",
        make: docker_pat,
    },
    Provider {
        form: "secret/shopify",
        var: "SHOPIFY_ACCESS_TOKEN",
        make: shopify,
    },
    Provider {
        form: "secret/mailgun",
        var: "MAILGUN_API_KEY",
        make: mailgun,
    },
    Provider {
        form: "secret/digitalocean",
        var: "DIGITALOCEAN_TOKEN",
        make: digitalocean,
    },
    Provider {
        form: "secret/telegram-bot",
        var: "TELEGRAM_BOT_TOKEN",
        make: telegram,
    },
    Provider {
        form: "secret/groq",
        var: "GROQ_API_KEY",
        make: groq,
    },
    Provider {
        form: "secret/jwt-hs256",
        var: "ID_TOKEN",
        make: jwt_hs256,
    },
    Provider {
        form: "secret/jwt-rs256",
        var: "ACCESS_TOKEN",
        make: jwt_rs256,
    },
    Provider {
        form: "secret/jwt-es256",
        var: "SESSION_JWT",
        make: jwt_es256,
    },
];

/// `AKIA`/`ASIA` and 16 base-32 characters.
pub fn aws_key_id(r: &mut Rng) -> String {
    let prefix = if r.chance(75) { "AKIA" } else { "ASIA" };
    format!("{prefix}{}", r.string(BASE32_UPPER, 16))
}

/// 40 characters of base64.
pub fn aws_secret(r: &mut Rng) -> String {
    r.string(B64_STD, 40)
}

/// `AIza` and 35 URL-safe characters (in practice `AIzaSy…`).
pub fn google_api_key(r: &mut Rng) -> String {
    format!("AIzaSy{}", r.string(URL_SAFE, 33))
}

/// GitHub's `gh?_` tokens: 30 base-62 characters of entropy and six base-62 characters of the
/// CRC-32 of those 30 (the prefix is not covered), zero-padded.
pub fn github_classic(r: &mut Rng) -> String {
    let prefix = *r.pick(&["ghp_", "ghp_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_"]);
    checksummed_token(r, prefix)
}

/// The same construction as GitHub's, which npm adopted for `npm_` tokens.
pub fn npm(r: &mut Rng) -> String {
    checksummed_token(r, "npm_")
}

pub fn checksummed_token(r: &mut Rng, prefix: &str) -> String {
    let body = r.string(BASE62, 30);
    format!("{prefix}{body}{}", base62_fixed(crc32(body.as_bytes()), 6))
}

/// `github_pat_`, 22 characters, `_`, 59 characters (82 after the prefix).
pub fn github_fine_grained(r: &mut Rng) -> String {
    format!(
        "github_pat_11{}_{}",
        r.string(BASE62, 20),
        r.string(BASE62, 59)
    )
}

fn sprinkle(r: &mut Rng, mut s: String, chars: &[char], max: usize) -> String {
    let n = r.below(max + 1);
    for _ in 0..n {
        let at = 1 + r.below(s.len() - 2);
        let c = *r.pick(chars);
        s.replace_range(at..=at, &c.to_string());
    }
    s
}

/// `glpat-` and 20 characters of `[0-9A-Za-z_-]`.
pub fn gitlab_pat(r: &mut Rng) -> String {
    let body = r.string(BASE62, 20);
    format!("glpat-{}", sprinkle(r, body, &['-', '_'], 2))
}

/// The routable form: `glpat-`, 27 or more characters, `.`, nine lowercase alphanumerics.
pub fn gitlab_pat_routable(r: &mut Rng) -> String {
    let n = r.range(27, 40) as usize;
    let body = r.string(BASE62, n);
    format!(
        "glpat-{}.01{}",
        sprinkle(r, body, &['-', '_'], 2),
        r.string(LOWER_ALNUM, 7)
    )
}

/// `xoxb-` workspace id, bot id, 24 alphanumerics.
pub fn slack_bot(r: &mut Rng) -> String {
    let (a, b) = (r.range(10, 13) as usize, r.range(10, 13) as usize);
    let (w, u) = (r.digits(a - 1), r.digits(b - 1));
    format!(
        "xoxb-{}{w}-{}{u}-{}",
        r.range(1, 9),
        r.range(1, 9),
        r.string(BASE62, 24)
    )
}

/// `xoxp-` three numeric ids and 32 hex characters.
pub fn slack_user(r: &mut Rng) -> String {
    let mut ids = Vec::new();
    for _ in 0..3 {
        let n = r.range(10, 13) as usize;
        ids.push(format!("{}{}", r.range(1, 9), r.digits(n - 1)));
    }
    format!("xoxp-{}-{}", ids.join("-"), r.hex(32))
}

fn stripe_body(r: &mut Rng) -> String {
    if r.chance(60) {
        // Current keys: `51`, the account part and the key, 99 characters in all.
        format!("51{}", r.string(BASE62, 97))
    } else {
        r.string(BASE62, 24)
    }
}

/// `sk_live_` (and a few `sk_test_`: test-mode secret keys are credentials too).
pub fn stripe_secret(r: &mut Rng) -> String {
    let mode = if r.chance(85) { "live" } else { "test" };
    format!("sk_{mode}_{}", stripe_body(r))
}

pub fn stripe_restricted(r: &mut Rng) -> String {
    format!("rk_live_{}", stripe_body(r))
}

/// `whsec_` and 32 alphanumerics (dashboard) or 64 hex (the CLI's).
pub fn stripe_webhook(r: &mut Rng) -> String {
    if r.chance(60) {
        format!("whsec_{}", r.string(BASE62, 32))
    } else {
        format!("whsec_{}", r.hex(64))
    }
}

/// API key SIDs: `SK` and 32 lowercase hex.
pub fn twilio_api_key(r: &mut Rng) -> String {
    format!("SK{}", r.hex(32))
}

/// `SG.`, 22 characters, `.`, 43 characters (URL-safe base64).
pub fn sendgrid(r: &mut Rng) -> String {
    format!("SG.{}.{}", r.string(URL_SAFE, 22), r.string(URL_SAFE, 43))
}

/// `sk-`, 20, the base64 of "openai" (`T3BlbkFJ`), 20.
pub fn openai_legacy(r: &mut Rng) -> String {
    format!(
        "sk-{}T3BlbkFJ{}",
        r.string(BASE62, 20),
        r.string(BASE62, 20)
    )
}

/// `sk-proj-` (or `sk-svcacct-`/`sk-admin-`), 74 or 58 URL-safe characters either side of
/// `T3BlbkFJ`.
pub fn openai_project(r: &mut Rng) -> String {
    let kind = *r.pick(&["proj", "proj", "proj", "svcacct", "admin"]);
    let n = if kind == "admin" || r.chance(30) {
        58
    } else {
        74
    };
    let (a, b) = (r.string(URL_SAFE, n), r.string(URL_SAFE, n - 1));
    format!("sk-{kind}-{a}T3BlbkFJ{b}A")
}

/// `sk-ant-api03-`, 93 URL-safe characters, `AA`.
pub fn anthropic(r: &mut Rng) -> String {
    let kind = if r.chance(90) { "api03" } else { "admin01" };
    format!("sk-ant-{kind}-{}AA", r.string(URL_SAFE, 93))
}

/// `hf_` and 34 letters.
pub fn huggingface(r: &mut Rng) -> String {
    format!("hf_{}", r.string(LETTERS, 34))
}

/// An upload token: `pypi-` and a base64url macaroon whose first fields are the location
/// `pypi.org` (hence `AgEIcHlwaS5vcmc`) and a UUID identifier.
pub fn pypi(r: &mut Rng) -> String {
    let mut m = vec![0x02, 0x01, 0x08];
    m.extend_from_slice(b"pypi.org");
    m.extend_from_slice(&[0x02, 0x24]);
    m.extend_from_slice(uuid(r).as_bytes());
    m.extend_from_slice(&[0x00, 0x02, 0x2a]);
    m.extend_from_slice(b"[1,[\"permissions\",\"user\"],\"version\",1]");
    m.extend_from_slice(&[0x00, 0x00, 0x06, 0x20]);
    let tail = r.range(32, 48) as usize;
    m.extend(r.bytes(tail));
    format!("pypi-{}", b64url(&m))
}

/// `dckr_pat_` and 27 URL-safe characters.
pub fn docker_pat(r: &mut Rng) -> String {
    format!("dckr_pat_{}", r.string(URL_SAFE, 27))
}

/// `shpat_`/`shpss_`/`shpca_`/`shppa_` and 32 hex.
pub fn shopify(r: &mut Rng) -> String {
    let p = *r.pick(&["shpat_", "shpat_", "shpss_", "shpca_", "shppa_"]);
    format!("{p}{}", r.hex(32))
}

/// `key-` and 32 hex.
pub fn mailgun(r: &mut Rng) -> String {
    format!("key-{}", r.hex(32))
}

/// `dop_v1_`/`doo_v1_`/`dor_v1_` and 64 hex.
pub fn digitalocean(r: &mut Rng) -> String {
    let p = *r.pick(&["dop_v1_", "dop_v1_", "doo_v1_", "dor_v1_"]);
    format!("{p}{}", r.hex(64))
}

/// Bot id (8–10 digits), `:`, `AA` and 33 URL-safe characters.
pub fn telegram(r: &mut Rng) -> String {
    let n = r.range(8, 10) as usize;
    format!(
        "{}{}:AA{}",
        r.range(1, 9),
        r.digits(n - 1),
        r.string(URL_SAFE, 33)
    )
}

/// `gsk_` and 52 alphanumerics.
pub fn groq(r: &mut Rng) -> String {
    format!("gsk_{}", r.string(BASE62, 52))
}

fn jwt(r: &mut Rng, alg: &str, sig_len: usize) -> String {
    let header = if r.chance(50) {
        format!("{{\"alg\":\"{alg}\",\"typ\":\"JWT\"}}")
    } else {
        format!(
            "{{\"alg\":\"{alg}\",\"kid\":\"{}\",\"typ\":\"JWT\"}}",
            r.hex(16)
        )
    };
    let iat = 1_650_000_000 + r.range(0, 120_000_000);
    let payload = match r.below(3) {
        0 => format!(
            "{{\"sub\":\"{}\",\"name\":\"{}\",\"iat\":{iat}}}",
            r.range(1000, 99_999),
            r.pick(&["Dana Levi", "Ken Sato", "Noa Cohen"])
        ),
        1 => format!(
            "{{\"iss\":\"https://auth.{}.com/\",\"sub\":\"user_{}\",\"aud\":\"api\",\"iat\":{iat},\"exp\":{},\"scope\":\"read write\"}}",
            r.pick(&["acme", "example", "contoso"]),
            r.string(BASE62, 12),
            iat + 3600
        ),
        _ => format!(
            "{{\"user_id\":{},\"role\":\"{}\",\"session\":\"{}\",\"exp\":{}}}",
            r.range(1, 500_000),
            r.pick(&["admin", "member", "viewer"]),
            r.hex(16),
            iat + 86_400
        ),
    };
    let sig = r.bytes(sig_len);
    format!(
        "{}.{}.{}",
        b64url(header.as_bytes()),
        b64url(payload.as_bytes()),
        b64url(&sig)
    )
}

pub fn jwt_hs256(r: &mut Rng) -> String {
    jwt(r, "HS256", 32)
}

pub fn jwt_rs256(r: &mut Rng) -> String {
    jwt(r, "RS256", 256)
}

pub fn jwt_es256(r: &mut Rng) -> String {
    jwt(r, "ES256", 64)
}

/// Slack incoming webhook: the URL up to the secret, and the secret (24 alphanumerics).
pub fn slack_webhook(r: &mut Rng) -> (String, String) {
    let t = r.range(8, 10) as usize;
    let b = r.range(8, 10) as usize;
    (
        format!(
            "https://hooks.slack.com/services/T{}/B{}/",
            r.string("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", t),
            r.string("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", b)
        ),
        r.string(BASE62, 24),
    )
}

/// Discord webhook: the URL up to the token (with an 18–19 digit id), and the 68-character
/// token.
pub fn discord_webhook(r: &mut Rng) -> (String, String) {
    let host = *r.pick(&[
        "discord.com",
        "discord.com",
        "discordapp.com",
        "canary.discord.com",
    ]);
    let n = r.range(18, 19) as usize;
    (
        format!("https://{host}/api/webhooks/1{}/", r.digits(n - 1)),
        r.string(URL_SAFE, 68),
    )
}

/// A random secret of the kinds people paste: hex 32/40/64, base64, base62, base64url.
pub fn random_secret(r: &mut Rng) -> String {
    match r.below(6) {
        0 => r.hex(32),
        1 => r.hex(40),
        2 => r.hex(64),
        3 => {
            let n = r.range(18, 33) as usize;
            b64(&r.bytes(n))
        }
        4 => {
            let n = r.range(20, 40) as usize;
            r.string(BASE62, n)
        }
        _ => {
            let n = r.range(24, 43) as usize;
            r.string(URL_SAFE, n)
        }
    }
}

/// An opaque bearer token: random, a Google OAuth `ya29.` token, or a JWT.
pub fn bearer_token(r: &mut Rng) -> String {
    match r.below(5) {
        0 => {
            let n = r.range(120, 160) as usize;
            format!("ya29.{}", r.string(URL_SAFE, n))
        }
        1 => jwt_hs256(r),
        2 => r.hex(40),
        _ => {
            let n = r.range(32, 64) as usize;
            r.string(BASE62, n)
        }
    }
}

// ---------------------------------------------------------------- passwords

const WORDS: &[&str] = &[
    "troubadour",
    "dragon",
    "sunshine",
    "monkey",
    "shadow",
    "princess",
    "football",
    "welcome",
    "baseball",
    "master",
    "liverpool",
    "falcon",
    "penguin",
    "galaxy",
    "harbor",
    "violet",
    "pepper",
    "thunder",
    "orange",
    "kitten",
    "rocket",
    "silver",
    "maple",
    "cobalt",
    "lantern",
    "mango",
    "tiger",
    "jasmine",
    "shalom",
    "sakura",
];

const WEAK: &[&str] = &[
    "hunter2",
    "qwerty123",
    "P@ssw0rd",
    "letmein1",
    "iloveyou2",
    "Passw0rd!",
    "admin123",
    "dragon2023",
    "Welcome1!",
    "abc123XYZ",
    "Aa123456!",
    "zaq12wsx",
    "1qaz2wsx",
    "Shalom2024",
];

fn leet(word: &str, r: &mut Rng) -> String {
    let mut out = String::new();
    for (i, c) in word.chars().enumerate() {
        let c = if i == 0 { c.to_ascii_uppercase() } else { c };
        let sub = match c {
            'o' if r.chance(60) => '0',
            'a' if r.chance(50) => '4',
            'e' if r.chance(50) => '3',
            'i' if r.chance(50) => '1',
            's' if r.chance(30) => '5',
            _ => c,
        };
        out.push(sub);
    }
    out
}

/// A realistic password. `symbols` are the punctuation characters the carrier tolerates; any
/// other punctuation is replaced by one of them (or dropped when there are none).
pub fn password(r: &mut Rng, symbols: &str) -> String {
    const ALL_SYMBOLS: &str = "!@#$%^&*-_=+.?~";
    let raw = match r.below(6) {
        0 => {
            let word = *r.pick(WORDS);
            let w = leet(word, r);
            format!("{w}{}{}", r.string(ALL_SYMBOLS, 1), r.range(0, 99))
        }
        1 => {
            let n = r.range(1, 2) as usize;
            format!(
                "{}{}{}",
                r.pick(&["Summer", "Winter", "Spring", "Autumn", "Fall"]),
                r.pick(&["2019", "2021", "2023", "2024", "2025", "23", "24"]),
                r.string("!#$@*", n)
            )
        }
        2 => loop {
            let n = r.range(12, 20) as usize;
            let s = r.string(
                "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789!@#$%^&*-_=+",
                n,
            );
            if s.bytes().any(|b| b.is_ascii_digit()) && s.bytes().any(|b| b.is_ascii_uppercase()) {
                break s;
            }
        },
        3 => {
            let sep = *r.pick(&["-", ".", "_"]);
            let k = r.range(3, 4) as usize;
            let words: Vec<&str> = (0..k).map(|_| *r.pick(WORDS)).collect();
            format!("{}{sep}{}", words.join(sep), r.range(1, 99))
        }
        4 => r.pick(WEAK).to_string(),
        _ => {
            let w = r.pick(WORDS);
            let mut c = w.chars();
            let first = c.next().map(|f| f.to_ascii_uppercase()).unwrap_or('X');
            format!(
                "{first}{}{}{}",
                c.as_str(),
                r.range(10, 9999),
                r.string("!#*", 1)
            )
        }
    };
    let sym: Vec<char> = symbols.chars().collect();
    let mut out = String::new();
    for c in raw.chars() {
        if c.is_ascii_alphanumeric() || sym.contains(&c) {
            out.push(c);
        } else if !sym.is_empty() {
            out.push(*r.pick(&sym));
        }
    }
    // A value that ends in a sentence mark reads ambiguously in prose; keep an alphanumeric end.
    while out.ends_with(['.', '?', ',']) {
        out.pop();
    }
    if out.len() < 6 {
        out.push_str(&r.digits(3));
    }
    out
}

/// Symbols that survive each kind of carrier.
pub mod sym {
    pub const PROSE: &str = "!@#$%&*-_+=~";
    pub const ENV: &str = "!@%^*-_+=.,~";
    pub const QUOTED: &str = "!@#$%^&*-_=+.?~";
    pub const INI: &str = "!@%^*-_+=.~";
    pub const XML: &str = "!@#$%^*-_=+.?~";
    pub const SHELL: &str = "@%-_+=.,";
    pub const URL: &str = "!@#-._~*";
}

/// Percent-encodes the characters a URL's userinfo cannot hold.
pub fn percent_encode_userinfo(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '@' => out.push_str("%40"),
            '#' => out.push_str("%23"),
            ':' => out.push_str("%3A"),
            '/' => out.push_str("%2F"),
            '?' => out.push_str("%3F"),
            '%' => out.push_str("%25"),
            _ => out.push(c),
        }
    }
    out
}

// ---------------------------------------------------------------- PEM blocks

#[derive(Clone, Copy, Debug)]
pub enum Pem {
    Rsa,
    Ec,
    OpenSsh,
    Pkcs8Rsa,
    Pkcs8Ed25519,
    EncryptedPkcs8,
    RsaLegacyEncrypted,
    Pgp,
}

pub const PEM_KINDS: &[(Pem, &str)] = &[
    (Pem::Rsa, "secret/pem-rsa"),
    (Pem::Ec, "secret/pem-ec"),
    (Pem::OpenSsh, "secret/pem-openssh"),
    (Pem::Pkcs8Rsa, "secret/pem-pkcs8"),
    (Pem::Pkcs8Ed25519, "secret/pem-pkcs8"),
    (Pem::EncryptedPkcs8, "secret/pem-encrypted"),
    (Pem::RsaLegacyEncrypted, "secret/pem-encrypted"),
    (Pem::Pgp, "secret/pem-pgp"),
];

fn der(r: &mut Rng, prefix: &[u8], total: usize) -> Vec<u8> {
    let mut v = prefix.to_vec();
    let rest = total.saturating_sub(v.len());
    v.extend(r.bytes(rest));
    v
}

/// The lines of a private-key block, BEGIN and END lines included.
pub fn pem_lines(r: &mut Rng, kind: Pem) -> Vec<String> {
    let (label, body, width, headers): (&str, Vec<u8>, usize, Vec<String>) = match kind {
        Pem::Rsa => (
            "RSA PRIVATE KEY",
            der(
                r,
                &[
                    0x30, 0x82, 0x04, 0xa4, 0x02, 0x01, 0x00, 0x02, 0x82, 0x01, 0x01, 0x00,
                ],
                1192,
            ),
            64,
            vec![],
        ),
        Pem::Ec => {
            let mut v = vec![0x30, 0x77, 0x02, 0x01, 0x01, 0x04, 0x20];
            v.extend(r.bytes(32));
            v.extend_from_slice(&[
                0xa0, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0xa1, 0x44,
                0x03, 0x42, 0x00, 0x04,
            ]);
            v.extend(r.bytes(64));
            ("EC PRIVATE KEY", v, 64, vec![])
        }
        Pem::OpenSsh => {
            let mut v = b"openssh-key-v1\0".to_vec();
            v.extend_from_slice(&[0, 0, 0, 4]);
            v.extend_from_slice(b"none");
            v.extend_from_slice(&[0, 0, 0, 4]);
            v.extend_from_slice(b"none");
            v.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0x33, 0, 0, 0, 0x0b]);
            v.extend_from_slice(b"ssh-ed25519");
            v.extend_from_slice(&[0, 0, 0, 0x20]);
            v.extend(r.bytes(300));
            ("OPENSSH PRIVATE KEY", v, 70, vec![])
        }
        Pem::Pkcs8Rsa => (
            "PRIVATE KEY",
            der(
                r,
                &[
                    0x30, 0x82, 0x04, 0xbe, 0x02, 0x01, 0x00, 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86,
                    0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00, 0x04, 0x82, 0x04, 0xa8,
                ],
                1218,
            ),
            64,
            vec![],
        ),
        Pem::Pkcs8Ed25519 => (
            "PRIVATE KEY",
            der(
                r,
                &[
                    0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04,
                    0x22, 0x04, 0x20,
                ],
                48,
            ),
            64,
            vec![],
        ),
        Pem::EncryptedPkcs8 => (
            "ENCRYPTED PRIVATE KEY",
            der(
                r,
                &[
                    0x30, 0x82, 0x05, 0x1e, 0x30, 0x40, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7,
                    0x0d, 0x01, 0x05, 0x0d,
                ],
                1314,
            ),
            64,
            vec![],
        ),
        Pem::RsaLegacyEncrypted => (
            "RSA PRIVATE KEY",
            r.bytes(1200),
            64,
            vec![
                "Proc-Type: 4,ENCRYPTED".to_owned(),
                format!("DEK-Info: AES-256-CBC,{}", r.string(HEX_UPPER, 32)),
                String::new(),
            ],
        ),
        Pem::Pgp => {
            let mut v = vec![0x95, 0x03, 0xc6, 0x04];
            v.extend(r.bytes(950));
            let crc = b64(&r.bytes(3));
            let mut lines = vec![
                "-----BEGIN PGP PRIVATE KEY BLOCK-----".to_owned(),
                String::new(),
            ];
            lines.extend(wrap(&b64(&v), 64));
            lines.push(format!("={crc}"));
            lines.push("-----END PGP PRIVATE KEY BLOCK-----".to_owned());
            return lines;
        }
    };
    let mut lines = vec![format!("-----BEGIN {label}-----")];
    lines.extend(headers);
    lines.extend(wrap(&b64(&body), width));
    lines.push(format!("-----END {label}-----"));
    lines
}

/// Public material with the same look: not secrets.
pub fn public_key_text(r: &mut Rng) -> String {
    loop {
        let text = match r.below(3) {
            0 => {
                let v = der(
                    r,
                    &[
                        0x30, 0x82, 0x01, 0x22, 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86,
                        0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00, 0x03, 0x82, 0x01, 0x0f, 0x00,
                    ],
                    294,
                );
                let mut lines = vec!["-----BEGIN PUBLIC KEY-----".to_owned()];
                lines.extend(wrap(&b64(&v), 64));
                lines.push("-----END PUBLIC KEY-----".to_owned());
                lines.join("\n")
            }
            1 => {
                let v = der(
                    r,
                    &[
                        0x30, 0x82, 0x03, 0x5d, 0x30, 0x82, 0x02, 0x45, 0xa0, 0x03, 0x02, 0x01,
                        0x02,
                    ],
                    865,
                );
                let mut lines = vec!["-----BEGIN CERTIFICATE-----".to_owned()];
                lines.extend(wrap(&b64(&v), 64));
                lines.push("-----END CERTIFICATE-----".to_owned());
                lines.join("\n")
            }
            _ => {
                let mut v = vec![0, 0, 0, 11];
                v.extend_from_slice(b"ssh-ed25519");
                v.extend_from_slice(&[0, 0, 0, 32]);
                v.extend(r.bytes(32));
                format!("ssh-ed25519 {} deploy-key", b64(&v))
            }
        };
        if max_digit_group(&text) < 9 {
            return text;
        }
    }
}

// ---------------------------------------------------------------- PII

/// A valid SSN as nine digits.
pub fn ssn_digits(r: &mut Rng) -> String {
    loop {
        let area = r.range(1, 899);
        if area == 666 {
            continue;
        }
        return format!("{area:03}{:02}{:04}", r.range(1, 99), r.range(1, 9999));
    }
}

/// An invalid SSN (area 000, 666 or 9xx, group 00 or serial 0000) that no other validator
/// accepts either (not a valid Israeli ID, not a landline shape).
pub fn invalid_ssn_digits(r: &mut Rng) -> String {
    loop {
        let d = match r.below(5) {
            0 => format!("000{:02}{:04}", r.range(1, 99), r.range(1, 9999)),
            1 => format!("666{:02}{:04}", r.range(1, 99), r.range(1, 9999)),
            2 => format!(
                "9{:02}{:02}{:04}",
                r.range(0, 99),
                r.range(1, 99),
                r.range(1, 9999)
            ),
            3 => format!("{:03}00{:04}", r.range(100, 899), r.range(1, 9999)),
            _ => format!("{:03}{:02}0000", r.range(100, 899), r.range(1, 99)),
        };
        if !il_id_valid(&d) && !ssn_valid(&d) {
            return d;
        }
    }
}

pub fn ssn_dashed(d: &str) -> String {
    format!("{}-{}-{}", &d[..3], &d[3..5], &d[5..])
}

pub fn ssn_spaced(d: &str) -> String {
    format!("{} {} {}", &d[..3], &d[3..5], &d[5..])
}

pub fn ipv4_public(r: &mut Rng) -> String {
    if r.chance(30) {
        let net = *r.pick(&["203.0.113", "198.51.100", "192.0.2"]);
        return format!("{net}.{}", r.range(1, 254));
    }
    loop {
        let a = r.range(1, 223);
        let b = r.range(0, 255);
        if matches!(a, 10 | 127 | 100 | 169)
            || (a == 172 && (16..=31).contains(&b))
            || (a == 192 && b == 168)
        {
            continue;
        }
        return format!("{a}.{b}.{}.{}", r.range(0, 255), r.range(1, 254));
    }
}

pub fn ipv4_private(r: &mut Rng) -> String {
    match r.below(3) {
        0 => format!(
            "10.{}.{}.{}",
            r.range(0, 255),
            r.range(0, 255),
            r.range(1, 254)
        ),
        1 => format!(
            "172.{}.{}.{}",
            r.range(16, 31),
            r.range(0, 255),
            r.range(1, 254)
        ),
        _ => format!("192.168.{}.{}", r.range(0, 255), r.range(1, 254)),
    }
}

fn hex_group(r: &mut Rng, full: bool) -> String {
    if full {
        r.hex(4)
    } else {
        let v = r.range(1, 0xffff);
        format!("{v:x}")
    }
}

const V6_PREFIXES: &[&str] = &[
    "2001:db8",
    "2a00:1450",
    "2606:4700",
    "2a02:6b8",
    "2001:4860",
    "2c0f:fb50",
    "fd12:3456",
];

pub fn ipv6_full(r: &mut Rng) -> String {
    let prefix = r.pick(V6_PREFIXES);
    let mut groups: Vec<String> = prefix.split(':').map(|g| format!("{:0>4}", g)).collect();
    while groups.len() < 8 {
        groups.push(hex_group(r, true));
    }
    let s = groups.join(":");
    if r.chance(20) { s.to_uppercase() } else { s }
}

pub fn ipv6_compressed(r: &mut Rng) -> String {
    let prefix = if r.chance(25) {
        "fe80".to_owned()
    } else {
        r.pick(V6_PREFIXES).to_string()
    };
    let left_extra = r.below(3);
    let left_count = prefix.split(':').count() + left_extra;
    // At most seven groups in all, so that `::` stands for at least one.
    let right = (r.range(1, 4) as usize).min(7 - left_count);
    let mut left = vec![prefix];
    for _ in 0..left_extra {
        left.push(hex_group(r, false));
    }
    let right: Vec<String> = (0..right).map(|_| hex_group(r, false)).collect();
    format!("{}::{}", left.join(":"), right.join(":"))
}

pub fn ipv6_zone(r: &mut Rng) -> String {
    let zone = *r.pick(&["eth0", "en0", "wlan0", "wlp3s0", "enp0s31f6", "1", "12"]);
    format!(
        "fe80::{}:{}:{}:{}%{zone}",
        hex_group(r, false),
        hex_group(r, false),
        hex_group(r, false),
        hex_group(r, false)
    )
}

pub fn ipv6_embedded(r: &mut Rng) -> String {
    let v4 = ipv4_public(r);
    match r.below(3) {
        0 => format!("::ffff:{v4}"),
        1 => format!("64:ff9b::{v4}"),
        _ => format!("2001:db8:{}::{v4}", hex_group(r, false)),
    }
}

pub fn email_obfuscated(r: &mut Rng) -> (&'static str, String) {
    let local = match r.below(4) {
        0 => format!(
            "{}.{}",
            r.pick(&["dana", "noa", "ken", "maya"]),
            r.pick(&["levi", "cohen", "sato", "katz"])
        ),
        1 => format!("{}{}", r.pick(&["j.smith", "omer", "aiko"]), r.range(1, 99)),
        2 => format!(
            "{}+{}",
            r.pick(&["dana", "billing"]),
            r.pick(&["news", "tag"])
        ),
        _ => r
            .pick(&["info", "support", "liat_b", "yossi.k"])
            .to_string(),
    };
    let domain = *r.pick(&[
        "example.com",
        "gmail.com",
        "walla.co.il",
        "acme.io",
        "mail.example.org",
    ]);
    let (form, at) = *r.pick(&[
        ("email/html-entity-dec", "&#64;"),
        ("email/html-entity-hex", "&#x40;"),
        ("email/percent-encoded", "%40"),
    ]);
    (form, format!("{local}{at}{domain}"))
}

pub fn email_plain(r: &mut Rng) -> String {
    format!(
        "{}{}@{}",
        r.pick(&["dana.levi", "noa", "ken.sato", "maya_k", "omer", "liat.b"]),
        if r.chance(40) {
            r.range(1, 99).to_string()
        } else {
            String::new()
        },
        r.pick(&[
            "gmail.com",
            "example.com",
            "walla.co.il",
            "acme.io",
            "yahoo.co.jp"
        ])
    )
}

pub fn il_mobile(r: &mut Rng) -> String {
    format!(
        "05{}{}",
        r.pick(&["0", "2", "3", "4", "5", "8"]),
        r.digits(7)
    )
}

pub fn il_id(r: &mut Rng) -> String {
    il_id_complete(&format!("{}{}", r.range(1, 9), r.digits(7)))
}

pub fn card(r: &mut Rng) -> String {
    let (first, len) = *r.pick(&[
        ("4", 16),
        ("5", 16),
        ("2221", 16),
        ("37", 15),
        ("6011", 16),
        ("35", 16),
    ]);
    luhn_complete(&format!("{first}{}", r.digits(len - first.len() - 1)))
}

pub fn iban_il(r: &mut Rng) -> String {
    iban_complete("IL", &r.digits(19))
}
