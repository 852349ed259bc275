// Questions answered in confidence over HTTP (the central trust model, seed
// 001): the answer is stored and counted but served by no endpoint; the admin
// releases a question (noise drawn once, stored, the same numbers to every
// reader); the ledger composes releases and refuses one past the budget, also
// under concurrent requests; exact counts only where the definition allows;
// the ledger survives kill -9 and a restart.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { bearer, get, makeTempDir, postJson, removeDir, startServer } from './server_harness.mjs';

const SURVEY = {
  format: 'deniable.survey/v1', id: 'conf', version: 1, title: 'In confidence', results: 'public', access: 'open',
  questions: [
    { id: 'drug', text: 'Which substance?', type: 'categorical', options: ['None', 'Cannabis', 'Other'],
      privacy: 'central', budget: 1 },
    { id: 'age', text: 'Age', type: 'histogram', range: [0, 100], histograms: [{ name: 'decades', bins: 10 }],
      privacy: 'central', budget: 2, admin_sees_counts: true },
    { id: 'later', text: 'Optional', type: 'categorical', options: ['a', 'b'], privacy: 'central', budget: 1,
      required: false },
    { id: 'smoke', text: 'Smoke?', type: 'categorical', options: ['Yes', 'No'], mechanism: { name: 'grr', epsilon: 1 } },
  ],
};

// A distinctive true answer that must never come back from any endpoint.
const SECRET_AGE = 37.0123;

const report = (drug, age, smoke) => ({ survey: 'conf', version: 1, responses: { drug, age, smoke } });
const release = (server, question, body, headers = bearer(server.token)) =>
  postJson(`${server.url}/api/surveys/conf/questions/${question}/releases`, body, headers);

