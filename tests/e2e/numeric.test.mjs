// Numeric questions end to end: an RVNS question (with uniform probability
// γ > 0, so it has a finite ε) and a Square Wave question, created over the
// API. (a) Answered with the keyboard (a typed number and slider arrows): the
// page shows the reported values, and the true values appear in no request.
// (b) 3000 simulated respondents (seeded answers from known distributions,
// reports made in Node by the same WebAssembly core): the dashboard shows the
// density chart and n, and the displayed 95% interval of the mean contains
// the true mean of the simulated answers. (c) Phone screenshots.
//
// The mean intervals are parametric-bootstrap intervals (approximate). The
// seeds are fixed, so the outcome is deterministic: a failure means the
// estimates, intervals or their display changed, not bad luck on this run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadCore } from '../../web/src/core.js';
import { onPhone, openRecordedPage, unexpectedProblems } from './support/browser.mjs';
import { focusedElement, tabUntil } from './support/keyboard.mjs';
import { createSeededGenerator, truncatedNormal } from './support/seeded-generator.mjs';
import { createSurvey, postSimulatedReports, useServerAndBrowser } from './support/fixture.mjs';
import { requestJson } from './support/server.mjs';
import { assertFits, screenshot } from './support/page-checks.mjs';
import { forgetDevice } from './support/device.mjs';
import { prepareShownReport, reviewAnswers } from './support/survey-steps.mjs';
import { axeViolationsAtWidth } from './support/axe.mjs';

const RESPONDENTS = 3000;
const ANSWER_SEED = 20261122;
const REPORT_SEED_BASE = 5_000_000;
const TRUE_BMI = 23.7;            // typed
const TRUE_AGE = 54.3;            // the slider starts at the middle, 54, and moves 3 steps of 0.1
const SLIDER_PRESSES = 3;

const SURVEY = {
  format: 'deniable.survey/v1',
  id: 'body',
  version: 1,
  title: 'Body and age',
  description: 'Two numeric questions.',
  results: 'public',
  access: 'open',
  questions: [
    {
      id: 'bmi', text: 'What is your body mass index?', type: 'numeric', range: [15, 45], unit: 'kg/m2',
      mechanism: { name: 'rvns', window: 4, values: 2, window_mode: 'fresh', uniform_probability: 0.25 },
    },
    {
      id: 'age', text: 'How old are you?', type: 'numeric', range: [18, 90], unit: 'years',
      mechanism: { name: 'square_wave', epsilon: 2 },
    },
  ],
};

// The simulated respondents answer a copy of the survey, so that the
// keyboard tests' reports (randomised by the OS) do not enter the estimates:
// with fixed seeds the dashboard's numbers are the same on every run.
const SIMULATED = { ...SURVEY, id: 'body-simulated' };

const fixture = useServerAndBrowser({ surveys: [SURVEY, SIMULATED] });

const oneDecimal = new Intl.NumberFormat('en', { maximumFractionDigits: 1, useGrouping: false });

// The number as a token of its own: "23.7" in "[23.7," but not in "123.71".
function containsNumber(text, value) {
  const literal = String(value).replace('.', '\\.');
  return new RegExp(`(^|[^\\d.])${literal}(?![\\d])`).test(text);
}

