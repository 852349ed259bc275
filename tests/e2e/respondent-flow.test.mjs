// The respondent's page (issue "Respondents and researchers", respondent
// part; issue 30): the invitation code exchanged for a blind token when the
// page opens (the report carries the token, never the code; a reload reuses
// it; a lost answer is retried with the same element; a proof that does not
// verify stops the page), a
// closed survey said before any question, the device remembering an answered
// survey and sharing a prepared report across tabs, the review with Change,
// the warning when leaving with an unsent report, plain words (technical
// terms only inside disclosures), a typed number outside the range marked,
// a filter for long option lists, long labels on a phone, focus after Send,
// the skip link, progress, the preview, the results link, emphasis in survey
// text and a survey in French.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadCore } from '../../web/src/core.js';
import { openRecordedPage, unexpectedProblems } from './support/browser.mjs';
import { focusedElement, tabUntil } from './support/keyboard.mjs';
import { useServerAndBrowser } from './support/fixture.mjs';
import { assertFits, screenshot } from './support/page-checks.mjs';
import { requestJson } from './support/server.mjs';
import { prepareFromReview, reviewAnswers } from './support/survey-steps.mjs';
import { axeViolations } from './support/axe.mjs';

const fixture = useServerAndBrowser();
const admin = () => ({ Authorization: `Bearer ${fixture.server.adminToken}` });
// Refused requests the page handles (a 403 or 409) are logged by Chromium.
const HANDLED = [/Failed to load resource/];

function categorical(id, text, options = ['Yes', 'No'], extra = {}) {
  return { id, text, type: 'categorical', options, mechanism: { name: 'grr', epsilon: 1 }, ...extra };
}

function survey(id, questions, extra = {}) {
  return {
    format: 'deniable.survey/v1', id, version: 1, title: `Survey ${id}`, description: 'A test survey.',
    results: 'public', access: 'open', questions, ...extra,
  };
}

async function create(definition) {
  const response = await requestJson(fixture.server.baseUrl, '/api/surveys', { method: 'POST', json: definition, headers: admin() });
  assert.equal(response.status, 201, `survey not created: ${JSON.stringify(response.body)}`);
  return definition;
}

async function open(path, { context = fixture.browser.context } = {}) {
  const { page, log } = await openRecordedPage(context);
  await page.goto(`${fixture.server.baseUrl}${path}`);
  return { page, log };
}

async function checkCode(surveyId, code) {
  return requestJson(fixture.server.baseUrl, `/api/surveys/${surveyId}/invitations/check`, {
    method: 'POST', json: {}, headers: { 'X-Invitation-Code': code },
  });
}

async function prepare(page) {
  await reviewAnswers(page, 'click');
  await page.getByTestId('prepare-report').click();
  await page.getByTestId('report-panel').waitFor();
}

// Codes for an invitation survey made now.
async function makeCodes(surveyId, count) {
  const made = await requestJson(fixture.server.baseUrl, `/api/surveys/${surveyId}/invitations`, { method: 'POST', json: { count }, headers: admin() });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  return made.body.codes;
}

const tokenPosts = (log) => log.requests.filter((request) => request.method === 'POST' && request.url.endsWith('/tokens'));
const reportPosts = (log) => log.requests.filter((request) => request.method === 'POST' && request.url.endsWith('/reports'));

