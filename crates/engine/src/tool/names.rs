//! The names the model calls the built-in tools by (and the older names rules may still use): the wire names in
//! one place, so that a typo is a compile error rather than a rule that never matches.

pub const AGENT: &str = "Agent";
pub const TASK: &str = "Task";
pub const BASH: &str = "Bash";
pub const BASH_OUTPUT: &str = "BashOutput";
pub const TASK_OUTPUT: &str = "TaskOutput";
pub const KILL_SHELL: &str = "KillShell";
pub const KILL_BASH: &str = "KillBash";
pub const READ: &str = "Read";
pub const WRITE: &str = "Write";
pub const EDIT: &str = "Edit";
pub const MULTI_EDIT: &str = "MultiEdit";
pub const NOTEBOOK_EDIT: &str = "NotebookEdit";
pub const NOTEBOOK_READ: &str = "NotebookRead";
pub const GLOB: &str = "Glob";
pub const GREP: &str = "Grep";
pub const LS: &str = "LS";
pub const WEB_FETCH: &str = "WebFetch";
pub const WEB_SEARCH: &str = "WebSearch";
pub const TODO_WRITE: &str = "TodoWrite";
pub const ASK_USER_QUESTION: &str = "AskUserQuestion";
pub const EXIT_PLAN_MODE: &str = "ExitPlanMode";
pub const ENTER_PLAN_MODE: &str = "EnterPlanMode";
pub const SKILL: &str = "Skill";
pub const SLASH_COMMAND: &str = "SlashCommand";
pub const TOOL_SEARCH: &str = "ToolSearch";
pub const LIST_MCP_RESOURCES: &str = "ListMcpResourcesTool";
pub const READ_MCP_RESOURCE: &str = "ReadMcpResourceTool";
pub const MCP_AUTH: &str = "McpAuth";
pub const ENTER_WORKTREE: &str = "EnterWorktree";
pub const EXIT_WORKTREE: &str = "ExitWorktree";
pub const TASK_CREATE: &str = "TaskCreate";
pub const TASK_GET: &str = "TaskGet";
pub const TASK_UPDATE: &str = "TaskUpdate";
pub const TASK_LIST: &str = "TaskList";
pub const TASK_STOP: &str = "TaskStop";
pub const SEND_MESSAGE: &str = "SendMessage";
pub const LSP: &str = "LSP";
pub const CONFIG: &str = "Config";
pub const SLEEP: &str = "Sleep";
pub const BRIEF: &str = "Brief";
/// The structured-output tool (`tandem -p --json-schema`): the model gives its final answer through it.
pub const STRUCTURED_OUTPUT: &str = "StructuredOutput";
pub const TEAM_CREATE: &str = "TeamCreate";
pub const TEAM_DELETE: &str = "TeamDelete";
pub const LIST_PEERS: &str = "ListPeers";
pub const VERIFY_PLAN_EXECUTION: &str = "VerifyPlanExecution";
pub const CRON_CREATE: &str = "CronCreate";
pub const CRON_DELETE: &str = "CronDelete";
pub const CRON_LIST: &str = "CronList";
/// The interactive terminal the model drives (behind `USER_TYPE=ant`).
pub const TUNGSTEN: &str = "Tungsten";
/// What fills the context window (behind `CONTEXT_COLLAPSE`).
pub const CTX_INSPECT: &str = "CtxInspect";
/// The model cuts stale tool results from its own history (behind `HISTORY_SNIP`).
pub const SNIP: &str = "Snip";
pub const MONITOR: &str = "Monitor";
pub const OVERFLOW_TEST: &str = "OverflowTest";
/// Runs a JavaScript program whose functions are the primitive tools (`USER_TYPE=ant` with `CLAUDE_CODE_REPL`).
pub const REPL: &str = "REPL";
/// Runs a workflow script of the project: named, permission-checked steps (behind `WORKFLOW_SCRIPTS`).
pub const WORKFLOW: &str = "Workflow";
/// Hands the person a file (behind `KAIROS`).
pub const SEND_USER_FILE: &str = "SendUserFile";
/// PowerShell commands, where `pwsh` is installed.
pub const POWERSHELL: &str = "PowerShell";
/// A desktop notification for the person (behind `KAIROS`).
pub const PUSH_NOTIFICATION: &str = "PushNotification";
/// A headless Chromium the model drives (behind `WEB_BROWSER_TOOL`).
pub const WEB_BROWSER: &str = "WebBrowser";
/// Wakes the session when a GitHub pull request changes (behind `KAIROS_GITHUB_WEBHOOKS`).
pub const SUBSCRIBE_PR: &str = "SubscribePR";
/// Proposes background work that ends as a pull request (behind `USER_TYPE=ant`).
pub const SUGGEST_BACKGROUND_PR: &str = "SuggestBackgroundPR";
/// Scheduled prompts run on another machine over `ssh` (behind `AGENT_TRIGGERS_REMOTE`).
pub const REMOTE_TRIGGER: &str = "RemoteTrigger";
/// Reads what the person's terminal panel in the window shows (behind `TERMINAL_PANEL`).
pub const TERMINAL_CAPTURE: &str = "TerminalCapture";
