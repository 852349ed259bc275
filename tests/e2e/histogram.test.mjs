// Histogram questions end to end, with the example survey
// (examples/histogram-survey.json: a salary in [0, 300000] USD, four data
// consumers, OUE at ε = 3), created over the API.
// (a) Answered with the keyboard (a typed number): the page shows the ranges
//     the report marks and how often a range is marked, and the true salary
//     appears in no request.
// (b) A typed value outside the range is refused next to the field.
// (c) 2000 simulated respondents (seeded answers, reports made in Node by the
//     same WebAssembly core): the dashboard shows every consumer's chart and
//     table with the server's numbers, and the analyst's own bins (edges or a
//     bin width) go to the server as ?salary.edges= / ?salary.width=, come
//     back exact or approximate with their bias bounds, and reach the CSV export.
// (d) Phone layouts (screenshots). (e) The creation page builds the question.
//
// The seeds are fixed, so the dashboard's numbers are the same on every run.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { loadCore } from '../../web/src/core.js';
import { onPhone, openRecordedPage, unexpectedProblems } from './support/browser.mjs';
import { focusedElement, tabUntil } from './support/keyboard.mjs';
import { createSeededGenerator, truncatedNormal } from './support/seeded-generator.mjs';
import { createSurvey, postSimulatedReports, useServerAndBrowser } from './support/fixture.mjs';
import { requestJson } from './support/server.mjs';
import { assertFits, screenshot } from './support/page-checks.mjs';
import { forgetDevice } from './support/device.mjs';
import { prepareFromReview, prepareShownReport, reviewAnswers, sendShownReport } from './support/survey-steps.mjs';
import { axeViolationsAtWidth } from './support/axe.mjs';

const RESPONDENTS = 2000;
const ANSWER_SEED = 20261124;
const REPORT_SEED_BASE = 7_000_000;
const TRUE_SALARY = 43210;

const SURVEY = JSON.parse(readFileSync(new URL('../../examples/histogram-survey.json', import.meta.url), 'utf8'));
const QUESTION = SURVEY.questions[0];
// The simulated respondents answer a copy, so that the keyboard test's report
// (randomised by the OS) does not enter the dashboard's numbers.
const SIMULATED = { ...SURVEY, id: 'salaries-simulated' };

const fixture = useServerAndBrowser({ surveys: [SURVEY, SIMULATED] });

// The number as a token of its own: "43210" in "[43210," but not in "143210".
function containsNumber(text, value) {
  return new RegExp(`(^|[^\\d.])${String(value).replace('.', '\\.')}(?![\\d])`).test(text);
}

const whole = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });

// What each bit of a report stands for: [low, high] in USD, or null for a
// tree's padding nodes past the fine ranges. Flat reports are the bits; a
// tree's are {level, bits} over that level's nodes, each fanout^(height -
// level) fine ranges.
function bitRanges(response, { fine_edges: edges, tree }) {
  if (Array.isArray(response)) return response.map((_, index) => [edges[index], edges[index + 1]]);
  const cells = edges.length - 1;
  const span = tree.fanout ** (tree.height - response.level);
  return response.bits.map((_, node) => (node * span < cells ? [edges[node * span], edges[Math.min((node + 1) * span, cells)]] : null));
}

// The marked ranges as the page words them: runs of marked ranges joined, in USD.
function markedRanges(response, summary) {
  const bits = Array.isArray(response) ? response : response.bits;
  const ranges = bitRanges(response, summary);
  const runs = [];
  bits.forEach((bit, index) => {
    if (bit !== 1 || !ranges[index]) return;
    if (runs.length && runs.at(-1)[1] === index - 1) runs.at(-1)[1] = index;
    else runs.push([index, index]);
  });
  return runs.map(([first, last]) => `${whole.format(ranges[first][0])} to ${whole.format(ranges[last][1])}\u00a0USD`);
}

