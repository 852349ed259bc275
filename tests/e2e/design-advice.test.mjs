// Issue 27 item 11: the survey builder shows precision guidance for numeric,
// block and model questions as it does for categorical ones (each kind's
// core DesignAdvice through the WebAssembly binding), and the guidance is
// clean for axe-core's WCAG 2 A/AA rules.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openRecordedPage, unexpectedProblems } from './support/browser.mjs';
import { useServerAndBrowser } from './support/fixture.mjs';
import { forgetDevice } from './support/device.mjs';
import { SCREENSHOT_DIR, screenshot } from './support/page-checks.mjs';
import { axeViolations, axeViolationsAtWidth } from './support/axe.mjs';

const fixture = useServerAndBrowser();

async function numeric(editor, { text, id, low, high, unit }) {
  await editor.getByTestId('question-type').selectOption('numeric');
  await editor.getByTestId('question-text').fill(text);
  await editor.getByTestId('question-id').fill(id);
  await editor.getByTestId('question-low').fill(low);
  await editor.getByTestId('question-high').fill(high);
  await editor.getByTestId('question-unit').fill(unit);
}

test('item 11: numeric, block and model questions show the core’s precision guidance, axe-clean', async () => {
  const { page, log } = await openRecordedPage(fixture.browser.context);
  await page.goto(`${fixture.server.baseUrl}/create`);
  await forgetDevice(page);
  const first = page.getByTestId('question-editor-0');
  await first.waitFor();
  await page.getByTestId('expected-respondents').fill('1000');

  // A numeric question (Square Wave, ε = 1, 0 to 300,000 USD): every mechanism's mean half-width in USD.
  await numeric(first, { text: 'What is your yearly pay?', id: 'pay', low: '0', high: '300000', unit: 'USD' });
  const payAdvice = first.getByTestId('advice-0');
  await payAdvice.waitFor();
  const rows = await payAdvice.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => tr.dataset.mechanism));
  assert.deepEqual(rows, ['square_wave', 'laplace', 'duchi', 'piecewise', 'hybrid']);
  // Laplace: 1.96 sqrt((2 w^2 + w^2/12) / 1000) = 26,838 USD with w = 300,000 (evenly spread answers).
  assert.match(await payAdvice.locator('tr[data-mechanism="laplace"]').textContent(), /±26,800\u00a0USD/);
  assert.match(await payAdvice.locator('tr[data-mechanism="square_wave"]').textContent(), /this question/);
  const best = await first.getByTestId('advice-recommended-0').getAttribute('data-mechanism');
  assert.ok(rows.includes(best));
  assert.match(await payAdvice.textContent(), /Assumed: answers spread evenly over the range/);
  // The button switches to the most precise mean, and the advice follows.
  await first.getByTestId('use-recommended-0').click();
  assert.equal(await first.getByTestId('question-numeric-mechanism').inputValue(), best);
  assert.match(await payAdvice.locator(`tr[data-mechanism="${best}"]`).textContent(), /this question/);

  await page.getByTestId('add-question').click();
  await numeric(page.getByTestId('question-editor-1'), { text: 'How old are you?', id: 'age', low: '18', high: '90', unit: 'years' });
  await page.getByTestId('question-editor-1').getByTestId('advice-1').waitFor();

  // A block: each attribute's share half-width at each privacy setting's ε share.
  await page.getByTestId('add-question').click();
  const block = page.getByTestId('question-editor-2');
  await block.getByTestId('question-type').selectOption('block');
  await block.getByTestId('question-text').fill('About you');
  await block.getByTestId('question-id').fill('about');
  const attributes = [['smoker', 'Do you smoke?', 'Yes\nNo'], ['region', 'Where do you live?', 'North\nEast\nSouth\nWest']];
  for (const [index, [id, text, options]] of attributes.entries()) {
    const row = block.getByTestId(`attribute-${index}`);
    await row.getByTestId('attribute-text').fill(text);
    await row.getByTestId('attribute-id').fill(id);
    await row.getByTestId('attribute-options').fill(options);
  }
  const blockAdvice = block.getByTestId('advice-2');
  await blockAdvice.waitFor();
  assert.deepEqual(await blockAdvice.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => `${tr.dataset.attribute} ${tr.dataset.sensitivity}`)),
    ['smoker usual', 'smoker more_private', 'smoker less_private', 'region usual', 'region more_private', 'region less_private']);
  // Two options, a share near 0, everyone usual (ε = 1): 1.96 / (2 sqrt(n) (1/2 - q)), q = 1/(e + 1): ±13%.
  assert.match(await blockAdvice.locator('tr[data-attribute="smoker"][data-sensitivity="usual"] td.rare').textContent(), /^±13%$/);

  // A model of pay by age: rounds, chains and the coefficients' rough error.
  await page.getByTestId('add-question').click();
  const model = page.getByTestId('question-editor-3');
  await model.getByTestId('question-type').selectOption('linear_regression');
  await model.getByTestId('question-text').fill('A model of pay by age');
  await model.getByTestId('question-id').fill('fit');
  await model.getByTestId('question-model-target').selectOption('pay');
  await model.getByTestId('question-model-feature-age').check();
  const modelAdvice = model.getByTestId('advice-3');
  await modelAdvice.waitFor();
  assert.match(await model.getByTestId('advice-rounds-3').textContent(), /^1,000 respondents make \d+ rounds of \d+, dealt in turn to 8 chains/);
  assert.deepEqual(await modelAdvice.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => tr.dataset.coefficient)), ['intercept', 'age']);
  assert.match(await modelAdvice.locator('tr[data-coefficient="age"]').textContent(), /\(USD per years\)/);
  assert.match(await modelAdvice.textContent(), /rough, not an interval/);

  assert.deepEqual(await axeViolations(page, '.advice'), []);
  assert.deepEqual(await axeViolationsAtWidth(page, '.advice'), [], 'the advice table at 320 px');
  await screenshot(page, 'desktop-design-advice');
  for (const [name, advice] of [['numeric', payAdvice], ['block', blockAdvice], ['model', modelAdvice]]) {
    await advice.screenshot({ path: `${SCREENSHOT_DIR}/deniable-design-advice-${name}.png` });
  }
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});
