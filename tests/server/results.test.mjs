// Results and results.csv: access rules, estimates from the aggregate, CSV format.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { DEMO_REPORT, bearer, get, postJson, readDemoSurvey, removeDir, startServer } from './server_harness.mjs';

const TRICKY = {
  format: 'deniable.survey/v1', id: 'tricky', version: 1, title: 'CSV quoting', results: 'public', access: 'open',
  questions: [
    { id: 'q1', text: 'Pick one, "honestly"', options: ['A, or B', 'Say "no"', 'plain'], mechanism: { name: 'grr', epsilon: 2 } },
    { id: 'q2', text: 'Pure negative', options: ['x', 'y', 'z', 'w'], mechanism: { name: 'negative', reported_options: 1 } },
  ],
};

describe('results', () => {
  let server;
  before(async () => {
    server = await startServer();
    const admin = { ...readDemoSurvey(), id: 'private', results: 'admin' };
    for (const definition of [admin, TRICKY]) {
      assert.equal((await postJson(`${server.url}/api/surveys`, definition, bearer(server.token))).status, 201);
    }
    await postJson(`${server.url}/api/surveys/private/reports`, { ...DEMO_REPORT, survey: 'private' });
  });
  after(async () => { await server.stop(); removeDir(server.dataDir); });

  it('admin-only results: 403 without a token, 401 with a wrong one, 200 with the admin token', async () => {
    for (const suffix of ['results', 'results.csv']) {
      const url = `${server.url}/api/surveys/private/${suffix}`;
      const anonymous = await get(url);
      assert.equal(anonymous.status, 403);
      assert.equal(anonymous.body.error.code, 'results_admin_only');
      const wrong = await get(url, bearer('f'.repeat(64)));
      assert.equal(wrong.status, 401);
      const admin = await get(url, bearer(server.token));
      assert.equal(admin.status, 200);
    }
  });

  it('returns the results document with n, epsilon and a small-n warning', async () => {
    const response = await get(`${server.url}/api/surveys/private/results`, bearer(server.token));
    assert.equal(response.body.survey, 'private');
    assert.equal(response.body.respondents, 1);
    assert.equal(response.body.total_epsilon, 3.5);
    const drugs = response.body.questions[0];
    assert.equal(drugs.n, 1);
    assert.deepEqual(drugs.privacy, { epsilon: 1 });
    assert.equal(drugs.options.length, 2);
    assert.match(drugs.warning, /too small/);
  });

  it('intervals are for the population by default; ?interval=respondents narrows them, a bad value is a 400', async () => {
    const url = `${server.url}/api/surveys/private/results`;
    const shown = (await get(url, bearer(server.token))).body.questions[0];
    assert.equal(shown.interval_for.target, 'population');
    assert.match(shown.interval_for.meaning, /population/);
    const narrow = await get(`${url}?interval=respondents`, bearer(server.token));
    assert.equal(narrow.status, 200, JSON.stringify(narrow.body));
    const tight = narrow.body.questions[0];
    assert.equal(tight.interval_for.target, 'respondents');
    // Population variance = the respondents' + f (1 - f) / n, f the estimate clipped to [0, 1].
    const f = Math.min(1, Math.max(0, shown.options[0].frequency));
    assert.ok(Math.abs(shown.options[0].std_error ** 2 - tight.options[0].std_error ** 2 - f * (1 - f) / shown.n) < 1e-12);
    const own = await get(`${url}?drugs.interval=respondents`, bearer(server.token));
    assert.deepEqual(own.body.questions.map((q) => q.interval_for?.target).slice(0, 2), ['respondents', 'population']);
    for (const query of ['?interval=everyone', '?drugs.interval=all']) {
      const bad = await get(`${url}${query}`, bearer(server.token));
      assert.equal(bad.status, 400, query);
      assert.equal(bad.body.error.code, 'invalid_query');
      assert.match(bad.body.error.message, /interval must be "population" \(the default\) or "respondents"/);
    }
    const csv = (await get(`${server.url}/api/surveys/private/results.csv?interval=respondents`, bearer(server.token))).body;
    const [header, first] = csv.split('\r\n').map((line) => line.split(','));
    assert.equal(first[header.indexOf('interval_for')], 'respondents');
    assert.equal(first[header.indexOf('options')], 'interval=respondents');
  });

  it('results of a survey without reports have n = 0 and null estimates', async () => {
    const response = await get(`${server.url}/api/surveys/tricky/results`);
    assert.equal(response.status, 200);
    assert.equal(response.body.total_epsilon, null);
    assert.equal(response.body.questions[0].n, 0);
    assert.equal(response.body.questions[0].options[0].frequency, null);
    assert.equal(response.body.questions[0].options[0].count, null);
    assert.equal(response.body.questions[1].privacy.epsilon, null);
  });

  it('results.csv has the documented columns, RFC 4180 quoting, and empty epsilon for no formal epsilon', async () => {
    const response = await get(`${server.url}/api/surveys/tricky/results.csv`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type'), /^text\/csv/);
    assert.match(response.headers.get('content-disposition'), /filename="tricky-results\.csv"/);
    const lines = response.body.split('\r\n');
    assert.equal(lines.at(-1), '');
    assert.equal(lines[0], 'survey_id,question_id,question,type,label,measure,estimate,std_error,ci_low,ci_high,consistent,count,n,epsilon,mechanism,' +
      'interval_for,release,release_method,release_epsilon,options');
    assert.equal(lines.length, 1 + 3 + 4 + 1);
    assert.equal(lines[1], 'tricky,q1,"Pick one, ""honestly""",categorical,"A, or B",frequency,,,,,,,0,2,grr,population,,,,');
    assert.equal(lines[2], 'tricky,q1,"Pick one, ""honestly""",categorical,"Say ""no""",frequency,,,,,,,0,2,grr,population,,,,');
    assert.equal(lines[4], 'tricky,q2,Pure negative,categorical,x,frequency,,,,,,,0,,negative,population,,,,');
  });

  it('results.csv carries the estimates of the results document', async () => {
    const json = (await get(`${server.url}/api/surveys/private/results`, bearer(server.token))).body;
    const csv = (await get(`${server.url}/api/surveys/private/results.csv`, bearer(server.token))).body;
    const row = csv.split('\r\n')[1].split(',');
    const yes = json.questions[0].options[0];
    assert.deepEqual(row.slice(0, 6), ['private', 'drugs', 'Have you used a recreational drug in the past 12 months?', 'categorical', 'Yes', 'frequency']);
    assert.deepEqual(row.slice(12), ['1', '1', 'grr', 'population', '', '', '', '']);  // no release, default options
    // Six significant digits: sensible for a spreadsheet, and the same numbers.
    const rounded = (x) => Number(x.toPrecision(6));
    assert.deepEqual(row.slice(6, 12).map(Number),
      [yes.frequency, yes.std_error, yes.ci_low, yes.ci_high, yes.consistent_frequency, yes.count].map(rounded));
  });
});
