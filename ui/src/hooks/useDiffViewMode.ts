// The diff dialog's layout choice (side by side or unified), remembered across dialogs and runs.
import { useState } from 'react';
import type { DiffViewMode } from '../components/diff/DiffBody';

const KEY = 'tandem.diffView';

export function useDiffViewMode(): [DiffViewMode, (mode: DiffViewMode) => void] {
  const [mode, setMode] = useState<DiffViewMode>(() => (readStored() === 'unified' ? 'unified' : 'split'));
  const choose = (next: DiffViewMode) => {
    setMode(next);
    try {
      localStorage.setItem(KEY, next);
    } catch {
      // Storage may be unavailable; the choice then lasts for this dialog only.
    }
  };
  return [mode, choose];
}

function readStored(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}
