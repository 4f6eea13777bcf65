//! Corpus "secrets+pii": thousands of credentials and of the new PII categories in realistic
//! carriers, and look-alikes that must stay unchanged.

use super::util::*;
use super::values::*;
use super::{Case, Corpus, Limits};

/// Cases per form (positive forms and look-alike forms alike), before rounding by carrier.
const PER_FORM: usize = 50;

pub fn corpus() -> Corpus {
    let mut r = Rng::new(0x5EC2_E720_2600_0001);
    let mut cases = Vec::new();
    providers(&mut r, &mut cases);
    webhooks(&mut r, &mut cases);
    aws_secret_keys(&mut r, &mut cases);
    pem_blocks(&mut r, &mut cases);
    url_passwords(&mut r, &mut cases);
    auth_headers(&mut r, &mut cases);
    assignments(&mut r, &mut cases);
    prose(&mut r, &mut cases);
    ssns(&mut r, &mut cases);
    ips(&mut r, &mut cases);
    emails(&mut r, &mut cases);
    lookalikes(&mut r, &mut cases);
    Corpus {
        name: "secrets+pii",
        cases,
        limits: Limits {
            min_full: 99.0,
            max_partial: 0.2,
            max_changed: 1.0,
        },
    }
}

fn push(
    r: &mut Rng,
    cases: &mut Vec<Case>,
    category: &'static str,
    form: &str,
    template: &str,
    value: &str,
    vars: &[(&str, &str)],
) {
    let (before, after) = carrier(r, template, vars);
    cases.push(Case::positive(category, form, &before, value, &after));
}

// ---------------------------------------------------------------- provider tokens

/// Carriers for a provider token; `«VAR»` is an environment variable for it, `«var»` its
/// lowercase form. Some carry a credential word, some only the token's own shape.
const TOKEN_CARRIERS: &[&str] = &[
    "«VAR»=«V»",
    "export «VAR»=«V»",
    "«VAR»=\"«V»\"\nLOG_LEVEL=debug",
    "«app»:\n  «var»: «V»\n  timeout: 30",
    "{\"«var»\": \"«V»\", \"region\": \"«region»\"}",
    "found an old credential in the repo history: «V» — revoke it",
    "«V»",
    "- staging: `«V»`\n- prod: in the vault",
    "the CI uses «V» until «date»",
    "«date»T«time»Z WARN config: loaded «V» from environment",
    "client = Client(\"«V»\")",
    "const client = new Client({ auth: '«V»' });",
    "os.environ[\"«VAR»\"] = \"«V»\"",
    "$env:«VAR» = \"«V»\"",
    "| «app» | «V» | rotated «date» |",
    "<value>«V»</value>",
    "הטוקן של «app»: «V»",
    "שמרתי את המפתח «V» בכספת, צריך למחוק מכאן",
    "המפתח הישן היה «V» אבל כבר ביטלתי אותו",
    "APIキーは«V»です",
    "トークン：«V»（«date»に発行）",
    "このキー«V»を使ってください。",
];

fn providers(r: &mut Rng, cases: &mut Vec<Case>) {
    for p in PROVIDERS {
        for i in 0..PER_FORM {
            let value = (p.make)(r);
            let template = TOKEN_CARRIERS[(i + r.below(3)) % TOKEN_CARRIERS.len()];
            let lower = p.var.to_lowercase();
            push(
                r,
                cases,
                "secret",
                p.form,
                template,
                &value,
                &[("VAR", p.var), ("var", &lower)],
            );
        }
    }
}

fn webhooks(r: &mut Rng, cases: &mut Vec<Case>) {
    const CARRIERS: &[&str] = &[
        "«NAME»_WEBHOOK_URL=«P»«V»",
        "curl -X POST -H 'Content-type: application/json' --data '{\"text\":\"deploy done\"}' «P»«V»",
        "webhook: «P»«V»",
        "requests.post(\"«P»«V»\", json=payload, timeout=5)",
        "notify via «P»«V» when the job fails",
        "הוובהוק לערוץ ההתראות: «P»«V»",
        "通知用のWebhook：«P»«V»",
        "- name: notify\n  url: \"«P»«V»\"",
    ];
    for i in 0..PER_FORM {
        let (prefix, secret) = slack_webhook(r);
        let t = CARRIERS[i % CARRIERS.len()];
        push(
            r,
            cases,
            "secret",
            "secret/slack-webhook",
            t,
            &secret,
            &[("P", &prefix), ("NAME", "SLACK")],
        );
    }
    for i in 0..PER_FORM {
        let (prefix, secret) = discord_webhook(r);
        let t = CARRIERS[i % CARRIERS.len()];
        push(
            r,
            cases,
            "secret",
            "secret/discord-webhook",
            t,
            &secret,
            &[("P", &prefix), ("NAME", "DISCORD")],
        );
    }
}

fn aws_secret_keys(r: &mut Rng, cases: &mut Vec<Case>) {
    const CARRIERS: &[&str] = &[
        "[default]\naws_access_key_id = «ID»\naws_secret_access_key = «V»\nregion = «region»",
        "AWS_SECRET_ACCESS_KEY=«V»",
        "export AWS_SECRET_ACCESS_KEY=\"«V»\"",
        "aws_secret_access_key: «V»",
        "{\n    \"AccessKey\": {\n        \"UserName\": \"«user»\",\n        \"AccessKeyId\": \"«ID»\",\n        \"Status\": \"Active\",\n        \"SecretAccessKey\": \"«V»\"\n    }\n}",
        "AWS Secret Access Key [None]: «V»",
        "provider \"aws\" {\n  access_key = \"«ID»\"\n  secret_key = \"«V»\"\n}",
        "aws_secret_access_key של החשבון הישן: «V»",
        "aws_secret_access_key：«V»",
    ];
    for i in 0..PER_FORM + 10 {
        let id = aws_key_id(r);
        let secret = aws_secret(r);
        let t = CARRIERS[i % CARRIERS.len()];
        push(
            r,
            cases,
            "secret",
            "secret/aws-secret-key",
            t,
            &secret,
            &[("ID", &id)],
        );
    }
}

// ---------------------------------------------------------------- PEM

