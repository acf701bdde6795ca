// Generated from crates/protocol by `scripts/generate-types`. Do not edit.

export type PermissionMode = "default" | "acceptEdits" | "plan" | "dontAsk" | "bypassPermissions" | "auto" | "bubble";

export type DecisionBehavior = "allow" | "ask" | "deny";

export type RuleScope = "policySettings" | "flagSettings" | "cliArg" | "localSettings" | "projectSettings" | "userSettings" | "session";

export type SafetyCheck = "protected_path" | "critical_removal" | "network_path" | "private_address" | "unreadable_settings";

export type DecisionSource = { "type": "rule", 
/**
 * The rule as written, e.g. `Bash(rm *)`.
 */
rule: string, 
/**
 * Which list the rule is in.
 */
behavior: DecisionBehavior, scope: RuleScope, 
/**
 * The settings file it is written in (`None` for command-line and session rules).
 */
file: string | null, } | { "type": "hook", command: string, } | { "type": "mode", mode: PermissionMode, } | { "type": "safety_check", check: SafetyCheck, } | { "type": "classifier", reason: string, } | { "type": "tool", tool: string, } | { "type": "working_directories" } | { "type": "no_prompt" } | { "type": "sandbox" };

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
source: string | null, 
/**
 * What decided, typed. `None` only in decisions recorded before Tandem stored it.
 */
decided_by: DecisionSource | null, };

export type RuleRole = "decided" | "shadowed";

export type TraceCheck = "protected_path" | "critical_removal" | "network_path" | "private_address" | "unreadable_settings" | "unreadable_settings_accepted" | "outside_working_directories" | "unanalysable_command" | "carried_command" | "walks_covered_files";

export type TraceStep = { "type": "mode", mode: PermissionMode, } | { "type": "rule", 
/**
 * The rule as written.
 */
rule: string, behavior: DecisionBehavior, scope: RuleScope, 
/**
 * The settings file it is written in (`None` for command-line and session rules).
 */
file: string | null, role: RuleRole, } | { "type": "hook", 
/**
 * The hook event (`PreToolUse`, `PermissionRequest`).
 */
event: string, command: string, 
/**
 * The settings file (or `cliArg`, `session`) the hook is configured in.
 */
source: string, 
/**
 * What the process did: `exit 0`, `exit 2`, `timed out after 5 s`, `could not run: …`.
 */
outcome: string, 
/**
 * The permission answer it gave, if any.
 */
decision: DecisionBehavior | null, reason: string | null, } | { "type": "check", check: TraceCheck, detail: string, } | { "type": "classifier", decision: DecisionBehavior, reason: string, } | { "type": "ask_converted", by: DecisionSource, detail: string, };

export type DecisionTrace = { steps: Array<TraceStep>, 
/**
 * What decided (the same as the decision's `decided_by`).
 */
decided_by: DecisionSource | null, };

export type RuleListing = { 
/**
 * The rule as written, e.g. `Bash(npm run test:*)`.
 */
rule: string, behavior: DecisionBehavior, scope: RuleScope, 
/**
 * The settings file it is written in (`None` for command-line and session rules).
 */
file: string | null, 
/**
 * Whether the rule is in force (a project allow rule waits for trust; an invalid rule never applies).
 */
applies: boolean, 
/**
 * Why it does not apply, or a warning about it.
 */
problem: string | null, 
/**
 * For an allow rule: the deny or ask rules that cover everything it allows, so it can never allow anything.
 */
shadowed_by: Array<string>, 
/**
 * The same pattern in another list (allow and deny, allow and ask, ask and deny).
 */
contradicts: Array<string>, 
/**
 * In auto mode, an allow rule that would let any code run is set aside (the classifier judges those calls
 * instead) until the session leaves auto mode: why.
 */
set_aside: string | null, };

export type RuleFiles = { 
/**
 * `.claude/settings.local.json` of the project.
 */
local: string, 
/**
 * `.claude/settings.json` of the project.
 */
project: string, 
/**
 * `~/.claude/settings.json` (`None` without a home directory).
 */
user: string | null, };

export type CallCheck = { decision: DecisionBehavior, reason: string, trace: DecisionTrace, 
/**
 * What "Yes, and don't ask again" would save.
 */
suggestions: Array<string>, };

