// Generated from src-tauri/command_table.rs by `scripts/generate-types`. Do not edit.
// One typed wrapper per command the app registers; src/ipc.ts is the only module that calls them.

import { invoke, type Channel } from '@tauri-apps/api/core';
import type { AgentServers, AppStateView, ImportSummary, McpSignIn, SavedSettings } from './app';
import type { AppSettings, AppSettingsUpdate, ApprovalAnswer, BackgroundShell, BudgetStatus, CallCheck, ChangedFile, DecisionBehavior, ElicitationAnswer, EventBatch, EventEnvelope, FolderTrust, HookListing, HookTestResult, KeptWorktree, McpServerStatus, MentionCompletion, PermissionMode, PlanAnswer, PluginListing, PromptImage, QuestionAnswer, RewindOutcome, RewindPoint, RewindScope, RuleScope, RulesView, SandboxViolation, SessionCollection, SessionInfo, SessionSearchHit, SessionSummary, SlashCommand, TerminalChunk, TerminalOpened, ToolListing, UnreadableSettingsFile, UsageReport } from './protocol';

export function appState(): Promise<AppStateView> {
  return invoke<AppStateView>('app_state');
}

export function openSession(path: string, onEvent: Channel<EventBatch>, resume: string | null, replaces: string | null, ownAgent: boolean | null): Promise<SessionInfo> {
  return invoke<SessionInfo>('open_session', { path, onEvent, resume, replaces, ownAgent });
}

export function agentServers(): Promise<AgentServers> {
  return invoke<AgentServers>('agent_servers');
}

export function openHostedSession(path: string | null, onEvent: Channel<EventBatch>, agent: string | null, remote: string | null, resume: string | null): Promise<SessionInfo> {
  return invoke<SessionInfo>('open_hosted_session', { path, onEvent, agent, remote, resume });
}

export function closeSession(sessionId: string): Promise<void> {
  return invoke<void>('close_session', { sessionId });
}

export function sessionEvents(sessionId: string, afterSeq: number | null): Promise<Array<EventEnvelope>> {
  return invoke<Array<EventEnvelope>>('session_events', { sessionId, afterSeq });
}

export function listSessions(path: string): Promise<Array<SessionSummary>> {
  return invoke<Array<SessionSummary>>('list_sessions', { path });
}

export function searchSessions(query: string, limit: number | null): Promise<Array<SessionSearchHit>> {
  return invoke<Array<SessionSearchHit>>('search_sessions', { query, limit });
}

export function listCollections(path: string): Promise<Array<SessionCollection>> {
  return invoke<Array<SessionCollection>>('list_collections', { path });
}

export function createCollection(path: string, name: string, parentId: number | null): Promise<SessionCollection> {
  return invoke<SessionCollection>('create_collection', { path, name, parentId });
}

export function renameCollection(id: number, name: string): Promise<void> {
  return invoke<void>('rename_collection', { id, name });
}

export function deleteCollection(id: number): Promise<void> {
  return invoke<void>('delete_collection', { id });
}

export function moveSession(sessionId: string, collectionId: number | null): Promise<void> {
  return invoke<void>('move_session', { sessionId, collectionId });
}

export function setSessionPinned(sessionId: string, pinned: boolean): Promise<void> {
  return invoke<void>('set_session_pinned', { sessionId, pinned });
}

export function setSessionArchived(sessionId: string, archived: boolean): Promise<void> {
  return invoke<void>('set_session_archived', { sessionId, archived });
}

export function setSessionTags(sessionId: string, tags: Array<string>): Promise<Array<string>> {
  return invoke<Array<string>>('set_session_tags', { sessionId, tags });
}

export function exportSession(sessionId: string, format: string): Promise<string | null> {
  return invoke<string | null>('export_session', { sessionId, format });
}

export function clipboardImage(): Promise<PromptImage | null> {
  return invoke<PromptImage | null>('clipboard_image');
}

export function importSessions(claudeCode: boolean): Promise<ImportSummary | null> {
  return invoke<ImportSummary | null>('import_sessions', { claudeCode });
}

export function pickFolder(): Promise<string | null> {
  return invoke<string | null>('pick_folder');
}

export function sendPrompt(sessionId: string, prompt: string, images: Array<PromptImage> | null): Promise<void> {
  return invoke<void>('send_prompt', { sessionId, prompt, images });
}

