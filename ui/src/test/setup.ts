// Vitest setup for jsdom: jest-dom matchers, cleanup between tests, Tauri mocks, localStorage (drafts,
// preferences) and sessionStorage (the session a reload reopens) cleared, and the
// layout facts jsdom lacks that the virtualised transcript needs to render its rows.
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { clearMocks } from '@tauri-apps/api/mocks';
import { afterEach } from 'vitest';

// findBy…/waitFor wait on a condition; on a busy machine the library's 1 s default is too short to be a deadline
// (a test that fails only when the machine is busy is a failing test).
configure({ asyncUtilTimeout: 10_000 });

afterEach(async () => {
  cleanup();
  // Unmounting unlistens asynchronously: let that finish before the mocks go away.
  await new Promise((resolve) => setTimeout(resolve, 0));
  clearMocks();
  localStorage.clear();
  sessionStorage.clear();
});

// jsdom has no layout: give scroll containers a viewport so the virtualiser renders rows.
Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
  configurable: true,
  get() {
    return 800;
  },
});
Object.defineProperty(HTMLElement.prototype, 'clientWidth', {
  configurable: true,
  get() {
    return 1000;
  },
});

if (!('ResizeObserver' in window)) {
  class NoopResizeObserver {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  }
  Object.defineProperty(window, 'ResizeObserver', { value: NoopResizeObserver, configurable: true, writable: true });
}

if (!Element.prototype.scrollTo) {
  Element.prototype.scrollTo = function scrollTo(): void {};
}
