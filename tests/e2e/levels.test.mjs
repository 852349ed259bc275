// Privacy levels (the numeric mechanism "levels", Hao et al. 2023) end to
// end: an income question on [0, 200000] USD whose middle interval
// [20000, 100000) is less private (ε 3) than the two ends (ε 1), created
// over the API.
// (a) Answered with the keyboard: the privacy summary shows the core's exact
//     ε (not the paper's 3); the report is one of the core's report values,
//     shown in words as a range and a direction with how often each tells the
//     truth; the exact ε and the paper's claim (as a claim) sit behind a
//     closed disclosure; the true answer is in no request.
// (b) 300 simulated respondents (seeded answers, reports made in Node by the
//     same WebAssembly core) on an admin-only copy: the dashboard, opened
//     with the admin token, shows the "Privacy levels" section with the
//     server's HierA mean, the 2 levels' shares, their chart, the exact ε and
//     the pair matrix next to the paper's claim; μ = 2 and clamp reload it.
// (c) 390 px and 1280 px: no horizontal scrolling, and the shares chart drew bars.
// (d) The creation page: levels chosen, boundaries and ε typed, the core's
//     exact ε and the paper's claim, the advisor's table, the core's message.
//
// The seeds are fixed, so the dashboard's numbers are the same on every run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadCore } from '../../web/src/core.js';
import { formatNumber, formatPercent } from '../../web/src/shared/format.js';
import { onPhone, openRecordedPage, unexpectedProblems } from './support/browser.mjs';
import { tabUntil } from './support/keyboard.mjs';
import { createSeededGenerator } from './support/seeded-generator.mjs';
import { postSimulatedReports, useServerAndBrowser } from './support/fixture.mjs';
import { requestJson } from './support/server.mjs';
import { assertFits, colourPixels, screenshot } from './support/page-checks.mjs';
import { forgetDevice } from './support/device.mjs';
import { prepareShownReport, reviewAnswers, sendShownReport } from './support/survey-steps.mjs';
import { axeViolationsAtWidth } from './support/axe.mjs';

const RESPONDENTS = 300;
const ANSWER_SEED = 20261124;
const REPORT_SEED_BASE = 7_000_000;
const TRUE_INCOME = 48250;  // typed; in the middle interval (level 1, ε 3)
const BAR_COLOR = [59, 111, 216];  // charts.js's bars, #3b6fd8

const QUESTION = {
  id: 'income', text: 'What is your yearly income?', type: 'numeric', range: [0, 200000], unit: 'USD',
  mechanism: { name: 'levels', boundaries: [20000, 100000], epsilons: [1, 3, 1], variant: 'paper' },
};
const SURVEY = {
  format: 'deniable.survey/v1',
  id: 'income-levels',
  version: 1,
  title: 'Income by privacy levels',
  description: 'One numeric question whose middle range is less private.',
  results: 'public',
  access: 'open',
  questions: [QUESTION],
};
// The simulated respondents answer an admin-only copy, so that the keyboard
// test's report (randomised by the OS) does not enter the dashboard's numbers.
const SIMULATED = { ...SURVEY, id: 'income-levels-simulated', results: 'admin' };

// As the survey page words a probability ("73%", "4.7%").
const PERCENT = new Intl.NumberFormat('en', { style: 'percent', maximumSignificantDigits: 2 });

const fixture = useServerAndBrowser({ surveys: [SURVEY, SIMULATED] });
const core = await loadCore();
// The core's description of the mechanism (privacy.details).
const details = core.parseSurvey(SURVEY).questions[0].privacy.details;

// The number as a token of its own, with or without a thousands separator.
function containsAnswer(text) {
  return /(^|[^\d.])48,?250(?![\d])/.test(text);
}

// "0 to 20,000 or 100,000 to 200,000 USD", as the page words a level (the
// dashboard's table has the unit in its column title instead).
function levelText(level, unit = 'USD') {
  const format = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });
  const ranges = level.intervals.map(({ low, high }) => `${format.format(low)} to ${format.format(high)}`).join(' or ');
  return unit ? `${ranges}\u00a0${unit}` : ranges;
}

