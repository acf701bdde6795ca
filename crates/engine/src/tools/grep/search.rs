//! The search itself, built from ripgrep's own crates and configured as `rg` configures them: a regex matcher
//! (`grep-regex`), a line searcher (`grep-searcher`) with ripgrep's binary-file rules, and a parallel directory
//! walk (`ignore`) honouring .gitignore, .ignore and .rgignore files, type filters and globs.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder, Sink, SinkContext, SinkMatch};
use ignore::overrides::OverrideBuilder;
use ignore::types::TypesBuilder;
use ignore::{WalkBuilder, WalkState};
use tokio_util::sync::CancellationToken;

use crate::tool::ReadDenied;
use crate::tools::file_io::unreadable::Unreadable;

/// Folders of version-control systems that are never searched (ripgrep `--glob '!.git'` and friends).
pub const VCS_DIRS: &[&str] = &[".git", ".svn", ".hg", ".bzr", ".jj"];

/// What to collect from each file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Collect {
    /// Stop at the first match (files_with_matches).
    FirstMatch,
    /// Count matching lines.
    Count,
    /// Keep matching lines and their context.
    Lines,
}

/// One search, fully specified.
#[derive(Debug, Clone)]
pub struct Query {
    pub pattern: String,
    /// A file or folder.
    pub root: PathBuf,
    pub case_insensitive: bool,
    pub multiline: bool,
    pub globs: Vec<String>,
    pub file_type: Option<String>,
    pub before: usize,
    pub after: usize,
    pub collect: Collect,
    /// Files a deny rule forbids reading: never searched.
    pub denied: Option<ReadDenied>,
    /// How many files (or folders) were left out because a deny rule covers them.
    pub skipped: Arc<AtomicUsize>,
    /// The folders and files that could not be read.
    pub unreadable: Arc<Unreadable>,
}

/// A line of output from one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    Match {
        number: u64,
        text: String,
    },
    Context {
        number: u64,
        text: String,
    },
    /// A gap between two groups of lines (ripgrep's `--`).
    Break,
}

/// What one file produced.
#[derive(Debug, Clone)]
pub struct FileHits {
    pub path: PathBuf,
    /// Matching lines (match events; a multiline match counts once).
    pub count: u64,
    pub lines: Vec<Line>,
    /// The file's modification time, taken by the searching thread in files_with_matches mode (which sorts by it).
    pub modified: Option<std::time::SystemTime>,
}

/// Why a search could not run.
#[derive(Debug, Clone, thiserror::Error)]
pub enum SearchError {
    #[error("invalid regular expression: {0}")]
    Regex(String),
    #[error("invalid glob `{glob}`: {message}")]
    Glob { glob: String, message: String },
    #[error(
        "unknown file type `{0}` (types are ripgrep's: rust, py, js, ts, c, cpp, go, java, md, ...)"
    )]
    Type(String),
    #[error("cannot search {path}: {message}")]
    Path { path: PathBuf, message: String },
}

/// Builds the matcher exactly as ripgrep does for the default (Rust regex) engine.
pub fn matcher(q: &Query) -> Result<RegexMatcher, SearchError> {
    let mut b = RegexMatcherBuilder::new();
    b.multi_line(true)
        .unicode(true)
        .octal(false)
        .case_insensitive(q.case_insensitive)
        .ban_byte(Some(b'\x00'));
    if q.multiline {
        b.dot_matches_new_line(true);
    } else {
        b.line_terminator(Some(b'\n')).dot_matches_new_line(false);
    }
    b.build(&q.pattern)
        .map_err(|e| SearchError::Regex(e.to_string()))
}

fn searcher(q: &Query) -> Searcher {
    SearcherBuilder::new()
        .line_number(true)
        .multi_line(q.multiline)
        .before_context(q.before)
        .after_context(q.after)
        .binary_detection(BinaryDetection::quit(b'\x00'))
        .bom_sniffing(true)
        .build()
}

