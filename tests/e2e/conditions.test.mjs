// Conditions ("show_if", issue 33) end to end: a follow-up asked only when an
// earlier question asked openly has given certain answers.
// (a) On a phone (390 px), with the keyboard only: the follow-up appears when
// the open answer shows it and goes when it does not (an answer given to it
// meanwhile is not sent); the page is axe-clean both ways; the review lists
// only the questions shown; the report has no entry for the hidden one.
// (b) The server refuses a report that answers a question its own open
// answer hides, and counts the follow-up's n over those it was asked of; the
// dashboard says when it is asked beside that n.
// (c) The builder offers the condition, says why a randomised question
// cannot be named, and the core accepts the one it builds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadCore } from '../../web/src/core.js';
import { onPhone, openRecordedPage, unexpectedProblems } from './support/browser.mjs';
import { focusedElement, tabUntil } from './support/keyboard.mjs';
import { useServerAndBrowser } from './support/fixture.mjs';
import { assertFits, screenshot } from './support/page-checks.mjs';
import { requestJson } from './support/server.mjs';
import { forgetDevice } from './support/device.mjs';
import { prepareFromReview, reviewAnswers } from './support/survey-steps.mjs';
import { axeViolations } from './support/axe.mjs';

const SURVEY = {
  format: 'deniable.survey/v1',
  id: 'smoking-follow-up',
  version: 1,
  title: 'Smoking',
  description: 'A follow-up asked only of smokers.',
  results: 'public',
  access: 'open',
  questions: [
    { id: 'smoker', text: 'Do you smoke?', type: 'categorical', options: ['Yes', 'Sometimes', 'No'], privacy: 'open' },
    {
      id: 'packs', text: 'How many packs a week?', type: 'categorical', options: ['Less than one', 'One or more'],
      mechanism: { name: 'grr', epsilon: 1 }, show_if: { question: 'smoker', any_of: ['Yes', 'Sometimes'] },
    },
    { id: 'drugs', text: 'Have you used a recreational drug this year?', type: 'categorical', options: ['Yes', 'No'], mechanism: { name: 'grr', epsilon: 1 } },
  ],
};
// Reports made in Node by the same core: 3 smokers answer the follow-up, 2
// non-smokers are not asked it. With the browser's (a non-smoker): 6
// respondents, "packs" answered by 3.
const API_ANSWERS = [
  { smoker: 0, packs: 1, drugs: 0 }, { smoker: 1, packs: 0, drugs: 1 }, { smoker: 0, packs: 0, drugs: 1 },
  { smoker: 2, drugs: 0 }, { smoker: 2, drugs: 1 },
];

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

