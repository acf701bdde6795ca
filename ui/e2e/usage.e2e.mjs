// End-to-end test of the usage view and the budget warning against the fake backend: the `/spend` turn warns of the
// daily budget in the status bar, then reaches it and is stopped; the cost opens the usage view with a bar per day
// and its tables; the period buttons load again; Esc closes it.
/* global document -- page.evaluate callbacks run in the page */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { newPage, results } from './harness.mjs';

test('a budget warning in the status bar, and the usage view from the cost', async () => {
  const { page, problems } = await newPage();
  await page.getByTestId('open-folder-button').click();
  await page.getByTestId('folder-name').waitFor();

  await page.getByTestId('prompt-input').fill('/spend');
  await page.getByTestId('prompt-input').press('Enter');
  const badge = page.getByTestId('budget-warning');
  await page.locator('[data-testid="budget-warning"][data-level="reached"]').waitFor();
  assert.equal(await badge.textContent(), 'Budget reached today');
  await page.getByText('Stopped: the spending budget is reached').waitFor();
  await page.getByText('The daily budget of $5.00 is reached').waitFor();

  await page.getByTestId('cost').click();
  const view = page.getByTestId('usage-view');
  await view.waitFor();
  // Thirty days: the fake report's eight days with requests.
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="usage-bar"]').length === 8);
  await view.getByTestId('usage-by-folder').waitFor();
  assert.match(await view.getByTestId('usage-tool-calls').textContent(), /Read/);
  assert.equal(await view.getByTestId('usage-budget').count(), 2);
  await page.screenshot({ path: join(results, 'usage-view.png') });

  // Seven days: the days of the last week only (0, 1, 2, 4 and 5 days ago).
  await view.getByTestId('usage-range-7d').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="usage-bar"]').length === 5);

  await page.keyboard.press('Escape');
  await view.waitFor({ state: 'detached' });
  assert.deepEqual(problems, []);
  await page.close();
});
