// Block questions end to end, with the example survey
// (examples/block-survey.json: age, income, education and diagnosis answered
// together under PMOUE, 1.5 per answered attribute), created over the API.
// (a) Answered with the keyboard: one attribute left out ("Prefer not to
//     say"), one made more private; the page shows each attribute's ε as
//     core.privacyOfChoices gives it for those choices (never given the
//     answers), and the block's total; the report shown and POSTed is
//     {attributes, bits} for the answered attributes only, and no request
//     carries an answer, a sensitivity or a share.
// (b) A required block with nothing answered is asked for.
// (c) 2000 simulated respondents (seeded answers from a joint with
//     dependence, some attributes skipped, some more private; reports made in
//     Node by the same WebAssembly core): every attribute's chart and table
//     with the server's numbers, and the cross-tabulation picked in the
//     dashboard (?profile.crosstab=) shows the server's cells.
// (d) Phone layouts (no horizontal scrolling; screenshots).
// (e) The creation page builds the example's block question.
//
// The seeds are fixed, so the dashboard's numbers are the same on every run.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadCore } from '../../web/src/core.js';
import { formatNumber, formatPercent } from '../../web/src/shared/format.js';
import { onPhone, openRecordedPage, unexpectedProblems } from './support/browser.mjs';
import { focusedElement, tabUntil } from './support/keyboard.mjs';
import { createSeededGenerator } from './support/seeded-generator.mjs';
import { postSimulatedReports, useServerAndBrowser } from './support/fixture.mjs';
import { requestJson } from './support/server.mjs';
import { assertFits, screenshot } from './support/page-checks.mjs';
import { forgetDevice } from './support/device.mjs';
import { WEB_DIST } from './support/paths.mjs';
import { reviewAnswers, sendShownReport } from './support/survey-steps.mjs';
import { axeViolationsAtWidth } from './support/axe.mjs';

const RESPONDENTS = 2000;
const ANSWER_SEED = 20261125;
const REPORT_SEED_BASE = 9_000_000;

const SURVEY = JSON.parse(readFileSync(new URL('../../examples/block-survey.json', import.meta.url), 'utf8'));
const QUESTION = SURVEY.questions[0];
const ATTRIBUTES = QUESTION.attributes.map((attribute) => attribute.id);
// The simulated respondents answer a copy, so that the keyboard test's report
// (randomised by the OS) does not enter the dashboard's numbers.
const SIMULATED = { ...SURVEY, id: 'household-block-simulated' };

// The keyboard respondent: 35-49, income left out, University, diagnosed
// "Yes" and asked to be more private about it.
const TRUE_ANSWERS = { age: 1, education: 2, diagnosis: 1 };
const CHOICES = {
  answered: ['age', 'education', 'diagnosis'],
  sensitivity: { age: 'usual', income: 'usual', education: 'usual', diagnosis: 'more_private' },
};

// As the survey page words a probability ("14%", "4.7%").
const PERCENT = new Intl.NumberFormat('en', { style: 'percent', maximumSignificantDigits: 2 });

const fixture = useServerAndBrowser({ surveys: [SURVEY, SIMULATED] });


// The report's ticked boxes as the page words them.
function tickedText(response) {
  return response.attributes.map((id, position) => {
    const attribute = QUESTION.attributes.find((candidate) => candidate.id === id);
    const ticked = response.bits[position].flatMap((bit, index) => (bit === 1 ? [attribute.options[index]] : []));
    return `${attribute.text} (${ticked.length === 0 ? 'none ticked' : ticked.join(', ')})`;
  }).join(', ');
}

