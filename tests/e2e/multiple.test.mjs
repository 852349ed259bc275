// "Choose all that apply" questions end to end (issue 33 item 1), on a survey
// created over the API with two questions: symptoms (4 options, at most 2,
// optimised per-option bits, ε 2) and news sources (5 options, optional,
// padding and sampling, ε 1).
// (a) Answered with the keyboard only at phone width (390 px): Tab to each
//     checkbox and Space to tick; at the cap the other options are disabled;
//     “None of these” answers the optional question with the empty set. The
//     report shown and POSTed is 4 bits and one value, the true set is in no
//     request, and the page is clean for axe-core's WCAG 2 A/AA rules.
// (b) 1500 simulated respondents (seeded sets; reports made in Node by the
//     same WebAssembly core): the dashboard shows each option's share with
//     its interval and error-bar chart, and the number-chosen distribution,
//     with the server's numbers; axe-clean.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openRecordedPage, unexpectedProblems } from './support/browser.mjs';
import { focusedElement, tabUntil } from './support/keyboard.mjs';
import { createSeededGenerator } from './support/seeded-generator.mjs';
import { postSimulatedReports, useServerAndBrowser } from './support/fixture.mjs';
import { requestJson } from './support/server.mjs';
import { assertChartsDrawn, assertFits, screenshot } from './support/page-checks.mjs';
import { forgetDevice } from './support/device.mjs';
import { WEB_DIST } from './support/paths.mjs';
import { reviewAnswers, sendShownReport } from './support/survey-steps.mjs';
import { axeViolations, axeViolationsAtWidth } from './support/axe.mjs';

const SURVEY = {
  format: 'deniable.survey/v1', id: 'choose-all', version: 1, title: 'Choose all that apply', results: 'public',
  questions: [
    { id: 'symptoms', text: 'Which symptoms did you have this week?', type: 'multiple',
      options: ['Cough', 'Fever', 'Headache', 'Fatigue'], max_choices: 2, mechanism: { name: 'optimized_bits', epsilon: 2 } },
    { id: 'sources', text: 'Where do you get your news?', type: 'multiple', required: false,
      options: ['TV', 'Radio', 'Web', 'Print', 'Friends'], mechanism: { name: 'padding_sampling', epsilon: 1 } },
  ],
};
const SIMULATED = { ...SURVEY, id: 'choose-all-simulated' };
const RESPONDENTS = 1500;

const fixture = useServerAndBrowser({ surveys: [SURVEY, SIMULATED] });

test('a set answered with the keyboard at phone width sends only its randomised report', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${fixture.server.baseUrl}/s/${SURVEY.id}`);
  await forgetDevice(page);
  await page.getByTestId('survey-form').waitFor();
  await assertFits(page, 'the survey page at 390 px');
  assert.deepEqual(await axeViolations(page, 'form'), []);

  // Symptoms: Tab to Cough, Space; Tab to Headache, Space. Fever and Fatigue are then disabled (at most 2).
  await tabUntil(page, (focused) => focused.testid === 'option-symptoms-0', 'the first symptom');
  await page.keyboard.press('Space');
  await page.keyboard.press('Tab');
  assert.equal((await focusedElement(page)).testid, 'option-symptoms-1');
  await page.keyboard.press('Tab');
  assert.equal((await focusedElement(page)).testid, 'option-symptoms-2');
  await page.keyboard.press('Space');
  assert.equal(await page.getByTestId('option-symptoms-0').isChecked(), true);
  assert.equal(await page.getByTestId('option-symptoms-2').isChecked(), true);
  assert.equal(await page.getByTestId('option-symptoms-1').isDisabled(), true, 'at the cap the others are disabled');
  assert.equal(await page.getByTestId('option-symptoms-3').isDisabled(), true);
  // The next Tab skips the disabled Fatigue and reaches “None of these”.
  await page.keyboard.press('Tab');
  assert.equal((await focusedElement(page)).testid, 'option-symptoms-none');
  // Sources: “None of these” (the empty set, not a skip).
  await tabUntil(page, (focused) => focused.testid === 'option-sources-none', 'None of these for the sources');
  await page.keyboard.press('Space');
  assert.equal(await page.getByTestId('option-sources-none').isChecked(), true);
  await screenshot(page, 'multiple-phone-answered');

  const requestsBefore = log.requests.length;
  await reviewAnswers(page, 'keyboard');
  assert.match(await page.getByTestId('review').textContent(), /Cough, Headache/);
  assert.match(await page.getByTestId('review').textContent(), /None of these/);
  await tabUntil(page, (focused) => focused.testid === 'prepare-report', 'the Prepare button');
  await page.keyboard.press('Enter');
  await page.getByTestId('report-panel').waitFor();
  assert.equal(log.requests.length, requestsBefore, 'preparing the report makes no request');
  await assertFits(page, 'the report at 390 px');
  assert.deepEqual(await axeViolations(page, '[data-testid="report-panel"]'), []);

  const shownText = await page.getByTestId('report-json').textContent();
  const shown = JSON.parse(shownText);
  assert.deepEqual(Object.keys(shown.responses).sort(), ['sources', 'symptoms']);
  assert.equal(shown.responses.symptoms.length, 4);
  assert.ok(shown.responses.symptoms.every((bit) => bit === 0 || bit === 1));
  assert.ok(Number.isInteger(shown.responses.sources) && shown.responses.sources >= 0 && shown.responses.sources < 5 + 5);

  await sendShownReport(page, log, shownText);
  const builtFile = (request) => {
    const url = new URL(request.url);
    return request.method === 'GET' && !url.search && !request.body && url.pathname.startsWith('/assets/')
      && existsSync(join(WEB_DIST, url.pathname));
  };
  for (const request of log.requests.filter((candidate) => !builtFile(candidate))) {
    for (const text of [decodeURIComponent(request.url), request.body ?? '']) {
      // The true sets as the page holds them ([0, 2] and []), and their labels.
      assert.ok(!/\[\s*0\s*,\s*2\s*\]/.test(text), `a request carries the true set: ${text}`);
      assert.ok(!/"sources"\s*:\s*\[\s*\]/.test(text), `a request carries the empty set: ${text}`);
      for (const word of ['answers', 'Cough', 'Headache', 'None of these']) {
        assert.ok(!text.includes(word), `a request carries "${word}": ${request.method} ${request.url}`);
      }
    }
  }
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('the builder compares the set mechanisms for the question\'s k, m and ε, axe-clean', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/create`);
  const editor = page.getByTestId('question-editor-0');
  await editor.waitFor();
  await page.getByTestId('expected-respondents').fill('1000');
  await editor.getByTestId('question-type').selectOption('multiple');
  await editor.getByTestId('question-text').fill('Which of these apply?');
  await editor.getByTestId('question-id').fill('apply');
  // 16 options, at most 1 chosen, ε 4: one padded item by GRR beats the bits (the core's advisor; its C++ test says the same).
  await editor.getByTestId('question-options').fill(Array.from({ length: 16 }, (_, index) => `Option ${index + 1}`).join('\n'));
  await editor.getByTestId('question-max-choices').fill('1');
  await editor.getByTestId('question-epsilon').fill('4');
  const advice = editor.getByTestId('advice-0');
  await advice.locator('tr[data-mechanism="padding_sampling"]').waitFor();
  const rows = await advice.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => tr.dataset.mechanism));
  assert.deepEqual(rows, ['symmetric_bits', 'optimized_bits', 'padding_sampling']);
  assert.equal(await editor.getByTestId('advice-recommended-0').getAttribute('data-mechanism'), 'padding_sampling');
  assert.deepEqual(await axeViolations(page, '.advice'), []);
  assert.deepEqual(await axeViolationsAtWidth(page, '.advice'), [], 'the advice table at 320 px');
  await editor.getByTestId('use-recommended-0').click();
  assert.equal(await editor.getByTestId('question-mechanism').inputValue(), 'padding_sampling');
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

