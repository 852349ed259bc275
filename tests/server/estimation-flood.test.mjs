// Estimation that nobody can monopolise: a flood of expensive anonymous
// results requests (custom options, from many addresses) leaves categorical
// results and the default options prompt; one address gets one expensive
// computation at a time (429 beyond); a computation whose client hangs up
// stops. Clients are told apart by their source address: the tests connect to
// 127.0.0.1 from 127.0.0.2, 127.0.0.3, ... (all loopback on Linux).
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';

import { bearer, postJson, removeDir, startServer } from './server_harness.mjs';

// Laplace at epsilon 0.5 is a weak channel: plain EM on a fine grid does not
// converge, so em with many cells runs until the work budget stops it.
const NUMERIC = {
  format: 'deniable.survey/v1', id: 'heavy', version: 1, title: 'Heavy', results: 'public', access: 'open',
  questions: [
    { id: 'x', text: 'x?', type: 'numeric', range: [0, 100], mechanism: { name: 'laplace', epsilon: 0.5 } },
    { id: 'y', text: 'y?', type: 'numeric', range: [0, 100], mechanism: { name: 'square_wave', epsilon: 1 } },
  ],
};
const CATEGORICAL = {
  format: 'deniable.survey/v1', id: 'cats', version: 1, title: 'Categorical', results: 'public', access: 'open',
  questions: [{ id: 'q', text: 'Pick', options: ['a', 'b', 'c'], mechanism: { name: 'grr', epsilon: 1 } }],
};
const EXPENSIVE = 'estimator=em&estimation_cells=1000&replicates=20';

