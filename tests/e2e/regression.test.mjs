// Model questions ("type": "linear_regression") end to end: a survey of two
// numeric questions (hours, pay) and a model of pay by hours trained in
// rounds of 3 reports, created over the API.
// (a) Answered with the keyboard: the model's fieldset has nothing to answer
//     and says what it does; preparing fetches the model's public state (the
//     only request) and the report's model part is one noisy gradient
//     component for round 1, shown in words; no request carries an answer.
// (b) Two more reports for round 1 from Node (the same WebAssembly core,
//     given the fetched state) complete round 1: the state moves to round 2.
// (c) A fresh page prepares a report for round 2 and sends it; a report for
//     round 1 posted from Node is refused (409) with a clear message.
// (d) The dashboard (admin only): rounds completed, the current round's
//     progress, the convergence chart (it drew its lines), the coefficients
//     table with the server's numbers, the uncertainty text and the warning.
// (e) A round that closes between preparing and sending: the page renews only
//     the model's part from the answers in memory, says why, and sends that.
// (f) 390 px and 1280 px: no horizontal scrolling (screenshots).
// (g) The creation page builds the model, with the core's message for a
//     feature that is not an earlier numeric question.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadCore } from '../../web/src/core.js';
import { formatDecimal } from '../../web/src/shared/format.js';
import { onPhone, openRecordedPage, unexpectedProblems } from './support/browser.mjs';
import { tabUntil } from './support/keyboard.mjs';
import { useServerAndBrowser } from './support/fixture.mjs';
import { requestJson } from './support/server.mjs';
import { SCREENSHOT_DIR, assertFits, colourPixels, screenshot } from './support/page-checks.mjs';
import { forgetDevice } from './support/device.mjs';
import { reviewAnswers, sendShownReport } from './support/survey-steps.mjs';
import { axeViolationsAtWidth } from './support/axe.mjs';


const MODEL = {
  id: 'pay_model', text: 'Pay by hours (a model trained across rounds)', type: 'linear_regression',
  target: 'pay', features: ['hours'], epsilon: 1, batch: 3,
};
const SURVEY = {
  format: 'deniable.survey/v1',
  id: 'pay-model-e2e',
  version: 1,
  title: 'Work and pay',
  description: 'Two numbers and a model of one by the other.',
  results: 'admin',
  questions: [
    { id: 'hours', text: 'How many hours did you work last week?', type: 'numeric', range: [0, 80], unit: 'h', mechanism: { name: 'piecewise', epsilon: 1 } },
    { id: 'pay', text: 'What was your pay last week?', type: 'numeric', range: [0, 4000], unit: 'EUR', mechanism: { name: 'piecewise', epsilon: 1 } },
    MODEL,
  ],
};
// A copy for the renewal test, so that its rounds do not move the dashboard's.
const RENEWED = { ...SURVEY, id: 'pay-model-renew', results: 'public' };
// Hours and the model optional: skipping hours leaves the model out too.
const OPTIONAL = {
  ...SURVEY, id: 'pay-model-optional', results: 'public',
  questions: [{ ...SURVEY.questions[0], required: false }, SURVEY.questions[1], { ...MODEL, required: false }],
};
// A model of 2 rounds of 1 report (2 chains): complete after two reports.
const COMPLETING = {
  ...SURVEY, id: 'pay-model-complete', results: 'public',
  questions: [SURVEY.questions[0], SURVEY.questions[1], { ...MODEL, batch: 1, chains: 2, max_rounds: 2 }],
};
const COMPONENT_NAMES = ['intercept', 'hours'];

// The keyboard respondent's true answers, and the Node respondents'.
const TRUE_HOURS = 38;
const TRUE_PAY = 1250;
const NODE_ANSWERS = [{ hours: 20, pay: 700 }, { hours: 45, pay: 2100 }];
const ADMIN_PROBLEMS = [/Failed to load resource: the server responded with a status of 40[13]/];

