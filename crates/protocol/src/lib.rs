//! The data contract between the engine and the user interface: session events, approval requests and answers,
//! permission modes and decisions with what decided them, the render hints tools give the transcript, and the typed
//! details of tool results. Everything here is plain data (serde + schemars + ts-rs); TypeScript types are generated
//! into `ui/src/generated/protocol.ts`.

mod agents;
mod app_settings;
mod approval;
mod decision_source;
mod detail;
mod elicitation;
mod events;
mod interaction;
mod mcp;
mod organise;
mod panels;
mod permission;
mod plugins;
mod prompt;
mod render;
mod rewind;
mod sandbox;
mod search;
mod shells;
mod terminal;
mod trace;
pub mod typescript;
mod usage;
mod work_list;

pub use agents::{
    BackgroundAgent, BackgroundAgentStatus, SubAgentOrigin, TeamInfo, TeamMember, TeamMemberStatus,
};
pub use app_settings::{AppSettings, AppSettingsUpdate, KeySource, Theme};
pub use approval::{
    ApprovalAnswer, ApprovalChoice, ApprovalRequest, FileDiff, Revision, RuleSuggestion,
};
pub use decision_source::{DecisionSource, RuleScope, SafetyCheck};
pub use detail::{
    DiffHunk, FileRevision, NotebookCellChange, ReadContent, TaskStatus, ToolDetail, WebLink,
};
pub use elicitation::{
    ElicitationAction, ElicitationAnswer, ElicitationField, ElicitationRequest, EnumOption,
    FieldKind, StringFormat,
};
pub use events::{
    BriefStatus, EventBatch, EventEnvelope, FolderTrust, ScheduledPrompt, SessionEvent,
    SessionInfo, SessionSummary, ToolCallStatus, ToolOutcome, TurnStopReason,
    UnreadableSettingsFile, Usage,
};
pub use interaction::{
    PlanAnswer, PlanChoice, PlanRequest, Question, QuestionAnswer, QuestionOption, QuestionOutcome,
    QuestionReply, QuestionRequest,
};
pub use mcp::{McpResourceEntry, McpServerState, McpServerStatus};
pub use organise::SessionCollection;
pub use panels::{CallCheck, HookListing, HookTestResult, RuleFiles, RuleListing, RulesView};
pub use permission::{DecisionBehavior, PermissionDecision, PermissionMode};
pub use plugins::{PluginCounts, PluginListing};
pub use prompt::{MentionCompletion, MentionKind, PromptImage, SlashCommand, SlashCommandSource};
pub use render::{RenderHints, ToolKind, ToolListing};
pub use rewind::{ChangedFile, RewindOutcome, RewindPoint, RewindScope};
pub use sandbox::SandboxViolation;
pub use search::{SearchSnippetPart, SessionSearchHit};
pub use shells::{BackgroundReason, BackgroundShell};
pub use terminal::{TerminalChunk, TerminalOpened};
pub use trace::{DecisionTrace, RuleRole, TraceCheck, TraceStep};
pub use usage::{
    BudgetAction, BudgetLimits, BudgetPeriod, BudgetStatus, SessionUsage, ToolCallCost,
    UsageReport, UsageRow, UsageTotals,
};
pub use work_list::{KeptWorktree, TaskItem, TodoItem, TodoStatus};
