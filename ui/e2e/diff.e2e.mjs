// End-to-end tests of file changes and shell output against the fake backend's `/edit` and
// `/bigdiff` turns: accept an edit in the diff dialog (the fake file changes), reject another
// with a message (the file stays as it was), the collapsible diff in the transcript, a Bash
// call's ANSI output in xterm.js, and the dialog's speed on 5,000-line files (thresholds are
// loose: the machine is shared; the measured figures are printed). Screenshots go to
// test-results/.
/* global window, document, requestAnimationFrame -- page.evaluate callbacks run in the page */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { newPage, results } from './harness.mjs';

const ROOT = '/home/dev/projects/tandem';
const files = (page) => page.evaluate(() => window.__tandemFake.files());

async function openAndSend(page, prompt) {
  await page.getByTestId('open-folder-button').click();
  await page.getByTestId('folder-name').waitFor();
  await page.getByTestId('prompt-input').fill(prompt);
  await page.getByTestId('prompt-input').press('Enter');
}

test('accept an edit in the diff dialog, reject another with a message, watch the tests run', async () => {
  const { page, problems } = await newPage();
  await page.getByTestId('recent-folder').first().waitFor();
  await page.evaluate(() => window.localStorage.removeItem('tandem.diffView'));
  const before = await files(page);
  await openAndSend(page, '/edit');

  const dialog = page.getByTestId('diff-dialog');
  await dialog.waitFor();
  assert.equal(await dialog.getAttribute('role'), 'dialog');
  assert.match(await page.getByTestId('diff-path').textContent(), /src\/lib\.rs$/);
  assert.equal(await page.getByTestId('diff-stats').textContent(), '+3 −3');
  assert.equal(await page.getByTestId('diff-body').getAttribute('data-view'), 'split');
  assert.ok((await page.getByTestId('diff-word').count()) >= 2, 'changed words are marked');
  assert.ok((await page.getByTestId('diff-fold').count()) >= 2, 'unchanged runs are folded');
  assert.ok((await dialog.locator('.hljs-keyword').count()) > 0, 'the code is highlighted');
  assert.match(await page.getByTestId('diff-accept-always').textContent(), /Edit\(src\/\*\*\)/);
  await page.screenshot({ path: join(results, 'diff-split.png') });

  await page.getByTestId('diff-view-unified').click();
  assert.equal(await page.getByTestId('diff-body').getAttribute('data-view'), 'unified');
  const firstLine = () => page.getByTestId('diff-line').first().locator('.diff-num').first().textContent();
  assert.notEqual(await firstLine(), '1');
  await page.getByTestId('diff-fold').first().click();
  assert.equal(await firstLine(), '1', 'the opened fold shows the lines it hid');
  await page.screenshot({ path: join(results, 'diff-unified.png') });

  await page.getByTestId('diff-accept').click();
  // The second edit asks next; the first was written.
  await page.locator('[data-testid="diff-dialog"][data-request-id^="req_toolu_edit_2@"]').waitFor();
  const afterAccept = await files(page);
  assert.ok(afterAccept[`${ROOT}/src/lib.rs`].includes('pub fn start(self)'));
  assert.ok(!afterAccept[`${ROOT}/src/lib.rs`].includes('app.serve()'));

  await page.getByTestId('diff-message').fill('Keep main.rs returning the Result');
  await page.getByTestId('diff-reject').click();
  await dialog.waitFor({ state: 'detached' });
  await page.locator('[data-testid="tool-call"][data-tool-name="Edit"][data-outcome="denied"]').waitFor();
  await page.getByTestId('assistant-text').filter({ hasText: 'Keep main.rs returning the Result' }).waitFor();
  assert.equal((await files(page))[`${ROOT}/src/main.rs`], before[`${ROOT}/src/main.rs`]);

  // The accepted edit shows its diff, collapsed to a summary line.
  const toolDiff = page.getByTestId('tool-diff');
  await toolDiff.waitFor();
  assert.equal(await toolDiff.count(), 1);
  assert.equal(await toolDiff.getAttribute('data-open'), 'false');
  assert.equal(await toolDiff.getByTestId('diff-stats').textContent(), '+3 −3');

  // The Bash call's coloured output in xterm.js.
  const terminal = page.locator('[data-testid="tool-call"][data-tool-name="Bash"] [data-testid="terminal-output"]');
  await terminal.locator('.xterm-rows').waitFor();
  await page.getByTestId('assistant-text').filter({ hasText: 'all 3 tests pass' }).waitFor();
  await page.getByTestId('stop-button').waitFor({ state: 'detached' });
  await page.waitForFunction(() => document.querySelector('.xterm-rows')?.textContent.includes('test result: ok'));
  const screen = await terminal.locator('.xterm-rows').textContent();
  assert.ok(!screen.includes('Building'), 'the progress line was redrawn by carriage returns');
  assert.ok((await terminal.locator('.xterm-rows span[class*="xterm-fg-"]').count()) > 0, 'ANSI colours are drawn');

  await toolDiff.getByTestId('tool-diff-toggle').click();
  await toolDiff.getByTestId('diff-body').waitFor();
  await toolDiff.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(results, 'transcript-diff.png') });
  await terminal.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(results, 'terminal.png') });
  assert.deepEqual(problems, []);
  await page.close();
});