const fixture = useServerAndBrowser({ surveys: [SURVEY, RENEWED, OPTIONAL, COMPLETING] });
const core = await loadCore();

// The convergence charts' line colours: the intercept's and the hours coefficient's.
const INTERCEPT_COLOUR = [0x3b, 0x6f, 0xd8];
const HOURS_COLOUR = [0xd9, 0x48, 0x0f];

async function modelState(surveyId) {
  const response = await requestJson(fixture.server.baseUrl, `/api/surveys/${surveyId}/state`);
  assert.equal(response.status, 200);
  return response.body.questions.pay_model;
}

// A report made in Node as a respondent's device makes it: the model's answer
// is built from the other answers and the state fetched now.
async function nodeReport(survey, { hours, pay }, state) {
  return core.perturb(survey, { hours, pay, pay_model: { features: [hours], target: pay, state: state ?? await modelState(survey.id) } });
}

async function post(surveyId, report) {
  return requestJson(fixture.server.baseUrl, `/api/surveys/${surveyId}/reports`, { method: 'POST', json: report });
}

function modelWords(response) {
  const about = response.component === 0 ? 'the model’s base value' : `“${COMPONENT_NAMES[response.component]}”`;
  return `one number about ${about}, ${formatDecimal(response.value, 2)} with noise added (round ${response.round})`;
}

// The true answers never leave the page: no request carries the model's
// answer (features, target, its state) or the numbers typed, as numbers of
// their own (the randomised values are other numbers).
function assertNoTrueAnswers(requests, answers) {
  for (const request of requests) {
    const body = request.body ?? '';
    for (const word of ['features', 'target', 'coefficients', '"state"', 'answers']) {
      assert.ok(!body.includes(word), `a request carries "${word}": ${request.method} ${request.url} ${body}`);
    }
    for (const value of answers) {
      const token = new RegExp(`(?<![\\d.eE+-])${value}(?![\\d.])`);
      for (const text of [decodeURIComponent(request.url), body]) {
        assert.ok(!token.test(text), `a request carries the answer ${value}: ${request.method} ${request.url} ${body}`);
      }
    }
  }
}

function pathsOf(requests) {
  return requests.map((request) => `${request.method} ${new URL(request.url).pathname}`);
}

