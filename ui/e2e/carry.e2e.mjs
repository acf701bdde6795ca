// End-to-end tests of export and import in the window against the fake backend: a stored session exported from its
// menu in each format (the path written shown in the sidebar); File ▸ Import from Claude Code and Import Sessions…
// showing what came in and the bad line, the sidebar listing the imported sessions at once, Open opening one, and
// importing again storing none.
/* global window, document -- page.evaluate callbacks run in the page */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newPage } from './harness.mjs';

const SHOWN = '[data-testid="session"][data-shown="true"]';

const sidebarIds = (page) =>
  page.evaluate(
    (shown) => [...document.querySelectorAll(`${shown} [data-testid="session-row"]`)].map((row) => row.dataset.sessionId),
    SHOWN,
  );
const itemCount = (page, n) =>
  page.waitForFunction(([shown, count]) => document.querySelectorAll(`${shown} [data-testid="session-item"]`).length === count, [SHOWN, n]);

async function openProject(page) {
  await page.getByTestId('open-folder-button').click();
  await page.getByTestId('folder-name').waitFor();
  await itemCount(page, 3);
}

test('a stored session is exported from its menu in each format', async () => {
  const { page, problems } = await newPage();
  await openProject(page);
  const row = page.locator(`${SHOWN} [data-testid="session-row"][data-session-id="stored-config"]`);
  for (const [format, extension] of [
    ['md', 'md'],
    ['html', 'html'],
    ['jsonl', 'jsonl'],
  ]) {
    await row.click({ button: 'right' });
    await page.getByTestId(`menu-export-${format}`).click();
    const path = `/home/dev/Exports/Explain how the config is loaded.${extension}`;
    await page.getByTestId('session-action-notice').filter({ hasText: path }).waitFor();
  }
  assert.equal((await page.evaluate(() => window.__tandemFake.exports())).length, 3);

  // The new session has no stored conversation yet: nothing to export.
  await page.locator(`${SHOWN} [data-testid="session-row"][data-session-id="session-1"]`).click({ button: 'right' });
  assert.equal(await page.getByTestId('menu-export-md').count(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('File ▸ Import from Claude Code shows what came in, lists it in the sidebar and opens it', async () => {
  const { page, problems } = await newPage();
  await openProject(page);
  await page.evaluate(() => window.__tandemFake.emit('tandem://import-sessions', { claude_code: true }));
  const dialog = page.getByTestId('import-dialog');
  await dialog.getByTestId('import-list').waitFor();
  assert.equal(await dialog.getByTestId('import-counts').textContent(), '2 sessions imported');
  assert.equal(await dialog.getByTestId('import-item').count(), 2);
  assert.match(await dialog.getByTestId('import-problems').textContent(), /4f35e220\.jsonl:7: not JSON/);

  // The sidebar behind the dialog lists them at once.
  await itemCount(page, 5);
  assert.ok((await sidebarIds(page)).includes('imported-logging'));

  await dialog.getByTestId('import-item').filter({ hasText: 'Make the logs quieter' }).getByTestId('import-open').click();
  await dialog.waitFor({ state: 'detached' });
  await page.locator(SHOWN).getByText('Debug lines now go to the log file only').waitFor();
  // It opened in a tab of its own; the new session keeps its tab.
  assert.equal(await page.locator(SHOWN).getAttribute('data-session-id'), 'imported-logging');

  // Again: nothing new.
  await page.evaluate(() => window.__tandemFake.emit('tandem://import-sessions', { claude_code: true }));
  await dialog.getByTestId('import-counts').filter({ hasText: '0 sessions imported, 2 were there already' }).waitFor();
  await dialog.getByTestId('import-close').click();
  await dialog.waitFor({ state: 'detached' });

  // Picked files: one more.
  await page.evaluate(() => window.__tandemFake.emit('tandem://import-sessions', { claude_code: false }));
  await dialog.getByTestId('import-counts').filter({ hasText: '1 session imported' }).waitFor();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  // The picked one joined the shown tab's list.
  await page.locator(`${SHOWN} [data-testid="session-row"][data-session-id="imported-cache"]`).waitFor();
  assert.ok((await sidebarIds(page)).includes('imported-cache'));
  assert.deepEqual(problems, []);
  await page.close();
});
