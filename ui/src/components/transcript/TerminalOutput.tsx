// Raw terminal output (ANSI colours, carriage-return progress) drawn by xterm.js, read-only:
// new text is written as it streams, the terminal is as tall as its content up to MAX_ROWS
// (then it scrolls), and as wide as its container.
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef } from 'react';
import { TERMINAL_FONT, TERMINAL_OPTIONS } from '../../terminal/theme';

/** Tallest the terminal grows before it scrolls, in rows. */
const MAX_ROWS = 22;
const HIDE_CURSOR = '\u001b[?25l';

export function TerminalOutput({ text }: { text: string }) {
  const hostRef = useRef<HTMLDivElement>(null);
  const terminalRef = useRef<{ term: Terminal; fit: FitAddon } | null>(null);
  const writtenRef = useRef('');
  // The latest text, for the terminal to write once it has opened.
  const textRef = useRef(text);

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    let disposed = false;
    let observer: ResizeObserver | null = null;
    // xterm measures its cell size when it opens: wait for the bundled monospace font.
    void document.fonts
      .load(`12px ${TERMINAL_FONT}`)
      .catch(() => undefined)
      .then(() => {
        if (disposed) return;
        const term = new Terminal({ ...TERMINAL_OPTIONS, rows: 1, cols: 80 });
        const fit = new FitAddon();
        term.loadAddon(fit);
        term.open(host);
        term.write(HIDE_CURSOR);
        terminalRef.current = { term, fit };
        fitColumns(term, fit);
        sync(term, writtenRef, textRef.current);
        observer = new ResizeObserver(() => fitColumns(term, fit));
        observer.observe(host);
      });
    return () => {
      disposed = true;
      observer?.disconnect();
      terminalRef.current?.term.dispose();
      terminalRef.current = null;
      writtenRef.current = '';
    };
  }, []);

  useEffect(() => {
    textRef.current = text;
    const current = terminalRef.current;
    if (current) sync(current.term, writtenRef, text);
  }, [text]);

  return <div className="terminal-output" ref={hostRef} data-testid="terminal-output" />;
}

/**
 * Writes what is new in `text` (or everything again when it changed otherwise), then sizes rows.
 * A final newline is held back until more output follows, so the cursor never sits on an empty
 * last row and the terminal is exactly as tall as its output.
 */
function sync(term: Terminal, written: { current: string }, text: string): void {
  const target = text.endsWith('\n') ? text.slice(0, -1) : text;
  if (target.startsWith(written.current)) {
    term.write(target.slice(written.current.length), () => fitRows(term));
  } else {
    term.reset();
    term.write(HIDE_CURSOR + target, () => fitRows(term));
  }
  written.current = target;
}

function fitRows(term: Terminal): void {
  const buffer = term.buffer.active;
  const used = buffer.baseY + buffer.cursorY + 1;
  const rows = Math.max(1, Math.min(MAX_ROWS, used));
  if (rows !== term.rows) term.resize(term.cols, rows);
}

function fitColumns(term: Terminal, fit: FitAddon): void {
  const cols = fit.proposeDimensions()?.cols;
  if (cols && cols > 0 && cols !== term.cols) term.resize(cols, term.rows);
  fitRows(term);
}
