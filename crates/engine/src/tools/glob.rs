//! The Glob tool: finds files by glob pattern (`globset`), walking with the `ignore` crate so that .gitignore,
//! .ignore and .fdignore rules and the hidden-file rule apply, as they do for `fd`. Results are the newest first,
//! capped, with paths relative to the working directory.

use std::collections::BinaryHeap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use ignore::{WalkBuilder, WalkState};
use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolDetail};
use tokio_util::sync::CancellationToken;

use crate::permission::PermissionSubject;
use crate::tool::names;
use crate::tool::{InterruptBehavior, ReadDenied, Tool, ToolContext, ToolError, ToolOutput};
use crate::tools::file_io::paths;
use crate::tools::file_io::unreadable::Unreadable;
use crate::tools::responses::{self, GlobResponse};

/// Files listed at most.
pub const MAX_RESULTS: usize = 100;

/// Finds files by name pattern.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GlobInput {
    /// The glob pattern, e.g. "**/*.rs" or "src/**/*.{ts,tsx}". A pattern without "/" matches file names at
    /// any depth.
    pub pattern: String,
    /// The folder to search in (default: the working directory).
    pub path: Option<String>,
}

/// The Glob tool.
#[derive(Debug, Default)]
pub struct GlobTool;

/// The longest glob pattern accepted, in characters: far beyond any real pattern, and short enough that its
/// compiled form stays small.
pub const MAX_PATTERN_CHARS: usize = 4096;

/// A compiled glob: against the file name when the pattern has no `/`, else against the path below the base.
#[derive(Debug, Clone)]
pub struct NameGlob {
    /// A set of this one glob: building a set reports a pattern too large to compile, where a single glob's
    /// matcher would panic.
    matcher: GlobSet,
    whole_path: bool,
}

impl NameGlob {
    /// Compiles `pattern` (gitignore-like: without `/` it matches names at any depth).
    pub fn new(pattern: &str) -> Result<Self, String> {
        let chars = pattern.chars().count();
        if chars > MAX_PATTERN_CHARS {
            return Err(format!(
                "The glob pattern is {chars} characters long; at most {MAX_PATTERN_CHARS} are accepted."
            ));
        }
        let pattern = pattern.strip_prefix("./").unwrap_or(pattern);
        let whole_path = pattern.contains('/');
        let glob = GlobBuilder::new(pattern)
            .literal_separator(whole_path)
            .backslash_escape(true)
            .build()
            .map_err(|e| format!("invalid glob pattern: {e}"))?;
        let matcher = GlobSetBuilder::new().add(glob).build().map_err(|_| {
            "The glob pattern is too complex to match; give a simpler one.".to_string()
        })?;
        Ok(Self {
            matcher,
            whole_path,
        })
    }

    /// Whether the file at `rel` (relative to the base) matches.
    pub fn is_match(&self, rel: &Path) -> bool {
        if self.whole_path {
            self.matcher.is_match(rel)
        } else {
            rel.file_name().is_some_and(|n| self.matcher.is_match(n))
        }
    }
}

/// Splits an absolute pattern into its literal folder prefix and the rest.
fn split_absolute(pattern: &str) -> (PathBuf, String) {
    let mut base = PathBuf::from("/");
    let parts: Vec<&str> = pattern.trim_start_matches('/').split('/').collect();
    let mut literal = 0;
    while literal + 1 < parts.len() && !parts[literal].contains(['*', '?', '[', '{']) {
        base.push(parts[literal]);
        literal += 1;
    }
    let parts = &parts[literal..];
    (base, parts.join("/"))
}

/// The modification time of a walked file; the epoch when it cannot be read (the file went away meanwhile).
#[cfg(unix)]
fn mtime_of(entry: &ignore::DirEntry) -> SystemTime {
    crate::fsutil::dir_stat::mtime(entry.path()).unwrap_or(SystemTime::UNIX_EPOCH)
}

#[cfg(not(unix))]
fn mtime_of(entry: &ignore::DirEntry) -> SystemTime {
    entry
        .metadata()
        .ok()
        .and_then(|m| m.modified().ok())
        .unwrap_or(SystemTime::UNIX_EPOCH)
}

/// A file found, ranked by modification time (the newest first, then by path).
#[derive(Debug, PartialEq, Eq)]
struct Ranked {
    mtime: SystemTime,
    path: PathBuf,
}

/// Whether a file at `path` modified at `mtime` ranks before `other`.
fn ranks_before(mtime: SystemTime, path: &Path, other: &Ranked) -> bool {
    mtime > other.mtime || (mtime == other.mtime && path < other.path.as_path())
}