test('an invitation code is exchanged for a blind token when the page opens; the report carries the token, never the code, and a reload reuses it', async () => {
  await create(survey('invited', [categorical('q1', 'Are you happy?')], { access: 'invitation' }));
  const codes = await makeCodes('invited', 1);

  // No code: told what is needed, no question offered; a wrong code is refused there.
  const missing = await open('/s/invited');
  await missing.page.getByTestId('invitation-gate').waitFor();
  assert.match(await missing.page.getByTestId('gate-needed').textContent(), /invitation code.*anonymous pass.*never with your code/);
  assert.equal(await missing.page.getByTestId('survey-form').count(), 0);
  await missing.page.getByTestId('gate-code').fill('not-a-code');
  await missing.page.getByTestId('gate-check').click();
  await missing.page.getByTestId('gate-message').waitFor();
  assert.equal(await missing.page.getByTestId('gate-code').getAttribute('aria-invalid'), 'true');
  assert.equal(await missing.page.getByTestId('survey-form').count(), 0);
  assert.deepEqual(await axeViolations(missing.page), []);
  await missing.page.close();

  // The code in the link: exchanged at once; before the first question, the
  // page says the invitation is now kept in this browser and what can be linked.
  const { page, log } = await open(`/s/invited?code=${encodeURIComponent(codes[0])}`);
  await page.getByTestId('survey-form').waitFor();
  assert.match(await page.getByTestId('kept-body').textContent(), /kept in this browser.*if this browser’s data is cleared before you send your report, the invitation is lost/);
  assert.match(await page.getByTestId('kept-cannot').textContent(), /cannot tell which invitee sent which answers/);
  assert.match(await page.getByTestId('kept-can').textContent(), /when this page was opened and when answers were sent, and the network address/);
  const key = (await requestJson(fixture.server.baseUrl, '/api/surveys/invited/invitation-key')).body;
  assert.equal(await page.getByTestId('kept-technical').isVisible(), true);
  assert.match(await page.getByTestId('kept-technical').textContent(), new RegExp(`RFC 9497.*ristretto255 and SHA-512.*fingerprint ${key.public_key.slice(0, 16)}`));
  assert.doesNotMatch(await page.evaluate(() => document.body.innerText), /VOPRF|RFC 9497|ristretto/, 'the protocol only inside the disclosure');
  assert.equal(new URL(page.url()).searchParams.has('code'), false, 'the code leaves the address once exchanged');
  assert.equal((await checkCode('invited', codes[0])).status, 403, 'the code was spent at issuance');
  await page.getByTestId('kept-technical').locator('summary').click();
  assert.deepEqual(await axeViolations(page), []);
  await screenshot(page, 'desktop-respondent-invitation-kept');
  await page.setViewportSize({ width: 390, height: 844 });
  await assertFits(page, 'the invitation notice on a phone');
  await screenshot(page, 'phone-respondent-invitation-kept');
  await page.setViewportSize({ width: 1280, height: 900 });

  // Answered and prepared, then reloaded: the token and the report survive, no second issuance.
  await page.getByTestId('option-q1-0').check();
  await prepare(page);
  const prepared = await page.getByTestId('report-json').textContent();
  page.on('dialog', (dialog) => dialog.accept());
  await page.reload();
  await page.getByTestId('report-panel').waitFor();
  assert.equal(await page.getByTestId('report-json').textContent(), prepared);
  assert.equal(await page.getByTestId('invitation-kept').count(), 1);
  assert.equal(await page.getByTestId('invitation-gate').count(), 0);
  // A second tab with the link again: the same token and report, no issuance.
  const second = await open(`/s/invited?code=${encodeURIComponent(codes[0])}`);
  await second.page.getByTestId('report-panel').waitFor();
  assert.equal(await second.page.getByTestId('report-json').textContent(), prepared);
  await second.page.close();
  assert.match(await page.getByTestId('token-send-note').textContent(), /never with your invitation code/);
  await page.getByTestId('send-report').click();
  await page.locator('[data-testid="send-status"][data-state="success"]').waitFor();

  // From the recorded requests: one issuance, with the code and a blinded
  // element only; one report, with the token and no code anywhere.
  assert.deepEqual(tokenPosts(second.log), []);
  const issuances = tokenPosts(log);
  assert.equal(issuances.length, 1, 'one issuance across the reload');
  const issued = JSON.parse(issuances[0].body);
  assert.deepEqual(Object.keys(issued).sort(), ['blinded_element', 'code']);
  assert.equal(issued.code, codes[0]);
  assert.match(issued.blinded_element, /^[0-9a-f]{64}$/);
  const reports = reportPosts(log);
  assert.equal(reports.length, 1);
  const [, input, output] = reports[0].headers['x-invitation-token'].match(/^([0-9a-f]{64})\.([0-9a-f]{128})$/);
  assert.equal(reports[0].body, prepared, 'the report body is the text shown');
  assert.equal(reports[0].headers['x-invitation-code'], undefined);
  const sent = JSON.stringify({ url: reports[0].url, headers: reports[0].headers, body: reports[0].body }).toLowerCase();
  assert.equal(sent.includes(codes[0].toLowerCase()), false, 'no code in the report request');
  assert.equal(issuances[0].body.includes(input) || issuances[0].body.includes(output), false, 'the issuance never carries the token');
  assert.notEqual(issued.blinded_element, input);
  assert.equal(await page.evaluate(() => localStorage.getItem('deniable.invitation.invited')), null, 'sent: the token is forgotten');
  assert.deepEqual(unexpectedProblems(log, HANDLED), []);
  await page.close();
});