test('a condition shows and hides a follow-up on a phone with the keyboard only; review and report follow it', async () => {
  await createSurvey();
  await onPhone(async ({ page, log }) => {
    await page.goto(`${fixture.server.baseUrl}/s/${SURVEY.id}`);
    await forgetDevice(page);
    await page.getByTestId('survey-form').waitFor();
    const packs = page.getByTestId('question-packs');
    assert.equal(await packs.isHidden(), true, 'not asked before the open answer shows it');

    // smoker: Tab into its radio group, Space picks "Yes": the follow-up appears.
    await tabUntil(page, (focused) => focused.name === 'answer-0', 'question 1');
    await page.keyboard.press('Space');
    assert.equal((await focusedElement(page)).value, '0');
    assert.equal(await packs.isVisible(), true, 'shown for "Yes"');
    assert.equal(await page.getByTestId('condition-status').textContent(), 'Question 2 is now asked: “How many packs a week?”.', 'said to screen readers');
    assert.deepEqual(await axeViolations(page), []);
    await assertFits(page, 'the follow-up on a phone');
    await screenshot(page, 'phone-condition-shown');
    // Its answer, by keyboard: Tab on to it, Space.
    await tabUntil(page, (focused) => focused.name === 'answer-1', 'the follow-up');
    await page.keyboard.press('Space');
    assert.equal(await page.getByTestId('option-packs-0').isChecked(), true);

    // Back to smoker (Shift+Tab), ArrowDown twice: "No" hides the follow-up.
    await page.keyboard.press('Shift+Tab');
    assert.equal((await focusedElement(page)).name, 'answer-0');
    await page.keyboard.press('ArrowDown');
    assert.equal(await packs.isVisible(), true, 'still shown for "Sometimes"');
    await page.keyboard.press('ArrowDown');
    assert.equal((await focusedElement(page)).value, '2');
    assert.equal(await packs.isHidden(), true, 'hidden for "No"');
    assert.equal(await page.getByTestId('condition-status').textContent(), 'Question 2 is no longer asked.');
    assert.deepEqual(await axeViolations(page), []);
    await assertFits(page, 'the follow-up hidden on a phone');
    // Tab goes from smoker straight to drugs: the hidden question is out of the tab order.
    await page.keyboard.press('Tab');
    assert.equal((await focusedElement(page)).name, 'answer-2');
    await page.keyboard.press('Space');

    await reviewAnswers(page, 'keyboard');
    assert.equal(await page.getByTestId('review-packs').isHidden(), true, 'the review lists only the questions shown');
    assert.equal(await page.getByTestId('review-value-smoker').textContent(), 'No');
    assert.equal(await page.getByTestId('review-drugs').isVisible(), true);
    assert.deepEqual(await axeViolations(page), []);
    await prepareFromReview(page, 'keyboard');
    const shownText = await page.getByTestId('report-json').textContent();
    const shown = JSON.parse(shownText);
    assert.deepEqual(Object.keys(shown.responses).sort(), ['drugs', 'smoker'], 'the hidden question is not in the report, though it was answered while shown');
    assert.equal(shown.responses.smoker, 2);
    assert.equal(await page.getByTestId('report-packs').count(), 0, 'the report in words leaves it out');
    assert.equal(await page.getByTestId('report-skipped').count(), 0, 'not asked is not "skipped"');

    await tabUntil(page, (focused) => focused.testid === 'send-report', 'the Send button');
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="send-status"][data-state="success"]').waitFor();
    const posts = log.requests.filter((request) => request.method === 'POST');
    assert.equal(posts.length, 1);
    assert.equal(posts[0].body, shownText);
    assert.deepEqual(unexpectedProblems(log), []);
  });
});

