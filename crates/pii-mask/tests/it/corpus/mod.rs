//! Evaluation corpora and their measuring harness.
//!
//! Three corpora, each generated deterministically from a fixed seed:
//!
//! - **secrets+pii**: credentials in their published shapes (with real checksums), passwords
//!   and tokens assigned to credential words in every common syntax, PEM blocks, JWTs, URL
//!   passwords, authorization headers, US SSNs, IPv4/IPv6 addresses and entity-encoded emails,
//!   each in a realistic carrier; plus look-alikes that must stay unchanged.
//! - **digit obfuscations**: phones, Israeli IDs, cards, SSNs and long numbers written with
//!   unusual separators, other digit scripts, invisible characters and full-width forms; plus
//!   clean texts full of digits (dates, times, prices, versions, ISBNs, UUIDs, order numbers,
//!   coordinates).
//! - **realistic**: memory notes (English, Hebrew, Japanese, code, logs, config files) holding a
//!   value in a natural position, and clean notes.
//!
//! A positive case is a carrier prefix, a value and a carrier suffix; the value occupies the byte
//! range `[a, b)` of the text. With the spans of `mask(text)`: FULL when every ASCII
//! alphanumeric and every non-ASCII letter or digit of the value is covered by a span, MISSED
//! when none is, PARTIAL otherwise. A negative text is CHANGED when `mask` returns any span.
//! Every text is also checked for idempotence (`mask(mask(t).text)` finds nothing).
//!
//! `corpora` prints a table per corpus, per category and per form with the first failing texts
//! of each failing form, and only then asserts the thresholds, so that one run shows all figures.

mod digits;
mod realistic;
mod secrets_pii;
mod util;
mod values;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Instant;

use pii_mask::mask;

/// One generated text: a positive (with the byte range of its value) or a negative.
pub struct Case {
    pub category: &'static str,
    pub form: String,
    pub text: String,
    pub value: Option<(usize, usize)>,
}

impl Case {
    pub fn positive(
        category: &'static str,
        form: &str,
        before: &str,
        value: &str,
        after: &str,
    ) -> Case {
        let a = before.len();
        Case {
            category,
            form: form.to_owned(),
            text: format!("{before}{value}{after}"),
            value: Some((a, a + value.len())),
        }
    }

    pub fn negative(category: &'static str, form: &str, text: String) -> Case {
        Case {
            category,
            form: form.to_owned(),
            text,
            value: None,
        }
    }
}

/// The thresholds a corpus must meet (percentages).
pub struct Limits {
    pub min_full: f64,
    pub max_partial: f64,
    pub max_changed: f64,
}

pub struct Corpus {
    pub name: &'static str,
    pub cases: Vec<Case>,
    pub limits: Limits,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Outcome {
    Full,
    Partial,
    Missed,
}

/// Characters of a value that must be covered: ASCII alphanumerics and non-ASCII letters or
/// digits (separators, punctuation and invisible characters may stay outside the spans).
fn counts(c: char) -> bool {
    c.is_ascii_alphanumeric() || (!c.is_ascii() && c.is_alphanumeric())
}

fn classify(text: &str, covered: &[bool], (a, b): (usize, usize)) -> Outcome {
    let (mut need, mut got) = (0usize, 0usize);
    for (i, c) in text[a..b].char_indices() {
        if counts(c) {
            need += 1;
            let at = a + i;
            if (at..at + c.len_utf8()).all(|k| covered.get(k).copied().unwrap_or(false)) {
                got += 1;
            }
        }
    }
    if got == need {
        Outcome::Full
    } else if got == 0 {
        Outcome::Missed
    } else {
        Outcome::Partial
    }
}

#[derive(Default)]
struct Stat {
    n: usize,
    full: usize,
    partial: usize,
    missed: usize,
    changed: usize,
    idem: usize,
    fails: Vec<String>,
}

impl Stat {
    fn pct(&self, k: usize) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            100.0 * k as f64 / self.n as f64
        }
    }
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// A window of `s` around `[from, to)`, escaped; long middles are cut.
fn excerpt(s: &str, from: usize, to: usize) -> String {
    const MARGIN: usize = 70;
    const LONG: usize = 220;
    let start = floor_boundary(s, from.saturating_sub(MARGIN));
    let end = ceil_boundary(s, to.saturating_add(MARGIN));
    let lead = if start > 0 { "…" } else { "" };
    let tail = if end < s.len() { "…" } else { "" };
    if end - start <= LONG + 2 * MARGIN {
        return format!("{lead}{:?}{tail}", &s[start..end]);
    }
    let cut1 = ceil_boundary(s, start + MARGIN + LONG / 2);
    let cut2 = floor_boundary(s, end - MARGIN - LONG / 2).max(cut1);
    format!(
        "{lead}{:?} ⋯({} bytes)⋯ {:?}{tail}",
        &s[start..cut1],
        cut2 - cut1,
        &s[cut2..end]
    )
}

