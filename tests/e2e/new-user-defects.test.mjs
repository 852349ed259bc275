// Defects a new user met in a real browser (issue 27, items 9, 10 and 13):
// (9) an untouched slider is not shown as answered, a tap on its thumb
// answers, an unanswered question is marked where it is and named in words,
// and a model question (nothing to answer) is never listed as unanswered nor
// given a Change button; (10) the management page keeps a closed survey
// closed when a closing time is set, refuses a past time with a word, shows
// its messages on the survey acted on, and makes more invitation codes with
// used/unused counts; (13) the survey page's punctuation, its own words for a
// used code, thousands separators, and a warning before answers are lost.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadCore } from '../../web/src/core.js';
import { onPhone, openRecordedPage, unexpectedProblems } from './support/browser.mjs';
import { useServerAndBrowser } from './support/fixture.mjs';
import { forgetDevice } from './support/device.mjs';
import { assertFits, screenshot } from './support/page-checks.mjs';
import { requestJson } from './support/server.mjs';

const fixture = useServerAndBrowser();
const admin = () => ({ Authorization: `Bearer ${fixture.server.adminToken}` });
const EXPECTED_REFUSALS = [/Failed to load resource: the server responded with a status of (401|403|404|409)/];

const MODEL_SURVEY = {
  format: 'deniable.survey/v1', id: 'pay-model', version: 1, title: 'Pay and age', results: 'public', access: 'open',
  questions: [
    { id: 'smoke', text: 'Do you smoke?', type: 'categorical', options: ['Yes', 'No'], mechanism: { name: 'grr', epsilon: 1 } },
    { id: 'pay', text: 'What is your yearly pay?', type: 'numeric', range: [0, 300000], unit: 'USD', mechanism: { name: 'square_wave', epsilon: 1 } },
    { id: 'age', text: 'How old are you?', type: 'numeric', range: [18, 90], unit: 'years', mechanism: { name: 'square_wave', epsilon: 1 } },
    { id: 'model', text: 'A model of pay', type: 'linear_regression', target: 'pay', features: ['age'], epsilon: 1, batch: 2 },
  ],
};

const BLOCK_SURVEY = {
  format: 'deniable.survey/v1', id: 'habits', version: 1, title: 'Habits', results: 'public', access: 'invitation',
  questions: [{
    id: 'habits', text: 'Your habits', type: 'block', mechanism: { name: 'pmoue', epsilon_per_attribute: 1.5 },
    attributes: [
      { id: 'smoke', text: 'Do you smoke?', options: ['Yes', 'No'] },
      { id: 'sport', text: 'Sport each week', options: ['None', 'Some', 'A lot'] },
    ],
  }],
};

async function create(survey) {
  const response = await requestJson(fixture.server.baseUrl, '/api/surveys', { method: 'POST', json: survey, headers: admin() });
  assert.equal(response.status, 201, JSON.stringify(response.body));
}

let modelCreated = false;
async function openModelSurvey(context) {
  if (!modelCreated) await create(MODEL_SURVEY);
  modelCreated = true;
  const { page, log } = await openRecordedPage(context);
  await page.goto(`${fixture.server.baseUrl}/s/${MODEL_SURVEY.id}`);
  await forgetDevice(page);
  await page.getByTestId('survey-form').waitFor();
  return { page, log };
}

