//! Importing transcript files into the store: one file (with its sub-agents' files beside it), or every project's
//! files under the reference agent's folder.

use std::path::{Path, PathBuf};

use super::import_build::build_session;
use super::reference::{ParsedTranscript, parse_transcript};
use crate::store::{ImportOutcome, SessionStore, StoreError};

/// The first line of a file that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadLine {
    pub path: PathBuf,
    /// From 1.
    pub line: usize,
    pub why: String,
}

impl std::fmt::Display for BadLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.path.display(), self.line, self.why)
    }
}

/// Why a file was not imported at all.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {why}")]
    Unusable { path: PathBuf, why: &'static str },
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What importing one file did.
#[derive(Debug)]
pub struct FileImport {
    pub path: PathBuf,
    /// The stored session's id, title and message count; or why nothing was stored.
    pub result: Result<(String, String, usize, ImportOutcome), ImportError>,
    /// The first line (of this file or its sub-agents' files) that could not be read: every other line was
    /// imported.
    pub first_bad: Option<BadLine>,
    /// How many lines could not be read.
    pub bad_lines: usize,
}

impl FileImport {
    /// The file's first bad line, and how many more there were: `path:line: why (and N more bad lines)`; `None`
    /// when every line was read.
    pub fn bad_lines_note(&self) -> Option<String> {
        let line = self.first_bad.as_ref()?;
        let more = self.bad_lines.saturating_sub(1);
        Some(if more > 0 {
            format!("{line} (and {more} more bad lines)")
        } else {
            line.to_string()
        })
    }
}

/// `~/.claude/projects`, where the reference agent keeps a folder of transcripts per project.
pub fn default_claude_code_dir() -> Option<PathBuf> {
    dirs::home_dir().map(|h| h.join(".claude").join("projects"))
}

/// The transcripts of every project under `dir` (`<project>/<session>.jsonl`; the sub-agents' files below them
/// are read with their session), sorted; `dir` itself may hold transcripts too.
pub fn transcripts_under(dir: &Path) -> Result<Vec<PathBuf>, ImportError> {
    let io = |source| ImportError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut out = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if path.is_dir() {
            folders.push(path);
        }
    }
    for folder in folders {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_file() && path.extension().is_some_and(|e| e == "jsonl") {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Imports every transcript under `dir` (see [`transcripts_under`]).
pub fn import_claude_code(
    store: &SessionStore,
    dir: &Path,
) -> Result<Vec<FileImport>, ImportError> {
    Ok(transcripts_under(dir)?
        .iter()
        .map(|path| import_file(store, path))
        .collect())
}

/// Imports one transcript file, with the sub-agents' files kept beside it (`<session>/subagents/agent-*.jsonl`).
/// Every whole line is imported; the session is stored whole, or not at all (a store error), and not again when a
/// session with its id is stored already.
pub fn import_file(store: &SessionStore, path: &Path) -> FileImport {
    let mut first_bad = None;
    let mut bad_lines = 0;
    let mut note = |file: &Path, parsed: &ParsedTranscript| {
        bad_lines += parsed.bad;
        if first_bad.is_none()
            && let Some((line, why)) = &parsed.first_bad
        {
            first_bad = Some(BadLine {
                path: file.to_path_buf(),
                line: *line,
                why: why.clone(),
            });
        }
    };
    let result = (|| {
        let bytes = std::fs::read(path).map_err(|source| ImportError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let main = parse_transcript(&bytes);
        note(path, &main);
        let mut extra = Vec::new();
        for file in sub_agent_files(path) {
            if let Ok(bytes) = std::fs::read(&file) {
                let parsed = parse_transcript(&bytes);
                note(&file, &parsed);
                extra.push(parsed);
            }
        }
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let now = chrono::Utc::now().timestamp_millis();
        let session =
            build_session(&main, &extra, &stem, now).map_err(|why| ImportError::Unusable {
                path: path.to_path_buf(),
                why,
            })?;
        let id = session.session.id.clone();
        let title = if session.title.is_empty() {
            session
                .events
                .iter()
                .find_map(|(e, _)| match e {
                    tandem_protocol::SessionEvent::TurnStarted { prompt, .. } => {
                        Some(crate::store::title_from_prompt(prompt))
                    }
                    _ => None,
                })
                .unwrap_or_default()
        } else {
            session.title.clone()
        };
        let count = session.messages.len();
        let outcome = store.import_session(session)?;
        Ok((id, title, count, outcome))
    })();
    FileImport {
        path: path.to_path_buf(),
        result,
        first_bad,
        bad_lines,
    }
}

/// `<dir>/<stem>/subagents/agent-*.jsonl`, without the agent's own compaction files (`agent-acompact-*`), sorted.
fn sub_agent_files(path: &Path) -> Vec<PathBuf> {
    let (Some(parent), Some(stem)) = (path.parent(), path.file_stem()) else {
        return Vec::new();
    };
    let dir = parent.join(stem).join("subagents");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            name.starts_with("agent-")
                && !name.starts_with("agent-acompact")
                && name.ends_with(".jsonl")
        })
        .collect();
    out.sort();
    out
}
