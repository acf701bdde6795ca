//! The folder's files for `@` completion: listed once with `.gitignore` (and `.ignore`, global git excludes)
//! respected, kept for a few seconds so typing does not walk the tree on every key, and matched against what was
//! typed — a case-insensitive substring of the path first (file names that start with it best), then the letters in
//! order (fuzzy). At most a fixed number of files are listed and of matches returned.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ignore::WalkBuilder;

/// How long a listing is reused.
const FRESH_FOR: Duration = Duration::from_secs(10);
/// The most files listed (a larger tree is listed in part).
const MAX_FILES: usize = 200_000;

/// The files of one folder, relative to it, listed on demand.
#[derive(Debug)]
pub struct FileIndex {
    root: PathBuf,
    listed: Mutex<Option<(Instant, Arc<Listing>)>>,
}

/// The files and their lower-case forms (made once per listing, not per query).
#[derive(Debug, Default)]
pub struct Listing {
    pub files: Vec<String>,
    lower: Vec<String>,
}

impl Listing {
    pub fn new(files: Vec<String>) -> Self {
        let lower = files.iter().map(|f| f.to_lowercase()).collect();
        Self { files, lower }
    }
}

impl FileIndex {
    pub fn new(root: &Path) -> Self {
        Self {
            root: root.to_path_buf(),
            listed: Mutex::new(None),
        }
    }

    /// The files, from the last listing if it is recent. Blocking: walks the folder when the listing is stale (run
    /// it off the async threads).
    pub fn files(&self) -> Arc<Listing> {
        let mut slot = self
            .listed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((at, files)) = slot.as_ref()
            && at.elapsed() < FRESH_FOR
        {
            return files.clone();
        }
        let files = Arc::new(Listing::new(list_files(&self.root)));
        *slot = Some((Instant::now(), files.clone()));
        files
    }

    /// The best `limit` files for `query` (all files, shortest paths first, for an empty query).
    pub fn complete(&self, query: &str, limit: usize) -> Vec<String> {
        rank(&self.files(), query, limit)
    }
}

/// Every file under `root` that git would not ignore, relative to it, `/`-separated; hidden files included except
/// the `.git` folder.
fn list_files(root: &Path) -> Vec<String> {
    let mut files = Vec::new();
    let walker = WalkBuilder::new(root)
        .hidden(false)
        .filter_entry(|e| e.file_name() != ".git")
        .build();
    for entry in walker.flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        if let Ok(relative) = entry.path().strip_prefix(root) {
            files.push(relative.to_string_lossy().replace('\\', "/"));
        }
        if files.len() >= MAX_FILES {
            break;
        }
    }
    files
}

/// How well a path (given lower-case) matches `query` (lower is better), `None` when it does not.
fn score(lower: &str, query: &str) -> Option<(u8, usize)> {
    let name_at = lower.rfind('/').map_or(0, |i| i + 1);
    if let Some(at) = lower.find(query) {
        let kind = if lower[name_at..].starts_with(query) {
            0
        } else if at >= name_at {
            1
        } else {
            2
        };
        return Some((kind, lower.len()));
    }
    let mut letters = query.chars();
    let mut next = letters.next();
    for c in lower.chars() {
        if Some(c) == next {
            next = letters.next();
        }
    }
    next.is_none().then_some((3, lower.len()))
}

/// The best `limit` of the listed files for `query`; only the best are sorted.
pub fn rank(listing: &Listing, query: &str, limit: usize) -> Vec<String> {
    let query = query.trim().to_lowercase();
    let mut scored: Vec<((u8, usize), &String)> = listing
        .lower
        .iter()
        .zip(&listing.files)
        .filter_map(|(lower, f)| score(lower, &query).map(|s| (s, f)))
        .collect();
    if limit == 0 {
        return Vec::new();
    }
    if scored.len() > limit {
        scored.select_nth_unstable(limit - 1);
        scored.truncate(limit);
    }
    scored.sort();
    scored
        .into_iter()
        .take(limit)
        .map(|(_, f)| f.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_start_with_the_query_come_first_then_substrings_then_fuzzy() {
        let files: Vec<String> = [
            "src/components/PromptBox.tsx",
            "docs/prompt-guide.md",
            "src/main.rs",
            "README.md",
            "crates/engine/src/session/prompt_input.rs",
            "ui/src/App.tsx",
        ]
        .map(String::from)
        .to_vec();
        let files = Listing::new(files);
        assert_eq!(
            rank(&files, "prompt", 10),
            [
                "docs/prompt-guide.md",
                "src/components/PromptBox.tsx",
                "crates/engine/src/session/prompt_input.rs",
            ]
        );
        assert_eq!(rank(&files, "src/ma", 10), ["src/main.rs"]);
        assert_eq!(rank(&files, "pbx", 10), ["src/components/PromptBox.tsx"]);
        assert_eq!(rank(&files, "", 2), ["README.md", "src/main.rs"]);
        assert!(rank(&files, "zzz", 10).is_empty());
    }
}
