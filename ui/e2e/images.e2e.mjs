// End-to-end test of images in the prompt against the fake backend: an image pasted and another dropped into the
// prompt box show as thumbnails, one is removed, a file that is not an image is refused with the reason, and the
// prompt goes with the image left: the transcript shows it under the prompt, larger on a click (Esc closes), and
// again after the session is reopened; a paste without image data (WebKitGTK's) takes the system clipboard's image.
// Screenshots go to test-results/.
/* global window, document, DataTransfer, ClipboardEvent, DragEvent -- page.evaluate callbacks run in the page */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { newPage, results } from './harness.mjs';

/** Pastes (into the prompt input) or drops (onto the prompt box) a PNG drawn in the page, or a text file. */
async function hand(page, how, name, kind = 'png') {
  await page.evaluate(
    async ({ how, name, kind }) => {
      let file;
      if (kind === 'png') {
        const canvas = document.createElement('canvas');
        canvas.width = 320;
        canvas.height = 200;
        const context = canvas.getContext('2d');
        context.fillStyle = how === 'paste' ? '#2f81f7' : '#d29922';
        context.fillRect(0, 0, 320, 200);
        context.fillStyle = '#ffffff';
        context.fillRect(40, 40, 120, 80);
        const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
        file = new File([blob], name, { type: 'image/png' });
      } else {
        file = new File(['not an image'], name, { type: 'text/plain' });
      }
      const data = new DataTransfer();
      data.items.add(file);
      if (how === 'paste') {
        const input = document.querySelector('[data-testid="prompt-input"]');
        input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      } else {
        const box = document.querySelector('[data-testid="prompt-input"]').closest('form');
        box.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
        box.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
      }
    },
    { how, name, kind },
  );
}

/** Whether every image in `selector` has decoded (a data URL the page could not read would have no width). */
const decoded = (page, selector) =>
  page.evaluate((s) => [...document.querySelectorAll(s)].every((img) => img.complete && img.naturalWidth > 0), selector);

test('images pasted and dropped into the prompt go with it and show in the transcript', async () => {
  const { page, problems } = await newPage();
  await page.getByTestId('open-folder-button').click();
  await page.getByTestId('folder-name').waitFor();

  await hand(page, 'paste', 'pasted.png');
  await page.getByTestId('attachment').first().waitFor();
  await hand(page, 'drop', 'dropped.png');
  await page.getByTestId('attachment').nth(1).waitFor();
  await hand(page, 'drop', 'notes.txt', 'text');
  await page.getByTestId('attachment-problem').waitFor();
  assert.match(await page.getByTestId('attachment-problem').textContent(), /notes\.txt is not an image/);
  assert.deepEqual(
    await page.getByTestId('attachment').evaluateAll((items) => items.map((item) => item.getAttribute('title'))),
    ['pasted.png', 'dropped.png'],
  );
  assert.ok(await decoded(page, '[data-testid="attachment"] img'));
  await page.getByTestId('prompt-input').fill('/long 2 what is wrong in this screenshot?');
  await page.screenshot({ path: join(results, 'images-composer.png') });

  await page.getByRole('button', { name: 'Remove dropped.png' }).click();
  assert.equal(await page.getByTestId('attachment').count(), 1);
  await page.getByTestId('prompt-input').press('Enter');

  const prompt = page.getByTestId('user-prompt').filter({ hasText: 'what is wrong in this screenshot?' });
  await prompt.getByTestId('prompt-image').waitFor();
  assert.equal(await prompt.getByTestId('prompt-image').count(), 1);
  assert.ok(await decoded(page, '[data-testid="prompt-image"] img'));
  assert.equal(await page.getByTestId('attachment').count(), 0, 'the box is empty once sent');
  await page.getByTestId('stop-button').waitFor({ state: 'detached' });
  await page.screenshot({ path: join(results, 'images-transcript.png') });

  await prompt.getByTestId('prompt-image').click();
  await page.getByTestId('image-viewer').waitFor();
  await page.screenshot({ path: join(results, 'images-viewer.png') });
  await page.keyboard.press('Escape');
  await page.getByTestId('image-viewer').waitFor({ state: 'detached' });

  // Reopened from the sidebar, the session replays its events: the image shows again.
  const shown = '[data-testid="session"][data-shown="true"]';
  const id = await page.locator(shown).getAttribute('data-session-id');
  await page.locator(shown).getByTestId('new-session-button').click();
  await page.waitForFunction(([sel, old]) => document.querySelector(sel)?.dataset.sessionId !== old, [shown, id]);
  await page.locator(`${shown} [data-testid="session-item"][data-session-id="${id}"]`).click();
  await page.waitForFunction(([sel, old]) => document.querySelector(sel)?.dataset.sessionId === old, [shown, id]);
  await page.getByTestId('prompt-image').waitFor();
  assert.ok(await decoded(page, '[data-testid="prompt-image"] img'));

  assert.deepEqual(problems, []);
  await page.close();
});

test('a paste that carries no image data, as WebKitGTK sends it, takes the system clipboard’s image', async () => {
  const { page, problems } = await newPage();
  await page.getByTestId('open-folder-button').click();
  await page.getByTestId('folder-name').waitFor();
  const paste = (text) =>
    page.evaluate((value) => {
      const data = new DataTransfer();
      if (value !== null) data.setData('text/plain', value);
      const input = document.querySelector('[data-testid="prompt-input"]');
      input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, text);
  // A one-pixel PNG on the clipboard.
  await page.evaluate(() =>
    window.__tandemFake.setClipboard({
      media_type: 'image/png',
      data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    }),
  );
  // Text pasted: the clipboard's image is not asked for.
  await paste('some text');
  await paste(null);
  await page.getByTestId('attachment').first().waitFor();
  assert.equal(await page.getByTestId('attachment').count(), 1);
  // An empty clipboard adds nothing and says nothing.
  await page.evaluate(() => window.__tandemFake.setClipboard(null));
  await paste(null);
  assert.equal(await page.getByTestId('attachment').count(), 1);
  assert.equal(await page.getByTestId('attachment-problem').count(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});
