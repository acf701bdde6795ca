// Measures the webview's JS heap against the e2e build's fake backend: opens the fake folder,
// forces a garbage collection through the DevTools protocol and reads the heap (idle), plays
// TURNS turns (streamed text and thinking, read-only calls, an approved Bash call with output, and
// every third turn an `/edit` turn with two diff dialogs and xterm output), then reads the heap
// again after a collection, and prints the constructors whose instances grew most (self size, from
// heap snapshots taken idle and after the turns). `--reopen N` then reopens a stored session of N
// messages from the sidebar; `--long N` plays a turn of N paragraphs.
//
//   npm run bench:memory -- [options]   # builds dist-e2e, then runs this; or by hand:
//   npx vite build --mode e2e --outDir dist-e2e
//   node e2e/memory.mjs [--turns 50] [--long 2000] [--top 25] [--reopen 10000] [--json out.json] [--dist dir]
//
// For readable constructor names build without minifying into another folder and pass it:
//   npx vite build --mode e2e --minify false --outDir /tmp/dist-e2e-plain && node e2e/memory.mjs --dist /tmp/dist-e2e-plain
//
// CHROMIUM names the browser (default /usr/bin/chromium).
/* global window, document -- page.evaluate callbacks run in the page */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';

const { values: options } = parseArgs({
  options: {
    turns: { type: 'string', default: '50' },
    long: { type: 'string', default: '0' },
    top: { type: 'string', default: '25' },
    json: { type: 'string' },
    dist: { type: 'string' },
    reopen: { type: 'string', default: '0' },
  },
});
const TURNS = Number(options.turns);
const LONG = Number(options.long);
const TOP = Number(options.top);
const REOPEN = Number(options.reopen);
const MiB = 1024 * 1024;

const here = fileURLToPath(new URL('.', import.meta.url));
const server = await serve(options.dist ?? join(here, '..', 'dist-e2e'));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--js-flags=--expose-gc'],
});
const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
page.setDefaultTimeout(30_000);
const errors = [];
page.on('pageerror', (error) => errors.push(error.message));
const cdp = await page.context().newCDPSession(page);

/** Collects garbage (twice, so finalizers' garbage goes too) and reads the heap. */
async function heap() {
  for (let i = 0; i < 2; i += 1) await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize, totalSize } = await cdp.send('Runtime.getHeapUsage');
  const dom = await page.evaluate(() => document.getElementsByTagName('*').length);
  return { usedMiB: +(usedSize / MiB).toFixed(2), totalMiB: +(totalSize / MiB).toFixed(2), domElements: dom };
}

/** A heap snapshot summarised as { constructor: { count, self } }. */
async function snapshot() {
  const chunks = [];
  const onChunk = ({ chunk }) => chunks.push(chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false, captureNumericValue: false });
  cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  const data = JSON.parse(chunks.join(''));
  const fields = data.snapshot.meta.node_fields;
  const types = data.snapshot.meta.node_types[0];
  const width = fields.length;
  const at = (name) => fields.indexOf(name);
  const [typeAt, nameAt, sizeAt] = [at('type'), at('name'), at('self_size')];
  const summary = new Map();
  for (let i = 0; i < data.nodes.length; i += width) {
    const type = types[data.nodes[i + typeAt]];
    const name = type === 'object' || type === 'native' ? data.strings[data.nodes[i + nameAt]] : `(${type})`;
    const entry = summary.get(name) ?? { count: 0, self: 0 };
    entry.count += 1;
    entry.self += data.nodes[i + sizeAt];
    summary.set(name, entry);
  }
  return summary;
}

function growth(before, after) {
  const rows = [];
  for (const [name, now] of after) {
    const was = before.get(name) ?? { count: 0, self: 0 };
    rows.push({ name: name.slice(0, 60), count: now.count - was.count, selfKiB: Math.round((now.self - was.self) / 1024) });
  }
  return rows.sort((a, b) => b.selfKiB - a.selfKiB).slice(0, TOP);
}

