// Generated from crates/protocol by `cargo run -p tandem-protocol --bin gen-ts`. Do not edit.

export type PermissionMode = "default" | "acceptEdits" | "plan" | "dontAsk" | "bypassPermissions" | "auto" | "bubble";

export type DecisionBehavior = "allow" | "ask" | "deny";

export type PermissionDecision = { decision: DecisionBehavior, 
/**
 * Human-readable explanation naming what decided.
 */
reason: string, 
/**
 * The rule text that decided, when a rule did.
 */
rule: string | null, 
/**
 * Where that rule (or hook) came from: a settings file path, `cliArg`, `session`, ...
 */
source: string | null, };

export type ToolKind = "read" | "search" | "list" | "edit" | "write" | "shell" | "fetch" | "agent" | "other";

export type RenderHints = { kind: ToolKind, 
/**
 * One line naming what the call does, e.g. `Read src/main.rs`.
 */
title: string, 
/**
 * Whether the call may fold into a one-line summary with its neighbours (read-only work).
 */
collapsible: boolean, };

export type RuleSuggestion = { 
/**
 * Allow rules, e.g. `Bash(npm run test *)`.
 */
rules: Array<string>, 
/**
 * The settings file they are written to.
 */
destination: string, };

export type FileDiff = { 
/**
 * Absolute path of the file.
 */
path: string, 
/**
 * The content now (empty for a new file).
 */
old_text: string, 
/**
 * The content after the change.
 */
new_text: string, 
/**
 * Whether the file does not exist yet.
 */
is_new_file: boolean, };

export type ApprovalRequest = { 
/**
 * Unique per request; the answer names it.
 */
id: string, session_id: string, tool_use_id: string, tool_name: string, input: unknown, 
/**
 * One line saying what the call would do.
 */
title: string, 
/**
 * Why the engine asks (the rule, mode or check that led to the question).
 */
reason: string, suggestion: RuleSuggestion | null, 
/**
 * For a call that changes a file: the file before and after, for the diff dialog.
 */
diff: FileDiff | null, };

export type ApprovalChoice = "allow" | "allow_always" | "deny";

export type ApprovalAnswer = { request_id: string, choice: ApprovalChoice, 
/**
 * An optional message passed to the agent with a refusal.
 */
message: string | null, };

export type Usage = { input_tokens: number, output_tokens: number, cache_creation_input_tokens: number, cache_read_input_tokens: number, };

export type ToolCallStatus = "queued" | "waiting_for_approval" | "executing" | "completed";

export type ToolOutcome = "success" | "error" | "denied" | "cancelled";

export type TurnStopReason = "end_turn" | "max_tokens" | "max_turns" | "refusal" | "interrupted" | "error";

export type SessionInfo = { session_id: string, 
/**
 * Absolute path of the project folder.
 */
cwd: string, 
/**
 * The folder's name.
 */
folder_name: string, model: string, mode: PermissionMode, 
/**
 * Set when no model can be reached yet (e.g. no API key): what the user should do.
 */
setup_hint: string | null, };

export type SessionSummary = { session_id: string, 
/**
 * From the first prompt unless renamed.
 */
title: string, 
/**
 * Milliseconds since the Unix epoch.
 */
updated_at_ms: number, message_count: number, };

export type RewindScope = "files" | "conversation" | "both";

export type RewindPoint = { 
/**
 * The prompt's position in the history (what a rewind takes).
 */
prompt_id: string, 
/**
 * The prompt's text (its first 200 characters).
 */
prompt: string, 
/**
 * Files changed from this prompt on.
 */
files_changed_since: Array<string>, };

export type RewindOutcome = { restored: Array<string>, removed: Array<string>, 
/**
 * Files changed outside Tandem; when the rewind was not forced, nothing was changed because of them.
 */
conflicts: Array<string>, 
/**
 * Whether the files were rewound.
 */
files_rewound: boolean, 
/**
 * Messages removed from the conversation.
 */
messages_removed: number, };

export type SessionEvent = { "type": "turn_started", prompt: string, } | { "type": "text_delta", text: string, } | { "type": "thinking_delta", text: string, } | { "type": "tool_call_started", tool_use_id: string, name: string, } | { "type": "tool_call_input", tool_use_id: string, name: string, input: unknown, hints: RenderHints, } | { "type": "tool_call_status_changed", tool_use_id: string, status: ToolCallStatus, } | { "type": "tool_call_decision", tool_use_id: string, decision: PermissionDecision, } | { "type": "tool_call_progress", tool_use_id: string, text: string, } | { "type": "tool_call_result", tool_use_id: string, outcome: ToolOutcome, content: string, 
/**
 * Tool-specific structured data for the UI (e.g. a patch).
 */
detail: unknown, } | { "type": "approval_requested", request: ApprovalRequest, } | { "type": "approval_resolved", request_id: string, } | { "type": "retrying", attempt: number, wait_ms: number, reason: string, } | { "type": "usage_updated", turn: Usage, session: Usage, cost_usd: number, } | { "type": "turn_ended", stop_reason: TurnStopReason, } | { "type": "mode_changed", mode: PermissionMode, } | { "type": "error", message: string, } | { "type": "notice", message: string, };

export type EventEnvelope = { session_id: string, 
/**
 * Increases by one per event within a session.
 */
seq: number, event: SessionEvent, };

export type EventBatch = { events: Array<EventEnvelope>, };
