//! Corpus "realistic": memory notes as people and agents write them (English, Hebrew,
//! Japanese, code snippets, logs, config files) with one value in a natural position, and clean
//! notes of the same kinds.

use super::util::*;
use super::values::*;
use super::{Case, Corpus, Limits};

const PER_TEMPLATE: usize = 55;
const CLEAN_PER_TEMPLATE: usize = 40;

pub fn corpus() -> Corpus {
    let mut r = Rng::new(0x4EA1_1571_C000);
    let mut cases = Vec::new();
    for &(form, kind, template) in POSITIVE {
        for _ in 0..PER_TEMPLATE {
            let (category, value, vars) = realistic_value(&mut r, kind);
            let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let (mut before, mut after) = carrier(&mut r, template, &vars);
            // Notes often hold more than one thing: other lines before or after the value.
            if r.chance(30) {
                let line = *r.pick(CONTEXT);
                before = format!("{}\n{before}", text(&mut r, line, &[]));
            }
            if r.chance(30) {
                let line = *r.pick(CONTEXT);
                after = format!("{after}\n{}", text(&mut r, line, &[]));
            }
            cases.push(Case::positive(category, form, &before, &value, &after));
        }
    }
    for (i, &(form, template)) in CLEAN.iter().enumerate() {
        for k in 0..CLEAN_PER_TEMPLATE {
            let mut t = text(&mut r, template, &[]);
            if r.chance(30) {
                let other = CLEAN[(i + 1 + k) % CLEAN.len()].1;
                t = format!("{t}\n{}", text(&mut r, other, &[]));
            }
            cases.push(Case::negative("clean-note", form, t));
        }
    }
    Corpus {
        name: "realistic",
        cases,
        limits: Limits {
            min_full: 99.5,
            max_partial: 0.1,
            max_changed: 0.5,
        },
    }
}

