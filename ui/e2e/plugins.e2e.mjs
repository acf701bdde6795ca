// End-to-end test of the plugins panel against the fake backend (fakePlugins.ts): the status bar's Plugins button and
// `/plugins` open the list of installed plugins, each with its version, marketplace, what it brings and the settings
// file that decides; a broken plugin shows its problem; the switch turns a plugin off and another on, and the fake
// backend records which settings file each choice was written to.
/* global window -- page.evaluate callbacks run in the page */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { newPage, results } from './harness.mjs';

const item = (page, id) => page.locator(`[data-testid="plugin-item"][data-id="${id}"]`);

test('the plugins panel lists what each plugin brings and its switch writes the choice', async () => {
  const { page, problems } = await newPage();
  await page.getByTestId('open-folder-button').click();
  await page.getByTestId('folder-name').waitFor();

  await page.getByTestId('plugins-button').click();
  const panel = page.getByTestId('plugins-panel');
  await panel.waitFor();
  await item(page, 'review-kit@tools-market').waitFor();
  assert.equal(await panel.getByTestId('plugin-item').count(), 3);
  const kit = item(page, 'review-kit@tools-market');
  assert.match(await kit.textContent(), /review-kit.*1\.2\.0.*from tools-market/);
  assert.equal(
    (await kit.getByTestId('plugin-parts').textContent()).trim(),
    'Brings 2 skills · 1 command · 1 agent · 1 hook · 1 MCP server',
  );
  assert.match(await kit.getByTestId('plugin-decided').textContent(), /On in \.claude\/settings\.local\.json/);
  assert.match(await item(page, 'broken@tools-market').getByTestId('plugin-problems').textContent(), /manifest/);
  await page.screenshot({ path: join(results, 'plugins-panel.png') });

  // Off, then the Go server on: each choice is written, and the list follows.
  await kit.getByTestId('plugin-switch').click();
  await page.locator('[data-testid="plugin-item"][data-id="review-kit@tools-market"][data-enabled="false"]').waitFor();
  const go = item(page, 'go-lsp@tools-market');
  await go.getByTestId('plugin-switch').click();
  await page.locator('[data-testid="plugin-item"][data-id="go-lsp@tools-market"][data-enabled="true"]').waitFor();
  assert.match(await go.getByTestId('plugin-decided').textContent(), /On in \/home\/dev\/\.claude\/settings\.json/);
  const writes = await page.evaluate(() => window.__tandemFake.pluginWrites());
  assert.deepEqual(
    writes.map((w) => [w.id, w.enabled, w.file.split('/').slice(-2).join('/')]),
    [
      ['review-kit@tools-market', false, '.claude/settings.local.json'],
      ['go-lsp@tools-market', true, '.claude/settings.json'],
    ],
  );

  // Closed with Esc; `/plugins` opens it again, as it was left.
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'detached' });
  await page.getByTestId('prompt-input').fill('/plugins');
  await page.getByTestId('prompt-input').press('Enter');
  await page.locator('[data-testid="plugin-item"][data-id="go-lsp@tools-market"][data-enabled="true"]').waitFor();
  assert.deepEqual(problems, []);
});