export type HookListing = { 
/**
 * The event, e.g. `PreToolUse`.
 */
event: string, 
/**
 * The matcher as written (`None`: every tool, or an event without tools).
 */
matcher: string | null, command: string, timeout_secs: number, 
/**
 * The settings file (or `cliArg`, `session`) it is configured in.
 */
source: string, 
/**
 * Whether it is in force now (hooks of an untrusted folder wait for trust).
 */
active: boolean, 
/**
 * A sample of the JSON the hook gets on stdin for its event, to edit in the tester.
 */
sample_input: unknown, };

export type PluginCounts = { skills: number, commands: number, agents: number, hooks: number, mcp_servers: number, lsp_servers: number, };

export type PluginListing = { 
/**
 * `name@marketplace`, as `enabledPlugins` names it.
 */
id: string, 
/**
 * Its name: the prefix `name:` of its commands, skills and agent types.
 */
name: string, 
/**
 * The marketplace it was installed from.
 */
marketplace: string, version: string | null, description: string | null, author: string | null, 
/**
 * Whether the settings turn it on.
 */
enabled: boolean, 
/**
 * The settings file whose `enabledPlugins` entry decides (`None`: no file names it, so it is off).
 */
decided_by: string | null, 
/**
 * Whether the switch can change it (not when the managed policy or a `--settings` file decides).
 */
switchable: boolean, 
/**
 * Whether its folder and manifest could be read (a plugin that could not is never applied).
 */
loaded: boolean, 
/**
 * Whether its hooks and servers wait for the folder's trust (only the project's files turn it on).
 */
waits_for_trust: boolean, counts: PluginCounts, 
/**
 * What is wrong with it, each a sentence.
 */
problems: Array<string>, };

export type HookTestResult = { 
/**
 * `None` when the process was killed (timeout) or could not start.
 */
exit_code: number | null, stdout: string, stderr: string, timed_out: boolean, 
/**
 * What the process did, as a trace names it (`exit 0`, `timed out after 5 s`, ...).
 */
outcome: string, 
/**
 * The permission answer it would give (tool events).
 */
decision: DecisionBehavior | null, reason: string | null, 
/**
 * A block it would give (`decision: "block"` or exit code 2 on other events).
 */
block: string | null, 
/**
 * Problems the engine would report (bad exit codes, timeouts, failure to start).
 */
errors: Array<string>, };

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

export type SubAgentOrigin = { 
/**
 * The agent type (`general-purpose`, `Explore`, a custom agent's name).
 */
agent_type: string, 
/**
 * The short task description the parent gave it.
 */
description: string, 
/**
 * The parent's Agent call that started it.
 */
parent_tool_use_id: string, 
/**
 * Unique per run (the id its sidechain is stored under).
 */
agent_id: string, 
/**
 * The name a team member is addressed by (SendMessage); `None` for an unnamed sub-agent.
 */
name?: string, };

export type ApprovalRequest = { 
/**
 * Unique per request; the answer names it.
 */
id: string, session_id: string, tool_use_id: string, tool_name: string, 
/**
 * What kind of work the call does (its render hints' kind), so the dialog can show it without knowing tools.
 */
kind: ToolKind, input: unknown, 
/**
 * One line saying what the call would do.
 */
title: string, 
/**
 * Why the engine asks (the rule, mode or check that led to the question).
 */
reason: string, 
/**
 * What decided to ask, typed (`None` in requests recorded before Tandem stored it).
 */
decided_by: DecisionSource | null, 
/**
 * The steps of the decision (rules, hooks, mode, checks), for "Why am I asked?" (`None` in requests recorded
 * before Tandem stored it).
 */
trace: DecisionTrace | null, suggestion: RuleSuggestion | null, 
/**
 * For a call that changes a file: the file before and after, for the diff dialog.
 */
diff: FileDiff | null, 
/**
 * The sub-agent whose call this is, when the question comes from inside an Agent call (`None`: the session's
 * own agent asks).
 */
sub_agent?: SubAgentOrigin, 
/**
 * What the call would destroy (`rm -rf build` removes the folder build and everything in it), shown as
 * warnings in the dialog.
 */
warnings?: Array<string>, 
/**
 * For a command that edits files in place (`sed -i`): each named file before and after, as it would run.
 */
previews?: Array<FileDiff>, };

export type ApprovalChoice = "allow" | "allow_always" | "deny";

