// Optional questions ("required": false) end to end, on a survey created
// through the API with one required and one optional question:
// (a) answered with the keyboard only, the optional question skipped with its
// "Skip this question" box: the preview says it was skipped, the report shown
// and POSTed has no response for it, and the dashboard shows how many
// answered and how many skipped it (its n counts only its own respondents,
// the survey's respondents every report);
// (b) left unanswered without ticking the box, it is asked for like any
// other question (nobody skips by accident);
// (c) the creation page's "Respondents may skip this question" puts
// "required": false in the definition, and the core accepts it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadCore } from '../../web/src/core.js';
import { openRecordedPage, unexpectedProblems } from './support/browser.mjs';
import { focusedElement, tabUntil } from './support/keyboard.mjs';
import { useServerAndBrowser } from './support/fixture.mjs';
import { requestJson } from './support/server.mjs';
import { forgetDevice } from './support/device.mjs';
import { reviewAnswers } from './support/survey-steps.mjs';

const SURVEY = {
  format: 'deniable.survey/v1',
  id: 'work-and-pay',
  version: 1,
  title: 'Work and pay',
  description: 'One required question and one optional one.',
  results: 'public',
  access: 'open',
  questions: [
    {
      id: 'team', text: 'Which team are you in?', type: 'categorical',
      options: ['Sales', 'Engineering', 'Support'], mechanism: { name: 'grr', epsilon: 1 },
    },
    {
      id: 'pay', text: 'Do you feel fairly paid?', type: 'categorical',
      options: ['Yes', 'No'], mechanism: { name: 'grr', epsilon: 1 }, required: false,
    },
  ],
};
const TEAM_ANSWER = 1;  // "Engineering", picked with the keyboard
// Reports made in Node by the same WebAssembly core (seeded): two answer
// both questions, one skips the optional one. With the browser's report:
// 4 respondents, "pay" answered by 2 and skipped by 2.
const API_ANSWERS = [{ team: 0, pay: 0 }, { team: 2, pay: 1 }, { team: 1 }];
const REPORT_SEED_BASE = 7_000_000;

const fixture = useServerAndBrowser();

let created = false;
async function createSurvey() {
  if (created) return;
  const response = await requestJson(fixture.server.baseUrl, '/api/surveys', {
    method: 'POST', json: SURVEY, headers: { Authorization: `Bearer ${fixture.server.adminToken}` },
  });
  assert.equal(response.status, 201, `survey not created: ${JSON.stringify(response.body)}`);
  created = true;
}

