// End-to-end test of a WebBrowser call's rows against the fake backend's `/browse` turn: the navigate shows the page's
// title and URL under its row, the screenshot shows its picture (decoded) on its row. Screenshots go to
// test-results/.
/* global document -- page.evaluate callbacks run in the page */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { newPage, results } from './harness.mjs';

test('a WebBrowser turn shows the page it visited and its screenshot on the rows', async () => {
  const { page, problems } = await newPage();
  await page.getByTestId('open-folder-button').click();
  await page.getByTestId('folder-name').waitFor();
  await page.getByTestId('prompt-input').fill('/browse');
  await page.getByTestId('prompt-input').press('Enter');

  const picture = page.getByTestId('tool-screenshot');
  await picture.waitFor();
  await page.waitForFunction(() => {
    const img = document.querySelector('[data-testid="tool-screenshot"]');
    return img && img.complete && img.naturalWidth > 0;
  });
  assert.equal(await picture.getAttribute('alt'), 'Screenshot of http://127.0.0.1:8000/form');
  const facts = await page.getByTestId('tool-facts').allTextContents();
  assert.ok(
    facts.some((f) => f.includes('Greeter · http://127.0.0.1:8000/form')),
    `facts: ${facts.join(' | ')}`,
  );
  const box = await picture.boundingBox();
  assert.ok(box && box.width > 100 && box.width <= 480, `picture width ${box?.width}`);
  await page.screenshot({ path: join(results, 'web-browser-row.png') });
  assert.deepEqual(problems, []);
});