/// Where an original byte offset lands in the masked text.
fn masked_offset(spans: &[pii_mask::Span], pos: usize) -> usize {
    let mut delta: isize = 0;
    for s in spans {
        let ph = s.category.placeholder().len() as isize;
        if s.end <= pos {
            delta += ph - (s.end - s.start) as isize;
        } else if s.start < pos {
            return (s.start as isize + delta).max(0) as usize;
        }
    }
    (pos as isize + delta).max(0) as usize
}

struct Report {
    positives: Stat,
    negatives: Stat,
    pos_by_category: BTreeMap<String, Stat>,
    neg_by_category: BTreeMap<String, Stat>,
    pos_by_form: BTreeMap<String, Stat>,
    neg_by_form: BTreeMap<String, Stat>,
}

fn evaluate(corpus: &Corpus) -> Report {
    let mut rep = Report {
        positives: Stat::default(),
        negatives: Stat::default(),
        pos_by_category: BTreeMap::new(),
        neg_by_category: BTreeMap::new(),
        pos_by_form: BTreeMap::new(),
        neg_by_form: BTreeMap::new(),
    };
    for case in &corpus.cases {
        let m = mask(&case.text);
        let again = mask(&m.text);
        let idem_bad = !again.spans.is_empty();
        let mut covered = vec![false; case.text.len()];
        for s in &m.spans {
            for k in s.start.min(covered.len())..s.end.min(covered.len()) {
                covered[k] = true;
            }
        }
        let (outcome, changed) = match case.value {
            Some(range) => (Some(classify(&case.text, &covered, range)), false),
            None => (None, !m.spans.is_empty()),
        };
        let failure = match (outcome, changed) {
            (Some(Outcome::Partial), _) | (Some(Outcome::Missed), _) => {
                let (a, b) = case.value.unwrap_or((0, 0));
                let label = if outcome == Some(Outcome::Partial) {
                    "PARTIAL"
                } else {
                    "MISSED"
                };
                Some(format!(
                    "{label} {}\n          -> {}",
                    excerpt(&case.text, a, b),
                    excerpt(
                        &m.text,
                        masked_offset(&m.spans, a),
                        masked_offset(&m.spans, b)
                    )
                ))
            }
            (None, true) => {
                let s = &m.spans[0];
                Some(format!(
                    "CHANGED {}\n          -> {}  spans {:?}",
                    excerpt(&case.text, s.start, s.end),
                    excerpt(
                        &m.text,
                        masked_offset(&m.spans, s.start),
                        masked_offset(&m.spans, s.end)
                    ),
                    m.spans
                        .iter()
                        .map(|s| (s.start, s.end, s.category.placeholder()))
                        .collect::<Vec<_>>()
                ))
            }
            _ if idem_bad => {
                let s = &again.spans[0];
                Some(format!(
                    "IDEMPOTENCE {}\n          second pass finds {:?}",
                    excerpt(&m.text, s.start, s.end),
                    again
                        .spans
                        .iter()
                        .map(|s| (s.start, s.end, s.category.placeholder()))
                        .collect::<Vec<_>>()
                ))
            }
            _ => None,
        };
        let (total, by_cat, by_form) = if case.value.is_some() {
            (
                &mut rep.positives,
                &mut rep.pos_by_category,
                &mut rep.pos_by_form,
            )
        } else {
            (
                &mut rep.negatives,
                &mut rep.neg_by_category,
                &mut rep.neg_by_form,
            )
        };
        let cat = by_cat.entry(case.category.to_owned()).or_default();
        let form = by_form.entry(case.form.clone()).or_default();
        for st in [total, cat, form] {
            st.n += 1;
            match outcome {
                Some(Outcome::Full) => st.full += 1,
                Some(Outcome::Partial) => st.partial += 1,
                Some(Outcome::Missed) => st.missed += 1,
                None => {}
            }
            if changed {
                st.changed += 1;
            }
            if idem_bad {
                st.idem += 1;
            }
            if let Some(f) = &failure
                && st.fails.len() < 3
            {
                st.fails.push(f.clone());
            }
        }
    }
    rep
}

