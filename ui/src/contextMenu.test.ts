// The web view's context menu (Back, Forward, Reload) is stopped except in text fields and on selected text.
import { afterEach, describe, expect, it } from 'vitest';
import { guardContextMenu } from './contextMenu';

function rightClick(target: Element): boolean {
  const event = new MouseEvent('contextmenu', { bubbles: true, cancelable: true });
  target.dispatchEvent(event);
  return event.defaultPrevented;
}

describe('the context menu', () => {
  let uninstall = () => {};
  afterEach(() => {
    uninstall();
    document.body.innerHTML = '';
    window.getSelection()?.removeAllRanges();
  });

  it('is stopped on the page and kept in text fields and on a selection', () => {
    uninstall = guardContextMenu();
    document.body.innerHTML = '<div id="row"><p id="text">Some answer</p></div><textarea id="box"></textarea><input id="field">';
    const byId = (id: string) => document.getElementById(id) as Element;
    expect(rightClick(byId('row'))).toBe(true);
    expect(rightClick(byId('box'))).toBe(false);
    expect(rightClick(byId('field'))).toBe(false);
    const range = document.createRange();
    range.selectNodeContents(byId('text'));
    window.getSelection()?.addRange(range);
    expect(rightClick(byId('text'))).toBe(false);
  });
});
