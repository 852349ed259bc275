// (c) On a phone (390x844, touch): every page fits the width without
// horizontal scrolling, the survey can be answered by tapping, and the touch
// targets are large enough. Screenshots go to /tmp for a human to look at.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PHONE, launchBrowser, openRecordedPage, unexpectedProblems } from './support/browser.mjs';
import { startServer } from './support/server.mjs';
import { screenshot } from './support/page-checks.mjs';
import { forgetDevice } from './support/device.mjs';
import { reviewAnswers } from './support/survey-steps.mjs';

const MIN_TOUCH_TARGET_PX = 44;

let server;
let browser;
before(async () => {
  server = await startServer();
  browser = await launchBrowser(PHONE);
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

async function assertNoHorizontalScroll(page, where) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  assert.ok(scrollWidth <= clientWidth, `${where}: page is ${scrollWidth}px wide in a ${clientWidth}px viewport`);
}


test('the survey page fits a phone and can be answered by tapping', async () => {
  const { page, log } = await openRecordedPage(browser.context);
  await page.goto(`${server.baseUrl}/s/demo`);
  await forgetDevice(page);
  await page.getByTestId('survey-form').waitFor();
  await assertNoHorizontalScroll(page, 'survey page');

  const heights = await page.locator('label.choice').evaluateAll((labels) => labels.map((label) => label.getBoundingClientRect().height));
  assert.equal(heights.length, 13);
  for (const height of heights) assert.ok(height >= MIN_TOUCH_TARGET_PX, `an option is only ${height}px tall`);
  await screenshot(page, 'phone-survey');

  // Tap the option labels (the whole row is the target, not just the small circle).
  await page.locator('label.choice', { hasText: /^Yes$/ }).tap();
  await page.locator('label.choice', { hasText: /^Monthly or less$/ }).tap();
  await page.locator('label.choice', { hasText: /^Money$/ }).tap();
  assert.equal(await page.getByTestId('option-drugs-0').isChecked(), true);
  assert.equal(await page.getByTestId('option-alcohol-1').isChecked(), true);
  assert.equal(await page.getByTestId('option-stress-1').isChecked(), true);

  await reviewAnswers(page, 'tap');
  await page.getByTestId('prepare-report').tap();
  await page.getByTestId('report-panel').waitFor();
  await assertNoHorizontalScroll(page, 'survey page with the report');
  await page.getByTestId('send-report').tap();
  await page.locator('[data-testid="send-status"][data-state="success"]').waitFor();
  await assertNoHorizontalScroll(page, 'survey page after sending');
  await screenshot(page, 'phone-survey-sent');
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('the dashboard and creation pages fit a phone', async () => {
  const { page, log } = await openRecordedPage(browser.context);
  await page.goto(`${server.baseUrl}/results/demo`);
  await page.getByTestId('n-drugs').filter({ hasText: /^\d/ }).waitFor();
  await assertNoHorizontalScroll(page, 'dashboard');
  await screenshot(page, 'phone-dashboard');

  await page.goto(`${server.baseUrl}/create`);
  await page.getByTestId('question-editor-0').waitFor();
  await assertNoHorizontalScroll(page, 'creation page');
  await screenshot(page, 'phone-create');

  await page.goto(`${server.baseUrl}/`);
  await assertNoHorizontalScroll(page, 'start page');
  await screenshot(page, 'phone-index');
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('every page fits the narrowest supported width, 360 px', async () => {
  const { page, log } = await openRecordedPage(browser.context);
  await page.setViewportSize({ width: 360, height: 740 });
  for (const [path, ready] of [['/', 'link-demo-survey'], ['/s/demo', 'survey-form'], ['/results/demo', 'summary'], ['/create', 'question-editor-0']]) {
    await page.goto(`${server.baseUrl}${path}`);
    if (path.startsWith('/s/')) await forgetDevice(page);
    await page.getByTestId(ready).waitFor();
    await assertNoHorizontalScroll(page, `${path} at 360 px`);
  }
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