test('a block answered with the keyboard sends only the answered attributes\' bits', async () => {
  const core = await loadCore();
  const expected = core.privacyOfChoices(SURVEY, QUESTION.id, CHOICES);
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/s/${SURVEY.id}`);
  await forgetDevice(page);
  await page.getByTestId('survey-form').waitFor();
  assert.match(await page.getByTestId('privacy-profile').textContent(), /ε = 6 \(PMOUE\)/);
  // Before any answer: every part unanswered.
  await page.locator('[data-testid="block-total-profile"]', { hasText: 'You have answered none of the 4 parts yet.' }).waitFor();

  // Age: Tab into its options, ArrowDown checks the second (35-49); its sensitivity stays "Usual".
  await tabUntil(page, (focused) => focused.name === 'answer-0', 'the age options');
  await page.keyboard.press('ArrowDown');
  assert.deepEqual(await focusedElement(page).then(({ testid, checked }) => [testid, checked]), ['option-profile-age-1', true]);
  await page.keyboard.press('Tab');
  assert.equal((await focusedElement(page)).testid, 'sensitivity-profile-age-usual', 'the sensitivity is one Tab stop, set to Usual');
  // Income: ArrowUp from its first option wraps to "Prefer not to say".
  await page.keyboard.press('Tab');
  assert.equal((await focusedElement(page)).name, 'answer-0-1');
  await page.keyboard.press('ArrowUp');
  assert.deepEqual(await focusedElement(page).then(({ testid, checked }) => [testid, checked]), ['not-answered-profile-income', true]);
  // Education: University (the third option).
  await tabUntil(page, (focused) => focused.name === 'answer-0-2', 'the education options');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  assert.equal((await focusedElement(page)).testid, `option-profile-education-${TRUE_ANSWERS.education}`);
  // Diagnosis: "Yes", and "More private" (ArrowLeft from Usual).
  await tabUntil(page, (focused) => focused.name === 'answer-0-3', 'the diagnosis options');
  await page.keyboard.press('ArrowDown');
  assert.equal((await focusedElement(page)).testid, `option-profile-diagnosis-${TRUE_ANSWERS.diagnosis}`);
  await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowLeft');
  assert.deepEqual(await focusedElement(page).then(({ testid, checked }) => [testid, checked]), ['sensitivity-profile-diagnosis-more_private', true]);

  // The live privacy: each attribute's ε and q as core.privacyOfChoices gives them for these choices.
  assert.equal(expected.answered, 3);
  assert.equal(expected.epsilon_total, 4.5);
  for (const entry of expected.attributes) {
    const line = page.getByTestId(`attribute-privacy-profile-${entry.id}`);
    if (!entry.answered) {
      assert.equal(await line.textContent(), 'Not answered: nothing about this part is sent.');
      assert.equal(await line.getAttribute('data-epsilon'), '');
      continue;
    }
    assert.equal(Number(await line.getAttribute('data-epsilon')), entry.epsilon, `${entry.id}: the page's ε`);
    assert.equal(await line.textContent(),
      `For this part, your true option’s box is ticked 50% of the time, every other option’s box ${PERCENT.format(entry.q)} of the time.`);
  }
  // More private gets less: 0.9 for diagnosis, 1.8 for the two usual parts.
  assert.deepEqual(expected.attributes.map((entry) => entry.epsilon && Number(entry.epsilon.toFixed(6))), [1.8, null, 1.8, 0.9]);
  assert.equal(await page.getByTestId('block-total-profile').textContent(),
    'You have answered 3 of the 4 parts: only those are sent, each randomised as its setting asks.');
  // The budget of these choices is in the technical details.
  assert.match(await page.getByTestId('block-details-profile').textContent(), /For these choices: ε = 4\.5 in total, 1\.5 for each of the 3 parts you answered \(of 4\)/);
  assert.match(await page.getByTestId('block-learns-profile').textContent(), /which parts you answered, never your answers or your settings.*number of ticked boxes/);
  // The mechanism's terms sit behind a closed disclosure.
  const details = page.getByTestId('block-details-profile');
  assert.equal(await details.getAttribute('open'), null);
  await details.locator('summary').click();
  assert.match(await details.textContent(), /Ever diagnosed with depression\?: ε = 0\.9, q = 0\.2891\./);
  assert.match(await details.textContent(), /Household income: not answered, not sent\./);

  const requestsBeforePrepare = log.requests.length;
  await reviewAnswers(page, 'keyboard');
  await tabUntil(page, (focused) => focused.testid === 'prepare-report', 'the Prepare button');
  await page.keyboard.press('Enter');
  await page.getByTestId('report-panel').waitFor();
  assert.equal(log.requests.length, requestsBeforePrepare, 'preparing the report makes no request');

  // The report: the answered attributes in the block's order, one bit per option, nothing else.
  const shownText = await page.getByTestId('report-json').textContent();
  const shown = JSON.parse(shownText);
  assert.deepEqual(Object.keys(shown).sort(), ['responses', 'survey', 'version']);
  assert.deepEqual(Object.keys(shown.responses), ['profile']);
  const response = shown.responses.profile;
  assert.deepEqual(Object.keys(response).sort(), ['attributes', 'bits']);
  assert.deepEqual(response.attributes, ['age', 'education', 'diagnosis']);
  assert.deepEqual(response.bits.map((bits) => bits.length), [4, 3, 2]);
  assert.ok(response.bits.flat().every((bit) => bit === 0 || bit === 1));
  // In words: per answered attribute, the options whose box is ticked; the left-out one named.
  assert.equal(await page.getByTestId('report-value-profile').textContent(), tickedText(response));
  assert.equal(await page.getByTestId('report-note-profile').textContent(),
    'Not answered, so not sent: Household income. The organisers see only that it was left out.');
  assert.match(await page.getByTestId('report-details-profile').textContent(),
    new RegExp(`Your age group \\(“age”\\): bits ${response.bits[0].join('')}, one per option`));

  await sendShownReport(page, log, shownText);
  assert.deepEqual(JSON.parse(shownText), { survey: SURVEY.id, version: SURVEY.version, responses: { profile: response } });
  // Nothing of the answers or the choices in any request: no answers object,
  // no sensitivity, no share, and the left-out attribute not named.
  const shares = expected.attributes.filter((entry) => entry.answered).flatMap((entry) => [String(entry.epsilon), formatNumber(entry.epsilon)]);
  // A GET of one of the build's own files (a kind's chunk may be named
  // "shared-<hash>.js") carries nothing the page chose: its name is the build's.
  const builtFile = (request) => {
    const url = new URL(request.url);
    return request.method === 'GET' && !url.search && !request.body && url.pathname.startsWith('/assets/')
      && existsSync(join(WEB_DIST, url.pathname));
  };
  for (const request of log.requests.filter((candidate) => !builtFile(candidate))) {
    for (const text of [decodeURIComponent(request.url), request.body ?? '']) {
      for (const word of ['answers', 'sensitivity', 'private', 'usual', 'epsilon', 'share', 'income', ...shares]) {
        assert.ok(!text.includes(word), `a request carries "${word}": ${request.method} ${request.url} ${request.body ?? ''}`);
      }
      for (const [id, value] of Object.entries(TRUE_ANSWERS)) {
        assert.ok(!new RegExp(`"${id}"\\s*:\\s*${value}\\b`).test(text), `a request carries the answer ${id}: ${text}`);
      }
    }
  }
  assert.equal(await page.evaluate(() => JSON.stringify(Object.fromEntries(Object.entries({ ...localStorage, ...sessionStorage }).filter(([key]) => !key.startsWith('deniable.answered.'))))), '{}');
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('a required block with no part answered is asked for', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/s/${SURVEY.id}`);
  await forgetDevice(page);
  await page.getByTestId('survey-form').waitFor();
  await page.getByTestId('not-answered-profile-age').check();
  await page.getByTestId('review-answers').click();
  assert.equal(await page.getByTestId('answer-error').textContent(),
    'Please answer every question before preparing your report (unanswered: question 1 (“About you”)). ' +
    'A question made of parts needs at least one part answered (“Prefer not to say” leaves a part out).');
  assert.equal(await focusedElement(page).then(({ name }) => name), 'answer-0', 'focus goes to the block');
  assert.equal(await page.getByTestId('report-panel').count(), 0);
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

// The simulated population: age; income depending on age; education on age;
// diagnosis on income. A quarter leave income out and 15% diagnosis; 60% ask
// for diagnosis to be more private, 10% for income to be less.
const AGE = [0.3, 0.3, 0.25, 0.15];
const INCOME_BY_AGE = [[0.4, 0.35, 0.2, 0.05], [0.15, 0.3, 0.35, 0.2], [0.15, 0.25, 0.35, 0.25], [0.35, 0.35, 0.2, 0.1]];
const EDUCATION_BY_AGE = [[0.2, 0.3, 0.5], [0.4, 0.3, 0.3], [0.4, 0.3, 0.3], [0.5, 0.3, 0.2]];
const DIAGNOSIS_BY_INCOME = [[0.75, 0.25], [0.85, 0.15], [0.9, 0.1], [0.9, 0.1]];

function simulateRespondents() {
  const generator = createSeededGenerator(ANSWER_SEED);
  return Array.from({ length: RESPONDENTS }, () => {
    const age = generator.pick(AGE);
    const income = generator.pick(INCOME_BY_AGE[age]);
    const education = generator.pick(EDUCATION_BY_AGE[age]);
    const diagnosis = generator.pick(DIAGNOSIS_BY_INCOME[income]);
    const answers = { age, education };
    if (generator.nextUnit() >= 0.25) answers.income = income;
    if (generator.nextUnit() >= 0.15) answers.diagnosis = diagnosis;
    const sensitivity = {};
    if (generator.nextUnit() < 0.6) sensitivity.diagnosis = 'more_private';
    if (generator.nextUnit() < 0.1) sensitivity.income = 'less_private';
    return { answers, sensitivity };
  });
}

// The true share of each option among the respondents who answered the attribute.
function trueShares(respondents, attribute) {
  const answered = respondents.filter(({ answers }) => answers[attribute.id] !== undefined);
  return attribute.options.map((_, option) => answered.filter(({ answers }) => answers[attribute.id] === option).length / answered.length);
}

test('the dashboard shows every attribute, and the cross-tabulation the analyst picks', async (t) => {
  const respondents = simulateRespondents();
  await postSimulatedReports(fixture.server, SIMULATED, respondents.map((answer) => ({ profile: answer })), REPORT_SEED_BASE);

  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/results/${SIMULATED.id}`);
  await page.locator('[data-testid="n-profile"]', { hasText: /^2,000$/ }).waitFor({ timeout: 30_000 });
  const entry = (await requestJson(fixture.server.baseUrl, `/api/surveys/${SIMULATED.id}/results`)).body.questions[0];
  assert.equal(await page.getByTestId('epsilon-profile').textContent(), 'ε = 6');
  assert.equal(await page.getByTestId('epsilon-per-attribute-profile').textContent(), 'ε = 1.5');
  assert.equal(await page.getByTestId('share-range-profile').textContent(), 'ε from 0.375 to 6');
  assert.match(await page.getByTestId('privacy-note-profile').textContent(), /^Privacy: a respondent who answers m of the 4 attributes is \(m x 1\.5\)-LDP/);
  assert.equal(await page.getByTestId('warning-profile').isVisible(), entry.warning !== null);

  // Every attribute: a chart, its n and effective ε, its warning, and a table row per option with the server's numbers.
  for (const [index, attribute] of entry.attributes.entries()) {
    const key = `profile-${attribute.id}`;
    assert.equal(attribute.id, ATTRIBUTES[index]);
    assert.ok(await page.getByTestId(`chart-${key}`).isVisible(), `${attribute.id}: the chart is shown`);
    assert.equal(await page.getByTestId(`attribute-facts-${key}`).textContent(),
      `Answered by ${attribute.n.toLocaleString('en')} · effective ε ≈ ${formatNumber(attribute.effective_epsilon)} (the respondents’ average q = ${formatNumber(attribute.average_q)}; each chose their own share).`);
    assert.equal(await page.getByTestId(`attribute-warning-${key}`).isVisible(), attribute.warning !== null);
    const truth = trueShares(respondents, QUESTION.attributes[index]);
    for (const [option, shown] of attribute.options.entries()) {
      assert.equal(Number(await page.getByTestId(`estimate-${key}-${option}`).getAttribute('data-value')), shown.frequency);
      const interval = page.getByTestId(`ci-${key}-${option}`);
      assert.equal(Number(await interval.getAttribute('data-low')), shown.ci_low);
      assert.equal(Number(await interval.getAttribute('data-high')), shown.ci_high);
      const z = (shown.frequency - truth[option]) / shown.std_error;
      assert.ok(Math.abs(z) < 4, `${attribute.id} option ${option}: estimate ${shown.frequency} is ${z.toFixed(1)} standard errors from the truth ${truth[option]}`);
    }
    t.diagnostic(`${attribute.id} (n ${attribute.n}): truth ${truth.map((x) => x.toFixed(3)).join(' ')}; estimates ${attribute.options.map((option) => option.frequency.toFixed(3)).join(' ')}`);
  }
  // Skipped attributes count only their own respondents.
  assert.equal(entry.attributes[1].n, respondents.filter(({ answers }) => answers.income !== undefined).length);

  // The cross-tabulation picker: three attributes, then back to age × income.
  const picker = (id) => page.getByTestId(`crosstab-pick-profile-${id}`);
  assert.deepEqual(await Promise.all(ATTRIBUTES.map((id) => picker(id).isChecked())), [true, true, false, false], 'the server\'s default: the first two');
  const threeRequest = page.waitForRequest((request) => /\/results\?profile\.crosstab=age%2Cincome%2Ceducation$/.test(request.url()));
  await picker('education').check();
  await threeRequest;
  await page.locator('[data-testid="crosstab-heading-profile"]', { hasText: 'Your age group × Household income × Highest education' }).waitFor();
  assert.equal(await page.locator('[data-testid="crosstab-table-profile"] tbody tr').count(), 16);
  // A fourth is refused on the page, next to the picker, and nothing is asked of the server.
  await picker('diagnosis').check();
  assert.equal(await page.getByTestId('crosstab-error-profile').textContent(), 'Tick at most 3 attributes: a table of more cannot be read here.');
  await picker('diagnosis').uncheck();
  await page.getByTestId('crosstab-error-profile').waitFor({ state: 'hidden' });

  const twoRequest = page.waitForRequest((request) => /\/results\?profile\.crosstab=age%2Cincome$/.test(request.url()));
  await picker('education').uncheck();
  const pageDocument = await (await (await twoRequest).response()).json();
  assert.ok(!log.requests.some((request) => request.url.includes('diagnosis')), 'the refused choice was never asked for');
  await page.locator('[data-testid="crosstab-heading-profile"]', { hasText: /^Cross-tabulation: Your age group × Household income$/ }).waitFor();
  const crosstab = (await requestJson(fixture.server.baseUrl, `/api/surveys/${SIMULATED.id}/results?profile.crosstab=age,income`)).body.questions[0].crosstab;
  assert.deepEqual(pageDocument.questions[0].crosstab, crosstab, 'the page asked for what the test asks for');
  assert.deepEqual(crosstab.attributes, ['age', 'income']);
  assert.equal(crosstab.situation, 1);
  assert.equal(crosstab.cells.length, 16);
  assert.equal(await page.getByTestId('crosstab-facts-profile').textContent(),
    `Estimated directly from the ${crosstab.n.toLocaleString('en')} respondents who answered all of these attributes (n = ${crosstab.n.toLocaleString('en')}).`);
  assert.equal(await page.getByTestId('crosstab-note-profile').isVisible(), crosstab.note !== null);
  // Rows: the age groups; columns: the income bands; each cell the server's numbers.
  const table = page.getByTestId('crosstab-table-profile');
  assert.deepEqual(await table.locator('tbody th').allTextContents(), QUESTION.attributes[0].options);
  assert.deepEqual(await table.locator('thead th.crosstab-option').allTextContents(), QUESTION.attributes[1].options);
  for (const [index, cell] of crosstab.cells.entries()) {
    const shown = page.getByTestId(`crosstab-cell-profile-${index}`);
    assert.deepEqual(cell.options, [QUESTION.attributes[0].options[Math.floor(index / 4)], QUESTION.attributes[1].options[index % 4]]);
    assert.equal(Number(await shown.getAttribute('data-consistent')), cell.consistent_frequency);
    assert.equal(Number(await shown.getAttribute('data-value')), cell.frequency);
    assert.equal(Number(await shown.getAttribute('data-low')), cell.ci_low);
    assert.equal(Number(await shown.getAttribute('data-high')), cell.ci_high);
    assert.equal(await shown.locator('.crosstab-consistent').textContent(), formatPercent(cell.consistent_frequency));
    assert.equal(await shown.locator('.crosstab-estimate').textContent(), formatPercent(cell.frequency));
    assert.equal(await shown.locator('.crosstab-interval').textContent(), `${formatPercent(cell.ci_low)}\u00a0to ${formatPercent(cell.ci_high)}`);
  }
  await screenshot(page, 'desktop-block-dashboard');

  // The CSV export uses the same cross-tabulation.
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  assert.equal(csv.url(), `${fixture.server.baseUrl}/api/surveys/${SIMULATED.id}/results.csv?profile.crosstab=age%2Cincome`);

  // A cross-tabulation the server refuses (simulated: the page asks for
  // nothing it is known to refuse) is explained next to the picker, and the
  // accepted one comes back.
  await page.route(/\/results\?profile\.crosstab=age%2Ceducation$/, (route) => route.fulfill({
    status: 400, contentType: 'application/json',
    body: JSON.stringify({ error: { code: 'invalid_query', message: 'question "profile": refused for this test' } }),
  }));
  await picker('income').uncheck();
  await page.getByTestId('crosstab-error-profile').filter({ hasText: 'Tick at least 2 attributes to cross-tabulate.' }).waitFor();
  await picker('education').click();  // not check(): the refusal unticks it again at once
  await page.locator('[data-testid="crosstab-error-profile"]',
    { hasText: 'The server refused this cross-tabulation: question "profile": refused for this test' }).waitFor();
  assert.deepEqual(await Promise.all(ATTRIBUTES.map((id) => picker(id).isChecked())), [true, true, false, false]);
  await page.waitForRequest((request) => /\/results\?profile\.crosstab=age%2Cincome$/.test(request.url()));
  assert.deepEqual(unexpectedProblems(log, [/Failed to load resource: the server responded with a status of 400/]), []);
  await page.close();
});