test('an issuance whose answer is lost is retried with the same blinded element, by the retry button or a reload', async () => {
  for (const how of ['retry', 'reload']) {
    const id = `invited-drop-${how}`;
    await create(survey(id, [categorical('q1', 'Are you happy?')], { access: 'invitation' }));
    const [code] = await makeCodes(id, 1);
    const { page, log } = await openRecordedPage(fixture.browser.context);
    // The first POST /tokens reaches the server (which spends the code and answers), then the connection drops.
    let handled = null;
    await page.route(`**/api/surveys/${id}/tokens`, async (route) => {
      if (handled !== null) return route.continue();
      handled = (await route.fetch()).status();
      return route.abort('connectionreset');
    });
    await page.goto(`${fixture.server.baseUrl}/s/${id}?code=${encodeURIComponent(code)}`);
    await page.getByTestId('gate-retry').waitFor();
    assert.equal(handled, 200, 'the server spent the code and answered');
    assert.match(await page.getByTestId('gate-failed').textContent(), /could not be exchanged yet.*Nothing is lost/);
    assert.equal(await page.getByTestId('survey-form').count(), 0);
    if (how === 'retry') {
      assert.deepEqual(await axeViolations(page), []);
      await screenshot(page, 'desktop-respondent-issuance-failed');
      await page.getByTestId('gate-retry').click();
    } else {
      await page.reload();
    }
    await page.getByTestId('survey-form').waitFor();
    const posts = tokenPosts(log).map((request) => JSON.parse(request.body));
    assert.equal(posts.length, 2);
    assert.deepEqual(posts[1], posts[0], `${how}: the same code and blinded element`);
    assert.deepEqual(unexpectedProblems(log, [...HANDLED, /ERR_CONNECTION_RESET/]), []);
    await page.close();
  }
});

