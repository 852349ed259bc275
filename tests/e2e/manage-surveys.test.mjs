// The management page (/manage): sign in with the admin token, list the
// surveys with n and status, close (reports then refused), set a closing
// time, reopen, make a new version as a copy (the builder prefilled with
// version + 1 and a new id), delete with a typed confirmation, and fit a
// 390 px phone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadCore } from '../../web/src/core.js';
import { onPhone, openRecordedPage, unexpectedProblems } from './support/browser.mjs';
import { useServerAndBrowser } from './support/fixture.mjs';
import { assertFits, screenshot } from './support/page-checks.mjs';
import { postReports, requestJson } from './support/server.mjs';

const fixture = useServerAndBrowser();
const EXPECTED_REFUSALS = [/Failed to load resource: the server responded with a status of (401|403|404)/];

const SURVEY = {
  format: 'deniable.survey/v1', id: 'pulse', version: 1, title: 'Team pulse', description: 'One question.',
  results: 'admin', access: 'open',
  questions: [{ id: 'happy', text: 'Are you happy at work?', type: 'categorical', options: ['Yes', 'No'], mechanism: { name: 'grr', epsilon: 1 } }],
};

const admin = () => ({ Authorization: `Bearer ${fixture.server.adminToken}` });

async function signIn(page) {
  await page.goto(`${fixture.server.baseUrl}/manage`);
  await page.getByTestId('admin-token-form').waitFor();
  await page.getByTestId('admin-token').fill(fixture.server.adminToken);
  await page.getByTestId('admin-token-submit').click();
}

