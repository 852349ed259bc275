// The survey page on a phone's budget (issue 32): the demo survey, answered
// and prepared, transfers at most 150 KiB as encoded on the wire; it never
// asks for the full WebAssembly module (deniable_core*, the builder's) nor
// any file of the dashboard or the creation page (estimation, charts); and
// its questions are there to answer before the client core has arrived:
// with the .wasm held back, the questions render and the privacy summary
// says plainly that it is being prepared; released, Prepare works.
// (Sizes, not timings: bench/page/run.sh measures the time.)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { launchBrowser, openRecordedPage, unexpectedProblems } from './support/browser.mjs';
import { useServerAndBrowser } from './support/fixture.mjs';
import { WEB_DIST } from './support/paths.mjs';
import { reviewAnswers, prepareFromReview } from './support/survey-steps.mjs';
import { axeViolations } from './support/axe.mjs';

const BUDGET_KIB = 150;
const IDLE_MS = 500;
const fixture = useServerAndBrowser();

// The server makes its Brotli variants in the background after the first
// request (what a browser then gets): asked for once, then awaited, as
// static-load.test.mjs does.
async function brotliReady() {
  for (const name of fs.readdirSync(join(WEB_DIST, 'assets'))) {
    await (await fetch(`${fixture.server.baseUrl}/assets/${name}`, { headers: { 'Accept-Encoding': 'br' } })).arrayBuffer();
  }
  const started = Date.now();
  while (!/Brotli variants ready/.test(fixture.server.output()) && Date.now() - started < 30_000) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// The assets the other pages' HTML names that survey.html does not: their
// entry chunks and what only they import first (the dashboard's and the
// builder's code), by the names the build gave them.
function otherPagesOnlyAssets() {
  const named = (page) => new Set(fs.readFileSync(join(WEB_DIST, page), 'utf8').match(/\/assets\/[^"']+/g) ?? []);
  const survey = named('survey.html');
  return new Set(['dashboard.html', 'create.html', 'manage.html'].flatMap((page) => [...named(page)]).filter((asset) => !survey.has(asset)));
}

// Counts the encoded bytes of every response of the tab (CDP), until told.
async function countTransfer(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const bytes = new Map();
  const inFlight = new Set();
  let last = Date.now();
  cdp.on('Network.requestWillBeSent', ({ requestId }) => { inFlight.add(requestId); last = Date.now(); });
  const done = ({ requestId, encodedDataLength = 0 }) => {
    inFlight.delete(requestId);
    bytes.set(requestId, encodedDataLength);
    last = Date.now();
  };
  cdp.on('Network.loadingFinished', done);
  cdp.on('Network.loadingFailed', done);
  return {
    // Once the tab has been idle for IDLE_MS: the total in bytes.
    async settled() {
      while (inFlight.size > 0 || Date.now() - last < IDLE_MS) await new Promise((resolve) => setTimeout(resolve, 50));
      return [...bytes.values()].reduce((sum, value) => sum + value, 0);
    },
  };
}

async function answerDemo(page) {
  await page.getByTestId('option-drugs-1').check();
  await page.getByTestId('option-alcohol-0').check();
  await page.getByTestId('option-stress-2').check();
}

test(`the demo survey page, answered and prepared, transfers at most ${BUDGET_KIB} KiB and loads neither the full module nor the other pages' code`, async () => {
  await brotliReady();
  const { page, log } = await openRecordedPage(fixture.browser.context);
  const transfer = await countTransfer(page);
  await page.goto(`${fixture.server.baseUrl}/s/demo`);
  await page.getByTestId('survey-form').waitFor();
  await answerDemo(page);
  await reviewAnswers(page);
  await prepareFromReview(page);
  await page.getByTestId('privacy-summary').waitFor();
  const total = await transfer.settled();
  const paths = log.requests.map((request) => new URL(request.url).pathname);
  console.log(`the demo survey page: ${(total / 1024).toFixed(1)} KiB encoded over ${paths.length} requests`);
  assert.ok(total <= BUDGET_KIB * 1024, `${(total / 1024).toFixed(1)} KiB transferred; budget ${BUDGET_KIB} KiB: ${paths.join(', ')}`);

  assert.ok(paths.some((path) => /^\/assets\/deniable_client-[^/]+\.wasm$/.test(path)), `the client module was loaded as its own .wasm: ${paths}`);
  assert.deepEqual(paths.filter((path) => /deniable_core/.test(path)), [], 'the full module is never asked for');
  const others = otherPagesOnlyAssets();
  assert.ok(others.size > 0, 'the other pages name assets of their own');
  assert.deepEqual(paths.filter((path) => others.has(path) || /^\/assets\/(dashboard|create|manage|chart)/i.test(path)), [],
    "no file of the dashboard's or the builder's code");
  // The demo asks no numeric question with levels: the levels code stays away.
  assert.deepEqual(paths.filter((path) => /^\/assets\/levels/.test(path)), [], 'no levels chunk');
  // The demo is in English: the page's French words stay away.
  assert.deepEqual(paths.filter((path) => /\.fr-[^/]+\.js$/.test(path)), [], 'no French texts');
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('the questions are there to answer before the core has arrived; Prepare works once it has', async () => {
  // A browser of its own: the .wasm must not come from the cache.
  const browser = await launchBrowser();
  try {
    await questionsBeforeCore(browser);
  } finally {
    await browser.close();
  }
});

async function questionsBeforeCore(browser) {
  const { page, log } = await openRecordedPage(browser.context);
  let release;
  const released = new Promise((resolve) => { release = resolve; });
  const held = [];
  await page.route(/\.wasm$/, async (route) => {
    held.push(route.request().url());
    await released;
    await route.continue();
  });
  await page.goto(`${fixture.server.baseUrl}/s/demo`);
  await page.getByTestId('survey-form').waitFor();
  // The core's request is under way and held.
  for (let waited = 0; held.length === 0 && waited < 10_000; waited += 50) await page.waitForTimeout(50);
  assert.equal(held.length, 1, 'the page asked for the .wasm once');
  assert.equal(await page.getByTestId('option-drugs-0').isEnabled(), true, 'the first question can be answered');
  const pending = page.getByTestId('privacy-pending');
  assert.match(await pending.textContent(), /Preparing privacy protection/);
  assert.equal(await page.getByTestId('privacy-summary').count(), 0, 'no privacy numbers before the core');
  assert.deepEqual(await axeViolations(page), []);

  await answerDemo(page);
  await reviewAnswers(page);
  await page.getByTestId('prepare-report').click();
  await page.waitForTimeout(300);
  assert.equal(await page.getByTestId('report-panel').count(), 0, 'no report before the core');
  assert.equal(await page.getByTestId('prepare-report').isDisabled(), true, 'Prepare is busy while the core arrives');

  release();
  await page.getByTestId('report-panel').waitFor();
  await page.getByTestId('privacy-summary').waitFor();
  assert.equal(await pending.count(), 0, 'the status gave way to the summary');
  assert.match(await page.getByTestId('total-epsilon').textContent(), /3\.5/);
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
}

// The summary arriving above the questions is much taller than its status:
// a respondent who has begun answering keeps the question where it was.
test('the core arriving while the respondent answers does not move the question under their finger', async () => {
  const browser = await launchBrowser();
  try {
    const { page, log } = await openRecordedPage(browser.context);
    let release;
    const released = new Promise((resolve) => { release = resolve; });
    await page.route(/\.wasm$/, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`${fixture.server.baseUrl}/s/demo`);
    await page.getByTestId('survey-form').waitFor();
    await page.getByTestId('option-drugs-0').check();
    const top = () => page.getByTestId('option-drugs-0').evaluate((input) => input.getBoundingClientRect().top);
    const before = await top();
    release();
    await page.getByTestId('privacy-summary').waitFor();
    const after = await top();
    assert.ok(Math.abs(after - before) <= 1, `the answered option moved from ${before} px to ${after} px on screen`);
    assert.ok(await page.evaluate(() => window.scrollY) > 0, 'the page scrolled by what the summary grew');
    assert.deepEqual(unexpectedProblems(log), []);
  } finally {
    await browser.close();
  }
});
