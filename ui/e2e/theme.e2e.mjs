// End-to-end check of the light theme in headless Chromium against the e2e build: a code block's text, its
// punctuation and every highlighted token keep a readable contrast against the block's background, in the
// light scheme as in the dark one.
/* global document, getComputedStyle -- page.evaluate callbacks run in the page */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { newPage, results } from './harness.mjs';

/** The lowest contrast ratio (WCAG) of the code block's text nodes against the block's background. */
async function lowestCodeContrast(page) {
  return page.evaluate(() => {
    const channel = (c) => {
      const v = c / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    };
    const luminance = (css) => {
      const [r, g, b] = css.match(/\d+(\.\d+)?/g).map(Number);
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const pre = document.querySelector('[data-testid="assistant-text"] pre');
    const background = luminance(getComputedStyle(pre).backgroundColor);
    let lowest = Infinity;
    let worst = '';
    const walker = document.createTreeWalker(pre, 4);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent.trim()) continue;
      const color = luminance(getComputedStyle(node.parentElement).color);
      const ratio = (Math.max(color, background) + 0.05) / (Math.min(color, background) + 0.05);
      if (ratio < lowest) {
        lowest = ratio;
        worst = `${node.textContent.trim()} (${getComputedStyle(node.parentElement).color})`;
      }
    }
    return { lowest, worst };
  });
}

for (const scheme of ['dark', 'light']) {
  test(`code blocks stay readable in the ${scheme} scheme`, async () => {
    const { page, problems } = await newPage();
    await page.getByTestId('open-folder-button').click();
    await page.evaluate((value) => {
      document.documentElement.dataset.scheme = value;
    }, scheme);
    await page.getByTestId('prompt-input').fill('Check that the tests pass');
    await page.getByTestId('prompt-input').press('Enter');
    await page.locator('[data-testid="assistant-text"] pre code .hljs-keyword').first().waitFor();
    await page.locator('[data-testid="assistant-text"] pre').first().screenshot({ path: join(results, `code-${scheme}.png`) });
    const { lowest, worst } = await lowestCodeContrast(page);
    assert.ok(lowest >= 3, `the least readable text is ${worst}: contrast ${lowest.toFixed(2)}`);
    assert.deepEqual(problems, []);
    await page.close();
  });
}