test('the server refuses a report answering a hidden question; the dashboard says when the follow-up is asked beside its n', async () => {
  await createSurvey();
  const core = await loadCore();
  const post = (report) => requestJson(fixture.server.baseUrl, `/api/surveys/${SURVEY.id}/reports`, { method: 'POST', json: report });
  for (const [index, answers] of API_ANSWERS.entries()) {
    const response = await post(core.perturbSeeded(SURVEY, answers, String(8_000_000 + index)));
    assert.equal(response.status, 201, `report rejected: ${JSON.stringify(response.body)}`);
  }
  // A smoker's report with its open answer changed to "No": it answers a question it hides.
  const forged = core.perturbSeeded(SURVEY, API_ANSWERS[0], '8100000');
  forged.responses.smoker = 2;
  const refused = await post(forged);
  assert.equal(refused.status, 400);
  assert.match(JSON.stringify(refused.body), /responses\.packs: the question is asked only when smoker is \\"Yes\\" or \\"Sometimes\\", and the report's open answers say otherwise, so it must not be answered/);
  // A smoker's report without the follow-up: it was asked, and it is required.
  const { packs, ...withoutPacks } = core.perturbSeeded(SURVEY, API_ANSWERS[0], '8100001').responses;
  assert.ok(packs !== undefined);
  const missing = await post({ survey: SURVEY.id, version: 1, responses: withoutPacks });
  assert.equal(missing.status, 400);
  assert.match(JSON.stringify(missing.body), /responses\.packs: missing response/);

  const results = (await requestJson(fixture.server.baseUrl, `/api/surveys/${SURVEY.id}/results`)).body;
  assert.equal(results.respondents, 6, 'five from here and the phone\'s');
  const byId = Object.fromEntries(results.questions.map((question) => [question.id, question]));
  assert.equal(byId.packs.n, 3, 'the follow-up counts those it was asked of');
  assert.equal(byId.drugs.n, 6);
  assert.equal(byId.packs.asked_only_when, 'smoker is "Yes" or "Sometimes"');
  assert.deepEqual(byId.packs.show_if, SURVEY.questions[1].show_if);

  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/results/${SURVEY.id}`);
  await page.locator('[data-testid="respondents"]', { hasText: /^6$/ }).waitFor();
  assert.equal(await page.getByTestId('n-packs').textContent(), '3');
  assert.equal(await page.getByTestId('condition-packs').textContent(), 'Asked only when smoker is "Yes" or "Sometimes": n = 3.');
  assert.equal(await page.getByTestId('condition-drugs').isHidden(), true);
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('the builder offers "Ask this question only when…", refuses a randomised question with the reason, and builds a valid condition', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/create`);
  await page.getByTestId('question-editor-0').waitFor();
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  const first = page.getByTestId('question-editor-0');
  await first.waitFor();
  await page.getByTestId('survey-id').fill('built-condition');
  await page.getByTestId('survey-title-input').fill('Built condition');
  await first.getByTestId('question-text').fill('Do you smoke?');
  await first.getByTestId('question-id').fill('smoker');
  await page.getByTestId('add-question').click();
  const second = page.getByTestId('question-editor-1');
  await second.getByTestId('question-text').fill('How many packs a week?');
  await second.getByTestId('question-id').fill('packs');
  assert.match(await second.getByTestId('question-show-if-field').textContent(), /Only a question asked openly can be named/);
  await second.getByTestId('question-show-if').selectOption('smoker');
  // smoker is randomised (the default): refused, saying why, here and by the core.
  assert.equal(await second.getByTestId('question-show-if-error').textContent(),
    'Question 1 is randomised on the respondent’s device: a condition can name only a question asked openly, because whether a follow-up is answered would reveal the true answer. Ask that question openly, or ask this one always.');
  await second.getByTestId('question-show-if-options').fill('Yes');
  await page.locator('[data-testid="validation"][data-state="error"]').waitFor();
  assert.match(await page.getByTestId('validation').textContent(), /whether a follow-up is answered would reveal the true answer/);
  // Asked openly: accepted.
  await first.getByTestId('question-trust-open').check();
  await page.locator('[data-testid="validation"][data-state="success"]').waitFor();
  assert.equal(await second.getByTestId('question-show-if-error').isHidden(), true);
  const definition = JSON.parse(await page.getByTestId('definition-json').textContent());
  assert.deepEqual(definition.questions[1].show_if, { question: 'smoker', any_of: ['Yes'] });
  assert.equal(await second.getByTestId('question-show-if-at-least').isHidden(), true, 'a question with options is named by them');
  // A number asked openly is named by bounds.
  await page.getByTestId('add-question').click();
  const third = page.getByTestId('question-editor-2');
  await third.getByTestId('question-text').fill('How old are you?');
  await third.getByTestId('question-id').fill('age');
  await third.getByTestId('question-type').selectOption('numeric');
  await third.getByTestId('question-trust-open').check();
  await page.getByTestId('add-question').click();
  const fourth = page.getByTestId('question-editor-3');
  await fourth.getByTestId('question-text').fill('Are you retired?');
  await fourth.getByTestId('question-id').fill('retired');
  await fourth.getByTestId('question-show-if').selectOption('age');
  assert.equal(await fourth.getByTestId('question-show-if-options').isHidden(), true);
  await fourth.getByTestId('question-show-if-at-least').fill('60');
  await page.locator('[data-testid="validation"][data-state="success"]').waitFor();
  const built = JSON.parse(await page.getByTestId('definition-json').textContent());
  assert.deepEqual(built.questions[3].show_if, { question: 'age', at_least: 60 });
  const core = await loadCore();
  const parsed = core.parseSurvey(built).survey;
  assert.deepEqual(parsed.questions[1].show_if, { question: 'smoker', any_of: ['Yes'] });
  assert.deepEqual(parsed.questions[3].show_if, { question: 'age', at_least: 60 });
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});
