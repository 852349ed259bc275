// The dashboard for researchers: an admin-only survey shows a sign-in form
// (no talk of HTTP headers), and a question with 4096 options draws only its
// top options, with a search, while the table keeps every option; the page
// keeps a sane height and no giant canvas.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadCore } from '../../web/src/core.js';
import { launchBrowser, openRecordedPage, PHONE, unexpectedProblems } from './support/browser.mjs';
import { useServerAndBrowser } from './support/fixture.mjs';
import { assertFits, screenshot } from './support/page-checks.mjs';
import { postReports, requestJson } from './support/server.mjs';

const fixture = useServerAndBrowser();
const EXPECTED_REFUSALS = [/Failed to load resource: the server responded with a status of (401|403)/];
const OPTIONS = Array.from({ length: 4096 }, (_, index) => `Item ${String(index).padStart(4, '0')}`);

const SURVEY = {
  format: 'deniable.survey/v1', id: 'many-options', version: 1, title: 'Many options', description: '',
  results: 'admin', access: 'open',
  questions: [{ id: 'item', text: 'Which item?', type: 'categorical', options: OPTIONS, mechanism: { name: 'oue', epsilon: 2 } }],
};

test('an admin-only dashboard signs in with a form and draws 4096 options sanely', async () => {
  const { server, browser } = fixture;
  const created = await requestJson(server.baseUrl, '/api/surveys', {
    method: 'POST', json: SURVEY, headers: { Authorization: `Bearer ${server.adminToken}` },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const core = await loadCore();
  const reports = Array.from({ length: 40 }, (_, index) => core.perturbSeeded(SURVEY, { item: index % 3 === 0 ? 7 : index }, String(500 + index)));
  await postReports(server.baseUrl, SURVEY.id, reports);

  const { page, log } = await openRecordedPage(browser.context);
  await page.goto(`${server.baseUrl}/results/${SURVEY.id}`);
  const form = page.getByTestId('admin-token-form');
  await form.waitFor();
  const formText = await form.textContent();
  assert.doesNotMatch(formText, /header|Authorization|Bearer/i);
  assert.match(formText, /Sign in/);
  await page.getByTestId('admin-token').fill(server.adminToken);
  await page.getByTestId('admin-token-submit').click();
  await page.locator('[data-testid="n-item"]', { hasText: /^40$/ }).waitFor();

  // The chart: the top 25 by estimate, and a note; the table: all 4096 rows.
  const note = page.getByTestId('chart-note-item');
  assert.match(await note.textContent(), /Showing the top 25 of 4,096 options by estimate; all are in the table below\./);
  assert.equal(await page.getByTestId('table-item').locator('tbody tr').count(), 4096);
  const { pageHeight, canvasHeight } = await page.evaluate(() => ({
    pageHeight: document.documentElement.scrollHeight,
    canvasHeight: document.querySelector('[data-testid="chart-item"]').getBoundingClientRect().height,
  }));
  assert.ok(pageHeight < 20000, `page is ${pageHeight}px tall`);
  assert.ok(canvasHeight > 100 && canvasHeight < 2000, `chart is ${canvasHeight}px tall`);

  // A search narrows the chart to the matches.
  await page.getByTestId('option-search-item').fill('Item 000');
  await note.filter({ hasText: /Showing 10 of the 10 options matching “Item 000”/ }).waitFor();
  await page.getByTestId('option-search-item').fill('nothing like this');
  await note.filter({ hasText: /No option matches/ }).waitFor();
  await page.getByTestId('option-search-item').fill('');
  await note.filter({ hasText: /top 25 of 4,096/ }).waitFor();

  // The precision is stated once (not again in the warning).
  const precision = await page.getByTestId('precision-item').textContent();
  assert.match(precision, /^±[\d.]+ points/);
  const warning = page.getByTestId('warning-item');
  if (await warning.isVisible()) {
    assert.match(await warning.textContent(), /^Warning: n = [\d,]+ is too small for useful estimates \(see the expected precision above\)\.$/);
  }
  // What the intervals are for: one plain line per question (the population by default), and a control to switch.
  const target = page.getByTestId('interval-for-item');
  assert.equal(await target.textContent(), '95% intervals for the population sampled (sampling and randomisation).');
  await page.getByTestId('interval-target').selectOption('respondents');
  await target.filter({ hasText: /^95% intervals for these respondents only/ }).waitFor();
  await page.getByTestId('interval-target').selectOption('population');
  await target.filter({ hasText: /population sampled/ }).waitFor();
  await screenshot(page, 'desktop-dashboard-4096');
  assert.deepEqual(unexpectedProblems(log, EXPECTED_REFUSALS), []);
  await page.close();

  // A phone: no horizontal overflow with the search and the table.
  const phone = await launchBrowser(PHONE);
  try {
    const phonePage = (await openRecordedPage(phone.context)).page;
    await phonePage.goto(`${server.baseUrl}/results/${SURVEY.id}`);
    await phonePage.getByTestId('admin-token-form').waitFor();
    await assertFits(phonePage, 'dashboard sign-in on a phone');
    await phonePage.getByTestId('admin-token').fill(server.adminToken);
    await phonePage.getByTestId('admin-token-submit').tap();
    await phonePage.getByTestId('chart-note-item').waitFor();
    await assertFits(phonePage, '4096-option dashboard on a phone');
    await screenshot(phonePage, 'phone-dashboard-4096');
  } finally {
    await phone.close();
  }
});