test('a used invitation is refused in plain words; a proof that does not verify stops the page; a token used elsewhere is refused at Send', async () => {
  await create(survey('invited-used', [categorical('q1', 'Are you happy?')], { access: 'invitation' }));
  const codes = await makeCodes('invited-used', 3);
  const core = await loadCore();
  // Exchanged in another browser.
  const elsewhere = await requestJson(fixture.server.baseUrl, '/api/surveys/invited-used/tokens', {
    method: 'POST', json: { code: codes[0], blinded_element: core.tokenBlind().blinded_element },
  });
  assert.equal(elsewhere.status, 200);
  const used = await open(`/s/invited-used?code=${encodeURIComponent(codes[0])}`);
  await used.page.getByTestId('gate-message').waitFor();
  assert.match(await used.page.getByTestId('gate-message').textContent(), /^This invitation has already been used/);
  assert.equal(await used.page.getByTestId('survey-form').count(), 0);
  await used.page.close();

  // The server's proof altered on the way: the page goes no further.
  const key = (await requestJson(fixture.server.baseUrl, '/api/surveys/invited-used/invitation-key')).body;
  const forged = await openRecordedPage(fixture.browser.context);
  await forged.page.route('**/api/surveys/invited-used/tokens', async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    await route.fulfill({ response, json: { ...body, proof: { c: body.proof.s, s: body.proof.c } } });
  });
  await forged.page.goto(`${fixture.server.baseUrl}/s/invited-used?code=${encodeURIComponent(codes[1])}`);
  await forged.page.getByTestId('gate-unverified').waitFor();
  assert.equal(await forged.page.locator('#gate-heading').textContent(), 'This page stops here');
  assert.match(await forged.page.getByTestId('gate-unverified').textContent(), /does not match this survey’s published key/);
  assert.match(await forged.page.getByTestId('gate-unverified-detail').textContent(), new RegExp(`VOPRF proof \\(RFC 9497, ristretto255-SHA512\\).*fingerprint ${key.public_key.slice(0, 16)}`));
  assert.equal(await forged.page.getByTestId('gate-code').isVisible(), false);
  assert.equal(await forged.page.getByTestId('survey-form').count(), 0);
  assert.deepEqual(await axeViolations(forged.page), []);
  await forged.page.getByTestId('gate-unverified-detail').locator('summary').click();
  await screenshot(forged.page, 'desktop-respondent-proof-refused');
  assert.deepEqual(unexpectedProblems(forged.log, HANDLED), []);
  await forged.page.close();

  // Prepared with a token, which is then spent by another report: Send says so, the report is kept.
  const { page, log } = await open(`/s/invited-used?code=${encodeURIComponent(codes[2])}`);
  await page.getByTestId('survey-form').waitFor();
  await page.getByTestId('option-q1-1').check();
  await prepare(page);
  const prepared = await page.getByTestId('report-json').textContent();
  const token = JSON.parse(await page.evaluate(() => localStorage.getItem('deniable.invitation.invited-used')));
  const spend = await requestJson(fixture.server.baseUrl, '/api/surveys/invited-used/reports', {
    method: 'POST', json: JSON.parse(prepared), headers: { 'X-Invitation-Token': `${token.input}.${token.output}` },
  });
  assert.equal(spend.status, 201, JSON.stringify(spend.body));
  await page.getByTestId('send-report').click();
  await page.locator('[data-testid="send-status"][data-state="error"]').waitFor();
  assert.match(await page.getByTestId('send-status').textContent(), /already been used to send a report/);
  assert.equal(await page.getByTestId('report-json').textContent(), prepared, 'the prepared report is kept');
  assert.equal(await page.getByTestId('send-report').isDisabled(), true, 'no Send without a token');
  assert.equal(await page.evaluate(() => localStorage.getItem('deniable.invitation.invited-used')), null, 'the refused token is dropped');
  assert.deepEqual(unexpectedProblems(log, HANDLED), []);
  page.on('dialog', (dialog) => dialog.accept());
  await page.close();
});

