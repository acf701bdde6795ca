// End-to-end test of the window's tabs against the fake backend: two sessions in two folders run turns at the same
// time. Ten times over: a turn starts in the first tab, the second tab (another folder) is shown and a turn starts
// there, both tabs are marked running (or waiting), each session's permission dialog is answered in its own tab —
// never shown over the other session — and both turns finish with their own transcripts: every prompt in its own
// session, none lost, none in the other. Then a running tab's × asks before closing, and closing the last tab shows
// the welcome screen.
/* global window, document -- page.evaluate callbacks run in the page */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { newPage, results } from './harness.mjs';

const ROUNDS = 10;

/** The session of the tab shown, and the pane of the session `id` whether shown or not. */
const shown = (page) => page.locator('[data-testid="session"][data-shown="true"]');
const session = (page, id) => page.locator(`[data-testid="session"][data-session-id="${id}"]`);
const tab = (page, id) => page.locator(`[data-testid="session-tab"][data-session-id="${id}"]`);

/** Shows the tab of `id`: by a click, or (of two tabs) by Ctrl+Tab / Ctrl+Shift+Tab, which go round. */
async function show(page, id, byKey) {
  if ((await shown(page).getAttribute('data-session-id')) === id) return;
  if (byKey) await page.keyboard.press(id.endsWith('1') ? 'Control+Tab' : 'Control+Shift+Tab');
  else await tab(page, id).getByRole('tab').click();
  await page.locator(`[data-testid="session"][data-session-id="${id}"][data-shown="true"]`).waitFor();
}

async function send(page, prompt) {
  const input = shown(page).getByTestId('prompt-input');
  await input.fill(prompt);
  await input.press('Enter');
  await shown(page).getByTestId('user-prompt').filter({ hasText: prompt }).waitFor();
}

/** Allows the command the shown session asks about, checking that the dialog is that session's own. */
async function allow(page, id) {
  const dialog = page.getByTestId('approval-dialog');
  await dialog.waitFor();
  assert.equal(await page.getByTestId('approval-dialog').count(), 1);
  assert.match(await dialog.getAttribute('data-request-id'), new RegExp(`@${id}$`));
  await page.getByTestId('approval-allow').click();
  await dialog.waitFor({ state: 'detached' });
}

/**
 * The prompts and answers of the session `id`'s whole transcript, in order. The transcript draws only the rows near
 * its view, so it is scrolled from the top to the bottom (where it sticks again) and every row drawn is read.
 */
const transcript = (page, id) =>
  page.evaluate(async (each) => {
    const scroller = document.querySelector(`[data-testid="session"][data-session-id="${each}"] [data-testid="transcript"]`);
    const frame = () => new Promise((resolve) => window.requestAnimationFrame(() => window.requestAnimationFrame(resolve)));
    const rows = new Map();
    scroller.scrollTop = 0;
    await frame();
    for (;;) {
      for (const row of scroller.querySelectorAll('[data-index]')) {
        const prompt = row.querySelector('[data-testid="user-prompt"]');
        const answer = [...row.querySelectorAll('[data-testid="assistant-text"]')].map((text) => text.textContent).join(' ');
        rows.set(Number(row.dataset.index), { prompt: prompt?.textContent ?? null, answer });
      }
      if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1) break;
      scroller.scrollTop += Math.max(40, scroller.clientHeight / 2);
      await frame();
    }
    scroller.scrollTop = scroller.scrollHeight;
    await frame();
    const ordered = [...rows.entries()].sort(([a], [b]) => a - b).map(([, row]) => row);
    return {
      prompts: ordered.flatMap((row) => (row.prompt ? [/(first|second) folder, round \d+/.exec(row.prompt)?.[0] ?? row.prompt] : [])),
      answers: ordered.filter((row) => row.answer.includes('All 42 tests pass')).length,
    };
  }, id);

test('two sessions in two folders run turns at the same time, each with its own dialogs and transcript', async () => {
  const { page, problems } = await newPage();
  await page.getByTestId('open-folder-button').click();
  await shown(page).getByTestId('folder-name').filter({ hasText: 'tandem' }).waitFor();
  const first = await shown(page).getAttribute('data-session-id');
  await page.evaluate(() => window.__tandemFake.emit('tandem://open-folder', { path: '/home/dev/projects/website' }));
  await shown(page).getByTestId('folder-name').filter({ hasText: 'website' }).waitFor();
  const second = await shown(page).getAttribute('data-session-id');
  assert.notEqual(first, second);
  assert.equal(await page.getByTestId('session-tab').count(), 2);

  for (let round = 1; round <= ROUNDS; round += 1) {
    const byKey = round % 2 === 0;
    await show(page, first, byKey);
    await send(page, `first folder, round ${round}`);
    await show(page, second, byKey);
    await send(page, `second folder, round ${round}`);
    // Both run at once; the hidden first one may already wait for its permission.
    for (const id of [first, second]) {
      assert.match((await tab(page, id).getAttribute('data-mark')) ?? 'none', /^(running|waiting)$/);
    }
    if (round === 1) await page.screenshot({ path: join(results, 'tabs-running.png') });
    // Each permission dialog is answered in its own tab: the second's here, then the first's (which waited hidden).
    await allow(page, second);
    await page.locator(`[data-testid="session-tab"][data-session-id="${first}"][data-mark="waiting"]`).waitFor();
    await show(page, first, false);
    await allow(page, first);
    // Both turns finish, each with its own answer and every prompt in its own transcript.
    const expected = (folder) => Array.from({ length: round }, (_, at) => `${folder} folder, round ${at + 1}`);
    for (const [id, folder] of [[first, 'first'], [second, 'second']]) {
      await page.waitForFunction((each) => !document.querySelector(`[data-testid="session-tab"][data-session-id="${each}"]`)?.hasAttribute('data-mark'), id);
      await session(page, id).getByTestId('assistant-text').filter({ hasText: 'All 42 tests pass' }).last().waitFor({ state: 'attached' });
      assert.deepEqual(await transcript(page, id), { prompts: expected(folder), answers: round });
    }
  }
  await page.screenshot({ path: join(results, 'tabs-finished.png') });

  // A running tab asks before it closes; the last tab closed shows the welcome screen.
  await send(page, 'one more, then close');
  await page.locator(`[data-testid="session-tab"][data-session-id="${first}"][data-mark]`).waitFor();
  await tab(page, first).getByTestId('session-tab-close').click();
  await page.getByTestId('close-tab-confirm').waitFor();
  await page.getByTestId('close-tab-yes').click();
  await page.getByTestId('close-tab-confirm').waitFor({ state: 'detached' });
  assert.equal(await page.getByTestId('session-tab').count(), 1);
  await shown(page).getByTestId('folder-name').filter({ hasText: 'website' }).waitFor();
  await page.keyboard.press('Control+w');
  await page.getByTestId('welcome').waitFor();
  assert.deepEqual(problems, []);
  await page.close();
});
