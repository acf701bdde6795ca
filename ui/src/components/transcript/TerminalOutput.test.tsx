// Tests of the xterm.js view's lifetime under jsdom (xterm.js itself replaced by a recording fake):
// a row scrolled out of the virtualised transcript unmounts its terminal, which must dispose it and stop
// observing the host's size, or every shell call ever shown would keep a terminal alive.
import { render, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TerminalOutput } from './TerminalOutput';

const terminals = vi.hoisted(() => [] as { disposed: boolean; written: string[] }[]);

vi.mock('@xterm/xterm', () => ({
  Terminal: class {
    record = { disposed: false, written: [] as string[] };
    rows = 1;
    cols = 80;
    buffer = { active: { baseY: 0, cursorY: 0 } };
    constructor() {
      terminals.push(this.record);
    }
    loadAddon() {}
    open() {}
    write(text: string, done?: () => void) {
      this.record.written.push(text);
      done?.();
    }
    reset() {}
    resize(cols: number, rows: number) {
      this.cols = cols;
      this.rows = rows;
    }
    dispose() {
      this.record.disposed = true;
    }
  },
}));
vi.mock('@xterm/addon-fit', () => ({ FitAddon: class { proposeDimensions() { return { cols: 80, rows: 1 }; } } }));

const observers = { live: 0 };

beforeEach(() => {
  terminals.length = 0;
  observers.live = 0;
  Object.defineProperty(document, 'fonts', { configurable: true, value: { load: () => Promise.resolve([]) } });
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {
        observers.live += 1;
      }
      disconnect() {
        observers.live -= 1;
      }
    },
  );
});

afterEach(() => vi.unstubAllGlobals());

describe('TerminalOutput', () => {
  it('disposes its terminal and stops observing when it unmounts', async () => {
    const view = render(<TerminalOutput text={'building\n'} />);
    await waitFor(() => expect(terminals).toHaveLength(1));
    await waitFor(() => expect(observers.live).toBe(1));
    expect(terminals[0]?.written.join('')).toContain('building');
    view.unmount();
    expect(terminals[0]?.disposed).toBe(true);
    expect(observers.live).toBe(0);
  });

  it('makes no terminal when it unmounts before the font has loaded', async () => {
    let loaded: (value: unknown) => void = () => {};
    Object.defineProperty(document, 'fonts', { configurable: true, value: { load: () => new Promise((resolve) => (loaded = resolve)) } });
    const view = render(<TerminalOutput text="x" />);
    view.unmount();
    loaded([]);
    // Let the font promise's callbacks run (a flush of queued tasks, not a timed wait).
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(terminals).toHaveLength(0);
    expect(observers.live).toBe(0);
  });
});