test('a model question answered with the keyboard sends one noisy gradient component for round 1', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/s/${SURVEY.id}`);
  await forgetDevice(page);
  await page.getByTestId('survey-form').waitFor();
  assert.equal(await page.getByTestId('privacy-pay_model').textContent(), 'Question 3: ε = 1 (Piecewise)');
  assert.match(await page.getByTestId('total-epsilon').textContent(), /ε = 3 \(the questions' budgets add up\)/);
  // Nothing to answer: the model says what it does with the other answers, in plain words.
  const fieldset = page.getByTestId('question-pay_model');
  assert.equal(await fieldset.locator('input, select, textarea').count(), 0);
  assert.equal(await page.getByTestId('model-explanation-pay_model').textContent(),
    'Your answers to pay and hours (questions 2 and 1) also help train a model of pay. Your device computes how the current model should change for your answers, ' +
    'sends one of those numbers with random noise added, and the organisers only learn the average over many people. ' +
    'This number is sent on top of those questions’ own reports, so it adds a little to what your report as a whole can reveal.');
  // The terms sit behind a closed disclosure.
  const details = page.getByTestId('model-details-pay_model');
  assert.equal(await details.getAttribute('open'), null);
  assert.match(await details.textContent(), /pay ≈ b0 \+ b1 × hours/);

  await tabUntil(page, (focused) => focused.testid === 'number-hours', 'the typed hours');
  await page.keyboard.type(String(TRUE_HOURS));
  await tabUntil(page, (focused) => focused.testid === 'number-pay', 'the typed pay');
  await page.keyboard.type(String(TRUE_PAY));
  await reviewAnswers(page, 'keyboard');
  await tabUntil(page, (focused) => focused.testid === 'prepare-report', 'the Prepare button');
  const requestsBeforePrepare = log.requests.length;
  await page.keyboard.press('Enter');
  await page.getByTestId('report-panel').waitFor();
  assert.deepEqual(pathsOf(log.requests.slice(requestsBeforePrepare)), [`GET /api/surveys/${SURVEY.id}/state`],
    'preparing fetches the model’s state, and nothing else');

  const shownText = await page.getByTestId('report-json').textContent();
  const shown = JSON.parse(shownText);
  assert.deepEqual(Object.keys(shown.responses), ['hours', 'pay', 'pay_model']);
  const model = shown.responses.pay_model;
  assert.deepEqual(Object.keys(model).sort(), ['component', 'round', 'value']);
  assert.equal(model.round, 1);
  assert.ok(model.component === 0 || model.component === 1, `component ${model.component}`);
  assert.equal(await page.getByTestId('report-value-pay_model').textContent(), modelWords(model));
  assert.match(await page.getByTestId('report-details-pay_model').textContent(), /Piecewise at ε = 1/);

  await sendShownReport(page, log, shownText);
  assertNoTrueAnswers(log.requests, [TRUE_HOURS, TRUE_PAY]);
  assert.equal(await page.evaluate(() => JSON.stringify(Object.fromEntries(Object.entries({ ...localStorage, ...sessionStorage }).filter(([key]) => !key.startsWith('deniable.answered.'))))), '{}');
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('two reports from Node complete round 1, and the model moves to round 2', async () => {
  for (const answers of NODE_ANSWERS) {
    const state = await modelState(SURVEY.id);
    assert.equal(state.round, 1);
    const report = await nodeReport(SURVEY, answers, state);
    assert.equal(report.responses.pay_model.round, 1);
    const response = await post(SURVEY.id, report);
    assert.equal(response.status, 201, JSON.stringify(response.body));
  }
  const state = await modelState(SURVEY.id);
  assert.equal(state.round, 2);
  assert.equal(state.rounds_completed, 1);
  assert.equal(state.reports_in_round, 0);
  assert.equal(state.batch, 3);
  assert.equal(state.coefficients.length, 2);
});

test('a fresh page prepares its report for round 2; a report for round 1 is refused', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/s/${SURVEY.id}`);
  await forgetDevice(page);
  await page.getByTestId('survey-form').waitFor();
  await page.getByTestId('number-hours').fill('12,5');
  await page.getByTestId('number-pay').fill('400');
  await reviewAnswers(page, 'click');
  await page.getByTestId('prepare-report').click();
  await page.getByTestId('report-panel').waitFor();
  const shownText = await page.getByTestId('report-json').textContent();
  const model = JSON.parse(shownText).responses.pay_model;
  assert.equal(model.round, 2);
  assert.equal(await page.getByTestId('report-value-pay_model').textContent(), modelWords(model));
  await page.getByTestId('send-report').click();
  await page.locator('[data-testid="send-status"][data-state="success"]').waitFor();
  assert.equal(log.requests.filter((request) => request.method === 'POST')[0].body, shownText);
  assertNoTrueAnswers(log.requests, ['12.5', '12,5', 400]);
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();

  // Round 1 is closed: a report made for it is refused, saying what to do.
  const late = await nodeReport(SURVEY, NODE_ANSWERS[0], { round: 1, coefficients: [0, 0] });
  const refused = await post(SURVEY.id, late);
  assert.equal(refused.status, 409);
  assert.equal(refused.body.error.code, 'report_not_admitted');
  assert.equal(refused.body.error.message,
    'questions.pay_model: round 1 is closed; the current round is 2: fetch the model\'s state again and prepare a new report');
  assert.equal((await modelState(SURVEY.id)).reports_in_round, 1, 'the refused report was not counted');
});