fn pem_blocks(r: &mut Rng, cases: &mut Vec<Case>) {
    const MULTI_LINE: &[&str] = &[
        "«V»",
        "Here is the deploy key for «host»:\n«V»\nDelete after use.",
        "```\n«V»\n```",
        "$ cat ~/.ssh/id_«app»\n«V»\n$ ",
        "key.pem:\n\n«V»\n",
    ];
    for (i, &(kind, form)) in PEM_KINDS
        .iter()
        .cycle()
        .take(PEM_KINDS.len() * 40)
        .enumerate()
    {
        let lines = pem_lines(r, kind);
        match i % 7 {
            // Indented in a YAML block scalar.
            5 => {
                let value = lines.join("\n    ");
                push(
                    r,
                    cases,
                    "secret",
                    form,
                    "tls:\n  key: |\n    «V»\n  cert: /etc/ssl/«app».crt",
                    &value,
                    &[],
                );
            }
            // Windows line ends.
            6 => {
                let value = lines.join("\r\n");
                push(r, cases, "secret", form, "«V»\r\n", &value, &[]);
            }
            k => {
                let value = lines.join("\n");
                push(
                    r,
                    cases,
                    "secret",
                    form,
                    MULTI_LINE[k % MULTI_LINE.len()],
                    &value,
                    &[],
                );
            }
        }
    }
    // Escaped `\n` inside JSON or shell strings.
    const ESCAPED: &[&str] = &[
        "{\n  \"type\": \"service_account\",\n  \"project_id\": \"acme-«app»-prod\",\n  \"private_key_id\": \"«KID»\",\n  \"private_key\": \"«V»\\n\",\n  \"client_id\": \"«CID»\",\n  \"auth_uri\": \"https://accounts.google.com/o/oauth2/auth\",\n  \"token_uri\": \"https://oauth2.googleapis.com/token\"\n}",
        "PRIVATE_KEY=\"«V»\\n\"",
        "const privateKey = \"«V»\\n\";",
        "\"private_key\": \"«V»\"",
        "  key: \"«V»\\n\"",
    ];
    for i in 0..PER_FORM + 20 {
        let kind = if i % 3 == 0 {
            Pem::Rsa
        } else if i % 3 == 1 {
            Pem::Pkcs8Rsa
        } else {
            Pem::Ec
        };
        let value = pem_lines(r, kind).join("\\n");
        let kid = r.hex(40);
        let cid = r.digits(21);
        push(
            r,
            cases,
            "secret",
            "secret/pem-escaped",
            ESCAPED[i % ESCAPED.len()],
            &value,
            &[("KID", &kid), ("CID", &cid)],
        );
    }
}

// ---------------------------------------------------------------- URL passwords

fn url_passwords(r: &mut Rng, cases: &mut Vec<Case>) {
    const CARRIERS: &[&str] = &[
        "DATABASE_URL=«URL»",
        "engine = create_engine(\"«URL»\")",
        "url: «URL»",
        "connect with «URL» from the bastion",
        "חיבור: «URL»",
        "接続文字列：«URL»",
        "{\"uri\": \"«URL»\", \"pool\": 10}",
        "«URL»",
    ];
    const URLS: &[(&str, &[&str])] = &[
        (
            "secret/url-pass-postgres",
            &[
                "postgres://«user»:«V»@«host»:5432/«db»",
                "postgresql://«user»:«V»@«host»/«db»?sslmode=require",
            ],
        ),
        (
            "secret/url-pass-mysql",
            &[
                "mysql://«user»:«V»@«host»:3306/«db»",
                "mysql+pymysql://root:«V»@127.0.0.1:3306/«db»",
            ],
        ),
        (
            "secret/url-pass-mongodb",
            &[
                "mongodb+srv://«user»:«V»@cluster0.«CL».mongodb.net/?retryWrites=true&w=majority",
                "mongodb://«user»:«V»@«host»:27017/«db»?authSource=admin",
            ],
        ),
        (
            "secret/url-pass-redis",
            &[
                "redis://:«V»@«host»:6379/0",
                "rediss://default:«V»@«host»:6380",
            ],
        ),
        (
            "secret/url-pass-amqp",
            &[
                "amqp://«user»:«V»@«host»:5672/%2F",
                "amqps://«user»:«V»@«host»/vhost",
            ],
        ),
        (
            "secret/url-pass-https",
            &[
                "https://«user»:«V»@git.example.com/acme/«app».git",
                "https://«user»:«V»@registry.example.com/v2/",
                "ftp://«user»:«V»@files.example.com/backups/",
            ],
        ),
    ];
    for (form, urls) in URLS {
        for i in 0..PER_FORM - 10 {
            let pw = percent_encode_userinfo(&password(r, sym::URL));
            let cl = r.string(LOWER_ALNUM, 5);
            let url = urls[i % urls.len()];
            let t = CARRIERS[(i / urls.len()) % CARRIERS.len()].replace("«URL»", url);
            push(r, cases, "secret", form, &t, &pw, &[("CL", &cl)]);
        }
    }
}

// ---------------------------------------------------------------- authorization headers

fn auth_headers(r: &mut Rng, cases: &mut Vec<Case>) {
    const FORMS: &[(&str, &[&str])] = &[
        (
            "secret/bearer-curl",
            &[
                "curl -s -H \"Authorization: Bearer «V»\" https://api.example.com«path»",
                "curl --header 'Authorization: Bearer «V»' -X «method» https://«host»«path»",
                "curl -H \"Accept: application/json\" -H \"Authorization: Bearer «V»\" «path»",
            ],
        ),
        (
            "secret/bearer-http",
            &[
                "«method» «path» HTTP/1.1\nHost: api.example.com\nAuthorization: Bearer «V»\nAccept: */*\n",
                ":method: «method»\n:path: «path»\nauthorization: bearer «V»\nuser-agent: okhttp/4.12.0",
                "> Authorization: Bearer «V»\n< HTTP/2 «status»",
            ],
        ),
        (
            "secret/bearer-json",
            &[
                "{\"headers\": {\"Authorization\": \"Bearer «V»\", \"Content-Type\": \"application/json\"}}",
                "{\"authorization\":\"Bearer «V»\",\"accept\":\"*/*\"}",
            ],
        ),
        (
            "secret/bearer-yaml",
            &[
                "headers:\n  Authorization: \"Bearer «V»\"\n  Accept: application/json",
                "- name: Authorization\n  value: Bearer «V»",
            ],
        ),
        (
            "secret/bearer-code",
            &[
                "headers = {\"Authorization\": \"Bearer «V»\"}",
                "fetch(url, { headers: { Authorization: `Bearer «V»` } })",
                "req.Header.Set(\"Authorization\", \"Bearer «V»\")",
                "client.DefaultRequestHeaders.Add(\"Authorization\", \"Bearer «V»\");",
            ],
        ),
        (
            "secret/basic-auth",
            &[
                "curl -H \"Authorization: Basic «V»\" https://«host»«path»",
                "«method» «path» HTTP/1.1\nHost: «host»\nAuthorization: Basic «V»\n",
                "proxy_set_header Authorization \"Basic «V»\";",
                "\"Authorization\": \"Basic «V»\"",
            ],
        ),
        (
            "secret/token-header",
            &[
                "curl -H \"Authorization: token «V»\" https://api.github.com/user/repos",
                "X-Api-Key: «V»",
                "-H 'x-api-key: «V»'",
                "PRIVATE-TOKEN: «V»",
            ],
        ),
    ];
    for (form, templates) in FORMS {
        for i in 0..PER_FORM - 10 {
            let value = match *form {
                "secret/basic-auth" => {
                    let user = filler(r, "user");
                    let pw = password(r, sym::QUOTED);
                    b64(format!("{user}:{pw}").as_bytes())
                }
                "secret/token-header" => match i % 4 {
                    0 => github_classic(r),
                    3 => gitlab_pat(r),
                    _ => random_secret(r),
                },
                _ => bearer_token(r),
            };
            push(
                r,
                cases,
                "secret",
                form,
                templates[i % templates.len()],
                &value,
                &[],
            );
        }
    }
}

