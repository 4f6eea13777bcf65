//! Provider credentials by their published shapes: a fixed prefix, a body alphabet and length,
//! and the format's checksum where it has one.
//!
//! The shapes are facts that providers document and that public secret-scanner rule sets list;
//! the table is ours. A body must also look generated ([`plausible_body`]) unless its checksum
//! holds, so `ghp_xxxxxxxx…` and `sk_live_YOUR_KEY_HERE` are documentation, not keys.

use std::sync::LazyLock;

use super::value::{classes, entropy, plausible_body};
use crate::validate::{bech32_valid, crc32_base62_valid};

/// The characters a body may hold.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Alphabet {
    /// `A-Za-z0-9`.
    Base62,
    /// `A-Za-z0-9_-`.
    Url,
    /// `A-Za-z0-9_-.`, for tokens whose parts are dotted.
    Dotted,
    /// `A-Za-z0-9+/=_-`.
    Base64,
    /// `0-9a-fA-F`.
    Hex,
    /// `A-Z0-9`.
    Upper,
    /// `a-z0-9`.
    Lower,
    /// `A-Za-z0-9_`.
    Word,
    /// `a-z0-9$`, PayPal Braintree's `access_token$production$…`.
    Dollar,
    /// Bech32 data characters, either case.
    Bech32,
}

impl Alphabet {
    fn allows(self, b: u8) -> bool {
        match self {
            Alphabet::Base62 => b.is_ascii_alphanumeric(),
            Alphabet::Url => b.is_ascii_alphanumeric() || b == b'_' || b == b'-',
            Alphabet::Dotted => b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'),
            Alphabet::Base64 => {
                b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'_' | b'-')
            }
            Alphabet::Hex => b.is_ascii_hexdigit(),
            Alphabet::Upper => b.is_ascii_uppercase() || b.is_ascii_digit(),
            Alphabet::Lower => b.is_ascii_lowercase() || b.is_ascii_digit(),
            Alphabet::Word => b.is_ascii_alphanumeric() || b == b'_',
            Alphabet::Dollar => b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'$',
            Alphabet::Bech32 => {
                b.is_ascii_alphanumeric()
                    && !matches!(b.to_ascii_lowercase(), b'1' | b'b' | b'i' | b'o')
            }
        }
    }
}

/// What besides the shape a body must pass.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Check {
    /// A plausible generated body.
    Shape,
    /// Thirty characters and their CRC-32 in base62 (GitHub, npm). A body whose checksum fails
    /// is a key only where the text says a credential follows (a credential word before it on
    /// its line, or an assignment): bare, it is a test fixture or a documentation sample.
    Crc32,
    /// A bech32 checksum over the whole token (age keys), with the same rule when it fails.
    Bech32Sum,
    /// A prefix too short to stand alone (`sk-`, `EAA`): the body must mix letters and digits
    /// with high entropy.
    Random,
}

/// One published credential shape.
#[derive(Debug)]
pub(super) struct Shape {
    /// What it is, for tests and their messages.
    #[cfg_attr(not(test), allow(dead_code, reason = "read by tests"))]
    pub(super) name: &'static str,
    prefix: &'static str,
    body: Alphabet,
    min: usize,
    max: usize,
    check: Check,
}

const fn shape(
    name: &'static str,
    prefix: &'static str,
    body: Alphabet,
    min: usize,
    max: usize,
    check: Check,
) -> Shape {
    Shape {
        name,
        prefix,
        body,
        min,
        max,
        check,
    }
}

use Alphabet::*;
use Check::*;

