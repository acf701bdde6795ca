//! Session events: everything the UI (or a `stream-json` consumer) is told about a running session.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::{
    ApprovalRequest, BackgroundAgent, BackgroundShell, BudgetStatus, ElicitationRequest,
    McpServerStatus, PermissionDecision, PermissionMode, PlanRequest, PromptImage, QuestionRequest,
    RenderHints, SandboxViolation, TaskItem, TeamInfo, TodoItem, ToolDetail,
};

/// Token usage of a model response or of a whole session.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct Usage {
    #[ts(type = "number")]
    pub input_tokens: u64,
    #[ts(type = "number")]
    pub output_tokens: u64,
    #[ts(type = "number")]
    pub cache_creation_input_tokens: u64,
    #[ts(type = "number")]
    pub cache_read_input_tokens: u64,
}

impl Usage {
    /// Adds another usage figure to this one.
    pub fn add(&mut self, other: &Usage) {
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
        self.cache_creation_input_tokens += other.cache_creation_input_tokens;
        self.cache_read_input_tokens += other.cache_read_input_tokens;
    }
}

/// Where a tool call is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum ToolCallStatus {
    Queued,
    WaitingForApproval,
    Executing,
    Completed,
}

/// How a tool call ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum ToolOutcome {
    Success,
    Error,
    Denied,
    Cancelled,
}

/// Why a turn ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum TurnStopReason {
    EndTurn,
    MaxTokens,
    MaxTurns,
    Refusal,
    Interrupted,
    Error,
    /// A budget the person set to stop was reached; no further model request was made.
    BudgetReached,
}

/// Facts about a session shown in the window's header and status bar.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct SessionInfo {
    pub session_id: String,
    /// Absolute path of the project folder.
    pub cwd: String,
    /// The folder's name.
    pub folder_name: String,
    pub model: String,
    pub mode: PermissionMode,
    /// Set when no model can be reached yet (e.g. no API key): what the user should do.
    pub setup_hint: Option<String>,
    /// Whether the folder is trusted, and what trusting it enables.
    pub trust: FolderTrust,
    /// The model's context window in tokens, and the share of it (percent) at which the conversation is
    /// compacted: the status bar's context meter.
    #[serde(default)]
    #[ts(type = "number")]
    pub context_window: u64,
    #[serde(default)]
    pub compact_at_percent: u32,
    /// Whether auto mode can be offered: a classifier model is configured and reachable (without one, auto mode
    /// would only ask). The mode switcher offers `auto` only when this is set.
    #[serde(default)]
    pub auto_mode_available: bool,
    /// Whether the window offers its terminal panel in this session (the `TERMINAL_PANEL` switch is on).
    #[serde(default)]
    pub terminal_panel: bool,
}

/// Workspace trust of a session's folder: until the person trusts it, the project's own settings may restrict but
/// never grant (its allow rules, extra directories, hooks and MCP servers wait).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, TS)]
pub struct FolderTrust {
    pub trusted: bool,
    /// The project's allow rules (from `.claude/settings.json` and `.claude/settings.local.json`).
    pub allow_rules: Vec<String>,
    /// Directories outside the folder the project's settings add.
    pub directories: Vec<String>,
    /// The project's hooks, as `Event (matcher): command`.
    pub hooks: Vec<String>,
    /// MCP servers the project defines (`.mcp.json` and project settings), as `name: command or url`.
    pub mcp_servers: Vec<String>,
}

/// A settings file that exists but could not be read or parsed. It may hold deny rules, so until it is fixed every
/// tool call asks; in the window the person may instead accept running without it (until it changes on disk).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct UnreadableSettingsFile {
    /// The file's path.
    pub file: String,
    /// What is wrong with it (`is not valid JSON: … at line 3 column 1`).
    pub problem: String,
    /// The person accepted running without it, and it has not changed since.
    pub accepted: bool,
}