describe('questions answered in confidence over HTTP', () => {
  let server;
  const dataDir = makeTempDir();
  before(async () => {
    server = await startServer({ dataDir });
    const created = await postJson(`${server.url}/api/surveys`, SURVEY, bearer(server.token));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    for (let i = 0; i < 30; i += 1) {
      const age = i === 0 ? SECRET_AGE : (i * 7) % 100;
      const response = await postJson(`${server.url}/api/surveys/conf/reports`, report(i % 3, age, i % 2));
      assert.equal(response.status, 201, JSON.stringify(response.body));
    }
  });
  after(async () => { await server.stop(); removeDir(dataDir); });

  it('names what is wrong in a definition and in a report', async () => {
    const bad = structuredClone(SURVEY);
    bad.id = 'bad';
    bad.questions[0].mechanism = { name: 'grr', epsilon: 1 };
    const response = await postJson(`${server.url}/api/surveys`, bad, bearer(server.token));
    assert.equal(response.status, 400);
    assert.match(response.body.error.message, /questions\[0\]\.mechanism: a question answered in confidence has no mechanism/);
    const outside = await postJson(`${server.url}/api/surveys/conf/reports`, report(0, 100.5, 0));
    assert.equal(outside.status, 400);
    assert.match(outside.body.error.message, /responses\.age: must be between 0 and 100, but is 100\.5/);
  });

  it('results show no release before the admin makes one, and never the exact counts', async () => {
    const results = (await get(`${server.url}/api/surveys/conf/results`)).body;
    const drug = results.questions[0];
    assert.equal(drug.trust, 'central');
    assert.equal(drug.n, 30);
    const { interval_for: target, ...ledger } = drug.ledger;
    assert.deepEqual(ledger, { budget: 1, spent: 0, reserved: 0, left: 1, releases: [], scheduled: [] });
    assert.equal(target.target, 'population');
    assert.ok(!('options' in drug) && !('counts' in drug));
    assert.equal(results.total_epsilon, 1 + 2 + 1 + 1);
  });

  it('refuses releases without the admin token, with a bad request, or for a local or unknown question', async () => {
    assert.equal((await release(server, 'drug', { method: 'dp_base', epsilon: 0.1 }, {})).status, 401);
    const bad = await release(server, 'drug', { method: 'dp_base', epsilon: 0 });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.message, 'epsilon: epsilon must be finite and in [0.01, 30], but is 0');
    const unknownField = await release(server, 'drug', { method: 'dp_base', epsilon: 0.1, rho: 0.3 });
    assert.equal(unknownField.status, 400);
    const local = await release(server, 'smoke', { method: 'dp_base', epsilon: 0.1 });
    assert.equal(local.status, 409);
    assert.equal(local.body.error.code, 'not_confidential');
    assert.equal((await release(server, 'nope', { method: 'dp_base', epsilon: 0.1 })).status, 404);
    const empty = await release(server, 'later', { method: 'dp_base', epsilon: 0.1 });
    assert.equal(empty.status, 409);
    assert.equal(empty.body.error.code, 'no_answers');
    const ledger = (await get(`${server.url}/api/surveys/conf/questions/drug/releases`)).body;
    assert.equal(ledger.spent, 0);  // nothing refused was spent
  });

  it('makes a release once and serves the same numbers to every reader', async () => {
    const made = await release(server, 'drug', { method: 'dp_base', epsilon: 0.4 });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.equal(made.body.spent, 0.4);
    assert.ok(Math.abs(made.body.left - 0.6) < 1e-12);
    const values = made.body.release.bins.map((bin) => bin.value);
    assert.equal(values.length, 3);
    assert.ok(values.every((value) => Number.isInteger(value)), 'dp_base adds integer noise to integer counts');
    for (let reader = 0; reader < 2; reader += 1) {
      const results = (await get(`${server.url}/api/surveys/conf/results`)).body;
      assert.deepEqual(results.questions[0].ledger.releases[0].bins.map((bin) => bin.value), values);
      const ledger = (await get(`${server.url}/api/surveys/conf/questions/drug/releases`)).body;
      assert.deepEqual(ledger.releases[0].bins.map((bin) => bin.value), values);
      assert.equal(ledger.releases[0].respondents, 30);
      assert.equal(ledger.releases[0].epsilon, 0.4);
      assert.match(ledger.releases[0].created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
    // Each bin alone in its group: an exact 95% interval around its value.
    for (const bin of made.body.release.bins) assert.ok(bin.ci_low < bin.value && bin.value < bin.ci_high);
    // The CSV: the bin as the label, the release in columns of its own (never "r1 (dp_base, epsilon 0.4): ...").
    const csv = (await get(`${server.url}/api/surveys/conf/results.csv`)).body.split('\r\n');
    const header = csv[0].split(',');
    const rows = csv.slice(1).filter((line) => line.includes(',released_count,')).map((line) => line.split(','));
    assert.equal(rows.length, 3);
    for (const row of rows) {
      assert.equal(row[header.indexOf('release')], made.body.release.id);
      assert.equal(row[header.indexOf('release_method')], 'dp_base');
      assert.equal(row[header.indexOf('release_epsilon')], '0.4');
      assert.doesNotMatch(row[header.indexOf('label')], /epsilon|\(/);
    }
  });

  it('states what release intervals are for: the population by default (noise and sampling), or these respondents', async () => {
    const ledgerUrl = `${server.url}/api/surveys/conf/questions/drug/releases`;
    const wide = (await get(ledgerUrl)).body;
    const tight = (await get(`${ledgerUrl}?interval=respondents`)).body;
    assert.equal(wide.interval_for.target, 'population');
    assert.equal(tight.interval_for.target, 'respondents');
    assert.equal(wide.releases[0].interval_for.target, 'population');
    const width = (bin) => bin.ci_high - bin.ci_low;
    wide.releases[0].bins.forEach((bin, b) => {
      assert.equal(bin.value, tight.releases[0].bins[b].value, 'the same release: only the intervals differ');
      assert.ok(width(bin) >= width(tight.releases[0].bins[b]));
    });
    const results = (await get(`${server.url}/api/surveys/conf/results?interval=respondents`)).body.questions[0];
    assert.equal(results.interval_for.target, 'respondents');
    assert.deepEqual(results.ledger.releases[0].bins, tight.releases[0].bins);
    const bad = await get(`${ledgerUrl}?interval=sample`);
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /interval must be "population"/);
  });

  it('refuses a release past the budget with what is spent and left', async () => {
    const refused = await release(server, 'drug', { method: 'sreb_gca', epsilon: 0.8 });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.code, 'budget_exceeded');
    assert.equal(refused.body.error.message,
      "a release of epsilon 0.8 would exceed this question's budget of 1: 0.4 is spent, 0.6 is left");
  });

  it('never spends past the budget under concurrent releases', async () => {
    // 0.6 is left: of five concurrent releases of 0.2, exactly three fit.
    const replies = await Promise.all(Array.from({ length: 5 }, () => release(server, 'drug', { method: 'dp_base', epsilon: 0.2 })));
    assert.deepEqual(replies.map((r) => r.status).sort(), [201, 201, 201, 409, 409]);
    const ledger = (await get(`${server.url}/api/surveys/conf/questions/drug/releases`)).body;
    assert.equal(ledger.releases.length, 4);
    assert.ok(Math.abs(ledger.spent - 1) < 1e-9);
    assert.equal(ledger.left, 0);
  });

  it('publishes grouped releases with views and post-processing on read', async () => {
    const made = await release(server, 'age', { method: 'sreb_gca', epsilon: 1, rho: 0.3 });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.deepEqual(made.body.release.request, { method: 'sreb_gca', epsilon: 1, rho: 0.3 });
    assert.equal(made.body.release.views[0].name, 'decades');
    const processed = await get(`${server.url}/api/surveys/conf/questions/age/releases?postprocess=clamp,round`);
    assert.equal(processed.status, 200);
    const values = processed.body.releases[0].postprocessed;
    assert.ok(values.every((v) => Number.isInteger(v) && v >= 0));
    const badStep = await get(`${server.url}/api/surveys/conf/questions/age/releases?postprocess=smooth`);
    assert.equal(badStep.status, 400);
    assert.match(badStep.body.error.message, /postprocess: "smooth" is not a step/);
  });

  it('makes a release scheduled at a chosen count when that answer arrives, and cancels one', async () => {
    // "later" is optional and nobody answered it yet.
    const scheduled = await release(server, 'later', { method: 'dp_base', epsilon: 0.5, at_respondents: 3 });
    assert.equal(scheduled.status, 202, JSON.stringify(scheduled.body));
    assert.equal(scheduled.body.scheduled.id, 's1');
    assert.equal(scheduled.body.reserved, 0.5);
    assert.equal(scheduled.body.left, 0.5);
    const tooMuch = await release(server, 'later', { method: 'dp_base', epsilon: 0.6 });
    assert.equal(tooMuch.status, 409);
    assert.match(tooMuch.body.error.message, /0\.5 is reserved by scheduled releases, 0\.5 is left/);
    const other = await release(server, 'later', { method: 'dp_base', epsilon: 0.2, at_respondents: 1000 });
    assert.equal(other.status, 202);
    const cancelled = await postJson(`${server.url}/api/surveys/conf/questions/later/releases/s2/cancel`, {}, bearer(server.token));
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.equal(cancelled.body.reserved, 0.5);
    assert.equal((await postJson(`${server.url}/api/surveys/conf/questions/later/releases/s2/cancel`, {}, bearer(server.token))).status, 404);
    for (let i = 0; i < 3; i += 1) {
      const response = await postJson(`${server.url}/api/surveys/conf/reports`,
        { survey: 'conf', version: 1, responses: { drug: 0, age: 50, smoke: 0, later: i % 2 } });
      assert.equal(response.status, 201);
      const ledger = (await get(`${server.url}/api/surveys/conf/questions/later/releases`)).body;
      // Made exactly when the third answer was acknowledged.
      assert.equal(ledger.releases.length, i === 2 ? 1 : 0);
    }
    const ledger = (await get(`${server.url}/api/surveys/conf/questions/later/releases`)).body;
    assert.equal(ledger.releases[0].respondents, 3);
    assert.equal(ledger.spent, 0.5);
    assert.equal(ledger.reserved, 0);
    assert.deepEqual(ledger.scheduled, []);
  });

  it('shows exact counts to the admin only where the definition allows', async () => {
    assert.equal((await get(`${server.url}/api/surveys/conf/questions/age/counts`)).status, 401);
    const refused = await get(`${server.url}/api/surveys/conf/questions/drug/counts`, bearer(server.token));
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'exact_counts_not_allowed');
    const counts = await get(`${server.url}/api/surveys/conf/questions/age/counts`, bearer(server.token));
    assert.equal(counts.status, 200);
    assert.equal(counts.body.n, 33);
    assert.equal(counts.body.bins.reduce((sum, bin) => sum + bin.count, 0), 33);
    assert.match(counts.body.note, /not private/);
  });

  it('serves the raw answers from no endpoint', async () => {
    const urls = ['/api/surveys', '/api/surveys/conf', '/api/surveys/conf/results', '/api/surveys/conf/results.csv',
      '/api/surveys/conf/state', '/api/surveys/conf/questions/age/releases', '/api/surveys/conf/questions/drug/releases'];
    for (const url of urls) {
      for (const headers of [{}, bearer(server.token)]) {
        const response = await get(`${server.url}${url}`, headers);
        assert.ok(response.status === 200 || (response.status === 401 && !headers.Authorization), url);
        const text = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
        assert.ok(!text.includes(String(SECRET_AGE)), `${url} leaks a raw answer`);
      }
    }
  });

  it('keeps the ledger across kill -9 and a restart: the same releases, the budget still spent', async () => {
    const before = (await get(`${server.url}/api/surveys/conf/results`)).body;
    await server.kill9();
    server = await startServer({ dataDir });
    const afterRestart = (await get(`${server.url}/api/surveys/conf/results`)).body;
    assert.deepEqual(afterRestart.questions[0].ledger, before.questions[0].ledger);
    assert.deepEqual(afterRestart.questions[1].ledger, before.questions[1].ledger);
    const refused = await release(server, 'drug', { method: 'dp_base', epsilon: 0.01 });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.code, 'budget_exceeded');
  });
});

