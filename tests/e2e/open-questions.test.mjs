// Questions asked openly ("privacy": "open") end to end: a survey of an open
// categorical question (region), an open numeric question (age), a randomised
// categorical question (GRR, ε = 1) and a pure negative survey (whose report
// never holds the true option), built in the builder.
// (a) The builder: "Asked openly (demographics, strata)" for categorical and
//     numeric questions, no mechanism or ε fields then, the survey's total ε
//     without them, the warning that open questions together can identify a
//     person with the number of combinations (product of the option counts;
//     numbers: nearly every combination unique), the definition it creates;
//     axe-clean.
// (b) The survey page lists the open questions before the first question
//     ("sent as you give them") beside the randomised ones, says that
//     randomised answers keep their ε whatever the open answers are and that
//     open answers are not protected; the report shows and sends the open
//     answers as given and not the negative survey's true option; axe-clean;
//     it fits a phone (screenshot).
// (c) The dashboard: the open results with n, exact shares, an option of
//     fewer than 5 respondents hidden ("fewer than 5", no bar), the open
//     number's statistics and histogram (no density, no estimator
//     controls), "asked openly: not protected" instead of an ε; axe-clean.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadCore } from '../../web/src/core.js';
import { onPhone, openRecordedPage, unexpectedProblems } from './support/browser.mjs';
import { useServerAndBrowser } from './support/fixture.mjs';
import { forgetDevice } from './support/device.mjs';
import { assertFits, screenshot } from './support/page-checks.mjs';
import { postReports, requestJson } from './support/server.mjs';
import { reviewAndPrepare } from './support/survey-steps.mjs';
import { axeViolations } from './support/axe.mjs';

const fixture = useServerAndBrowser();

const SURVEY_ID = 'open-e2e';
const REGION = { id: 'region', text: 'Where do you live?', type: 'categorical', options: ['North', 'South', 'East', 'West'], privacy: 'open' };
const AGE = { id: 'age', text: 'How old are you?', type: 'numeric', range: [18, 98], unit: 'years', step: 1, privacy: 'open' };
const DRUG = { id: 'drug', text: 'Did you use cannabis last month?', type: 'categorical', options: ['No', 'Yes'], mechanism: { name: 'grr', epsilon: 1 } };
const STRESS = {
  id: 'stress', text: 'What stresses you most?', type: 'categorical', options: ['Work', 'Money', 'Family', 'Health'],
  mechanism: { name: 'negative', reported_options: 2 },
};
const TRUE = { region: 2, age: 41, drug: 1, stress: 2 };  // East, 41 years, Yes, Family

// The survey the builder test creates; created over the API when that test
// did not (run alone, or failed), so each test stands on its own.
async function ensureSurvey() {
  const existing = await requestJson(fixture.server.baseUrl, `/api/surveys/${SURVEY_ID}`);
  if (existing.status === 200) return;
  const created = await requestJson(fixture.server.baseUrl, '/api/surveys', {
    method: 'POST', headers: { Authorization: `Bearer ${fixture.server.adminToken}` },
    json: { format: 'deniable.survey/v1', id: SURVEY_ID, version: 1, title: 'Region, age and habits', description: '', results: 'public', access: 'open', questions: [REGION, AGE, DRUG, STRESS] },
  });
  assert.equal(created.status, 201, `survey not created: ${JSON.stringify(created.body)}`);
}

async function fillCategorical(editor, { id, text, options }) {
  await editor.getByTestId('question-text').fill(text);
  await editor.getByTestId('question-id').fill(id);
  await editor.getByTestId('question-options').fill(options.join('\n'));
}

