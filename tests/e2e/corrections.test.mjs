// Live corrections in the browser (issue 33): the admin corrects a running
// survey's wording from the manage page with the keyboard alone (the builder
// in correction mode, "Correct the wording"); the survey page then shows the
// new words, a report from it counts beside one sent before, and the
// dashboard lists the change with its date. An edit that adds an option is
// refused, the builder saying why a new version is needed. Axe-clean.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadCore } from '../../web/src/core.js';
import { onPhone, openRecordedPage, unexpectedProblems } from './support/browser.mjs';
import { useServerAndBrowser } from './support/fixture.mjs';
import { tabUntil } from './support/keyboard.mjs';
import { assertFits, screenshot } from './support/page-checks.mjs';
import { postReports, requestJson } from './support/server.mjs';
import { axeViolations } from './support/axe.mjs';

const fixture = useServerAndBrowser();
const EXPECTED_REFUSALS = [/Failed to load resource: the server responded with a status of (401|403|404|409)/];

const SURVEY = {
  format: 'deniable.survey/v1', id: 'typos', version: 1, title: 'Comute survey', description: 'How you get to work.',
  results: 'public', access: 'open',
  questions: [{ id: 'mode', text: 'How do you usualy get to work?', type: 'categorical', options: ['Car', 'Bus', 'Bycicle'],
    mechanism: { name: 'grr', epsilon: 1 } }],
};

const admin = () => ({ Authorization: `Bearer ${fixture.server.adminToken}` });

// Selects the field's whole text and types `text` in its place (keyboard only).
async function retype(page, text) {
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
}

test('an admin corrects a live survey\'s wording with the keyboard; respondents and the dashboard see it', async () => {
  const { server } = fixture;
  assert.equal((await requestJson(server.baseUrl, '/api/surveys', { method: 'POST', json: SURVEY, headers: admin() })).status, 201);
  const core = await loadCore();
  await postReports(server.baseUrl, SURVEY.id, [core.perturbSeeded(SURVEY, { mode: 2 }, '7001')]);  // before the correction

  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${server.baseUrl}/manage`);
  await page.getByTestId('admin-token-form').waitFor();
  await page.keyboard.type(fixture.server.adminToken);  // the token field has focus
  await page.keyboard.press('Enter');
  await page.getByTestId(`survey-${SURVEY.id}`).waitFor();
  await tabUntil(page, (focused) => focused.testid === `correct-${SURVEY.id}`, 'the Correct wording link');
  await page.keyboard.press('Enter');
  await page.getByTestId('correction-note').waitFor();
  await page.getByTestId('question-editor-0').waitFor();
  assert.equal(await page.getByTestId('survey-id').inputValue(), SURVEY.id);
  assert.equal(await page.getByTestId('survey-id').getAttribute('readonly'), '');

  // An option added is more than wording: refused, and the page says why and offers a new version.
  await page.getByTestId('question-options').focus();
  await retype(page, 'Car\nBus\nBicycle\nOn foot');
  await tabUntil(page, (focused) => focused.testid === 'correct-wording', 'Correct the wording', 80);
  await page.keyboard.press('Enter');
  const why = page.getByTestId('correction-needs-version');
  await why.waitFor();
  assert.match(await why.textContent(), /This edit needs a new version; nothing was changed\.Why: questions\[0\]\.options: the options' number changed \(3 to 4\): reports already collected would be counted against different options/);
  assert.equal(await page.getByTestId('correction-new-version').getAttribute('href'), '/create?from=typos');
  assert.equal((await requestJson(server.baseUrl, `/api/surveys/${SURVEY.id}`)).body.questions[0].options.length, 3);

  // Words only: the title, the question's text and an option's spelling.
  await page.getByTestId('question-options').focus();
  await retype(page, 'Car\nBus\nBicycle');
  await page.getByTestId('question-text').focus();
  await retype(page, 'How do you usually get to work?');
  await page.getByTestId('survey-title-input').focus();
  await retype(page, 'Commute survey');
  await tabUntil(page, (focused) => focused.testid === 'correct-wording', 'Correct the wording', 80);
  await page.keyboard.press('Enter');
  await page.getByTestId('correction-success').waitFor();
  const listed = await page.getByTestId('correction-changes').locator('li').allTextContents();
  assert.deepEqual(listed, [
    'title: “Comute survey” → “Commute survey”',
    'question "mode": option 3: “Bycicle” → “Bicycle”',
    'question "mode": text: “How do you usualy get to work?” → “How do you usually get to work?”',
  ]);
  assert.deepEqual(await axeViolations(page), []);
  await screenshot(page, 'desktop-correction');

  // The survey page, loaded now, shows the new words; its report counts beside the earlier one.
  await page.goto(`${server.baseUrl}/s/${SURVEY.id}`);
  await page.getByTestId('survey-title').waitFor();
  assert.equal(await page.getByTestId('survey-title').textContent(), 'Commute survey');
  assert.match(await page.locator('main').textContent(), /How do you usually get to work\?/);
  assert.match(await page.locator('label.choice:has([data-testid="option-mode-2"])').textContent(), /Bicycle/);
  await postReports(server.baseUrl, SURVEY.id, [core.perturbSeeded((await requestJson(server.baseUrl, `/api/surveys/${SURVEY.id}`)).body, { mode: 0 }, '7002')]);

  // The dashboard lists the change with its date, and counts both reports.
  await page.goto(`${server.baseUrl}/results/${SURVEY.id}`);
  await page.getByTestId('corrections').waitFor({ state: 'visible' });
  assert.equal(await page.getByTestId('respondents').textContent(), '2');
  const recorded = await page.getByTestId('corrections-list').locator('li').allTextContents();
  assert.equal(recorded.length, 3);
  assert.match(recorded[0], /^Wording corrected on .+\(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\): title: “Comute survey” → “Commute survey”$/);
  assert.match(recorded[1], /question "mode": option 3: “Bycicle” → “Bicycle”$/);
  assert.match(await page.getByTestId('survey-title').textContent(), /Commute survey/);
  assert.deepEqual(await axeViolations(page), []);
  await screenshot(page, 'desktop-dashboard-corrections');
  assert.deepEqual(unexpectedProblems(log, EXPECTED_REFUSALS), []);
});

test('on a phone, the corrected words are what the survey page and the dashboard show, and both fit', async () => {
  // Runs after the correction above (same server): the stored definition is the corrected one.
  await onPhone(async ({ page, log }) => {
    await page.goto(`${fixture.server.baseUrl}/s/${SURVEY.id}`);
    await page.getByTestId('survey-title').waitFor();
    assert.equal(await page.getByTestId('survey-title').textContent(), 'Commute survey');
    assert.match(await page.locator('main').textContent(), /How do you usually get to work\?/);
    await assertFits(page, 'the corrected survey page on a phone');
    assert.deepEqual(await axeViolations(page), []);

    await page.goto(`${fixture.server.baseUrl}/results/${SURVEY.id}`);
    await page.getByTestId('corrections').waitFor({ state: 'visible' });
    assert.equal(await page.getByTestId('corrections-list').locator('li').count(), 3);
    await assertFits(page, 'the dashboard with its corrections on a phone');
    assert.deepEqual(await axeViolations(page), []);
    await screenshot(page, 'phone-dashboard-corrections');
    assert.deepEqual(unexpectedProblems(log), []);
  });
});
