// Costly results options pass one gate with per-client limits, whatever the
// kind (issue 27, item 3): a block's cross-tab ran ungated before (10 at once
// took 96 s of CPU with no 429 or 503). And every survey's cached documents
// share one memory budget in which the default documents are pinned, so a
// flood of custom option sets cannot evict the dashboard's default document.
// Clients are told apart by their source address (127.0.0.x, all loopback).
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';

import { bearer, postJson, removeDir, startServer } from './server_harness.mjs';

const OPTIONS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
const ATTRIBUTES = ['v', 'w', 'x', 'y', 'z'].map((id) => ({ id, text: id, options: OPTIONS }));
const BLOCK = {
  format: 'deniable.survey/v1', id: 'wide', version: 1, title: 'Wide', results: 'public', access: 'open',
  questions: [{ id: 'b', text: 'About you', type: 'block', attributes: ATTRIBUTES, joint_order: 5,
    mechanism: { name: 'pmoue', epsilon_per_attribute: 1 } }],
};
const CROSSTAB = 'b.crosstab=v,w,x,y,z';  // 9^5 = 59,049 cells

function report(index) {
  const bits = ATTRIBUTES.map((_, a) => OPTIONS.map((__, k) => ((index * 7 + k * 3 + a) % 4 === 0 ? 1 : 0)));
  return { survey: 'wide', version: 1, responses: { b: { attributes: ATTRIBUTES.map((attribute) => attribute.id), bits } } };
}

function request(url, from = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { localAddress: from, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => { text += chunk; });
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, length: text.length }));
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('one gate for costly results options, one memory budget for cached results', () => {
  let server;
  before(async () => {
    server = await startServer({ args: ['--results-cache-mib', '1'] });
    assert.equal((await postJson(`${server.url}/api/surveys`, BLOCK, bearer(server.token))).status, 201);
    for (let i = 0; i < 200; i += 1) {
      const response = await postJson(`${server.url}/api/surveys/wide/reports`, report(i));
      assert.equal(response.status, 201, JSON.stringify(response.body));
    }
  });
  after(async () => { await server.stop(); removeDir(server.dataDir); });

  it('a block cross-tab from one anonymous address runs one at a time: the others get 429', async () => {
    const url = (i) => `${server.url}/api/surveys/wide/results?${CROSSTAB}&b.min_group=${10 + i}`;
    const responses = await Promise.all(Array.from({ length: 6 }, (_, i) => request(url(i), '127.0.0.2')));
    const statuses = responses.map((response) => response.status);
    assert.ok(statuses.includes(200), statuses.join());
    assert.ok(statuses.includes(429), `one computation per client at a time: ${statuses.join()}`);
    for (const response of responses.filter((r) => r.status === 429)) assert.equal(response.headers['retry-after'], '5');
  });

  it('custom documents beyond the budget do not evict the default document', async () => {
    const defaults = `${server.url}/api/surveys/wide/results`;
    assert.equal((await request(defaults)).status, 200);
    assert.equal((await request(defaults)).headers['x-results-cache'], 'hit');
    // Each large cross-tab document is over the 1 MiB budget: computed and served, not kept.
    for (let i = 0; i < 4; i += 1) {
      const url = `${server.url}/api/surveys/wide/results?${CROSSTAB}&b.min_group=${20 + i}`;
      const first = await request(url, `127.0.0.${10 + i}`);
      assert.equal(first.status, 200);
      assert.ok(first.length > 1 << 20, `a cross-tab document of ${first.length} bytes`);
      assert.equal((await request(url, `127.0.0.${10 + i}`)).headers['x-results-cache'], 'miss', 'not kept past the budget');
    }
    // Small custom documents fit and are kept.
    const small = `${server.url}/api/surveys/wide/results?b.crosstab=v,w`;
    assert.equal((await request(small, '127.0.0.30')).status, 200);
    assert.equal((await request(small, '127.0.0.30')).headers['x-results-cache'], 'hit');
    assert.equal((await request(defaults)).headers['x-results-cache'], 'hit', 'the default document stayed');
  });
});
