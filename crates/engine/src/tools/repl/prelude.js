// The REPL tool's prelude (run with `node -e`): reads the program from the first line of stdin, defines one async
// function per wrapped tool (each call goes to Tandem as a marked JSON line on stdout; its answer comes back as a
// JSON line on stdin), captures console output, and reports the output and the last value (or the error) at the end.
'use strict';
const MARK = process.env.TANDEM_REPL_MARK || '';
const util = require('util');
const vm = require('vm');
const readline = require('readline');
const rawWrite = process.stdout.write.bind(process.stdout);
let output = '';
const send = (msg) => rawWrite(MARK + JSON.stringify(msg) + '\n');
const capture = (...args) => {
  output += util.format(...args) + '\n';
};
for (const m of ['log', 'info', 'warn', 'error', 'debug', 'trace']) console[m] = capture;
const writer = (chunk, encoding, done) => {
  output += String(chunk);
  if (typeof encoding === 'function') encoding();
  else if (typeof done === 'function') done();
  return true;
};
process.stdout.write = writer;
process.stderr.write = writer;
const pending = new Map();
let next = 0;
let started = false;
let finished = false;
const finish = (msg) => {
  if (finished) return;
  finished = true;
  send(msg);
};
const failure = (e) => ({
  type: 'done',
  ok: false,
  output,
  error: e && e.stack ? String(e.stack) : String(e),
});
process.on('unhandledRejection', (e) => finish(failure(e)));
process.on('uncaughtException', (e) => finish(failure(e)));
// A program that ends node itself (`process.exit`) still reports what it printed (stdout is a pipe: written at once).
process.on('exit', (code) =>
  finish(
    code === 0
      ? { type: 'done', ok: true, output, value: null }
      : { type: 'done', ok: false, output, error: `the program called process.exit(${code})` },
  ),
);
const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on('line', (line) => {
  const msg = JSON.parse(line);
  if (!started) {
    started = true;
    run(msg);
    return;
  }
  const waiting = pending.get(msg.n);
  if (!waiting) return;
  pending.delete(msg.n);
  if (msg.ok) waiting.resolve(msg.text);
  else waiting.reject(new Error(msg.text));
});
function call(tool, input) {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return Promise.reject(new TypeError(`${tool} takes an object of its parameters: await ${tool}({ ... })`));
  }
  const n = ++next;
  return new Promise((resolve, reject) => {
    pending.set(n, { resolve, reject });
    send({ type: 'call', n, tool, input });
  });
}
const show = (v) => (typeof v === 'string' ? v : util.inspect(v, { depth: 4, breakLength: 100 }));
function topLevelAwait(code) {
  try {
    return require('internal/repl/await').processTopLevelAwait(code);
  } catch (_) {
    return null;
  }
}
async function evaluate(code) {
  const wrapped = topLevelAwait(code);
  if (wrapped !== null) {
    const r = await vm.runInThisContext(wrapped, { filename: 'repl.js' });
    return r && typeof r === 'object' && 'value' in r ? r.value : undefined;
  }
  try {
    return vm.runInThisContext(code, { filename: 'repl.js' });
  } catch (e) {
    if (!(e instanceof SyntaxError) || !/\bawait\b/.test(code)) throw e;
    // Top-level await without the transform: run the program as an async function (no last value).
    await vm.runInThisContext(`(async () => {\n${code}\n})()`, { filename: 'repl.js' });
    return undefined;
  }
}
async function run({ code, tools }) {
  for (const t of tools) globalThis[t] = (input) => call(t, input);
  try {
    let value = await evaluate(code);
    if (value && typeof value.then === 'function') value = await value;
    finish({ type: 'done', ok: true, output, value: value === undefined ? null : show(value) });
  } catch (e) {
    finish(failure(e));
  }
}
