// One real server and one Chromium for a whole test file: registers the
// before/after hooks and returns an object whose `server` and `browser` are
// set once `before` has run. `surveys`: definitions created over the API (as
// the admin) before the first test; `contextOptions`: the browser's screen
// (a desktop's unless given).
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { loadCore } from '../../../web/src/core.js';
import { launchBrowser } from './browser.mjs';
import { postReports, requestJson, startServer } from './server.mjs';

export function useServerAndBrowser({ surveys = [], contextOptions } = {}) {
  const fixture = { server: undefined, browser: undefined };
  before(async () => {
    fixture.server = await startServer();
    fixture.browser = await launchBrowser(contextOptions);
    for (const survey of surveys) await createSurvey(fixture.server, survey);
  });
  after(async () => {
    await fixture.browser?.close();
    await fixture.server?.stop();
  });
  return fixture;
}

// Creates the survey as the admin; fails with the server's answer otherwise.
export async function createSurvey(server, definition) {
  const created = await requestJson(server.baseUrl, '/api/surveys', {
    method: 'POST', json: definition, headers: { Authorization: `Bearer ${server.adminToken}` },
  });
  assert.equal(created.status, 201, `survey not created: ${JSON.stringify(created.body)}`);
}

// Simulated respondents: each entry of `answers` made into a report in Node
// by the same WebAssembly core, seeded (respondent i with seed seedBase + i,
// so a dashboard's numbers are the same on every run), and posted.
export async function postSimulatedReports(server, survey, answers, seedBase, concurrency = 8) {
  const core = await loadCore();
  const reports = answers.map((answer, index) => core.perturbSeeded(survey, answer, String(seedBase + index)));
  await postReports(server.baseUrl, survey.id, reports, concurrency);
}