// ---------------------------------------------------------------- assignments

#[derive(Clone, Copy)]
enum Keys {
    Upper,
    Snake,
    Camel,
    Kebab,
    /// The template names the credential itself.
    Fixed,
}

const UPPER_KEYS: &[&str] = &[
    "PASSWORD",
    "DB_PASSWORD",
    "MYSQL_ROOT_PASSWORD",
    "POSTGRES_PASSWORD",
    "REDIS_PASSWORD",
    "SMTP_PASSWORD",
    "ADMIN_PASSWORD",
    "SECRET_KEY",
    "JWT_SECRET",
    "SESSION_SECRET",
    "CLIENT_SECRET",
    "API_KEY",
    "APIKEY",
    "API_TOKEN",
    "AUTH_TOKEN",
    "ACCESS_TOKEN",
    "ACCESS_KEY",
    "SECRET",
    "TOKEN",
    "PASSWD",
    "APP_SECRET",
];
const SNAKE_KEYS: &[&str] = &[
    "password",
    "passwd",
    "pwd",
    "pw",
    "secret",
    "client_secret",
    "token",
    "api_key",
    "apikey",
    "access_key",
    "secret_key",
    "auth_token",
    "access_token",
    "db_password",
    "admin_password",
];
const CAMEL_KEYS: &[&str] = &[
    "password",
    "apiKey",
    "clientSecret",
    "accessToken",
    "authToken",
    "secretKey",
    "dbPassword",
    "apiToken",
    "secret",
    "token",
];
const KEBAB_KEYS: &[&str] = &[
    "password",
    "token",
    "api-key",
    "client-secret",
    "secret",
    "access-token",
    "auth-token",
];

/// A value for a key: a password for password words, mostly a random token for the others.
fn value_for(r: &mut Rng, key: &str, symbols: &str) -> String {
    let k = key.to_ascii_lowercase();
    let is_password = k.contains("pass") || k.contains("pwd") || k == "pw";
    let take_password = if is_password {
        r.chance(85)
    } else {
        r.chance(30)
    };
    if take_password {
        password(r, symbols)
    } else {
        random_secret(r)
    }
}

/// Keeps a random token inside a carrier's allowed characters (base64 `+/=` in unquoted
/// positions become URL-safe characters).
fn fit(value: String, symbols: &str) -> String {
    value
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || symbols.contains(c) {
                c
            } else if symbols.contains('-') {
                '-'
            } else {
                'x'
            }
        })
        .collect()
}

