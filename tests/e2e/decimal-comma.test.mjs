// Typed numbers on the creation page and the survey page: a decimal comma is
// read as a decimal point ("1,5" is 1.5, "24,5" is 24.5), anything ambiguous
// or unreadable is refused with a message next to the field (aria-invalid,
// aria-describedby), and nothing is ever silently re-read (Chromium's number
// field used to drop the comma: "1,5" became 15). The builder warns in plain
// words when a question's ε, or the survey's total, is large (above 4).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openRecordedPage, unexpectedProblems } from './support/browser.mjs';
import { useServerAndBrowser } from './support/fixture.mjs';
import { tabUntil } from './support/keyboard.mjs';
import { requestJson } from './support/server.mjs';
import { forgetDevice } from './support/device.mjs';
import { reviewAnswers } from './support/survey-steps.mjs';

const fixture = useServerAndBrowser();

// Square Wave at ε = 30 with b = 0.001 reports, with probability 1 - 1e-10,
// a value within 0.001 × 300 = 0.3 of the answer: the report shows which
// number the page read from the typed text (24.5, not 245 or 2.45).
const SURVEY = {
  format: 'deniable.survey/v1',
  id: 'comma',
  version: 1,
  title: 'Decimal commas',
  description: 'One numeric question.',
  results: 'public',
  access: 'open',
  questions: [{
    id: 'temperature', text: 'What temperature do you keep your home at?', type: 'numeric', range: [0, 300], unit: '°C',
    mechanism: { name: 'square_wave', epsilon: 30, b: 0.001 },
  }],
};