fn positive_row(out: &mut String, name: &str, st: &Stat, examples: bool) {
    let _ = writeln!(
        out,
        "  {name:<34} {:>6} {:>8.2} {:>8.2} {:>8.2} {:>6}",
        st.n,
        st.pct(st.full),
        st.pct(st.partial),
        st.pct(st.missed),
        st.idem
    );
    if examples {
        for f in &st.fails {
            let _ = writeln!(out, "      {f}");
        }
    }
}

fn negative_row(out: &mut String, name: &str, st: &Stat, examples: bool) {
    let _ = writeln!(
        out,
        "  {name:<34} {:>6} {:>8.2} {:>6}",
        st.n,
        st.pct(st.changed),
        st.idem
    );
    if examples {
        for f in &st.fails {
            let _ = writeln!(out, "      {f}");
        }
    }
}

/// Prints the report and returns the broken thresholds.
fn render(corpus: &Corpus, rep: &Report, seconds: f64, out: &mut String) -> Vec<String> {
    let p = &rep.positives;
    let n = &rep.negatives;
    let _ = writeln!(
        out,
        "\n================ corpus \"{}\": {} positive values, {} negative texts ({:.2} s)",
        corpus.name, p.n, n.n, seconds
    );
    let _ = writeln!(
        out,
        "OVERALL positives: full {:.2} %  partial {:.2} %  missed {:.2} %   negatives: changed {:.2} %   idempotence violations: {}",
        p.pct(p.full),
        p.pct(p.partial),
        p.pct(p.missed),
        n.pct(n.changed),
        p.idem + n.idem
    );
    let _ = writeln!(
        out,
        "-- positives by category {:>17} {:>6} {:>8} {:>8} {:>8} {:>6}",
        "", "n", "full%", "partial%", "missed%", "idem"
    );
    for (k, st) in &rep.pos_by_category {
        positive_row(out, k, st, false);
    }
    let _ = writeln!(
        out,
        "-- positives by form {:>21} {:>6} {:>8} {:>8} {:>8} {:>6}",
        "", "n", "full%", "partial%", "missed%", "idem"
    );
    for (k, st) in &rep.pos_by_form {
        positive_row(out, k, st, true);
    }
    let _ = writeln!(
        out,
        "-- negatives by category {:>17} {:>6} {:>8} {:>6}",
        "", "n", "changed%", "idem"
    );
    for (k, st) in &rep.neg_by_category {
        negative_row(out, k, st, false);
    }
    let _ = writeln!(
        out,
        "-- negatives by form {:>21} {:>6} {:>8} {:>6}",
        "", "n", "changed%", "idem"
    );
    for (k, st) in &rep.neg_by_form {
        negative_row(out, k, st, true);
    }
    let l = &corpus.limits;
    let mut broken = Vec::new();
    let name = corpus.name;
    if p.pct(p.full) < l.min_full {
        broken.push(format!(
            "{name}: full {:.2} % < {:.2} %",
            p.pct(p.full),
            l.min_full
        ));
    }
    if p.pct(p.partial) > l.max_partial {
        broken.push(format!(
            "{name}: partial {:.2} % > {:.2} %",
            p.pct(p.partial),
            l.max_partial
        ));
    }
    if n.pct(n.changed) > l.max_changed {
        broken.push(format!(
            "{name}: negatives changed {:.2} % > {:.2} %",
            n.pct(n.changed),
            l.max_changed
        ));
    }
    if p.idem + n.idem > 0 {
        broken.push(format!(
            "{name}: {} idempotence violations",
            p.idem + n.idem
        ));
    }
    broken
}

