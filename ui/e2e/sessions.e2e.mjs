// End-to-end tests of the sessions sidebar and engine-driven modes against the fake backend: the
// folder's two stored sessions listed newest first, reopening one (its events replay into the
// transcript and its mode) in a tab of its own, New Session from the sidebar and from the menu (each a new tab),
// a new session listed after its first turn, and a tool switching to plan mode.
/* global window, document -- page.evaluate callbacks run in the page */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { newPage, results } from './harness.mjs';

/** The session of the tab shown (the hidden tabs' sessions stay in the page). */
const shown = (page) => page.locator('[data-testid="session"][data-shown="true"]');
const ids = (page) => shown(page).getByTestId('session-item').evaluateAll((items) => items.map((item) => item.dataset.sessionId));

test('list the folder’s sessions, reopen one, start new ones', async () => {
  const { page, problems } = await newPage();
  await page.evaluate(() => window.localStorage.removeItem('tandem.sidebarCollapsed'));
  await page.getByTestId('open-folder-button').click();
  await page.getByTestId('folder-name').waitFor();
  await page.getByTestId('session-sidebar').waitFor();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="session-item"]').length === 3);
  assert.deepEqual(await ids(page), ['session-1', 'stored-config', 'stored-ci']);
  const current = shown(page).locator('[data-testid="session-item"][aria-current="true"]');
  assert.equal(await current.getAttribute('data-session-id'), 'session-1');

  // A turn makes the new session a stored one with its prompt as the title.
  await page.getByTestId('prompt-input').fill('/plan');
  await page.getByTestId('prompt-input').press('Enter');
  await page.locator('[data-testid="mode-switcher"][data-mode="plan"]').waitFor();
  await page.getByTestId('stop-button').waitFor({ state: 'detached' });
  await page.locator('[data-testid="session-item"][data-session-id="session-1"]').filter({ hasText: '/plan' }).waitFor();

  await page.locator('[data-testid="session-item"][data-session-id="stored-config"]').click();
  await page.locator('[data-testid="session"][data-session-id="stored-config"]').waitFor();
  await shown(page).getByTestId('assistant-text').filter({ hasText: 'reads tandem.toml from the folder' }).waitFor();
  await shown(page).getByTestId('user-prompt').filter({ hasText: 'Explain how the config is loaded' }).waitFor();
  await shown(page).locator('[data-testid="mode-switcher"][data-mode="acceptEdits"]').waitFor();
  assert.equal(await current.getAttribute('data-session-id'), 'stored-config');
  assert.deepEqual(await page.getByTestId('session-tab').evaluateAll((tabs) => tabs.map((tab) => tab.dataset.sessionId)), ['session-1', 'stored-config']);
  await page.screenshot({ path: join(results, 'sessions.png') });

  await shown(page).getByTestId('new-session-button').click();
  await page.locator('[data-testid="session"][data-session-id="session-2"][data-shown="true"]').waitFor();
  assert.equal(await shown(page).getByTestId('user-prompt').count(), 0);
  await page.evaluate(() => window.__tandemFake.emit('tandem://new-session'));
  await page.locator('[data-testid="session"][data-session-id="session-3"][data-shown="true"]').waitFor();
  assert.equal(await page.getByTestId('session-tab').count(), 4);

  const sidebar = shown(page).getByTestId('session-sidebar');
  await sidebar.getByTestId('session-sidebar-toggle').click();
  assert.equal(await sidebar.getAttribute('data-collapsed'), 'true');
  await page.screenshot({ path: join(results, 'sidebar-collapsed.png') });
  await sidebar.getByTestId('session-sidebar-toggle').click();
  assert.deepEqual(problems, []);
  await page.close();
});
