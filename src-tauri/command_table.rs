//! The table of the commands the webview may call: each command's name, its arguments (the Rust parameter names,
//! sent in camelCase as Tauri reads them) and what it resolves to, the types named by ts-rs from the Rust types.
//! `typescript::render_commands` writes one typed `invoke` wrapper per command from it into
//! `ui/src/generated/commands.ts`; the app test `generated_command_table_names_every_registered_command_once`
//! checks that it names exactly the commands `build_app` registers (`registered_commands`). Written by hand rather
//! than with tauri-specta: that needs `specta::Type` on every argument and result, while the protocol's types derive
//! ts-rs, which already names them.

use tandem_protocol::{
    AppSettings, AppSettingsUpdate, ApprovalAnswer, BackgroundShell, BudgetStatus, CallCheck,
    ChangedFile, DecisionBehavior, ElicitationAnswer, EventEnvelope, FolderTrust, HookListing,
    HookTestResult, KeptWorktree, McpServerStatus, MentionCompletion, PermissionMode, PlanAnswer,
    PluginListing, PromptImage, QuestionAnswer, RewindOutcome, RewindPoint, RewindScope, RuleScope,
    RulesView, SandboxViolation, SessionCollection, SessionInfo, SessionSearchHit, SessionSummary,
    SlashCommand, TerminalOpened, ToolListing, UnreadableSettingsFile, UsageReport,
};
use ts_rs::{Config, TS};

use crate::carry::ImportSummary;
use crate::commands::AppStateView;
use crate::commands::hosted::AgentServers;
use crate::commands::mcp::McpSignIn;
use crate::settings::SavedSettings;

/// One command: its name, arguments and result as TypeScript types.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandSignature {
    pub name: &'static str,
    /// Each argument's Rust parameter name and TypeScript type, in the order of the Rust parameters.
    pub args: Vec<(&'static str, String)>,
    /// What the command resolves to; `void` for `()`.
    pub returns: String,
}

impl CommandSignature {
    fn new(name: &'static str) -> Self {
        Self {
            name,
            args: Vec::new(),
            returns: "void".to_owned(),
        }
    }

    fn arg<T: TS>(mut self, name: &'static str) -> Self {
        self.args.push((name, T::name(&Config::default())));
        self
    }

    /// An argument ts-rs cannot name as the webview sends it: the event channel, a JSON value, a `u64` the
    /// webview sends as a number.
    fn arg_as(mut self, name: &'static str, ts: &str) -> Self {
        self.args.push((name, ts.to_owned()));
        self
    }

    fn returns<T: TS>(mut self) -> Self {
        self.returns = T::name(&Config::default());
        self
    }
}

fn command(name: &'static str) -> CommandSignature {
    CommandSignature::new(name)
}