export type ApprovalAnswer = { request_id: string, choice: ApprovalChoice, 
/**
 * An optional message passed to the agent with a refusal.
 */
message: string | null, 
/**
 * For a file change approved after review: the file's text the person accepted, when it differs from the
 * proposal (some hunks rejected, or the proposed text edited). The change is written as the person left it
 * and the agent is told how it differs from what it proposed.
 */
revision?: Revision, 
/**
 * For an allowed call: the input it runs with instead of the one proposed (validated like the model's), as an
 * answering program may give it (`--permission-prompt-tool`'s `updatedInput`).
 */
updated_input?: unknown, };

export type Revision = { 
/**
 * The whole file as the person accepted it.
 */
text: string, 
/**
 * The proposal's hunks the person rejected, numbered from 1 in the order the dialog showed them.
 */
rejected_hunks: Array<number>, 
/**
 * How many hunks the proposal had.
 */
total_hunks: number, 
/**
 * Whether the person also edited the proposed text by hand.
 */
edited: boolean, };

export type PlanRequest = { 
/**
 * Unique per request; the answer names it.
 */
id: string, session_id: string, tool_use_id: string, 
/**
 * The plan, in markdown.
 */
plan: string, };

export type PlanChoice = { "choice": "approve", mode: PermissionMode | null, } | { "choice": "keep_planning", feedback: string, };

export type PlanAnswer = { request_id: string, choice: PlanChoice, };

export type QuestionOption = { 
/**
 * What the person picks (1-5 words); unique within its question.
 */
label: string, 
/**
 * What the choice means or implies.
 */
description: string, };

export type Question = { 
/**
 * The full question.
 */
question: string, 
/**
 * A very short label for the question (a chip or tab title).
 */
header: string, options: Array<QuestionOption>, 
/**
 * Whether several options may be chosen.
 */
multi_select: boolean, };

export type QuestionRequest = { 
/**
 * Unique per request; the answer names it.
 */
id: string, session_id: string, tool_use_id: string, questions: Array<Question>, };

export type QuestionReply = { 
/**
 * The labels of the options chosen (at most one unless the question is multi-select).
 */
selected: Array<string>, 
/**
 * Free text typed under "Other", if any.
 */
other: string | null, };

export type QuestionOutcome = { "outcome": "answered", replies: Array<QuestionReply>, } | { "outcome": "declined", message: string | null, };

export type QuestionAnswer = { request_id: string, outcome: QuestionOutcome, };

export type StringFormat = "email" | "uri" | "date" | "date-time";

export type EnumOption = { 
/**
 * What is sent.
 */
value: string, 
/**
 * What is shown.
 */
label: string, };

export type FieldKind = { "type": "string", format: StringFormat | null, min_length: number | null, max_length: number | null, default: string | null, } | { "type": "number", integer: boolean, minimum: number | null, maximum: number | null, default: number | null, } | { "type": "boolean", default: boolean | null, } | { "type": "enum", options: Array<EnumOption>, default: string | null, } | { "type": "multi_select", options: Array<EnumOption>, min_items: number | null, max_items: number | null, default: Array<string>, };

export type ElicitationField = { 
/**
 * The key the value is sent under.
 */
name: string, 
/**
 * The label to show (`None`: the name).
 */
title: string | null, description: string | null, 
/**
 * Whether the form cannot be accepted without it.
 */
required: boolean, kind: FieldKind, };

export type ElicitationRequest = { 
/**
 * Unique per request; the answer names it.
 */
id: string, session_id: string, 
/**
 * The MCP server asking (its name in the configuration).
 */
server: string, 
/**
 * What the server says it needs, shown above the form.
 */
message: string, 
/**
 * The form's fields, in the order the server listed them.
 */
fields: Array<ElicitationField>, };

export type ElicitationAction = "accept" | "decline" | "cancel";

export type ElicitationAnswer = { request_id: string, action: ElicitationAction, 
/**
 * With `accept`: the values by field name (text, number, boolean, or a list of option values); fields left
 * empty are left out.
 */
content: Record<string, unknown> | null, };

export type TodoStatus = "pending" | "in_progress" | "completed";

export type TodoItem = { 
/**
 * What is to be done, imperative ("Run the tests").
 */
content: string, status: TodoStatus, 
/**
 * The same in the present continuous, shown while it is in progress ("Running the tests").
 */
active_form: string, };

export type TaskItem = { 
/**
 * Short and stable (`1`, `2`, …), unique in the session.
 */
id: string, 
/**
 * A brief title.
 */
subject: string, description: string, 
/**
 * Shown while it is in progress ("Running the tests").
 */
active_form: string | null, status: TodoStatus, 
/**
 * Who works on it (an agent's name), if anyone claimed it.
 */
owner: string | null, 
/**
 * Tasks that cannot start before this one is completed.
 */
blocks: Array<string>, 
/**
 * Tasks that must be completed before this one can start.
 */
blocked_by: Array<string>, };

