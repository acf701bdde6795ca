//! Export and import from the window: the native save dialog for a session's export, the file picker (or the
//! reference agent's projects folder) for an import. The work itself is in `crate::carry`, off the main thread.

use std::path::PathBuf;

use tauri::Manager;
use tauri_plugin_dialog::{Dialog, DialogExt};

use super::*;
use crate::carry::{self, ImportSummary};

/// Runs `work` on a blocking thread; a thread that stopped is a store error.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, CommandError> + Send + 'static,
) -> Result<T, CommandError> {
    tauri::async_runtime::spawn_blocking(work)
        .await
        .map_err(|e| CommandError::new(ErrorCode::Carry, format!("the work stopped: {e}")))?
}

/// Exports the stored session `session_id` as `format` (`md`, `html` or `jsonl`) to a file the person chooses in
/// the save dialog (its name suggested from the title); resolves to the path written, or `None` when the dialog was
/// cancelled (or no dialog is available). The file is written whole or not at all.
#[tauri::command]
#[tracing::instrument(skip(app, state), err(Display))]
pub async fn export_session<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    session_id: String,
    format: String,
) -> Result<Option<String>, CommandError> {
    let format = carry::format_named(&format)?;
    let store = store_of(&state)?;
    let (text, name) = blocking(move || {
        // What the open session's writer still holds goes in the export too.
        let _ = store.flush();
        carry::export_text(&store, &session_id, format)
    })
    .await?;
    let Some(path) = save_dialog(&app, &name, carry::file_kind(format), format.extension()).await
    else {
        return Ok(None);
    };
    let shown = path.display().to_string();
    blocking(move || carry::write_export(&path, &text)).await?;
    Ok(Some(shown))
}

/// Imports transcripts of the reference agent: with `claude_code`, every one under its projects folder
/// (`~/.claude/projects`); otherwise the `.jsonl` files the person picks. Resolves to what was imported, or `None`
/// when the picker was cancelled (or no dialog is available).
#[tauri::command]
#[tracing::instrument(skip(app, state), err(Display))]
pub async fn import_sessions<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    claude_code: bool,
) -> Result<Option<ImportSummary>, CommandError> {
    let store = store_of(&state)?;
    if claude_code {
        let dir = tandem_engine::transcript::default_claude_code_dir()
            .ok_or_else(|| CommandError::new(ErrorCode::Carry, "no home folder is known"))?;
        if !dir.is_dir() {
            return Err(CommandError::new(
                ErrorCode::Carry,
                format!(
                    "{} does not exist: there are no transcripts to import",
                    dir.display()
                ),
            ));
        }
        return blocking(move || carry::import_folder(&store, &dir))
            .await
            .map(Some);
    }
    let Some(files) = pick_transcripts(&app).await else {
        return Ok(None);
    };
    blocking(move || Ok(carry::import_files(&store, &files)))
        .await
        .map(Some)
}

async fn save_dialog<R: Runtime>(
    app: &AppHandle<R>,
    name: &str,
    kind: &str,
    extension: &str,
) -> Option<PathBuf> {
    app.try_state::<Dialog<R>>()?;
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.dialog()
        .file()
        .set_title("Export Session")
        .set_file_name(name)
        .add_filter(kind, &[extension])
        .save_file(move |path| {
            let _ = tx.send(path.and_then(|p| p.into_path().ok()));
        });
    rx.await.ok().flatten()
}

async fn pick_transcripts<R: Runtime>(app: &AppHandle<R>) -> Option<Vec<PathBuf>> {
    app.try_state::<Dialog<R>>()?;
    let (tx, rx) = tokio::sync::oneshot::channel();
    let mut picker = app
        .dialog()
        .file()
        .set_title("Import Sessions")
        .add_filter("Transcripts", &["jsonl"]);
    if let Some(dir) = tandem_engine::transcript::default_claude_code_dir().filter(|d| d.is_dir()) {
        picker = picker.set_directory(dir);
    }
    picker.pick_files(move |paths| {
        let _ = tx.send(paths.map(|all| {
            all.into_iter()
                .filter_map(|p| p.into_path().ok())
                .collect::<Vec<_>>()
        }));
    });
    rx.await.ok().flatten().filter(|files| !files.is_empty())
}
