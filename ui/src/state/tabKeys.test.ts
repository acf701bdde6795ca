// Table test of the window's tab keys.
import { describe, expect, it } from 'vitest';
import { tabKey } from './tabKeys';

const key = (key: string, mods: Partial<Record<'ctrlKey' | 'shiftKey' | 'altKey' | 'metaKey', boolean>> = {}, code = '') => ({
  key,
  code,
  ctrlKey: false,
  shiftKey: false,
  altKey: false,
  metaKey: false,
  ...mods,
});

describe('tab keys', () => {
  it.each([
    ['Ctrl+Tab', key('Tab', { ctrlKey: true }), 'next'],
    ['Ctrl+Shift+Tab', key('Tab', { ctrlKey: true, shiftKey: true }), 'previous'],
    ['Ctrl+Tab by code only', key('Unidentified', { ctrlKey: true }, 'Tab'), 'next'],
    ['Ctrl+PageDown', key('PageDown', { ctrlKey: true }), 'next'],
    ['Ctrl+PageUp', key('PageUp', { ctrlKey: true }), 'previous'],
    ['Ctrl+W', key('w', { ctrlKey: true }), 'close'],
    ['Ctrl+W with caps lock', key('W', { ctrlKey: true }), 'close'],
    ['Ctrl+W on another layout', key('z', { ctrlKey: true }, 'KeyW'), 'close'],
    ['Tab alone', key('Tab'), null],
    ['Shift+Tab (the mode switch)', key('Tab', { shiftKey: true }), null],
    ['Ctrl+Alt+Tab', key('Tab', { ctrlKey: true, altKey: true }), null],
    ['Ctrl+Shift+W', key('W', { ctrlKey: true, shiftKey: true }), null],
    ['W alone', key('w'), null],
  ] as const)('%s', (_, event, expected) => {
    expect(tabKey(event)).toBe(expected);
  });
});
