// Questions answered in confidence ("privacy": "central") end to end: a
// survey of one central categorical question, one central histogram question
// whose admins may see exact counts, and one local categorical question
// (the pure negative survey, which never reports the true option), created
// over the API.
// (a) Before anything is answered, the survey page says which questions are
//     answered in confidence and which are randomised on the device; each
//     central question carries the line. Answered with the keyboard: the
//     report shows a central answer as given, in words (the technical terms
//     behind a closed disclosure), the local one as before; the body sent is
//     the JSON shown, the central responses are the answers, the local
//     response does not name the true option.
// (b) 390 px: the notice, the questions and the report fit a phone.
// (c) The dashboard (public results): nothing released yet and no exact
//     counts; the admin signs in from a panel, releases with the form (dp_base,
//     ε 0.5), sees it in the ledger (spent, left), the chart and the table
//     with the server's numbers, the consistent values, and the refusal of a
//     release beyond what is left, word for word; exact counts only where the
//     definition allows them. A reload and a reader without the token see the
//     same release. 1280 px and 390 px fit. Post-processing: clamped and
//     rounded values (the server's, non-negative whole numbers, with the raw
//     release's intervals, said so), also with the consistent ones. Scheduled
//     releases: the form's "When" (a count the question already has is asked
//     again, not sent), the reserved ε and the scheduled row; two more answers
//     and the server has made it; another one cancelled with its button.
// (d) The creation page: "Who sees the answer" for the kinds that can be
//     answered in confidence, the budget and exact-counts choice instead of
//     the mechanism, and the definition it creates.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadCore } from '../../web/src/core.js';
import { formatNumber } from '../../web/src/shared/format.js';
import { DESKTOP, launchBrowser, onPhone, openRecordedPage, PHONE, unexpectedProblems } from './support/browser.mjs';
import { focusedElement, tabUntil } from './support/keyboard.mjs';
import { postSimulatedReports, useServerAndBrowser } from './support/fixture.mjs';
import { postReports, requestJson } from './support/server.mjs';
import { assertFits, colourPixels, screenshot } from './support/page-checks.mjs';
import { axeViolationsAtWidth } from './support/axe.mjs';
import { forgetDevice } from './support/device.mjs';
import { prepareShownReport, reviewAnswers, sendShownReport } from './support/survey-steps.mjs';

const DRUG = {
  id: 'drug', text: 'Which substance did you use last month?', type: 'categorical',
  options: ['None', 'Cannabis', 'Other'], privacy: 'central', budget: 1, admin_sees_counts: false,
};
const AGE = {
  id: 'age', text: 'How old are you?', type: 'histogram', range: [0, 100], unit: 'years',
  histograms: [{ name: 'decades', bins: 10 }, { name: 'halves', bins: 2 }],
  privacy: 'central', budget: 2, admin_sees_counts: true,
};
// The pure negative survey: the reported options are never the true one.
const STRESS = {
  id: 'stress', text: 'What stresses you most?', type: 'categorical',
  options: ['Work', 'Money', 'Family', 'Health'], mechanism: { name: 'negative', reported_options: 2 },
};
const SURVEY = {
  format: 'deniable.survey/v1',
  id: 'confidential-e2e',
  version: 1,
  title: 'Health and age',
  description: 'Two questions answered in confidence and one randomised on your device.',
  results: 'public',
  access: 'open',
  questions: [DRUG, AGE, STRESS],
};
// A copy for the phone, so that its report does not change the dashboard's n.
const PHONE_SURVEY = { ...SURVEY, id: 'confidential-phone' };

const TRUE = { drug: 1, age: 37, stress: 2 };  // "Cannabis", 37 years, "Family"
const MORE_REPORTS = 40;
const REPORT_SEED_BASE = 9_100_000;
const OWN_INTERVAL_COLOR = [0x3b, 0x6f, 0xd8];  // central/dashboard-chart.js: a bin with its own interval
const ADMIN_PROBLEMS = [/Failed to load resource: the server responded with a status of (401|403|409|400)/];

const fixture = useServerAndBrowser({ surveys: [SURVEY, PHONE_SURVEY] });
const core = await loadCore();
const admin = () => ({ Authorization: `Bearer ${fixture.server.adminToken}` });

async function answerRadio(page, questionIndex, optionIndex) {
  const name = `answer-${questionIndex}`;
  await tabUntil(page, (focused) => focused.name === name, `question ${questionIndex + 1}`);
  await page.keyboard.press('Space');
  for (let step = 0; step < optionIndex; step += 1) await page.keyboard.press('ArrowDown');
  const focused = await focusedElement(page);
  assert.equal(focused.value, String(optionIndex));
  assert.equal(focused.checked, true);
}