test('a French invitation survey says where the invitation is kept, and what can be linked, in French', async () => {
  await create(survey('invite-fr', [{ ...categorical('q1', 'Êtes-vous heureux ?', ['Oui', 'Non']) }], { access: 'invitation', language: 'fr' }));
  const [code] = await makeCodes('invite-fr', 1);
  const { page, log } = await open(`/s/invite-fr?code=${encodeURIComponent(code)}`);
  await page.getByTestId('survey-form').waitFor();
  assert.equal(await page.locator('#kept-heading').textContent(), 'Votre invitation est gardée dans ce navigateur');
  assert.match(await page.getByTestId('kept-cannot').textContent(), /^Ils ne peuvent pas savoir quelle personne invitée a envoyé quelles réponses/);
  assert.match(await page.getByTestId('kept-can').textContent(), /quand cette page a été ouverte et quand des réponses ont été envoyées, et l’adresse réseau/);
  await page.setViewportSize({ width: 390, height: 844 });
  await assertFits(page, 'the French invitation notice on a phone');
  await screenshot(page, 'phone-respondent-invitation-kept-fr');
  await page.setViewportSize({ width: 1280, height: 900 });
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('a closed survey says so before any question; a report refused as closed is kept', async () => {
  await create(survey('closing', [categorical('q1', 'Are you happy?')]));
  const { page, log } = await open('/s/closing');
  await page.getByTestId('option-q1-1').check();
  await prepare(page);
  const prepared = await page.getByTestId('report-json').textContent();
  const closed = await requestJson(fixture.server.baseUrl, '/api/surveys/closing/status', { method: 'POST', json: { status: 'closed' }, headers: admin() });
  assert.equal(closed.status, 200);
  await page.getByTestId('send-report').click();
  await page.locator('[data-testid="send-status"][data-state="error"]').waitFor();
  assert.equal(await page.getByTestId('report-json').textContent(), prepared);
  assert.deepEqual(unexpectedProblems(log, HANDLED), []);
  await page.close();

  await create(survey('closed', [categorical('q1', 'Are you happy?')]));
  await requestJson(fixture.server.baseUrl, '/api/surveys/closed/status', { method: 'POST', json: { status: 'closed' }, headers: admin() });
  const again = await open('/s/closed');
  await again.page.getByTestId('survey-closed').waitFor();
  assert.equal(await again.page.getByTestId('survey-form').count(), 0);
  assert.match(await again.page.getByTestId('survey-closed').textContent(), /closed/i);
  await again.page.close();
});

test('a prepared report is shared by a second tab, and a sent survey is remembered on the device', async () => {
  await create(survey('memory', [categorical('q1', 'Are you happy?')]));
  const first = await open('/s/memory');
  const second = await open('/s/memory');
  await second.page.getByTestId('survey-form').waitFor();
  // The second tab is at its review, with other answers.
  await second.page.getByTestId('option-q1-1').check();
  await reviewAnswers(second.page);
  await first.page.getByTestId('option-q1-0').check();
  await prepare(first.page);
  const prepared = await first.page.getByTestId('report-json').textContent();
  // The second tab, open since before, shows the same report (no second randomisation),
  // and no longer its own review, whose answers this report was not made from.
  await second.page.getByTestId('report-panel').waitFor();
  assert.equal(await second.page.getByTestId('report-json').textContent(), prepared);
  assert.equal(await second.page.getByTestId('review').isVisible(), false);
  assert.equal(await second.page.getByTestId('prepare-report').isVisible(), false);
  assert.equal(await first.page.getByTestId('review').isVisible(), true, 'the tab that prepared it keeps its review as the record');
  // A third tab opened now too.
  const third = await open('/s/memory');
  await third.page.getByTestId('report-panel').waitFor();
  assert.equal(await third.page.getByTestId('report-json').textContent(), prepared);
  await third.page.close();

  await first.page.getByTestId('send-report').click();
  await first.page.locator('[data-testid="send-status"][data-state="success"]').waitFor();
  // The other tab stops offering the report; a reload says it was answered.
  await second.page.getByTestId('already-answered').waitFor();
  await first.page.reload();
  await first.page.getByTestId('already-answered').waitFor();
  assert.match(await first.page.getByTestId('already-answered').textContent(), /You already answered this survey on this device on /);
  assert.equal(await first.page.getByTestId('survey-form').count(), 0);
  assert.equal(await first.page.getByTestId('prepare-report').count(), 0);
  assert.equal(await first.page.getByTestId('results-link').count(), 1, 'public results are linked');
  const posts = [...first.log.requests, ...second.log.requests].filter((request) => request.method === 'POST');
  assert.equal(posts.length, 1);
  assert.deepEqual(unexpectedProblems(first.log), []);
  await first.page.close();
  await second.page.close();
});

test('the answers are reviewed in words as a step of their own, Change goes back, and leaving with an unsent report warns', async () => {
  await create(survey('review', [categorical('q1', 'Are you happy?'), categorical('q2', 'Your colour?', ['Red', 'Blue', 'Green'])]));
  const { page, log } = await open('/s/review');
  await page.getByTestId('survey-form').waitFor();
  assert.equal(await page.getByTestId('review').isVisible(), false, 'the review is a step after the questions');
  await page.getByTestId('option-q1-0').check();
  await page.getByTestId('option-q2-2').check();
  const requestsBeforeReview = log.requests.length;
  await reviewAnswers(page, 'keyboard');
  assert.equal(await page.getByTestId('survey-form').isVisible(), false, 'the questions give way to the review');
  assert.equal(await page.getByTestId('review-value-q1').textContent(), 'Yes');
  assert.equal(await page.getByTestId('review-value-q2').textContent(), 'Green');
  assert.match(await page.getByTestId('review-intro').textContent(), /once you prepare your report it is fixed/);
  await screenshot(page, 'desktop-respondent-review');
  await page.setViewportSize({ width: 390, height: 844 });
  await assertFits(page, 'the review on a phone');
  await screenshot(page, 'phone-respondent-review');
  await page.setViewportSize({ width: 1280, height: 900 });
  // Change: back to that question, by keyboard.
  await tabUntil(page, (focused) => focused.testid === 'change-q2', 'the Change button of question 2');
  await page.keyboard.press('Enter');
  assert.equal(await page.getByTestId('review').isVisible(), false);
  assert.equal((await focusedElement(page)).name, 'answer-1', 'Change moves focus to the question');
  await page.keyboard.press('ArrowUp');
  await reviewAnswers(page, 'keyboard');
  assert.equal(await page.getByTestId('review-value-q2').textContent(), 'Blue');
  assert.equal(log.requests.length, requestsBeforeReview, 'reviewing makes no request');
  await prepareFromReview(page, 'keyboard');
  assert.equal(await page.getByTestId('option-q2-1').isDisabled(), true, 'once prepared, the answers are fixed');
  assert.equal(await page.getByTestId('change-q2').isVisible(), false, 'no Change once prepared');
  assert.equal(await page.getByTestId('prepare-report').isVisible(), false, 'no second preparation');
  assert.match(await page.getByTestId('review-intro').textContent(), /now fixed/);
  assert.equal(JSON.parse(await page.getByTestId('report-json').textContent()).responses.q2 !== undefined, true);

  const dialogs = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.type());
    await dialog.accept();
  });
  await page.close({ runBeforeUnload: true });
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.deepEqual(dialogs, ['beforeunload']);
  assert.deepEqual(unexpectedProblems(log), []);
});