fn assignments(r: &mut Rng, cases: &mut Vec<Case>) {
    const SAFE_YAML: &str = "-_.~";
    let forms: &[(&str, Keys, &str, &[&str])] = &[
        (
            "secret/assign-env",
            Keys::Upper,
            sym::ENV,
            &[
                "«K»=«V»",
                "export «K»=«V»",
                "APP_ENV=production\nDB_HOST=«host»\n«K»=«V»\nLOG_LEVEL=info",
                "# «app» service\n«K»=«V»\n",
            ],
        ),
        (
            "secret/assign-env-quoted",
            Keys::Upper,
            sym::QUOTED,
            &[
                "«K»=\"«V»\"",
                "export «K»='«V»'",
                "«K»=\"«V»\" # rotated «date»",
            ],
        ),
        (
            "secret/assign-yaml",
            Keys::Snake,
            SAFE_YAML,
            &[
                "database:\n  host: «host»\n  «K»: «V»\n  port: 5432",
                "«K»: «V»",
                "spring:\n  datasource:\n    username: «user»\n    «K»: \"«V»\"",
                "- name: «app»\n  «K»: '«V»'",
            ],
        ),
        (
            "secret/assign-json",
            Keys::Camel,
            sym::QUOTED,
            &[
                "{\n  \"«K»\": \"«V»\",\n  \"timeout\": 30\n}",
                "{\"user\":\"«user»\",\"«K»\":\"«V»\"}",
                "  \"«K»\": \"«V»\",",
            ],
        ),
        (
            "secret/assign-toml",
            Keys::Snake,
            sym::QUOTED,
            &[
                "[database]\nhost = \"«host»\"\n«K» = \"«V»\"\n",
                "«K» = '«V»'",
            ],
        ),
        (
            "secret/assign-ini",
            Keys::Snake,
            sym::INI,
            &["[mysql]\nuser = «user»\n«K» = «V»\n", "[client]\n«K»=«V»"],
        ),
        (
            "secret/assign-xml",
            Keys::Camel,
            sym::XML,
            &[
                "<«K»>«V»</«K»>",
                "<property name=\"«K»\" value=\"«V»\"/>",
                "<add key=\"«K»\" value=\"«V»\" />",
                "<config>\n  <user>«user»</user>\n  <«K»>«V»</«K»>\n</config>",
            ],
        ),
        (
            "secret/assign-properties",
            Keys::Snake,
            sym::ENV,
            &["spring.datasource.«K»=«V»", "db.«K» = «V»", "«app».«K»=«V»"],
        ),
        (
            "secret/assign-cli-eq",
            Keys::Kebab,
            sym::SHELL,
            &[
                "mysql -h «host» -u «user» --«K»=«V» «db»",
                "./deploy.sh --env prod --«K»=«V»",
                "«app»-cli login --«K»=«V»",
            ],
        ),
        (
            "secret/assign-cli-space",
            Keys::Kebab,
            sym::SHELL,
            &[
                "mycli --«K» «V» --host «host»",
                "«app»-cli login --«K» «V»",
                "./backup.sh --user «user» --«K» '«V»'",
            ],
        ),
        (
            "secret/assign-docker-env",
            Keys::Upper,
            sym::ENV,
            &[
                "docker run -d -e «K»=«V» «app»:latest",
                "docker run --rm -e «K»=\"«V»\" -p 8080:80 «app»",
                "environment:\n  - «K»=«V»\n  - TZ=UTC",
                "services:\n  db:\n    image: postgres:16\n    environment:\n      «K»: «V»",
            ],
        ),
        (
            "secret/assign-sql",
            Keys::Fixed,
            sym::QUOTED,
            &[
                "CREATE USER «dbuser» WITH PASSWORD '«V»';",
                "ALTER ROLE «dbuser» WITH PASSWORD '«V»';",
                "ALTER USER «dbuser» PASSWORD '«V»';",
                "CREATE ROLE «dbuser» LOGIN PASSWORD '«V»';",
            ],
        ),
        (
            "secret/assign-sql-identified-by",
            Keys::Fixed,
            sym::QUOTED,
            &[
                "CREATE USER '«dbuser»'@'%' IDENTIFIED BY '«V»';",
                "ALTER USER 'root'@'localhost' IDENTIFIED BY '«V»';",
                "GRANT ALL ON «db».* TO '«dbuser»'@'%' IDENTIFIED BY '«V»';",
            ],
        ),
        (
            "secret/assign-code-python",
            Keys::Snake,
            sym::QUOTED,
            &[
                "«K» = \"«V»\"",
                "«K» = '«V»'  # TODO move to env",
                "client = Client(«K»=\"«V»\")",
                "settings = {\"«K»\": \"«V»\", \"debug\": False}",
            ],
        ),
        (
            "secret/assign-code-js",
            Keys::Camel,
            sym::QUOTED,
            &[
                "const «K» = \"«V»\";",
                "let «K» = '«V»';",
                "module.exports = { «K»: \"«V»\" };",
            ],
        ),
        (
            "secret/assign-code-other",
            Keys::Camel,
            sym::QUOTED,
            &[
                "«K» := \"«V»\"",
                "let «K» = \"«V»\";",
                "var «K» = \"«V»\";",
                "$«K» = '«V»';",
                "private static final String «K» = \"«V»\";",
            ],
        ),
        (
            "secret/assign-connection-string",
            Keys::Fixed,
            sym::INI,
            &[
                "Server=tcp:«host»,1433;Database=«db»;User ID=«user»;Password=«V»;Encrypt=True;",
                "Host=«host»;Port=5432;Username=«user»;Password=«V»",
                "Data Source=«host»;Initial Catalog=«db»;User Id=«user»;Pwd=«V»;",
                "host=«host» port=5432 dbname=«db» user=«user» password=«V» sslmode=require",
            ],
        ),
        (
            "secret/assign-k8s-secret",
            Keys::Snake,
            SAFE_YAML,
            &[
                "apiVersion: v1\nkind: Secret\nmetadata:\n  name: «app»-credentials\ntype: Opaque\nstringData:\n  «K»: «V»\n",
                "stringData:\n  «K»: \"«V»\"",
            ],
        ),
    ];
    for &(form, keys, symbols, templates) in forms {
        for i in 0..PER_FORM - 5 {
            let key = match keys {
                Keys::Upper => *r.pick(UPPER_KEYS),
                Keys::Snake => *r.pick(SNAKE_KEYS),
                Keys::Camel => *r.pick(CAMEL_KEYS),
                Keys::Kebab => *r.pick(KEBAB_KEYS),
                Keys::Fixed => "password",
            };
            let value = fit(value_for(r, key, symbols), symbols);
            push(
                r,
                cases,
                "secret",
                form,
                templates[i % templates.len()],
                &value,
                &[("K", key)],
            );
        }
    }
}

// ---------------------------------------------------------------- prose

fn prose(r: &mut Rng, cases: &mut Vec<Case>) {
    // (form, password templates, token templates)
    let forms: &[(&str, &[&str], &[&str])] = &[
        (
            "secret/prose-en",
            &[
                "My password is «V»",
                "The new password is «V».",
                "password for the router: «V»",
                "the wifi password is «V» btw",
                "pw: «V»",
                "Use password «V» to log in to «host».",
                "new password → «V»",
                "«name»'s laptop password: «V»",
                "the admin password for «app» is «V» (changed «date»)",
            ],
            &[
                "my api key is «V»",
                "secret: «V»",
                "the token is «V», expires «date»",
                "API key for «app»: «V»",
            ],
        ),
        (
            "secret/prose-he",
            &[
                "הסיסמה שלי היא «V»",
                "הסיסמה לוויפי: «V»",
                "סיסמה: «V»",
                "הסיסמא החדשה של המייל היא «V» תזכור",
                "סיסמת הראוטר היא «V»",
                "הסיסמה ל-«app» היא «V»",
            ],
            &[
                "הטוקן של הבוט הוא «V»",
                "מפתח ה-API: «V»",
                "הטוקן החדש: «V»",
            ],
        ),
        (
            "secret/prose-ja",
            &[
                "パスワードは«V»です",
                "パスワード：«V»",
                "Wi-Fiのパスワードは«V»です。",
                "新しいパスワード «V» に変更しました",
                "«app»のパスワード：«V»（«date»変更）",
            ],
            &[
                "APIキー：«V»",
                "トークンは«V»です",
                "アクセストークン «V» を発行しました",
            ],
        ),
    ];
    for &(form, pw, tok) in forms {
        for i in 0..PER_FORM + 10 {
            if i % 3 == 2 {
                let value = random_secret(r);
                push(r, cases, "secret", form, tok[i % tok.len()], &value, &[]);
            } else {
                let value = password(r, sym::PROSE);
                push(r, cases, "secret", form, pw[i % pw.len()], &value, &[]);
            }
        }
    }
    // High-entropy tokens within a few words after a credential word.
    const ENTROPY: &[&str] = &[
        "the staging api key is probably «V», not sure",
        "here's the token we got from support — «V»",
        "secret for the webhook (prod) = «V»",
        "Jenkins API token, just in case: «V»",
        "token for the CI bot is «V» I think",
        "access key from the vendor portal: «V» (expires «date»)",
        "המפתח של ה-API לסביבת הבדיקות הוא כנראה «V»",
        "APIキーはたぶん«V»です",
    ];
    for i in 0..PER_FORM + 30 {
        let value = match i % 4 {
            0 => r.hex(32),
            1 => r.hex(40),
            2 => {
                let n = r.range(16, 30) as usize;
                b64(&r.bytes(n))
            }
            _ => r.string(BASE62, 32),
        };
        push(
            r,
            cases,
            "secret",
            "secret/entropy-prose",
            ENTROPY[i % ENTROPY.len()],
            &value,
            &[],
        );
    }
}

