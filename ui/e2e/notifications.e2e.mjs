// End-to-end test of the desktop notifications against the fake backend: while the window is in the background,
// the approval dialog and the end of the turn each ask for one notification; in the foreground, none; turned off
// in the settings, none.
/* global window, document -- page.evaluate callbacks run in the page */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newPage } from './harness.mjs';

/** Makes the page believe it is (or is not) the focused window, as when the person switched to another one. */
async function setAway(page, away) {
  await page.evaluate((value) => {
    document.hasFocus = () => !value;
  }, away);
}

const notices = (page) => page.evaluate(() => window.__tandemFake.notices());

async function runTurn(page) {
  await page.getByTestId('prompt-input').fill('Run the tests');
  await page.getByTestId('prompt-input').press('Enter');
  await page.getByTestId('approval-dialog').waitFor();
}

async function allowAndFinish(page) {
  await page.getByTestId('approval-allow').click();
  await page.getByTestId('approval-dialog').waitFor({ state: 'detached' });
  await page.getByTestId('stop-button').waitFor({ state: 'detached' });
}

test('a person in another window is told when Tandem waits and when it finishes', async () => {
  const { page, problems } = await newPage();
  await page.getByTestId('open-folder-button').click();
  await page.getByTestId('folder-name').waitFor();

  await setAway(page, true);
  await runTurn(page);
  await page.waitForFunction(() => window.__tandemFake.notices().length === 1);
  const [waiting] = await notices(page);
  assert.equal(waiting.title, 'Tandem is waiting for you — tandem');
  assert.match(waiting.body, /^Allow .*cargo test/);
  await allowAndFinish(page);
  await page.waitForFunction(() => window.__tandemFake.notices().length === 2);
  assert.equal((await notices(page))[1].title, 'Tandem finished — tandem');

  // In the foreground: nothing.
  await setAway(page, false);
  await runTurn(page);
  await allowAndFinish(page);
  assert.equal((await notices(page)).length, 2);

  // Turned off in the settings: nothing, even in the background.
  await page.getByTestId('model-name').click();
  const dialog = page.getByTestId('settings-dialog');
  await dialog.getByTestId('settings-notifications').uncheck();
  await dialog.getByTestId('settings-save').click();
  await dialog.waitFor({ state: 'detached' });
  await setAway(page, true);
  await runTurn(page);
  await allowAndFinish(page);
  assert.equal((await notices(page)).length, 2);
  assert.deepEqual(problems, []);
  await page.close();
});