type Vars = Vec<(&'static str, String)>;

fn realistic_value(r: &mut Rng, kind: &str) -> (&'static str, String, Vars) {
    let s = |v: String| ("secret", v, Vars::new());
    match kind {
        "openai" => s(if r.chance(70) {
            openai_project(r)
        } else {
            openai_legacy(r)
        }),
        "anthropic" => s(anthropic(r)),
        "github" => s(github_classic(r)),
        "stripe" => s(stripe_secret(r)),
        "slack-bot" => s(slack_bot(r)),
        "npm" => s(npm(r)),
        "pypi" => s(pypi(r)),
        "telegram" => s(telegram(r)),
        "aws-id" => s(aws_key_id(r)),
        "aws-secret" => {
            let id = aws_key_id(r);
            ("secret", aws_secret(r), vec![("ID", id)])
        }
        "gcp-key" => s(google_api_key(r)),
        "hf" => s(huggingface(r)),
        "jwt" => s(match r.below(3) {
            0 => jwt_hs256(r),
            1 => jwt_rs256(r),
            _ => jwt_es256(r),
        }),
        "bearer" => s(bearer_token(r)),
        "basic" => {
            let user = filler(r, "user");
            let pw = password(r, sym::QUOTED);
            s(b64(format!("{user}:{pw}").as_bytes()))
        }
        "hex-secret" => s(random_secret(r)),
        "password-prose" => s(password(r, sym::PROSE)),
        "password-env" => s(password(r, sym::ENV)),
        "password-quoted" => s(password(r, sym::QUOTED)),
        "password-yaml" => s(password(r, "-_.~")),
        "password-ini" => s(password(r, sym::INI)),
        "password-shell" => s(password(r, sym::SHELL)),
        "password-url" => s(percent_encode_userinfo(&password(r, sym::URL))),
        "pem" => {
            let kind = *r.pick(&[
                Pem::Rsa,
                Pem::Ec,
                Pem::OpenSsh,
                Pem::Pkcs8Ed25519,
                Pem::Pkcs8Rsa,
            ]);
            s(pem_lines(r, kind).join("\n"))
        }
        "pem-escaped" => {
            let kind = *r.pick(&[Pem::Pkcs8Rsa, Pem::Pkcs8Ed25519]);
            s(pem_lines(r, kind).join("\\n"))
        }
        "slack-hook" => {
            let (prefix, secret) = slack_webhook(r);
            ("secret", secret, vec![("P", prefix)])
        }
        "ssn" => {
            let d = ssn_digits(r);
            (
                "us_ssn",
                if r.chance(70) {
                    ssn_dashed(&d)
                } else {
                    ssn_spaced(&d)
                },
                Vars::new(),
            )
        }
        "ipv4" => (
            "ip",
            if r.chance(60) {
                ipv4_public(r)
            } else {
                ipv4_private(r)
            },
            Vars::new(),
        ),
        "ipv6" => (
            "ip",
            match r.below(4) {
                0 => ipv6_full(r),
                1 => ipv6_zone(r),
                2 => ipv6_embedded(r),
                _ => ipv6_compressed(r),
            },
            Vars::new(),
        ),
        "email" => ("email", email_plain(r), Vars::new()),
        "email-obf" => ("email", email_obfuscated(r).1, Vars::new()),
        "email-pct" => ("email", email_plain(r).replace('@', "%40"), Vars::new()),
        "phone-il" => {
            let d = il_mobile(r);
            let v = if r.chance(60) {
                format!("{}-{}-{}", &d[..3], &d[3..6], &d[6..])
            } else {
                format!("{}-{}", &d[..3], &d[3..])
            };
            ("phone", v, Vars::new())
        }
        "phone-intl" => {
            let d = il_mobile(r);
            (
                "phone",
                format!("+972 {}-{}-{}", &d[1..3], &d[3..6], &d[6..]),
                Vars::new(),
            )
        }
        "phone-jp" => (
            "phone",
            format!("0{}0-{}-{}", r.range(7, 9), r.digits(4), r.digits(4)),
            Vars::new(),
        ),
        "card" => {
            let d = card(r);
            let v = if d.len() == 16 {
                split_lens(&d, &[4, 4, 4]).join(" ")
            } else {
                split_lens(&d, &[4, 6]).join(" ")
            };
            ("card", v, Vars::new())
        }
        "il-id" => ("il_id", il_id(r), Vars::new()),
        "iban" => (
            "iban",
            split_lens(&iban_il(r), &[4, 4, 4, 4, 4]).join(" "),
            Vars::new(),
        ),
        _ => panic!("unknown kind {kind}"),
    }
}

/// Lines that share a note with a value.
const CONTEXT: &[&str] = &[
    "Meeting with the team on «date» at «hm».",
    "Upgraded the cluster to v«ver».",
    "TODO: clean up the old branches.",
    "הפגישה נדחתה ל-«dmy».",
    "明日の«hm»から定例会議。",
    "request_id=«uuid» status=«status»",
    "- [x] rotate logs",
    "see commit «sha7»",
];

/// (form, value kind, template with `«V»`).
const POSITIVE: &[(&str, &str, &str)] = &[
    (
        "phone/note-en",
        "phone-il",
        "Dana's new number is «V» — she switched carriers on «date».",
    ),
    (
        "ip/note-en-server",
        "ipv4",
        "Reminder: the «app» box moved to «V» on «date». Old host is decommissioned.",
    ),
    (
        "email/note-en",
        "email",
        "User prefers email over calls: «V». Don't call before 10am.",
    ),
    (
        "secret/note-en-db-url",
        "password-url",
        "Staging DB: postgres://«user»:«V»@«host»:5432/«db» (replica lag ~«ms»)",
    ),
    (
        "secret/note-en-openai",
        "openai",
        "The OpenAI key for the side project is «V» — rotate after the demo on «date».",
    ),
    (
        "ssn/note-en",
        "ssn",
        "Mom's SSN for the tax forms: «V». Accountant needs it by «date».",
    ),
    (
        "secret/note-en-wifi",
        "password-prose",
        "Wifi at the cabin: network \"Lakeside\", password «V»",
    ),
    (
        "secret/note-en-markdown-aws",
        "aws-id",
        "## Deploy notes\n- region: «region»\n- bucket: acme-assets\n- AWS_ACCESS_KEY_ID=«V»\n- rotated «date»",
    ),
    (
        "card/note-en",
        "card",
        "Paid the deposit with the Visa «V», receipt in the drive.",
    ),
    (
        "secret/note-en-login",
        "password-prose",
        "Login for the school portal: user «user», password «V»",
    ),
    (
        "secret/note-he-router",
        "password-prose",
        "הסיסמה של הראוטר היא «V» (שיניתי ב-«dmy»)",
    ),
    ("il_id/note-he", "il-id", "מספר תעודת הזהות של אבא: «V»"),
    (
        "ip/note-he",
        "ipv4",
        "כתובת ה-IP של השרת החדש: «V», הפורט «port»",
    ),
    (
        "phone/note-he",
        "phone-il",
        "הטלפון של הרופא «V», תור ב-«dmy» בשעה «hm»",
    ),
    (
        "iban/note-he",
        "iban",
        "להעביר את שכר הדירה לחשבון IBAN «V» עד ה-10 לחודש",
    ),
    (
        "secret/note-he-github",
        "github",
        "הטוקן של GitHub לסקריפט הגיבוי: «V» — בתוקף עד «dmy»",
    ),
    (
        "ip/note-ja",
        "ipv4",
        "本番サーバーのIPアドレスは«V»です。«date»に移行しました。",
    ),
    (
        "secret/note-ja-password",
        "password-prose",
        "パスワードは«V»です。忘れないように。",
    ),
    (
        "secret/note-ja-slack",
        "slack-bot",
        "Slackのトークン：«V»（«date»に再発行）",
    ),
    ("email/note-ja", "email", "連絡先メール：«V»"),
    ("phone/note-ja", "phone-jp", "田中さんの携帯は«V»です。"),
    ("ssn/note-ja", "ssn", "米国の社会保障番号（SSN）：«V»"),
    (
        "secret/code-python",
        "hex-secret",
        "import requests\n\nAPI_KEY = \"«V»\"\nresp = requests.get(\"https://api.example.com/v2/items\", headers={\"X-API-Key\": API_KEY}, timeout=10)\nresp.raise_for_status()",
    ),
    (
        "secret/code-js-stripe",
        "stripe",
        "const stripe = require('stripe')('«V»');\nconst session = await stripe.checkout.sessions.create({ mode: 'payment' });",
    ),
    (
        "secret/code-rust-anthropic",
        "anthropic",
        "let client = Client::new(\"«V»\"); // TODO move to env\nlet resp = client.messages().create(req).await?;",
    ),
    (
        "secret/code-shell-bearer",
        "bearer",
        "curl -s -H \"Authorization: Bearer «V»\" https://api.example.com/v1/me | jq .",
    ),
    (
        "secret/code-go-telegram",
        "telegram",
        "bot, err := tgbotapi.NewBotAPI(\"«V»\")\nif err != nil {\n\tlog.Panic(err)\n}",
    ),
    (
        "secret/code-python-db",
        "password-quoted",
        "conn = psycopg2.connect(\n    host=\"«host»\",\n    user=\"«user»\",\n    password=\"«V»\",\n    dbname=\"«db»\",\n)",
    ),
    (
        "ip/log-sshd",
        "ipv4",
        "«date»T«time»Z «host» sshd[«pid»]: Accepted publickey for «user» from «V» port «port» ssh2",
    ),
    (
        "ip/log-nginx",
        "ipv4",
        "«V» - - [15/Mar/2024:«time» +0000] \"«method» «path» HTTP/1.1\" «status» «n» \"-\" \"curl/8.4.0\"",
    ),
    (
        "ip/log-v6",
        "ipv6",
        "«date» «time» WARN auth: failed login for user «user» from «V»",
    ),
    (
        "secret/log-jwt",
        "jwt",
        "«date»T«time»Z DEBUG auth middleware: token=«V» user=«user» path=«path»",
    ),
    (
        "email/log-percent",
        "email-pct",
        "«date» «time» INFO unsubscribe request GET /u?email=«V»&list=weekly",
    ),
    (
        "secret/config-env",
        "password-env",
        "# .env.production\nAPP_ENV=production\nDB_HOST=«host»\nDB_USER=«user»\nDB_PASSWORD=«V»\nREDIS_URL=redis://redis:6379/0",
    ),
    (
        "secret/config-compose",
        "password-yaml",
        "services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: «user»\n      POSTGRES_PASSWORD: «V»\n    ports:\n      - \"5432:5432\"",
    ),
    (
        "secret/config-k8s",
        "password-yaml",
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: «app»-db\ntype: Opaque\nstringData:\n  username: «user»\n  password: «V»",
    ),
    (
        "secret/config-toml",
        "password-quoted",
        "[database]\nhost = \"«host»\"\nport = 5432\nuser = \"«user»\"\npassword = \"«V»\"\n\n[cache]\nttl = 300",
    ),
    (
        "secret/config-appsettings",
        "password-ini",
        "{\n  \"ConnectionStrings\": {\n    \"Default\": \"Server=«host»;Database=«db»;User Id=«user»;Password=«V»;\"\n  },\n  \"Logging\": { \"LogLevel\": { \"Default\": \"Information\" } }\n}",
    ),
    (
        "secret/config-aws-credentials",
        "aws-secret",
        "[default]\naws_access_key_id = «ID»\naws_secret_access_key = «V»\nregion = «region»\n",
    ),
    (
        "secret/note-pem",
        "pem",
        "Here's the deploy key for the old box (delete after migration):\n«V»\n",
    ),
    (
        "secret/config-gcp-json",
        "pem-escaped",
        "{\n  \"type\": \"service_account\",\n  \"project_id\": \"acme-«app»\",\n  \"private_key\": \"«V»\\n\",\n  \"token_uri\": \"https://oauth2.googleapis.com/token\"\n}",
    ),
    (
        "secret/config-npmrc",
        "npm",
        "registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=«V»\nalways-auth=true",
    ),
    (
        "secret/config-pypirc",
        "pypi",
        "[distutils]\nindex-servers = pypi\n\n[pypi]\n  username = __token__\n  password = «V»",
    ),
    (
        "secret/config-git-remote",
        "github",
        "git remote set-url origin https://«V»@github.com/acme/«app».git",
    ),
    (
        "secret/config-gha-slack",
        "slack-hook",
        "- name: Notify\n  run: curl -X POST -d '{\"text\":\"done\"}' «P»«V»",
    ),
    (
        "secret/config-terraform-gcp",
        "gcp-key",
        "provider \"google\" {\n  project = \"acme-«app»\"\n  region  = \"europe-west1\"\n}\n# maps key: «V»",
    ),
    (
        "secret/note-en-hf",
        "hf",
        "HF token for the eval runs: «V» (read-only)",
    ),
    (
        "ip/config-nginx",
        "ipv4",
        "server {\n    listen 443 ssl;\n    server_name «host»;\n    allow «V»;\n    deny all;\n}",
    ),
    (
        "ip/config-hosts",
        "ipv4",
        "# /etc/hosts\n127.0.0.1   localhost\n«V»   «host»",
    ),
    (
        "ip/note-en-v6",
        "ipv6",
        "The office router's IPv6 is «V» — ask IT before changing the firewall.",
    ),
    (
        "email/note-en-obf",
        "email-obf",
        "<p>Write to us at «V» for refunds.</p>",
    ),
    (
        "secret/note-en-entropy",
        "hex-secret",
        "support gave us a temporary api key: «V» (valid for 24h)",
    ),
    (
        "phone/note-en-intl",
        "phone-intl",
        "Hotel in Haifa: «V», check-in after «hm»",
    ),
    (
        "secret/note-he-mail-password",
        "password-prose",
        "סיסמה למייל של העבודה: «V»",
    ),
    (
        "secret/note-ja-api",
        "hex-secret",
        "開発用APIキー：«V»（本番では使わない）",
    ),
    (
        "card/note-he",
        "card",
        "כרטיס האשראי לתשלומים: «V», בתוקף עד 09/27",
    ),
    (
        "secret/code-curl-basic",
        "basic",
        "curl -H \"Authorization: Basic «V»\" https://«host»/api/health",
    ),
    (
        "secret/note-en-mysql",
        "password-shell",
        "mysql -h «host» -u root --password=«V» «db» < dump.sql",
    ),
];

/// (form, template without a value).
const CLEAN: &[(&str, &str)] = &[
    (
        "clean/note-en-meeting",
        "Meeting with the team on «date» at «hm». Agenda: roadmap, hiring, the Q3 offsite.",
    ),
    (
        "clean/note-en-upgrade",
        "Upgraded the cluster to v«ver»; rollback tag is «sha7».",
    ),
    (
        "clean/note-en-vault",
        "The API key is stored in Vault under secret/data/prod/api — never paste it here.",
    ),
    (
        "clean/config-env-example",
        "# .env.example\nDB_HOST=localhost\nDB_PASSWORD=\nAPI_KEY=YOUR_API_KEY\nDEBUG=false",
    ),
    (
        "clean/shell-docker",
        "docker run -p 8080:80 -e API_KEY=${API_KEY} nginx:1.25.3",
    ),
    (
        "clean/code-env-password",
        "password = os.environ[\"DB_PASSWORD\"]\nconn = connect(host=\"localhost\", password=password)",
    ),
    (
        "clean/note-en-listen",
        "Dev server: listen on 127.0.0.1:8080 and the metrics endpoint on 0.0.0.0:9090",
    ),
    (
        "clean/log-start",
        "«date»T«time»Z INFO server started on [::1]:3000 (pid «pid», build «sha7»)",
    ),
    ("clean/note-he-reset", "צריך לזכור לאפס את הסיסמה מחר בבוקר"),
    ("clean/note-he-meeting", "הפגישה נדחתה ל-«dmy» בשעה «hm»"),
    (
        "clean/note-ja-password",
        "パスワードを変更しました。新しいものはパスワードマネージャーに保存済み。",
    ),
    ("clean/note-ja-release", "«date»のリリースでv«ver»に更新"),
    (
        "clean/git-log",
        "commit «sha40»\nDate: «date»\n\n    Fix token refresh race",
    ),
    (
        "clean/config-gha",
        "env:\n  GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}\n  NODE_VERSION: 20.11.1",
    ),
    (
        "clean/config-k8s-image",
        "image: registry.example.com/«app»@sha256:«sha64»\nresources:\n  limits:\n    memory: 512Mi",
    ),
    (
        "clean/note-en-order",
        "Order #«order» shipped on «date», total ₪«price»",
    ),
    (
        "clean/code-rust",
        "use std::collections::HashMap;\nlet mut seen: HashMap<u64, usize> = HashMap::new();\nlet v: Vec<u8> = Vec::with_capacity(1024);",
    ),
    (
        "clean/note-en-advice",
        "Reset your password tomorrow — the token expired, and rotate the API key monthly.",
    ),
    (
        "clean/note-en-coordinates",
        "Coordinates of the office: 32.0853, 34.7818",
    ),
    (
        "clean/note-en-isbn",
        "ISBN 978-0-306-40615-7 — lent to «name»",
    ),
    (
        "clean/log-request",
        "request_id=«uuid» status=«status» duration=«ms»",
    ),
    (
        "clean/log-access",
        "«date» «time» INFO «method» «path» «status» «ms» user_agent=\"Mozilla/5.0\"",
    ),
    (
        "clean/config-llm",
        "max_tokens: 4096\ntemperature: 0.2\nmodel: claude-3-5-sonnet",
    ),
    ("clean/note-checksum", "Checksum: sha256 «sha64»"),
    (
        "clean/note-en-proxy",
        "Authorization: Bearer $TOKEN is added by the proxy, don't hardcode it",
    ),
    (
        "clean/note-he-release",
        "הגרסה החדשה (v«ver») עלתה לפרודקשן ב-«hm»",
    ),
    (
        "clean/note-ja-meeting",
        "明日の«hm»から定例会議。議題：予算、採用。",
    ),
    (
        "clean/note-en-wifi",
        "Remember: the Wi-Fi password is on the fridge, not here.",
    ),
    (
        "clean/shell-publish",
        "export GITHUB_TOKEN=${GITHUB_TOKEN}\nnpm publish --access public",
    ),
    (
        "clean/log-ifconfig",
        "lo0: ether «mac» inet 127.0.0.1 netmask 0xff000000",
    ),
    (
        "clean/note-en-rfc",
        "Set timeout to «n» seconds and retries to 3; see RFC 7231 section 6.5.1.",
    ),
    (
        "clean/note-en-flight",
        "Flight LY«n» departs «date» «hm», gate B«n»",
    ),
    (
        "clean/note-he-order",
        "הזמנה מספר «order» התקבלה. סכום: ₪«price»",
    ),
    ("clean/note-ja-order", "注文番号«order»を発送しました"),
    (
        "clean/note-en-todo",
        "TODO: move the DB password to the secret manager before «date»",
    ),
    (
        "clean/note-en-docs",
        "Docs: https://docs.example.com/v«ver»/auth#api-keys",
    ),
];