export type KeptWorktree = { 
/**
 * Absolute path of the worktree.
 */
path: string, 
/**
 * Its branch (`tandem/…`).
 */
branch: string, 
/**
 * Files that differ from where the branch started, relative to the worktree.
 */
changed_files: Array<string>, };

export type Usage = { input_tokens: number, output_tokens: number, cache_creation_input_tokens: number, cache_read_input_tokens: number, };

export type ToolCallStatus = "queued" | "waiting_for_approval" | "executing" | "completed";

export type ToolOutcome = "success" | "error" | "denied" | "cancelled";

export type TurnStopReason = "end_turn" | "max_tokens" | "max_turns" | "refusal" | "interrupted" | "error" | "budget_reached";

export type UsageTotals = { 
/**
 * Model requests counted.
 */
requests: number, input_tokens: number, output_tokens: number, cache_creation_input_tokens: number, cache_read_input_tokens: number, 
/**
 * At list prices; 0 for models without a known price.
 */
cost_usd: number, };

export type UsageRow = { key: string, totals: UsageTotals, };

export type SessionUsage = { session_id: string, title: string, folder: string, totals: UsageTotals, };

export type ToolCallCost = { session_id: string, tool_use_id: string, 
/**
 * The tool's name.
 */
name: string, 
/**
 * The result's size in tokens, as estimated in the last request that carried it.
 */
result_tokens: number, 
/**
 * The requests that carried it.
 */
requests: number, 
/**
 * Its tokens over those requests, by how each request paid for them.
 */
cache_read_tokens: number, cache_write_tokens: number, fresh_tokens: number, cost_usd: number, };

export type BudgetPeriod = "day" | "month";

export type BudgetAction = "warn" | "stop";

export type BudgetStatus = { period: BudgetPeriod, limit_usd: number, spent_usd: number, 
/**
 * The share of the budget at which the person is warned (percent).
 */
warn_percent: number, on_limit: BudgetAction, };

export type BudgetLimits = { 
/**
 * The most to spend in one UTC day, in dollars; `None`: no daily budget.
 */
daily_usd: number | null, 
/**
 * The most to spend in one UTC calendar month, in dollars; `None`: no monthly budget.
 */
monthly_usd: number | null, 
/**
 * The share of a budget at which the person is warned (1–100).
 */
warn_percent: number, on_limit: BudgetAction, };

export type UsageReport = { 
/**
 * The first day counted (`YYYY-MM-DD`, UTC); `None`: from the start.
 */
since: string | null, 
/**
 * The folder counted; `None`: every folder.
 */
folder: string | null, totals: UsageTotals, 
/**
 * Oldest first; days without requests are left out.
 */
by_day: Array<UsageRow>, 
/**
 * Costliest first.
 */
by_folder: Array<UsageRow>, 
/**
 * Costliest first.
 */
by_model: Array<UsageRow>, 
/**
 * The costliest sessions, at most [`UsageReport::TOP`].
 */
sessions: Array<SessionUsage>, 
/**
 * The costliest tool calls, at most [`UsageReport::TOP`].
 */
tool_calls: Array<ToolCallCost>, 
/**
 * The budgets set in the settings, with what was spent in their period.
 */
budgets: Array<BudgetStatus>, };

export type DiffHunk = { old_start: number, old_lines: number, new_start: number, new_lines: number, 
/**
 * Each line prefixed with `' '`, `'-'` or `'+'`, without its line ending.
 */
lines: Array<string>, };

export type FileRevision = { 
/**
 * The proposal's hunks the person rejected, numbered from 1.
 */
rejected_hunks: Array<number>, 
/**
 * How many hunks the proposal had.
 */
total_hunks: number, 
/**
 * Whether the person edited the proposed text by hand.
 */
edited: boolean, };

export type NotebookCellChange = { 
/**
 * The cell's id, when the edit named one.
 */
cell_id: string | null, 
/**
 * What was done, e.g. `Replaced cell abc`.
 */
summary: string, };

export type TaskStatus = "running" | "exited" | "killed";

export type ReadContent = { "format": "text", start_line: number, lines: number, total_lines: number, } | { "format": "image", media_type: string, original_size: [number, number], size: [number, number], 
/**
 * Bytes sent to the model.
 */
bytes: number, } | { "format": "notebook", cells: number, } | { "format": "pdf", pages: Array<number>, page_count: number, };

