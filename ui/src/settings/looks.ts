// The window's looks from the person's settings: the theme (light, dark, or the desktop's preference,
// which WebKitGTK takes from GTK) resolved to a `data-scheme` attribute the stylesheets key on, and the
// font size as a zoom of the whole window (the stylesheets are sized for 14 px).
import type { Theme } from '../generated/protocol';

/** The font size the stylesheets are drawn for. */
export const BASE_FONT_SIZE = 14;

const PREFERS_LIGHT = '(prefers-color-scheme: light)';

/** The colour scheme `theme` means now. */
export function resolveScheme(theme: Theme, prefersLight: boolean): 'light' | 'dark' {
  if (theme === 'system') return prefersLight ? 'light' : 'dark';
  return theme;
}

function desktopPrefersLight(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(PREFERS_LIGHT).matches;
}

export function applyLooks(theme: Theme, fontSize: number, root: HTMLElement = document.documentElement): void {
  root.dataset.theme = theme;
  root.dataset.scheme = resolveScheme(theme, desktopPrefersLight());
  const zoom = fontSize > 0 ? fontSize / BASE_FONT_SIZE : 1;
  root.style.setProperty('zoom', zoom === 1 ? '' : String(zoom));
}

/** Calls `onChange` when the desktop's light/dark preference changes; returns the unsubscribe. */
export function followDesktopScheme(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => {};
  const query = window.matchMedia(PREFERS_LIGHT);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}
