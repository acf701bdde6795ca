// End-to-end tests of the search box (Ctrl+K) against the fake backend: it searches the stored sessions of every
// folder, shows ranked hits with their matches marked, is driven by the keyboard, never lets an older query's late
// answer replace a newer one's, and opening a hit opens its session in its own folder, scrolled to the message
// that matched, highlighted.
/* global window, document -- page.evaluate callbacks run in the page */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { newPage, results } from './harness.mjs';

const hitIds = (page) => page.getByTestId('search-hit').evaluateAll((hits) => hits.map((hit) => `${hit.dataset.sessionId}@${hit.dataset.seq}`));

test('Ctrl+K finds a message in another folder’s session and opens it there', async () => {
  const { page, problems } = await newPage();
  await page.getByTestId('open-folder-button').click();
  await page.getByTestId('folder-name').waitFor();

  await page.keyboard.press('Control+k');
  const box = page.getByTestId('search-box');
  await box.waitFor();
  const input = page.getByTestId('search-box-input');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'search-box-input');

  // An older query answering after a newer one is not shown over it.
  await page.evaluate(() => window.__tandemFake.searchDelay('config', 800));
  await input.fill('config');
  await page.waitForFunction(() => document.querySelector('[data-testid="search-box-status"]')?.textContent === 'Searching…');
  await input.fill('webhook retries');
  await page.getByTestId('search-hit').first().waitFor();
  assert.deepEqual(await hitIds(page), ['stored-website@90', 'stored-website@91']);
  // The delayed "config" answer has come back (and a frame has been drawn since).
  await page.waitForFunction(() => window.__tandemFake.lateAnswers() === 1);
  await page.evaluate(() => new Promise((resolve) => window.requestAnimationFrame(() => window.requestAnimationFrame(resolve))));
  assert.deepEqual(await hitIds(page), ['stored-website@90', 'stored-website@91']);

  const marks = await page.getByTestId('search-hit-snippet').first().locator('mark').allTextContents();
  assert.deepEqual(marks.map((mark) => mark.toLowerCase()), ['webhook', 'retries']);
  assert.match(await page.getByTestId('search-hit').first().textContent(), /Tidy up the website.*website/);
  await page.screenshot({ path: join(results, 'search-box.png') });

  // The keyboard chooses: down to the answer, up wraps to the last, down again to the answer.
  await input.press('ArrowDown');
  assert.equal(await page.locator('[data-testid="search-hit"][aria-selected="true"]').getAttribute('data-seq'), '91');
  await input.press('ArrowDown');
  await input.press('ArrowUp');
  await input.press('Enter');

  await box.waitFor({ state: 'detached' });
  const opened = page.locator('[data-testid="session"][data-session-id="stored-website"][data-shown="true"]');
  await opened.waitFor();
  assert.equal(await opened.getByTestId('folder-name').textContent(), 'website');
  const found = page.locator('.transcript-row[data-found="true"]');
  await found.waitFor();
  assert.match(await found.textContent(), /stores first and answers 202/);
  const inView = await found.evaluate((row) => {
    const scroller = row.closest('[data-testid="transcript"]').getBoundingClientRect();
    const box = row.getBoundingClientRect();
    return box.top >= scroller.top && box.bottom <= scroller.bottom;
  });
  assert.equal(inView, true);
  await page.screenshot({ path: join(results, 'search-opened.png') });
  // The highlight goes by itself.
  await found.waitFor({ state: 'detached', timeout: 10_000 });

  // Esc closes the box without opening anything.
  await page.keyboard.press('Control+k');
  await box.waitFor();
  await page.keyboard.press('Escape');
  await box.waitFor({ state: 'detached' });
  assert.deepEqual(problems, []);
  await page.close();
});