/// Every shape. Where two prefixes share a start the longer one comes first.
#[rustfmt::skip]
pub(super) const SHAPES: &[Shape] = &[
    // Cloud platforms.
    shape("aws-access-key-id", "AKIA", Upper, 16, 16, Shape),
    shape("aws-temporary-key-id", "ASIA", Upper, 16, 16, Shape),
    shape("aws-key-id", "ABIA", Upper, 16, 16, Shape),
    shape("aws-key-id", "ACCA", Upper, 16, 16, Shape),
    shape("aws-session-token", "IQoJb3JpZ2lu", Base64, 80, 4096, Shape),
    shape("aws-session-token", "FwoGZXIvYXdz", Base64, 80, 4096, Shape),
    shape("google-api-key", "AIza", Url, 35, 35, Shape),
    shape("google-oauth-token", "ya29.", Dotted, 20, 4096, Shape),
    shape("google-oauth-client-secret", "GOCSPX-", Url, 24, 40, Shape),
    shape("google-refresh-token", "1//0", Url, 30, 512, Shape),
    shape("alibaba-access-key-id", "LTAI", Base62, 12, 28, Shape),
    shape("digitalocean-token", "dop_v1_", Hex, 64, 64, Shape),
    shape("digitalocean-oauth-token", "doo_v1_", Hex, 64, 64, Shape),
    shape("digitalocean-refresh-token", "dor_v1_", Hex, 64, 64, Shape),
    shape("heroku-api-key", "HRKU-", Url, 30, 80, Shape),
    shape("dynatrace-token", "dt0c01.", Dotted, 80, 120, Shape),
    shape("hashicorp-vault-token", "hvs.", Url, 24, 256, Shape),
    shape("hashicorp-vault-batch-token", "hvb.", Url, 24, 256, Shape),
    shape("doppler-token", "dp.pt.", Base62, 40, 44, Shape),
    shape("doppler-token", "dp.st.", Dotted, 40, 60, Shape),
    shape("doppler-token", "dp.sa.", Base62, 40, 44, Shape),
    shape("doppler-token", "dp.ct.", Base62, 40, 44, Shape),
    shape("pulumi-token", "pul-", Hex, 40, 40, Shape),
    shape("tailscale-key", "tskey-", Url, 20, 100, Shape),
    shape("supabase-token", "sbp_", Hex, 40, 40, Shape),
    shape("supabase-secret-key", "sb_secret_", Url, 20, 80, Shape),
    shape("planetscale-token", "pscale_tkn_", Url, 32, 64, Shape),
    shape("planetscale-password", "pscale_pw_", Url, 32, 64, Shape),
    shape("planetscale-oauth-token", "pscale_oauth_", Url, 32, 64, Shape),
    shape("netlify-token", "nfp_", Base62, 36, 40, Shape),
    shape("render-key", "rnd_", Base62, 20, 40, Shape),
    shape("databricks-token", "dapi", Hex, 32, 32, Shape),
    shape("fly-token", "fm2_", Base64, 40, 1024, Shape),
    // Source hosting and CI.
    shape("github-token", "ghp_", Base62, 36, 36, Crc32),
    shape("github-oauth-token", "gho_", Base62, 36, 36, Crc32),
    shape("github-user-token", "ghu_", Base62, 36, 36, Crc32),
    shape("github-server-token", "ghs_", Base62, 36, 36, Crc32),
    shape("github-refresh-token", "ghr_", Base62, 36, 36, Crc32),
    shape("github-fine-grained-token", "github_pat_", Word, 60, 255, Shape),
    shape("gitlab-token", "glpat-", Dotted, 20, 100, Shape),
    shape("gitlab-deploy-token", "gldt-", Dotted, 20, 100, Shape),
    shape("gitlab-runner-token", "glrt-", Dotted, 20, 100, Shape),
    shape("gitlab-trigger-token", "glptt-", Dotted, 20, 100, Shape),
    shape("gitlab-oauth-secret", "gloas-", Dotted, 20, 100, Shape),
    shape("gitlab-job-token", "glcbt-", Dotted, 20, 100, Shape),
    shape("gitlab-feed-token", "glft-", Dotted, 20, 100, Shape),
    shape("gitlab-incoming-mail-token", "glimt-", Dotted, 20, 100, Shape),
    shape("gitlab-agent-token", "glagent-", Dotted, 20, 100, Shape),
    shape("gitlab-scim-token", "glsoat-", Dotted, 20, 100, Shape),
    shape("gitlab-runner-registration", "GR1348941", Url, 20, 40, Shape),
    shape("bitbucket-app-password", "ATBB", Base64, 28, 64, Shape),
    shape("atlassian-api-token", "ATATT3", Base64, 60, 400, Shape),
    shape("buildkite-token", "bkua_", Hex, 40, 40, Shape),
    shape("sourcegraph-token", "sgp_", Url, 40, 100, Shape),
    shape("circleci-token", "CCIPAT_", Url, 30, 80, Shape),
    shape("sonarqube-token", "squ_", Hex, 40, 40, Shape),
    shape("sonarqube-token", "sqp_", Hex, 40, 40, Shape),
    shape("sonarqube-token", "sqa_", Hex, 40, 40, Shape),
    shape("sentry-token", "sntrys_", Base64, 40, 512, Shape),
    shape("sentry-user-token", "sntryu_", Hex, 64, 64, Shape),
    shape("grafana-cloud-token", "glc_", Base64, 32, 512, Shape),
    shape("grafana-service-account-token", "glsa_", Word, 41, 41, Shape),
    shape("new-relic-key", "NRAK-", Upper, 27, 27, Shape),
    shape("new-relic-insert-key", "NRII-", Url, 32, 32, Shape),
    shape("jfrog-token", "AKCp", Base62, 60, 80, Shape),
    shape("postman-key", "PMAK-", Url, 59, 59, Shape),
    shape("linear-key", "lin_api_", Base62, 40, 40, Shape),
    shape("linear-oauth-token", "lin_oauth_", Base62, 40, 64, Shape),
    shape("notion-token", "ntn_", Base62, 40, 50, Shape),
    shape("notion-secret", "secret_", Base62, 43, 43, Random),
    shape("figma-token", "figd_", Url, 32, 64, Shape),
    shape("airtable-token", "pat", Dotted, 78, 90, Random),
    shape("1password-service-account", "ops_eyJ", Base64, 100, 4096, Shape),
    // Chat and messaging.
    shape("slack-bot-token", "xoxb-", Url, 20, 255, Shape),
    shape("slack-user-token", "xoxp-", Url, 20, 255, Shape),
    shape("slack-app-token", "xoxa-", Url, 20, 255, Shape),
    shape("slack-refresh-token", "xoxr-", Url, 20, 255, Shape),
    shape("slack-session-token", "xoxs-", Url, 20, 255, Shape),
    shape("slack-config-token", "xoxe.xoxp-", Url, 20, 255, Shape),
    shape("slack-config-token", "xoxe-", Url, 20, 255, Shape),
    shape("slack-app-level-token", "xapp-", Url, 20, 255, Shape),
    shape("twilio-api-key", "SK", Hex, 32, 32, Shape),
    shape("sendgrid-key", "SG.", Dotted, 60, 70, Shape),
    shape("mailgun-key", "key-", Hex, 32, 32, Shape),
    shape("brevo-key", "xkeysib-", Url, 60, 90, Shape),
    shape("brevo-smtp-key", "xsmtpsib-", Url, 60, 90, Shape),
    // Payments and commerce.
    shape("stripe-secret-key", "sk_live_", Base62, 16, 255, Shape),
    shape("stripe-test-key", "sk_test_", Base62, 16, 255, Shape),
    shape("stripe-restricted-key", "rk_live_", Base62, 16, 255, Shape),
    shape("stripe-restricted-test-key", "rk_test_", Base62, 16, 255, Shape),
    shape("stripe-webhook-secret", "whsec_", Base64, 24, 100, Shape),
    shape("square-access-token", "sq0atp-", Url, 22, 60, Shape),
    shape("square-secret", "sq0csp-", Url, 40, 60, Shape),
    shape("square-access-token", "EAAA", Url, 56, 70, Random),
    shape("facebook-access-token", "EAAB", Base62, 90, 512, Shape),
    shape("facebook-access-token", "EAAC", Base62, 90, 512, Shape),
    shape("facebook-access-token", "EAAG", Base62, 90, 512, Shape),
    shape("shopify-access-token", "shpat_", Hex, 32, 32, Shape),
    shape("shopify-custom-app-token", "shpca_", Hex, 32, 32, Shape),
    shape("shopify-private-app-token", "shppa_", Hex, 32, 32, Shape),
    shape("shopify-shared-secret", "shpss_", Hex, 32, 32, Shape),
    shape("razorpay-key", "rzp_live_", Base62, 14, 14, Shape),
    shape("razorpay-test-key", "rzp_test_", Base62, 14, 14, Shape),
    shape("flutterwave-secret-key", "FLWSECK_TEST-", Url, 32, 40, Shape),
    shape("flutterwave-secret-key", "FLWSECK-", Url, 32, 40, Shape),
    shape("shippo-token", "shippo_live_", Hex, 40, 40, Shape),
    shape("shippo-test-token", "shippo_test_", Hex, 40, 40, Shape),
    shape("braintree-token", "access_token$production$", Dollar, 40, 60, Shape),
    shape("braintree-token", "access_token$sandbox$", Dollar, 40, 60, Shape),
    shape("duffel-token", "duffel_live_", Url, 40, 50, Shape),
    shape("duffel-test-token", "duffel_test_", Url, 40, 50, Shape),
    // Model providers.
    shape("anthropic-key", "sk-ant-", Url, 32, 255, Shape),
    shape("openai-project-key", "sk-proj-", Url, 20, 300, Shape),
    shape("openai-service-key", "sk-svcacct-", Url, 20, 300, Shape),
    shape("openai-admin-key", "sk-admin-", Url, 20, 300, Shape),
    shape("openai-key", "sk-None-", Url, 20, 300, Shape),
    shape("openrouter-key", "sk-or-v1-", Hex, 64, 64, Shape),
    shape("langfuse-secret-key", "sk-lf-", Url, 30, 60, Shape),
    shape("api-key", "sk-", Url, 20, 255, Random),
    shape("api-key", "sk_", Url, 32, 255, Random),
    shape("groq-key", "gsk_", Base62, 52, 52, Shape),
    shape("replicate-token", "r8_", Base62, 37, 37, Shape),
    shape("perplexity-key", "pplx-", Base62, 48, 48, Shape),
    shape("xai-key", "xai-", Base62, 70, 90, Shape),
    shape("huggingface-token", "hf_", Base62, 34, 34, Shape),
    shape("huggingface-org-token", "api_org_", Base62, 34, 34, Shape),
    shape("langsmith-key", "lsv2_pt_", Word, 32, 80, Shape),
    shape("langsmith-key", "lsv2_sk_", Word, 32, 80, Shape),
    shape("pinecone-key", "pcsk_", Word, 40, 120, Shape),
    shape("tavily-key", "tvly-", Url, 24, 64, Shape),
    shape("firecrawl-key", "fc-", Hex, 32, 32, Shape),
    shape("nvidia-key", "nvapi-", Url, 60, 70, Shape),
    shape("fireworks-key", "fw_", Base62, 20, 40, Random),
    // Package registries.
    shape("npm-token", "npm_", Base62, 36, 36, Crc32),
    shape("pypi-token", "pypi-AgEIcHlwaS5vcmc", Url, 50, 512, Shape),
    shape("pypi-test-token", "pypi-AgENdGVzdC5weXBpLm9yZw", Url, 50, 512, Shape),
    shape("rubygems-key", "rubygems_", Hex, 48, 48, Shape),
    shape("nuget-key", "oy2", Lower, 43, 43, Random),
    shape("crates-io-token", "cio", Base62, 32, 32, Random),
    shape("docker-hub-token", "dckr_pat_", Url, 27, 64, Shape),
    shape("docker-hub-oauth-token", "dckr_oat_", Url, 27, 64, Shape),
    shape("clojars-token", "CLOJARS_", Lower, 60, 60, Shape),
    shape("age-secret-key", "AGE-SECRET-KEY-1", Bech32, 58, 58, Bech32Sum),
];

