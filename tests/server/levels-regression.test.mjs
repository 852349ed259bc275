// Seed 003 over HTTP: the numeric mechanism "levels" (definition errors named
// by the core, report values that are not one of the 2k a levels report can
// take refused, the HierA section of the results with its exact epsilon, mu
// and clamp as query options) and the linear_regression kind (the model's
// public state, rounds that close at the batch, reports for a closed or a
// future round refused with 409, and the same state after a restart, which
// replays the stored reports).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { bearer, get, makeTempDir, postJson, removeDir, startServer } from './server_harness.mjs';
import { issueToken, sendWithToken } from './token_client.mjs';

const LEVELS = {
  format: 'deniable.survey/v1', id: 'income', version: 1, title: 'Income', results: 'public', access: 'open',
  questions: [
    { id: 'pay', text: 'Yearly pay?', type: 'numeric', range: [0, 100],
      mechanism: { name: 'levels', boundaries: [20, 80], epsilons: [1, 3, 1] } },
  ],
};

const MODEL = {
  format: 'deniable.survey/v1', id: 'model', version: 1, title: 'Model', results: 'public', access: 'open',
  questions: [
    { id: 'x', text: 'x?', type: 'numeric', range: [0, 10], required: false, mechanism: { name: 'duchi', epsilon: 1 } },
    { id: 'y', text: 'y?', type: 'numeric', range: [0, 10], required: false, mechanism: { name: 'duchi', epsilon: 1 } },
    { id: 'fit', text: 'y by x', type: 'linear_regression', target: 'y', features: ['x'], epsilon: 1, batch: 4 },
  ],
};

// C(eps) = (e^eps + 1)/(e^eps - 1): a levels report is centre + bit * C(eps_level) * half-width.
const calibration = (epsilon) => (Math.exp(epsilon) + 1) / (Math.exp(epsilon) - 1);

describe('levels mechanism over HTTP', () => {
  let server, atoms;
  before(async () => {
    server = await startServer();
    assert.equal((await postJson(`${server.url}/api/surveys`, LEVELS, bearer(server.token))).status, 201);
    atoms = (await get(`${server.url}/api/surveys/income/results`)).body.questions[0].privacy.details.reports;
    // 200 reports: 3 of each 4 the lenient level's +1, the rest the strict level's -1.
    for (let i = 0; i < 200; i += 1) {
      const atom = i % 4 === 3 ? atoms.find((a) => a.level === 2 && a.bit === -1) : atoms.find((a) => a.level === 1 && a.bit === 1);
      const response = await postJson(`${server.url}/api/surveys/income/reports`, { survey: 'income', version: 1, responses: { pay: [atom.value] } });
      assert.equal(response.status, 201, JSON.stringify(response.body));
    }
  });
  after(async () => { await server.stop(); removeDir(server.dataDir); });

  it('names what is wrong in a levels definition', async () => {
    const bad = structuredClone(LEVELS);
    bad.id = 'bad';
    bad.questions[0].mechanism.boundaries = [80, 20];
    const response = await postJson(`${server.url}/api/surveys`, bad, bearer(server.token));
    assert.equal(response.status, 400);
    assert.match(response.body.error.message, /questions\[0\]\.mechanism\.boundaries\[1\]: must be increasing and inside \(0, 100\), but is 20/);
  });

  it('its report values are the 2k atoms, labelled by level and bit, and any other value is refused', async () => {
    assert.equal(atoms.length, 4);
    const lenient = atoms.find((a) => a.level === 1 && a.bit === 1);
    assert.ok(Math.abs(lenient.value - (50 + 50 * calibration(3))) < 1e-9);
    const response = await postJson(`${server.url}/api/surveys/income/reports`, { survey: 'income', version: 1, responses: { pay: [50] } });
    assert.equal(response.status, 400);
    assert.match(response.body.error.message, /must be one of the 4 values a levels report can take, but is 50/);
  });

  it('states the exact epsilon, never the paper claim, and estimates the mean by HierA with mu and clamp options', async () => {
    const question = (await get(`${server.url}/api/surveys/income/results`)).body.questions[0];
    const details = question.privacy.details;
    assert.equal(details.paper_claimed_epsilon, 3);
    assert.ok(question.privacy.epsilon > 3, `exact ${question.privacy.epsilon}`);
    assert.equal(question.privacy.epsilon, details.exact_epsilon);
    const own = question.mechanism_estimates;
    assert.equal(own.method, 'hiera');
    assert.equal(own.mu, 1);
    // mu = 1 unclamped: the mean of the calibrated reports, exactly.
    const expected = (150 * (50 + 50 * calibration(3)) + 50 * (50 - 50 * calibration(1))) / 200;
    assert.ok(Math.abs(own.mean.value - expected) < 1e-9, `${own.mean.value} vs ${expected}`);
    assert.ok(own.mean.ci_low < own.mean.value && own.mean.value < own.mean.ci_high);
    assert.equal(own.levels.length, 2);
    assert.deepEqual(own.levels.map((level) => level.reported), [150, 50]);
    const paperMode = (await get(`${server.url}/api/surveys/income/results?mu=2&clamp=true`)).body.questions[0];
    assert.equal(paperMode.mechanism_estimates.mu, 2);
    assert.equal(paperMode.mechanism_estimates.clamp, true);
    const badMu = await get(`${server.url}/api/surveys/income/results?mu=40`);
    assert.equal(badMu.status, 400);
    assert.match(badMu.body.error.message, /mu must be/);
  });
});

