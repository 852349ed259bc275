// (d) The creation page: fill the form, watch the live privacy budget and the
// advisor (its recommendation flips from GRR to OUE when k crosses
// 3e^eps + 2), create an admin-only invitation survey with the admin token,
// generate invitation codes, answer through an invitation link, and read the
// admin-only dashboard with the token.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openRecordedPage, unexpectedProblems } from './support/browser.mjs';
import { useServerAndBrowser } from './support/fixture.mjs';
import { forgetDevice } from './support/device.mjs';
import { reviewAnswers } from './support/survey-steps.mjs';
import { axeViolationsAtWidth } from './support/axe.mjs';

// Chromium logs the refused requests this test provokes on purpose.
const EXPECTED_REFUSALS = [/Failed to load resource: the server responded with a status of (401|403)/];

const fixture = useServerAndBrowser();

const teams = (count) => Array.from({ length: count }, (_, index) => `Team ${index + 1}`).join('\n');

async function recommended(page, index) {
  return page.getByTestId(`advice-recommended-${index}`).getAttribute('data-mechanism');
}

test('a survey built on the creation page can be created, invited to, answered and read', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/create`);
  const first = page.getByTestId('question-editor-0');
  await first.waitFor();

  await page.getByTestId('survey-id').fill('team-pulse');
  await page.getByTestId('survey-title-input').fill('Team pulse');
  await page.getByTestId('survey-description').fill('Two quick questions.');
  await page.getByTestId('survey-results').selectOption('admin');
  await page.getByTestId('survey-access').selectOption('invitation');
  await page.getByTestId('expected-respondents').fill('1000');

  // The advisor at epsilon = 1: 3e + 2 = 10.15, so GRR for 10 options, OUE for 11.
  await first.getByTestId('question-id').fill('team');
  await first.getByTestId('question-text').fill('Which team are you in?');
  await first.getByTestId('question-epsilon').fill('1');
  await first.getByTestId('question-options').fill(teams(10));
  assert.equal(await recommended(page, 0), 'grr');
  assert.match(await page.getByTestId('advice-reason-0').textContent(), /3e\^eps \+ 2 = 10\.15/);
  assert.deepEqual(await axeViolationsAtWidth(page, '.advice'), [], 'the advice table at 320 px');
  await first.getByTestId('question-options').fill(teams(11));
  assert.equal(await recommended(page, 0), 'oue');
  // A larger epsilon moves the threshold (3e^2 + 2 = 24.17): GRR again.
  await first.getByTestId('question-epsilon').fill('2');
  assert.equal(await recommended(page, 0), 'grr');
  await first.getByTestId('question-epsilon').fill('1');
  assert.equal(await recommended(page, 0), 'oue');
  await page.getByTestId('use-recommended-0').click();
  assert.equal(await first.getByTestId('question-mechanism').inputValue(), 'oue');
  assert.match(await page.getByTestId('total-epsilon').textContent(), /^ε = 1$/);

  // A second question: the pure negative survey has no formal epsilon, and neither has the survey.
  await page.getByTestId('add-question').click();
  const second = page.getByTestId('question-editor-1');
  await second.getByTestId('question-id').fill('stress');
  await second.getByTestId('question-text').fill('What stresses you most at work?');
  await second.getByTestId('question-options').fill('Workload\nColleagues\nManagement\nSomething else');
  await second.getByTestId('question-mechanism').selectOption('negative');
  await second.getByTestId('question-pure-negative').check();
  assert.equal(await second.getByTestId('question-epsilon').isDisabled(), true);
  assert.match(await second.getByTestId('question-privacy').textContent(), /no formal epsilon/);
  assert.equal(await page.getByTestId('total-epsilon').textContent(), 'no formal epsilon');
  await second.getByTestId('question-pure-negative').uncheck();
  await second.getByTestId('question-epsilon').fill('0.5');
  assert.equal(await page.getByTestId('total-epsilon').textContent(), 'ε = 1.5');

  // The core's validation message is shown and blocks creation.
  await first.getByTestId('question-epsilon').fill('0');
  assert.equal(await page.getByTestId('validation').getAttribute('data-state'), 'error');
  assert.match(await page.getByTestId('validation').textContent(), /questions\[0\]\.mechanism\.epsilon/);
  assert.equal(await page.getByTestId('create-survey').isDisabled(), true);
  await first.getByTestId('question-epsilon').fill('1');
  assert.equal(await page.getByTestId('validation').getAttribute('data-state'), 'success');

  const definition = JSON.parse(await page.getByTestId('definition-json').textContent());
  assert.deepEqual(definition, {
    format: 'deniable.survey/v1', id: 'team-pulse', version: 1, title: 'Team pulse', description: 'Two quick questions.',
    results: 'admin', access: 'invitation',
    questions: [
      { id: 'team', text: 'Which team are you in?', type: 'categorical', options: teams(11).split('\n'), mechanism: { name: 'oue', epsilon: 1 } },
      { id: 'stress', text: 'What stresses you most at work?', type: 'categorical', options: ['Workload', 'Colleagues', 'Management', 'Something else'],
        mechanism: { name: 'negative', epsilon: 0.5, reported_options: 1 } },
    ],
  });

  // A wrong token is refused with the server's message; the right one creates the survey.
  await page.getByTestId('admin-token').fill('not-the-token');
  await page.getByTestId('create-survey').click();
  await page.getByTestId('create-error').waitFor();
  await page.getByTestId('admin-token').fill(fixture.server.adminToken);
  await page.getByTestId('create-survey').click();
  await page.getByTestId('create-success').waitFor();
  assert.equal(await page.getByTestId('created-survey-link').getAttribute('href'), `${fixture.server.baseUrl}/s/team-pulse`);
  assert.equal(await page.getByTestId('created-results-link').getAttribute('href'), `${fixture.server.baseUrl}/results/team-pulse`);

  assert.match(await page.getByTestId('invitations-promise').textContent(), /neither the server nor you can tell which invitee sent which answers/);
  await page.getByTestId('invitation-count').fill('2');
  await page.getByTestId('generate-invitations').click();
  const links = page.getByTestId('invitation-links').locator('a');
  await links.nth(1).waitFor();
  assert.equal(await links.count(), 2);
  const invitationUrl = await links.first().getAttribute('href');
  const code = new URL(invitationUrl).searchParams.get('code');
  assert.ok(code, `invitation link without a code: ${invitationUrl}`);

  // The invitation link opens the survey: its code is exchanged for a token at once.
  await links.first().click();
  await page.getByTestId('survey-form').waitFor();
  assert.equal(await page.getByTestId('survey-title').textContent(), 'Team pulse');
  await page.getByTestId('option-team-4').check();
  await page.getByTestId('option-stress-2').check();
  await reviewAnswers(page, 'click');
  await page.getByTestId('prepare-report').click();
  await page.getByTestId('send-report').click();
  await page.locator('[data-testid="send-status"][data-state="success"]').waitFor();
  const issuance = log.requests.find((request) => request.method === 'POST' && request.url.endsWith('/api/surveys/team-pulse/tokens'));
  assert.equal(JSON.parse(issuance.body).code, code);
  const post = log.requests.find((request) => request.method === 'POST' && request.url.endsWith('/api/surveys/team-pulse/reports'));
  assert.match(post.headers['x-invitation-token'], /^[0-9a-f]{64}\.[0-9a-f]{128}$/);
  assert.equal(post.headers['x-invitation-code'], undefined);

  // The same code cannot be used twice: on another device (this one remembers the survey was answered), the page
  // checks the code when it opens and says so before any question.
  const reuse = await openRecordedPage(fixture.browser.context);
  await reuse.page.goto(invitationUrl);
  await forgetDevice(reuse.page);
  const refusal = reuse.page.getByTestId('gate-message');
  await refusal.waitFor();
  assert.match(await refusal.textContent(), /^This invitation has already been used, or its code is not one of this survey’s\./);
  assert.equal(await reuse.page.getByTestId('survey-form').count(), 0, 'no question is offered with a used code');
  await reuse.page.close();

  // The admin-only dashboard asks for the token (a new tab has a fresh sessionStorage).
  const dashboard = await openRecordedPage(fixture.browser.context);
  await dashboard.page.goto(`${fixture.server.baseUrl}/results/team-pulse`);
  await dashboard.page.getByTestId('admin-token-form').waitFor();
  await dashboard.page.getByTestId('admin-token').fill(fixture.server.adminToken);
  await dashboard.page.getByTestId('admin-token-submit').click();
  await dashboard.page.locator('[data-testid="n-team"]', { hasText: /^1$/ }).waitFor();
  assert.equal(await dashboard.page.getByTestId('mechanism-team').textContent(), 'Optimised unary encoding (OUE)');
  assert.equal(await dashboard.page.getByTestId('epsilon-stress').textContent(), 'ε = 0.5');
  assert.equal(await dashboard.page.getByTestId('total-epsilon').textContent(), 'ε = 1.5');
  // The CSV of an admin-only survey is fetched with the token.
  const [csv] = await Promise.all([dashboard.page.waitForEvent('download'), dashboard.page.getByTestId('export-csv').click()]);
  assert.equal(csv.suggestedFilename(), 'team-pulse-results.csv');
  const chunks = [];
  for await (const chunk of await csv.createReadStream()) chunks.push(chunk);
  assert.match(Buffer.concat(chunks).toString('utf8'), /Team 11/);
  assert.deepEqual(unexpectedProblems(dashboard.log, EXPECTED_REFUSALS), []);
  await dashboard.page.close();

  assert.deepEqual(unexpectedProblems(log, EXPECTED_REFUSALS), []);
  await page.close();
});