impl Ord for Ranked {
    /// Earlier ranks first: `Less` for the newer file.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other
            .mtime
            .cmp(&self.mtime)
            .then_with(|| self.path.cmp(&other.path))
    }
}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// The files found so far: how many, and the `keep` that rank first (the one ranking last on top of the heap).
#[derive(Debug, Default)]
struct Newest {
    total: usize,
    keep: usize,
    heap: BinaryHeap<Ranked>,
}

impl Newest {
    fn offer(&mut self, path: &Path, mtime: SystemTime) {
        self.total += 1;
        if self.heap.len() < self.keep {
            self.heap.push(Ranked {
                mtime,
                path: path.to_path_buf(),
            });
        } else if self
            .heap
            .peek()
            .is_some_and(|last| ranks_before(mtime, path, last))
        {
            self.heap.pop();
            self.heap.push(Ranked {
                mtime,
                path: path.to_path_buf(),
            });
        }
    }
}

/// The files under `base` matching `glob` (the walk honours ignore files and skips hidden files), leaving out what
/// `denied` forbids reading (a denied folder is not entered): how many, the `keep` most recently modified with their
/// modification times, the newest first (then by path), and how many files and folders were left out; folders that
/// could not be listed go to `unreadable`. The walking threads take each file as they list its folder — match,
/// modification time, rank — so files never go through the walk's work queue, no second pass reads their metadata,
/// and only the files ranking first are kept.
pub fn find_files(
    base: &Path,
    glob: &NameGlob,
    keep: usize,
    cancel: &CancellationToken,
    denied: Option<ReadDenied>,
    unreadable: &Unreadable,
) -> (usize, Vec<(PathBuf, SystemTime)>, usize) {
    let found = Arc::new(Mutex::new(Newest {
        keep,
        ..Newest::default()
    }));
    let skipped = Arc::new(AtomicUsize::new(0));
    let (sink, glob, root, cancel, left_out) = (
        found.clone(),
        glob.clone(),
        base.to_path_buf(),
        cancel.clone(),
        skipped.clone(),
    );
    let walker = WalkBuilder::new(base)
        .add_custom_ignore_filename(".fdignore")
        .threads(2)
        .filter_entry(move |entry| {
            if cancel.is_cancelled() {
                return false;
            }
            let Some(kind) = entry.file_type() else {
                return false;
            };
            if denied.as_ref().is_some_and(|d| d.denies(entry.path())) {
                left_out.fetch_add(1, Ordering::Relaxed);
                return false;
            }
            if kind.is_dir() {
                return true;
            }
            let rel = entry.path().strip_prefix(&root).unwrap_or(entry.path());
            if kind.is_file() && glob.is_match(rel) {
                let mtime = mtime_of(entry);
                if let Ok(mut newest) = sink.lock() {
                    newest.offer(entry.path(), mtime);
                }
            }
            false
        })
        .build_parallel();
    walker.run(|| {
        Box::new(|entry| {
            if let Err(e) = entry {
                unreadable.record(e.to_string());
            }
            WalkState::Continue
        })
    });
    let newest = match found.lock() {
        Ok(mut f) => std::mem::take(&mut *f),
        Err(poisoned) => std::mem::take(&mut *poisoned.into_inner()),
    };
    let files = newest
        .heap
        .into_sorted_vec()
        .into_iter()
        .map(|r| (r.path, r.mtime))
        .collect();
    (newest.total, files, skipped.load(Ordering::Relaxed))
}

fn run(input: &GlobInput, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
    let started = std::time::Instant::now();
    let (base, pattern) = match &input.path {
        Some(p) => (paths::absolute(ctx, p), input.pattern.clone()),
        None if input.pattern.starts_with('/') => split_absolute(&input.pattern),
        None => (ctx.cwd.clone(), input.pattern.clone()),
    };
    let meta = std::fs::metadata(&base)
        .map_err(|e| ToolError::to_model(format!("Cannot search {}: {e}", base.display())))?;
    if !meta.is_dir() {
        return Err(ToolError::to_model(format!(
            "{} is not a directory.",
            base.display()
        )));
    }
    let glob = NameGlob::new(&pattern).map_err(ToolError::to_model)?;
    let unreadable = Unreadable::default();
    let (total, files, skipped) = find_files(
        &base,
        &glob,
        MAX_RESULTS,
        &ctx.cancel,
        ctx.read_denied.clone(),
        &unreadable,
    );
    if ctx.cancel.is_cancelled() {
        return Err(ToolError::Cancelled);
    }
    let truncated = total > MAX_RESULTS;
    let listed: Vec<String> = files.iter().map(|(p, _)| paths::display(ctx, p)).collect();
    let mut text = if listed.is_empty() {
        "No files found".to_string()
    } else {
        listed.join("\n")
    };
    if skipped > 0 {
        text.push_str(&format!(
            "\n[{skipped} path{} not listed: a deny rule forbids reading {}.]",
            if skipped == 1 { " was" } else { "s were" },
            if skipped == 1 { "it" } else { "them" }
        ));
    }
    if truncated {
        text.push_str(&format!(
            "\n(Results are truncated: showing the {MAX_RESULTS} most recently modified of {total} files. Use a more \
             specific path or pattern.)"
        ));
    }
    if let Some(note) = unreadable.note() {
        text.push_str(&format!("\n\n{note}"));
    }
    let response = GlobResponse {
        num_files: listed.len(),
        filenames: listed.clone(),
        duration_ms: started.elapsed().as_millis() as u64,
        truncated,
    };
    Ok(ToolOutput::text(text)
        .with_detail(ToolDetail::FileList {
            files: listed,
            total: total as u64,
            truncated,
        })
        .with_structured(&response))
}

