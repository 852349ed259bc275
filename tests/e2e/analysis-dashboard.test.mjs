// Analyses across questions on the dashboard (issue 28): a survey with open
// questions (gender, age) and randomised ones (drug: GRR; stress: OUE), 400
// simulated respondents from a joint truth posted to the real server; then
// "Break down by" gender for drug, a cross-tab of drug × stress and a
// regression of drug on gender and age show exactly the numbers of
// GET /api/surveys/{id}/analysis; the small group is hidden; the pickers work
// from the keyboard; the panels are axe-clean at desktop and phone width.
// And the builder's "Compare two groups" shows core's n per group.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { loadCore } from '../../web/src/core.js';
import { analysisCsv } from '../../web/src/dashboard/analysis-csv.js';
import { launchBrowser, openRecordedPage, PHONE, unexpectedProblems } from './support/browser.mjs';
import { forgetDevice } from './support/device.mjs';
import { useServerAndBrowser } from './support/fixture.mjs';
import { tabUntil } from './support/keyboard.mjs';
import { SCREENSHOT_DIR, assertFits, screenshot } from './support/page-checks.mjs';
import { SERVER_BIN } from './support/paths.mjs';
import { requestJson } from './support/server.mjs';
import { axeViolations, axeViolationsAtWidth } from './support/axe.mjs';

const fixture = useServerAndBrowser();
const EXPECTED_REFUSALS = [/Failed to load resource: the server responded with a status of (401|403)/];

const SURVEY = {
  format: 'deniable.survey/v1', id: 'habits', version: 1, title: 'Habits', description: '', results: 'admin', access: 'open',
  questions: [
    { id: 'gender', text: 'Gender?', type: 'categorical', options: ['Woman', 'Man', 'Non-binary', 'Other'], privacy: 'open' },
    { id: 'age', text: 'Age?', type: 'numeric', range: [18, 90], step: 1, privacy: 'open' },
    { id: 'drug', text: 'Used a drug?', type: 'categorical', options: ['No', 'Yes'], mechanism: { name: 'grr', epsilon: 1 } },
    { id: 'stress', text: 'Main stress?', type: 'categorical', options: ['Work', 'Money', 'Health'], mechanism: { name: 'oue', epsilon: 2 } },
  ],
};
const RESPONDENTS = 400;

// Drug use 10% among women, 30% among men, higher with age; "Other" has 3 people (hidden as fewer than 5),
// and so "Non-binary" (about 40) is hidden too: the total minus the shown groups would give "Other" away.
function rowsCsv() {
  let seed = 11;
  const next = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const lines = ['gender,age,drug,stress'];
  for (let i = 0; i < RESPONDENTS; i += 1) {
    const draw = next();
    const gender = i < 3 ? 'Other' : draw < 0.1 ? 'Non-binary' : draw < 0.55 ? 'Woman' : 'Man';
    const age = 18 + Math.floor(next() * 72);
    const p = (gender === 'Man' ? 0.3 : 0.1) + (age - 18) / 360;
    lines.push(`${gender},${age},${next() < p ? 'Yes' : 'No'},${['Work', 'Money', 'Health'][Math.floor(next() * 3)]}`);
  }
  return `${lines.join('\n')}\n`;
}

