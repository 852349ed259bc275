// The WebAssembly core in Chromium under the pages' Content-Security-Policy
// ("script-src 'self' 'wasm-unsafe-eval'": no eval, no new Function), both as
// the source files and as bundled by Vite. The page (tests/wasm/browser/) runs
// web/src/core.js with Math.random replaced by a function that throws and
// crypto.getRandomValues counted, and reports back; the test then runs RFC
// 9497's blind-token vectors through the page's core. Skipped when Chromium or
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
const VOPRF_VECTORS = JSON.parse(readFileSync(join(REPO, 'testdata', 'vectors', 'rfc9497-voprf-ristretto255.json'),
                                              'utf8'));
const CONTENT_TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.json': 'application/json', '.css': 'text/css', '.wasm': 'application/wasm' };

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

// Runs in the page: the client side of each RFC 9497 A.1.2 vector through the
// page's core, and the refusal of a proof that does not match.
function blindTokenVectors(vectors) {
  const core = window.deniableCore;
  return vectors.vectors.map((vector, i) => {
    const blinded = core.tokenBlindWith(vector.input, vector.blind);
    const token = { ...blinded, evaluated_element: vector.evaluation_element, proof: vector.proof,
                    public_key: vectors.pk_sm };
    let refused = null;
    try {
      core.tokenFinalize({ ...token, proof: vectors.vectors[1 - i].proof });
    } catch (error) {
      refused = error.message;
    }
    return { blinded_element: blinded.blinded_element, output: core.tokenFinalize(token).output, refused };
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
    const result = await page.evaluate(() => window.deniableResult);
    if (result.failure === undefined) result.tokenVectors = await page.evaluate(blindTokenVectors, VOPRF_VECTORS);
    return { result, errors };
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
  assert.deepStrictEqual(result.client.seeded, result.seeded);
  assert.equal(result.client.totalEpsilon, 3.5);
  assert.deepStrictEqual(Object.keys(result.client.report.responses).sort(), ['often', 'which', 'yes_no']);
  // Each module fetched its .wasm as a file of its own (not inlined).
  assert.equal(result.wasmRequests.length, 2, `wasm requests: ${result.wasmRequests}`);
  assert.ok(result.wasmRequests.some((name) => name.startsWith('deniable_client')), `${result.wasmRequests}`);
  assert.ok(result.wasmRequests.some((name) => name.startsWith('deniable_core')), `${result.wasmRequests}`);
  for (const report of result.reports) {
    assert.deepStrictEqual(Object.keys(report.responses).sort(), ['often', 'which', 'yes_no']);
  }
  assert.ok(new Set(result.reports.map((r) => JSON.stringify(r))).size > 1, 'OS-random reports vary');
  // Blind tokens: the RFC's numbers byte for byte in Chromium, a fresh token from the page's randomness.
  assert.deepStrictEqual(result.tokenVectors, VOPRF_VECTORS.vectors.map((vector) => ({
    blinded_element: vector.blinded_element, output: vector.output,
    refused: "proof: the evaluation was not made with the survey's published key" })));
  assert.match(result.token.input, /^[0-9a-f]{64}$/);
  assert.deepStrictEqual(core.tokenBlindWith(result.token.input, result.token.blind), result.token);
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
