// Per-client limits behind the real load balancer: a node started with
// --trusted-proxy 127.0.0.1 behind nginx (tests/multinode/nginx.conf.template,
// which appends the client's address to X-Forwarded-For). Two clients
// (source addresses 127.0.0.7 and 127.0.0.8) are two clients to the
// estimation gate, though every request reaches the node from nginx; a
// client that writes its own X-Forwarded-For is still itself (nginx appends
// its real address, and only that last hop counts).
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';

import { MULTINODE_SKIP, createSurvey, postJson, sleep, startNodes } from './multinode_harness.mjs';

const NUMERIC = {
  format: 'deniable.survey/v1', id: 'heavy', version: 1, title: 'Heavy', results: 'public', access: 'open',
  questions: [{ id: 'x', text: 'x?', type: 'numeric', range: [0, 100], mechanism: { name: 'laplace', epsilon: 0.5 } }],
};
const EXPENSIVE = 'estimator=em&estimation_cells=1000&replicates=20';  // runs until its work budget stops it
const CHEAP = 'replicates=2';

function request(url, { from, headers = {}, signal } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { localAddress: from, headers, signal, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => { text += chunk; });
      response.on('end', () => resolve({ status: response.statusCode, body: text }));
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('per-client limits through nginx (--trusted-proxy)', { skip: MULTINODE_SKIP, timeout: 120000 }, () => {
  let cluster;
  let points = 100;  // a fresh option set per request: no cached document
  before(async () => {
    cluster = await startNodes({
      count: 1, label: 'proxy', args: ['--trusted-proxy', '127.0.0.1'],
      first: async (node) => {
        assert.equal((await createSurvey(node, NUMERIC)).status, 201);
        for (let i = 0; i < 30; i += 1) {
          const report = { survey: 'heavy', version: 1, responses: { x: [(i * 37) % 100] } };
          assert.equal((await postJson(`${node.url}/api/surveys/heavy/reports`, report)).status, 201);
        }
      },
    });
  });
  after(async () => { await cluster?.stop(); });

  // While an expensive computation of client `first` runs, the status of a quick one from `second` (through nginx).
  async function secondStatus(first, second, headers = {}) {
    const url = (query) => `${cluster.url}/api/surveys/heavy/results?${query}&points=${points++}`;
    const controller = new AbortController();
    const running = request(url(EXPENSIVE), { from: first, signal: controller.signal }).catch(() => ({ status: 'aborted' }));
    await sleep(300);
    const pending = request(url(CHEAP), { from: second, headers });
    await Promise.race([pending, sleep(1000)]);
    controller.abort();
    const answer = await pending;
    await running;
    await sleep(300);  // the abandoned computation frees the lane
    return answer;
  }

  it('two clients behind nginx are two clients', async () => {
    const answer = await secondStatus('127.0.0.7', '127.0.0.8');
    assert.equal(answer.status, 200, answer.body);
  });

  it('one client is one client, also when it writes its own X-Forwarded-For', async () => {
    const plain = await secondStatus('127.0.0.7', '127.0.0.7');
    assert.equal(plain.status, 429, plain.body);
    const forged = await secondStatus('127.0.0.7', '127.0.0.7', { 'X-Forwarded-For': '198.51.100.9' });
    assert.equal(forged.status, 429, forged.body);
    assert.match(forged.body, /estimation_limit/);
  });
});
