//! The memory tool's texts: sizes, numbered lines, occurrences, insertion, the directory
//! listing and the `view` of a file, exactly as the reference implementation prints them.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use memory_core::StoreMemoryMetadata;

/// Width of a line number in `view` and snippets.
const LINE_NUMBER_WIDTH: usize = 6;

/// A human-readable size as the reference implementation prints it: `0B`, `512B`, `5.5K`, `1M`.
pub(crate) fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["B", "K", "M", "G"];
    if bytes == 0 {
        return "0B".to_owned();
    }
    let mut size = bytes as f64;
    let mut unit = 0;
    while size >= 1024.0 && unit < UNITS.len() - 1 {
        size /= 1024.0;
        unit += 1;
    }
    if size.fract() == 0.0 {
        format!("{}{}", size as u64, UNITS[unit])
    } else {
        format!("{size:.1}{}", UNITS[unit])
    }
}

/// The lines of `content` as `view` numbers them: a final line break ends the last line rather
/// than starting an empty one, and the empty file has no lines.
pub(super) fn lines_of(content: &str) -> Vec<&str> {
    content
        .split_inclusive('\n')
        .map(|l| l.strip_suffix('\n').unwrap_or(l))
        .collect()
}

pub(super) fn numbered(lines: &[&str], first_number: usize) -> String {
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let _ = write!(
            out,
            "{:>width$}\t{line}",
            first_number + i,
            width = LINE_NUMBER_WIDTH
        );
    }
    out
}

/// The 1-based line of byte `offset` in `content`.
pub(super) fn line_at(content: &str, offset: usize) -> usize {
    content.as_bytes()[..offset]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// Start offsets of every occurrence of `needle` in `haystack`, overlapping ones included.
pub(super) fn occurrences(haystack: &str, needle: &str) -> Vec<usize> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(i) = haystack[from..].find(needle) {
        let at = from + i;
        found.push(at);
        from = at + haystack[at..].chars().next().map_or(1, char::len_utf8);
        if from > haystack.len() {
            break;
        }
    }
    found
}

/// `insert_text` placed after line `after` (0 = the beginning) of `content`; `None` when `after`
/// is past the last line. Line breaks are added where the text or the content lacks one, so the
/// inserted text always forms whole lines.
pub(super) fn insert_after(content: &str, after: usize, text: &str) -> Option<String> {
    let lines: Vec<&str> = content.split_inclusive('\n').collect();
    if after > lines.len() {
        return None;
    }
    let before = lines[..after].concat();
    let rest = lines[after..].concat();
    let mut out = String::with_capacity(content.len() + text.len() + 2);
    out.push_str(&before);
    if !before.is_empty() && !before.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(text);
    if !rest.is_empty() && !text.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&rest);
    Some(out)
}

/// A directory tree of implicit directories and files, sizes summed upwards.
#[derive(Default)]
pub(super) struct Tree {
    pub(super) size: u64,
    pub(super) file: bool,
    pub(super) children: BTreeMap<String, Tree>,
}

impl Tree {
    pub(super) fn add(&mut self, segments: &[&str], size: u64) {
        self.size += size;
        match segments.split_first() {
            None => self.file = true,
            Some((first, rest)) => self
                .children
                .entry((*first).to_owned())
                .or_default()
                .add(rest, size),
        }
    }

    pub(super) fn of(memories: &[StoreMemoryMetadata], skip: usize) -> Tree {
        let mut tree = Tree::default();
        for m in memories {
            let segments: Vec<&str> = m.path.segments().skip(skip).collect();
            tree.add(&segments, m.content_size_bytes);
        }
        tree
    }

    /// Lines `size\tpath` for the entries up to `levels` deep, depth first, by name; hidden
    /// entries (a leading `.`) and `node_modules` are left out.
    pub(super) fn lines(&self, display: &str, levels: usize, out: &mut Vec<String>) {
        if levels == 0 {
            return;
        }
        for (name, child) in &self.children {
            if name.starts_with('.') || name == "node_modules" {
                continue;
            }
            let path = format!("{display}/{name}");
            let suffix = if child.file { "" } else { "/" };
            out.push(format!("{}\t{path}{suffix}", human_size(child.size)));
            if !child.file {
                child.lines(&path, levels - 1, out);
            }
        }
    }
}

pub(super) fn listing(display: &str, tree: &Tree) -> String {
    let mut lines = vec![format!("{}\t{display}", human_size(tree.size))];
    tree.lines(display, 2, &mut lines);
    format!(
        "Here're the files and directories up to 2 levels deep in {display}, excluding hidden items and node_modules:\n{}",
        lines.join("\n")
    )
}

/// The path as the agent wrote it, without trailing slashes (listing lines append `/name`).
pub(super) fn display_path(path: &str) -> &str {
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() { path } else { trimmed }
}

/// The `view` text of a file: the header, then numbered lines (all, or `view_range` =
/// `[start, end]`, 1-based and inclusive, `end` = -1 for the last line).
pub(super) fn view_file(path: &str, content: &str, view_range: Option<&[i64]>) -> String {
    let lines = lines_of(content);
    let (from, to) = match view_range {
        Some([start, end]) => {
            let from = usize::try_from((*start).max(1)).unwrap_or(1);
            let to = if *end < 0 {
                lines.len()
            } else {
                usize::try_from(*end).unwrap_or(0).min(lines.len())
            };
            (from, to)
        }
        _ => (1, lines.len()),
    };
    let body = if from <= to && from >= 1 {
        numbered(&lines[from - 1..to], from)
    } else {
        String::new()
    };
    format!("Here's the content of {path} with line numbers:\n{body}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_like_the_reference() {
        assert_eq!(human_size(0), "0B");
        assert_eq!(human_size(512), "512B");
        assert_eq!(human_size(1024), "1K");
        assert_eq!(human_size(5632), "5.5K");
        assert_eq!(human_size(1024 * 1024), "1M");
    }

    #[test]
    fn view_numbers_lines_six_wide() {
        assert_eq!(
            view_file("/memories/a", "x\ny\n", None),
            "Here's the content of /memories/a with line numbers:\n     1\tx\n     2\ty"
        );
        assert_eq!(
            view_file("/memories/a", "a\nb\nc", Some(&[2, -1])),
            "Here's the content of /memories/a with line numbers:\n     2\tb\n     3\tc"
        );
    }

    #[test]
    fn insert_forms_whole_lines() {
        assert_eq!(insert_after("a\nb\n", 0, "x").unwrap(), "x\na\nb\n");
        assert_eq!(insert_after("a\nb\n", 1, "x\n").unwrap(), "a\nx\nb\n");
        assert_eq!(insert_after("a\nb", 2, "x").unwrap(), "a\nb\nx");
        assert_eq!(insert_after("", 0, "x").unwrap(), "x");
        assert_eq!(insert_after("a\n", 2, "x"), None);
    }

    #[test]
    fn occurrences_overlap_and_respect_char_boundaries() {
        assert_eq!(occurrences("aaa", "aa"), vec![0, 1]);
        assert_eq!(occurrences("ééé", "é"), vec![0, 2, 4]);
        assert_eq!(occurrences("abc", "x"), Vec::<usize>::new());
    }
}