/// With `CORPUS_SAMPLES=k` in the environment, the first `k` texts of every form are printed
/// (value marked with ⟦ ⟧), to review what the generators make.
fn print_samples(corpus: &Corpus, k: usize) {
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    let mut out = String::new();
    let _ = writeln!(out, "\n---------------- samples of \"{}\"", corpus.name);
    for case in &corpus.cases {
        let n = seen.entry(case.form.as_str()).or_default();
        if *n >= k {
            continue;
        }
        *n += 1;
        let shown = match case.value {
            Some((a, b)) => format!(
                "{}⟦{}⟧{}",
                &case.text[..a],
                &case.text[a..b],
                &case.text[b..]
            ),
            None => case.text.clone(),
        };
        let _ = writeln!(out, "  {:<34} {:?}", case.form, shown);
    }
    print!("{out}");
}

#[test]
fn corpora() {
    let started = Instant::now();
    let builders: [fn() -> Corpus; 3] = [secrets_pii::corpus, digits::corpus, realistic::corpus];
    let mut broken = Vec::new();
    let mut summary = String::new();
    for build in builders {
        let t0 = Instant::now();
        let corpus = build();
        let generated = t0.elapsed().as_secs_f64();
        if let Some(k) = std::env::var("CORPUS_SAMPLES")
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
        {
            print_samples(&corpus, k);
        }
        let t1 = Instant::now();
        let rep = evaluate(&corpus);
        let seconds = t1.elapsed().as_secs_f64();
        let mut out = String::new();
        broken.extend(render(&corpus, &rep, seconds, &mut out));
        print!("{out}");
        let _ = writeln!(
            summary,
            "  {:<20} positives {:>5}: full {:>6.2} % partial {:>5.2} % missed {:>6.2} % | negatives {:>5}: changed {:>5.2} % | idempotence {} | generated in {:.2} s, measured in {:.2} s",
            corpus.name,
            rep.positives.n,
            rep.positives.pct(rep.positives.full),
            rep.positives.pct(rep.positives.partial),
            rep.positives.pct(rep.positives.missed),
            rep.negatives.n,
            rep.negatives.pct(rep.negatives.changed),
            rep.positives.idem + rep.negatives.idem,
            generated,
            seconds
        );
    }
    println!(
        "\n================ summary ({:.2} s in all)\n{summary}",
        started.elapsed().as_secs_f64()
    );
    assert!(
        broken.is_empty(),
        "thresholds not met:\n  {}",
        broken.join("\n  ")
    );
}