export type WebLink = { title: string, url: string, 
/**
 * How old the page is, as the provider says it (e.g. `2 days ago`).
 */
page_age: string | null, };

export type ToolDetail = { "type": "file_change", 
/**
 * Absolute path of the file.
 */
path: string, 
/**
 * Whether the file did not exist before.
 */
created: boolean, 
/**
 * How many occurrences an Edit replaced; `None` for tools that write the whole file.
 */
replacements: number | null, 
/**
 * The change as unified-diff hunks (empty when not computed).
 */
hunks: Array<DiffHunk>, 
/**
 * The file before and after, for the diff view; `None` when too large to carry.
 */
diff: FileDiff | null, 
/**
 * For a notebook: the cell that changed.
 */
cell: NotebookCellChange | null, 
/**
 * The sub-agent that made the change (`None`: the session's own agent).
 */
changed_by?: SubAgentOrigin, 
/**
 * Set when the person revised the proposal before accepting it (rejected hunks, edited the text): the
 * hunks and diff above are then of the file as written, not of the proposal.
 */
revised?: FileRevision, 
/**
 * What the session's language servers said the change broke (the errors it introduced, or that a server
 * is missing or crashed), as the model was told; shown on the edit's row.
 */
diagnostics?: string, } | { "type": "shell", exit_code: number | null, 
/**
 * The directory the next command starts in.
 */
cwd: string, 
/**
 * Whether the command left the working directories and the directory was reset.
 */
cwd_reset: boolean, } | { "type": "background_task", task_id: string, command: string, 
/**
 * The file its raw output is appended to.
 */
log: string, status: TaskStatus, exit_code: number | null, } | { "type": "read", 
/**
 * Absolute path of the file.
 */
path: string, content: ReadContent, } | { "type": "file_list", 
/**
 * The files shown (all of them unless `truncated`).
 */
files: Array<string>, total: number, truncated: boolean, } | { "type": "search", 
/**
 * Files with a match.
 */
files: number, 
/**
 * Matching lines in all of them.
 */
matches: number, 
/**
 * Result lines shown to the model.
 */
shown: number, 
/**
 * Whether results were left out (there are more from a later offset).
 */
truncated: boolean, } | { "type": "sub_agent", agent_id: string, agent_type: string, description: string, tool_calls: number, usage: Usage, duration_ms: number, } | { "type": "mcp", server: string, tool: string, 
/**
 * The server's `structuredContent`, when it sent one.
 */
structured_content: unknown, 
/**
 * The result's `_meta` (what the server attached for its clients, such as a UI resource to show), when
 * it sent one.
 */
meta?: unknown, } | { "type": "web_fetch", 
/**
 * The URL fetched (after the upgrade to https and any same-host redirects).
 */
url: string, 
/**
 * The HTTP status of the answer.
 */
status: number, 
/**
 * Bytes of the page as received.
 */
bytes: number, 
/**
 * Whether the page was answered from the session's cache.
 */
cached: boolean, 
/**
 * Whether a model answered the prompt from the page (`false`: the page's text was given as it is).
 */
summarized: boolean, 
/**
 * Set when the server redirected to another host: that URL (nothing was fetched from it).
 */
redirect: string | null, } | { "type": "web_search", query: string, 
/**
 * The results, in the provider's order.
 */
results: Array<WebLink>, 
/**
 * Set when the search failed (the provider's error code).
 */
error: string | null, } | { "type": "skill", name: string, 
/**
 * The SKILL.md file.
 */
path: string, 
/**
 * Tools the skill allows without asking while it is in use.
 */
allowed_tools: Array<string>, } | { "type": "tool_search", query: string, 
/**
 * The tools whose definitions were loaded.
 */
loaded: Array<string>, 
/**
 * How many deferred tools there are in all.
 */
total_deferred: number, } | { "type": "web_browser", 
/**
 * What it did: `navigate`, `read`, `click`, `type`, `screenshot` or `close`.
 */
action: string, 
/**
 * Where the page is after the action (empty when the browser is closed).
 */
url: string, 
/**
 * The page's title.
 */
title: string, 
/**
 * For a screenshot: a small JPEG of it as a `data:` URL, for the window (the model gets the full PNG).
 */
preview?: string, } | { "type": "other", data: unknown, };

export type SandboxViolation = { "type": "write", path: string, } | { "type": "network", host: string, };

