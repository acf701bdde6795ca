// What the terminal panel (components/terminal/TerminalPanel.tsx) shares: its height's bounds and the decoding of
// the shell's output as it arrives (base64 bytes, which may end inside a character: xterm.js joins them).

/** The panel's height when it first opens, and its bounds while dragged, in pixels. */
export const PANEL_HEIGHT = { initial: 260, min: 120, max: 900 };

/** The bytes of a base64 chunk. */
export function chunkBytes(data: string): Uint8Array {
  return Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
}
