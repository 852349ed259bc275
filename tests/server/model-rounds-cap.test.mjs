// Issue 27 item 1, the rounds themselves: a model's rounds are bounded by its
// "max_rounds", so one anonymous client at batch 1 cannot make 100,000 of
// them. Past the cap the model is complete: a gradient report is refused
// with 409 "model_complete" (said apart from a round that moved on), the
// public state says "complete", a report with null for the model is stored
// (its other answers count), and the results say the model is complete, also
// after a restart (which replays the stored reports).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { bearer, get, makeTempDir, postJson, removeDir, startServer } from './server_harness.mjs';

const MAX_ROUNDS = 6;
const MODEL = {
  format: 'deniable.survey/v1', id: 'capped', version: 1, title: 'Capped model', results: 'public', access: 'open',
  questions: [
    { id: 'x', text: 'x?', type: 'numeric', range: [0, 10], required: false, mechanism: { name: 'duchi', epsilon: 1 } },
    { id: 'y', text: 'y?', type: 'numeric', range: [0, 10], required: false, mechanism: { name: 'duchi', epsilon: 1 } },
    { id: 'fit', text: 'y by x', type: 'linear_regression', target: 'y', features: ['x'], epsilon: 1, batch: 1, chains: 2,
      max_rounds: MAX_ROUNDS },
  ],
};

describe('a model bounded by max_rounds over HTTP', () => {
  let server;
  const dataDir = makeTempDir();
  const url = (tail) => `${server.url}/api/surveys/capped${tail}`;
  const report = (fit) => ({ survey: 'capped', version: 1, responses: { fit } });
  const state = async () => (await get(url('/state'))).body.questions.fit;
  before(async () => {
    server = await startServer({ dataDir });
    assert.equal((await postJson(`${server.url}/api/surveys`, MODEL, bearer(server.token))).status, 201);
  });
  after(async () => { await server.stop(); removeDir(dataDir); });

  it('names a max_rounds out of bounds', async () => {
    const bad = structuredClone(MODEL);
    bad.id = 'bad-cap';
    bad.questions[2].max_rounds = 100001;
    const response = await postJson(`${server.url}/api/surveys`, bad, bearer(server.token));
    assert.equal(response.status, 400);
    assert.match(response.body.error.message, /questions\[2\]\.max_rounds: must be between 1 and 100000, but is 100001/);
  });

  it('refuses rounds past the cap with 409 model_complete, stores the report without the model, and says the model is complete', async () => {
    // While training, the model's part cannot be left out.
    const early = await postJson(url('/reports'), report(null));
    assert.equal(early.status, 409);
    assert.equal(early.body.error.code, 'report_not_admitted');
    for (let round = 1; round <= MAX_ROUNDS; round += 1) {
      const current = await state();
      assert.equal(current.round, round);
      assert.equal(current.complete, undefined);
      const sent = await postJson(url('/reports'), report({ round, component: round % 2, value: 0.5 }));
      assert.equal(sent.status, 201, JSON.stringify(sent.body));
    }
    const done = await state();
    assert.equal(done.complete, true);
    assert.equal(done.rounds_completed, MAX_ROUNDS);
    const past = await postJson(url('/reports'), report({ round: MAX_ROUNDS + 1, component: 0, value: 0.5 }));
    assert.equal(past.status, 409);
    assert.equal(past.body.error.code, 'model_complete');
    assert.match(past.body.error.message, /fit: the model is complete: its 6 rounds \(max_rounds\) are all done/);
    const stale = await postJson(url('/reports'), report({ round: MAX_ROUNDS, component: 0, value: 0.5 }));
    assert.equal(stale.body.error.code, 'model_complete');
    const without = await postJson(url('/reports'), { survey: 'capped', version: 1, responses: { x: [5], fit: null } });
    assert.equal(without.status, 201, JSON.stringify(without.body));
    const results = (await get(url('/results'))).body.questions[2];
    assert.equal(results.complete, true);
    assert.equal(results.max_rounds, MAX_ROUNDS);
    assert.equal(results.rounds_completed, MAX_ROUNDS);
    assert.equal(results.n, MAX_ROUNDS, 'the null is not a gradient');
    assert.match(results.note, /the model is complete: its 6 rounds \(max_rounds\) are done/);
  });

  it('is still complete after a restart', async () => {
    await server.stop();
    server = await startServer({ dataDir });
    assert.equal((await state()).complete, true);
    const past = await postJson(url('/reports'), report({ round: MAX_ROUNDS + 1, component: 1, value: 0.5 }));
    assert.equal(past.body.error.code, 'model_complete');
    assert.equal((await get(url('/results'))).body.questions[2].complete, true);
  });
});

// Held-out rounds ("holdout"): the last rounds take squared errors of the
// final coefficients, not gradients, and the results carry the estimate.
describe('a model with held-out rounds over HTTP', () => {
  let server;
  const dataDir = makeTempDir();
  const HELD = structuredClone(MODEL);
  HELD.id = 'held';
  Object.assign(HELD.questions[2], { max_rounds: 4, holdout: 0.5 });
  const url = (tail) => `${server.url}/api/surveys/held${tail}`;
  const report = (fit) => ({ survey: 'held', version: 1, responses: { fit } });
  const state = async () => (await get(url('/state'))).body.questions.fit;
  before(async () => {
    server = await startServer({ dataDir });
    assert.equal((await postJson(`${server.url}/api/surveys`, HELD, bearer(server.token))).status, 201);
  });
  after(async () => { await server.stop(); removeDir(dataDir); });

  it('trains rounds 1-2, takes squared errors in rounds 3-4, and reports the out-of-sample error', async () => {
    for (const round of [1, 2]) assert.equal((await postJson(url('/reports'), report({ round, component: 0, value: 0.5 }))).status, 201);
    const held = await state();
    assert.equal(held.round, 3);
    assert.equal(held.score, true);
    const gradient = await postJson(url('/reports'), report({ round: 3, component: 0, value: 0.5 }));
    assert.equal(gradient.status, 409);
    assert.equal(gradient.body.error.code, 'report_not_admitted');
    assert.match(gradient.body.error.message, /round 3 is held out to score the model: it takes squared errors, not gradients/);
    for (const [round, value] of [[3, -0.5], [4, -0.9]]) {
      const sent = await postJson(url('/reports'), report({ round, squared_error: value }));
      assert.equal(sent.status, 201, JSON.stringify(sent.body));
    }
    const results = (await get(url('/results'))).body.questions[2];
    assert.equal(results.complete, true);
    assert.equal(results.out_of_sample.reports, 2);
    // 2 (mean + 1) of -0.5 and -0.9: 0.6.
    assert.ok(Math.abs(results.out_of_sample.mse_unbiased - 0.6) < 1e-12, JSON.stringify(results.out_of_sample));
    assert.equal(results.out_of_sample.rounds[0], 3);
  });
});