test('a levels question answered with the keyboard sends one report value, shown as a range and a direction', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/s/${SURVEY.id}`);
  await forgetDevice(page);
  await page.getByTestId('survey-form').waitFor();
  // The exact ε, larger than the paper's claimed 3, in the summary.
  assert.ok(details.exact_epsilon > 3.5, `exact ε ${details.exact_epsilon}`);
  assert.equal(await page.getByTestId('privacy-income').textContent(), `Question 1: ε = ${formatNumber(details.exact_epsilon)} (Privacy levels)`);
  assert.match(await page.getByTestId('total-epsilon').textContent(), new RegExp(`ε = ${formatNumber(details.exact_epsilon).replace('.', '\\.')}`));
  assert.ok(!(await page.getByTestId('privacy-summary').textContent()).includes('claim'), 'no claim in the summary');

  await tabUntil(page, (focused) => focused.testid === 'number-income', 'the typed income');
  await page.keyboard.type(String(TRUE_INCOME));
  await reviewAnswers(page, 'keyboard');
  // One value, one of the core's 2k report values (compared exactly).
  const shownText = await prepareShownReport(page, log);
  const shown = JSON.parse(shownText);
  assert.deepEqual(Object.keys(shown.responses), ['income']);
  assert.equal(shown.responses.income.length, 1);
  const report = details.reports.find(({ value }) => value === shown.responses.income[0]);
  assert.ok(report, `${shown.responses.income[0]} is one of ${details.reports.map(({ value }) => value)}`);
  const level = details.levels[report.level - 1];

  // In words: the range(s) of the reported level and the direction.
  assert.match(await page.getByTestId('report-income').textContent(), level.intervals.length > 1 ? /Ranges reported: / : /Range reported: /);
  assert.equal(await page.getByTestId('report-value-income').textContent(), levelText(level));
  assert.equal(await page.getByTestId('report-direction-income').textContent(),
    report.bit > 0 ? 'towards the top of the whole range (200,000\u00a0USD)' : 'towards the bottom of the whole range (0\u00a0USD)');
  const item = await page.getByTestId('report-income').textContent();
  const [strict, lenient] = [details.levels[1].level_kept, details.levels[0].level_kept];
  assert.ok(item.includes(`Your true range is reported ${PERCENT.format(strict)} to ${PERCENT.format(lenient)} of the time`), item);
  assert.ok(item.includes(`it is then reversed ${PERCENT.format(1 - level.bit_kept)} of the time for the range reported`), item);
  assert.equal(await page.getByTestId('report-note-income').textContent(),
    'How often your true range is reported, by range (stricter ranges are reported truthfully less often): ' +
    `${levelText(details.levels[0])}: ${PERCENT.format(lenient)}; ${levelText(details.levels[1])}: ${PERCENT.format(strict)}.`);
  // No jargon in the main text: ε and the paper only behind the closed disclosure.
  const disclosure = page.getByTestId('report-details-income');
  assert.equal(await disclosure.getAttribute('open'), null);
  const plain = item.replace(await disclosure.textContent(), '');
  for (const word of ['ε', 'LHP', 'GRR', 'paper']) assert.ok(!plain.includes(word), `"${word}" in the main text: ${plain}`);
  await disclosure.locator('summary').click();
  const technical = await disclosure.textContent();
  assert.ok(technical.includes(`Exact ε = ${formatNumber(details.exact_epsilon)}`), technical);
  assert.ok(technical.includes('The paper’s claim (not a guarantee): ε = 3.'), technical);
  assert.ok(technical.includes(`This report: the value ${report.value} stands for level ${report.level}`), technical);
  await screenshot(page, 'desktop-levels-report');
  await assertFits(page, 'the report at 1280 px');

  await sendShownReport(page, log, shownText);
  for (const request of log.requests) {
    for (const text of [decodeURIComponent(request.url), request.body ?? '']) {
      assert.ok(!containsAnswer(text), `a request carries the true answer: ${request.method} ${request.url} ${request.body ?? ''}`);
    }
  }
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

// A fifth of the answers below 20,000, 60% in the middle, the rest above.
function simulateAnswers() {
  const generator = createSeededGenerator(ANSWER_SEED);
  const pieces = [[0, 20000], [20000, 100000], [100000, 200000]];
  return Array.from({ length: RESPONDENTS }, () => {
    const [low, high] = pieces[generator.pick([0.2, 0.6, 0.2])];
    return Math.round(low + (high - low) * generator.nextUnit());
  });
}

test('the dashboard shows the privacy levels: HierA mean, shares, exact ε and the pair matrix', async (t) => {
  const answers = simulateAnswers();
  await postSimulatedReports(fixture.server, SIMULATED, answers.map((income) => ({ income })), REPORT_SEED_BASE);
  const results = await requestJson(fixture.server.baseUrl, `/api/surveys/${SIMULATED.id}/results`, { headers: { Authorization: `Bearer ${fixture.server.adminToken}` } });
  assert.equal(results.status, 200);
  const entry = results.body.questions[0];
  const estimates = entry.mechanism_estimates;
  assert.equal(estimates.method, 'hiera');
  assert.equal(entry.privacy.epsilon, details.exact_epsilon);

  // Admin-only: the dashboard asks for the token.
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/results/${SIMULATED.id}`);
  await page.getByTestId('admin-token-form').waitFor();
  await page.getByTestId('admin-token').fill(fixture.server.adminToken);
  await page.getByTestId('admin-token-submit').click();
  await page.locator('[data-testid="n-income"]', { hasText: /^300$/ }).waitFor({ timeout: 30_000 });
  const section = page.getByTestId('levels-income');
  await section.waitFor();

  // The exact ε, never the paper's 3, as the question's privacy.
  assert.equal(await page.getByTestId('epsilon-income').textContent(), `ε = ${formatNumber(details.exact_epsilon)}`);
  assert.equal(await page.getByTestId('levels-epsilon-income').textContent(),
    `Privacy of each report: ε = ${formatNumber(details.exact_epsilon)} (exact, for the level and the direction reported together).`);
  assert.match(await page.getByTestId('mechanism-income').textContent(), /Privacy levels by range .*paper variant: 3 intervals, budgets 1, 3, 1/);

  // The HierA mean with the server's interval, near the truth.
  const mean = page.getByTestId('levels-mean-income');
  assert.match(await mean.textContent(), /^Mean \(HierA, μ = 1\): [\d,]+\u00a0USD, 95% interval [\d,]+ to [\d,]+\u00a0USD \(standard error [\d,]+\)\.$/);
  assert.equal(Number(await mean.getAttribute('data-value')), estimates.mean.value);
  assert.equal(Number(await mean.getAttribute('data-low')), estimates.mean.ci_low);
  assert.equal(Number(await mean.getAttribute('data-high')), estimates.mean.ci_high);
  const trueMean = answers.reduce((sum, x) => sum + x, 0) / answers.length;
  const z = (estimates.mean.value - trueMean) / estimates.mean.std_error;
  t.diagnostic(`true mean ${trueMean.toFixed(0)}, HierA ${estimates.mean.value.toFixed(0)} ± ${estimates.mean.std_error.toFixed(0)} (z ${z.toFixed(2)})`);
  assert.ok(Math.abs(z) < 4, `the HierA mean is ${z.toFixed(1)} standard errors from the truth`);

  // Two levels (the ends share ε 1), each with the server's share and interval.
  assert.equal(await page.locator('[data-testid="levels-table-income"] tbody tr').count(), 2);
  assert.equal(estimates.levels.length, 2);
  const truth = [answers.filter((x) => x >= 20000 && x < 100000).length / RESPONDENTS];
  truth.push(1 - truth[0]);
  for (const [index, level] of estimates.levels.entries()) {
    const key = `income-${level.level}`;
    const row = page.getByTestId(`levels-row-${key}`);
    assert.equal(await row.locator('td').nth(0).textContent(), levelText(details.levels[index], ''));
    assert.equal(await row.locator('td').nth(1).textContent(), formatNumber(level.epsilon));
    assert.equal(await page.getByTestId(`levels-reports-${key}`).textContent(), level.reported.toLocaleString('en'));
    assert.equal(await page.getByTestId(`levels-share-${key}`).textContent(), formatPercent(level.share));
    assert.equal(Number(await page.getByTestId(`levels-share-${key}`).getAttribute('data-value')), level.share);
    assert.equal(await page.getByTestId(`levels-ci-${key}`).textContent(), `${formatPercent(level.ci_low)}\u00a0to ${formatPercent(level.ci_high)}`);
    const zShare = (level.share_unclipped - truth[index]) / level.std_error;
    t.diagnostic(`level ${level.level}: truth ${truth[index].toFixed(3)}, share ${level.share.toFixed(3)} [${level.ci_low.toFixed(3)}, ${level.ci_high.toFixed(3)}]`);
    assert.ok(Math.abs(zShare) < 4, `level ${level.level}: ${zShare.toFixed(1)} standard errors from the truth`);
  }
  assert.ok(await colourPixels(page, 'levels-chart-income', BAR_COLOR) > 200, 'the shares chart drew its bars');

  // The pair matrix: exact values next to the paper's claim, behind a closed disclosure.
  const pairs = page.getByTestId('levels-pairs-income');
  assert.equal(await pairs.getAttribute('open'), null);
  assert.equal(await page.getByTestId('levels-pairs-exact-income').isVisible(), false);
  await pairs.locator('summary').click();
  const exactTable = page.getByTestId('levels-pairs-exact-income');
  const claimedTable = page.getByTestId('levels-pairs-claimed-income');
  assert.match(await exactTable.locator('.pair-caption').textContent(), /^Exact ε \(guaranteed/);
  assert.match(await claimedTable.locator('.pair-caption').textContent(), /^The paper’s claim \(not a guarantee/);
  const cells = async (table) => table.locator('tbody td').allTextContents();
  assert.deepEqual(await cells(exactTable), details.pair_epsilons.flat().map(formatNumber));
  assert.deepEqual(await cells(claimedTable), details.paper_claimed_pair_epsilons.flat().map(formatNumber));
  await screenshot(page, 'desktop-levels-dashboard');
  await assertFits(page, 'the dashboard at 1280 px');

  // μ = 2 goes to the server as ?mu=2 and the section shows it.
  await page.getByTestId('numeric-levels-controls').waitFor();
  const muRequest = page.waitForRequest((request) => /\/results\?mu=2$/.test(request.url()));
  await page.getByTestId('numeric-mu').selectOption('2');
  const reloaded = await (await (await muRequest).response()).json();
  assert.equal(reloaded.questions[0].mechanism_estimates.mu, 2);
  await page.locator('[data-testid="levels-mean-income"]', { hasText: /^Mean \(HierA, μ = 2\)/ }).waitFor();
  assert.equal(Number(await mean.getAttribute('data-value')), reloaded.questions[0].mechanism_estimates.mean.value);
  // Clamped: an interval only when no column was clamped, else the server's note.
  const clampRequest = page.waitForRequest((request) => /\/results\?mu=2&clamp=true$/.test(request.url()));
  await page.getByTestId('numeric-clamp').check();
  const clamped = (await (await (await clampRequest).response()).json()).questions[0].mechanism_estimates;
  assert.equal(clamped.clamp, true);
  await page.locator('[data-testid="levels-mean-income"]', { hasText: /^Mean \(HierA, μ = 2, clamped\)/ }).waitFor();
  if (clamped.mean.ci_low === null) assert.ok((await mean.textContent()).includes(`No interval: ${clamped.mean.note}.`));
  else assert.match(await mean.textContent(), /95% interval/);
  // The CSV export (admin-only: fetched with the token) uses the same query.
  const csvRequest = page.waitForRequest((request) => request.url().includes('/results.csv'));
  await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  assert.equal((await csvRequest).url(), `${fixture.server.baseUrl}/api/surveys/${SIMULATED.id}/results.csv?mu=2&clamp=true`);
  assert.deepEqual(unexpectedProblems(log, [/Failed to load resource: the server responded with a status of 40[13]/]), []);
  await page.close();
});

