// A class opening the survey link together: 50 simultaneous loads of the
// survey page and every asset it needs (browser-like, from Node) finish
// within a second, compressed; and a real Chromium loads /s/demo with the
// assets' cache headers, then comes back to it with the assets from its
// cache and the page revalidated (304).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, openRecordedPage, unexpectedProblems } from './support/browser.mjs';
import { discoverPage, loadPage } from './support/page-load.mjs';
import { startServer } from './support/server.mjs';

const CLIENTS = 50;
const BUDGET_MS = 1000;
// The machine is shared (builds, other suites): the best of a few rounds is
// what the server can do; every round is printed.
const ROUNDS = 3;
const BROTLI_READY_TIMEOUT_MS = 30_000;
const IMMUTABLE = 'public, max-age=31536000, immutable';

let server;
let levels;  // [['/s/demo'], [its assets], [what they import]]
before(async () => {
  server = await startServer();
  // Brotli variants are made in the background from the first request on;
  // measure the steady state, once they are ready.
  await discoverPage(server.baseUrl, '/s/demo');
  const started = Date.now();
  // (If they never are, the tests below say what is missing.)
  while (!/Brotli variants ready/.test(server.output()) && Date.now() - started < BROTLI_READY_TIMEOUT_MS) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  levels = await discoverPage(server.baseUrl, '/s/demo');
});
after(async () => { await server?.stop(); });

test(`${CLIENTS} simultaneous loads of the survey page and its assets finish within ${BUDGET_MS} ms`, { timeout: 120_000 }, async () => {
  const rounds = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const start = performance.now();
    const loads = await Promise.all(Array.from({ length: CLIENTS }, () => loadPage(server.baseUrl, levels)));
    const elapsed = performance.now() - start;
    rounds.push(Math.round(elapsed));
    for (const responses of loads) {
      const paths = [...responses.keys()];
      assert.ok(paths.some((path) => /^\/assets\/deniable_client-[^/]+\.wasm$/.test(path)), `the client WebAssembly module was loaded: ${paths}`);
      for (const [path, response] of responses) {
        if (path.endsWith('.js') || path.endsWith('.css') || path === '/s/demo') {
          assert.equal(response.headers['content-encoding'], 'br', path);
        }
      }
    }
    if (elapsed < BUDGET_MS) break;
  }
  console.log(`${CLIENTS} simultaneous loads of /s/demo: ${rounds.join(' ms, ')} ms`);
  assert.ok(Math.min(...rounds) < BUDGET_MS, `rounds took ${rounds.join(', ')} ms; budget ${BUDGET_MS} ms`);
});

test('Chromium loads /s/demo with cacheable assets, then reuses them', { timeout: 60_000 }, async () => {
  const browser = await launchBrowser();
  try {
    const { page, log } = await openRecordedPage(browser.context);
    const assets = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/assets/')) assets.push(response);
    });
    await page.goto(`${server.baseUrl}/s/demo`);
    await page.getByTestId('survey-form').waitFor();
    assert.deepEqual(unexpectedProblems(log), []);
    assert.ok(assets.length >= 5, `assets loaded: ${assets.map((response) => response.url())}`);
    for (const response of assets) {
      const headers = await response.allHeaders();
      const name = new URL(response.url()).pathname;
      assert.equal(response.status(), 200, name);
      assert.equal(headers['cache-control'], IMMUTABLE, name);
      assert.match(headers.etag ?? '', /^"[0-9a-f]{32}(-br|-gzip)?"$/, name);
      assert.equal(headers.vary, 'Accept-Encoding', name);
      if (!name.endsWith('.svg')) assert.match(headers['content-encoding'] ?? '', /^(br|gzip)$/, name);
    }

    // Coming back: the page is revalidated (no-cache: a 304), and the
    // immutable assets are taken from Chromium's cache without asking.
    const logLines = async (pattern) => {
      await new Promise((resolve) => setTimeout(resolve, 300));  // the access log reaches the pipe after the response
      return server.output().split('\n').filter((line) => pattern.test(line)).length;
    };
    const assetLinesBefore = await logLines(/^GET \/assets\//);
    const revalidationsBefore = await logLines(/^GET \/s\/demo 304$/);
    await page.goto(`${server.baseUrl}/s/demo`);
    await page.getByTestId('survey-form').waitFor();
    assert.equal(await logLines(/^GET \/s\/demo 304$/), revalidationsBefore + 1, 'the page was revalidated');
    assert.equal(await logLines(/^GET \/assets\//), assetLinesBefore, 'no asset was fetched again');
    assert.deepEqual(unexpectedProblems(log), []);
  } finally {
    await browser.close();
  }
});