export function answerApproval(answer: ApprovalAnswer): Promise<void> {
  return invoke<void>('answer_approval', { answer });
}

export function answerPlan(answer: PlanAnswer): Promise<void> {
  return invoke<void>('answer_plan', { answer });
}

export function answerQuestions(answer: QuestionAnswer): Promise<void> {
  return invoke<void>('answer_questions', { answer });
}

export function answerElicitation(answer: ElicitationAnswer): Promise<void> {
  return invoke<void>('answer_elicitation', { answer });
}

export function interrupt(sessionId: string): Promise<void> {
  return invoke<void>('interrupt', { sessionId });
}

export function stopSubAgent(sessionId: string, id: string): Promise<boolean> {
  return invoke<boolean>('stop_sub_agent', { sessionId, id });
}

export function sendToBackground(sessionId: string, toolUseId: string | null): Promise<number> {
  return invoke<number>('send_to_background', { sessionId, toolUseId });
}

export function backgroundShells(sessionId: string): Promise<Array<BackgroundShell>> {
  return invoke<Array<BackgroundShell>>('background_shells', { sessionId });
}

export function backgroundShellOutput(sessionId: string, taskId: string): Promise<string | null> {
  return invoke<string | null>('background_shell_output', { sessionId, taskId });
}

export function stopBackgroundShell(sessionId: string, taskId: string): Promise<boolean> {
  return invoke<boolean>('stop_background_shell', { sessionId, taskId });
}

export function openTerminal(sessionId: string, rows: number, cols: number, onOutput: Channel<TerminalChunk>): Promise<TerminalOpened> {
  return invoke<TerminalOpened>('open_terminal', { sessionId, rows, cols, onOutput });
}

export function terminalInput(sessionId: string, data: string): Promise<void> {
  return invoke<void>('terminal_input', { sessionId, data });
}

export function resizeTerminal(sessionId: string, rows: number, cols: number): Promise<void> {
  return invoke<void>('resize_terminal', { sessionId, rows, cols });
}

export function closeTerminal(sessionId: string): Promise<void> {
  return invoke<void>('close_terminal', { sessionId });
}

export function setMode(sessionId: string, mode: PermissionMode): Promise<void> {
  return invoke<void>('set_mode', { sessionId, mode });
}

export function rewindPoints(sessionId: string): Promise<Array<RewindPoint>> {
  return invoke<Array<RewindPoint>>('rewind_points', { sessionId });
}

export function rewind(sessionId: string, promptId: string, scope: RewindScope, force: boolean): Promise<RewindOutcome> {
  return invoke<RewindOutcome>('rewind', { sessionId, promptId, scope, force });
}

export function trustFolder(sessionId: string): Promise<FolderTrust> {
  return invoke<FolderTrust>('trust_folder', { sessionId });
}

export function revokeTrust(sessionId: string): Promise<FolderTrust> {
  return invoke<FolderTrust>('revoke_trust', { sessionId });
}

export function unreadableSettings(sessionId: string): Promise<Array<UnreadableSettingsFile>> {
  return invoke<Array<UnreadableSettingsFile>>('unreadable_settings', { sessionId });
}

export function acceptUnreadableSettings(sessionId: string, file: string): Promise<Array<UnreadableSettingsFile>> {
  return invoke<Array<UnreadableSettingsFile>>('accept_unreadable_settings', { sessionId, file });
}

export function unreadableSettingsText(sessionId: string, file: string): Promise<string> {
  return invoke<string>('unreadable_settings_text', { sessionId, file });
}

export function sessionChanges(sessionId: string): Promise<Array<ChangedFile>> {
  return invoke<Array<ChangedFile>>('session_changes', { sessionId });
}

export function renameSession(sessionId: string, title: string): Promise<void> {
  return invoke<void>('rename_session', { sessionId, title });
}

export function deleteSession(sessionId: string): Promise<void> {
  return invoke<void>('delete_session', { sessionId });
}

export function forkSession(sessionId: string, promptId: string | null): Promise<string> {
  return invoke<string>('fork_session', { sessionId, promptId });
}

export function mcpServers(sessionId: string): Promise<Array<McpServerStatus>> {
  return invoke<Array<McpServerStatus>>('mcp_servers', { sessionId });
}

