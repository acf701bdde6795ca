// The webview's only door to the Rust side: the app's commands (through the typed bindings generated from the
// app's command table, generated/commands.ts), the per-session event channel and the app-level events. No other
// module imports @tauri-apps/api/core or /event.
import { Channel } from '@tauri-apps/api/core';
import { listen, type UnlistenFn } from '@tauri-apps/api/event';
import type { AgentServers, AppStateView, CommandError, ImportChoice, ImportSummary, McpSignIn, OpenFolder, OpenRemote, SavedSettings } from './generated/app';
import type {
  AppSettings,
  AppSettingsUpdate,
  ApprovalAnswer,
  CallCheck,
  ChangedFile,
  DecisionBehavior,
  HookListing,
  PluginListing,
  HookTestResult,
  RuleScope,
  RulesView,
  EventBatch,
  EventEnvelope,
  FolderTrust,
  SessionCollection,
  SessionSearchHit,
  KeptWorktree,
  McpServerStatus,
  PlanAnswer,
  QuestionAnswer,
  ElicitationAnswer,
  PermissionMode,
  RewindOutcome,
  RewindPoint,
  RewindScope,
  SandboxViolation,
  ToolListing,
  SessionInfo,
  SessionSummary,
  SlashCommand,
  MentionCompletion,
  PromptImage,
  UnreadableSettingsFile,
  UsageReport,
  BudgetStatus,
  TerminalChunk,
  TerminalOpened,
} from './generated/protocol';
import * as commands from './generated/commands';

/** Whether a command rejected with `value` (every command rejects with a `CommandError`). */
export function isIpcError(value: unknown): value is CommandError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Record<string, unknown>).code === 'string' &&
    typeof (value as Record<string, unknown>).message === 'string'
  );
}

/** A human-readable message for anything a command rejected with. */
export function errorMessage(error: unknown): string {
  if (isIpcError(error)) return error.message;
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return 'Unknown error';
}

/** What the app knows at start: the folder from the command line, if any, and recent folders. */
export function appState(): Promise<AppStateView> {
  return commands.appState();
}

/** Shows the native folder picker; null when the user cancelled. */
export function pickFolder(): Promise<string | null> {
  return commands.pickFolder();
}

/**
 * Opens a folder and creates a session on it, or with `resume` reopens that stored session of
 * the folder: its stored events are replayed on the channel first, then new ones stream. Every
 * event arrives as an `EventBatch` on `onBatch`, possibly before this promise resolves. Sessions stay open
 * side by side until `closeSession`; `replaces` names an open session the new one takes the place of (closed; a
 * new session in its folder clears it). A stored session an external agent ran rejects with code `hosted_session`
 * (`openHostedSession` with `{ resume }` continues it with its agent) unless `ownAgent` asks for Tandem's own model.
 */
export function openSession(
  path: string,
  onBatch: (batch: EventBatch) => void,
  resume: string | null = null,
  replaces: string | null = null,
  ownAgent = false,
): Promise<SessionInfo> {
  const onEvent = new Channel<EventBatch>(onBatch);
  return commands.openSession(path, onEvent, resume, replaces, ownAgent);
}

/** The agents configured under `agentServers` in Tandem's settings file ("New Session with…" offers them). */
export function agentServers(): Promise<AgentServers> {
  return commands.agentServers();
}

/**
 * Who runs a hosted session's turns: an agent of `agentServers`, Tandem on another machine (`ssh://…`), or — with
 * `resume` — whoever ran that stored session, continuing its own session.
 */
export type HostedDoor =
  | { agent: string; remote?: undefined; resume?: undefined }
  | { remote: string; agent?: undefined; resume?: undefined }
  | { resume: string; agent?: undefined; remote?: undefined };

/**
 * Opens a session whose turns `door` runs: the agent in the folder `path`, or the remote folder, stored here under
 * `path` (the folder the app started in when null), or the stored session `resume` with the agent that ran it.
 * Resolves once the agent has opened its session; rejects with code `agent` and the reason (for a remote, with the
 * command that installs Tandem there; for `resume`, an agent no longer configured or one that cannot load sessions)
 * when it could not.
 */
