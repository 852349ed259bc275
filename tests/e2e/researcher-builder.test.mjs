// The builder's researcher features: private results by default, the draft
// kept on the device across a reload, "Yes"/"yes" refused next to the
// options, a success state after Create (a second Create is impossible, the
// links stay), and invitation codes as a CSV download and copied all at once.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { openRecordedPage, unexpectedProblems } from './support/browser.mjs';
import { useServerAndBrowser } from './support/fixture.mjs';
import { screenshot } from './support/page-checks.mjs';
import { requestJson } from './support/server.mjs';

const fixture = useServerAndBrowser();

test('the builder keeps its draft, refuses equal options, creates once and exports codes', async () => {
  const { server, browser } = fixture;
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
  const { page, log } = await openRecordedPage(browser.context);
  await page.goto(`${server.baseUrl}/create`);
  const first = page.getByTestId('question-editor-0');
  await first.waitFor();

  // Private by default; public is an explicit choice.
  assert.equal(await page.getByTestId('survey-results').inputValue(), 'admin');
  assert.equal(JSON.parse(await page.getByTestId('definition-json').textContent()).results, 'admin');

  await page.getByTestId('survey-id').fill('draft-check');
  await page.getByTestId('survey-title-input').fill('Draft check');
  await page.getByTestId('survey-language').fill('fr');
  await page.getByTestId('survey-access').selectOption('invitation');
  await first.getByTestId('question-id').fill('smoke');
  await first.getByTestId('question-text').fill('Do you smoke?');

  // "Yes" and "yes" are one option: the core's message shows next to the field, live.
  await first.getByTestId('question-options').fill('Yes\nyes\nNo');
  const optionsError = first.getByTestId('question-options-error');
  await optionsError.waitFor();
  assert.match(await optionsError.textContent(), /"yes" is the same option as options\[0\] "Yes"/);
  await first.getByTestId('question-options').fill('Yes\nNo\nSometimes');
  await optionsError.waitFor({ state: 'hidden' });

  // The draft survives a reload.
  await page.reload();
  await page.getByTestId('question-editor-0').waitFor();
  assert.equal(await page.getByTestId('survey-id').inputValue(), 'draft-check');
  assert.equal(await page.getByTestId('survey-language').inputValue(), 'fr');
  assert.equal(await page.getByTestId('survey-access').inputValue(), 'invitation');
  assert.equal(await first.getByTestId('question-options').inputValue(), 'Yes\nNo\nSometimes');
  assert.equal(await first.getByTestId('question-text').inputValue(), 'Do you smoke?');
  const definition = JSON.parse(await page.getByTestId('definition-json').textContent());
  assert.equal(definition.language, 'fr');

  // Create once: success state, links kept, Create disabled.
  await page.getByTestId('admin-token').fill(server.adminToken);
  await page.getByTestId('create-survey').click();
  await page.getByTestId('create-success').waitFor();
  assert.equal(await page.getByTestId('create-survey').isDisabled(), true);
  await page.getByTestId('create-survey').click({ force: true });
  await page.waitForTimeout(300);
  assert.equal(await page.getByTestId('create-error').count(), 0);
  assert.equal(await page.getByTestId('created-survey-link').count(), 1);
  assert.equal(log.requests.filter((request) => request.method === 'POST' && request.url.endsWith('/api/surveys')).length, 1);
  const stored = await requestJson(server.baseUrl, '/api/surveys/draft-check');
  assert.equal(stored.body.results, 'admin');
  assert.equal(stored.body.language, 'fr');

  // Invitation codes: CSV download and copy-all.
  await page.getByTestId('invitation-count').fill('3');
  await page.getByTestId('generate-invitations').click();
  await page.getByTestId('invitation-links').locator('a').nth(2).waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('invitations-csv').click()]);
  assert.equal(download.suggestedFilename(), 'draft-check-invitations.csv');
  const csv = (await readFile(await download.path(), 'utf8')).trim().split(/\r\n/);
  assert.equal(csv[0], 'code,link');
  assert.equal(csv.length, 4);
  const [code, link] = csv[1].split(',');
  assert.equal(link, `${server.baseUrl}/s/draft-check?code=${code}`);
  await page.getByTestId('invitations-copy').click();
  await page.getByTestId('invitation-status').filter({ hasText: 'copied' }).waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.deepEqual(copied.split('\n'), csv.slice(1).map((line) => line.split(',')[1]));
  await screenshot(page, 'desktop-create-success');

  // "Create another survey" starts afresh (the draft is gone).
  await page.getByTestId('create-another').click();
  await page.getByTestId('question-editor-0').waitFor();
  assert.equal(await page.getByTestId('survey-id').inputValue(), '');
  assert.equal(await page.getByTestId('create-survey').isDisabled(), true);  // no id or title yet
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});