test('the builder offers "Asked openly" for categorical and numeric questions, outside the total ε, with the identification warning', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/create`);
  await forgetDevice(page);
  await page.getByTestId('question-editor-0').waitFor();
  await page.getByTestId('survey-id').fill(SURVEY_ID);
  await page.getByTestId('survey-title-input').fill('Region, age and habits');
  await page.getByTestId('survey-results').selectOption('public');
  const definition = async () => JSON.parse(await page.getByTestId('definition-json').textContent()).questions;

  // 1: region, asked openly: no mechanism, no ε.
  const region = page.getByTestId('question-editor-0');
  await fillCategorical(region, REGION);
  assert.ok(await region.getByTestId('question-trust-open').isVisible());
  assert.match(await region.getByTestId('question-trust').textContent(), /Asked openly \(demographics, strata\)/);
  await region.getByTestId('question-trust-open').check();
  assert.equal(await region.getByTestId('question-mechanism').isVisible(), false);
  assert.equal(await region.getByTestId('question-epsilon').isVisible(), false);
  assert.equal(await region.getByTestId('question-central-fields').isVisible(), false);
  assert.deepEqual((await definition())[0], REGION);
  assert.match(await region.getByTestId('question-privacy').textContent(), /^This question: asked openly: not protected/);
  const warning = page.getByTestId('open-warning');
  assert.ok(await warning.isVisible());
  assert.match(await warning.textContent(), /together .* can identify a person/);
  assert.doesNotMatch(await warning.textContent(), /combinations/, 'one open question: no combinations yet');

  // 2: age, a number asked openly: no mechanism, no ε; the warning says numbers single people out.
  await page.getByTestId('add-question').click();
  const age = page.getByTestId('question-editor-1');
  await age.getByTestId('question-type').selectOption('numeric');
  await age.getByTestId('question-text').fill(AGE.text);
  await age.getByTestId('question-id').fill(AGE.id);
  await age.getByTestId('question-low').fill('18');
  await age.getByTestId('question-high').fill('98');
  await age.getByTestId('question-unit').fill('years');
  await age.getByTestId('question-step').fill('1');
  assert.equal(await age.getByTestId('question-trust-central').isVisible(), false, 'a number cannot be answered in confidence');
  await age.getByTestId('question-trust-open').check();
  assert.equal(await age.getByTestId('question-numeric-mechanism').isVisible(), false);
  assert.equal(await age.getByTestId('question-epsilon').isVisible(), false);
  assert.deepEqual((await definition())[1], AGE);
  assert.match(await warning.textContent(), /Numbers asked openly make nearly every combination unique: ask ranges \(a choice among options\) instead/);
  // Two open choices: the product of their option counts.
  await age.getByTestId('question-type').selectOption('categorical');
  await age.getByTestId('question-options').fill('18-34\n35-54\n55+');
  assert.match(await warning.textContent(), /12 possible combinations of the open answers \(4 × 3\)/);
  assert.doesNotMatch(await warning.textContent(), /Numbers asked openly/);
  await age.getByTestId('question-type').selectOption('numeric');
  assert.deepEqual((await definition())[1], AGE, 'the number’s fields and choice are kept across the type change');

  // 3: a randomised question: the total is its ε alone.
  await page.getByTestId('add-question').click();
  const drug = page.getByTestId('question-editor-2');
  await fillCategorical(drug, DRUG);
  assert.ok(await drug.getByTestId('question-mechanism').isVisible());
  assert.deepEqual((await definition())[2], DRUG);
  assert.equal(await page.getByTestId('total-epsilon').textContent(), 'ε = 1');
  assert.match(await page.getByTestId('total-epsilon-open').textContent(), /the 2 questions asked openly are not counted: they are not protected/);

  // 4: the pure negative survey.
  await page.getByTestId('add-question').click();
  const stress = page.getByTestId('question-editor-3');
  await fillCategorical(stress, STRESS);
  await stress.getByTestId('question-mechanism').selectOption('negative');
  await stress.getByTestId('question-reported-options').fill('2');
  await stress.getByTestId('question-pure-negative').check();
  assert.deepEqual((await definition())[3], STRESS);
  assert.equal(await page.getByTestId('validation').getAttribute('data-state'), 'success');

  assert.deepEqual(await axeViolations(page, 'main'), []);
  await screenshot(page, 'desktop-open-create');
  await assertFits(page, 'the creation page at 1280 px');
  await page.getByTestId('admin-token').fill(fixture.server.adminToken);
  await page.getByTestId('create-survey').click();
  await page.getByTestId('create-success').waitFor();
  const created = await requestJson(fixture.server.baseUrl, `/api/surveys/${SURVEY_ID}`);
  assert.equal(created.status, 200);
  assert.deepEqual(created.body.questions, [REGION, AGE, DRUG, STRESS]);
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('the survey page lists the open questions first, says what is protected, and sends the open answers as given', async () => {
  await ensureSurvey();
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/s/${SURVEY_ID}`);
  await forgetDevice(page);
  await page.getByTestId('survey-form').waitFor();

  // Before the first question: the open ones, sent as given, beside the randomised ones.
  // It comes with the client core, which the page loads after drawing the questions.
  const notice = page.getByTestId('trust-notice');
  await notice.waitFor();
  const noticeBox = await notice.boundingBox();
  const firstQuestionBox = await page.getByTestId('question-region').boundingBox();
  assert.ok(noticeBox.y + noticeBox.height <= firstQuestionBox.y, 'the notice comes before the first question');
  const open = await page.getByTestId('trust-open').textContent();
  assert.match(open, /Asked openly: sent as you give them \(2 questions\)/);
  assert.match(open, /not randomised/);
  assert.deepEqual(await page.getByTestId('trust-open-list').locator('li').allTextContents(), [`1. ${REGION.text}`, `2. ${AGE.text}`]);
  assert.match(await page.getByTestId('trust-local').textContent(), /Randomised on your device \(2 questions\)/);
  assert.deepEqual(await page.getByTestId('trust-local-list').locator('li').allTextContents(), [`3. ${DRUG.text}`, `4. ${STRESS.text}`]);
  assert.equal(await page.getByTestId('trust-central').count(), 0);
  // The statement: open answers are not protected; randomised ones keep their ε whatever they are.
  const statement = await page.getByTestId('privacy-open-statement').textContent();
  assert.match(statement, /Answers to questions asked openly are sent as you give them: they are not protected\./);
  assert.match(statement, /Your randomised answers keep their privacy budget \(ε\) whatever your open answers are/);
  assert.equal(await page.getByTestId('privacy-words-region').textContent(), 'Question 1: sent as you give it: not randomised and not protected.');
  assert.equal(await page.getByTestId('privacy-region').textContent(), 'Question 1: not protected (asked openly: no ε, not counted in the total)');
  for (const id of ['region', 'age']) assert.match(await page.getByTestId(`open-${id}`).textContent(), /^Asked openly This answer is sent as you give it/);
  assert.equal(await page.getByTestId('open-drug').count(), 0);
  assert.deepEqual(await axeViolations(page), []);
  await screenshot(page, 'desktop-open-survey');

  await page.getByTestId(`option-region-${TRUE.region}`).check();
  await page.getByTestId('number-age').fill(String(TRUE.age));
  await page.getByTestId(`option-drug-${TRUE.drug}`).check();
  await page.getByTestId(`option-stress-${TRUE.stress}`).check();
  await reviewAndPrepare(page);

  // The report: the open answers as given (in words and in the JSON), the randomised ones randomised.
  assert.equal(await page.locator('#report-heading').textContent(), 'Your report');
  const shownText = await page.getByTestId('report-json').textContent();
  const shown = JSON.parse(shownText);
  assert.equal(shown.responses.region, TRUE.region);
  assert.equal(shown.responses.age, TRUE.age);
  assert.equal(await page.getByTestId('report-value-region').textContent(), 'East');
  assert.equal(await page.getByTestId('report-value-age').textContent(), '41\u00a0years');
  assert.match(await page.getByTestId('report-region').textContent(), /Sent as you gave it \(asked openly\): East/);
  assert.match(await page.getByTestId('report-age').textContent(), /no privacy budget protects it/);
  assert.match(await page.getByTestId('report-drug').textContent(), /^Did you use cannabis last month\?Option sent: /);
  assert.ok(!shown.responses.stress.includes(TRUE.stress), `the negative survey reported the true option: ${shownText}`);
  assert.deepEqual(await axeViolations(page), []);
  await screenshot(page, 'desktop-open-report');

  await page.getByTestId('send-report').click();
  await page.locator('[data-testid="send-status"][data-state="success"]').waitFor();
  const posts = log.requests.filter((request) => request.method === 'POST' && request.url.endsWith(`/api/surveys/${SURVEY_ID}/reports`));
  assert.equal(posts.length, 1);
  assert.equal(posts[0].body, shownText, 'the body is byte for byte the JSON shown');
  const sent = JSON.parse(posts[0].body);
  assert.deepEqual({ region: sent.responses.region, age: sent.responses.age }, { region: TRUE.region, age: TRUE.age }, 'open answers are sent as given');
  assert.ok(!sent.responses.stress.includes(TRUE.stress), 'the randomised true answer is not in the body');
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('the survey page with open questions fits a phone', async () => {
  await ensureSurvey();
  await onPhone(async ({ page, log }) => {
    await page.goto(`${fixture.server.baseUrl}/s/${SURVEY_ID}`);
    await forgetDevice(page);
    await page.getByTestId('survey-form').waitFor();
    assert.ok(await page.getByTestId('trust-open').isVisible());
    await assertFits(page, 'the survey page at 390 px');
    await screenshot(page, 'phone-open-survey');
    assert.deepEqual(unexpectedProblems(log), []);
  });
});

