// End-to-end test of the terminal panel against the fake backend's pretend shell: Ctrl+` shows the panel at the
// bottom of the session, keys typed into its terminal reach the shell (Ctrl+W too, which elsewhere closes the tab)
// and its output shows; dragging the panel's top
// edge makes it taller and the shell hears the new size; View ▸ Terminal Panel hides it and shows it again with what
// the shell showed; Close ends the shell and hides the panel.
/* global window -- page.evaluate callbacks run in the page */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { newPage, results } from './harness.mjs';

test('the terminal panel opens, takes keys, resizes, hides and closes', async () => {
  const { page, problems } = await newPage();
  await page.getByTestId('open-folder-button').click();
  const session = page.locator('[data-testid="session"][data-shown="true"]');
  await session.waitFor();
  const id = await session.getAttribute('data-session-id');
  const panel = page.getByTestId('terminal-panel');
  const fake = () => page.evaluate((each) => window.__tandemFake.terminal(each), id);

  await page.keyboard.press('Control+Backquote');
  await panel.waitFor();
  await panel.getByText('Terminal — /bin/fake-sh').waitFor();
  const rows = panel.locator('.xterm-rows');
  await rows.getByText('fake:~$').first().waitFor();
  await page.keyboard.type('echo hello from the panel');
  await page.keyboard.press('Enter');
  await rows.getByText('hello from the panel', { exact: true }).waitFor();
  assert.deepEqual((await fake()).ran, ['echo hello from the panel']);
  // Ctrl+W is the shell's there (it erases a word), not the window's (closing the tab).
  await page.keyboard.type('echo kept erased');
  await page.keyboard.press('Control+w');
  await page.keyboard.press('Enter');
  await rows.getByText('kept', { exact: true }).waitFor();
  assert.deepEqual((await fake()).ran, ['echo hello from the panel', 'echo kept']);
  assert.equal(await page.getByTestId('session-tab').count(), 1);
  await panel.screenshot({ path: join(results, 'terminal-panel.png') });

  // Taller by dragging its top edge: the shell hears more rows.
  const before = (await fake()).size;
  const grip = await panel.getByRole('separator').boundingBox();
  await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
  await page.mouse.down();
  await page.mouse.move(grip.x + grip.width / 2, grip.y - 150, { steps: 5 });
  await page.mouse.up();
  await page.waitForFunction(
    ([each, rowsBefore]) => window.__tandemFake.terminal(each).size.rows > rowsBefore,
    [id, before.rows],
  );

  // The menu's item hides it; shown again, it redraws what the shell showed, and the same shell goes on.
  await page.evaluate(() => window.__tandemFake.emit('tandem://toggle-terminal'));
  await panel.waitFor({ state: 'detached' });
  await page.evaluate(() => window.__tandemFake.emit('tandem://toggle-terminal'));
  await rows.getByText('hello from the panel', { exact: true }).waitFor();
  await page.keyboard.type('make test');
  await page.keyboard.press('Enter');
  await rows.getByText('fake-sh: ran make test').waitFor();
  assert.deepEqual((await fake()).ran, ['echo hello from the panel', 'echo kept', 'make test']);

  // Close ends the shell.
  await panel.getByRole('button', { name: 'Close' }).click();
  await panel.waitFor({ state: 'detached' });
  assert.equal((await fake()).closed, true);
  assert.deepEqual(problems, []);
  await page.close();
});