/// The generators produce what their rules say: checksums, lengths, validity.
#[test]
fn generated_values_follow_their_rules() {
    use util::*;
    use values::*;

    // CRC-32 check value and GitHub's published construction (`ghp_` + 31 zeros + `4WZ4EQ`).
    assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    // A published sample (CredSweeper's test data) with a 31-character middle: the checksum covers
    // exactly what lies between the prefix and the last six characters.
    let zeros = "0".repeat(31);
    assert_eq!(base62_fixed(crc32(zeros.as_bytes()), 6), "4WZ4EQ");
    assert_eq!(base64(b"Man", B64_STD, true), "TWFu");
    assert_eq!(b64(b"Ma"), "TWE=");
    assert_eq!(b64url(&[0xfb, 0xff]), "-_8");
    assert!(il_id_valid("123456782"));
    assert!(luhn_valid("4111111111111111"));
    assert!(iban_valid("IL620108000000099999999"));

    let mut r = Rng::new(7);
    for _ in 0..500 {
        let t = github_classic(&mut r);
        assert_eq!(t.len(), 40, "{t}");
        let body = &t[4..34];
        assert_eq!(&t[34..], base62_fixed(crc32(body.as_bytes()), 6), "{t}");
        let t = npm(&mut r);
        assert_eq!(t.len(), 40, "{t}");
        assert_eq!(
            &t[34..],
            base62_fixed(crc32(&t.as_bytes()[4..34]), 6),
            "{t}"
        );
        let t = aws_key_id(&mut r);
        assert!(
            t.len() == 20 && t[4..].bytes().all(|b| BASE32_UPPER.as_bytes().contains(&b)),
            "{t}"
        );
        assert_eq!(google_api_key(&mut r).len(), 39);
        let t = github_fine_grained(&mut r);
        assert_eq!(t.len(), 93, "{t}");
        assert_eq!(gitlab_pat(&mut r).len(), 26);
        let t = anthropic(&mut r);
        let rest = t
            .strip_prefix("sk-ant-api03-")
            .or_else(|| t.strip_prefix("sk-ant-admin01-"))
            .unwrap_or("");
        assert!(rest.len() == 95 && rest.ends_with("AA"), "{t}");
        let t = openai_legacy(&mut r);
        assert!(t.len() == 51 && &t[23..31] == "T3BlbkFJ", "{t}");
        let t = openai_project(&mut r);
        assert!(t.contains("T3BlbkFJ") && t.ends_with('A'), "{t}");
        assert_eq!(huggingface(&mut r).len(), 37);
        assert!(pypi(&mut r).starts_with("pypi-AgEIcHlwaS5vcmcCJ"));
        assert_eq!(docker_pat(&mut r).len(), 36);
        assert_eq!(shopify(&mut r).len(), 38);
        assert_eq!(mailgun(&mut r).len(), 36);
        assert_eq!(digitalocean(&mut r).len(), 71);
        let t = telegram(&mut r);
        let (id, tok) = t.split_once(':').unwrap_or(("", ""));
        assert!(
            (8..=10).contains(&id.len()) && tok.len() == 35 && tok.starts_with("AA"),
            "{t}"
        );
        assert_eq!(groq(&mut r).len(), 56);
        let t = sendgrid(&mut r);
        assert_eq!(t.len(), 69, "{t}");
        let t = twilio_api_key(&mut r);
        assert_eq!(t.len(), 34);
        let t = slack_bot(&mut r);
        let parts: Vec<&str> = t.split('-').collect();
        assert!(
            parts.len() == 4 && (10..=13).contains(&parts[1].len()) && parts[3].len() == 24,
            "{t}"
        );
        let t = jwt_rs256(&mut r);
        let segs: Vec<&str> = t.split('.').collect();
        assert!(
            segs.len() == 3
                && segs[0].starts_with("eyJ")
                && segs[1].starts_with("eyJ")
                && segs[2].len() == 342,
            "{t}"
        );
        assert_eq!(jwt_hs256(&mut r).rsplit('.').next().map(str::len), Some(43));
        assert_eq!(jwt_es256(&mut r).rsplit('.').next().map(str::len), Some(86));
        let d = ssn_digits(&mut r);
        assert!(ssn_valid(&d), "{d}");
        let d = invalid_ssn_digits(&mut r);
        assert!(!ssn_valid(&d) && !il_id_valid(&d), "{d}");
        let ip = ipv4_public(&mut r);
        assert!(
            !ip.starts_with("127.") && !ip.starts_with("0.") && !ip.starts_with("10."),
            "{ip}"
        );
        for v6 in [
            ipv6_compressed(&mut r),
            ipv6_full(&mut r),
            ipv6_zone(&mut r),
            ipv6_embedded(&mut r),
        ] {
            let addr = v6.split('%').next().unwrap_or("");
            let groups = addr.split(':').count();
            assert!(groups <= 8 && addr != "::1" && addr != "::", "{v6}");
            if addr.contains("::") {
                assert!(groups <= 8 && addr.matches("::").count() == 1, "{v6}");
            } else if !addr.contains('.') {
                assert_eq!(groups, 8, "{v6}");
            }
        }
        assert!(il_id_valid(&il_id(&mut r)));
        assert!(luhn_valid(&card(&mut r)));
        assert!(iban_valid(&iban_il(&mut r)));
        for kind in PEM_KINDS {
            let lines = pem_lines(&mut r, kind.0);
            assert!(
                lines[0].starts_with("-----BEGIN ")
                    && lines[lines.len() - 1].starts_with("-----END "),
                "{kind:?}"
            );
        }
    }
    // A spot check of the corpora themselves: every positive value range lies inside its text.
    for build in [
        secrets_pii::corpus as fn() -> Corpus,
        digits::corpus,
        realistic::corpus,
    ] {
        let c = build();
        assert!(
            (2000..=12_000).contains(&c.cases.len()),
            "{} has {} cases",
            c.name,
            c.cases.len()
        );
        for case in &c.cases {
            if let Some((a, b)) = case.value {
                assert!(
                    a < b
                        && b <= case.text.len()
                        && case.text.is_char_boundary(a)
                        && case.text.is_char_boundary(b),
                    "{:?}",
                    case.text
                );
            }
        }
    }
}