test('the dashboard shows the rounds, the convergence chart and the coefficients', async () => {
  const results = await requestJson(fixture.server.baseUrl, `/api/surveys/${SURVEY.id}/results`, { headers: { Authorization: `Bearer ${fixture.server.adminToken}` } });
  assert.equal(results.status, 200);
  const entry = results.body.questions[2];
  assert.equal(entry.rounds_completed, 1);
  assert.ok(entry.coefficients, 'a completed round gives coefficients');

  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/results/${SURVEY.id}`);
  await page.getByTestId('admin-token-form').waitFor();
  await page.getByTestId('admin-token').fill(fixture.server.adminToken);
  await page.getByTestId('admin-token-submit').click();
  await page.locator('[data-testid="n-pay_model"]', { hasText: /^4$/ }).waitFor({ timeout: 30_000 });
  assert.equal(await page.getByTestId('rounds-completed-pay_model').textContent(), '1');
  assert.equal(await page.getByTestId('current-round-pay_model').textContent(), 'round 2: 1 of 3 reports');
  assert.equal(await page.getByTestId('round-progress-pay_model').evaluate((node) => [node.value, node.max].join('/')), '1/3');
  assert.equal(await page.getByTestId('epsilon-pay_model').textContent(), 'ε = 1');
  assert.match(await page.getByTestId('privacy-note-pay_model').textContent(), /^The model’s ε = 1 adds to the questions’ own \(pay, hours\)/);
  assert.equal(await page.getByTestId('warning-pay_model').isVisible(), entry.warning !== null);
  if (entry.warning) assert.equal(await page.getByTestId('warning-pay_model').textContent(), `Warning: ${entry.warning}`);

  // Small multiples: one chart per coefficient, each on its own axis, each drew its line (rounds 0 and 1).
  assert.equal(await page.getByTestId('chart-pay_model').locator('canvas').count(), 2);
  assert.ok(await colourPixels(page, 'chart-pay_model-0', INTERCEPT_COLOUR) > 100, 'the intercept’s line is drawn');
  assert.ok(await colourPixels(page, 'chart-pay_model-1', HOURS_COLOUR) > 100, 'the hours coefficient’s line is drawn');

  // The coefficients in the variables' units, the uncertainty text (one of 8 chains has a round: no interval yet).
  const table = page.getByTestId('coefficients-table-pay_model');
  assert.deepEqual(await table.locator('tbody th').allTextContents(), entry.names);
  assert.equal(entry.coefficients.interval_raw, null);
  for (const [position] of entry.names.entries()) {
    assert.equal(Number(await page.getByTestId(`coefficient-pay_model-${position}`).getAttribute('data-value')), entry.coefficients.raw[position]);
    assert.equal(await page.getByTestId(`interval-pay_model-${position}`).textContent(), '—');
  }
  const uncertainty = await page.getByTestId('uncertainty-pay_model').textContent();
  assert.match(uncertainty, /^Uncertainty: Each chain's coefficients are .* 1 of the 8 chains have a complete round: no interval until every chain has one\.$/);
  assert.match(await page.getByTestId('model-formula-pay_model').textContent(), /^pay ≈ −?[\d,.]+ [+−] [\d,.]+ × hours \(the average of 8 chains\)$/);
  await assertFits(page, 'the dashboard at 1280 px');
  await screenshot(page, 'desktop-regression-dashboard');
  await page.getByTestId('question-pay_model').screenshot({ path: `${SCREENSHOT_DIR}/deniable-desktop-regression-model-panel.png` });
  assert.deepEqual(unexpectedProblems(log, ADMIN_PROBLEMS), []);
  await page.close();
});

test('a round that closes before sending: only the model’s part is made again, and the page says why', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/s/${RENEWED.id}`);
  await forgetDevice(page);
  await page.getByTestId('survey-form').waitFor();
  await page.getByTestId('number-hours').fill(String(TRUE_HOURS));
  await page.getByTestId('number-pay').fill(String(TRUE_PAY));
  await reviewAnswers(page, 'click');
  await page.getByTestId('prepare-report').click();
  await page.getByTestId('report-panel').waitFor();
  const firstText = await page.getByTestId('report-json').textContent();
  const first = JSON.parse(firstText);
  assert.equal(first.responses.pay_model.round, 1);

  // Meanwhile three others complete round 1.
  for (const answers of [...NODE_ANSWERS, NODE_ANSWERS[0]]) {
    const response = await post(RENEWED.id, await nodeReport(RENEWED, answers));
    assert.equal(response.status, 201, JSON.stringify(response.body));
  }
  assert.equal((await modelState(RENEWED.id)).round, 2);

  await page.getByTestId('send-report').click();
  const notice = page.getByTestId('report-renewed');
  await notice.waitFor();
  assert.equal(await notice.textContent(),
    `The model “${MODEL.text}” moved on to its next round before your report arrived, so the server could not accept the model’s part of it. ` +
    'Your device has made a new one for round 2 from the same answers; the rest of your report is unchanged. ' +
    'Your first model report did reach the server, so sending this one reveals a little more about your answers than one report would.');
  assert.equal(await page.getByTestId('report-panel').count(), 1, 'the new report replaces the old one');
  const renewedText = await page.getByTestId('report-json').textContent();
  const renewed = JSON.parse(renewedText);
  assert.equal(renewed.responses.pay_model.round, 2);
  assert.deepEqual(renewed.responses.hours, first.responses.hours, 'the other answers are not randomised again');
  assert.deepEqual(renewed.responses.pay, first.responses.pay);
  assert.equal(await page.getByTestId('report-value-pay_model').textContent(), modelWords(renewed.responses.pay_model));
  assert.equal(await page.getByTestId('send-status').textContent(), '');

  await page.getByTestId('send-report').click();
  await page.locator('[data-testid="send-status"][data-state="success"]').waitFor();
  const posts = log.requests.filter((request) => request.method === 'POST');
  assert.deepEqual(posts.map((request) => request.body), [firstText, renewedText]);
  assertNoTrueAnswers(log.requests, [TRUE_HOURS, TRUE_PAY]);
  assert.equal((await modelState(RENEWED.id)).reports_in_round, 1);
  assert.deepEqual(unexpectedProblems(log, [/Failed to load resource: the server responded with a status of 409/]), []);
  await page.close();
});

