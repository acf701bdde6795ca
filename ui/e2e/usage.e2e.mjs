// End-to-end test of the budgets and the usage view against the fake backend (fakeUsage.ts: $5 a day, $100 a month,
// stopping at the limit): the status bar shows today's and this month's spend; a `/spend` turn takes the day past its
// warning share and the bar warns; the cost and `/usage` open the usage view with a bar per day and its tables, whose
// period buttons load again; a second `/spend` reaches the budget, which stops the turn and the bar says so; a bad
// budget in the settings is named, a good one saved and counted at once.
/* global document -- page.evaluate callbacks run in the page */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { newPage, results } from './harness.mjs';

const meter = (period, level) => `[data-testid="budget-meter"][data-period="${period}"][data-level="${level}"]`;

async function send(page, prompt) {
  await page.getByTestId('prompt-input').fill(prompt);
  await page.getByTestId('prompt-input').press('Enter');
}

async function bars(page, count) {
  await page.waitForFunction((want) => document.querySelectorAll('[data-testid="usage-bar"]').length === want, count);
}

test('the budgets in the status bar warn, then say the budget stopped the turn; the usage view from the cost and /usage', async () => {
  const { page, problems } = await newPage();
  await page.getByTestId('open-folder-button').click();
  await page.getByTestId('folder-name').waitFor();

  // Counted when the session opens: $3.20 of $5.00 today (64%), $41.50 of $100.00 this month.
  await page.locator(meter('day', 'ok')).waitFor();
  assert.equal((await page.locator(meter('day', 'ok')).textContent()).trim(), 'Today $3.20 / $5.00');
  assert.equal((await page.locator(meter('month', 'ok')).textContent()).trim(), 'This month $41.50 / $100.00');

  // Past the 80% warning share: the bar warns before the limit; no turn was stopped.
  await send(page, '/spend');
  await page.locator(meter('day', 'warn')).waitFor();
  assert.match(await page.locator(meter('day', 'warn')).textContent(), /Today \$4\.20 \/ \$5\.00/);
  assert.match(await page.locator(meter('day', 'warn')).getAttribute('title'), /84%.*turns stop at \$5\.00/);
  await page.getByTestId('stop-button').waitFor({ state: 'detached' });
  assert.equal(await page.getByTestId('budget-stopped').count(), 0);
  await page.screenshot({ path: join(results, 'usage-budget-warning.png') });

  // The usage view from the cost: thirty days (the fake report's eight days with requests), the tables, the budgets.
  await page.getByTestId('cost').click();
  const view = page.getByTestId('usage-view');
  await view.waitFor();
  await bars(page, 8);
  await view.getByTestId('usage-chart').waitFor();
  assert.match(await view.getByTestId('usage-by-folder').textContent(), /website/);
  assert.match(await view.getByTestId('usage-by-model').textContent(), /claude-haiku-4-5/);
  assert.match(await view.getByTestId('usage-sessions').textContent(), /Add retries to the HTTP client/);
  assert.match(await view.getByTestId('usage-tool-calls').textContent(), /Read/);
  assert.equal(await view.getByTestId('usage-budget').count(), 2);
  assert.equal(await view.locator('[data-testid="usage-budget"][data-level="warn"]').count(), 1);
  await page.screenshot({ path: join(results, 'usage-view.png') });

  // Seven days: the days of the last week only (0, 1, 2, 4 and 5 days ago); everything: all eight again.
  await view.getByTestId('usage-range-7d').click();
  await bars(page, 5);
  assert.equal(await view.getByTestId('usage-range-7d').getAttribute('aria-pressed'), 'true');
  await view.getByTestId('usage-range-all').click();
  await bars(page, 8);
  await page.keyboard.press('Escape');
  await view.waitFor({ state: 'detached' });

  // The window command /usage opens it too.
  await send(page, '/usage');
  await view.waitFor();
  await bars(page, 8);
  await view.getByTestId('usage-close').click();
  await view.waitFor({ state: 'detached' });

  // The limit: the budget (set to stop) ends the turn; the bar shows it reached and says the turn was stopped.
  await send(page, '/spend');
  await page.locator(meter('day', 'reached')).waitFor();
  assert.match(await page.locator(meter('day', 'reached')).textContent(), /Today \$5\.04 \/ \$5\.00 reached/);
  const stopped = page.getByTestId('budget-stopped');
  await stopped.waitFor();
  assert.match(await stopped.textContent(), /Turn stopped: the daily budget of \$5\.00 is reached/);
  await page.getByText('Stopped: the spending budget is reached').waitFor();
  await page.getByTestId('notice').getByText('The daily budget of $5.00 is reached').waitFor();
  await page.screenshot({ path: join(results, 'usage-budget-stopped.png') });

  // The settings: a bad budget is named and nothing saved; $20 a day is saved and counted at once (25%).
  await page.getByTestId('model-name').click();
  const dialog = page.getByTestId('settings-dialog');
  await dialog.waitFor();
  const daily = dialog.getByTestId('settings-budget-daily');
  assert.equal(await daily.inputValue(), '5');
  await daily.fill('twenty');
  await dialog.getByTestId('settings-save').click();
  await dialog.getByRole('alert').getByText('The daily budget "twenty" is not a positive amount of dollars').waitFor();
  assert.equal(await daily.getAttribute('aria-invalid'), 'true');
  await page.screenshot({ path: join(results, 'usage-settings-budget.png') });
  await daily.fill('20');
  await dialog.getByTestId('settings-save').click();
  await dialog.waitFor({ state: 'detached' });
  await page.locator(meter('day', 'ok')).waitFor();
  assert.equal((await page.locator(meter('day', 'ok')).textContent()).trim(), 'Today $5.04 / $20.00');

  assert.deepEqual(problems, []);
  await page.close();
});
