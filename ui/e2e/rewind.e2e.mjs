// End-to-end test of rewinding a session against the fake backend: a `/long 3` turn, then `/edit`
// (both edits accepted), then a change made "outside Tandem" to one of the edited files; rewinding
// to before `/edit` stops on that conflict, Overwrite them restores the files, the transcript drops
// the rewound rows and the prompt box gets `/edit` back. Screenshots go to test-results/.
/* global window, document, getComputedStyle -- page.evaluate callbacks run in the page */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { newPage, results } from './harness.mjs';

const ROOT = '/home/dev/projects/tandem';
const files = (page) => page.evaluate(() => window.__tandemFake.files());

async function send(page, prompt) {
  await page.getByTestId('prompt-input').fill(prompt);
  await page.getByTestId('prompt-input').press('Enter');
}

test('rewind files and conversation to before a prompt, through a conflict', async () => {
  const { page, problems } = await newPage();
  await page.getByTestId('open-folder-button').click();
  await page.getByTestId('folder-name').waitFor();
  const before = await files(page);

  await send(page, '/long 3');
  await page.getByTestId('assistant-text').filter({ hasText: 'Line 3:' }).waitFor();
  await page.getByTestId('stop-button').waitFor({ state: 'detached' });
  await send(page, '/edit');
  await page.getByTestId('diff-accept').click();
  await page.locator('[data-testid="diff-dialog"][data-request-id^="req_toolu_edit_2@"]').waitFor();
  await page.getByTestId('diff-accept').click();
  await page.getByTestId('assistant-text').filter({ hasText: 'all 3 tests pass' }).waitFor();
  await page.getByTestId('stop-button').waitFor({ state: 'detached' });
  const edited = await files(page);
  assert.notEqual(edited[`${ROOT}/src/lib.rs`], before[`${ROOT}/src/lib.rs`]);
  await page.evaluate((path) => window.__tandemFake.touch(path, '// changed in another editor\n'), `${ROOT}/src/main.rs`);

  // The action shows on hover of the prompt row.
  const row = page.getByTestId('user-prompt').filter({ hasText: '/edit' });
  await row.scrollIntoViewIfNeeded();
  await row.hover();
  const action = row.getByTestId('rewind-button');
  await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll('[data-testid="user-prompt"]')];
    const button = rows.find((each) => each.textContent.includes('/edit'))?.querySelector('[data-testid="rewind-button"]');
    return button && getComputedStyle(button).opacity === '1';
  });
  await page.screenshot({ path: join(results, 'rewind-hover.png') });
  await action.click();

  const dialog = page.getByTestId('rewind-dialog');
  await dialog.getByTestId('rewind-both').waitFor();
  assert.equal(await dialog.getByTestId('rewind-prompt').textContent(), '/edit');
  assert.deepEqual(await dialog.getByTestId('rewind-file').allTextContents(), [`${ROOT}/src/lib.rs`, `${ROOT}/src/main.rs`]);
  await page.screenshot({ path: join(results, 'rewind-dialog.png') });

  await dialog.getByTestId('rewind-both').click();
  await dialog.getByTestId('rewind-conflicts').waitFor();
  assert.deepEqual(await dialog.getByTestId('rewind-conflict').allTextContents(), [`${ROOT}/src/main.rs`]);
  assert.equal((await files(page))[`${ROOT}/src/lib.rs`], edited[`${ROOT}/src/lib.rs`], 'a conflict changes nothing');
  assert.equal(await page.getByTestId('user-prompt').count(), 2);
  await page.screenshot({ path: join(results, 'rewind-conflicts.png') });

  await dialog.getByTestId('rewind-force').click();
  await dialog.waitFor({ state: 'detached' });
  const after = await files(page);
  assert.equal(after[`${ROOT}/src/lib.rs`], before[`${ROOT}/src/lib.rs`]);
  assert.equal(after[`${ROOT}/src/main.rs`], before[`${ROOT}/src/main.rs`]);
  assert.deepEqual(await page.locator('[data-testid="user-prompt"] .user-prompt-text').allTextContents(), ['/long 3']);
  assert.equal(await page.getByTestId('tool-call').filter({ hasText: 'lib.rs' }).count(), 0);
  assert.equal(await page.getByTestId('prompt-input').inputValue(), '/edit');
  assert.match(await page.getByTestId('rewind-notice').textContent(), /2 files restored, 2 messages removed from the conversation/);
  await page.screenshot({ path: join(results, 'rewind-done.png') });

  // The session goes on from there: the edited prompt is sent again.
  await page.getByTestId('prompt-input').fill('/long 2');
  await page.getByTestId('prompt-input').press('Enter');
  await page.getByTestId('user-prompt').nth(1).waitFor();
  await page.getByTestId('stop-button').waitFor({ state: 'detached' });
  assert.equal(await page.getByTestId('user-prompt').count(), 2);
  assert.deepEqual(problems, []);
  await page.close();
});