// ---------------------------------------------------------------- SSN

const SSN_KEYWORD: &[&str] = &[
    "SSN: «V»",
    "my ssn is «V»",
    "Social Security Number «V» (on file)",
    "SS# «V»",
    "social security no. «V»",
    "社会保障番号：«V»",
    "מספר ביטוח לאומי אמריקאי (SSN): «V»",
    "employee:\n  name: «name»\n  ssn: «V»",
    "{\"name\": \"«name»\", \"ssn\": \"«V»\"}",
    "SSN «V», DOB «dmy»",
];

const SSN_BARE: &[&str] = &[
    "Employee record: «name» Levi, «V», hired «date»",
    "«V» — dad's",
    "W-2 for «name»: «V»",
    "טופס W-2 של «hename»: «V»",
    "«janame»さんの番号 «V»",
    "«V»",
    "tax forms: «V» (mine), filed «date»",
];

fn ssns(r: &mut Rng, cases: &mut Vec<Case>) {
    for i in 0..PER_FORM {
        let d = ssn_digits(r);
        push(
            r,
            cases,
            "us_ssn",
            "ssn/keyword-dashed",
            SSN_KEYWORD[i % SSN_KEYWORD.len()],
            &ssn_dashed(&d),
            &[],
        );
        let d = ssn_digits(r);
        push(
            r,
            cases,
            "us_ssn",
            "ssn/keyword-spaced",
            SSN_KEYWORD[(i + 3) % SSN_KEYWORD.len()],
            &ssn_spaced(&d),
            &[],
        );
        let d = ssn_digits(r);
        push(
            r,
            cases,
            "us_ssn",
            "ssn/keyword-plain",
            SSN_KEYWORD[(i + 5) % SSN_KEYWORD.len()],
            &d,
            &[],
        );
        let d = ssn_digits(r);
        push(
            r,
            cases,
            "us_ssn",
            "ssn/bare-dashed",
            SSN_BARE[i % SSN_BARE.len()],
            &ssn_dashed(&d),
            &[],
        );
        let d = ssn_digits(r);
        push(
            r,
            cases,
            "us_ssn",
            "ssn/bare-spaced",
            SSN_BARE[(i + 2) % SSN_BARE.len()],
            &ssn_spaced(&d),
            &[],
        );
    }
}

// ---------------------------------------------------------------- IP

const V4_CARRIERS: &[&str] = &[
    "«date»T«time»Z sshd[«pid»]: Accepted publickey for «user» from «V» port «port» ssh2",
    "«V» - - [15/Mar/2024:«time» +0000] \"«method» «path» HTTP/1.1\" «status» «n»",
    "«date» «time» WARN blocked «V» after 5 failed logins",
    "logged in from «V» yesterday",
    "Server «V»",
    "ssh «user»@«V»",
    "connect to «V»:«port» and run the migration",
    "ping «V»",
    "allow «V»;",
    "bind-address = «V»",
    "X-Forwarded-For: «V»",
    "השרת בכתובת «V»",
    "נחסמה הכתובת «V» אחרי חמישה ניסיונות",
    "ה-IP של המשרד: «V»",
    "サーバーのIPは«V»です",
    "接続元：«V»",
    "«V»からのアクセスをブロックしました",
    "- host: «V»\n  port: «port»",
    "{\"remote_addr\": \"«V»\", \"status\": «status»}",
];

const V6_CARRIERS: &[&str] = &[
    "«date»T«time»Z sshd[«pid»]: Accepted publickey for «user» from «V» port «port» ssh2",
    "«date» «time» WARN blocked «V» after 5 failed logins",
    "client «V» connected",
    "inet6 «V»/64 scope global dynamic",
    "ping6 «V»",
    "logged in from «V»",
    "הכתובת של הממשק היא «V»",
    "接続元：«V»",
    "{\"remote_addr\": \"«V»\"}",
    "AAAA record: «V»",
];

const V6_BRACKETED: &[&str] = &[
    "http://[«V»]:«port»/",
    "curl -g 'http://[«V»]:8080/health'",
    "listen [«V»]:443 ssl;",
    "upstream at [«V»]:«port»",
];

fn ips(r: &mut Rng, cases: &mut Vec<Case>) {
    for i in 0..PER_FORM + 10 {
        let v = ipv4_public(r);
        push(
            r,
            cases,
            "ip",
            "ip/v4-public",
            V4_CARRIERS[i % V4_CARRIERS.len()],
            &v,
            &[],
        );
        let v = ipv4_private(r);
        push(
            r,
            cases,
            "ip",
            "ip/v4-private",
            V4_CARRIERS[(i + 7) % V4_CARRIERS.len()],
            &v,
            &[],
        );
    }
    for i in 0..PER_FORM {
        let v = ipv6_full(r);
        push(
            r,
            cases,
            "ip",
            "ip/v6-full",
            V6_CARRIERS[i % V6_CARRIERS.len()],
            &v,
            &[],
        );
        let v = ipv6_compressed(r);
        push(
            r,
            cases,
            "ip",
            "ip/v6-compressed",
            V6_CARRIERS[(i + 3) % V6_CARRIERS.len()],
            &v,
            &[],
        );
        let v = ipv6_zone(r);
        push(
            r,
            cases,
            "ip",
            "ip/v6-zone",
            V6_CARRIERS[(i + 5) % V6_CARRIERS.len()],
            &v,
            &[],
        );
        let v = ipv6_embedded(r);
        push(
            r,
            cases,
            "ip",
            "ip/v6-embedded-v4",
            V6_CARRIERS[(i + 7) % V6_CARRIERS.len()],
            &v,
            &[],
        );
        let v = if i % 2 == 0 {
            ipv6_compressed(r)
        } else {
            ipv6_full(r)
        };
        push(
            r,
            cases,
            "ip",
            "ip/v6-bracketed",
            V6_BRACKETED[i % V6_BRACKETED.len()],
            &v,
            &[],
        );
    }
}