test('the levels survey page, report and dashboard fit a phone, and the shares chart draws', async () => {
  await onPhone(async ({ page, log }) => {
    await page.goto(`${fixture.server.baseUrl}/s/${SURVEY.id}`);
    await forgetDevice(page);
    await page.getByTestId('survey-form').waitFor();
    await page.getByTestId('number-income').fill('150000');
    await reviewAnswers(page, 'tap');
    await page.getByTestId('prepare-report').tap();
    await page.getByTestId('report-panel').waitFor();
    await page.getByTestId('report-details-income').locator('summary').tap();
    await assertFits(page, 'the report at 390 px');
    await screenshot(page, 'phone-levels-report');

    // The admin token lives in this tab's sessionStorage once typed.
    await page.goto(`${fixture.server.baseUrl}/results/${SIMULATED.id}`);
    await page.getByTestId('admin-token-form').waitFor();
    await page.getByTestId('admin-token').fill(fixture.server.adminToken);
    await page.getByTestId('admin-token-submit').tap();
    await page.getByTestId('levels-income').waitFor();
    await page.locator('[data-testid="levels-share-income-1"]', { hasText: /%$/ }).waitFor();
    await page.getByTestId('levels-pairs-income').locator('summary').tap();
    await assertFits(page, 'the dashboard at 390 px');
    assert.deepEqual(await axeViolationsAtWidth(page, 'main'), [], 'the dashboard at 320 px');
    assert.ok(await colourPixels(page, 'levels-chart-income', BAR_COLOR) > 100, 'the shares chart drew its bars');
    await screenshot(page, 'phone-levels-dashboard');
    assert.deepEqual(unexpectedProblems(log, [/Failed to load resource: the server responded with a status of 40[13]/]), []);
    await page.close();
  });
});