async function openBuilder() {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/create`);
  await forgetDevice(page);  // no draft of an earlier test
  const first = page.getByTestId('question-editor-0');
  await first.waitFor();
  // A valid definition apart from the numbers under test.
  await page.getByTestId('survey-id').fill('numbers');
  await page.getByTestId('survey-title-input').fill('Numbers');
  await first.getByTestId('question-text').fill('Do you agree?');
  return { page, log, first };
}

const definition = async (page) => JSON.parse(await page.getByTestId('definition-json').textContent());

// The field's message: visible text, and tied to the field for screen readers.
async function fieldMessage(input) {
  return input.evaluate((node) => {
    const id = `${node.id}-message`;
    const message = document.getElementById(id);
    return {
      invalid: node.getAttribute('aria-invalid'),
      describedBy: (node.getAttribute('aria-describedby') ?? '').split(' ').includes(id),
      hidden: message.hidden,
      text: message.textContent,
    };
  });
}

test('the creation page reads "1,5" as ε = 1.5 everywhere, and refuses "1,500.2" and "1.5.2" next to the field', async () => {
  const { page, log, first } = await openBuilder();
  const epsilon = first.getByTestId('question-epsilon');
  assert.equal(await epsilon.getAttribute('inputmode'), 'decimal', 'phones show the decimal keypad');

  // Typed key by key, as a person would.
  await epsilon.fill('');
  await epsilon.pressSequentially('1,5');
  assert.equal(await epsilon.inputValue(), '1,5');
  assert.equal((await definition(page)).questions[0].mechanism.epsilon, 1.5);
  assert.equal(await first.getByTestId('question-privacy').textContent(), 'This question: ε = 1.5');
  assert.equal(await page.getByTestId('total-epsilon').textContent(), 'ε = 1.5');
  assert.equal(await page.getByTestId('validation').getAttribute('data-state'), 'success');
  // The advisor compares the mechanisms at ε = 1.5 (its first column).
  const advisorEpsilons = await first.locator('.advice-table tbody td:first-of-type').allTextContents();
  assert.ok(advisorEpsilons.length > 0);
  assert.ok(advisorEpsilons.every((text) => text === '1.5' || text === 'no formal guarantee'), advisorEpsilons.join(', '));
  assert.deepEqual(await fieldMessage(epsilon), { invalid: null, describedBy: true, hidden: true, text: '' });
  assert.doesNotMatch(await page.getByTestId('definition-json').textContent(), /"epsilon": 15\b/);

  for (const [typed, expected] of [['1,500.2', /2 separators/], ['1.5.2', /2 separators/], ['abc', /is not a number/], ['1,500', /could mean 1500 or 1\.5/]]) {
    await epsilon.fill(typed);
    await epsilon.blur();
    const message = await fieldMessage(epsilon);
    assert.equal(message.invalid, 'true', typed);
    assert.equal(message.describedBy, true, typed);
    assert.equal(message.hidden, false, typed);
    assert.match(message.text, expected);
    // Not re-read as a number: the definition keeps the text, so the core refuses it naming the field.
    assert.equal((await definition(page)).questions[0].mechanism.epsilon, typed);
    assert.match(await page.getByTestId('validation').textContent(), /^questions\[0\]\.mechanism\.epsilon: /);
    assert.equal(await page.getByTestId('create-survey').isDisabled(), true);
    assert.equal(await page.getByTestId('total-epsilon').textContent(), '—');
  }
  // Emptied: "Enter a number." once the field is left.
  await epsilon.fill('');
  await epsilon.blur();
  assert.equal((await fieldMessage(epsilon)).text, 'Enter a number.');
  // Corrected: the message goes at once.
  await epsilon.fill('0,5');
  assert.deepEqual(await fieldMessage(epsilon), { invalid: null, describedBy: true, hidden: true, text: '' });
  assert.equal((await definition(page)).questions[0].mechanism.epsilon, 0.5);

  // Range bounds and the RVNS fields go through the same parser.
  await first.getByTestId('question-type').selectOption('numeric');
  await first.getByTestId('question-numeric-mechanism').selectOption('rvns');  // Square Wave is the default
  await first.getByTestId('question-low').fill('0,5');
  await first.getByTestId('question-high').fill('10,5');
  await first.getByTestId('question-window').fill('2,5');
  await first.getByTestId('question-uniform-probability').fill('0,25');
  const numeric = (await definition(page)).questions[0];
  assert.deepEqual(numeric.range, [0.5, 10.5]);
  assert.equal(numeric.mechanism.window, 2.5);
  assert.equal(numeric.mechanism.uniform_probability, 0.25);
  await first.getByTestId('question-values').fill('1,5');
  await first.getByTestId('question-values').blur();
  assert.match((await fieldMessage(first.getByTestId('question-values'))).text, /not a whole number/);
  assert.equal((await definition(page)).questions[0].mechanism.values, '1,5');
  // An unreadable γ is refused, not dropped (dropping it would mean the published RVNS).
  await first.getByTestId('question-values').fill('2');
  await first.getByTestId('question-uniform-probability').fill('0,2,5');
  assert.match(await page.getByTestId('validation').textContent(), /^questions\[0\]\.mechanism\.uniform_probability: /);

  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('the builder warns in plain words when ε is large: for ε = 5, not for ε = 1, and for a large survey total', async () => {
  const { page, log, first } = await openBuilder();
  const epsilon = first.getByTestId('question-epsilon');
  const warning = first.getByTestId('epsilon-warning');

  await epsilon.fill('1');
  assert.equal(await warning.isVisible(), false);
  assert.equal(await page.getByTestId('total-epsilon-warning').isVisible(), false);

  await epsilon.fill('5');
  assert.equal(await warning.isVisible(), true);
  assert.equal(await warning.textContent(),
    'ε = 5 is large: a report can be up to e^5 ≈ 148 times more likely under one answer than under another, ' +
    'so the randomisation hides little. An ε of 1 or less gives respondents real deniability.');
  // The ε field's description includes the warning.
  const describedBy = (await epsilon.getAttribute('aria-describedby')).split(' ');
  assert.ok(describedBy.includes(await warning.getAttribute('id')));
  // A decimal comma gives the same warning: "4,5" is 4.5 (not 45).
  await epsilon.fill('4,5');
  assert.match(await warning.textContent(), /^ε = 4\.5 is large: a report can be up to e\^4\.5 ≈ 90 times more likely/);
  await epsilon.fill('4');
  assert.equal(await warning.isVisible(), false, 'ε = 4 is not above the threshold');

  // Two questions of ε = 3: neither is large, their total of 6 is.
  await epsilon.fill('3');
  await page.getByTestId('add-question').click();
  const second = page.getByTestId('question-editor-1');
  await second.getByTestId('question-text').fill('And this?');
  await second.getByTestId('question-epsilon').fill('3');
  assert.equal(await page.getByTestId('total-epsilon').textContent(), 'ε = 6');
  assert.equal(await warning.isVisible(), false);
  assert.equal(await second.getByTestId('epsilon-warning').isVisible(), false);
  const total = page.getByTestId('total-epsilon-warning');
  assert.equal(await total.isVisible(), true);
  assert.match(await total.textContent(), /^The whole survey’s ε = 6 is large: .* up to e\^6 ≈ 403 times more likely/);
  await second.getByTestId('question-epsilon').fill('1');
  assert.equal(await total.isVisible(), false);

  // Numeric questions use the core's ε: an RVNS whose derived ε is large warns too.
  await second.getByTestId('question-type').selectOption('numeric');
  await second.getByTestId('question-numeric-mechanism').selectOption('rvns');  // Square Wave is the default
  await second.getByTestId('question-uniform-probability').fill('0,01');
  assert.equal(await second.getByTestId('epsilon-warning').isVisible(), true);
  assert.match(await second.getByTestId('epsilon-warning').textContent(), /^ε = \d+(\.\d+)? is large/);

  // A tall viewport rather than fullPage: the whole builder in one paint.
  await page.setViewportSize({ width: 1280, height: 3000 });
  await page.screenshot({ path: `${process.env.DENIABLE_SCREENSHOTS ?? '/tmp'}/deniable-large-epsilon-warning.png` });
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('the survey page reads "24,5" as 24.5 and refuses "24,5,1" with a message; keyboard only', async () => {
  const created = await requestJson(fixture.server.baseUrl, '/api/surveys', {
    method: 'POST', json: SURVEY, headers: { Authorization: `Bearer ${fixture.server.adminToken}` },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/s/comma`);
  await forgetDevice(page);
  await page.getByTestId('survey-form').waitFor();
  const number = page.getByTestId('number-temperature');
  assert.equal(await number.getAttribute('inputmode'), 'decimal');

  // Unreadable text: refused next to the field once it is left, and preparing does not take it.
  await tabUntil(page, (focused) => focused.testid === 'number-temperature', 'the typed temperature');
  await page.keyboard.type('24,5,1');
  await page.keyboard.press('Tab');
  let message = await fieldMessage(number);
  assert.equal(message.invalid, 'true');
  assert.equal(message.describedBy, true);
  assert.match(message.text, /“24,5,1” has 2 separators/);
  await tabUntil(page, (focused) => focused.testid === 'review-answers', 'the Check my answers button');
  await page.keyboard.press('Enter');
  assert.match(await page.getByTestId('answer-error').textContent(), /Please correct question 1 \(“What temperature do you keep your home at\?”\) before preparing your report/);
  assert.equal(await page.getByTestId('report-panel').count(), 0);

  // Outside the range: refused, not clamped.
  await number.fill('');
  await number.pressSequentially('324,5');
  await number.blur();
  assert.match((await fieldMessage(number)).text, /^324\.5 is outside the range: enter a value from 0\u00a0°C to 300\u00a0°C\.$/);

  // "24,5" is 24.5: the message goes, the slider (step 1 on this range) moves, and the report is about 24.5.
  await number.focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('24,5');
  assert.equal(await number.inputValue(), '24,5');
  assert.notEqual(await page.getByTestId('slider-temperature').getAttribute('aria-valuetext'), 'not answered yet');
  message = await fieldMessage(number);
  assert.equal(message.invalid, null);
  assert.equal(message.hidden, true);
  await reviewAnswers(page, 'keyboard');
  await tabUntil(page, (focused) => focused.testid === 'prepare-report', 'the Prepare button');
  await page.keyboard.press('Enter');
  await page.getByTestId('report-panel').waitFor();
  const report = JSON.parse(await page.getByTestId('report-json').textContent());
  const [reported] = report.responses.temperature;
  assert.ok(Math.abs(reported - 24.5) <= 0.31, `the report ${reported} is for 24.5 (245 or 2.45 would be far off)`);
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

