// Tests of the terminal panel under jsdom (xterm.js replaced by a recording fake, the app by the fake IPC): it opens
// the session's terminal at the size it fits, plays the shell's output as bytes, sends what is typed, tells the
// shell its new size when the panel is resized, closes the shell on Close, says when the switch is off, and Ctrl+`
// shows and hides it.
import { act, fireEvent, render, renderHook, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useTerminalPanel } from '../../hooks/session/useTerminalPanel';
import { ChannelSender, isChannelArg } from '../../mock/channel';
import type { TerminalChunk } from '../../generated/protocol';
import { installFakeIpc } from '../../test/fakeIpc';
import { TerminalPanel } from './TerminalPanel';

type FakeTerm = { written: Uint8Array[]; typed: (data: string) => void; disposed: boolean; rows: number; cols: number };
const terms = vi.hoisted(() => [] as FakeTerm[]);
const dims = vi.hoisted(() => ({ rows: 12, cols: 90 }));

vi.mock('@xterm/xterm', () => ({
  Terminal: class {
    rows = 24;
    cols = 80;
    record: FakeTerm;
    constructor() {
      this.record = { written: [], typed: () => undefined, disposed: false, rows: 24, cols: 80 };
      terms.push(this.record);
    }
    loadAddon(addon: { term?: unknown }) {
      addon.term = this;
    }
    open() {}
    focus() {}
    onData(handler: (data: string) => void) {
      this.record.typed = handler;
    }
    write(data: Uint8Array) {
      this.record.written.push(data);
    }
    dispose() {
      this.record.disposed = true;
    }
  },
}));
vi.mock('@xterm/addon-fit', () => ({
  FitAddon: class {
    term: { rows: number; cols: number } | undefined;
    fit() {
      if (this.term) {
        this.term.rows = dims.rows;
        this.term.cols = dims.cols;
      }
    }
  },
}));

const observers: (() => void)[] = [];

beforeEach(() => {
  terms.length = 0;
  observers.length = 0;
  dims.rows = 12;
  dims.cols = 90;
  Object.defineProperty(document, 'fonts', { configurable: true, value: { load: () => Promise.resolve([]) } });
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(callback: () => void) {
        observers.push(callback);
      }
      observe() {}
      disconnect() {}
    },
  );
});

afterEach(() => vi.unstubAllGlobals());

function base64(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)));
}

/** The fake app with a terminal: each open sends the chunks given on its channel. */
function withTerminal(chunks: TerminalChunk[]) {
  const senders: ChannelSender<TerminalChunk>[] = [];
  const ipc = installFakeIpc({
    open_terminal: (args) => {
      if (!isChannelArg(args.onOutput)) throw new Error('no channel');
      const sender = new ChannelSender<TerminalChunk>(args.onOutput);
      senders.push(sender);
      queueMicrotask(() => chunks.forEach((chunk) => sender.send(chunk)));
      return { shell: '/bin/zsh', started: true };
    },
  });
  return { ipc, senders };
}

describe('TerminalPanel', () => {
  it('opens the terminal at its fitted size, plays the output as bytes and sends what is typed', async () => {
    const { ipc, senders } = withTerminal([{ type: 'output', data: base64('\u001b[31mhé\u001b[0m $ ') }]);
    render(<TerminalPanel sessionId="session-1" available onHide={() => undefined} />);
    await waitFor(() => expect(ipc.argsOf('open_terminal')).toHaveLength(1));
    expect(ipc.argsOf('open_terminal')[0]).toMatchObject({ sessionId: 'session-1', rows: 12, cols: 90 });
    await screen.findByText('Terminal — /bin/zsh');
    await waitFor(() => expect(terms[0]?.written).toHaveLength(1));
    expect(new TextDecoder().decode(terms[0]?.written[0])).toBe('\u001b[31mhé\u001b[0m $ ');

    act(() => terms[0]?.typed('ls\r'));
    await waitFor(() => expect(ipc.argsOf('terminal_input')).toEqual([{ sessionId: 'session-1', data: 'ls\r' }]));

    // The shell exits: the panel says so and offers a new one.
    act(() => senders[0]?.send({ type: 'exited', message: 'the shell has exited (exit code 0)' }));
    expect(await screen.findByTestId('terminal-ended')).toHaveTextContent('the shell has exited');
  });

  it('tells the shell its new size when the panel is resized, and only then', async () => {
    const { ipc } = withTerminal([]);
    render(<TerminalPanel sessionId="session-1" available onHide={() => undefined} />);
    await waitFor(() => expect(observers).toHaveLength(1));
    act(() => observers[0]?.());
    expect(ipc.argsOf('resize_terminal')).toHaveLength(0);
    dims.rows = 30;
    dims.cols = 120;
    act(() => observers[0]?.());
    await waitFor(() =>
      expect(ipc.argsOf('resize_terminal')).toEqual([{ sessionId: 'session-1', rows: 30, cols: 120 }]),
    );
  });

  it('closes the shell on Close, and hides without closing on Hide', async () => {
    const { ipc } = withTerminal([]);
    const onHide = vi.fn();
    const view = render(<TerminalPanel sessionId="session-1" available onHide={onHide} />);
    await screen.findByText('Terminal — /bin/zsh');
    fireEvent.click(screen.getByRole('button', { name: 'Hide' }));
    expect(onHide).toHaveBeenCalledTimes(1);
    expect(ipc.argsOf('close_terminal')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(onHide).toHaveBeenCalledTimes(2));
    expect(ipc.argsOf('close_terminal')).toEqual([{ sessionId: 'session-1' }]);
    view.unmount();
    expect(terms[0]?.disposed).toBe(true);
  });

  it('says the switch is off without opening a shell', async () => {
    const { ipc } = withTerminal([]);
    render(<TerminalPanel sessionId="session-1" available={false} onHide={() => undefined} />);
    expect(screen.getByRole('status')).toHaveTextContent('set TERMINAL_PANEL=1');
    await act(() => Promise.resolve());
    expect(ipc.argsOf('open_terminal')).toHaveLength(0);
  });

  it('shows the problem when the terminal cannot be opened', async () => {
    installFakeIpc({
      open_terminal: () => {
        throw { code: 'terminal', message: 'the shell /bin/nope could not be started' };
      },
    });
    render(<TerminalPanel sessionId="session-1" available onHide={() => undefined} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('could not be started');
  });
});

describe('useTerminalPanel', () => {
  it('toggles on Ctrl+` (by key or by code) while its session is shown', () => {
    installFakeIpc();
    const { result, rerender } = renderHook(({ shown }) => useTerminalPanel(shown), { initialProps: { shown: true } });
    expect(result.current.open).toBe(false);
    act(() => void window.dispatchEvent(new KeyboardEvent('keydown', { key: '`', ctrlKey: true })));
    expect(result.current.open).toBe(true);
    act(() => void window.dispatchEvent(new KeyboardEvent('keydown', { key: '£', code: 'Backquote', ctrlKey: true })));
    expect(result.current.open).toBe(false);
    act(() => void window.dispatchEvent(new KeyboardEvent('keydown', { key: '`' })));
    expect(result.current.open).toBe(false);
    rerender({ shown: false });
    act(() => void window.dispatchEvent(new KeyboardEvent('keydown', { key: '`', ctrlKey: true })));
    expect(result.current.open).toBe(false);
  });
});
