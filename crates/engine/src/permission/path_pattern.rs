//! Path rules: gitignore-style patterns with the four anchors (`//` root, `~/` home, `/` the settings file's
//! project, otherwise the working directory), compiled into one glob set per list and tool family.

use std::path::{Path, PathBuf};

use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};

use super::rule::{RuleBehavior, RuleSource};
use super::rule_id::RuleId;
pub use crate::fsutil::normalise;

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
    } else if pattern == "~" || pattern.starts_with("~/") {
        (anchors.home.clone()?, pattern.get(2..).unwrap_or(""))
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

/// How the compiled globs of an index are matched.
#[derive(Debug, Clone)]
enum Matcher {
    /// All of them as one set (the usual case).
    One(GlobSet),
    /// One set per glob, in the order of the ids: the globs could not be combined into one set (together they
    /// exceed what the matcher may build), so each is matched on its own rather than dropped.
    Each(Vec<GlobSet>),
}

/// The path rules of one list for one tool family, as a glob set, with the rules whose pattern cannot be compiled.
#[derive(Debug, Clone)]
pub struct PathIndex {
    matcher: Matcher,
    ids: Vec<RuleId>,
    /// Per rule, the folder every path its glob matches lies in (the glob's segments before its first wildcard).
    prefixes: Vec<PathBuf>,
    /// Deny and ask rules whose pattern cannot be compiled, each with the folder its pattern names before anything
    /// that could be a wildcard: every path there may be one it was written for.
    broken: Vec<(RuleId, PathBuf)>,
}

fn compile(glob: &str) -> Result<Glob, String> {
    GlobBuilder::new(glob)
        .literal_separator(true)
        .case_insensitive(CASE_INSENSITIVE_FS)
        .backslash_escape(true)
        .build()
        .map_err(|e| e.to_string())
}

fn one_set(glob: Glob) -> Result<GlobSet, String> {
    let mut builder = GlobSetBuilder::new();
    builder.add(glob);
    builder.build().map_err(|e| e.to_string())
}

impl PathIndex {
    /// Builds the index from `(rule id, absolute glob, or why the rule has none)`. Returns the rules that cannot be
    /// compiled, each with why; with `keep_broken` (deny and ask lists) they stay in the index and match every path
    /// under the folder their pattern names before its first wildcard, so that what they might cover asks rather
    /// than running as if they were not there.
    pub fn build(
        globs: Vec<(RuleId, Result<String, String>)>,
        keep_broken: bool,
    ) -> (Self, Vec<(RuleId, String)>) {
        let mut compiled: Vec<(RuleId, Glob, PathBuf)> = Vec::new();
        let mut failed = Vec::new();
        let mut broken = Vec::new();
        for (id, glob) in globs {
            let (prefix, result) = match glob {
                Ok(glob) => (literal_prefix(&glob), compile(&glob)),
                Err(why) => (PathBuf::from("/"), Err(why)),
            };
            match result {
                Ok(g) => compiled.push((id, g, prefix)),
                Err(why) => {
                    failed.push((id, why));
                    broken.push((id, prefix));
                }
            }
        }
        let mut builder = GlobSetBuilder::new();
        for (_, g, _) in &compiled {
            builder.add(g.clone());
        }
        let (matcher, ids, prefixes) = match builder.build() {
            Ok(set) => {
                let (ids, prefixes) = compiled.into_iter().map(|(id, _, p)| (id, p)).unzip();
                (Matcher::One(set), ids, prefixes)
            }
            Err(_) => {
                let mut sets = Vec::new();
                let mut ids = Vec::new();
                let mut prefixes = Vec::new();
                for (id, g, prefix) in compiled {
                    match one_set(g) {
                        Ok(set) => {
                            sets.push(set);
                            ids.push(id);
                            prefixes.push(prefix);
                        }
                        Err(why) => {
                            failed.push((id, why));
                            broken.push((id, prefix));
                        }
                    }
                }
                (Matcher::Each(sets), ids, prefixes)
            }
        };
        if !keep_broken {
            broken.clear();
        }
        (
            Self {
                matcher,
                ids,
                prefixes,
                broken,
            },
            failed,
        )
    }

    /// Each rule with the folder every path it matches lies in.
    pub fn prefixes(&self) -> impl Iterator<Item = (RuleId, &Path)> {
        self.ids
            .iter()
            .copied()
            .zip(self.prefixes.iter().map(PathBuf::as_path))
            .chain(self.broken.iter().map(|(id, p)| (*id, p.as_path())))
    }

    /// The first rule matching `path` or one of its ancestors (gitignore semantics: a matched directory covers
    /// everything inside it); only when none does, the first rule that cannot be compiled whose folder holds
    /// `path`.
    pub fn first_match(&self, path: &Path) -> Option<RuleId> {
        self.first_compiled(path).or_else(|| {
            self.broken
                .iter()
                .filter(|(_, prefix)| path.starts_with(prefix))
                .map(|(id, _)| *id)
                .min()
        })
    }

    fn first_compiled(&self, path: &Path) -> Option<RuleId> {
        if self.ids.is_empty() {
            return None;
        }
        let mut best: Option<RuleId> = None;
        let mut cur = Some(path);
        while let Some(p) = cur {
            if p.parent().is_none() {
                break;
            }
            match &self.matcher {
                Matcher::One(set) => {
                    for i in set.matches(p) {
                        let id = self.ids[i];
                        best = Some(best.map_or(id, |b| b.min(id)));
                    }
                }
                Matcher::Each(sets) => {
                    for (set, id) in sets.iter().zip(&self.ids) {
                        if set.is_match(p) {
                            best = Some(best.map_or(*id, |b| b.min(*id)));
                        }
                    }
                }
            }
            cur = p.parent();
        }
        best
    }
}