async function send(prompt) {
  await page.getByTestId('prompt-input').fill(prompt);
  await page.getByTestId('prompt-input').press('Enter');
  await page.getByTestId('stop-button').waitFor();
}

const done = () => page.getByTestId('stop-button').waitFor({ state: 'detached' });

/** The default turn: approve its Bash call once. */
async function plainTurn(n) {
  await send(`Turn ${n}: check that the tests pass`);
  await page.getByTestId('approval-allow').click();
  await done();
}

/** `/edit`: accept the first diff, reject the second with a message, let the coloured test run finish. */
async function editTurn() {
  // The fake edit replaces fixed text: put the files back as they were first.
  await page.evaluate((files) => {
    for (const [path, content] of Object.entries(files)) window.__tandemFake.touch(path, content);
  }, initialFiles);
  await send('/edit');
  await page.getByTestId('diff-accept').click();
  await page.getByTestId('diff-message').fill('Keep it as it was');
  await page.getByTestId('diff-reject').click();
  await done();
}

await page.goto(server.url);
await page.getByTestId('open-folder-button').waitFor();
// The stored session to reopen is made before the idle reading, so the fake's copy of it is in both.
if (REOPEN > 0) await page.evaluate((messages) => window.__tandemFake.storeLong(messages), REOPEN);
await page.getByTestId('open-folder-button').click();
await page.getByTestId('folder-name').waitFor();
const initialFiles = await page.evaluate(() => window.__tandemFake.files());
const idle = await heap();
const idleSnapshot = await snapshot();
console.log(`idle: ${JSON.stringify(idle)}`);

const started = Date.now();
for (let n = 1; n <= TURNS; n += 1) {
  if (n % 3 === 0) await editTurn();
  else await plainTurn(n);
  if (n % 10 === 0) console.log(`after ${n} turns: ${JSON.stringify(await heap())}`);
}
const afterTurns = await heap();
const turnsSnapshot = await snapshot();
console.log(`after ${TURNS} turns (${((Date.now() - started) / 1000).toFixed(0)} s): ${JSON.stringify(afterTurns)}`);
const grew = growth(idleSnapshot, turnsSnapshot);
console.log('\ngrowth by constructor, idle → after the turns (count, self KiB):');
for (const row of grew) console.log(`  ${String(row.selfKiB).padStart(7)} KiB  ${String(row.count).padStart(7)}  ${row.name}`);

let afterReopen = null;
if (REOPEN > 0) {
  await page.locator('[data-testid="session-item"][data-session-id="stored-long"]').click();
  await page.locator('[data-testid="session"][data-session-id="stored-long"]').waitFor();
  await page.getByTestId('user-prompt').first().waitFor();
  afterReopen = await heap();
  console.log(`\nafter reopening a stored session of ${REOPEN} messages: ${JSON.stringify(afterReopen)}`);
  const reopenSnapshot = await snapshot();
  console.log('growth by constructor, after the turns → reopened (count, self KiB):');
  for (const row of growth(turnsSnapshot, reopenSnapshot)) {
    console.log(`  ${String(row.selfKiB).padStart(7)} KiB  ${String(row.count).padStart(7)}  ${row.name}`);
  }
}

let afterLong = null;
if (LONG > 0) {
  await page.getByTestId('prompt-input').fill(`/long ${LONG}`);
  await page.getByTestId('prompt-input').press('Enter');
  await done();
  afterLong = await heap();
  console.log(`\nafter a ${LONG}-paragraph turn: ${JSON.stringify(afterLong)}`);
}

if (errors.length) console.log(`\npage errors:\n  ${errors.join('\n  ')}`);
if (options.json) await writeFile(options.json, JSON.stringify({ turns: TURNS, idle, afterTurns, afterReopen, afterLong, grew, errors }, null, 2));
await browser.close();
await server.close();
