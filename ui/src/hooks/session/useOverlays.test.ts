// Which of the session's dialogs and panels is on screen when several were opened: a table of what was opened and
// what blocks them, against the one shown; and bypass mode asked once per session.
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { FolderTrust } from '../../generated/protocol';
import { useOverlays, type Overlay } from './useOverlays';

const trust: FolderTrust = { trusted: true, allow_rules: [], directories: [], hooks: [], mcp_servers: [] };

type Opened = Overlay[];
const CASES: [Opened, { asking: boolean; rewinding: boolean }, Overlay | null][] = [
  [[], { asking: false, rewinding: false }, null],
  [['hooks'], { asking: false, rewinding: false }, 'hooks'],
  [['rules', 'hooks'], { asking: false, rewinding: false }, 'hooks'],
  [['mcp', 'rules'], { asking: false, rewinding: false }, 'mcp'],
  [['changes', 'mcp'], { asking: false, rewinding: false }, 'changes'],
  [['bypass', 'changes'], { asking: false, rewinding: false }, 'bypass'],
  [['trust', 'bypass', 'changes'], { asking: false, rewinding: false }, 'trust'],
  // The trust dialog waits for the rewind dialog; the others do not.
  [['trust', 'bypass'], { asking: false, rewinding: true }, 'bypass'],
  [['trust'], { asking: false, rewinding: true }, null],
  // A request waiting on the person hides them all.
  [['trust', 'bypass', 'changes', 'mcp', 'rules'], { asking: true, rewinding: false }, null],
];

describe('useOverlays', () => {
  it.each(CASES)('opened %j with %j shows %s', (opened, blocked, shown) => {
    const setMode = vi.fn(() => Promise.resolve());
    const { result } = renderHook(() => useOverlays({ cwd: '/work/p', trust }, blocked, setMode));
    act(() => {
      for (const overlay of opened) {
        if (overlay === 'bypass') result.current.changeMode('bypassPermissions');
        else result.current.open(overlay);
      }
    });
    expect(result.current.shown).toBe(shown);
  });

  it('asks before bypass mode once per session, and keeps the mode when declined', () => {
    const setMode = vi.fn(() => Promise.resolve());
    const { result } = renderHook(() => useOverlays({ cwd: '/work/p', trust }, { asking: false, rewinding: false }, setMode));
    act(() => result.current.changeMode('bypassPermissions'));
    expect(result.current.shown).toBe('bypass');
    act(() => result.current.cancelBypass());
    expect(result.current.shown).toBeNull();
    expect(setMode).not.toHaveBeenCalled();
    act(() => result.current.changeMode('bypassPermissions'));
    act(() => result.current.confirmBypass());
    expect(setMode).toHaveBeenLastCalledWith('bypassPermissions');
    act(() => result.current.changeMode('plan'));
    act(() => result.current.changeMode('bypassPermissions'));
    expect(result.current.shown).toBeNull();
    expect(setMode.mock.calls).toEqual([['bypassPermissions'], ['plan'], ['bypassPermissions']]);
  });
});
