// The web view's own context menu offers Back, Forward and Reload, which mean nothing in this window (Reload
// would restart the page): it is kept only where it helps — in text fields and on selected text (copy,
// paste).

/** Whether the web view's menu is useful where the person right-clicked. */
export function wantsNativeMenu(target: EventTarget | null, selection: string): boolean {
  if (selection.trim() !== '') return true;
  if (!(target instanceof Element)) return false;
  return target.closest('input, textarea, [contenteditable=""], [contenteditable="true"]') !== null;
}

/** Stops the web view's context menu outside text fields and selections; returns the uninstaller. */
export function guardContextMenu(target: Window = window): () => void {
  const onContextMenu = (event: MouseEvent) => {
    if (!wantsNativeMenu(event.target, target.getSelection()?.toString() ?? '')) event.preventDefault();
  };
  target.addEventListener('contextmenu', onContextMenu);
  return () => target.removeEventListener('contextmenu', onContextMenu);
}