describe('linear_regression over HTTP', () => {
  let server;
  const dataDir = makeTempDir();
  const modelReport = (round, component, value) => ({ survey: 'model', version: 1, responses: { fit: { round, component, value } } });
  const state = async () => (await get(`${server.url}/api/surveys/model/state`)).body.questions.fit;
  before(async () => {
    server = await startServer({ dataDir });
    assert.equal((await postJson(`${server.url}/api/surveys`, MODEL, bearer(server.token))).status, 201);
  });
  after(async () => { await server.stop(); removeDir(dataDir); });

  it('names a model variable that is not an earlier numeric question', async () => {
    const bad = structuredClone(MODEL);
    bad.id = 'bad-model';
    bad.questions[2].features = ['z'];
    const response = await postJson(`${server.url}/api/surveys`, bad, bearer(server.token));
    assert.equal(response.status, 400);
    assert.match(response.body.error.message, /questions\[2\]\.features\[0\]: no question "z" before this one/);
  });

  it('closes a round at its batch, moves the coefficients, and refuses closed and future rounds', async () => {
    const first = await state();
    assert.deepEqual(first, { round: 1, coefficients: [0, 0], batch: 4, reports_in_round: 0, rounds_completed: 0 });
    const future = await postJson(`${server.url}/api/surveys/model/reports`, modelReport(2, 0, 0.5));
    assert.equal(future.status, 409);
    assert.match(future.body.error.message, /round 2 has not started; the current round is 1/);
    for (const [component, value] of [[0, 1], [1, 0.5], [0, 0.5], [1, -0.5]]) {
      assert.equal((await postJson(`${server.url}/api/surveys/model/reports`, modelReport(1, component, value))).status, 201);
    }
    const second = await state();
    assert.equal(second.round, 2);
    assert.equal(second.rounds_completed, 1);
    // Round 1 moved chain 1; round 2 trains chain 2 (of 8, dealt in turn), which starts at 0.
    assert.deepEqual(second.coefficients, [0, 0]);
    const late = await postJson(`${server.url}/api/surveys/model/reports`, modelReport(1, 0, 0.5));
    assert.equal(late.status, 409);
    assert.equal(late.body.error.code, 'report_not_admitted');
    assert.match(late.body.error.message, /fit: round 1 is closed; the current round is 2: fetch the model's state again/);
    const malformed = await postJson(`${server.url}/api/surveys/model/reports`, modelReport(2, 5, 0.5));
    assert.equal(malformed.status, 400);
    assert.match(malformed.body.error.message, /component must be an integer in \[0, 1\]/);
    const results = (await get(`${server.url}/api/surveys/model/results`)).body.questions[2];
    assert.equal(results.rounds_completed, 1);
    assert.equal(results.rounds.length, 2);
    // Round 1's averaged gradient (0.75, 0) with rate 1/sqrt(1): chain 1's b = (-0.75, 0 - ridge * 0).
    assert.equal(results.rounds[1].chain, 1);
    assert.ok(Math.abs(results.rounds[1].coefficients[0] + 0.75) < 1e-12);
    assert.equal(results.rounds[1].coefficients[1], 0);
    assert.deepEqual(results.names, ['intercept', 'x']);
  });

  it('replays the stored reports after a restart to the same state', async () => {
    const before = await state();
    await server.stop();
    server = await startServer({ dataDir });
    assert.deepEqual(await state(), before);
  });

  it('counts exactly a batch of concurrent reports for one round: the others are refused, never added to a closed round', async () => {
    const { round } = await state();
    const sends = Array.from({ length: 24 }, (_, i) => postJson(`${server.url}/api/surveys/model/reports`, modelReport(round, i % 2, 0.25)));
    const responses = await Promise.all(sends);
    const accepted = responses.filter((response) => response.status === 201).length;
    const refused = responses.filter((response) => response.status === 409 && response.body.error.code === 'report_not_admitted').length;
    assert.equal(accepted, 4, 'the round takes exactly its batch');
    assert.equal(refused, 20);
    const after = await state();
    assert.equal(after.round, round + 1);
    assert.equal(after.reports_in_round, 0);
    const rounds = (await get(`${server.url}/api/surveys/model/results`)).body.questions[2].rounds;
    const closed = rounds.find((entry) => entry.round === round);
    assert.equal(closed.reports, 4, JSON.stringify(closed));
    // The published state is the one a restart replays.
    await server.stop();
    server = await startServer({ dataDir });
    assert.deepEqual(await state(), after);
  });

  it('a report whose token another report of the batch spends never takes a round\'s place from a valid one', async () => {
    const survey = { ...structuredClone(MODEL), id: 'model-invited', access: 'invitation' };
    assert.equal((await postJson(`${server.url}/api/surveys`, survey, bearer(server.token))).status, 201);
    const codes = (await postJson(`${server.url}/api/surveys/model-invited/invitations`, { count: 4 }, bearer(server.token))).body.codes;
    const report = (component) => ({ survey: 'model-invited', version: 1, responses: { fit: { round: 1, component, value: 0.25 } } });
    const tokens = [];
    for (const code of codes) tokens.push(await issueToken(server.url, 'model-invited', code));
    // Each of the 4 tokens sent 4 times at once (16 reports for the round's 4 places): the copies whose token an
    // earlier report of the batch spends are refused before admission, so every token gets its report in.
    const sends = tokens.flatMap((token, k) => Array.from({ length: 4 }, () => sendWithToken(server.url, 'model-invited', report(k % 2), token)));
    const responses = await Promise.all(sends);
    for (let k = 0; k < 4; k++) {
      const statuses = responses.slice(4 * k, 4 * k + 4).map((response) => response.status).sort();
      assert.deepEqual(statuses, [201, 409, 409, 409], JSON.stringify(responses.slice(4 * k, 4 * k + 4).map((r) => r.body)));
    }
    const fit = (await get(`${server.url}/api/surveys/model-invited/state`)).body.questions.fit;
    assert.equal(fit.round, 2);
    assert.equal(fit.rounds_completed, 1);
  });
});

describe('levels in the CSV export', () => {
  it('has the HierA mean and a share row per level', async () => {
    const server = await startServer();
    try {
      assert.equal((await postJson(`${server.url}/api/surveys`, LEVELS, bearer(server.token))).status, 201);
      const atoms = (await get(`${server.url}/api/surveys/income/results`)).body.questions[0].privacy.details.reports;
      for (let i = 0; i < 20; i += 1) {
        const value = atoms[i % atoms.length].value;
        assert.equal((await postJson(`${server.url}/api/surveys/income/reports`, { survey: 'income', version: 1, responses: { pay: [value] } })).status, 201);
      }
      const csv = await fetch(`${server.url}/api/surveys/income/results.csv`).then((response) => response.text());
      const number = '-?[0-9.]+(e-?[0-9]+)?';
      assert.match(csv, /,numeric,,hiera_mean,/);
      assert.match(csv, new RegExp(`,numeric,level 1,share,${number},${number},${number},${number},,10,20,${number},levels,(population)?,,,,\r\n`));
      assert.match(csv, new RegExp(`,numeric,level 2,share,${number},${number},${number},${number},,10,20,${number},levels,(population)?,,,,\r\n`));
    } finally {
      await server.stop();
      removeDir(server.dataDir);
    }
  });
});
