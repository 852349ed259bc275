// (b) 3000 simulated respondents: reports made in Node by the same
// WebAssembly core the browser uses (seeded, deterministic), posted over
// HTTP while the dashboard is open. The dashboard must update in place to
// n = 3000, and every displayed 95% interval must contain the true frequency
// of the simulated answers.
//
// With 13 intervals at 95% each, not every seed would pass; the seeds are
// fixed, so the outcome is deterministic and a failure means the estimates,
// intervals or their display changed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { loadCore } from '../../web/src/core.js';
import { openRecordedPage, unexpectedProblems } from './support/browser.mjs';
import { DEMO_SURVEY } from './support/paths.mjs';
import { createSeededGenerator } from './support/seeded-generator.mjs';
import { postReports, requestJson } from './support/server.mjs';
import { useServerAndBrowser } from './support/fixture.mjs';

const RESPONDENTS = 3000;
const ANSWER_SEED = 20240611;
const REPORT_SEED_BASE = 1_000_000;
const CONCURRENT_POSTS = 8;
const TRUE_DISTRIBUTION = {
  drugs: [0.3, 0.7],
  alcohol: [0.15, 0.35, 0.25, 0.15, 0.10],
  stress: [0.35, 0.20, 0.15, 0.15, 0.10, 0.05],
};

const demo = JSON.parse(readFileSync(DEMO_SURVEY, 'utf8'));

const fixture = useServerAndBrowser();

function simulateAnswers() {
  const generator = createSeededGenerator(ANSWER_SEED);
  return Array.from({ length: RESPONDENTS }, () =>
    Object.fromEntries(demo.questions.map((question) => [question.id, generator.pick(TRUE_DISTRIBUTION[question.id])])));
}

function trueFrequencies(answers) {
  return Object.fromEntries(demo.questions.map((question) => {
    const counts = question.options.map(() => 0);
    for (const answer of answers) counts[answer[question.id]] += 1;
    return [question.id, counts.map((count) => count / answers.length)];
  }));
}

async function readDownload(download) {
  const chunks = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

// "12.3%" -> 0.123 (the table shows percentages rounded to 0.1 points).
function parsePercent(text) {
  const match = /^(-?\d+(?:\.\d+)?)%$/.exec(text.trim());
  assert.ok(match, `not a percentage: "${text}"`);
  return Number(match[1]) / 100;
}

test('the dashboard shows n = 3000 and 95% intervals that contain the true frequencies', async () => {
  const core = await loadCore();
  const answers = simulateAnswers();
  const truth = trueFrequencies(answers);
  const reports = answers.map((answer, index) => core.perturbSeeded(demo, answer, String(REPORT_SEED_BASE + index)));

  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/results/demo`);
  await page.locator('[data-testid="n-drugs"]', { hasText: /^0$/ }).waitFor();
  const chartBefore = await page.getByTestId('chart-drugs').elementHandle();

  await postReports(fixture.server.baseUrl, 'demo', reports, CONCURRENT_POSTS);

  // Polling picks the reports up without a reload, and the chart is updated in place.
  await page.locator('[data-testid="respondents"]', { hasText: /^3,000$/ }).waitFor({ timeout: 30_000 });
  assert.equal(await chartBefore.evaluate((canvas) => canvas.isConnected), true, 'the chart canvas was not replaced');

  const results = (await requestJson(fixture.server.baseUrl, '/api/surveys/demo/results')).body;
  assert.equal(results.respondents, RESPONDENTS);
  let intervals = 0;
  for (const question of demo.questions) {
    await page.locator(`[data-testid="n-${question.id}"]`, { hasText: /^3,000$/ }).waitFor();
    const serverOptions = results.questions.find((entry) => entry.id === question.id).options;
    for (let index = 0; index < question.options.length; index += 1) {
      const cell = page.getByTestId(`ci-${question.id}-${index}`);
      const low = Number(await cell.getAttribute('data-low'));
      const high = Number(await cell.getAttribute('data-high'));
      const f = truth[question.id][index];
      const where = `${question.id}[${index}] "${question.options[index]}": true ${f.toFixed(4)}, CI [${low.toFixed(4)}, ${high.toFixed(4)}]`;
      assert.equal(low, serverOptions[index].ci_low, `${where}: shown low differs from the server's`);
      assert.equal(high, serverOptions[index].ci_high, `${where}: shown high differs from the server's`);
      assert.ok(low <= f && f <= high, `${where}: the interval misses the true frequency`);
      // The rounded text shows the same interval (to within its 0.05-point rounding).
      const [lowText, highText] = (await cell.textContent()).split(/\s+to\s+/);
      assert.ok(Math.abs(parsePercent(lowText) - low) <= 0.0005 + 1e-12, `${where}: text "${lowText}"`);
      assert.ok(Math.abs(parsePercent(highText) - high) <= 0.0005 + 1e-12, `${where}: text "${highText}"`);
      const estimate = parsePercent(await page.getByTestId(`estimate-${question.id}-${index}`).textContent());
      assert.ok(Math.abs(estimate - serverOptions[index].frequency) <= 0.0005 + 1e-12, `${where}: estimate`);
      intervals += 1;
    }
  }
  assert.equal(intervals, 13);

  // Exports: the CSV from the server, the JSON of what is on screen.
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  assert.equal(csv.suggestedFilename(), 'demo-results.csv');
  const csvText = await readDownload(csv);
  assert.ok(csvText.split('\n').length > 13, `CSV too short:\n${csvText}`);
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
  assert.equal(json.suggestedFilename(), 'demo-results.json');
  const exported = JSON.parse(await readDownload(json));
  assert.equal(exported.respondents, RESPONDENTS);
  assert.deepEqual(exported.questions.map((question) => question.id), ['drugs', 'alcohol', 'stress']);
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});
