// Save and resume (issue 33): a respondent's answers so far are kept on the
// device (localStorage, per survey and version) until the report is
// prepared, with a notice saying so and a button that clears them; they are
// never sent. Answered, reloaded: the answers are back (a condition they meet
// shows its follow-up again) with the notice, and leaving no longer warns;
// cleared: gone from the controls and the device; prepared: gone from the
// device; sent: no request ever carried them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { onPhone, openRecordedPage, unexpectedProblems } from './support/browser.mjs';
import { axeViolations } from './support/axe.mjs';
import { focusedElement, tabUntil } from './support/keyboard.mjs';
import { assertFits } from './support/page-checks.mjs';
import { useServerAndBrowser } from './support/fixture.mjs';
import { requestJson } from './support/server.mjs';
import { forgetDevice } from './support/device.mjs';
import { reviewAndPrepare } from './support/survey-steps.mjs';

const SURVEY = {
  format: 'deniable.survey/v1',
  id: 'long-habits',
  version: 3,
  title: 'Habits (a long survey)',
  description: 'Answers are kept on this device until the report is prepared.',
  results: 'public',
  access: 'open',
  questions: [
    { id: 'smoker', text: 'Do you smoke?', type: 'categorical', options: ['Yes', 'No'], privacy: 'open' },
    {
      id: 'packs', text: 'How many packs a week?', type: 'categorical', options: ['Less than one', 'One or more'],
      mechanism: { name: 'grr', epsilon: 1 }, show_if: { question: 'smoker', any_of: ['Yes'] },
    },
    { id: 'sleep', text: 'How many hours do you sleep?', type: 'numeric', range: [0, 24], mechanism: { name: 'square_wave', epsilon: 2 } },
    { id: 'drugs', text: 'Have you used a recreational drug this year?', type: 'categorical', options: ['Yes', 'No'], mechanism: { name: 'grr', epsilon: 1 } },
  ],
};
const KEY = `deniable.answers.${SURVEY.id}.v${SURVEY.version}`;
const SLEEP = '7.35';  // typed; a randomised report never holds exactly this

const fixture = useServerAndBrowser();