struct Collector {
    collect: Collect,
    count: u64,
    lines: Vec<Line>,
}

fn text_of(bytes: &[u8]) -> String {
    let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    String::from_utf8_lossy(bytes).into_owned()
}

impl Sink for Collector {
    type Error = io::Error;

    fn matched(&mut self, _s: &Searcher, mat: &SinkMatch<'_>) -> Result<bool, io::Error> {
        self.count += 1;
        match self.collect {
            Collect::FirstMatch => return Ok(false),
            Collect::Count => {}
            Collect::Lines => {
                let first = mat.line_number().unwrap_or(0);
                for (i, line) in mat.lines().enumerate() {
                    self.lines.push(Line::Match {
                        number: first + i as u64,
                        text: text_of(line),
                    });
                }
            }
        }
        Ok(true)
    }

    fn context(&mut self, _s: &Searcher, ctx: &SinkContext<'_>) -> Result<bool, io::Error> {
        if self.collect == Collect::Lines {
            self.lines.push(Line::Context {
                number: ctx.line_number().unwrap_or(0),
                text: text_of(ctx.bytes()),
            });
        }
        Ok(true)
    }

    fn context_break(&mut self, _s: &Searcher) -> Result<bool, io::Error> {
        if self.collect == Collect::Lines {
            self.lines.push(Line::Break);
        }
        Ok(true)
    }
}

fn search_one(
    searcher: &mut Searcher,
    m: &RegexMatcher,
    path: &Path,
    q: &Query,
) -> Option<FileHits> {
    let collect = q.collect;
    let mut sink = Collector {
        collect,
        count: 0,
        lines: Vec::new(),
    };
    if let Err(e) = searcher.search_path(m, path, &mut sink) {
        q.unreadable.record(format!("{}: {e}", path.display()));
        return None;
    }
    (sink.count > 0).then(|| FileHits {
        path: path.to_path_buf(),
        count: sink.count,
        lines: sink.lines,
        modified: (collect == Collect::FirstMatch)
            .then(|| std::fs::metadata(path).and_then(|m| m.modified()).ok())
            .flatten(),
    })
}

fn walker(q: &Query) -> Result<WalkBuilder, SearchError> {
    let mut builder = WalkBuilder::new(&q.root);
    builder
        .hidden(false)
        .add_custom_ignore_filename(".rgignore")
        .threads(2);
    let mut overrides = OverrideBuilder::new(&q.root);
    let glob_err = |glob: &str| {
        let glob = glob.to_string();
        move |e: ignore::Error| SearchError::Glob {
            glob,
            message: e.to_string(),
        }
    };
    for glob in &q.globs {
        overrides.add(glob).map_err(glob_err(glob))?;
    }
    for dir in VCS_DIRS {
        let glob = format!("!{dir}");
        overrides.add(&glob).map_err(glob_err(&glob))?;
    }
    builder.overrides(overrides.build().map_err(glob_err(""))?);
    if let Some(denied) = q.denied.clone() {
        let skipped = q.skipped.clone();
        builder.filter_entry(move |entry| {
            let allowed = !denied.denies(entry.path());
            if !allowed {
                skipped.fetch_add(1, Ordering::Relaxed);
            }
            allowed
        });
    }
    if let Some(t) = &q.file_type {
        let mut types = TypesBuilder::new();
        types.add_defaults();
        types.select(t);
        let types = types.build().map_err(|_| SearchError::Type(t.clone()))?;
        if !types.definitions().iter().any(|d| d.name() == t) {
            return Err(SearchError::Type(t.clone()));
        }
        builder.types(types);
    }
    Ok(builder)
}