test('the block\'s survey page, report and dashboard fit a phone', async () => {
  await onPhone(async ({ page, log }) => {
    const fits = (path) => assertFits(page, path);
    await page.goto(`${fixture.server.baseUrl}/s/${SURVEY.id}`);
    await forgetDevice(page);
    await page.getByTestId('survey-form').waitFor();
    await page.getByTestId('option-profile-age-0').tap();
    await page.getByTestId('option-profile-diagnosis-0').tap();
    await page.getByTestId('sensitivity-profile-diagnosis-more_private').tap();
    await fits('survey');
    for (const testid of ['option-profile-age-0', 'not-answered-profile-income', 'sensitivity-profile-income-less_private']) {
      const { height } = await page.locator(`label:has([data-testid="${testid}"])`).boundingBox();
      assert.ok(height >= 44, `${testid}'s label is only ${height}px tall`);
    }
    await screenshot(page, 'phone-block-survey');
    await reviewAnswers(page, 'tap');
    await page.getByTestId('prepare-report').tap();
    await page.getByTestId('report-panel').waitFor();
    await fits('report');
    await screenshot(page, 'phone-block-report');

    await page.goto(`${fixture.server.baseUrl}/results/${SIMULATED.id}`);
    await page.getByTestId('crosstab-table-profile').waitFor();
    await page.getByTestId('chart-profile-diagnosis').waitFor();
    await fits('dashboard');
    assert.deepEqual(await axeViolationsAtWidth(page, 'main'), [], 'the dashboard at 320 px');
    await screenshot(page, 'phone-block-dashboard');
    assert.deepEqual(unexpectedProblems(log), []);
    await page.close();
  });
});