export function openHostedSession(path: string | null, onBatch: (batch: EventBatch) => void, door: HostedDoor): Promise<SessionInfo> {
  const onEvent = new Channel<EventBatch>(onBatch);
  return commands.openHostedSession(path, onEvent, door.agent ?? null, door.remote ?? null, door.resume ?? null);
}

/** Closes an open session (its tab closed): a running turn stops and the session ends. */
export function closeSession(sessionId: string): Promise<void> {
  return commands.closeSession(sessionId);
}

/**
 * The open session's events numbered after `afterSeq` (every kept one when null): the events the window
 * missed. Rejects with code `events_missed` when they are no longer kept.
 */
export function sessionEvents(sessionId: string, afterSeq: number | null): Promise<EventEnvelope[]> {
  return commands.sessionEvents(sessionId, afterSeq);
}

/** The folder's stored sessions (any order; the sidebar sorts them newest first). */
export function listSessions(path: string): Promise<SessionSummary[]> {
  return commands.listSessions(path);
}

/** The folder's collections (the sidebar's folders), nested by `parent_id`. */
export function listCollections(path: string): Promise<SessionCollection[]> {
  return commands.listCollections(path);
}

/** Makes a collection in the folder `path`, inside `parentId` (the top level when null). */
export function createCollection(path: string, name: string, parentId: number | null): Promise<SessionCollection> {
  return commands.createCollection(path, name, parentId);
}

export function renameCollection(id: number, name: string): Promise<void> {
  return commands.renameCollection(id, name);
}

/** Deletes a collection; its sessions and collections move up to its parent. */
export function deleteCollection(id: number): Promise<void> {
  return commands.deleteCollection(id);
}

/** Puts a stored session into a collection (the top level when null). */
export function moveSession(sessionId: string, collectionId: number | null): Promise<void> {
  return commands.moveSession(sessionId, collectionId);
}

export function setSessionPinned(sessionId: string, pinned: boolean): Promise<void> {
  return commands.setSessionPinned(sessionId, pinned);
}

/** Archives a stored session (kept, listed under Archived) or restores it. */
export function setSessionArchived(sessionId: string, archived: boolean): Promise<void> {
  return commands.setSessionArchived(sessionId, archived);
}

/** Replaces a stored session's tags; resolves to the tags as stored (trimmed, lower-cased, sorted). */
export function setSessionTags(sessionId: string, tags: string[]): Promise<string[]> {
  return commands.setSessionTags(sessionId, tags);
}

/** The hits for `query` over everything said in every stored session of every folder, best first. */
export function searchSessions(query: string, limit: number | null = null): Promise<SessionSearchHit[]> {
  return commands.searchSessions(query, limit);
}

/** The formats a session exports as: Markdown, one self-contained HTML page, the reference agent's JSON lines. */
export type ExportFormat = 'md' | 'html' | 'jsonl';

/**
 * Exports the stored session to a file the person chooses in the save dialog; resolves to the path written, or null
 * when the dialog was cancelled.
 */
export function exportSession(sessionId: string, format: ExportFormat): Promise<string | null> {
  return commands.exportSession(sessionId, format);
}

/**
 * Imports the reference agent's transcripts: every one under its projects folder (`claudeCode`), or the files the
 * person picks; resolves to what was imported, or null when the picker was cancelled.
 */
export function importSessions(claudeCode: boolean): Promise<ImportSummary | null> {
  return commands.importSessions(claudeCode);
}

/** The image on the system clipboard as a PNG, or null when it holds none (the webview's paste event carries none). */
export function clipboardImage(): Promise<PromptImage | null> {
  return commands.clipboardImage();
}

/** File > Import Sessions… or Import from Claude Code. */
export function onImportSessions(handler: (claudeCode: boolean) => void): Promise<UnlistenFn> {
  return listen<ImportChoice>('tandem://import-sessions', (event) => handler(event.payload.claude_code));
}

/** Resolves when the turn has started; its events stream on the session's channel. Rejects (code `image`) when
 * one of the images cannot be sent: then nothing was sent. */
export function sendPrompt(sessionId: string, prompt: string, images: readonly PromptImage[] = []): Promise<void> {
  return commands.sendPrompt(sessionId, prompt, images.length > 0 ? [...images] : null);
}

