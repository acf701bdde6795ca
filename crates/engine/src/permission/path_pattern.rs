//! Path rules: gitignore-style patterns with the four anchors (`//` root, `~/` home, `/` the settings file's
//! project, otherwise the working directory), compiled into one glob set per list and tool family.

use std::path::{Path, PathBuf};

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

use super::rule::{RuleBehavior, RuleSource};
use super::rule_id::RuleId;
pub use crate::fsutil::normalise;
use crate::fsutil::under_home;

/// The directories rule anchors resolve against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Anchors {
    pub cwd: PathBuf,
    pub project_root: PathBuf,
    pub home: Option<PathBuf>,
}

/// Whether paths compare case-insensitively on this system.
pub const CASE_INSENSITIVE_FS: bool = cfg!(any(target_os = "macos", target_os = "windows"));

/// The path with symlinks resolved: the deepest existing ancestor canonicalised, the rest appended; a dangling
/// symlink is followed to where it points.
pub fn resolve_links(path: &Path) -> PathBuf {
    resolve_depth(path, 0)
}

fn resolve_depth(path: &Path, depth: u32) -> PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    if depth < 16
        && let Ok(meta) = std::fs::symlink_metadata(path)
        && meta.file_type().is_symlink()
        && let Ok(target) = std::fs::read_link(path)
    {
        let joined = match path.parent() {
            Some(parent) if target.is_relative() => parent.join(target),
            _ => target,
        };
        return resolve_depth(&normalise(&joined), depth + 1);
    }
    let mut rest = Vec::new();
    let mut cur = path.to_path_buf();
    while let Some(name) = cur.file_name().map(|n| n.to_os_string()) {
        cur.pop();
        rest.push(name);
        let base = if depth < 16
            && std::fs::symlink_metadata(&cur).is_ok_and(|m| m.file_type().is_symlink())
        {
            Some(resolve_depth(&cur, depth + 1))
        } else {
            std::fs::canonicalize(&cur).ok()
        };
        if let Some(mut base) = base {
            for part in rest.iter().rev() {
                base.push(part);
            }
            return base;
        }
    }
    path.to_path_buf()
}

fn escape(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        match c {
            '*' | '?' | '[' | ']' | '{' | '}' | '\\' => {
                out.push('[');
                out.push(c);
                out.push(']');
            }
            _ => out.push(c),
        }
    }
    out
}

/// The directory a `/path` pattern is relative to, for rules from `source`.
fn settings_anchor(source: &RuleSource, anchors: &Anchors) -> PathBuf {
    match source {
        RuleSource::User(_) => anchors
            .home
            .as_ref()
            .map(|h| h.join(".claude"))
            .unwrap_or_else(|| anchors.project_root.clone()),
        _ => anchors.project_root.clone(),
    }
}

/// The absolute glob a path pattern stands for, or `None` when it cannot be anchored (no home directory).
pub fn absolute_glob(
    pattern: &str,
    source: &RuleSource,
    behavior: RuleBehavior,
    anchors: &Anchors,
) -> Option<String> {
    let (base, rest): (PathBuf, &str) = if let Some(rest) = pattern.strip_prefix("//") {
        (PathBuf::from("/"), rest)
    } else if let Some(rest) = under_home(pattern) {
        (anchors.home.clone()?, rest)
    } else if let Some(rest) = pattern.strip_prefix('/') {
        (settings_anchor(source, anchors), rest)
    } else if let Some(rest) = pattern.strip_prefix("./") {
        (anchors.cwd.clone(), rest)
    } else {
        (anchors.cwd.clone(), pattern)
    };
    let rest = rest.trim_start_matches('/');
    let dir_only = rest.ends_with('/');
    let rest = rest.trim_end_matches('/');
    let base = escape(base.to_string_lossy().trim_end_matches('/'));
    if rest.is_empty() {
        return Some(format!("{base}/**"));
    }
    let one_segment_dir = rest
        .strip_suffix("/**")
        .filter(|seg| !seg.contains('/') && !seg.is_empty());
    let mut glob = if !rest.contains('/') {
        format!("{base}/**/{rest}")
    } else if let (Some(seg), true) = (one_segment_dir, behavior != RuleBehavior::Allow) {
        format!("{base}/**/{seg}/**")
    } else {
        format!("{base}/{rest}")
    };
    if dir_only {
        glob.push_str("/**");
    }
    Some(glob)
}

/// The folder every path `glob` (absolute) matches lies in: its segments before the first one holding a wildcard or
/// an escape.
fn literal_prefix(glob: &str) -> PathBuf {
    let mut out = PathBuf::from("/");
    for segment in glob.split('/').filter(|s| !s.is_empty()) {
        if segment.contains(['*', '?', '[', '{', '\\']) {
            break;
        }
        out.push(segment);
    }
    out
}

/// The path rules of one list for one tool family, as a glob set.
#[derive(Debug, Clone)]
pub struct PathIndex {
    set: GlobSet,
    ids: Vec<RuleId>,
    /// Per rule, the folder every path its glob matches lies in (the glob's segments before its first wildcard).
    prefixes: Vec<PathBuf>,
}

impl PathIndex {
    /// Builds the index from `(rule id, absolute glob)` pairs; globs that fail to compile are returned.
    pub fn build(globs: Vec<(RuleId, String)>) -> (Self, Vec<(RuleId, String)>) {
        let mut builder = GlobSetBuilder::new();
        let mut ids = Vec::new();
        let mut prefixes = Vec::new();
        let mut failed = Vec::new();
        for (id, glob) in globs {
            match GlobBuilder::new(&glob)
                .literal_separator(true)
                .case_insensitive(CASE_INSENSITIVE_FS)
                .backslash_escape(true)
                .build()
            {
                Ok(g) => {
                    builder.add(g);
                    ids.push(id);
                    prefixes.push(literal_prefix(&glob));
                }
                Err(e) => failed.push((id, e.to_string())),
            }
        }
        let set = builder.build().unwrap_or_else(|_| GlobSet::empty());
        (Self { set, ids, prefixes }, failed)
    }

    /// Each rule with the folder every path it matches lies in.
    pub fn prefixes(&self) -> impl Iterator<Item = (RuleId, &Path)> {
        self.ids
            .iter()
            .copied()
            .zip(self.prefixes.iter().map(PathBuf::as_path))
    }

    /// The first rule matching `path` or one of its ancestors (gitignore semantics: a matched directory covers
    /// everything inside it).
    pub fn first_match(&self, path: &Path) -> Option<RuleId> {
        if self.ids.is_empty() {
            return None;
        }
        let mut best: Option<RuleId> = None;
        let mut cur = Some(path);
        while let Some(p) = cur {
            if p.parent().is_none() {
                break;
            }
            for i in self.set.matches(p) {
                let id = self.ids[i];
                best = Some(best.map_or(id, |b| b.min(id)));
            }
            cur = p.parent();
        }
        best
    }
}
