// Rating grids end to end ("type": "grid"), on a survey created over the API.
// (a) Answered with the keyboard only: Tab from item to item, the arrow keys
//     choose a level within one; the review says the answers in words; the
//     report shown and POSTed is one reported level per item, and no request
//     carries the true answers (nor the word "answers"). axe-clean.
// (b) On a phone (390 px): each item's levels stack (one per line, full
//     width, tall enough to tap), no horizontal scrolling; answered by tapping.
// (c) 1500 simulated respondents (seeded; reports made in Node by the same
//     WebAssembly core): the dashboard shows per item the server's mean
//     position with its interval and the distribution over the scale, and the
//     means lie within 4 standard errors of the simulated truth.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PHONE, launchBrowser, openRecordedPage, unexpectedProblems } from './support/browser.mjs';
import { focusedElement, tabUntil } from './support/keyboard.mjs';
import { createSeededGenerator } from './support/seeded-generator.mjs';
import { createSurvey, postSimulatedReports, useServerAndBrowser } from './support/fixture.mjs';
import { requestJson } from './support/server.mjs';
import { screenshot } from './support/page-checks.mjs';
import { forgetDevice } from './support/device.mjs';
import { reviewAnswers, sendShownReport } from './support/survey-steps.mjs';
import { axeViolations, axeViolationsAtWidth } from './support/axe.mjs';

const SCALE = ['Strongly disagree', 'Disagree', 'Neutral', 'Agree', 'Strongly agree'];
const ITEMS = ['My work is valued', 'I would recommend this employer', 'I plan to stay next year'];
const SURVEY = {
  format: 'deniable.survey/v1', id: 'grid-e2e', version: 1, title: 'Work climate', results: 'public',
  questions: [{ id: 'climate', text: 'How much do you agree?', type: 'grid', items: ITEMS, scale: SCALE,
    mechanism: { name: 'ordinal', epsilon: 3 } }],
};
const SIMULATED = { ...SURVEY, id: 'grid-e2e-simulated' };
const TRUE_ANSWERS = [3, 1, 4];  // Agree, Disagree, Strongly agree
const RESPONDENTS = 1500;
const DISTRIBUTIONS = [[0.05, 0.1, 0.2, 0.45, 0.2], [0.3, 0.3, 0.2, 0.1, 0.1], [0.1, 0.1, 0.1, 0.2, 0.5]];
const MIN_TOUCH_TARGET_PX = 44;

const fixture = useServerAndBrowser({ surveys: [SURVEY, SIMULATED] });