/// Shapes by the first byte of their prefix.
static BY_FIRST: LazyLock<Vec<Vec<&'static Shape>>> = LazyLock::new(|| {
    let mut by_first: Vec<Vec<&'static Shape>> = vec![Vec::new(); 128];
    for s in SHAPES {
        by_first[usize::from(s.prefix.as_bytes()[0] & 0x7F)].push(s);
    }
    by_first
});

/// Shortest prefix plus body of any shape: a token shorter than this is no provider key.
pub(super) const SHORTEST: usize = 16;

/// The end of the provider credential that starts at view offset `start`, if there is one.
/// `context` tells whether the text around it names a credential; it is asked only for keys
/// whose checksum fails.
pub(super) fn at(
    v: &[u8],
    start: usize,
    context: impl Fn() -> bool,
) -> Option<(usize, &'static Shape)> {
    let b = v[start];
    if b >= 0x80 {
        return None;
    }
    let rest = &v[start..];
    BY_FIRST[usize::from(b)]
        .iter()
        .filter(|s| rest.starts_with(s.prefix.as_bytes()))
        .find_map(|s| matches(s, v, start, &context).map(|end| (end, *s)))
}

fn matches(shape: &Shape, v: &[u8], start: usize, context: &dyn Fn() -> bool) -> Option<usize> {
    let body_start = start + shape.prefix.len();
    let mut end = body_start;
    while end < v.len() && end - body_start <= shape.max && shape.body.allows(v[end]) {
        end += 1;
    }
    // A full stop after a dotted body ends the sentence, not the token.
    while end > body_start && v[end - 1] == b'.' {
        end -= 1;
    }
    let len = end - body_start;
    if len < shape.min || len > shape.max {
        return None;
    }
    // The token must end here: a longer run of word characters is something else.
    if v.get(end).is_some_and(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    let body = &v[body_start..end];
    let ok = match shape.check {
        Shape => plausible_body(body),
        Crc32 => crc32_base62_valid(body) || (plausible_body(body) && context()),
        Bech32Sum => bech32_valid(&v[start..end]) || (plausible_body(body) && context()),
        Random => {
            let c = classes(body);
            plausible_body(body) && c.digit && (c.lower || c.upper) && entropy(body) >= 3.0
        }
    };
    ok.then_some(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(token: &str) -> Option<&'static str> {
        let v = token.as_bytes();
        at(v, 0, || true)
            .filter(|(end, _)| *end == v.len())
            .map(|(_, s)| s.name)
    }

    #[test]
    fn published_shapes() {
        assert_eq!(find("AKIAIOSFODNN7EXAMPLE"), Some("aws-access-key-id"));
        assert_eq!(
            find("ghp_16C7e42F292c6912E7710c838347Ae178B4a"),
            Some("github-token")
        );
        assert_eq!(
            find("sk-proj-abcdEFGH1234567890abcdEFGH1234567890"),
            Some("openai-project-key")
        );
        // Random letters that happen to spell a placeholder word ("YOuR") are still a key;
        // the word as a word is a placeholder.
        assert_eq!(
            find("sk-proj-HQ_Am2NW_82qQHkT-wRIt6oLCmYLgbE8sLYjNDRQzQVqgJYCmjgMwsxBYOuROeFTKzH"),
            Some("openai-project-key")
        );
        assert_eq!(find("sk-proj-your-key-here-1234567890"), None);
        // Found by a generated test: a random body that starts with the letters of "your".
        assert_eq!(
            find("sk_live_YOUR4E5l6QIZDVeSKZEEHARd"),
            Some("stripe-secret-key")
        );
        assert_eq!(
            find("xoxb-1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"),
            Some("slack-bot-token")
        );
        assert_eq!(
            find("AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY"),
            Some("google-api-key")
        );
    }

    #[test]
    fn look_alikes_are_not_keys() {
        for t in [
            "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "ghp_short",
            "sk-...",
            "sk-your-openai-api-key-here",
            "sk_live_YOUR_KEY",
            "AKIAXXXXXXXXXXXXXXXX",
            "skeleton-key-for-the-front-door",
            "patterns_and_practices_of_the_trade_and_the_other_things_people_write_here_ok",
        ] {
            assert_eq!(find(t), None, "{t}");
        }
    }

    #[test]
    fn every_prefix_is_ascii_and_every_range_is_sane() {
        for s in SHAPES {
            assert!(s.prefix.is_ascii() && !s.prefix.is_empty(), "{}", s.name);
            assert!(s.min <= s.max, "{}", s.name);
            assert!(s.prefix.len() + s.min >= SHORTEST, "{}", s.name);
        }
    }
}

#[cfg(test)]
mod every_shape {
    use super::*;

    /// A generated body of `shape`: its alphabet, its shortest length, ending in a letter or
    /// digit, from a seeded generator.
    fn body(shape: &Shape, seed: u64) -> Vec<u8> {
        let alphabet: Vec<u8> = (0u8..128).filter(|&b| shape.body.allows(b)).collect();
        let alnum: Vec<u8> = alphabet
            .iter()
            .copied()
            .filter(u8::is_ascii_alphanumeric)
            .collect();
        let mut x = seed | 1;
        let mut next = |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        let mut out: Vec<u8> = (0..shape.min)
            .map(|i| {
                if i % 5 == 0 {
                    // Digits and letters in every body, as a generator's output has.
                    let digits: Vec<u8> =
                        alnum.iter().copied().filter(u8::is_ascii_digit).collect();
                    let pool = if i % 10 == 0 && !digits.is_empty() {
                        &digits
                    } else {
                        &alnum
                    };
                    pool[next(pool.len())]
                } else {
                    alphabet[next(alphabet.len())]
                }
            })
            .collect();
        if let Some(last) = out.last_mut() {
            *last = alnum[next(alnum.len())];
        }
        out
    }

    /// Every shape of the table, generated, is found whole by `at` and masked whole by the
    /// masker in carriers that name a credential (so a checksum-carrying shape counts without
    /// its checksum).
    #[test]
    fn every_shape_in_the_table_is_masked_whole() {
        for (n, shape) in SHAPES.iter().enumerate() {
            for seed in 0..20u64 {
                let mut token = shape.prefix.as_bytes().to_vec();
                token.extend(body(shape, seed * 1_000 + n as u64));
                let token = String::from_utf8(token).unwrap_or_default();
                let v = token.as_bytes();
                assert_eq!(
                    at(v, 0, || true).map(|(end, _)| end),
                    Some(v.len()),
                    "{}: {token}",
                    shape.name
                );
                for (before, after) in [("my key ", " ok"), ("X_TOKEN=", "\n"), ("token: `", "`")] {
                    let text = format!("{before}{token}{after}");
                    let masked = crate::mask(&text);
                    let (a, b) = (before.len(), before.len() + token.len());
                    assert!(
                        masked.spans.iter().any(|s| s.start <= a && b <= s.end),
                        "{}: {text:?} -> {:?}",
                        shape.name,
                        masked.text
                    );
                }
            }
        }
    }
}