// Symptoms: independent shares, capped at 2 (a third is dropped); sources: independent, some skip.
const SYMPTOM_SHARES = [0.5, 0.2, 0.35, 0.1];
const SOURCE_SHARES = [0.6, 0.2, 0.5, 0.1, 0.3];

function simulate() {
  const generator = createSeededGenerator(20261128);
  return Array.from({ length: RESPONDENTS }, () => {
    const symptoms = SYMPTOM_SHARES.flatMap((share, index) => (generator.nextUnit() < share ? [index] : [])).slice(0, 2);
    const sources = SOURCE_SHARES.flatMap((share, index) => (generator.nextUnit() < share ? [index] : []));
    return generator.nextUnit() < 0.2 ? { symptoms } : { symptoms, sources };
  });
}

test('the dashboard shows each option\'s share with error bars and the number-chosen distribution', async () => {
  await postSimulatedReports(fixture.server, SIMULATED, simulate(), 7_000_000);
  const results = (await requestJson(fixture.server.baseUrl, `/api/surveys/${SIMULATED.id}/results`)).body;
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/results/${SIMULATED.id}`);
  await page.getByTestId('n-symptoms').filter({ hasText: /^\d/ }).waitFor({ timeout: 15000 }).catch((error) => {
    throw new Error(`${error.message}; page problems: ${JSON.stringify(unexpectedProblems(log))}`);
  });
  let shown = 0;
  for (const question of results.questions) {
    const id = question.id;
    assert.equal(await page.getByTestId(`n-${id}`).textContent(), question.n.toLocaleString('en'));
    for (let index = 0; index < question.options.length; index += 1) {
      const option = question.options[index];
      assert.equal(Number(await page.getByTestId(`estimate-${id}-${index}`).getAttribute('data-value')), option.share);
      assert.equal(Number(await page.getByTestId(`ci-${id}-${index}`).getAttribute('data-low')), option.ci_low);
      assert.equal(Number(await page.getByTestId(`ci-${id}-${index}`).getAttribute('data-high')), option.ci_high);
    }
    assert.match(await page.getByTestId(`mean-${id}`).textContent(), /95% CI/);
    assert.match(await page.getByTestId(`guarantee-${id}`).textContent(), /whole set/);
    const distribution = question.number_chosen.distribution;
    if (!Array.isArray(distribution)) {
      // The bits at this epsilon say too little about how many were chosen: no distribution, and the page says why.
      assert.match(question.number_chosen.note, /no useful interval exists|no honest interval exists/);
      assert.equal(await page.getByTestId(`chosen-note-${id}`).textContent(), question.number_chosen.note);
      continue;
    }
    shown += 1;
    for (const row of distribution) {
      assert.equal(Number(await page.getByTestId(`estimate-${id}-chosen-${row.chosen}`).getAttribute('data-value')), row.share);
      assert.equal(Number(await page.getByTestId(`ci-${id}-chosen-${row.chosen}`).getAttribute('data-low')), row.ci_low);
    }
  }
  assert.ok(shown >= 1, 'padding\'s distribution of the number chosen is shown');
  await assertChartsDrawn(page, 'the multiple dashboard');
  assert.deepEqual(await axeViolations(page, 'main'), []);
  assert.deepEqual(await axeViolationsAtWidth(page, 'main'), [], 'the results tables at 320 px');
  await screenshot(page, 'multiple-dashboard');
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});