test('the creation page builds a levels question with the core\'s exact ε, the paper\'s claim and the advisor', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/create`);
  const editor = page.getByTestId('question-editor-0');
  await editor.waitFor();
  await page.getByTestId('survey-id').fill('income-built');
  await page.getByTestId('survey-title-input').fill(SURVEY.title);
  await editor.getByTestId('question-type').selectOption('numeric');
  await editor.getByTestId('question-id').fill(QUESTION.id);
  await editor.getByTestId('question-text').fill(QUESTION.text);
  await editor.getByTestId('question-low').fill('0');
  await editor.getByTestId('question-high').fill('200000');
  await editor.getByTestId('question-unit').fill('USD');
  assert.equal(await editor.getByTestId('question-boundaries').isVisible(), false, 'only for privacy levels');
  await editor.getByTestId('question-numeric-mechanism').selectOption('levels');
  assert.equal(await editor.getByTestId('question-epsilon').isVisible(), false, 'an ε per interval instead');
  await editor.getByTestId('question-boundaries').fill('20000, 100000');
  await editor.getByTestId('question-epsilons').fill('1 3 1');

  const definition = JSON.parse(await page.getByTestId('definition-json').textContent());
  assert.deepEqual(definition.questions[0], QUESTION);
  assert.equal(await page.getByTestId('validation').getAttribute('data-state'), 'success');
  const exact = formatNumber(details.exact_epsilon);
  assert.equal(await editor.getByTestId('question-privacy').textContent(),
    `This question: ε = ${exact} (exact, for the range and direction reported together; 2 privacy levels). The paper’s claim (not a guarantee): ε = 3.`);
  assert.equal(await page.getByTestId('total-epsilon').textContent(), `ε = ${exact}`);

  // The advisor: the core's rows for 1000 respondents, the best one marked.
  const advice = core.designAdvice(definition, QUESTION.id, 1000);
  const table = editor.getByTestId('advice-table-0');
  await table.waitFor();
  assert.equal(await table.locator('tbody tr').count(), advice.rows.length);
  assert.equal(await table.locator('tbody tr').first().locator('th').textContent(), 'This question (paper variant)');
  assert.equal(await editor.getByTestId('advice-recommended-0').getAttribute('data-mechanism'), advice.best);
  assert.equal(await table.locator('tr.recommended').getAttribute('data-mechanism'), advice.best);
  await screenshot(page, 'desktop-levels-create');
  assert.deepEqual(await axeViolationsAtWidth(page, '.advice'), [], 'the advice table at 320 px');

  // Bounded: the paper's statement holds, and the exact ε is the core's (at most the largest budget).
  await editor.getByTestId('question-levels-variant').selectOption('bounded');
  const bounded = core.parseSurvey(JSON.parse(await page.getByTestId('definition-json').textContent())).questions[0].privacy.details;
  assert.equal(bounded.variant, 'bounded');
  assert.ok(bounded.exact_epsilon <= 3 + 1e-9, `bounded exact ε ${bounded.exact_epsilon}`);
  assert.equal(await editor.getByTestId('question-privacy').textContent(),
    `This question: ε = ${formatNumber(bounded.exact_epsilon)} (exact; 2 privacy levels; every pair of answers within the ε the paper states for it)`);
  assert.equal(await editor.getByTestId('advice-table-0').locator('tbody tr').first().locator('th').textContent(), 'This question (bounded variant)');

  // One ε too few: the core's message, naming the field; nothing can be created.
  await editor.getByTestId('question-epsilons').fill('1, 3');
  assert.match(await editor.getByTestId('question-privacy').textContent(), /^This question: mechanism\.epsilons/);
  assert.equal(await page.getByTestId('validation').getAttribute('data-state'), 'error');
  assert.equal(await page.getByTestId('create-survey').isDisabled(), true);
  await editor.getByTestId('question-epsilons').fill('1, 3, 1');

  await page.getByTestId('admin-token').fill(fixture.server.adminToken);
  await page.getByTestId('create-survey').click();
  await page.getByTestId('create-success').waitFor();
  const created = await requestJson(fixture.server.baseUrl, '/api/surveys/income-built');
  assert.equal(created.status, 200);
  assert.deepEqual(created.body.questions[0].mechanism, { ...QUESTION.mechanism, variant: 'bounded' });
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

