// End-to-end tests of organising the sidebar against the fake backend: a folder made from the header, a session
// dragged onto it and back to the top level, pins first, tags as chips and filter, the archive and restoring.
/* global document -- page.evaluate callbacks run in the page */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { newPage, results } from './harness.mjs';

const topIds = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('.session-list > [data-testid="session-row"]')].map((row) => row.dataset.sessionId),
  );
const inFolder = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('.folder-children [data-testid="session-row"]')].map((row) => row.dataset.sessionId),
  );

test('folders, drag and drop, pins, tags and the archive in the sidebar', async () => {
  const { page, problems } = await newPage();
  await page.getByTestId('open-folder-button').click();
  await page.getByTestId('folder-name').waitFor();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="session-item"]').length === 3);

  // Pinned first (after the new session, not stored yet, which stays on top): the older stored-ci before stored-config.
  assert.deepEqual(await topIds(page), ['session-1', 'stored-config', 'stored-ci']);
  const ci = page.locator('[data-testid="session-row"][data-session-id="stored-ci"]');
  await ci.click({ button: 'right' });
  await page.getByTestId('menu-pin').click();
  await page.locator('[data-testid="session-item"][data-session-id="stored-ci"][data-pinned="true"]').waitFor();
  assert.deepEqual(await topIds(page), ['session-1', 'stored-ci', 'stored-config']);

  await page.getByTestId('new-folder-button').click();
  await page.getByTestId('folder-name-input').fill('Config work');
  await page.getByTestId('folder-name-input').press('Enter');
  const folder = page.getByTestId('folder-row');
  await folder.waitFor();

  // Dragged onto the folder, the session goes in it; dragged onto "Sessions", back to the top.
  const config = page.locator('[data-testid="session-row"][data-session-id="stored-config"]');
  await config.dragTo(folder);
  await page.waitForFunction(() => document.querySelector('.folder-children [data-session-id="stored-config"]') !== null);
  assert.deepEqual(await inFolder(page), ['stored-config']);
  assert.deepEqual(await topIds(page), ['session-1', 'stored-ci']);
  assert.match(await folder.textContent(), /Config work\s*1/);

  // Tags as chips, and the chip filters.
  await ci.click({ button: 'right' });
  await page.getByTestId('menu-tags').click();
  await page.getByTestId('session-tags-input').fill('CI, flaky');
  await page.getByTestId('session-tags-input').press('Enter');
  await ci.getByTestId('tag-chip').first().waitFor();
  assert.deepEqual(await ci.getByTestId('tag-chip').allTextContents(), ['ci', 'flaky']);
  await page.screenshot({ path: join(results, 'sidebar-organised.png') });
  await ci.getByTestId('tag-chip').first().click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="session-item"]').length === 1);
  await page.locator('[data-testid="tag-filter-chip"][aria-pressed="true"]').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="session-item"]').length === 3);

  await config.dragTo(page.getByTestId('sidebar-top'));
  await page.waitForFunction(() => document.querySelector('.folder-children [data-session-id="stored-config"]') === null);
  assert.deepEqual(await inFolder(page), []);

  // Archived: out of the list, under Archived on request, restored.
  await config.click({ button: 'right' });
  await page.getByTestId('menu-archive').click();
  await page.getByTestId('archived-toggle').waitFor();
  assert.equal(await config.count(), 0);
  await page.getByTestId('archived-toggle').click();
  await config.getByTestId('session-restore').click();
  await page.getByTestId('archived-toggle').waitFor({ state: 'detached' });
  assert.equal(await config.count(), 1);
  assert.deepEqual(problems, []);
  await page.close();
});
