// Folders whose trust question the person put off ("Not now") while this window is open: the
// question is not asked again for them until the app restarts (the status bar still offers it).
const postponed = new Set<string>();

export function trustPostponed(folder: string): boolean {
  return postponed.has(folder);
}

export function postponeTrust(folder: string): void {
  postponed.add(folder);
}