test('the creation page builds a block question with the core\'s budget and messages', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/create`);
  const editor = page.getByTestId('question-editor-0');
  await editor.waitFor();
  await page.getByTestId('survey-id').fill('household-built');
  await page.getByTestId('survey-title-input').fill(SURVEY.title);
  await editor.getByTestId('question-type').selectOption('block');
  assert.equal(await editor.getByTestId('question-epsilon').isVisible(), false, 'a block takes ε per answered attribute instead');
  await editor.getByTestId('question-id').fill(QUESTION.id);
  await editor.getByTestId('question-text').fill(QUESTION.text);
  // Two attributes to start with (they cannot be removed below two); two more added.
  assert.equal(await page.getByTestId('attribute-0').getByTestId('remove-attribute').isVisible(), false);
  for (let index = 2; index < QUESTION.attributes.length; index += 1) await editor.getByTestId('add-attribute').click();
  for (const [index, attribute] of QUESTION.attributes.entries()) {
    const row = page.getByTestId(`attribute-${index}`);
    await row.getByTestId('attribute-text').fill(attribute.text);
    await row.getByTestId('attribute-id').fill(attribute.id);
    await row.getByTestId('attribute-options').fill(attribute.options.join('\n'));
  }
  await editor.getByTestId('question-epsilon-per-attribute').fill('1,5');
  const definition = JSON.parse(await page.getByTestId('definition-json').textContent());
  assert.deepEqual(definition.questions[0], { ...QUESTION, type: 'block' });
  assert.equal(await page.getByTestId('validation').getAttribute('data-state'), 'success');
  assert.equal(await editor.getByTestId('question-privacy').textContent(),
    'This question: ε = 6 for a respondent who answers all 4 attributes (1.5 per answered attribute; one attribute’s share from 0.375 to 6, as the respondent chooses)');
  // The core's message, naming the field.
  await page.getByTestId('attribute-3').getByTestId('attribute-options').fill('No');
  assert.equal(await editor.getByTestId('question-privacy').textContent(), 'This question: attributes[3].options: must be an array of 2 to 64 option labels');
  assert.equal(await page.getByTestId('create-survey').isDisabled(), true);
  await page.getByTestId('attribute-3').getByTestId('attribute-options').fill('No\nYes');

  await page.getByTestId('admin-token').fill(fixture.server.adminToken);
  await page.getByTestId('create-survey').click();
  await page.getByTestId('create-success').waitFor();
  const created = await requestJson(fixture.server.baseUrl, '/api/surveys/household-built');
  assert.equal(created.status, 200);
  assert.deepEqual(created.body.questions[0].attributes, QUESTION.attributes);
  assert.equal(created.body.questions[0].mechanism.epsilon_per_attribute, 1.5);
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