/// Runs the search over every file under the root, in parallel, and returns the files with matches (in no
/// particular order).
pub fn run(q: &Query, cancel: &CancellationToken) -> Result<Vec<FileHits>, SearchError> {
    let m = matcher(q)?;
    let meta = std::fs::metadata(&q.root).map_err(|e| SearchError::Path {
        path: q.root.clone(),
        message: e.to_string(),
    })?;
    if meta.is_file() {
        // An explicitly named file is searched even when binary, as ripgrep does (binary data stops nothing).
        let mut s = searcher(q);
        s.set_binary_detection(BinaryDetection::convert(b'\x00'));
        return Ok(search_one(&mut s, &m, &q.root, q).into_iter().collect());
    }
    let found = Mutex::new(Vec::new());
    walker(q)?.build_parallel().run(|| {
        let (found, m) = (&found, &m);
        let mut s = searcher(q);
        Box::new(move |entry| {
            if cancel.is_cancelled() {
                return WalkState::Quit;
            }
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    q.unreadable.record(e.to_string());
                    return WalkState::Continue;
                }
            };
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                return WalkState::Continue;
            }
            if let Some(hits) = search_one(&mut s, m, entry.path(), q)
                && let Ok(mut f) = found.lock()
            {
                f.push(hits);
            }
            WalkState::Continue
        })
    });
    Ok(found.into_inner().unwrap_or_default())
}

/// Searches files in path order (a sorted walk feeding two searching threads, results put back in order) and stops
/// as soon as the files found so far hold `want` lines of output. This is what makes a `head_limit` cheap on a
/// huge tree while the answer stays exactly the first lines of the full, path-ordered result.
pub fn run_ordered(
    q: &Query,
    cancel: &CancellationToken,
    want: usize,
) -> Result<Vec<FileHits>, SearchError> {
    let meta = std::fs::metadata(&q.root).map_err(|e| SearchError::Path {
        path: q.root.clone(),
        message: e.to_string(),
    })?;
    if meta.is_file() {
        return run(q, cancel);
    }
    let m = matcher(q)?;
    let mut builder = walker(q)?;
    builder.sort_by_file_name(|a, b| a.cmp(b));
    let walk = builder.build();
    let stop = AtomicBool::new(false);
    let halted = || stop.load(Ordering::Relaxed) || cancel.is_cancelled();
    let (path_tx, path_rx) = mpsc::sync_channel::<(usize, PathBuf)>(512);
    let path_rx = Mutex::new(path_rx);
    let (hit_tx, hit_rx) = mpsc::channel::<(usize, Option<FileHits>)>();
    let mut out = Vec::new();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let files = walk
                .filter_map(|entry| entry.map_err(|e| q.unreadable.record(e.to_string())).ok())
                .filter(|e| e.file_type().is_some_and(|t| t.is_file()));
            for (i, entry) in files.enumerate() {
                if halted() || path_tx.send((i, entry.into_path())).is_err() {
                    break;
                }
            }
            drop(path_tx);
        });
        for _ in 0..2 {
            let hit_tx = hit_tx.clone();
            let (path_rx, m) = (&path_rx, &m);
            scope.spawn(move || {
                let mut s = searcher(q);
                loop {
                    let job = match path_rx.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => break,
                    };
                    let Ok((i, path)) = job else { break };
                    // After a stop the queue is only drained, so that the walker is never left blocked.
                    let hits = if halted() {
                        None
                    } else {
                        search_one(&mut s, m, &path, q)
                    };
                    if hit_tx.send((i, hits)).is_err() && halted() {
                        continue;
                    }
                }
            });
        }
        drop(hit_tx);
        let mut pending: BTreeMap<usize, Option<FileHits>> = BTreeMap::new();
        let mut next = 0usize;
        let mut lines = 0usize;
        'collect: for (i, hits) in hit_rx.iter() {
            pending.insert(i, hits);
            while let Some(hits) = pending.remove(&next) {
                next += 1;
                if let Some(hits) = hits {
                    lines += hits.lines.len();
                    out.push(hits);
                    if lines >= want {
                        stop.store(true, Ordering::Relaxed);
                        break 'collect;
                    }
                }
            }
        }
        stop.store(true, Ordering::Relaxed);
    });
    Ok(out)
}
