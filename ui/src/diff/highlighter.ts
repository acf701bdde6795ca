// The highlight.js instance diffs are coloured with, loaded with the first diff drawn rather than with
// the window (its grammars are a large share of the bundle). Diff views draw plain lines until it has
// loaded and then draw again; a failed load leaves them plain and is tried again by the next view.
import type { HLJSApi } from 'highlight.js';
import { useEffect, useSyncExternalStore } from 'react';

let instance: HLJSApi | null = null;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

/** Loads highlight.js once; resolves when it is there (or when loading failed). */
export function loadHighlighter(): Promise<void> {
  loading ??= import('highlight.js/lib/common').then(
    (module) => {
      instance = module.default;
      for (const listener of listeners) listener();
    },
    () => {
      loading = null;
    },
  );
  return loading;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** highlight.js, or null until it has loaded; asks for it and renders again when it arrives. */
export function useHighlighter(): HLJSApi | null {
  useEffect(() => {
    void loadHighlighter();
  }, []);
  return useSyncExternalStore(subscribe, () => instance);
}
