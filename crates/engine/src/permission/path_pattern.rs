//! Path rules: gitignore-style patterns with the four anchors (`//` root, `~/` home, `/` the settings file's
//! project, otherwise the working directory), compiled into one glob set per list and tool family.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};

use super::links_memo::{canonical, is_link};
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
    if let Some(p) = canonical(path) {
        return p;
    }
    if depth < 16
        && is_link(path)
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
        let base = if depth < 16 && is_link(&cur) {
            Some(resolve_depth(&cur, depth + 1))
        } else {
            canonical(&cur)
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
    /// Those folders, each once: a path none of them holds matches no rule, and is not matched against the globs.
    folders: HashSet<PathBuf>,
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
        let folders = prefixes.iter().cloned().collect();
        (
            Self {
                matcher,
                ids,
                prefixes,
                folders,
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
        if self.outside_every_folder(path) {
            return None;
        }
        self.glob_match(path)
    }

    /// Whether `path` is known to match no compiled glob without matching it: every path a glob matches (and so
    /// every path below one) lies in the glob's folder, so on a file system that compares names exactly an absolute
    /// path none of whose ancestors is such a folder matches none. Globs match names as written (links are resolved
    /// by the caller, which asks about each form of a path), so the test is exact for every anchor.
    fn outside_every_folder(&self, path: &Path) -> bool {
        !CASE_INSENSITIVE_FS
            && path.is_absolute()
            && !path.ancestors().any(|a| self.folders.contains(a))
    }

    /// The first compiled rule matching `path` or one of its ancestors, every glob matched.
    fn glob_match(&self, path: &Path) -> Option<RuleId> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Patterns with every anchor (the working directory, `./`, `/` the project, `~/`, `//` the root), wildcards
    /// early and late, a folder with glob characters in its name, and `..` and `.` spelled in the pattern.
    const PATTERNS: &[&str] = &[
        "src/**",
        "./build/",
        "*.env",
        ".env",
        "/secrets/**",
        "/docs/*.md",
        "~/.ssh/**",
        "~",
        "//etc/passwd",
        "//var/**/log/*",
        "//**/id_rsa",
        "//opt/we[i]rd/**",
        "//tmp/a{b,c}/x",
        "//srv/../srv/x/**",
        "//srv/./y/**",
        "node_modules/**",
    ];

    /// Paths in, beside and outside every rule's folder: absolute, relative, with doubled slashes, `.` and `..`.
    const PATHS: &[&str] = &[
        "/work/proj/src/main.rs",
        "/work/proj/sub/src/lib.rs",
        "/work/proj/build/out.o",
        "/work/proj/.env",
        "/work/proj/deep/x/prod.env",
        "/work/proj/secrets/key",
        "/work/proj/docs/a.md",
        "/work/proj/docs/sub/a.md",
        "/home/me/.ssh/id_ed25519",
        "/home/me/notes.txt",
        "/home/me",
        "/etc/passwd",
        "/etc/passwd/x",
        "/etc/shadow",
        "/var/lib/log/syslog",
        "/var/log/syslog",
        "/root/.ssh/id_rsa",
        "/opt/weird/file",
        "/opt/we[i]rd/file",
        "/tmp/ab/x",
        "/tmp/ac/x",
        "/srv/../srv/x/f",
        "/srv/x/f",
        "/srv/./y/f",
        "/srv/y/f",
        "/work/proj//src/main.rs",
        "/work/proj/./src/main.rs",
        "/work/other/src/main.rs",
        "/usr/bin/ls",
        "/",
        "src/main.rs",
        "proj/.env",
        "",
    ];

    fn index(behavior: RuleBehavior) -> PathIndex {
        let anchors = Anchors {
            cwd: PathBuf::from("/work/proj"),
            project_root: PathBuf::from("/work/proj"),
            home: Some(PathBuf::from("/home/me")),
        };
        let source = RuleSource::Project(PathBuf::from("/work/proj/.claude/settings.json"));
        let globs = PATTERNS
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let glob = absolute_glob(p, &source, behavior, &anchors).ok_or("no home".into());
                (RuleId::at(i), glob)
            })
            .collect();
        let (index, failed) = PathIndex::build(globs, behavior != RuleBehavior::Allow);
        assert!(failed.is_empty(), "{failed:?}");
        index
    }

    #[test]
    fn skipping_paths_outside_every_rules_folder_never_changes_a_match() {
        for behavior in [RuleBehavior::Allow, RuleBehavior::Deny] {
            let index = index(behavior);
            let mut matched = 0;
            for path in PATHS {
                let path = Path::new(path);
                let found = index.first_compiled(path);
                assert_eq!(
                    found,
                    index.glob_match(path),
                    "{behavior:?} {}",
                    path.display()
                );
                matched += usize::from(found.is_some());
            }
            // The table exercises matches, not only misses.
            assert!(
                matched >= PATHS.len() / 2,
                "{behavior:?}: {matched} matched"
            );
        }
    }

    #[test]
    fn the_skip_applies_to_absolute_paths_outside_every_folder_only() {
        // `//**/id_rsa` makes the root a rule's folder: no absolute path is skipped.
        let wide = index(RuleBehavior::Deny);
        let globs: Vec<_> = ["/work/proj/src/**", "/home/me/.ssh/**", "/etc/passwd"]
            .iter()
            .enumerate()
            .map(|(i, g)| (RuleId::at(i), Ok((*g).to_string())))
            .collect();
        let (narrow, _) = PathIndex::build(globs, true);
        let cases: &[(&str, bool)] = &[
            ("/usr/bin/ls", true),
            ("/work/other/src/main.rs", true),
            ("/home/you/.ssh/id_rsa", true),
            ("/work/proj/srcs/main.rs", true),
            ("/work/proj/src/main.rs", false),
            ("/work/proj//src/main.rs", false),
            ("/work/proj/src", false),
            ("/home/me/.ssh/id_rsa", false),
            ("/etc/passwd", false),
            ("/etc/passwd/x", false),
            ("src/main.rs", false),
            ("", false),
        ];
        for (path, outside) in cases {
            let path = Path::new(path);
            assert!(!wide.outside_every_folder(path), "{}", path.display());
            assert_eq!(
                narrow.outside_every_folder(path),
                *outside && !CASE_INSENSITIVE_FS,
                "{}",
                path.display()
            );
            assert_eq!(narrow.first_compiled(path), narrow.glob_match(path));
        }
        // Case differs: on a system that compares names without case, the globs decide.
        let upper = Path::new("/WORK/proj/src/main.rs");
        assert_eq!(narrow.outside_every_folder(upper), !CASE_INSENSITIVE_FS);
        assert_eq!(narrow.first_compiled(upper), narrow.glob_match(upper));
    }
}
