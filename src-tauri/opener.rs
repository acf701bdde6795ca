//! The app's browser for MCP sign-ins: the engine's opener door (`BrowserOpener`) implemented with
//! `tauri-plugin-opener`, installed for every session of the app when it is set up.

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