// The page's summary of the marked ranges: all of them, or their count when
// they are too many (the list below then holds them).
function markedRangesText(response, summary) {
  const ranges = markedRanges(response, summary);
  if (ranges.length === 0) return 'none';
  return ranges.length > 8 ? String(ranges.length) : ranges.join(', ');
}

test('a histogram question answered with the keyboard sends only the shown marks', async () => {
  const core = await loadCore();
  const summary = core.parseSurvey(SURVEY).questions[0];
  const { fine_edges: edges, p, q } = summary;
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/s/${SURVEY.id}`);
  await forgetDevice(page);
  await page.getByTestId('survey-form').waitFor();
  assert.match(await page.getByTestId('privacy-salary').textContent(), /ε = 3 \(OUE\)/);
  assert.equal(await page.getByTestId('range-salary').textContent(), 'Any value from 0\u00a0USD to 300,000\u00a0USD.');

  await tabUntil(page, (focused) => focused.testid === 'number-salary', 'the typed salary');
  await page.keyboard.type(String(TRUE_SALARY));
  await reviewAnswers(page, 'keyboard');
  const shownText = await prepareShownReport(page, log);
  const bits = JSON.parse(shownText).responses.salary;
  assert.equal(bits.length, edges.length - 1, 'one bit per fine range');
  assert.ok(bits.every((bit) => bit === 0 || bit === 1));
  // In words: the marked ranges in USD, and how often a range is marked.
  assert.equal(await page.getByTestId('report-value-salary').textContent(), markedRangesText(bits, summary));
  const item = await page.getByTestId('report-salary').textContent();
  assert.ok(item.includes(`split into ${bits.length} smaller ranges`), item);
  assert.equal(p, 0.5);
  assert.ok(item.includes(`your own range is marked 50% of the time; each other range ${(q * 100).toFixed(1)}% of the time`), item);
  // The mechanism's terms sit behind a closed disclosure that the keyboard opens.
  const details = page.getByTestId('report-details-salary');
  assert.equal(await details.getAttribute('open'), null);
  await tabUntil(page, (focused) => focused.tag === 'summary', 'the technical details');
  await page.keyboard.press('Enter');
  assert.equal(await details.getAttribute('open'), '');
  assert.match(await details.textContent(), /Optimised unary encoding \(OUE\), ε = 3\..*p = 0\.5: .*q = 0\.04743: .*16 bits/);

  await sendShownReport(page, log, shownText);
  for (const request of log.requests) {
    assert.ok(!containsNumber(decodeURIComponent(request.url), TRUE_SALARY), `the URL contains the salary: ${request.url}`);
    assert.ok(!containsNumber(request.body ?? '', TRUE_SALARY), `a request body contains the salary: ${request.body}`);
  }
  assert.equal(await page.evaluate(() => JSON.stringify(Object.fromEntries(Object.entries({ ...localStorage, ...sessionStorage }).filter(([key]) => !key.startsWith('deniable.answered.'))))), '{}');
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('a tree question\'s report names its level and the ranges its bits mark, however many', async () => {
  const core = await loadCore();
  // 100 bins beside thirds: 102 fine ranges, a tree of fan-out 16 and 2 levels (256 nodes at the deeper).
  const tree = {
    ...SURVEY, id: 'salaries-tree',
    questions: [{ ...QUESTION, histograms: [{ name: 'percentiles of the range', bins: 100 }, { name: 'thirds', bins: 3 }], mechanism: { name: 'tree', epsilon: 2 } }],
  };
  await createSurvey(fixture.server, tree);
  const summary = core.parseSurvey(tree).questions[0];
  assert.deepEqual([summary.tree.fanout, summary.tree.height], [16, 2]);
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/s/${tree.id}`);
  await forgetDevice(page);
  await page.getByTestId('survey-form').waitFor();
  await page.getByTestId('number-salary').fill(String(TRUE_SALARY));
  // Enter in the field submits the questions: the review, then Prepare.
  await page.getByTestId('number-salary').press('Enter');
  await page.getByTestId('review').waitFor();
  await prepareFromReview(page);
  const response = JSON.parse(await page.getByTestId('report-json').textContent()).responses.salary;
  assert.deepEqual(Object.keys(response).sort(), ['bits', 'level']);
  assert.equal(response.bits.length, 16 ** response.level);
  assert.equal(await page.getByTestId('report-value-salary').textContent(), markedRangesText(response, summary));
  const ranges = markedRanges(response, summary);
  if (ranges.length > 8) {
    // Counted, then listed in a box of their own that the keyboard can scroll.
    assert.deepEqual(await page.locator('[data-testid="report-values-salary"] li').allTextContents(), ranges);
    assert.equal(await page.getByTestId('report-values-salary').getAttribute('tabindex'), '0');
  }
  const shownRanges = response.level === 1 ? 7 : 102;  // level 1: 16 nodes of 16 fine ranges, 7 of them real
  assert.ok((await page.getByTestId('report-salary').textContent()).includes(`split into ${shownRanges} smaller ranges (one of 2 levels of detail`));
  assert.match(await page.getByTestId('report-details-salary').textContent(),
    new RegExp(`level ${response.level} of 2 of a tree with fan-out 16: ${response.bits.length} bits.* The last ${response.bits.length - shownRanges} stand for no values`));
  await page.getByTestId('send-report').click();
  await page.locator('[data-testid="send-status"][data-state="success"]').waitFor();
  for (const request of log.requests) {
    assert.ok(!containsNumber(request.body ?? '', TRUE_SALARY), `a request body contains the salary: ${request.body}`);
  }

  // Its dashboard says which tree, and why. (More reports first, seeded, so
  // that every level has some: with reports of level 1 only, the server
  // answers 500, see the report of this change.)
  for (let index = 0; index < 50; index += 1) {
    const report = core.perturbSeeded(tree, { salary: 20000 + 2000 * index }, String(REPORT_SEED_BASE + index));
    assert.equal((await requestJson(fixture.server.baseUrl, `/api/surveys/${tree.id}/reports`, { method: 'POST', json: report })).status, 201);
  }
  await page.goto(`${fixture.server.baseUrl}/results/${tree.id}`);
  await page.locator('[data-testid="n-salary"]', { hasText: /^51$/ }).waitFor();
  assert.equal(await page.getByTestId('bits-salary').textContent(), 'at most 256 (one per range of the level a report picks)');
  assert.match(await page.getByTestId('tree-salary').textContent(), /^Tree: fan-out 16, 2 levels; fan-out 16 \(height 2\) gives/);
  assert.equal(await page.locator('[data-testid="histogram-table-salary-0"] tbody tr').count(), 100);
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('a salary outside the range is refused next to the field, naming the range', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/s/${SURVEY.id}`);
  await forgetDevice(page);
  await page.getByTestId('survey-form').waitFor();
  // Enter submits the form from the field. (A click on Prepare right after
  // typing can miss: the field's message appears as it loses focus and moves
  // the button down under the pointer, as for a numeric question.)
  await page.getByTestId('number-salary').fill('400000');
  await page.getByTestId('number-salary').press('Enter');
  assert.equal(await page.getByTestId('number-salary-message').textContent(),
    '400000 is outside the range: enter a value from 0\u00a0USD to 300,000\u00a0USD.');
  assert.match(await page.getByTestId('answer-error').textContent(), /^Please correct question 1 \(“[^”]+”\) before preparing your report: the number typed is not accepted \(the message next to the field says why and gives the range\)\.$/);
  assert.equal(await page.getByTestId('report-panel').count(), 0);
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

// Salaries: most around 40,000, a group around 95,000, a few anywhere.
function simulateAnswers() {
  const generator = createSeededGenerator(ANSWER_SEED);
  return Array.from({ length: RESPONDENTS }, () => {
    const group = generator.pick([0.6, 0.3, 0.1]);
    if (group === 0) return truncatedNormal(generator, 40000, 15000, 0, 300000);
    if (group === 1) return truncatedNormal(generator, 95000, 30000, 0, 300000);
    return 300000 * generator.nextUnit();
  });
}

// The true share of answers in each bin [low, high), the last closed.
function trueShares(answers, edges) {
  return edges.slice(0, -1).map((low, index) => {
    const high = edges[index + 1];
    const last = index === edges.length - 2;
    return answers.filter((x) => x >= low && (x < high || (last && x <= high))).length / answers.length;
  });
}


async function readDownload(download) {
  const chunks = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

test('the dashboard shows every consumer\'s histogram, and the analyst\'s own bins', async (t) => {
  const answers = simulateAnswers();
  await postSimulatedReports(fixture.server, SIMULATED, answers.map((salary) => ({ salary })), REPORT_SEED_BASE);

  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/results/${SIMULATED.id}`);
  await page.locator('[data-testid="n-salary"]', { hasText: /^2,000$/ }).waitFor({ timeout: 30_000 });
  const results = (await requestJson(fixture.server.baseUrl, `/api/surveys/${SIMULATED.id}/results`)).body;
  const entry = results.questions[0];
  assert.equal(await page.getByTestId('epsilon-salary').textContent(), 'ε = 3');
  assert.equal(await page.getByTestId('mechanism-salary').textContent(), 'Optimised unary encoding (OUE)');
  assert.equal(await page.getByTestId('bits-salary').textContent(), `${entry.bits_per_report} (one per fine range)`);
  assert.match(await page.getByTestId('privacy-note-salary').textContent(), /epsilon holds even if the 4 data consumers pool/);
  assert.equal(await page.getByTestId('warning-salary').isVisible(), entry.warning !== null);
  // The fine partition, in the respondent's units, behind a disclosure.
  const fine = page.getByTestId('fine-ranges-salary');
  assert.match(await fine.locator('summary').textContent(), new RegExp(`^The ${entry.fine.edges.length - 1} fine ranges`));
  await fine.locator('summary').click();
  assert.equal(await fine.locator('li').count(), entry.fine.edges.length - 1);
  assert.equal(await fine.locator('li').first().textContent(), '0 to 12,570\u00a0USD');

  // Every consumer: a chart, one table row per bin with the server's numbers,
  // its expected precision; and no estimate far from the true share (the
  // consumers' bins share reports, so their errors go together: a count of
  // 95% intervals that miss would be too fragile a check).
  for (const [index, histogram] of entry.histograms.entries()) {
    const key = `salary-${index}`;
    assert.equal(histogram.name, QUESTION.histograms[index].name);
    assert.ok(await page.getByTestId(`histogram-chart-${key}`).isVisible(), `${histogram.name}: the chart is shown`);
    assert.equal(await page.locator(`[data-testid="histogram-table-${key}"] tbody tr`).count(), histogram.bins.length);
    assert.equal(await page.getByTestId(`precision-${key}`).textContent(),
      `Expected 95% precision of a bin: ±${(histogram.expected_ci_half_width * 100).toFixed(1)} points.`);
    const truth = trueShares(answers, histogram.edges);
    for (const [bin, shown] of histogram.bins.entries()) {
      assert.equal(Number(await page.getByTestId(`estimate-${key}-${bin}`).getAttribute('data-value')), shown.frequency);
      const interval = page.getByTestId(`ci-${key}-${bin}`);
      assert.equal(Number(await interval.getAttribute('data-low')), shown.ci_low);
      assert.equal(Number(await interval.getAttribute('data-high')), shown.ci_high);
      const z = (shown.frequency - truth[bin]) / shown.std_error;
      assert.ok(Math.abs(z) < 4, `${histogram.name} bin ${bin}: estimate ${shown.frequency} is ${z.toFixed(1)} standard errors from the truth ${truth[bin]}`);
    }
    t.diagnostic(`${histogram.name}: truth ${truth.map((x) => x.toFixed(3)).join(' ')}; estimates ${histogram.bins.map((bin) => bin.frequency.toFixed(3)).join(' ')}`);
  }
  assert.equal(await page.getByTestId('quantile-salary-median').getAttribute('data-value'), String(entry.quantiles.median.value));
  assert.equal(await page.getByTestId('custom-none-salary').isVisible(), true);
  await screenshot(page, 'desktop-histogram-dashboard');

  // The analyst's own edges go as ?salary.edges=; edges inside fine ranges give approximate bins with bias bounds.
  const edgesRequest = page.waitForRequest((request) => /\/results\?salary\.edges=0%2C10000%2C50000%2C300000$/.test(request.url()));
  await page.getByTestId('custom-edges-salary').fill('0, 10000, 50000, 300000');
  await page.getByTestId('custom-edges-salary').press('Enter');
  const approximate = (await (await (await edgesRequest).response()).json()).questions[0].custom;
  assert.equal(approximate.exact, false);
  await page.getByTestId('custom-note-salary').waitFor();
  assert.match(await page.getByTestId('custom-note-salary').textContent(), /^Approximate: some edges cut fine cells/);
  assert.equal(await page.locator('[data-testid="histogram-table-salary-custom"] tbody tr').count(), 3);
  for (const [bin, shown] of approximate.bins.entries()) {
    const bias = await page.getByTestId(`bias-salary-custom-${bin}`).textContent();
    assert.equal(bias, shown.exact ? 'exact' : `±${(shown.bias_bound * 100).toFixed(1)}%`);
  }
  // Edges that are fine edges (the tax bands' own) are exact.
  const exactRequest = page.waitForRequest((request) => /\/results\?salary\.edges=0%2C12570%2C50270%2C300000$/.test(request.url()));
  await page.getByTestId('custom-edges-salary').fill('0,12570,50270,300000');
  await page.getByTestId('custom-edges-salary').press('Enter');
  assert.equal((await (await (await exactRequest).response()).json()).questions[0].custom.exact, true);
  await page.getByTestId('custom-note-salary').waitFor({ state: 'hidden' });
  await page.locator('[data-testid="bias-salary-custom-0"]', { hasText: /^exact$/ }).waitFor();

  // Refused on the page, next to the control: both kinds of bins, an edge out of range.
  await page.getByTestId('custom-bin-width-salary').fill('20000');
  await page.getByTestId('custom-bin-width-salary').press('Enter');
  assert.equal(await page.getByTestId('custom-bins-error-salary').textContent(), 'Give either edges or a bin width, not both.');
  await page.getByTestId('custom-bin-width-salary').fill('');
  await page.getByTestId('custom-edges-salary').fill('0, 50000, 400000');
  await page.getByTestId('custom-edges-salary').press('Enter');
  assert.equal(await page.getByTestId('custom-bins-error-salary').textContent(), 'Edge 3 (400000) is outside the range 0 to 300000.');

  // A bin width goes as ?salary.width=, and the CSV export uses the same query.
  const widthRequest = page.waitForRequest((request) => /\/results\?salary\.width=20000$/.test(request.url()));
  await page.getByTestId('custom-edges-salary').fill('');
  await page.getByTestId('custom-bin-width-salary').fill('20000');
  await page.getByTestId('custom-bin-width-salary').press('Enter');
  await widthRequest;
  assert.equal(await page.getByTestId('custom-bins-error-salary').isHidden(), true);
  await page.locator('[data-testid="histogram-table-salary-custom"] tbody tr').nth(14).waitFor();
  assert.equal(await page.locator('[data-testid="histogram-table-salary-custom"] tbody tr').count(), 15);
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  assert.equal(csv.url(), `${fixture.server.baseUrl}/api/surveys/${SIMULATED.id}/results.csv?salary.width=20000`);
  const csvText = await readDownload(csv);
  assert.match(csvText, /"tax bands \[0, 12570\)"/);
  assert.match(csvText, /"custom \[280000, 300000\]"/);
  await screenshot(page, 'desktop-histogram-dashboard-custom');

  // Bins the server refuses (simulated: the page accepts nothing it is known
  // to refuse) are explained next to the control, and the accepted ones come back.
  await page.route(/\/results\?salary\.width=30000$/, (route) => route.fulfill({
    status: 400, contentType: 'application/json',
    body: JSON.stringify({ error: { code: 'invalid_query', message: 'question "salary": width is refused for this test' } }),
  }));
  await page.getByTestId('custom-bin-width-salary').fill('30000');
  await page.getByTestId('custom-bin-width-salary').press('Enter');
  await page.locator('[data-testid="custom-bins-error-salary"]',
    { hasText: 'The server refused these bins: question "salary": width is refused for this test' }).waitFor();
  assert.equal(await page.getByTestId('custom-bin-width-salary').inputValue(), '20000');
  await page.waitForRequest((request) => /\/results\?salary\.width=20000$/.test(request.url()));
  assert.equal(await page.getByTestId('poll-status').isVisible(), false);

  // The JSON export is the results document on screen, custom bins included.
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
  const exported = JSON.parse(await readDownload(json));
  assert.equal(exported.questions[0].type, 'histogram');
  assert.equal(exported.questions[0].custom.bins.length, 15);
  assert.equal(exported.questions[0].histograms.length, 4);
  assert.deepEqual(unexpectedProblems(log, [/Failed to load resource: the server responded with a status of 400/]), []);
  await page.close();
});