export type ToolListing = { name: string, 
/**
 * Whether the model is offered it now.
 */
offered: boolean, 
/**
 * Why it is not offered (a deny rule; the provider has no such tool).
 */
reason: string | null, };

export type SlashCommandSource = "window" | "builtin" | "project" | "user" | "skill" | "plugin" | "mcp_prompt";

export type SlashCommand = { 
/**
 * The name without the slash, e.g. `review`, `frontend:component`, `mcp__docs__search`.
 */
name: string, description: string, 
/**
 * What the arguments look like, e.g. `[file] [focus]`.
 */
argument_hint: string | null, source: SlashCommandSource, };

export type MentionKind = "file" | "resource";

export type MentionCompletion = { 
/**
 * Inserted after `@`: a path relative to the folder (quoted when it has spaces), or `server:uri`.
 */
text: string, kind: MentionKind, 
/**
 * A second line for the menu (a resource's name), if any.
 */
detail: string | null, };

export type PromptImage = { 
/**
 * `image/png`, `image/jpeg`, `image/gif` or `image/webp` (what the bytes are is read from the bytes
 * themselves; this is what the sender believed).
 */
media_type: string, 
/**
 * The image file's bytes, base64 (standard alphabet, with padding).
 */
data: string, };

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
setup_hint: string | null, 
/**
 * Whether the folder is trusted, and what trusting it enables.
 */
trust: FolderTrust, 
/**
 * The model's context window in tokens, and the share of it (percent) at which the conversation is
 * compacted: the status bar's context meter.
 */
context_window: number, compact_at_percent: number, 
/**
 * Whether auto mode can be offered: a classifier model is configured and reachable (without one, auto mode
 * would only ask). The mode switcher offers `auto` only when this is set.
 */
auto_mode_available: boolean, 
/**
 * Whether the window offers its terminal panel in this session (the `TERMINAL_PANEL` switch is on).
 */
terminal_panel: boolean, };

export type FolderTrust = { trusted: boolean, 
/**
 * The project's allow rules (from `.claude/settings.json` and `.claude/settings.local.json`).
 */
allow_rules: Array<string>, 
/**
 * Directories outside the folder the project's settings add.
 */
directories: Array<string>, 
/**
 * The project's hooks, as `Event (matcher): command`.
 */
hooks: Array<string>, 
/**
 * MCP servers the project defines (`.mcp.json` and project settings), as `name: command or url`.
 */
mcp_servers: Array<string>, };

export type UnreadableSettingsFile = { 
/**
 * The file's path.
 */
file: string, 
/**
 * What is wrong with it (`is not valid JSON: … at line 3 column 1`).
 */
problem: string, 
/**
 * The person accepted running without it, and it has not changed since.
 */
accepted: boolean, };

export type RulesView = { 
/**
 * Every rule of every source, highest priority first.
 */
rules: Array<RuleListing>, files: RuleFiles, trust: FolderTrust, };

export type SessionSummary = { session_id: string, 
/**
 * From the first prompt unless renamed.
 */
title: string, 
/**
 * Milliseconds since the Unix epoch.
 */
updated_at_ms: number, message_count: number, 
/**
 * Listed first in its folder.
 */
pinned: boolean, 
/**
 * Listed under "Archived" only.
 */
archived: boolean, 
/**
 * Lower case, sorted, without repeats.
 */
tags: Array<string>, 
/**
 * The collection (the sidebar's folder) it is in; `None`: the top level.
 */
collection_id: number | null, };

export type SessionCollection = { id: number, 
/**
 * The collection it is in; `None`: the top level.
 */
parent_id: number | null, name: string, };

export type SearchSnippetPart = { text: string, 
/**
 * Whether this piece is a match of the query.
 */
matched: boolean, };

export type SessionSearchHit = { session_id: string, 
/**
 * The session's project folder.
 */
folder: string, 
/**
 * The session's title.
 */
title: string, 
/**
 * Milliseconds since the Unix epoch of the session's last write.
 */
updated_at_ms: number, 
/**
 * The event the matching text starts at: where the transcript scrolls to.
 */
seq: number, 
/**
 * Which kind of text matched: `prompt`, `answer`, `tool_input`, `tool_result` or `sub_agent`.
 */
kind: string, 
/**
 * The matching text around the matches, cut with `…` where it goes on.
 */
snippet: Array<SearchSnippetPart>, };

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

