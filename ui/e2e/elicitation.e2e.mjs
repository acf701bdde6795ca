// End-to-end test of an MCP server's form (elicitation) against the fake backend: a `/elicit` turn's
// tool call waits while its server asks for a database; the form shows the server's message and
// fields, refuses to send without the required field, sends the typed values (the call's result
// names them), and a second form declined ends the call without connecting.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { newPage, results } from './harness.mjs';

async function send(page, prompt) {
  await page.getByTestId('prompt-input').fill(prompt);
  await page.getByTestId('prompt-input').press('Enter');
}

test("an MCP server's form is answered, and a second one declined", async () => {
  const { page, problems } = await newPage();
  await page.getByTestId('open-folder-button').click();
  await page.getByTestId('folder-name').waitFor();

  await send(page, '/elicit');
  const dialog = page.getByTestId('elicitation-dialog');
  await dialog.waitFor();
  assert.equal(await dialog.getByTestId('elicitation-message').textContent(), 'Which database should I connect to?');
  const database = dialog.locator('[data-testid="elicitation-field"][data-field="database"]').getByTestId('elicitation-input');
  const readonly = dialog.locator('[data-testid="elicitation-field"][data-field="readonly"]').getByTestId('elicitation-input');
  assert.equal(await readonly.isChecked(), true, 'the default is shown');

  await dialog.getByTestId('elicitation-accept').click();
  await dialog.getByTestId('elicitation-problem').waitFor();
  assert.ok(await dialog.isVisible(), 'a required field left empty keeps the form open');

  await database.fill('app_db');
  await readonly.uncheck();
  await page.screenshot({ path: join(results, 'elicitation-form.png') });
  await dialog.getByTestId('elicitation-accept').click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByTestId('assistant-text').filter({ hasText: 'The database is connected.' }).waitFor();
  await page.screenshot({ path: join(results, 'elicitation-answered.png') });
  await page.getByTestId('tool-call').filter({ hasText: 'db: connect' }).first().click();
  await page.getByTestId('tool-result').filter({ hasText: 'Connected to app_db.' }).waitFor();
  await page.getByTestId('assistant-text').filter({ hasText: 'The database is connected.' }).waitFor();
  await page.getByTestId('stop-button').waitFor({ state: 'detached' });

  await send(page, '/elicit');
  await dialog.waitFor();
  await dialog.getByTestId('elicitation-decline').click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByTestId('tool-call').filter({ hasText: 'db: connect' }).last().click();
  await page.getByTestId('tool-result').filter({ hasText: 'declined the form' }).waitFor();
  await page.screenshot({ path: join(results, 'elicitation-declined.png') });
  await page.getByTestId('assistant-text').filter({ hasText: 'I did not connect' }).waitFor();

  assert.deepEqual(problems, []);
});
