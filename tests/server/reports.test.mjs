// Report validation (400 with core's message) and acceptance (201), including
// concurrent reports that share group commits.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { DEMO_REPORT, DEMO_SURVEY, ON_POSTGRES, get, postJson, removeDir, startServer, storeQuery } from './server_harness.mjs';

function reportWith(change) {
  const report = structuredClone(DEMO_REPORT);
  change(report);
  return report;
}

describe('reports', () => {
  let server;
  before(async () => { server = await startServer({ args: ['--demo', DEMO_SURVEY] }); });
  after(async () => { await server.stop(); removeDir(server.dataDir); });

  const submit = (body, id = 'demo') => postJson(`${server.url}/api/surveys/${id}/reports`, body);

  const invalidCases = [
    ['a wrong version', (r) => { r.version = 2; }, /^version: report is for version 2 of the survey, but the current version is 1/],
    ['a missing question', (r) => { delete r.responses.alcohol; }, 'responses.alcohol: missing response'],
    ['an out-of-range index', (r) => { r.responses.drugs = 2; }, /^responses\.drugs: /],
    ['a wrong bit count', (r) => { r.responses.alcohol = [0, 1, 0, 1]; }, /^responses\.alcohol: /],
    ['an extra field', (r) => { r.answers = {}; }, /^answers: unknown field/],
    ['an unknown question', (r) => { r.responses.smoking = 0; }, /^responses\.smoking: no question with this id/],
    ['a repeated negative-survey index', (r) => { r.responses.stress = [3, 3]; }, 'responses.stress: option 3 appears twice in a negative-survey report'],
    ['another survey id', (r) => { r.survey = 'other'; }, /^survey: report is for survey "other"/],
  ];
  for (const [name, change, expected] of invalidCases) {
    it(`400 for a report with ${name}`, async () => {
      const response = await submit(reportWith(change));
      assert.equal(response.status, 400);
      assert.equal(response.body.error.code, 'invalid_report');
      if (typeof expected === 'string') assert.equal(response.body.error.message, expected);
      else assert.match(response.body.error.message, expected);
    });
  }

  it('400 for a report that is not an object', async () => {
    for (const body of [[1, 2, 3], '"text"', '42']) {
      const response = await submit(body);
      assert.equal(response.status, 400);
      assert.match(response.body.error.message, /^report must be a JSON object, but is (array|string|number)$/);
    }
  });

  it('404 for a report to an unknown survey', async () => {
    const response = await submit(DEMO_REPORT, 'unknown');
    assert.equal(response.status, 404);
    assert.equal(response.body.error.code, 'survey_not_found');
  });

  it('accepts valid reports (201) and counts exactly those, also when concurrent', async () => {
    const before = (await get(`${server.url}/api/surveys/demo/results`)).body.respondents;
    const responses = await Promise.all(Array.from({ length: 40 }, () => submit(DEMO_REPORT)));
    for (const response of responses) {
      assert.equal(response.status, 201);
      assert.deepEqual(response.body, { accepted: true });
    }
    const results = await get(`${server.url}/api/surveys/demo/results`);
    assert.equal(results.body.respondents, before + 40);
    assert.equal(results.body.questions[0].n, before + 40);
    const stored = storeQuery(server.dataDir, "SELECT COUNT(*) FROM reports WHERE survey_id = 'demo'");
    if (stored !== null) assert.equal(Number(stored), before + 40);
  });

  it('stores only the report fields, compactly, with no timestamp column', async () => {
    await submit(DEMO_REPORT);
    const body = storeQuery(server.dataDir, { sqlite: 'SELECT body FROM reports ORDER BY rowid DESC LIMIT 1',
      postgres: 'SELECT body FROM reports ORDER BY id DESC LIMIT 1' });
    if (body === null) return;
    assert.deepEqual(JSON.parse(body), DEMO_REPORT);
    const columns = storeQuery(server.dataDir, { sqlite: "SELECT group_concat(name, ',') FROM pragma_table_info('reports')",
      postgres: "SELECT string_agg(column_name, ',' ORDER BY ordinal_position) FROM information_schema.columns WHERE table_name = 'reports'" });
    // PostgreSQL's arrival id is SQLite's rowid, made visible: no time, no address.
    assert.equal(columns, ON_POSTGRES ? 'id,survey_id,body' : 'survey_id,body');
  });
});
