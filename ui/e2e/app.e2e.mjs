// End-to-end test of the webview in headless Chromium against the e2e build's scripted fake
// backend: open a folder, send a prompt, watch text and tool calls stream, answer the approval
// dialog, and save screenshots to test-results/.
/* global window, document -- page.evaluate callbacks run in the page */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { newPage, results } from './harness.mjs';

test('open a folder, stream a turn, approve a command', async () => {
  const { page, problems } = await newPage();
  await page.getByTestId('recent-folder').first().waitFor();
  await page.screenshot({ path: join(results, 'welcome.png') });

  await page.getByTestId('open-folder-button').click();
  await page.getByTestId('folder-name').waitFor();
  assert.equal(await page.getByTestId('folder-name').textContent(), 'tandem');

  await page.getByTestId('prompt-input').fill('Check that the tests pass');
  await page.getByTestId('prompt-input').press('Enter');
  await page.getByTestId('user-prompt').filter({ hasText: 'Check that the tests pass' }).waitFor();
  await page.getByTestId('stop-button').waitFor();
  // The box stays open while the turn runs: the next prompt can be typed (and queued).
  assert.equal(await page.getByTestId('prompt-input').isDisabled(), false);

  // Streamed text, then the read-only calls folded into one summary line.
  await page.getByTestId('assistant-text').filter({ hasText: 'reading the entry point' }).waitFor();
  const group = page.getByTestId('tool-group');
  await group.filter({ hasText: 'Read 3 files, searched 1 pattern' }).waitFor();
  await page.screenshot({ path: join(results, 'streaming.png') });

  // The approval dialog for the Bash call.
  const dialog = page.getByTestId('approval-dialog');
  await dialog.waitFor();
  assert.match(await dialog.textContent(), /cargo test --workspace/);
  assert.match(await page.getByTestId('approval-allow-always').textContent(), /Bash\(cargo test \*\)/);
  const bash = page.locator('[data-testid="tool-call"][data-tool-name="Bash"]');
  assert.equal(await bash.getAttribute('data-status'), 'waiting_for_approval');
  await page.getByTestId('assistant-text').filter({ hasText: 'builds and serves the app' }).waitFor();
  await page.screenshot({ path: join(results, 'approval.png') });

  await page.getByTestId('approval-allow').click();
  await dialog.waitFor({ state: 'detached' });
  await page.locator('[data-testid="tool-call"][data-tool-name="Bash"][data-outcome="success"]').waitFor();
  await page.getByTestId('assistant-text').filter({ hasText: 'All 42 tests pass' }).waitFor();
  await page.getByTestId('stop-button').waitFor({ state: 'detached' });
  assert.equal(await page.getByTestId('prompt-input').isDisabled(), false);
  assert.match(await page.getByTestId('cost').textContent(), /\$0\.04/);

  // The folded group expands into the individual calls.
  await group.locator('.tool-head').first().click();
  assert.equal(await page.locator('[data-testid="tool-call"][data-tool-name="Read"]').count(), 3);
  await page.locator('[data-testid="tool-call"][data-tool-name="Grep"]').waitFor();

  await page.screenshot({ path: join(results, 'session.png') });
  assert.deepEqual(problems, []);
  await page.close();
});

test('No with a message denies the command; Esc stops a turn', async () => {
  const { page, problems } = await newPage();
  await page.getByTestId('open-folder-button').click();
  await page.getByTestId('prompt-input').fill('Run the tests');
  await page.getByTestId('send-button').click();
  await page.getByTestId('approval-dialog').waitFor();
  await page.getByTestId('approval-message').fill('Use nextest instead');
  await page.getByTestId('approval-deny').click();
  await page.locator('[data-testid="tool-call"][data-tool-name="Bash"][data-outcome="denied"]').waitFor();
  await page.getByTestId('assistant-text').filter({ hasText: "I won't run the tests" }).waitFor();
  await page.getByTestId('stop-button').waitFor({ state: 'detached' });
  await page.screenshot({ path: join(results, 'denied.png') });

  await page.getByTestId('prompt-input').fill('Again');
  await page.getByTestId('prompt-input').press('Enter');
  await page.getByTestId('stop-button').waitFor();
  await page.keyboard.press('Escape');
  await page.getByTestId('turn-end').filter({ hasText: 'Interrupted' }).waitFor();
  await page.getByTestId('stop-button').waitFor({ state: 'detached' });
  assert.deepEqual(problems, []);
  await page.close();
});

test('the transcript follows streaming text unless the user scrolls up', async () => {
  const { page, problems } = await newPage();
  await page.getByTestId('open-folder-button').click();
  await page.getByTestId('prompt-input').fill('/long 400');
  await page.getByTestId('prompt-input').press('Enter');
  const transcript = page.getByTestId('transcript');
  const metrics = () =>
    transcript.evaluate((element) => ({
      top: element.scrollTop,
      gap: element.scrollHeight - element.scrollTop - element.clientHeight,
      overflow: element.scrollHeight > element.clientHeight * 2,
      rows: element.querySelectorAll('.transcript-row').length,
    }));

  await page.waitForFunction(() => {
    const element = document.querySelector('[data-testid="transcript"]');
    return element && element.scrollHeight > element.clientHeight * 3;
  });
  // While streaming, the newest line may be one frame from being scrolled to; never more.
  for (let sample = 0; sample < 8; sample += 1) {
    const { gap } = await metrics();
    assert.ok(gap < 150, `pinned to the bottom while streaming (gap ${gap}px)`);
    assert.equal(await page.getByTestId('scroll-to-bottom').count(), 0);
    await page.waitForTimeout(100);
  }

  await transcript.hover();
  await page.mouse.wheel(0, -1500);
  await page.getByTestId('scroll-to-bottom').waitFor();
  const held = (await metrics()).top;
  await page.waitForTimeout(600);
  const later = await metrics();
  assert.ok(Math.abs(later.top - held) < 5, `stays where the user scrolled (${held} → ${later.top})`);
  assert.ok(later.gap > 200, 'no longer at the bottom');
  assert.ok(later.rows < 120, `only visible rows are in the DOM (${later.rows})`);

  await page.getByTestId('scroll-to-bottom').click();
  await page.getByTestId('stop-button').waitFor({ state: 'detached', timeout: 20_000 });
  await page.waitForTimeout(100);
  const end = await metrics();
  assert.ok(end.gap < 60, `back at the bottom at the end (gap ${end.gap}px)`);
  await page.getByTestId('assistant-text').filter({ hasText: 'Line 400:' }).waitFor();
  assert.deepEqual(problems, []);
  await page.close();
});

test('a missing folder shows its error; a folder without a key shows the setup hint', async () => {
  const { page, problems } = await newPage();
  await page.getByTestId('recent-folder').first().waitFor();
  await page.evaluate(() => window.__tandemFake.emit('tandem://open-folder', { path: '/home/dev/missing' }));
  await page.getByTestId('error-banner').filter({ hasText: 'Folder not found: /home/dev/missing' }).waitFor();
  await page.evaluate(() => window.__tandemFake.emit('tandem://open-folder', { path: '/home/dev/no-key' }));
  await page.getByTestId('setup-hint').filter({ hasText: 'ANTHROPIC_API_KEY' }).waitFor();
  assert.equal(await page.getByTestId('folder-name').textContent(), 'no-key');
  assert.deepEqual(problems, []);
  await page.close();
});
