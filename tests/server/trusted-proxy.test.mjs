// Per-client estimation limits behind a load balancer (--trusted-proxy): the
// client is the last X-Forwarded-For hop only when the TCP peer is the
// configured proxy; from any other peer the header is ignored, so a client
// cannot pose as many clients (or as another one) by writing it. Clients are
// told apart by source address as in estimation-flood.test.mjs: 127.0.0.7 is
// the proxy, 127.0.0.8 a client connecting directly.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';

import { BIN, bearer, makeTempDir, postJson, removeDir, startServer } from './server_harness.mjs';

const NUMERIC = {
  format: 'deniable.survey/v1', id: 'heavy', version: 1, title: 'Heavy', results: 'public', access: 'open',
  questions: [{ id: 'x', text: 'x?', type: 'numeric', range: [0, 100], mechanism: { name: 'laplace', epsilon: 0.5 } }],
};
// Runs until the work budget stops it (seconds): the client's one computation.
const EXPENSIVE = 'estimator=em&estimation_cells=1000&replicates=20';
// A custom option set that computes quickly once it has its turn.
const CHEAP = 'replicates=2';

function request(url, { from, headers = {}, signal } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { localAddress: from, headers, signal, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => { text += chunk; });
      response.on('end', () => {
        const json = (response.headers['content-type'] ?? '').startsWith('application/json');
        resolve({ status: response.statusCode, body: json ? JSON.parse(text) : text });
      });
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

describe('--trusted-proxy: whose X-Forwarded-For counts for per-client limits', () => {
  let server;
  let points = 100;  // a fresh option set per request: no cached document
  before(async () => {
    server = await startServer({ args: ['--trusted-proxy', '127.0.0.7'] });
    assert.equal((await postJson(`${server.url}/api/surveys`, NUMERIC, bearer(server.token))).status, 201);
    for (let i = 0; i < 30; i += 1) {
      const report = { survey: 'heavy', version: 1, responses: { x: [(i * 37) % 100] } };
      assert.equal((await postJson(`${server.url}/api/surveys/heavy/reports`, report)).status, 201);
    }
  });
  after(async () => { await server.stop(); removeDir(server.dataDir); });

  // While one expensive computation runs for (from, forwardedFirst), the status of a quick custom request
  // from (from, forwardedSecond); the expensive one is then abandoned (the server stops it).
  async function secondStatus(from, forwardedFirst, forwardedSecond) {
    const url = (query) => `${server.url}/api/surveys/heavy/results?${query}&points=${points++}`;
    const controller = new AbortController();
    const first = request(url(EXPENSIVE), { from, headers: { 'X-Forwarded-For': forwardedFirst }, signal: controller.signal })
      .catch(() => ({ status: 'aborted' }));
    await sleep(300);  // it holds its client's claim now
    const pending = request(url(CHEAP), { from, headers: { 'X-Forwarded-For': forwardedSecond } });
    // A refusal (429) is immediate; a request past the per-client check waits for the lane the first one holds.
    await Promise.race([pending, sleep(1000)]);
    controller.abort();
    const second = await pending;
    await first;
    await sleep(200);  // the abandoned computation frees the lane
    return second;
  }

  it('from a peer that is not the proxy, two X-Forwarded-For values are one client (the peer)', { timeout: 60000 }, async () => {
    const second = await secondStatus('127.0.0.8', '198.51.100.1', '198.51.100.2');
    assert.equal(second.status, 429, JSON.stringify(second.body));
    assert.equal(second.body.error.code, 'estimation_limit');
  });

  it('from the trusted proxy, two X-Forwarded-For values are two clients; the same value is one', { timeout: 60000 }, async () => {
    const other = await secondStatus('127.0.0.7', '198.51.100.1', '198.51.100.2');
    assert.equal(other.status, 200, JSON.stringify(other.body));
    // Only the proxy's own hop (the last) counts: a client-written first hop does not make a new client.
    const same = await secondStatus('127.0.0.7', '198.51.100.3', '203.0.113.5, 198.51.100.3');
    assert.equal(same.status, 429, JSON.stringify(same.body));
  });

  it('a bad --trusted-proxy (or DENIABLE_TRUSTED_PROXY) address stops the server at start with a clear error', () => {
    const dataDir = makeTempDir();
    try {
      const flag = spawnSync(BIN, ['serve', '--port', '0', '--data', dataDir, '--trusted-proxy', 'lb.example.org'],
        { encoding: 'utf8' });
      assert.equal(flag.status, 2);
      assert.match(flag.stderr, /--trusted-proxy: "lb\.example\.org" is not an IP address/);
      const environment = spawnSync(BIN, ['serve', '--port', '0', '--data', dataDir],
        { encoding: 'utf8', env: { ...process.env, DENIABLE_TRUSTED_PROXY: '10.0.0.0/8' } });
      assert.equal(environment.status, 2);
      assert.match(environment.stderr, /DENIABLE_TRUSTED_PROXY: "10\.0\.0\.0\/8" is not an IP address/);
    } finally {
      removeDir(dataDir);
    }
  });
});
