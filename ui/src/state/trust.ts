// When the window asks whether to trust a folder: not for a folder whose settings grant nothing
// (nothing would change), and not again for folders whose question the person put off ("Not now")
// while this window is open (until the app restarts; the status bar still offers it).
import type { FolderTrust } from '../generated/protocol';
const postponed = new Set<string>();

export function trustPostponed(folder: string): boolean {
  return postponed.has(folder);
}

export function postponeTrust(folder: string): void {
  postponed.add(folder);
}

/** Whether trusting the folder would change anything: its settings allow, add directories, hooks or servers. */
export function trustGrantsSomething(trust: FolderTrust): boolean {
  return trust.allow_rules.length + trust.directories.length + trust.hooks.length + trust.mcp_servers.length > 0;
}

/** Whether to ask about the folder when its session opens. */
export function asksForTrust(folder: string, trust: FolderTrust): boolean {
  return !trust.trusted && trustGrantsSomething(trust) && !trustPostponed(folder);
}