export function approveMcpServer(sessionId: string, name: string, approved: boolean): Promise<void> {
  return invoke<void>('approve_mcp_server', { sessionId, name, approved });
}

export function allowSandboxViolation(sessionId: string, violation: SandboxViolation): Promise<string> {
  return invoke<string>('allow_sandbox_violation', { sessionId, violation });
}

export function reconnectMcpServer(sessionId: string, name: string): Promise<void> {
  return invoke<void>('reconnect_mcp_server', { sessionId, name });
}

export function signInMcpServer(sessionId: string, name: string): Promise<McpSignIn> {
  return invoke<McpSignIn>('sign_in_mcp_server', { sessionId, name });
}

export function setMcpToolEnabled(sessionId: string, tool: string, enabled: boolean): Promise<void> {
  return invoke<void>('set_mcp_tool_enabled', { sessionId, tool, enabled });
}

export function slashCommands(sessionId: string): Promise<Array<SlashCommand>> {
  return invoke<Array<SlashCommand>>('slash_commands', { sessionId });
}

export function completeMention(sessionId: string, query: string): Promise<Array<MentionCompletion>> {
  return invoke<Array<MentionCompletion>>('complete_mention', { sessionId, query });
}

export function toolList(sessionId: string): Promise<Array<ToolListing>> {
  return invoke<Array<ToolListing>>('tool_list', { sessionId });
}

export function keptWorktrees(sessionId: string): Promise<Array<KeptWorktree>> {
  return invoke<Array<KeptWorktree>>('kept_worktrees', { sessionId });
}

export function settleWorktree(sessionId: string, branch: string, merge: boolean): Promise<void> {
  return invoke<void>('settle_worktree', { sessionId, branch, merge });
}

export function rulesView(sessionId: string): Promise<RulesView> {
  return invoke<RulesView>('rules_view', { sessionId });
}

export function addRule(sessionId: string, scope: RuleScope, behavior: DecisionBehavior, rule: string): Promise<void> {
  return invoke<void>('add_rule', { sessionId, scope, behavior, rule });
}

export function removeRule(sessionId: string, scope: RuleScope, behavior: DecisionBehavior, rule: string): Promise<void> {
  return invoke<void>('remove_rule', { sessionId, scope, behavior, rule });
}

export function moveRule(sessionId: string, from: RuleScope, to: RuleScope, behavior: DecisionBehavior, rule: string): Promise<void> {
  return invoke<void>('move_rule', { sessionId, from, to, behavior, rule });
}

export function checkCall(sessionId: string, tool: string, input: unknown): Promise<CallCheck> {
  return invoke<CallCheck>('check_call', { sessionId, tool, input });
}

export function hooksView(sessionId: string): Promise<Array<HookListing>> {
  return invoke<Array<HookListing>>('hooks_view', { sessionId });
}

export function testHook(sessionId: string, event: string, command: string, input: unknown): Promise<HookTestResult> {
  return invoke<HookTestResult>('test_hook', { sessionId, event, command, input });
}

export function pluginsView(sessionId: string): Promise<Array<PluginListing>> {
  return invoke<Array<PluginListing>>('plugins_view', { sessionId });
}

export function setPluginEnabled(sessionId: string, id: string, enabled: boolean): Promise<Array<PluginListing>> {
  return invoke<Array<PluginListing>>('set_plugin_enabled', { sessionId, id, enabled });
}

export function appSettings(): Promise<AppSettings> {
  return invoke<AppSettings>('app_settings');
}

export function saveAppSettings(update: AppSettingsUpdate): Promise<SavedSettings> {
  return invoke<SavedSettings>('save_app_settings', { update });
}

export function notifyPerson(title: string, body: string): Promise<void> {
  return invoke<void>('notify_person', { title, body });
}

export function openUserFile(sessionId: string, path: string, reveal: boolean): Promise<void> {
  return invoke<void>('open_user_file', { sessionId, path, reveal });
}

export function usageReport(since: string | null, folder: string | null): Promise<UsageReport> {
  return invoke<UsageReport>('usage_report', { since, folder });
}

export function budgetStatus(): Promise<Array<BudgetStatus>> {
  return invoke<Array<BudgetStatus>>('budget_status');
}
