// The dashboard answers every control at once: when the analyst changes a
// setting (here the numeric estimator, a bin width and the interval target),
// the numbers computed for the old settings leave the screen within 0.3 s and
// a "computing" notice (role="status", the results region aria-busy) stands
// in their place, axe-clean, until the document for the new settings arrives;
// then the new numbers show. The server's answer is held back (page.route)
// so the computing state lasts as long as the test needs.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadCore } from '../../web/src/core.js';
import { DESKTOP, launchBrowser, openRecordedPage, unexpectedProblems } from './support/browser.mjs';
import { createSeededGenerator, truncatedNormal } from './support/seeded-generator.mjs';
import { postReports, requestJson, startServer } from './support/server.mjs';
import { axeViolations } from './support/axe.mjs';

const RESPONDENTS = 400;
const ANSWER_SEED = 20261128;
const REPORT_SEED_BASE = 7_000_000;
// The bound on how soon a control answers.
const ANSWER_WITHIN_MS = 300;

const SURVEY = {
  format: 'deniable.survey/v1',
  id: 'computing',
  version: 1,
  title: 'Hours worked',
  results: 'public',
  access: 'open',
  questions: [
    { id: 'hours', text: 'How many hours did you work last week?', type: 'numeric', range: [0, 80], unit: 'hours',
      mechanism: { name: 'square_wave', epsilon: 2 } },
  ],
};

let server;
let browser;
before(async () => {
  server = await startServer();
  browser = await launchBrowser(DESKTOP);
  const created = await requestJson(server.baseUrl, '/api/surveys', {
    method: 'POST', json: SURVEY, headers: { Authorization: `Bearer ${server.adminToken}` },
  });
  assert.equal(created.status, 201, `survey not created: ${JSON.stringify(created.body)}`);
  const core = await loadCore();
  const generator = createSeededGenerator(ANSWER_SEED);
  const reports = Array.from({ length: RESPONDENTS }, (_, index) => core.perturbSeeded(SURVEY,
    { hours: truncatedNormal(generator, 38, 9, 0, 80) }, String(REPORT_SEED_BASE + index)));
  await postReports(server.baseUrl, SURVEY.id, reports);
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

// Holds back the results answers whose URL matches until release() is called.
async function holdResults(page, pattern) {
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await page.route(pattern, async (route) => {
    await held;
    await route.continue();
  });
  return () => release();
}

// Times, in the page, from the analyst's act (the change event, or Enter in a
// field) to the computing notice showing: Playwright's own round trips (slow
// on a loaded machine) are not the page's.
async function watchAnswerTime(page) {
  await page.evaluate(() => {
    const notice = document.querySelector('[data-testid="results-computing"]');
    const watch = { acted: null, shown: null };
    window.computingWatch = watch;
    const acted = (event) => {
      if (event.type === 'change' || event.key === 'Enter') watch.acted ??= performance.now();
    };
    document.addEventListener('change', acted, true);
    document.addEventListener('keydown', acted, true);
    new MutationObserver(() => {
      if (!notice.hidden) watch.shown ??= performance.now();
    }).observe(notice, { attributes: true, attributeFilter: ['hidden'] });
  });
}

// Changes a control with `act`, then checks that within 0.3 s the computing
// notice shows, the old numbers are gone and the region is busy.
async function assertComputingAfter(page, act, what) {
  await watchAnswerTime(page);
  await act();
  await page.getByTestId('results-computing').waitFor({ timeout: 5000 });
  const { acted, shown } = await page.evaluate(() => window.computingWatch);
  assert.ok(acted !== null && shown !== null, `${what}: act ${acted}, notice ${shown}`);
  assert.ok(shown - acted <= ANSWER_WITHIN_MS, `${what}: the computing state took ${(shown - acted).toFixed(0)} ms`);
  assert.equal(await page.getByTestId('stat-hours-mean').isVisible(), false, `${what}: the old mean is still on screen`);
  assert.equal(await page.getByTestId('density-hours').isVisible(), false, `${what}: the old density chart is still on screen`);
  assert.equal(await page.getByTestId('results-region').getAttribute('aria-busy'), 'true');
  assert.equal(await page.getByTestId('results-computing').getAttribute('role'), 'status');
  assert.match(await page.getByTestId('results-computing').textContent(), /Computing/);
}

// The new document has arrived: the numbers are back, the notice gone.
async function assertShown(page) {
  await page.getByTestId('stat-hours-mean').waitFor();
  assert.equal(await page.getByTestId('results-computing').isVisible(), false);
  assert.equal(await page.getByTestId('results-region').getAttribute('aria-busy'), 'false');
  return page.getByTestId('stat-hours-mean').getAttribute('data-value');
}

test('a changed setting replaces the old numbers with a computing notice at once, then shows the new ones', async () => {
  const { page, log } = await openRecordedPage(browser.context);
  await page.goto(`${server.baseUrl}/results/${SURVEY.id}`);
  await page.getByTestId('stat-hours-mean').waitFor();
  const pmlMean = await page.getByTestId('stat-hours-mean').getAttribute('data-value');
  assert.ok(Number(pmlMean) > 0);
  assert.equal(await page.getByTestId('results-computing').isVisible(), false);

  // The estimator: EM's answer is held back.
  const releaseEm = await holdResults(page, /\/results\?estimator=em$/);
  await assertComputingAfter(page, () => page.getByTestId('numeric-estimator').selectOption('em'), 'estimator');
  assert.deepEqual(await axeViolations(page, '[data-testid="results-region"]'), []);
  // A poll while held does not bring the PML numbers back under the EM label.
  await page.waitForTimeout(2500);
  assert.equal(await page.getByTestId('stat-hours-mean').isVisible(), false);
  releaseEm();
  const emMean = await assertShown(page);
  await page.locator('[data-testid="estimator-hours"]', { hasText: /^EM$/ }).waitFor();
  assert.notEqual(emMean, pmlMean, 'EM and PML give different means');

  // A bin width (applied with Enter).
  const releaseBins = await holdResults(page, /\/results\?estimator=em&hours\.bin_width=8$/);
  await assertComputingAfter(page, async () => {
    await page.getByTestId('numeric-bin-width-hours').fill('8');
    await page.getByTestId('numeric-bin-width-hours').press('Enter');
  }, 'bin width');
  releaseBins();
  await assertShown(page);

  // The interval target: for these respondents.
  const releaseInterval = await holdResults(page, /\/results\?interval=respondents&estimator=em&hours\.bin_width=8$/);
  await assertComputingAfter(page, () => page.getByTestId('interval-target').selectOption('respondents'), 'interval target');
  releaseInterval();
  await assertShown(page);
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});
