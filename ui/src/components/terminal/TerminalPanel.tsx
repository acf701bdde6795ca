// The session's terminal panel (behind TERMINAL_PANEL): the person's own shell, running in the engine in a real PTY
// in the session's folder, drawn by xterm.js at the bottom of the session view. Keys typed here go to the shell;
// its output streams back on a channel (first what redraws its screen, so a panel shown again or a reloaded window
// shows what the shell shows). The panel's height is dragged at its top edge; the terminal fits the panel and the
// shell hears the new size. Hiding the panel leaves the shell running; Close kills it and everything it started.
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useCallback, useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import * as ipc from '../../ipc';
import type { TerminalChunk } from '../../generated/protocol';
import { chunkBytes, PANEL_HEIGHT } from '../../terminal/panel';
import { TERMINAL_FONT, TERMINAL_OPTIONS } from '../../terminal/theme';

export type TerminalPanelProps = {
  sessionId: string;
  /** Whether the session offers the panel (the TERMINAL_PANEL switch is on). */
  available: boolean;
  /** Hides the panel (the shell goes on). */
  onHide: () => void;
};

export function TerminalPanel({ sessionId, available, onHide }: TerminalPanelProps) {
  const [height, setHeight] = useState(PANEL_HEIGHT.initial);
  const [shell, setShell] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [ended, setEnded] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  const hostRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const host = hostRef.current;
    if (!available || !host) return;
    let disposed = false;
    let term: Terminal | null = null;
    let observer: ResizeObserver | null = null;
    let size = { rows: 0, cols: 0 };
    void document.fonts
      .load(`12px ${TERMINAL_FONT}`)
      .catch(() => undefined)
      .then(async () => {
        if (disposed) return;
        const terminal = new Terminal({
          ...TERMINAL_OPTIONS,
          disableStdin: false,
          convertEol: false,
          cursorBlink: true,
          cursorInactiveStyle: 'outline',
          theme: { ...TERMINAL_OPTIONS.theme, cursor: '#d6dbe2' },
        });
        term = terminal;
        const fit = new FitAddon();
        terminal.loadAddon(fit);
        terminal.open(host);
        fit.fit();
        size = { rows: terminal.rows, cols: terminal.cols };
        terminal.onData((data) => {
          ipc.terminalInput(sessionId, data).catch((e: unknown) => setProblem(ipc.errorMessage(e)));
        });
        const onChunk = (chunk: TerminalChunk) => {
          if (disposed) return;
          if (chunk.type === 'output') terminal.write(chunkBytes(chunk.data));
          else setEnded(chunk.message);
        };
        try {
          const opened = await ipc.openTerminal(sessionId, size.rows, size.cols, onChunk);
          if (disposed) return;
          setShell(opened.shell);
          setProblem(null);
          terminal.focus();
        } catch (e) {
          if (!disposed) setProblem(ipc.errorMessage(e));
          return;
        }
        observer = new ResizeObserver(() => {
          fit.fit();
          if (terminal.rows === size.rows && terminal.cols === size.cols) return;
          size = { rows: terminal.rows, cols: terminal.cols };
          ipc.resizeTerminal(sessionId, size.rows, size.cols).catch(() => undefined);
        });
        observer.observe(host);
      });
    return () => {
      disposed = true;
      observer?.disconnect();
      term?.dispose();
    };
  }, [sessionId, available, generation]);

  const close = useCallback(() => {
    void ipc.closeTerminal(sessionId).finally(onHide);
  }, [sessionId, onHide]);

  const restart = useCallback(() => {
    setEnded(null);
    setGeneration((g) => g + 1);
  }, []);

  const startDrag = useCallback(
    (event: ReactPointerEvent<HTMLDivElement>) => {
      event.preventDefault();
      const startY = event.clientY;
      const startHeight = height;
      const move = (e: PointerEvent) => {
        const next = startHeight + (startY - e.clientY);
        setHeight(Math.max(PANEL_HEIGHT.min, Math.min(PANEL_HEIGHT.max, next)));
      };
      const up = () => {
        window.removeEventListener('pointermove', move);
        window.removeEventListener('pointerup', up);
      };
      window.addEventListener('pointermove', move);
      window.addEventListener('pointerup', up);
    },
    [height],
  );

  return (
    <section className="terminal-panel" style={{ height }} data-testid="terminal-panel" aria-label="Terminal">
      <div
        className="terminal-panel-grip"
        role="separator"
        aria-orientation="horizontal"
        aria-label="Resize the terminal panel"
        onPointerDown={startDrag}
      />
      <header className="terminal-panel-header">
        <span className="terminal-panel-title">Terminal{shell ? ` — ${shell}` : ''}</span>
        {ended && (
          <span className="terminal-panel-ended" data-testid="terminal-ended">
            {ended}{' '}
            <button type="button" className="link-button" onClick={restart}>
              Start a new shell
            </button>
          </span>
        )}
        <span className="terminal-panel-actions">
          <button type="button" className="button button-ghost" onClick={onHide} title="Hide the panel (Ctrl+`); the shell goes on">
            Hide
          </button>
          {available && (
            <button type="button" className="button button-ghost" onClick={close} title="Close the shell and everything it started">
              Close
            </button>
          )}
        </span>
      </header>
      {!available ? (
        <p className="terminal-panel-problem" role="status">
          The terminal panel is switched off: set TERMINAL_PANEL=1 (in the environment, or under env in a settings file)
          to offer it.
        </p>
      ) : (
        <>
          {problem && (
            <p className="terminal-panel-problem" role="alert">
              {problem}
            </p>
          )}
          <div className="terminal-panel-screen" ref={hostRef} data-testid="terminal-panel-screen" />
        </>
      )}
    </section>
  );
}