test('numeric questions answered with the keyboard send only the shown randomised values', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/s/body`);
  await forgetDevice(page);
  await page.getByTestId('survey-form').waitFor();
  assert.match(await page.getByTestId('privacy-bmi').textContent(), /ε = 2\.991 \(RVNS\)/);
  assert.match(await page.getByTestId('privacy-age').textContent(), /ε = 2 \(Square Wave\)/);
  assert.match(await page.getByTestId('total-epsilon').textContent(), /ε = 4\.991/);
  assert.equal(await page.getByTestId('range-bmi').textContent(), 'Any value from 15\u00a0kg/m2 to 45\u00a0kg/m2.');
  assert.equal(await page.getByTestId('slider-age').getAttribute('step'), '0.1');
  assert.equal(await page.getByTestId('slider-age').getAttribute('aria-valuetext'), 'not answered yet');

  // Question 1: Tab past its slider to the typed field and type the answer.
  await tabUntil(page, (focused) => focused.testid === 'number-bmi', 'the typed BMI');
  await page.keyboard.type(String(TRUE_BMI));
  assert.equal(await page.getByTestId('slider-bmi').inputValue(), String(TRUE_BMI), 'the slider follows the typed value');
  // Question 2: the slider, moved with the arrow keys; the typed field follows it.
  await tabUntil(page, (focused) => focused.testid === 'slider-age', 'the age slider');
  for (let press = 0; press < SLIDER_PRESSES; press += 1) await page.keyboard.press('ArrowRight');
  assert.equal((await focusedElement(page)).value, String(TRUE_AGE));
  assert.equal(await page.getByTestId('number-age').inputValue(), String(TRUE_AGE));
  assert.equal(await page.getByTestId('slider-age').getAttribute('aria-valuetext'), `${TRUE_AGE}\u00a0years`);

  await reviewAnswers(page, 'keyboard');
  const shownText = await prepareShownReport(page, log);
  const shown = JSON.parse(shownText);
  assert.deepEqual(Object.keys(shown).sort(), ['responses', 'survey', 'version']);
  assert.deepEqual(Object.keys(shown.responses).sort(), ['age', 'bmi']);
  const { bmi, age } = shown.responses;
  assert.equal(bmi.length, 2, 'RVNS sends k = 2 values');
  assert.ok(bmi.every((value) => value >= 15 && value <= 45), `RVNS values lie in the range: ${bmi}`);
  assert.equal(age.length, 1, 'Square Wave sends one value');
  // The human view: the reported values rounded to the slider's step, the unit once.
  assert.equal(await page.getByTestId('report-value-bmi').textContent(),
    `${bmi.map((value) => oneDecimal.format(value)).join(', ')}\u00a0kg/m2`);
  assert.equal(await page.getByTestId('report-value-age').textContent(), `${oneDecimal.format(age[0])}\u00a0years`);
  assert.match(await page.getByTestId('report-bmi').textContent(), /Values reported instead of yours/);
  assert.match(await page.getByTestId('report-note-bmi').textContent(),
    /avoids a hidden window 4\u00a0kg\/m2 wide around your answer, except that 25% of the time a value is drawn from the whole range instead\./);

  await tabUntil(page, (focused) => focused.testid === 'send-report', 'the Send button');
  await page.keyboard.press('Enter');
  await page.locator('[data-testid="send-status"][data-state="success"]').waitFor();

  const posts = log.requests.filter((request) => request.method === 'POST');
  assert.equal(posts.length, 1);
  assert.equal(new URL(posts[0].url).pathname, '/api/surveys/body/reports');
  assert.equal(posts[0].body, shownText, 'the body is byte for byte the JSON shown');
  assert.deepEqual(Object.keys(JSON.parse(posts[0].body)).sort(), ['responses', 'survey', 'version']);
  for (const request of log.requests) {
    for (const value of [TRUE_BMI, TRUE_AGE]) {
      assert.ok(!containsNumber(decodeURIComponent(request.url), value), `the URL contains ${value}: ${request.url}`);
      assert.ok(!containsNumber(request.body ?? '', value), `a request body contains ${value}: ${request.body}`);
    }
  }
  assert.equal(await page.evaluate(() => JSON.stringify(Object.fromEntries(Object.entries({ ...localStorage, ...sessionStorage }).filter(([key]) => !key.startsWith('deniable.answered.'))))), '{}');
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('the published RVNS (γ = 0) is shown as having no formal epsilon, with its window note', async () => {
  const published = {
    ...SURVEY, id: 'published', title: 'Published RVNS',
    questions: [{ ...SURVEY.questions[0], mechanism: { name: 'rvns', window: 4, values: 3, window_mode: 'shared' } }],
  };
  const { page, log } = await openNewSurvey(published);
  assert.equal(await page.getByTestId('privacy-bmi').textContent(),
    'Question 1: no formal epsilon (RVNS) — the values sent always avoid a hidden window around your answer, which hides it, but that gives no formal guarantee: no ε bounds what they reveal.');
  assert.match(await page.getByTestId('total-epsilon').textContent(), /no formal epsilon/);
  await page.getByTestId('number-bmi').fill(String(TRUE_BMI));
  await reviewAnswers(page, 'click');
  await page.getByTestId('prepare-report').click();
  await page.getByTestId('report-panel').waitFor();
  const reported = JSON.parse(await page.getByTestId('report-json').textContent()).responses.bmi;
  assert.equal(reported.length, 3);
  // One window of width 4 contains the answer and none of the values, so
  // some interval of width 4 around 23.7 is free of them: the gap between
  // the nearest values on either side (or the range ends) is at least 4.
  const below = Math.max(15, ...reported.filter((value) => value < TRUE_BMI));
  const above = Math.min(45, ...reported.filter((value) => value > TRUE_BMI));
  assert.ok(above - below >= 4, `values ${reported} leave no window of width 4 around the answer`);
  assert.equal(await page.getByTestId('report-note-bmi').textContent(),
    'None of these values lies in the hidden window 4\u00a0kg/m2 wide around your answer.');
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('an answer outside the range is refused with a message naming the question', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/s/body`);
  await forgetDevice(page);
  await page.getByTestId('survey-form').waitFor();
  await page.getByTestId('number-bmi').fill('99');
  await page.getByTestId('number-age').fill('40');
  await page.getByTestId('review-answers').click();
  assert.equal(await page.getByTestId('answer-error').textContent(),
    'Please correct question 1 (“What is your body mass index?”) before preparing your report: the number typed is not accepted (the message next to the field says why and gives the range).');
  assert.equal((await focusedElement(page)).testid, 'number-bmi');
  assert.equal(await page.getByTestId('report-panel').count(), 0);
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('a question with a step says so, refuses an answer off its steps, and takes one on them', async () => {
  const stepped = {
    ...SURVEY, id: 'stepped', title: 'Ratings',
    questions: [{ id: 'rating', text: 'How do you rate it?', type: 'numeric', range: [1, 10], step: 0.5, mechanism: { name: 'square_wave', epsilon: 2 } }],
  };
  const { page, log } = await openNewSurvey(stepped);
  assert.equal(await page.getByTestId('range-rating').textContent(), 'A value from 1 to 10, in steps of 0.5.');
  assert.equal(await page.getByTestId('slider-rating').getAttribute('step'), '0.5');
  await page.getByTestId('number-rating').fill('7.2');
  await page.getByTestId('review-answers').click();
  assert.equal(await page.getByTestId('number-rating-message').textContent(),
    '7.2 is not one of the allowed values: answers go in steps of 0.5 (for example 7 or 7.5).');
  assert.equal(await page.getByTestId('report-panel').count(), 0);
  await page.getByTestId('number-rating').fill('7.5');
  await reviewAnswers(page, 'click');
  await page.getByTestId('prepare-report').click();
  await page.getByTestId('report-panel').waitFor();
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

// Creates a survey as the admin and opens its page (recorded), ready to answer.
async function openNewSurvey(definition) {
  await createSurvey(fixture.server, definition);
  const opened = await openRecordedPage(fixture.browser.context);
  await opened.page.goto(`${fixture.server.baseUrl}/s/${definition.id}`);
  await forgetDevice(opened.page);
  await opened.page.getByTestId('survey-form').waitFor();
  return opened;
}

function simulateAnswers() {
  const generator = createSeededGenerator(ANSWER_SEED);
  return Array.from({ length: RESPONDENTS }, () => ({
    bmi: truncatedNormal(generator, 26, 4, 15, 45),
    // Ages: a mixture of two groups.
    age: generator.nextUnit() < 0.6 ? truncatedNormal(generator, 35, 8, 18, 90) : truncatedNormal(generator, 65, 10, 18, 90),
  }));
}

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;


test('the dashboard shows the density, n and mean intervals that contain the true means', async (t) => {
  const answers = simulateAnswers();
  await postSimulatedReports(fixture.server, SIMULATED, answers, REPORT_SEED_BASE);

  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/results/${SIMULATED.id}`);
  const total = RESPONDENTS;
  await page.locator('[data-testid="respondents"]', { hasText: /^3,000$/ }).waitFor({ timeout: 30_000 });
  const results = (await requestJson(fixture.server.baseUrl, `/api/surveys/${SIMULATED.id}/results`)).body;
  assert.equal(results.respondents, total);

  for (const question of SURVEY.questions) {
    const id = question.id;
    await page.locator(`[data-testid="n-${id}"]`, { hasText: /^3,000$/ }).waitFor();
    assert.ok(await page.getByTestId(`density-${id}`).isVisible(), `${id}: the density chart is shown`);
    assert.ok(await page.getByTestId(`histogram-${id}`).isVisible(), `${id}: the histogram is shown`);
    const server = results.questions.find((entry) => entry.id === id);
    const cell = page.getByTestId(`stat-ci-${id}-mean`);
    const low = Number(await cell.getAttribute('data-low'));
    const high = Number(await cell.getAttribute('data-high'));
    assert.equal(low, server.statistics.mean.low, `${id}: shown low differs from the server's`);
    assert.equal(high, server.statistics.mean.high, `${id}: shown high differs from the server's`);
    const truth = mean(answers.map((answer) => answer[id]));
    t.diagnostic(`${id}: true mean ${truth.toFixed(3)}, estimate ${server.statistics.mean.value.toFixed(3)}, 95% interval [${low.toFixed(3)}, ${high.toFixed(3)}]`);
    assert.ok(low <= truth && truth <= high,
      `${id}: the 95% interval of the mean [${low}, ${high}] misses the true mean ${truth} (estimate ${server.statistics.mean.value})`);
    assert.match(await page.getByTestId(`interval-method-${id}`).textContent(),
      /^Intervals: bias-aware parametric bootstrap .*replicates drawn from a less smoothed fit.*, 50 replicates\. A statistic marked unreliable/);
    // The density's band says what it is for (a window around each point), and any unsupported bump.
    const densityCaption = await page.getByTestId(`density-caption-${id}`).textContent();
    assert.ok(densityCaption.includes(`95% band for the share of answers per unit within ${new Intl.NumberFormat('en', { maximumFractionDigits: 3 }).format(server.density.window)}`),
      `${id}: ${densityCaption}`);
    assert.equal(densityCaption.includes('Note: the bump'), server.density.note !== null, `${id}: ${densityCaption}`);
    // Each statistic's note, when the server gives one, is shown under its interval; withheld ones show no numbers.
    for (const [key, statistic] of Object.entries(server.statistics)) {
      const note = page.getByTestId(`stat-note-${id}-${key}`);
      if (statistic.note) {
        assert.equal(await note.textContent(), `${statistic.value === null ? 'Not shown' : 'Unreliable'}: ${statistic.note}.`, `${id} ${key}`);
      } else {
        assert.equal(await note.isVisible(), false, `${id} ${key} has no note`);
      }
      if (statistic.value === null) assert.equal(await page.getByTestId(`stat-${id}-${key}`).textContent(), '—');
    }
  }
  assert.match(await page.getByTestId('epsilon-bmi').textContent(), /ε = 2\.991/);
  assert.match(await page.getByTestId('mechanism-bmi').textContent(), /RVNS.*window 4, 2 values, a fresh window per value, uniform probability γ = 0\.25/);
  await screenshot(page, 'desktop-numeric-dashboard');

  // Each question has its own bin width, in its unit (a twentieth of its range by default, shown as the
  // placeholder); the analyst's goes to the server as ?bmi.bin_width=, and the CSV export uses the same query.
  assert.equal(await page.getByTestId('numeric-bin-width-bmi').getAttribute('placeholder'), '1.5');
  assert.equal(await page.getByTestId('numeric-bin-width-age').getAttribute('placeholder'), '3.6');
  assert.equal(await page.locator('label[for="numeric-bin-width-age"]').textContent(), 'Bin width: How old are you? (years)');
  await page.getByTestId('numeric-bin-width-bmi').fill('5');
  await page.getByTestId('numeric-bin-width-bmi').press('Enter');
  const refetch = await page.waitForRequest((request) => /\/results\?bmi\.bin_width=5$/.test(request.url()));
  const response = await refetch.response();
  const document = await response.json();
  const binWidth = document.questions[0].histogram.bin_width;
  await page.locator('[data-testid="histogram-caption-bmi"]', { hasText: new RegExp(`bins? of width ${binWidth}\\b`) }).waitFor();
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  assert.equal(csv.url(), `${fixture.server.baseUrl}/api/surveys/${SIMULATED.id}/results.csv?bmi.bin_width=5`);

  // The default estimator is shown with the curvature penalty it used (1e-5 sqrt(values)).
  const penalty = document.questions[0].curvature_penalty;
  assert.ok(penalty > 0);
  await page.locator('[data-testid="estimator-bmi"]',
    { hasText: `penalised maximum likelihood (PML), curvature penalty λ = ${penalty.toPrecision(2)}` }).waitFor();
  // And whether it converged, in how many steps.
  assert.equal(document.questions[0].fit.converged, true);
  assert.equal(await page.getByTestId('fit-bmi').textContent(),
    `converged (${document.questions[0].fit.steps.toLocaleString('en-US')} map steps)`);

  // The analyst's own smoothing goes as ?curvature_penalty= (also into the
  // CSV export's query), and the panel says the λ is theirs; emptied, the
  // server's automatic choice is back.
  const penaltyRequest = page.waitForRequest((request) => /\/results\?curvature_penalty=0\.5&bmi\.bin_width=5$/.test(request.url()));
  await page.getByTestId('numeric-curvature-penalty').fill('0,5');  // a decimal comma is read as 0.5, never as 5
  await page.getByTestId('numeric-curvature-penalty').press('Enter');
  const penalised = await (await (await penaltyRequest).response()).json();
  assert.equal(penalised.questions[0].curvature_penalty, 0.5);
  assert.equal(penalised.questions[0].curvature_penalty_rule, 'analyst');
  await page.locator('[data-testid="estimator-bmi"]', { hasText: 'curvature penalty λ = 0.50 (yours)' }).waitFor();
  const [ownCsv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  assert.equal(ownCsv.url(), `${fixture.server.baseUrl}/api/surveys/${SIMULATED.id}/results.csv?curvature_penalty=0.5&bmi.bin_width=5`);
  await page.getByTestId('numeric-curvature-penalty').fill('-1');
  await page.getByTestId('numeric-curvature-penalty').press('Enter');
  assert.equal(await page.getByTestId('numeric-controls-error').textContent(), 'The smoothing λ must be a number from 0 to 1,000,000.');
  const automaticRequest = page.waitForRequest((request) => /\/results\?bmi\.bin_width=5$/.test(request.url()));
  await page.getByTestId('numeric-curvature-penalty').fill('');
  await page.getByTestId('numeric-curvature-penalty').press('Enter');
  await automaticRequest;
  assert.equal(await page.getByTestId('numeric-controls-error').isHidden(), true);

  // The estimator goes as ?estimator=; the paper's KDE + SQP is not offered,
  // because the Square Wave question cannot use it.
  assert.equal(await page.locator('[data-testid="numeric-estimator"] option[value="kde_sqp"]').isDisabled(), true);
  const emRequest = page.waitForRequest((request) => /\/results\?estimator=em&bmi\.bin_width=5$/.test(request.url()));
  await page.getByTestId('numeric-estimator').selectOption('em');
  assert.equal((await (await (await emRequest).response()).json()).questions[0].estimator, 'em');
  await page.locator('[data-testid="estimator-bmi"]', { hasText: /^EM$/ }).waitFor();
  await page.locator('[data-testid="estimator-age"]', { hasText: /^EM$/ }).waitFor();
  // The smoothing λ belongs to PML: with EM it is disabled.
  assert.equal(await page.getByTestId('numeric-curvature-penalty').isDisabled(), true);

  // Too many bins to draw (over 200 on the age range, 72 years): refused on the page.
  await page.getByTestId('numeric-bin-width-age').fill('0.1');
  await page.getByTestId('numeric-bin-width-age').press('Enter');
  assert.equal(await page.getByTestId('numeric-controls-error').textContent(),
    'The bin width of “How old are you?” must be at least 0.36, so that its histogram has no more than 200 bins.');
  await page.getByTestId('numeric-bin-width-age').fill('');
  // Settings the server refuses (simulated here: the page accepts nothing the
  // server is known to refuse) are explained, and the last accepted ones come back.
  await page.route(/\/results\?estimator=em&bmi\.bin_width=7$/, (route) => route.fulfill({
    status: 400, contentType: 'application/json',
    body: JSON.stringify({ error: { code: 'invalid_query', message: 'question "bmi": bin_width is refused for this test' } }),
  }));
  // The age field's change (on leaving it) asks for bmi.bin_width=5; its answer is held until
  // the analyst has asked for 7, so it arrives after: it must not count as accepting 7.
  let releaseHeld;
  const held = new Promise((resolve) => { releaseHeld = resolve; });
  await page.route(/\/results\?estimator=em&bmi\.bin_width=5$/, async (route) => {
    await held;
    await route.continue();
  }, { times: 1 });
  await page.getByTestId('numeric-bin-width-bmi').fill('7');
  await page.getByTestId('numeric-bin-width-bmi').press('Enter');
  releaseHeld();
  await page.locator('[data-testid="numeric-controls-error"]', { hasText: 'The server refused these settings: question "bmi": bin_width is refused for this test' }).waitFor();
  assert.equal(await page.getByTestId('numeric-bin-width-bmi').inputValue(), '5');
  assert.equal(await page.getByTestId('numeric-estimator').inputValue(), 'em');
  await page.waitForRequest((request) => /\/results\?estimator=em&bmi\.bin_width=5$/.test(request.url()));
  assert.equal(await page.getByTestId('poll-status').isVisible(), false);

  const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
  const chunks = [];
  for await (const chunk of await json.createReadStream()) chunks.push(chunk);
  const exported = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  assert.equal(exported.respondents, total);
  assert.equal(exported.questions[0].estimator, 'em');
  assert.equal(exported.questions[0].histogram.bin_width, 5);
  assert.ok(exported.questions[0].density && exported.questions[0].statistics, 'the JSON export is the results document');
  // Chromium logs the refused request provoked above.
  assert.deepEqual(unexpectedProblems(log, [/Failed to load resource: the server responded with a status of 400/]), []);
  await page.close();
});

test('the numeric survey page and dashboard fit a phone', async () => {
  await onPhone(async ({ page, log }) => {
    for (const [path, ready, name] of [['/s/body', 'survey-form', 'phone-numeric-survey'], [`/results/${SIMULATED.id}`, 'density-bmi', 'phone-numeric-dashboard']]) {
      await page.goto(`${fixture.server.baseUrl}${path}`);
      if (path.startsWith('/s/')) await forgetDevice(page);
      await page.getByTestId(ready).waitFor();
      await assertFits(page, path);
      if (path === '/s/body') {
        const heights = await page.locator('input[type="range"], input[type="number"]').evaluateAll((inputs) =>
          inputs.map((input) => input.getBoundingClientRect().height));
        for (const height of heights) assert.ok(height >= 44, `a numeric control is only ${height}px tall`);
      }
      await screenshot(page, name);
      if (path !== '/s/body') assert.deepEqual(await axeViolationsAtWidth(page, 'main'), [], 'the dashboard at 320 px');
      if (path === '/s/body') {
        await page.getByTestId('number-bmi').fill('31');
        await page.getByTestId('number-age').fill('40');
        await reviewAnswers(page, 'tap');
        await page.getByTestId('prepare-report').tap();
        await page.getByTestId('report-panel').waitFor();
        await screenshot(page, 'phone-numeric-report');
      }
    }
    assert.deepEqual(unexpectedProblems(log), []);
    await page.close();
  });
});

test('the creation page builds a numeric question with the core\'s live epsilon and messages', async () => {
  const core = await loadCore();
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/create`);
  const editor = page.getByTestId('question-editor-0');
  await editor.waitFor();
  await page.getByTestId('survey-id').fill('weights');
  await page.getByTestId('survey-title-input').fill('Weights');
  await editor.getByTestId('question-type').selectOption('numeric');
  assert.equal(await editor.getByTestId('question-options').isVisible(), false, 'no options for a numeric question');
  await editor.getByTestId('question-id').fill('bmi');
  await editor.getByTestId('question-text').fill('What is your body mass index?');
  await editor.getByTestId('question-low').fill('15');
  await editor.getByTestId('question-high').fill('45');
  await editor.getByTestId('question-unit').fill('kg/m2');
  await editor.getByTestId('question-numeric-mechanism').selectOption('rvns');
  assert.equal(await editor.getByTestId('question-epsilon').isVisible(), false, 'RVNS takes no ε');
  await editor.getByTestId('question-window').fill('4');
  await editor.getByTestId('question-values').fill('2');
  await editor.getByTestId('question-window-mode').selectOption('fresh');
  await editor.getByTestId('question-uniform-probability').fill('0.25');

  // The budget is the core's, for exactly this definition.
  const definition = JSON.parse(await page.getByTestId('definition-json').textContent());
  assert.deepEqual(definition.questions[0], {
    id: 'bmi', text: 'What is your body mass index?', type: 'numeric', range: [15, 45], unit: 'kg/m2',
    mechanism: { name: 'rvns', window: 4, values: 2, window_mode: 'fresh', uniform_probability: 0.25 },
  });
  const epsilon = core.parseSurvey(definition).questions[0].epsilon;
  assert.equal(await editor.getByTestId('question-privacy').textContent(), `This question: ε = ${new Intl.NumberFormat('en', { maximumFractionDigits: 3 }).format(epsilon)}`);
  assert.equal(await page.getByTestId('validation').getAttribute('data-state'), 'success');

  // γ = 0 is the published RVNS: no formal epsilon, and the key is left out.
  await editor.getByTestId('question-uniform-probability').fill('0');
  assert.match(await editor.getByTestId('question-privacy').textContent(), /^This question: no formal epsilon/);
  assert.match(await page.getByTestId('total-epsilon').textContent(), /no formal epsilon/);
  assert.equal(JSON.parse(await page.getByTestId('definition-json').textContent()).questions[0].mechanism.uniform_probability, undefined);

  // The core's validation message, naming the field, for a window wider than half the range.
  await editor.getByTestId('question-window').fill('20');
  assert.equal(await editor.getByTestId('question-privacy').textContent(),
    'This question: mechanism.window: window must be in [1e-06 (b-a), (b-a)/2] = [3e-05, 15], but is 20');
  assert.equal(await page.getByTestId('validation').getAttribute('data-state'), 'error');
  assert.equal(await page.getByTestId('create-survey').isDisabled(), true);

  // Other mechanisms take ε.
  await editor.getByTestId('question-window').fill('4');
  await editor.getByTestId('question-numeric-mechanism').selectOption('square_wave');
  await editor.getByTestId('question-epsilon').fill('2');
  assert.equal(await editor.getByTestId('question-privacy').textContent(), 'This question: ε = 2');
  assert.deepEqual(JSON.parse(await page.getByTestId('definition-json').textContent()).questions[0].mechanism, { name: 'square_wave', epsilon: 2 });

  // A step must divide the range: the core says so, naming the field; one that does goes into the definition.
  await editor.getByTestId('question-step').fill('0,7');
  assert.match(await editor.getByTestId('question-privacy').textContent(), /step: 0\.7 does not divide the range's width 30 into whole steps/);
  assert.equal(await page.getByTestId('validation').getAttribute('data-state'), 'error');
  await editor.getByTestId('question-step').fill('0.5');
  assert.equal(JSON.parse(await page.getByTestId('definition-json').textContent()).questions[0].step, 0.5);
  assert.equal(await page.getByTestId('validation').getAttribute('data-state'), 'success');

  await page.getByTestId('admin-token').fill(fixture.server.adminToken);
  await page.getByTestId('create-survey').click();
  await page.getByTestId('create-success').waitFor();
  const created = await requestJson(fixture.server.baseUrl, '/api/surveys/weights');
  assert.equal(created.status, 200);
  assert.equal(created.body.questions[0].type, 'numeric');
  assert.equal(created.body.questions[0].step, 0.5);
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

