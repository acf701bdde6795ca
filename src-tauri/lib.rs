//! The Tauri shell around the engine: the window, its menu, the commands the webview calls, the event bridge and
//! the app's log file. Thin by design: every decision lives in `tandem-engine`. The command line is `tandem-cli`.

pub mod bridge;
pub mod commands;
pub mod error;
pub mod instance;
pub mod logging;
pub mod menu;
pub mod recent;
pub mod settings;
pub mod state;
pub mod typescript;

use std::path::PathBuf;

use tauri::{Manager, Runtime};

/// Registers `state`, the commands and the menu on `builder`. Generic over the runtime so tests can use the mock
/// runtime.
pub fn build_app<R: Runtime>(
    builder: tauri::Builder<R>,
    state: state::AppState,
) -> tauri::Builder<R> {
    builder
        .manage(state)
        .invoke_handler(tauri::generate_handler![
            commands::app_state,
            commands::open_session,
            commands::list_sessions,
            commands::pick_folder,
            commands::send_prompt,
            commands::answer_approval,
            commands::answer_plan,
            commands::answer_questions,
            commands::interrupt,
            commands::stop_sub_agent,
            commands::set_mode,
            commands::rewind_points,
            commands::rewind,
            commands::trust_folder,
            commands::revoke_trust,
            commands::session_changes,
            commands::rename_session,
            commands::delete_session,
            commands::fork_session,
            commands::mcp_servers,
            commands::approve_mcp_server,
            commands::allow_sandbox_violation,
            commands::reconnect_mcp_server,
            commands::sign_in_mcp_server,
            commands::set_mcp_tool_enabled,
            commands::slash_commands,
            commands::complete_mention,
            commands::tool_list,
            commands::kept_worktrees,
            commands::settle_worktree,
            commands::rules_view,
            commands::add_rule,
            commands::remove_rule,
            commands::move_rule,
            commands::check_call,
            commands::hooks_view,
            commands::test_hook,
            settings::app_settings,
            settings::save_app_settings,
        ])
        .setup(|app| {
            let handle = app.handle().clone();
            let recent = app.state::<state::AppState>().recent_folders();
            app.set_menu(menu::build(&handle, &recent)?)?;
            app.on_menu_event(menu::handle_event);
            Ok(())
        })
}

/// Runs the desktop app until its window closes.
pub fn run_app(initial_folder: Option<PathBuf>) -> anyhow::Result<()> {
    let state = state::AppState::with_default_store(initial_folder);
    let mut builder = tauri::Builder::default();
    // Registered first, as the plugin asks: a second launch exits before anything else starts.
    if instance::available() {
        builder = builder.plugin(tauri_plugin_single_instance::init(|app, argv, cwd| {
            instance::second_launch(app, argv, cwd)
        }));
    }
    let builder = builder
        .plugin(tauri_plugin_dialog::init())
        .plugin(tauri_plugin_window_state::Builder::default().build());
    build_app(builder, state)
        .run(tauri::generate_context!())
        .map_err(|e| anyhow::anyhow!("the window could not be started: {e}"))
}