test('item 9: an unanswered slider looks unanswered, is marked where it is and named in words; the model is never asked for', async () => {
  const { page, log } = await openModelSurvey(fixture.browser.context);
  const slider = page.getByTestId('slider-pay');
  assert.match(await slider.getAttribute('class'), /slider-untouched/, 'an untouched slider is drawn as not answered');
  // Thousands separators where numbers are read (item 13): "300,000 USD".
  assert.match(await page.getByTestId('range-pay').textContent(), /0\u00a0USD to 300,000\u00a0USD/);

  // Nothing answered: the message names each question by number and text;
  // the model (built from questions 2 and 3) is not among them.
  await page.getByTestId('review-answers').click();
  const message = await page.getByTestId('answer-error').textContent();
  assert.match(message, /unanswered: questions 1 \(“Do you smoke\?”\), 2 \(“What is your yearly pay\?”\), 3 \(“How old are you\?”\)\)/);
  assert.doesNotMatch(message, /4 \(/, 'the model question has nothing to answer');
  for (const id of ['smoke', 'pay', 'age']) {
    assert.equal(await page.getByTestId(`unanswered-${id}`).textContent(), 'Not answered yet.', `${id} marked where it is`);
  }
  assert.equal(await page.getByTestId('unanswered-model').count(), 0);

  // A click on the slider's thumb without moving it answers with the value shown.
  await page.getByTestId('question-smoke').getByText('No', { exact: true }).click();
  const box = await slider.boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  assert.equal(await page.getByTestId('number-pay').inputValue(), '150000');
  assert.doesNotMatch(await slider.getAttribute('class'), /slider-untouched/);
  assert.equal(await page.getByTestId('unanswered-pay').count(), 0, 'the mark goes once answered');
  assert.equal(await page.getByTestId('unanswered-smoke').count(), 0);
  // With the keyboard: an arrow key on the slider answers (and the slider no longer looks untouched).
  await page.getByTestId('slider-age').focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getByTestId('number-age').inputValue(), '54.1');  // the slider's step for [18, 90]
  assert.doesNotMatch(await page.getByTestId('slider-age').getAttribute('class'), /slider-untouched/);
  assert.equal(await page.getByTestId('unanswered-age').count(), 0);
  await page.getByTestId('number-age').fill('40');
  await screenshot(page, 'desktop-new-user-survey');

  // The review: answers in words; no Change button on the model.
  await page.getByTestId('review-answers').click();
  await page.getByTestId('review').waitFor();
  assert.equal(await page.getByTestId('review-value-pay').textContent(), '150,000\u00a0USD');
  assert.equal(await page.getByTestId('change-pay').count(), 1);
  assert.equal(await page.getByTestId('change-model').count(), 0, 'nothing to change on a model');
  assert.deepEqual(unexpectedProblems(log, EXPECTED_REFUSALS), []);
  await page.close();
});

test('item 9 on a phone: tapping the thumb answers, and the page fits 390 px', async () => {
  if (!modelCreated) { await create(MODEL_SURVEY); modelCreated = true; }
  await onPhone(async ({ page, log }) => {
    await page.goto(`${fixture.server.baseUrl}/s/${MODEL_SURVEY.id}`);
    await page.getByTestId('survey-form').waitFor();
    const slider = page.getByTestId('slider-age');
    await slider.scrollIntoViewIfNeeded();
    const box = await slider.boundingBox();
    await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
    assert.equal(await page.getByTestId('number-age').inputValue(), '54');
    await page.getByTestId('review-answers').tap();
    assert.equal(await page.getByTestId('unanswered-age').count(), 0);
    assert.equal(await page.getByTestId('unanswered-pay').count(), 1);
    await assertFits(page, 'survey page with unanswered marks on a phone');
    await screenshot(page, 'phone-new-user-survey');
    assert.deepEqual(unexpectedProblems(log, EXPECTED_REFUSALS), []);
  });
});

test('item 13: leaving with answers given and no report prepared asks first, unless the device keeps them (save and resume)', async () => {
  // Playwright answers the beforeunload dialog; it is asked only when the page asks.
  const leave = async (page) => {
    let asked = false;
    page.on('dialog', async (dialog) => {
      asked = dialog.type() === 'beforeunload';
      await dialog.dismiss();
    });
    await page.close({ runBeforeUnload: true });
    await new Promise((resolve) => setTimeout(resolve, 500));
    return asked;
  };
  // Kept on the device (issue 33): nothing is lost, so nothing is asked.
  const kept = await openModelSurvey(fixture.browser.context);
  await kept.page.getByTestId('number-age').fill('40');
  assert.equal(await kept.page.getByTestId('answers-stored').isVisible(), true);
  assert.equal(await leave(kept.page), false, 'answers kept on the device are not lost by leaving');
  // Where the browser will not store them, leaving would lose them: the page asks.
  const { page } = await openModelSurvey(fixture.browser.context);
  await page.addInitScript(() => {
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function refuseAnswers(key, value) {
      if (String(key).startsWith('deniable.answers.')) throw new DOMException('full', 'QuotaExceededError');
      return setItem.call(this, key, value);
    };
  });
  await page.reload();
  await page.getByTestId('survey-form').waitFor();
  await page.getByTestId('number-age').fill('40');
  assert.equal(await page.getByTestId('answers-stored').isHidden(), true);
  assert.equal(await leave(page), true, 'the page warns before answers are lost');
});

