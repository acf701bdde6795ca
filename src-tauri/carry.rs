//! Sessions carried out of and into the app: a stored session exported to a file the person chose, and the
//! reference agent's transcripts imported, each import summed up for the window (what came in, what was there
//! already, what was bad). The dialogs are in `commands::carry`; this module does the work, off the main thread.

use std::path::{Path, PathBuf};

use serde::Serialize;
use tandem_engine::store::{ImportOutcome, SessionStore};
use tandem_engine::transcript::{self, FileImport, Format};
use ts_rs::TS;

use crate::error::{CommandError, ErrorCode};

/// A session an import stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct ImportedSession {
    pub session_id: String,
    /// The project folder the conversation was held in.
    pub folder: String,
    pub title: String,
    pub messages: u32,
}

/// What an import did, for the window to show.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, TS)]
pub struct ImportSummary {
    pub imported: Vec<ImportedSession>,
    /// Sessions stored before (importing twice stores once).
    pub already_there: u32,
    /// Files not imported at all, and the first bad line of each file whose whole lines were imported, each as
    /// `path: why` or `path:line: why`.
    pub problems: Vec<String>,
}

/// The export formats the window offers, by the name it sends.
pub fn format_named(name: &str) -> Result<Format, CommandError> {
    Format::parse(name).ok_or_else(|| {
        CommandError::new(
            ErrorCode::Carry,
            format!("unknown export format {name:?} (md, html or jsonl)"),
        )
    })
}

/// What the save dialog calls the files of `format`.
pub fn file_kind(format: Format) -> &'static str {
    match format {
        Format::Markdown => "Markdown",
        Format::Html => "HTML page",
        Format::Jsonl => "JSON lines (Claude Code transcript)",
    }
}

/// The stored session `id` in `format`, with the file name to suggest for it.
pub fn export_text(
    store: &SessionStore,
    id: &str,
    format: Format,
) -> Result<(String, String), CommandError> {
    let (text, title) = transcript::export_stored(store, id, format).map_err(export_error)?;
    Ok((text, transcript::export_file_name(&title, format)))
}

/// Writes an export to `path` whole.
pub fn write_export(path: &Path, text: &str) -> Result<(), CommandError> {
    transcript::write_export(path, text).map_err(export_error)
}

fn export_error(err: transcript::ExportError) -> CommandError {
    let code = match err {
        transcript::ExportError::UnknownSession(_) => ErrorCode::UnknownSession,
        transcript::ExportError::Store(_) => ErrorCode::Store,
        transcript::ExportError::Write { .. } => ErrorCode::Carry,
    };
    CommandError::new(code, err.to_string())
}

/// Imports each of `files` and sums the outcome up; what was stored is indexed for search before this returns.
pub fn import_files(store: &SessionStore, files: &[PathBuf]) -> ImportSummary {
    let reports: Vec<FileImport> = files
        .iter()
        .map(|path| transcript::import_file(store, path))
        .collect();
    summarise(store, &reports)
}

/// Imports every transcript under `dir` (the reference agent's projects folder); a folder that cannot be read is
/// an error.
pub fn import_folder(store: &SessionStore, dir: &Path) -> Result<ImportSummary, CommandError> {
    let reports = transcript::import_claude_code(store, dir)
        .map_err(|e| CommandError::new(ErrorCode::Carry, e.to_string()))?;
    Ok(summarise(store, &reports))
}

fn summarise(store: &SessionStore, reports: &[FileImport]) -> ImportSummary {
    let mut summary = ImportSummary::default();
    for report in reports {
        match &report.result {
            Ok((id, title, count, ImportOutcome::Stored | ImportOutcome::Updated)) => {
                let folder = store
                    .session(id)
                    .ok()
                    .flatten()
                    .map(|record| record.folder.display().to_string())
                    .unwrap_or_default();
                summary.imported.push(ImportedSession {
                    session_id: id.clone(),
                    folder,
                    title: title.clone(),
                    messages: u32::try_from(*count).unwrap_or(u32::MAX),
                });
            }
            Ok((_, _, _, ImportOutcome::AlreadyThere)) => summary.already_there += 1,
            Err(e) => summary.problems.push(e.to_string()),
        }
        summary.problems.extend(report.bad_lines_note());
    }
    if !summary.imported.is_empty()
        && let Err(e) = store.index_for_search()
    {
        summary
            .problems
            .push(format!("the imported sessions are not searchable yet: {e}"));
    }
    summary
}
