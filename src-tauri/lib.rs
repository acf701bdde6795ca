//! The Tauri shell around the engine: the window, its menu, the commands the webview calls, the event bridge and
//! the app's log file. Thin by design: every decision lives in `tandem-engine`. The command line is `tandem-cli`.

pub mod bridge;
pub mod carry;
pub mod clipboard;
pub mod command_table;
pub mod commands;
pub mod error;
pub mod hosted;
pub mod instance;
pub mod logging;
pub mod menu;
pub mod notify;
pub mod opener;
pub mod recent;
pub mod settings;
pub mod state;
pub mod typescript;
pub mod webview_setup;

use std::path::PathBuf;

use tauri::{Manager, Runtime};

/// Calls the macro `$then` with the path of every command the webview may call. The invoke handler is built from this
/// list and `registered_commands` reads it, so the table of typed bindings (command_table.rs) is checked against what
/// the app really registers.
macro_rules! with_commands {
    ($($then:ident)::+) => {
        $($then)::+![
            commands::app_state,
            commands::session::open_session,
            commands::hosted::agent_servers,
            commands::hosted::open_hosted_session,
            commands::session::close_session,
            commands::session::session_events,
            commands::session::list_sessions,
            commands::search::search_sessions,
            commands::organise::list_collections,
            commands::organise::create_collection,
            commands::organise::rename_collection,
            commands::organise::delete_collection,
            commands::organise::move_session,
            commands::organise::set_session_pinned,
            commands::organise::set_session_archived,
            commands::organise::set_session_tags,
            commands::carry::export_session,
            clipboard::clipboard_image,
            commands::carry::import_sessions,
            commands::pick_folder,
            commands::session::send_prompt,
            commands::session::answer_approval,
            commands::session::answer_plan,
            commands::session::answer_questions,
            commands::session::answer_elicitation,
            commands::session::interrupt,
            commands::session::stop_sub_agent,
            commands::session::send_to_background,
            commands::session::background_shells,
            commands::session::background_shell_output,
            commands::session::stop_background_shell,
            commands::terminal::open_terminal,
            commands::terminal::terminal_input,
            commands::terminal::resize_terminal,
            commands::terminal::close_terminal,
            commands::session::set_mode,
            commands::history::rewind_points,
            commands::history::rewind,
            commands::rules::trust_folder,
            commands::rules::revoke_trust,
            commands::unreadable::unreadable_settings,
            commands::unreadable::accept_unreadable_settings,
            commands::unreadable::unreadable_settings_text,
            commands::history::session_changes,
            commands::history::rename_session,
            commands::history::delete_session,
            commands::history::fork_session,
            commands::mcp::mcp_servers,
            commands::mcp::approve_mcp_server,
            commands::rules::allow_sandbox_violation,
            commands::mcp::reconnect_mcp_server,
            commands::mcp::sign_in_mcp_server,
            commands::mcp::set_mcp_tool_enabled,
            commands::prompt::slash_commands,
            commands::prompt::complete_mention,
            commands::prompt::tool_list,
            commands::worktrees::kept_worktrees,
            commands::worktrees::settle_worktree,
            commands::rules::rules_view,
            commands::rules::add_rule,
            commands::rules::remove_rule,
            commands::rules::move_rule,
            commands::rules::check_call,
            commands::rules::hooks_view,
            commands::rules::test_hook,
            commands::plugins::plugins_view,
            commands::plugins::set_plugin_enabled,
            settings::app_settings,
            settings::save_app_settings,
            notify::notify_person,
            opener::open_user_file,
            commands::usage::usage_report,
            commands::usage::budget_status,
        ]
    };
}

/// The names of the commands the app's invoke handler registers.
pub fn registered_commands() -> Vec<&'static str> {
    macro_rules! names {
        ($($($segment:ident)::+),* $(,)?) => {
            [$(stringify!($($segment)::+)),*]
        };
    }
    with_commands!(names)
        .iter()
        .map(|path| path.rsplit("::").next().unwrap_or(path).trim())
        .collect()
}

/// Registers `state`, the commands and the menu on `builder`. Generic over the runtime so tests can use the mock
/// runtime.
pub fn build_app<R: Runtime>(
    builder: tauri::Builder<R>,
    state: state::AppState,
) -> tauri::Builder<R> {
    builder
        .plugin(tauri_plugin_opener::init())
        .plugin(tauri_plugin_notification::init())
        .manage(state)
        .invoke_handler(with_commands!(tauri::generate_handler))
        .setup(|app| {
            let handle = app.handle().clone();
            logging::start(&handle);
            opener::install(&handle);
            if let Some(window) = app.get_webview_window("main") {
                webview_setup::configure(&window);
            }
            let recent = app.state::<state::AppState>().recent_folders();
            app.set_menu(menu::build(&handle, &recent)?)?;
            app.on_menu_event(menu::handle_event);
            Ok(())
        })
}

/// Runs the desktop app until its window closes, on `initial_folder`, or on the remote folder `initial_remote`
/// (`ssh://user@host/path`) when one is given.
pub fn run_app(
    initial_folder: Option<PathBuf>,
    initial_remote: Option<String>,
) -> anyhow::Result<()> {
    let mut state = state::AppState::with_default_store(initial_folder);
    state.initial_remote = initial_remote;
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
    let app = build_app(builder, state)
        .build(tauri::generate_context!())
        .map_err(|e| anyhow::anyhow!("the window could not be started: {e}"))?;
    app.run(|app, event| {
        if let tauri::RunEvent::Exit = event {
            end_sessions(app);
        }
    });
    Ok(())
}

/// The window closes: every open session ends (SessionEnd hooks, reason `prompt_input_exit`) before the app goes.
fn end_sessions<R: Runtime>(app: &tauri::AppHandle<R>) {
    let open: Vec<std::sync::Arc<tandem_engine::session::Session>> = app
        .state::<state::AppState>()
        .sessions
        .lock()
        .map(|mut sessions| sessions.drain().map(|(_, s)| s).collect())
        .unwrap_or_default();
    let hosted = app.state::<state::AppState>().hosted.drain();
    tauri::async_runtime::block_on(async move {
        // A hosted tab's agent ends with its session.
        for tab in hosted {
            tab.end(tandem_engine::session::EndReason::PromptInputExit)
                .await;
        }
        for session in open {
            if session.is_hosted() {
                continue;
            }
            session.interrupt();
            session
                .end(tandem_engine::session::EndReason::PromptInputExit)
                .await;
        }
    });
}
