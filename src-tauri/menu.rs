//! The native menu: File ▸ Open Folder…, Open Remote Folder…, Open Recent, New Session, New Session with…, Import
//! Sessions…, Import from Claude Code, Settings…, Quit; View ▸ Terminal Panel. Choices reach the webview as app
//! events.

use serde::Serialize;
use tauri::menu::{
    Menu, MenuBuilder, MenuEvent, MenuItemBuilder, MenuItemKind, Submenu, SubmenuBuilder,
};
use tauri::{AppHandle, Emitter, Manager, Runtime};
use tauri_plugin_dialog::{Dialog, DialogExt};
use ts_rs::TS;

/// Event sent when a folder was chosen: payload [`OpenFolder`].
pub const OPEN_FOLDER_EVENT: &str = "tandem://open-folder";
/// Event sent when File ▸ New Session was chosen.
pub const NEW_SESSION_EVENT: &str = "tandem://new-session";
/// Event sent when File ▸ New Session with… was chosen (the window offers the configured agents).
pub const NEW_HOSTED_SESSION_EVENT: &str = "tandem://new-hosted-session";
/// Event sent when File ▸ Open Remote Folder… was chosen, or a later launch named a remote folder: payload
/// [`OpenRemote`].
pub const OPEN_REMOTE_EVENT: &str = "tandem://open-remote";
/// Event sent when File ▸ Settings… was chosen.
pub const OPEN_SETTINGS_EVENT: &str = "tandem://open-settings";

/// Event sent when View ▸ Terminal Panel was chosen (the webview shows or hides the session's terminal panel; its
/// own shortcut is Ctrl+`).
pub const TOGGLE_TERMINAL_EVENT: &str = "tandem://toggle-terminal";

/// Event sent when File ▸ Import Sessions… or Import from Claude Code was chosen: payload [`ImportChoice`].
pub const IMPORT_SESSIONS_EVENT: &str = "tandem://import-sessions";

const RECENT_PREFIX: &str = "recent:";
const RECENT_MENU_ID: &str = "open-recent";

/// Payload of [`OPEN_FOLDER_EVENT`].
#[derive(Debug, Clone, Serialize, TS)]
pub struct OpenFolder {
    pub path: String,
}

/// Payload of [`OPEN_REMOTE_EVENT`].
#[derive(Debug, Clone, Serialize, TS)]
pub struct OpenRemote {
    /// The remote folder a launch named (`ssh://…`); `None` from the menu: the window asks for it.
    pub url: Option<String>,
    /// The folder of this machine the session is stored under (the launch's folder); `None`: the window's choice.
    pub folder: Option<String>,
}

/// Payload of [`IMPORT_SESSIONS_EVENT`].
#[derive(Debug, Clone, Serialize, TS)]
pub struct ImportChoice {
    /// Every transcript under the reference agent's projects folder, rather than files the person picks.
    pub claude_code: bool,
}

/// Builds the menu bar with `recent` folders under Open Recent.
pub fn build<R: Runtime>(app: &AppHandle<R>, recent: &[String]) -> tauri::Result<Menu<R>> {
    let recent_menu = SubmenuBuilder::with_id(app, RECENT_MENU_ID, "Open Recent").build()?;
    fill_recent(app, &recent_menu, recent)?;
    let file = SubmenuBuilder::new(app, "File")
        .item(
            &MenuItemBuilder::with_id("open-folder", "Open Folder…")
                .accelerator("CmdOrCtrl+O")
                .build(app)?,
        )
        .item(&MenuItemBuilder::with_id("open-remote", "Open Remote Folder…").build(app)?)
        .item(&recent_menu)
        .item(
            &MenuItemBuilder::with_id("new-session", "New Session")
                .accelerator("CmdOrCtrl+N")
                .build(app)?,
        )
        .item(&MenuItemBuilder::with_id("new-hosted-session", "New Session with…").build(app)?)
        .separator()
        .item(&MenuItemBuilder::with_id("import-sessions", "Import Sessions…").build(app)?)
        .item(
            &MenuItemBuilder::with_id("import-claude-code", "Import from Claude Code")
                .build(app)?,
        )
        .separator()
        .item(
            &MenuItemBuilder::with_id("settings", "Settings…")
                .accelerator("CmdOrCtrl+,")
                .build(app)?,
        )
        .separator()
        .item(
            &MenuItemBuilder::with_id("quit", "Quit")
                .accelerator("CmdOrCtrl+Q")
                .build(app)?,
        )
        .build()?;
    // The shortcut (Ctrl+`) is the webview's own, so that it also works while the panel's terminal has the keys.
    let view = SubmenuBuilder::new(app, "View")
        .item(&MenuItemBuilder::with_id("toggle-terminal", "Terminal Panel (Ctrl+`)").build(app)?)
        .build()?;
    MenuBuilder::new(app).item(&file).item(&view).build()
}

