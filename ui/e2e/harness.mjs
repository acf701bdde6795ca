// Shared harness of the end-to-end tests: serves the e2e build (dist-e2e, with the scripted fake
// backend) on a free loopback port, drives headless Chromium with a fresh profile, and gives each
// test a page that records page errors, console errors and any request leaving the local server.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
export const results = join(here, '..', 'test-results');
let server;
let context;
let profile;

before(async () => {
  await mkdir(results, { recursive: true });
  server = await serve(join(here, '..', 'dist-e2e'));
  profile = await mkdtemp(join(tmpdir(), 'tandem-e2e-'));
  // A fresh profile per run; Playwright takes it as the persistent context's user data dir.
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1100, height: 760 },
    deviceScaleFactor: 1,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

after(async () => {
  await context?.close();
  await server?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

export async function newPage() {
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  // The bundle must not need the network: fail on any request that leaves the test server.
  page.on('request', (request) => {
    if (!request.url().startsWith(server.url) && !request.url().startsWith('data:')) {
      problems.push(`external request: ${request.url()}`);
    }
  });
  await page.goto(server.url);
  return { page, problems };
}