test('the histogram survey page, report and dashboard fit a phone', async () => {
  await onPhone(async ({ page, log }) => {
    const fits = (path) => assertFits(page, path);
    await page.goto(`${fixture.server.baseUrl}/s/${SURVEY.id}`);
    await forgetDevice(page);
    await page.getByTestId('survey-form').waitFor();
    await fits('survey');
    for (const testid of ['slider-salary', 'number-salary', 'review-answers']) {
      const { height } = await page.getByTestId(testid).boundingBox();
      assert.ok(height >= 44, `${testid} is only ${height}px tall`);
    }
    await screenshot(page, 'phone-histogram-survey');
    await page.getByTestId('number-salary').fill(String(TRUE_SALARY));
    await reviewAnswers(page, 'tap');
    await page.getByTestId('prepare-report').tap();
    await page.getByTestId('report-panel').waitFor();
    await page.locator('[data-testid="report-details-salary"] summary').tap();
    await fits('report');
    await screenshot(page, 'phone-histogram-report');

    await page.goto(`${fixture.server.baseUrl}/results/${SIMULATED.id}`);
    await page.getByTestId('histogram-chart-salary-3').waitFor();
    await fits('dashboard');
    assert.deepEqual(await axeViolationsAtWidth(page, 'main'), [], 'the dashboard at 320 px');
    await screenshot(page, 'phone-histogram-dashboard');
    assert.deepEqual(unexpectedProblems(log), []);
    await page.close();
  });
});