test('a model that completes its rounds before sending: its part is left out, the page says so once, and the rest is sent', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/s/${COMPLETING.id}`);
  await forgetDevice(page);
  await page.getByTestId('survey-form').waitFor();
  await page.getByTestId('number-hours').fill(String(TRUE_HOURS));
  await page.getByTestId('number-pay').fill(String(TRUE_PAY));
  await reviewAnswers(page, 'click');
  await page.getByTestId('prepare-report').click();
  await page.getByTestId('report-panel').waitFor();
  const firstText = await page.getByTestId('report-json').textContent();
  assert.equal(JSON.parse(firstText).responses.pay_model.round, 1);

  // Meanwhile two others do the model's two rounds: it is complete.
  for (const answers of NODE_ANSWERS) assert.equal((await post(COMPLETING.id, await nodeReport(COMPLETING, answers))).status, 201);
  assert.equal((await modelState(COMPLETING.id)).complete, true);

  await page.getByTestId('send-report').click();
  const notice = page.getByTestId('report-renewed');
  await notice.waitFor();
  assert.equal(await notice.textContent(),
    `The model “${MODEL.text}” finished its training before your report arrived, so the server no longer takes the model’s part of it. ` +
    'Nothing is sent for the model now; the rest of your report is unchanged.');
  const renewedText = await page.getByTestId('report-json').textContent();
  const renewed = JSON.parse(renewedText);
  assert.equal(renewed.responses.pay_model, null);
  assert.deepEqual(renewed.responses.hours, JSON.parse(firstText).responses.hours);
  assert.equal(await page.getByTestId('report-value-pay_model').textContent(), 'nothing: the model has finished its training');

  await page.getByTestId('send-report').click();
  await page.locator('[data-testid="send-status"][data-state="success"]').waitFor();
  // Two POSTs: the refused one and the one without the model; no retry loop.
  const posts = log.requests.filter((request) => request.method === 'POST');
  assert.deepEqual(posts.map((request) => request.body), [firstText, renewedText]);
  const results = await requestJson(fixture.server.baseUrl, `/api/surveys/${COMPLETING.id}/results`);
  assert.equal(results.body.questions[2].complete, true);
  assert.equal(results.body.questions[2].n, 2);
  assert.equal(results.body.respondents, 3, "the third report counted without the model");
  assert.deepEqual(unexpectedProblems(log, [/Failed to load resource: the server responded with a status of 409/]), []);
  await page.close();
});

test('an optional model whose variable is skipped is skipped too, and its state is not fetched', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/s/${OPTIONAL.id}`);
  await forgetDevice(page);
  await page.getByTestId('survey-form').waitFor();
  await page.getByTestId('skip-hours').check();
  await page.getByTestId('number-pay').fill(String(TRUE_PAY));
  const requestsBeforePrepare = log.requests.length;
  await reviewAnswers(page, 'click');
  await page.getByTestId('prepare-report').click();
  await page.getByTestId('report-panel').waitFor();
  assert.deepEqual(pathsOf(log.requests.slice(requestsBeforePrepare)), [], 'no state is needed: nothing is fetched');
  assert.deepEqual(Object.keys(JSON.parse(await page.getByTestId('report-json').textContent()).responses), ['pay']);
  assert.equal(await page.getByTestId('report-skipped').textContent(),
    'You skipped questions 1, 3: no answer to them is sent, and the organisers will see only that they were skipped.');
  assert.equal(await page.getByTestId('report-value-pay_model').textContent(), 'not sent');
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('the model’s survey page, report and dashboard fit 390 px and 1280 px', async () => {
  // 1280 px: the survey page and its report.
  {
    const { page, log } = await openRecordedPage(fixture.browser.context);
    await page.goto(`${fixture.server.baseUrl}/s/${RENEWED.id}`);
    await forgetDevice(page);
    await page.getByTestId('survey-form').waitFor();
    await page.getByTestId('model-details-pay_model').locator('summary').click();
    await page.getByTestId('number-hours').fill('30');
    await page.getByTestId('number-pay').fill('900');
    await assertFits(page, 'the survey at 1280 px');
    await reviewAnswers(page, 'click');
    await page.getByTestId('prepare-report').click();
    await page.getByTestId('report-panel').waitFor();
    await page.getByTestId('report-details-pay_model').locator('summary').click();
    await assertFits(page, 'the report at 1280 px');
    await screenshot(page, 'desktop-regression-survey');
    assert.deepEqual(unexpectedProblems(log), []);
    await page.close();
  }
  await onPhone(async ({ page, log }) => {
    await page.goto(`${fixture.server.baseUrl}/s/${RENEWED.id}`);
    await forgetDevice(page);
    await page.getByTestId('survey-form').waitFor();
    await page.getByTestId('model-details-pay_model').locator('summary').tap();
    await page.getByTestId('number-hours').fill('30');
    await page.getByTestId('number-pay').fill('900');
    await assertFits(page, 'the survey at 390 px');
    await reviewAnswers(page, 'tap');
    await page.getByTestId('prepare-report').tap();
    await page.getByTestId('report-panel').waitFor();
    await page.getByTestId('report-details-pay_model').locator('summary').tap();
    await assertFits(page, 'the report at 390 px');
    await screenshot(page, 'phone-regression-survey');

    await page.goto(`${fixture.server.baseUrl}/results/${SURVEY.id}`);
    await page.getByTestId('admin-token-form').waitFor();
    await page.getByTestId('admin-token').fill(fixture.server.adminToken);
    await page.getByTestId('admin-token-submit').tap();
    await page.locator('[data-testid="rounds-completed-pay_model"]', { hasText: /^1$/ }).waitFor({ timeout: 30_000 });
    await page.getByTestId('rounds-details-pay_model').locator('summary').tap();
    await assertFits(page, 'the dashboard at 390 px');
    assert.deepEqual(await axeViolationsAtWidth(page, 'main'), [], 'the dashboard at 320 px');
    assert.ok(await colourPixels(page, 'chart-pay_model-0', INTERCEPT_COLOUR) > 100, 'the chart drew at 390 px');
    await screenshot(page, 'phone-regression-dashboard');
    await page.getByTestId('question-pay_model').screenshot({ path: `${SCREENSHOT_DIR}/deniable-phone-regression-model-panel.png` });
    assert.deepEqual(unexpectedProblems(log, ADMIN_PROBLEMS), []);
    await page.close();
  });
});