test('the survey page says which questions are answered in confidence before any answer, and sends those as given', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/s/${SURVEY.id}`);
  await forgetDevice(page);
  await page.getByTestId('survey-form').waitFor();

  // Before answering: nothing is filled in, and the notice is there, above the first question.
  assert.equal(await page.locator('input[type="radio"]:checked').count(), 0);
  assert.equal(await page.getByTestId('number-age').inputValue(), '');
  // It comes with the client core, which the page loads after drawing the questions.
  const notice = page.getByTestId('trust-notice');
  await notice.waitFor();
  assert.ok(await notice.isVisible(), 'the notice is visible before answering');
  const noticeBox = await notice.boundingBox();
  const firstQuestionBox = await page.getByTestId('question-drug').boundingBox();
  assert.ok(noticeBox.y + noticeBox.height <= firstQuestionBox.y, 'the notice comes before the first question');
  const central = await page.getByTestId('trust-central').textContent();
  assert.match(central, /Answered in confidence \(2 questions\)/);
  assert.match(central, /receives your answer as you give it/);
  assert.match(central, /publishes only statistics of everyone’s answers with random noise added, so no published number reveals your answer/);
  assert.deepEqual(await page.getByTestId('trust-central-list').locator('li').allTextContents(), [`1. ${DRUG.text}`, `2. ${AGE.text}`]);
  const local = await page.getByTestId('trust-local').textContent();
  assert.match(local, /Randomised on your device \(1 question\)/);
  assert.match(local, /Your true answer never leaves this device/);
  assert.deepEqual(await page.getByTestId('trust-local-list').locator('li').allTextContents(), [`3. ${STRESS.text}`]);

  // Each central question says so; the local one is unchanged; no mechanism words on the central ones.
  for (const id of ['drug', 'age']) {
    assert.match(await page.getByTestId(`confidence-${id}`).textContent(), /^Answered in confidence/);
    const text = await page.getByTestId(`question-${id}`).textContent();
    for (const word of ['p =', 'q =', 'randomis', 'GRR', 'OUE', 'ε']) assert.ok(!text.includes(word), `"${word}" on question ${id}: ${text}`);
  }
  assert.equal(await page.getByTestId('confidence-stress').count(), 0);
  assert.equal(await page.getByTestId('question-drug').locator('input[type="radio"]').count(), 3);
  assert.equal(await page.getByTestId('range-age').textContent(), 'Any value from 0\u00a0years to 100\u00a0years.');
  assert.equal(await page.getByTestId('privacy-drug').textContent(), 'Question 1: ε = 1 (answered in confidence: the budget of everything published about it)');
  assert.match(await page.getByTestId('privacy-stress').textContent(), /^Question 3: no formal epsilon \(Negative survey\)/);
  await screenshot(page, 'desktop-central-survey');
  await assertFits(page, 'the survey page at 1280 px');

  // Answered with the keyboard only.
  await answerRadio(page, 0, TRUE.drug);
  await tabUntil(page, (focused) => focused.testid === 'number-age', 'the typed age');
  await page.keyboard.type(String(TRUE.age));
  await answerRadio(page, 2, TRUE.stress);
  await reviewAnswers(page, 'keyboard');
  // The report: central answers as given, in words; the local one randomised, as before.
  const shownText = await prepareShownReport(page, log);
  const shown = JSON.parse(shownText);
  assert.equal(shown.responses.drug, TRUE.drug);
  assert.equal(shown.responses.age, TRUE.age);
  assert.equal(shown.responses.stress.length, 2);
  assert.ok(!shown.responses.stress.includes(TRUE.stress), `the negative survey reported the true option: ${shownText}`);
  assert.equal(await page.locator('#report-heading').textContent(), 'Your report');
  assert.equal(await page.getByTestId('report-value-drug').textContent(), 'Cannabis');
  assert.equal(await page.getByTestId('report-value-age').textContent(), '37\u00a0years');
  for (const id of ['drug', 'age']) {
    const item = await page.getByTestId(`report-${id}`).textContent();
    assert.match(item, /Sent as you gave it, in confidence: /);
    assert.match(item, /This answer is not randomised: the organisation receives it as it is and keeps it confidential/);
    const disclosure = page.getByTestId(`report-details-${id}`);
    assert.equal(await disclosure.getAttribute('open'), null, 'the technical details start closed');
    const plain = item.replace(await disclosure.textContent(), '');
    for (const word of ['ε', 'epsilon', 'p =', 'central differential']) assert.ok(!plain.includes(word), `"${word}" in the plain text: ${plain}`);
  }
  await page.getByTestId('report-details-age').locator('summary').click();
  assert.match(await page.getByTestId('report-details-age').textContent(), /spends at most ε = 2, its publication budget/);
  assert.equal(await page.getByTestId('report-value-stress').textContent(), shown.responses.stress.map((index) => STRESS.options[index]).join(', '));
  assert.match(await page.getByTestId('report-stress').textContent(), /Options sent as “not yours”: /);
  await screenshot(page, 'desktop-central-report');
  await assertFits(page, 'the report at 1280 px');

  await sendShownReport(page, log, shownText);
  const sent = JSON.parse(shownText);
  assert.deepEqual({ drug: sent.responses.drug, age: sent.responses.age }, { drug: TRUE.drug, age: TRUE.age }, 'central answers are sent as given');
  assert.ok(!sent.responses.stress.includes(TRUE.stress), 'the local answer is not identifiable in the body');
  assert.ok(!shownText.includes(`"${STRESS.options[TRUE.stress]}"`), 'no option label in the body');
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('the notice, the questions and the report fit a phone', async () => {
  await onPhone(async ({ page, log }) => {
    await page.goto(`${fixture.server.baseUrl}/s/${PHONE_SURVEY.id}`);
    await forgetDevice(page);
    await page.getByTestId('survey-form').waitFor();
    await page.getByTestId('trust-notice').waitFor();
    assert.ok(await page.getByTestId('trust-notice').isVisible());
    await assertFits(page, 'the survey page at 390 px');
    await screenshot(page, 'phone-central-survey');
    await page.locator('label.choice', { hasText: /^Other$/ }).tap();
    await page.getByTestId('number-age').fill('64');
    await page.locator('label.choice', { hasText: /^Work$/ }).tap();
    await reviewAnswers(page, 'tap');
    await page.getByTestId('prepare-report').tap();
    await page.getByTestId('report-panel').waitFor();
    await page.getByTestId('report-details-drug').locator('summary').tap();
    assert.equal(await page.getByTestId('report-value-drug').textContent(), 'Other');
    await assertFits(page, 'the report at 390 px');
    await screenshot(page, 'phone-central-report');
    assert.deepEqual(unexpectedProblems(log), []);
    await page.close();
  });
});

// The release table's values as shown (exact numbers from data-value).
async function shownValues(page, key, count) {
  const values = [];
  for (let index = 0; index < count; index += 1) {
    values.push(Number(await page.getByTestId(`release-value-${key}-${index}`).getAttribute('data-value')));
  }
  return values;
}

async function releasesOf(questionId, query = '') {
  const response = await requestJson(fixture.server.baseUrl, `/api/surveys/${SURVEY.id}/questions/${questionId}/releases${query}`);
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body;
}

async function answersOf(questionId) {
  return (await requestJson(fixture.server.baseUrl, `/api/surveys/${SURVEY.id}/results`)).body.questions.find((question) => question.id === questionId).n;
}

// The values shown, once they are `expected` (post-processed values are fetched).
async function waitForValues(page, key, expected) {
  const deadline = Date.now() + 5000;
  let shown;
  for (;;) {
    shown = await shownValues(page, key, expected.length);
    if (JSON.stringify(shown) === JSON.stringify(expected) || Date.now() > deadline) break;
    await page.waitForTimeout(50);
  }
  assert.deepEqual(shown, expected);
}

const isWholeAndNonNegative = (value) => Number.isInteger(value) && value >= 0;

// The clamp and round boxes on `release` of question `id` (`count` bins): the
// server's values, non-negative whole numbers, with the raw release's
// intervals, said so; with the consistent values too, no intervals; unticked,
// the raw counts again.
async function checkClampAndRound(page, id, release, count) {
  const raw = release.bins.map((bin) => bin.value);
  const rawIntervals = [];
  for (let index = 0; index < count; index += 1) rawIntervals.push(await page.getByTestId(`release-ci-${id}-${index}`).textContent());
  const fetched = page.waitForRequest((request) => request.url().endsWith(`/questions/${id}/releases?postprocess=clamp,round`));
  await page.getByTestId(`release-clamp-${id}`).check();
  await page.getByTestId(`release-round-${id}`).check();
  await fetched;
  const expected = (await releasesOf(id, '?postprocess=clamp,round')).releases.find((candidate) => candidate.id === release.id).postprocessed;
  await waitForValues(page, id, expected);
  assert.ok(expected.every(isWholeAndNonNegative), `clamped and rounded: ${expected}`);
  expected.forEach((value, index) => assert.equal(value, Math.round(Math.max(0, raw[index])), `bin ${index}: raw ${raw[index]}`));
  if (raw.some((value) => !isWholeAndNonNegative(value))) assert.notDeepEqual(expected, raw, 'clamping or rounding changed a value');
  for (let index = 0; index < count; index += 1) {
    assert.equal(await page.getByTestId(`release-ci-${id}-${index}`).textContent(), rawIntervals[index], `bin ${index} keeps the raw interval`);
  }
  const table = page.getByTestId(`release-table-${id}`);
  assert.deepEqual(await table.locator('thead th').allTextContents(), ['Bin', 'Clamped, rounded count', '95% interval (raw release)']);
  assert.match(await page.getByTestId(`release-postprocess-note-${id}`).textContent(),
    /negatives set to 0 and rounded to whole numbers, by the server.*The 95% intervals and error bars are those of the raw release, not of these values/);
  assert.match(await page.getByTestId(`release-total-${id}`).textContent(), /^Total of the raw release: /);
  for (const [index, view] of (release.views ?? []).entries()) {
    const shown = await shownValues(page, `${id}-view-${index}`, view.bins.length);
    assert.ok(shown.every(isWholeAndNonNegative), `view ${view.name}: ${shown}`);
    assert.equal(shown.reduce((sum, value) => sum + value, 0), expected.reduce((sum, value) => sum + value, 0), `view ${view.name} sums the cells`);
  }

  // With the consistent values too: the server's, without intervals.
  await page.getByTestId(`release-consistent-${id}`).check();
  const all = (await releasesOf(id, '?postprocess=consistent,clamp,round')).releases.find((candidate) => candidate.id === release.id).postprocessed;
  await waitForValues(page, id, all);
  assert.ok(all.every(isWholeAndNonNegative), `consistent, clamped and rounded: ${all}`);
  assert.equal(await page.getByTestId(`release-ci-${id}-0`).textContent(), '—');
  assert.deepEqual(await table.locator('thead th').allTextContents(), ['Bin', 'Consistent, clamped, rounded count', '95% interval']);
  assert.ok(await page.getByTestId(`release-consistent-note-${id}`).isVisible());

  for (const step of ['consistent', 'clamp', 'round']) await page.getByTestId(`release-${step}-${id}`).uncheck();
  assert.deepEqual(await shownValues(page, id, count), raw);
  assert.deepEqual(await table.locator('thead th').allTextContents(), ['Bin', 'Noisy count', '95% interval']);
  assert.equal(await page.getByTestId(`release-postprocess-note-${id}`).isVisible(), false);
  assert.equal(await page.getByTestId(`release-ci-${id}-0`).textContent(), rawIntervals[0]);
}

test('the dashboard shows releases only: the admin releases with the form, the ledger keeps count, a release past the budget is refused', async (t) => {
  // More respondents, from Node (central answers as given, the local one by the core).
  const moreAnswers = Array.from({ length: MORE_REPORTS }, (_, index) => ({ drug: index % 3, age: (index * 7 + 3) % 100, stress: index % 4 }));
  await postSimulatedReports(fixture.server, SURVEY, moreAnswers, REPORT_SEED_BASE);
  // With the keyboard respondent's report (the first test).
  const n = (await requestJson(fixture.server.baseUrl, `/api/surveys/${SURVEY.id}/results`)).body.questions.find((question) => question.id === 'age').n;
  assert.ok(n >= MORE_REPORTS, `n = ${n}`);

  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/results/${SURVEY.id}`);
  await page.locator('[data-testid="n-age"]', { hasText: new RegExp(`^${n}$`) }).waitFor();
  // Nothing released yet, and nothing else: no numbers, no exact counts, no release form without the token.
  for (const id of ['drug', 'age']) {
    assert.equal(await page.getByTestId(`nothing-released-${id}`).textContent(), 'Nothing released yet.');
    assert.equal(await page.getByTestId(`central-plain-${id}`).textContent(), 'Answered in confidence: only releases with added noise are published.');
    assert.equal(await page.getByTestId(`release-section-${id}`).isVisible(), false);
    assert.equal(await page.getByTestId(`release-form-${id}`).count(), 0);
    assert.equal(await page.getByTestId(`exact-counts-button-${id}`).count(), 0);
  }
  assert.equal(await page.getByTestId('epsilon-drug').textContent(), 'ε = 1');
  assert.equal(await page.getByTestId('epsilon-age').textContent(), 'ε = 2');
  assert.equal(await page.getByTestId('ledger-left-age').textContent(), '2');
  assert.equal(await page.getByTestId('histogram-controls').isVisible(), false, 'no estimation controls for releases');
  // The local question is drawn by its kind, as before.
  await page.getByTestId('table-stress').waitFor();

  // The admin signs in from the panel (the results are public: no token was asked for).
  await page.getByTestId('release-sign-in-age').click();
  await page.getByTestId('admin-token-form').waitFor();
  await page.getByTestId('admin-token').fill(fixture.server.adminToken);
  await page.getByTestId('admin-token-submit').click();
  const form = page.getByTestId('release-form-age');
  await form.waitFor();
  assert.equal((await focusedElement(page)).testid, 'release-method-age', 'focus moves to the form the admin asked for');
  // ε offered: half the budget (at most what is left).
  assert.equal(await page.getByTestId('release-epsilon-age').inputValue(), '1');
  assert.equal(await page.getByTestId('release-epsilon-drug').inputValue(), '0.5');
  // Exact counts only where the definition allows them.
  await page.getByTestId('exact-counts-button-age').waitFor();
  assert.equal(await page.getByTestId('exact-counts-button-age').textContent(), 'Show exact counts (not private)');
  assert.equal(await page.getByTestId('exact-counts-button-drug').count(), 0);

  // A release made with the form: dp_base, ε 0.5.
  await page.getByTestId('release-method-age').selectOption('dp_base');
  assert.match(await page.getByTestId('release-method-note-age').textContent(), /noise to every count/);
  await page.getByTestId('release-epsilon-age').fill('0.5');
  const posted = page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith(`/questions/age/releases`));
  // One click spends nothing: the page says what it will spend and asks (focus on its button).
  await page.getByTestId('release-submit-age').click();
  assert.equal(await page.getByTestId('release-confirm-text-age').textContent(),
    'Release now? It publishes noisy counts and spends ε 0.5 of this question’s budget for good. 1.5 will be left.');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'release-confirm-age');
  assert.equal(log.requests.filter((request) => request.method === 'POST' && request.url.endsWith('/questions/age/releases')).length, 0);
  await page.keyboard.press('Enter');
  assert.deepEqual(JSON.parse((await posted).postData()), { method: 'dp_base', epsilon: 0.5 });
  await page.getByTestId('ledger-row-age-r1').waitFor();
  assert.equal(await page.getByTestId('release-status-age').textContent(), 'Released r1 (dp_base, ε = 0.5): 0.5 of 2 spent, 1.5 left.');
  assert.equal(await page.getByTestId('ledger-spent-age').textContent(), '0.5');
  assert.equal(await page.getByTestId('ledger-left-age').textContent(), '1.5');
  const ledgerRow = await page.getByTestId('ledger-row-age-r1').locator('th, td').allTextContents();
  const { releases: [release] } = await releasesOf('age');
  assert.deepEqual(ledgerRow, ['r1', 'DP base', '0.5', release.created_at.replace('T', ' ').replace('Z', ''), String(n)]);
  assert.equal(release.respondents, n);

  // The release as the server stored it: the bins' values and intervals, the total, each consumer's view.
  await page.getByTestId('release-section-age').waitFor();
  assert.equal(await page.getByTestId('nothing-released-age').isVisible(), false);
  assert.equal(await page.locator('[data-testid="release-table-age"] tbody tr').count(), 10);
  assert.deepEqual(await shownValues(page, 'age', 10), release.bins.map((bin) => bin.value));
  for (const [index, bin] of release.bins.entries()) {
    assert.equal(await page.getByTestId(`release-ci-age-${index}`).textContent(), `${formatNumber(bin.ci_low)}\u00a0to ${formatNumber(bin.ci_high)}`);
  }
  assert.equal(await page.getByTestId('release-total-age').textContent(),
    `Total: ${formatNumber(release.total.value)} (95% interval ${formatNumber(release.total.ci_low)}\u00a0to ${formatNumber(release.total.ci_high)})`);
  assert.match(await page.getByTestId('release-facts-age').textContent(), new RegExp(`^DP base \\(noise on every count\\) · ε = 0\\.5 · made .* · ${n} respondents then`));
  assert.ok(await colourPixels(page, 'release-chart-age', OWN_INTERVAL_COLOR) > 200, 'the release chart drew its bars');
  for (const [index, view] of release.views.entries()) {
    const key = `age-view-${index}`;
    assert.match(await page.getByTestId(`release-view-${key}`).locator('h4').textContent(), new RegExp(view.name));
    assert.deepEqual(await shownValues(page, key, view.bins.length), view.bins.map((bin) => bin.value));
    assert.ok(await colourPixels(page, `release-chart-${key}`, OWN_INTERVAL_COLOR) > 100, `view ${view.name} drew its bars`);
  }
  t.diagnostic(`r1: ${release.bins.map((bin) => bin.value).join(', ')} (total ${release.total.value})`);

  // The consistent values instead of the raw ones, and back.
  await page.getByTestId('release-consistent-age').check();
  assert.deepEqual(await shownValues(page, 'age', 10), release.consistent);
  assert.equal(await page.getByTestId('release-ci-age-0').textContent(), '—');
  const halves = release.views[1];
  assert.equal(halves.name, 'halves');
  const consistentHalves = [release.consistent.slice(0, 5), release.consistent.slice(5)].map((cells) => cells.reduce((sum, x) => sum + x, 0));
  const shownHalves = await shownValues(page, 'age-view-1', 2);
  shownHalves.forEach((value, index) => assert.ok(Math.abs(value - consistentHalves[index]) < 1e-9, `halves ${index}: ${value} vs ${consistentHalves[index]}`));
  await page.getByTestId('release-consistent-age').uncheck();
  assert.deepEqual(await shownValues(page, 'age', 10), release.bins.map((bin) => bin.value));
  // Clamped and rounded (the server's post-processing), alone and with the consistent values.
  await checkClampAndRound(page, 'age', release, 10);

  // Beyond what is left: refused on the page before anything is sent, nothing spent.
  await page.getByTestId('release-epsilon-age').fill('2');
  const postsBeforeRefusal = log.requests.filter((request) => request.method === 'POST').length;
  await submitRelease(page, 'age');
  const refusal = page.getByTestId('release-error-age');
  await refusal.waitFor();
  assert.equal(await refusal.getAttribute('role'), 'alert');
  assert.equal(await refusal.textContent(), 'ε 2 is more than the 1.5 left of this question’s budget of 2 (0.5 spent): choose a smaller ε. Nothing was sent.');
  assert.equal(log.requests.filter((request) => request.method === 'POST').length, postsBeforeRefusal, 'nothing sent');
  assert.equal(await page.getByTestId('release-confirm-box-age').isVisible(), false);
  assert.equal(await page.getByTestId('ledger-spent-age').textContent(), '0.5');
  assert.equal(await page.getByTestId('ledger-left-age').textContent(), '1.5');
  assert.equal((await releasesOf('age')).releases.length, 1);

  // The other question, with the form's defaults (SREB-GCA, ε 0.5, ρ 0.5 under "Advanced").
  await page.getByTestId('release-advanced-drug').locator('summary').click();
  assert.equal(await page.getByTestId('release-rho-drug').inputValue(), '0.5');
  assert.equal(await page.getByTestId('release-ratio-drug').isVisible(), false);
  await submitRelease(page, 'drug');
  await page.getByTestId('ledger-row-drug-r1').waitFor();
  const { releases: [drugRelease], spent, left } = await releasesOf('drug');
  assert.deepEqual(drugRelease.request, { method: 'sreb_gca', epsilon: 0.5, rho: 0.5 });
  assert.deepEqual([spent, left], [0.5, 0.5]);
  assert.equal(await page.getByTestId('ledger-left-drug').textContent(), '0.5');
  assert.deepEqual(await shownValues(page, 'drug', 3), drugRelease.bins.map((bin) => bin.value));
  for (const [index, bin] of drugRelease.bins.entries()) {
    const cell = await page.getByTestId(`release-ci-drug-${index}`).textContent();
    if (bin.ci_low === null) {
      const group = drugRelease.groups[bin.group];
      assert.ok(cell.startsWith(`shared group: mean ${formatNumber(group.mean)}, interval [${formatNumber(group.ci_low)}, ${formatNumber(group.ci_high)}]`), cell);
    } else {
      assert.equal(cell, `${formatNumber(bin.ci_low)}\u00a0to ${formatNumber(bin.ci_high)}`);
    }
  }
  // SREB-GCA's grouped bins share a mean, often not a whole number: clamped and rounded, they are.
  await checkClampAndRound(page, 'drug', drugRelease, 3);

  // Exact counts, for the admin, labelled as not private.
  await page.getByTestId('exact-counts-button-age').click();
  const counts = page.getByTestId('exact-counts-age');
  await counts.waitFor();
  assert.match(await counts.textContent(), /NOT PRIVATE/);
  assert.match(await page.getByTestId('exact-counts-note-age').textContent(), /^Exact counts, not private/);
  const exact = (await requestJson(fixture.server.baseUrl, `/api/surveys/${SURVEY.id}/questions/age/counts`, { headers: admin() })).body;
  for (const [index, bin] of exact.bins.entries()) {
    assert.equal(await page.getByTestId(`exact-count-age-${index}`).textContent(), String(bin.count));
  }
  await screenshot(page, 'desktop-central-dashboard');
  await assertFits(page, 'the dashboard at 1280 px');
  await page.getByTestId('exact-counts-button-age').click();
  assert.equal(await counts.isVisible(), false);

  // A reload shows the same release, with the same numbers.
  const before = await shownValues(page, 'age', 10);
  await page.reload();
  await page.getByTestId('ledger-row-age-r1').waitFor();
  assert.deepEqual(await shownValues(page, 'age', 10), before);
  assert.equal(await page.getByTestId('release-select-age').inputValue(), 'r1');

  // A reader without the token: the same numbers, no form, no exact counts.
  const reader = await launchBrowser(DESKTOP);
  try {
    const { page: readerPage, log: readerLog } = await openRecordedPage(reader.context);
    await readerPage.goto(`${fixture.server.baseUrl}/results/${SURVEY.id}`);
    await readerPage.getByTestId('ledger-row-age-r1').waitFor();
    assert.deepEqual(await shownValues(readerPage, 'age', 10), before);
    assert.deepEqual(await shownValues(readerPage, 'drug', 3), drugRelease.bins.map((bin) => bin.value));
    assert.equal(await readerPage.getByTestId('release-form-age').count(), 0);
    assert.equal(await readerPage.getByTestId('exact-counts-button-age').count(), 0);
    assert.ok(await readerPage.getByTestId('release-sign-in-age').isVisible());
    assert.deepEqual(unexpectedProblems(readerLog), []);
    await readerPage.close();
  } finally {
    await reader.close();
  }

  // A release scheduled with the form at two more answers: its ε reserved at once, its row in the ledger.
  const answers = await answersOf('age');
  assert.equal(await page.getByTestId('ledger-reserved-age').textContent(), '0');
  assert.equal(await page.getByTestId('scheduled-age').isVisible(), false);
  assert.equal(await page.getByTestId('release-at-age').isVisible(), false, 'no N while the release is made now');
  assert.equal(await page.getByTestId('release-submit-age').textContent(), 'Release now');
  await page.getByTestId('release-method-age').selectOption('dp_base');
  await page.getByTestId('release-epsilon-age').fill('0.5');
  await page.getByTestId('release-when-later-age').check();
  assert.equal(await page.getByTestId('release-submit-age').textContent(), 'Schedule release');
  assert.match(await page.getByTestId('release-at-hint-age').textContent(), new RegExp(`^At least ${answers + 1}: the question has ${answers} answers now`));
  // A count the question already has would make the release at once: asked again, nothing sent.
  const postsBefore = log.requests.filter((request) => request.method === 'POST').length;
  await page.getByTestId('release-at-age').fill(String(answers));
  await page.getByTestId('release-at-age').press('Enter');
  assert.match(await page.getByTestId('release-at-age-message').textContent(), new RegExp(`^N must be more than the ${answers} answers the question has now`));
  assert.equal((await focusedElement(page)).testid, 'release-at-age');
  assert.equal(log.requests.filter((request) => request.method === 'POST').length, postsBefore);
  const at = answers + 2;
  await page.getByTestId('release-at-age').fill(String(at));
  const scheduling = page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith('/questions/age/releases'));
  await submitRelease(page, 'age');
  assert.deepEqual(JSON.parse((await scheduling).postData()), { method: 'dp_base', epsilon: 0.5, at_respondents: at });
  await page.getByTestId('scheduled-row-age-s1').waitFor();
  assert.equal(await page.getByTestId('release-status-age').textContent(),
    `Scheduled s1: dp_base, ε 0.5, when ${at} answers are in (ε reserved now): 0.5 of 2 spent, 0.5 reserved, 1 left.`);
  await page.locator('[data-testid="ledger-reserved-age"]', { hasText: /^0\.5$/ }).waitFor();
  assert.equal(await page.getByTestId('ledger-spent-age').textContent(), '0.5');
  assert.equal(await page.getByTestId('ledger-left-age').textContent(), '1');
  const [scheduled] = (await releasesOf('age')).scheduled;
  assert.deepEqual(await page.getByTestId('scheduled-row-age-s1').locator('th, td').allTextContents(),
    ['s1', 'DP base', '0.5', `${at} answers are in (${answers} now)`, scheduled.scheduled_at.replace('T', ' ').replace('Z', ''), 'Cancel']);
  assert.match(await page.getByTestId('release-epsilon-hint-age').textContent(), /^At most 1 is left of the budget of 2 \(0\.5 is reserved by scheduled releases\)/);
  // The reserved ε counts against the budget: the page refuses before sending and says so.
  await page.getByTestId('release-when-now-age').check();
  await page.getByTestId('release-epsilon-age').fill('1.2');
  await submitRelease(page, 'age');
  await page.getByTestId('release-error-age').waitFor();
  assert.equal(await page.getByTestId('release-error-age').textContent(),
    'ε 1.2 is more than the 1 left of this question’s budget of 2 (0.5 spent, 0.5 reserved by scheduled releases): choose a smaller ε. Nothing was sent.');

  // Two more answers (through the API): the server makes the release at the second; the page shows it as it arrives.
  const twoMore = [0, 1].map((index) => core.perturbSeeded(SURVEY, { drug: index, age: 55 + index, stress: index }, String(REPORT_SEED_BASE + MORE_REPORTS + index)));
  await postReports(fixture.server.baseUrl, SURVEY.id, [twoMore[0]]);
  await page.locator('[data-testid="scheduled-when-age-s1"]', { hasText: `(${answers + 1} now)` }).waitFor();
  assert.equal((await releasesOf('age')).releases.length, 1, 'not yet made at one answer fewer');
  await postReports(fixture.server.baseUrl, SURVEY.id, [twoMore[1]]);
  await page.getByTestId('ledger-row-age-r2').waitFor();
  await page.getByTestId('scheduled-row-age-s1').waitFor({ state: 'detached' });
  assert.equal(await page.getByTestId('scheduled-age').isVisible(), false);
  const ledgerNow = await releasesOf('age');
  assert.deepEqual([ledgerNow.spent, ledgerNow.reserved, ledgerNow.scheduled], [1, 0, []]);
  const made = ledgerNow.releases[1];
  assert.deepEqual([made.id, made.respondents, made.request], ['r2', at, { method: 'dp_base', epsilon: 0.5 }]);
  assert.deepEqual(await page.getByTestId('ledger-row-age-r2').locator('th, td').allTextContents(),
    ['r2', 'DP base', '0.5', made.created_at.replace('T', ' ').replace('Z', ''), String(at)]);
  assert.equal(await page.getByTestId('ledger-reserved-age').textContent(), '0');
  assert.equal(await page.getByTestId('ledger-spent-age').textContent(), '1');
  assert.equal(await page.getByTestId('release-select-age').inputValue(), 'r2', 'the new release is shown as it arrives');
  assert.deepEqual(await shownValues(page, 'age', 10), made.bins.map((bin) => bin.value));
  // A reload shows the same.
  await page.reload();
  await page.getByTestId('ledger-row-age-r2').waitFor();
  assert.equal(await page.getByTestId('scheduled-age').isVisible(), false);
  assert.deepEqual(await shownValues(page, 'age', 10), made.bins.map((bin) => bin.value));

  // Another one, cancelled with its button: its row goes and the reserved ε returns to what it was.
  const reservedBefore = await page.getByTestId('ledger-reserved-age').textContent();
  await page.getByTestId('release-when-later-age').check();
  await page.getByTestId('release-epsilon-age').fill('0.25');
  await page.getByTestId('release-at-age').fill(String(at + 5));
  await submitRelease(page, 'age');
  await page.getByTestId('scheduled-row-age-s2').waitFor();
  await page.locator('[data-testid="ledger-reserved-age"]', { hasText: /^0\.25$/ }).waitFor();
  assert.equal(await page.getByTestId('ledger-left-age').textContent(), '0.75');
  const cancelling = page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith('/questions/age/releases/s2/cancel'));
  await page.getByTestId('scheduled-cancel-age-s2').click();
  await cancelling;
  await page.getByTestId('scheduled-row-age-s2').waitFor({ state: 'detached' });
  assert.equal(await page.getByTestId('ledger-reserved-age').textContent(), reservedBefore);
  assert.equal(await page.getByTestId('ledger-left-age').textContent(), '1');
  assert.equal(await page.getByTestId('release-status-age').textContent(), 'Cancelled s2: its ε 0.25 is no longer reserved. 1 of 2 spent, 1 left.');
  assert.equal(await page.getByTestId('release-error-age').isVisible(), false);
  assert.equal((await focusedElement(page)).testid, 'ledger-heading-age', 'focus stays in the ledger');
  const cancelled = await releasesOf('age');
  assert.deepEqual([cancelled.reserved, cancelled.scheduled, cancelled.releases.length], [0, [], 2]);

  // A cancel the server refuses (already cancelled elsewhere): its message, word for word, in the alert.
  await page.getByTestId('release-epsilon-age').fill('0.1');
  await page.getByTestId('release-at-age').fill(String(at + 1000));
  await submitRelease(page, 'age');
  await page.getByTestId('scheduled-row-age-s3').waitFor();
  await page.route('**/api/surveys/*/results*', (route) => route.abort());  // the poll would remove the row
  const elsewhere = await requestJson(fixture.server.baseUrl, `/api/surveys/${SURVEY.id}/questions/age/releases/s3/cancel`, { method: 'POST', headers: admin() });
  assert.equal(elsewhere.status, 200);
  await page.getByTestId('scheduled-cancel-age-s3').click();
  const cancelRefusal = page.getByTestId('release-error-age');
  await cancelRefusal.waitFor();
  assert.equal(await cancelRefusal.textContent(), 'question "age" has no scheduled release "s3" (it may have been made already)');
  assert.equal(await cancelRefusal.getAttribute('role'), 'alert');
  await page.unroute('**/api/surveys/*/results*');
  await page.getByTestId('scheduled-row-age-s3').waitFor({ state: 'detached' });

  // One left waiting, on the other question, for the pictures and the phone.
  await page.getByTestId('release-when-later-drug').check();
  await page.getByTestId('release-epsilon-drug').fill('0.1');
  await page.getByTestId('release-at-drug').fill(String(at + 100));
  await submitRelease(page, 'drug');
  await page.getByTestId('scheduled-row-drug-s1').waitFor();
  await page.getByTestId('release-when-later-age').check();
  await screenshot(page, 'desktop-central-scheduled');
  await assertFits(page, 'the dashboard with a scheduled release at 1280 px');
  assert.deepEqual(unexpectedProblems(log, [...ADMIN_PROBLEMS, /Failed to load resource: the server responded with a status of 404/, /net::ERR_FAILED/]), []);
  await page.close();

  // On a phone, with the token (typed again in this new tab).
  const phone = await launchBrowser(PHONE);
  try {
    const { page: phonePage, log: phoneLog } = await openRecordedPage(phone.context);
    await phonePage.goto(`${fixture.server.baseUrl}/results/${SURVEY.id}`);
    await phonePage.getByTestId('ledger-row-age-r1').waitFor();
    await phonePage.getByTestId('release-sign-in-age').tap();
    await phonePage.getByTestId('admin-token').fill(fixture.server.adminToken);
    await phonePage.getByTestId('admin-token-submit').tap();
    await phonePage.getByTestId('release-form-age').waitFor();
    await phonePage.getByTestId('release-advanced-age').locator('summary').tap();
    await phonePage.getByTestId('exact-counts-button-age').tap();
    await phonePage.getByTestId('exact-counts-age').waitFor();
    await phonePage.getByTestId('release-when-later-age').tap();
    await phonePage.getByTestId('release-at-age').waitFor();
    await phonePage.getByTestId('scheduled-cancel-drug-s1').waitFor();
    await phonePage.getByTestId('release-clamp-drug').tap();
    await phonePage.getByTestId('release-postprocess-note-drug').waitFor();
    await assertFits(phonePage, 'the dashboard at 390 px');
    await screenshot(phonePage, 'phone-central-dashboard');
    for (const testid of ['scheduled-table-drug', 'ledger-table-age', 'release-form-age']) {
      const widths = await phonePage.getByTestId(testid).evaluate((node) => {
        const box = node.closest('.table-scroll') ?? node;
        return [box.scrollWidth, box.clientWidth];
      });
      assert.ok(widths[0] <= widths[1], `${testid} fits 390 px without scrolling: ${widths}`);
    }
    assert.ok(await colourPixels(phonePage, 'release-chart-age', OWN_INTERVAL_COLOR) > 100, 'the release chart drew its bars on a phone');
    assert.deepEqual(await axeViolationsAtWidth(phonePage, 'main'), [], 'the dashboard at 320 px');
    assert.deepEqual(unexpectedProblems(phoneLog, ADMIN_PROBLEMS), []);
    await phonePage.close();
  } finally {
    await phone.close();
  }
});

