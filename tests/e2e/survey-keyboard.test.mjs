// (a) The demo survey answered with the keyboard only: the report shown
// before sending is exactly what is sent, it has the wire shape of each
// mechanism, and the true answers appear in no request, URL or storage.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { openRecordedPage, unexpectedProblems } from './support/browser.mjs';
import { focusedElement, tabUntil } from './support/keyboard.mjs';
import { DEMO_SURVEY } from './support/paths.mjs';
import { useServerAndBrowser } from './support/fixture.mjs';
import { forgetDevice } from './support/device.mjs';
import { prepareShownReport, reviewAnswers } from './support/survey-steps.mjs';

const demo = JSON.parse(readFileSync(DEMO_SURVEY, 'utf8'));
const options = Object.fromEntries(demo.questions.map((question) => [question.id, question.options]));
// The answers typed with the keyboard: "No", "2-3 times a week", "Work".
const TRUE_ANSWERS = { drugs: 1, alcohol: 3, stress: 0 };

const fixture = useServerAndBrowser();

// Tab into a question's radio group, then Space to pick its first option and
// ArrowDown to move (radio groups select on arrow keys).
async function answerWithKeyboard(page, questionIndex, optionIndex) {
  const name = `answer-${questionIndex}`;
  await tabUntil(page, (focused) => focused.name === name, `question ${questionIndex + 1}`);
  await page.keyboard.press('Space');
  for (let step = 0; step < optionIndex; step += 1) await page.keyboard.press('ArrowDown');
  const focused = await focusedElement(page);
  assert.equal(focused.name, name);
  assert.equal(focused.value, String(optionIndex));
  assert.equal(focused.checked, true);
}

function assertWireShape(report) {
  assert.deepEqual(Object.keys(report).sort(), ['responses', 'survey', 'version']);
  assert.equal(report.survey, 'demo');
  assert.equal(report.version, 1);
  assert.deepEqual(Object.keys(report.responses).sort(), ['alcohol', 'drugs', 'stress']);
  const { drugs, alcohol, stress } = report.responses;
  assert.ok(Number.isInteger(drugs) && drugs >= 0 && drugs < 2, `grr: one option index, got ${JSON.stringify(drugs)}`);
  assert.ok(Array.isArray(alcohol) && alcohol.length === 5 && alcohol.every((bit) => bit === 0 || bit === 1),
    `oue: 5 bits, got ${JSON.stringify(alcohol)}`);
  assert.ok(Array.isArray(stress) && stress.length === 2, `negative: 2 indices, got ${JSON.stringify(stress)}`);
  assert.ok(stress.every((index) => Number.isInteger(index) && index >= 0 && index < 6));
  assert.ok(stress[0] < stress[1], 'negative: sorted and distinct');
  // Nothing is asserted about the true answer's presence: the demo's negative survey is the ε-bounded one
  // (ε = 1.5, s = 2 of k = 6), which reports the answer among the two with probability w s / (w s + k - s) =
  // 0.10 (w = e^-ε) — the pure version's "never" made this line fail one run in ten.
}

function assertNoTrueAnswers(requests) {
  const labels = demo.questions.flatMap((question) => question.options);
  for (const request of requests) {
    const url = decodeURIComponent(request.url);
    assert.doesNotMatch(url, /answer/i, `request URL mentions answers: ${request.url}`);
    // Asset file names carry random-looking hashes, where a short label like "No" could appear by chance.
    if (!new URL(request.url).pathname.startsWith('/assets/')) {
      for (const label of labels) assert.ok(!url.includes(label), `request URL contains the label "${label}": ${request.url}`);
    }
    if (request.body === null || request.body === undefined) continue;
    assert.doesNotMatch(request.body, /answer/i, `request body mentions answers: ${request.body}`);
    for (const label of labels) {
      assert.ok(!request.body.includes(`"${label}"`), `request body contains the label "${label}": ${request.body}`);
    }
  }
}