test('while the report is prepared (waiting for a model\'s state), the answers cannot be changed', async () => {
  const numeric = (id) => ({ id, text: `${id}?`, type: 'numeric', range: [0, 10], mechanism: { name: 'duchi', epsilon: 1 } });
  await create(survey('model-wait', [numeric('x'), numeric('y'),
    { id: 'fit', text: 'y by x', type: 'linear_regression', target: 'y', features: ['x'], epsilon: 1, batch: 3 }]));
  const { page, log } = await open('/s/model-wait');
  await page.getByTestId('survey-form').waitFor();
  await page.getByTestId('number-x').fill('3');
  await page.getByTestId('number-y').fill('4');
  await reviewAnswers(page);
  // The state asked for at Prepare arrives only when released.
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await page.route('**/api/surveys/model-wait/state', async (route) => { await held; await route.continue(); });
  await page.getByTestId('prepare-report').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="prepare-report"]').disabled);
  assert.equal(await page.getByTestId('change-x').isDisabled(), true, 'Change waits for the report');
  release();
  await page.getByTestId('report-panel').waitFor();
  assert.equal(await page.getByTestId('review-value-x').textContent(), '3');
  assert.deepEqual(unexpectedProblems(log), []);
  page.on('dialog', (dialog) => dialog.accept());
  await page.close();
});

test('the demo survey speaks plain words: technical terms only inside disclosures', async () => {
  const context = fixture.browser.context;
  const { page, log } = await open('/s/demo', { context });
  await page.getByTestId('survey-form').waitFor();
  // Sent elsewhere in this file? The demo is not answered here before.
  const visible = () => page.evaluate(() => document.body.innerText);
  for (const term of [/GRR/, /OUE/, /ε/, /reported as 1/, /no formal epsilon/]) assert.doesNotMatch(await visible(), term);
  assert.match(await page.getByTestId('privacy-words-drugs').textContent(), /your true option 73% of the time, each other option 27% of the time/);
  await page.getByTestId('option-drugs-0').check();
  await page.getByTestId('option-alcohol-1').check();
  await page.getByTestId('option-stress-2').check();
  await prepare(page);
  for (const term of [/GRR/, /OUE/, /ε/, /reported as 1/]) assert.doesNotMatch(await visible(), term);
  assert.match(await page.getByTestId('report-drugs').textContent(), /your true option 73% of the time/);
  // The technical terms are there, behind the disclosure.
  assert.match(await page.getByTestId('privacy-technical').textContent(), /ε = 1/);
  await screenshot(page, 'desktop-respondent-demo');
  assert.deepEqual(unexpectedProblems(log), []);
  page.on('dialog', (dialog) => dialog.accept());
  await page.close();
});