describe('the ledger of an admin-only survey', () => {
  it('is read with the admin token only', async () => {
    const server = await startServer();
    try {
      const survey = structuredClone(SURVEY);
      survey.id = 'private';
      survey.results = 'admin';
      assert.equal((await postJson(`${server.url}/api/surveys`, survey, bearer(server.token))).status, 201);
      assert.equal((await get(`${server.url}/api/surveys/private/questions/drug/releases`)).status, 403);
      const ledger = await get(`${server.url}/api/surveys/private/questions/drug/releases`, bearer(server.token));
      assert.equal(ledger.status, 200);
      assert.equal(ledger.body.budget, 1);
    } finally {
      await server.stop();
      removeDir(server.dataDir);
    }
  });
});

describe('a scheduled release racing reports', () => {
  it('counts exactly the first N answers, however the reports were batched (N = 50 and 80)', async () => {
    const server = await startServer();
    try {
      const survey = {
        format: 'deniable.survey/v1', id: 'race', version: 1, title: 'Race', results: 'public', access: 'open',
        questions: [{ id: 'q', text: 'Which?', type: 'categorical', options: ['a', 'b'], privacy: 'central', budget: 30 }],
      };
      assert.equal((await postJson(`${server.url}/api/surveys`, survey, bearer(server.token))).status, 201);
      const url = `${server.url}/api/surveys/race/questions/q/releases`;
      // epsilon 15 per release, sensitivity 2: each bin's draw is 0 with probability 1 - 2a/(1 + a),
      // a = e^-7.5, and |N1 + N2| > 2 has probability below 1e-6, so the total shows the counts behind it.
      for (const at of [50, 80]) {
        const scheduled = await postJson(url, { method: 'dp_base', epsilon: 15, at_respondents: at }, bearer(server.token));
        assert.equal(scheduled.status, 202, JSON.stringify(scheduled.body));
      }
      // 120 reports at once: the writer commits them in batches, so one batch crosses 50 and another 80.
      const responses = await Promise.all(Array.from({ length: 120 }, (_, i) => postJson(`${server.url}/api/surveys/race/reports`,
        { survey: 'race', version: 1, responses: { q: i % 2 } })));
      assert.ok(responses.every((response) => response.status === 201));
      const ledger = (await get(url)).body;
      assert.deepEqual(ledger.releases.map((made) => made.respondents), [50, 80]);
      for (const made of ledger.releases) {
        const total = made.bins.reduce((sum, bin) => sum + bin.value, 0);
        assert.ok(Math.abs(total - made.respondents) <= 2, `release at ${made.respondents} totals ${total}`);
      }
    } finally {
      await server.stop();
      removeDir(server.dataDir);
    }
  });
});
