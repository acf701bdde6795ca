// Generated from src-tauri by `scripts/generate-types`. Do not edit.

import type { AppSettings, SessionInfo } from './protocol';

export type AppStateView = { 
/**
 * The folder given on the command line.
 */
folder: string | null, 
/**
 * The remote folder given on the command line (`ssh://user@host/path`).
 */
remote: string | null, recent: Array<string>, version: string, };

export type ErrorCode = "folder_missing" | "not_a_folder" | "folder_unreadable" | "model" | "store" | "unknown_session" | "no_session" | "no_request" | "rewind" | "trust" | "changes" | "session_busy" | "mcp" | "worktree" | "rules" | "hooks" | "settings" | "events_missed" | "notification" | "open_file" | "carry" | "usage" | "image" | "terminal" | "agent" | "hosted_session";

export type CommandError = { code: ErrorCode, 
/**
 * A message for the person.
 */
message: string, };

export type OpenFolder = { path: string, };

export type McpSignIn = { authorization_url: string, open_error: string | null, };

export type SavedSettings = { settings: AppSettings, sessions: Array<SessionInfo>, };

export type ImportedSession = { session_id: string, 
/**
 * The project folder the conversation was held in.
 */
folder: string, title: string, messages: number, };

export type ImportSummary = { imported: Array<ImportedSession>, 
/**
 * Sessions stored before (importing twice stores once).
 */
already_there: number, 
/**
 * Files not imported at all, and the first bad line of each file whose whole lines were imported, each as
 * `path: why` or `path:line: why`.
 */
problems: Array<string>, };

export type ImportChoice = { 
/**
 * Every transcript under the reference agent's projects folder, rather than files the person picks.
 */
claude_code: boolean, };

export type OpenRemote = { 
/**
 * The remote folder a launch named (`ssh://…`); `None` from the menu: the window asks for it.
 */
url: string | null, 
/**
 * The folder of this machine the session is stored under (the launch's folder); `None`: the window's choice.
 */
folder: string | null, };

export type AgentServers = { 
/**
 * The names configured under `agentServers`, sorted.
 */
names: Array<string>, 
/**
 * Why the list may be incomplete: the settings file cannot be read, or an entry is not an agent.
 */
problem: string | null, 
/**
 * Tandem's settings file, where agents are configured (`None` without a configuration folder).
 */
settings_file: string | null, };
