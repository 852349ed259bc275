// Questions asked openly and analyses across questions over HTTP: open answers
// sent as given and counted exactly; GET /api/surveys/{id}/analysis
// (breakdowns by an open question, cross-tabs, regressions) computed from the
// stored reports equals core's analysis of the same reports (`deniable
// simulate --analysis` with the same seed), is cached per report count,
// follows the results' access rule, and refuses bad queries with a message
// naming what is wrong.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';

import { BIN, startServer, get, postJson, bearer, makeTempDir, removeDir } from './server_harness.mjs';

const SURVEY = {
  format: 'deniable.survey/v1', id: 'habits', version: 1, title: 'Habits', results: 'admin',
  questions: [
    { id: 'gender', text: 'Gender?', type: 'categorical', options: ['Woman', 'Man', 'Other', 'Prefer not to say'], privacy: 'open' },
    { id: 'age', text: 'Age?', type: 'numeric', range: [18, 90], step: 1, privacy: 'open' },
    { id: 'drug', text: 'Used a drug?', type: 'categorical', options: ['No', 'Yes'], mechanism: { name: 'grr', epsilon: 1 } },
    { id: 'stress', text: 'Main stress?', type: 'categorical', options: ['Work', 'Money', 'Health'], mechanism: { name: 'oue', epsilon: 2 } },
  ],
};

// 600 people: drug use 10% among women, 30% among men, higher with age; "Other" has 3 people (a small group).
function rowsCsv() {
  let seed = 7;
  const next = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const lines = ['gender,age,drug,stress'];
  for (let i = 0; i < 600; i += 1) {
    const gender = i < 3 ? 'Other' : next() < 0.5 ? 'Woman' : 'Man';
    const age = 18 + Math.floor(next() * 72);
    const p = (gender === 'Man' ? 0.3 : 0.1) + (age - 18) / 360;
    lines.push(`${gender},${age},${next() < p ? 'Yes' : 'No'},${['Work', 'Money', 'Health'][Math.floor(next() * 3)]}`);
  }
  return `${lines.join('\n')}\n`;
}

function run(args) {
  return new Promise((resolve) => {
    const child = spawn(BIN, args);
    let stdout = '', stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

const SPECS = [
  { query: 'by=gender&question=drug', spec: { by: 'gender', question: 'drug' } },
  { query: 'cross=drug,stress', spec: { cross: ['drug', 'stress'] } },
  { query: 'regress=drug&on=gender,age', spec: { regress: 'drug', on: ['gender', 'age'] } },
];

describe('questions asked openly and analyses across questions', () => {
  let server, dir, simulated;
  before(async () => {
    server = await startServer();
    dir = makeTempDir('deniable-analysis-');
    fs.writeFileSync(path.join(dir, 'survey.json'), JSON.stringify(SURVEY));
    fs.writeFileSync(path.join(dir, 'rows.csv'), rowsCsv());
    const created = await postJson(`${server.url}/api/surveys`, SURVEY, bearer(server.token));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const analyses = SPECS.flatMap(({ spec }) => ['--analysis', JSON.stringify(spec)]);
    const result = await run(['simulate', '--survey', path.join(dir, 'survey.json'), '--truth-csv', path.join(dir, 'rows.csv'),
      '--respondents', '600', '--seed', '3', '--json', '--options', 'interval=population', ...analyses, '--post', server.url]);
    assert.equal(result.status, 0, result.stderr);
    simulated = JSON.parse(result.stdout);
  });
  after(async () => {
    await server.stop();
    removeDir(server.dataDir);
    removeDir(dir);
  });

  it('counts open answers exactly and hides options of fewer than 5', async () => {
    const results = (await get(`${server.url}/api/surveys/habits/results`, bearer(server.token))).body;
    const gender = results.questions.find((q) => q.id === 'gender');
    assert.equal(gender.privacy.trust, 'open');
    assert.equal(gender.n, 600);
    assert.equal(gender.options[2].frequency, null);
    assert.equal(gender.options[2].hidden, 'fewer than 5 respondents');
    assert.equal(gender.options[3].frequency, null);  // so that 600 minus the shown counts does not give "Other" away
    assert.equal(gender.options[0].count + gender.options[1].count, 597);
    const age = results.questions.find((q) => q.id === 'age');
    assert.ok(age.statistics.mean.low <= age.statistics.mean.value && age.statistics.mean.value <= age.statistics.mean.high);
    // The survey's epsilon leaves the open questions out.
    const definition = (await get(`${server.url}/api/surveys/habits`)).body;
    assert.equal(definition.questions[0].privacy, 'open');
    const bad = await postJson(`${server.url}/api/surveys/habits/reports`,
      { survey: 'habits', version: 1, responses: { gender: 0, age: 17, drug: 1, stress: [0, 1, 0] } });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /responses\.age: must be between 18 and 90, but is 17/);
  });

  for (const { query, spec } of SPECS) {
    it(`serves ${query} equal to core's analysis of the same reports`, async () => {
      const url = `${server.url}/api/surveys/habits/analysis?${query}`;
      const first = await get(url, bearer(server.token));
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.headers.get('x-results-cache'), 'miss');
      const expected = simulated.analyses.find((a) => {
        try { assert.deepEqual(a.analysis, spec); return true; } catch { return false; }
      }).result;
      assert.deepEqual(first.body, expected);
      assert.equal(first.body.interval_for.target, 'population');
      const again = await get(url, bearer(server.token));
      assert.equal(again.headers.get('x-results-cache'), 'hit');
    });
  }

  it('hides a group of fewer than 5 in a breakdown', async () => {
    const body = (await get(`${server.url}/api/surveys/habits/analysis?by=gender&question=drug`, bearer(server.token))).body;
    const other = body.groups.find((g) => g.label === 'Other');
    assert.equal(other.n, '<5');
    assert.equal(other.result, null);
  });

  it('follows the results access rule and names what is wrong in a query', async () => {
    const base = `${server.url}/api/surveys/habits/analysis`;
    assert.equal((await get(`${base}?by=gender&question=drug`)).status, 403);
    const cases = [
      ['', /name an analysis/],
      ['?by=gender&question=drug&colour=red', /colour: unknown parameter/],
      ['?by=drug&question=stress', /drug/],
      ['?cross=drug', /cross/],
      ['?cross=drug,nope', /nope/],
      ['?by=gender&question=drug&interval=everyone', /interval/],
      ['?by=gender&question=drug&cross=drug,stress', /one analysis at a time/],
    ];
    for (const [query, message] of cases) {
      const response = await get(`${base}${query}`, bearer(server.token));
      assert.equal(response.status, 400, `${query}: ${JSON.stringify(response.body)}`);
      assert.equal(response.body.error.code, 'invalid_analysis');
      assert.match(response.body.error.message, message, query);
    }
    assert.equal((await get(`${server.url}/api/surveys/none/analysis?cross=a,b`, bearer(server.token))).status, 404);
  });
});