// A GET from a chosen local (source) address. Resolves to
// { status, headers, body, ms }; `signal` aborts it (the socket is closed).
function request(url, { from = '127.0.0.1', headers = {}, signal } = {}) {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(url, { localAddress: from, headers, signal, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => { text += chunk; });
      response.on('end', () => {
        const json = (response.headers['content-type'] ?? '').startsWith('application/json');
        resolve({ status: response.statusCode, headers: response.headers, body: json ? JSON.parse(text) : text,
          ms: performance.now() - start });
      });
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

// Deterministic values in [0, 1) (a 32-bit LCG).
function sequence(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

async function postReports(server, count, seed) {
  const next = sequence(seed);
  for (let i = 0; i < count; i += 1) {
    const numeric = { survey: 'heavy', version: 1, responses: {
      x: [Math.round(100 * next() * 100) / 100], y: [Math.round(100 * next() * 100) / 100] } };
    assert.equal((await postJson(`${server.url}/api/surveys/heavy/reports`, numeric)).status, 201);
    const categorical = { survey: 'cats', version: 1, responses: { q: Math.floor(3 * next()) } };
    assert.equal((await postJson(`${server.url}/api/surveys/cats/reports`, categorical)).status, 201);
  }
}

// Waits until the custom lane has room again (a small custom computation is served).
async function waitForFreeLane(server) {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const response = await request(`${server.url}/api/surveys/heavy/results?replicates=2&points=${500 + attempt}`, { from: '127.0.0.99' });
    if (response.status === 200) return;
    await sleep(100);
  }
  throw new Error('the custom lane stayed busy');
}

describe('estimation flood', () => {
  let server;
  before(async () => {
    server = await startServer();
    for (const definition of [NUMERIC, CATEGORICAL]) {
      assert.equal((await postJson(`${server.url}/api/surveys`, definition, bearer(server.token))).status, 201);
    }
    await postReports(server, 60, 1);
  });
  after(async () => { await server.stop(); removeDir(server.dataDir); });

  const results = (survey, query = '') => `${server.url}/api/surveys/${survey}/results${query ? `?${query}` : ''}`;

  it('12 expensive requests from 12 addresses leave categorical results and the default options prompt', { timeout: 60000 }, async (t) => {
    // The default document's own time, without a flood (a new report makes it a cache miss).
    await postReports(server, 1, 2);
    const alone = await request(results('heavy'), { from: '127.0.0.39' });
    assert.equal(alone.status, 200);
    await postReports(server, 1, 3);
    const controllers = Array.from({ length: 12 }, () => new AbortController());
    const flood = controllers.map((controller, i) =>
      request(results('heavy', `${EXPENSIVE}&points=${100 + i}`), { from: `127.0.0.${2 + i}`, signal: controller.signal })
        .catch((error) => ({ status: 'aborted', error })));
    const answered = [];
    flood.forEach((response) => response.then((value) => answered.push(value)));
    try {
      await sleep(300);  // the flood now fills the custom lane and its queue
      const categorical = await request(results('cats'), { from: '127.0.0.40' });
      const defaults = await request(results('heavy'), { from: '127.0.0.41' });
      const csv = await request(`${server.url}/api/surveys/heavy/results.csv`, { from: '127.0.0.42' });
      // No waiting behind the flood: the default document takes about its own
      // time (sharing the CPU with one running estimation), not a queue's.
      const defaultLimit = 2 * alone.ms + 1000;
      for (const [name, response, limit] of [['categorical', categorical, 1000], ['default options', defaults, defaultLimit],
        ['default options csv', csv, 1000]]) {
        assert.equal(response.status, 200, `${name}: ${JSON.stringify(response.body)}`);
        assert.ok(response.ms < limit, `${name} took ${response.ms.toFixed(0)} ms during the flood (limit ${limit.toFixed(0)} ms)`);
      }
      t.diagnostic(`during the flood: categorical ${categorical.status} in ${categorical.ms.toFixed(0)} ms, default options ` +
        `${defaults.status} in ${defaults.ms.toFixed(0)} ms (alone: ${alone.ms.toFixed(0)} ms), csv ${csv.status} in ${csv.ms.toFixed(0)} ms`);
      assert.equal(categorical.headers['x-results-cache'], 'miss');
      assert.equal(defaults.headers['x-results-cache'], 'miss');
      assert.equal(defaults.body.questions[0].estimator, 'pml');
      // The lane runs one estimation (one core of two is left free) and queues 8: the rest were refused at once.
      const busy = answered.filter((response) => response.status === 503);
      t.diagnostic(`flood answered within the probes: ${answered.map((response) => response.status).join(' ') || 'none'}`);
      assert.ok(busy.length >= 1, `refused: ${busy.length}`);
      for (const response of busy) {
        assert.equal(response.body.error.code, 'estimation_busy');
        assert.equal(response.headers['retry-after'], '5');
      }
      assert.ok(answered.every((response) => response.status === 503 || response.status === 200),
        answered.map((response) => response.status).join());
    } finally {
      // The clients of the queued and running ones hang up: the server stops them.
      for (const controller of controllers) controller.abort();
      await Promise.all(flood);
      await waitForFreeLane(server);
    }
  });

  it('one expensive computation per address at a time: a second one answers 429; the admin is not limited', { timeout: 60000 }, async (t) => {
    await waitForFreeLane(server);
    const first = request(results('heavy', `${EXPENSIVE}&points=201`), { from: '127.0.0.50' });
    first.catch(() => {});
    await sleep(300);
    const second = await request(results('heavy', `${EXPENSIVE}&points=202`), { from: '127.0.0.50' });
    t.diagnostic(`second expensive request from the same address: ${second.status} in ${second.ms.toFixed(0)} ms`);
    assert.equal(second.status, 429, JSON.stringify(second.body));
    assert.equal(second.body.error.code, 'estimation_limit');
    assert.match(second.body.error.message, /one at a time per client/);
    assert.equal(second.headers['retry-after'], '5');
    assert.ok(second.ms < 1000, `refused in ${second.ms.toFixed(0)} ms`);
    // Other addresses, the default options and identical requests (which share
    // the running computation) are not refused.
    const identical = request(results('heavy', `${EXPENSIVE}&points=201`), { from: '127.0.0.50' });
    const defaults = await request(results('heavy'), { from: '127.0.0.50' });
    assert.equal(defaults.status, 200);
    const admin = await request(results('heavy', `${EXPENSIVE}&points=203`), { from: '127.0.0.50', headers: bearer(server.token) });
    assert.equal(admin.status, 200);
    const firstResponse = await first;
    assert.equal(firstResponse.status, 200);
    // The expensive document stopped at the work budget and says so.
    const computed = firstResponse.body.questions[0];
    assert.equal(computed.fit.stopped_by, 'work_budget');
    assert.match(computed.warning, /^the em estimate stopped before converging \(it ran out of its work budget/);
    assert.equal((await identical).status, 200);
    // Once it has finished, the address may ask again.
    const again = await request(results('heavy', `${EXPENSIVE}&points=202`), { from: '127.0.0.50' });
    assert.equal(again.status, 200);
  });

  it('a computation whose client disconnects stops, and frees its address and its turn', { timeout: 60000 }, async (t) => {
    await waitForFreeLane(server);
    const controller = new AbortController();
    const abandoned = request(results('heavy', `${EXPENSIVE}&points=301`), { from: '127.0.0.60', signal: controller.signal });
    abandoned.catch(() => {});
    await sleep(500);
    const stops = () => server.output().split('results: survey "heavy": estimation stopped, the client disconnected').length - 1;
    const before = stops();
    const abortedAt = performance.now();
    controller.abort();
    // The server notices, stops estimating and says so in its log.
    while (stops() === before && performance.now() - abortedAt < 3000) await sleep(20);
    assert.equal(stops(), before + 1, 'one more estimation stopped');
    const stoppedMs = performance.now() - abortedAt;
    t.diagnostic(`estimation stopped ${stoppedMs.toFixed(0)} ms after the client disconnected`);
    assert.ok(stoppedMs < 2000, `stopped ${stoppedMs.toFixed(0)} ms after the disconnect`);
    // The same address may start another expensive computation at once (no 429).
    const next = await request(results('heavy', `${EXPENSIVE}&points=302`), { from: '127.0.0.60' });
    assert.equal(next.status, 200, JSON.stringify(next.body));
    // Nothing was cached for the abandoned options: asking again computes.
    const retried = await request(results('heavy', `${EXPENSIVE}&points=301`), { from: '127.0.0.61' });
    assert.equal(retried.status, 200);
    assert.equal(retried.headers['x-results-cache'], 'miss');
  });
});