test('the diff dialog stays fast on a 5,000-line file', async () => {
  const { page, problems } = await newPage();
  await page.evaluate(() => window.localStorage.removeItem('tandem.diffView'));
  await page.getByTestId('open-folder-button').click();
  await page.getByTestId('folder-name').waitFor();
  await page.getByTestId('prompt-input').fill('/bigdiff');
  await page.evaluate(() => {
    window.__sent = 0;
    window.__shown = 0;
    const observer = new window.MutationObserver(() => {
      if (!window.__shown && document.querySelector('[data-testid="diff-dialog"] [data-testid="diff-line"]')) {
        window.__shown = performance.now();
      }
    });
    observer.observe(document.body, { childList: true, subtree: true });
    document.querySelector('[data-testid="prompt-input"]').addEventListener('keydown', () => {
      window.__sent = performance.now();
    });
  });
  await page.getByTestId('prompt-input').press('Enter');
  await page.getByTestId('diff-dialog').waitFor();
  const stats = await page.getByTestId('diff-stats').textContent();
  assert.match(stats, /^\+\d+ −\d+$/);

  // Time from the approval_requested batch to the drawn dialog: the script streams a short
  // sentence first, so measure the dialog's own work with a fresh open (toggling the view).
  const toggle = await page.evaluate(async () => {
    const start = performance.now();
    document.querySelector('[data-testid="diff-view-unified"]').click();
    await new Promise((done) => requestAnimationFrame(() => done()));
    return performance.now() - start;
  });
  const lines = await page.getByTestId('diff-line').count();
  assert.ok(lines < 400, `only visible rows are in the DOM (${lines})`);

  // The next request creates a new 5,000-line file: all of it is one scrollable run of rows.
  // Accept → the next dialog drawn: ~50 ms of scripted delay and batching, then the 5,000-line
  // diff is built and drawn.
  const next = await page.evaluate(
    () =>
      new Promise((done) => {
        const start = performance.now();
        const observer = new window.MutationObserver(() => {
          if (document.querySelector('[data-request-id^="req_toolu_write_big@"] [data-testid="diff-line"]')) {
            observer.disconnect();
            done(performance.now() - start);
          }
        });
        observer.observe(document.body, { childList: true, subtree: true });
        document.querySelector('[data-testid="diff-accept"]').click();
      }),
  );
  const created = page.locator('[data-testid="diff-dialog"][data-request-id^="req_toolu_write_big@"]');
  await created.waitFor();
  assert.equal(await page.getByTestId('diff-new-file').textContent(), 'New file');
  assert.equal(await created.getByTestId('diff-stats').textContent(), '+5000 −0');
  const scroll = await page.evaluate(async () => {
    const body = document.querySelector('[data-testid="diff-body"]');
    const frames = [];
    let last = performance.now();
    for (let step = 0; step < 40; step += 1) {
      body.scrollTop += body.clientHeight;
      await new Promise((done) => requestAnimationFrame(() => done()));
      const now = performance.now();
      frames.push(now - last);
      last = now;
    }
    frames.sort((a, b) => a - b);
    return { height: body.scrollHeight, median: frames[20], worst: frames[39], rows: body.querySelectorAll('[data-testid="diff-line"]').length };
  });
  const shown = await page.evaluate(() => window.__shown - window.__sent);
  console.log(
    `5,000-line diff: prompt→dialog ${shown.toFixed(0)} ms (includes ~150 ms of scripted streaming), view toggle ${toggle.toFixed(0)} ms, ` +
      `accept→next dialog with a new 5,000-line file ${next.toFixed(0)} ms (includes ~50 ms of scripted delay), ` +
      `new 5,000-line file scrolled a page per frame: frame median ${scroll.median.toFixed(1)} ms / worst ${scroll.worst.toFixed(1)} ms, ` +
      `${scroll.rows} rows in the DOM of ${scroll.height}px`,
  );
  assert.ok(scroll.rows < 400, `virtualised while scrolling (${scroll.rows} rows)`);
  assert.ok(scroll.height > 5000 * 15, 'all lines are scrollable');
  assert.ok(toggle < 1000, `view toggle took ${toggle} ms`);
  assert.ok(next < 2000, `the next dialog took ${next} ms`);
  assert.ok(scroll.median < 100, `median scroll frame ${scroll.median} ms`);
  assert.ok(scroll.worst < 1000, `worst scroll frame ${scroll.worst} ms`);
  await page.screenshot({ path: join(results, 'diff-large.png') });
  assert.deepEqual(problems, []);
  await page.close();
});