export type ChangedFile = { 
/**
 * Absolute path.
 */
path: string, 
/**
 * The text before the session's first change (`None`: the file did not exist).
 */
before: string | null, 
/**
 * The text now (`None`: the file no longer exists).
 */
after: string | null, 
/**
 * Why the texts are left out (binary content, too large to show), if they are.
 */
omitted: string | null, 
/**
 * The sub-agents that changed it (empty: only the session's own agent did).
 */
changed_by?: Array<SubAgentOrigin>, };

export type McpServerState = { "state": "connecting" } | { "state": "ready" } | { "state": "failed", error: string, stderr_tail: string | null, } | { "state": "needs_approval" } | { "state": "disabled" } | { "state": "needs_sign_in", authorization_url: string | null, error: string | null, };

export type McpServerStatus = { 
/**
 * The name as configured.
 */
name: string, 
/**
 * `stdio`, `http` or `sse` (empty when the configuration is invalid).
 */
transport: string, 
/**
 * The command line or the URL.
 */
target: string, 
/**
 * Where it is configured (a file, or `--mcp-config ...`).
 */
source: string, state: McpServerState, 
/**
 * The full names of its tools (`mcp__server__tool`) while it is ready.
 */
tools: Array<string>, 
/**
 * Those of its tools the person turned off (not offered to the model).
 */
disabled_tools: Array<string>, 
/**
 * The names of its prompts while it is ready.
 */
prompts: Array<string>, 
/**
 * Its resources while it is ready (`uri`, and `name` when it has one).
 */
resources: Array<McpResourceEntry>, };

export type McpResourceEntry = { uri: string, name: string | null, };

export type BackgroundAgentStatus = "running" | "completed" | "failed" | "stopped";

export type BackgroundAgent = { 
/**
 * The id TaskOutput / TaskStop take.
 */
task_id: string, 
/**
 * The parent's Agent call that started it.
 */
parent_tool_use_id: string, agent_type: string, description: string, status: BackgroundAgentStatus, };

export type BackgroundReason = "requested" | "by_person" | "timeout" | "budget";

export type BackgroundShell = { 
/**
 * The id TaskOutput and TaskStop take (`shell_3`).
 */
task_id: string, 
/**
 * The Bash call that started it.
 */
tool_use_id: string, command: string, 
/**
 * The call's description, when the model gave one.
 */
description: string | null, status: TaskStatus, 
/**
 * Set once it exited with a code.
 */
exit_code: number | null, 
/**
 * Why it runs in the background.
 */
reason: BackgroundReason, 
/**
 * The sub-agent that started it (it ends with that sub-agent); `None` for the session's own agent.
 */
agent_id: string | null, };

export type TerminalChunk = { "type": "output", data: string, } | { "type": "exited", message: string, };

export type TerminalOpened = { 
/**
 * The shell running in it.
 */
shell: string, 
/**
 * Whether a new shell was started (else the one still running was attached again).
 */
started: boolean, };

export type TeamMemberStatus = "working" | "idle" | "stopped";

export type TeamMember = { 
/**
 * The name SendMessage addresses it by.
 */
name: string, agent_type: string, 
/**
 * The agent id of its conversation (its events are wrapped with it).
 */
agent_id: string, status: TeamMemberStatus, };

export type TeamInfo = { name: string, description: string, 
/**
 * The lead's name (the session's own agent).
 */
lead: string, members: Array<TeamMember>, 
/**
 * Whether the team was deleted (its members stopped).
 */
deleted: boolean, };

export type BriefStatus = "normal" | "proactive";

export type ScheduledPrompt = { id: string, 
/**
 * The five-field cron expression, in local time.
 */
cron: string, 
/**
 * The schedule in words ("At 09:00, Monday through Friday").
 */
schedule: string, 
/**
 * What is sent when it fires.
 */
prompt: string, 
/**
 * `false`: it fires once, then is removed.
 */
recurring: boolean, 
/**
 * When it fires next (milliseconds since the epoch); `None` when it never will.
 */
next_fire_ms: number | null, };

export type Theme = "light" | "dark" | "system";

export type KeySource = "keyring" | "credentials_file" | "settings_file" | "environment" | "none";