test('the dashboard shows the open results exactly, hides a small option and says they are not protected', async () => {
  // 40 more respondents: West chosen by 3 of them (hidden), ages 20 to 59.
  await ensureSurvey();
  const core = await loadCore();
  const survey = (await requestJson(fixture.server.baseUrl, `/api/surveys/${SURVEY_ID}`)).body;
  const regions = [...Array(13).fill(0), ...Array(12).fill(1), ...Array(12).fill(2), ...Array(3).fill(3)];
  const reports = regions.map((region, index) => core.perturb(survey, { region, age: 20 + index, drug: index % 2, stress: index % 4 }));
  await postReports(fixture.server.baseUrl, SURVEY_ID, reports);

  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/results/${SURVEY_ID}`);
  await page.locator('[data-testid="n-region"]', { hasText: '41' }).waitFor();
  const api = (await requestJson(fixture.server.baseUrl, `/api/surveys/${SURVEY_ID}/results`)).body;
  const regionResult = api.questions.find((question) => question.id === 'region');
  assert.equal(regionResult.n, 41);
  assert.equal(await page.getByTestId('epsilon-region').textContent(), 'asked openly: not protected');
  assert.equal(await page.getByTestId('epsilon-age').textContent(), 'asked openly: not protected');
  assert.equal(await page.getByTestId('epsilon-drug').textContent(), 'ε = 1');
  assert.match(await page.getByTestId('total-epsilon-note').textContent(), /the 2 questions asked openly: not protected, not counted/);
  // Exact shares with the server's numbers; West (3 respondents) not shown, nor South (12, the next smallest):
  // 41 minus the other counts would give West's away.
  assert.equal(regionResult.options[1].hidden, 'hidden so that a smaller count cannot be worked out');
  assert.equal(await page.getByTestId('estimate-region-1').textContent(), 'not shown');
  for (const [index, count] of [[0, 13], [2, 13]]) {
    assert.equal(regionResult.options[index].count, count);
    assert.equal(Number(await page.getByTestId(`estimate-region-${index}`).getAttribute('data-value')), count / 41);
    assert.equal(await page.getByTestId(`consistent-region-${index}`).textContent(), String(count));
  }
  assert.equal(regionResult.options[3].hidden, 'fewer than 5 respondents');
  assert.equal(await page.getByTestId('estimate-region-3').textContent(), 'fewer than 5');
  assert.equal(await page.getByTestId('ci-region-3').textContent(), '—');
  assert.match(await page.getByTestId('question-region').textContent(), /Options chosen by 1 to 4 respondents are not shown/);
  // The open number: its exact statistics and the histogram; nothing estimated, nothing to tune.
  const ageResult = api.questions.find((question) => question.id === 'age');
  assert.equal(await page.getByTestId('n-age').textContent(), '41');
  assert.equal(Number(await page.getByTestId('stat-age-mean').getAttribute('data-value')), ageResult.statistics.mean.value);
  assert.equal(Number(await page.getByTestId('stat-ci-age-mean').getAttribute('data-high')), ageResult.statistics.mean.high);
  assert.ok(await page.getByTestId('histogram-age').isVisible());
  // Ages 20 to 59 and 41 in bins of 4 years from 18: only [38, 42) has 5 answers; the ten other bins with answers are hidden.
  assert.equal(ageResult.histogram.value.filter((value) => value === null).length, 10);
  assert.match(await page.getByTestId('histogram-caption-age').textContent(), /10 bins have 1 to 4 respondents: not shown/);
  assert.equal(await page.getByTestId('density-age').count(), 0);
  assert.equal(await page.getByTestId('numeric-estimator').isVisible(), false);
  assert.match(await page.getByTestId('interval-for-age').textContent(), /sampling alone: these answers are not randomised/);
  // The randomised question keeps its panel.
  assert.ok(await page.getByTestId('chart-drug').isVisible());
  assert.deepEqual(await axeViolations(page, 'main'), []);
  await screenshot(page, 'desktop-open-dashboard');
  await assertFits(page, 'the dashboard at 1280 px');
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});
