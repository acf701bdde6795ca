// End-to-end layout checks in headless Chromium against the e2e build: the status bar shows every one
// of its items whole — Stop, the model button, the cost — while a turn runs, at the default window
// width, in a small window and with the largest font, wrapping to a second row rather than clipping.
/* global document -- page.evaluate callbacks run in the page */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { newPage, results } from './harness.mjs';

/** The status bar items that are cut off or outside the window, described (empty: all whole). */
async function clippedStatusItems(page) {
  return page.evaluate(() => {
    const bar = document.querySelector('.status-bar');
    if (!bar) return ['no status bar'];
    const width = document.documentElement.clientWidth;
    const box = bar.getBoundingClientRect();
    const problems = [];
    if (box.right > width + 0.5) problems.push(`the bar ends at ${box.right} of ${width}`);
    if (bar.scrollWidth > bar.clientWidth + 0.5) problems.push(`the bar overflows: ${bar.scrollWidth} > ${bar.clientWidth}`);
    const items = [...bar.querySelectorAll('.status-group > *')];
    for (const item of items) {
      const name = item.getAttribute('data-testid') ?? item.className;
      const rect = item.getBoundingClientRect();
      if (rect.width === 0) continue;
      if (rect.left < box.left - 0.5 || rect.right > box.right + 0.5 || rect.bottom > box.bottom + 0.5 || rect.top < box.top - 0.5) {
        problems.push(`${name} lies outside the bar`);
      }
      if (item.scrollWidth > item.clientWidth + 0.5) problems.push(`${name} cuts its text`);
      for (const other of items) {
        if (other === item) continue;
        const o = other.getBoundingClientRect();
        const overlap = Math.min(rect.right, o.right) - Math.max(rect.left, o.left) > 0.5 && Math.min(rect.bottom, o.bottom) - Math.max(rect.top, o.top) > 0.5;
        if (overlap && o.width > 0) problems.push(`${name} overlaps ${other.getAttribute('data-testid') ?? other.className}`);
      }
    }
    return problems;
  });
}

for (const { width, height, fontSize } of [
  { width: 1200, height: 800, fontSize: 14 },
  { width: 900, height: 600, fontSize: 14 },
  { width: 1200, height: 800, fontSize: 18 },
]) {
  test(`the status bar keeps every item whole during a turn at ${width}×${height}, ${fontSize} px`, async () => {
    const { page, problems } = await newPage();
    await page.setViewportSize({ width, height });
    await page.getByTestId('open-folder-button').click();
    await page.getByTestId('folder-name').waitFor();
    await page.evaluate((zoom) => {
      document.documentElement.style.setProperty('zoom', zoom === 1 ? '' : String(zoom));
    }, fontSize / 14);
    await page.getByTestId('prompt-input').fill('Check that the tests pass');
    await page.getByTestId('prompt-input').press('Enter');
    await page.getByTestId('stop-button').waitFor();
    await page.getByTestId('cost').waitFor();
    await page.screenshot({ path: join(results, `status-bar-${width}x${height}-${fontSize}px.png`) });
    assert.deepEqual(await clippedStatusItems(page), []);
    assert.deepEqual(problems, []);
    await page.close();
  });
}
