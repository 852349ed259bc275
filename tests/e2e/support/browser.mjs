// Launches the system Chromium headless through playwright-core with a fresh
// profile, and records what every page does that a test may want to assert
// on: requests, console errors, uncaught exceptions and CSP violations.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM } from './paths.mjs';

const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
export const DESKTOP = { viewport: { width: 1280, height: 900 } };

// Playwright owns --user-data-dir: a persistent context is how a fresh
// profile directory is given to it.
export async function launchBrowser(contextOptions = DESKTOP) {
  const userDataDir = await mkdtemp(join(tmpdir(), 'deniable-e2e-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    ...contextOptions,
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

// A new tab that keeps a log of its requests and problems.
export async function openRecordedPage(context) {
  const page = await context.newPage();
  const log = { requests: [], problems: [] };
  page.on('request', (request) => {
    log.requests.push({ method: request.method(), url: request.url(), headers: request.headers(), body: request.postData() });
  });
  page.on('console', (message) => {
    if (message.type() === 'error') log.problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => log.problems.push(`uncaught exception: ${error.message}`));
  return { page, log };
}

const MAX_PROBLEM_LENGTH = 200;

// Expected failures (e.g. a 403 the page handles) are logged by Chromium as
// console errors ("Failed to load resource"); tests filter those explicitly.
export function unexpectedProblems(log, allowed = []) {
  return log.problems
    .filter((problem) => !allowed.some((pattern) => pattern.test(problem)))
    .map((problem) => (problem.length > MAX_PROBLEM_LENGTH ? `${problem.slice(0, MAX_PROBLEM_LENGTH)}…` : problem));
}

// Runs `body({ page, log })` in a browser of its own with a phone's screen
// (390 px, touch) and a fresh profile, closed afterwards whatever happens.
export async function onPhone(body) {
  const phone = await launchBrowser(PHONE);
  try {
    const { page, log } = await openRecordedPage(phone.context);
    await body({ page, log });
  } finally {
    await phone.close();
  }
}