test('a grid answered with the keyboard only sends one randomised level per item, never the answers', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/s/${SURVEY.id}`);
  await forgetDevice(page);
  await page.getByTestId('survey-form').waitFor();
  assert.match(await page.getByTestId('privacy-climate').textContent(), /ε = 3\b/);
  assert.deepEqual(await axeViolations(page), []);

  // Each item is its own radio group: Tab reaches it, Space picks the first level, ArrowRight moves on.
  for (const [row, level] of TRUE_ANSWERS.entries()) {
    const name = row === 0 ? 'answer-0' : `answer-0-row${row}`;
    await tabUntil(page, (focused) => focused.name === name, `item ${row + 1}`);
    await page.keyboard.press('Space');
    for (let step = 0; step < level; step += 1) await page.keyboard.press('ArrowRight');
    const focused = await focusedElement(page);
    assert.deepEqual([focused.name, focused.value, focused.checked], [name, String(level), true]);
  }
  const requestsBefore = log.requests.length;
  await reviewAnswers(page, 'keyboard');
  assert.match(await page.getByTestId('review').textContent(), /My work is valued: Agree; I would recommend this employer: Disagree; I plan to stay next year: Strongly agree/);
  await tabUntil(page, (focused) => focused.testid === 'prepare-report', 'the Prepare button');
  await page.keyboard.press('Enter');
  await page.getByTestId('report-panel').waitFor();
  assert.equal(log.requests.length, requestsBefore, 'preparing the report makes no request');

  const shownText = await page.getByTestId('report-json').textContent();
  const shown = JSON.parse(shownText);
  assert.deepEqual(Object.keys(shown.responses), ['climate']);
  const levels = shown.responses.climate;
  assert.equal(levels.length, ITEMS.length);
  assert.ok(levels.every((level) => Number.isInteger(level) && level >= 0 && level < SCALE.length));
  assert.deepEqual(await axeViolations(page), []);

  await sendShownReport(page, log, shownText);
  for (const request of log.requests) {
    for (const text of [decodeURIComponent(request.url), request.body ?? '']) {
      assert.doesNotMatch(text, /answers/i, `a request mentions answers: ${request.method} ${request.url}`);
      assert.ok(!text.includes(JSON.stringify(TRUE_ANSWERS)), `a request carries the true answers: ${text}`);
    }
  }
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('on a phone the grid\'s levels stack, fit the width and can be tapped', async () => {
  const phone = await launchBrowser(PHONE);
  try {
    const { page, log } = await openRecordedPage(phone.context);
    await page.goto(`${fixture.server.baseUrl}/s/${SURVEY.id}`);
    await forgetDevice(page);
    await page.getByTestId('survey-form').waitFor();
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth,
    }));
    assert.ok(scrollWidth <= clientWidth, `the page is ${scrollWidth}px wide in ${clientWidth}px`);
    // Stacked: one level per line, each a full-width target tall enough to tap.
    const boxes = await page.getByTestId('grid-row-climate-0').locator('label.choice').evaluateAll((labels) =>
      labels.map((label) => label.getBoundingClientRect().toJSON()));
    assert.equal(boxes.length, SCALE.length);
    for (let level = 1; level < boxes.length; level += 1) assert.ok(boxes[level].top >= boxes[level - 1].bottom, 'levels stack');
    for (const box of boxes) {
      assert.ok(box.height >= MIN_TOUCH_TARGET_PX, `a level is only ${box.height}px tall`);
      assert.ok(box.width >= clientWidth * 0.6, `a level is only ${box.width}px wide`);
    }
    for (const [row, level] of TRUE_ANSWERS.entries()) await page.getByTestId(`level-climate-${row}-${level}`).tap();
    for (const [row, level] of TRUE_ANSWERS.entries()) assert.equal(await page.getByTestId(`level-climate-${row}-${level}`).isChecked(), true);
    await screenshot(page, 'phone-grid');
    assert.deepEqual(await axeViolations(page), []);
    await reviewAnswers(page, 'tap');
    await page.getByTestId('prepare-report').tap();
    await page.getByTestId('report-panel').waitFor();
    assert.deepEqual(unexpectedProblems(log), []);
    await page.close();
  } finally {
    await phone.close();
  }
});

test('the dashboard shows per item the mean position with its interval and the distribution', async () => {
  const generator = createSeededGenerator(20261128);
  const answers = Array.from({ length: RESPONDENTS }, () => DISTRIBUTIONS.map((shares) => generator.pick(shares)));
  await postSimulatedReports(fixture.server, SIMULATED, answers.map((levels) => ({ climate: levels })), 7_000_000);

  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/results/${SIMULATED.id}`);
  await page.locator('[data-testid="n-climate"]', { hasText: /^1,500$/ }).waitFor({ timeout: 30_000 });
  const entry = (await requestJson(fixture.server.baseUrl, `/api/surveys/${SIMULATED.id}/results`)).body.questions[0];
  assert.match(await page.getByTestId('epsilon-climate').textContent(), /ε = 3 for the whole grid \(1 per item\)/);
  for (const [row, item] of entry.items.entries()) {
    assert.equal(item.label, ITEMS[row]);
    assert.equal(Number(await page.getByTestId(`mean-climate-${row}`).getAttribute('data-value')), item.mean.estimate);
    const interval = page.getByTestId(`mean-ci-climate-${row}`);
    assert.equal(Number(await interval.getAttribute('data-low')), item.mean.ci_low);
    assert.equal(Number(await interval.getAttribute('data-high')), item.mean.ci_high);
    for (const [level, shown] of item.levels.entries()) {
      assert.equal(Number(await page.getByTestId(`share-climate-${row}-${level}`).getAttribute('data-value')), shown.consistent_frequency);
    }
    const truth = answers.reduce((sum, levels) => sum + levels[row] + 1, 0) / RESPONDENTS;
    const z = (item.mean.estimate - truth) / item.mean.std_error;
    assert.ok(Math.abs(z) < 4, `item ${row}: mean ${item.mean.estimate} is ${z.toFixed(1)} standard errors from ${truth}`);
  }
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(await axeViolationsAtWidth(page), [], 'the results table at 320 px');
  // Its scroll box is in the Tab order, and shows the page's focus ring there (styles.css :focus-visible).
  await tabUntil(page, (focused) => focused.testid === 'table-box-climate', 'the results table\'s scroll box');
  assert.deepEqual(await page.getByTestId('table-box-climate').evaluate((box) => {
    const style = getComputedStyle(box);
    return [style.outlineStyle, style.outlineWidth];
  }), ['solid', '3px']);
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('the builder makes a grid question, says its ε per item, compares the mechanisms for the mean and the distribution and switches to the one its advisor recommends', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/create`);
  await forgetDevice(page);
  const editor = page.getByTestId('question-editor-0');
  await editor.waitFor();
  await page.getByTestId('survey-id').fill('climate-survey');
  await page.getByTestId('survey-title-input').fill('Work climate');
  await page.getByTestId('expected-respondents').fill('1000');
  await editor.getByTestId('question-type').selectOption('grid');
  await editor.getByTestId('question-text').fill('How much do you agree?');
  await editor.getByTestId('question-id').fill('climate');
  await editor.getByTestId('question-items').fill(ITEMS.join('\n'));
  await editor.getByTestId('question-grid-mechanism').selectOption('grr');
  await editor.getByTestId('question-epsilon').fill('1.5');
  assert.match(await editor.getByTestId('question-privacy').textContent(), /ε = 1\.5 for the whole grid: 0\.5 per item over 3 items/);
  // 0.5 per item on 5 levels: the ordinal mechanism's mean is more precise (grid_bench: 0.373 against 0.389 at n = 1000).
  await editor.getByTestId('advice-0').waitFor();
  assert.equal(await editor.getByTestId('advice-recommended-0').getAttribute('data-mechanism'), 'ordinal');
  assert.deepEqual(await axeViolationsAtWidth(page, '.advice'), [], 'the advice table at 320 px');
  const half = async (name) => Number((await editor.getByTestId(`advice-half-width-0-${name}`).textContent()).replace('±', ''));
  assert.ok(await half('ordinal') < await half('grr'));
  // The results show each level's share too: there GRR is the more precise, and the advice says so (grid_advice.h).
  const share = async (name) => Number((await editor.getByTestId(`advice-share-half-width-0-${name}`).textContent()).replace('±', ''));
  assert.ok(await share('grr') < await share('ordinal'));
  assert.equal(await editor.getByTestId('advice-share-half-width-0-duchi').textContent(), 'none');
  assert.equal(await editor.getByTestId('advice-recommended-distribution-0').getAttribute('data-mechanism'), 'grr');
  assert.match(await editor.getByTestId('advice-note-0').textContent(),
    /"ordinal" gives the more precise mean .* times less precise .*choose "grr" if the spread over the scale matters/);
  assert.equal(await editor.getByTestId('use-recommended-distribution-0').count(), 0, 'grr is already the question\'s');
  await editor.getByTestId('use-recommended-0').click();
  assert.equal(await editor.getByTestId('question-grid-mechanism').inputValue(), 'ordinal');
  const definition = JSON.parse(await page.getByTestId('definition-json').textContent());
  assert.deepEqual(definition.questions, [{ id: 'climate', text: 'How much do you agree?', type: 'grid', items: ITEMS,
    scale: ['Strongly disagree', 'Disagree', 'Neither agree nor disagree', 'Agree', 'Strongly agree'],
    mechanism: { name: 'ordinal', epsilon: 1.5 } }]);
  assert.equal(await page.getByTestId('validation').getAttribute('data-state'), 'success', await page.getByTestId('validation').textContent());
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('a duchi grid: the page words its two ends, the dashboard shows the means and no distribution', async () => {
  const survey = { ...SURVEY, id: 'grid-e2e-duchi', questions: [{ ...SURVEY.questions[0], mechanism: { name: 'duchi', epsilon: 3 } }] };
  await createSurvey(fixture.server, survey);
  await postSimulatedReports(fixture.server, survey, Array.from({ length: 300 }, (_, index) => ({ climate: [index % 5, 4, 0] })), 8_000_000);

  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/s/${survey.id}`);
  await forgetDevice(page);
  await page.getByTestId('survey-form').waitFor();
  assert.match(await page.getByTestId('privacy-summary').textContent(), /sent as “high” or “low”/);
  await page.goto(`${fixture.server.baseUrl}/results/${survey.id}`);
  await page.locator('[data-testid="n-climate"]', { hasText: /^300$/ }).waitFor({ timeout: 30_000 });
  const entry = (await requestJson(fixture.server.baseUrl, `/api/surveys/${survey.id}/results`)).body.questions[0];
  for (const [row, item] of entry.items.entries()) {
    assert.equal(item.levels, null);
    assert.equal(Number(await page.getByTestId(`mean-climate-${row}`).getAttribute('data-value')), item.mean.estimate);
    assert.equal(await page.getByTestId(`share-climate-${row}-0`).textContent(), 'not estimated');
  }
  assert.deepEqual(await axeViolations(page), []);
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});