test('the creation page builds a model, with the core’s message for a bad variable', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/create`);
  const first = page.getByTestId('question-editor-0');
  await first.waitFor();
  await page.getByTestId('survey-id').fill('pay-model-built');
  await page.getByTestId('survey-title-input').fill(SURVEY.title);
  const numeric = async (editor, question) => {
    await editor.getByTestId('question-type').selectOption('numeric');
    await editor.getByTestId('question-text').fill(question.text);
    await editor.getByTestId('question-id').fill(question.id);
    await editor.getByTestId('question-low').fill(String(question.range[0]));
    await editor.getByTestId('question-high').fill(String(question.range[1]));
    await editor.getByTestId('question-numeric-mechanism').selectOption('piecewise');
    await editor.getByTestId('question-epsilon').fill('1');
  };
  await numeric(first, SURVEY.questions[0]);
  await page.getByTestId('add-question').click();
  await numeric(page.getByTestId('question-editor-1'), SURVEY.questions[1]);
  await page.getByTestId('add-question').click();
  const editor = page.getByTestId('question-editor-2');
  await editor.getByTestId('question-type').selectOption('linear_regression');
  await editor.getByTestId('question-text').fill(MODEL.text);
  await editor.getByTestId('question-id').fill(MODEL.id);
  // Target and features are picked from the earlier numeric questions, never typed.
  const targets = await editor.getByTestId('question-model-target').locator('option').evaluateAll((options) => options.map((option) => option.value));
  assert.deepEqual(targets, ['', SURVEY.questions[0].id, SURVEY.questions[1].id]);
  assert.deepEqual(await editor.getByTestId('question-model-features').locator('input[type="checkbox"]').evaluateAll((boxes) => boxes.map((box) => box.value)),
    [SURVEY.questions[0].id, SURVEY.questions[1].id]);
  await editor.getByTestId('question-epsilon').fill('1');
  await editor.getByTestId('question-model-batch').fill('3');
  // Nothing picked yet: the core's message, on the question and in the live check.
  assert.match(await editor.getByTestId('question-privacy').textContent(), /^This question: target: /);
  assert.equal(await page.getByTestId('create-survey').isDisabled(), true);
  await editor.getByTestId('question-model-target').selectOption('pay');
  await editor.getByTestId('question-model-feature-hours').check();
  assert.equal(await editor.getByTestId('question-privacy').textContent(),
    'This question: ε = 1, on top of the budgets of the questions it uses; 2 coefficients, trained in rounds of 3 respondents');
  assert.equal(await page.getByTestId('validation').getAttribute('data-state'), 'success');
  const definition = JSON.parse(await page.getByTestId('definition-json').textContent());
  assert.deepEqual(definition.questions[2], { ...MODEL, mechanism: 'piecewise' });

  await page.getByTestId('admin-token').fill(fixture.server.adminToken);
  await page.getByTestId('create-survey').click();
  await page.getByTestId('create-success').waitFor();
  const created = await requestJson(fixture.server.baseUrl, '/api/surveys/pay-model-built');
  assert.equal(created.status, 200);
  assert.equal(created.body.questions[2].type, 'linear_regression');
  assert.deepEqual(created.body.questions[2].features, ['hours']);
  assert.equal(created.body.questions[2].batch, 3);
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