test('the creation page builds a histogram question with the core\'s budget, advice and messages', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/create`);
  const editor = page.getByTestId('question-editor-0');
  await editor.waitFor();
  await page.getByTestId('survey-id').fill('pay');
  await page.getByTestId('survey-title-input').fill('Pay');
  await editor.getByTestId('question-type').selectOption('histogram');
  assert.equal(await editor.getByTestId('question-options').isVisible(), false, 'no options for a histogram question');
  await editor.getByTestId('question-id').fill('salary');
  await editor.getByTestId('question-text').fill(QUESTION.text);
  await editor.getByTestId('question-low').fill('0');
  await editor.getByTestId('question-high').fill('300000');
  await editor.getByTestId('question-unit').fill('USD');
  // The first consumer: three equal bins; a second, added with the keyboard: the tax bands' edges.
  const first = page.getByTestId('consumer-0');
  await first.getByTestId('consumer-name').fill('thirds');
  await first.getByTestId('consumer-bins').fill('3');
  assert.equal(await first.getByTestId('remove-consumer').isVisible(), false, 'one consumer cannot be removed');
  await editor.getByTestId('add-consumer').focus();
  await page.keyboard.press('Enter');
  assert.equal((await focusedElement(page)).testid, 'consumer-name', 'the new consumer\'s name has focus');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('tax bands');
  const second = page.getByTestId('consumer-1');
  await second.getByTestId('consumer-mode').selectOption('edges');
  await second.getByTestId('consumer-edges').fill('0, 12570, 50270, 125140, 300000');
  await editor.getByTestId('question-epsilon').fill('3');

  const definition = JSON.parse(await page.getByTestId('definition-json').textContent());
  assert.deepEqual(definition.questions[0], {
    id: 'salary', text: QUESTION.text, type: 'histogram', range: [0, 300000], unit: 'USD',
    histograms: [{ name: 'thirds', bins: 3 }, { name: 'tax bands', edges: [0, 12570, 50270, 125140, 300000] }],
    mechanism: { name: 'oue', epsilon: 3 },
  });
  assert.equal(await page.getByTestId('validation').getAttribute('data-state'), 'success');
  // The fine ranges merge both consumers' edges: 0, 12570, 50270, 100000, 125140, 200000, 300000.
  assert.equal(await editor.getByTestId('question-privacy').textContent(),
    'This question: ε = 3 (one report of 6 bits serves both data consumers)');
  // Over these 6 fine ranges the core's advice prefers SUE to OUE (the
  // default); one click switches to it, and the button goes.
  assert.equal(await page.getByTestId('advice-recommended-0').getAttribute('data-mechanism'), 'sue');
  assert.equal(await page.locator('[data-testid="advice-0"] tbody tr').count(), 2);
  assert.deepEqual(await axeViolationsAtWidth(page, '.advice'), [], 'the advice table at 320 px');
  await page.getByTestId('use-recommended-0').click();
  assert.equal(await editor.getByTestId('question-histogram-mechanism').inputValue(), 'sue');
  assert.equal((await focusedElement(page)).testid, 'question-histogram-mechanism');
  assert.equal(await page.getByTestId('use-recommended-0').count(), 0);

  // The core's message, naming the field, for edges that stop short of the range's high end.
  await second.getByTestId('consumer-edges').fill('0, 12570, 50270, 125140');
  assert.equal(await editor.getByTestId('question-privacy').textContent(),
    'This question: histograms[1].edges[3]: must be the range\'s high end 300000, but is 125140');
  assert.equal(await page.getByTestId('validation').getAttribute('data-state'), 'error');
  assert.equal(await page.getByTestId('create-survey').isDisabled(), true);
  await second.getByTestId('consumer-edges').fill('0, 12570, 50270, 125140, 300000');

  // A removed consumer leaves the definition; focus moves to the row that remains.
  await page.getByTestId('consumer-1').getByTestId('remove-consumer').click();
  assert.equal((await focusedElement(page)).testid, 'consumer-name');
  assert.deepEqual(JSON.parse(await page.getByTestId('definition-json').textContent()).questions[0].histograms, [{ name: 'thirds', bins: 3 }]);

  await page.getByTestId('admin-token').fill(fixture.server.adminToken);
  await page.getByTestId('create-survey').click();
  await page.getByTestId('create-success').waitFor();
  const created = await requestJson(fixture.server.baseUrl, '/api/surveys/pay');
  assert.equal(created.status, 200);
  assert.equal(created.body.questions[0].type, 'histogram');
  assert.deepEqual(created.body.questions[0].histograms, [{ name: 'thirds', bins: 3 }]);
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