test('the management page lists, closes, reopens, copies and deletes surveys', async () => {
  const { server } = fixture;
  const created = await requestJson(server.baseUrl, '/api/surveys', { method: 'POST', json: SURVEY, headers: admin() });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const core = await loadCore();
  const reports = [0, 1, 0].map((answer, index) => core.perturbSeeded(SURVEY, { happy: answer }, String(1000 + index)));
  await postReports(server.baseUrl, SURVEY.id, reports);

  const { page, log } = await openRecordedPage(fixture.browser.context);
  await signIn(page);
  const item = page.getByTestId(`survey-${SURVEY.id}`);
  await item.waitFor();
  assert.equal(await page.getByTestId(`respondents-${SURVEY.id}`).textContent(), '3');
  assert.equal(await page.getByTestId(`status-${SURVEY.id}`).textContent(), 'Open');
  assert.match(await page.getByTestId(`link-preview-${SURVEY.id}`).getAttribute('href'), /\/s\/pulse\?preview=1$/);
  await screenshot(page, 'desktop-manage');

  // Close: the list says so and the server refuses a report with a clear message.
  await page.getByTestId(`close-${SURVEY.id}`).click();
  await page.getByTestId(`reopen-${SURVEY.id}`).waitFor();
  assert.equal(await page.getByTestId(`status-${SURVEY.id}`).textContent(), 'Closed');
  const refused = await requestJson(server.baseUrl, `/api/surveys/${SURVEY.id}/reports`, { method: 'POST', json: reports[0] });
  assert.equal(refused.status, 409);
  assert.equal(refused.body.error.code, 'survey_closed');

  // Reopen, then set a closing time (local input -> UTC with Z).
  await page.getByTestId(`reopen-${SURVEY.id}`).click();
  await page.getByTestId(`close-${SURVEY.id}`).waitFor();
  assert.equal(await page.getByTestId(`status-${SURVEY.id}`).textContent(), 'Open');
  await page.getByTestId(`closes-at-${SURVEY.id}`).fill('2031-06-01T18:30');
  await page.getByTestId(`set-closing-${SURVEY.id}`).click();
  await page.getByTestId(`clear-closing-${SURVEY.id}`).waitFor();
  const expectedUtc = await page.evaluate(() => new Date('2031-06-01T18:30').toISOString().replace(/\.\d{3}Z$/, 'Z'));
  const status = await requestJson(server.baseUrl, `/api/surveys/${SURVEY.id}/status`);
  assert.equal(status.body.closes_at, expectedUtc);
  assert.equal(status.body.status, 'open');
  assert.match(await page.getByTestId(`closing-${SURVEY.id}`).textContent(), new RegExp(expectedUtc));
  const accepted = await requestJson(server.baseUrl, `/api/surveys/${SURVEY.id}/reports`, { method: 'POST', json: reports[1] });
  assert.equal(accepted.status, 201, JSON.stringify(accepted.body));

  // New version as a copy: the builder, prefilled, version 2, a new id.
  await page.getByTestId(`copy-${SURVEY.id}`).click();
  await page.getByTestId('question-editor-0').waitFor();
  assert.equal(await page.getByTestId('survey-id').inputValue(), 'pulse-v2');
  assert.equal(await page.getByTestId('survey-title-input').inputValue(), 'Team pulse');
  assert.equal(await page.getByTestId('question-options').inputValue(), 'Yes\nNo');
  const json = JSON.parse(await page.getByTestId('definition-json').textContent());
  assert.equal(json.version, 2);
  assert.equal(json.results, 'admin');
  assert.equal(json.questions[0].mechanism.name, 'grr');
  await page.getByTestId('validation').filter({ hasText: 'The definition is valid.' }).waitFor();

  // Delete: a wrong id deletes nothing; the right one deletes for good.
  // (Signed in already: the token is kept for the tab.)
  await page.goto(`${server.baseUrl}/manage`);
  await item.waitFor();
  await page.getByTestId(`delete-${SURVEY.id}`).click();
  const statement = await page.getByTestId('delete-statement').textContent();
  assert.match(statement, /This deletes the survey, its 4 reports, its invitation codes and its releases for good\. The id cannot be used again\. Type the survey id/);
  await page.getByTestId('delete-confirm').fill('puls');
  await page.getByTestId('delete-submit').click();
  assert.match(await page.getByTestId('delete-error').textContent(), /nothing was deleted/);
  assert.equal((await requestJson(server.baseUrl, `/api/surveys/${SURVEY.id}`)).status, 200);
  await page.getByTestId('delete-confirm').fill(SURVEY.id);
  await page.getByTestId('delete-submit').click();
  await item.waitFor({ state: 'detached' });
  assert.equal((await requestJson(server.baseUrl, `/api/surveys/${SURVEY.id}`)).status, 404);
  const surveyPage = await fetch(`${server.baseUrl}/api/surveys/${SURVEY.id}/status`);
  assert.equal(surveyPage.status, 404);
  assert.deepEqual(unexpectedProblems(log, EXPECTED_REFUSALS), []);
  await page.close();
});

test('the management page fits a 390 px phone', async () => {
  const { server } = fixture;
  const other = { ...SURVEY, id: 'phone-check-survey-with-a-long-identifier', title: 'A survey with a rather long title to wrap on a phone' };
  await requestJson(server.baseUrl, '/api/surveys', { method: 'POST', json: other, headers: admin() });
  await onPhone(async ({ page, log }) => {
    await page.goto(`${server.baseUrl}/manage`);
    await page.getByTestId('admin-token-form').waitFor();
    await assertFits(page, 'manage sign-in on a phone');
    await page.getByTestId('admin-token').fill(server.adminToken);
    await page.getByTestId('admin-token-submit').tap();
    await page.getByTestId(`survey-${other.id}`).waitFor();
    await assertFits(page, 'manage list on a phone');
    await screenshot(page, 'phone-manage');
    await page.getByTestId(`delete-${other.id}`).tap();
    await page.getByTestId('delete-dialog').waitFor();
    await assertFits(page, 'delete dialog on a phone');
    await screenshot(page, 'phone-manage-delete');
    assert.deepEqual(unexpectedProblems(log, EXPECTED_REFUSALS), []);
  });
});
