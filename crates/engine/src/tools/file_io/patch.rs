//! The structured patch a file change carries for the UI's diff: unified-diff hunks (from `similar`) with line
//! numbers of the whole file, computed only over the changed region so that a small edit of a huge file is cheap.

use std::time::Duration;

use similar::{ChangeTag, TextDiff};

/// Lines of context around each change.
const CONTEXT: usize = 3;

/// One hunk: `lines` are prefixed with `' '`, `'-'` or `'+'`, without their line endings.
pub type Hunk = tandem_protocol::DiffHunk;

/// Start of the line holding byte `at`, after walking back `extra` more lines.
fn line_start(text: &str, at: usize, extra: usize) -> usize {
    let mut pos = at;
    for _ in 0..=extra {
        match memchr::memrchr(b'\n', &text.as_bytes()[..pos]) {
            Some(nl) => pos = nl,
            None => return 0,
        }
    }
    pos + 1
}

/// End (after the newline) of the line holding byte `at`, walking on `extra` more lines.
fn line_end(text: &str, at: usize, extra: usize) -> usize {
    let mut pos = at;
    for _ in 0..=extra {
        match memchr::memchr(b'\n', &text.as_bytes()[pos.min(text.len())..]) {
            Some(nl) => pos = pos + nl + 1,
            None => return text.len(),
        }
    }
    pos
}

/// The hunks turning `old` into `new`, where everything before `changed.start` and after `changed.end` (byte
/// offsets in `old`) is the same in both.
pub fn hunks(old: &str, new: &str, changed: std::ops::Range<usize>) -> Vec<Hunk> {
    let start = line_start(old, changed.start.min(old.len()), CONTEXT);
    let old_end = line_end(old, changed.end.min(old.len()), CONTEXT);
    let tail = old.len() - old_end;
    let new_end = new.len().saturating_sub(tail).max(start);
    let (Some(old_region), Some(new_region)) = (old.get(start..old_end), new.get(start..new_end))
    else {
        return hunks_of(old, new, 0);
    };
    let base = memchr::memchr_iter(b'\n', &old.as_bytes()[..start]).count();
    hunks_of(old_region, new_region, base)
}

/// The hunks between two whole texts whose first line is line `base + 1`.
pub fn hunks_of(old: &str, new: &str, base: usize) -> Vec<Hunk> {
    let diff = TextDiff::configure()
        .timeout(Duration::from_millis(500))
        .diff_lines(old, new);
    let mut out = Vec::new();
    for group in diff.grouped_ops(CONTEXT) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        let old_range = first.old_range().start..last.old_range().end;
        let new_range = first.new_range().start..last.new_range().end;
        let mut lines = Vec::new();
        for op in &group {
            for change in diff.iter_changes(op) {
                let sign = match change.tag() {
                    ChangeTag::Equal => ' ',
                    ChangeTag::Delete => '-',
                    ChangeTag::Insert => '+',
                };
                let value = change.value();
                let value = value.strip_suffix('\n').unwrap_or(value);
                let value = value.strip_suffix('\r').unwrap_or(value);
                lines.push(format!("{sign}{value}"));
            }
        }
        out.push(Hunk {
            old_start: base + old_range.start + 1,
            old_lines: old_range.len(),
            new_start: base + new_range.start + 1,
            new_lines: new_range.len(),
            lines,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunks_carry_whole_file_line_numbers() {
        let old: String = (1..=20).map(|i| format!("line {i}\n")).collect();
        let new = old.replace("line 10\n", "line ten\n");
        let at = old.find("line 10").expect("present");
        let h = hunks(&old, &new, at..at + 8);
        assert_eq!(h.len(), 1);
        assert_eq!(h[0].old_start, 7);
        assert_eq!(h[0].old_lines, 7);
        assert!(h[0].lines.contains(&"-line 10".to_string()));
        assert!(h[0].lines.contains(&"+line ten".to_string()));
        assert_eq!(hunks_of(&old, &new, 0), h);
    }
}
