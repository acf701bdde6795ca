// The xterm.js theme and font of shell output, matching the app's dark theme (theme.css).
import type { ITerminalOptions, ITheme } from '@xterm/xterm';

export const TERMINAL_THEME: ITheme = {
  background: '#0a0c0f',
  foreground: '#d6dbe2',
  cursor: '#0a0c0f',
  cursorAccent: '#0a0c0f',
  selectionBackground: 'rgba(127, 156, 255, 0.3)',
  scrollbarSliderBackground: 'rgba(138, 148, 163, 0.25)',
  scrollbarSliderHoverBackground: 'rgba(138, 148, 163, 0.4)',
  black: '#1b1f27',
  red: '#f0626b',
  green: '#4cc38a',
  yellow: '#efb44d',
  blue: '#7f9cff',
  magenta: '#b59dff',
  cyan: '#5ccfe6',
  white: '#d6dbe2',
  brightBlack: '#5d6676',
  brightRed: '#ff8a91',
  brightGreen: '#6fdca6',
  brightYellow: '#ffd07a',
  brightBlue: '#9db3ff',
  brightMagenta: '#cdbaff',
  brightCyan: '#8be3f2',
  brightWhite: '#f1f3f6',
};

export const TERMINAL_FONT = "'JetBrains Mono', ui-monospace, Menlo, Consolas, monospace";

export const TERMINAL_OPTIONS: ITerminalOptions = {
  theme: TERMINAL_THEME,
  fontFamily: TERMINAL_FONT,
  fontSize: 12,
  lineHeight: 1.2,
  // Output arrives with bare \n from pipes: treat it as a new line.
  convertEol: true,
  disableStdin: true,
  cursorBlink: false,
  cursorInactiveStyle: 'none',
  scrollback: 5000,
  allowTransparency: false,
};