async function openSurvey() {
  await createSurvey();
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/s/${SURVEY.id}`);
  await forgetDevice(page);
  await page.getByTestId('survey-form').waitFor();
  return { page, log };
}

test('an optional question skipped with the keyboard is left out of the report, and the dashboard counts the skip', async () => {
  const { page, log } = await openSurvey();
  // Only the optional question offers a skip, and says what skipping shows.
  assert.equal(await page.getByTestId('skip-team').count(), 0, 'a required question cannot be skipped');
  assert.match(await page.getByTestId('question-pay').textContent(), /\(optional\)/);
  assert.match(await page.getByTestId('skip-note-pay').textContent(), /organisers will see that it was skipped/);

  // Question 1 (required): Tab into its radio group, Space, ArrowDown.
  await tabUntil(page, (focused) => focused.name === 'answer-0', 'question 1');
  await page.keyboard.press('Space');
  for (let step = 0; step < TEAM_ANSWER; step += 1) await page.keyboard.press('ArrowDown');
  assert.equal((await focusedElement(page)).value, String(TEAM_ANSWER));
  // Question 2 (optional): Tab past its options to its skip box, Space ticks it.
  await tabUntil(page, (focused) => focused.testid === 'skip-pay', 'the skip box of question 2');
  await page.keyboard.press('Space');
  assert.equal((await focusedElement(page)).checked, true);
  assert.equal(await page.getByTestId('option-pay-0').isDisabled(), true, 'a skipped question cannot be answered');

  await reviewAnswers(page, 'keyboard');
  await tabUntil(page, (focused) => focused.testid === 'prepare-report', 'the Prepare button');
  await page.keyboard.press('Enter');
  await page.getByTestId('report-panel').waitFor();
  const shownText = await page.getByTestId('report-json').textContent();
  const shown = JSON.parse(shownText);
  assert.deepEqual(Object.keys(shown.responses), ['team'], 'the skipped question has no response');
  assert.equal(await page.getByTestId('report-value-pay').textContent(), 'not sent');
  assert.match(await page.getByTestId('report-skipped').textContent(), /^You skipped question 2\b/);
  assert.equal(await page.getByTestId('report-value-team').textContent(), SURVEY.questions[0].options[shown.responses.team]);

  await tabUntil(page, (focused) => focused.testid === 'send-report', 'the Send button');
  await page.keyboard.press('Enter');
  await page.locator('[data-testid="send-status"][data-state="success"]').waitFor();
  const posts = log.requests.filter((request) => request.method === 'POST');
  assert.equal(posts.length, 1);
  assert.equal(new URL(posts[0].url).pathname, `/api/surveys/${SURVEY.id}/reports`);
  assert.equal(posts[0].body, shownText, 'the body is byte for byte the JSON shown');
  const posted = JSON.parse(posts[0].body);
  assert.equal(Object.hasOwn(posted.responses, 'pay'), false, 'no response for the skipped question');
  assert.deepEqual(Object.keys(posted.responses), ['team']);

  const core = await loadCore();
  for (const [index, answers] of API_ANSWERS.entries()) {
    const report = core.perturbSeeded(SURVEY, answers, String(REPORT_SEED_BASE + index));
    assert.equal(Object.hasOwn(report.responses, 'pay'), Object.hasOwn(answers, 'pay'));
    const response = await requestJson(fixture.server.baseUrl, `/api/surveys/${SURVEY.id}/reports`, { method: 'POST', json: report });
    assert.equal(response.status, 201, `report rejected: ${JSON.stringify(response.body)}`);
  }

  const results = (await requestJson(fixture.server.baseUrl, `/api/surveys/${SURVEY.id}/results`)).body;
  assert.equal(results.respondents, 4);
  const [team, pay] = results.questions;
  assert.equal(team.n, 4);
  assert.notEqual(team.required, false, 'the required question is not marked optional');
  assert.equal(pay.required, false);
  assert.equal(pay.n, 2);
  assert.equal(pay.skipped, 2);

  await page.goto(`${fixture.server.baseUrl}/results/${SURVEY.id}`);
  await page.locator('[data-testid="respondents"]', { hasText: /^4$/ }).waitFor();
  assert.equal(await page.getByTestId('n-team').textContent(), '4');
  assert.equal(await page.getByTestId('n-pay').textContent(), '2');
  assert.equal(await page.getByTestId('skipped-pay').textContent(), 'Optional question: answered by 2, skipped by 2.');
  assert.equal(await page.getByTestId('skipped-team').isHidden(), true);
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('an optional question left unanswered without ticking "Skip" is asked for', async () => {
  const { page, log } = await openSurvey();
  await page.getByTestId('option-team-0').check();
  await page.getByTestId('review-answers').click();
  assert.equal(await page.getByTestId('answer-error').textContent(),
    'Please answer every question before preparing your report (unanswered: question 2 (“Do you feel fairly paid?”)). To leave out an optional question, tick “Skip this question”.');
  assert.equal((await focusedElement(page)).name, 'answer-1');
  assert.equal(await page.getByTestId('report-panel').count(), 0);
  // Unticking the box gives the answer controls back.
  await page.getByTestId('skip-pay').check();
  assert.equal(await page.getByTestId('option-pay-1').isDisabled(), true);
  await page.getByTestId('skip-pay').uncheck();
  await page.getByTestId('option-pay-1').check();
  await reviewAnswers(page, 'click');
  await page.getByTestId('prepare-report').click();
  await page.getByTestId('report-panel').waitFor();
  const shown = JSON.parse(await page.getByTestId('report-json').textContent());
  assert.deepEqual(Object.keys(shown.responses).sort(), ['pay', 'team'], 'an answered optional question is sent');
  assert.equal(await page.getByTestId('report-skipped').count(), 0);
  assert.deepEqual(log.requests.filter((request) => request.method === 'POST'), [], 'nothing sent');
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('the creation page makes a question optional with "Respondents may skip this question"', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/create`);
  const editor = page.getByTestId('question-editor-0');
  await editor.waitFor();
  await page.getByTestId('survey-id').fill('optional-built');
  await page.getByTestId('survey-title-input').fill('Optional, built');
  await editor.getByTestId('question-text').fill('Do you feel fairly paid?');
  const question = () => page.getByTestId('definition-json').textContent().then((text) => JSON.parse(text).questions[0]);
  assert.equal((await question()).required, undefined, 'required by default: no "required" key');
  await editor.getByTestId('question-optional').check();
  assert.equal((await question()).required, false);
  assert.equal(await page.getByTestId('validation').getAttribute('data-state'), 'success');
  // A numeric question can be optional too.
  await editor.getByTestId('question-type').selectOption('numeric');
  assert.equal((await question()).required, false);
  assert.equal(await page.getByTestId('validation').getAttribute('data-state'), 'success');
  await editor.getByTestId('question-optional').uncheck();
  assert.equal((await question()).required, undefined);
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