export type AppSettings = { 
/**
 * `anthropic` or `openai` (an OpenAI-compatible server).
 */
provider: string, 
/**
 * The server's base URL; empty for the provider's default.
 */
base_url: string, 
/**
 * The model name; empty for the default.
 */
model: string, 
/**
 * Where the key in use comes from.
 */
key_source: KeySource, theme: Theme, 
/**
 * The transcript's font size in pixels (the whole window scales with it).
 */
font_size: number, 
/**
 * Environment variables set in this process that win over the saved values (named so the person knows).
 */
overridden_by_env: Array<string>, 
/**
 * The base URL and model sessions use now: the environment's, else the saved ones, else the defaults.
 */
base_url_in_use: string, model_in_use: string, 
/**
 * Whether a key is saved (keyring, credentials file or settings file), whatever the environment sets.
 */
key_saved: boolean, 
/**
 * Whether a desktop notification tells the person when a dialog waits for them or a turn ends while the
 * window is not focused (on unless turned off).
 */
notifications: boolean, 
/**
 * The spending budget (a limit missing or invalid in the file is none).
 */
budget: BudgetLimits, 
/**
 * The settings file.
 */
file: string, };

export type AppSettingsUpdate = { provider: string, base_url: string, model: string, 
/**
 * A new API key; `None` keeps the current one, an empty string removes the saved one.
 */
api_key?: string, theme: Theme, font_size: number, 
/**
 * Desktop notifications on or off; `None` keeps the current choice.
 */
notifications?: boolean, 
/**
 * The spending budget; `None` keeps the file's.
 */
budget?: BudgetLimits, };

export type SessionEvent = { "type": "turn_started", prompt: string, prompt_id?: string, } | { "type": "conversation_rewound", prompt_id: string, } | { "type": "prompt_images", images: Array<PromptImage>, } | { "type": "text_delta", text: string, } | { "type": "thinking_delta", text: string, } | { "type": "tool_call_started", tool_use_id: string, name: string, } | { "type": "tool_call_input", tool_use_id: string, name: string, input: unknown, hints: RenderHints, } | { "type": "tool_call_status_changed", tool_use_id: string, status: ToolCallStatus, } | { "type": "tool_call_decision", tool_use_id: string, decision: PermissionDecision, } | { "type": "tool_call_progress", tool_use_id: string, text: string, } | { "type": "tool_call_result", tool_use_id: string, outcome: ToolOutcome, content: string, 
/**
 * Structured data for the UI (e.g. a file change with its diff).
 */
detail: ToolDetail | null, } | { "type": "sandbox_violation", tool_use_id: string, violation: SandboxViolation, } | { "type": "approval_requested", request: ApprovalRequest, } | { "type": "approval_resolved", request_id: string, } | { "type": "plan_review_requested", request: PlanRequest, } | { "type": "questions_asked", request: QuestionRequest, } | { "type": "elicitation_requested", request: ElicitationRequest, } | { "type": "todos_changed", todos: Array<TodoItem>, } | { "type": "tasks_changed", tasks: Array<TaskItem>, } | { "type": "retrying", attempt: number, wait_ms: number, reason: string, } | { "type": "usage_updated", turn: Usage, session: Usage, cost_usd: number, } | { "type": "budget_warning", status: BudgetStatus, reached: boolean, } | { "type": "turn_ended", stop_reason: TurnStopReason, } | { "type": "mode_changed", mode: PermissionMode, } | { "type": "model_changed", model: string, } | { "type": "error", message: string, } | { "type": "notice", message: string, } | { "type": "hosted_session_opened", agent: string, agent_session_id: string, } | { "type": "unreadable_settings", files: Array<UnreadableSettingsFile>, } | { "type": "mcp_server_changed", server: McpServerStatus, } | { "type": "sub_agent", parent_tool_use_id: string, agent_id: string, event: SessionEvent, } | { "type": "background_agent_changed", agent: BackgroundAgent, } | { "type": "background_shell_changed", shell: BackgroundShell, } | { "type": "team_changed", team: TeamInfo, } | { "type": "brief", 
/**
 * The summary, as markdown.
 */
message: string, 
/**
 * `proactive`: the agent tells the person something unasked; `normal`: an answer to them.
 */
status: BriefStatus, } | { "type": "user_file", 
/**
 * The file's absolute path.
 */
path: string, 
/**
 * Its size in bytes when it was sent.
 */
bytes: number, 
/**
 * What the agent says of it.
 */
caption?: string, } | { "type": "scheduled_prompts", prompts: Array<ScheduledPrompt>, } | { "type": "push_notification", title: string, message: string, };

export type EventEnvelope = { session_id: string, 
/**
 * Increases by one per event within a session.
 */
seq: number, event: SessionEvent, };

export type EventBatch = { events: Array<EventEnvelope>, };
