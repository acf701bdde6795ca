// End-to-end tests of sessions run by external agents in the window against the fake backend: File ▸ New Session
// with… (and the tab strip's "with…") offering the configured agents, one that cannot start saying why, a chosen one
// opening a tab whose turn renders with the ordinary components, none configured saying how to configure one; File ▸
// Open Remote Folder… refusing a bad URL, showing a far machine without Tandem with the install command, then opening;
// a later launch naming an unreachable remote folder showing the message on the welcome screen; a stored session an
// agent ran reopening from the sidebar with that agent, and one whose agent cannot continue it saying why and going on
// with Tandem's own model when asked (also in a reloaded window, which opens nothing else meanwhile); and images refused, with the reason, for an agent that does not take them.
/* global window, document, DataTransfer, ClipboardEvent -- page.evaluate callbacks run in the page */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import { newPage, results } from './harness.mjs';

const SHOWN = '[data-testid="session"][data-shown="true"]';
/** The fake project's folder. */
const FAKE_FOLDER = '/home/dev/projects/tandem';

async function openProject(page) {
  await page.getByTestId('open-folder-button').click();
  await page.getByTestId('folder-name').waitFor();
}

const tabCount = (page) => page.evaluate(() => document.querySelectorAll('[data-testid="session-tab"]').length);

test('File ▸ New Session with… opens a tab run by the chosen agent, whose turn renders', async () => {
  const { page, problems } = await newPage();
  await openProject(page);
  await page.evaluate(() => window.__tandemFake.emit('tandem://new-hosted-session'));
  const dialog = page.getByTestId('hosted-dialog');
  await dialog.getByTestId('hosted-agents').waitFor();
  assert.deepEqual(await dialog.getByTestId('hosted-agent').allTextContents(), ['claude', 'scripted', 'broken']);

  // One that cannot start says why; the dialog stays.
  await dialog.getByTestId('hosted-agent').filter({ hasText: 'broken' }).click();
  await dialog.getByTestId('error-banner').filter({ hasText: 'cannot be started' }).waitFor();

  await dialog.getByTestId('hosted-agent').filter({ hasText: 'scripted' }).click();
  await dialog.waitFor({ state: 'detached' });
  assert.equal(await tabCount(page), 2);
  const shown = page.locator(SHOWN);
  assert.equal(await shown.getByTestId('model-name').textContent(), 'acp:scripted');

  await shown.getByTestId('prompt-input').fill('Check that the tests pass');
  await shown.getByTestId('prompt-input').press('Enter');
  await shown.getByTestId('user-prompt').filter({ hasText: 'Check that the tests pass' }).waitFor();
  await shown.getByTestId('assistant-text').filter({ hasText: 'reading the entry point' }).waitFor();
  // Its questions open Tandem's dialogs.
  await page.getByTestId('approval-dialog').waitFor();
  assert.deepEqual(problems, []);
  await page.close();
});

test('with no agent configured, New Session with… says how to configure one', async () => {
  const { page, problems } = await newPage();
  await openProject(page);
  await page.evaluate(() => window.__tandemFake.setAgents([]));
  await page.getByTestId('session-tab-new-with').click();
  const none = page.getByTestId('hosted-none');
  await none.waitFor();
  assert.match(await none.textContent(), /No agents are configured\. Add one under agentServers in \/home\/dev\/\.config\/tandem\/settings\.json/);
  await page.keyboard.press('Escape');
  await page.getByTestId('hosted-dialog').waitFor({ state: 'detached' });
  assert.deepEqual(problems, []);
  await page.close();
});

test('File ▸ Open Remote Folder… refuses a bad URL, shows the install command, then opens', async () => {
  const { page, problems } = await newPage();
  await openProject(page);
  await page.evaluate(() => window.__tandemFake.emit('tandem://open-remote', { url: null, folder: null }));
  const dialog = page.getByTestId('remote-dialog');
  await dialog.waitFor();
  await dialog.getByTestId('remote-url').fill('box:/srv/app');
  await dialog.getByTestId('remote-open').click();
  await dialog.getByTestId('error-banner').filter({ hasText: 'starts with ssh://' }).waitFor();

  await dialog.getByTestId('remote-url').fill('ssh://ann@bare-box/srv/app');
  await dialog.getByTestId('remote-url').press('Enter');
  await dialog.getByTestId('error-banner').filter({ hasText: "ssh ann@bare-box 'mkdir -p ~/.local/bin" }).waitFor();

  await dialog.getByTestId('remote-url').fill('ssh://ann@box/srv/app');
  await dialog.getByTestId('remote-open').click();
  await dialog.waitFor({ state: 'detached' });
  assert.equal(await tabCount(page), 2);
  assert.equal(await page.locator(SHOWN).getByTestId('model-name').textContent(), 'acp:ssh://ann@box/srv/app');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a launch naming an unreachable remote folder says so on the welcome screen', async () => {
  const { page, problems } = await newPage();
  await page.getByTestId('recent-folder').first().waitFor();
  await page.evaluate(() => window.__tandemFake.emit('tandem://open-remote', { url: 'ssh://unreachable-box/p', folder: '/home/dev' }));
  await page.getByTestId('error-banner').filter({ hasText: 'ssh could not reach unreachable-box' }).waitFor();
  assert.deepEqual(problems, []);
  await page.close();
});