/** The person's answer to a permission request (the request's id names its session). */
export function answerApproval(answer: ApprovalAnswer): Promise<void> {
  return commands.answerApproval(answer);
}

/** Stops the running turn. */
export function interrupt(sessionId: string): Promise<void> {
  return commands.interrupt(sessionId);
}

/** Stops one sub-agent (the one the Agent call or background task `id` started); the turn goes on. */
export function stopSubAgent(sessionId: string, id: string): Promise<boolean> {
  return commands.stopSubAgent(sessionId, id);
}

/**
 * Moves the running shell command of call `toolUseId` (every running one when null: Ctrl+B) to the background,
 * where it goes on; resolves with how many moved.
 */
export function sendToBackground(sessionId: string, toolUseId: string | null): Promise<number> {
  return commands.sendToBackground(sessionId, toolUseId);
}

/** The tail of a background shell's output (terminal escapes kept); null when there is no such shell. */
export function backgroundShellOutput(sessionId: string, taskId: string): Promise<string | null> {
  return commands.backgroundShellOutput(sessionId, taskId);
}

/** Stops a background shell with everything it started; resolves with whether it was running. */
export function stopBackgroundShell(sessionId: string, taskId: string): Promise<boolean> {
  return commands.stopBackgroundShell(sessionId, taskId);
}

export function setMode(sessionId: string, mode: PermissionMode): Promise<void> {
  return commands.setMode(sessionId, mode);
}

/** The prompts the session can be rewound to, oldest first (`prompt_id` is the prompt's place in the history). */
export function rewindPoints(sessionId: string): Promise<RewindPoint[]> {
  return commands.rewindPoints(sessionId);
}

/**
 * Rewinds the session's files, conversation or both to before prompt `promptId`. Without `force`, files changed
 * outside Tandem stop it: nothing changes, `files_rewound` is false and `conflicts` lists them.
 */
export function rewind(sessionId: string, promptId: string, scope: RewindScope, force: boolean): Promise<RewindOutcome> {
  return commands.rewind(sessionId, promptId, scope, force);
}

/** File > Open Folder... / Open Recent chose a folder. */
export function onOpenFolder(handler: (path: string) => void): Promise<UnlistenFn> {
  return listen<OpenFolder>('tandem://open-folder', (event) => handler(event.payload.path));
}

/** File > New Session: a new session on the current folder. */
export function onNewSession(handler: () => void): Promise<UnlistenFn> {
  return listen('tandem://new-session', () => handler());
}

/**
 * Opens the session's terminal panel at `rows` by `cols` (the person's shell in the session's folder, or the one still
 * running there): everything it prints arrives on `onChunk`, first what redraws its screen as it is now.
 */
export function openTerminal(
  sessionId: string,
  rows: number,
  cols: number,
  onChunk: (chunk: TerminalChunk) => void,
): Promise<TerminalOpened> {
  const channel = new Channel<TerminalChunk>();
  channel.onmessage = onChunk;
  return commands.openTerminal(sessionId, rows, cols, channel);
}

/** Types `data` (keys as the terminal encodes them) into the session's terminal panel. */
export function terminalInput(sessionId: string, data: string): Promise<void> {
  return commands.terminalInput(sessionId, data);
}

/** Gives the session's terminal panel `rows` by `cols`. */
export function resizeTerminal(sessionId: string, rows: number, cols: number): Promise<void> {
  return commands.resizeTerminal(sessionId, rows, cols);
}

/** Closes the session's terminal panel: its shell and its jobs are killed. */
export function closeTerminal(sessionId: string): Promise<void> {
  return commands.closeTerminal(sessionId);
}

/** View > Terminal Panel: show or hide the shown session's terminal panel. */
export function onToggleTerminal(handler: () => void): Promise<UnlistenFn> {
  return listen('tandem://toggle-terminal', () => handler());
}

/** The menu's Settings… item. */
/** File ▸ New Session with…: the window offers the configured agents. */
export function onNewHostedSession(handler: () => void): Promise<UnlistenFn> {
  return listen('tandem://new-hosted-session', () => handler());
}

/** File ▸ Open Remote Folder… (no URL: ask for one), or a later launch naming a remote folder. */
export function onOpenRemote(handler: (open: OpenRemote) => void): Promise<UnlistenFn> {
  return listen<OpenRemote>('tandem://open-remote', (event) => handler(event.payload));
}