impl Tool for GlobTool {
    type Input = GlobInput;

    /// One of the core tools whose schema lies in the strict subset: the model's input always fits it.
    fn strict(&self) -> bool {
        true
    }

    fn output_schema(&self) -> Option<serde_json::Value> {
        responses::schema::<GlobResponse>()
    }

    fn name(&self) -> &'static str {
        names::GLOB
    }

    fn description(&self) -> String {
        "Fast file pattern matching for any codebase size. Takes glob patterns like \"**/*.js\" or \
         \"src/**/*.ts\" and returns matching file paths, the most recently modified first (at most 100). \
         Files ignored by .gitignore and hidden files are left out."
            .to_string()
    }

    fn is_concurrency_safe(&self, _input: &GlobInput) -> bool {
        true
    }

    fn is_read_only(&self, _input: &GlobInput) -> bool {
        true
    }

    fn interrupt_behavior(&self) -> InterruptBehavior {
        InterruptBehavior::Cancel
    }

    fn render_hints(&self, input: &GlobInput, _ctx: &ToolContext) -> RenderHints {
        super::search_hints(format!("Glob {}", input.pattern), input.path.as_deref())
    }

    fn permission_subject(&self, input: &GlobInput, ctx: &ToolContext) -> PermissionSubject {
        let base = match &input.path {
            Some(p) => paths::absolute(ctx, p),
            None if input.pattern.starts_with('/') => split_absolute(&input.pattern).0,
            None => ctx.cwd.clone(),
        };
        PermissionSubject::ReadPath(base)
    }

    async fn validate_input(&self, input: &GlobInput, _ctx: &ToolContext) -> Result<(), String> {
        if input.pattern.trim().is_empty() {
            return Err("pattern is empty".into());
        }
        if input.path.as_deref().is_some_and(paths::is_unc) {
            return Err("UNC (network) paths are not searched.".into());
        }
        NameGlob::new(&input.pattern).map(|_| ())
    }

    async fn call(&self, input: &GlobInput, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        let ctx = ctx.clone();
        let input = input.clone();
        tokio::task::spawn_blocking(move || run(&input, &ctx))
            .await
            .map_err(|e| ToolError::to_model(format!("the search failed: {e}")))?
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn huge_or_monstrous_patterns_are_refused_with_a_reason() {
        // (pattern, part of the refusal)
        let cases = [
            ("*".repeat(100_000), "100000 characters long"),
            ("a".repeat(100_000), "100000 characters long"),
            ("[a-z]".repeat(1_000), "5000 characters long"),
            (
                "{a,".repeat(1_000) + &"}".repeat(1_000),
                "invalid glob pattern",
            ),
        ];
        for (pattern, why) in cases {
            let err = NameGlob::new(&pattern).expect_err("refused");
            assert!(err.contains(why), "{}: {err}", &pattern[..20]);
        }
        let longest = "*".repeat(MAX_PATTERN_CHARS);
        assert!(
            NameGlob::new(&longest).is_ok(),
            "the longest pattern compiles"
        );
        let glob = NameGlob::new("*.rs").expect("glob");
        assert!(glob.is_match(Path::new("src/lib.rs")) && !glob.is_match(Path::new("a.txt")));
    }

    #[test]
    fn keeps_the_newest_then_by_path() {
        let at = |s| SystemTime::UNIX_EPOCH + Duration::from_secs(s);
        let mut newest = Newest {
            keep: 3,
            ..Newest::default()
        };
        for (path, secs) in [
            ("e", 1),
            ("d", 5),
            ("c", 5),
            ("b", 2),
            ("a", 1),
            ("f", 9),
            ("g", 5),
        ] {
            newest.offer(Path::new(path), at(secs));
        }
        let kept: Vec<(String, SystemTime)> = newest
            .heap
            .into_sorted_vec()
            .into_iter()
            .map(|r| (r.path.display().to_string(), r.mtime))
            .collect();
        assert_eq!(newest.total, 7);
        assert_eq!(
            kept,
            vec![
                ("f".into(), at(9)),
                ("c".into(), at(5)),
                ("d".into(), at(5))
            ]
        );
    }
}