/** Opens the project with the stored sessions external agents ran. */
async function openProjectWithHosted(page) {
  await page.getByTestId('open-folder-button').waitFor();
  await page.evaluate(() => window.__tandemFake.storeHosted());
  await openProject(page);
}

const item = (page, id) => page.locator(`${SHOWN} [data-testid="session-item"][data-session-id="${id}"]`);

test('a stored session an agent ran reopens from the sidebar with that agent', async () => {
  const { page, problems } = await newPage();
  await openProjectWithHosted(page);
  await item(page, 'stored-hosted').click();
  await page.locator('[data-testid="session"][data-session-id="stored-hosted"]').waitFor();
  const shown = page.locator(SHOWN);
  await shown.getByTestId('user-prompt').filter({ hasText: 'Sketch the release notes' }).waitFor();
  assert.equal(await shown.getByTestId('model-name').textContent(), 'acp:claude');
  // No notice sends the person to the command line any more.
  assert.equal(await shown.getByText('tandem -p --resume').count(), 0);
  await shown.getByTestId('prompt-input').fill('Now add the fixed bugs');
  await shown.getByTestId('prompt-input').press('Enter');
  await shown.getByTestId('user-prompt').filter({ hasText: 'Now add the fixed bugs' }).waitFor();
  assert.deepEqual(problems, []);
  await page.close();
});

test('an agent that cannot continue its session says why, and Tandem’s own model can go on with it', async () => {
  const { page, problems } = await newPage();
  await openProjectWithHosted(page);

  // No longer configured: said, and left closed on request.
  await item(page, 'stored-hosted-gone').click();
  const failed = page.getByTestId('hosted-reopen-failed');
  await failed.waitFor();
  assert.match(await failed.getByTestId('hosted-reopen-message').textContent(), /`retired` that ran this session is no longer configured/);
  await page.keyboard.press('Escape');
  await failed.waitFor({ state: 'detached' });
  assert.equal(await tabCount(page), 1);

  // A remote folder whose machine cannot be reached: said, naming the host.
  await item(page, 'stored-remote-gone').click();
  await failed.waitFor();
  assert.match(await failed.getByTestId('hosted-reopen-message').textContent(), /ssh could not reach ann@unreachable-box/);
  await failed.getByTestId('hosted-reopen-cancel').click();
  await failed.waitFor({ state: 'detached' });

  // Cannot load sessions: said; going on with Tandem's own model opens it with its history.
  await item(page, 'stored-hosted-scripted').click();
  await failed.waitFor();
  assert.match(await failed.getByTestId('hosted-reopen-message').textContent(), /does not offer `session\/load`/);
  await page.screenshot({ path: join(results, 'hosted-reopen-failed.png') });
  await failed.getByTestId('hosted-reopen-own').click();
  await failed.waitFor({ state: 'detached' });
  await page.locator('[data-testid="session"][data-session-id="stored-hosted-scripted"]').waitFor();
  const shown = page.locator(SHOWN);
  await shown.getByTestId('user-prompt').filter({ hasText: 'Take notes' }).waitFor();
  assert.equal(await shown.getByTestId('model-name').textContent(), 'claude-sonnet-4-5');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a reloaded window whose hosted tab cannot go on asks, and opens nothing else meanwhile', async () => {
  const { page, problems } = await newPage();
  await openProjectWithHosted(page);
  // The window showed the session of an agent that is no longer configured, then reloaded.
  await page.evaluate(
    (folder) => sessionStorage.setItem('tandem.open', JSON.stringify({ tabs: [{ cwd: folder, sessionId: 'stored-hosted-gone' }], active: 'stored-hosted-gone' })),
    FAKE_FOLDER,
  );
  await page.reload();
  const failed = page.getByTestId('hosted-reopen-failed');
  await failed.waitFor();
  assert.match(await failed.getByTestId('hosted-reopen-message').textContent(), /`retired` that ran this session is no longer configured/);
  assert.equal(await tabCount(page), 0, 'no fresh session opens behind the question');
  await failed.getByTestId('hosted-reopen-own').click();
  await page.locator('[data-testid="session"][data-session-id="stored-hosted-gone"]').waitFor();
  assert.equal(await tabCount(page), 1);
  assert.deepEqual(problems, []);
  await page.close();
});

test('images for an agent that does not take them are refused with the reason and stay in the box', async () => {
  const { page, problems } = await newPage();
  await openProject(page);
  await page.getByTestId('session-tab-new-with').click();
  const dialog = page.getByTestId('hosted-dialog');
  await dialog.getByTestId('hosted-agent').filter({ hasText: 'scripted' }).click();
  await dialog.waitFor({ state: 'detached' });
  const shown = page.locator(SHOWN);
  await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 40;
    canvas.height = 30;
    canvas.getContext('2d').fillRect(0, 0, 40, 30);
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
    const data = new DataTransfer();
    data.items.add(new File([blob], 'shot.png', { type: 'image/png' }));
    const input = document.querySelector('[data-testid="session"][data-shown="true"] [data-testid="prompt-input"]');
    input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
  await shown.getByTestId('attachment').waitFor();
  await shown.getByTestId('prompt-input').fill('What is in this screenshot?');
  await shown.getByTestId('prompt-input').press('Enter');
  await shown.getByTestId('error-banner').filter({ hasText: 'scripted does not take images' }).waitFor();
  assert.equal(await shown.getByTestId('attachment').count(), 1, 'the image is kept');
  assert.deepEqual(problems, []);
  await page.close();
});