test('answering the demo survey with the keyboard sends only the shown randomised report', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/s/demo`);
  await forgetDevice(page);
  await page.getByTestId('survey-form').waitFor();
  assert.equal(await page.getByTestId('survey-title').textContent(), demo.title);
  const privacy = await page.getByTestId('privacy-summary').textContent();
  assert.match(privacy, /Your true answers never leave this device/);
  assert.match(await page.getByTestId('privacy-drugs').textContent(), /ε = 1\b/);
  assert.match(await page.getByTestId('privacy-stress').textContent(), /ε = 1\.5/);
  assert.match(await page.getByTestId('total-epsilon').textContent(), /ε = 3\.5/);

  await answerWithKeyboard(page, 0, TRUE_ANSWERS.drugs);
  await answerWithKeyboard(page, 1, TRUE_ANSWERS.alcohol);
  await answerWithKeyboard(page, 2, TRUE_ANSWERS.stress);
  await reviewAnswers(page, 'keyboard');
  // The report shown in human terms matches the raw JSON shown.
  const shownText = await prepareShownReport(page, log);
  const shown = JSON.parse(shownText);
  assertWireShape(shown);
  const { drugs, alcohol, stress } = shown.responses;
  assert.equal(await page.getByTestId('report-value-drugs').textContent(), options.drugs[drugs]);
  const alcoholReported = options.alcohol.filter((_, index) => alcohol[index] === 1);
  assert.equal(await page.getByTestId('report-value-alcohol').textContent(), alcoholReported.length ? alcoholReported.join(', ') : 'none');
  assert.equal(await page.getByTestId('report-value-stress').textContent(), stress.map((index) => options.stress[index]).join(', '));
  assert.match(await page.getByTestId('report-stress').textContent(), /Options sent as “not yours”: /);
  assert.match(await page.getByTestId('report-fixed-note').textContent(), /cannot be randomised again/);
  // Once prepared, the answers are locked and there is no way to re-randomise.
  assert.equal(await page.getByTestId('prepare-report').isVisible(), false);
  assert.equal(await page.getByTestId('option-drugs-0').isDisabled(), true);

  await tabUntil(page, (focused) => focused.testid === 'send-report', 'the Send button');
  await page.keyboard.press('Enter');
  await page.locator('[data-testid="send-status"][data-state="success"]').waitFor();
  assert.equal(await page.getByTestId('send-report').isVisible(), false, 'no second submission');

  const posts = log.requests.filter((request) => request.method === 'POST');
  assert.equal(posts.length, 1, `exactly one POST, got ${posts.map((request) => request.url).join(', ')}`);
  assert.equal(new URL(posts[0].url).pathname, '/api/surveys/demo/reports');
  assert.equal(posts[0].body, shownText, 'the body is byte for byte the JSON shown');
  assertWireShape(JSON.parse(posts[0].body));
  assertNoTrueAnswers(log.requests);

  const storage = await page.evaluate(() => JSON.stringify(Object.fromEntries(Object.entries({ ...localStorage, ...sessionStorage }).filter(([key]) => !key.startsWith('deniable.answered.')))));
  assert.doesNotMatch(storage, /answer/i);
  assert.equal(storage, '{}', 'nothing left in storage after sending');
  assert.deepEqual(unexpectedProblems(log), []);

  await page.goto(`${fixture.server.baseUrl}/results/demo`);
  await page.locator('[data-testid="n-drugs"]', { hasText: /^1$/ }).waitFor();
  assert.equal(await page.getByTestId('respondents').textContent(), '1');
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('preparing with unanswered questions names them and moves focus to the first', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/s/demo`);
  await forgetDevice(page);
  await page.getByTestId('survey-form').waitFor();
  await page.getByTestId('option-alcohol-0').check();
  await page.getByTestId('review-answers').click();
  assert.equal(await page.getByTestId('answer-error').textContent(),
    'Please answer every question before preparing your report ' +
    '(unanswered: questions 1 (“Have you used a recreational drug in the past 12 months?”), 3 (“Which of these has caused you the most stress this year?”)).');
  assert.equal((await focusedElement(page)).name, 'answer-0');
  assert.equal(await page.getByTestId('report-panel').count(), 0);
  await page.keyboard.press('Space');
  assert.equal(await page.getByTestId('answer-error').isVisible(), false, 'the message goes once answers change');
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('a prepared report survives a reload unchanged instead of being randomised again', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/s/demo`);
  await forgetDevice(page);
  await page.getByTestId('survey-form').waitFor();
  await page.getByTestId('option-drugs-0').check();
  await page.getByTestId('option-alcohol-4').check();
  await page.getByTestId('option-stress-5').check();
  await reviewAnswers(page, 'click');
  await page.getByTestId('prepare-report').click();
  const prepared = await page.getByTestId('report-json').textContent();
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
  assert.doesNotMatch(stored, /answer/i, 'only the randomised report is stored');

  await page.reload();
  await page.getByTestId('report-panel').waitFor();
  assert.equal(await page.getByTestId('report-json').textContent(), prepared);
  assert.match(await page.getByTestId('report-fixed-note').textContent(), /earlier in this tab/);
  assert.equal(await page.getByTestId('prepare-report').isVisible(), false);
  assert.deepEqual(log.requests.filter((request) => request.method === 'POST'), [], 'nothing sent');
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