/// Replaces the items of the Open Recent submenu with `recent`.
fn fill_recent<R: Runtime>(
    app: &AppHandle<R>,
    submenu: &Submenu<R>,
    recent: &[String],
) -> tauri::Result<()> {
    for item in submenu.items()? {
        submenu.remove(&item)?;
    }
    if recent.is_empty() {
        submenu.append(
            &MenuItemBuilder::with_id("recent-none", "No Recent Folders")
                .enabled(false)
                .build(app)?,
        )?;
    }
    for folder in recent {
        submenu.append(
            &MenuItemBuilder::with_id(format!("{RECENT_PREFIX}{folder}"), folder).build(app)?,
        )?;
    }
    Ok(())
}

/// Updates Open Recent in place after the list changed.
pub fn refresh_recent<R: Runtime>(app: &AppHandle<R>, recent: &[String]) {
    let Some(menu) = app.menu() else {
        return;
    };
    let Ok(items) = menu.items() else {
        return;
    };
    if let Some(submenu) = find_submenu(items, RECENT_MENU_ID) {
        let _ = fill_recent(app, &submenu, recent);
    }
}

/// The submenu `id` anywhere in `items` (a menu's own lookup sees only its top level: Open Recent is in File).
fn find_submenu<R: Runtime>(items: Vec<MenuItemKind<R>>, id: &str) -> Option<Submenu<R>> {
    items.into_iter().find_map(|item| match item {
        MenuItemKind::Submenu(submenu) if submenu.id() == id => Some(submenu),
        MenuItemKind::Submenu(submenu) => find_submenu(submenu.items().ok()?, id),
        _ => None,
    })
}

/// Shows the native folder picker; `None` when cancelled or when no dialog is available.
pub async fn pick_folder<R: Runtime>(app: &AppHandle<R>) -> Option<String> {
    app.try_state::<Dialog<R>>()?;
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.dialog()
        .file()
        .set_title("Open Folder")
        .pick_folder(move |folder| {
            let _ = tx.send(
                folder
                    .and_then(|f| f.into_path().ok())
                    .map(|p| p.display().to_string()),
            );
        });
    rx.await.ok().flatten()
}

/// Acts on a menu choice.
pub fn handle_event<R: Runtime>(app: &AppHandle<R>, event: MenuEvent) {
    let id = event.id().as_ref().to_string();
    match id.as_str() {
        "open-folder" => {
            let app = app.clone();
            tauri::async_runtime::spawn(async move {
                if let Some(path) = pick_folder(&app).await {
                    let _ = app.emit(OPEN_FOLDER_EVENT, OpenFolder { path });
                }
            });
        }
        "new-session" => {
            let _ = app.emit(NEW_SESSION_EVENT, ());
        }
        "new-hosted-session" => {
            let _ = app.emit(NEW_HOSTED_SESSION_EVENT, ());
        }
        "open-remote" => {
            let _ = app.emit(
                OPEN_REMOTE_EVENT,
                OpenRemote {
                    url: None,
                    folder: None,
                },
            );
        }
        "import-sessions" | "import-claude-code" => {
            let claude_code = id == "import-claude-code";
            let _ = app.emit(IMPORT_SESSIONS_EVENT, ImportChoice { claude_code });
        }
        "settings" => {
            let _ = app.emit(OPEN_SETTINGS_EVENT, ());
        }
        "toggle-terminal" => {
            let _ = app.emit(TOGGLE_TERMINAL_EVENT, ());
        }
        "quit" => app.exit(0),
        other => {
            if let Some(path) = other.strip_prefix(RECENT_PREFIX) {
                let _ = app.emit(
                    OPEN_FOLDER_EVENT,
                    OpenFolder {
                        path: path.to_string(),
                    },
                );
            }
        }
    }
}