/// One session in the window's list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct SessionSummary {
    pub session_id: String,
    /// From the first prompt unless renamed.
    pub title: String,
    /// Milliseconds since the Unix epoch.
    #[ts(type = "number")]
    pub updated_at_ms: u64,
    pub message_count: u32,
    /// Listed first in its folder.
    #[serde(default)]
    pub pinned: bool,
    /// Listed under "Archived" only.
    #[serde(default)]
    pub archived: bool,
    /// Lower case, sorted, without repeats.
    #[serde(default)]
    pub tags: Vec<String>,
    /// The collection (the sidebar's folder) it is in; `None`: the top level.
    #[serde(default)]
    #[ts(type = "number | null")]
    pub collection_id: Option<i64>,
}

/// One thing that happened in a session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SessionEvent {
    /// The user sent a prompt; a turn begins. `prompt_id` names the prompt for a rewind (as in
    /// [`crate::RewindPoint`]); absent in events stored before prompts had ids.
    TurnStarted {
        prompt: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        prompt_id: Option<String>,
    },
    /// The conversation was rewound to before prompt `prompt_id`: that prompt and everything after it are gone
    /// from what the model sees, so the transcript drops them too (also when a stored session is replayed).
    ConversationRewound { prompt_id: String },
    /// The images the prompt of the turn that just started carries, as the model is given them (sized down):
    /// right after its `TurnStarted`, only when it has any.
    PromptImages { images: Vec<PromptImage> },
    /// Assistant text streamed in.
    TextDelta { text: String },
    /// Assistant thinking streamed in.
    ThinkingDelta { text: String },
    /// A tool_use block began streaming (its input is not complete yet).
    ToolCallStarted { tool_use_id: String, name: String },
    /// A tool_use block is complete: its input is known.
    ToolCallInput {
        tool_use_id: String,
        name: String,
        #[ts(type = "unknown")]
        input: Value,
        hints: RenderHints,
    },
    /// The call moved to a new state.
    ToolCallStatusChanged {
        tool_use_id: String,
        status: ToolCallStatus,
    },
    /// The permission engine decided about the call.
    ToolCallDecision {
        tool_use_id: String,
        decision: PermissionDecision,
    },
    /// Progress output of a running call (e.g. a line of shell output).
    ToolCallProgress { tool_use_id: String, text: String },
    /// The call ended; `content` is what the model is given.
    ToolCallResult {
        tool_use_id: String,
        outcome: ToolOutcome,
        content: String,
        /// Structured data for the UI (e.g. a file change with its diff).
        #[serde(default)]
        detail: Option<ToolDetail>,
    },
    /// The shell sandbox refused something a running call tried (a write or a connection); the window offers to
    /// allow it.
    SandboxViolation {
        tool_use_id: String,
        violation: SandboxViolation,
    },
    /// The engine waits for the person's answer.
    ApprovalRequested { request: Box<ApprovalRequest> },
    /// The request was answered (or withdrawn): a permission request, a plan review or questions.
    ApprovalResolved { request_id: String },
    /// The engine waits for the person to approve a plan (or to keep planning).
    PlanReviewRequested { request: PlanRequest },
    /// The engine waits for the person's answers to the agent's questions.
    QuestionsAsked { request: QuestionRequest },
    /// An MCP server waits for the person to fill in its form (or decline).
    ElicitationRequested { request: ElicitationRequest },
    /// The to-do list changed; the whole list as it is now.
    TodosChanged { todos: Vec<TodoItem> },
    /// The task list changed; the whole list as it is now.
    TasksChanged { tasks: Vec<TaskItem> },
    /// A model request failed and will be retried after `wait_ms`.
    Retrying {
        attempt: u32,
        #[ts(type = "number")]
        wait_ms: u64,
        reason: String,
    },
    /// Usage after a model response, cumulative for the session.
    UsageUpdated {
        turn: Usage,
        session: Usage,
        cost_usd: f64,
    },
    /// What was spent reached a budget's warning share (`reached`: false) or the budget itself (true); sent once
    /// per budget and period by each session, and again when a turn is stopped by it.
    BudgetWarning { status: BudgetStatus, reached: bool },
    /// The turn ended.
    TurnEnded { stop_reason: TurnStopReason },
    /// The permission mode changed (by the person or a tool such as plan mode).
    ModeChanged { mode: PermissionMode },
    /// The session's model changed (the person typed `/model name`).
    ModelChanged { model: String },
    /// Something went wrong; the message is for the person.
    Error { message: String },
    /// Information for the person that is not an error.
    Notice { message: String },
    /// An external agent hosting the session opened (or loaded) its own session: its name and its session's id
    /// there, kept so that a later run can continue that session (`session/load`). Nothing is shown for it.
    HostedSessionOpened {
        agent: String,
        agent_session_id: String,
    },
    /// The settings files that could not be read or parsed, as they are now (at the session's start, and when one
    /// changes, is fixed or is accepted): empty when there are none left.
    UnreadableSettings { files: Vec<UnreadableSettingsFile> },
    /// An MCP server changed state (connecting, ready, failed, needs approval, disabled) or its tools changed.
    McpServerChanged { server: McpServerStatus },
    /// Something that happened in a sub-agent's own conversation, started by the parent's tool call
    /// `parent_tool_use_id` (the sub-agent's approval requests are not wrapped: they reach the person as any other,
    /// their title naming the sub-agent).
    SubAgent {
        parent_tool_use_id: String,
        agent_id: String,
        event: Box<SessionEvent>,
    },
    /// A background sub-agent started or ended (the window lists them with their state).
    BackgroundAgentChanged { agent: BackgroundAgent },
    /// A background shell started, or it ended (exited or stopped): the window lists them with their state.
    BackgroundShellChanged { shell: BackgroundShell },
    /// A team was created, one of its members changed state, or it was deleted: the whole team as it is now.
    TeamChanged { team: TeamInfo },
    /// The agent's short summary for the person (the Brief tool), shown apart from the ordinary answer.
    Brief {
        /// The summary, as markdown.
        message: String,
        /// `proactive`: the agent tells the person something unasked; `normal`: an answer to them.
        status: BriefStatus,
    },
    /// The agent hands the person a file (SendUserFile): the window shows it with buttons to open it and to show
    /// it in its folder.
    UserFile {
        /// The file's absolute path.
        path: String,
        /// Its size in bytes when it was sent.
        #[ts(type = "number")]
        bytes: u64,
        /// What the agent says of it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        caption: Option<String>,
    },
    /// The project's scheduled prompts (CronCreate's jobs in `.claude/scheduled_tasks.json`), sent when a session
    /// that fires them opens and whenever they change (a job added, deleted or fired).
    ScheduledPrompts { prompts: Vec<ScheduledPrompt> },
    /// The agent asks for a desktop notification (PushNotification): shown even while the window has the focus,
    /// unless the person turned notifications off.
    PushNotification { title: String, message: String },
}

/// One scheduled prompt, as the window lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ScheduledPrompt {
    pub id: String,
    /// The five-field cron expression, in local time.
    pub cron: String,
    /// The schedule in words ("At 09:00, Monday through Friday").
    pub schedule: String,
    /// What is sent when it fires.
    pub prompt: String,
    /// `false`: it fires once, then is removed.
    pub recurring: bool,
    /// When it fires next (milliseconds since the epoch); `None` when it never will.
    #[ts(type = "number | null")]
    pub next_fire_ms: Option<i64>,
}

/// Why the agent sends a brief.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum BriefStatus {
    Normal,
    Proactive,
}

/// An event with its session and position.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct EventEnvelope {
    pub session_id: String,
    /// Increases by one per event within a session.
    #[ts(type = "number")]
    pub seq: u64,
    pub event: SessionEvent,
}

/// What crosses into the webview at once: the events of one flush interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct EventBatch {
    pub events: Vec<EventEnvelope>,
}
