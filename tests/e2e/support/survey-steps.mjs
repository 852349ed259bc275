// The survey page's two steps to a prepared report: "Check my answers" (the
// questions give way to the review of the answers in words), then "Prepare my
// report" on the review. `how`: 'click', 'tap' (a phone) or 'keyboard' (Tab to
// each button and press Enter, as a keyboard user does).
import assert from 'node:assert/strict';
import { focusedElement, tabUntil } from './keyboard.mjs';

export async function reviewAnswers(page, how = 'click') {
  await press(page, 'review-answers', 'the Check my answers button', how);
  await page.getByTestId('review').waitFor();
  // Focus moves to the review's heading, so a screen reader reads it next.
  assert.equal((await focusedElement(page)).id, 'review-heading');
}

export async function prepareFromReview(page, how = 'click') {
  await press(page, 'prepare-report', 'the Prepare button', how);
  await page.getByTestId('report-panel').waitFor();
}

export async function reviewAndPrepare(page, how = 'click') {
  await reviewAnswers(page, how);
  await prepareFromReview(page, how);
}

// "Prepare my report" pressed with the keyboard on the review: the report is
// made in the page, without a request. Returns its JSON as the page shows it.
export async function prepareShownReport(page, log) {
  const requestsBeforePrepare = log.requests.length;
  await prepareFromReview(page, 'keyboard');
  assert.equal(log.requests.length, requestsBeforePrepare, 'preparing the report makes no request');
  return page.getByTestId('report-json').textContent();
}

// "Send" pressed with the keyboard once the report is shown: the one POST
// the page makes carries byte for byte the JSON it showed (`shownText`).
export async function sendShownReport(page, log, shownText) {
  await press(page, 'send-report', 'the Send button', 'keyboard');
  await page.locator('[data-testid="send-status"][data-state="success"]').waitFor();
  const posts = log.requests.filter((request) => request.method === 'POST');
  assert.equal(posts.length, 1);
  assert.equal(posts[0].body, shownText, 'the body is byte for byte the JSON shown');
}

async function press(page, testid, description, how) {
  if (how === 'keyboard') {
    await tabUntil(page, (focused) => focused.testid === testid, description);
    await page.keyboard.press('Enter');
  } else if (how === 'tap') {
    await page.getByTestId(testid).tap();
  } else {
    await page.getByTestId(testid).click();
  }
}