export function onOpenSettings(handler: () => void): Promise<UnlistenFn> {
  return listen('tandem://open-settings', () => handler());
}

export type { AgentServers, AppStateView, CommandError, ImportSummary, OpenRemote, UnlistenFn };

/** Trusts the session's folder (its allow rules, directories and hooks apply at once); resolves to the new state. */
export function trustFolder(sessionId: string): Promise<FolderTrust> {
  return commands.trustFolder(sessionId);
}

/** Withdraws trust in the session's folder; resolves to the new state. */
export function revokeTrust(sessionId: string): Promise<FolderTrust> {
  return commands.revokeTrust(sessionId);
}

/** The settings files that could not be read or parsed, each with whether the person accepted running without it. */
export function unreadableSettings(sessionId: string): Promise<UnreadableSettingsFile[]> {
  return commands.unreadableSettings(sessionId);
}

/** Runs without the unreadable settings file `file` until it changes on disk; resolves to the files as they are now. */
export function acceptUnreadableSettings(sessionId: string, file: string): Promise<UnreadableSettingsFile[]> {
  return commands.acceptUnreadableSettings(sessionId, file);
}

/** What the unreadable settings file `file` holds now (or why it cannot be read). */
export function unreadableSettingsText(sessionId: string, file: string): Promise<string> {
  return commands.unreadableSettingsText(sessionId, file);
}

/** Every file the session changed, with its text before the session's first change and now. */
export function sessionChanges(sessionId: string): Promise<ChangedFile[]> {
  return commands.sessionChanges(sessionId);
}

export function renameSession(sessionId: string, title: string): Promise<void> {
  return commands.renameSession(sessionId, title);
}

/** Deletes a stored session with its files; refused while a turn runs in it. */
export function deleteSession(sessionId: string): Promise<void> {
  return commands.deleteSession(sessionId);
}

/** The person's decision about the agent's plan. */
export function answerPlan(answer: PlanAnswer): Promise<void> {
  return commands.answerPlan(answer);
}

/** The person's answers to the agent's questions (or their refusal). */
export function answerQuestions(answer: QuestionAnswer): Promise<void> {
  return commands.answerQuestions(answer);
}

/** The person's answer to an MCP server's form: send the values, decline, or cancel. */
export function answerElicitation(answer: ElicitationAnswer): Promise<void> {
  return commands.answerElicitation(answer);
}

/** The session's MCP servers: state, transport, tools. */
export function mcpServers(sessionId: string): Promise<McpServerStatus[]> {
  return commands.mcpServers(sessionId);
}

/** Approves (or refuses) a project MCP server for this folder; it starts (or stops) at once. */
export function approveMcpServer(sessionId: string, name: string, approved: boolean): Promise<void> {
  return commands.approveMcpServer(sessionId, name, approved);
}

/** Allows what the shell sandbox refused (a host or a folder) in the project's local settings; resolves to what was added. */
export function allowSandboxViolation(sessionId: string, violation: SandboxViolation): Promise<string> {
  return commands.allowSandboxViolation(sessionId, violation);
}

export function reconnectMcpServer(sessionId: string, name: string): Promise<void> {
  return commands.reconnectMcpServer(sessionId, name);
}

/** Starts signing in to a remote MCP server: its sign-in page opens in the browser; resolves to the page's URL. */
export function signInMcpServer(sessionId: string, name: string): Promise<McpSignIn> {
  return commands.signInMcpServer(sessionId, name);
}

/** Turns one MCP tool off (or on again) for the model; saved in the project's local settings. */
export function setMcpToolEnabled(sessionId: string, tool: string, enabled: boolean): Promise<void> {
  return commands.setMcpToolEnabled(sessionId, tool, enabled);
}

/** The session's slash commands (engine, custom, skills, MCP prompts), offered after `/` in the prompt box. */
export function slashCommands(sessionId: string): Promise<SlashCommand[]> {
  return commands.slashCommands(sessionId);
}

/** What `@query` in the prompt box may complete to: the folder's files, then MCP servers. */
export function completeMention(sessionId: string, query: string): Promise<MentionCompletion[]> {
  return commands.completeMention(sessionId, query);
}

