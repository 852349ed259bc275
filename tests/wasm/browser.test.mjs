// The WebAssembly core in Chromium under the pages' Content-Security-Policy
// ("script-src 'self' 'wasm-unsafe-eval'": no eval, no new Function), both as
// the source files and as bundled by Vite. The page (tests/wasm/browser/) runs
// web/src/core.js with Math.random replaced by a function that throws and
// crypto.getRandomValues counted, and reports back. Skipped when Chromium or
// playwright-core is missing. Only 127.0.0.1 is contacted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadCore } from '../../web/src/core.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const PAGE_DIR = join(REPO, 'tests', 'wasm', 'browser');
const CHROMIUM = '/usr/bin/chromium';
const CSP = "script-src 'self' 'wasm-unsafe-eval'";
const CONTENT_TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.json': 'application/json', '.css': 'text/css' };

let chromium = null;
try {
  ({ chromium } = await import('playwright-core'));
} catch {
  // reported through skip below
}
const skip = !chromium ? 'playwright-core is not installed (npm install)'
  : !existsSync(CHROMIUM) ? `${CHROMIUM} is missing` : false;

// A static server for one directory, every response under the CSP.
function serveDirectory(root) {
  const server = createServer((request, response) => {
    if (request.url === '/favicon.ico') {
      response.writeHead(204, { 'Content-Security-Policy': CSP }).end();
      return;
    }
    const path = normalize(join(root, decodeURIComponent(new URL(request.url, 'http://x').pathname)));
    if (!path.startsWith(root + sep) || !existsSync(path) || !statSync(path).isFile()) {
      response.writeHead(404, { 'Content-Security-Policy': CSP }).end('not found');
      return;
    }
    response.writeHead(200, { 'Content-Type': CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
                              'Content-Security-Policy': CSP, 'Cache-Control': 'no-store' });
    response.end(readFileSync(path));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${server.address().port}` }));
  });
}

async function runPage(url) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
           '--no-first-run'],
  });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
    await page.goto(url);
    await page.waitForFunction(() => window.deniableResult !== undefined, null, { timeout: 20000 });
    return { result: await page.evaluate(() => window.deniableResult), errors };
  } finally {
    await browser.close();
  }
}

async function assertPageWorks(url) {
  const { result, errors } = await runPage(url);
  assert.equal(result.failure, undefined, result.failure);
  // The one violation is the page's own eval probe: the CSP is in force and the module never hit it.
  assert.equal(result.evalBlocked, true);
  assert.deepStrictEqual(result.violations, [{ directive: 'script-src', blocked: 'eval' }]);
  assert.deepStrictEqual(errors.filter((e) => !e.includes("'unsafe-eval'")), []);

  const core = await loadCore();
  assert.equal(result.version, core.version());
  assert.equal(result.memoised, true);
  assert.equal(result.totalEpsilon, 3.5);
  assert.equal(result.recommended, 'grr');
  assert.equal(result.error, 'answers.yes_no: answer must be between 0 and 1, but is 2');
  // Same seed, same report in Chromium and in Node.
  assert.deepStrictEqual(result.seeded, core.perturbSeeded(result.definition, result.answers,
                                                           '18446744073709551615'));
  for (const report of result.reports) {
    assert.deepStrictEqual(Object.keys(report.responses).sort(), ['often', 'which', 'yes_no']);
  }
  assert.ok(new Set(result.reports.map((r) => JSON.stringify(r))).size > 1, 'OS-random reports vary');
  assert.equal(result.counts.mathRandom, 0);
  assert.ok(result.counts.getRandomValues >= 5, `getRandomValues calls: ${result.counts.getRandomValues}`);
}

let sources;
before(async () => {
  if (!skip) sources = await serveDirectory(REPO.replace(/\/$/, ''));
});
after(() => sources?.server.close());

test('core.js and the generated module work in Chromium under the CSP', { skip, timeout: 60000 }, async () => {
  await assertPageWorks(`${sources.origin}/tests/wasm/browser/index.html`);
});

test('the Vite bundle of the same page works in Chromium under the CSP', { skip, timeout: 120000 }, async () => {
  const { build } = await import('vite');
  const outDir = mkdtempSync(join(tmpdir(), 'deniable-wasm-vite-'));
  try {
    await build({ root: PAGE_DIR, configFile: false, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
    const bundle = await serveDirectory(outDir);
    try {
      await assertPageWorks(`${bundle.origin}/index.html`);
    } finally {
      bundle.server.close();
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
});