test('a typed number outside the range is marked with the range and blocks preparing', async () => {
  await create(survey('ranged', [{ id: 'age', text: 'Your age?', type: 'numeric', range: [0, 100], unit: 'years', mechanism: { name: 'square_wave', epsilon: 1 } }]));
  const { page, log } = await open('/s/ranged');
  await page.getByTestId('survey-form').waitFor();
  await page.getByTestId('number-age').fill('150');
  await page.getByTestId('number-age').press('Tab');
  assert.equal(await page.getByTestId('number-age').getAttribute('aria-invalid'), 'true');
  assert.match(await page.getByTestId('number-age-message').textContent(), /outside the range: enter a value from 0\u00a0years to 100\u00a0years/);
  await page.getByTestId('review-answers').click();
  assert.match(await page.getByTestId('answer-error').textContent(), /Please correct question 1/);
  assert.equal(await page.getByTestId('report-panel').count(), 0);
  await page.getByTestId('number-age').fill('42');
  await page.getByTestId('number-age').press('Tab');
  assert.equal(await page.getByTestId('number-age').getAttribute('aria-invalid'), null);
  await reviewAnswers(page);
  assert.equal(await page.getByTestId('review-value-age').textContent(), '42\u00a0years');
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('300 options are filtered and chosen with the keyboard; a long label fits a 390 px phone', async () => {
  const options = Array.from({ length: 300 }, (_, index) => `Option ${index + 1}`);
  const long = 'Averyveryverylongoptionlabelwithoutanyspacesatallthatwouldoverflowanarrowphonescreen';
  await create(survey('many', [categorical('pick', 'Pick one', options), categorical('long', `${long}?`, [long, 'Short'])]));
  const { page, log } = await open('/s/many');
  await page.getByTestId('survey-form').waitFor();
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  assert.ok(height < 5000, `the page is ${height}px tall`);
  await page.getByTestId('filter-pick').focus();
  await page.keyboard.type('Option 137');
  assert.equal(await page.getByTestId('filter-count-pick').textContent(), '1 of 300 options shown');
  await page.keyboard.press('Enter');
  assert.equal(await page.getByTestId('option-pick-136').isChecked(), true);
  assert.equal((await focusedElement(page)).value, '136');
  assert.equal(await page.getByTestId('survey-form').count(), 1, 'Enter did not submit');
  assert.equal(await page.getByTestId('report-panel').count(), 0);
  await page.setViewportSize({ width: 390, height: 844 });
  await assertFits(page, 'the survey with a long label at 390 px');
  await screenshot(page, 'phone-respondent-long-label');
  await page.setViewportSize({ width: 1280, height: 900 });
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('skip link, progress, and focus on the confirmation after Send', async () => {
  const questions = Array.from({ length: 7 }, (_, index) => categorical(`q${index}`, `Question ${index}?`));
  await create(survey('longer', questions));
  const { page, log } = await open('/s/longer');
  await page.getByTestId('survey-form').waitFor();
  await page.keyboard.press('Tab');
  assert.equal((await focusedElement(page)).testid, 'skip-link');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'questions');
  assert.equal(await page.getByTestId('progress').textContent(), '0 of 7 answered');
  for (let index = 0; index < 7; index += 1) await page.getByTestId(`option-q${index}-0`).check();
  assert.equal(await page.getByTestId('progress').textContent(), '7 of 7 answered');
  await reviewAnswers(page);
  // At the review, the skip link goes to the review (the questions are hidden).
  await page.getByTestId('skip-link').focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'review-heading');
  await prepareFromReview(page);
  await page.getByTestId('skip-link').focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'report-heading');
  await page.getByTestId('send-report').click();
  await page.locator('[data-testid="send-status"][data-state="success"]').waitFor();
  assert.equal((await focusedElement(page)).testid, 'sent-heading');
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();
});

test('a preview sends and stores nothing; the results link only when results are public', async () => {
  await create(survey('private-results', [categorical('q1', 'Are you happy?')], { results: 'admin' }));
  const { page, log } = await open('/s/private-results?preview=1');
  await page.getByTestId('preview-banner').waitFor();
  assert.match(await page.getByTestId('preview-banner').textContent(), /Preview: nothing you answer here is sent/);
  await page.getByTestId('option-q1-0').check();
  await prepare(page);
  assert.equal(await page.getByTestId('send-report').isDisabled(), true);
  assert.match(await page.getByTestId('preview-send-note').textContent(), /turned off in a preview/);
  assert.equal(await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }).includes('private-results')), false);
  assert.deepEqual(log.requests.filter((request) => request.method === 'POST' && request.url.includes('/reports')), []);
  await page.close();

  const real = await open('/s/private-results');
  await real.page.getByTestId('option-q1-0').check();
  await prepare(real.page);
  await real.page.getByTestId('send-report').click();
  await real.page.locator('[data-testid="send-status"][data-state="success"]').waitFor();
  assert.equal(await real.page.getByTestId('results-link').count(), 0, 'admin-only results are not linked');
  assert.deepEqual(unexpectedProblems(real.log), []);
  assert.deepEqual(unexpectedProblems(log), []);
  await real.page.close();
});