/** Every tool of the session: offered to the model now or not, and why not. */
export function toolList(sessionId: string): Promise<ToolListing[]> {
  return commands.toolList(sessionId);
}

/** The worktrees agents left with changes. */
export function keptWorktrees(sessionId: string): Promise<KeptWorktree[]> {
  return commands.keptWorktrees(sessionId);
}

/** Merges a kept worktree into the project's current branch (`merge`), or discards it with its branch. */
export function settleWorktree(sessionId: string, branch: string, merge: boolean): Promise<void> {
  return commands.settleWorktree(sessionId, branch, merge);
}

/** Every rule of every settings source with its scope, file and conflicts; the editable files; the folder's trust. */
export function rulesView(sessionId: string): Promise<RulesView> {
  return commands.rulesView(sessionId);
}

/** Adds a rule (checked by the engine's parser) to the settings file of `scope`; it applies at once. */
export function addRule(sessionId: string, scope: RuleScope, behavior: DecisionBehavior, rule: string): Promise<void> {
  return commands.addRule(sessionId, scope, behavior, rule);
}

/** Removes a rule from the settings file of `scope`. */
export function removeRule(sessionId: string, scope: RuleScope, behavior: DecisionBehavior, rule: string): Promise<void> {
  return commands.removeRule(sessionId, scope, behavior, rule);
}

/** Moves a rule from the settings file of `from` to that of `to`. */
export function moveRule(sessionId: string, from: RuleScope, to: RuleScope, behavior: DecisionBehavior, rule: string): Promise<void> {
  return commands.moveRule(sessionId, from, to, behavior, rule);
}

/** What the rules in force answer for a call of `tool` with `input`, with the decision's trace (nothing runs). */
export function checkCall(sessionId: string, tool: string, input: unknown): Promise<CallCheck> {
  return commands.checkCall(sessionId, tool, input);
}

/** Every configured hook by event, with its source and a sample input. */
export function hooksView(sessionId: string): Promise<HookListing[]> {
  return commands.hooksView(sessionId);
}

/** Every plugin installed for the session's folder: on or off, the file that decides, what it brings. */
export function pluginsView(sessionId: string): Promise<PluginListing[]> {
  return commands.pluginsView(sessionId);
}

/** Turns plugin `id` on or off in the settings file that holds the choice; resolves to the plugins then. */
export function setPluginEnabled(sessionId: string, id: string, enabled: boolean): Promise<PluginListing[]> {
  return commands.setPluginEnabled(sessionId, id, enabled);
}

/** Runs one hook for real on `input` and says what it did and would decide. */
export function testHook(sessionId: string, event: string, command: string, input: unknown): Promise<HookTestResult> {
  return commands.testHook(sessionId, event, command, input);
}

/** The person's settings: connection, where the key is kept, theme, font size. */
export function appSettings(): Promise<AppSettings> {
  return commands.appSettings();
}

/** Saves the settings; the open sessions use the new connection from their next request. */
export function saveAppSettings(update: AppSettingsUpdate): Promise<SavedSettings> {
  return commands.saveAppSettings(update);
}

/** Shows a desktop notification (rejects when the system has no notification service). */
export function notifyPerson(title: string, body: string): Promise<void> {
  return commands.notifyPerson(title, body);
}

/** Opens a file the agent handed over in session `sessionId` (with `reveal`, shows it in its folder). */
export function openUserFile(sessionId: string, path: string, reveal: boolean): Promise<void> {
  return commands.openUserFile(sessionId, path, reveal);
}

/** Forks the stored session before prompt `promptId` (all of it with `null`); resolves to the new session's id. */
export function forkSession(sessionId: string, promptId: string | null): Promise<string> {
  return commands.forkSession(sessionId, promptId);
}

/** The usage of every stored session from `since` (YYYY-MM-DD, UTC; null: everything) on, of `folder` and the folders
 * under it (null: every folder), with the budgets of the settings. */
export function usageReport(since: string | null, folder: string | null): Promise<UsageReport> {
  return commands.usageReport(since, folder);
}

/** The budgets of the settings, each with what every session spent in its period so far (empty: none is set). */
export function budgetStatus(): Promise<BudgetStatus[]> {
  return commands.budgetStatus();
}
