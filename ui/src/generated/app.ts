// Generated from src-tauri by `scripts/generate-types`. Do not edit.

import type { AppSettings, SessionInfo } from './protocol';

export type AppStateView = { 
/**
 * The folder given on the command line.
 */
folder: string | null, recent: Array<string>, version: string, };

export type ErrorCode = "folder_missing" | "not_a_folder" | "folder_unreadable" | "model" | "store" | "unknown_session" | "no_session" | "no_request" | "rewind" | "trust" | "changes" | "session_busy" | "mcp" | "worktree" | "rules" | "hooks" | "settings" | "events_missed" | "notification" | "image";

export type CommandError = { code: ErrorCode, 
/**
 * A message for the person.
 */
message: string, };

export type OpenFolder = { path: string, };

export type McpSignIn = { authorization_url: string, open_error: string | null, };

export type SavedSettings = { settings: AppSettings, sessions: Array<SessionInfo>, };
