// Optional questions over HTTP: "required": false in a definition; a report
// may leave such a question out (and only such a one); results count each
// question's own respondents and the skips; the CSV export and the canonical
// definition carry them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { bearer, get, postJson, removeDir, startServer } from './server_harness.mjs';

const DEFINITION = {
  format: 'deniable.survey/v1', id: 'opt', version: 1, title: 'Optional', results: 'public',
  questions: [
    { id: 'main', text: 'Main?', options: ['a', 'b'], mechanism: { name: 'grr', epsilon: 1 } },
    { id: 'extra', text: 'Extra?', options: ['x', 'y', 'z'], required: false, mechanism: { name: 'oue', epsilon: 1 } },
    { id: 'hours', text: 'Hours?', type: 'numeric', range: [0, 10], required: false,
      mechanism: { name: 'laplace', epsilon: 1 } },
  ],
};

describe('optional questions', () => {
  let server;
  before(async () => {
    server = await startServer();
    const created = await postJson(`${server.url}/api/surveys`, DEFINITION, bearer(server.token));
    assert.equal(created.status, 201, JSON.stringify(created.body));
  });
  after(async () => { await server.stop(); removeDir(server.dataDir); });

  const submit = (responses) => postJson(`${server.url}/api/surveys/opt/reports`, { survey: 'opt', version: 1, responses });

  it('keeps "required": false in the canonical definition, and only then', async () => {
    const definition = (await get(`${server.url}/api/surveys/opt`)).body;
    assert.equal(definition.questions[0].required, undefined);
    assert.equal(definition.questions[1].required, false);
    assert.equal(definition.questions[2].required, false);
  });

  it('refuses "required" that is not a boolean, naming the field', async () => {
    const bad = structuredClone(DEFINITION);
    bad.id = 'opt-bad';
    bad.questions[1].required = 'no';
    const response = await postJson(`${server.url}/api/surveys`, bad, bearer(server.token));
    assert.equal(response.status, 400);
    assert.equal(response.body.error.message, 'questions[1].required: must be true or false, but is "no"');
  });

  it('accepts reports that leave optional questions out, refuses one without a required question', async () => {
    assert.equal((await submit({ main: 0, extra: [1, 0, 0], hours: [4.5] })).status, 201);
    assert.equal((await submit({ main: 1 })).status, 201);
    assert.equal((await submit({ main: 1, hours: [2] })).status, 201);
    const missing = await submit({ extra: [0, 1, 0] });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.message, 'responses.main: missing response');
  });

  it('serves the public state clients fetch before answering (none of these kinds has one), 404 for an unknown survey', async () => {
    const state = await get(`${server.url}/api/surveys/opt/state`);
    assert.equal(state.status, 200);
    assert.deepEqual(state.body, { survey: 'opt', version: 1, questions: {} });
    const unknown = await get(`${server.url}/api/surveys/nope/state`);
    assert.equal(unknown.status, 404);
  });

  it('counts each question\'s respondents and its skips in the results and the CSV', async () => {
    const results = (await get(`${server.url}/api/surveys/opt/results?replicates=10`)).body;
    assert.equal(results.respondents, 3);
    const [main, extra, hours] = results.questions;
    assert.equal(main.n, 3);
    assert.equal(main.required, undefined);
    assert.equal(main.skipped, undefined);
    assert.deepEqual([extra.n, extra.required, extra.skipped], [1, false, 2]);
    assert.deepEqual([hours.n, hours.required, hours.skipped], [2, false, 1]);
    assert.equal(results.total_epsilon, 3);  // what a respondent who answers everything spends
    const csv = await get(`${server.url}/api/surveys/opt/results.csv?replicates=10`);
    assert.equal(csv.status, 200);
    const rows = csv.body.trim().split('\r\n');
    assert.equal(rows.filter((row) => row.startsWith('opt,extra,')).length, 3);
    assert.ok(rows.filter((row) => row.startsWith('opt,extra,')).every((row) => row.split(',').at(-8) === '1'));
  });
});