test('the creation page offers "Who sees the answer" for kinds that can be answered in confidence', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/create`);
  const editor = page.getByTestId('question-editor-0');
  await editor.waitFor();
  await page.getByTestId('survey-id').fill('confidential-built');
  await page.getByTestId('survey-title-input').fill('Built in confidence');
  await editor.getByTestId('question-id').fill(DRUG.id);
  await editor.getByTestId('question-text').fill(DRUG.text);
  await editor.getByTestId('question-options').fill(DRUG.options.join('\n'));
  const definition = async () => JSON.parse(await page.getByTestId('definition-json').textContent()).questions;

  // Local by default: the mechanism, as before.
  assert.ok(await editor.getByTestId('question-trust').isVisible());
  assert.equal(await editor.getByTestId('question-trust-local').isChecked(), true);
  assert.equal(await editor.getByTestId('question-central-fields').isVisible(), false);
  assert.ok(await editor.getByTestId('question-mechanism').isVisible());
  assert.equal((await definition())[0].mechanism.name, 'grr');
  assert.equal((await definition())[0].privacy, undefined);

  // In confidence: no mechanism fields, a budget (1) and exact counts (unticked) instead.
  await editor.getByTestId('question-trust-central').check();
  assert.equal(await editor.getByTestId('question-mechanism').isVisible(), false);
  assert.equal(await editor.getByTestId('question-epsilon').isVisible(), false);
  assert.equal(await editor.getByTestId('question-budget').inputValue(), '1');
  assert.equal(await editor.getByTestId('question-admin-counts').isChecked(), false);
  // No mechanism advisor; the release advisor instead: which method serves a reader of every bin.
  assert.equal(await editor.locator('[data-testid^="advice-table"]').count(), 0, 'no mechanism advisor for a budget');
  const releaseAdvice = editor.getByTestId('central-advice-0');
  await releaseAdvice.waitFor();
  const recommended = releaseAdvice.getByTestId('central-advice-recommended');
  assert.equal(await recommended.count(), 1);
  assert.match(await releaseAdvice.textContent(), /^Every bin: (SReB_GCA|DP_BASE|AHP)/);
  assert.deepEqual((await definition())[0], { id: DRUG.id, text: DRUG.text, type: 'categorical', options: DRUG.options, privacy: 'central', budget: 1, admin_sees_counts: false });
  assert.match(await editor.getByTestId('question-privacy').textContent(), /^This question: ε = 1 for everything published about it \(answered in confidence/);
  await editor.getByTestId('question-budget').fill('0,5');
  await editor.getByTestId('question-admin-counts').check();
  assert.deepEqual((await definition())[0], { ...DRUG, budget: 0.5, admin_sees_counts: true });
  assert.equal(await page.getByTestId('validation').getAttribute('data-state'), 'success');
  // The core's message for a budget out of range, naming the field.
  await editor.getByTestId('question-budget').fill('40');
  assert.match(await editor.getByTestId('question-privacy').textContent(), /budget/);
  assert.equal(await page.getByTestId('validation').getAttribute('data-state'), 'error');
  await editor.getByTestId('question-budget').fill('0.5');

  // A numeric question cannot be answered in confidence (it can be asked openly): no such choice, its mechanism back.
  await editor.getByTestId('question-type').selectOption('numeric');
  assert.equal(await editor.getByTestId('question-trust-central').isVisible(), false);
  assert.ok(await editor.getByTestId('question-trust-open').isVisible());
  assert.equal(await editor.getByTestId('question-central-fields').isVisible(), false);
  assert.ok((await definition())[0].mechanism);
  assert.equal((await definition())[0].privacy, undefined);
  // A histogram question can: the choice (still "in confidence") and no mechanism.
  await editor.getByTestId('question-type').selectOption('histogram');
  assert.ok(await editor.getByTestId('question-trust').isVisible());
  assert.equal(await editor.getByTestId('question-histogram-mechanism').isVisible(), false);
  const histogram = (await definition())[0];
  // The release advisor now also names a method for each data consumer's histogram.
  await editor.getByTestId('central-advice-0').waitFor();
  assert.equal(await editor.getByTestId('central-advice-0').getByTestId('central-advice-recommended').count(), 1 + histogram.histograms.length);
  assert.equal(histogram.privacy, 'central');
  assert.equal(histogram.mechanism, undefined);
  assert.deepEqual(histogram.range, [0, 100]);
  assert.deepEqual(await axeViolationsAtWidth(page, '[data-testid="central-advice-0"]'), [], 'the release advice at 320 px');
  await screenshot(page, 'desktop-central-create');
  await assertFits(page, 'the creation page at 1280 px');

  await editor.getByTestId('question-type').selectOption('categorical');
  await page.getByTestId('admin-token').fill(fixture.server.adminToken);
  await page.getByTestId('create-survey').click();
  await page.getByTestId('create-success').waitFor();
  const created = await requestJson(fixture.server.baseUrl, '/api/surveys/confidential-built');
  assert.equal(created.status, 200);
  assert.deepEqual(created.body.questions[0], { ...DRUG, budget: 0.5, admin_sees_counts: true });
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

// "Release now" / "Schedule release", then the page's confirmation when it
// asks for one (a release the page refuses, e.g. over the budget, asks none).
async function submitRelease(page, questionId) {
  await page.getByTestId(`release-submit-${questionId}`).click();
  const confirm = page.getByTestId(`release-confirm-${questionId}`);
  const refused = page.getByTestId(`release-error-${questionId}`);
  const deadline = Date.now() + 10_000;
  while (!(await confirm.isVisible()) && !(await refused.isVisible())) {
    if (Date.now() > deadline) throw new Error(`release ${questionId}: neither the confirmation nor a refusal appeared`);
    await page.waitForTimeout(50);
  }
  if (await confirm.isVisible()) await confirm.click();
}
