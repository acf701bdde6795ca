//! The built-in tools, one module (or folder) each, and what the file tools share.

pub mod agent;
pub mod ask_user;
pub mod bash;
pub mod brief;
pub mod config;
pub mod context;
pub mod cron;
pub mod edit;
pub mod features;
pub mod file_io;
pub mod github;
pub mod glob;
pub mod grep;
pub mod lsp;
pub mod monitor;
pub mod notebook_edit;
pub mod overflow_test;
pub mod plan_mode;
pub mod powershell;
pub mod push_notification;
pub mod read;
pub mod remote_trigger;
pub mod repl;
pub mod responses;
pub mod send_user_file;
pub mod skill;
pub mod sleep;
pub mod structured_output;
pub mod team;
pub mod terminal_panel;
pub mod tool_search;
pub mod tungsten;
pub mod verify_plan;
pub mod web_browser;
pub mod web_fetch;
pub mod web_search;
pub mod work_list;
pub mod workflow;
pub mod worktree;
pub mod write;

/// How the transcript draws a search (Glob, Grep): `what`, then the folder searched when one was given.
fn search_hints(what: String, path: Option<&str>) -> tandem_protocol::RenderHints {
    let place = path.map(|p| format!(" in {p}")).unwrap_or_default();
    tandem_protocol::RenderHints {
        kind: tandem_protocol::ToolKind::Search,
        title: format!("{what}{place}"),
        collapsible: true,
    }
}
