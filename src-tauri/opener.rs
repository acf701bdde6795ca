//! The app's opener: the engine's door for MCP sign-ins (`BrowserOpener`) implemented with `tauri-plugin-opener`,
//! installed for every session of the app when it is set up, and opening the files the agent hands the person.

use std::sync::Arc;

use tandem_engine::mcp::oauth::{BrowserOpener, set_standard_opener};
use tauri::{AppHandle, Manager, Runtime};
use tauri_plugin_opener::Opener;

/// Opens authorization pages with the opener plugin of `app`.
pub struct PluginOpener<R: Runtime>(AppHandle<R>);

impl<R: Runtime> BrowserOpener for PluginOpener<R> {
    fn open(&self, url: &str) -> Result<(), String> {
        let opener = self
            .0
            .try_state::<Opener<R>>()
            .ok_or("the opener plugin is not registered")?;
        opener
            .open_url(url, None::<&str>)
            .map_err(|e| format!("could not open the browser: {e}"))
    }
}

/// Makes the opener plugin of `app` the browser the sessions of this process sign in with.
pub fn install<R: Runtime>(app: &AppHandle<R>) {
    set_standard_opener(Arc::new(PluginOpener(app.clone())));
}

/// Opens a file the agent handed the person in session `session_id` (SendUserFile) with the desktop's application
/// for it, or with `reveal` shows it in its folder. Only files handed over in that session are opened, so the
/// webview cannot be made to open anything else; a file gone since is a clear error.
#[tauri::command]
#[tracing::instrument(skip(app, state), err(Display))]
pub fn open_user_file<R: Runtime>(
    app: AppHandle<R>,
    state: tauri::State<'_, crate::state::AppState>,
    session_id: String,
    path: String,
    reveal: bool,
) -> Result<(), crate::error::CommandError> {
    use crate::error::{CommandError, ErrorCode};
    let refuse = |message: String| CommandError::new(ErrorCode::OpenFile, message);
    let handed = state
        .sinks
        .get(&session_id)
        .is_some_and(|sink| sink.handed_over(&path));
    if !handed {
        return Err(refuse(format!(
            "{path} was not handed over in this session, so it is not opened from here"
        )));
    }
    if !std::path::Path::new(&path).is_file() {
        return Err(refuse(format!("{path} is no longer there")));
    }
    let opener = app
        .try_state::<Opener<R>>()
        .ok_or_else(|| refuse("the opener plugin is not registered".into()))?;
    let opened = match reveal {
        true => opener.reveal_item_in_dir(&path),
        false => opener.open_path(&path, None::<&str>),
    };
    opened.map_err(|e| refuse(format!("could not open {path}: {e}")))
}