/// Every command the app registers, in the order of its invoke handler.
pub fn commands() -> Vec<CommandSignature> {
    vec![
        command("app_state").returns::<AppStateView>(),
        command("open_session")
            .arg::<String>("path")
            .arg_as("on_event", "Channel<EventBatch>")
            .arg::<Option<String>>("resume")
            .arg::<Option<String>>("replaces")
            .arg::<Option<bool>>("own_agent")
            .returns::<SessionInfo>(),
        command("agent_servers").returns::<AgentServers>(),
        command("open_hosted_session")
            .arg::<Option<String>>("path")
            .arg_as("on_event", "Channel<EventBatch>")
            .arg::<Option<String>>("agent")
            .arg::<Option<String>>("remote")
            .arg::<Option<String>>("resume")
            .returns::<SessionInfo>(),
        command("close_session").arg::<String>("session_id"),
        command("session_events")
            .arg::<String>("session_id")
            .arg_as("after_seq", "number | null")
            .returns::<Vec<EventEnvelope>>(),
        command("list_sessions")
            .arg::<String>("path")
            .returns::<Vec<SessionSummary>>(),
        command("search_sessions")
            .arg::<String>("query")
            .arg::<Option<u32>>("limit")
            .returns::<Vec<SessionSearchHit>>(),
        command("list_collections")
            .arg::<String>("path")
            .returns::<Vec<SessionCollection>>(),
        command("create_collection")
            .arg::<String>("path")
            .arg::<String>("name")
            .arg_as("parent_id", "number | null")
            .returns::<SessionCollection>(),
        command("rename_collection")
            .arg_as("id", "number")
            .arg::<String>("name"),
        command("delete_collection").arg_as("id", "number"),
        command("move_session")
            .arg::<String>("session_id")
            .arg_as("collection_id", "number | null"),
        command("set_session_pinned")
            .arg::<String>("session_id")
            .arg::<bool>("pinned"),
        command("set_session_archived")
            .arg::<String>("session_id")
            .arg::<bool>("archived"),
        command("set_session_tags")
            .arg::<String>("session_id")
            .arg::<Vec<String>>("tags")
            .returns::<Vec<String>>(),
        command("export_session")
            .arg::<String>("session_id")
            .arg::<String>("format")
            .returns::<Option<String>>(),
        command("clipboard_image").returns::<Option<PromptImage>>(),
        command("import_sessions")
            .arg::<bool>("claude_code")
            .returns::<Option<ImportSummary>>(),
        command("pick_folder").returns::<Option<String>>(),
        command("send_prompt")
            .arg::<String>("session_id")
            .arg::<String>("prompt")
            .arg::<Option<Vec<PromptImage>>>("images"),
        command("answer_approval").arg::<ApprovalAnswer>("answer"),
        command("answer_plan").arg::<PlanAnswer>("answer"),
        command("answer_questions").arg::<QuestionAnswer>("answer"),
        command("answer_elicitation").arg::<ElicitationAnswer>("answer"),
        command("interrupt").arg::<String>("session_id"),
        command("stop_sub_agent")
            .arg::<String>("session_id")
            .arg::<String>("id")
            .returns::<bool>(),
        command("send_to_background")
            .arg::<String>("session_id")
            .arg::<Option<String>>("tool_use_id")
            .returns::<usize>(),
        command("background_shells")
            .arg::<String>("session_id")
            .returns::<Vec<BackgroundShell>>(),
        command("background_shell_output")
            .arg::<String>("session_id")
            .arg::<String>("task_id")
            .returns::<Option<String>>(),
        command("stop_background_shell")
            .arg::<String>("session_id")
            .arg::<String>("task_id")
            .returns::<bool>(),
        command("open_terminal")
            .arg::<String>("session_id")
            .arg::<u16>("rows")
            .arg::<u16>("cols")
            .arg_as("on_output", "Channel<TerminalChunk>")
            .returns::<TerminalOpened>(),
        command("terminal_input")
            .arg::<String>("session_id")
            .arg::<String>("data"),
        command("resize_terminal")
            .arg::<String>("session_id")
            .arg::<u16>("rows")
            .arg::<u16>("cols"),
        command("close_terminal").arg::<String>("session_id"),
        command("set_mode")
            .arg::<String>("session_id")
            .arg::<PermissionMode>("mode"),
        command("rewind_points")
            .arg::<String>("session_id")
            .returns::<Vec<RewindPoint>>(),
        command("rewind")
            .arg::<String>("session_id")
            .arg::<String>("prompt_id")
            .arg::<RewindScope>("scope")
            .arg::<bool>("force")
            .returns::<RewindOutcome>(),
        command("trust_folder")
            .arg::<String>("session_id")
            .returns::<FolderTrust>(),
        command("revoke_trust")
            .arg::<String>("session_id")
            .returns::<FolderTrust>(),
        command("unreadable_settings")
            .arg::<String>("session_id")
            .returns::<Vec<UnreadableSettingsFile>>(),
        command("accept_unreadable_settings")
            .arg::<String>("session_id")
            .arg::<String>("file")
            .returns::<Vec<UnreadableSettingsFile>>(),
        command("unreadable_settings_text")
            .arg::<String>("session_id")
            .arg::<String>("file")
            .returns::<String>(),
        command("session_changes")
            .arg::<String>("session_id")
            .returns::<Vec<ChangedFile>>(),
        command("rename_session")
            .arg::<String>("session_id")
            .arg::<String>("title"),
        command("delete_session").arg::<String>("session_id"),
        command("fork_session")
            .arg::<String>("session_id")
            .arg::<Option<String>>("prompt_id")
            .returns::<String>(),
        command("mcp_servers")
            .arg::<String>("session_id")
            .returns::<Vec<McpServerStatus>>(),
        command("approve_mcp_server")
            .arg::<String>("session_id")
            .arg::<String>("name")
            .arg::<bool>("approved"),
        command("allow_sandbox_violation")
            .arg::<String>("session_id")
            .arg::<SandboxViolation>("violation")
            .returns::<String>(),
        command("reconnect_mcp_server")
            .arg::<String>("session_id")
            .arg::<String>("name"),
        command("sign_in_mcp_server")
            .arg::<String>("session_id")
            .arg::<String>("name")
            .returns::<McpSignIn>(),
        command("set_mcp_tool_enabled")
            .arg::<String>("session_id")
            .arg::<String>("tool")
            .arg::<bool>("enabled"),
        command("slash_commands")
            .arg::<String>("session_id")
            .returns::<Vec<SlashCommand>>(),
        command("complete_mention")
            .arg::<String>("session_id")
            .arg::<String>("query")
            .returns::<Vec<MentionCompletion>>(),
        command("tool_list")
            .arg::<String>("session_id")
            .returns::<Vec<ToolListing>>(),
        command("kept_worktrees")
            .arg::<String>("session_id")
            .returns::<Vec<KeptWorktree>>(),
        command("settle_worktree")
            .arg::<String>("session_id")
            .arg::<String>("branch")
            .arg::<bool>("merge"),
        command("rules_view")
            .arg::<String>("session_id")
            .returns::<RulesView>(),
        command("add_rule")
            .arg::<String>("session_id")
            .arg::<RuleScope>("scope")
            .arg::<DecisionBehavior>("behavior")
            .arg::<String>("rule"),
        command("remove_rule")
            .arg::<String>("session_id")
            .arg::<RuleScope>("scope")
            .arg::<DecisionBehavior>("behavior")
            .arg::<String>("rule"),
        command("move_rule")
            .arg::<String>("session_id")
            .arg::<RuleScope>("from")
            .arg::<RuleScope>("to")
            .arg::<DecisionBehavior>("behavior")
            .arg::<String>("rule"),
        command("check_call")
            .arg::<String>("session_id")
            .arg::<String>("tool")
            .arg_as("input", "unknown")
            .returns::<CallCheck>(),
        command("hooks_view")
            .arg::<String>("session_id")
            .returns::<Vec<HookListing>>(),
        command("test_hook")
            .arg::<String>("session_id")
            .arg::<String>("event")
            .arg::<String>("command")
            .arg_as("input", "unknown")
            .returns::<HookTestResult>(),
        command("plugins_view")
            .arg::<String>("session_id")
            .returns::<Vec<PluginListing>>(),
        command("set_plugin_enabled")
            .arg::<String>("session_id")
            .arg::<String>("id")
            .arg::<bool>("enabled")
            .returns::<Vec<PluginListing>>(),
        command("app_settings").returns::<AppSettings>(),
        command("save_app_settings")
            .arg::<AppSettingsUpdate>("update")
            .returns::<SavedSettings>(),
        command("notify_person")
            .arg::<String>("title")
            .arg::<String>("body"),
        command("open_user_file")
            .arg::<String>("session_id")
            .arg::<String>("path")
            .arg::<bool>("reveal"),
        command("usage_report")
            .arg::<Option<String>>("since")
            .arg::<Option<String>>("folder")
            .returns::<UsageReport>(),
        command("budget_status").returns::<Vec<BudgetStatus>>(),
    ]
}