// ---------------------------------------------------------------- obfuscated emails

fn emails(r: &mut Rng, cases: &mut Vec<Case>) {
    const HTML: &[&str] = &[
        "<a href=\"mailto:«V»\">Contact us</a>",
        "<p>Email: «V»</p>",
        "Contact: «V»",
        "צרו קשר: «V»",
        "メール：«V»",
    ];
    const URL: &[&str] = &[
        "https://example.com/unsubscribe?email=«V»&utm_source=mail",
        "GET /api/users?email=«V» HTTP/1.1",
        "redirect to /login?login_hint=«V»",
    ];
    let mut made = [0usize; 3];
    while made.iter().any(|&m| m < PER_FORM - 10) {
        let (form, value) = email_obfuscated(r);
        let k = match form {
            "email/html-entity-dec" => 0,
            "email/html-entity-hex" => 1,
            _ => 2,
        };
        if made[k] >= PER_FORM - 10 {
            continue;
        }
        let t = if k == 2 {
            URL[made[k] % URL.len()]
        } else {
            HTML[made[k] % HTML.len()]
        };
        made[k] += 1;
        push(r, cases, "email", form, t, &value, &[]);
    }
}

// ---------------------------------------------------------------- look-alikes (must stay)

fn neg(cases: &mut Vec<Case>, form: &str, text: String) {
    cases.push(Case::negative("lookalike", form, text));
}

/// 40 hex characters with one run of 10–12 digits between letters.
fn hash_with_digit_run(r: &mut Rng, len: usize) -> String {
    let mut h: Vec<u8> = r.hex_no_digit_run(len).into_bytes();
    let run = r.range(10, 12) as usize;
    let at = 1 + r.below(len - run - 2);
    for d in &mut h[at..at + run] {
        *d = b'0' + r.below(10) as u8;
    }
    h[at - 1] = *r.pick(b"abcdef");
    h[at + run] = *r.pick(b"abcdef");
    String::from_utf8(h).unwrap_or_default()
}

fn b64_clean(r: &mut Rng, bytes: usize) -> String {
    loop {
        let s = b64(&r.bytes(bytes));
        if max_digit_group(&s) < 9 {
            return s;
        }
    }
}