test('emphasis in survey text is built as elements; a French survey has French text and numbers', async () => {
  await create(survey('styled', [categorical('q1', 'Are you *really* **sure**?')], {
    description: 'Read **this**, *that* and [our notice](https://example.org/notice); [not this](javascript:alert(1)).',
  }));
  const { page, log } = await open('/s/styled');
  await page.getByTestId('survey-form').waitFor();
  const description = page.getByTestId('survey-description');
  assert.equal(await description.locator('strong').textContent(), 'this');
  assert.equal(await description.locator('em').textContent(), 'that');
  assert.equal(await description.locator('a').count(), 1);
  assert.equal(await description.locator('a').getAttribute('href'), 'https://example.org/notice');
  assert.equal(await description.locator('a').getAttribute('rel'), 'noopener noreferrer');
  assert.match(await description.textContent(), /\[not this\]\(javascript:alert\(1\)\)/);
  assert.equal(await page.getByTestId('question-q1').locator('legend strong').textContent(), 'sure');
  assert.equal(await page.getByTestId('question-q1').locator('legend em').textContent(), 'really');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  assert.deepEqual(unexpectedProblems(log), []);
  await page.close();

  await create(survey('french', [{ ...categorical('q1', 'Êtes-vous heureux ?', ['Oui', 'Non']), mechanism: { name: 'grr', epsilon: 0.5 } }], { language: 'fr' }));
  const french = await open('/s/french');
  await french.page.getByTestId('survey-form').waitFor();
  assert.equal(await french.page.evaluate(() => document.documentElement.lang), 'fr');
  assert.equal(await french.page.getByTestId('skip-link').textContent(), 'Aller aux questions');
  assert.equal(await french.page.getByTestId('prepare-report').textContent(), 'Préparer mon rapport');
  assert.match(await french.page.getByTestId('privacy-technical').textContent(), /ε = 0,5/);
  assert.match(await french.page.getByTestId('privacy-words-q1').textContent(), /^Question 1[\s\u00a0\u202f]: une option est envoyée[\s\u00a0\u202f]: votre vraie option 62[\s\u00a0\u202f]% du temps/);
  await screenshot(french.page, 'desktop-respondent-french');
  assert.deepEqual(unexpectedProblems(french.log), []);
  await french.page.close();
});