async function openSurvey() {
  const response = await requestJson(fixture.server.baseUrl, '/api/surveys', {
    method: 'POST', json: SURVEY, headers: { Authorization: `Bearer ${fixture.server.adminToken}` },
  });
  assert.equal(response.status, 201, `survey not created: ${JSON.stringify(response.body)}`);
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/s/${SURVEY.id}`);
  await forgetDevice(page);
  await page.getByTestId('survey-form').waitFor();
  return { page, log };
}

const stored = (page) => page.evaluate((key) => localStorage.getItem(key), KEY);

test('answers are kept on the device across a reload, cleared on request and once the report is prepared, and never sent', async () => {
  const { page, log } = await openSurvey();
  const dialogs = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.type());
    dialog.accept();
  });
  assert.equal(await page.getByTestId('answers-stored').isHidden(), true, 'nothing kept before any answer');
  assert.equal(await stored(page), null);

  await page.getByTestId('option-smoker-0').check();
  await page.getByTestId('option-packs-1').check();
  await page.getByTestId('number-sleep').fill(SLEEP);
  await page.getByTestId('number-sleep').blur();
  const notice = page.getByTestId('answers-stored');
  assert.equal(await notice.isVisible(), true);
  assert.match(await notice.textContent(), /^Your answers so far are stored on this device only, until your report is prepared/);
  const kept = await stored(page);
  assert.ok(kept?.includes(SLEEP), `kept: ${kept}`);

  // Reloaded: the answers are back, the follow-up shown again, the notice says so; leaving did not warn.
  await page.reload();
  await page.getByTestId('survey-form').waitFor();
  assert.deepEqual(dialogs, [], 'leaving with the answers kept does not warn');
  assert.equal(await page.getByTestId('option-smoker-0').isChecked(), true);
  assert.equal(await page.getByTestId('question-packs').isVisible(), true);
  assert.equal(await page.getByTestId('option-packs-1').isChecked(), true);
  assert.equal(await page.getByTestId('number-sleep').inputValue(), SLEEP);
  assert.match(await notice.textContent(), /^Your answers from before are back\. They are stored on this device only/);

  // "Clear them": the controls empty, the device holds nothing, a reload restores nothing.
  await page.getByTestId('clear-answers').click();
  assert.equal(await page.getByTestId('option-smoker-0').isChecked(), false);
  assert.equal(await page.getByTestId('number-sleep').inputValue(), '');
  assert.equal(await page.getByTestId('question-packs').isHidden(), true);
  assert.equal(await stored(page), null);
  assert.match(await notice.textContent(), /^Your answers were cleared from this device\./);
  await page.reload();
  await page.getByTestId('survey-form').waitFor();
  assert.equal(await page.getByTestId('option-smoker-0').isChecked(), false);
  assert.equal(await notice.isHidden(), true);

  // Answered again and prepared: the device keeps the prepared report, not the answers.
  await page.getByTestId('option-smoker-0').check();
  await page.getByTestId('option-packs-0').check();
  await page.getByTestId('number-sleep').fill(SLEEP);
  await page.getByTestId('option-drugs-1').check();
  const keptBefore = await stored(page);
  assert.ok(keptBefore?.includes(SLEEP));
  await reviewAndPrepare(page);
  assert.equal(await stored(page), null, 'the answers go once the report is prepared');
  assert.ok(await page.evaluate((id) => localStorage.getItem(`deniable.preparedReport.${id}.v3`), SURVEY.id));
  await page.getByTestId('send-report').click();
  await page.locator('[data-testid="send-status"][data-state="success"]').waitFor();

  // No request carried what was kept: not the stored text, nor the typed number.
  for (const request of log.requests) {
    const carried = `${request.url}\n${request.body ?? ''}`;
    assert.equal(carried.includes(keptBefore), false, `${request.method} ${request.url} carries the stored answers`);
    assert.equal(carried.includes(SLEEP), false, `${request.method} ${request.url} carries the typed ${SLEEP}`);
    assert.equal(carried.includes('"controls"'), false);
  }
  assert.equal(log.requests.filter((request) => request.method === 'POST').length, 1);
  assert.equal(await stored(page), null);
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('a preview keeps nothing on the device', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/s/${SURVEY.id}?preview=1`);
  await page.getByTestId('survey-form').waitFor();
  await page.getByTestId('option-smoker-1').check();
  assert.equal(await stored(page), null);
  assert.equal(await page.getByTestId('answers-stored').isHidden(), true);
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('on a phone with the keyboard only: the notice fits, says where the answers are, and Clear empties them', async () => {
  await onPhone(async ({ page, log }) => {
    await page.goto(`${fixture.server.baseUrl}/s/${SURVEY.id}`);
    await forgetDevice(page);
    await page.getByTestId('survey-form').waitFor();
    await tabUntil(page, (focused) => focused.name === 'answer-0', 'question 1');
    await page.keyboard.press('Space');  // smoker: "Yes"
    const notice = page.getByTestId('answers-stored');
    await notice.waitFor({ state: 'visible' });
    assert.match(await notice.textContent(), /stored on this device only/);
    const box = await notice.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `the notice fits the phone's width: ${JSON.stringify(box)}`);
    await assertFits(page, 'the survey page with the notice');
    assert.deepEqual(await axeViolations(page), []);
    assert.ok(await stored(page));

    await tabUntil(page, (focused) => focused.testid === 'clear-answers', 'Clear them', 60);
    await page.keyboard.press('Enter');
    assert.equal(await stored(page), null);
    assert.equal(await page.getByTestId('option-smoker-0').isChecked(), false);
    assert.match(await notice.textContent(), /^Your answers were cleared from this device\./);
    assert.equal((await focusedElement(page)).testid, 'answers-stored', 'focus goes to the notice, not lost with the button');
    assert.deepEqual(unexpectedProblems(log), []);
  });
});