test('item 13: a used code is refused in the page’s words; a part ending in "?" gets no extra full stop', async () => {
  await create(BLOCK_SURVEY);
  const made = await requestJson(fixture.server.baseUrl, `/api/surveys/${BLOCK_SURVEY.id}/invitations`, { method: 'POST', json: { count: 2 }, headers: admin() });
  const [used, fresh] = made.body.codes;
  const core = await loadCore();
  // Spent by another browser: exchanged for a token there.
  const spent = await requestJson(fixture.server.baseUrl, `/api/surveys/${BLOCK_SURVEY.id}/tokens`, {
    method: 'POST', json: { code: used, blinded_element: core.tokenBlind().blinded_element },
  });
  assert.equal(spent.status, 200, JSON.stringify(spent.body));

  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/s/${BLOCK_SURVEY.id}?code=${used}`);
  const refusal = page.getByTestId('gate-message');
  await refusal.waitFor();
  assert.equal(await refusal.textContent(),
    'This invitation has already been used, or its code is not one of this survey’s. Had it been used in this browser, this page would still hold it and show your questions: ' +
    'it may have been opened in another browser or on another device. Check the code for typing mistakes, or ask the organisers for a new invitation.');

  await page.getByTestId('gate-code').fill(fresh);
  await page.getByTestId('gate-check').click();
  await page.getByTestId('survey-form').waitFor();
  // Only the second part answered: the first ("Do you smoke?") is left out.
  await page.getByTestId('not-answered-habits-smoke').check();
  await page.getByTestId('option-habits-sport-1').check();
  await page.getByTestId('review-answers').click();
  await page.getByTestId('prepare-report').click();
  await page.getByTestId('report-panel').waitFor();
  const panel = await page.getByTestId('report-panel').textContent();
  assert.match(panel, /Not answered, so not sent: Do you smoke\? The organisers/);
  assert.doesNotMatch(panel, /\?\./);
  assert.deepEqual(unexpectedProblems(log, EXPECTED_REFUSALS), []);
  await page.close();
});

async function signIn(page) {
  await page.goto(`${fixture.server.baseUrl}/manage`);
  await page.getByTestId('admin-token-form').waitFor();
  await page.getByTestId('admin-token').fill(fixture.server.adminToken);
  await page.getByTestId('admin-token-submit').click();
}

test('item 10: a closing time keeps a closed survey closed, a past one is refused, messages sit on the survey, more codes with counts', async () => {
  const survey = { ...BLOCK_SURVEY, id: 'managed', title: 'Managed survey' };
  await create(survey);
  const { server } = fixture;
  const closed = await requestJson(server.baseUrl, `/api/surveys/${survey.id}/status`, { method: 'POST', json: { status: 'closed' }, headers: admin() });
  assert.equal(closed.status, 200, JSON.stringify(closed.body));
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await signIn(page);
  const item = page.getByTestId(`survey-${survey.id}`);
  await item.waitFor();

  // A past time: refused on the page, nothing sent.
  await page.getByTestId(`closes-at-${survey.id}`).fill('2001-06-01T18:30');
  await page.getByTestId(`set-closing-${survey.id}`).click();
  assert.match(await page.getByTestId(`item-status-${survey.id}`).textContent(), /has already passed: choose a later time/);
  assert.equal((await requestJson(server.baseUrl, `/api/surveys/${survey.id}/status`)).body.closes_at ?? null, null);

  // A future time on a closed survey: it stays closed, and says so on its card.
  await page.getByTestId(`closes-at-${survey.id}`).fill('2031-06-01T18:30');
  await page.getByTestId(`set-closing-${survey.id}`).click();
  await page.getByTestId(`clear-closing-${survey.id}`).waitFor();
  const status = await requestJson(server.baseUrl, `/api/surveys/${survey.id}/status`);
  assert.equal(status.body.status, 'closed', 'setting a closing time must not reopen the survey');
  assert.equal(await page.getByTestId(`status-${survey.id}`).textContent(), 'Closed');
  const note = page.getByTestId(`item-status-${survey.id}`);
  assert.match(await note.textContent(), /stays closed; if you reopen it, it closes at/);
  assert.equal(await note.evaluate((node) => node === document.activeElement), true, 'focus on the message by the survey');
  assert.equal(await page.getByTestId('manage-status').isVisible(), false, 'nothing at the top of the list');

  // Invitation codes: counts, then more codes.
  const counts = page.getByTestId(`invitation-counts-${survey.id}`);
  await page.waitForFunction((id) => /used/.test(document.querySelector(`[data-testid="invitation-counts-${id}"]`)?.textContent ?? ''), survey.id);
  assert.equal(await counts.textContent(), '0 (0 used, 0 unused)');
  await page.getByTestId(`more-codes-count-${survey.id}`).fill('3');
  await page.getByTestId(`more-codes-${survey.id}`).click();
  await page.waitForFunction((id) => /^3 \(/.test(document.querySelector(`[data-testid="invitation-counts-${id}"]`)?.textContent ?? ''), survey.id);
  const codes = (await page.getByTestId(`more-codes-list-${survey.id}`).inputValue()).split('\n');
  assert.equal(codes.length, 3);
  for (const code of codes) assert.match(code, /^[a-z2-7]{26}$/);
  assert.equal(await counts.textContent(), '3 (0 used, 3 unused)');
  await screenshot(page, 'desktop-new-user-manage');
  assert.deepEqual(unexpectedProblems(log, EXPECTED_REFUSALS), []);
  await page.close();
  await onPhone(async ({ page: phone }) => {
    await phone.goto(`${server.baseUrl}/manage`);
    await phone.getByTestId('admin-token').fill(server.adminToken);
    await phone.getByTestId('admin-token-submit').tap();
    await phone.getByTestId(`invitations-${survey.id}`).waitFor();
    await assertFits(phone, 'manage page with invitations on a phone');
    await screenshot(phone, 'phone-new-user-manage');
  });
});

test('item 11: the builder says nothing is wrong before any input, defaults numbers to Square Wave, and words the advisor honestly', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/create`);
  await forgetDevice(page);
  const first = page.getByTestId('question-editor-0');
  await first.waitFor();
  const validation = page.getByTestId('validation');
  assert.doesNotMatch(await validation.textContent(), /must not be empty/, 'no error before any input');
  assert.notEqual(await validation.getAttribute('data-state'), 'error');

  await first.getByTestId('question-options').fill('Yes\nNo\nSometimes');
  // The advisor: its caption says which share its numbers are for; the pure
  // negative survey's ε says it has no formal guarantee.
  const caption = await page.locator('[id^="advice-caption-"]').first().textContent();
  assert.doesNotMatch(caption, /1\//);
  assert.match(caption, /rarely chosen option/);
  const pureRow = page.locator('.advice-table tr', { hasText: 'Pure negative' }).first();
  assert.match(await pureRow.textContent(), /no formal guarantee/);

  // A numeric question starts with Square Wave.
  await first.getByTestId('question-type').selectOption('numeric');
  assert.equal(await first.getByTestId('question-numeric-mechanism').inputValue(), 'square_wave');
  const definition = JSON.parse(await page.getByTestId('definition-json').textContent());
  assert.equal(definition.questions[0].mechanism.name, 'square_wave');
  // Once the designer types, a missing id is said.
  await first.getByTestId('question-text').fill('How old are you?');
  assert.match(await validation.textContent(), /must not be empty/);
  await screenshot(page, 'desktop-new-user-builder');
  assert.deepEqual(unexpectedProblems(log, EXPECTED_REFUSALS), []);
  await page.close();
});