fn lookalikes(r: &mut Rng, cases: &mut Vec<Case>) {
    let n = PER_FORM + 5;
    for i in 0..n {
        // Versions, never a dotted quad of parts ≤ 255 after a space.
        let v = match i % 10 {
            0 => format!(
                "Upgraded to v{}.{}.{}.{}",
                r.range(1, 20),
                r.range(0, 9),
                r.range(0, 9),
                r.range(0, 99)
            ),
            1 => format!(
                "version {}.{}.{}",
                r.range(1, 9),
                r.range(0, 20),
                r.range(0, 30)
            ),
            2 => format!(
                "bump lodash to {}.{}.{}",
                r.range(1, 4),
                r.range(0, 17),
                r.range(0, 21)
            ),
            3 => format!(
                "Python 3.{}.{} and node v{}.{}.{}",
                r.range(8, 13),
                r.range(0, 9),
                r.range(16, 22),
                r.range(0, 20),
                r.range(0, 9)
            ),
            4 => format!(
                "kernel {}.{}.0-{}-generic",
                r.range(4, 6),
                r.range(0, 19),
                r.range(1, 99)
            ),
            5 => format!(
                "release {}.{}.{}.{}.{}",
                r.range(1, 9),
                r.range(0, 9),
                r.range(0, 9),
                r.range(0, 9),
                r.range(1, 9)
            ),
            6 => format!(
                "firmware v2.{}.{}.{}",
                r.range(0, 9),
                r.range(0, 99),
                r.range(0, 255)
            ),
            7 => format!(
                "עדכנתי לגרסה {}.{}.{}",
                r.range(1, 9),
                r.range(0, 20),
                r.range(0, 30)
            ),
            8 => format!(
                "バージョン{}.{}.{}に更新しました",
                r.range(1, 9),
                r.range(0, 20),
                r.range(0, 30)
            ),
            _ => format!(
                "chart version {}.{}.{}-rc.{}",
                r.range(0, 9),
                r.range(0, 20),
                r.range(0, 30),
                r.range(1, 5)
            ),
        };
        neg(cases, "lookalike/version", v);

        let u = uuid(r);
        let t = match i % 6 {
            0 => format!("request_id={u} status=200"),
            1 => format!("trace {u}"),
            2 => format!("{{\"id\": \"{u}\", \"ok\": true}}"),
            3 => format!("UUID {}", u.to_uppercase()),
            4 => format!("uuid: {u}"),
            _ => format!("GET /api/v1/orders/{u} 404"),
        };
        neg(cases, "lookalike/uuid", t);

        let sha = r.hex_no_digit_run(40);
        let s7 = filler(r, "sha7");
        let s7b = filler(r, "sha7");
        let t = match i % 7 {
            0 => format!("commit {sha}"),
            1 => format!("git checkout {s7}"),
            2 => format!("Merge: {s7} {s7b}"),
            3 => format!("fatal: reference is not a tree: {sha}"),
            4 => format!("Reverted {sha} (bad migration)"),
            5 => format!("see {s7} for the fix"),
            _ => format!("HEAD is now at {s7} Fix login redirect"),
        };
        neg(cases, "lookalike/commit-hash", t);

        let h40 = hash_with_digit_run(r, 40);
        let h64 = hash_with_digit_run(r, 64);
        let t = match i % 4 {
            0 => format!("commit {h40}"),
            1 => format!("sha256:{h64}"),
            2 => format!("checksum {h64}"),
            _ => format!("Reverted {h40}"),
        };
        neg(cases, "lookalike/hash-digit-run", t);

        let h64 = r.hex_no_digit_run(64);
        let h32 = r.hex_no_digit_run(32);
        let ver = filler(r, "ver");
        let t = match i % 8 {
            0 => format!("sha256:{h64}"),
            1 => format!("image: nginx@sha256:{h64}"),
            2 => format!("checksum {h64}"),
            3 => format!("SHA256 (app-{ver}.tar.gz) = {h64}"),
            4 => format!("{h64}  app-{ver}.tar.gz"),
            5 => format!("Digest: sha256:{h64}"),
            6 => format!("md5 {h32}"),
            _ => format!("ETag: \"{h32}\""),
        };
        neg(cases, "lookalike/sha256-digest", t);

        let t = match i % 3 {
            0 => format!("\"integrity\": \"sha512-{}\",", b64_clean(r, 64)),
            1 => format!(
                "<script src=\"/js/app.js\" integrity=\"sha384-{}\" crossorigin=\"anonymous\"></script>",
                b64_clean(r, 48)
            ),
            _ => format!("integrity sha256-{}", b64_clean(r, 32)),
        };
        neg(cases, "lookalike/integrity-hash", t);

        const PLACEHOLDERS: &[&str] = &[
            "API_KEY=YOUR_API_KEY",
            "password: <your-password>",
            "\"token\": \"${TOKEN}\"",
            "api_key = \"sk-...\"",
            "password: ********",
            "token: xxxx",
            "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "AWS_ACCESS_KEY_ID=AKIAXXXXXXXXXXXXXXXX",
            "password: \"***\"",
            "secret: REDACTED",
            "\"password\": \"[REDACTED]\"",
            "token = \"<token>\"",
            "api_key: {{ api_key }}",
            "password: \"{{ vault_db_password }}\"",
            "client_secret=%CLIENT_SECRET%",
            "password: your_password_here",
            "API_KEY=INSERT_API_KEY_HERE",
            "token: ...",
            "export API_KEY=<api-key>",
            "--password=$DB_PASSWORD",
            "パスワード：********",
            "סיסמה: ****",
        ];
        neg(
            cases,
            "lookalike/placeholder-assign",
            PLACEHOLDERS[i % PLACEHOLDERS.len()].to_owned(),
        );

        const HEADERS: &[&str] = &[
            "Authorization: Bearer $TOKEN",
            "Authorization: Bearer <token>",
            "curl -H \"Authorization: Bearer ${API_KEY}\" https://api.example.com/v1/me",
            "Authorization: Bearer YOUR_ACCESS_TOKEN",
            "Authorization: Basic <credentials>",
            "Authorization: Bearer ${{ secrets.API_TOKEN }}",
            "authorization: Bearer <JWT>",
            "-H 'Authorization: token $GITHUB_TOKEN'",
        ];
        neg(
            cases,
            "lookalike/placeholder-header",
            HEADERS[i % HEADERS.len()].to_owned(),
        );

        const REFS: &[&str] = &[
            "password = get_password()",
            "token = os.environ[\"TOKEN\"]",
            "api_key: process.env.API_KEY",
            "const apiKey = process.env.OPENAI_API_KEY;",
            "password=os.getenv('DB_PASSWORD')",
            "let token = std::env::var(\"GITHUB_TOKEN\")?;",
            "secret = settings.SECRET_KEY",
            "client_secret: config.clientSecret,",
            "password: !ENV ${DB_PASSWORD}",
            "\"password\": null",
            "password: \"\"",
            "token := os.Getenv(\"API_TOKEN\")",
            "api_key = None  # set in CI",
            "password = input(\"Password: \")",
            "$password = $_POST['password'];",
            "password: {{ .Values.db.password }}",
            "auth_token = request.headers.get(\"Authorization\")",
            "secretKeyRef:\n  name: db-credentials\n  key: password",
        ];
        neg(
            cases,
            "lookalike/variable-ref",
            REFS[i % REFS.len()].to_owned(),
        );

        const SELF: &[&str] = &[
            "export GITHUB_TOKEN=${GITHUB_TOKEN}",
            "export API_KEY=$API_KEY",
            "GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
            "env:\n  NPM_TOKEN: ${{ secrets.NPM_TOKEN }}",
            "docker run -e API_KEY=\"$API_KEY\" app",
            "set TOKEN=%TOKEN%",
        ];
        neg(
            cases,
            "lookalike/export-self-ref",
            SELF[i % SELF.len()].to_owned(),
        );

        const EN: &[&str] = &[
            "reset your password tomorrow",
            "the token expired last night",
            "rotate the API key monthly",
            "password must be 12 characters",
            "I forgot my password again",
            "Where do I find my API key?",
            "Don't share your token with anyone.",
            "The secret to good hummus is ice water.",
            "She asked for the wifi password.",
            "My password manager is 1Password.",
            "sshd[812]: Failed password for root from 127.0.0.1 port 51234 ssh2",
            "The password reset email never arrived.",
        ];
        neg(
            cases,
            "lookalike/prose-no-value",
            EN[i % EN.len()].to_owned(),
        );
        const HE: &[&str] = &[
            "צריך לאפס את הסיסמה מחר",
            "הטוקן פג תוקף אתמול",
            "אל תשתף את הסיסמה עם אף אחד",
            "הסיסמה חייבת להיות באורך 12 תווים לפחות",
            "שכחתי שוב את הסיסמה",
            "איפה מוצאים את מפתח ה-API?",
        ];
        neg(
            cases,
            "lookalike/prose-no-value-he",
            HE[i % HE.len()].to_owned(),
        );
        const JA: &[&str] = &[
            "パスワードを忘れました",
            "トークンの有効期限が切れました",
            "パスワードは8文字以上にしてください",
            "APIキーは毎月ローテーションする",
            "パスワードをリセットしてください。",
        ];
        neg(
            cases,
            "lookalike/prose-no-value-ja",
            JA[i % JA.len()].to_owned(),
        );

        let t = match i % 6 {
            0 => format!("max_tokens: {}", r.pick(&[256, 512, 1024, 4096])),
            1 => format!("\"max_tokens\": {}", r.pick(&[1024, 2048, 8192])),
            2 => "the model has a 128k token context window".to_owned(),
            3 => format!("tokens used: {}", r.range(100, 99_999)),
            4 => format!(
                "token limit is {} per request",
                r.pick(&[4096, 8192, 32_000])
            ),
            _ => format!(
                "input_tokens={} output_tokens={}",
                r.range(10, 9_999),
                r.range(10, 4_000)
            ),
        };
        neg(cases, "lookalike/ai-token-counts", t);

        const CONFIG: &[&str] = &[
            "password_min_length: 12",
            "token_ttl: 3600",
            "secretName: postgres-credentials",
            "auth_type: password",
            "token_type: bearer",
            "api_key_header: X-API-Key",
            "token_endpoint: https://auth.example.com/oauth/token",
            "password_reset_enabled: true",
            "secret_store: vault",
        ];
        neg(
            cases,
            "lookalike/config-nonsecret-key",
            CONFIG[i % CONFIG.len()].to_owned(),
        );

        const URLS: &[&str] = &[
            "postgres://localhost:5432/app",
            "redis://redis:6379/0",
            "DATABASE_URL=postgres://localhost/app_dev",
            "mongodb://mongo:27017/test",
            "amqp://rabbitmq:5672/%2F",
            "git clone https://github.com/acme/app.git",
            "jdbc:postgresql://db:5432/app",
            "DATABASE_URL=postgres://app:${DB_PASSWORD}@db:5432/app",
            "postgres://user:password@localhost:5432/mydb",
        ];
        neg(
            cases,
            "lookalike/url-no-password",
            URLS[i % URLS.len()].to_owned(),
        );

        let port = filler(r, "port");
        let t = match i % 10 {
            0 => "listen on 127.0.0.1:8080".to_owned(),
            1 => format!("bind 0.0.0.0:{port}"),
            2 => "curl http://[::1]:3000/health".to_owned(),
            3 => format!("server running at http://127.0.0.1:{port}/"),
            4 => "::1 localhost ip6-localhost".to_owned(),
            5 => "127.0.0.1 localhost".to_owned(),
            6 => "nameserver 127.0.0.53".to_owned(),
            7 => format!("0.0.0.0:{port}->{port}/tcp"),
            8 => "listen [::]:80 default_server;".to_owned(),
            _ => format!("redis-server --bind 127.0.0.1 --port {port}"),
        };
        neg(cases, "lookalike/loopback-ip", t);

        let mac: Vec<String> = (0..6).map(|_| r.hex(2)).collect();
        let t = match i % 3 {
            0 => format!("ether {} txqueuelen 1000", mac.join(":")),
            1 => format!("HWaddr {}", mac.join(":").to_uppercase()),
            _ => {
                let mut m = mac.clone();
                m[0] = format!("{}{}", r.pick(&["a", "b", "c", "d", "e", "f"]), r.hex(1));
                format!("MAC {}", m.join("-").to_uppercase())
            }
        };
        neg(cases, "lookalike/mac-address", t);

        let (h, m, s) = (r.range(0, 23), r.range(0, 59), r.range(0, 59));
        let t = match i % 6 {
            0 => format!("{h:02}:{m:02}:{s:02}"),
            1 => format!("meet at {h:02}:{m:02}"),
            2 => format!("took 00:{m:02}:{s:02}.{}", r.range(100, 999)),
            3 => format!("2024-03-15T{h:02}:{m:02}:{s:02}Z"),
            4 => format!("[{h:02}:{m:02}:{s:02}] build finished"),
            _ => format!("{h:02}:{m:02}:{s:02}.{:06}", r.range(0, 999_999)),
        };
        neg(cases, "lookalike/time", t);

        const PATHS: &[&str] = &[
            "std::vector<int> v;",
            "a::b",
            "use crate::db::add;",
            "impl fmt::Debug for Config",
            "Err(io::Error::other(\"x\"))",
            "let m = HashMap::new();",
            "Self::decode(buf)",
            "std::chrono::duration_cast",
            "boost::asio::io_context",
            "a::b::c::d",
        ];
        neg(
            cases,
            "lookalike/code-path",
            PATHS[i % PATHS.len()].to_owned(),
        );

        let d = invalid_ssn_digits(r);
        let t = match i % 5 {
            0 => format!("SSN {}", ssn_dashed(&d)),
            1 => format!("ssn: {}", ssn_spaced(&d)),
            2 => format!("test SSN {} from the QA fixture", ssn_dashed(&d)),
            3 => format!("SS# {d}"),
            _ => ssn_dashed(&d),
        };
        neg(cases, "lookalike/invalid-ssn", t);

        const SHORT: &[&str] = &[
            "ghp_",
            "the ghp_ prefix marks personal access tokens",
            "ghp_1234",
            "ghp_abc123",
            "ghp_XXXXXXXXXXXX",
            "prefixes: ghp_, gho_, ghu_, ghs_, ghr_",
            "xoxb-",
            "sk_live_",
        ];
        neg(
            cases,
            "lookalike/ghp-short",
            SHORT[i % SHORT.len()].to_owned(),
        );

        let good = github_classic(r);
        let mut bad: Vec<u8> = good.clone().into_bytes();
        let k = 34 + r.below(6);
        bad[k] = if bad[k] == b'a' { b'b' } else { b'a' };
        let bad = String::from_utf8(bad).unwrap_or_default();
        let t = match i % 3 {
            0 => format!("regex test fixture: {bad}"),
            1 => format!("the string {bad} appears in the scanner docs"),
            _ => format!("`{bad}` (from the false-positive list)"),
        };
        neg(cases, "lookalike/ghp-bad-checksum", t);

        let t = match i % 3 {
            0 => format!("![logo](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{})", b64_clean(r, 60)),
            1 => "background: url(data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==);".to_owned(),
            _ => format!("<img src=\"data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ{}\">", b64_clean(r, 90)),
        };
        neg(cases, "lookalike/data-uri-image", t);

        let t = public_key_text(r);
        neg(cases, "lookalike/public-key", t);

        let (y, mo, d) = (r.range(1990, 2030), r.range(1, 12), r.range(1, 28));
        let t = match i % 5 {
            0 => format!("Meeting on {y}-{mo:02}-{d:02} at 12:30"),
            1 => format!("due {d:02}/{mo:02}/{y}"),
            2 => format!("{d:02}.{mo:02}.{y}"),
            3 => format!("{y}年{mo}月{d}日"),
            _ => format!(
                "{y}-{mo:02}-{d:02}T{:02}:{:02}:{:02}Z",
                r.range(0, 23),
                r.range(0, 59),
                r.range(0, 59)
            ),
        };
        neg(cases, "lookalike/date", t);

        let t = match i % 4 {
            0 => format!(
                "Price ₪{},{:03},{:03}.{:02}",
                r.range(1, 9),
                r.range(0, 999),
                r.range(0, 999),
                r.range(0, 99)
            ),
            1 => format!("${}.{:02}", r.range(1, 9999), r.range(0, 99)),
            2 => format!(
                "€{}.{:03},{:02}",
                r.range(1, 999),
                r.range(0, 999),
                r.range(0, 99)
            ),
            _ => format!("¥{},{:03}", r.range(1, 999), r.range(0, 999)),
        };
        neg(cases, "lookalike/price", t);

        let t = if i % 2 == 0 {
            format!("ISBN {}", isbn10(r))
        } else {
            format!("ISBN {}", isbn13(r))
        };
        neg(cases, "lookalike/isbn", t);
    }
}