function run(args) {
  return new Promise((resolve) => {
    const child = spawn(SERVER_BIN, args);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

const numberOf = async (locator, name = 'value') => Number(await locator.getAttribute(`data-${name}`));
const close = (actual, expected, what) => assert.ok(Math.abs(actual - expected) <= 1e-12 * Math.max(1, Math.abs(expected)), `${what}: ${actual} shown, ${expected} served`);

// The panel's analysis has been shown (its status line is empty then: attached, not visible).
async function finished(page, testid) {
  await page.locator(`[data-testid="${testid}-status"]:is([data-state="done"], [data-state="failed"])`).waitFor({ state: 'attached', timeout: 60_000 });
  const error = page.getByTestId(`${testid}-error`);
  assert.equal(await error.isVisible(), false, `${testid}: ${await error.textContent()}`);
}

async function api(server, query) {
  const response = await requestJson(server.baseUrl, `/api/surveys/${SURVEY.id}/analysis?${query}`, { headers: { Authorization: `Bearer ${server.adminToken}` } });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body;
}

async function signIn(page, server) {
  await page.goto(`${server.baseUrl}/results/${SURVEY.id}`);
  await page.getByTestId('admin-token').fill(server.adminToken);
  await page.getByTestId('admin-token-submit').click();
  await page.locator('[data-testid="n-drug"]', { hasText: /^400$/ }).waitFor();
  // The few "Other" respondents (1 to 4 of the rows drawn) share a combination of open answers with fewer than 5:
  // the dashboard says so.
  await page.getByTestId('open-combinations-warning')
    .filter({ hasText: /^1 combination of the open answers is shared by fewer than 5 respondents \([1-4] (person|people) in all\)/ })
    .waitFor();
}

async function checkBreakdown(page, served) {
  const section = page.getByTestId('breakdown-drug');
  await finished(page, 'breakdown-drug');
  for (const [index, group] of served.groups.entries()) {
    const box = section.getByTestId(`breakdown-drug-group-${index}`);
    assert.equal(await box.getAttribute('data-label'), group.label);
    if (typeof group.n !== 'number') {
      // "<5", or "hidden" so that the total minus the shown groups does not give a small one away.
      const small = group.n === '<5';
      assert.match(await box.getByTestId(`breakdown-drug-group-${index}-hidden`).textContent(), small ? /Fewer than 5/ : /Not shown/);
      assert.match(await box.getByTestId(`breakdown-drug-group-${index}-n`).textContent(), small ? /fewer than 5/ : /not shown/);
      assert.equal(await box.locator('canvas').count(), 0);
      continue;
    }
    assert.match(await box.getByTestId(`breakdown-drug-group-${index}-n`).textContent(), new RegExp(`n = ${group.n}\\)`));
    for (const [option, row] of group.result.options.entries()) {
      close(await numberOf(box.getByTestId(`estimate-drug-by-${index}-${option}`)), row.frequency, `${group.label} ${row.label}`);
      close(await numberOf(box.getByTestId(`ci-drug-by-${index}-${option}`), 'low'), row.ci_low, `${group.label} ${row.label} low`);
      close(await numberOf(box.getByTestId(`ci-drug-by-${index}-${option}`), 'high'), row.ci_high, `${group.label} ${row.label} high`);
    }
  }
  assert.deepEqual(served.groups.map((group) => group.n).filter((n) => typeof n !== 'number'), ['hidden', '<5']);
  const rows = served.differences.rows;
  assert.ok(rows.length > 0, 'the served breakdown has differences');
  for (const [index, row] of rows.entries()) {
    const shown = section.getByTestId(`breakdown-drug-difference-${index}`);
    close(await numberOf(shown.locator('td').nth(1)), row.estimate, `difference ${index}`);
    close(await numberOf(shown.locator('td').nth(2), 'low'), row.ci_low, `difference ${index} low`);
  }
}

test('breakdown, cross-tab and regression on the dashboard equal the API’s, axe-clean and keyboard-usable', async () => {
  const { server, browser } = fixture;
  const created = await requestJson(server.baseUrl, '/api/surveys', { method: 'POST', json: SURVEY, headers: { Authorization: `Bearer ${server.adminToken}` } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deniable-e2e-analysis-'));
  try {
    fs.writeFileSync(path.join(dir, 'survey.json'), JSON.stringify(SURVEY));
    fs.writeFileSync(path.join(dir, 'rows.csv'), rowsCsv());
    const posted = await run(['simulate', '--survey', path.join(dir, 'survey.json'), '--truth-csv', path.join(dir, 'rows.csv'),
      '--respondents', String(RESPONDENTS), '--seed', '5', '--post', server.baseUrl]);
    assert.equal(posted.status, 0, posted.stderr);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  const { page, log } = await openRecordedPage(browser.context);
  await signIn(page, server);
  // No picker on the grouping question itself when it is the only open categorical one.
  assert.equal(await page.getByTestId('breakdown-gender').count(), 0);

  // 1. Break down drug by gender, from the keyboard: Tab to the picker, arrow to "Gender?".
  await page.getByTestId('survey-title').click();
  await tabUntil(page, (focused) => focused.testid === 'breakdown-drug-by', 'the breakdown picker of drug', 200);
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.getByTestId('breakdown-drug-by').inputValue(), 'gender');
  await checkBreakdown(page, await api(server, 'by=gender&question=drug'));

  // 2. The cross-tab of drug × stress.
  await page.getByTestId('crosstab-q1').selectOption('drug');
  await page.getByTestId('crosstab-q2').selectOption('stress');
  await page.getByTestId('crosstab-run').click();
  await finished(page, 'crosstab');
  const cross = await api(server, 'cross=drug,stress');
  assert.equal(cross.cells.length, 6);
  for (const [index, cell] of cross.cells.entries()) {
    const shown = page.getByTestId(`crosstab-cell-${index}`);
    close(await numberOf(shown, 'consistent'), cell.consistent, `cell ${cell.labels}`);
    close(await numberOf(shown, 'estimate'), cell.estimate, `cell ${cell.labels} unbiased`);
    close(await numberOf(shown, 'low'), cell.consistent_ci_low, `cell ${cell.labels} low`);
  }
  assert.match(await page.getByTestId('crosstab-consistent-note').textContent(), /add up to 100%/);
  // The unbiased estimates on demand (a checkbox, keyboard: Space).
  const firstUnbiased = page.getByTestId('crosstab-cell-0').locator('.cell-unbiased');
  assert.equal(await firstUnbiased.isVisible(), false);
  await page.getByTestId('crosstab-unbiased').focus();
  await page.keyboard.press('Space');
  assert.equal(await firstUnbiased.isVisible(), true);

  // 3. The regression of drug on gender and age (ticked and run from the keyboard).
  await page.getByTestId('regression-outcome').selectOption('drug');
  for (const id of ['gender', 'age']) {
    await page.getByTestId(`regression-on-${id}`).focus();
    await page.keyboard.press('Space');
  }
  await page.getByTestId('regression-run').focus();
  await page.keyboard.press('Enter');
  await finished(page, 'regression');
  const regression = await api(server, 'regress=drug&on=gender,age');
  assert.equal(regression.model, 'logistic');
  assert.equal(await page.getByTestId('regression-converged').getAttribute('data-converged'), String(regression.converged));
  assert.equal(await page.getByTestId('regression-table').locator('tbody tr').count(), regression.coefficients.length);
  for (const [index, coefficient] of regression.coefficients.entries()) {
    const row = page.getByTestId(`regression-coefficient-${index}`);
    assert.equal(await row.locator('th').textContent(), coefficient.term);
    close(await numberOf(row.locator('td').nth(0)), coefficient.estimate, coefficient.term);
    close(await numberOf(row.locator('td').nth(1)), coefficient.std_error, `${coefficient.term} SE`);
    close(await numberOf(row.locator('td').nth(2), 'low'), coefficient.ci_low, `${coefficient.term} low`);
  }
  assert.equal(await page.getByTestId('regression-predictions-table').locator('tbody tr').count(), regression.predictions.length);
  // The profile of the 1-4 "Other" respondents is not shown.
  const smallProfiles = regression.predictions.filter((profile) => profile.n < 5).length;
  assert.equal(await page.getByTestId('regression-profile-hidden').count(), smallProfiles);

  // 4. Downloads: the JSON is the document as served; the CSV has one row per cell, formula-safe.
  const [jsonDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('crosstab-json').click()]);
  assert.deepEqual(JSON.parse(fs.readFileSync(await jsonDownload.path(), 'utf8')), cross);
  const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('crosstab-csv').click()]);
  const csv = fs.readFileSync(await csvDownload.path(), 'utf8').trim().split('\r\n');
  assert.equal(csv.length, 1 + cross.cells.length);
  assert.match(csv[0], /^analysis,spec,interval_for,row,drug,stress,/);

  // 5. Accessibility and looks.
  assert.deepEqual(await axeViolations(page, '[data-testid="breakdown-drug"]'), []);
  assert.deepEqual(await axeViolations(page, '[data-testid="analysis-panels"]'), []);
  await screenshot(page, 'desktop-analysis-dashboard');
  for (const testid of ['breakdown-drug', 'crosstab-panel', 'regression-panel']) {
    await page.getByTestId(testid).screenshot({ path: `${SCREENSHOT_DIR}/deniable-desktop-${testid}.png` });
  }
  await assertFits(page, 'the dashboard with analyses (desktop)');
  assert.deepEqual(unexpectedProblems(log, EXPECTED_REFUSALS), []);
  await page.close();

  const phone = await launchBrowser(PHONE);
  try {
    const { page: small, log: smallLog } = await openRecordedPage(phone.context);
    await signIn(small, server);
    await small.getByTestId('breakdown-drug-by').selectOption('gender');
    await finished(small, 'breakdown-drug');
    await small.getByTestId('crosstab-run').click();
    await finished(small, 'crosstab');
    await screenshot(small, 'phone-analysis-dashboard');
    for (const testid of ['breakdown-drug', 'crosstab-panel']) {
      await small.getByTestId(testid).screenshot({ path: `${SCREENSHOT_DIR}/deniable-phone-${testid}.png` });
    }
    await assertFits(small, 'the dashboard with analyses (phone)');
    assert.deepEqual(await axeViolations(small, '[data-testid="analysis-panels"]'), []);
    assert.deepEqual(await axeViolationsAtWidth(small, 'main'), [], 'the analyses at 320 px');
    assert.deepEqual(unexpectedProblems(smallLog, EXPECTED_REFUSALS), []);
  } finally {
    await phone.close();
  }
});

test('a mistaken pick is said plainly, and a busy server is asked again after its Retry-After', async () => {
  const { server, browser } = fixture;
  const { page } = await openRecordedPage(browser.context);
  await signIn(page, server);
  // Two questions the same: the page says so without asking the server.
  await page.getByTestId('crosstab-q1').selectOption('drug');
  await page.getByTestId('crosstab-q2').selectOption('drug');
  await page.getByTestId('crosstab-run').click();
  assert.match(await page.getByTestId('crosstab-pick-error').textContent(), /different questions/);
  // The server busy once (503, Retry-After: 1): the panel says so, waits and asks again.
  await page.getByTestId('regression-outcome').selectOption('stress');
  await page.getByTestId('regression-on-age').check();
  await page.route((url) => url.pathname.endsWith('/analysis'), (route) => route.fulfill({ status: 503, headers: { 'Retry-After': '1', 'Content-Type': 'application/json' }, body: JSON.stringify({ error: { code: 'estimation_busy', message: 'too many computations' } }) }), { times: 1 });
  await page.getByTestId('regression-run').click();
  await page.getByTestId('regression-status').filter({ hasText: /busy; retrying in 1 s/ }).waitFor();
  await finished(page, 'regression');
  assert.ok(await page.getByTestId('regression-table').locator('tbody tr').count() > 0);
  await page.close();
});

test('the builder’s “Compare two groups” shows core’s n per group', async () => {
  const { server, browser } = fixture;
  const { page, log } = await openRecordedPage(browser.context);
  await page.goto(`${server.baseUrl}/create`);
  await forgetDevice(page);
  const first = page.getByTestId('question-editor-0');
  await first.waitFor();
  await first.getByTestId('question-text').fill('Used a drug?');
  await first.getByTestId('question-id').fill('drug');
  await first.getByTestId('question-options').fill('No\nYes');
  await first.getByTestId('question-epsilon').fill('1');
  await first.getByTestId('power-p1').fill('10');
  await first.getByTestId('power-p2').fill('25');
  const shown = first.getByTestId('power-n');
  await shown.filter({ hasText: /respondents per group/ }).waitFor();

  const core = await loadCore();
  const definition = { format: 'deniable.survey/v1', id: 'x', version: 1, title: 'x',
    questions: [{ id: 'drug', text: 'Used a drug?', type: 'categorical', options: ['No', 'Yes'], mechanism: { name: 'grr', epsilon: 1 } }] };
  const waitFor = async (expected) => {
    await page.waitForFunction((n1) => document.querySelector('[data-testid="power-n"]')?.dataset.n1 === String(n1), expected.n_per_group[0]);
    assert.equal(await shown.getAttribute('data-n2'), String(expected.n_per_group[1]));
  };
  await waitFor(core.groupPower(definition, 'drug', 0.1, 0.25, 0.8, 0.05));
  // 90% power, and a smaller ε: the numbers follow core's.
  await first.getByTestId('power-power').selectOption('0.9');
  await waitFor(core.groupPower(definition, 'drug', 0.1, 0.25, 0.9, 0.05));
  await first.getByTestId('question-epsilon').fill('0.5');
  definition.questions[0].mechanism.epsilon = 0.5;
  await waitFor(core.groupPower(definition, 'drug', 0.1, 0.25, 0.9, 0.05));
  assert.deepEqual(await axeViolations(page, '[data-testid="power-analysis"]'), []);
  await first.getByTestId('power-analysis').screenshot({ path: `${SCREENSHOT_DIR}/deniable-power-analysis.png` });
  assert.deepEqual(unexpectedProblems(log), []);
});

test('the panels’ CSV is tidy and formula-safe (text starting with = + - @ is quoted with an apostrophe; numbers stay numbers)', () => {
  const document = {
    interval_for: { target: 'population' },
    questions: [{ id: 'drug', labels: ['No', '=HYPERLINK("x")'] }, { id: 'stress', labels: ['@Work', '-Money'] }],
    cells: [
      { labels: ['No', '@Work'], estimate: -0.02, std_error: 0.01, ci_low: -0.04, ci_high: 0, consistent: 0, consistent_ci_low: 0, consistent_ci_high: 0, hidden: false },
      { labels: ['No', '-Money'], hidden: true },
      { labels: ['=HYPERLINK("x")', '@Work'], estimate: 0.5, std_error: 0.1, ci_low: 0.3, ci_high: 0.7, consistent: 0.5, consistent_ci_low: 0.3, consistent_ci_high: 0.7, hidden: false },
    ],
  };
  const lines = analysisCsv(document, { cross: ['drug', 'stress'] }).trim().split('\r\n');
  assert.equal(lines[0], 'analysis,spec,interval_for,row,drug,stress,hidden,consistent,consistent_ci_low,consistent_ci_high,estimate,std_error,ci_low,ci_high');
  assert.equal(lines[1], 'cross,"{""cross"":[""drug"",""stress""]}",population,cell,No,"\'@Work",false,0,0,0,-0.02,0.01,-0.04,0');
  assert.equal(lines[2], 'cross,"{""cross"":[""drug"",""stress""]}",population,cell,No,"\'-Money",true,,,,,,,');
  assert.match(lines[3], /^cross,[^]*,cell,"'=HYPERLINK\(""x""\)","'@Work",false,0.5,/);
});
